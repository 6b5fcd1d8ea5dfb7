# Записи гравців: рейтинги за іграми, статистика, історія партій, запис партії та його
# перевірка, вихід із партії, що йде (issue 15, issue 12).

## Рейтинг (/top).
board-title-chat = 🏆 <b>Рейтинг чату</b> — { $variant }
board-title-global = 🏆 <b>Загальний рейтинг</b> — { $variant }
board-counts-fair = Рахуються партії цього чату, розпочаті самими людьми, — і ті, де місце гравця, що вийшов, догравав комп'ютерний гравець.
board-counts-bots = Рахуються всі партії цього чату, і з комп'ютерними гравцями теж (так вирішили адміни в /settings).
board-counts-global = Рахуються партії всіх чатів, розпочаті самими людьми, — і ті, де місце гравця, що вийшов, догравав комп'ютерний гравець.
board-order = 🎯 — майстерність: зростає з перемогами, тим більше, чим сильніші суперники; за нею порядок. ⭐ — очки рейтингу; { $mark } — { $times }.
board-line = { $place }. { $name } — 🎯 <b>{ $sign }{ NUMBER($skill, minimumFractionDigits: 1, maximumFractionDigits: 1) }</b> · { $matches ->
    [one] { $matches } партія
    [few] { $matches } партії
   *[many] { $matches } партій
} · ⭐ { $points } · { $mark } { $goats }
board-name-user = { $name } (@{ $username })
board-name-id = { $name } (№ …{ $digits })
board-empty = У цій грі тут ще ніхто не дограв жодної партії.
board-empty-global = У цій грі ще ніхто не дограв жодної партії.
board-pick = Інша гра — кнопками нижче.

## Статистика (/stats).
pstats-title = 📊 <b>{ $name }</b> — { $variant }
pstats-here = <b>У цьому чаті</b>{ $place ->
    [0] :
   *[other] , { $place }-е місце з { $players }:
}
pstats-overall = <b>В усіх чатах</b> (партії, розпочаті самими людьми){ $place ->
    [0] :
   *[other] , { $place }-е місце з { $players }:
}
pstats-solo = <b>В особистих проти комп'ютерних гравців:</b>
pstats-games = Партій: { $matches } · першим: { $wins } · { $as }: { $goats }
pstats-skill = 🎯 Майстерність { $sign }{ NUMBER($skill, minimumFractionDigits: 1, maximumFractionDigits: 1) } ({ $sure ->
    [low] оцінка поки груба: партій мало
    [mid] оцінка уточнюється
   *[high] оцінка надійна
}) · ⭐ очок рейтингу: { $points }
pstats-play = Виходів: { $outs } · риб: { $fish } · середній підсумковий рахунок: { NUMBER($average, maximumFractionDigits: 1) }
pstats-play-marks = Виходів: { $outs } · риб: { $fish } · { $marks }
pstats-play-short = Виходів: { $outs } · риб: { $fish }
pstats-none = — жодної партії.
pstats-empty = { $name }: поки жодної завершеної партії.
pstats-bots-left-out = Партії з комп'ютерними гравцями тут не рахуються (їх видно в /history; адмін може ввімкнути їх у /settings).
pstats-bots-elsewhere = { $count ->
    [one] { $count } партія з комп'ютерними гравцями в групах тут не рахується
    [few] { $count } партії з комп'ютерними гравцями в групах тут не рахуються
   *[other] { $count } партій з комп'ютерними гравцями в групах тут не рахуються
}: такі партії йдуть лише до таблиці своєї групи, якщо її адміни ввімкнули це в /settings. Самі партії — в /history.
pstats-others = Інші ігри: { $list }

## Історія (/history).
hist-title-chat = 📜 <b>Партії цього чату</b> — { $total }
hist-title-user = 📜 <b>Ваші партії</b> — { $total }
hist-page = Сторінка { $page } з { $pages }, спершу нові.
hist-empty-chat = У цьому чаті ще немає завершених партій.
hist-empty-user = У вас ще немає завершених партій.
hist-match = <b>#{ $id }</b> · { $date } · { $variant }
hist-where-chat = у «{ $chat }»
hist-where-private = в особистих
hist-bots = 🤖 з комп'ютерними гравцями: у загальний рейтинг не йде
hist-timeout = ⏱ перервана за тайм-аутом
hist-line = { $place }. { $name } — { $score } · ⭐ +{ $points }
hist-line-goat = { $place }. { $mark } { $name } — { $score }, { $goat } · ⭐ +{ $points }
hist-line-timeout = { $place }. ⏱ { $name } — { $score }, тайм-аут · ⭐ +{ $points }
hist-result-unknown = підсумок не збережено
hist-left = 🚪 місце віддано комп'ютерному гравцеві в раунді { $round }
hist-team = (команда { $team })
hist-skill = 🎯 { $sign }{ NUMBER($delta, minimumFractionDigits: 1, maximumFractionDigits: 1) }
hist-goat = { $title ->
    [sea] морський козел
    [snotty] сопливий козел
    [admiral] адмірал
    [extraordinary] позачерговий козел
    [hanging] підвісний козел
    [general] генерал
   *[none] { $variant ->
        [donkey] осел
        [sea_goat] морський козел
        [seven] перше вибуття
       *[other] козел
    }
}
hist-legend = ⭐ — очки рейтингу за партію; 🎯 — як змінилася майстерність (у /top і /stats).
hist-records = 📄 Запис партії — кнопкою з її номером.

## Запис партії (/record) та його перевірка (/replay).
rec-caption = 📄 Запис партії #{ $id } — { $variant }, { $date }. Щоб перевірити його, надішліть цей файл мені або дайте на нього відповідь командою /replay.
err-record-none = Партії #{ $id } немає. Номери партій — у /history.
rec-sent = 📄 Запис партії #{ $id } — в особистих.
rec-none = Тут ще немає завершених партій.
chk-ok = ✅ <b>Запис читається</b> — { $variant }, гравці: { $names }
chk-round = Раунд { $round }: { $end ->
    [out] вихід: { $name }
    [fish] риба, рибак { $name }
    [void] риба не в рахунок, перездача
   *[limit] ліміт: { $name }
} — очки раунду { $recorded }; рахунок { $scores }
chk-round-marks = Раунд { $round }: { $end ->
    [out] вихід: { $name }
    [fish] риба, рибак { $name }
    [void] риба не в рахунок, перездача
   *[limit] ліміт: { $name }
} — { $marks }
chk-final = <b>Підсумковий рахунок:</b> { $list }
chk-more = … і ще раніше: { $count ->
    [one] { $count } раунд
    [few] { $count } раунди
   *[many] { $count } раундів
}
chk-finished = 🏁 Партію завершено.
chk-goats = { $mark } { $goat }: { $names }
chk-winners = 🏆 Перемога: { $names }
chk-draw = 🤝 Нічия: козла немає.
chk-rating = Очки рейтингу: { $list }
chk-left = 🚪 З раунду { $round } місце гравця { $name } { $gender ->
    [feminine] догравала
   *[masculine] догравав
} { $bot }. За записом цьому місцю +{ $rating } — так рахує сама гра; але місце віддано комп'ютерному гравцеві, і { $name } отримує 0 очок рейтингу (як за тайм-аут) — так і сказано в підсумках партії.
chk-unfinished = ⏳ Партія в записі не дограна.
chk-stored-same = ✅ Збігається з партією #{ $id }, як її записав бот.
chk-stored-diff = ⚠️ Не збігається з партією #{ $id }, як її записав бот.
chk-stored-renamed = ⚠️ Це партія #{ $id }, як її записав бот, але імена гравців у записі інші: { $list }.
chk-err-size = ❌ Файл завеликий: { $size } байт. Записи я читаю до { $limit } байт.
chk-err-json = ❌ Це не JSON: файл не читається як запис партії.
chk-err-format = ❌ Це не запис партії: у ньому немає потрібних полів або вони не того вигляду.
chk-err-variant = ❌ Невідома гра «{ $variant }».
chk-err-misdeal = ❌ Раунд { $round }: у гравця { $name } така рука, що роздачу перероздають. { $rule }
chk-err-deal = ❌ Раунд { $round }: роздача хибна — у ній мають бути всі 28 кісток по одному разу й повні руки. { $rule }
chk-err-rounds = ❌ Раунд { $round }: раунди в записі не сходяться з партією — раунд обірваний або йде після кінця партії.
chk-err-illegal = ❌ Раунд { $round }, хід { $decision }: { $reason ->
    [TileNotInHand] у гравця { $name } немає на руці { $tiles }
    [TileDoesNotFit] { $name } кладе { $tiles }, а ця кістка не підходить до відкритих кінців
    [WrongLead] { $name } не може заходити з { $tiles }
    [NotYourTurn] зараз не черга гравця { $name }
    [UnknownEnd] { $name } кладе { $tiles } на кінець, якого немає
    [AmbiguousEnd] { $name } кладе { $tiles }, але не сказано, на який кінець
    [RoundOver] раунд уже закінчено, а в записі ще є хід
   *[other] { $name } не може так ходити{ $tiles ->
        [none] {""}
       *[other] : { $tiles }
    }
}. { $rule }
chk-problem = Що не так: { $problem ->
    [object] у файлі не об'єкт JSON із полями запису.
    [rules] правила гри в записі не читаються — невідомий параметр або неправильне значення.
    [players] немає списку імен гравців.
    [player_count] гравців у записі { $count }, а в цю гру грають { $need ->
        [exact] рівно { $min }
       *[range] від { $min } до { $max }
    }.
    [rounds] немає списку раундів.
    [start] неправильно записано рахунок на початок партії.
    [round] раунд { $round } записано не як раунд.
    [decisions] ходи раунду { $round } записано не списком.
    [decision] раунд { $round }, хід { $decision } — це не хід: потрібна кістка (або кілька) і, де треба, кінець.
   *[other] поля запису не того вигляду.
}
chk-rule = Правило { $section } «{ rule-name }» у { $book }.
chk-book = зведенні правил гри
chk-book-link = <a href="{ $url }">зведенні правил</a>
chk-hint = Надішліть мені файл запису партії (JSON, до 1 МБ) — я перевірю його й покажу підсумок. Запис будь-якої партії дає /record.
chk-hint-group = Щоб перевірити запис партії, дайте відповідь командою /replay на повідомлення з файлом запису або підпишіть файл /replay. В особистих повідомленнях зі мною файл можна надіслати й без команди.
chk-download-failed = ❌ Не вдалося отримати файл із Telegram. Спробуйте ще раз.
rule-name = { $rule_key ->
    [s1-1] місця й черга ходів
    [s1-2] роздача
    [s1-3] перероздача
    [s1-4] запас базару
    [s1-5] перший хід партії
    [s1-6] перший хід наступних раундів
    [s1-7] хід
    [s1-8] базар
    [s1-9] вихід
    [s1-10] риба
    [s1-15] кінець партії
    [s1-17] тайм-аути
    [s2-0-3] закриті дублі
    [s2-0-4] хід кількома кістками
    [s2-1] морський козел
    [s2-2] осел
    [s2-3] ЧЧВ
    [s2-4] телефон
    [s2-5] маггінс
    [s2-6] традиційне доміно
    [s2-7] спортивне доміно
    [s2-8] сімка
    [s2-9] генерал
   *[other] правила
}

## Вихід із партії, що йде.
leave-confirm = { $name }, вийти з партії? Ваше місце займе комп'ютерний гравець, а вам за цю партію буде 0 очок рейтингу (як за тайм-аут).
leave-confirm-last = { $name }, вийти з партії? Крім вас, за столом лише комп'ютерні гравці, тож партія закінчиться, без рейтингу.
leave-kept = Граємо далі!
leave-done = 🚪 Ви вийшли з партії. Далі за вас грає { $bot }.
leave-done-afk = ⏱ Ваші ходи пропущено, і група віддала ваше місце комп'ютерному гравцю: далі за вас грає { $bot }.
leave-notice = 🚪 { $name } виходить із партії. Далі на цьому місці грає { $bot }; { $name } отримує 0 очок рейтингу (як за тайм-аут).
leave-which = З якої партії вийти?
leave-none = У вас немає партії, що йде.
hold-question = ⏱ { $name } знову пропускає хід. Що далі: посадити на це місце комп'ютерного гравця й грати далі — чи завершити партію за тайм-аутом ({ $name } отримає 0, решта — за рахунком)? Вирішують інші гравці або адмін. Якщо ніхто не вибере за { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунди
   *[many] { $seconds } секунд
}, партія завершиться за тайм-аутом; { $name } може й походити зараз: тоді все залишиться як є.
hold-bot = 🤖 Вирішено: місце гравця { $name } віддано комп'ютерному гравцю, граємо далі ({ $name } отримує 0 очок рейтингу, як за тайм-аут).
hold-end = ⏹ Партія завершилася за тайм-аутом.
hold-back = ▶️ { $name } знову в грі.

## Кнопки та спливні відповіді (звичайний текст).
btn-record = 📄 Запис партії
btn-record-n = 📄 #{ $id }
btn-newer = ◀️ Новіші
btn-older = Старіші ▶️
btn-here = Цей чат
btn-everywhere = Усі чати
btn-leave-match = 🚪 Вийти з партії
btn-leave-yes = 🚪 Так, вийти
btn-leave-no = ▶️ Ні, лишаюся
btn-hold-bot = 🤖 Грати далі з ботом
btn-hold-end = ⏹ Завершити партію
err-record-open = Запис буде, коли партія завершиться.
err-record-foreign = Ця партія була не в цьому чаті, і ви в ній не грали.
err-record-dm = Щоб отримати запис, відкрийте особистий чат із ботом і натисніть «Старт».
err-record-usage = Напишіть /record і номер партії з /history.
err-not-your-leave = Ця кнопка — для іншого гравця.
err-hold-not-yours = Вирішують інші гравці цієї партії або адмін чату.
err-bad-variant = Такої гри немає. Ігри: { $list }.
settings-bot-matches = Партії з ботами в рейтингу чату
opt-bot-matches = { $value ->
    [yes] рахувати
   *[no] не рахувати
}

## Команди й довідка.
cmd-history = Історія партій
cmd-record = Надіслати запис партії
cmd-replay = Перевірити запис партії
cmd-leave-private = Вийти з партії, що йде
help-group-records =
    /history — партії цього чату, /record — запис партії в особисті
    /leave під час партії — поступитися місцем комп'ютерному гравцеві
    /top і /stats розуміють гру: /top морський, /top всі морський
help-private-records =
    /history — ваші партії, /record — запис партії
    /replay — перевірити запис: надішліть файл або дайте відповідь на нього
    /leave — вийти з партії, що йде
