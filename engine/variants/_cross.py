"""What the variants on the cross share (RULES.md §2.0.2–§2.0.7, §2.2–§2.5).

- :func:`doubles_at_once`: the moves of 2–4 doubles at once once a spinner exists (Осёл
  §2.2 rule 2, ЧЧВ §2.3).
- :class:`FivesRace`: the fives races Телефон (§2.4) and Маггинс (§2.5): points on the count
  after every move (§2.0.6), the race won mid-round (§2.0.7), plain pip sums, the round-end
  points of an out and of a fish, the goat and the race rating.

Not a variant itself (nothing here is registered).
"""

from __future__ import annotations

from typing import Any

from ..events import Scored
from ..moves import Move, several
from ..table import Table
from ..tiles import DOUBLE_MASK
from ..variant import Race

__all__ = ["two_doubles_fit", "doubles_at_once", "FivesRace"]


def two_doubles_fit(t: Table) -> bool:
    """Whether the hand of ``t.to_act`` holds at least two doubles that fit open ends: the
    cheap test before looking for moves of several doubles (RULES.md §2.0.4)."""
    d = t.hands[t.to_act] & t.layout.fit & DOUBLE_MASK
    return bool(d & (d - 1))


def doubles_at_once(t: Table, closing: bool) -> list[Move]:
    """Once a spinner exists, the moves of 2–4 doubles of the hand of ``t.to_act`` at once,
    each on a different open end that shows its number, each face up or — with ``closing`` —
    closed (RULES.md §2.2 rule 2, §2.3, §2.0.4); none before the spinner."""
    lay = t.layout
    if lay.spinner < 0 or not two_doubles_fit(t):
        return []
    return [several(p) for p in lay.double_sets(t.hands[t.to_act], least=2, most=4,
                                                closing=closing)]


class FivesRace(Race):
    """The fives races on the cross: Телефон (RULES.md §2.4) and Маггинс (§2.5).

    After every move — the lead too — a count (§2.0.6, :meth:`engine.layout.Layout.count`)
    that is a positive multiple of 5 scores its face value for the mover's side
    (:class:`engine.events.Scored`); ``table.count`` holds the count after the last move.  A
    race reaching ``match_limit`` mid-round ends the match at that move (``end`` ``"limit"``,
    §2.0.7, no round-end scoring).  At the round's end :meth:`out_points` and
    :meth:`fish_points` score; scores start at 0, with no thresholds, remembered points or
    pot.  Hand values are plain pip sums ([0|0] is 0).  The goat is the side with the
    fewest points (all tied sides).

    Replay adds per round ``play_points`` (per side, always present; the points on the count
    during the round) and at the top ``winners``; ``scores`` = the previous scores +
    ``play_points`` + ``recorded`` (the round-end points).
    """

    layout = "cross"
    one_tile = False

    # ------------------------------------------------------------------ play scoring

    def on_move(self, t: Table, seat: int, codes: Any) -> None:
        """RULES.md §2.4 rule 2, §2.5 rule 4: the count after the move; a positive multiple
        of 5 scores it for the mover's side; reaching the side's limit ends the race there
        (§2.0.7)."""
        c = t.layout.count()
        t.count = c
        if c and c % 5 == 0:
            side = t.sides[seat]
            t.points[side] += c
            if t.events is not None:
                t.events.append(Scored(seat, side, c, c))
            if t.limits and t.points[side] >= t.limits[side]:
                t.end = "limit"

    def limits(self, state: Any) -> tuple[int, ...]:
        """Per side, the points on the count that reach ``match_limit`` this round (RULES.md
        §2.0.7) [points]."""
        limit = state.rules.match_limit
        return tuple(limit - s for s in state.scores)

    # ------------------------------------------------------------------ round end
