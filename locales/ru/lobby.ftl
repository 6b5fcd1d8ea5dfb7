# Набор игроков, правила и настройки.

lobby-title = <b>🐐 { $game } — набор игроков</b>
lobby-players = Игроки ({ $count } из { $max }):
lobby-seat = { $seat }. { $name }
lobby-seat-bot = { $seat }. 🤖 { $name }
lobby-seat-empty = { $seat }. —
lobby-creator = Набор собирает: { $name }
lobby-rules = <b>Правила:</b>
lobby-hint = Жмите «Сесть за стол». Начать может тот, кто открыл набор, или админ; сменить игру — кнопкой «Другая игра».
lobby-expires = Набор закроется через { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[many] { $minutes } минут
}, если игру не начнут.
lobby-expired = ⌛ Набор закрыт: игру так и не начали. Новый набор: /newgame
lobby-cancelled = ✖️ Набор отменён.
lobby-started = ▶️ Партия началась! Кости разосланы в личку.

## Краткое описание правил чата (RULES.md).
rules-title = <b>Правила: { $game }</b>
rules-teams = { $enabled ->
    [yes] Команды: места 1 и 3 против 2 и 4
   *[no] Каждый за себя
}
rules-limit = { $race ->
    [yes] Игра до { $limit ->
        [one] { $limit } очка
       *[other] { $limit } очков
    }; кто первым наберёт — победил
   *[no] Партия до { $limit ->
        [one] { $limit } очка
       *[other] { $limit } очков
    }; кто набрал — { $variant ->
        [sea_goat] морской козёл
        [donkey] осёл
       *[other] козёл
    }
}
rules-fish-scoring = Рыба: { $mode ->
    [each_own] каждый записывает своё («рыба на всех»)
    [own_to_max] у кого больше всех, записывает своё
   *[all_to_max] у кого больше всех, записывает всё («рыба на одного»)
}
rules-fish-without-double = Рыба без дубля: { $enabled ->
    [yes] да
   *[no] нет
}
rules-reserve = Базар: { $reserve ->
    [0] весь
    [1] без одного
   *[2] без двух
}
rules-timeout = Время на ход: { seconds }
rules-brief =
    <b>Коротко об игре.</b> Каждому 7 костей, остальное — базар. Первый заход партии — с [1|1] (нет его — с [2|2], [3|3] … [6|6], потом [0|0]). Кладите кость к концу цепи с тем же числом; нечем ходить — идите на базар, базар пуст — стук.
    Раунд кончается, когда кто-то вышел (выложил все кости) или рыба: ходить больше нечем никому.
    Очки — сумма точек на руке. Пока счёт не открыт, до 12 очков запоминается (+N); 13 и больше открывают счёт. Кто после записи набрал лимит — козёл.

## Настройки чата (кнопки — обычный текст).
settings-title = <b>⚙️ Настройки чата</b>
settings-hint = Изменения действуют со следующей партии.
settings-choose = <b>{ $option }</b> — выберите значение:
settings-item = { $label }: { $value }
settings-teams = Команды
settings-fish-scoring = Рыба
settings-fish-without-double = Рыба без дубля
settings-bazar-reserve = Базар
settings-match-limit = Партия до
settings-turn-timeout = Время на ход
settings-language = Язык
settings-saved = Сохранено. Действует со следующей партии.
opt-teams = { $value ->
    [yes] Командный
   *[no] Каждый за себя
}
opt-fish-scoring = { $value ->
    [each_own] Рыба на всех
    [own_to_max] Свои на проигравшего
   *[all_to_max] Все на проигравшего
}
opt-yes-no = { $value ->
    [yes] Да
   *[no] Нет
}
opt-bazar-reserve = { $value ->
    [0] Весь
    [1] Без одного
   *[2] Без двух
}
opt-seconds = { $value } с
