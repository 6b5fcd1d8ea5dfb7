"""Exactly once (issue 22, "Workers": every game change happens once, even when a worker
dies): the game change an update makes and the update's done mark in the inbox commit in one
transaction (``service.once``), on SQLite and on PostgreSQL.

A worker that dies after ``/addbot``'s change committed but before it would have marked the
update done leaves nothing for the next owner to run again (run again, the command would
seat a second computer player: the version check cannot tell a repeated command from a new
one); one that dies inside the change leaves the update pending, and the next owner runs it
once.  A worker frozen while its chat moved cannot apply an update the new owner has
claimed.  Each worker is the real :func:`handlers.run.build` over the real routers and a
mocked Bot API; the dying is a ``BaseException`` raised at that step, which nothing of the
worker catches, as nothing of a killed process runs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.types import CallbackQuery, Chat, Message, MessageEntity, Update
from sqlalchemy import insert, text, update

import delivery.settings as bot_module
from handlers.cluster import feeder
from handlers.run import build
from handlers.webapp import WEBAPP_ACTION, action_id
from service import once
from service.cluster import Cluster
from storage import cluster as cl
from storage import repository as repo
from storage.models import ChatLease
from tests.botkit import BOT, FakeSession, FakeTelegram, Person
from tests.servicekit import InlineExecutor

GROUP = -100555
OLYA = Person(41, "Оля")
PETYA = Person(42, "Петя")


class Died(BaseException):
    """The worker's process ends here: nothing after this step runs."""


class Worker:
    """One worker's bot over ``url`` (a SQLite path or a PostgreSQL URL), and its place in
    the cluster (its :class:`Cluster`, never started: the leases are set by the test)."""

    def __init__(self, url: str | Path, tg: FakeTelegram) -> None:
        self.url, self.tg = url, tg

    async def __aenter__(self) -> Worker:
        where = ({"database_path": self.url} if isinstance(self.url, Path)
                 else {"database_url": self.url})
        settings = bot_module.Settings(bot_token="42:TEST", table_view="text",
                                       picture_workers=0, _env_file=None, **where)
        self.bot = Bot("42:TEST", session=FakeSession(self.tg))
        self.dp, self.app = await build(
            settings, self.bot, chat_interval=0.0, group_per_minute=10**9,
            global_per_second=10**9,
            service_overrides={"bot_executor": InlineExecutor(), "hard_samples": 2})
        self.db = self.app.service.db
        self.cluster = Cluster(self.db, exit=None, lease=3600.0)
        # the outbox of a worker marks a reply's update done before the reply (only that of
        # the cluster's coordination: these workers share no limits)
        self.app.outbox.cluster = OnlyClaims()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.app.outbox.drain()
        await self.app.publisher.settled()
        try:
            await self.app.outbox.close()
        except Died:  # its outbox died with it: nothing of it runs any more
            pass
        self.app.publisher.pictures.close()
        await self.app.service.close()

    async def own(self, chat_id: int) -> None:
        """Become the chat's owner (its lease moves here)."""
        me = self.cluster.worker_id

        def move(conn):
            done = conn.execute(update(ChatLease.__table__)
                                .where(ChatLease.__table__.c.chat_id == chat_id)
                                .values(owner=me)).rowcount
            if not done:
                conn.execute(insert(ChatLease.__table__).values(
                    chat_id=chat_id, owner=me, epoch=1, since=time.time()))

        await self.db.write(move)

    async def claim(self) -> list[cl.InboxRow]:
        return await self.db.write(cl.inbox_claim, self.cluster.worker_id, time.time())

    async def process(self, rows: list[cl.InboxRow]) -> None:
        for row in rows:
            await self.cluster.process(row, feeder(self.dp, self.bot))
        await self.app.outbox.drain()
        await self.app.publisher.settled()


class OnlyClaims:
    """The outbox's coordination of a worker whose limits are its own: it only claims
    (:func:`service.once.sending`)."""

    def check(self) -> None:
        pass

    async def shared(self, chat_id: int) -> float:
        return 0.0

    def claim(self):
        return once.sending()


def _command(update_id: int, person: Person, chat_id: int, words: str) -> dict:
    chat = (Chat(id=chat_id, type="supergroup", title="Домино") if chat_id < 0
            else Chat(id=chat_id, type="private", first_name=person.first_name))
    msg = Message(message_id=700000 + update_id, date=int(time.time()), chat=chat,
                  from_user=person.user, text=words,
                  entities=[MessageEntity(type="bot_command", offset=0,
                                          length=len(words.split()[0]))])
    return Update(update_id=update_id, message=msg).model_dump(
        mode="json", exclude_none=True, by_alias=True)


async def _lobby(w: Worker) -> int:
    res = await w.app.service.lobbies.open_lobby(GROUP, None, OLYA.id, OLYA.first_name, {})
    assert res.ok, res
    return res.match_id


async def _seats(w: Worker, match_id: int) -> list[dict]:
    return (await w.db.read(repo.get_match, match_id)).seats


async def _pending(w: Worker) -> int:
    return await w.db.read(lambda c: c.execute(
        text("SELECT count(*) FROM inbox WHERE done_at IS NULL")).scalar())


@pytest.mark.parametrize("dies", ["after the change", "inside the change"])
async def test_a_command_whose_worker_died_is_applied_exactly_once(store_url, monkeypatch,
                                                                   dies):
    """``/addbot`` stored in the inbox, its worker dies after the seat was committed (before
    anything after the handler ran) or inside that transaction (rolled back); the next
    owner, a fresh process, takes the chat and processes what is pending: one computer
    player is seated either way, and nothing is left pending."""
    tg = FakeTelegram()
    async with Worker(store_url, tg) as first, Worker(store_url, tg) as second:
        match_id = await _lobby(first)
        await first.own(GROUP)
        payload = _command(301, OLYA, GROUP, "/addbot easy")
        assert await first.db.write(cl.inbox_put, 301, GROUP, payload, time.time())
        rows = await first.claim()
        assert [r.update_id for r in rows] == [301]

        with monkeypatch.context() as m:
            if dies == "after the change":
                def die(*_a, **_k):
                    raise Died
                m.setattr(cl, "inbox_done", die)  # the step after the handler
            else:
                real = repo.update_match

                def die(conn, *a, **k):
                    real(conn, *a, **k)
                    raise Died  # inside the transaction, before its commit
                m.setattr(repo, "update_match", die)
            with pytest.raises(Died):
                await first.process(rows)
        committed = len(await _seats(first, match_id))
        assert committed == (2 if dies == "after the change" else 1)

        await second.own(GROUP)
        await second.process(await second.claim())
        seats = await _seats(second, match_id)
        assert len(seats) == 2, seats
        assert await _pending(second) == 0
        # a resend of the update by Telegram is not stored again
        assert not await second.db.write(cl.inbox_put, 301, GROUP, payload, time.time())
        assert await second.claim() == []


async def test_a_frozen_worker_cannot_apply_an_update_its_chat_s_new_owner_claimed(store_url):
    """The owner claims ``/addbot`` and freezes before processing it; its chat moves and the
    new owner claims the update too.  The frozen one, thawed, runs it: its change is rolled
    back (the update is not its own any more) and it marks nothing; the new owner applies
    it: one computer player."""
    tg = FakeTelegram()
    async with Worker(store_url, tg) as frozen, Worker(store_url, tg) as taker:
        match_id = await _lobby(frozen)
        await frozen.own(GROUP)
        payload = _command(302, OLYA, GROUP, "/addbot easy")
        await frozen.db.write(cl.inbox_put, 302, GROUP, payload, time.time())
        stale_rows = await frozen.claim()
        await taker.own(GROUP)
        rows = await taker.claim()
        assert [r.update_id for r in rows] == [302]
        await frozen.process(stale_rows)
        assert len(await _seats(frozen, match_id)) == 1
        assert await _pending(frozen) == 1
        await taker.process(rows)
        assert len(await _seats(taker, match_id)) == 2
        assert await _pending(taker) == 0


def _replies(tg: FakeTelegram, chat_id: int, words: str) -> int:
    """How many messages of ``chat_id`` contain ``words``."""
    return sum(1 for m in tg.chat(chat_id) if words in m.text)


def _help_words(w: Worker) -> str:
    """A line of the group's /help answer, to count the answers by."""
    from ui import render
    return render.render_help("ru", is_group=True, tr=w.app.tr).splitlines()[0]


async def test_a_reply_whose_worker_died_before_the_mark_is_sent_once(store_url,
                                                                       monkeypatch):
    """``/help`` changes no game.  Its worker's outbox sends the answer, and the worker dies
    before the mark after the handler; the next owner takes the chat: the update was marked
    done before the answer went out, so it does not answer again (one answer, nothing
    pending).  Before, the update was still pending and was answered twice."""
    tg = FakeTelegram()
    async with Worker(store_url, tg) as first, Worker(store_url, tg) as second:
        await first.own(GROUP)
        payload = _command(311, OLYA, GROUP, "/help")
        await first.db.write(cl.inbox_put, 311, GROUP, payload, time.time())
        rows = await first.claim()
        with monkeypatch.context() as m:
            def die(*_a, **_k):
                raise Died
            m.setattr(cl, "inbox_done", die)  # the step after the handler
            with pytest.raises(Died):
                await first.process(rows)
            await first.app.outbox.drain()  # the request its outbox made before the death
        words = _help_words(first)
        assert _replies(tg, GROUP, words) == 1
        await second.own(GROUP)
        await second.process(await second.claim())
        assert _replies(tg, GROUP, words) == 1
        assert await _pending(second) == 0


async def test_a_reply_whose_worker_died_between_its_mark_and_its_request_is_not_sent_again(
        store_url, monkeypatch):
    """At most once: the worker marks ``/help`` done and dies as its request is made (the
    request never reaches Telegram); the next owner finds nothing pending and answers
    nothing -- the person asks again."""
    tg = FakeTelegram()
    async with Worker(store_url, tg) as first, Worker(store_url, tg) as second:
        await first.own(GROUP)
        payload = _command(312, OLYA, GROUP, "/help")
        await first.db.write(cl.inbox_put, 312, GROUP, payload, time.time())
        rows = await first.claim()
        made = []
        with monkeypatch.context() as m:
            def die(*_a, **_k):
                raise Died

            async def die_sending(**kwargs):
                made.append(kwargs["chat_id"])
                raise Died
            m.setattr(first.bot, "send_message", die_sending)
            m.setattr(cl, "inbox_done", die)
            with pytest.raises(Died):
                await first.process(rows)
            await first.app.outbox.drain()
        assert made == [GROUP]  # the answer's request was being made
        await second.own(GROUP)
        assert await second.claim() == []
        assert _replies(tg, GROUP, _help_words(second)) == 0
        assert await _pending(second) == 0


async def test_a_frozen_worker_does_not_answer_an_update_its_chat_s_new_owner_claimed(
        store_url):
    """The owner claims ``/help`` and freezes; the chat moves and the new owner claims it
    too.  The frozen one, thawed, runs it: its answer is dropped before the request (the
    update is not its own any more); the new owner answers: one answer."""
    tg = FakeTelegram()
    async with Worker(store_url, tg) as frozen, Worker(store_url, tg) as taker:
        await frozen.own(GROUP)
        payload = _command(313, OLYA, GROUP, "/help")
        await frozen.db.write(cl.inbox_put, 313, GROUP, payload, time.time())
        stale_rows = await frozen.claim()
        await taker.own(GROUP)
        rows = await taker.claim()
        await frozen.process(stale_rows)
        words = _help_words(frozen)
        assert _replies(tg, GROUP, words) == 0
        await taker.process(rows)
        assert _replies(tg, GROUP, words) == 1
        assert await _pending(taker) == 0


async def test_a_solo_match_whose_worker_died_after_its_first_commit_is_dealt(store_url,
                                                                                monkeypatch):
    """``/newgame 1 easy`` in a private chat opens a match against a computer player.  Its
    worker dies right after the first commit that carries the update's done mark: that
    commit both opened and dealt the match, so the next owner, which finds the update done,
    has a match being played (not a lobby left to expire), and only one.  Before, the lobby
    and the deal were two commits, and the death between them left a lobby."""
    tg = FakeTelegram(dm_open={OLYA.id})
    async with Worker(store_url, tg) as first, Worker(store_url, tg) as second:
        await first.own(OLYA.id)
        payload = _command(321, OLYA, OLYA.id, "/newgame 1 easy")
        await first.db.write(cl.inbox_put, 321, OLYA.id, payload, time.time())
        rows = await first.claim()
        real = once.write

        async def die_after_the_mark(db, fn, *args):
            attempt = once.current()
            marks = attempt is not None and not attempt.marked and not attempt.over
            value = await real(db, fn, *args)
            if marks:
                raise Died  # right after the commit that marked the update
            return value

        with monkeypatch.context() as m:
            m.setattr(once, "write", die_after_the_mark)
            with pytest.raises(Died):
                await first.process(rows)
        await second.own(OLYA.id)
        await second.process(await second.claim())
        assert await _pending(second) == 0
        matches = await second.db.read(repo.list_open_matches, OLYA.id)
        assert [(m.status, len(m.seats)) for m in matches] == [("playing", 2)]
        assert matches[0].seed is not None and matches[0].version == 1


async def test_a_mini_app_move_waits_behind_the_chat_s_telegram_updates_that_came_first(
        store_url):
    """The player to move presses a move button (a Telegram update, stored first), and a
    page then sends a move of the same turn (a Mini App action, whose key is negative): the
    chat's owner takes them in the order they came, so the press is accepted and the page's
    move is answered as stale.  Before, the negative key put the page's move first."""
    tg = FakeTelegram(dm_open={OLYA.id, PETYA.id})
    async with Worker(store_url, tg) as w:
        svc = w.app.service
        svc.lobbies.seed_source = lambda: 7
        res = await svc.lobbies.open_lobby(GROUP, None, OLYA.id, OLYA.first_name, {})
        assert (await svc.lobbies.join(res.match_id, PETYA.id, PETYA.first_name)).ok
        res = await svc.lobbies.start(res.match_id, OLYA.id)
        assert res.ok, res
        await w.app.publisher.publish(res)
        await w.app.outbox.drain()
        await w.app.publisher.settled()
        mover = next(p for p in (OLYA, PETYA) if p.id == res.table.to_act_user_id)
        hand = next(m for m in reversed(tg.chat(mover.id)) if m.move_buttons())
        press = Update(update_id=401, callback_query=CallbackQuery(
            id="9401", from_user=mover.user, chat_instance="ci", data=hand.move_buttons()[0]
            .callback_data, message=Message(message_id=hand.message_id, date=int(time.time()),
                                            chat=Chat(id=mover.id, type="private"),
                                            from_user=BOT, text="hand")))
        legal = res.hand_for(mover.id).legal
        page_move = [{"tile": p.tile, "end": p.end, "closed": p.closed, "along": p.along}
                     for p in legal[-1].placements]
        key = action_id(mover.id, res.match_id, res.version, page_move)
        page = {"update_id": key, WEBAPP_ACTION: {"m": res.match_id, "user": mover.id,
                                                  "version": res.version,
                                                  "placements": page_move}}
        await w.own(GROUP)
        assert await w.db.write(cl.inbox_put, 401, GROUP, press.model_dump(
            mode="json", exclude_none=True, by_alias=True), time.time())
        assert await w.db.write(cl.inbox_put, key, GROUP, page, time.time())
        rows = await w.claim()
        assert [r.update_id for r in rows] == [401, key]
        await w.process(rows)
        assert await _pending(w) == 0
        done, stored = await w.db.read(cl.inbox_outcome, key)
        assert done and stored["outcome"] == {"ok": False, "error": "stale"}
        after = await svc.store.view(res.match_id, fresh=True)
        assert after.version == res.version + 1
