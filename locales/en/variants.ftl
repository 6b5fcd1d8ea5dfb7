# The games of the Kozel family (RULES.md §2): names, the rules in short, choosing a game,
# the table, round and match ends of each game.

## Names (plain text: buttons, menus).
variant-name = { $variant ->
    [sea_goat] Sea goat
    [donkey] Donkey
    [chcv] ChChV
    [telephone] Telephone
    [muggins] Muggins
    [traditional] Traditional domino
    [sport] Sport domino
    [seven] Seven
    [general] General
    [mexican_train] Mexican Train
    [kolbasa] Kolbasa
   *[classic] Kozel
}

## Other names of a game (/newgame, /rules and /top take them in any of the bot's languages).
variant-aliases-classic = kozel, goat, classic, classic kozel
variant-aliases-sea_goat = sea, seagoat, sea goat
variant-aliases-donkey = osel, donkey
variant-aliases-chcv = chchv, chechev
variant-aliases-telephone = phone, telephone
variant-aliases-muggins = muggins
variant-aliases-traditional = trad, traditional, traditional domino
variant-aliases-sport = sports, sport domino
variant-aliases-seven = sevens, semerka
variant-aliases-general = general
variant-aliases-mexican_train = train, mexican, mexican train, trains
variant-aliases-kolbasa = kolbasa, sausage

## The rules in short: how the game differs from classic Kozel.
variant-about = { $variant ->
    [sea_goat] Only the round's loser records — whoever holds the most; nobody else writes anything. A score opens at 25 points; less is lost. Two doubles may go at once, one on each end. A lone [0|0] in hand is 25 points, [6|6] 50. A fast lead of [6|6] or [0|0] (when every opponent's score is open): the loser records 50 or 75, and a fish in that round is dealt again. The extraordinary lead of [0|0] and [6|6] together: from then on everyone plays two tiles, and the loser is the extraordinary goat. Going out with [6|6]: the loser records 100 and the finisher's score goes back to 0; going out with [0|0] makes the loser the snotty goat at once (with [0|0] and [6|6], the admiral).
    [donkey] Played on a cross: the first double face up is the spinner, open on four sides. A double may be laid closed 🔒 — that end stays shut for the round. Once there is a spinner, 2–4 doubles may go in one move. While no double is on the table, closing both ends with two doubles makes a fish. A fish scores “each their own” by default. Whoever reaches the limit is the donkey.
    [chcv] “Man is a wolf to man”: every player for themselves, on a cross with a spinner and closed doubles 🔒, 6 tiles each with four. Every round, an out too, goes to whoever holds the most: they get the sum of all hands. Going out with [0|0] makes everyone else a goat; with [6|6], everyone else records 50. Left holding [0|0] — a goat; holding [6|6] — 50 more.
    [telephone] Played on a cross: the first double is the spinner, open on four sides. Points come during play: when the open ends add up to a multiple of 5 after a move, the mover scores it. Going out scores the opponents' hands, rounded down to a multiple of 5. Several doubles may go in one move, one per end. The first to the limit wins.
    [muggins] Played on a cross: the first double is the spinner. Other doubles go across (both halves count) or along. When the ends add up to a multiple of 5 after a move, the mover scores it. Going out scores 10. Two players get 7 tiles, three or four get 5. The first to the limit wins.
    [traditional] A race to the limit: only the round's winner scores — whoever goes out takes the opponents' hands; in a fish, the lowest hand takes the difference. Two players get 7 tiles, three or four get 5. Every round is led by [6|6] (or [5|5] and lower).
    [sport] Exactly four, in teams. Scored like classic Kozel but with no limit: a fixed number of deals, the lead going round. After the last deal the team with the higher score is the goat; equal scores are a draw.
    [seven] Every player for themselves. Ends adding up to 6 — you move again; to 7 — the next player takes two tiles and misses the turn. Nothing to play — draw one; if it does not fit, pass. At the end of a round whoever holds the most (a double is 10) gets a stick. Collect the sticks and you are out; the first out is the goat, the last one left wins.
    [general] Exactly four, in teams, 7 tiles each, no boneyard. [1|1] leads. A fish does not count — deal again. The player after the one who went out loses the round for their team. Going out with [0|0] or [6|6] makes that loser a “general”, and their team loses the match at once. No points.
    [mexican_train] Everyone has a train of their own, and there is the shared Mexican train; all of them start from the hub, the double in the middle. A double-12 set (13 rounds, hubs from [12|12] down to [0|0]) or double-9 (10 rounds), two to eight players. You may play on your own train, on the Mexican train and on anyone's train that carries a marker 🚩. Nothing to play — draw one tile; if it does not fit, a marker goes on your train, and anyone may play there until you play on it yourself. Play a double and you play again; an open double ⚠️ must be covered first, by everyone. Points are the pips left in hand after each round; the lowest total over all rounds wins, the highest is the goat.
    [kolbasa] Two players. Each has a queue of 14 tiles face down — nobody sees it, not even its owner. On your turn the queue's first tile is turned over: it is placed if it fits, else it goes to the back. The sausage grows from its head in two lines, A and B; a double may be slipped into a joint. A tile that matches both lines' numbers at one position “cuts the sausage”: the head and everything up to there goes into the opponent's queue. Buttons come only when the tile fits in several places; everything else plays itself. Points are the tiles left in your queue; whoever reaches the limit is the goat.
   *[classic] The classic: 7 tiles each, the rest is the boneyard. The match's first lead is [1|1] (if nobody holds it, the next double). Points are the pips in hand; up to 12 are remembered (+N), 13 or more open the score. Whoever reaches the limit is the goat.
}

## Choosing a game.
btn-variant = 🎲 Another game
notice-variant-choose = Pick a game — the seats stay as they are.
notice-variant-changed = Now playing: { $game }
err-too-many-players = { $game } seats at most { $max }, and more are seated. Someone has to leave.
err-need-players-range = { $need ->
    [exact] Exactly { $min ->
        [one] { $min } player is
       *[other] { $min } players are
    } needed to start.
   *[range] { $min } to { $max } players are needed to start.
}
err-unknown-variant = I do not know that game. There are: { $variants }.
err-solo-players = { $game } { $need ->
    [exact] is played by exactly { $min }: you and { $bots ->
        [one] { $bots } computer player
       *[other] { $bots } computer players
    }.
   *[range] is played by { $min } to { $max }: you and 1–3 computer players.
} For example: /newgame { $bots } { $variant }
lobby-game = Game: <b>{ $game }</b>
lobby-need = { $need ->
    [exact] Played by exactly { $min ->
        [one] { $min } player
       *[other] { $min } players
    }.
   *[range] Played by { $min } to { $max } players.
}

## A match against computer players in private (buttons).
solo-title = <b>🤖 Play against the computer</b>
solo-choice = Game: <b>{ $game }</b>
    Opponents: { $bots } · strength: { $strength }
solo-hint = Choose and press “Play”. Quicker in one command: /newgame 3 sea_goat hard
solo-started = ▶️ The match has started: { $game }.
btn-play = ▶️ Play
# The computer players' strength: one word on the buttons, in the texts and in the commands
# (/addbot hard, /newgame 3 hard; ui/strengths.py reads the words of every language).
strength-word = { $value ->
    [easy] easy
    [hard] hard
   *[normal] normal
}
opt-bots = { $value ->
    [one] { $value } opponent
   *[other] { $value } opponents
}

## Settings of the games.
settings-variant = Game
settings-multi-doubles = Several doubles a move
settings-both-doubles-value = A hand of [0|0] and [6|6]
settings-deals = Deals
settings-sticks = Sticks to be out
settings-losses = Lost rounds to lose
opt-points = { $value ->
    [one] { $value } point
   *[other] { $value } points
}
rules-multi-doubles = Several doubles a move: { $enabled ->
    [yes] yes, one per end
   *[no] no, one tile
}
rules-both-doubles-value = A hand of only [0|0] and [6|6]: { points }
rules-deals = { $count ->
    [one] { $count } deal
   *[other] { $count } deals
}, the lead going round
rules-sticks = { $count ->
    [one] { $count } stick
   *[other] { $count } sticks
} and the player is out
rules-losses = { $count ->
    [one] { $count } lost round
   *[other] { $count } lost rounds
} and the team loses the match
rules-here-match = <i>This is how the match in this chat is played now.</i>
rules-here-chat = <i>This is how new matches in this chat are played (/settings to change).</i>
rules-here-named = <i>A lobby of this game opened here now would be played so: /newgame { $id }.</i>
rules-here-private = <i>Against computer players: /newgame [1-3] { $id } [easy|normal|hard]; /rules followed by a game shows that game.</i>
rules-games = <b>All games:</b> { $games }.
    To start another: /newgame and its name, for example /newgame sea_goat.
rules-book = 📖 The full rules: <a href="{ $url }">the rule book</a>, { $section }.

## The table.
table-title = <b>{ $game } · round { $round }</b>
table-title-deal = <b>{ $game } · deal { $round } of { $deals }</b>
table-goal = { $variant ->
    [sea_goat] 🎯 To { $limit }: only the round's loser records, and a score opens at { $threshold }.
    [donkey] 🎯 To { $limit }: whoever reaches it is the donkey.
    [chcv] 🎯 To { $limit }: whoever holds the most takes the whole round.
    [sport] 🎯 { $deals ->
        [one] { $deals } deal
       *[other] { $deals } deals
    }, the lead going round: the team with the higher score is the goat.
    [seven] 🎯 Whoever holds the most gets a stick; { $sticks ->
        [one] { $sticks } stick
       *[other] { $sticks } sticks
    } and they are out.
    [general] 🎯 The player after the one who went out loses the round; { $losses ->
        [one] { $losses } lost round
       *[other] { $losses } lost rounds
    } and the team loses the match.
   *[other] { $race ->
        [yes] 🎯 A race to { $limit }: the first to reach it wins.
       *[no] 🎯 To { $limit }: whoever reaches it is the goat.
    }
}
flag-fast = { $value ->
    [extra] ⚡ Extraordinary lead of [0|0] and [6|6]: the loser records 125 and is the extraordinary goat.
    [zero] ⚡ Fast lead of [0|0]: the loser records 75; a fish is dealt again.
   *[six] ⚡ Fast lead of [6|6]: the loser records 50; a fish is dealt again.
}
flag-two_tiles = ✌️ Two tiles a turn: on both ends, or [0|6] into the gap and one on an end.
table-spinner = ✳ Spinner: { $tile }
table-arm = { $arm ->
    [left] ← Left
    [right] → Right
    [up] ↑ Up
   *[down] ↓ Down
}: { $chain } · { $end }
table-end-counts = (counts { $counts })
table-ends-gap = Open ends: <b>{ $left }</b> and <b>{ $right }</b>, only [0|6] fits the gap
table-count = Σ Count: <b>{ $count }</b>
table-count-scored = Σ Count: <b>{ $count }</b> — { $name } +{ $points }
table-turn-time = To move: <b>{ $name }</b> · ⏱ { $seconds } s per move
table-player-tiles = { $name } — { tiles }
table-player-left = { $name } — out
table-marked = { $line }, { $marks }
table-team-marks = Team { $team } ({ $names }): { $marks }
## Moves in words.
log-place = { $tile }{ $how ->
    [closed] 🔒
   *[plain] {""}
} { $end ->
    [left] on the left
    [right] on the right
    [up] up
    [down] down
    [gap] into the gap
   *[none] {""}
}{ $how ->
    [along] , along
   *[plain] {""}
}
log-and = {" "}and{" "}
log-points = +{ $points }
log-passed = { $name } passes — turn passes
log-drew-passed = { $name } drew { $count } from the boneyard — it does not fit, turn passes
log-again = ➕ The ends add up to 6 — { $name } moves again
log-draw-two = 7️⃣ The ends add up to 7 — { $name } takes { tiles }{ $taken ->
    [0] {""}
   *[other] {""} ({ $taken } of them blindly from { $maker }'s hand)
} and misses the turn
log-void = 🐟 Fish — the round does not count, dealt again.
log-stick = 🪵 { $name } gets a stick.
log-left-match = 🚪 { $name } is out of the match.
log-special = { $rule ->
    [out_0-0] 💥 { $name } went out with [0|0] — everyone else is a goat!
    [out_6-6] 💥 { $name } went out with [6|6] — 50 for everyone else.
    [held_0-0] 💥 { $name } was left holding [0|0] — a goat!
    [held_6-6] 💥 { $name } was left holding [6|6] — 50 more.
    [double_closure] 🔒🔒 { $name } closed both ends with two doubles — fish!
   *[other] 💥 { $name }: a special rule.
}

## Round summary.
round-title-deal = <b>Deal { $round } of { $deals } is over</b>
round-out-tiles = 🏁 { $name } went out: { $tiles }.
round-void = { $variant ->
    [sea_goat] 🐟 A fish in a fast round does not count — dealt again: { $name } leads the same again.
   *[other] 🐟 A fish does not count — the round is dealt again.
}
round-limit = 🏆 { $name } reaches { $limit } — the match ends in the middle of the round.
round-play-points = Play points: { $points }
round-losers = { $variant ->
    [sea_goat] { $count ->
        [one] The round's loser: <b>{ $names }</b>
       *[other] A tie between { $names } — nobody records; the points go to the pot.
    }
    [seven] { $count ->
        [one] 🪵 A stick for <b>{ $names }</b>
       *[other] 🪵 Sticks for <b>{ $names }</b>
    }
    [general] The round is lost by team <b>{ $names }</b>
   *[other] Lost the round: { $names }
}
round-side-lost = { $name }: +{ $recorded } — score not open (needs { $threshold }), the points are lost
round-reset = 🔄 { $name }: the score goes back → <b>0</b>
round-mark = { $name }: { $count }{ $limit ->
    [0] {""}
   *[other] {" "}of { $limit }
}
round-mark-team = Team { $team } ({ $names }): { $count }{ $limit ->
    [0] {""}
   *[other] {" "}of { $limit }
}
round-left = 🚪 Out of the match: <b>{ $names }</b>
flag-general = 🎖 General! Team <b>{ $names }</b> loses the match at once.
round-scores-title = <b>Score:</b>
round-hand-tiles = { $name }: { $tiles }

## The loser's mark and the words about it in results, the history and the boards (goat-… keys):
## the generic ones without a game's name, a game's own with it (like mark-…).
goat-mark = 🐐
goat-mark-donkey = 🫏
goat-times = times a goat
goat-times-donkey = times a donkey
goat-times-sea_goat = times a sea goat
goat-as = goat
goat-as-donkey = donkey
goat-as-sea_goat = sea goat
## Match end.
goat-word = { $title ->
    [sea] { $count ->
        [one] The sea goat
       *[other] The sea goats
    }
    [hanging] { $count ->
        [one] The hanging goat
       *[other] The hanging goats
    }
    [extraordinary] { $count ->
        [one] The extraordinary goat
       *[other] The extraordinary goats
    }
    [snotty] { $count ->
        [one] The snotty goat
       *[other] The snotty goats
    }
    [admiral] { $count ->
        [one] The admiral
       *[other] The admirals
    }
    [general] { $count ->
        [one] The general
       *[other] The generals
    }
   *[none] { $variant ->
        [donkey] { $count ->
            [one] The donkey
           *[other] The donkeys
        }
        [sea_goat] { $count ->
            [one] The sea goat
           *[other] The sea goats
        }
        [seven] { $count ->
            [one] The goat (first out)
           *[other] The goats (first out)
        }
       *[other] { $count ->
            [one] The goat
           *[other] The goats
        }
    }
}
match-winners = 🏆 { $variant ->
    [seven] The last one left
    [mexican_train] { $count ->
        [one] The lowest total wins
       *[other] The lowest totals win
    }
   *[other] { $count ->
        [one] The winner
       *[other] The winners
    }
}: <b>{ $names }</b>
match-no-winner = Nobody is left at the table: everyone is out.
match-draw = 🤝 A draw: equal scores, no goats.

## What the games count besides points (mark-… keys): generic words without the game, its own with it.
mark-table = { $mark }: { $count }{ $limit ->
    [0] {""}
   *[other] {" "}of { $limit }
}
mark-left = { $mark }: { $count }
mark-score = { $mark }: { $count }
mark-round-title = <b>{ $mark }:</b>
mark-mean = { $mark } per match on average: { NUMBER($mean, maximumFractionDigits: 1) }
mark-mean-seven = sticks per match on average: { NUMBER($mean, maximumFractionDigits: 1) }
mark-mean-general = lost rounds per match on average: { NUMBER($mean, maximumFractionDigits: 1) }
mark-table-seven = sticks: { $count } of { $limit }
mark-left-seven = sticks: { $count }
mark-score-seven = { $count ->
    [one] { $count } stick
   *[other] { $count } sticks
}
mark-round-title-seven = <b>Sticks:</b>
pic-mark-seven = Sticks: { $count }
mark-table-general = lost { $count } of { $limit }
mark-score-general = lost { $count }
mark-round-title-general = <b>Lost rounds:</b>
pic-mark-general = Lost rounds: { $count }
