# Стол в группе, рука в личке, итоги раунда и партии.

## Стол.
table-title-classic = <b>Раунд { $round }</b>
table-chain = Цепь: { $chain }
table-chain-empty = Цепь пуста — ждём заход.
table-ends = Концы: <b>{ $left }</b> и <b>{ $right }</b>
table-ends-all = Концы: { $ends }
table-arm-up = ↑ Вверх: { $chain }
table-arm-down = ↓ Вниз: { $chain }
table-bazar = Базар: { $drawable }
table-bazar-reserve = Базар: { $drawable } (+{ $reserve } в резерве)
table-player = { $name } — { tiles }, счёт { $score }
table-team = Команда { $team } ({ $names }): счёт { $score }
table-turn = Ходит: <b>{ $name }</b>
table-pot = 🥚 Яйца: { points }
table-log-title = <i>Последние ходы:</i>
table-log-more = … и ещё { $count } раньше
table-round-over = Раунд окончен — итоги ниже.
table-match-over = Партия окончена.

## Ходы словами.
log-dealt = Раздача, заходит { $name }.
log-misdeal = Пересдача: { $name } — { $reason ->
    [doubles] слишком много дублей
   *[suit] слишком много костей одной масти
}.
log-led = { $name }: заход { $move }
log-played = { $name }: { $move }
log-drew-played = { $name } берёт { $count } из базара и ходит { $move }
log-drew = { $name } берёт { $count } из базара
log-drew-knocked = { $name } берёт { $count } из базара и стучит
log-knocked = { $name } стучит
log-host-moved = ⏱ { $name }: время вышло — ход сделал бот.
log-went-out = 🏁 { $name } выходит!
log-fish = 🐟 Рыба! Рыбак — { $name }.

## Рука в личке.
hand-title = <b>Ваши кости</b> (раунд { $round }):
hand-empty = Костей на руке нет.
hand-chain = Цепь: { $chain }
hand-ends = Концы: <b>{ $left }</b> и <b>{ $right }</b>
hand-lead-any = Ваш заход: любая кость.
hand-lead-forced = Ваш заход: { $tile } — первый заход партии.
hand-took = Взяты вслепую из руки игрока { $name }: { $tiles }
hand-drew = Из базара: { $tiles }
hand-knocked = Ходить нечем, базар пуст — вы постучали.
hand-host-moved = ⏱ Время вышло — за вас походил бот.
hand-your-turn = ▶️ <b>Ваш ход!</b> Выберите кость:
hand-waiting = Ходит { $name }.
hand-round-over = Раунд окончен — итоги в группе.
hand-match-over = Партия окончена — итоги в группе.
hand-round-over-here = Раунд окончен — итоги в этом чате.
hand-match-over-here = Партия окончена — итоги в этом чате.
hand-match-stopped = ⏹ Партия остановлена, рейтинг не начислен.
hand-match-removed = 🚫 Бота убрали из группы — партия закрыта без рейтинга.
hand-moved-on = ⤵️ Ваш ход и кости — в новом сообщении ниже.

## Итоги раунда.
round-title = <b>Раунд { $round } окончен</b>
round-out = 🏁 { $name } выходит.
round-fish = 🐟 Рыба! Рыбак — { $name }.
round-hands-title = <b>Руки:</b>
round-hand = { $name }: { $tiles } = { points }
round-hand-empty = { $name }: пусто
round-records-title = <b>Запись:</b>
round-side-score = { $name }: +{ $recorded } → счёт <b>{ $score }</b>
round-side-remembered = { $name }: +{ $recorded } запомнено → <b>+{ $remembered }</b>
round-side-nothing = { $name }: ничего → { $total }
round-pot-won = 🥚 { $name } забирает яйца: { points }.
round-pot = 🥚 В яйцах: { points }.

## Конец партии.
match-title = <b>🏁 Партия окончена!</b>
match-goat = { $title ->
    [general] 🎖
   *[other] { $mark }
} { goat-word }: <b>{ $names }</b>
match-timeout = ⏱ Партия прервана по тайм-ауту — { $name }: время на ход вышло.
match-final-title = <b>Итоговый счёт:</b>
score-remembered = { $score } (+{ $remembered } запомнено)
match-line = { $place }. { $name } — { $score }, рейтинг +{ $gain }
match-line-goat = { $place }. { $mark } { $name } — { $score }, рейтинг +{ $gain }
match-left-note = 🚪 С раунда { $round } место игрока { $name } { $gender ->
    [feminine] доигрывала
   *[masculine] доигрывал
} { $bot }; { $name } получает 0 очков рейтинга.
match-rematch = Ещё партию? Жмите «Реванш».
match-stop-confirm = Остановить партию? Рейтинг никому не начислится.
lobby-stop-confirm = Закрыть набор? Партия ещё не начиналась.
match-stopped = ⏹ Партия остановлена. Рейтинг не начислен.
match-stopped-by = ⏹ { $name } останавливает партию. Рейтинг не начислен.
table-match-stopped = { $known ->
    [yes] ⏹ { $name } останавливает партию. Рейтинг не начислен.
   *[no] ⏹ Партия остановлена. Рейтинг не начислен.
}
lobby-stopped-by = ✖️ { $name } отменяет набор.
match-stop-kept = Играем дальше!
score-line = { $name }: { $score }
match-score-title = <b>Счёт партии</b>
