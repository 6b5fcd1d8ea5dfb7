"""Table picture benchmark: time to render one picture and its PNG size (issue 14).

    .venv/bin/python bench/picture_bench.py              # about 10 seconds on 2 cores
    .venv/bin/python bench/picture_bench.py --compare    # also each zlib level

Cases (``ui.picture_examples``): a short chain (5 tiles, two players), a chain of 27 tiles
(two players), the same chain led near one end (its lead moved to make room), a full cross
(Телефон, four players in teams, arms turning) and a round's closing picture (four players,
hands revealed). Each is rendered ``--rounds`` times with warm sprite caches and the tiles
laid anew, as the bot renders one state after another; a picture is the whole of
:func:`ui.picture.render_table_png` (draw + PNG encoding). Also printed: the first picture
of a fresh process (every sprite drawn), a :class:`delivery.pictures.PictureCache` hit, and the
targets: p99 ≤ 10 ms and ≤ 100 KB per picture.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ui import picture, picture_layout  # noqa: E402
from ui import picture_examples as ex  # noqa: E402
from ui.i18n import get_translator  # noqa: E402

TARGET_MS = 10.0
TARGET_BYTES = picture.MAX_PNG_BYTES


def cases() -> dict:
    """Case name → (table, summary or None)."""
    closed, summary = ex.closed_round()
    return {
        "short chain (5 tiles)": (ex.short_round(), None),
        "chain of 27 tiles": (ex.long_round(), None),
        "chain of 27 led at one end": (ex.make_table(
            ["Оля", "Петя"], [1, 0], ex.line_layout(ex.CHAIN_27, lead=3, last=[26]),
            to_act=0), None),
        "full cross": (ex.cross_table(), None),
        "closing picture": (closed, summary),
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def cold_start_ms(tr) -> float:
    """The first picture with every cache empty (the sprites and labels are drawn)."""
    picture._painters.clear()
    picture.display_text.cache_clear()
    table, _ = cases()["full cross"]
    t0 = time.perf_counter()
    picture.render_table_png(table, locale="ru", tr=tr)
    return (time.perf_counter() - t0) * 1000


def bench_case(table, summary, rounds: int, tr) -> dict:
    picture.render_table_png(table, locale="ru", tr=tr, summary=summary)  # warm the sprites
    total, draw, encode = [], [], []
    size = 0
    for i in range(rounds):
        t = replace(table, version=table.version + i)
        picture_layout._plan_table.cache_clear()  # every state lays its tiles anew
        t0 = time.perf_counter()
        im = picture.render_table_image(t, locale="ru", tr=tr, summary=summary)
        t1 = time.perf_counter()
        png = picture.encode_png(im)
        t2 = time.perf_counter()
        draw.append((t1 - t0) * 1000)
        encode.append((t2 - t1) * 1000)
        total.append((t2 - t0) * 1000)
        size = len(png)
    return {"p50": statistics.median(total), "p99": percentile(total, 0.99),
            "draw": statistics.median(draw), "encode": statistics.median(encode),
            "bytes": size}


def cache_hit_us(tr) -> float:
    from delivery.pictures import PictureCache

    cache = PictureCache()
    table, _ = cases()["full cross"]
    cache.table_png(table, locale="ru", tr=tr)
    n = 10_000
    t0 = time.perf_counter()
    for _ in range(n):
        cache.table_png(table, locale="ru", tr=tr)
    return (time.perf_counter() - t0) / n * 1e6


def compare_levels(tr, rounds: int) -> None:
    print("\nzlib level   p50 ms (encode only)   PNG bytes (full cross)")
    table, _ = cases()["full cross"]
    im = picture.render_table_image(table, locale="ru", tr=tr)
    for level in (1, 3, 6, 9):
        times = []
        size = 0
        for _ in range(rounds):
            buf = io.BytesIO()
            t0 = time.perf_counter()
            im.save(buf, "PNG", compress_level=level)
            times.append((time.perf_counter() - t0) * 1000)
            size = len(buf.getvalue())
        mark = "  (used)" if level == picture.PNG_COMPRESS_LEVEL else ""
        print(f"{level:>10}   {statistics.median(times):>20.2f}   {size:>22,}{mark}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=500, help="pictures per case (default 500)")
    ap.add_argument("--compare", action="store_true", help="also time each zlib level")
    args = ap.parse_args(argv)
    tr = get_translator()
    cold = cold_start_ms(tr)
    print(f"picture {picture.WIDTH}×{picture.HEIGHT} px, palette PNG, zlib level "
          f"{picture.PNG_COMPRESS_LEVEL}; {args.rounds} pictures per case\n")
    print(f"{'case':<24} {'p50 ms':>7} {'p99 ms':>7} {'draw ms':>8} {'encode ms':>10} "
          f"{'PNG bytes':>10}")
    worst_ms, worst_bytes = 0.0, 0
    for name, (table, summary) in cases().items():
        r = bench_case(table, summary, args.rounds, tr)
        worst_ms, worst_bytes = max(worst_ms, r["p99"]), max(worst_bytes, r["bytes"])
        print(f"{name:<24} {r['p50']:>7.2f} {r['p99']:>7.2f} {r['draw']:>8.2f} "
              f"{r['encode']:>10.2f} {r['bytes']:>10,}")
    print(f"\nfirst picture of a process (every sprite drawn): {cold:.1f} ms")
    print(f"PictureCache hit: {cache_hit_us(tr):.1f} µs")
    ok_ms = "met" if worst_ms <= TARGET_MS else "NOT met"
    ok_bytes = "met" if worst_bytes <= TARGET_BYTES else "NOT met"
    print(f"target p99 ≤ {TARGET_MS:.0f} ms: {ok_ms} (worst p99 {worst_ms:.2f} ms); "
          f"target ≤ {TARGET_BYTES:,} bytes: {ok_bytes} (largest {worst_bytes:,})")
    if args.compare:
        compare_levels(tr, max(20, args.rounds // 10))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
