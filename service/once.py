"""Exactly once: the done mark of a stored update commits with the game change it makes.

A worker of a cluster (:mod:`service.cluster`) processes an update taken from the inbox
inside :func:`processing`, which tells every game-changing transaction made on its behalf
which update that is.  The first such transaction (:func:`write`: a match's version bump in
``MatchStore.write``, a new lobby in ``Lobbies._open``) also marks the update done
(``storage.cluster.inbox_apply``) in the same commit.  So a worker that dies after the
change has marked the update too, and the next owner never runs it again (a repeated
``/addbot`` would seat a second computer player; a repeated press would be answered as
stale); one that dies before it has done neither, and the next owner runs it once.

A transaction that finds its update done already, or claimed by another worker since (this
one was frozen past its lease and its chat has moved), is rolled back and raises
:class:`AlreadyApplied`: its change never commits twice.  Outside :func:`processing` (a
single process, a deadline, a computer player) :func:`write` is ``db.write``.

A message is the other first effect an update may have (a reply to ``/help``, a refusal,
``/stats``: no game change at all).  The outbox asks :func:`sending` when such a message is
queued, and awaits what it gives right before the request is made: the update is marked done
first (a durable commit, :func:`mark`), so a worker that dies after the request has marked
it, and the next owner does not send the reply again.  Such a reply is sent at most once: a
worker dying between the mark and the request loses it (the person asks again).  A message
queued after the update's change (the publisher's table) needs no mark of its own.  An
update whose message came before its change would write that change unmarked; the handlers
change first and answer after.

Only the first change of an update carries the mark, so an update makes one: a match
against computer players is opened and dealt in one transaction
(``Lobbies.open_solo``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from storage import Database
from storage import cluster as cl

__all__ = ["AlreadyApplied", "Attempt", "mark", "processing", "sending", "write"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class AlreadyApplied(Exception):
    """The update being processed was applied already (its change committed in an earlier
    try) or was claimed by another worker since: nothing was written."""


@dataclass(eq=False)
class Attempt:
    """One try at processing update ``update_id`` by worker ``owner``.  ``clock``: Unix
    seconds; ``check``: the worker's fencing check (raises or exits once its leases are
    lost), called before the change is written; ``db``: where a message's mark is written
    (:func:`mark`; None: messages are not marked).  ``marked``: the update's done mark has
    committed (with a change, before a message, or after the handler); ``over``: the try
    has ended (a task it started writes unmarked).  ``lock`` serialises the marks of one
    try (a change and a message queued before it)."""

    update_id: int
    owner: int
    clock: Callable[[], float]
    check: Callable[[], None]
    db: Database | None = None
    marked: bool = False
    over: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


_CURRENT: ContextVar[Attempt | None] = ContextVar("kozel_update", default=None)


@contextmanager
def processing(attempt: Attempt) -> Iterator[Attempt]:
    """Run the body as ``attempt``: the game changes made in it (and in the tasks it starts,
    while it lasts) carry the done mark of its update."""
    token = _CURRENT.set(attempt)
    try:
        yield attempt
    finally:
        attempt.over = True
        _CURRENT.reset(token)


def current() -> Attempt | None:
    """The try in progress in this task, if any."""
    return _CURRENT.get()


async def write(db: Database, fn: Callable[..., T], *args: Any) -> T:
    """``db.write(fn, *args)`` for a transaction that changes a game: inside
    :func:`processing`, the first one also marks the update done, in the same commit.
    Raises :class:`AlreadyApplied` (``fn``'s writes rolled back) when the update was applied
    already or has moved to another worker, and whatever the fencing check raises."""
    attempt = _CURRENT.get()
    if attempt is None or attempt.marked or attempt.over:
        return await db.write(fn, *args)
    async with attempt.lock:
        if attempt.marked:  # a message queued before this change marked the update
            return await db.write(fn, *args)
        attempt.check()
        now = attempt.clock()

        def txn(conn: Any, *a: Any) -> T:
            if not cl.inbox_apply(conn, attempt.update_id, attempt.owner, now):
                raise AlreadyApplied(f"update {attempt.update_id} was applied already")
            return fn(conn, *a)

        value = await db.write(txn, *args)
        attempt.marked = True
        return value


async def mark(attempt: Attempt) -> bool:
    """Mark ``attempt``'s update done before a message of it is sent (its own durable
    commit).  True when the message may go: the update is marked by this try now or was
    already (its change, an earlier message, the end of its handler).  False -- the message
    must not be sent -- when the update was done by an earlier try (which sent its reply
    already) or has been claimed by another worker since (which answers it), and when the
    mark cannot be written (at most once: a reply is lost rather than sent twice).  Raises
    whatever the fencing check raises."""
    async with attempt.lock:
        if attempt.marked:
            return True
        if attempt.db is None:
            return True
        attempt.check()
        try:
            done = await attempt.db.write(cl.inbox_apply, attempt.update_id, attempt.owner,
                                          attempt.clock())
        except Exception:
            log.exception("update %s: the mark before its reply failed; the reply is dropped",
                          attempt.update_id)
            return False
        if done:
            attempt.marked = True
        else:
            log.info("update %s was applied already: its reply is not sent again",
                     attempt.update_id)
        return done


def sending() -> Callable[[], Awaitable[bool]] | None:
    """For the outbox, when a message is queued: None when no update needs marking for it
    (outside :func:`processing`, the update marked already, the try over), else a coroutine
    function to await right before the request is made (:func:`mark`: False drops the
    request)."""
    attempt = _CURRENT.get()
    if attempt is None or attempt.marked or attempt.over or attempt.db is None:
        return None
    return lambda: mark(attempt)


async def finish(attempt: Attempt, write_done: Callable[[], Awaitable[bool]]) -> None:
    """The handler of ``attempt`` has returned: ``write_done()`` writes the update's done
    mark (``storage.cluster.inbox_done``; True when the update is still this worker's),
    serialised with the marks of its messages, after which a message still queued needs no
    mark of its own."""
    async with attempt.lock:
        if await write_done():
            attempt.marked = True
