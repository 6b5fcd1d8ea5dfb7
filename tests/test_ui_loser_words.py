"""A game's loser is called by the game's own word and mark everywhere the results are told
(issue 30 item 2): Осёл's loser is «осёл» 🫏 (RULES.md §2.2 rule 4) at the match's end, in
its final table, in the picture's badge, on the Mini App page, in /history, on the boards,
in /stats and in the check of its record — never a goat 🐐, which classic Козёл's loser
stays (§1.15)."""

from __future__ import annotations

import pytest

from service.views import (
    EndReason,
    HistoryEntry,
    HistoryPage,
    HistoryPlayer,
    LeaderRow,
    MatchEnd,
    PersonalStats,
    PlayerResult,
    RecordCheck,
    RecordRound,
    Result,
    SeatView,
    Status,
    TableView,
)
from ui import records, render
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.picture import picture_labels, render_table_png
from ui.webapp_view import table_state

TR = Translator(strict=True)

#: The loser's mark and words per game and locale: (mark, the picture's badge, the word in
#: /history and the record check, the word in /stats).
WORDS = {
    ("donkey", "ru"): ("🫏", "осёл", "осёл", "ослом"),
    ("donkey", "uk"): ("🫏", "осел", "осел", "ослом"),
    ("donkey", "en"): ("🫏", "donkey", "donkey", "donkey"),
    ("classic", "ru"): ("🐐", "козёл", "козёл", "козлом"),
    ("classic", "uk"): ("🐐", "козел", "козел", "козлом"),
    ("classic", "en"): ("🐐", "goat", "goat", "goat"),
}
GOAT_WORDS = {"ru": ("коз",), "uk": ("коз",), "en": ("goat",)}
NAMES = ("Оля", "Петя", "Маша")


def _end(variant: str) -> MatchEnd:
    scores, goats = (0, 55, 72), (False, True, True)
    players = tuple(PlayerResult(seat=i, user_id=i + 1, name=n, score=scores[i], goat=goats[i],
                                 rating=5 if i == 0 else 0, outs=1, fish=0, timed_out=False,
                                 side=i, place=(1, 2, 3)[i])
                    for i, n in enumerate(NAMES))
    return MatchEnd(EndReason.LIMIT, True, players, variant=variant)


def _table(variant: str) -> TableView:
    end = _end(variant)
    seats = tuple(SeatView(i, i + 1, n, 3, i, end.players[i].score, 0, False, 0)
                  for i, n in enumerate(NAMES))
    return TableView(
        match_id=7, chat_id=-1, thread_id=None, version=40, status=Status.FINISHED,
        round_no=4, teams=False, chain=(), ends=(), drawable=0, reserve=0, seats=seats,
        scores=(0, 55, 72), remembered=(0, 0, 0), pot=0, to_act=None, to_act_user_id=None,
        deadline_at=None, match_limit=51, notes=(), final=end, variant=variant,
        rules={"variant": variant, "match_limit": 51})


def _told(variant: str, locale: str) -> dict[str, str]:
    """Every place a finished match's loser is named, as text."""
    end = _end(variant)
    history = HistoryPage((HistoryEntry(7, -1, "Стол", variant, 0.0, "limit", tuple(
        HistoryPlayer(p.seat, p.user_id, p.name, p.side, p.place, p.score, p.goat, p.rating)
        for p in end.players)),), 0, 1, 1)
    board = [LeaderRow(1, 1, "Оля", 9, 3, 0, skill=2.0), LeaderRow(2, 2, "Петя", 0, 3, 2)]
    stats = PersonalStats(2, None, 3, 2, 0, 1, 0, 40.0, variant=variant)
    check = RecordCheck(True, names=NAMES, variant=variant,
                        rounds=(RecordRound(1, "out", 0, (0, 30, 40), (0, 55, 72)),),
                        finished=True, goats=(1, 2), rating=(5, 0, 0))
    return {
        "end": render.render_match_end(locale, end, tr=TR),
        "history": records.render_history(locale, history, mine=False, tr=TR),
        "board": records.render_board(locale, board, variant=variant, everywhere=False,
                                      with_bots=False, tr=TR),
        "stats": records.render_personal(locale, "Петя", variant, here=None, overall=stats,
                                         tr=TR),
        "check": records.render_record_check(locale, check, limit=10**6, tr=TR),
    }


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
@pytest.mark.parametrize("variant", ["donkey", "classic"])
def test_the_loser_is_called_by_the_games_own_word_and_mark_everywhere(variant, locale):
    mark, badge, word, as_word = WORDS[variant, locale]
    told = _told(variant, locale)
    lines = told["end"].splitlines()
    # the match's end: the goats' line and both losers' lines of the final table
    assert lines[1].startswith(mark + " ")
    assert [line.split(". ", 1)[1].split(" ", 1)[0] for line in lines
            if line[:2] in ("2.", "3.")] == [mark, mark]
    history = [line for line in told["history"].splitlines() if line[:2] in ("2.", "3.")]
    assert len(history) == 2
    assert all(line.startswith(f"{line[:2]} {mark} ") and f", {word} ·" in line
               for line in history), history
    # the board: its legend and every line mark the goats with the game's mark
    board = told["board"].splitlines()
    assert f"; {mark} — " in next(line for line in board if line.startswith("🎯"))
    assert all(f"· {mark} " in line for line in board if line[:2] in ("1.", "2."))
    assert f"{as_word}: 2" in told["stats"]
    assert f"{mark} {word}: " in told["check"]
    if variant == "donkey":  # never the classic goat anywhere
        for where, text in told.items():
            assert "🐐" not in text, (where, text)
            assert not any(w in text.lower() for w in GOAT_WORDS[locale]), (where, text)
    # the picture's badge on the losers' cards and the Mini App page's mark beside their names
    labels = picture_labels(render_table_png(_table(variant), locale=locale, tr=TR))
    assert labels.count(badge) == 2, labels
    if variant == "donkey":
        assert not any(w in label.lower() for label in labels for w in GOAT_WORDS[locale])
    page = table_state(Result(True, table=_table(variant)), locale, TR)
    assert page["final"]["goat_mark"] == mark and page["final"]["goats"] == [1, 2]


@pytest.mark.parametrize(("locale", "shown"), [("en", "Bot Fyodor 🤖"), ("uk", "Бот Федір 🤖"),
                                               ("ru", "Бот Фёдор 🤖")])
def test_the_mini_app_names_a_computer_player_in_the_readers_language(locale, shown):
    """The Mini App's seats, final table and log name a computer player as the group's and
    the private chat's messages do: in the reader's language (issue 20 item 10), not by the
    Russian name its seat stores."""
    table = _table("classic")
    bot = SeatView(1, -1, "Бот Фёдор 🤖", 3, 1, 55, 0, False, 0, bot="easy")
    end = table.final
    players = tuple(p if p.seat != 1 else PlayerResult(
        seat=1, user_id=-1, name="Бот Фёдор 🤖", score=p.score, goat=p.goat, rating=0,
        outs=1, fish=0, timed_out=False, side=1, place=p.place, bot="easy")
        for p in end.players)
    from dataclasses import replace

    table = replace(table, seats=(table.seats[0], bot, table.seats[2]),
                    final=replace(end, players=players))
    page = table_state(Result(True, table=table), locale, TR)
    assert [s["name"] for s in page["seats"]] == ["Оля", shown, "Маша"]
    assert shown in page["final"]["text"]
    if locale != "ru":
        assert "Фёдор" not in str(page)
