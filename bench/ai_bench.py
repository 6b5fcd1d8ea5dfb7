"""Strength and speed of the computer players: goat rate, final score, decision time, and
the hard player's playouts per second against the engine of commit 98f9371.

``--hard-samples N`` bounds hard by N sampled deals per decision in both hard line-ups, as
the bot does (``BOT_HARD_SAMPLES``, ``service.thinkers.DEFAULT_HARD_SAMPLES``), so that its
strength does not depend on how busy the machine is.

4 players, free-for-all, the variant's defaults (``--variant``, classic by default: RULES.md
§1, matches to 101).  Line-ups:

- ``normal`` against three ``easy`` (target in classic: normal's goat rate at most 12%; in
  the other games: below the fair share, 25%, or 50% where the game is played in teams);
- ``hard`` against three ``normal`` (target in classic: hard's goat rate at most 20%; a fair
  share is 25%; in the other games: below the rate of the normal players at its table) —
  played at ``--hard-budget`` seconds per move (default 0.1, a tenth of the bot's)
  so that enough matches for a useful interval fit in a few minutes; a shorter budget only
  makes hard weaker, so the target met here is met at the full budget too;
- the same line-up at the default budget of 1 s (``engine.ai.DEFAULT_BUDGET``) for
  ``--timing-matches`` matches: hard's decision time p50/p99 at the budget the bot uses
  (target: p99 within the budget), and its goat rate with a wider interval.

In a variant the "goat" is the side that loses the match (its goats, RULES.md §2; a side with
a team partner loses with it).  Match ``i`` of a line-up is dealt from seed
``f"{seed}-{lineup}-{i}"`` and the strong player sits in seat ``i % 4`` (the first lead of a
match, RULES.md §1.5, depends on the seat, so the seat rotates).  Every decision gets its own
``random.Random`` seeded from the match and the move number, so a run is reproducible (the
``hard`` moves also depend on the clock through the time budget, wall time here:
``time.perf_counter``).  Matches run in ``--jobs``
processes.  Goat rates carry 95% Wilson intervals; average final scores mean ± 1.96 standard
errors.

Speed (classic only): ``--speed-positions`` positions where a player has a choice, taken
from four-``normal`` matches, are replayed in a fresh process for each engine — the one of
this tree and the one checked out at ``--old-engine`` (commit 98f9371, whose hard player ran
on its own playout kernel) — and the hard player decides each with ``--speed-samples``
sampled deals.  Sampled deals and playouts (one legal move played out in one deal) per
second of CPU time are printed side by side, the two engines measured in turn three
times (the best run of each counts).

Head to head (``--versus-old MATCHES``, classic, off by default): the old engine's package is
copied under the name ``oldengine`` so that both engines' players sit at one table; each
match runs in both engines move for move (the same deal from the same seed), each player
observing its own engine's state.  Lines: hard of either engine against the same three old
normal players, and normal of either engine against three of the other's normal players;
hard uses ``--versus-samples`` sampled deals and no clock, so the lines are reproducible.

    python bench/ai_bench.py [--variant classic] [--matches-normal 1000]
                             [--matches-hard 160] [--hard-budget 0.1] [--timing-matches 20]
                             [--speed-positions 300] [--speed-samples 20]
                             [--old-engine /tmp/oldeng] [--versus-old 0]
                             [--versus-samples 30] [--jobs 2] [--seed 6]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if "--speed-worker" not in sys.argv:  # a worker imports whichever engine PYTHONPATH names
    sys.path.insert(0, str(ROOT))

from engine import Move, Rules, Tile, ai, apply, new_match  # noqa: E402


def play_match(strengths: tuple[str, ...], seed: str, budget: float, rules_json: dict,
               samples: int | None = None) -> dict:
    """One match; returns per-seat loss flags (the seat's side is a goat), final scores of
    the seat's side and decision times [s]."""
    rules = Rules.from_json(rules_json)
    state, events = new_match(rules, len(strengths), seed)
    history = list(events)
    times: list[list[float]] = [[] for _ in strengths]
    n = 0
    while not state.finished:
        seat = state.to_act
        obs = ai.observe(state, seat, history)
        rng = random.Random(f"{seed}:{n}")
        t0 = time.perf_counter()
        move = ai.decide(obs, strengths[seat], rng, budget=budget, samples=samples,
                         clock=time.perf_counter)
        times[seat].append(time.perf_counter() - t0)
        state, evs = apply(state, seat, move)
        n += 1
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    sides = [state.side_of(s) for s in range(len(strengths))]
    return {
        "strengths": strengths,
        "goats": [sides[s] in state.result.goats for s in range(len(strengths))],
        "scores": [state.scores[sides[s]] for s in range(len(strengths))],
        "times": times,
    }


def _job(args: tuple) -> dict:
    return play_match(*args)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """Share ``k/n`` with its Wilson score interval (low, high)."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float]:
    """Mean and the half-width of its normal-approximation interval."""
    if not xs:
        return 0.0, 0.0
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, 0.0
    return m, z * statistics.stdev(xs) / math.sqrt(len(xs))


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1), nearest rank."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def run_lineup(name: str, strong: str, weak: str, matches: int, budget: float, seed: int,
               jobs: int, rules_json: dict, samples: int | None = None) -> dict[str, dict]:
    """Play a line-up; returns per strength: goats, matches (seat-matches), scores, times."""
    tasks = []
    for i in range(matches):
        lineup = [weak] * 4
        lineup[i % 4] = strong
        tasks.append((tuple(lineup), f"{seed}-{name}-{i}", budget, rules_json, samples))
    out: dict[str, dict] = {s: {"goats": 0, "n": 0, "scores": [], "times": []}
                            for s in (strong, weak)}
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_job, tasks, chunksize=1))
    else:
        results = [_job(t) for t in tasks]
    for r in results:
        for seat, s in enumerate(r["strengths"]):
            o = out[s]
            o["n"] += 1
            o["goats"] += int(r["goats"][seat])
            o["scores"].append(r["scores"][seat])
            o["times"].extend(r["times"][seat])
    return out


def report(title: str, matches: int, stats: dict[str, dict], budget: float,
           samples: int | None = None) -> list[str]:
    """Markdown table lines for one line-up."""
    bound = f"{samples} sampled deals" if samples else f"budget {budget:g} s"
    lines = [f"**{title}** — {matches} matches, hard {bound}",
             "",
             "| strength | seat-matches | goat rate (95% CI) | avg final score (95% CI) "
             "| decisions | p50 ms | p99 ms |",
             "|---|---|---|---|---|---|---|"]
    for s, o in stats.items():
        p, lo, hi = wilson(o["goats"], o["n"])
        m, h = mean_ci(o["scores"])
        t = o["times"]
        lines.append(
            f"| {s} | {o['n']} | {100 * p:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}) "
            f"| {m:.1f} ± {h:.1f} | {len(t)} | {1000 * pct(t, 0.5):.2f} "
            f"| {1000 * pct(t, 0.99):.2f} |")
    return lines


# ------------------------------------------------------------------ speed, old against new


def speed_positions(count: int, seed: int) -> list[dict]:
    """Positions where the seat to act has at least two legal moves, from matches of four
    ``normal`` players: every third such decision, as ``{"seed", "moves"}`` — the match's
    seed and the decisions that lead there (tile code, end), so that any engine can replay
    them."""
    out: list[dict] = []
    i = 0
    while len(out) < count:
        match_seed = f"{seed}-speed-{i}"
        i += 1
        state, events = new_match(Rules(), 4, match_seed)
        history = list(events)
        moves: list[list] = []
        k = 0
        while not state.finished and len(out) < count:
            seat = state.to_act
            obs = ai.observe(state, seat, history)
            if len(obs.legal) > 1:
                k += 1
                if k % 3 == 0:
                    out.append({"seed": match_seed, "moves": list(moves)})
            move = ai.decide_normal(obs)
            moves.append([move.tile.code(), move.end])
            state, evs = apply(state, seat, move)
            for ev in evs:
                if ev.kind == "dealt":
                    history = []
                history.append(ev)
    return out


def _replay(pos: dict):
    """The observation of the seat to act after the position's decisions."""
    state, events = new_match(Rules(), 4, pos["seed"])
    history = list(events)
    for code, end in pos["moves"]:
        state, evs = apply(state, state.to_act, Move(Tile.parse(code), end))
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    return ai.observe(state, state.to_act, history)


def speed_worker(path: str, samples: int) -> None:
    """Time the hard player of the importable engine on the positions in ``path``; print
    ``{"engine", "deals", "playouts", "cpu", "check"}`` as JSON (CPU seconds; ``check``
    digests the positions as replayed, which must agree between engines)."""
    positions = json.loads(Path(path).read_text())
    observations = [_replay(p) for p in positions]
    digest = hashlib.sha256()
    for obs in observations:
        digest.update(repr((obs.seat, obs.hand, sorted(Tile.of(a, b) for a, b in obs.chain),
                            sorted((m.tile, m.end or "") for m in obs.legal))).encode())
    deals = playouts = 0
    t0 = time.process_time()
    for k, obs in enumerate(observations):
        ai.decide_hard(obs, random.Random(k), samples=samples)
        deals += samples
        playouts += samples * len(obs.legal)
    cpu = time.process_time() - t0
    print(json.dumps({"engine": str(Path(ai.__file__).resolve().parents[1]),
                      "deals": deals, "playouts": playouts, "cpu": cpu,
                      "check": digest.hexdigest()}))


def measure_speed(count: int, samples: int, old: str | None, seed: int) -> list[str]:
    """Playouts per second of the hard player, this tree against ``old`` (if it exists),
    each engine in its own process, measured in turn three times (the best run counts)."""
    positions = speed_positions(count, seed)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(positions, f)
        path = f.name
    engines = [("this tree", str(ROOT))]
    if old and (Path(old) / "engine" / "ai.py").exists():
        engines.insert(0, ("98f9371", old))
    runs: dict[str, list[dict]] = {name: [] for name, _ in engines}
    try:
        for _ in range(3):
            for name, where in engines:
                env = dict(os.environ, PYTHONPATH=where)
                got = subprocess.run(
                    [sys.executable, __file__, "--speed-worker", path,
                     "--speed-samples", str(samples)],
                    env=env, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
                runs[name].append(json.loads(got.stdout.strip().splitlines()[-1]))
    finally:
        os.unlink(path)
    lines = [f"**hard player speed** — {len(positions)} positions, {samples} sampled deals "
             "each, CPU time, best of three runs per engine",
             "",
             "| engine | sampled deals/s | playouts/s | runs (playouts/s) |",
             "|---|---|---|---|"]
    checks = set()
    for name, _ in engines:
        rs = runs[name]
        checks.add(rs[0]["check"])
        best = max(rs, key=lambda r: r["playouts"] / r["cpu"])
        lines.append(f"| {name} ({rs[0]['engine']}) | {best['deals'] / best['cpu']:.0f} "
                     f"| {best['playouts'] / best['cpu']:.0f} | "
                     + ", ".join(f"{r['playouts'] / r['cpu']:.0f}" for r in rs) + " |")
    if len(engines) > 1:
        old_r = max(runs[engines[0][0]], key=lambda r: r["playouts"] / r["cpu"])
        new_r = max(runs[engines[1][0]], key=lambda r: r["playouts"] / r["cpu"])
        ratio = (new_r["playouts"] / new_r["cpu"]) / (old_r["playouts"] / old_r["cpu"])
        lines.append("")
        lines.append(f"this tree / 98f9371: {ratio:.2f}× playouts per second"
                     + ("" if len(checks) == 1 else " (POSITIONS DIFFER between engines)"))
    else:
        lines.append("")
        lines.append(f"(no engine at {old}: nothing to compare with)")
    return lines


# ------------------------------------------------------------------ head to head, old players


_OLD: Any = None  # the old engine, imported as the package ``oldengine`` in a worker


def _old_worker(path: str) -> None:
    """Pool initializer: make the copy of the old engine importable as ``oldengine``."""
    global _OLD
    sys.path.insert(0, path)
    import oldengine  # noqa: F401 - the copy made by versus_old
    from oldengine import ai as old_ai

    _OLD = (sys.modules["oldengine"], old_ai)


def versus_match(i: int, seed: int, strong: str, strong_impl: str, weak_impl: str,
                 samples: int) -> tuple[bool, int]:
    """Match ``i``: ``strong`` (of ``strong_impl``, "new" or "old") in seat ``i % 4`` against
    three ``normal`` players of ``weak_impl``.  The match runs in this tree's engine and, move
    for move, in the old one (the same deal from the same seed, RULES.md §1.2), so that each
    player observes its own engine's state.  ``hard`` uses ``samples`` sampled deals (no clock).
    Returns (the strong seat lost, its final score)."""
    old, old_ai = _OLD
    impl = [weak_impl] * 4
    strength = ["normal"] * 4
    impl[i % 4] = strong_impl
    strength[i % 4] = strong
    match_seed = f"{seed}-vs-{i}"
    ns, evs = new_match(Rules(), 4, match_seed)
    nh = list(evs)
    os_, evs = old.new_match(old.Rules(), 4, match_seed)
    oh = list(evs)
    n = 0
    while not ns.finished:
        seat = ns.to_act
        rng = random.Random(f"{match_seed}:{n}")
        if impl[seat] == "new":
            m = ai.decide(ai.observe(ns, seat, nh), strength[seat], rng, samples=samples)
        else:
            m = old_ai.decide(old_ai.observe(os_, seat, oh), strength[seat], rng,
                              samples=samples)
        tile, end = (m.tile.a, m.tile.b), m.end
        ns, evs = apply(ns, seat, Move(Tile.of(*tile), end))
        nh = _round_events(nh, evs)
        os_, evs = old.apply(os_, seat, old.Move(old.Tile.of(*tile), end))
        oh = _round_events(oh, evs)
        n += 1
    if os_.scores != ns.scores:  # pragma: no cover - the engines disagree on a rule
        raise RuntimeError(f"match {i}: the engines scored it differently")
    return (i % 4) in ns.result.goats, ns.scores[i % 4]


def _round_events(history: list, events: list) -> list:
    """The events of the current round: ``history`` and then ``events``, from the last
    ``dealt`` on."""
    out = list(history)
    for ev in events:
        if ev.kind == "dealt":
            out = []
        out.append(ev)
    return out


def _versus_job(args: tuple) -> tuple[bool, int]:
    return versus_match(*args)


def versus_old(matches: int, samples: int, old: str, seed: int, jobs: int) -> list[str]:
    """Head to head with the players of the engine at ``old``: hard of either engine against
    the same three old normal players (and the same deals), then normal of either engine
    against three of the other's normal players."""
    if not (Path(old) / "engine" / "ai.py").exists():
        return [f"(no engine at {old}: no head-to-head)"]
    lines = [f"**head to head with 98f9371** — {matches} matches per line, hard with "
             f"{samples} sampled deals (no clock)", "",
             "| strong player | against three normal of | strong's goat rate (95% CI) "
             "| strong's avg final score (95% CI) |", "|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(Path(old) / "engine", Path(tmp) / "oldengine",
                        ignore=shutil.ignore_patterns("__pycache__"))
        with ProcessPoolExecutor(max(1, jobs), initializer=_old_worker,
                                 initargs=(tmp,)) as pool:
            for strong, si, wi in (("hard", "new", "old"), ("hard", "old", "old"),
                                   ("normal", "new", "old"), ("normal", "old", "new")):
                tasks = [(i, seed, strong, si, wi, samples) for i in range(matches)]
                got = list(pool.map(_versus_job, tasks, chunksize=4))
                p, lo, hi = wilson(sum(g for g, _ in got), len(got))
                m, h = mean_ci([float(x) for _, x in got])
                name = {"new": "this tree", "old": "98f9371"}
                lines.append(f"| {strong} of {name[si]} | {name[wi]} | {100 * p:.1f}% "
                             f"({100 * lo:.1f}–{100 * hi:.1f}) | {m:.1f} ± {h:.1f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic",
                    help="a registered variant (engine.VARIANTS); speed is measured in classic")
    ap.add_argument("--matches-normal", type=int, default=1000)
    ap.add_argument("--matches-hard", type=int, default=160)
    ap.add_argument("--hard-budget", type=float, default=0.1,
                    help="seconds per hard move in the goat-rate line-up")
    ap.add_argument("--timing-matches", type=int, default=20,
                    help="matches of hard vs 3 normal at the default budget, for timing")
    ap.add_argument("--hard-samples", type=int, default=None,
                    help="bound hard by this many sampled deals instead of a time budget "
                         "(the bot's way, BOT_HARD_SAMPLES), in both hard line-ups")
    ap.add_argument("--speed-positions", type=int, default=300)
    ap.add_argument("--speed-samples", type=int, default=20)
    ap.add_argument("--old-engine", default="/tmp/oldeng",
                    help="a checkout of commit 98f9371 to compare the hard player's speed with")
    ap.add_argument("--versus-old", type=int, default=0, metavar="MATCHES",
                    help="head-to-head line-ups with the players of --old-engine (classic)")
    ap.add_argument("--versus-samples", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--speed-worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.speed_worker:
        speed_worker(args.speed_worker, args.speed_samples)
        return 0
    rules = Rules(variant=args.variant)
    rules_json = rules.to_json()
    # a side's fair share of losing: one side in two with teams, else one in four
    fair = 0.5 if rules.teams else 0.25
    classic = args.variant == "classic"

    started = time.perf_counter()
    out: list[str] = [f"variant {args.variant}", ""]
    ok = True
    if args.matches_normal:
        st = run_lineup("ne", "normal", "easy", args.matches_normal, ai.DEFAULT_BUDGET,
                        args.seed, args.jobs, rules_json)
        out += report("normal vs three easy", args.matches_normal, st, ai.DEFAULT_BUDGET)
        out.append("")
        rate = st["normal"]["goats"] / max(1, st["normal"]["n"])
        ok &= (wilson(st["normal"]["goats"], st["normal"]["n"])[0] <= 0.12 if classic
               else rate < fair)
    if args.matches_hard:
        st = run_lineup("hn", "hard", "normal", args.matches_hard, args.hard_budget,
                        args.seed, args.jobs, rules_json, args.hard_samples)
        out += report("hard vs three normal", args.matches_hard, st, args.hard_budget,
                      args.hard_samples)
        out.append("")
        hard = st["hard"]["goats"] / max(1, st["hard"]["n"])
        ok &= (wilson(st["hard"]["goats"], st["hard"]["n"])[0] <= 0.20 if classic
               else hard < st["normal"]["goats"] / max(1, st["normal"]["n"]))
    if args.timing_matches:
        st = run_lineup("ht", "hard", "normal", args.timing_matches, ai.DEFAULT_BUDGET,
                        args.seed, args.jobs, rules_json, args.hard_samples)
        out += report("hard vs three normal, timing", args.timing_matches,
                      st, ai.DEFAULT_BUDGET, args.hard_samples)
        out.append("")
        if args.hard_samples is None:
            ok &= pct(st["hard"]["times"], 0.99) <= ai.DEFAULT_BUDGET
    if args.speed_positions and args.variant == "classic":
        out += measure_speed(args.speed_positions, args.speed_samples, args.old_engine,
                             args.seed)
        out.append("")
    if args.versus_old and args.variant == "classic":
        out += versus_old(args.versus_old, args.versus_samples, args.old_engine, args.seed,
                          args.jobs)
        out.append("")
    out.append(f"wall time {time.perf_counter() - started:.0f} s, jobs {args.jobs}, "
               f"seed {args.seed}; targets {'met' if ok else 'NOT met'}")
    print("\n".join(out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
