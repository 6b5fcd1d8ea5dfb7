"""The smaller texts of issue 20 item 10: computer players' names in the reader's language,
one robot in the lobby, the picture's labels (no space left by an emoji it cannot draw, the
sea goat's extraordinary lead called as the caption calls it), and Семёрка's tiles taken
from another hand called so, not «Из базара» (RULES.md §2.8 rule 5)."""

from __future__ import annotations

import dataclasses
import random

import pytest

import engine
from service.game import GameService
from service.views import FlagView, LobbyView, PlayerRef, Status
from tests.localekit import foreign_words
from tests.servicekit import FakeClock
from tests.test_ui_picture import LAYOUTS, table
from tests.variantkit import seat
from ui import render
from ui.i18n import get_translator
from ui.names import localize_name, localized
from ui.picture import display_text, picture_labels, render_table_png

TR = get_translator()


def _lobby(*players: PlayerRef) -> LobbyView:
    return LobbyView(match_id=1, chat_id=-1, thread_id=None, version=0, status=Status.LOBBY,
                     creator_id=players[0].user_id, players=players,
                     rules=engine.Rules().to_json(), min_players=2, max_players=4,
                     deadline_at=None, rematch_of=None)


def test_computer_players_are_named_in_the_readers_language():
    lobby = _lobby(PlayerRef(1, "Оля"), PlayerRef(-1, "Бот Фёдор 🤖", "easy"),
                   PlayerRef(-2, "Бот Зина 🤖", "hard"))
    uk = render.render_lobby("uk", localized(lobby, "uk", TR), tr=TR)
    assert "2. Бот Федір 🤖" in uk and "3. Бот Зіна 🤖" in uk and "Фёдор" not in uk
    en = render.render_lobby("en", localized(lobby, "en", TR), tr=TR)
    assert "2. Bot Fyodor 🤖" in en and "3. Bot Zina 🤖" in en
    assert foreign_words(en, "en", allowed=["Оля"]) == []
    # Russian is the stored name: the very same view
    assert localized(lobby, "ru", TR) is lobby
    # a person who calls themselves so keeps their name; a seat a person left is named
    # with the computer player's name in the reader's language
    assert localized(PlayerRef(7, "Бот Фёдор 🤖"), "en", TR).name == "Бот Фёдор 🤖"
    assert localize_name("Оля → Бот Степан 🤖", "en", TR) == "Оля → Bot Stepan 🤖"


def test_the_lobby_marks_a_computer_player_with_one_robot():
    text = render.render_lobby("ru", _lobby(PlayerRef(1, "Оля"),
                                            PlayerRef(-1, "Бот Фёдор 🤖", "easy")), tr=TR)
    (line,) = [x for x in text.splitlines() if x.startswith("2. ")]
    assert line == "2. Бот Фёдор 🤖"


def test_an_emoji_the_picture_cannot_draw_leaves_no_space_before_a_colon():
    assert display_text("Бот Фёдор 🤖: предел набран") == "Бот Фёдор: предел набран"
    assert display_text("Бот Фёдор 🤖") == "Бот Фёдор"
    assert display_text("Оля 🤖 Петя") == "Оля Петя"


def test_the_picture_names_the_sea_goats_extraordinary_lead_as_the_caption_does():
    """RULES.md §2.1 rule 7: [0|0] and [6|6] led together is the extraordinary lead, not a
    fast one (rule 6)."""
    for fast, ru in (("extra", "Внеочередной заход"), ("6-6", "Быстрый заход [6|6]"),
                     ("0-0", "Быстрый заход [0|0]")):
        view = dataclasses.replace(table(LAYOUTS["line short"]), variant="sea_goat",
                                   flags=(FlagView("fast", {"6-6": "six", "0-0": "zero",
                                                            "extra": "extra"}[fast]),))
        assert ru in picture_labels(render_table_png(view, locale="ru", tr=TR))
        notices = "\n".join(render.table_notices(TR, "ru", view))
        assert ru.split(" [")[0] in notices


def test_the_picture_labels_follow_the_locale():
    view = table(LAYOUTS["line short"])
    for locale in ("ru", "uk", "en"):
        labels = picture_labels(render_table_png(view, locale=locale, tr=TR))
        assert labels and all(foreign_words(x, locale, allowed=["Оля", "Петя"]) == []
                              for x in labels), labels


async def test_seven_tiles_taken_from_another_hand_are_not_called_the_bazar(store_url):
    """Семёрка (RULES.md §2.8 rule 5): when the bazar runs short, the tiles a player must
    take come blindly from the 7-maker's hand; the hand message says so and names that
    player, and «Из базара» lists only the tiles drawn from the bazar."""
    svc = await GameService.open(store_url, clock=FakeClock(),
                                 seed_source=iter(range(1000, 9000)).__next__)
    rng = random.Random(3)
    found = 0
    try:
        for k in range(40):
            res = await seat(svc, -300 - k, 2, variant="seven")
            res = await svc.lobbies.start(res.match_id, 1)
            while res.status == Status.PLAYING and found < 3:
                hand = next(h for h in res.hands if h.your_turn)
                res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal),
                                         None, res.version)
                assert res.ok, res
                for h in res.hands or ():
                    if h.taken:
                        found += 1
                        assert h.taken_from is not None and h.taken_from != h.seat
                        assert not set(h.taken) & set(h.drawn)
                        assert set(h.taken) <= set(h.tiles)
                        text = render.render_hand("ru", h, res.table, tr=TR)
                        maker = res.table.seats[h.taken_from].name
                        assert f"Взяты вслепую из руки игрока {maker}: " in text
                        assert all(t.replace("-", "|") not in line for t in h.taken
                                   for line in text.splitlines() if "Из базара" in line)
            if found >= 3:
                break
    finally:
        await svc.close()
    assert found >= 3


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
def test_the_global_board_says_no_here_and_the_history_explains_its_marks(locale):
    from service.views import HistoryEntry, HistoryPage, HistoryPlayer
    from ui import records

    here = records.render_board(locale, [], variant="classic", everywhere=False,
                                with_bots=False, tr=TR)
    everywhere = records.render_board(locale, [], variant="classic", everywhere=True,
                                      with_bots=False, tr=TR)
    assert TR.t(locale, "board-empty") in here
    assert TR.t(locale, "board-empty-global") in everywhere
    assert not {"здесь", "тут"} & set(everywhere.replace(".", " ").split())
    players = (HistoryPlayer(0, 1, "Оля", 0, 1, 0, False, 5, skill=1.5),
               HistoryPlayer(1, -1, "Бот Фёдор 🤖", 1, 2, 60, True, 0, bot="easy"))
    page = HistoryPage((HistoryEntry(3, 1, None, "classic", 0.0, "limit", players,
                                     with_bots=True),), 0, 1, 1)
    text = records.render_history(locale, page, mine=True, tr=TR)
    legend = TR.t(locale, "hist-legend")
    assert legend in text and "⭐" in legend and "🎯" in legend
    assert foreign_words(text, locale, allowed=["Оля"]) == []
    # the record's caption names no program to run: the bot checks the file itself
    from service.views import RecordFile
    caption = records.record_caption(locale, RecordFile(3, 1, "classic", 0.0, "k.json", b""),
                                     tr=TR)
    assert "python" not in caption and "/replay" in caption
