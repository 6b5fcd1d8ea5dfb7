# Довідка, описи команд, рейтинг і статистика.

help-group =
    <b>🐐 Козел — доміно в чаті</b>
    /newgame [гра] — відкрити набір і сісти за стіл (наприклад, /newgame морський; ігри — у /rules)
    /join — сісти за стіл, /leave — встати
    /startgame — роздати кістки (той, хто відкрив набір, або адмін)
    /stopgame — зупинити партію без рейтингу
    /score — рахунок партії
    /top — рейтинг чату, /top all — загальний
    /stats — ваша статистика (відповіддю на повідомлення — чужа)
    /rules — правила цього чату, /settings — налаштування
    /lang — мова чату
    Кістки приходять в особисті: відкрийте чат із ботом і натисніть «Старт».
help-private =
    <b>🐐 Козел — доміно в Telegram</b>
    Додайте мене в групу й наберіть там /newgame. Сюди, в особисті, приходять ваші кістки та кнопки ходів.
    /hand — надіслати руку ще раз
    /stats — ваша статистика
    /top — загальний рейтинг
    /lang — мова
start-private = Привіт! Я веду партії в доміно «Козел». Додайте мене в групу й наберіть /newgame — а кістки приходитимуть сюди.
start-joined = ✅ Ви за столом у «{ $chat }». Коли партія почнеться, кістки прийдуть сюди.

## Описи команд для меню (звичайний текст, до 256 символів).
cmd-newgame = Відкрити набір у нову гру
cmd-join = Сісти за стіл
cmd-leave = Встати з-за столу
cmd-startgame = Роздати кістки й почати
cmd-stopgame = Зупинити партію
cmd-score = Рахунок партії
cmd-top = Рейтинг (all — загальний)
cmd-stats = Статистика гравця
cmd-rules = Правила цього чату
cmd-settings = Налаштування чату
cmd-lang = Мова
cmd-help = Допомога
cmd-start = Почати
cmd-hand = Надіслати мою руку ще раз
cmd-top-private = Загальний рейтинг
cmd-stats-private = Моя статистика

## Рейтинг і статистика.
top-title-chat = <b>🏆 Рейтинг чату</b>
top-title-global = <b>🏆 Загальний рейтинг</b>
top-empty = Поки що ніхто не дограв жодної партії.
top-line = { $place }. { $name } — <b>{ $rating }</b> { $rating ->
    [one] очко
    [few] очки
   *[many] очок
} · { $matches ->
    [one] { $matches } партія
    [few] { $matches } партії
   *[many] { $matches } партій
} · 🐐 { $goats }
stats-title = <b>📊 { $name }</b>
stats-matches = Партій: { $count }
stats-goats = Був козлом: { times }
stats-rating = Рейтинг: { points }
stats-outs = Виходів: { $count }
stats-fish = Риб: { $count }
stats-average = Середній підсумковий рахунок: { NUMBER($average, maximumFractionDigits: 1) }
stats-empty = { $name }: ще жодної дограної партії.

## Computer players (issue 6).
help-group-bots = /addbot [easy|normal|hard] — посадити за стіл комп'ютерного гравця 🤖 (кнопка «Прибрати бота» звільняє місце)
help-private-bots = /newgame [1-3] [гра] [easy|normal|hard] — зіграти тут проти 1–3 комп'ютерних гравців 🤖 (без слів — вибір кнопками)
err-bad-strength = Оберіть силу: easy, normal або hard.
err-bad-solo = Так: /newgame [1-3] [гра] [easy|normal|hard] — наприклад, /newgame 3 телефон hard
cmd-addbot = Посадити комп'ютерного гравця
cmd-newgame-private = Зіграти з комп'ютером
