"""Alembic migrations: from an empty database and from the previous revision, on real SQLite
files and on PostgreSQL; several workers migrating at once; the migrated schema equals the
one schema definition in storage.models."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect as sa_inspect
from sqlalchemy import text

from storage import Database, alembic_config, open_database
from storage import repository as repo
from storage.models import GLOBAL_SCOPE, Base
from tests import storagekit as kit

ROOT = Path(__file__).resolve().parents[1]


#: The newest revision.
HEAD = "0013"


def _diff(sync_conn):
    ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True})
    return compare_metadata(ctx, Base.metadata)


def test_revisions_form_one_line_of_at_least_two():
    script = ScriptDirectory.from_config(alembic_config())
    heads = script.get_heads()
    assert heads == [HEAD]
    chain = [rev.revision for rev in script.walk_revisions()]
    assert chain == ["0013", "0012", "0011", "0010", "0009", "0008", "0007", "0006", "0005",
                     "0004", "0003", "0002", "0001"]


async def test_upgrade_from_empty_matches_models(tmp_path):
    db = await open_database(tmp_path / "kozel.sqlite3")
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []

        def pragmas(conn):
            return tuple(conn.exec_driver_sql(f"PRAGMA {p}").scalar()
                         for p in ("journal_mode", "foreign_keys", "synchronous"))

        assert await db.read(pragmas) == ("wal", 1, 1)  # 1 = NORMAL
        assert await db.write(pragmas) == ("wal", 1, 1)
        # Running the start-up migration again is a no-op.
        await db.migrate()
        assert await db.current_revision() == HEAD
    finally:
        await db.dispose()


async def test_upgrade_from_previous_revision_keeps_data_and_backfills_stats(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = Database(path)
    await db.migrate("0001")
    assert await db.current_revision() == "0001"
    assert await db.read(_diff) != []  # player_stats missing at 0001

    def fill(conn):
        repo.upsert_chat(conn, -100, now=1.0, title="old group")
        repo.upsert_chat(conn, -200, now=1.0)
        mid = kit.old_match(conn, chat_id=-100, thread_id=None, creator_id=1,
                            seats=[(1, "A"), (2, "B")])
        mid2 = kit.old_match(conn, chat_id=-200, thread_id=7, creator_id=1,
                             seats=[(1, "A"), (3, "C")])
        kit.old_match(conn, chat_id=-200, thread_id=8, creator_id=1, seats=[(1, "A")],
                      status="stopped")
        repo.append_action(conn, mid, 1, seat=0, decision={"tile": "1-1", "end": None},
                           at=2.0, user_id=1)
        # Result rows written with plain SQL, as revision 0001 code would have.
        rows = [
            (mid, 0, 1, -100, 120, 1, 0, 2, 1), (mid, 1, 2, -100, 40, 0, 6, 3, 0),
            (mid2, 0, 1, -200, 10, 0, 9, 4, 2), (mid2, 1, 3, -200, 101, 1, 0, 0, 0),
        ]
        for m, seat, user, chat, score, goat, rating, outs, fish in rows:
            conn.execute(
                text(
                    "INSERT INTO match_results (match_id, seat, user_id, name, chat_id, "
                    "final_score, goat, rating, outs, fish, timed_out, ended_by, finished_at) "
                    "VALUES (:m, :s, :u, 'n', :c, :score, :g, :r, :o, :f, 0, 'limit', 3.0)"
                ),
                dict(m=m, s=seat, u=user, c=chat, score=score, g=goat, r=rating, o=outs, f=fish),
            )
        return mid, mid2

    mid, mid2 = await db.write(fill)
    await db.dispose()

    db = await open_database(path)  # start-up path: upgrades 0001 -> head
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        # revision 0006 seats the users of the open matches, not of the stopped one
        assert [m.id for m in await db.read(repo.list_open_matches_of, 1)] == [mid, mid2]
        assert [m.id for m in await db.read(repo.list_open_matches_of, 3)] == [mid2]
        log = await db.read(repo.list_actions, mid)
        assert [a.decision for a in log] == [{"tile": "1-1", "end": None}]
        stats = await db.read(kit.all_stats)
        assert stats == await db.read(kit.recompute_stats)
        mine = stats[(GLOBAL_SCOPE, "classic", False, 1)]
        assert {k: mine[k] for k in ("matches", "goats", "rating", "outs", "fish",
                                     "score_sum", "wins")} == {
            "matches": 2, "goats": 1, "rating": 9, "outs": 6, "fish": 3, "score_sum": 130,
            "wins": 1,
        }
        assert stats[(-100, "classic", False, 2)]["rating"] == 6
    finally:
        await db.dispose()


async def test_upgrade_from_0002_keeps_results_as_human_and_adds_bot_stats(tmp_path):
    """Revision 0003 (issue 6): result rows of before are humans' (bot NULL); bot rows
    recorded afterwards go to bot_stats and never to player_stats."""
    path = tmp_path / "v2.sqlite3"
    db = Database(path)
    await db.migrate("0002")

    def fill(conn):
        repo.upsert_chat(conn, -100, now=1.0)
        mid = kit.old_match(conn, chat_id=-100, thread_id=None, creator_id=1,
                            seats=[(1, "A"), (2, "B")])
        conn.execute(text(
            "INSERT INTO match_results (match_id, seat, user_id, name, chat_id, final_score, "
            "goat, rating, outs, fish, timed_out, ended_by, finished_at) "
            "VALUES (:m, 0, 1, 'A', -100, 30, 0, 7, 1, 0, 0, 'limit', 3.0)"), {"m": mid})
        conn.execute(text(
            "INSERT INTO player_stats (scope, user_id, matches, goats, rating, outs, fish, "
            "score_sum) VALUES (0, 1, 1, 0, 7, 1, 0, 30), (-100, 1, 1, 0, 7, 1, 0, 30)"))
        return mid

    mid = await db.write(fill)
    await db.dispose()
    db = await open_database(path)
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        rows = await db.read(kit.list_results, mid)
        assert [(r.user_id, r.bot) for r in rows] == [(1, None)]
        mid2 = await db.write(lambda conn: repo.insert_match(
            conn, chat_id=-100, thread_id=2, creator_id=1, rules={},
            seats=kit.seat_list([(1, "A"), (-1, "Бот")]), now=3.5, deadline_at=None))
        person, bot_row = (repo.ResultRow(
            match_id=mid2, seat=seat, user_id=uid, name=name, chat_id=-100,
            final_score=score, goat=goat, rating=rating, outs=0, fish=0, timed_out=False,
            ended_by="limit", finished_at=4.0, bot=bot, side=seat, place=place)
            for seat, uid, name, score, goat, rating, bot, place in (
                (0, 1, "A", 20, False, 8, None, 1), (1, -1, "Бот", 101, True, 0, "normal", 2)))
        await db.write(repo.record_results, [person, bot_row])
        assert await db.read(kit.all_stats) == await db.read(kit.recompute_stats)
        assert all(k[3] != -1 for k in await db.read(kit.all_stats))
        [bs] = await db.read(repo.bot_stats)
        assert (bs.strength, bs.matches, bs.goats, bs.score_sum) == ("normal", 1, 1, 101)
        await db.downgrade("0002")
        assert await db.current_revision() == "0002"
        old = await db.read(lambda c: c.exec_driver_sql(
            "SELECT scope, user_id, matches, rating FROM player_stats ORDER BY scope").all())
        assert [tuple(r) for r in old] == [(-100, 1, 2, 15), (0, 1, 2, 15)]
        assert len(await db.read(lambda c: c.exec_driver_sql(
            "SELECT * FROM match_results").all())) == 3
    finally:
        await db.dispose()


async def test_downgrade_to_previous_and_base_then_upgrade_again(tmp_path):
    db = await open_database(tmp_path / "d.sqlite3")
    try:
        await db.downgrade("0001")
        assert await db.current_revision() == "0001"
        await db.downgrade("base")
        assert await db.current_revision() is None
        names = await db.read(lambda c: c.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type='table'").scalars().all())
        assert set(names) <= {"alembic_version"}
        await db.migrate()
        assert await db.read(_diff) == []
    finally:
        await db.dispose()


def test_start_up_migration_works_from_any_working_directory(tmp_path):
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    db_path = tmp_path / "nested" / "dir" / "kozel.sqlite3"
    code = (
        "import asyncio, storage\n"
        "async def main():\n"
        f"    db = await storage.open_database({str(db_path)!r})\n"
        "    print(await db.current_revision())\n"
        "    await db.dispose()\n"
        "asyncio.run(main())\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == HEAD
    assert db_path.exists()


async def test_unknown_revision_is_an_error(tmp_path):
    from alembic.util import CommandError

    db = Database(tmp_path / "x.sqlite3")
    try:
        with pytest.raises(CommandError):
            await db.migrate("9999")
    finally:
        await db.dispose()


async def test_the_same_migrations_run_through_an_async_driver(tmp_path):
    """The schema path taken by asyncpg later: Alembic on AsyncConnection.run_sync."""
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'async.sqlite3'}")
    try:
        assert db.is_async and await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        await db.downgrade("0001")
        await db.migrate()
        assert await db.current_revision() == HEAD
    finally:
        await db.dispose()


async def test_upgrade_from_0003_adds_the_group_send_log(tmp_path):
    """Revision 0004 (issue 11): the recent sends per group, kept across restarts; nothing
    before it changes, and a downgrade drops the table alone."""
    path = tmp_path / "v3.sqlite3"
    db = Database(path)
    await db.migrate("0003")
    await db.write(lambda conn: repo.upsert_chat(conn, -100, now=1.0))
    await db.dispose()
    db = await open_database(path)
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        await db.write(repo.record_group_send, -100, 10.0)
        await db.write(lambda c: repo.record_group_send(c, -100, 75.0, forget_before=15.0))
        assert await db.read(repo.recent_group_sends, 0.0) == [(-100, 75.0)]
        assert (await db.read(repo.get_chat, -100)) is not None
        await db.downgrade("0003")
        names = await db.read(lambda c: c.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type='table'").scalars().all())
        assert "group_sends" not in names and "chats" in names
    finally:
        await db.dispose()


#: A worker's start-up: wait for the common instant, then open (and migrate) the database.
MIGRATOR = r"""
import asyncio, sys, time
import storage

async def main(url, at):
    time.sleep(max(0.0, at - time.time()))
    db = await storage.open_database(url)
    print(await db.current_revision())
    await db.dispose()

asyncio.run(main(sys.argv[1], float(sys.argv[2])))
"""


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_four_workers_migrating_a_fresh_database_at_once_all_start(tmp_path, request, engine):
    """4 processes start together on an empty database: one migrates, the others wait
    (PostgreSQL: the advisory lock of the migration transaction; SQLite: BEGIN IMMEDIATE)
    and find it at head; every one starts, and the schema is the models' exactly."""
    url = (str(tmp_path / "fresh.sqlite3") if engine == "sqlite"
           else request.getfixturevalue("pg_url"))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    at = time.time() + 2.0  # after every interpreter has imported the bot's modules
    procs = [subprocess.Popen([sys.executable, "-c", MIGRATOR, url, str(at)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [err[-800:] for _, err in outs]
    assert [out.strip() for out, _ in outs] == [HEAD] * 4

    async def check():
        db = Database(url)
        try:
            assert await db.current_revision() == HEAD
            assert await db.read(_diff) == []
        finally:
            await db.dispose()

    asyncio.run(check())


async def test_postgresql_migrates_to_the_models_and_back_to_empty(pg_url):
    """On PostgreSQL the revisions produce exactly the models' schema; downgrading to base
    leaves no table of ours; upgrading again works."""
    db = await open_database(pg_url)
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        await db.downgrade("0005")
        assert await db.read(_diff) != []  # open_seats gone
        await db.downgrade("base")
        names = await db.read(lambda c: c.exec_driver_sql(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'").scalars().all())
        assert set(names) <= {"alembic_version"}
        await db.migrate()
        assert await db.read(_diff) == []
    finally:
        await db.dispose()


def test_switching_a_fresh_file_to_wal_waits_out_another_process_lock(tmp_path):
    """The WAL switch of a new connection asks again while another connection holds the
    lock (SQLite answers SQLITE_BUSY at once in the deadlock case, and a busy timeout of 0
    here stands for it), and gives up with the driver's error when the time is up."""
    import sqlite3

    from storage.database import sqlite_pragma

    path = tmp_path / "fresh.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (a)")
    holder.execute("BEGIN EXCLUSIVE")
    newcomer = sqlite3.connect(path, isolation_level=None, timeout=0)
    cur = newcomer.cursor()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        cur.execute("PRAGMA journal_mode=WAL")  # what the connection hook used to do
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        sqlite_pragma(cur, "PRAGMA journal_mode=WAL", 50)  # still held after 50 ms

    timer = threading.Timer(0.3, holder.execute, ["COMMIT"])
    timer.start()
    try:
        sqlite_pragma(cur, "PRAGMA journal_mode=WAL", 5_000)
    finally:
        timer.join()
    assert cur.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        sqlite_pragma(cur, "SELECT * FROM missing", 5_000)  # not a lock: raised at once
    newcomer.close()
    holder.close()


async def test_upgrade_from_0007_keeps_users_and_adds_their_telegram_language(tmp_path):
    """Revision 0008: ``users.telegram_language``, NULL for the people stored before (their
    /lang choice and names kept); written and read back; a downgrade drops the column alone."""
    path = tmp_path / "v7.sqlite3"
    db = Database(path)
    await db.migrate("0007")
    await db.write(lambda c: c.execute(text(
        "INSERT INTO users (id, first_name, language, dm_open, created_at, updated_at) "
        "VALUES (7, 'Anna', 'uk', 1, 1.0, 1.0)")))
    await db.dispose()
    db = await open_database(path)
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        anna = await db.read(repo.get_user, 7)
        assert (anna.first_name, anna.language, anna.dm_open, anna.telegram_language) == (
            "Anna", "uk", True, None)
        await db.write(lambda c: repo.upsert_user(c, 7, now=2.0, telegram_language="en-GB"))
        anna = await db.read(repo.get_user, 7)
        assert (anna.first_name, anna.language, anna.telegram_language) == ("Anna", "uk",
                                                                             "en-GB")
        await db.downgrade("0007")
        columns = await db.read(lambda c: [r[1] for r in c.exec_driver_sql(
            "PRAGMA table_info(users)").all()])
        assert "telegram_language" not in columns and "language" in columns
    finally:
        await db.dispose()


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
async def test_upgrade_from_0008_places_the_pending_mini_app_actions_after_earlier_updates(
        tmp_path, request, engine):
    """Revision 0009: ``inbox.seq``.  A Telegram update stored before keeps its
    ``update_id`` as its place; a pending Mini App action (negative key) goes after the
    chat's pending updates received before it, not before all of them; the rows stored
    after are placed alike; a downgrade drops the column."""
    from storage import cluster as cl

    url = tmp_path / "v8.sqlite3" if engine == "sqlite" else request.getfixturevalue("pg_url")
    db = Database(url)
    await db.migrate("0008")
    rows = [(5, -100, 10.0), (-77, -100, 11.0), (6, -100, 12.0), (4, -100, 9.0),
            (-78, -200, 11.5)]
    await db.write(lambda c: [c.execute(text(
        "INSERT INTO inbox (update_id, chat_id, payload, received_at) "
        "VALUES (:u, :c, '{}', :at)"), {"u": u, "c": ch, "at": at}) for u, ch, at in rows])
    await db.dispose()
    db = await open_database(url)
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        assert await db.write(cl.inbox_put, 8, -100, {}, 13.0)
        assert await db.write(cl.inbox_put, -99, -100, {}, 14.0)
        assert await db.write(lambda c: c.execute(text(
            "INSERT INTO chat_leases (chat_id, owner, epoch, since) "
            "VALUES (-100, 1, 1, 0), (-200, 1, 1, 0)")).rowcount) == 2
        claimed = await db.write(cl.inbox_claim, 1, 20.0)
        assert [(r.chat_id, r.update_id) for r in claimed] == [
            (-200, -78), (-100, 4), (-100, 5), (-100, -77), (-100, 6), (-100, 8), (-100, -99)]
        seqs = dict(await db.read(lambda c: c.execute(text(
            "SELECT update_id, seq FROM inbox")).all()))
        assert seqs == {4: 4, 5: 5, -77: 5, 6: 6, 8: 8, -99: 8, -78: 0}
        await db.downgrade("0008")
        assert await db.read(_diff) != []
        await db.migrate()
        assert await db.read(_diff) == []
    finally:
        await db.dispose()


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
async def test_upgrade_from_0012_keeps_the_leases_of_chats_with_work_for_new_owners(
        tmp_path, request, engine):
    """Revision 0013 (issue 33): a lease lives by its owner's ``cluster_workers`` row, not
    by an expiry of its own.  A lease of a chat with nothing to do goes; one of a chat with
    a pending update is kept, marked as needing an owner (0), so a worker of the new code
    takes it; a downgrade brings the expiry back."""
    url = tmp_path / "v12.sqlite3" if engine == "sqlite" else request.getfixturevalue("pg_url")
    db = Database(url)
    await db.migrate("0012")
    await db.write(lambda c: [c.execute(text(sql)) for sql in (
        "INSERT INTO chat_leases (chat_id, owner, epoch, expires_at) "
        "VALUES (-1, 7, 3, 1e12), (-2, 7, 1, 1e12)",
        "INSERT INTO inbox (update_id, chat_id, payload, received_at, seq) "
        "VALUES (1, -1, '{}', 0, 1)")])
    await db.dispose()
    db = await open_database(url)
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        assert await db.read(lambda c: c.execute(text(
            "SELECT chat_id, owner, epoch FROM chat_leases")).all()) == [(-1, 0, 3)]
        await db.downgrade("0012")
        await db.migrate()
        assert await db.read(_diff) == []
    finally:
        await db.dispose()


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
async def test_upgrade_from_0009_keeps_the_results_and_adds_their_marks(tmp_path, request,
                                                                         engine):
    """Revision 0011 (issue 30 items 1 and 4): ``match_results.marks`` and
    ``remembered``.  A result stored before keeps every value, its marks unknown (NULL: a
    Семёрка result told as «not stored», not as a score of 0) and nothing remembered; a row
    stored after holds its marks (RULES.md §2.8's sticks) and remembered points (§1.12),
    which the person's figures average; a downgrade drops the two columns alone."""
    from service.stats import Statistics

    url = tmp_path / "v9.sqlite3" if engine == "sqlite" else request.getfixturevalue("pg_url")
    db = Database(url)
    await db.migrate("0009")

    def fill(conn):
        repo.upsert_chat(conn, -100, now=1.0, title="group")
        mid = kit.old_match(conn, chat_id=-100, thread_id=None, creator_id=1,
                            seats=[(1, "A"), (2, "B")], status="finished")
        conn.execute(text(
            "INSERT INTO match_results (match_id, seat, user_id, name, chat_id, final_score, "
            "goat, rating, outs, fish, timed_out, ended_by, finished_at, variant, side, "
            "place, left_match) VALUES (:m, 0, 1, 'A', -100, 0, :t, 0, 1, 0, :f, 'limit', "
            "3.0, 'seven', 0, 2, :f), (:m, 1, 2, 'B', -100, 0, :f, 1, 0, 0, :f, 'limit', "
            "3.0, 'seven', 1, 1, :f)"), {"m": mid, "t": True, "f": False})
        return mid

    mid = await db.write(fill)
    await db.dispose()
    db = await open_database(url)
    try:
        assert await db.current_revision() == HEAD
        assert await db.read(_diff) == []
        old = await db.read(repo.results_of, mid)
        assert [(r.user_id, r.goat, r.place, r.marks, r.remembered) for r in old] == [
            (1, True, 2, None, 0), (2, False, 1, None, 0)]
        assert await db.read(repo.mark_sums, [1, 2], -100, "seven", True) == {}
        new = await db.write(lambda c: kit.old_match(
            c, chat_id=-100, thread_id=None, creator_id=1, seats=[(1, "A"), (2, "B")],
            status="finished"))
        sticks = [{"name": "sticks", "count": n, "limit": 2, "per": "seat"} for n in (2, 1)]
        await db.write(repo.record_results, [
            repo.ResultRow(new, seat, uid, name, -100, 0, seat == 0, seat, 0, 0, False,
                           "limit", 4.0, variant="seven", side=seat, place=2 - seat,
                           marks=[sticks[seat]], remembered=0)
            for seat, (uid, name) in enumerate([(1, "A"), (2, "B")])])
        assert [r.marks for r in await db.read(repo.results_of, new)] == [[sticks[0]],
                                                                          [sticks[1]]]
        assert await db.read(repo.mark_sums, [1, 2], -100, "seven", True) == {
            1: {"sticks": (2, 1)}, 2: {"sticks": (1, 1)}}
        stats = await Statistics(db).personal_stats(1, -100, variant="seven", with_bots=True)
        # the old row is in match_results (rated by nothing here), the mean reads the new one
        assert [(m.mean, m.matches) for m in stats.marks] == [(2.0, 1)]
        page = await Statistics(db).history(chat_id=-100)
        assert [p.marks for p in page.entries[1].players] == [None, None]
        await db.downgrade("0010")
        columns = await db.read(lambda c: {col["name"] for col in
                                           sa_inspect(c).get_columns("match_results")})
        assert "marks" not in columns and "remembered" not in columns and "title" in columns
        await db.migrate()
        assert await db.read(_diff) == []
    finally:
        await db.dispose()
