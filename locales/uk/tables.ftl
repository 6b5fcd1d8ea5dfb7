# Мексиканський потяг і Ковбаса (RULES.md §2.11, §2.12): потяги й ковбаса словами, кнопки
# ходів, рука, підсумки, налаштування набору й дитячих картинок.

## Стіл: потяги.
trains-engine = 🚉 Станція: { $tile }
trains-train = { $mark } { $name }{ $flags }: { $tiles } → <b>{ $end }</b>
trains-mexican = Мексиканський
trains-own = Мій
trains-open = ⚠️ Відкритий дубль { $tile } ({ $name }) — спершу кладуть на нього.

## Стіл: ковбаса.
sausage-empty = Ковбаса порожня.
sausage-head = { $mark } Початок: { $tile }
sausage-line = { $line }: { $tiles } → <b>{ $end }</b>
sausage-turned = 🔄 Перевернута: { $tile }
sausage-queue = { $name }: { $count }
sausage-queues = Ряди: { $queues }

## Ходи словами.
log-target-own = на свій потяг
log-target-mexican = на мексиканський потяг
log-target-train = на потяг гравця { $owner }
log-target-line = у кінець лінії { $line }
log-target-at = дублем у лінію { $line } на місце { $at }
log-target-cut = ріже ковбасу на { $at }
log-forced = {" "}(сама)
log-marked = 🚩 { $name } ставить маркер: потяг відкритий для всіх.
log-unmarked = { $name } знімає маркер зі свого потяга.
log-sent-back = { $name }: { $tile } не підійшла — у кінець ряду.
log-cut = ✂️ Відрізано: { tiles } — у ряд гравця { $to }.
log-dealt-mexican_train = Роздача, починає { $name }.
log-dealt-kolbasa = Роздача, починає { $name }.
log-led-kolbasa = 🌭 Початок ковбаси: { $move } (перевертає { $name })
log-fish-mexican_train = 🐟 Потяги стали: базар порожній, ходити нічим нікому.
log-fish-kolbasa = 🐟 Ковбаса стала: жодна кістка більше не ляже.

## Кнопки ходів (звичайний текст).
target-own = мій
target-mexican = мексиканський
target-train = { $name }
target-line-end = { $line }: у кінець
target-line-at = { $line }: дубль між { $at } і { $next }
target-cut = відрізати на { $at } ({ $count } суперникові)
target-choose = Куди покласти { $tile }? Оберіть потяг.
target-legend = { $marks }
target-legend-own = { $mark } свій потяг
target-legend-mexican = { $mark } мексиканський
target-legend-more = { $mark } підходить до кількох потягів
err-place-bad = Цю кістку зараз не покласти. Відкрийте останнє повідомлення.

## Рука.
hand-queue = <b>Ваш ряд</b> (раунд { $round }): { tiles } сорочкою догори — їх не бачить ніхто, і ви теж.
hand-choose-place = ▶️ <b>Ваш хід!</b> Перевернута кістка лягає в кілька місць — оберіть:
hand-again = Ви поклали дубль — кладіть ще одну кістку.
hand-forced-turns = Кістки перевертаються самі; кнопки з'являться, коли у вашої кістки буде вибір.

## Підсумки раунду.
round-queues-title = <b>Ряди:</b>
round-queue = { $name }: у ряду { tiles } — очок: { $points }
round-title-deal-mexican_train = <b>Раунд { $round } з { $deals } закінчено</b>
round-fish-mexican_train = 🐟 Потяги стали: базар порожній, ходити нічим нікому — раунд закінчено.
round-fish-kolbasa = 🐟 Ковбаса стала: жодна кістка більше не ляже — раунд закінчено.
table-title-deal-mexican_train = <b>{ $game } · раунд { $round } з { $deals }</b> · станція { $hub }
table-goal-mexican_train = 🎯 Станція щораунду на одиницю менша, від { $set } до 0; очки накопичуються: у кого найменше — перемога, у кого найбільше — козел.
table-goal-kolbasa = 🎯 До { $limit }: очки — сума кісток, що лишилися в ряду; хто набрав — козел.

## Налаштування.
settings-set = Набір
opt-set = дубль-{ $value }
rules-set = Набір: дубль-{ $set }
settings-double-blank-value = Дубль пусто-пусто на руці
rules-double-blank-value = Дубль пусто-пусто на руці наприкінці раунду: { $count ->
    [0] 0 очок
   *[other] { points }
}
settings-faces = Кістки
opt-faces = { $value ->
    [pictures] 🧸 Дитячі картинки
   *[pips] Крапки
}
rules-faces = 🧸 Дитяче доміно: на кістках картинки замість крапок (на картинці столу й на сторінці столу).

## Картинка столу (звичайний текст).
pic-engine = Станція
pic-mexican = Мексиканський
pic-open = Відкритий дубль — спершу на нього
pic-head = Початок
pic-queue = ряд: { $count }
pic-turned = Перевернута
pic-legend = Картинки = числа
pic-round-of-mexican_train = Раунд { $round } з { $deals }
pic-fish-mexican_train = Потяги стали
pic-fish-kolbasa = Ковбаса стала
pic-total = Усього: { $score }
pic-recorded = +{ $points } → { $score }

## Results in the games' own terms: the match end, /history, /stats, the record check.
match-final-title-mexican_train = <b>Підсумок { $timeout ->
    [yes] до раунду { $rounds } з { $deals } (перервано)
   *[no] після { $deals } раундів
}</b> — у кого менше очок, той вище:
match-final-title-kolbasa = <b>Підсумковий рахунок</b> — очки за кістки, що лишилися в рядах:
hist-game-mexican_train = дубль-{ $set }, { $timeout ->
    [yes] перервано
   *[other] { $set ->
        [9] 10 раундів
       *[other] 13 раундів
    }
}, менше очок — краще
hist-game-kolbasa = до { $match_limit }, очки за кістки в ряду
pstats-play-mexican_train = Виходів: { $outs } · раундів, де потяги стали: { $fish } · середній підсумок: { NUMBER($average, maximumFractionDigits: 1) } (менше — краще)
pstats-play-kolbasa = Виходів: { $outs } · раундів, де ковбаса стала: { $fish } · середній підсумковий рахунок: { NUMBER($average, maximumFractionDigits: 1) }
chk-round-mexican_train = Раунд { $round }: { $end ->
    [out] вихід: { $name }
   *[fish] потяги стали
} — очки раунду { $recorded }; підсумок { $scores }
chk-round-kolbasa = Раунд { $round }: { $end ->
    [out] вихід: { $name }
   *[fish] ковбаса стала
} — очки за ряд { $recorded }; рахунок { $scores }
