"""Several identical workers over one PostgreSQL database (issue 22, "Workers").

The shape: **one owner worker per chat**, an **inbox** of updates, and **leases** that a
killed or frozen owner loses.

- Any worker that receives an update stores it (:meth:`Cluster.receive`: once per
  ``update_id``) before the webhook is answered; its route is the chat whose owner
  processes it (a press on a private hand message goes to its match's group).
- The owner of a chat takes the chat's updates in their order of arrival (``inbox.seq``; a
  Mini App action among the Telegram updates) and hands them, one at a time, to the
  dispatcher (:meth:`Cluster.run`); other chats run side by side.  Only the
  owner fires the deadlines of its chats' matches (:meth:`Cluster.due`), so each computer
  player's decision is computed by one worker.  Everything a single process keeps in memory
  for a match (the cached match and its lock, the publisher's message ids, the group's send
  window in the outbox) stays right, because one process alone touches the chat.
- Only chats with work are leased: a chat is taken when an update or a deadline comes for it
  with no live owner, and given back when it falls idle (no open lobby or match, nothing
  pending, nothing to send for :data:`IDLE_AFTER` seconds).  Idle chats cost nothing.
- Every worker holds a session advisory lock on its id while it lives and keeps one row of
  its own fresh (a heartbeat every ``lease / 3`` seconds: one statement whatever the number
  of its chats), which keeps all its leases alive.  A killed worker's lock is freed by
  PostgreSQL at once, and any worker takes its chats at its next heartbeat (or the next
  update of one of them); a frozen one (SIGSTOP) keeps the lock, and its chats are taken
  when its row expires.
- Wake-up by ``LISTEN``/``NOTIFY``: a stored update tells its chat's owner (or, with none,
  every worker) at commit; the heartbeat is the slow poll behind it.  An idle worker asks
  the database one statement per heartbeat, nothing more.
- Sharing: each worker knows from its heartbeat how many workers live and how many chats
  they own; a worker over its share (the chats over the workers) hands quiet chats back to
  be taken by one under it (a worker that joins gets its share; a rolling restart does not
  pile every chat on the last worker standing), and a worker that stops hands back all its
  chats, each as soon as nothing of it is left to send.
- Telegram's global rate: each worker sends at its share of it (``global_per_second`` over
  the live workers, less a margin :data:`GLOBAL_MARGIN`) from a bucket in memory -- no row
  written per request; a private chat's bucket, which the owners of several groups draw
  on, stays a row, refilled at the margin's rate, so requests that reach Telegram late
  after a takeover or a stall still fall within its limit.
- Fencing: a worker that finds it has not renewed its row for ``lease`` seconds (it was
  frozen, or lost the database) exits at once (:meth:`Cluster.check`, called before every
  update it processes and every request its outbox makes), so it never acts on a chat that
  has changed hands.  A restart (the process manager's) makes it a fresh worker.
- Exactly once: the game change an update makes and the update's done mark commit in one
  transaction (:mod:`service.once`), so a worker that dies after the change has marked the
  update, and the next owner does not run it again; one that dies before has done neither.
  An update that changes no game (a reply, a refusal) is marked done right before its
  first message is sent (:func:`service.once.mark`), so its reply is sent at most once.

On SQLite (a single process) none of this runs: updates go to the dispatcher directly, as
before.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from service import once
from service.metrics import Metrics
from storage import Database
from storage import cluster as cl

__all__ = ["Cluster", "FencedOut", "WorkerOptions", "new_worker_id", "worker_url"]

log = logging.getLogger(__name__)

#: Seconds a processed update is kept, so that Telegram's resend of it is recognised (it
#: resends an update for at most a day).
KEEP_DONE = 86_400.0
#: Seconds between two purges of the processed updates older than :data:`KEEP_DONE`.
PURGE_EVERY = 600.0
#: How many of its latest processed update ids a worker remembers (see ``Cluster._finished``).
FINISHED_KEPT = 10_000
#: Seconds a worker keeps its count of the cluster's pending updates (:meth:`Cluster.backlog`).
BACKLOG_EVERY = 1.0
#: Exit status of a worker fenced out (EX_TEMPFAIL: the process manager restarts it).
FENCED_EXIT = 75
#: Seconds a chat stays leased with nothing to do (no update, nothing to send) before its
#: owner looks whether it fell idle (no open lobby or match) and gives it back.
IDLE_AFTER = 10.0
#: Seconds before a chat found busy (an open match waiting for a person) is looked at again,
#: unless something happens in it first.
RECHECK_BUSY = 60.0
#: The part of Telegram's rate of a private chat the workers use together (its shared bucket
#: refills at this fraction), so a request that reaches Telegram late (a stalled process, a
#: takeover's redraw of every hand) still falls within its limit.
RATE_MARGIN = 0.8
#: Seconds between two looks of a worker's deadlines' sweeper when nothing woke it (its
#: chats' deadlines are set by this worker, which wakes it, or found when a chat is taken).
SWEEP_EVERY = 5.0
#: Seconds a worker woken by a notification waits for more before it claims (one claim
#: serves the updates stored meanwhile).
CLAIM_GATHER = 0.025
#: The part of Telegram's global rate the workers use together (each sends at most its share
#: of it, from a bucket of one token): an allowance for a worker that joined while the others
#: still count fewer workers, and for requests that reach Telegram later than they were let
#: go.
GLOBAL_MARGIN = 0.75
#: Seconds a chat handed back waits for a worker under its share before any worker takes it.
FREE_AFTER = 1.0


def new_worker_id() -> int:
    """A random worker id (31 bits, positive)."""
    return random.randrange(1, 2**31)


def worker_url(url: str, worker_id: int) -> str:
    """``url`` (a PostgreSQL URL) with the ``application_name`` of worker ``worker_id``."""
    from sqlalchemy.engine import make_url

    from storage.database import database_url

    u = make_url(database_url(url))
    return u.update_query_dict({"application_name": cl.application_name(worker_id)}
                               ).render_as_string(hide_password=False)


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    """How a worker of a cluster is set up: its id (None: a random one), its chats' lease
    [seconds], and Telegram's limits all workers keep together (a private chat's burst and
    interval [seconds], the bot's requests a second)."""

    worker_id: int | None = None
    lease: float = 5.0
    private_burst: int = 3
    chat_interval: float = 1.0
    global_per_second: int = 30


class FencedOut(RuntimeError):
    """Raised by :meth:`Cluster.check` (when ``exit`` is None) once the leases are lost."""


class _Peers:
    """The part of :class:`Cluster` that deals with the other workers: their notifications
    (:meth:`_listen`), the chats given back when idle or over this worker's share
    (:meth:`tidy`, :meth:`hand_back`) and Telegram's rates shared out (:meth:`shared`)."""

    db: Database
    metrics: Metrics
    worker_id: int
    lease: float
    take: int
    idle_after: float
    clock: Callable[[], float]
    owned: set[int]
    live: int
    cluster_owned: int
    private_burst: int
    chat_interval: float
    global_per_second: int
    quiet: Callable[[int], bool]
    check: Callable[[], None]
    _active: dict[int, float]
    _busy_until: dict[int, float]
    _taken_at: dict[int, float]
    _tasks: dict[int, asyncio.Task]
    _queues: dict[int, deque[cl.InboxRow]]
    _healing: dict[int, asyncio.Task]
    _bucket: tuple[float, float]
    _joined: float
    _want_take: bool
    _want_claim: bool
    wake: asyncio.Event

    async def _listen(self) -> None:
        """Follow the database's notifications (:func:`storage.cluster.notifications`) for
        as long as the worker runs; when the connection breaks, listen again a second later
        (the heartbeat looks for what was missed meanwhile)."""
        while True:
            try:
                async for note in cl.notifications(self.db.url):
                    self._notified(note)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("worker %s: listening failed, again in 1 s", self.worker_id,
                            exc_info=True)
            await asyncio.sleep(1.0)

    def _notified(self, note: str) -> None:
        """One notification: ``u:<chat>:<owner>`` an update stored (claim it when this
        worker owns the chat, take the chat when it has no owner), ``f:<worker>`` chats
        handed back by another worker, ``""`` listening (began) anew: look at everything."""
        kind, _, rest = note.partition(":")
        if kind == "u":
            chat, _, owner = rest.partition(":")
            try:
                chat_id, owner_id = int(chat), int(owner)
            except ValueError:
                return
            if chat_id in self.owned:
                self._want_claim = True
            elif owner_id == self.worker_id:
                self._want_claim = True
            elif owner_id == 0:
                self._want_take = True
            else:
                return
        elif kind == "f":
            if rest == str(self.worker_id):
                return
            self._want_take = True
        else:
            self._want_take = self._want_claim = True
        self.wake.set()

    async def hand_back(self, chats: list[int] | None) -> list[int]:
        """Give back ``chats`` (None: every chat this worker owns): an idle one is simply
        given back, one with an open match is marked as needing an owner and the workers
        are told, so that one takes it at once.  Returns the chats that left."""
        if chats is not None and not chats:
            return []
        gone = await self.db.write(cl.hand_back, self.worker_id, chats, self.clock())
        for chat_id in gone:
            self._drop(chat_id)
        self.metrics.leases_released.inc(len(gone))
        self.metrics.chats_owned.set(len(self.owned))
        return gone

    def _drop(self, chat_id: int) -> None:
        """A chat given back."""
        self.owned.discard(chat_id)
        for book in (self._active, self._busy_until, self._taken_at):
            book.pop(chat_id, None)

    def _quiet(self, chat_id: int) -> bool:
        """Whether nothing is happening in an owned chat: no update queued or being
        processed, not being shown, nothing left to send."""
        return (chat_id not in self._tasks and chat_id not in self._queues
                and chat_id not in self._healing and self.quiet(chat_id))

    async def tidy(self) -> None:
        """Give back the owned chats that fell idle (nothing happened in them for
        ``idle_after`` seconds and they have no open lobby or match; a chat found busy is
        looked at again after :data:`RECHECK_BUSY` seconds or once something happens in
        it), then hand on quiet chats over this worker's share (the chats the live workers
        own over their number, rounded up) -- at most ``take`` a heartbeat, none taken
        within the last ``lease`` seconds -- for a worker under its share to take."""
        mono = time.monotonic()
        idle = [c for c in self.owned
                if mono - self._active.get(c, mono) >= self.idle_after
                and self._busy_until.get(c, 0.0) <= mono and self._quiet(c)]
        if idle:
            gone = await self.db.write(cl.release_idle, self.worker_id, idle)
            for chat_id in gone:
                self._drop(chat_id)
            for chat_id in set(idle) - set(gone):
                self._busy_until[chat_id] = mono + RECHECK_BUSY
            self.metrics.leases_released.inc(len(gone))
            self.metrics.chats_owned.set(len(self.owned))
        if self.live > 1:
            share = -(-self.cluster_owned // self.live)
            over = len(self.owned) - share
            if over > 0:
                spare = [c for c in self.owned
                         if mono - self._taken_at.get(c, 0.0) >= self.lease
                         and self._quiet(c)][:min(over, self.take)]
                if spare:
                    gone = await self.hand_back(spare)
                    log.info("worker %s handed on %d chats over its share of %d",
                             self.worker_id, len(gone), share)

    # -- shared limits -----------------------------------------------------------------------

    async def shared(self, chat_id: int) -> float:
        """The outbox's shared limit before a request to ``chat_id``: a private chat's bucket
        (``private_burst``, one per ``chat_interval`` less :data:`RATE_MARGIN`; groups are
        counted by their owner alone) is a row, as the owners of several groups send to one
        private chat; the bot's global rate is shared out: this worker sends at most
        ``global_per_second`` × :data:`GLOBAL_MARGIN` over the live workers a second, from
        a bucket in memory (no row per request: :meth:`_global_wait`).  0.0 when the
        request may go, else the seconds to wait."""
        wait = self._global_wait()
        if wait > 0:
            return wait
        if chat_id > 0:
            rate = RATE_MARGIN / self.chat_interval if self.chat_interval > 0 else 1e9
            wait = await self.db.write(
                lambda conn, now: cl.take_token(conn, chat_id, now,
                                                capacity=self.private_burst, per_second=rate),
                self.clock())
            if wait > 0:
                return wait
        self.check()  # a worker frozen while it waited sends nothing once its chats moved
        tokens, at = self._bucket
        self._bucket = (tokens - 1.0, at)
        return 0.0

    def _global_wait(self) -> float:
        """Seconds until this worker's share of the global rate has a token (0.0: it has;
        the token is spent by :meth:`shared` once the request may go).  The share is
        ``global_per_second`` × :data:`GLOBAL_MARGIN` over the live workers, half of it in
        the first lease after joining (the others go on at their larger share until their
        next heartbeat counts this one), and the bucket holds one token: no burst, so the
        workers together never send more than Telegram's global rate in any second."""
        rate = self.global_per_second * GLOBAL_MARGIN / max(1, self.live)
        if time.monotonic() - self._joined < self.lease:
            rate /= 2
        if rate <= 0:
            return 0.0
        tokens, at = self._bucket
        now = time.monotonic()
        tokens = min(1.0, tokens + (now - at) * rate)
        self._bucket = (tokens, now)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / rate


class Cluster(_Peers):
    """One worker's membership of the cluster over ``db`` (PostgreSQL).

    ``worker_id``: a positive 31-bit id (random by default); ``lease``: seconds a worker
    lives without a heartbeat (a frozen worker's chats move after it; the heartbeat runs
    every ``lease / 3``); ``take``: most chats taken at once (so that workers share new
    chats); ``idle_after``: seconds with nothing to do before a chat is given back if it
    has no open match; ``clock``: Unix seconds; ``exit``: called with :data:`FENCED_EXIT`
    when fenced out (``os._exit``; None raises :class:`FencedOut`); ``private_burst``,
    ``chat_interval`` and ``global_per_second``: Telegram's limits that all workers keep
    together (:meth:`shared`); ``metrics``: where it counts (the service's).  ``quiet``:
    ``quiet(chat_id)`` is True when nothing is left to send for the chat (the outbox's; a
    chat is given back only then).

    It is the outbox's coordination (``delivery.outbox.Coordination``): :meth:`check`,
    :meth:`shared` and :meth:`claim`.
    """

    def __init__(self, db: Database, *, worker_id: int | None = None, lease: float = 5.0,
                 take: int = 4, idle_after: float = IDLE_AFTER,
                 clock: Callable[[], float] = time.time,
                 exit: Callable[[int], Any] | None = os._exit, private_burst: int = 3,
                 chat_interval: float = 1.0, global_per_second: int = 30,
                 metrics: Metrics | None = None) -> None:
        self.db = db
        self.metrics = metrics or Metrics()
        self.private_burst = private_burst
        self.chat_interval = chat_interval
        self.global_per_second = global_per_second
        self.worker_id = worker_id or new_worker_id()
        self.lease = lease
        self.take = take
        self.idle_after = idle_after
        self.clock = clock
        self.exit = exit
        self.quiet: Callable[[int], bool] = lambda chat_id: True
        #: The chats this worker owns (it alone takes and gives back its leases; another
        #: worker takes them only once this one is fenced out).
        self.owned: set[int] = set()
        #: Live workers and the chats they own, as of the last heartbeat.
        self.live = 1
        self.cluster_owned = 0
        self._renewed = time.monotonic()
        self._lock_conn: Any = None
        self._lock_engine: Any = None
        self._queues: dict[int, deque[cl.InboxRow]] = {}
        self._queued: set[int] = set()
        self._tasks: dict[int, asyncio.Task] = {}
        self._healing: dict[int, asyncio.Task] = {}
        #: Update ids this worker processed lately: a claim read before their done mark
        #: committed still returns them, and they must not run again.
        self._finished: OrderedDict[int, None] = OrderedDict()
        #: Monotonic time of the last thing that happened in each owned chat, and until
        #: when a chat found busy is not looked at again.
        self._active: dict[int, float] = {}
        self._busy_until: dict[int, float] = {}
        self._taken_at: dict[int, float] = {}
        self.wake = asyncio.Event()
        self._want_take = True
        self._want_claim = True
        #: Chats leased to this worker's id when it started (a restart after a crash).
        self._adopt: list[int] = []
        self._heart: asyncio.Task | None = None
        self._backlog = 0
        self._backlog_at = -BACKLOG_EVERY
        #: This worker's bucket of the global rate: (tokens, monotonic time).
        self._bucket = (0.0, time.monotonic())
        self._joined = time.monotonic()

    # -- membership --------------------------------------------------------------------------

    async def start(self) -> None:
        """Take this worker's liveness lock and write its first heartbeat.  ``db``'s sessions
        should carry the ``application_name`` of this worker (:func:`worker_url`), so that
        another worker can end them once this one is frozen past its lease.  Raises
        ``RuntimeError`` when a live worker holds the id."""
        def lock() -> None:
            self._lock_engine = create_engine(self.db.url, poolclass=NullPool)
            conn = self._lock_engine.connect()
            got = conn.execute(text("SELECT pg_try_advisory_lock(:c, :k)"),
                               {"c": cl.LOCK_CLASS, "k": self.worker_id}).scalar()
            conn.commit()
            if not got:
                conn.close()
                raise RuntimeError(f"worker id {self.worker_id} is held by a live worker")
            self._lock_conn = conn

        await asyncio.to_thread(lock)
        self._joined = time.monotonic()
        self._adopt = await self.db.read(cl.owned_chats, self.worker_id)
        await self.beat()
        # the heartbeat lives as long as the membership: through a stop, while the updates
        # in hand are finished and the outbox drained, the chats are still this worker's
        self._heart = asyncio.create_task(self._heartbeat(asyncio.Event()))
        log.info("worker %s joined the cluster", self.worker_id)

    async def stop(self) -> None:
        """Leave: wait for the updates being processed, hand every chat back (other workers
        take them at once: :meth:`hand_back`), delete this worker's row, free the liveness
        lock."""
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        if self._heart is not None:
            self._heart.cancel()
            await asyncio.gather(self._heart, return_exceptions=True)
        try:
            await self.hand_back(None)
            await self.db.write(cl.leave, self.worker_id)
            self.metrics.chats_owned.set(0)
        except Exception:
            log.warning("the leases could not be handed back", exc_info=True)

        def unlock() -> None:
            if self._lock_conn is not None:
                self._lock_conn.close()
            if self._lock_engine is not None:
                self._lock_engine.dispose()

        await asyncio.to_thread(unlock)

    def heartbeat_age(self) -> float:
        """Seconds since the last heartbeat (readiness fails past ``lease``)."""
        return time.monotonic() - self._renewed

    def check(self) -> None:
        """Fencing: exit (or raise :class:`FencedOut`) when the last heartbeat is more than
        ``lease`` seconds old -- the worker was frozen or cut off, and its chats may have an
        owner again."""
        late = time.monotonic() - self._renewed
        if late > self.lease:
            log.critical("worker %s: no heartbeat for %.1fs, its chats may have moved: exiting",
                         self.worker_id, late)
            if self.exit is None:
                raise FencedOut(f"no heartbeat for {late:.1f}s")
            self.exit(FENCED_EXIT)

    # -- receiving ---------------------------------------------------------------------------

    async def receive(self, update_id: int, chat_id: int, payload: Mapping[str, Any]) -> bool:
        """Store an update for the owner of ``chat_id`` (before the webhook is answered).
        True when it was new, False for a resent ``update_id``."""
        fresh = await self.db.write(cl.inbox_put, update_id, chat_id, payload, self.clock())
        if fresh and chat_id in self.owned:
            self._want_claim = True
            self.wake.set()
        return fresh

    async def submit(self, update_id: int, chat_id: int, payload: Mapping[str, Any], *,
                     timeout: float, poll: float = 0.02) -> dict[str, Any] | None:
        """Store an update made by this worker (a Mini App action: ``handlers.webapp``) for
        the owner of ``chat_id``, as :meth:`receive` does (a resubmitted ``update_id`` is
        stored once), and wait until it is done: its ``outcome`` (what the owner's handler
        returned, :meth:`process`), ``{}`` when it was marked done by the game change it
        made but its worker died before storing the outcome (the change was accepted), None
        after ``timeout`` seconds (its chat has no live owner yet)."""
        await self.receive(update_id, chat_id, payload)
        end = time.monotonic() + timeout
        while True:
            got = await self.db.read(cl.inbox_outcome, update_id)
            if got is not None and got[0]:
                outcome = got[1].get("outcome")
                return dict(outcome) if isinstance(outcome, dict) else {}
            if time.monotonic() >= end:
                return None
            await asyncio.sleep(poll)

    async def backlog(self) -> int:
        """The cluster's updates not yet done (:func:`storage.cluster.inbox_backlog`), asked
        of the database at most once every :data:`BACKLOG_EVERY` seconds (a webhook asks at
        every POST)."""
        now = time.monotonic()
        if now - self._backlog_at >= BACKLOG_EVERY:
            self._backlog_at = now
            self._backlog = await self.db.read(cl.inbox_backlog)
        return self._backlog

    async def versions(self, match_ids: list[int]) -> dict[int, int]:
        """``{match id: version}`` as the database has them now (of those that exist)."""
        return await self.db.read(cl.match_versions, list(match_ids))

    async def match_chat(self, match_id: int) -> int | None:
        """The chat match ``match_id`` is played in (None if unknown)."""
        return await self.db.read(cl.match_chat, match_id)

    def busy(self) -> bool:
        """Whether an update of a chat is being processed here now, or a chat taken over is
        being shown (tests wait for this worker to fall idle)."""
        return any(not t.done() for t in (*self._tasks.values(), *self._healing.values()))

    def due(self, conn: Any, now: float, limit: int = 100) -> list[Any]:
        """The due deadlines of this worker's chats (a ``repository.due_matches`` for the
        sweeper, :class:`service.deadlines.Deadlines`); none asked of the database while it
        owns no chat (an idle worker's sweeper costs nothing)."""
        if not self.owned:
            return []
        return cl.due_owned(conn, self.worker_id, now, limit)

    # -- the loop ----------------------------------------------------------------------------

    async def run(self, handle: Callable[[dict[str, Any]], Awaitable[Any]],
                  on_taken: Callable[[int], Awaitable[Any]] | None = None, *,
                  stop: asyncio.Event | None = None) -> None:
        """Own chats and process their updates until ``stop`` is set.  Woken by the
        database's notifications (an update stored for a chat this worker owns, or for one
        with no owner; chats handed back) and by the heartbeat every ``lease / 3`` seconds
        (the slow poll behind them, which also gives idle chats back and sheds chats over
        this worker's share): take chats that need an owner (``on_taken(chat_id)`` runs
        before any of its updates: the publisher shows its matches as they are) and hand
        each chat's pending updates to ``handle(payload)`` in their order of arrival, one
        chat's one at a time.  ``handle``'s errors are logged and the update is done (a
        broken update must not block its chat)."""
        stop = stop or asyncio.Event()
        ears = asyncio.create_task(self._listen())
        stopping = asyncio.create_task(stop.wait())
        try:
            while not stop.is_set():
                self.wake.clear()
                take, self._want_take = self._want_take, False
                claim, self._want_claim = self._want_claim, False
                try:
                    now = self.clock()
                    if take:
                        taken = await self.db.write(
                            cl.take_leases, self.worker_id, now, now + 1.0, self.take,
                            FREE_AFTER)
                        self.metrics.takeovers.inc(len(taken))
                        for chat_id in taken:
                            self._taken(chat_id, on_taken)
                        if len(taken) >= self.take:  # more may be waiting for an owner
                            self._want_take = True
                        claim = claim or bool(taken)
                    if self._adopt:  # leases this id held before a restart
                        for chat_id in self._adopt:
                            self._taken(chat_id, on_taken)
                        self._adopt = []
                        claim = True
                    if claim:
                        rows = await self.db.write(cl.inbox_claim, self.worker_id, now)
                        for chat_id in {r.chat_id for r in rows} - self.owned:
                            self._taken(chat_id, None)  # leased to this worker meanwhile
                        self._dispatch(rows, handle)
                        if len(rows) >= 200:
                            self._want_claim = True
                except Exception:
                    log.exception("worker %s: cluster tick failed", self.worker_id)
                    await asyncio.sleep(min(1.0, self.lease / 3))
                if not (self._want_take or self._want_claim):
                    waking = asyncio.create_task(self.wake.wait())
                    await asyncio.wait({waking, stopping}, return_when=asyncio.FIRST_COMPLETED)
                    waking.cancel()
                    # updates stored together (a burst, a chat's updates received by two
                    # workers at once) are claimed together, in their order
                    await asyncio.sleep(CLAIM_GATHER)
        finally:
            ears.cancel()
            stopping.cancel()
            await asyncio.gather(ears, *self._healing.values(), *self._tasks.values(),
                                 return_exceptions=True)

    def _taken(self, chat_id: int, on_taken: Callable[[int], Awaitable[Any]] | None) -> None:
        """A chat taken: whatever was queued for it locally is claimed anew, and it is shown
        as it is (``on_taken``) before its updates run."""
        self.owned.add(chat_id)
        self._forget(chat_id)
        self._active[chat_id] = self._taken_at[chat_id] = time.monotonic()
        self.metrics.chats_owned.set(len(self.owned))
        if on_taken is not None:
            self._healing[chat_id] = asyncio.create_task(self._take(chat_id, on_taken))

    async def beat(self) -> cl.Beat:
        """One heartbeat (:func:`storage.cluster.heartbeat`): this worker's row renewed,
        the live workers and their chats counted, work it was not told of noticed."""
        started = time.monotonic()
        now = self.clock()
        got = await self.db.write(cl.heartbeat, self.worker_id, now, self.lease,
                                  len(self.owned), now + 1.0)
        if self.owned:  # chats it held may have moved meanwhile; with none, it just lives on
            self.check()
        self._renewed = started
        self.live, self.cluster_owned = got.live, got.owned
        self.metrics.chats_owned.set(len(self.owned))
        self.metrics.lease_renewal.observe(time.monotonic() - started)
        if got.orphans or got.unclaimed:
            self._want_take = self._want_take or got.orphans
            self._want_claim = self._want_claim or got.unclaimed
            self.wake.set()
        return got

    async def _heartbeat(self, stop: asyncio.Event) -> None:
        """From :meth:`start` to :meth:`stop`, every ``lease / 3`` seconds, beside everything
        else (a takeover that takes long
        must not let this worker's row lapse): the heartbeat (:meth:`beat`), then the chats
        that fell idle given back and those over this worker's share handed on
        (:meth:`tidy`); every :data:`PURGE_EVERY` seconds also forget the updates done more
        than :data:`KEEP_DONE` seconds ago."""
        purged = time.monotonic()
        while not stop.is_set():
            started = time.monotonic()
            try:
                await self.beat()
                await self.tidy()
                if started - purged >= PURGE_EVERY:
                    purged = started
                    await self.db.write(cl.inbox_purge, self.clock() - KEEP_DONE)
            except FencedOut:
                raise
            except Exception:
                log.exception("worker %s: heartbeat failed", self.worker_id)
            await asyncio.sleep(max(0.0, started + self.lease / 3 - time.monotonic()))

    async def _take(self, chat_id: int, on_taken: Callable[[int], Awaitable[Any]]) -> None:
        try:
            await on_taken(chat_id)
        except Exception:
            log.exception("chat %s: taking it over failed", chat_id)
        finally:
            self._healing.pop(chat_id, None)
            self._active[chat_id] = time.monotonic()

    def _dispatch(self, rows: list[cl.InboxRow],
                  handle: Callable[[dict[str, Any]], Awaitable[Any]]) -> None:
        """Queue claimed rows per chat; one draining task per chat."""
        for row in rows:
            if row.update_id in self._queued or row.update_id in self._finished:
                continue
            self._queued.add(row.update_id)
            self._queues.setdefault(row.chat_id, deque()).append(row)
        self.metrics.inbox_pending.set(len(self._queued))
        for row in rows:
            if row.chat_id not in self._tasks and row.chat_id in self._queues:
                self._tasks[row.chat_id] = asyncio.create_task(
                    self._drain(row.chat_id, handle))

    def _forget(self, chat_id: int) -> None:
        """A chat (re)taken: whatever was queued for it locally is claimed anew."""
        for row in self._queues.pop(chat_id, ()):
            self._queued.discard(row.update_id)

    async def _drain(self, chat_id: int, handle: Callable[[dict[str, Any]], Awaitable[Any]]
                     ) -> None:
        """Process one chat's queued updates in order."""
        queue = self._queues.get(chat_id)
        try:
            healing = self._healing.get(chat_id)
            if healing is not None:  # the chat is shown as it is before its updates run
                await asyncio.gather(healing, return_exceptions=True)
            while queue:
                row = queue[0]
                self.metrics.inbox_lag.observe(max(0.0, self.clock() - row.received_at))
                await self.process(row, handle)
                self._finished[row.update_id] = None
                while len(self._finished) > FINISHED_KEPT:
                    self._finished.popitem(last=False)
                queue.popleft()
                self._queued.discard(row.update_id)
                self.metrics.inbox_pending.set(len(self._queued))
        finally:
            self._tasks.pop(chat_id, None)
            if not queue:
                self._queues.pop(chat_id, None)
            self._active[chat_id] = time.monotonic()
            self._busy_until.pop(chat_id, None)

    async def process(self, row: cl.InboxRow,
                      handle: Callable[[dict[str, Any]], Awaitable[Any]]) -> None:
        """Process one claimed update: ``handle(payload)`` inside
        :func:`service.once.processing`, so that the game change it makes commits with the
        update's done mark; then the mark of an update that made none (a reply, a refusal).
        A dict ``handle`` returns is stored with the update as ``payload["outcome"]`` (a Mini
        App action's answer).  An update applied already (:class:`service.once.AlreadyApplied`)
        is left as it is; ``handle``'s other errors are logged and the update is done (a
        broken update must not block its chat)."""
        self.check()
        outcome = None
        attempt = once.Attempt(row.update_id, self.worker_id, self.clock, self.check,
                               self.db)
        try:
            with once.processing(attempt):
                outcome = await handle(row.payload)
        except once.AlreadyApplied:
            log.info("update %s of chat %s was applied already", row.update_id, row.chat_id)
            self.metrics.updates_applied.labels("duplicate").inc()
            return
        except Exception:
            log.exception("update %s of chat %s failed", row.update_id, row.chat_id)
            self.metrics.updates_applied.labels("failed").inc()
        else:
            self.metrics.updates_applied.labels("done").inc()
        self.check()
        payload = ({**row.payload, "outcome": outcome} if isinstance(outcome, dict)
                   else None)
        await once.finish(attempt, lambda: self.db.write(
            cl.inbox_done, row.update_id, self.worker_id, self.clock(), payload))

    def claim(self) -> Callable[[], Awaitable[bool]] | None:
        """The outbox's claim of a message queued now: :func:`service.once.sending` (the
        update being processed is marked done right before the message is sent)."""
        return once.sending()
