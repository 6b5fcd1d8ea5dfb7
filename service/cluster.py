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
- Every worker holds a session advisory lock on its id while it lives; its leases are
  renewed by a heartbeat every ``lease / 4`` seconds.  A killed worker's lock is freed by
  PostgreSQL at once, and any worker takes its chats on the next tick; a frozen one
  (SIGSTOP) keeps the lock, and its chats are taken when their leases expire.
- Fencing: a worker that finds it has not renewed its leases for ``lease`` seconds (it was
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


class Cluster:
    """One worker's membership of the cluster over ``db`` (PostgreSQL).

    ``worker_id``: a positive 31-bit id (random by default); ``lease``: seconds a chat's
    lease lasts without a heartbeat (a frozen worker's chats move after it); ``tick``:
    seconds between two looks at the inbox when idle; ``take``: most chats taken per tick
    (so that workers share new chats); ``clock``: Unix seconds; ``exit``: called with
    :data:`FENCED_EXIT` when fenced out (``os._exit``; None raises :class:`FencedOut`);
    ``private_burst``, ``chat_interval`` and ``global_per_second``: Telegram's limits that
    all workers keep together (:meth:`shared`); ``metrics``: where it counts (the service's).

    It is the outbox's coordination (``delivery.outbox.Coordination``): :meth:`check`,
    :meth:`shared` and :meth:`claim`.
    """

    def __init__(self, db: Database, *, worker_id: int | None = None, lease: float = 5.0,
                 tick: float = 0.05, take: int = 4, clock: Callable[[], float] = time.time,
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
        self.tick = tick
        self.take = take
        self.clock = clock
        self.exit = exit
        #: The chats this worker owns, as of its last heartbeat or take.
        self.owned: set[int] = set()
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
        self.wake = asyncio.Event()
        self._backlog = 0
        self._backlog_at = -BACKLOG_EVERY

    # -- membership --------------------------------------------------------------------------

    async def start(self) -> None:
        """Take this worker's liveness lock.  ``db``'s sessions should carry the
        ``application_name`` of this worker (:func:`worker_url`), so that another worker can
        end them once this one is frozen past its lease.  Raises ``RuntimeError`` when a live
        worker holds the id."""
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
        self._renewed = time.monotonic()
        log.info("worker %s joined the cluster", self.worker_id)

    async def stop(self) -> None:
        """Leave: wait for the updates being processed, hand the chats back (their leases
        expire now, so other workers take them at once), free the liveness lock."""
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        try:
            released = await self.db.write(cl.renew_leases, self.worker_id, self.clock(),
                                           -self.lease)
            self.metrics.leases_released.inc(len(released))
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
        """Seconds since the leases were last renewed (readiness fails past ``lease``)."""
        return time.monotonic() - self._renewed

    def check(self) -> None:
        """Fencing: exit (or raise :class:`FencedOut`) when the leases were last renewed more
        than ``lease`` seconds ago -- the worker was frozen or cut off, and its chats may have
        an owner again."""
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
        sweeper, :class:`service.deadlines.Deadlines`)."""
        return cl.due_owned(conn, self.worker_id, now, limit)

    # -- the loop ----------------------------------------------------------------------------

    async def run(self, handle: Callable[[dict[str, Any]], Awaitable[Any]],
                  on_taken: Callable[[int], Awaitable[Any]] | None = None, *,
                  stop: asyncio.Event | None = None) -> None:
        """Own chats and process their updates until ``stop`` is set: every ``lease / 4``
        seconds renew the leases; every tick (or at once when woken) take chats that need an
        owner (``on_taken(chat_id)`` runs before any of its updates: the publisher shows its
        matches as they are) and hand each chat's pending updates to ``handle(payload)`` in
        their order of arrival, one chat's one at a time.  ``handle``'s errors are logged and
        the update is done (a broken update must not block its chat)."""
        stop = stop or asyncio.Event()
        # no lease is held before the first take: a slow start-up (the webhook set, the
        # menus registered, on a busy machine) is no silence to be fenced out for
        self._renewed = time.monotonic()
        heart = asyncio.create_task(self._heartbeat(stop))
        try:
            while not stop.is_set():
                taken: list[int] = []
                try:
                    now = self.clock()
                    taken = await self.db.write(cl.take_leases, self.worker_id, now,
                                                self.lease, now + 1.0, self.take)
                    self.metrics.takeovers.inc(len(taken))
                    for chat_id in taken:
                        self.owned.add(chat_id)
                        self._forget(chat_id)
                        if on_taken is not None:
                            self._healing[chat_id] = asyncio.create_task(
                                self._take(chat_id, on_taken))
                    if self.owned:
                        self._dispatch(await self.db.write(cl.inbox_claim, self.worker_id,
                                                           now), handle)
                except Exception:
                    log.exception("worker %s: cluster tick failed", self.worker_id)
                self.wake.clear()
                if not taken:  # more chats may be waiting for an owner
                    try:
                        await asyncio.wait_for(self.wake.wait(), self.tick)
                    except TimeoutError:
                        pass
        finally:
            heart.cancel()
            await asyncio.gather(heart, *self._healing.values(), *self._tasks.values(),
                                 return_exceptions=True)

    async def _heartbeat(self, stop: asyncio.Event) -> None:
        """Renew the leases every ``lease / 4`` seconds, beside everything else (a takeover
        that takes long must not let this worker's own leases lapse); every
        :data:`PURGE_EVERY` seconds also forget the updates done more than
        :data:`KEEP_DONE` seconds ago."""
        purged = time.monotonic()
        while not stop.is_set():
            started = time.monotonic()
            try:
                held = await self.db.write(cl.renew_leases, self.worker_id, self.clock(),
                                           self.lease)
                self.check()
                self._renewed = started
                self.owned = set(held)
                self.metrics.chats_owned.set(len(held))
                self.metrics.lease_renewal.observe(time.monotonic() - started)
                if started - purged >= PURGE_EVERY:
                    purged = started
                    await self.db.write(cl.inbox_purge, self.clock() - KEEP_DONE)
            except FencedOut:
                raise
            except Exception:
                log.exception("worker %s: heartbeat failed", self.worker_id)
            await asyncio.sleep(max(0.0, started + self.lease / 4 - time.monotonic()))

    async def _take(self, chat_id: int, on_taken: Callable[[int], Awaitable[Any]]) -> None:
        try:
            await on_taken(chat_id)
        except Exception:
            log.exception("chat %s: taking it over failed", chat_id)
        finally:
            self._healing.pop(chat_id, None)

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
            self.wake.set()

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

    # -- shared limits -----------------------------------------------------------------------

    async def shared(self, chat_id: int) -> float:
        """The outbox's shared limit: before a request to ``chat_id``, take a token of the
        private chat's bucket (``private_burst``, one per ``chat_interval``; groups are
        counted by their owner alone) and of the bot's global one (``global_per_second``),
        in the database, so that all workers together keep Telegram's limits.  0.0 when the
        request may go, else the seconds to wait."""
        rate = 1.0 / self.chat_interval if self.chat_interval > 0 else 1e9

        def both(conn: Any, now: float) -> float:
            if chat_id > 0:
                wait = cl.take_token(conn, chat_id, now, capacity=self.private_burst,
                                     per_second=rate)
                if wait > 0:
                    return wait
            return cl.take_token(conn, cl.GLOBAL_BUCKET, now,
                                 capacity=self.global_per_second,
                                 per_second=self.global_per_second)

        return await self.db.write(both, self.clock())

    def claim(self) -> Callable[[], Awaitable[bool]] | None:
        """The outbox's claim of a message queued now: :func:`service.once.sending` (the
        update being processed is marked done right before the message is sent)."""
        return once.sending()
