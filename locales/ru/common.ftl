# Общие слова, формы множественного числа, ошибки и уведомления.
# Тексты с HTML-тегами показываются в режиме HTML; ключи err-*, btn-*, opt-*, cmd-*, settings-*
# показываются как обычный текст (всплывающие окна, кнопки, меню команд).

## Число со словом в нужной форме (one / few / many).
points = { $count ->
    [one] { $count } очко
    [few] { $count } очка
   *[many] { $count } очков
}
tiles = { $count ->
    [one] { $count } кость
    [few] { $count } кости
   *[many] { $count } костей
}
players = { $count ->
    [one] { $count } игрок
    [few] { $count } игрока
   *[many] { $count } игроков
}
matches = { $count ->
    [one] { $count } партия
    [few] { $count } партии
   *[many] { $count } партий
}
times = { $count ->
    [one] { $count } раз
    [few] { $count } раза
   *[many] { $count } раз
}
seconds = { $count ->
    [one] { $count } секунда
    [few] { $count } секунды
   *[many] { $count } секунд
}
minutes = { $count ->
    [one] { $count } минута
    [few] { $count } минуты
   *[many] { $count } минут
}

## Всплывающие сообщения об ошибках (до 200 символов, без HTML).
err-not-your-turn = Сейчас не ваш ход.
err-stale-button = Эта кнопка устарела — смотрите последнее сообщение.
err-not-in-game = Вы не играете в этой партии.
err-game-full = Все места заняты: за столом уже 4 игрока.
err-need-players = Нужно хотя бы 2 игрока, чтобы начать.
err-only-creator-or-admin = Это может сделать только тот, кто открыл набор, или админ чата.
err-only-admin = Это могут делать только админы чата.
err-already-joined = Вы уже за столом.
err-not-joined = Вас нет за этим столом.
err-no-game = В этом чате сейчас нет игры. Новая игра: /newgame
err-game-exists = В этом чате уже идёт набор или партия.
err-lobby-exists = В этом чате уже открыт набор #{ $id } — вот он: садитесь кнопкой под ним или /join.
err-match-exists = В этом чате уже идёт партия #{ $id } — вот её стол. Новую можно начать, когда она закончится (или её остановят: /stopgame).
err-match-exists-here = У вас здесь уже идёт партия #{ $id } — вот ваши кости. /hand пришлёт их заново, /stopgame закончит партию.
err-no-match-here = Здесь сейчас нет партии. Сыграть против компьютера: /newgame
err-lobby-closed = Этот набор уже закрыт.
err-match-closed = Эта партия уже закрыта.
err-other-chat = Эта кнопка — от игры в другом чате.
err-newgame-group-words = В группе /newgame понимает только название игры (/newgame морской); компьютерных игроков сажают в набор командой /addbot [лёгкий|средний|сложный].
err-dm-needed = Сначала откройте личный чат с ботом и нажмите «Старт» — туда придут ваши кости.
err-group-only = Эта команда работает только в группе.
err-private-only = Эта команда работает только в личном чате с ботом.
err-no-hand = У вас сейчас нет партии.
err-unexpected = Извините, что-то пошло не так. Ничего не потеряно: стол показывает, где игра сейчас, а /hand пришлёт ваши кости заново.

## Кнопки.
btn-join = ✋ Сесть за стол
btn-leave = 🚪 Встать
btn-start = ▶️ Начать
btn-cancel = ✖️ Отменить
btn-addbot = 🤖 Добавить бота
btn-rmbot = 🤖 Убрать бота
btn-rematch = 🔁 Реванш
btn-open-dm = 💬 Открыть личку с ботом
btn-stop-yes = ⏹ Да, остановить
btn-stop-no = ▶️ Нет, играем
btn-back = ← Назад
btn-done = ✅ Готово

## Уведомления в группе.
notice-dm-link = { $name }, чтобы сесть за стол, <a href="{ $url }">откройте личку с ботом</a> и нажмите «Старт».
notice-dm-closed = { $name } не получает свои кости: бот не может написать в личку. Откройте личку с ботом и нажмите «Старт» — кости придут сразу.
notice-afk-warning = { $name }, за вас уже { times } подряд ходил бот. Ещё один пропуск — и партия закончится по тайм-ауту.
notice-hands-sent = Кости разосланы в личку. Ваш ход — придёт сообщение.

## Язык.
lang-name = { $code ->
    [ru] Русский
    [uk] Українська
   *[en] English
}
lang-default = { $name } (по умолчанию)
lang-choose = Выберите язык:
lang-changed = Готово: теперь я говорю по-русски.
notice-bot-removed = 🚫 Бота убрали из группы «{ $chat }», и партия #{ $id } закрыта без рейтинга. Сыграть можно в другой группе или здесь: /newgame

## Имена компьютерных игроков (ui/names.py): «Бот Фёдор 🤖».
bot-name = Бот { $persona } 🤖
bot-persona-1 = Фёдор
bot-persona-2 = Зина
bot-persona-3 = Степан
bot-persona-4 = Маруся
bot-persona-5 = Кузьма
bot-persona-6 = Глаша
