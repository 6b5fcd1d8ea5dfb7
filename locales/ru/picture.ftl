# Надписи на картинке стола (ui/picture.py). Простой текст, без HTML.

pic-round = Раунд { $round }
pic-round-of = Раздача { $round } из { $deals }
pic-round-over = Раунд { $round } окончен
pic-match-over = Партия окончена
pic-match-stopped = Партия остановлена
pic-stopped-by = Остановка: { $name } · без рейтинга
pic-variant = { $variant ->
    [sea_goat] Морской козёл
    [donkey] Осёл
    [chcv] ЧЧВ
    [telephone] Телефон
    [muggins] Маггинс
    [traditional] Домино
    [sport] Спортивное домино
    [seven] Семёрка
    [general] Генерал
    [mexican_train] Мексиканский поезд
    [kolbasa] Колбаса
   *[classic] Козёл
}
pic-teams = команды
pic-bazar = Базар: { $count }
pic-bazar-reserve = Базар: { $count } (+{ $reserve })
pic-pot = Яйца: { $points }
pic-count = Сумма концов: { $count }
pic-scored = +{ $points } за ход
pic-turn = ходит
pic-score = Счёт: { $score }
pic-bot = бот
pic-mark = { $mark }: { $count }
pic-left = Вне игры
pic-team = Команда { $team }
pic-seat = Игрок { $seat }
pic-waiting = Ждём заход
pic-flag-fast = { $value ->
    [extra] Внеочередной заход
    [zero] Быстрый заход [0|0]
   *[six] Быстрый заход [6|6]
}
pic-flag-two_tiles = По 2 кости за ход
pic-out = Выход: { $name }
pic-fish = Рыба! Рыбак: { $name }
pic-void = Пересдача: рыба не считается
pic-limit = { $name }: предел набран
pic-flag-general = Генерал!
pic-hand-empty = пусто
pic-play-points = За ходы: +{ $points }
pic-goat = козёл
pic-goat-donkey = осёл

# Настройка /settings: стол в группе картинкой (с подписью) или текстом.
settings-table = Вид стола
opt-table = { $value ->
    [text] Текст
   *[picture] Картинка
}
