"""The caption of the group's table picture: what the text table says that the picture does not.

When a group sees its table as a picture (issue 14, :mod:`ui.picture`), the picture shows the
tiles, the seats with their names, tiles in hand, scores and whose turn it is, the round, the
variant, the bazar, the pot and the count.  The caption under it (:func:`render_caption`)
holds the rest of the text table (:func:`ui.render.render_table`): the title (the game and
its round) and what the game is played for (RULES.md §1.15, §2), the time a turn has
(§1.17: the picture rings the seat to play, only words can say its seconds), the round's
recent moves in words (who drew how many, who knocked, the host's moves — §1.8, §1.17 —
which a picture of the table cannot show), and once the round is scored its summary
(:func:`ui.render.render_round_summary`: how it ended, the hands, what was recorded,
§1.11–§1.14) and, at the match's end, that the match is over.

Telegram takes at most :data:`MAX_CAPTION` characters of a caption, counted after the HTML
is parsed, in UTF-16 code units (:func:`caption_length`).  What does not fit goes, in this
order: the oldest lines of the moves, the lines of the summary that show tiles (the hands,
which the closing picture reveals too), and then lines from the end.  Lines are dropped
whole, so the HTML of every line stays balanced.

Like :mod:`ui.render`, the functions here take views only (no engine, no I/O), so a caption
can hold no more than the group's :class:`~service.views.TableView` holds.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from service.views import TableView

from .i18n import Translator, get_translator
from .render import (
    _goal,
    _title,
    _turn_line,
    action_log,
    render_round_summary,
    stopped_text,
    table_notices,
    text_length,
)

__all__ = ["CAPTION_LOG_LINES", "MAX_CAPTION", "caption_length", "render_caption"]

#: Telegram's limit for a photo's caption [characters after HTML parsing, UTF-16 units].
MAX_CAPTION = 1024
#: Lines of the recent moves a caption shows (the text table shows ``ui.render.LOG_LINES``);
#: the picture rings the last move, so a few lines are enough to follow the round.
CAPTION_LOG_LINES = 6

_TAG = re.compile(r"<[^>]*>")
_TILE = re.compile(r"\[\d\|\d\]")


def caption_length(text: str) -> int:
    """The length Telegram counts for an HTML caption: tags removed, entities such as
    ``&amp;`` as one character, emoji as two (UTF-16 code units), leading and trailing
    white space stripped."""
    return text_length(html.unescape(_TAG.sub("", text)).strip())


def render_caption(locale: str, table: TableView, *, log_lines: int = CAPTION_LOG_LINES,
                   limit: int = MAX_CAPTION, tr: Translator | None = None) -> str:
    """The caption (Telegram HTML) of the group's table picture of ``table``: the title (the
    game and its round, as :func:`ui.render.render_table` begins) and what the game is played
    for; its last ``log_lines`` moves (:func:`ui.render.action_log`, with how many came
    before); once the round is scored (``table.summary``) its summary; once the match is over
    and rated, a line that says so.

    At most ``limit`` characters as :func:`caption_length` counts them (default
    :data:`MAX_CAPTION`, Telegram's limit), in every locale: the oldest moves go first, then
    the summary's lines with tiles, then whole lines from the end (ending in "…").  Never
    raises for long names or logs."""
    tr = tr if tr is not None else get_translator()
    names = [s.name for s in table.seats]
    # the same first lines as the text table: the game and its round (sport's deal k of N,
    # RULES.md §2.7) and what the game is played for (§1.15, §2.0.7)
    title = _title(tr, locale, table)
    goal = _goal(tr, locale, table.variant, table.rules)
    log = action_log(table.notes, names, locale, tr=tr, variant=table.variant)
    hidden = max(0, len(log) - max(0, log_lines))
    log = log[hidden:]
    summary: list[str] = []
    if table.summary is not None:
        # the specials (ЧЧВ, §2.3 rule 4) are in the moves, as in the text table
        summary = render_round_summary(locale, table.summary, names,
                                       [s.side for s in table.seats], specials=False,
                                       tr=tr).split("\n")
    tail = ([] if table.final is None else [tr.t(locale, "table-match-over")]
            if table.final.rated else [stopped_text(tr, locale, table.final)])

    # what the round stakes (the picture marks it, only the words say what it stakes), as
    # the text table says it
    stakes = table_notices(tr, locale, table)
    # the time a turn has (RULES.md §1.17): the picture rings the seat to play but cannot say
    # how long it has, so the caption says it in the text table's words (a computer player's
    # turn, or a match without a time limit, has no such line)
    to_act = table.seats[table.to_act] if table.to_act is not None and \
        0 <= table.to_act < len(table.seats) else None
    turn = [_turn_line(tr, locale, table)] if to_act is not None and to_act.bot is None and \
        table.turn_seconds and table.summary is None and table.final is None else []

    def build(log_part: Sequence[str], summary_part: Sequence[str]) -> list[str]:
        lines = [title] if goal is None else [title, goal]
        lines += stakes
        lines += turn
        if log_part:
            lines.append(tr.t(locale, "table-log-title"))
            dropped = hidden + len(log) - len(log_part)
            if dropped:
                lines.append(tr.t(locale, "table-log-more", count=dropped))
            lines += log_part
        if summary_part:
            lines += ["", *summary_part]
        if tail:
            lines += ["", *tail]
        return lines

    def fits(lines: Sequence[str]) -> bool:
        return caption_length("\n".join(lines)) <= limit

    keep = len(log)
    lines = build(log, summary)
    while not fits(lines) and keep > 0:
        keep -= 1
        lines = build(log[len(log) - keep:] if keep else [], summary)
    if not fits(lines):
        summary = [line for line in summary if not _TILE.search(line)]
        lines = build([], summary)
    if not fits(lines):
        ellipsis = "…"
        while len(lines) > 1 and not fits([*lines, ellipsis]):
            lines.pop()
        lines.append(ellipsis)
    return "\n".join(lines).strip()
