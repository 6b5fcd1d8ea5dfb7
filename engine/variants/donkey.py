"""Осёл / Закрывашки (``donkey``): Kozel on the cross with closed doubles (RULES.md §2.2).

Players 2–4, teams with 4 allowed (§1.14).  Cross layout with closing (§2.0.2–§2.0.3).
Options: those of §1, with ``fish_scoring`` defaulting to ``each_own`` (``match_limit`` 101,
``open_threshold`` 13, ``fish_without_double`` true, ``bazar_reserve`` 0,
``lone_zero_double_value`` 10; ``teams``; the timeouts of §1.17).  Goat word: «осёл».

1. Lead: §1.5 for the doubles ([1|1], [2|2], …, [6|6], [0|0]); when no hand holds a double,
   the holder of the lowest tile leads it ([0|1], [0|2], [0|3], [1|2], [0|4], …: by pip
   sum, then by the lower half).  Later rounds §1.6.
2. Moves: one tile (a double face up or closed; the lead and the spinner never closed), or,
   once a spinner exists, 2–4 doubles at once on different open ends, each face up or
   closed.
3. Double closure: while no double is on the table, two doubles at once, both closed, one on
   each end: both ends close, the round is blocked and ends as a fish with the mover as the
   fisher — an out if they were the mover's last two tiles.  Before a spinner exists this is
   the only move of several doubles; no move of several doubles creates the spinner.
4. Scoring §1.11–§1.16 unchanged; the goat at ``match_limit`` is «осёл».

Where the rule book leaves a choice:

- "While no double is on the table": on the cross a face-up double is the spinner and a
  closed double closes its end for the rest of the round, so this holds exactly while the
  table shows no spinner and no closed end.
- A double closure emits a ``special`` event with rule ``"double_closure"`` (before the
  ``fish`` or ``went_out`` it causes); the replay output is classic's (§1), the closed ends
  are visible in the round's layout.
"""

from __future__ import annotations

from typing import Any

from ..events import Special
from ..moves import LEFT, RIGHT, Move, several
from ..rules import CLASSIC_DEFAULTS
from ..table import Table, holder_of_first
from ..tiles import DOUBLE_MASK
from ..variant import Variant, lead_order, register
from ._cross import doubles_at_once, two_doubles_fit

__all__ = ["Donkey", "DONKEY_LEAD_ORDER"]

#: RULES.md §2.2 rule 1: [1|1], [2|2], …, [6|6], [0|0], then the lowest non-double first:
#: [0|1], [0|2], [0|3], [1|2], [0|4], [1|3], …
DONKEY_LEAD_ORDER = lead_order((1, 2, 3, 4, 5, 6, 0), highest_first=False)


@register
class Donkey(Variant):
    """Осёл / Закрывашки (RULES.md §2.2): the cross with closing, several doubles once a
    spinner exists, the double closure before it; classic scoring with ``each_own`` fish."""

    name = "donkey"
    section = "§2.2"
    layout = "cross"
    closing = True
    one_tile = False
    options = dict(CLASSIC_DEFAULTS, fish_scoring="each_own")
    goat_word = "donkey"

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """RULES.md §2.2 rule 1: round 1 by :data:`DONKEY_LEAD_ORDER`; later rounds §1.6 (the
        player who went out, or the fisher, leads any tile)."""
        if round_no == 1:
            seat, tid = holder_of_first(hands, DONKEY_LEAD_ORDER)
            return seat, tid, None
        return state.round.last, -1, None

    def lead_rule(self, table: Table | None = None) -> str:
        """A refused round-1 lead breaks RULES.md §2.2 rule 1; a later one §1.6."""
        return "RULES.md §2.2" if table is None or table.lead_id >= 0 else "RULES.md §1.6"

    def extra_moves(self, t: Table) -> list[Move]:
        """RULES.md §2.2 rules 2–3: once a spinner exists, 2–4 doubles at once, each face up
        or closed; while no double is on the table, the double closure (two doubles, both
        closed, on the left and the right end)."""
        lay = t.layout
        if not lay.line:
            return []
        if lay.spinner >= 0:
            return doubles_at_once(t, closing=True)
        if lay.mask & DOUBLE_MASK or not two_doubles_fit(t):
            return []
        return [several(p) for p in lay.double_sets(
            t.hands[t.to_act], least=2, most=2, closing=True, ends=(LEFT, RIGHT))
            if p[0][2] and p[1][2]]

    def on_move(self, t: Table, seat: int, codes: Any) -> None:
        """Marks a double closure (RULES.md §2.2 rule 3) with a ``special`` event: before a
        spinner exists it is the only move of several tiles."""
        if len(codes) > 1 and t.layout.spinner < 0 and t.events is not None:
            t.events.append(Special(seat, "double_closure"))

    def why_not(self, t: Table, move: Move) -> str:
        """Why a move of doubles is refused (RULES.md §2.2 rules 2–3)."""
        if len(move) > 1:
            if any(not p.tile.is_double for p in move):
                return "only doubles go several at once (RULES.md §2.2 rule 2)"
            if t.layout.spinner < 0:
                return ("before a spinner exists, two doubles go at once only both closed, "
                        "one on each end, while no double is on the table (RULES.md §2.2 "
                        "rule 3)")
            return ("2–4 doubles at once, each on a different open end that shows its "
                    "number (RULES.md §2.2 rule 2)")
        return super().why_not(t, move)
