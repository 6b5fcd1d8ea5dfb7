"""Random legal matches, for statistics and for testing the engine: a development tool, not
part of the bot (its progress bar, ``tqdm``, is a development dependency).

    python tools/simulate.py --players N [--variant V] [--teams] --matches M [--seed S]
                             [--rules JSON] [--no-progress]

prints the totals as one JSON object (exit status 0; 2 for bad usage).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository's packages
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.events import Fish, MatchEnded, Misdeal, RoundScored  # noqa: E402
from engine.match import MatchState, apply, legal_moves, new_match  # noqa: E402
from engine.rules import VARIANTS, Rules  # noqa: E402

__all__ = ["SimulationTotals", "play_random_match", "simulate", "main"]

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


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status (0 ok, 2 bad usage)."""
    parser = argparse.ArgumentParser(prog="tools/simulate.py",
                                     description="play random legal matches and print totals "
                                                 "(RULES.md §1, §2)")
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    parser.add_argument("--variant", choices=tuple(VARIANTS),
                        help="the game of RULES.md §2 (default classic)")
    parser.add_argument("--teams", action="store_true",
                        help="team play (4 players, RULES.md §1.14)")
    parser.add_argument("--matches", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules",
                        help='rule options as JSON, e.g. \'{"fish_scoring": "each_own"}\'')
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.rules) if args.rules else {}
        if not isinstance(options, dict):
            raise ValueError("--rules must be a JSON object")
        if args.variant is not None:
            options["variant"] = args.variant
        if args.teams:
            options["teams"] = True
        rules = Rules.from_json(options)
        rules.check_players(args.players)
    except (ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    totals = simulate(rules, args.players, args.matches, args.seed,
                      progress=not args.no_progress)
    sides = rules.spec.sides_count(args.players, rules)
    print(json.dumps(totals.as_dict(sides), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
