"""What the Mini App page is sent (issue 21): JSON-ready dicts built from the service's views
only, in the reader's language.

Two audiences, as everywhere in the bot (RULES.md §1.8: a hand is its holder's alone):

- :func:`table_state` is the table as the group sees it — the tiles laid, laid out by the same
  geometry the group's picture uses (:func:`ui.picture_layout.plan_table`, so the page and the
  picture cannot disagree), the ends, the count, the bazar, the seats with their tile counts,
  scores and marks, whose turn and its deadline, the round's moves, the last round's summary,
  the match's end. Built from a :class:`~service.views.TableView`, which never holds a hand
  (the summary's hands are the ones revealed for counting, §1.11).
- :func:`hand_state` is one seat's hand with its legal moves, from that seat's
  :class:`~service.views.HandView`.

:func:`page_state` puts them together for one caller: the table, plus the hand of the
caller's own seat, or no hand at all for a spectator. Nothing here reads another seat's
:class:`HandView`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from service.views import HandView, LayoutView, MoveOption, Result, TableView

from .compose import first_matters
from .i18n import Translator
from .names import localized
from .picture_layout import plan_table
from .render import (
    action_log,
    flag_text,
    format_score,
    goat_mark,
    keeps_points,
    mark_words,
    render_match_end,
    render_round_summary,
    side_names,
)

__all__ = ["ZONE", "LABEL_KEYS", "plain", "layout_state", "table_state", "hand_state",
           "page_state", "labels"]

#: The zone the page's table is laid out in [pixels of the SVG's viewBox]: wide like a phone
#: held upright is tall, so a long line snakes as on the group's picture.
ZONE = (0, 0, 720, 560)

#: The page's own words (``locales/*/webapp.ftl``), sent with every state.
LABEL_KEYS = ("webapp-title", "webapp-bazar", "webapp-reserve", "webapp-count",
              "webapp-your-turn", "webapp-turn-of", "webapp-waiting", "webapp-spectator",
              "webapp-choose-end", "webapp-play", "webapp-cancel", "webapp-round",
              "webapp-last-moves", "webapp-summary", "webapp-match-end", "webapp-close",
              "webapp-tiles", "webapp-offline", "webapp-no-moves", "webapp-closed",
              "webapp-along", "webapp-seconds", "webapp-you", "webapp-bot", "webapp-left",
              "webapp-score")

_TAG = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """Telegram HTML (the bot's texts) as plain text for the page: tags dropped, entities
    decoded (the page sets it as text, never as HTML)."""
    return html.unescape(_TAG.sub("", text))


def labels(tr: Translator, locale: str) -> dict[str, str]:
    """The page's words in ``locale``: ``{key without "webapp-": text}``."""
    return {k.removeprefix("webapp-"): tr.plain(locale, k, name="{name}") for k in LABEL_KEYS}


def layout_state(layout: LayoutView) -> dict[str, Any]:
    """The table's tiles where the picture puts them (RULES.md §2.0): ``zone`` ``[w, h]``
    [pixels], ``unit``, ``tiles`` ``[{box: [x0, y0, x1, y1], a, b, vertical, face, last}]``
    (``a``/``b`` the pips of the left/top and right/bottom half; ``face`` ``up``, ``down``
    for a closed double §2.0.3, ``ghost`` for the extraordinary lead's gap §2.1 rule 7),
    ``marks`` ``[{name, number, closed, box}]`` where the next tile of each end goes, ``ends``
    ``[{name, number, closed}]``, ``kind`` ``line``/``cross``, ``count`` (§2.0.6) or None."""
    plan = plan_table(layout, ZONE)
    last = set(layout.last)
    return {
        "kind": layout.kind,
        "zone": [ZONE[2] - ZONE[0], ZONE[3] - ZONE[1]],
        "unit": plan.unit,
        "tiles": [{"box": list(p.box), "a": p.first, "b": p.second, "vertical": p.vertical,
                   "face": p.face, "last": p.pos in last} for p in plan.tiles],
        "marks": [{"name": m.name, "number": m.number, "closed": m.closed,
                   "box": list(m.box)} for m in plan.marks],
        "ends": [{"name": e.name, "number": e.number, "closed": e.closed}
                 for e in layout.ends],
        "count": layout.count,
    }


def _names(table: TableView) -> list[str]:
    return [s.name for s in table.seats]


def _summary(table: TableView, locale: str, tr: Translator) -> str:
    names = _names(table)
    return plain(render_round_summary(locale, table.summary, names,
                                      [s.side for s in table.seats], tr=tr))


def table_state(result: Result, locale: str, tr: Translator) -> dict[str, Any]:
    """The table of ``result`` (``result.table`` set) for anyone who may watch it: see the
    module doc. ``summary`` is the last scored round (``{round, text}``: this round's once
    scored, else the previous round's closed table) or None; ``final`` the match end's text,
    the goats' seats and the game's mark for them (``goat_mark``: 🐐, Осёл's 🫏), or None;
    ``deadline_at`` Unix seconds (the page counts down from it against ``now``, the server's
    clock).  Computer players are named in ``locale``, as the chats name them."""
    result = localized(result, locale, tr)
    table = result.table
    names = _names(table)
    sides = [s.side for s in table.seats]
    teams = len(table.scores) != len(table.seats)
    labels_ = side_names(names, sides) if teams else names
    summary = None
    if table.summary is not None:
        summary = {"round": table.summary.round_no, "text": _summary(table, locale, tr)}
    elif result.closed is not None and result.closed.summary is not None:
        summary = {"round": result.closed.summary.round_no,
                   "text": _summary(result.closed, locale, tr)}
    final = None
    if table.final is not None:
        final = {"text": plain(render_match_end(locale, table.final, rematch_hint=False,
                                                tr=tr)),
                 "goats": [p.seat for p in table.final.players if p.goat],
                 "goat_mark": goat_mark(locale, table.variant, tr=tr),
                 "reason": str(table.final.reason)}
    return {
        "match_id": table.match_id,
        "version": table.version,
        "status": str(table.status),
        "variant": table.variant,
        "round": table.round_no,
        "deals": table.deals,
        "teams": teams,
        "layout": layout_state(table.layout),
        "flags": [plain(flag_text(tr, locale, table.variant, f)) for f in table.flags],
        "drawable": table.drawable,
        "reserve": table.reserve,
        "pot": table.pot,
        "seats": [{"seat": s.seat, "name": s.name, "tiles": s.tiles, "side": s.side,
                   "score": s.score, "remembered": s.remembered, "to_act": s.to_act,
                   "bot": s.bot, "left": s.left, "host_moves": s.host_moves,
                   "marks": [{"name": m.name, "count": m.count, "limit": m.limit,
                              "per": m.per,
                              "text": plain(mark_words(locale, table.variant, m, tr=tr))}
                             for m in s.marks]}
                  for s in table.seats],
        "points": keeps_points(table.variant),
        "sides": [{"label": labels_[i] if i < len(labels_) else str(i + 1),
                   "score": table.scores[i], "remembered": table.remembered[i],
                   "shown": format_score(table.scores[i], table.remembered[i])}
                  for i in range(len(table.scores))],
        "match_limit": table.match_limit,
        "to_act": table.to_act,
        "deadline_at": table.deadline_at,
        "turn_seconds": table.turn_seconds,
        "log": [plain(line) for line in action_log(table.notes, names, locale, tr=tr)],
        "summary": summary,
        "final": final,
    }


def _move(move: MoveOption, legal: Sequence[MoveOption]) -> dict[str, Any]:
    return {"placements": [{"tile": p.tile, "end": p.end, "closed": p.closed,
                            "along": p.along} for p in move.placements],
            "first": len(move.more) > 0 and first_matters(move, legal)}


def hand_state(hand: HandView) -> dict[str, Any]:
    """One seat's hand (RULES.md §1.8: for that seat only): ``seat``, ``tiles`` (codes
    ``"a-b"``), ``your_turn``, ``legal`` ``[{placements: [{tile, end, closed, along}],
    first}]`` (``first``: the order of the placements matters, its first one is the
    spinner, §2.0.2), ``drawn`` (what the seat drew since its last decision), ``knocked``,
    ``host_moved``, ``lead`` (the tile it must lead, §1.5) and ``version``."""
    return {"seat": hand.seat, "version": hand.version, "tiles": list(hand.tiles),
            "your_turn": hand.your_turn,
            "legal": [_move(m, hand.legal) for m in hand.legal],
            "drawn": list(hand.drawn), "knocked": hand.knocked, "host_moved": hand.host_moved,
            "lead": hand.lead}


def page_state(result: Result, user_id: int, locale: str, tr: Translator, *,
               now: float) -> dict[str, Any]:
    """Everything one page shows for ``user_id``: ``table`` (:func:`table_state`), ``hand``
    (:func:`hand_state` of the caller's own seat, None for a spectator — never another
    seat's), ``seat`` (the caller's, or None), ``locale``, ``labels`` and ``now`` (the
    server's Unix seconds, for the countdown). ``result.table`` must be set."""
    hand = result.hand_for(user_id)
    return {"version": result.table.version,
            "now": now,
            "locale": locale,
            "labels": labels(tr, locale),
            "seat": hand.seat if hand is not None else None,
            "table": table_state(result, locale, tr),
            "hand": hand_state(hand) if hand is not None else None}
