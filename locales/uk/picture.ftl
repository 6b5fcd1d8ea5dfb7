# Написи на картинці столу (ui/picture.py). Простий текст, без HTML.

pic-round = Раунд { $round }
pic-round-of = Роздача { $round } з { $deals }
pic-round-over = Раунд { $round } закінчено
pic-match-over = Партію закінчено
pic-match-stopped = Партію зупинено
pic-stopped-by = Зупинка: { $name } · без рейтингу
pic-variant = { $variant ->
    [sea_goat] Морський козел
    [donkey] Осел
    [chcv] ЧЧВ
    [telephone] Телефон
    [muggins] Маггінс
    [traditional] Доміно
    [sport] Спортивне доміно
    [seven] Сімка
    [general] Генерал
    [mexican_train] Мексиканський потяг
    [kolbasa] Ковбаса
   *[classic] Козел
}
pic-teams = команди
pic-bazar = Базар: { $count }
pic-bazar-reserve = Базар: { $count } (+{ $reserve })
pic-pot = Яйця: { $points }
pic-count = Сума кінців: { $count }
pic-scored = +{ $points } за хід
pic-turn = ходить
pic-score = Рахунок: { $score }
pic-bot = бот
pic-mark = { $mark }: { $count }
pic-left = Поза грою
pic-team = Команда { $team }
pic-seat = Гравець { $seat }
pic-waiting = Чекаємо на перший хід
pic-flag-fast = { $value ->
    [extra] Позачерговий перший хід
    [zero] Швидкий перший хід [0|0]
   *[six] Швидкий перший хід [6|6]
}
pic-flag-two_tiles = По 2 кістки за хід
pic-out = Вихід: { $name }
pic-fish = Риба! Рибак: { $name }
pic-void = Перероздача: риба не рахується
pic-limit = { $name }: межу набрано
pic-flag-general = Генерал!
pic-hand-empty = порожньо
pic-play-points = За ходи: +{ $points }
pic-goat = козел
pic-goat-donkey = осел

# Налаштування /settings: стіл у групі картинкою (з підписом) або текстом.
settings-table = Вигляд столу
opt-table = { $value ->
    [text] Текст
   *[picture] Картинка
}
