# The local table (issue 34): the page `make run` opens without a token. The bot's own
# messages in it come from the other files.
local-title = Kozel — local table
local-badge = local table
local-banner = This is a local table: the bot plays here against a Telegram of its own on this computer, and nothing leaves it. To bring it to your group, create the bot with @BotFather (/newbot) and run `make run` again with BOT_TOKEN set to its token.
local-you = You are
local-new-person = + another person
local-new-tab = + Player in a new tab
local-who = Who is playing in this tab?
local-group = Home table
local-group-tab = Group
local-private-tab = Private chat
local-table-tab = Table
local-members = { $count ->
    [one] { $count } member
   *[other] { $count } members
}
local-write = Write a message or a /command…
local-send = Send
local-commands = Commands
local-edited = edited
local-bot = bot
local-file = File
local-ok = OK
local-new-game = New game
local-game = Game
local-options = Options
local-opponents = Opponents
local-computers = Computer players
local-strength = Strength
local-wait-people = Keep the free seats for people from other tabs (deal with “Start” in the group)
local-deal = Deal
local-open-lobby = Open the lobby
local-lobby-open = A lobby is open in the group: join it there, and start it when everyone is seated.
local-rules = The rules in short
local-private-match = A match in the private chat
local-no-match = No match yet: choose a game.
local-spectating = The seats are taken: you are watching.
local-name = Name
local-language = Language
local-offline = No connection to the local table: is `make run` still running?
local-miniapp = The table
local-players = { $min ->
    [4] exactly 4, in teams
   *[other] { $min }–{ $max } players
}
local-err-open = A lobby or a match is already open in the group: finish it, or stop it with /stopgame.
local-err-players = That game does not seat so many, or needs more: change the computer players, or keep the seats for people.
local-err-options = That option is not one of this game's.
local-err-bot = The bot did not answer in time: see the group.
local-names = Ann, Bob, Kate, Greg, Dasha, Egor, Zoe, Ivan
local-game-line = { $variant ->
    [sea_goat] Only the round's loser records; fast leads; the goat at 125
    [donkey] On a cross; a double may close its end 🔒
    [chcv] Every round goes to the highest hand; [0|0] and [6|6] are special
    [telephone] On a cross; ends adding up to a multiple of 5 score; 225 wins
    [muggins] As Telephone, doubles across or along; 200 wins
    [traditional] The round's winner scores the others' hands; 100 wins
    [sport] Kozel over a fixed number of deals
    [seven] Ends adding up to 6 move again, to 7 make the next draw; sticks
    [general] No points: the player after the one who went out loses the round
   *[classic] Pips left in hand are points; 101 makes the goat
}
