"""Random legal matches, for statistics and for testing (``python -m engine simulate``)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .events import Fish, MatchEnded, Misdeal, RoundScored
from .match import MatchState, apply, legal_moves, new_match
from .rules import Rules

__all__ = ["SimulationTotals", "play_random_match", "simulate"]

# Event kinds that mark a variant's special rule firing (RULES.md §2), counted by simulate.
_SPECIAL = ("scored", "again", "draw_two", "took", "passed", "void", "stick", "left_match",
            "special")


@dataclass
class SimulationTotals:
    """Totals over simulated matches.

    ``goats[side]`` counts matches in which that side (seat, or team with ``rules.teams``)
    was a goat (RULES.md §1.15, §2.0.7); ``ends`` counts rounds by how they ended (``out``,
    ``fish``, ``void``, ``limit``); ``special`` counts the variant's special events (points on
    the count, another turn, draw two, takes, passes, void rounds, sticks, players leaving;
    a ``special`` event under its rule's name) and the rounds' own marks (each word of
    ``RoundScored.extra`` as ``"key:word"``, e.g. the fast leads of RULES.md §2.1,
    ``"fast:6-6"``);
    ``titles`` the goats' titles (RULES.md §2.1, §2.9); ``multi`` moves of several tiles
    (§2.0.4); ``closed`` closed doubles (§2.0.3); ``along`` doubles laid along (§2.5 rule 3);
    ``draws`` matches without a goat.
    """

    matches: int = 0
    rounds: int = 0
    fish: int = 0
    misdeals: int = 0
    decisions: int = 0
    goats: Counter = field(default_factory=Counter)
    ends: Counter = field(default_factory=Counter)
    special: Counter = field(default_factory=Counter)
    titles: Counter = field(default_factory=Counter)
    multi: int = 0
    closed: int = 0
    along: int = 0
    draws: int = 0

    def as_dict(self, sides: int) -> dict:
        """JSON-ready totals with the fish share and the average rounds per match; the
        variant's counters appear only where something happened."""
        out = {
            "matches": self.matches,
            "rounds": self.rounds,
            "decisions": self.decisions,
            "fish": self.fish,
            "fish_share": round(self.fish / self.rounds, 4) if self.rounds else 0.0,
            "misdeals": self.misdeals,
            "avg_rounds_per_match": round(self.rounds / self.matches, 3) if self.matches else 0,
            "goats_per_side": [self.goats[s] for s in range(sides)],
        }
        extra = {
            "round_ends": dict(sorted(self.ends.items())),
            "special": dict(sorted(self.special.items())),
            "titles": dict(sorted(self.titles.items())),
            "multi_tile_moves": self.multi,
            "closed_doubles": self.closed,
            "along_doubles": self.along,
            "no_goat": self.draws,
        }
        out.update({k: v for k, v in extra.items()
                    if v and not (k == "round_ends" and set(v) <= {"out", "fish"})})
        return out


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
        totals.multi += sum(1 for m in decisions if len(m) > 1)
        for ev in events:
            kind = ev.kind
            if isinstance(ev, RoundScored):
                totals.rounds += 1
                totals.ends[ev.end] += 1
                if ev.extra:  # the round's own marks, e.g. a fast lead: "fast:6-6"
                    totals.special.update(f"{k}:{v}" for k, v in ev.extra.items()
                                          if isinstance(v, str))
            elif isinstance(ev, Fish):
                totals.fish += 1
            elif isinstance(ev, Misdeal):
                totals.misdeals += 1
            elif isinstance(ev, MatchEnded):
                totals.goats.update(ev.goats)
                if ev.title:
                    totals.titles[ev.title] += 1
                if not ev.goats:
                    totals.draws += 1
            elif kind in _SPECIAL:
                totals.special[ev.rule if kind == "special" else kind] += 1
            elif kind == "played":
                totals.closed += ev.closed
                totals.along += ev.along
    return totals
