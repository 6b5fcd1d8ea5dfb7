# The Mini App page (issue 21): the words of the page itself; the table's lines, summaries and
# the match end come from the other files.
webapp-title = Kozel — the table
webapp-bazar = Bazar
webapp-reserve = reserve
webapp-count = Count
webapp-your-turn = Your turn
webapp-turn-of = { $name }'s turn
webapp-waiting = Waiting
webapp-spectator = You are watching
webapp-choose-end = Choose where to put it
webapp-play = Play
webapp-cancel = Cancel
webapp-round = Round
webapp-last-moves = Last moves
webapp-summary = Round summary
webapp-match-end = Match over
webapp-close = Close
webapp-tiles = tiles
webapp-score = score
webapp-offline = Connection lost, reconnecting…
webapp-no-moves = No move fits: the bot draws or knocks for you.
webapp-closed = closed
webapp-along = along
webapp-seconds = s
webapp-you = you
webapp-bot = computer
webapp-left = out
webapp-open = 🁫 Open the table
webapp-queue = in the queue (nobody sees them)
webapp-legend = Pictures = numbers
