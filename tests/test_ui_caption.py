"""The caption under the group's table picture (ui/caption.py, issue 14): the round's recent
moves and its summary, nothing the picture shows, and never over Telegram's 1024 characters
in any locale, however long the names, the log or the hands."""

from __future__ import annotations

import dataclasses
import re

import pytest

from service.views import ActionNote, FlagView, MatchEnd, PlayerResult, RoundSummary
from tests.emulator.html import parse_html, strip_text, utf16_len
from ui import render
from ui.caption import CAPTION_LOG_LINES, MAX_CAPTION, caption_length, render_caption
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.picture_examples import CHAIN_27, closed_round, line_layout, make_table, middle_round

TR = Translator(strict=True)


def shown_length(caption: str) -> int:
    """What Telegram counts (the emulator's parser): valid HTML, then UTF-16 units."""
    text, entities = parse_html(caption)
    return utf16_len(strip_text(text, entities)[0])


def notes(count: int, players: int = 4) -> tuple[ActionNote, ...]:
    """A long round of every kind of public line: draws, plays, knocks, host moves."""
    out = [ActionNote("dealt", 0, 1)]
    for i in range(count):
        seat = i % players
        kind = ("drew", "played", "knocked", "played", "host_moved")[i % 5]
        a, b = CHAIN_27[i % len(CHAIN_27)]
        out.append(ActionNote(kind, seat, 1, tile=f"{min(a, b)}-{max(a, b)}",
                              end="left" if i % 2 else "right", count=3))
    return tuple(out)


def test_a_round_in_the_middle_shows_its_title_and_latest_moves_only():
    table = dataclasses.replace(middle_round(), notes=notes(20, players=3))
    caption = render_caption("ru", table, tr=TR)
    lines = caption.split("\n")
    assert lines[0] == "<b>Раунд 4</b>"
    log = render.action_log(table.notes, [s.name for s in table.seats], "ru", tr=TR)
    assert lines[1] == TR.t("ru", "table-log-title")
    assert lines[2] == TR.t("ru", "table-log-more", count=len(log) - CAPTION_LOG_LINES)
    assert lines[3:] == log[-CAPTION_LOG_LINES:]
    # what the picture shows is not repeated: no chain, no bazar, no seats, no turn
    text = render.render_table("ru", table, tr=TR)
    for line in text.split("\n"):
        if line.startswith(("Цепь", "Концы", "Базар", "▶️", "▫️", "Ходит", "🥚")):
            assert line not in lines


def test_the_tiles_in_a_caption_are_tiles_of_the_chain():
    table = dataclasses.replace(middle_round(), notes=notes(12, players=3))
    shown = set(re.findall(r"\[(\d)\|(\d)\]", render_caption("uk", table, tr=TR)))
    laid = {(str(min(a, b)), str(max(a, b))) for a, b in CHAIN_27}
    assert shown and {(min(a, b), max(a, b)) for a, b in shown} <= laid


def test_a_round_without_moves_is_its_title():
    table = make_table(["Оля", "Петя"], [7, 7], line_layout(()), drawable=14)
    assert render_caption("en", table, tr=TR) == "<b>Round 1</b>"


def closed() -> tuple:
    table, summary = closed_round()
    return table, dataclasses.replace(summary, seat_values=(3, 0, 20, 13))


def test_a_closed_round_ends_with_its_whole_summary_and_the_match_end():
    table, summary = closed()
    table = dataclasses.replace(table, summary=summary, notes=notes(4))
    names = [s.name for s in table.seats]
    caption = render_caption("ru", table, tr=TR)
    expected = render.render_round_summary("ru", summary, names, [s.side for s in table.seats],
                                           tr=TR)
    assert caption.endswith("\n\n" + expected)
    final = MatchEnd("limit", True, tuple(
        PlayerResult(s.seat, s.user_id, s.name, 0, s.seat == 0, 0, 0, 0, False, side=s.side)
        for s in table.seats))
    over = render_caption("ru", dataclasses.replace(table, final=final), tr=TR)
    assert over.endswith(expected + "\n\n" + TR.t("ru", "table-match-over"))


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
@pytest.mark.parametrize("name", ["🐐" * 40, "<&>" * 20, "Олександра-Вікторія Іваненко-Петренко"])
def test_the_caption_fits_telegrams_limit_in_every_locale(locale, name):
    """Four players with the longest names (emoji count twice, ``&`` is escaped), every tile
    in a hand at the round's end and hundreds of moves: at most 1024 characters as Telegram
    counts them, valid HTML, and the oldest moves go first, then the hands."""
    names = [f"{name}{i}" for i in range(4)]
    hands = (("0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"),
             ("1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"),
             ("2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"),
             ("3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"))
    teams_summary = RoundSummary(round_no=12, end="fish", by=2, hands=hands,
                                 hand_values=(120, 150), recorded=(270, 0), scores=(99, 0),
                                 remembered=(0, 45), pot_won=12, pot=7,
                                 seat_values=(21, 45, 60, 88))
    for teams in (False, True):
        table = make_table(names, [7, 7, 7, 7], line_layout(CHAIN_27[:3]), round_no=12,
                           teams=teams, notes=notes(300))
        summary = teams_summary if teams else dataclasses.replace(
            teams_summary, hand_values=(21, 45, 60, 88), recorded=(0, 0, 214, 0),
            scores=(12, 0, 99, 3), remembered=(0, 9, 0, 0))
        for shown in (table, dataclasses.replace(table, summary=summary)):
            caption = render_caption(locale, shown, tr=TR)
            assert shown_length(caption) <= MAX_CAPTION
            assert caption_length(caption) == shown_length(caption)
            assert caption.startswith(TR.t(locale, "table-title-classic", round=12))
        # old moves go before the hands, and the records stay
        lines = render_caption(locale, dataclasses.replace(table, summary=summary),
                               tr=TR).split("\n")
        hand_lines = [line for line in lines if line.count("[") >= 7]
        if TR.t(locale, "table-log-title") in lines:
            assert len(hand_lines) == 4
        assert TR.t(locale, "round-records-title") in lines
        assert not lines[-1].endswith("…")


def test_what_is_left_out_goes_in_order():
    table, summary = closed()
    table = dataclasses.replace(table, summary=summary, notes=notes(40))
    full = render_caption("en", table, tr=TR, log_lines=40)
    parts = full.split("\n")
    summary_lines = parts[parts.index("") + 1:]
    # a little too long: only old moves go
    cut = render_caption("en", table, tr=TR, log_lines=40, limit=caption_length(full) - 40)
    assert cut.split("\n")[-len(summary_lines):] == summary_lines
    assert caption_length(cut) <= caption_length(full) - 40
    # no room for any move nor the hands: the hands (lines with tiles) go too
    summary_only = "\n".join(["<b>Round 2</b>", "", *summary_lines])
    tight = render_caption("en", table, tr=TR, limit=caption_length(summary_only) - 1)
    assert not re.search(r"\[\d\|\d\]", tight)
    assert "Round 2 is over" in tight
    # and with no room at all, whole lines from the end, with "…"
    tiny = render_caption("en", table, tr=TR, limit=30)
    assert caption_length(tiny) <= 30 and tiny.endswith("…")
    assert tiny.startswith("<b>Round 2</b>")


@pytest.mark.parametrize("fast", ["6-6", "0-0", "extra"])
def test_a_fast_lead_says_what_it_stakes(fast):
    """RULES.md §2.1 rules 6–7: the picture marks a fast lead; the caption says what the
    round's loser will record, as the text table does."""
    key = {"6-6": "six", "0-0": "zero", "extra": "extra"}[fast]
    flags = (FlagView("fast", key),) + ((FlagView("two_tiles"),) if fast == "extra" else ())
    table = dataclasses.replace(middle_round(), variant="sea_goat", flags=flags)
    caption = render_caption("ru", table, tr=TR)
    assert TR.t("ru", "flag-fast", value=key) in caption
    assert (TR.t("ru", "flag-two_tiles") in caption) == (fast == "extra")
    assert TR.t("ru", "flag-fast", value=key) not in render_caption("ru", middle_round(), tr=TR)


@pytest.mark.parametrize("locale", sorted(SUPPORTED_LOCALES))
def test_the_caption_says_the_time_a_turn_has_as_the_text_table_does(locale):
    """RULES.md §1.17: the picture rings the seat to play, the caption says its seconds in
    the text table's words; a computer player's turn and a scored round have no such line."""
    table = dataclasses.replace(middle_round(), notes=notes(30, players=3), turn_seconds=90)
    line = render._turn_line(TR, locale, table)
    assert "90" in line
    caption = render_caption(locale, table, tr=TR)
    assert line in caption.split("\n")
    assert line in render.render_table(locale, table, tr=TR).split("\n")
    assert caption_length(caption) <= MAX_CAPTION
    # a long log is cut before the turn line goes
    short = render_caption(locale, table, tr=TR, limit=200)
    assert line in short.split("\n")
    bot = dataclasses.replace(table, seats=tuple(
        dataclasses.replace(s, bot="normal") if s.seat == table.to_act else s
        for s in table.seats))
    assert "90" not in render_caption(locale, bot, tr=TR)
    untimed = dataclasses.replace(table, turn_seconds=None)
    assert render._turn_line(TR, locale, untimed) not in render_caption(locale, untimed, tr=TR)
