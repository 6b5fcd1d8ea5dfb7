"""Чечевэ / ЧЧВ (``chcv``), «человек человеку волк» (RULES.md §2.3).

Players 2–4, no teams.  Cross layout with closing (§2.0.2–§2.0.3), several doubles as in
§2.2 rule 2 (the spinner, «база», never closed); no double closure.  Options:
``match_limit`` 101, ``open_threshold`` 13, ``fish_without_double`` true, ``bazar_reserve`` 0,
``lone_zero_double_value`` 10 (and the timeouts of §1.17).  ``fish_scoring`` is not read:
every round is scored ``all_to_max`` (rule 3).

1. Deal: 7 tiles each for 2–3 players, 6 each for 4 (bazar 14, 7, 4).
2. Lead: §1.5; later rounds §1.6 (any tile).
3. Round points: every round, out or fish, as §1.13 ``all_to_max``: the player with the
   strictly highest hand value gets the sum of all hand values, then §1.12 (the others
   record nothing and their remembered points are reset); a tie goes to the pot.
4. Specials, after rule 3 and in this order, all of them: out with [0|0] among the tiles of
   the last move → every other player is a goat and the match ends (``"out_0-0"``); out with
   [6|6] → every other player records 50 (``"out_6-6"``); a player still holding [0|0] at
   the round's end is a goat and the match ends after this round's recording
   (``"held_0-0"``); a player still holding [6|6] records 50 more (``"held_6-6"``).  Each 50
   is a §1.12 step of its own after rule 3's recording.
5. Match end: §1.15 (an open score at ``match_limit`` or more) plus rule 4's goats; rating
   §1.16.

Replay adds per round ``specials``, present when one fired: ``[{"rule": "out_6-6", "seat":
2}, …]`` in rule 4's order (the same as the ``special`` events).  ``recorded`` includes the
50s.

Where the rule book leaves a choice:

- A player who went out holds no tile, so "the player with the strictly highest hand value"
  is among the others; the out player's remembered points are reset, as for everyone who is
  not that player (§1.13 ``all_to_max``; §1.12 says the same of an out).
- "Makes every other player record 50": each of them records it, whether their score is open
  or not (§1.12 decides where it goes: with ``open_threshold`` 13 it opens every score).
"""

from __future__ import annotations

from typing import Any

from ..events import Special
from ..moves import Move
from ..scoring import goats_of, rating, record_points, record_round
from ..table import Table
from ..tiles import TILE_ID, TILES, Tile
from ..variant import MatchResult, RoundEnd, Variant, register
from ._cross import doubles_at_once

__all__ = ["Chcv", "FIFTY"]

#: The points of a finishing or held [6|6] (RULES.md §2.3 rule 4).
FIFTY = 50
#: How many points the computer players weigh holding [0|0] at a round's end as (it makes
#: the holder a goat, RULES.md §2.3 rule 4): more than the 50 of a held [6|6].
HELD_ZERO = 80.0
_ZERO_BIT = 1 << TILE_ID[Tile(0, 0)]
_SIX_BIT = 1 << TILE_ID[Tile(6, 6)]


@register
class Chcv(Variant):
    """Чечевэ / ЧЧВ (RULES.md §2.3): the cross with closing and several doubles; every round
    to the strictly highest hand; the finishing and held [0|0] and [6|6]."""

    name = "chcv"
    section = "§2.3"
    layout = "cross"
    closing = True
    teams = "never"
    one_tile = False
    options = {
        "match_limit": 101,
        "open_threshold": 13,
        "fish_without_double": True,
        "bazar_reserve": 0,
        "lone_zero_double_value": 10,
        "turn_timeout": 60,
        "afk_limit": 2,
    }

    def held_costs(self, rules: Any) -> tuple[float, ...]:
        """Pips, and for the two specials of RULES.md §2.3 rule 4 what holding them at the
        round's end costs: [6|6] 50 more; [0|0] makes its holder a goat at once, weighed as
        :data:`HELD_ZERO` points."""
        costs = [float(t.pips) for t in TILES]
        costs[TILE_ID[Tile(6, 6)]] += FIFTY
        costs[TILE_ID[Tile(0, 0)]] = HELD_ZERO
        return tuple(costs)

    def hand_size(self, players: int) -> int:
        """RULES.md §2.3 rule 1: 7 tiles each for 2–3 players, 6 for 4."""
        return 7 if players < 4 else 6

    def extra_moves(self, t: Table) -> list[Move]:
        """RULES.md §2.3 (as §2.2 rule 2): once a spinner exists, 2–4 doubles at once, each
        face up or closed; no double closure before it."""
        return doubles_at_once(t, closing=True)

    def why_not(self, t: Table, move: Move) -> str:
        """Why a move of several tiles is refused (RULES.md §2.3)."""
        if len(move) > 1:
            if t.layout.spinner < 0:
                return "several doubles go at once only once a spinner exists (RULES.md §2.3)"
            return ("2–4 doubles at once, each on a different open end that shows its "
                    "number (RULES.md §2.3, §2.2 rule 2)")
        return super().why_not(t, move)

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.3 rules 3–4: the round as §1.13 ``all_to_max`` (pot included), then the
        specials of [0|0] and [6|6], each 50 a §1.12 step of its own."""
        rules = state.rules
        values = tuple(self.side_values(state, t))
        # Rule 3 scores an out like a fish under all_to_max; Rules holds fish_scoring at its
        # §1 default, all_to_max, for a variant that does not read it.
        rec = record_round(rules, state.scores, state.remembered, state.pot, values, "fish",
                           t.last)
        scores, remembered = list(rec.scores), list(rec.remembered)
        recorded = list(rec.recorded)
        specials: list[tuple[str, int]] = []

        def fifty(seat: int) -> None:
            record_points(rules, scores, remembered, seat, FIFTY)
            recorded[seat] += FIFTY

        if t.end == "out":
            out = t.last
            last = t.layout.last_mask
            if last & _ZERO_BIT:
                specials.append(("out_0-0", out))
            if last & _SIX_BIT:
                specials.append(("out_6-6", out))
                for seat in range(state.players):
                    if seat != out:
                        fifty(seat)
        for seat, hand in enumerate(t.hands):
            if hand & _ZERO_BIT:
                specials.append(("held_0-0", seat))
        for seat, hand in enumerate(t.hands):
            if hand & _SIX_BIT:
                specials.append(("held_6-6", seat))
                fifty(seat)
        extra = {"specials": tuple({"rule": r, "seat": s} for r, s in specials)} \
            if specials else None
        scored = self.scored_event(state, t, rec.hand_values, recorded, scores, remembered,
                                   rec.pot_won, rec.pot, extra=extra)
        return RoundEnd(tuple(scores), tuple(remembered), rec.pot, scored,
                        events=tuple(Special(s, r) for r, s in specials))

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """RULES.md §2.3 rule 5: goats are the players at ``match_limit`` or more (§1.15),
        every player but the one who went out with [0|0], and a player left holding [0|0];
        rating §1.16."""
        goats = set(goats_of(state.rules, end.scores))
        for ev in end.events:
            if ev.rule == "out_0-0":
                goats.update(s for s in range(state.players) if s != ev.seat)
            elif ev.rule == "held_0-0":
                goats.add(ev.seat)
        if not goats:
            return None
        ordered = tuple(sorted(goats))
        return MatchResult("limit", ordered, rating(state.rules, end.scores, ordered), None)
