# Help, command descriptions, leaderboards and statistics.

help-group =
    <b>🐐 Kozel — dominoes in your chat</b>
    /newgame [game] — open a lobby and take a seat (for example /newgame sea_goat; the games are in /rules)
    /join — take a seat, /leave — leave it
    /startgame — deal (the lobby's opener or an admin)
    /stopgame — stop the match without rating
    /score — the match score
    /top — this chat's leaderboard, /top all — global
    /stats — your statistics (as a reply — someone else's)
    /rules — this chat's rules, /settings — settings
    /lang — the chat's language
    Your tiles arrive privately: open a chat with the bot and press “Start”.
help-private =
    <b>🐐 Kozel — dominoes in Telegram</b>
    Add me to a group and type /newgame there. Your tiles and move buttons arrive here, in private.
    /hand — send my hand again
    /stats — your statistics
    /top — the global leaderboard
    /rules [game] — a game's rules (every game: /rules alone)
    /lang — language
start-private =
    Hi! I host the domino game Kozel (Goat) and nine more games.
    🤖 Play right here against the computer — /newgame.
    👥 With friends — add me to a group and type /newgame there: your tiles will arrive here.
    Rules — /rules, every command — /help.
greet-group =
    👋 Hi! I host games of the domino game Kozel here.
    1. Everyone who wants to play opens a chat with me once (the button below) and presses “Start” — their tiles arrive there.
    2. /newgame opens a lobby, players press “Take a seat”, /startgame deals.
    Rules — /rules, commands — /help, settings — /settings.
    I speak English here; a group admin changes the group's language with /lang.
start-joined = ✅ You are seated in “{ $chat }”. Your tiles arrive here when the match starts.

## Command menu descriptions (plain text, up to 256 characters).
cmd-newgame = Open a lobby for a new game
cmd-join = Take a seat
cmd-leave = Leave the table
cmd-startgame = Deal and start
cmd-stopgame = Stop the match
cmd-score = The match score
cmd-top = Leaderboard (all — global)
cmd-stats = Player statistics
cmd-rules = This chat's rules
cmd-settings = Chat settings
cmd-lang = Language
cmd-help = Help
cmd-start = Start
cmd-hand = Send my hand again
cmd-top-private = Global leaderboard
cmd-stats-private = My statistics

## Computer players (issue 6).
help-group-bots = /addbot [easy|normal|hard] — seat a computer player 🤖 (the Remove bot button frees the seat)
help-private-bots = /newgame [1-3] [game] [easy|normal|hard] — play here against 1–3 computer players 🤖 (with no words: buttons)
    /stopgame — stop the match against the computer here (not rated)
err-bad-strength = Choose a strength: easy, normal or hard.
err-bad-solo = Usage: /newgame [1-3] [game] [easy|normal|hard] — for example /newgame 3 telephone hard
cmd-addbot = Seat a computer player
cmd-newgame-private = Play against computer players
