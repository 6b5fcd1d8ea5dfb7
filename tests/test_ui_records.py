"""The players' records as text (issue 12, issue 15): boards and /stats write a skill below
zero with the minus sign, in every locale; a board says what it counts; the history of a
person names the chat of each match only when the bot knows its title."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.views import (
    HistoryEntry,
    HistoryPage,
    HistoryPlayer,
    LeaderRow,
    MarkMean,
    MarkView,
    PersonalStats,
)
from ui import records
from ui.i18n import get_translator

TR = get_translator()


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_a_skill_below_zero_has_the_minus_sign(lang):
    rows = [LeaderRow(1, 1, "Оля", 10, 3, 0, skill=4.24),
            LeaderRow(2, 2, "Петя", 5, 3, 2, skill=-1.94)]
    text = records.render_board(lang, rows, variant="classic", everywhere=False,
                                with_bots=False, tr=TR)
    first, second = (line for line in text.splitlines() if line.startswith(("1.", "2.")))
    assert "<b>4" in first and "<b>−1" in second and "-1" not in text
    assert TR.t(lang, "board-counts-fair") in text
    stats = PersonalStats(2, None, 3, 2, 5, 1, 0, 12.0, skill=-0.04)
    shown = records.render_personal(lang, "Петя", "classic", here=None, overall=stats, tr=TR)
    assert "−" not in shown and "-" not in shown  # −0.04 rounds to 0
    # the estimate's certainty in words, not μ and σ (issue 20 item 10)
    assert "μ" not in shown and "σ" not in shown
    assert TR.t(lang, "pstats-skill", sign="", skill=0.0, sure="low", points=0).split(
        "(")[1].split(")")[0] in shown
    low = PersonalStats(2, None, 3, 2, 5, 1, 0, 12.0, skill=-2.5)
    assert "−2" in records.render_personal(lang, "Петя", "classic", here=None, overall=low,
                                           tr=TR)


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_each_board_says_what_it_counts(lang):
    texts = {(everywhere, bots): records.render_board(lang, [], variant="sea_goat",
                                                      everywhere=everywhere, with_bots=bots,
                                                      tr=TR)
             for everywhere in (False, True) for bots in (False, True)}
    assert TR.t(lang, "board-counts-fair") in texts[False, False]
    assert TR.t(lang, "board-counts-bots") in texts[False, True]
    assert texts[True, False] == texts[True, True]  # every chat's board never counts them
    assert TR.t(lang, "board-counts-global") in texts[True, False]
    sea = records.variant_name(lang, "sea_goat", tr=TR)
    assert all(sea in t for t in texts.values())


def test_a_persons_history_names_a_chat_only_by_its_title():
    players = (HistoryPlayer(0, 1, "Оля", 0, 1, 0, False, 5),
               HistoryPlayer(1, 2, "Петя", 1, 2, 60, True, 0, title=None))
    entries = (HistoryEntry(3, -100, "Стол <у окна>", "classic", 0.0, "limit", players),
               HistoryEntry(2, -200, None, "classic", 0.0, "limit", players),
               HistoryEntry(1, 1, None, "classic", 0.0, "limit", players))
    text = records.render_history("ru", HistoryPage(entries, 0, 1, 3), mine=True, tr=TR)
    heads = [line for line in text.splitlines() if line.startswith("<b>#")]
    assert "«Стол &lt;у окна&gt;»" in heads[0]
    assert "«" not in heads[1] and "—»" not in text
    assert heads[2].endswith(TR.t("ru", "hist-where-private"))


#: A word each locale's texts use for a player who left (``hist-left``, ``leave-…``).
LEFT = {"ru": "ушедш", "uk": "вийшов", "en": "left"}


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_a_fair_board_says_that_a_leavers_seat_finished_by_a_computer_counts(lang):
    """Issue 30 item 7: the fair boards count matches where a computer player finished the
    seat of a person who left (``storage.skill``: such a match stays fair), so their header
    says so instead of «без компьютерных игроков»."""
    for everywhere in (False, True):
        text = records.render_board(lang, [], variant="classic", everywhere=everywhere,
                                    with_bots=False, tr=TR)
        head = text.splitlines()[1]
        assert LEFT[lang] in head, head
        assert head.rstrip(".").lower() not in (
            "считаются партии этого чата без компьютерных игроков",
            "считаются партии всех чатов без компьютерных игроков",
            "рахуються партії цього чату без комп'ютерних гравців",
            "рахуються партії всіх чатів без комп'ютерних гравців",
            "counts this chat's matches without computer players",
            "counts the matches of every chat without computer players"), head


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_people_of_one_name_on_a_board_are_told_apart(lang):
    """Issue 30 item 7: three «Маша» on the global board: each gets what tells her apart —
    her @username, or without one the end of her Telegram id, with as many digits as it
    takes — and a name nobody shares stays as it is."""
    rows = [LeaderRow(1, 71_001_234, "Маша", 30, 9, 1, skill=9.0),
            LeaderRow(2, 5_002, "Оля", 20, 5, 1, skill=6.0),
            LeaderRow(3, 83_001_234, "маша ", 20, 5, 1, skill=5.0),
            LeaderRow(4, 90_777, "Маша", 12, 4, 2, skill=3.0, username="masha_k")]
    text = records.render_board(lang, rows, variant="classic", everywhere=True,
                                with_bots=False, tr=TR)
    lines = [line for line in text.splitlines() if line[:2] in ("1.", "2.", "3.", "4.")]
    names = [line.split(". ", 1)[1].split(" — ")[0] for line in lines]
    assert names[1] == "Оля"
    assert "@masha_k" in names[3] and "1234" not in names[3]
    # …1234 alone would not tell them apart: as many digits as it takes
    assert names[0].endswith("…1001234)") and names[2].endswith("…3001234)"), names
    assert len({n.casefold() for n in names}) == 4, names


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_a_marks_result_is_told_as_the_match_end_tells_it(lang):
    """Семёрка keeps no points (RULES.md §2.8): its history lines say the sticks as the
    match's end does, and a result stored before the bot kept them says so instead of a
    score of 0; /stats gives the sticks per match, never an average score (issue 30 item
    1)."""
    sticks = (MarkView("sticks", 3, 3), MarkView("sticks", 1, 3))
    players = (HistoryPlayer(0, 1, "Оля", 0, 2, 0, True, 0, marks=(sticks[0],)),
               HistoryPlayer(1, 2, "Петя", 1, 1, 0, False, 1, marks=(sticks[1],)))
    old = tuple(replace(p, marks=None) for p in players)
    page = HistoryPage((HistoryEntry(2, -100, None, "seven", 0.0, "limit", players),
                        HistoryEntry(1, -100, None, "seven", 0.0, "limit", old)), 0, 1, 2)
    text = records.render_history(lang, page, mine=False, tr=TR)
    three = TR.t(lang, "mark-score-seven", count=3)
    one = TR.t(lang, "mark-score-seven", count=1)
    lines = text.splitlines()
    assert any(line.startswith("1. Петя — " + one) for line in lines), text
    assert any(line.startswith("2. 🐐 Оля — " + three) for line in lines), text
    unknown = TR.t(lang, "hist-result-unknown")
    assert sum(f" — {unknown}" in line for line in lines) == 2
    assert not any(" — 0" in line for line in lines)
    # a points game keeps its scores, remembered points beside the open score (§1.12)
    classic = HistoryEntry(3, -100, None, "classic", 0.0, "limit", (
        HistoryPlayer(0, 1, "Оля", 0, 1, 0, False, 10, marks=None, remembered=8),))
    shown = records.render_history(lang, HistoryPage((classic,), 0, 1, 1), mine=False, tr=TR)
    assert TR.t(lang, "score-remembered", score=0, remembered=8) in shown
    stats = PersonalStats(1, None, 4, 1, 3, 0, 0, 0.0, variant="seven",
                          marks=(MarkMean("sticks", 1.75, 4),))
    said = records.render_personal(lang, "Оля", "seven", here=None, overall=stats, tr=TR)
    assert TR.t(lang, "mark-mean-seven", mean=1.75) in said
    assert "1,8" in said or "1.8" in said
    before = replace(stats, marks=())  # only results stored before the bot kept sticks
    said = records.render_personal(lang, "Оля", "seven", here=None, overall=before, tr=TR)
    assert TR.t(lang, "pstats-play-short", outs=0, fish=0) in said
