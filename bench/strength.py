"""The whole strength table of the computer players, in every game, in one command.

    nice python -m bench.strength [--matches 200] [--matches-hard 200] [--hard-work 8000] [--jobs 2]
                                  [--timing-decisions 40] [--games classic,sea_goat] [--seed 23]
                                  [--think-seconds 1.0]

For every registered game (``engine.VARIANTS``), 4 seats, the game's defaults, line-ups of
one strong seat against three of another strength:

- ``normal`` against three ``easy``;
- ``hard`` against three ``normal``;
- ``bound`` against three ``normal``: the cheating player of :mod:`bench.bound` (sees every
  hand and the bazar order, same search as ``hard``), the upper bound;
- ``easy`` against three ``normal`` (where easy stands on the same scale);
- on request (``--lineups he,be``), ``hard`` and the bound against three ``easy``: how far
  below the fair share a seat can get at all at a table of random players (in a team game
  its partner is one of them), the reference for ``normal``'s line-up.

Match ``i`` of a line-up is dealt from seed ``f"{seed}-{game}-{lineup}-{i}"`` and the strong
player sits in seat ``i % 4`` (the first lead depends on the seat).  Every decision has its
own ``random.Random`` seeded from the match and the move number, and ``hard`` spends a fixed
amount of work (``--hard-work`` units, a fraction of the bot's default
:data:`engine.ai.DEFAULT_WORK` so that enough matches fit in the run; more work only makes
it stronger), so a run is reproducible and its strength does not depend on how busy the
machine is.  The search stops early once its best move is settled; ``--hard-samples N``
caps the sampled deals instead, with no early stop, as the bot decides (``--hard-work
240000 --hard-samples 1500`` is the bot's hard: without the cap, positions late in a round,
whose playouts cost little work, sample many more deals than the bot would).  Hard also has
the bot's time budget, ``--think-seconds`` of CPU (``time.process_time``, 1 s as
``BOT_THINK_SECONDS``; 0: none): whichever comes first stops it.  A run is reproducible as
long as time stops no decision of the line-ups; the report counts those that it did stop
(none at 8,000 work units, a few tens of milliseconds a decision).

Columns: the strong seat's goat rate (its side loses the match, RULES.md §1.15, §2) with a
95% Wilson interval; ``fair``: the goat rate of an average seat at those tables (total goats
over seat-matches: 25% in a game of four, 50% with teams, more where several sides can be
goats at once); ``×fair``: the strong seat's rate over it; ``gap closed``: for the line-ups
against three ``normal``, ``(fair − rate) / (fair − bound's rate)`` — 0 is ``normal``'s own
level (three normal and one normal are a fair table), 1 the bound.  Decision time: CPU
seconds (``time.process_time``) of the strong seat's decisions, p50/p99.

A separate timing block plays ``--timing-decisions`` ``hard`` decisions per game at the bot's
default budget (:data:`engine.ai.DEFAULT_WORK`, at most ``service.thinkers.DEFAULT_HARD_SAMPLES``
sampled deals, ``--think-seconds`` of CPU) on positions from matches of four ``normal``
players, and reports their CPU p50/p99 (target p99 ≤ 1 s) and how many the time budget
stopped before the work did.

Matches run in ``--jobs`` worker processes (``multiprocessing``) at ``nice`` 10 or more: the
machine is shared.  The defaults are sized to finish in about 15 minutes on 2 idle cores
(hard's line-up costs about a second of CPU per match at 8,000 work units, the others a
tenth of that).  On a busy machine ``--minutes M`` stops after M minutes and reports the
matches finished by then: the timing comes first, then every line-up advances in step (the
cheap ones three times as fast), so every line has its share.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ai_bench import wilson  # noqa: E402
from bench.bound import decide_bound  # noqa: E402
from engine import Rules, ai, apply, new_match  # noqa: E402
from engine.variant import VARIANTS  # noqa: E402

#: The line-ups: (name, strong, weak).
LINEUPS = (("ne", "normal", "easy"), ("hn", "hard", "normal"), ("bn", "bound", "normal"),
           ("en", "easy", "normal"), ("he", "hard", "easy"), ("be", "bound", "easy"))
#: The line-ups of the whole table (``--lineups`` names others too: ``he``/``be``, hard and
#: the bound against three easy, the references for normal's line-up).
TABLE_LINEUPS = ("ne", "hn", "bn", "en")
#: Sampled deals per ``hard`` decision at the bot's default budget (service.thinkers).
DEFAULT_HARD_SAMPLES = 1500


def _decide(state, seat, history, strength, rng, work, samples, seconds):
    """The move and whether the time budget stopped it."""
    if strength == "bound":
        return decide_bound(state, seat, history), False
    thought = ai.think(ai.observe(state, seat, history), strength, rng, work=work,
                       samples=samples, budget=seconds or None,
                       clock=time.process_time if seconds else None)
    return thought.move, thought.stop == "time"


def play_match(game: str, strengths: tuple[str, ...], seed: str, work: int,
               samples: int | None = None, seconds: float | None = None) -> dict:
    """One match of ``game``; returns per seat whether its side is a goat, the CPU seconds
    of every decision per seat, and per seat how many of its decisions the time budget
    stopped (``time_stops``).  ``hard`` spends ``work`` units a decision, with ``samples``
    at most that many sampled deals (the bot's way: no early stop,
    :func:`engine.ai.think_hard`), and with ``seconds`` at most that much CPU time
    (``time.process_time``), whichever comes first."""
    rules = Rules(variant=game)
    state, events = new_match(rules, len(strengths), seed)
    history = list(events)
    times: list[list[float]] = [[] for _ in strengths]
    stops = [0] * len(strengths)
    n = 0
    while not state.finished:
        seat = state.to_act
        rng = random.Random(f"{seed}:{n}")
        t0 = time.process_time()
        move, stopped = _decide(state, seat, history, strengths[seat], rng, work, samples,
                                seconds)
        times[seat].append(time.process_time() - t0)
        stops[seat] += stopped
        state, evs = apply(state, seat, move)
        n += 1
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    goats = [state.side_of(s) in state.result.goats for s in range(len(strengths))]
    return {"goats": goats, "times": times, "time_stops": stops}


def timing_positions(game: str, count: int, seed: int) -> list[tuple[str, int]]:
    """``count`` positions of ``game`` where the seat to act has a choice, from matches of
    four ``normal`` players: (match seed, decisions before it), every third such one."""
    out: list[tuple[str, int]] = []
    i = 0
    while len(out) < count and i < 50:
        ms = f"{seed}-{game}-timing-{i}"
        i += 1
        state, events = new_match(Rules(variant=game), 4, ms)
        history = list(events)
        k = n = 0
        while not state.finished and len(out) < count:
            seat = state.to_act
            obs = ai.observe(state, seat, history)
            if len(obs.legal) > 1:
                k += 1
                if k % 3 == 0:
                    out.append((ms, n))
            state, evs = apply(state, seat, ai.decide_normal(obs))
            n += 1
            for ev in evs:
                if ev.kind == "dealt":
                    history = []
                history.append(ev)
    return out


def time_hard(game: str, ms: str, steps: int, samples: int, seconds: float | None = None
              ) -> tuple[float, bool]:
    """CPU seconds of one ``hard`` decision as the bot makes it (at most ``samples`` deals,
    :data:`engine.ai.DEFAULT_WORK` and ``seconds`` of CPU), ``steps`` decisions into the
    four-``normal`` match ``ms``, and whether the time budget stopped it."""
    state, events = new_match(Rules(variant=game), 4, ms)
    history = list(events)
    for _ in range(steps):
        obs = ai.observe(state, state.to_act, history)
        state, evs = apply(state, state.to_act, ai.decide_normal(obs))
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    obs = ai.observe(state, state.to_act, history)
    t0 = time.process_time()
    thought = ai.think_hard(obs, random.Random(ms), samples=samples, budget=seconds or None,
                            clock=time.process_time if seconds else None)
    return time.process_time() - t0, thought.stop == "time"


def _init() -> None:
    try:
        os.nice(max(0, 10 - os.nice(0)))  # at least nice 10: the machine is shared
    except OSError:  # pragma: no cover - not permitted
        pass


def _job(args: tuple):
    kind = args[0]
    if kind == "match":
        return args, play_match(*args[1:])
    return args, time_hard(*args[1:])


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1), nearest rank."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=200, help="matches per line-up and game")
    ap.add_argument("--matches-easy", type=int, default=100,
                    help="matches of the easy-vs-normal line-up")
    ap.add_argument("--matches-hard", default="120,classic=200,sea_goat=200",
                    help="matches of the hard-vs-normal line-up: N for every game and/or "
                         "GAME=N for one, comma-separated (a game not named plays --matches)")
    ap.add_argument("--hard-work", type=int, default=8000,
                    help="work units per hard decision in the line-ups (engine.ai.decide_hard)")
    ap.add_argument("--hard-samples", type=int, default=None,
                    help="at most this many sampled deals per hard decision in the line-ups "
                    f"and no early stop, as the bot decides (it gives {DEFAULT_HARD_SAMPLES}); "
                    "without it the search stops early once its best move is settled")
    ap.add_argument("--think-seconds", type=float, default=ai.DEFAULT_BUDGET,
                    help="CPU seconds a hard decision may take, in the line-ups and the timing "
                    "(the bot's BOT_THINK_SECONDS); 0: no time budget")
    ap.add_argument("--timing-decisions", type=int, default=20,
                    help="hard decisions per game timed at the default budget")
    ap.add_argument("--timing-samples", type=int, default=DEFAULT_HARD_SAMPLES)
    ap.add_argument("--games", default=",".join(sorted(VARIANTS)))
    ap.add_argument("--lineups", default=",".join(TABLE_LINEUPS),
                    help="comma-separated: ne, hn, bn, en (the table) and he, be (hard and "
                    "the bound against three easy)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=0,
                    help="stop after this many minutes and report the matches finished")
    ap.add_argument("--seed", type=int, default=23)
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    wanted = set(args.lineups.split(","))
    lineups = [x for x in LINEUPS if x[0] in wanted]
    started = time.perf_counter()
    tasks = []
    hard_counts: dict[str, int] = {}
    for item in (args.matches_hard or "").split(","):
        if "=" in item:
            g, n = item.split("=")
            hard_counts[g] = int(n)
        elif item:
            hard_counts.update({g: int(item) for g in games if g not in hard_counts})
    for name, strong, weak in lineups:
        for g in games:
            count = args.matches
            if name == "en" and args.matches_easy is not None:
                count = args.matches_easy
            elif name == "hn":
                count = hard_counts.get(g, args.matches)
            for i in range(count):
                lineup = [weak] * 4
                lineup[i % 4] = strong
                tasks.append(("match", g, tuple(lineup), f"{args.seed}-{g}-{name}-{i}",
                              args.hard_work, args.hard_samples, args.think_seconds))
    for g in games:
        for ms, n in timing_positions(g, args.timing_decisions, args.seed):
            tasks.append(("time", g, ms, n, args.timing_samples, args.think_seconds))
    # the slow line-ups first, so that the pool does not end on one long match
    # Timing first; then every line-up advances in step, the cheap ones (no hard seat) three
    # times as fast, so that a run cut short by --minutes still has every line.
    def rank(a: tuple) -> float:
        if a[0] == "time":
            return -1.0
        i = int(a[3].rsplit("-", 1)[1])
        return (i + 1) / len(a[2]) if "hard" in a[2] else (i + 1) / (3 * len(a[2]))

    tasks.sort(key=rank)
    stats: dict[tuple[str, str], dict] = {}
    timing: dict[str, list[float]] = {g: [] for g in games}
    timing_stops: dict[str, int] = dict.fromkeys(games, 0)
    cut = False
    with ProcessPoolExecutor(args.jobs, initializer=_init) as pool:
        futs = [pool.submit(_job, t) for t in tasks]
        try:
            done = as_completed(futs, timeout=args.minutes * 60 if args.minutes else None)
            for f in done:
                a, r = f.result()
                if a[0] == "time":
                    timing[a[1]].append(r[0])
                    timing_stops[a[1]] += r[1]
                    continue
                _, g, lineup, ms = a[:4]
                strong = next(s for s in lineup if lineup.count(s) == 1)
                name = next(x[0] for x in lineups if x[1] == strong and x[2] in lineup)
                o = stats.setdefault((g, name), {"k": 0, "n": 0, "all": 0, "seats": 0,
                                                "times": [], "stops": 0})
                seat = lineup.index(strong)
                o["n"] += 1
                o["k"] += int(r["goats"][seat])
                o["all"] += sum(r["goats"])
                o["seats"] += len(lineup)
                o["times"].extend(r["times"][seat])
                o["stops"] += r["time_stops"][seat]
        except TimeoutError:
            cut = True
            for f in futs:
                f.cancel()
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()  # the workers of this pool only
    print(render(games, lineups, stats, timing, args, timing_stops))
    if cut:
        print(f"\n(cut short after {args.minutes:g} minutes: the matches finished by then)")
    cap = f" (≤ {args.hard_samples} deals)" if args.hard_samples else ""
    budget = f"{args.think_seconds:g} s of CPU" if args.think_seconds else "no time budget"
    hard = [o for (_, name), o in stats.items() if name in ("hn", "he")]
    print(f"\nwall time {time.perf_counter() - started:.0f} s, jobs {args.jobs}, "
          f"seed {args.seed}; hard at {args.hard_work} work units per decision in the "
          f"line-ups{cap}, timed at the default {ai.DEFAULT_WORK} "
          f"(≤ {args.timing_samples} deals); time budget {budget}: it stopped "
          f"{sum(o['stops'] for o in hard)} of {sum(len(o['times']) for o in hard)} hard "
          f"decisions in the line-ups, {sum(timing_stops.values())} of "
          f"{sum(len(t) for t in timing.values())} timed")
    return 0


def render(games, lineups, stats, timing, args, timing_stops=None) -> str:
    """The Markdown table of a run."""
    label = {"ne": "normal vs 3 easy", "hn": "hard vs 3 normal", "bn": "bound vs 3 normal",
             "en": "easy vs 3 normal", "he": "hard vs 3 easy", "be": "bound vs 3 easy"}
    lines = ["| game | line-up | matches | goat rate (95% CI) | fair | ×fair | gap closed "
             "| p50 ms | p99 ms |", "|---|---|---|---|---|---|---|---|---|"]
    for g in games:
        bound = stats.get((g, "bn"))
        for name, _, _ in lineups:
            o = stats.get((g, name))
            if not o:
                continue
            p, lo, hi = wilson(o["k"], o["n"])
            fair = o["all"] / o["seats"]
            gap = ""
            if name in ("hn", "bn", "en") and bound:
                bfair = bound["all"] / bound["seats"]
                bp = bound["k"] / bound["n"]
                if bfair - bp > 1e-9:
                    gap = f"{(fair - p) / (bfair - bp):.2f}"
            t = o["times"]
            lines.append(f"| {g} | {label[name]} | {o['n']} | {100 * p:.1f}% "
                         f"({100 * lo:.1f}–{100 * hi:.1f}) | {100 * fair:.1f}% "
                         f"| {p / fair if fair else 0:.2f} | {gap} | {1000 * pct(t, 0.5):.1f} "
                         f"| {1000 * pct(t, 0.99):.1f} |")
    lines += ["", "In short (goat rate over the fair share, × fair; gap: hard's share of the "
              "normal→bound gap; p99: hard at the default budget):", "",
              "| game | normal vs 3 easy | hard vs 3 normal | bound vs 3 normal | gap closed "
              "| hard p99 |", "|---|---|---|---|---|---|"]
    for g in games:
        cells = []
        for name in ("ne", "hn", "bn"):
            o = stats.get((g, name))
            if not o:
                cells.append("")
                continue
            p, lo, hi = wilson(o["k"], o["n"])
            fair = o["all"] / o["seats"] or 1.0
            cells.append(f"{p / fair:.2f} ({lo / fair:.2f}–{hi / fair:.2f})")
        hn, bn = stats.get((g, "hn")), stats.get((g, "bn"))
        gap = ""
        if hn and bn:
            bgap = bn["all"] / bn["seats"] - bn["k"] / bn["n"]
            if bgap > 1e-9:
                gap = f"{(hn['all'] / hn['seats'] - hn['k'] / hn['n']) / bgap:.2f}"
        t = timing.get(g) or []
        lines.append(f"| {g} | {' | '.join(cells)} | {gap} | "
                     f"{f'{1000 * pct(t, 0.99):.0f} ms' if t else ''} |")
    if any(timing.values()):
        budget = f", {args.think_seconds:g} s of CPU" if args.think_seconds else ""
        lines += ["", f"hard decision CPU time at the default budget "
                      f"({ai.DEFAULT_WORK} work units, at most {args.timing_samples} "
                      f"sampled deals{budget}, as the bot decides):", "",
                  "| game | decisions | p50 ms | p99 ms | max ms | time stops |",
                  "|---|---|---|---|---|---|"]
        for g in games:
            t = timing[g]
            if t:
                lines.append(f"| {g} | {len(t)} | {1000 * pct(t, 0.5):.0f} "
                             f"| {1000 * pct(t, 0.99):.0f} | {1000 * max(t):.0f} "
                             f"| {(timing_stops or {}).get(g, 0)} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
