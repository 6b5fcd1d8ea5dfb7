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
        # a note too long for one line of the centre wraps (issue 30 item 16)
        assert ru in " ".join(picture_labels(render_table_png(view, locale="ru", tr=TR)))
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


# -- issue 30 item 11: names need no declension, computer players have their gender ----------


def _names_after_a_governing_word() -> list[tuple[str, int, str]]:
    """Lines of the ru and uk locales where a name's placeholder follows a preposition or a
    word that would have the name declined («у { $name }», «из руки { $maker }»): a name
    stays as its owner wrote it, so no text may need it in another case."""
    import re

    from ui.i18n import LOCALES_DIR

    governing = re.compile(
        r"(?i)(?<![\w-])(у|в|во|з|із|зі|из|от|від|для|к|ко|до|при|про|о|об|без|с|со|над|под"
        r"|під|перед|між|между|після|после|руки|руці|руке|игроку|гравцю)\s+(<b>)?"
        r"\{ \$(name|names|maker|bot|left|creator)\b")
    return [(f"{loc}/{path.name}", n, line.strip())
            for loc in ("ru", "uk") for path in sorted((LOCALES_DIR / loc).glob("*.ftl"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if governing.search(line)]


def test_no_text_needs_a_name_declined():
    """«у Тарас забагато…», «из руки Петя», «Поровну у Оля, Петя»: every text is phrased so
    that the name stands as it is."""
    assert _names_after_a_governing_word() == []
    misdeal = TR.t("uk", "log-misdeal", name="Тарас", reason="doubles")
    assert "Тарас" in misdeal and "у Тарас" not in misdeal
    took = TR.t("ru", "log-draw-two", name="Оля", tiles=2, taken=1, maker="Петя")
    assert "руки Петя" not in took and "Петя" in took


@pytest.mark.parametrize("locale,verbs", [("ru", ("доигрывала", "доигрывал")),
                                          ("uk", ("догравала", "догравав"))])
def test_a_computer_player_who_finished_a_seat_has_its_own_gender(locale, verbs):
    """«Бот Зина 🤖 доигрывала», «Бот Фёдор 🤖 доигрывал»: the match end's note on a seat a
    person left speaks of the computer player in its gender (``PERSONA_GENDERS``), as the
    view names it in the reader's language."""
    from service.views import EndReason, MatchEnd, PlayerResult

    she, he = verbs
    for bot, verb in (("Бот Зина 🤖", she), ("Бот Фёдор 🤖", he)):
        end = MatchEnd(EndReason.LIMIT, True, (
            PlayerResult(0, 1, "Оля", 40, False, 6, 1, 0, False, place=1),
            PlayerResult(1, -2, bot, 101, True, 0, 0, 0, False, bot="easy", place=2,
                         side=1, left="Петя", left_round=2)))
        text = render.render_match_end(locale, localized(end, locale, TR), tr=TR)
        shown = localize_name(bot, locale, TR)
        assert f"{verb} {shown}" in text, text


@pytest.mark.parametrize("locale", ["ru", "uk"])
def test_a_seat_the_group_handed_on_names_no_he_for_her(locale):
    """«…отдала место игроку Бот Зина 🤖: дальше играет он»: the player whose seat the group
    handed to a computer player reads a text that needs no gender."""
    text = TR.t(locale, "leave-done-afk", bot=localize_name("Бот Зина 🤖", locale, TR))
    words = set(text.replace(":", " ").replace(".", " ").split())
    assert not words & {"он", "она", "він", "вона"}, text


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
def test_the_strengths_have_one_name_on_the_buttons_and_in_the_commands(locale):
    """Private set-up buttons said Weak/Normal/Strong where the commands said
    easy/normal/hard: the buttons now show the very words /newgame and /addbot take in
    that language, which /help lists."""
    from handlers.games import parse_solo
    from service.live.seats import STRENGTHS
    from ui.keyboards import solo_keyboard
    from ui.strengths import parse_strength

    markup = solo_keyboard(locale, "classic", 1, "normal", (1, 2, 3), tr=TR)
    labels = {}
    for row in markup.inline_keyboard:
        for b in row:
            if b.callback_data and ":" in b.callback_data:
                word = b.text.removeprefix("✓").strip()
                if parse_strength(word, TR) is not None:
                    labels[parse_strength(word, TR)] = word
    assert sorted(labels) == sorted(STRENGTHS), markup
    helps = render.render_help(locale, is_group=True, tr=TR) + render.render_help(
        locale, is_group=False, tr=TR)
    for strength, word in labels.items():
        assert word in helps, (word, helps)
        assert parse_solo(["3", word], TR).strength == strength
