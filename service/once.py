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

Only the first change of an update carries the mark: an update whose handling makes a
second one (a solo match: its lobby, then the deal) loses the second when its worker dies
between the two (docs/SCALE_OUT.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from storage import Database
from storage import cluster as cl

__all__ = ["AlreadyApplied", "Attempt", "processing", "write"]

T = TypeVar("T")


class AlreadyApplied(Exception):
    """The update being processed was applied already (its change committed in an earlier
    try) or was claimed by another worker since: nothing was written."""


@dataclass(eq=False)
class Attempt:
    """One try at processing update ``update_id`` by worker ``owner``.  ``clock``: Unix
    seconds; ``check``: the worker's fencing check (raises or exits once its leases are
    lost), called before the change is written.  ``marked``: the change and the mark have
    committed; ``over``: the try has ended (a task it started writes unmarked)."""

    update_id: int
    owner: int
    clock: Callable[[], float]
    check: Callable[[], None]
    marked: bool = False
    over: bool = False


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
    attempt.check()
    now = attempt.clock()

    def txn(conn: Any, *a: Any) -> T:
        if not cl.inbox_apply(conn, attempt.update_id, attempt.owner, now):
            raise AlreadyApplied(f"update {attempt.update_id} was applied already")
        return fn(conn, *a)

    value = await db.write(txn, *args)
    attempt.marked = True
    return value
