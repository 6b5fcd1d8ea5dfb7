# Сторінка міні-застосунку (issue 21): слова самої сторінки; рядки столу, підсумки й кінець
# партії беруться з інших файлів.
webapp-title = Козел — стіл
webapp-bazar = Базар
webapp-reserve = запас
webapp-count = Рахунок на столі
webapp-your-turn = Ваш хід
webapp-turn-of = Ходить { $name }
webapp-waiting = Чекаємо
webapp-spectator = Ви дивитеся партію
webapp-choose-end = Куди покласти?
webapp-play = Піти
webapp-cancel = Скасувати
webapp-round = Раунд
webapp-last-moves = Останні ходи
webapp-summary = Підсумки раунду
webapp-match-end = Партію закінчено
webapp-close = Закрити
webapp-tiles = кіст.
webapp-score = рахунок
webapp-offline = Зв'язок втрачено, під'єднуємося…
webapp-no-moves = Ходити нічим: бот візьме з базару або постукає за вас.
webapp-closed = закрито
webapp-along = уздовж
webapp-seconds = с
webapp-you = ви
webapp-bot = комп'ютер
webapp-left = поза грою
webapp-open = 🁫 Відкрити стіл
webapp-queue = у ряду (їх не бачить ніхто)
webapp-legend = Картинки = числа
