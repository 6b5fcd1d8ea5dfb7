"""Генерал (``general``): teams lose rounds, not points; a finish on [0|0] or [6|6] makes a
«генерал», RULES.md §2.9.

What the section changes from classic Kozel (§1), rule by rule, and the hook that does it:

- players and teams (:attr:`General.players`, :attr:`General.fixed`): exactly 4 players,
  seats 0+2 against 1+3; ``teams`` is always on, as in §2.7 (``"teams": false`` in a record
  is accepted and the match is still played in teams); 7 tiles each, so no bazar; line
  layout; fish (a) only (``fish_without_double`` is not read);
1. the lead of every round (:meth:`General.lead`): the holder of [1|1] leads it;
2. fish is void (:meth:`General.blocked_end`): a blocked round is dealt again with the same
   lead rule, nothing counted (event ``void``; replay ``"end": "void"``);
3. the round end (:meth:`General.score_round`): the round ends when a player goes out; the
   loser is the next player in turn after the finisher (always an opponent), and the
   loser's team loses the round; if the finisher's last tile was [0|0] or [6|6] the loser
   is a «генерал»;
4. no points (:meth:`General.result`): hand values are not recorded; the match ends when a
   team has lost ``losses`` rounds (default 2), or at once when a team gets a general; that
   team is the goat; rating: the goat team 0, the other team 1, or 2 when the match ended
   with a general.

Options: ``losses`` 2, ``teams`` (always on) and the timeouts of §1.17.

Where the rule book is silent (docs/VARIANTS.md, "general"):

- the round that makes a general counts as a lost round too (the loser's team loses the
  round, rule 3), and the general ends the match whatever the count of lost rounds;
- ``hand_values`` in the replay are the teams' hands by §1.11, shown, never recorded;
  ``recorded`` and ``scores`` stay 0;
- a void round counts as a dealt round (``round_no``), like Морской козёл's void rounds in
  the engine; it reports the lost rounds unchanged;
- a match interrupted by timeout (§1.17) keeps §1.16's timeout rating: with every score 0,
  the timed-out team 0 and the other team 1.

Replay: per round ``losers`` (the losing team), ``losses`` (per team after the round),
``general: true`` when the loser is a general; at the top ``losses`` and ``title:
"general"`` when a general ended the match.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..rules import CLASSIC_DEFAULTS, Option
from ..table import Table
from ..tiles import TILE_ID, Tile
from ..variant import Flag, Mark, MatchResult, RoundEnd, Variant, register

__all__ = ["General", "GeneralMatch"]

_ONE_ONE = TILE_ID[Tile(1, 1)]
#: RULES.md §2.9 rule 3: a finish on one of these makes the loser a general.
GENERAL_TILES = (1 << TILE_ID[Tile(0, 0)]) | (1 << TILE_ID[Tile(6, 6)])


class GeneralMatch(NamedTuple):
    """What Генерал keeps between rounds (``MatchState.own``): ``losses``, the rounds each
    team has lost (RULES.md §2.9 rule 4)."""

    losses: tuple[int, ...] = (0, 0)


@register
class General(Variant):
    """Генерал (RULES.md §2.9): 4 players in two teams; the player after the one who goes
    out loses the round for the team; ``losses`` lost rounds, or one general, make the goat."""

    name = "general"
    section = "§2.9"
    teams = "always"
    players = (4, 4)
    options = {
        "teams": True,
        "losses": Option(2, (1, 20), choices=("1", "2", "3")),
        "turn_timeout": CLASSIC_DEFAULTS["turn_timeout"],
        "afk_limit": CLASSIC_DEFAULTS["afk_limit"],
    }
    fixed = {"teams": True}
    #: RULES.md §2.9 rule 4: lost rounds per team, ``losses`` of them make the goat.
    marks = (Mark("losses", per="side", limit="losses"),)
    #: A round lost to a general (rule 3): its summary says so, naming the team that lost.
    flags = (Flag("general", during=False, at_end=True, names_losers=True),)
    scoring = "marks"
    counts_hands = False

    def start(self, rules: Any, players: int) -> dict[str, Any]:
        """No lost rounds yet: ``losses`` 0 per team (RULES.md §2.9 rule 4)."""
        out = super().start(rules, players)
        out["own"] = GeneralMatch()
        return out

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """RULES.md §2.9 rule 1: in every round the holder of [1|1] leads it (with 7 tiles
        each some hand always holds it)."""
        for seat, h in enumerate(hands):
            if h >> _ONE_ONE & 1:
                return seat, _ONE_ONE, None
        raise ValueError("no hand holds [1|1] (RULES.md §2.9 rule 1)")

    def blocked_end(self, t: Table, cause: str) -> str:
        """RULES.md §2.9 rule 2: a blocked round is void and dealt again."""
        return "void"

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.9 rules 2–4: a void round counts nothing; after an out the seat after
        the finisher loses the round for its team (one more lost round), a general if the
        finisher's last tile was [0|0] or [6|6].  The round event's ``extra`` holds
        ``losses`` per team and ``general`` where it applies."""
        values = self.side_values(state, t)
        zeros = (0,) * len(values)
        losses = state.own.losses
        losers: tuple[int, ...] = ()
        extra: dict[str, Any] = {}
        if t.end == "out":
            team = t.sides[t.nxt[t.last]]
            losers = (team,)
            losses = tuple(n + (s == team) for s, n in enumerate(losses))
            if t.layout.last_mask & GENERAL_TILES:
                extra["general"] = True
        extra["losses"] = losses
        scored = self.scored_event(state, t, values, zeros, state.scores, state.remembered,
                                   0, state.pot, losers, extra)
        return RoundEnd(state.scores, state.remembered, state.pot, scored,
                        own=GeneralMatch(losses))

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """RULES.md §2.9 rule 4: the losing team is the goat when the round made a general
        (title ``"general"``, the other team rated 2) or when it has lost ``losses`` rounds
        (the other team rated 1); otherwise None."""
        scored = end.scored
        if not scored.losers:
            return None
        team = scored.losers[0]
        if scored.extra.get("general"):
            return MatchResult("limit", (team,), _rating(team, 2), None, title="general")
        if end.own.losses[team] >= state.rules.losses:
            return MatchResult("limit", (team,), _rating(team, 1), None)
        return None


    def held_costs(self, rules: Any) -> tuple[float, ...]:
        """Nothing: hand values are never recorded (RULES.md §2.9 rule 4); only who goes
        out first counts (rule 3)."""
        return (0.0,) * 28

    def standing(self, state: Any) -> list[float]:
        """Per team, rounds lost (RULES.md §2.9 rule 4)."""
        return [float(n) for n in state.own.losses]

    def standing_scale(self, rules: Any) -> float:
        """One lost round [rounds]."""
        return 0.8


def _rating(goat: int, points: int) -> tuple[int, int]:
    """RULES.md §2.9 rule 4: the goat team 0, the other team ``points``."""
    return tuple(0 if s == goat else points for s in range(2))
