"""Storage benchmark: committed actions per second and database size per finished match.

    .venv/bin/python bench/storage_bench.py            # about a minute on 2 cores
    .venv/bin/python bench/storage_bench.py --quick    # a few seconds, smaller numbers

Two layers are measured, each with 1, 100 and 1000 matches played concurrently (one asyncio
task per match, one process):

- ``storage``: the per-action transaction alone — the optimistic version bump of the match row
  plus the insert into the action log, committed (``storage.repository.update_match`` +
  ``append_action`` through ``Database.write``);
- ``service``: ``Play.act`` end to end — engine move, that transaction, new views;
- ``match end``: the transaction that ends a match — the version bump to ``finished``, its
  2-4 result rows and, since issue 15, the skill ratings (``openskill`` Plackett–Luce) and
  sums of every board the match counts on, with a change row per person and board
  (``storage.repository.record_results``); beside it the same transaction without the boards
  (the row and the result rows only), to show what the rating update costs.  The players are
  drawn from 40 people of one chat, so most already have ratings to read and update.

Every counted action is committed before the next one of its match starts. The durability
setting is the bot's: WAL, ``synchronous=NORMAL``; ``--compare`` adds ``synchronous=FULL`` and
the aiosqlite driver for the storage layer. The size per finished match is the SQLite file
after a WAL checkpoint, divided by the matches played to the end (2-4 players, default rules).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert  # noqa: E402

from service import GameService, Status  # noqa: E402
from storage import Database, open_database  # noqa: E402
from storage import repository as repo  # noqa: E402
from tests import storagekit as kit  # noqa: E402
from tests.servicekit import random_move, start_match  # noqa: E402


async def bench_storage(path: Path, matches: int, seconds: float, **db_kwargs) -> float:
    """Committed per-action transactions per second with ``matches`` concurrent writers."""
    db = await open_database(path, **db_kwargs) if "://" not in str(path) else None
    if db is None:
        db = Database(path, **db_kwargs)
        await db.migrate()

    def setup(conn):
        repo.upsert_chat(conn, -1, now=0.0)
        return [
            repo.insert_match(conn, chat_id=-1, thread_id=i, creator_id=1, rules={},
                              seats=kit.seat_list([(1, "A"), (2, "B")]), now=0.0,
                              deadline_at=None)
            for i in range(matches)
        ]

    ids = await db.write(setup)
    stop_at = time.perf_counter() + seconds
    done = 0

    def txn(conn, mid, version, now):
        if not repo.update_match(conn, mid, version, now=now, deadline_at=now + 60):
            raise RuntimeError("unexpected version conflict")
        repo.append_action(conn, mid, version + 1, seat=version % 2,
                           decision={"tile": "2-5", "end": "left"}, at=now, user_id=1)

    async def player(mid):
        nonlocal done
        version = 0
        while time.perf_counter() < stop_at:
            await db.write(txn, mid, version, time.time())
            version += 1
            done += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(player(m) for m in ids))
    rate = done / (time.perf_counter() - t0)
    await db.dispose()
    return rate


async def bench_service(path: Path, matches: int, seconds: float) -> tuple[float, int]:
    """``Play.act`` calls per second with ``matches`` matches played concurrently;
    a match that ends is replaced by a new one. Returns (rate, matches finished)."""
    svc = await GameService.open(path)
    rng = random.Random(matches)
    slots = [await start_match(svc, -1, 2 + i % 3, thread_id=i, first_user=10 * i + 1)
             for i in range(matches)]
    stop_at = time.perf_counter() + seconds
    done = 0
    finished = 0

    async def player(i):
        nonlocal done, finished
        res = slots[i]
        n = 0
        while time.perf_counter() < stop_at:
            user, tile, end, version = random_move(res, rng)
            res = await svc.play.act(res.match_id, user, tile, end, version)
            if not res.ok:
                raise RuntimeError(res)
            done += 1
            if res.status != Status.PLAYING:
                finished += 1
                n += 1
                res = await start_match(svc, -1, 2 + i % 3, thread_id=i + 10_000 * n,
                                        first_user=10 * i + 1)

    t0 = time.perf_counter()
    await asyncio.gather(*(player(i) for i in range(matches)))
    rate = done / (time.perf_counter() - t0)
    await svc.close()
    return rate, finished


def _end_rows(mid: int, users: list[int], now: float) -> list[repo.ResultRow]:
    """The result rows of a free-for-all match of ``users`` (places in seat order)."""
    last = len(users) - 1
    return [repo.ResultRow(match_id=mid, seat=i, user_id=u, name=f"P{u}", chat_id=-1,
                           final_score=10 * i, goat=i == last, rating=2 if i == 0 else 0,
                           outs=1, fish=0, timed_out=False, ended_by="limit", finished_at=now,
                           side=i, place=i + 1)
            for i, u in enumerate(users)]


async def bench_match_end(path: Path, matches: int, seconds: float, *,
                          boards: bool = True) -> tuple[float, bool]:
    """Committed match-end transactions per second with ``matches`` concurrent writers:
    the match row to ``finished`` and its result rows, with (``boards``) the skill ratings
    and sums of its boards (``repo.record_results``) or without (the rows only).  Returns
    (rate, whether every prepared match ended before the time was up: then the rate is a
    lower bound)."""
    db = await open_database(path)
    pool = max(2000, int(seconds * (4000 if boards else 8000)))
    rng = random.Random(matches)

    def setup(conn):
        repo.upsert_chat(conn, -1, now=0.0)
        out = []
        for i in range(pool):
            users = rng.sample(range(1, 41), 2 + i % 3)
            mid = repo.insert_match(conn, chat_id=-1, thread_id=i, creator_id=users[0],
                                    rules={}, seats=kit.seat_list([(u, f"P{u}") for u in users]),
                                    now=0.0, deadline_at=None)
            out.append((mid, users))
        return out

    todo = await db.write(setup)
    stop_at = time.perf_counter() + seconds
    done = 0

    def txn(conn, mid, users, now):
        if not repo.update_match(conn, mid, 0, now=now, status="finished",
                                 end_reason="limit", deadline_at=None, finished_at=now):
            raise RuntimeError("unexpected version conflict")
        rows = _end_rows(mid, users, now)
        if boards:
            repo.record_results(conn, rows)
        else:
            conn.execute(insert(repo.T_RESULTS), [
                {f.name: getattr(r, f.name) for f in fields(r)} for r in rows])

    async def player():
        nonlocal done
        while todo and time.perf_counter() < stop_at:
            mid, users = todo.pop()
            await db.write(txn, mid, users, time.time())
            done += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(player() for _ in range(matches)))
    rate = done / (time.perf_counter() - t0)
    await db.dispose()
    return rate, not todo


async def size_per_match(path: Path, count: int) -> tuple[float, float]:
    """(bytes per finished match, actions per match) after ``count`` complete matches."""
    svc = await GameService.open(path)
    rng = random.Random(7)
    actions = 0
    for i in range(count):
        res = await start_match(svc, -1 - i % 10, 2 + i % 3, first_user=1 + i % 20 * 4)
        while res.status == Status.PLAYING:
            user, tile, end, version = random_move(res, rng)
            res = await svc.play.act(res.match_id, user, tile, end, version)
            actions += 1
    await svc.close()  # the last connection to close checkpoints the WAL into the file
    wal = path.with_name(path.name + "-wal")
    total = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    return total / count, actions / count


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    ap.add_argument("--quick", action="store_true", help="1 s per measurement, fewer matches")
    ap.add_argument("--compare", action="store_true",
                    help="also synchronous=FULL and the aiosqlite driver (storage layer)")
    args = ap.parse_args()
    seconds = 1.0 if args.quick else args.seconds
    sizes = (1, 100, 1000)
    with tempfile.TemporaryDirectory(prefix="kozel-bench-") as tmp:
        tmp = Path(tmp)
        print(f"committed actions/s, {seconds:g} s each, WAL + synchronous=NORMAL")
        print(f"{'concurrent matches':>20} {'storage txn/s':>14} {'service act/s':>14}")
        for n in sizes:
            s = await bench_storage(tmp / f"s{n}.sqlite3", n, seconds)
            a, _ = await bench_service(tmp / f"a{n}.sqlite3", n, seconds)
            print(f"{n:>20} {s:>14.0f} {a:>14.0f}", flush=True)
        print(f"match-end transactions/s, {seconds:g} s each (2-4 players of 40 in one chat)")
        print(f"{'concurrent matches':>20} {'with ratings':>14} {'rows only':>14}")
        for n in sizes[:2]:
            cells = []
            for boards in (True, False):
                rate, short = await bench_match_end(tmp / f"e{n}{boards}.sqlite3", n, seconds,
                                                    boards=boards)
                cells.append(("≥" if short else "") + f"{rate:.0f}")
            print(f"{n:>20} {cells[0]:>14} {cells[1]:>14}", flush=True)
        print("  (≥: every prepared match ended before the time was up)")
        if args.compare:
            for label, kwargs, target in (
                ("synchronous=FULL", {"synchronous": "FULL"}, "full"),
                ("aiosqlite driver", {}, "aio"),
            ):
                rates = []
                for n in sizes:
                    p = tmp / f"{target}{n}.sqlite3"
                    url = f"sqlite+aiosqlite:///{p}" if target == "aio" else p
                    rates.append(await bench_storage(url, n, seconds, **kwargs))
                print(f"storage txn/s, {label}: "
                      + ", ".join(f"{n}: {r:.0f}" for n, r in zip(sizes, rates, strict=True)))
        count = 20 if args.quick else 100
        per_match, per_match_actions = await size_per_match(tmp / "size.sqlite3", count)
        print(f"database size per finished match: {per_match / 1024:.1f} KiB "
              f"({count} matches of 2-4 players, {per_match_actions:.0f} actions each on "
              f"average, file size after checkpoint)")


if __name__ == "__main__":
    asyncio.run(main())
