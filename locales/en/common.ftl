# Shared words, plural forms, errors and notices.
# Texts with HTML tags are shown in HTML parse mode; the keys err-*, btn-*, opt-*, cmd-*,
# settings-* are shown as plain text (alerts, buttons, the command menu).

## A number with its noun in the right form (one / other).
points = { $count ->
    [one] { $count } point
   *[other] { $count } points
}
tiles = { $count ->
    [one] { $count } tile
   *[other] { $count } tiles
}
players = { $count ->
    [one] { $count } player
   *[other] { $count } players
}
matches = { $count ->
    [one] { $count } match
   *[other] { $count } matches
}
times = { $count ->
    [one] { $count } time
   *[other] { $count } times
}
seconds = { $count ->
    [one] { $count } second
   *[other] { $count } seconds
}
minutes = { $count ->
    [one] { $count } minute
   *[other] { $count } minutes
}

## Error alerts (up to 200 characters, no HTML).
err-not-your-turn = It is not your turn.
err-stale-button = This button is out of date — see the latest message.
err-not-in-game = You are not playing in this match.
err-game-full = All seats are taken: the table already has 4 players.
err-need-players = At least 2 players are needed to start.
err-only-creator-or-admin = Only the player who opened the lobby or a chat admin can do this.
err-only-admin = Only chat admins can do this.
err-already-joined = You are already at the table.
err-not-joined = You are not at this table.
err-no-game = There is no game in this chat. Start one: /newgame
err-game-exists = This chat already has an open lobby or a match.
err-lobby-exists = A lobby (#{ $id }) is already open in this chat — here it is: take a seat with its button or /join.
err-match-exists = Match #{ $id } is already being played in this chat — here is its table. A new one can start when it ends (or is stopped: /stopgame).
err-match-exists-here = Your match #{ $id } is already being played here — here are your tiles. /hand sends them again, /stopgame ends the match.
err-no-match-here = There is no match here now. Play against the computer: /newgame
err-lobby-closed = This lobby is closed.
err-match-closed = This match is closed.
err-other-chat = This button belongs to a game in another chat.
err-newgame-group-words = In a group /newgame takes only a game's name (/newgame sea_goat); seat computer players in the lobby with /addbot [easy|normal|hard].
err-dm-needed = First open a private chat with the bot and press “Start” — your tiles will arrive there.
err-group-only = This command works in groups only.
err-private-only = This command works in the private chat with the bot only.
err-no-hand = You have no match right now.
err-unexpected = Sorry, something went wrong. Nothing is lost: the table shows where the game stands, and /hand sends your tiles again.

## Buttons.
btn-join = ✋ Take a seat
btn-leave = 🚪 Leave
btn-start = ▶️ Start
btn-cancel = ✖️ Cancel
btn-addbot = 🤖 Add a bot
btn-rmbot = 🤖 Remove a bot
btn-rematch = 🔁 Rematch
btn-open-dm = 💬 Open a chat with the bot
btn-stop-yes = ⏹ Yes, stop it
btn-stop-no = ▶️ No, keep playing
btn-back = ← Back
btn-done = ✅ Done

## Notices in the group.
notice-dm-link = { $name }, to take a seat <a href="{ $url }">open a chat with the bot</a> and press “Start”.
notice-dm-closed = { $name } is not getting their tiles: the bot cannot write to them. Open a chat with the bot and press “Start” — the tiles arrive at once.
notice-afk-warning = { $name }, the bot has already moved for you { times } in a row. One more miss and the match ends by timeout.
notice-hands-sent = The tiles have been sent privately. You will get a message when it is your turn.

## Language.
lang-name = { $code ->
    [ru] Русский
    [uk] Українська
   *[en] English
}
lang-default = { $name } (the default)
lang-choose = Choose a language:
lang-changed = Done: I speak English now.
notice-bot-removed = 🚫 The bot was removed from the group «{ $chat }», and match #{ $id } was closed without rating. Play in another group, or here: /newgame

## Computer players' names (ui/names.py): “Bot Fyodor 🤖”.
bot-name = Bot { $persona } 🤖
bot-persona-1 = Fyodor
bot-persona-2 = Zina
bot-persona-3 = Stepan
bot-persona-4 = Marusya
bot-persona-5 = Kuzma
bot-persona-6 = Glasha
