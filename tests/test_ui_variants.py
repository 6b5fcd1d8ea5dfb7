"""The games as players name them (ui.variants), the private /newgame words
(handlers.games.parse_solo), the game menus' keyboards and callback data, and the transcripts
of docs/PLAYING.md, which must be what ``python -m tools.transcript`` prints of a real match."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from handlers.games import parse_solo, solo_counts
from service.live.rulebook import variant_infos
from tools.transcript import transcript
from ui import keyboards as kb
from ui.callbacks import MAX_CALLBACK_BYTES, SoloCb, VariantCb, parse_callback
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.variants import names_of, normalize, parse_variant

TR = Translator(strict=True)
PLAYING = Path(__file__).resolve().parents[1] / "docs" / "PLAYING.md"


def test_every_game_is_named_by_its_id_and_its_names_in_every_locale_and_nothing_else():
    """A game's names come from its texts: ``variant-name`` and ``variant-aliases-<game>``
    in every locale (issue 31), whatever the chat's language."""
    for name in variant_infos():
        assert parse_variant(name, TR) == name
        assert parse_variant(name.upper(), TR) == name
        for locale in SUPPORTED_LOCALES:
            aliases = TR.plain(locale, f"variant-aliases-{name}").split(",")
            assert aliases and all(a.strip() for a in aliases)
            for alias in aliases:
                assert parse_variant(alias, TR) == name, alias
                assert parse_variant(alias.strip().upper().replace(" ", "_"), TR) == name
            # the names the bot itself shows
            assert parse_variant(TR.plain(locale, "variant-name", variant=name), TR) == name
    assert parse_variant(["Морской", "Козёл"], TR) == "sea_goat"
    assert parse_variant("«Осёл»", TR) == "donkey" and parse_variant("Сiмка", TR) is None
    assert parse_variant("sea", TR) == "sea_goat" and parse_variant("будиночки", TR) == "telephone"
    for word in ("", "poker", "козёл морской", "7", "sea goat goat"):
        assert parse_variant(word, TR) is None
    assert normalize("  Морской__Козёл -  ") == "морской козел"
    games: dict[str, set[str]] = {}
    for name in variant_infos():
        for word in names_of(TR, name):
            games.setdefault(word, set()).add(name)
    assert [w for w, names in games.items() if len(names) > 1] == []  # one game a word


@pytest.mark.parametrize(("words", "expected"), [
    ("", ("classic", 1, "normal", False)),
    ("3 hard", ("classic", 3, "hard", True)),
    ("телефон 2", ("telephone", 2, "normal", True)),
    ("easy морской козёл", ("sea_goat", 1, "easy", False)),
    ("sport", ("sport", 3, "normal", False)),  # no count: the one the game needs
    ("1 генерал", ("general", 1, "normal", True)),  # refused later with the count it needs
])
def test_private_newgame_words(words, expected):
    choice = parse_solo(words.split(), TR)
    assert (choice.variant, choice.bots, choice.strength, choice.count_given) == expected


def test_private_newgame_words_that_name_nothing():
    assert parse_solo(["2", "chess"], TR) is None
    # a count outside 1..3 is read as a count, so that the answer says what the game seats
    assert parse_solo(["4"], TR).bots == 4 and parse_solo(["0", "телефон"], TR).bots == 0
    assert solo_counts(variant_infos()["sport"]) == (3,)
    assert solo_counts(variant_infos()["seven"]) == (1, 2, 3)


def test_the_game_menus_fit_telegrams_limits():
    for locale in SUPPORTED_LOCALES:
        menu = kb.variant_keyboard(locale, 2**63 - 1, "sea_goat", tr=TR)
        data = [b.callback_data for row in menu.inline_keyboard for b in row]
        assert all(len(d.encode()) <= MAX_CALLBACK_BYTES for d in data)
        picks = [parse_callback(d) for d in data]
        assert [p.variant for p in picks if p.action == "pick"] == list(variant_infos())
        assert picks[-1] == VariantCb(action="back", lobby=2**63 - 1)
        labels = [b.text for row in menu.inline_keyboard for b in row]
        assert labels.count("✓ " + TR.plain(locale, "variant-name", variant="sea_goat")) == 1
        setup = kb.solo_keyboard(locale, "sport", 3, "easy", (3,), tr=TR)
        cbs = [parse_callback(b.callback_data) for row in setup.inline_keyboard for b in row]
        assert all(isinstance(c, SoloCb) for c in cbs) and cbs[-1].go
        assert [c.bots for c in cbs[12:13]] == [3] and len(setup.inline_keyboard) == 9
    for forged in ("v1:pick:1:" + "x" * 17, "v1:jump:1:", "o1:classic:4:normal:0",
                   "o1:classic:1:ultra:0", "o1:Classic:1:easy:0"):
        with pytest.raises(ValueError):
            parse_callback(forged)


def _doc_blocks(title: str) -> list[str]:
    """The code blocks of the section ``title`` of docs/PLAYING.md, up to its next heading."""
    text = PLAYING.read_text("utf-8")
    section = text[text.index(title):]
    end = re.search(r"^#{1,3} ", section[len(title):], re.M)
    section = section[:len(title) + end.start()] if end else section
    return re.findall(r"```\n(.*?)\n```", section, re.S)


@pytest.mark.parametrize(("title", "variant", "kwargs"), [
    ("## A round of Морской козёл", "sea_goat", dict(players=3, seed=1, want="multi", at=8)),
    ("## A round of Телефон", "telephone", dict(players=3, seed=1, want="points", at=9)),
])
def test_the_transcripts_of_docs_playing_are_a_real_match(title, variant, kwargs):
    """The rounds of docs/PLAYING.md are printed by the transcript tool from a match played
    through the service; if the texts change, run the command named there and paste."""
    middle, closed = asyncio.run(transcript(variant, **kwargs))
    assert _doc_blocks(title) == [middle.strip("\n"), closed.strip("\n")]
    section = PLAYING.read_text("utf-8").split(title, 1)[1].split("\n## ", 1)[0]
    assert f"python -m tools.transcript {variant} --players" in section


def test_transcripts_of_the_games_without_points_and_of_a_wrong_seating():
    """Семёрка and Генерал record no points (RULES.md §2.8–§2.9): a round counts by its sticks
    or lost rounds; a game asked for with a player count it does not seat is refused."""
    _, closed = asyncio.run(transcript("seven", players=3, seed=1, tries=40))
    assert "Семёрка" in closed and "Палк" in closed
    with pytest.raises(ValueError, match="sport is played by 4 players, not 2"):
        asyncio.run(transcript("sport", players=2))
    with pytest.raises(ValueError, match="unknown game"):
        asyncio.run(transcript("poker"))
