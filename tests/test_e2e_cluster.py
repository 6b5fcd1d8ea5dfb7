"""End to end over a cluster (issue 22, "Must show"): a real PostgreSQL, three ``bot.py``
workers started together on its fresh database, the test Bot API server delivering webhooks
to them as Telegram and a load balancer would (a chat's next update only after a 2xx, a
failed POST retried on the next worker), Telegram's limits on both sides.

Six groups play whole matches (two rounds: the goat limit is 2), half of them with a
computer player.  In the middle each worker in turn gets SIGTERM (a rolling restart): it
exits 0 within the grace period (``STOP_GRACE``), having handed its chats back, and is
started again before the next one stops; then one worker is killed with SIGKILL; once its
chats play on, another is frozen with SIGSTOP.  Then: every match ends; each match's action log is
contiguous (``seq`` 1..n: each action once, each computer player's decision once); no group
got more than 20 messages and edits in any minute; the last table of every group equals the
database's state (RULES.md §1.15 for the match end); Telegram answered no request with 429,
across the restarts, the kill and the freeze.  The time from each SIGTERM to the next move of
each chat the stopped worker owned is printed against the target (≤ 1 s), and held to
:data:`STOP_BOUND`.  The time from the kill to the next move
of each orphaned chat is printed against the targets (≤ 3 s, and ≤ the lease + 3 s from the
freeze; docs/SCALE_OUT.md has the numbers measured); the test holds them only to a bound that a
takeover which works meets on any machine (:data:`TAKEOVER_BOUND`), since speed is measured,
not asserted."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from sqlalchemy import create_engine, text

from tests.e2e.checks import check_latest_table, load_replay, match_ids
from tests.e2e.cluster import LocalCluster
from tests.e2e.players import CallFeed, Table

pytest_plugins = ("tests.emulator.fixtures",)

LEASE = 3.0
#: Seconds past the lease by which an orphaned chat must have moved again: a chat that is never
#: taken over fails, a slow machine does not (the 3 s target is printed, see the module doc).
TAKEOVER_BOUND = 15.0
#: The workers' grace period for a stop (``STOP_GRACE``), and the seconds within which the
#: chats of a stopped worker must move again: a chat never handed back fails, a slow
#: machine does not (the 1 s target is printed).
STOP_GRACE = 6.0
STOP_BOUND = 10.0
GROUP_SENDS = {"sendmessage", "sendphoto", "editmessagetext", "editmessagereplymarkup",
               "editmessagemedia", "editmessagecaption", "senddocument"}


@pytest.fixture
def emulator_settings() -> dict:
    return {}  # flood control on: Telegram's limits


def _sql(url: str, sql: str, **params):
    eng = create_engine(url)
    try:
        with eng.begin() as conn:
            result = conn.execute(text(sql), params)
            return result.all() if result.returns_rows else []
    finally:
        eng.dispose()


async def _first_moves_after(url: str, chats: list[int], since: float,
                             timeout: float = 30.0) -> dict[int, float]:
    """For each of ``chats`` with a playing match, seconds from ``since`` to its first action
    committed after it."""
    end = time.monotonic() + timeout
    while True:
        rows = await asyncio.to_thread(_sql, url, """
            SELECT m.chat_id, min(a.at) FROM matches m JOIN actions a ON a.match_id = m.id
             WHERE m.chat_id = ANY(:chats) AND a.at > :since GROUP BY m.chat_id""",
                                       chats=chats, since=since)
        got = {int(c): float(t) - since for c, t in rows}
        playing = await asyncio.to_thread(_sql, url, """
            SELECT chat_id FROM matches WHERE chat_id = ANY(:chats) AND status = 'playing'""",
                                          chats=chats)
        waiting = {int(r[0]) for r in playing} - set(got)
        if not waiting or time.monotonic() > end:
            return got
        await asyncio.sleep(0.05)


async def _until(check, *, timeout: float = 30.0, what: str):
    """Poll the database with ``check`` (async) until it returns something truthy."""
    end = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.05)


async def _moves_made(url: str, chats: set[int], at_least: int) -> bool:
    """Whether the match of every one of ``chats`` has ``at_least`` actions (or is over)."""
    rows = await asyncio.to_thread(_sql, url, """
        SELECT m.chat_id, m.status, count(a.seq) FROM matches m
          LEFT JOIN actions a ON a.match_id = m.id
         WHERE m.chat_id = ANY(:chats) GROUP BY m.id, m.chat_id, m.status""",
                                   chats=list(chats))
    done = {int(c) for c, status, n in rows if status != "playing" or int(n) >= at_least}
    return done >= set(chats)


async def _groups_by_owner(url: str, groups: set[int]) -> dict[int, list[int]]:
    """The groups each worker (by id) owns now."""
    rows = await asyncio.to_thread(_sql, url, "SELECT chat_id, owner FROM chat_leases")
    out: dict[int, list[int]] = {}
    for chat, owner in rows:
        if int(chat) in groups:
            out.setdefault(int(owner), []).append(int(chat))
    return out


async def test_three_workers_one_killed_one_frozen_every_match_ends_once(emulator,
                                                                        emulator_client,
                                                                        tmp_path, pg_server):
    settings = {"BOT_MOVE_DELAY": "0.2", "BOT_HARD_SAMPLES": "20", "WORKER_LEASE": LEASE,
                "TABLE_VIEW": "text", "PICTURE_WORKERS": "0", "TURN_TIMEOUT": "60",
                "LOG_LEVEL": "WARNING", "BOT_WORKERS": "1", "STOP_GRACE": STOP_GRACE}
    t0 = time.monotonic()
    async with LocalCluster(emulator, 3, settings=settings, directory=tmp_path,
                            server=pg_server, fork=True) as cluster:
        started = time.monotonic() - t0
        assert all(w.running for w in cluster.workers), cluster.errors()
        feed = CallFeed(emulator_client)
        tables = [await Table.create(emulator_client, feed, (f"Оля{k}", f"Петя{k}"),
                                     first_id=1000 + 10 * k) for k in range(6)]
        await asyncio.to_thread(_sql, cluster.url, """
            INSERT INTO chats (id, title, language, is_forum, settings, active, created_at,
                               updated_at)
            SELECT c, 'Домино', NULL, false, CAST(:s AS json), true, 0, 0
              FROM unnest(CAST(:ids AS bigint[])) AS c""",
                                ids=[t.chat_id for t in tables],
                                s=json.dumps({"rules": {"match_limit": 2}}))

        # each person's /start is answered first: a private chat and a group have different
        # owners, and Telegram orders neither against the other
        for t in tables:
            for p in t.players:
                await emulator_client.wait_message(p.id, lambda m: m.from_bot, timeout=30)

        async def setup(k: int, table: Table) -> None:
            await table.gather()
            if k % 2:
                await table.command(table.players[0], "/addbot easy")
                await table.wait_seated(3)
            await table.start()

        await asyncio.gather(*(setup(k, t) for k, t in enumerate(tables)))
        logs = [None] * len(tables)
        rngs = [random.Random(k) for k in range(len(tables))]

        async def play(k: int) -> None:
            try:
                logs[k] = await tables[k].play(rngs[k], timeout=60.0)
            except TimeoutError:
                chat = tables[k].chat_id
                state = await asyncio.to_thread(_sql, cluster.url, '''
                    SELECT m.id, m.status, m.version, m.deadline_at, l.owner, l.since,
                           (SELECT count(*) FROM inbox i WHERE i.chat_id = m.chat_id
                             AND i.done_at IS NULL)
                      FROM matches m LEFT JOIN chat_leases l ON l.chat_id = m.chat_id
                     WHERE m.chat_id = :c''', c=chat)
                print(f"stuck chat {chat} at {time.time():.1f}: {state}")
                raise

        play0 = time.monotonic()
        players = [asyncio.create_task(play(k)) for k in range(len(tables))]
        groups = {t.chat_id for t in tables}
        # the kill falls mid-match: once every group's match has a few moves, not after a
        # guessed four seconds
        await _until(lambda: _moves_made(cluster.url, groups, 3), what="three moves a match")
        # a rolling restart: each worker in turn stopped with SIGTERM, then started again
        restarts = []
        for worker_id, worker in enumerate(cluster.workers, start=1):
            owned = (await _groups_by_owner(cluster.url, groups)).get(worker_id, [])
            signalled = time.time()
            code = await worker.stop(timeout=STOP_GRACE + 10)
            exited = time.time() - signalled
            gaps = await _first_moves_after(cluster.url, owned, signalled)
            restarts.append((worker_id, code, exited, len(owned), gaps))
            assert code == 0 and exited <= STOP_GRACE + 1.0, (worker_id, code, exited)
            await worker.restart(timeout=120.0)
        spread = await _groups_by_owner(cluster.url, groups)
        by_owner = spread
        victim_id, orphans_kill = max(by_owner.items(), key=lambda kv: len(kv[1]))
        victim = cluster.workers[victim_id - 1]
        killed_at = time.time()
        victim.kill()
        kill_gap = await _first_moves_after(cluster.url, orphans_kill, killed_at)

        async def taken_over() -> dict[int, list[int]] | None:
            owners = await _groups_by_owner(cluster.url, groups)
            return owners if victim_id not in owners else None

        by_owner = await _until(taken_over, what="the killed worker's groups taken over")
        frozen_id, orphans_freeze = max(by_owner.items(), key=lambda kv: len(kv[1]))
        frozen = cluster.workers[frozen_id - 1]
        frozen_at = time.time()
        frozen.freeze()
        freeze_gap = await _first_moves_after(cluster.url, orphans_freeze, frozen_at,
                                              timeout=LEASE + 30)
        await asyncio.gather(*players)
        played = time.monotonic() - play0
        print(f"\ncluster of 3 started in {started:.1f}s, the matches took {played:.1f}s; "
              f"kill -9 of the owner of "
              f"{len(orphans_kill)} groups: next move after "
              f"{', '.join(f'{v:.2f}' for v in sorted(kill_gap.values()))} s; SIGSTOP of the "
              f"owner of {len(orphans_freeze)}: after "
              f"{', '.join(f'{v:.2f}' for v in sorted(freeze_gap.values()))} s "
              f"(lease {LEASE:.0f} s)")
        for worker_id, code, exited, owned, gaps in restarts:
            print(f"SIGTERM of worker {worker_id} (owner of {owned} groups): exit {code} "
                  f"after {exited:.2f} s (grace {STOP_GRACE:.0f} s); next move after "
                  f"{', '.join(f'{v:.2f}' for v in sorted(gaps.values())) or '-'} s")
        print(f"groups per worker after the restarts: "
              f"{ {w: len(c) for w, c in sorted(spread.items())} }")
        for log in logs:
            assert log is not None and log.ended
        # each action once: every match's log is 1..n
        lengths = []
        for t in tables:
            for mid in match_ids(cluster.url, t.chat_id):
                seqs = [r[0] for r in await asyncio.to_thread(
                    _sql, cluster.url, "SELECT seq FROM actions WHERE match_id = :m ORDER BY seq",
                    m=mid)]
                assert seqs == list(range(1, len(seqs) + 1))
                lengths.append(len(seqs))
                status = await asyncio.to_thread(_sql, cluster.url,
                                                 "SELECT status FROM matches WHERE id = :m", m=mid)
                assert status[0][0] == "finished"
        print(f"actions per match: {sorted(lengths)}")
        # no group over 20 messages and edits in any minute, and no request refused for
        # flooding across the restarts, the kill and the freeze
        calls = await emulator_client.calls(since=0)
        refused = [(c["method"], c["chat_id"], round(c["t"], 2)) for c in calls
                   if c.get("error_code") == 429]
        assert not refused, refused
        for t in tables:
            times = sorted(c["t"] for c in calls if c["ok"] and c["chat_id"] == t.chat_id
                           and c["method"].lower() in GROUP_SENDS)
            worst = max((sum(1 for x in times if s <= x < s + 60.0) for s in times), default=0)
            assert worst <= 20, (t.chat_id, worst)
        # the last table equals the database's state
        for t in tables:
            group = await emulator_client.messages(t.chat_id)
            mid = match_ids(cluster.url, t.chat_id)[-1]
            try:
                check_latest_table(load_replay(cluster.url, mid), group)
            except AssertionError:
                stored = await asyncio.to_thread(_sql, cluster.url,
                                                 "SELECT messages FROM matches WHERE id = :m",
                                                 m=mid)
                print("stored ids", stored)
                for m in group:
                    print(m.message_id, m.edits, (m.shown or "").splitlines()[:1])
                raise
        for _, _, _, _, gaps in restarts:
            assert max(gaps.values(), default=0.0) <= STOP_BOUND, gaps
        assert max(kill_gap.values()) <= LEASE + TAKEOVER_BOUND, kill_gap
        assert max(freeze_gap.values()) <= LEASE + TAKEOVER_BOUND, freeze_gap
        errors = [e for e in cluster.errors() if "Traceback" not in e]
        assert not errors, errors
