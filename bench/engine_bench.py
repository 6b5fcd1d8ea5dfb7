"""Engine throughput against the PyPI package ``dominoes``, side by side in one run.

Workload (both engines): 4 players, 7 tiles each, no bazar; deal, then a uniformly random
legal move (``random.choice`` over the offered moves) until the round ends.  Ours goes through
the round core (``engine.table.Table``: deal, ``moves()``, ``play()`` — the same core the
service, game records and the computer players' playouts use) and, for reference, through
the immutable match API (``engine.legal_moves``/``engine.apply``, which also checks every
move, scores every round and deals the next).  The engines run in alternating slices so that
machine noise hits both alike.

Also printed: where a round of the core spends its time; the cross layout's move generation
per move next to classic's (RULES.md §2.0.2–§2.0.4), so that the variants can be compared
with classic; and every registered variant's random rounds per second on the core
(Колбаса with its 2 players; Мексиканский поезд with 4 and with 8).

``--old-engine DIR`` (a checkout of an older commit) instead measures this tree's engine
and that one side by side in one process: the old package is copied under the name
``oldengine``, and every row — the round core, the match API, 2 players with the bazar and
each variant that both engines have — plays the same rounds (the same deals and the same
random choices) on both engines in alternating slices of ``--slice`` rounds, so that the
machine's noise hits both alike; CPU time per engine, rounds per second and the ratio
new/old are printed.

    python bench/engine_bench.py [--seconds 6]
                                 [--old-engine DIR [--slices 20] [--slice 40] [--rows W,…]]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Rules, Table, apply, legal_moves, new_match  # noqa: E402
from engine.layout import Layout  # noqa: E402
from engine.table import holder_of_first, shuffled_deal  # noqa: E402
from engine.variant import LEAD_ORDER, VARIANTS  # noqa: E402

CLASSIC = Rules()
_BIT = tuple(1 << i for i in range(28))


def deal_hands(players: int, order: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Seven tiles to each seat as hand masks, the rest the bazar (RULES.md §1.2)."""
    bit = _BIT
    hands = []
    for s in range(0, players * 7, 7):
        a0, a1, a2, a3, a4, a5, a6 = order[s:s + 7]
        hands.append(bit[a0] | bit[a1] | bit[a2] | bit[a3] | bit[a4] | bit[a5] | bit[a6])
    return tuple(hands), tuple(order[players * 7:])


def first_lead(hands: tuple[int, ...]) -> tuple[int, int]:
    """``(seat, tile id)`` of a match's first lead (RULES.md §1.5)."""
    return holder_of_first(hands, LEAD_ORDER)


def ours_core(players: int, rng: random.Random, k: int) -> int:
    hands, bazar = deal_hands(players, shuffled_deal(players, k, 1, 0))
    seat, lead = first_lead(hands)
    t = Table(CLASSIC, players, hands, bazar, 0, seat, lead_id=lead)
    n = 0
    choice = rng.choice
    while t.to_act >= 0:
        t.play(choice(t.moves()))
        n += 1
    return n


def ours_match(players: int, rng: random.Random, k: int) -> int:
    state, _ = new_match(CLASSIC, players, k)
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


def best_per(fn, count: int, repeat: int = 7) -> float:
    """Best of ``repeat`` runs of ``fn()``, per item of ``count`` [µs]."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best / count * 1e6


def breakdown(rng: random.Random) -> None:
    """Where a round of the core goes: the deal, ``moves()`` and ``play()`` per move."""
    positions = []
    for k in range(300):
        hands, bazar = deal_hands(4, shuffled_deal(4, k, 1, 0))
        seat, lead = first_lead(hands)
        t = Table(CLASSIC, 4, hands, bazar, 0, seat, lead_id=lead)
        while t.to_act >= 0:
            m = rng.choice(t.moves())
            positions.append((t.copy(), m))
            t.play(m)
    n = len(positions)

    def plays():
        for t, m in [(t.copy(), m) for t, m in positions]:
            t.play(m)

    def copies():
        for _ in [(t.copy(), m) for t, m in positions]:
            pass

    def moves():
        for t, _m in positions:
            t.moves()

    def deals():
        for k in range(n):
            hands, bazar = deal_hands(4, shuffled_deal(4, k, 1, 0))
            seat, lead = first_lead(hands)
            Table(CLASSIC, 4, hands, bazar, 0, seat, lead_id=lead)

    play_us = best_per(plays, n) - best_per(copies, n)
    print("Where a round of the core goes (4 players, classic; µs, best of 7):")
    print(f"  deal and a new table {best_per(deals, n):.1f} per round + "
          f"{n / 300:.1f} moves x (play {play_us:.2f} + moves {best_per(moves, n):.2f} + the "
          "benchmark's choice and loop)")
    return positions


def cross_generation(rng: random.Random, classic_positions) -> None:
    """Move generation per move on a cross (closing allowed, several doubles at once, as in
    RULES.md §2.2 rule 2) next to classic's line, on positions of random rounds [µs]."""
    positions = []
    for k in range(300):
        order = shuffled_deal(4, f"cross-{k}", 1, 0)
        hands = [0] * 4
        for i, tid in enumerate(order):
            hands[i % 4] |= 1 << tid
        lay = Layout(cross=True)
        seat = 0
        for _ in range(28):
            hand = hands[seat]
            options = lay.placements(hand, closing=True)
            if options:
                positions.append((lay.copy(), hand))
                tid, e, closed, along = rng.choice(options)
                lay.lay(((tid, e, closed, along, False),))
                hands[seat] ^= 1 << tid
                if not hands[seat] or lay.blocked():
                    break
            seat = (seat + 1) % 4

    def generate():
        for lay, hand in positions:
            lay.placements(hand, closing=True)
            if lay.spinner >= 0:
                lay.double_sets(hand, least=2, most=4, closing=True)

    def classic():
        for t, _m in classic_positions:
            t.v.generate(t)

    print("Move generation per move, without the round core's caches (µs, best of 7):")
    print(f"  classic line {best_per(classic, len(classic_positions)):.2f}   "
          f"cross with closing and several doubles "
          f"{best_per(generate, len(positions)):.2f}")


def variants(rng: random.Random, seconds: float) -> None:
    """Random rounds per second of every registered variant on the round core."""
    print("Every variant on the round core: random legal moves to the end of a round")
    for name, v in sorted(VARIANTS.items()):
        rules = Rules(variant=name)
        hi = v.players_range(rules)[1]
        for players in sorted({min(4, hi), hi} if hi > 4 else {hi}):
            rounds = moves = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                state, _ = new_match(rules, players, f"{name}-{rounds}")
                t = Table.from_state(state.round)
                while t.to_act >= 0:
                    t.play(rng.choice(t.moves()))
                    moves += 1
                rounds += 1
            elapsed = time.perf_counter() - start
            print(f"  {name:13s} {players} players {rounds / elapsed:9.0f} rounds/s "
                  f"{moves / elapsed:9.0f} moves/s")


# ------------------------------------------------------------------ side by side, old and new


def _workloads(eng: Any) -> dict[str, Any]:
    """The rows of the side-by-side comparison on the engine package ``eng``: name → one
    round of it, ``fn(k)`` returning the moves played; round ``k`` is dealt and played with
    the same random choices (``random.Random(k)``) on either engine."""
    from importlib import import_module

    table = import_module(eng.__name__ + ".table")
    variant = import_module(eng.__name__ + ".variant")
    classic = eng.Rules()

    def core(players: int):
        def fn(k: int) -> int:
            rng = random.Random(k)
            order = table.shuffled_deal(players, k, 1, 0)
            hands = []
            for s in range(0, players * 7, 7):
                m = 0
                for i in order[s:s + 7]:
                    m |= 1 << i
                hands.append(m)
            seat, lead = table.holder_of_first(hands, variant.LEAD_ORDER)
            t = eng.Table(classic, players, hands, tuple(order[players * 7:]), 0, seat,
                          lead_id=lead)
            n = 0
            while t.to_act >= 0:
                t.play(rng.choice(t.moves()))
                n += 1
            return n
        return fn

    def api(k: int) -> int:
        rng = random.Random(k)
        state, _ = eng.new_match(classic, 4, k)
        n = 0
        while state.round_no == 1 and not state.finished:
            state, _ = eng.apply(state, state.to_act, rng.choice(eng.legal_moves(state)))
            n += 1
        return n

    def game(name: str, players: int):
        rules = eng.Rules(variant=name)

        def fn(k: int) -> int:
            rng = random.Random(k)
            state, _ = eng.new_match(rules, players, f"{name}-{k}")
            t = eng.Table.from_state(state.round)
            n = 0
            while t.to_act >= 0:
                t.play(rng.choice(t.moves()))
                n += 1
            return n
        return fn

    out = {"round core, 4 players": core(4), "match API, 4 players": api,
           "round core, 2 players with the bazar": core(2)}
    for name in sorted(eng.VARIANTS):
        players = min(4, eng.VARIANTS[name].players[1])
        out[f"{name}, {players} players"] = game(name, players)
    return out


def side_by_side(old_dir: str, slices: int, per_slice: int, only: str | None = None) -> None:
    """Every row on both engines in alternating slices (see the module doc).  The garbage
    collector runs between slices, never inside one (as ``timeit`` does), so that a
    collection that the other engine's allocations started is not charged to a slice."""
    import gc
    import shutil
    import tempfile

    tmp = tempfile.mkdtemp(prefix="oldengine-")
    shutil.copytree(Path(old_dir) / "engine", Path(tmp) / "oldengine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    sys.path.insert(0, tmp)
    import oldengine

    import engine

    old_rows = _workloads(oldengine)
    new_rows = {k: v for k, v in _workloads(engine).items() if k in old_rows
                and (not only or any(w in k for w in only.split(",")))}
    for rows in (old_rows, new_rows):  # warm both engines' caches alike before measuring
        for fn in rows.values():
            for k in range(per_slice):
                fn(k)
    print(f"Side by side with {old_dir}: {slices} slices of {per_slice} rounds per engine "
          "and row, alternating; CPU time")
    print(f"  {'row':40s} {'old rounds/s':>13s} {'new rounds/s':>13s} {'new/old':>8s}")
    for name, fn_new in new_rows.items():
        fn_old = old_rows[name]
        cpu = {"old": 0.0, "new": 0.0}
        rounds = 0
        for s in range(slices):
            ks = range(s * per_slice, (s + 1) * per_slice)
            order = (("old", fn_old), ("new", fn_new)) if s % 2 == 0 else \
                (("new", fn_new), ("old", fn_old))
            for who, fn in order:
                gc.collect()
                gc.disable()
                t0 = time.process_time()
                for k in ks:
                    fn(k)
                cpu[who] += time.process_time() - t0
                gc.enable()
            rounds += per_slice
        o, n = rounds / cpu["old"], rounds / cpu["new"]
        print(f"  {name:40s} {o:13.0f} {n:13.0f} {n / o:8.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=6.0, help="time per engine (split in 6)")
    ap.add_argument("--old-engine", metavar="DIR",
                    help="compare with the engine of an older checkout, side by side")
    ap.add_argument("--slices", type=int, default=20)
    ap.add_argument("--slice", type=int, default=40, help="rounds per slice")
    ap.add_argument("--rows", help="with --old-engine: only the rows whose names contain one "
                                   "of these comma-separated words")
    args = ap.parse_args()
    if args.old_engine:
        side_by_side(args.old_engine, args.slices, args.slice, args.rows)
        return
    random.seed(1)  # dominoes shuffles with the global generator
    rng = random.Random(2)
    contenders = {
        "ours (round core)": lambda k: ours_core(4, rng, k),
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
    print(f"  ratio round core / dominoes: {rate['ours (round core)'] / base:.2f}x")
    print(f"  ratio match API / dominoes:  {rate['ours (match API)'] / base:.2f}x")
    positions = breakdown(rng)
    cross_generation(rng, positions)
    r, m, t = run(lambda k: ours_core(2, rng, k), args.seconds / 2)
    print("2 players with the bazar (14 tiles), round core")
    print(f"  ours               {r / t:10.0f} rounds/s  {m / t:10.0f} moves/s  "
          f"({m / r:.1f} moves/round)")
    variants(rng, args.seconds / 6)


if __name__ == "__main__":
    main()
