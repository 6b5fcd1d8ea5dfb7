"""Спортивное домино (``sport``): Kozel in teams over a fixed number of deals, RULES.md §2.7.

What the section changes from classic Kozel (§1), hook by hook:

- players and teams (:attr:`Sport.players`, :attr:`Sport.fixed`): exactly 4 players, seats
  0+2 against 1+3 (§1.14); ``teams`` is always on — a record may write ``"teams": true``
  or leave it out, and ``"teams": false`` (which §2 lets any record carry) is accepted and
  the match is still played in teams;
- every round is scored by §1.11–§1.14 with §1's options (``fish_scoring``,
  ``open_threshold``, ``lone_zero_double_value``, ``fish_without_double``,
  ``bazar_reserve``): the base class's scoring, unchanged;
- no goat limit: ``match_limit`` is not read; option ``deals`` (4, 8, 12 or 16; default 8)
  fixes the number of rounds, fish rounds counting (:meth:`Sport.result`);
- leads rotate (:meth:`Sport.lead`): round 1 per §1.5 (the holder of [1|1] leads it, …);
  round k+1 is led by the seat after round k's leader, with any tile;
- after the last deal the team with the higher open score is the goat (remembered points
  and the pot do not count); equal open scores: a draw, no goat, each team rated 1;
  otherwise the goat team 0 and the other team max(1, round_half_up((goat score − own
  score) / 10)).

Where the rule book is silent (docs/VARIANTS.md, "sport"):

- "every player rated 1" on a draw: ratings are per side, so each team gets 1 (each of its
  players is rated 1);
- a timeout (§1.17) keeps §1.16's timeout rating, which is this section's formula with the
  timed-out team in the goat's place.

Replay: the keys of every variant, and per round ``deal``: the round's number k of
``deals``.
"""

from __future__ import annotations

from typing import Any

from ..rules import CLASSIC_DEFAULTS, Option
from ..scoring import round_half_up_div10
from ..table import Table, holder_of_first
from ..variant import LEAD_ORDER, MatchResult, RoundEnd, Variant, register

__all__ = ["Sport"]


@register
class Sport(Variant):
    """Спортивное домино (RULES.md §2.7): 4 players in two teams, ``deals`` rounds of Kozel
    scoring; the team with the higher open score after the last deal is the goat."""

    name = "sport"
    section = "§2.7"
    teams = "always"
    players = (4, 4)
    options = {**{k: v for k, v in CLASSIC_DEFAULTS.items() if k != "match_limit"},
               "teams": True,
               # RULES.md §2.7: the number of rounds
               "deals": Option(8, (4, 8, 12, 16), choices=("4", "8", "12", "16"))}
    fixed = {"teams": True}

    def fixed_rounds(self, rules: Any) -> int | None:
        """RULES.md §2.7: ``deals`` rounds."""
        return rules.deals

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """RULES.md §2.7: round 1 per §1.5 (a forced tile); round k+1 by the seat after
        round k's leader, any tile."""
        if round_no == 1:
            seat, tid = holder_of_first(hands, LEAD_ORDER)
            return seat, tid, None
        return (state.round.leader + 1) % state.players, -1, None

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.7: §1.11–§1.14 unchanged (the base class); the round event carries
        ``extra = {"deal": k}``."""
        end = super().score_round(state, t)
        return end._replace(scored=end.scored._replace(extra={"deal": state.round_no}))

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """RULES.md §2.7: after deal ``deals`` the team with the higher open score is the
        goat (rated 0; the other team max(1, round_half_up((goat − own) / 10))); equal open
        scores: a draw, both teams rated 1.  None before the last deal."""
        if state.round_no < state.rules.deals:
            return None
        a, b = end.scores
        if a == b:
            return MatchResult("limit", (), (1, 1), None, draw=True)
        goat = 0 if a > b else 1
        high = end.scores[goat]
        rating = tuple(0 if s == goat else max(1, round_half_up_div10(high - v))
                       for s, v in enumerate(end.scores))
        return MatchResult("limit", (goat,), rating, None)
