"""Several workers over one PostgreSQL database (issue 22, "Workers"): the inbox stores an
update once per ``update_id`` and the chat's owner processes it once; two workers racing one
chat with the same press give one accepted move, one stale answer and one table edit; a
Mini App move sent to a worker that does not own the chat is made by the owner, once, and
that worker's streams follow it; a killed worker's chats are taken at once, a frozen one's
after its lease; the shared token buckets never grant more than they hold.  Every worker is
a real :func:`handlers.run.build` over the real routers and a mocked Bot API
(:mod:`tests.botkit`) shared by the workers, as Telegram is."""

from __future__ import annotations

import asyncio
import time

import pytest
from aiogram import Bot
from aiogram.types import CallbackQuery, Chat, Message, Update
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import insert, text

import delivery.settings as bot_module
from handlers.cluster import feeder, route_of
from handlers.run import build
from handlers.webapp import create_webapp
from service.cluster import Cluster, FencedOut
from service.views import ErrorCode, Result
from storage import Database, open_database
from storage import cluster as cl
from storage.models import ChatLease
from tests.botkit import BOT, FakeSession, FakeTelegram, Person
from tests.servicekit import InlineExecutor
from tests.test_webapp_server import _events, auth, init_data

GROUP = -100777
PEOPLE = (Person(41, "Оля"), Person(42, "Петя"))


@pytest.fixture
async def pg_head(pg_server):
    """The URL of a new PostgreSQL database at the newest revision."""
    name = pg_server.create_database(template=pg_server.head_template())
    yield pg_server.url(name)
    pg_server.drop_database(name)


class Worker:
    """One worker: the whole bot built for a cluster over ``url``, its Bot API ``tg``.  Its
    lease (10 s) is longer than a heartbeat a busy machine may hold up: no test here waits
    for one to run out (those drive :class:`Cluster` directly)."""

    def __init__(self, url: str, tg: FakeTelegram, lease: float = 10.0,
                 webapp: bool = False) -> None:
        self.url, self.tg, self.lease, self.webapp = url, tg, lease, webapp

    async def __aenter__(self) -> Worker:
        pages = ({"webapp_url": "https://bot.test/webapp/", "webapp_short_name": "table"}
                 if self.webapp else {})
        self.settings = bot_module.Settings(
            bot_token="42:TEST", database_url=self.url, webhook_url="https://bot.test",
            table_view="text", picture_workers=0, worker_lease=self.lease,
            rate_chat_interval=0.0, rate_global_per_second=10**6, _env_file=None, **pages)
        self.bot = Bot("42:TEST", session=FakeSession(self.tg))
        self.dp, self.app = await build(
            self.settings, self.bot, cluster=True, chat_interval=0.0,
            group_per_minute=10**9, global_per_second=10**9,
            service_overrides={"bot_executor": InlineExecutor(), "hard_samples": 2})
        self.cluster: Cluster = self.app.cluster
        self.cluster.exit = None
        await self.cluster.start()
        self.stop = asyncio.Event()
        self.task = asyncio.create_task(self.cluster.run(
            feeder(self.dp, self.bot), self.app.publisher.heal_chat, stop=self.stop))
        return self

    async def __aexit__(self, *exc) -> None:
        self.stop.set()
        await asyncio.gather(self.task, return_exceptions=True)
        await self.app.outbox.drain()
        await self.app.publisher.settled()
        await self.cluster.stop()
        await self.app.outbox.close()
        self.app.publisher.pictures.close()
        await self.app.service.close()

    async def post(self, update: Update) -> bool:
        """What the webhook does with ``update``: route it and store it."""
        payload = update.model_dump(mode="json", exclude_none=True, by_alias=True)
        return await self.cluster.receive(update.update_id,
                                          await route_of(payload, self.cluster), payload)

    async def settle(self) -> None:
        await self.app.outbox.drain()
        await self.app.publisher.settled()


async def _idle(db: Database, *workers: Worker, timeout: float = 20.0) -> None:
    """Wait until the inbox has nothing pending, no worker is still processing an update
    (an update is marked done with its game change, before its handler answers the press),
    and every worker has sent what it queued."""
    end = time.monotonic() + timeout
    while await db.read(lambda c: c.execute(
            text("SELECT count(*) FROM inbox WHERE done_at IS NULL")).scalar()) or any(
            w.cluster.busy() for w in workers):
        assert time.monotonic() < end, "the inbox was not drained"
        await asyncio.sleep(0.02)
    for w in workers:
        await w.settle()


def _own(conn, chat_id: int, owner: int) -> None:
    conn.execute(insert(ChatLease.__table__).values(chat_id=chat_id, owner=owner, epoch=1,
                                                    since=time.time()))


def _press(update_id: int, person: Person, chat_id: int, message_id: int, data: str,
           query_id: int) -> Update:
    chat = Chat(id=chat_id, type="private" if chat_id > 0 else "supergroup")
    msg = Message(message_id=message_id, date=int(time.time()), chat=chat, from_user=BOT,
                  text="hand")
    return Update(update_id=update_id, callback_query=CallbackQuery(
        id=str(query_id), from_user=person.user, chat_instance="ci", message=msg, data=data))


async def _match(w: Worker) -> int:
    """A two-person classic match in GROUP, opened and shown by worker ``w`` (its owner)."""
    svc = w.app.service
    for p in PEOPLE:
        w.tg.dm_open.add(p.id)
    svc.lobbies.seed_source = lambda: 7
    res = await svc.lobbies.open_lobby(GROUP, None, PEOPLE[0].id, PEOPLE[0].first_name, {})
    assert (await svc.lobbies.join(res.match_id, PEOPLE[1].id, PEOPLE[1].first_name)).ok
    res = await svc.lobbies.start(res.match_id, PEOPLE[0].id)
    assert res.ok, res
    await w.app.publisher.publish(res)
    await w.settle()
    return res.match_id


def _live(tg: FakeTelegram):
    """(person, hand message, first move button's data) of the one seat to move."""
    for p in PEOPLE:
        for m in reversed(tg.chat(p.id)):
            buttons = m.move_buttons()
            if buttons:
                return p, m, buttons[0].callback_data
    raise AssertionError("no live keyboard")


def _table_edits(tg: FakeTelegram, since: int) -> int:
    return sum(1 for name, args in tg.calls[since:]
               if name in ("EditMessageText", "EditMessageMedia") and int(args["chat_id"]) == GROUP)


async def _actions(db: Database, match_id: int) -> list[int]:
    return await db.read(lambda c: [r[0] for r in c.execute(
        text("SELECT seq FROM actions WHERE match_id = :m ORDER BY seq"), {"m": match_id})])


async def test_the_same_update_to_two_workers_is_stored_and_processed_once(pg_head):
    """Telegram resends an update (to whichever worker the proxy picks): the same press
    reaches both workers at once; it is stored once, routed to the match's group (the press
    is in a private chat), processed once by the group's owner: one answer, one action, one
    table edit."""
    tg = FakeTelegram()
    db = await open_database(pg_head)
    async with Worker(pg_head, tg) as w1, Worker(pg_head, tg) as w2:
        await db.write(_own, GROUP, w1.cluster.worker_id)
        match_id = await _match(w1)
        person, hand, data = _live(tg)
        before, seqs = len(tg.calls), await _actions(db, match_id)
        update = _press(5001, person, person.id, hand.message_id, data, 9001)
        stored = await asyncio.gather(w1.post(update), w2.post(update))
        assert sorted(stored) == [False, True]
        await _idle(db, w1, w2)
        assert [a for a in tg.alerts if a[0] == 9001] != []
        assert len([a for a in tg.alerts if a[0] == 9001]) == 1
        assert await _actions(db, match_id) == [*seqs, len(seqs) + 1]
        assert _table_edits(tg, before) == 1
        row = await db.read(lambda c: c.execute(text(
            "SELECT chat_id, claimed_by, done_at FROM inbox WHERE update_id = 5001")).one())
        assert row[0] == GROUP and row[1] == w1.cluster.worker_id and row[2] is not None
        # a resend after it was done changes nothing either
        assert not await w2.post(update)
        await _idle(db, w1, w2)
        assert len([a for a in tg.alerts if a[0] == 9001]) == 1
    await db.dispose()


async def test_two_workers_racing_one_chat_one_accepted_one_stale_one_edit(pg_head):
    """The same button pressed twice (two updates: a double tap), each update received by
    another worker at the same instant: the group's owner processes both in order, the
    first is accepted and the second answered as stale, and the table is edited once."""
    tg = FakeTelegram()
    db = await open_database(pg_head)
    async with Worker(pg_head, tg) as w1, Worker(pg_head, tg) as w2:
        await db.write(_own, GROUP, w1.cluster.worker_id)
        match_id = await _match(w1)
        person, hand, data = _live(tg)
        before, seqs = len(tg.calls), await _actions(db, match_id)
        first = _press(6001, person, person.id, hand.message_id, data, 9101)
        second = _press(6002, person, person.id, hand.message_id, data, 9102)
        assert await asyncio.gather(w2.post(first), w1.post(second)) == [True, True]
        await _idle(db, w1, w2)
        answers = {a[0]: a for a in tg.alerts if a[0] in (9101, 9102)}
        assert set(answers) == {9101, 9102}
        assert not answers[9101][2] and answers[9102][2]  # the stale one is an alert
        assert await _actions(db, match_id) == [*seqs, len(seqs) + 1]
        assert _table_edits(tg, before) == 1
    await db.dispose()


async def test_a_killed_workers_chats_move_at_once_a_frozen_ones_after_its_lease(pg_head):
    """A worker whose liveness lock is gone (its process killed) loses its chats to the next
    take at once; one that holds the lock but stopped its heartbeat (frozen) keeps them
    until its row expires; a live owner keeps them.  The killed one's row goes once its
    chats are taken."""
    db = await open_database(pg_head)
    dead, frozen, alive, taker = (Cluster(db, lease=2.0, exit=None) for _ in range(4))
    for c in (dead, frozen, alive, taker):
        await c.start()
    for c in (dead, frozen):  # killed (PostgreSQL frees its lock), frozen: no heartbeat
        c._heart.cancel()
    await asyncio.to_thread(dead._lock_conn.close)
    now = time.time()

    def setup(conn):
        conn.execute(insert(ChatLease.__table__), [
            {"chat_id": -1, "owner": dead.worker_id, "epoch": 1, "since": now},
            {"chat_id": -2, "owner": frozen.worker_id, "epoch": 1, "since": now},
            {"chat_id": -3, "owner": alive.worker_id, "epoch": 1, "since": now}])
        conn.execute(text("UPDATE cluster_workers SET expires_at = :t WHERE worker_id = :w"),
                     {"t": now + 1, "w": frozen.worker_id})
        for chat in (-1, -2, -3):
            cl.inbox_put(conn, 100 - chat, chat, {"update_id": 100 - chat}, now)

    await db.write(setup)
    await db.write(lambda c: c.execute(text(
        "UPDATE cluster_workers SET expires_at = :t WHERE worker_id <> :w"),
        {"t": now + 60, "w": frozen.worker_id}))
    got = await db.write(cl.take_leases, taker.worker_id, now, now, 10)
    assert got == [-1]
    workers = await db.read(lambda c: {r[0] for r in c.execute(
        text("SELECT worker_id FROM cluster_workers"))})
    assert dead.worker_id not in workers
    got = await db.write(cl.take_leases, taker.worker_id, now + 1.5, now, 10)
    assert got == [-2]
    assert await db.read(cl.lease_owner, -2) == (taker.worker_id, 2)
    assert await db.write(cl.take_leases, taker.worker_id, now + 1.5, now, 10) == []
    # the frozen one may not act on its chats any more
    frozen._renewed = time.monotonic() - 3.0
    with pytest.raises(FencedOut):
        frozen.check()
    for c in (alive, taker):
        await c.stop()
    await db.dispose()


async def test_workers_taking_the_same_chats_at_once_take_each_once(pg_head):
    """Four workers take 200 chats with pending updates at the same time, 4 at a tick, until
    none is left: every chat ends with exactly one owner, and each worker got some."""
    db = await open_database(pg_head)
    workers = [Cluster(db, lease=60.0, exit=None) for _ in range(4)]  # no heartbeat runs
    for c in workers:
        await c.start()
    now = time.time()
    await db.write(lambda conn: [cl.inbox_put(conn, k, -k, {"update_id": k}, now)
                                 for k in range(1, 201)])
    got: dict[int, list[int]] = {c.worker_id: [] for c in workers}

    async def take(c: Cluster) -> None:
        while True:
            chats = await db.write(cl.take_leases, c.worker_id, time.time(), now, 4)
            if not chats:
                return
            got[c.worker_id] += chats

    await asyncio.gather(*(take(c) for c in workers))
    taken = sorted(ch for chats in got.values() for ch in chats)
    assert taken == sorted(-k for k in range(1, 201))
    assert all(got.values())
    for c in workers:
        await c.stop()
    await db.dispose()


async def test_a_shared_bucket_never_grants_more_than_it_holds(pg_head):
    """Eight takers on four handles empty one private chat's bucket (burst 3, one a second)
    at the same instant: 3 granted, the rest told how long to wait."""
    dbs = [await open_database(pg_head)] + [Database(pg_head) for _ in range(3)]
    now = time.time()
    def take(conn, at):
        return cl.take_token(conn, 77, at, capacity=3, per_second=1.0)

    waits = await asyncio.gather(*(dbs[k % 4].write(take, now) for k in range(8)))
    assert sorted(waits)[:3] == [0.0, 0.0, 0.0] and all(w > 0 for w in sorted(waits)[3:])
    assert await dbs[0].write(take, now + 1.01) == 0
    for d in dbs:
        await d.dispose()


async def test_a_dead_owners_open_match_is_taken_though_nothing_is_pending(pg_head):
    """The players of a chat may wait for a keyboard its dead owner never sent: a chat with
    an open match whose owner is gone is taken although no update and no deadline is due;
    a chat whose matches are all finished is left alone."""
    from storage import repository as repo

    db = await open_database(pg_head)
    dead, taker = Cluster(db, exit=None), Cluster(db, exit=None)
    await dead.start()
    await taker.start()
    dead._heart.cancel()
    await asyncio.to_thread(dead._lock_conn.close)  # killed
    now = time.time()

    def setup(conn):
        for chat in (-5, -6):
            repo.upsert_chat(conn, chat, now=now, title="g")
            conn.execute(insert(ChatLease.__table__).values(
                chat_id=chat, owner=dead.worker_id, epoch=1, since=now))
        mid = repo.insert_match(conn, chat_id=-5, thread_id=None, creator_id=1, rules={},
                                seats=[{"user_id": 1, "name": "a"}], now=now,
                                deadline_at=now + 3600)
        return mid

    await db.write(setup)
    assert await db.write(cl.take_leases, taker.worker_id, now, now, 10) == [-5]
    assert await db.read(cl.lease_owner, -6) is None  # nothing to do there: no lease
    await taker.stop()
    await db.dispose()


async def test_each_update_is_handled_once_and_in_order_per_chat(pg_head):
    """600 updates in 12 chats, received by two workers while both run: every update is
    handed to the dispatcher exactly once (a claim read before a done mark committed must
    not run it again), each chat's in ``update_id`` order, and the chats are shared.  Which
    worker takes a chat is a race: on a loaded machine one may take all twelve before the
    other's first look, so the round is played again (new updates, new chats) until both
    workers took chats, up to three times; each round checks once-and-in-order."""
    db = await open_database(pg_head)
    shared = False
    for attempt in range(3):
        seen: list[tuple[int, int, int]] = []

        def worker(seen: list = seen) -> Cluster:
            c = Cluster(db, exit=None)

            async def handle(payload):
                await asyncio.sleep(0.001)
                seen.append((c.worker_id, payload["chat"], payload["update_id"]))

            c.handle = handle
            return c

        a, b = worker(), worker()
        stop = asyncio.Event()
        for c in (a, b):
            await c.start()
        tasks = [asyncio.create_task(c.run(c.handle, stop=stop)) for c in (a, b)]
        first = attempt * 1000 + 1
        for uid in range(first, first + 600):
            chat = -(uid % 12) - 1 - 100 * attempt
            await (a, b)[uid % 2].receive(uid, chat, {"update_id": uid, "chat": chat})
        end = time.monotonic() + 60
        while len(seen) < 600 and time.monotonic() < end:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        stop.set()
        await asyncio.gather(*tasks)
        ids = [u for _, _, u in seen]
        assert sorted(ids) == list(range(first, first + 600))
        for chat in {ch for _, ch, _ in seen}:
            mine = [u for _, ch, u in seen if ch == chat]
            assert mine == sorted(mine)
        for c in (a, b):
            await c.stop()
        if {w for w, _, _ in seen} == {a.worker_id, b.worker_id}:
            shared = True
            break
    assert shared, "one worker took every chat in three rounds"
    await db.dispose()


async def test_a_mini_app_move_on_another_worker_is_made_once_by_the_chats_owner(pg_head):
    """The page of the player to move and a watcher's stream reach the worker that does not
    own the group (the proxy picks any): the move is stored in the inbox and made by the
    owner, in the way of an update (one action, one table edit); the page gets its state,
    the stream the new version.  The page sending the move again (its answer was lost) is
    answered alike and changes nothing; an out-of-date move is refused by the owner with
    the button's words."""
    tg = FakeTelegram()
    db = await open_database(pg_head)
    async with Worker(pg_head, tg, webapp=True) as w1, Worker(pg_head, tg, webapp=True) as w2:
        await db.write(_own, GROUP, w1.cluster.worker_id)
        match_id = await _match(w1)
        root = web.Application()
        root.add_subapp("/webapp/", create_webapp(w2.app, w2.app.pages, "42:TEST",
                                                  max_age_s=3600))
        client = TestClient(TestServer(root))
        await client.start_server()
        stream = None
        try:
            view = await w1.app.service.store.view(match_id)
            uid = view.table.seats[view.table.to_act].user_id
            mover = next(p for p in PEOPLE if p.id == uid)
            watcher = next(p for p in PEOPLE if p is not mover)
            r = await client.get(f"/webapp/api/state?m={match_id}",
                                 headers=auth(init_data(watcher)))
            token = (await r.json())["token"]
            stream = await client.get(
                f"/webapp/api/stream?token={token}&since={view.version}")
            before, seqs = len(tg.calls), await _actions(db, match_id)
            move = view.hand_for(mover.id).legal[0]
            body = {"m": match_id, "version": view.version,
                    "placements": [{"tile": p.tile, "end": p.end} for p in move.placements]}
            r = await client.post("/webapp/api/action", headers=auth(init_data(mover)),
                                  json=body)
            got = await r.json()
            assert r.status == 200 and got["ok"], got
            assert got["state"]["version"] == view.version + 1
            (event,) = await _events(stream, 1)
            assert event["version"] == view.version + 1
            await _idle(db, w1, w2)
            assert await _actions(db, match_id) == [*seqs, len(seqs) + 1]
            assert _table_edits(tg, before) == 1

            def stored(conn):
                return conn.execute(text("SELECT claimed_by, done_at FROM inbox "
                                         "WHERE update_id < 0")).all()

            (row,) = await db.read(stored)
            assert row[0] == w1.cluster.worker_id and row[1] is not None
            r = await client.post("/webapp/api/action", headers=auth(init_data(mover)),
                                  json=body)
            assert r.status == 200 and (await r.json())["ok"]
            await _idle(db, w1, w2)
            assert len(await db.read(stored)) == 1
            assert await _actions(db, match_id) == [*seqs, len(seqs) + 1]
            assert _table_edits(tg, before) == 1
            r = await client.post("/webapp/api/action", headers=auth(init_data(watcher)),
                                  json={**body, "version": view.version})
            got = await r.json()
            assert r.status == 409 and got["error"] == "stale", got
            assert got["reason"] == w2.app.error_text(watcher.language_code or "ru",
                                                      Result(False, ErrorCode.STALE))
            assert len(await db.read(stored)) == 2
            assert await _actions(db, match_id) == [*seqs, len(seqs) + 1]
        finally:
            if stream is not None:
                stream.close()
            await client.close()
    await db.dispose()


async def test_a_slow_start_up_is_no_silence_to_be_fenced_out_for(pg_head):
    """Between joining (:meth:`Cluster.start`) and running, a worker sets its webhook and
    registers its menus, which on a busy machine can take longer than a lease; it holds no
    lease yet, so its first heartbeat must not find it late (a worker of the three-worker
    end-to-end test exited so, at start-up, under a load of 12)."""
    db = await open_database(pg_head)
    worker = Cluster(db, lease=1.0, exit=None)
    await worker.start()
    worker._renewed -= 5.0  # as if the start-up had taken five leases
    stop = asyncio.Event()
    handled: list[dict] = []

    async def handle(payload):
        handled.append(payload)
        stop.set()

    await db.write(lambda conn: cl.inbox_put(conn, 7, GROUP, {"update_id": 7}, time.time()))
    await asyncio.wait_for(worker.run(handle, stop=stop), timeout=30)
    assert handled == [{"update_id": 7}]
    await worker.stop()
    await db.dispose()
