"""Engine throughput against the PyPI package ``dominoes``, side by side in one run.

Workload (both engines): 4 players, 7 tiles each, no bazar; deal, then a uniformly random
legal move (``random.choice`` over the offered moves) until the round ends.  Ours goes through
the public round API (``engine.round``: deal, ``round_moves``, ``round_apply`` with its checks
and events) and, for reference, through the match API (``engine.legal_moves``/``engine.apply``,
which also scores every round and deals the next).  Also: 2 players with the bazar.

The engines run in alternating slices so that machine noise hits both alike.

    python bench/engine_bench.py [--seconds 6]
"""

from __future__ import annotations

import argparse
import random
import time

from engine import Rules, apply, legal_moves, new_match
from engine.round import (
    RoundState,
    deal_hands,
    round_apply,
    round_moves,
    shuffled_deal,
    start_round,
)


def ours_round(players: int, rng: random.Random, k: int) -> int:
    hands, bazar = deal_hands(players, shuffled_deal(players, k, 1, 0))
    rs = start_round(players, hands, bazar, 0, None)
    n = 0
    choice = rng.choice
    while rs.to_act >= 0:
        m = choice(round_moves(rs))
        rs, _ = round_apply(rs, rs.to_act, m.tile, m.end)
        n += 1
    return n


def ours_match(players: int, rng: random.Random, k: int) -> int:
    state, _ = new_match(Rules(), players, k)
    n = 0
    while state.round_no == 1 and not state.finished:
        state, _ = apply(state, state.to_act, rng.choice(legal_moves(state)))
        n += 1
    return n


def theirs(rng: random.Random, k: int) -> int:
    import dominoes

    game = dominoes.Game.new()
    n = 0
    while game.result is None:
        game.make_move(*rng.choice(game.valid_moves))
        n += 1
    return n


def run(fn, seconds: float) -> tuple[int, int, float]:
    """Call ``fn(k)`` for about ``seconds``; return (rounds, moves, elapsed seconds)."""
    rounds = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            moves += fn(rounds)
            rounds += 1
    return rounds, moves, time.perf_counter() - start


def breakdown(rng: random.Random, dominoes_round_us: float, ours_round_us: float) -> None:
    """Where one round of the round API spends its time, and the ceiling of the ratio: the
    cost of building the next immutable state alone (a copy of a RoundState, no rule work)
    is what every move would still cost if the rules were free."""
    positions = []
    for k in range(300):
        hands, bazar = deal_hands(4, shuffled_deal(4, k, 1, 0))
        rs = start_round(4, hands, bazar, 0, None)
        while rs.to_act >= 0:
            m = rng.choice(round_moves(rs))
            positions.append((rs, m))
            rs, _ = round_apply(rs, rs.to_act, m.tile, m.end)
    per_round = len(positions) / 300
    new = tuple.__new__

    def per_move(fn) -> float:
        best = float("inf")
        for _ in range(7):
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
        return best / len(positions) * 1e6

    def applies():
        for rs, m in positions:
            round_apply(rs, rs.to_act, m.tile, m.end)

    def copies():
        for rs, _m in positions:
            new(RoundState, (*rs,))

    def moves():
        for rs, _m in positions:
            round_moves(rs)

    def deals():
        for k in range(len(positions)):
            hands, bazar = deal_hands(4, shuffled_deal(4, k, 1, 0))
            start_round(4, hands, bazar, 0, None)

    a, c, mv, d = per_move(applies), per_move(copies), per_move(moves), per_move(deals)
    ceiling = dominoes_round_us / (ours_round_us - per_round * (a - c))
    print("Where a round of the round API goes (4 players; µs, best of 7):")
    print(f"  deal {d:.1f} + {per_round:.1f} moves x (round_apply {a:.2f} + round_moves "
          f"{mv:.2f} + the benchmark's choice and loop)")
    print(f"  building the next state alone (a RoundState copy): {c:.2f} µs per move")
    print(f"  ceiling with rules that cost nothing beyond that copy: {ceiling:.2f}x dominoes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=6.0, help="time per engine (split in 6)")
    args = ap.parse_args()
    random.seed(1)  # dominoes shuffles with the global generator
    rng = random.Random(2)
    contenders = {
        "ours (round API)": lambda k: ours_round(4, rng, k),
        "ours (match API)": lambda k: ours_match(4, rng, k),
        "dominoes 6.1.0": lambda k: theirs(rng, k),
    }
    totals = {name: [0, 0, 0.0] for name in contenders}
    slices = 6
    for _ in range(slices):
        for name, fn in contenders.items():
            r, m, t = run(fn, args.seconds / slices)
            totals[name][0] += r
            totals[name][1] += m
            totals[name][2] += t
    print("4 players, 7 tiles each, no bazar, random legal moves to the end of the round")
    rate = {}
    for name, (r, m, t) in totals.items():
        rate[name] = r / t
        print(f"  {name:18s} {r / t:10.0f} rounds/s  {m / t:10.0f} moves/s  "
              f"({m / r:.1f} moves/round)")
    base = rate["dominoes 6.1.0"]
    print(f"  ratio round API / dominoes: {rate['ours (round API)'] / base:.2f}x")
    print(f"  ratio match API / dominoes: {rate['ours (match API)'] / base:.2f}x")
    breakdown(rng, 1e6 / base, 1e6 / rate["ours (round API)"])
    r, m, t = run(lambda k: ours_round(2, rng, k), args.seconds / 2)
    print("2 players with the bazar (14 tiles), round API")
    print(f"  ours               {r / t:10.0f} rounds/s  {m / t:10.0f} moves/s  "
          f"({m / r:.1f} moves/round)")


if __name__ == "__main__":
    main()
