"""Strength of the computer players (issue 6): goat rate, final score, decision time.

4 players, free-for-all, classic defaults (RULES.md §1), matches to 101.  Line-ups:

- ``normal`` against three ``easy`` (target: normal's goat rate at most 12%);
- ``hard`` against three ``normal`` (target: hard's goat rate at most 20%; a fair share is
  25%) — played at ``--hard-budget`` seconds per move (default 0.1, a tenth of the bot's)
  so that enough matches for a useful interval fit in a few minutes; a shorter budget only
  makes hard weaker, so the target met here is met at the full budget too;
- the same line-up at the budget of 1 s (``engine.ai.DEFAULT_BUDGET``) for
  ``--timing-matches`` matches: hard's decision time p50/p99 (target: p99 within the budget),
  its goat rate with a wider interval, and how many deals it sampled per decision.

``--hard-samples N`` bounds hard by N sampled deals per decision in both hard line-ups, as
the bot does (``BOT_HARD_SAMPLES``, ``service.bots.DEFAULT_HARD_SAMPLES``), so that its
strength does not depend on how busy the machine is.

Match ``i`` of a line-up is dealt from seed ``f"{seed}-{lineup}-{i}"`` and the strong player
sits in seat ``i % 4`` (the first lead of a match, RULES.md §1.5, depends on the seat, so the
seat rotates).  Every decision gets its own ``random.Random`` seeded from the match and the
move number, so a run is reproducible (the ``hard`` moves also depend on the clock through
the time budget).  Matches run in ``--jobs`` processes.

Goat rates carry 95% Wilson intervals; average final scores mean ± 1.96 standard errors.

    python bench/ai_bench.py [--matches-normal 1000] [--matches-hard 160]
                             [--hard-budget 0.1] [--timing-matches 20] [--hard-samples N]
                             [--jobs 2] [--seed 6]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Rules, ai, apply, new_match  # noqa: E402


class _Counting:
    """A clock for the hard strength that counts its readings: a decision at a time budget
    reads it once to start and twice per sampled deal, so it tells how many deals it
    sampled."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return time.perf_counter()


def play_match(strengths: tuple[str, ...], seed: str, budget: float,
               samples: int | None = None) -> dict:
    """One match; returns per-seat goat flags, final scores, decision times [s] and, for a
    hard seat deciding among several moves, the sampled deals per decision."""
    rules = Rules()
    state, events = new_match(rules, len(strengths), seed)
    history = list(events)
    times: list[list[float]] = [[] for _ in strengths]
    deals: list[list[int]] = [[] for _ in strengths]
    n = 0
    while not state.finished:
        seat = state.to_act
        obs = ai.observe(state, seat, history)
        rng = random.Random(f"{seed}:{n}")
        t0 = time.perf_counter()
        if strengths[seat] == "hard" and len(obs.legal) > 1:
            if samples is None:
                clock = _Counting()
                move = ai.decide_hard(obs, rng, budget=budget, clock=clock)
                deals[seat].append((clock.reads - 1) // 2)
            else:
                move = ai.decide(obs, "hard", rng, samples=samples)
                deals[seat].append(samples)
        else:
            move = ai.decide(obs, strengths[seat], rng, budget=budget)
        times[seat].append(time.perf_counter() - t0)
        state, evs = apply(state, seat, move)
        n += 1
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    return {
        "strengths": strengths,
        "goats": [s in state.result.goats for s in range(len(strengths))],
        "scores": list(state.scores),
        "times": times,
        "deals": deals,
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
               jobs: int, samples: int | None = None) -> dict[str, dict]:
    """Play a line-up; returns per strength: goats, matches (seat-matches), scores, times,
    sampled deals per decision."""
    tasks = []
    for i in range(matches):
        lineup = [weak] * 4
        lineup[i % 4] = strong
        tasks.append((tuple(lineup), f"{seed}-{name}-{i}", budget, samples))
    out: dict[str, dict] = {s: {"goats": 0, "n": 0, "scores": [], "times": [], "deals": []}
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
            o["deals"].extend(r["deals"][seat])
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
    deals = stats.get("hard", {}).get("deals")
    if deals and not samples:
        lines += ["", f"hard's sampled deals per decision among several moves: mean "
                      f"{statistics.fmean(deals):,.0f}, p50 {pct(deals, 0.5):,}, "
                      f"p90 {pct(deals, 0.9):,}, max {max(deals):,} ({len(deals)} decisions)"]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches-normal", type=int, default=1000)
    ap.add_argument("--matches-hard", type=int, default=160)
    ap.add_argument("--hard-budget", type=float, default=0.1,
                    help="seconds per hard move in the goat-rate line-up")
    ap.add_argument("--timing-matches", type=int, default=20,
                    help="matches of hard vs 3 normal at the default budget, for timing")
    ap.add_argument("--hard-samples", type=int, default=None,
                    help="bound hard by this many sampled deals instead of a time budget "
                         "(the bot's way, BOT_HARD_SAMPLES), in both hard line-ups")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args(argv)

    started = time.perf_counter()
    out: list[str] = []
    ok = True
    if args.matches_normal:
        st = run_lineup("ne", "normal", "easy", args.matches_normal, ai.DEFAULT_BUDGET,
                        args.seed, args.jobs)
        out += report("normal vs three easy", args.matches_normal, st, ai.DEFAULT_BUDGET)
        out.append("")
        ok &= wilson(st["normal"]["goats"], st["normal"]["n"])[0] <= 0.12
    if args.matches_hard:
        st = run_lineup("hn", "hard", "normal", args.matches_hard, args.hard_budget,
                        args.seed, args.jobs, args.hard_samples)
        out += report("hard vs three normal", args.matches_hard, st, args.hard_budget,
                      args.hard_samples)
        out.append("")
        ok &= wilson(st["hard"]["goats"], st["hard"]["n"])[0] <= 0.20
    if args.timing_matches:
        st = run_lineup("ht", "hard", "normal", args.timing_matches, ai.DEFAULT_BUDGET,
                        args.seed, args.jobs, args.hard_samples)
        out += report("hard vs three normal, timing", args.timing_matches,
                      st, ai.DEFAULT_BUDGET, args.hard_samples)
        out.append("")
        if args.hard_samples is None:
            ok &= pct(st["hard"]["times"], 0.99) <= ai.DEFAULT_BUDGET
    out.append(f"wall time {time.perf_counter() - started:.0f} s, jobs {args.jobs}, "
               f"seed {args.seed}; targets {'met' if ok else 'NOT met'}")
    print("\n".join(out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
