"""Storage benchmark: committed actions per second and database size per finished match, on
SQLite and PostgreSQL side by side in one run.

    .venv/bin/python bench/storage_bench.py            # about three minutes on 2 cores
    .venv/bin/python bench/storage_bench.py --quick    # under a minute, smaller numbers
    .venv/bin/python bench/storage_bench.py --race 1000 --only race

Every measurement runs on each engine: SQLite (a file in a temporary directory) and
PostgreSQL (a fresh database on the server ``KOZEL_TEST_POSTGRES`` names, or on one this run
starts from the installed server binaries, fsync on: tests/pgkit.py; without one the
PostgreSQL column says why it is empty).  Two layers, each with 1, 100 and 1000 matches
played concurrently (one asyncio task per match, one process):

- ``storage``: the per-action transaction alone — the optimistic version bump of the match row
  plus the insert into the action log, committed (``storage.repository.update_match`` +
  ``append_action`` through ``Database.write``);
- ``service``: ``Play.act`` end to end — engine move, that transaction, new views;
- ``match end``: the transaction that ends a match — the version bump to ``finished``, its
  2-4 result rows and, since issue 15, the skill ratings (``openskill`` Plackett–Luce) and
  sums of every board the match counts on, with a change row per person and board
  (``storage.repository.record_results``); beside it the same transaction without the boards
  (the row and the result rows only), to show what the rating update costs.  The players are
  drawn from 40 people of one chat, so most already have ratings to read and update;
- ``open matches of a user``: ``list_open_matches_of`` with 5,000 open matches (2-4 seats of
  2,000 people), milliseconds per call, beside the query before revision 0006 (SQLite
  searched every open match's seats with ``json_each``, PostgreSQL decoded them all);
- ``--race N``: one person's two matches end at the same instant, N times, through two
  database handles (two workers): whether the rating changes form one chain (no lost update)
  and the boards equal a serial recomputation (tests/storagekit.py ``race_match_ends``).

Every counted action is committed before the next one of its match starts. The durability
settings are the bot's: SQLite in WAL with ``synchronous=NORMAL``, PostgreSQL's defaults
(fsync on, ``synchronous_commit`` on); ``--compare`` adds SQLite with ``synchronous=FULL`` and
the aiosqlite driver, and PostgreSQL through psycopg's async connection and (when installed)
asyncpg, both through ``AsyncConnection.run_sync``, for the storage layer. The size per
finished match is the SQLite file after a WAL checkpoint, divided by the matches played to the
end (2-4 players, default rules).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import sys
import tempfile
import time
from dataclasses import fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import func, insert, literal, select  # noqa: E402

from service.game import GameService  # noqa: E402
from service.views import Status
from storage import Database, open_database  # noqa: E402
from storage import repository as repo  # noqa: E402
from tests import pgkit  # noqa: E402
from tests import storagekit as kit  # noqa: E402
from tests.servicekit import random_move, start_match  # noqa: E402


async def bench_storage(path: Path | str, matches: int, seconds: float, **db_kwargs) -> float:
    """Committed per-action transactions per second with ``matches`` concurrent writers."""
    db = await open_database(path, **db_kwargs)

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


async def bench_service(path: Path | str, matches: int, seconds: float) -> tuple[float, int]:
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


async def bench_match_end(path: Path | str, matches: int, seconds: float, *,
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
        rows = kit.end_rows(mid, users, range(1, len(users) + 1), now)
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


async def bench_open_matches_of(path: Path | str, open_matches: int = 5000,
                                calls: int = 200) -> tuple[float, float, float]:
    """(ms per ``list_open_matches_of`` call, ms per call decoding every open match's seats
    instead, matches found per call) with ``open_matches`` open matches of 2-4 seats drawn
    from 2,000 people."""
    db = await open_database(path)
    rng = random.Random(5)

    def setup(conn):
        for chat in range(1, 51):
            repo.upsert_chat(conn, -chat, now=0.0)
        for i in range(open_matches):
            users = rng.sample(range(1, 2001), 2 + i % 3)
            repo.insert_match(conn, chat_id=-(1 + i % 50), thread_id=i, creator_id=users[0],
                              rules={}, seats=kit.seat_list([(u, f"P{u}") for u in users]),
                              now=0.0, deadline_at=None)

    await db.write(setup)
    if db.is_postgres:  # the statistics autovacuum keeps on a live database
        await db.write(lambda conn: conn.exec_driver_sql("ANALYZE"))

    def before(conn, user_id):  # list_open_matches_of before revision 0006
        if conn.dialect.name != "sqlite":
            return [r for r in repo.list_open_matches(conn)
                    if any(s.get("user_id") == user_id for s in r.seats)]
        seat = func.json_each(repo.T_MATCHES.c.seats).table_valued("value").alias("seat")
        seated = (select(literal(1)).select_from(seat)
                  .where(func.json_extract(seat.c.value, "$.user_id") == user_id))
        stmt = (select(repo.T_MATCHES)
                .where(repo.T_MATCHES.c.status.in_(repo.OPEN_STATUSES), seated.exists())
                .order_by(repo.T_MATCHES.c.id))
        return conn.execute(stmt).all()

    users = [rng.randrange(1, 2001) for _ in range(calls)]
    t0 = time.perf_counter()
    found = [len(await db.read(repo.list_open_matches_of, uid)) for uid in users]
    by_index = (time.perf_counter() - t0) / calls * 1000
    few = users[:max(5, calls // 20)]
    t0 = time.perf_counter()
    decoded = [len(await db.read(before, uid)) for uid in few]
    decoding = (time.perf_counter() - t0) / len(few) * 1000
    if decoded != found[:len(few)]:
        raise AssertionError("the index and the seats disagree")
    await db.dispose()
    return by_index, decoding, sum(found) / calls


async def bench_race(first_url: Path | str, pairs: int) -> tuple[bool, bool, float]:
    """(the rating changes of the person form one chain on every board, the boards equal
    a serial recomputation in that order, seconds) for ``pairs`` pairs of matches ending at
    once through two handles (two workers)."""
    a = await open_database(first_url)
    b = Database(first_url)
    t0 = time.perf_counter()
    try:
        await kit.race_match_ends(a, b, pairs, seed=11)
        took = time.perf_counter() - t0
        try:
            order = await a.read(kit.rating_chain, 1)
            for with_bots in (False, True):
                if await a.read(kit.rating_chain, 1, -1, "classic", with_bots) != order:
                    raise AssertionError("the chat's board was rated in another order")
        except AssertionError as exc:
            print(f"  lost update: {exc}")
            return False, False, took
        equal = await a.read(kit.all_stats) == await a.read(kit.recompute_stats, order)
        return True, equal, took
    finally:
        await a.dispose()
        await b.dispose()


class Engines:
    """Where each measurement runs: a fresh SQLite file or a fresh PostgreSQL database."""

    def __init__(self, tmp: Path, pg: pgkit.PgServer | None) -> None:
        self.tmp = tmp
        self.pg = pg
        self.names = ["SQLite"] + (["PostgreSQL"] if pg else [])
        self._n = 0

    def fresh(self, engine: str, driver: str = "psycopg") -> Path | str:
        self._n += 1
        if engine == "SQLite":
            return self.tmp / f"b{self._n}.sqlite3"
        assert self.pg is not None
        return self.pg.url(self.pg.create_database(template=self.pg.head_template(),
                                                   prefix="kozel_bench"), driver)


def _pg_server() -> tuple[pgkit.PgServer | None, str]:
    try:
        server = pgkit.find_server(fsync=True)
    except pgkit.NoServer as exc:
        return None, str(exc)
    how = (f"started for this run in {server.start_seconds:.2f} s" if server.started
           else f"at {pgkit.SERVER_ENV}")
    return server, how


def _cells(values: list[str], width: int = 12) -> str:
    return " ".join(f"{v:>{width}}" for v in values)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    ap.add_argument("--quick", action="store_true", help="1 s per measurement, fewer matches")
    ap.add_argument("--compare", action="store_true",
                    help="also synchronous=FULL and other drivers (storage layer)")
    ap.add_argument("--race", type=int, default=100, metavar="N",
                    help="pairs of one person's matches ending at once (default 100)")
    ap.add_argument("--only", nargs="+", default=None,
                    choices=["moves", "ends", "open", "race", "size"],
                    help="run only these parts")
    args = ap.parse_args()
    seconds = 1.0 if args.quick else args.seconds
    parts = set(args.only or ["moves", "ends", "open", "race", "size"])
    sizes = (1, 100, 1000)
    pg, how = _pg_server()
    print(f"PostgreSQL: {how}" if pg else f"PostgreSQL: none ({how})")
    try:
        with tempfile.TemporaryDirectory(prefix="kozel-bench-") as tmp:
            await _run(Engines(Path(tmp), pg), args, parts, seconds, sizes)
    finally:
        if pg is not None:
            pg.stop()


async def _run(eng: Engines, args, parts: set[str], seconds: float, sizes) -> None:
    short = {"SQLite": "SQLite", "PostgreSQL": "PG"}
    if "moves" in parts:
        print(f"committed actions/s, {seconds:g} s each (storage: the move transaction; "
              "service: GameService.act)")
        print(f"{'concurrent matches':>20} " + _cells(
            [f"{short[e]} {k}" for k in ("txn/s", "act/s") for e in eng.names], 14))
        for n in sizes:
            cells = [await bench_storage(eng.fresh(e), n, seconds) for e in eng.names]
            cells += [(await bench_service(eng.fresh(e), n, seconds))[0] for e in eng.names]
            print(f"{n:>20} " + _cells([f"{c:.0f}" for c in cells], 14), flush=True)
    if "ends" in parts:
        print(f"match-end transactions/s, {seconds:g} s each (2-4 players of 40 in one chat)")
        print(f"{'concurrent matches':>20} " + _cells(
            [f"{short[e]} {k}" for k in ("ratings", "rows only") for e in eng.names], 14))
        for n in sizes[:2]:
            cells = []
            for boards in (True, False):
                for e in eng.names:
                    rate, short_ = await bench_match_end(eng.fresh(e), n, seconds,
                                                         boards=boards)
                    cells.append(("≥" if short_ else "") + f"{rate:.0f}")
            print(f"{n:>20} " + _cells(cells, 14), flush=True)
        print("  (≥: every prepared match ended before the time was up)")
    if "open" in parts:
        print("open matches of a user, 5,000 open matches: ms per call")
        for e in eng.names:
            by_index, decoding, found = await bench_open_matches_of(eng.fresh(e))
            print(f"  {e:>10}: list_open_matches_of {by_index:.2f} ms "
                  f"(before revision 0006: {decoding:.1f} ms; {found:.1f} matches found)",
                  flush=True)
    if "race" in parts:
        print(f"one person's two matches ending at once, {args.race} times, two handles:")
        for e in eng.names:
            chain, equal, took = await bench_race(eng.fresh(e), args.race)
            print(f"  {e:>10}: no lost update: {'yes' if chain else 'NO'}; ratings equal a "
                  f"serial recomputation: {'yes' if equal else 'NO'} ({took:.1f} s)",
                  flush=True)
    if args.compare and "moves" in parts:
        variants = [("SQLite synchronous=FULL", "SQLite", {"synchronous": "FULL"}, None),
                    ("SQLite aiosqlite driver", "SQLite", {}, "aiosqlite")]
        if eng.pg:
            variants.append(("PostgreSQL psycopg async (run_sync)", "PostgreSQL", {},
                             "psycopg_async"))
            if importlib.util.find_spec("asyncpg"):
                variants.append(("PostgreSQL asyncpg (run_sync)", "PostgreSQL", {}, "asyncpg"))
        for label, e, kwargs, driver in variants:
            rates = []
            for n in sizes:
                if e == "SQLite":
                    p = eng.fresh(e)
                    target = f"sqlite+aiosqlite:///{p}" if driver else p
                else:
                    target = eng.fresh(e, driver)
                rates.append(await bench_storage(target, n, seconds, **kwargs))
            print(f"storage txn/s, {label}: "
                  + ", ".join(f"{n}: {r:.0f}" for n, r in zip(sizes, rates, strict=True)),
                  flush=True)
    if "size" in parts:
        count = 20 if args.quick else 100
        path = eng.fresh("SQLite")
        per_match, per_match_actions = await size_per_match(path, count)
        print(f"SQLite size per finished match: {per_match / 1024:.1f} KiB "
              f"({count} matches of 2-4 players, {per_match_actions:.0f} actions each on "
              f"average, file size after checkpoint)")


if __name__ == "__main__":
    asyncio.run(main())
