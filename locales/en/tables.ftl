# Mexican Train and Kolbasa (RULES.md §2.11, §2.12): the trains and the sausage in words, the
# move buttons, the hand, the results, the settings of the set and the children's pictures.

## The table: the trains.
trains-engine = 🚉 Hub: { $tile }
trains-train = { $mark } { $name }{ $flags }: { $tiles } → <b>{ $end }</b>
trains-mexican = Mexican
trains-own = Mine
trains-open = ⚠️ Open double { $tile } ({ $name }) — it must be covered first.

## The table: the sausage.
sausage-empty = The sausage is empty.
sausage-head = { $mark } Head: { $tile }
sausage-line = { $line }: { $tiles } → <b>{ $end }</b>
sausage-turned = 🔄 Turned over: { $tile }
sausage-queue = { $name }: { $count }
sausage-queues = Queues: { $queues }

## Moves in words.
log-target-own = on their own train
log-target-mexican = on the Mexican train
log-target-train = on { $owner }'s train
log-target-line = at the end of line { $line }
log-target-at = a double into line { $line } at { $at }
log-target-cut = cuts the sausage at { $at }
log-forced = {" "}(by itself)
log-marked = 🚩 { $name } puts a marker out: their train is open to everyone.
log-unmarked = { $name } takes the marker off their train.
log-sent-back = { $name }: { $tile } does not fit — to the back of the queue.
log-cut = ✂️ Cut off: { tiles } go to { $to }'s queue.
log-dealt-mexican_train = Dealt; { $name } starts.
log-dealt-kolbasa = Dealt; { $name } starts.
log-led-kolbasa = 🌭 The sausage's head: { $move } (turned over by { $name })
log-fish-mexican_train = 🐟 The trains are stuck: the boneyard is empty and nobody can play.
log-fish-kolbasa = 🐟 The sausage is stuck: no tile will ever fit again.

## Move buttons (plain text).
target-own = mine
target-mexican = Mexican
target-train = { $name }
target-line-end = { $line }: at the end
target-line-at = { $line }: double between { $at } and { $next }
target-cut = cut at { $at } ({ $count } to the opponent)
target-choose = Where does { $tile } go? Choose a train.
target-legend = { $marks }
target-legend-own = { $mark } your train
target-legend-mexican = { $mark } Mexican
target-legend-more = { $mark } fits several trains
err-place-bad = That tile cannot be placed now. Open the latest message.

## The hand.
hand-queue = <b>Your queue</b> (round { $round }): { tiles } face down — nobody sees them, you neither.
hand-choose-place = ▶️ <b>Your move!</b> The tile you turned over fits in several places — choose:
hand-again = You placed a double — place one more tile.
hand-forced-turns = Tiles turn over by themselves; buttons come when your tile has a choice.

## The end of a round.
round-queues-title = <b>Queues:</b>
round-queue = { $name }: { tiles } in the queue — points: { $points }
round-title-deal-mexican_train = <b>Round { $round } of { $deals } is over</b>
round-fish-mexican_train = 🐟 The trains are stuck: the boneyard is empty and nobody can play — the round is over.
round-fish-kolbasa = 🐟 The sausage is stuck: no tile will ever fit again — the round is over.
table-title-deal-mexican_train = <b>{ $game } · round { $round } of { $deals }</b> · hub { $hub }
table-goal-mexican_train = 🎯 The hub goes down by one each round, from { $set } to 0; points add up: the lowest total wins, the highest is the goat.
table-goal-kolbasa = 🎯 To { $limit }: points are the tiles left in your queue; whoever reaches it is the goat.

## Settings.
settings-set = Set
opt-set = double-{ $value }
rules-set = Set: double-{ $set }
settings-double-blank-value = Double blank in hand
rules-double-blank-value = A double blank in hand at a round's end: { $count ->
    [0] 0 points
   *[other] { points }
}
settings-faces = Tiles
opt-faces = { $value ->
    [pictures] 🧸 Children's pictures
   *[pips] Pips
}
rules-faces = 🧸 Children's dominoes: pictures instead of pips on the tiles (in the table's picture and on its page).

## The table's picture (plain text).
pic-engine = Hub
pic-mexican = Mexican
pic-open = Open double — cover it first
pic-head = Head
pic-queue = queue: { $count }
pic-turned = Turned over
pic-legend = Pictures = numbers
pic-round-of-mexican_train = Round { $round } of { $deals }
pic-fish-mexican_train = The trains are stuck
pic-fish-kolbasa = The sausage is stuck
pic-total = Total: { $score }
pic-recorded = +{ $points } → { $score }

## Results in the games' own terms: the match end, /history, /stats, the record check.
match-final-title-mexican_train = <b>Totals { $timeout ->
    [yes] up to round { $rounds } of { $deals } (interrupted)
   *[no] after { $deals } rounds
}</b> — the fewer points, the higher:
match-final-title-kolbasa = <b>Final score</b> — points for the tiles left in the queues:
hist-game-mexican_train = double-{ $set }, { $timeout ->
    [yes] interrupted
   *[other] { $set ->
        [9] 10 rounds
       *[other] 13 rounds
    }
}, fewer points are better
hist-game-kolbasa = to { $match_limit }, points for the tiles left in the queue
pstats-play-mexican_train = Outs: { $outs } · rounds the trains got stuck: { $fish } · average total: { NUMBER($average, maximumFractionDigits: 1) } (lower is better)
pstats-play-kolbasa = Outs: { $outs } · rounds the sausage got stuck: { $fish } · average final score: { NUMBER($average, maximumFractionDigits: 1) }
chk-round-mexican_train = Round { $round }: { $end ->
    [out] { $name } went out
   *[fish] the trains got stuck
} — round points { $recorded }; totals { $scores }
chk-round-kolbasa = Round { $round }: { $end ->
    [out] { $name } went out
   *[fish] the sausage got stuck
} — queue points { $recorded }; scores { $scores }
