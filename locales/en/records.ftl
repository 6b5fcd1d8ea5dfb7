# Players' records: boards per game, statistics, the match history, a match's record and its
# check, leaving a running match (issue 15, issue 12).

## Boards (/top).
board-title-chat = 🏆 <b>This chat's board</b> — { $variant }
board-title-global = 🏆 <b>The global board</b> — { $variant }
board-counts-fair = Counts this chat's matches begun by people only — those where a computer player finished the seat of a player who left included.
board-counts-bots = Counts every match of this chat, those with computer players too (the admins chose so in /settings).
board-counts-global = Counts the matches of every chat begun by people only — those where a computer player finished the seat of a player who left included.
board-order = 🎯 — skill: it grows with wins, the more the stronger the opponents; it sets the order. ⭐ — rating points; { $mark } — { $times }.
board-line = { $place }. { $name } — 🎯 <b>{ $sign }{ NUMBER($skill, minimumFractionDigits: 1, maximumFractionDigits: 1) }</b> · { $matches ->
    [one] { $matches } match
   *[other] { $matches } matches
} · ⭐ { $points } · { $mark } { $goats }
board-name-user = { $name } (@{ $username })
board-name-id = { $name } (id …{ $digits })
board-empty = Nobody has finished a match of this game here yet.
board-empty-global = Nobody has finished a match of this game yet.
board-pick = Another game — use the buttons below.

## Statistics (/stats).
pstats-title = 📊 <b>{ $name }</b> — { $variant }
pstats-here = <b>In this chat</b>{ $place ->
    [0] :
   *[other] , place { $place } of { $players }:
}
pstats-overall = <b>In every chat</b> (matches begun by people only){ $place ->
    [0] :
   *[other] , place { $place } of { $players }:
}
pstats-solo = <b>In private matches against computer players:</b>
pstats-games = Matches: { $matches } · first: { $wins } · { $as }: { $goats }
pstats-skill = 🎯 Skill { $sign }{ NUMBER($skill, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $sure ->
    [low] a rough estimate: few matches yet
    [mid] the estimate is settling
   *[high] a firm estimate
}) · ⭐ rating points: { $points }
pstats-play = Went out: { $outs } · fish: { $fish } · average final score: { NUMBER($average, maximumFractionDigits: 1) }
pstats-play-marks = Went out: { $outs } · fish: { $fish } · { $marks }
pstats-play-short = Went out: { $outs } · fish: { $fish }
pstats-none = — no match yet.
pstats-empty = { $name } has not finished a match yet.
pstats-bots-left-out = Matches with computer players do not count here (/history lists them; an admin can count them in /settings).
pstats-bots-elsewhere = { $count ->
    [one] { $count } match with computer players in groups is
   *[other] { $count } matches with computer players in groups are
} not counted here: such matches count only on their group's board, if its admins turned that on in /settings. The matches themselves are in /history.
pstats-others = Other games: { $list }

## History (/history).
hist-title-chat = 📜 <b>This chat's matches</b> — { $total }
hist-title-user = 📜 <b>Your matches</b> — { $total }
hist-page = Page { $page } of { $pages }, newest first.
hist-empty-chat = This chat has no finished match yet.
hist-empty-user = You have no finished match yet.
hist-match = <b>#{ $id }</b> · { $date } · { $variant }
hist-where-chat = in “{ $chat }”
hist-where-private = in private
hist-bots = 🤖 with computer players: not on the global board
hist-timeout = ⏱ interrupted by timeout
hist-line = { $place }. { $name } — { $score } · ⭐ +{ $points }
hist-line-goat = { $place }. { $mark } { $name } — { $score }, { $goat } · ⭐ +{ $points }
hist-line-timeout = { $place }. ⏱ { $name } — { $score }, did not move · ⭐ +{ $points }
hist-result-unknown = result not stored
hist-left = 🚪 seat handed to a computer player in round { $round }
hist-team = (team { $team })
hist-skill = 🎯 { $sign }{ NUMBER($delta, minimumFractionDigits: 1, maximumFractionDigits: 1) }
hist-goat = { $title ->
    [sea] sea goat
    [snotty] snotty goat
    [admiral] admiral
    [extraordinary] extraordinary goat
    [hanging] hanging goat
    [general] general
   *[none] { $variant ->
        [donkey] donkey
        [sea_goat] sea goat
        [seven] first out
       *[other] goat
    }
}
hist-legend = ⭐ — the match's rating points; 🎯 — how the skill changed (see /top and /stats).
hist-records = 📄 A match's record — the button with its number.

## A match's record (/record) and its check (/replay).
rec-caption = 📄 The record of match #{ $id } — { $variant }, { $date }. To check it, send this file back to me, or reply to it with /replay.
err-record-none = There is no match #{ $id }. /history lists the matches' numbers.
rec-sent = 📄 The record of match #{ $id } is in your private chat.
rec-none = No finished match here yet.
chk-ok = ✅ <b>The record replays</b> — { $variant }, players: { $names }
chk-round = Round { $round }: { $end ->
    [out] { $name } went out
    [fish] fish, fisher { $name }
    [void] a fish that does not count, dealt again
   *[limit] { $name } reached the limit
} — round points { $recorded }; scores { $scores }
chk-round-marks = Round { $round }: { $end ->
    [out] { $name } went out
    [fish] fish, fisher { $name }
    [void] a fish that does not count, dealt again
   *[limit] { $name } reached the limit
} — { $marks }
chk-final = <b>Final score:</b> { $list }
chk-more = … and earlier: { $count ->
    [one] { $count } round
   *[other] { $count } rounds
}
chk-finished = 🏁 The match is over.
chk-goats = { $mark } { $goat }: { $names }
chk-winners = 🏆 Won: { $names }
chk-draw = 🤝 A draw: no goat.
chk-rating = Rating points: { $list }
chk-left = 🚪 From round { $round } on, { $bot } played the seat of { $name }{ $gender ->
   *[other] {""}
}. The record gives that seat +{ $rating }, as the game itself counts it; but { $name } handed the seat to a computer player and gets 0 rating points (as for a timeout), as the match's end said.
chk-unfinished = ⏳ The match in the record is not finished.
chk-stored-same = ✅ It equals match #{ $id } as the bot recorded it.
chk-stored-diff = ⚠️ It differs from match #{ $id } as the bot recorded it.
chk-stored-renamed = ⚠️ This is match #{ $id } as the bot recorded it, but the record names the players otherwise: { $list }.
chk-err-size = ❌ The file is too big: { $size } bytes. I read records of up to { $limit } bytes.
chk-err-json = ❌ This is not JSON: the file does not read as a match record.
chk-err-format = ❌ This is not a match record: fields are missing or have the wrong kind.
chk-err-variant = ❌ Unknown game “{ $variant }”.
chk-err-misdeal = ❌ Round { $round }: { $name }'s hand is one that is dealt again. { $rule }
chk-err-deal = ❌ Round { $round }: the deal is wrong — it must hold each of the 28 tiles once, in full hands. { $rule }
chk-err-rounds = ❌ Round { $round }: the rounds do not fit the match — a round stops short or comes after the match's end.
chk-err-illegal = ❌ Round { $round }, decision { $decision }: { $reason ->
    [TileNotInHand] { $name } has no { $tiles } in hand
    [TileDoesNotFit] { $name } plays { $tiles }, which matches no open end
    [WrongLead] { $name } may not lead { $tiles }
    [NotYourTurn] it is not { $name }'s turn
    [UnknownEnd] { $name } plays { $tiles } on an end that is not there
    [AmbiguousEnd] { $name } plays { $tiles } without saying on which end
    [RoundOver] the round is over, yet the record has another move
   *[other] { $name } may not move so{ $tiles ->
        [none] {""}
       *[other] : { $tiles }
    }
}. { $rule }
chk-problem = What is wrong: { $problem ->
    [object] the file holds no JSON object with a record's fields.
    [rules] the game's rules in the record cannot be read — an unknown option or a wrong value.
    [players] there is no list of the players' names.
    [player_count] the record has { $count } players, and this game is played by { $need ->
        [exact] exactly { $min }
       *[range] { $min } to { $max }
    }.
    [rounds] there is no list of rounds.
    [start] the score at the start of the match is written wrongly.
    [round] round { $round } is not written as a round.
    [decisions] the moves of round { $round } are not written as a list.
    [decision] round { $round }, move { $decision } is no move: it needs a tile (or several) and, where it matters, an end.
   *[other] the record's fields have the wrong kind.
}
chk-rule = Rule { $section } “{ rule-name }” of { $book }.
chk-book = the rule book
chk-book-link = <a href="{ $url }">the rule book</a>
chk-hint = Send me a match record file (JSON, up to 1 MB) and I will check it and show the result. /record gives the record of any match.
chk-hint-group = To check a match record, reply /replay to the message with the record file, or send the file with the caption /replay. In a private chat with me the file alone will do.
chk-download-failed = ❌ Could not get the file from Telegram. Please try again.
rule-name = { $rule_key ->
    [s1-1] seats and turn order
    [s1-2] the deal
    [s1-3] misdeal
    [s1-4] the reserve
    [s1-5] the first lead of a match
    [s1-6] the lead of later rounds
    [s1-7] the turn
    [s1-8] the boneyard
    [s1-9] going out
    [s1-10] fish
    [s1-15] the match's end
    [s1-17] timeouts
    [s2-0-3] closed doubles
    [s2-0-4] moves of several tiles
    [s2-1] sea goat
    [s2-2] donkey
    [s2-3] ChChV
    [s2-4] telephone
    [s2-5] muggins
    [s2-6] traditional domino
    [s2-7] sport domino
    [s2-8] seven
    [s2-9] general
   *[other] the rules
}

## Leaving a running match.
leave-confirm = { $name }, leave the match? A computer player takes your seat, and this match gives you 0 rating points (as a timeout does).
leave-confirm-last = { $name }, leave the match? Everyone else at the table is a computer player, so the match ends, without rating.
leave-kept = Playing on!
leave-done = 🚪 You left the match. { $bot } plays on for you.
leave-done-afk = ⏱ Your turns timed out, and the group handed your seat to { $bot }, who plays on.
leave-notice = 🚪 { $name } leaves the match. { $bot } plays on in that seat; { $name } gets 0 rating points (as for a timeout).
leave-which = Which match do you leave?
leave-none = You have no running match.
hold-question = ⏱ { $name } has missed turns again. What now: put a computer player in that seat and play on — or end the match by timeout ({ $name } gets 0, the others are rated on the scores)? The other players or an admin decide. If nobody chooses within { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
}, the match ends by timeout; { $name } may also move and keep the seat.
hold-bot = 🤖 Decided: { $name }'s seat goes to a computer player; playing on ({ $name } gets 0 rating points, as for a timeout).
hold-end = ⏹ The match ended by timeout.
hold-back = ▶️ { $name } is back in the game.

## Buttons and pop-up answers (plain text).
btn-record = 📄 Match record
btn-record-n = 📄 #{ $id }
btn-newer = ◀️ Newer
btn-older = Older ▶️
btn-here = This chat
btn-everywhere = All chats
btn-leave-match = 🚪 Leave the match
btn-leave-yes = 🚪 Yes, leave
btn-leave-no = ▶️ No, I stay
btn-hold-bot = 🤖 Play on with a bot
btn-hold-end = ⏹ End the match
err-record-open = The record comes when the match is over.
err-record-foreign = That match was not in this chat, and you did not play in it.
err-record-dm = To get the record, open a private chat with the bot and press “Start”.
err-record-usage = Write /record and a match number from /history.
err-not-your-leave = This button is for another player.
err-hold-not-yours = The other players of this match or a chat admin decide.
err-bad-variant = No such game. Games: { $list }.
settings-bot-matches = Bot matches on the chat's board
opt-bot-matches = { $value ->
    [yes] count them
   *[no] do not count
}

## Commands and help.
cmd-history = Match history
cmd-record = Send a match record
cmd-replay = Check a match record
cmd-leave-private = Leave a running match
help-group-records =
    /history — this chat's matches, /record — a match record to your private chat
    /leave during a match — hand your seat to a computer player
    /top and /stats take a game: /top sea goat, /top all sea goat
help-private-records =
    /history — your matches, /record — a match record
    /replay — check a record: send the file or reply to it
    /leave — leave a running match
