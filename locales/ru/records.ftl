# Записи игроков: рейтинги по играм, статистика, история партий, запись партии и её
# проверка, выход из идущей партии (issue 15, issue 12).

## Рейтинг (/top).
board-title-chat = 🏆 <b>Рейтинг чата</b> — { $variant }
board-title-global = 🏆 <b>Общий рейтинг</b> — { $variant }
board-counts-fair = Считаются партии этого чата, начатые одними людьми, — и те, где место ушедшего игрока доиграл компьютерный игрок.
board-counts-bots = Считаются все партии этого чата, и с компьютерными игроками тоже (так решили админы в /settings).
board-counts-global = Считаются партии всех чатов, начатые одними людьми, — и те, где место ушедшего игрока доиграл компьютерный игрок.
board-order = 🎯 — мастерство: растёт с победами, тем больше, чем сильнее соперники; по нему порядок. ⭐ — очки рейтинга; { $mark } — { $times }.
board-line = { $place }. { $name } — 🎯 <b>{ $sign }{ NUMBER($skill, minimumFractionDigits: 1, maximumFractionDigits: 1) }</b> · { $matches ->
    [one] { $matches } партия
    [few] { $matches } партии
   *[many] { $matches } партий
} · ⭐ { $points } · { $mark } { $goats }
board-name-user = { $name } (@{ $username })
board-name-id = { $name } (№ …{ $digits })
board-empty = В этой игре здесь пока никто не доиграл ни одной партии.
board-empty-global = В этой игре пока никто не доиграл ни одной партии.
board-pick = Другая игра — кнопками ниже.

## Статистика (/stats).
pstats-title = 📊 <b>{ $name }</b> — { $variant }
pstats-here = <b>В этом чате</b>{ $place ->
    [0] :
   *[other] , { $place }-е место из { $players }:
}
pstats-overall = <b>Во всех чатах</b> (партии, начатые одними людьми){ $place ->
    [0] :
   *[other] , { $place }-е место из { $players }:
}
pstats-solo = <b>В личке против компьютерных игроков:</b>
pstats-games = Партий: { $matches } · первым: { $wins } · { $as }: { $goats }
pstats-skill = 🎯 Мастерство { $sign }{ NUMBER($skill, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $sure ->
    [low] оценка пока грубая: партий мало
    [mid] оценка уточняется
   *[high] оценка надёжная
}) · ⭐ очков рейтинга: { $points }
pstats-play = Выходов: { $outs } · рыб: { $fish } · средний итоговый счёт: { NUMBER($average, maximumFractionDigits: 1) }
pstats-play-marks = Выходов: { $outs } · рыб: { $fish } · { $marks }
pstats-play-short = Выходов: { $outs } · рыб: { $fish }
pstats-none = — ни одной партии.
pstats-empty = { $name }: пока ни одной доигранной партии.
pstats-bots-left-out = Партии с компьютерными игроками здесь не считаются (их видно в /history; админ может включить их в /settings).
pstats-bots-elsewhere = { $count ->
    [one] { $count } партия с компьютерными игроками в группах здесь не считается
    [few] { $count } партии с компьютерными игроками в группах здесь не считаются
   *[other] { $count } партий с компьютерными игроками в группах здесь не считаются
}: такие партии идут только в таблицу своей группы, если её админы включили это в /settings. Сами партии — в /history.
pstats-others = Другие игры: { $list }

## История (/history).
hist-title-chat = 📜 <b>Партии этого чата</b> — { $total }
hist-title-user = 📜 <b>Ваши партии</b> — { $total }
hist-page = Страница { $page } из { $pages }, сначала новые.
hist-empty-chat = В этом чате ещё нет законченных партий.
hist-empty-user = У вас ещё нет законченных партий.
hist-match = <b>#{ $id }</b> · { $date } · { $variant }
hist-where-chat = в «{ $chat }»
hist-where-private = в личке
hist-bots = 🤖 с компьютерными игроками: в общий рейтинг не идёт
hist-timeout = ⏱ прервана по тайм-ауту
hist-line = { $place }. { $name } — { $score } · ⭐ +{ $points }
hist-line-goat = { $place }. { $mark } { $name } — { $score }, { $goat } · ⭐ +{ $points }
hist-line-timeout = { $place }. ⏱ { $name } — { $score }, тайм-аут · ⭐ +{ $points }
hist-result-unknown = итог не сохранён
hist-left = 🚪 место отдано компьютерному игроку в раунде { $round }
hist-team = (команда { $team })
hist-skill = 🎯 { $sign }{ NUMBER($delta, minimumFractionDigits: 1, maximumFractionDigits: 1) }
hist-goat = { $title ->
    [sea] морской козёл
    [snotty] сопливый козёл
    [admiral] адмирал
    [extraordinary] внеочередной козёл
    [hanging] подвесной козёл
    [general] генерал
   *[none] { $variant ->
        [donkey] осёл
        [sea_goat] морской козёл
        [seven] первое выбывание
       *[other] козёл
    }
}
hist-legend = ⭐ — очки рейтинга за партию; 🎯 — как изменилось мастерство (в /top и /stats).
hist-records = 📄 Запись партии — кнопкой с её номером.

## Запись партии (/record) и её проверка (/replay).
rec-caption = 📄 Запись партии #{ $id } — { $variant }, { $date }. Чтобы проверить её, пришлите этот файл мне или ответьте на него командой /replay.
err-record-none = Партии #{ $id } нет. Номера партий — в /history.
rec-sent = 📄 Запись партии #{ $id } — в личке.
rec-none = Здесь ещё нет законченных партий.
chk-ok = ✅ <b>Запись читается</b> — { $variant }, игроки: { $names }
chk-round = Раунд { $round }: { $end ->
    [out] выход: { $name }
    [fish] рыба, рыбак { $name }
    [void] рыба не в счёт, пересдача
   *[limit] лимит: { $name }
} — очки раунда { $recorded }; счёт { $scores }
chk-round-marks = Раунд { $round }: { $end ->
    [out] выход: { $name }
    [fish] рыба, рыбак { $name }
    [void] рыба не в счёт, пересдача
   *[limit] лимит: { $name }
} — { $marks }
chk-final = <b>Итоговый счёт:</b> { $list }
chk-more = … и ещё раньше: { $count ->
    [one] { $count } раунд
    [few] { $count } раунда
   *[many] { $count } раундов
}
chk-finished = 🏁 Партия окончена.
chk-goats = { $mark } { $goat }: { $names }
chk-winners = 🏆 Победа: { $names }
chk-draw = 🤝 Ничья: козла нет.
chk-rating = Очки рейтинга: { $list }
chk-left = 🚪 С раунда { $round } место игрока { $name } { $gender ->
    [feminine] доигрывала
   *[masculine] доигрывал
} { $bot }. По записи этому месту +{ $rating } — так считает сама игра; но место отдано компьютерному игроку, и { $name } получает 0 очков рейтинга (как за тайм-аут) — так и сказано в итогах партии.
chk-unfinished = ⏳ Партия в записи не доиграна.
chk-stored-same = ✅ Совпадает с партией #{ $id }, как её записал бот.
chk-stored-diff = ⚠️ Не совпадает с партией #{ $id }, как её записал бот.
chk-stored-renamed = ⚠️ Это партия #{ $id }, как её записал бот, но имена игроков в записи другие: { $list }.
chk-err-size = ❌ Файл слишком большой: { $size } байт. Записи я читаю до { $limit } байт.
chk-err-json = ❌ Это не JSON: файл не читается как запись партии.
chk-err-format = ❌ Это не запись партии: в ней нет нужных полей или у них не тот вид.
chk-err-variant = ❌ Неизвестная игра «{ $variant }».
chk-err-misdeal = ❌ Раунд { $round }: у игрока { $name } такая рука, что раздачу пересдают. { $rule }
chk-err-deal = ❌ Раунд { $round }: раздача неверна — в ней должны быть все 28 костей по одному разу и полные руки. { $rule }
chk-err-rounds = ❌ Раунд { $round }: раунды в записи не сходятся с партией — раунд оборван или идёт после конца партии.
chk-err-illegal = ❌ Раунд { $round }, ход { $decision }: { $reason ->
    [TileNotInHand] у игрока { $name } нет на руке { $tiles }
    [TileDoesNotFit] { $name } кладёт { $tiles }, а эта кость не подходит к открытым концам
    [WrongLead] { $name } не может заходить с { $tiles }
    [NotYourTurn] сейчас не очередь игрока { $name }
    [UnknownEnd] { $name } кладёт { $tiles } на конец, которого нет
    [AmbiguousEnd] { $name } кладёт { $tiles }, но не сказано, на какой конец
    [RoundOver] раунд уже окончен, а в записи ещё есть ход
   *[other] { $name } не может так ходить{ $tiles ->
        [none] {""}
       *[other] : { $tiles }
    }
}. { $rule }
chk-problem = Что не так: { $problem ->
    [object] в файле не объект JSON с полями записи.
    [rules] правила игры в записи не читаются — неизвестный параметр или неверное значение.
    [players] нет списка имён игроков.
    [player_count] игроков в записи { $count }, а в эту игру играют { $need ->
        [exact] ровно { $min }
       *[range] от { $min } до { $max }
    }.
    [rounds] нет списка раундов.
    [start] неверно записан счёт на начало партии.
    [round] раунд { $round } записан не как раунд.
    [decisions] ходы раунда { $round } записаны не списком.
    [decision] раунд { $round }, ход { $decision } — это не ход: нужна кость (или несколько) и, где надо, конец.
   *[other] поля записи не того вида.
}
chk-rule = Правило { $section } «{ rule-name }» в { $book }.
chk-book = своде правил игры
chk-book-link = <a href="{ $url }">своде правил</a>
chk-hint = Пришлите мне файл записи партии (JSON, до 1 МБ) — я проверю его и покажу итог. Запись любой партии даёт /record.
chk-hint-group = Чтобы проверить запись партии, ответьте командой /replay на сообщение с файлом записи или подпишите файл /replay. В личке со мной файл можно прислать и без команды.
chk-download-failed = ❌ Не удалось получить файл из Telegram. Попробуйте ещё раз.
rule-name = { $rule_key ->
    [s1-1] места и порядок ходов
    [s1-2] раздача
    [s1-3] пересдача
    [s1-4] запас базара
    [s1-5] первый заход партии
    [s1-6] заход в следующих раундах
    [s1-7] ход
    [s1-8] базар
    [s1-9] выход
    [s1-10] рыба
    [s1-15] конец партии
    [s1-17] тайм-ауты
    [s2-0-3] закрытые дубли
    [s2-0-4] ход несколькими костями
    [s2-1] морской козёл
    [s2-2] осёл
    [s2-3] ЧЧВ
    [s2-4] телефон
    [s2-5] маггинс
    [s2-6] традиционное домино
    [s2-7] спортивное домино
    [s2-8] семёрка
    [s2-9] генерал
   *[other] правила
}

## Выход из идущей партии.
leave-confirm = { $name }, выйти из партии? Ваше место займёт компьютерный игрок, а вам за эту партию будет 0 очков рейтинга (как за тайм-аут).
leave-confirm-last = { $name }, выйти из партии? Кроме вас, за столом только компьютерные игроки, так что партия закончится, без рейтинга.
leave-kept = Играем дальше!
leave-done = 🚪 Вы вышли из партии. Дальше за вас играет { $bot }.
leave-done-afk = ⏱ Ваши ходы пропущены, и группа отдала ваше место компьютерному игроку: дальше за вас играет { $bot }.
leave-notice = 🚪 { $name } выходит из партии. Дальше на этом месте играет { $bot }; { $name } получает 0 очков рейтинга (как за тайм-аут).
leave-which = Из какой партии выйти?
leave-none = У вас нет идущей партии.
hold-question = ⏱ { $name } пропускает ход уже не первый раз. Что дальше: посадить на это место компьютерного игрока и играть дальше — или закончить партию по тайм-ауту ({ $name } получит 0, остальные — по счёту)? Решают другие игроки или админ. Если никто не выберет за { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунды
   *[many] { $seconds } секунд
}, партия закончится по тайм-ауту; { $name } может и сходить сейчас: тогда всё остаётся как есть.
hold-bot = 🤖 Решено: место игрока { $name } отдано компьютерному игроку, играем дальше ({ $name } получает 0 очков рейтинга, как за тайм-аут).
hold-end = ⏹ Партия закончилась по тайм-ауту.
hold-back = ▶️ { $name } снова в игре.

## Кнопки и всплывающие ответы (обычный текст).
btn-record = 📄 Запись партии
btn-record-n = 📄 #{ $id }
btn-newer = ◀️ Новее
btn-older = Старше ▶️
btn-here = Этот чат
btn-everywhere = Все чаты
btn-leave-match = 🚪 Выйти из партии
btn-leave-yes = 🚪 Да, выйти
btn-leave-no = ▶️ Нет, остаюсь
btn-hold-bot = 🤖 Играть дальше с ботом
btn-hold-end = ⏹ Закончить партию
err-record-open = Запись будет, когда партия закончится.
err-record-foreign = Эта партия была не в этом чате, и вы в ней не играли.
err-record-dm = Чтобы получить запись, откройте личку с ботом и нажмите «Старт».
err-record-usage = Напишите /record и номер партии из /history.
err-not-your-leave = Эта кнопка — для другого игрока.
err-hold-not-yours = Решают другие игроки этой партии или админ чата.
err-bad-variant = Такой игры нет. Игры: { $list }.
settings-bot-matches = Партии с ботами в рейтинге чата
opt-bot-matches = { $value ->
    [yes] считать
   *[no] не считать
}

## Команды и справка.
cmd-history = История партий
cmd-record = Прислать запись партии
cmd-replay = Проверить запись партии
cmd-leave-private = Выйти из идущей партии
help-group-records =
    /history — партии этого чата, /record — запись партии в личку
    /leave во время партии — уступить место компьютерному игроку
    /top и /stats понимают игру: /top морской, /top все морской
help-private-records =
    /history — ваши партии, /record — запись партии
    /replay — проверить запись: пришлите файл или ответьте на него
    /leave — выйти из идущей партии
