# Спільні слова, форми множини, помилки та сповіщення.
# Тексти з HTML-тегами показуються в режимі HTML; ключі err-*, btn-*, opt-*, cmd-*, settings-*
# показуються як звичайний текст (спливні вікна, кнопки, меню команд).

## Число зі словом у потрібній формі (one / few / many).
points = { $count ->
    [one] { $count } очко
    [few] { $count } очки
   *[many] { $count } очок
}
tiles = { $count ->
    [one] { $count } кістка
    [few] { $count } кістки
   *[many] { $count } кісток
}
players = { $count ->
    [one] { $count } гравець
    [few] { $count } гравці
   *[many] { $count } гравців
}
matches = { $count ->
    [one] { $count } партія
    [few] { $count } партії
   *[many] { $count } партій
}
times = { $count ->
    [one] { $count } раз
    [few] { $count } рази
   *[many] { $count } разів
}
seconds = { $count ->
    [one] { $count } секунда
    [few] { $count } секунди
   *[many] { $count } секунд
}
minutes = { $count ->
    [one] { $count } хвилина
    [few] { $count } хвилини
   *[many] { $count } хвилин
}

## Спливні повідомлення про помилки (до 200 символів, без HTML).
err-not-your-turn = Зараз не ваш хід.
err-stale-button = Ця кнопка застаріла — дивіться останнє повідомлення.
err-not-in-game = Ви не граєте в цій партії.
err-game-full = Усі місця зайняті: за столом уже 4 гравці.
err-need-players = Щоб почати, потрібно щонайменше 2 гравці.
err-only-creator-or-admin = Це може зробити лише той, хто відкрив набір, або адмін чату.
err-only-admin = Це можуть робити лише адміни чату.
err-already-joined = Ви вже за столом.
err-not-joined = Вас немає за цим столом.
err-no-game = У цьому чаті зараз немає гри. Нова гра: /newgame
err-game-exists = У цьому чаті вже йде набір або партія.
err-lobby-exists = У цьому чаті вже відкрито набір #{ $id } — ось він: сідайте кнопкою під ним або /join.
err-match-exists = У цьому чаті вже йде партія #{ $id } — ось її стіл. Нову можна почати, коли вона закінчиться (або її зупинять: /stopgame).
err-match-exists-here = У вас тут уже йде партія #{ $id } — ось ваші кістки. /hand надішле їх знову, /stopgame закінчить партію.
err-no-match-here = Тут зараз немає партії. Зіграти проти комп'ютера: /newgame
err-lobby-closed = Цей набір уже закрито.
err-match-closed = Цю партію вже закрито.
err-other-chat = Ця кнопка — від гри в іншому чаті.
err-newgame-group-words = У групі /newgame розуміє лише назву гри (/newgame морський); комп’ютерних гравців садять у набір командою /addbot [легкий|середній|складний].
err-dm-needed = Спершу відкрийте особистий чат із ботом і натисніть «Старт» — туди прийдуть ваші кістки.
err-group-only = Ця команда працює лише в групі.
err-private-only = Ця команда працює лише в особистому чаті з ботом.
err-no-hand = У вас зараз немає партії.
err-unexpected = Вибачте, щось пішло не так. Нічого не втрачено: стіл показує, де гра зараз, а /hand надішле ваші кістки знову.

## Кнопки.
btn-join = ✋ Сісти за стіл
btn-leave = 🚪 Встати
btn-start = ▶️ Почати
btn-cancel = ✖️ Скасувати
btn-addbot = 🤖 Додати бота
btn-rmbot = 🤖 Прибрати бота
btn-rematch = 🔁 Реванш
btn-open-dm = 💬 Відкрити чат із ботом
btn-stop-yes = ⏹ Так, зупинити
btn-stop-no = ▶️ Ні, граємо
btn-back = ← Назад
btn-done = ✅ Готово

## Сповіщення в групі.
notice-dm-link = { $name }, щоб сісти за стіл, <a href="{ $url }">відкрийте чат із ботом</a> і натисніть «Старт».
notice-dm-closed = { $name } не отримує свої кістки: бот не може написати в особисті. Відкрийте чат із ботом і натисніть «Старт» — кістки прийдуть одразу.
notice-afk-warning = { $name }, за вас уже { times } поспіль ходив бот. Ще один пропуск — і партія закінчиться за тайм-аутом.
notice-hands-sent = Кістки надіслано в особисті. Коли ваш хід — прийде повідомлення.

## Мова.
lang-name = { $code ->
    [ru] Русский
    [uk] Українська
   *[en] English
}
lang-default = { $name } (типово)
lang-choose = Оберіть мову:
lang-changed = Готово: тепер я розмовляю українською.
notice-bot-removed = 🚫 Бота прибрали з групи «{ $chat }», і партію #{ $id } закрито без рейтингу. Зіграти можна в іншій групі або тут: /newgame

## Імена комп'ютерних гравців (ui/names.py): «Бот Федір 🤖».
bot-name = Бот { $persona } 🤖
bot-persona-1 = Федір
bot-persona-2 = Зіна
bot-persona-3 = Степан
bot-persona-4 = Маруся
bot-persona-5 = Кузьма
bot-persona-6 = Глаша
