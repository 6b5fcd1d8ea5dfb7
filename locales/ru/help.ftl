# Справка, описания команд, рейтинг и статистика.

help-group =
    <b>🐐 Козёл — домино в чате</b>
    /newgame [игра] — открыть набор и сесть за стол (например, /newgame морской; игры — в /rules)
    /join — сесть за стол, /leave — встать
    /startgame — раздать кости (тот, кто открыл набор, или админ)
    /stopgame — остановить партию без рейтинга
    /score — счёт партии
    /top — рейтинг чата, /top all — общий
    /stats — ваша статистика (ответом на сообщение — чужая)
    /rules — правила этого чата, /settings — настройки
    /lang — язык чата
    Кости приходят в личку: откройте чат с ботом и нажмите «Старт».
help-private =
    <b>🐐 Козёл — домино в Telegram</b>
    Добавьте меня в группу и наберите там /newgame. Сюда, в личку, приходят ваши кости и кнопки ходов.
    /hand — прислать руку ещё раз
    /stats — ваша статистика
    /top — общий рейтинг
    /lang — язык
start-private = Привет! Я веду партии в домино «Козёл». Добавьте меня в группу и наберите /newgame — а кости будут приходить сюда.
start-joined = ✅ Вы за столом в «{ $chat }». Когда партия начнётся, кости придут сюда.

## Описания команд для меню (обычный текст, до 256 символов).
cmd-newgame = Открыть набор в новую игру
cmd-join = Сесть за стол
cmd-leave = Встать из-за стола
cmd-startgame = Раздать кости и начать
cmd-stopgame = Остановить партию
cmd-score = Счёт партии
cmd-top = Рейтинг (all — общий)
cmd-stats = Статистика игрока
cmd-rules = Правила этого чата
cmd-settings = Настройки чата
cmd-lang = Язык
cmd-help = Помощь
cmd-start = Начать
cmd-hand = Прислать мою руку ещё раз
cmd-top-private = Общий рейтинг
cmd-stats-private = Моя статистика

## Рейтинг и статистика.
top-title-chat = <b>🏆 Рейтинг чата</b>
top-title-global = <b>🏆 Общий рейтинг</b>
top-empty = Пока никто не доиграл ни одной партии.
top-line = { $place }. { $name } — <b>{ $rating }</b> { $rating ->
    [one] очко
    [few] очка
   *[many] очков
} · { $matches ->
    [one] { $matches } партия
    [few] { $matches } партии
   *[many] { $matches } партий
} · 🐐 { $goats }
stats-title = <b>📊 { $name }</b>
stats-matches = Партий: { $count }
stats-goats = Был козлом: { times }
stats-rating = Рейтинг: { points }
stats-outs = Выходов: { $count }
stats-fish = Рыб: { $count }
stats-average = Средний итоговый счёт: { NUMBER($average, maximumFractionDigits: 1) }
stats-empty = { $name }: ещё ни одной доигранной партии.

## Computer players (issue 6).
help-group-bots = /addbot [easy|normal|hard] — посадить за стол компьютерного игрока 🤖 (кнопка «Убрать бота» освобождает место)
help-private-bots = /newgame [1-3] [игра] [easy|normal|hard] — сыграть здесь против 1–3 компьютерных игроков 🤖 (без слов — выбор кнопками)
err-bad-strength = Выберите силу: easy, normal или hard.
err-bad-solo = Так: /newgame [1-3] [игра] [easy|normal|hard] — например, /newgame 3 телефон hard
cmd-addbot = Посадить компьютерного игрока
cmd-newgame-private = Сыграть с компьютером
