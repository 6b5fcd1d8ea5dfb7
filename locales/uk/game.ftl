# Стіл у групі, рука в особистих, підсумки раунду й партії.

## Стіл.
table-title-classic = <b>Раунд { $round }</b>
table-chain = Ланцюг: { $chain }
table-chain-empty = Ланцюг порожній — чекаємо на перший хід.
table-ends = Кінці: <b>{ $left }</b> і <b>{ $right }</b>
table-ends-all = Кінці: { $ends }
table-arm-up = ↑ Угору: { $chain }
table-arm-down = ↓ Униз: { $chain }
table-bazar = Базар: { $drawable }
table-bazar-reserve = Базар: { $drawable } (+{ $reserve } у резерві)
table-player = { $name } — { tiles }, рахунок { $score }
table-team = Команда { $team } ({ $names }): рахунок { $score }
table-turn = Ходить: <b>{ $name }</b>
table-pot = 🥚 Яйця: { points }
table-log-title = <i>Останні ходи:</i>
table-log-more = … і ще { $count } раніше
table-round-over = Раунд закінчено — підсумки нижче.
table-match-over = Партію закінчено.

## Ходи словами.
log-dealt = Роздача, перший хід: { $name }.
log-misdeal = Перероздача: { $name } — { $reason ->
    [doubles] забагато дублів
   *[suit] забагато кісток однієї масті
}.
log-led = { $name }: перший хід { $move }
log-played = { $name }: { $move }
log-drew-played = { $name } бере { $count } з базару і ходить { $move }
log-drew = { $name } бере { $count } з базару
log-drew-knocked = { $name } бере { $count } з базару і стукає
log-knocked = { $name } стукає
log-host-moved = ⏱ { $name }: час вийшов — хід зробив бот.
log-went-out = 🏁 { $name } виходить!
log-fish = 🐟 Риба! Рибак — { $name }.

## Рука в особистих.
hand-title = <b>Ваші кістки</b> (раунд { $round }):
hand-empty = Кісток на руці немає.
hand-chain = Ланцюг: { $chain }
hand-ends = Кінці: <b>{ $left }</b> і <b>{ $right }</b>
hand-lead-any = Ви починаєте раунд: будь-яка кістка.
hand-lead-forced = Ви починаєте: { $tile } — перший хід партії.
hand-took = Узято наосліп із руки гравця { $name }: { $tiles }
hand-drew = З базару: { $tiles }
hand-knocked = Нема чим ходити, базар порожній — ви постукали.
hand-host-moved = ⏱ Час вийшов — за вас походив бот.
hand-your-turn = ▶️ <b>Ваш хід!</b> Оберіть кістку:
hand-waiting = Ходить { $name }.
hand-round-over = Раунд закінчено — підсумки в групі.
hand-match-over = Партію закінчено — підсумки в групі.
hand-round-over-here = Раунд закінчено — підсумки в цьому чаті.
hand-match-over-here = Партію закінчено — підсумки в цьому чаті.
hand-match-stopped = ⏹ Партію зупинено, рейтинг не нараховано.
hand-match-removed = 🚫 Бота прибрали з групи — партію закрито без рейтингу.
hand-moved-on = ⤵️ Ваш хід і кістки — у новому повідомленні нижче.

## Підсумки раунду.
round-title = <b>Раунд { $round } закінчено</b>
round-out = 🏁 { $name } виходить.
round-fish = 🐟 Риба! Рибак — { $name }.
round-hands-title = <b>Руки:</b>
round-hand = { $name }: { $tiles } = { points }
round-hand-empty = { $name }: порожньо
round-records-title = <b>Запис:</b>
round-side-score = { $name }: +{ $recorded } → рахунок <b>{ $score }</b>
round-side-remembered = { $name }: +{ $recorded } запам'ятовано → <b>+{ $remembered }</b>
round-side-nothing = { $name }: нічого → { $total }
round-pot-won = 🥚 { $name } забирає яйця: { points }.
round-pot = 🥚 У яйцях: { points }.

## Кінець партії.
match-title = <b>🏁 Партію закінчено!</b>
match-goat = { $title ->
    [general] 🎖
   *[other] { $mark }
} { goat-word }: <b>{ $names }</b>
match-timeout = ⏱ Партію перервано за тайм-аутом — { $name }: час на хід вийшов.
match-final-title = <b>Підсумковий рахунок:</b>
score-remembered = { $score } (+{ $remembered } запам'ятовано)
match-line = { $place }. { $name } — { $score }, рейтинг +{ $gain }
match-line-goat = { $place }. { $mark } { $name } — { $score }, рейтинг +{ $gain }
match-left-note = 🚪 З раунду { $round } місце гравця { $name } { $gender ->
    [feminine] догравала
   *[masculine] догравав
} { $bot }; { $name } отримує 0 очок рейтингу.
match-rematch = Ще партію? Тисніть «Реванш».
match-stop-confirm = Зупинити партію? Рейтинг нікому не нарахується.
lobby-stop-confirm = Закрити набір? Партія ще не починалася.
match-stopped = ⏹ Партію зупинено. Рейтинг не нараховано.
match-stopped-by = ⏹ { $name } зупиняє партію. Рейтинг не нараховано.
table-match-stopped = { $known ->
    [yes] ⏹ { $name } зупиняє партію. Рейтинг не нараховано.
   *[no] ⏹ Партію зупинено. Рейтинг не нараховано.
}
lobby-stopped-by = ✖️ { $name } скасовує набір.
match-stop-kept = Граємо далі!
score-line = { $name }: { $score }
match-score-title = <b>Рахунок партії</b>
