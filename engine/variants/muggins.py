"""Маггинс / Muggins (``muggins``): the fives race with doubles across or along (RULES.md §2.5).

Players 2–4, teams with 4 allowed (§1.14).  A race (§2.0.7) to ``match_limit`` 200.
Options: ``match_limit``, ``teams`` false, ``bazar_reserve`` 0 (and the timeouts of §1.17).
Scores start at 0; no thresholds, remembered points or pot; plain pip sums.

1. Deal: 7 tiles each for 2 players, 5 each for 3–4 (bazar 14, 13, 8).
2. Lead: round 1 the first seat leads any tile; later rounds the player who went out, or
   after a fish the fisher, leads any tile.
3. Layout: cross, no closing, one tile per move; the first double placed is the spinner;
   every other double is placed across (its end counts both halves) or along (it counts
   once): a placement carries ``"along": true`` for along.
4. Play scoring: a count (§2.0.6) that is a positive multiple of 5 scores for the mover's
   side, the lead's too; reaching ``match_limit`` ends the match at that move (``end``
   ``"limit"``).
5. Round end: an out scores 10 for the out side; a fish scores for the side with the
   strictly lowest hand the other sides' hands minus its own, rounded to the nearest
   multiple of 5 (halves up); a tie scores nothing.
- Goat: the side(s) with the fewest points; race rating (§2.0.7).

Replay: per round ``play_points`` and ``end`` ``"limit"``, at the top ``winners``
(:class:`engine.variants._cross.FivesRace`).  Fish (b) of §2.0.5 does not apply.

Where the rule book leaves a choice:

- "The first double placed is the spinner": a double that would become the spinner is
  always across (it cannot be laid along to stay a plain tile); the lead double is the
  spinner.
- A fish with three sides, and a timeout: as in Телефон (``engine/variants/telephone.py``).
"""

from __future__ import annotations

from typing import Any

from ..variant import register
from ._cross import FivesRace

__all__ = ["Muggins"]

#: RULES.md §2.5 rule 5: the points of going out.
OUT_POINTS = 10


@register
class Muggins(FivesRace):
    """Маггинс (RULES.md §2.5): one tile per move, doubles across or along, points on the
    count, the race to ``match_limit``."""

    name = "muggins"
    section = "§2.5"
    along = True
    options = {
        "match_limit": 200,
        "teams": False,
        "bazar_reserve": 0,
        "turn_timeout": 60,
        "afk_limit": 2,
    }

    def hand_size(self, players: int) -> int:
        """RULES.md §2.5 rule 1: 7 tiles each for 2 players, 5 for 3–4."""
        return 7 if players == 2 else 5

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """RULES.md §2.5 rule 2: round 1 the first seat, later the player who went out or the
        fisher; any tile."""
        if round_no == 1:
            return 0, -1, None
        return state.round.last, -1, None

    def out_points(self, others: int) -> int:
        """RULES.md §2.5 rule 5: going out scores 10, whatever the other hands hold."""
        return OUT_POINTS

    def fish_points(self, margin: int) -> int:
        """RULES.md §2.5 rule 5: the margin rounded to the nearest multiple of 5, halves up."""
        return (2 * margin + 5) // 10 * 5
