# Мексиканский поезд и Колбаса (RULES.md §2.11, §2.12): поезда и колбаса словами, кнопки
# ходов, рука, итоги, настройки набора и детских картинок.

## Стол: поезда.
trains-engine = 🚉 Станция: { $tile }
trains-train = { $mark } { $name }{ $flags }: { $tiles } → <b>{ $end }</b>
trains-mexican = Мексиканский
trains-own = Мой
trains-open = ⚠️ Открытый дубль { $tile } ({ $name }) — сначала кладут на него.

## Стол: колбаса.
sausage-empty = Колбаса пуста.
sausage-head = { $mark } Голова: { $tile }
sausage-line = { $line }: { $tiles } → <b>{ $end }</b>
sausage-turned = 🔄 Перевёрнута: { $tile }
sausage-queue = { $name }: { $count }
sausage-queues = Ряды: { $queues }

## Ходы словами.
log-target-own = на свой поезд
log-target-mexican = на мексиканский поезд
log-target-train = на поезд игрока { $owner }
log-target-line = в конец линии { $line }
log-target-at = дублем в линию { $line } на место { $at }
log-target-cut = режет колбасу на { $at }
log-forced = {" "}(сама)
log-marked = 🚩 { $name } ставит маркер: поезд открыт для всех.
log-unmarked = { $name } снимает маркер со своего поезда.
log-sent-back = { $name }: { $tile } не подошла — в конец ряда.
log-cut = ✂️ Отрезано: { tiles } — в ряд игрока { $to }.
log-dealt-mexican_train = Раздача, начинает { $name }.
log-dealt-kolbasa = Раздача, начинает { $name }.
log-led-kolbasa = 🌭 Голова колбасы: { $move } (переворачивает { $name })
log-fish-mexican_train = 🐟 Поезда встали: базар пуст, ходить нечем никому.
log-fish-kolbasa = 🐟 Колбаса встала: ни одна кость больше не ляжет.

## Кнопки ходов (обычный текст).
target-own = мой
target-mexican = мексиканский
target-train = { $name }
target-line-end = { $line }: в конец
target-line-at = { $line }: дубль между { $at } и { $next }
target-cut = отрезать на { $at } ({ $count } сопернику)
target-choose = Куда положить { $tile }? Выберите поезд.
target-legend = { $marks }
target-legend-own = { $mark } свой поезд
target-legend-mexican = { $mark } мексиканский
target-legend-more = { $mark } подходит к нескольким поездам
err-place-bad = Эту кость сейчас не положить. Откройте последнее сообщение.

## Рука.
hand-queue = <b>Ваш ряд</b> (раунд { $round }): { tiles } рубашкой вверх — их не видит никто, и вы тоже.
hand-choose-place = ▶️ <b>Ваш ход!</b> Перевёрнутая кость ложится в несколько мест — выберите:
hand-again = Вы положили дубль — кладите ещё одну кость.
hand-forced-turns = Кости переворачиваются сами; кнопки появятся, когда у вашей кости будет выбор.

## Итоги раунда.
round-queues-title = <b>Ряды:</b>
round-queue = { $name }: в ряду { tiles } — очков: { $points }
round-title-deal-mexican_train = <b>Раунд { $round } из { $deals } окончен</b>
round-fish-mexican_train = 🐟 Поезда встали: базар пуст, ходить нечем никому — раунд окончен.
round-fish-kolbasa = 🐟 Колбаса встала: ни одна кость больше не ляжет — раунд окончен.
table-title-deal-mexican_train = <b>{ $game } · раунд { $round } из { $deals }</b> · станция { $hub }
table-goal-mexican_train = 🎯 Станция каждый раунд на единицу меньше, от { $set } до 0; очки копятся: у кого меньше всех — победа, у кого больше всех — козёл.
table-goal-kolbasa = 🎯 До { $limit }: очки — сумма костей, оставшихся в ряду; кто набрал — козёл.

## Настройки.
settings-set = Набор
opt-set = дубль-{ $value }
rules-set = Набор: дубль-{ $set }
settings-double-blank-value = Дубль пусто-пусто на руке
rules-double-blank-value = Дубль пусто-пусто на руке в конце раунда: { $count ->
    [0] 0 очков
   *[other] { points }
}
settings-faces = Кости
opt-faces = { $value ->
    [pictures] 🧸 Детские картинки
   *[pips] Точки
}
rules-faces = 🧸 Детское домино: на костях картинки вместо точек (в картинке стола и на странице стола).

## Картинка стола (обычный текст).
pic-engine = Станция
pic-mexican = Мексиканский
pic-open = Открытый дубль — сначала на него
pic-head = Голова
pic-queue = ряд: { $count }
pic-turned = Перевёрнута
pic-legend = Картинки = числа
pic-round-of-mexican_train = Раунд { $round } из { $deals }
pic-fish-mexican_train = Поезда встали
pic-fish-kolbasa = Колбаса встала
pic-total = Всего: { $score }
pic-recorded = +{ $points } → { $score }

## Results in the games' own terms: the match end, /history, /stats, the record check.
match-final-title-mexican_train = <b>Итог { $timeout ->
    [yes] до раунда { $rounds } из { $deals } (прервана)
   *[no] после { $deals } раундов
}</b> — у кого меньше очков, тот выше:
match-final-title-kolbasa = <b>Итоговый счёт</b> — очки за кости, оставшиеся в рядах:
hist-game-mexican_train = дубль-{ $set }, { $timeout ->
    [yes] прервана
   *[other] { $set ->
        [9] 10 раундов
       *[other] 13 раундов
    }
}, меньше очков — лучше
hist-game-kolbasa = до { $match_limit }, очки за кости в ряду
pstats-play-mexican_train = Выходов: { $outs } · раундов, где поезда встали: { $fish } · средний итог: { NUMBER($average, maximumFractionDigits: 1) } (меньше — лучше)
pstats-play-kolbasa = Выходов: { $outs } · раундов, где колбаса встала: { $fish } · средний итоговый счёт: { NUMBER($average, maximumFractionDigits: 1) }
chk-round-mexican_train = Раунд { $round }: { $end ->
    [out] выход: { $name }
   *[fish] поезда встали
} — очки раунда { $recorded }; итог { $scores }
chk-round-kolbasa = Раунд { $round }: { $end ->
    [out] выход: { $name }
   *[fish] колбаса встала
} — очки за ряд { $recorded }; счёт { $scores }
