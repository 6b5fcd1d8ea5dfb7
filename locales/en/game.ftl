# The table in the group, the hand in private, round and match summaries.

## The table.
table-title-classic = <b>Round { $round }</b>
table-chain = Chain: { $chain }
table-chain-empty = The chain is empty — waiting for the lead.
table-ends = Open ends: <b>{ $left }</b> and <b>{ $right }</b>
table-ends-all = Open ends: { $ends }
table-arm-up = ↑ Up: { $chain }
table-arm-down = ↓ Down: { $chain }
table-bazar = Boneyard: { $drawable }
table-bazar-reserve = Boneyard: { $drawable } (+{ $reserve } in reserve)
table-player = { $name } — { tiles }, score { $score }
table-team = Team { $team } ({ $names }): score { $score }
table-turn = To move: <b>{ $name }</b>
table-pot = 🥚 Pot: { points }
table-log-title = <i>Last moves:</i>
table-log-more = … and { $count } earlier
table-round-over = The round is over — see the summary below.
table-match-over = The match is over.

## Moves in words.
log-dealt = Tiles dealt; { $name } leads.
log-misdeal = Misdeal: { $name } had { $reason ->
    [doubles] too many doubles
   *[suit] too many tiles of one suit
}.
log-led = { $name }: leads { $move }
log-played = { $name }: { $move }
log-drew-played = { $name } drew { $count } from the boneyard and played { $move }
log-drew = { $name } drew { $count } from the boneyard
log-drew-knocked = { $name } drew { $count } from the boneyard and knocked
log-knocked = { $name } knocked
log-host-moved = ⏱ { $name } ran out of time — the bot moved for them.
log-went-out = 🏁 { $name } went out!
log-fish = 🐟 Fish! The fisher is { $name }.

## The hand in private.
hand-title = <b>Your tiles</b> (round { $round }):
hand-empty = No tiles in your hand.
hand-chain = Chain: { $chain }
hand-ends = Open ends: <b>{ $left }</b> and <b>{ $right }</b>
hand-lead-any = Your lead: any tile.
hand-lead-forced = Your lead: { $tile } — the match's first lead.
hand-took = Taken blind from { $name }'s hand: { $tiles }
hand-drew = From the boneyard: { $tiles }
hand-knocked = Nothing to play and the boneyard is empty — you knocked.
hand-host-moved = ⏱ Time is up — the bot moved for you.
hand-your-turn = ▶️ <b>Your move!</b> Pick a tile:
hand-waiting = { $name } is to move.
hand-round-over = The round is over — see the summary in the group.
hand-match-over = The match is over — see the summary in the group.
hand-round-over-here = The round is over — see the summary in this chat.
hand-match-over-here = The match is over — see the summary in this chat.
hand-match-stopped = ⏹ The match was stopped; no rating.
hand-match-removed = 🚫 The bot was removed from the group — the match is closed without rating.
hand-moved-on = ⤵️ Your turn and your tiles are in the newer message below.

## Round summary.
round-title = <b>Round { $round } is over</b>
round-out = 🏁 { $name } went out.
round-fish = 🐟 Fish! The fisher is { $name }.
round-hands-title = <b>Hands:</b>
round-hand = { $name }: { $tiles } = { points }
round-hand-empty = { $name }: empty
round-records-title = <b>Recorded:</b>
round-side-score = { $name }: +{ $recorded } → score <b>{ $score }</b>
round-side-remembered = { $name }: +{ $recorded } remembered → <b>+{ $remembered }</b>
round-side-nothing = { $name }: nothing → { $total }
round-pot-won = 🥚 { $name } takes the pot: { points }.
round-pot = 🥚 In the pot: { points }.

## Match end.
match-title = <b>🏁 The match is over!</b>
match-goat = { $title ->
    [general] 🎖
   *[other] { $mark }
} { goat-word }: <b>{ $names }</b>
match-timeout = ⏱ The match was stopped by timeout: { $name } did not move.
match-final-title = <b>Final score:</b>
score-remembered = { $score } (+{ $remembered } remembered)
match-line = { $place }. { $name } — { $score }, rating +{ $gain }
match-line-goat = { $place }. { $mark } { $name } — { $score }, rating +{ $gain }
match-left-note = 🚪 From round { $round } on, { $bot } played the seat of { $name }{ $gender ->
   *[other] {""}
}; { $name } gets 0 rating points.
match-rematch = Another match? Press “Rematch”.
match-stop-confirm = Stop the match? Nobody gets rating points.
lobby-stop-confirm = Close the lobby? Nobody has been dealt yet.
match-stopped = ⏹ The match was stopped. No rating points.
match-stopped-by = ⏹ { $name } stops the match. No rating points.
table-match-stopped = { $known ->
    [yes] ⏹ { $name } stops the match. No rating points.
   *[no] ⏹ The match was stopped. No rating points.
}
lobby-stopped-by = ✖️ { $name } cancels the lobby.
match-stop-kept = Playing on!
score-line = { $name }: { $score }
match-score-title = <b>Match score</b>
