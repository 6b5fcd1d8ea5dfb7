# Набір гравців, правила та налаштування.

lobby-title = <b>🐐 { $game } — набір гравців</b>
lobby-players = Гравці ({ $count } з { $max }):
lobby-seat = { $seat }. { $name }
lobby-seat-bot = { $seat }. 🤖 { $name }
lobby-seat-empty = { $seat }. —
lobby-creator = Набір збирає: { $name }
lobby-rules = <b>Правила:</b>
lobby-hint = Тисніть «Сісти за стіл». Почати може той, хто відкрив набір, або адмін; змінити гру — кнопкою «Інша гра».
lobby-expires = Набір закриється через { $minutes ->
    [one] { $minutes } хвилину
    [few] { $minutes } хвилини
   *[many] { $minutes } хвилин
}, якщо гру не почнуть.
lobby-expired = ⌛ Набір закрито: гру так і не почали. Новий набір: /newgame
lobby-cancelled = ✖️ Набір скасовано.
lobby-started = ▶️ Партія почалася! Кістки надіслано в особисті.

## Короткий опис правил чату (RULES.md).
rules-title = <b>Правила: { $game }</b>
rules-teams = { $enabled ->
    [yes] Команди: місця 1 і 3 проти 2 і 4
   *[no] Кожен сам за себе
}
rules-limit = { $race ->
    [yes] Гра до { $limit ->
        [one] { $limit } очка
       *[other] { $limit } очок
    }; хто першим набере — переміг
   *[no] Партія до { $limit ->
        [one] { $limit } очка
       *[other] { $limit } очок
    }; хто набрав — { $variant ->
        [sea_goat] морський козел
        [donkey] осел
       *[other] козел
    }
}
rules-fish-scoring = Риба: { $mode ->
    [each_own] кожен записує своє («Свої»)
    [own_to_max] у кого найбільше, записує своє («Свої на програвшого»)
   *[all_to_max] у кого найбільше, записує все («Всі на програвшого»)
}
rules-fish-without-double = Риба без дубля: { $enabled ->
    [yes] так
   *[no] ні
}
rules-reserve = Базар: { $reserve ->
    [0] весь
    [1] без одного
   *[2] без двох
}
rules-timeout = Час на хід: { seconds }
rules-brief =
    <b>Коротко про гру.</b> Кожному 7 кісток, решта — базар. Перший хід партії — з [1|1] (немає її — з [2|2], [3|3] … [6|6], потім [0|0]). Кладіть кістку до кінця ланцюга з тим самим числом; нема чим ходити — тягніть з базару, базар порожній — стук.
    Раунд закінчується, коли хтось вийшов (виклав усі кістки) або риба: ходити більше нікому.
    Очки — сума крапок на руці. Поки рахунок не відкрито, до 12 очок запам'ятовується (+N); 13 і більше відкривають рахунок. Хто після запису набрав ліміт — козел.

## Налаштування чату (кнопки — звичайний текст).
settings-title = <b>⚙️ Налаштування чату</b>
settings-hint = Зміни діють з наступної партії.
settings-choose = <b>{ $option }</b> — оберіть значення:
settings-item = { $label }: { $value }
settings-teams = Команди
settings-fish-scoring = Риба
settings-fish-without-double = Риба без дубля
settings-bazar-reserve = Базар
settings-match-limit = Партія до
settings-turn-timeout = Час на хід
settings-language = Мова
settings-saved = Збережено. Діє з наступної партії.
opt-teams = { $value ->
    [yes] Командний
   *[no] Кожен сам за себе
}
opt-fish-scoring = { $value ->
    [each_own] Свої
    [own_to_max] Свої на програвшого
   *[all_to_max] Всі на програвшого
}
opt-yes-no = { $value ->
    [yes] Так
   *[no] Ні
}
opt-bazar-reserve = { $value ->
    [0] Весь
    [1] Без одного
   *[2] Без двох
}
opt-seconds = { $value } с
