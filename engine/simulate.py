"""Random legal matches, for statistics and for testing (``python -m engine simulate``)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .events import Fish, MatchEnded, Misdeal, RoundScored
from .match import MatchState, apply, legal_moves, new_match
from .rules import Rules

__all__ = ["SimulationTotals", "play_random_match", "simulate"]


@dataclass
class SimulationTotals:
    """Totals over simulated matches.

    ``goats[side]`` counts matches in which that seat (team, with ``rules.teams``) was a goat
    (RULES.md §1.15).
    """

    matches: int = 0
    rounds: int = 0
    fish: int = 0
    misdeals: int = 0
    decisions: int = 0
    goats: Counter = field(default_factory=Counter)

    def as_dict(self, sides: int) -> dict:
        """JSON-ready totals with the fish share and the average rounds per match."""
        return {
            "matches": self.matches,
            "rounds": self.rounds,
            "decisions": self.decisions,
            "fish": self.fish,
            "fish_share": round(self.fish / self.rounds, 4) if self.rounds else 0.0,
            "misdeals": self.misdeals,
            "avg_rounds_per_match": round(self.rounds / self.matches, 3) if self.matches else 0,
            "goats_per_side": [self.goats[s] for s in range(sides)],
        }


def play_random_match(rules: Rules, players: int, seed: object,
                      rng: random.Random) -> tuple[MatchState, list, list]:
    """Play a match choosing uniformly among the legal moves.

    Returns ``(final_state, decisions, events)``; ``decisions`` are the moves in order.
    """
    state, events = new_match(rules, players, seed)
    decisions = []
    while not state.finished:
        move = rng.choice(legal_moves(state))
        decisions.append(move)
        state, evs = apply(state, state.to_act, move)
        events.extend(evs)
    return state, decisions, events


def simulate(rules: Rules, players: int, matches: int, seed: int,
             progress: bool = False) -> SimulationTotals:
    """Play ``matches`` random matches; match ``i`` is dealt from seed ``f"{seed}-{i}"``.

    ``progress`` shows a progress bar on standard error.
    """
    rng = random.Random(seed)
    totals = SimulationTotals()
    it = range(matches)
    if progress:
        from tqdm import tqdm

        it = tqdm(it, desc="matches", unit="match", leave=False)
    for i in it:
        state, decisions, events = play_random_match(rules, players, f"{seed}-{i}", rng)
        totals.matches += 1
        totals.decisions += len(decisions)
        for ev in events:
            if isinstance(ev, RoundScored):
                totals.rounds += 1
            elif isinstance(ev, Fish):
                totals.fish += 1
            elif isinstance(ev, Misdeal):
                totals.misdeals += 1
            elif isinstance(ev, MatchEnded):
                totals.goats.update(ev.goats)
    return totals
