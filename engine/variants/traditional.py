"""Традиционное домино (``traditional``): the draw game as a race on the line, RULES.md §2.6.

What the section changes from classic Kozel (§1), hook by hook:

- rule 1, the deal (:meth:`Traditional.hand_size`): 7 tiles each for 2 players, 5 each for
  3–4; the rest is the bazar (14, 13, 8), drawn from by §1.8 with the reserve of §1.4;
- rule 2, the lead of every round (:meth:`Traditional.lead`): the holder of [6|6] must lead
  it; if no hand holds it, [5|5], …, [0|0]; with no double in any hand the highest
  non-double by §1.5's order;
- rule 3, the round end (:meth:`Traditional.score_round`): an out scores for the out side
  the sum of the other sides' hands (a partner's hand does not count); a fish (§2.0.5 (a)
  only: the variant does not read ``fish_without_double``) scores for the side with the
  strictly lowest hand the other sides' hands minus its own, a tie scores nothing; hands
  are plain pip sums, [0|0] is 0 (§2.0.7);
- the race (:meth:`Traditional.result`, §2.0.7): after a round's scoring, a side whose
  score has reached ``match_limit`` (default 100) wins; the match never ends mid-round
  because this variant scores only at round ends; the goat is the side with the fewest
  points (all tied sides); rating: goat 0, every other side max(1, round_half_up((score −
  goat's score) × 10 / match_limit)).

Options: ``match_limit`` 100, ``teams`` (4 players, seats 0+2 against 1+3, a team scoring
as one), ``bazar_reserve`` 0, and the timeouts of §1.17.

Where the rule book is silent (docs/VARIANTS.md, "traditional"):

- the match is interrupted by timeout (§1.17): the rating takes the race's form with the
  timed-out side in the goat's place: the timed-out side 0, every other side max(1,
  round_half_up((score − its score) × 10 / match_limit));
- ``winners`` are the sides whose score reached the limit (one side scores per round, so
  one side in a match from 0:0).

Replay: the keys of every variant; ``scores`` are the race scores, ``recorded`` the points of
the round, ``remembered`` and ``pot`` stay 0; at the top ``winners``.
"""

from __future__ import annotations

from typing import Any

from ..rules import CLASSIC_DEFAULTS
from ..table import holder_of_first
from ..tiles import PIPS
from ..variant import Race, lead_order, register

__all__ = ["Traditional"]

#: RULES.md §2.6 rule 2: [6|6], [5|5], …, [0|0], then [5|6], [4|6], [3|6], [4|5], …
SIX_DOUBLE_FIRST = lead_order((6, 5, 4, 3, 2, 1, 0))
#: What a held pip is worth to the computer players here, against a point of one's own
#: (:meth:`Traditional.held_costs`).
HALF = 0.5


@register
class Traditional(Race):
    """Традиционное домино (RULES.md §2.6): 2–4 players, teams optional, a race to
    ``match_limit`` (100) scored at round ends."""

    name = "traditional"
    section = "§2.6"
    options = {
        "match_limit": 100,
        "teams": False,
        "bazar_reserve": 0,
        "turn_timeout": CLASSIC_DEFAULTS["turn_timeout"],
        "afk_limit": CLASSIC_DEFAULTS["afk_limit"],
    }

    def hand_size(self, players: int) -> int:
        """RULES.md §2.6 rule 1: 7 tiles each for 2 players, 5 each for 3–4."""
        return 7 if players == 2 else 5

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """RULES.md §2.6 rule 2, every round: the holder of the first tile of
        :data:`SIX_DOUBLE_FIRST` held by a hand leads it."""
        seat, tid = holder_of_first(hands, SIX_DOUBLE_FIRST)
        return seat, tid, None

    def held_costs(self, rules: Any) -> tuple[float, ...]:
        """Half the pips of each tile (RULES.md §2.6 rule 3, §2.0.7).  A held tile costs no
        points of one's own here: its pips go to whoever goes out, and only decide a fish
        (the lowest hand scores).  What loses the race is not winning rounds, so tempo —
        keeping tiles that fit, making the others draw — weighs more than shedding; measured
        with ``bench/strength.py``, half the pips made ``normal`` a goat less often against
        three ``easy`` players than full pips (and than none)."""
        return tuple(HALF * PIPS[t] for t in range(28))
