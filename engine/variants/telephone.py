"""Телефон / Домики (``telephone``): the fives race on the cross (RULES.md §2.4).

Players 2–4; teams with 4 (a team scores as one, §1.14).  Cross layout, no closing; the
spinner («дом») is the first double placed.  Options: ``match_limit`` 225, ``multi_doubles``
true, ``teams`` false, ``bazar_reserve`` 0 (and the timeouts of §1.17).  A race (§2.0.7):
scores start at 0, no thresholds, no remembered points, no pot; plain pip sums.

- Moves: one tile, or — with ``multi_doubles`` — up to four doubles at once, one per open end
  that shows its number; while no spinner exists the first double listed becomes it, so such
  a move holds at most two (the two orders are two moves).
1. Lead: round 1 by the holder of [0|0]; if it is in the bazar [1|1], [2|2], …, [6|6], then
   §1.5's non-double order ([5|6], [4|6], …).  Later rounds: the player who went out leads
   any tile; after a fish, the fisher.
2. Play scoring: after each move, the lead's too, a count (§2.0.6; every double lies across)
   that is a positive multiple of 5 scores its face value for the mover's side; reaching
   ``match_limit`` ends the match at that move (``end`` ``"limit"``, ``by`` the mover).
3. Round end: an out scores for the out side the other sides' hands (not a partner's)
   rounded down to a multiple of 5 (18 → 15); a fish scores for the side with the strictly
   lowest hand the other sides' hands minus its own, rounded down to a multiple of 5; a tie
   scores nothing.
- Goat: the side(s) with the fewest points; race rating (§2.0.7).

Replay: per round ``play_points`` and ``end`` ``"limit"``, at the top ``winners``
(:class:`engine.variants._cross.FivesRace`).  Fish (b) of §2.0.5 does not apply: this
variant does not read ``fish_without_double``.

Where the rule book leaves a choice:

- "The sum of the other sides' hands minus its own" (a fish with three sides): the two other
  hands added, then the lowest hand subtracted once.
- A timeout (§1.16–§1.17): the timed-out side gets 0, every other side max(1, round_half_up(
  (score − S_t) × 10 / ``match_limit``)) — §2.0.7's race rating with the timed-out side in
  the goat's place; §1.16's Kozel formula would reward the sides behind.
"""

from __future__ import annotations

from typing import Any

from ..moves import Move, several
from ..rules import Option
from ..table import Table, holder_of_first
from ..variant import lead_order, register
from ._cross import FivesRace, two_doubles_fit

__all__ = ["Telephone", "TELEPHONE_LEAD_ORDER"]

#: RULES.md §2.4 rule 1: [0|0], [1|1], …, [6|6], then [5|6], [4|6], [3|6], [4|5], … (§1.5).
TELEPHONE_LEAD_ORDER = lead_order((0, 1, 2, 3, 4, 5, 6))


@register
class Telephone(FivesRace):
    """Телефон / Домики (RULES.md §2.4): several doubles at once, points on the count, the
    race to ``match_limit``."""

    name = "telephone"
    section = "§2.4"
    options = {
        "match_limit": 225,
        "multi_doubles": Option(True, bool),
        "teams": False,
        "bazar_reserve": 0,
        "turn_timeout": 60,
        "afk_limit": 2,
    }

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """RULES.md §2.4 rule 1: round 1 by :data:`TELEPHONE_LEAD_ORDER`; later the player
        who went out, or the fisher, leads any tile."""
        if round_no == 1:
            seat, tid = holder_of_first(hands, TELEPHONE_LEAD_ORDER)
            return seat, tid, None
        return state.round.last, -1, None

    def lead_rule(self, table: Table | None = None) -> str:
        """A refused round-1 lead breaks RULES.md §2.4 rule 1; a later one §1.6."""
        return "RULES.md §2.4" if table is None or table.lead_id >= 0 else "RULES.md §1.6"

    def cache_options(self, rules: Any) -> tuple:
        """``multi_doubles`` changes the legal moves."""
        return (rules.multi_doubles,)

    def extra_moves(self, t: Table) -> list[Move]:
        """With ``multi_doubles`` (RULES.md §2.4): 2–4 doubles at once, one per open end that
        shows its number, face up; without a spinner the first listed becomes it, each
        face-up double first once (:meth:`engine.layout.Layout.double_sets`)."""
        lay = t.layout
        if not t.rules.multi_doubles or not lay.line or not two_doubles_fit(t):
            return []
        return [several(p) for p in lay.double_sets(t.hands[t.to_act], least=2, most=4)]

    def why_not(self, t: Table, move: Move) -> str:
        """Why a move is refused (RULES.md §2.4)."""
        if len(move) > 1:
            if not t.rules.multi_doubles:
                return "one tile per move: multi_doubles is off (RULES.md §2.4)"
            return ("up to four doubles at once, one per open end that shows its number "
                    "(RULES.md §2.4)")
        if move[0].closed:
            return "no double is placed closed in this variant (RULES.md §2.4)"
        return super().why_not(t, move)

    def out_points(self, others: int) -> int:
        """RULES.md §2.4 rule 3: the other sides' hands rounded down to a multiple of 5."""
        return others // 5 * 5

    def fish_points(self, margin: int) -> int:
        """RULES.md §2.4 rule 3: the other sides' hands minus the lowest one's, rounded down
        to a multiple of 5."""
        return margin // 5 * 5
