# Страница мини-приложения (issue 21): слова самой страницы; строки стола, итоги и конец
# партии берутся из других файлов.
webapp-title = Козёл — стол
webapp-bazar = Базар
webapp-reserve = запас
webapp-count = Счёт на столе
webapp-your-turn = Ваш ход
webapp-turn-of = Ходит { $name }
webapp-waiting = Ждём
webapp-spectator = Вы смотрите партию
webapp-choose-end = Куда положить?
webapp-play = Сходить
webapp-cancel = Отмена
webapp-round = Раунд
webapp-last-moves = Последние ходы
webapp-summary = Итоги раунда
webapp-match-end = Партия окончена
webapp-close = Закрыть
webapp-tiles = кост.
webapp-score = счёт
webapp-offline = Связь потеряна, подключаемся…
webapp-no-moves = Ходить нечем: бот возьмёт из базара или постучит за вас.
webapp-closed = закрыто
webapp-along = вдоль
webapp-seconds = с
webapp-you = вы
webapp-bot = компьютер
webapp-left = вне игры
webapp-open = 🁫 Открыть стол
webapp-queue = в ряду (их не видит никто)
webapp-legend = Картинки = числа
