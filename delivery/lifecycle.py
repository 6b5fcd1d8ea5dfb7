"""A running bot's life: the updates in hand, the loops that must run, the graceful stop, and
what the probes ask (issue 33, "A graceful stop", "Health, readiness and metrics",
"Backpressure").

One :class:`Lifecycle` per process (the App's ``life``).  Every update the dispatcher handles
is held by :meth:`Lifecycle.update` while it runs, so that a stop waits for the updates in
hand (:meth:`Lifecycle.settled`) and a webhook can say "not now" (:meth:`Lifecycle.busy`)
when too many are; the loops the bot needs (long polling, the deadlines' sweeper, a worker's
owner loop) are named with :meth:`Lifecycle.watch`, and :meth:`Lifecycle.readiness` asks that
they run, that the database answers and is at the newest schema, and that no stop began.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from service.logs import bound

__all__ = ["Lifecycle", "Readiness"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Readiness:
    """What a readiness probe found: ``ready`` and, per check, ``"ok"`` or why not
    (``checks``: ``{"database": …, "schema": …, "loops": …, "stopping": …}``)."""

    ready: bool
    checks: dict[str, str]


class Lifecycle:
    """The updates in hand, the named loops and the stop of one bot process.

    ``max_in_flight``: updates in hand above which :meth:`busy` is True (a webhook answers
    503 and Telegram sends the update again later); ``clock``: monotonic seconds.
    """

    def __init__(self, *, max_in_flight: int = 1000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_in_flight = max_in_flight
        self.clock = clock
        #: Set when a stop began (the first SIGTERM or SIGINT): intake ends, probes fail.
        self.stopping = asyncio.Event()
        self._in_flight: dict[int, float] = {}
        self._next = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: set[asyncio.Task] = set()
        self._loops: dict[str, asyncio.Task] = {}
        self._alive: dict[str, Callable[[], bool]] = {}

    # -- updates in hand ---------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def update(self, update_id: int | None = None, chat_id: int | None = None
                     ) -> AsyncIterator[None]:
        """Hold an update while it is handled (its ids bound to the log lines,
        :func:`service.logs.bound`)."""
        key = self._next
        self._next += 1
        self._in_flight[key] = self.clock()
        self._idle.clear()
        try:
            with bound(update_id=update_id, chat_id=chat_id):
                yield
        finally:
            del self._in_flight[key]
            if not self._in_flight:
                self._idle.set()

    def track(self, task: asyncio.Task) -> asyncio.Task:
        """Hold a task that will handle an update (a webhook's, started before its handler
        holds it with :meth:`update`) until it ends.  Returns ``task``."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @property
    def in_flight(self) -> int:
        """Updates being handled now (or about to be)."""
        return max(len(self._in_flight), len(self._tasks))

    def busy(self) -> bool:
        """Whether a webhook should refuse a new update for now (a stop began, or
        ``max_in_flight`` updates are in hand)."""
        return self.stopping.is_set() or self.in_flight >= self.max_in_flight

    async def settled(self, timeout: float) -> bool:
        """Wait until no update is in hand, at most ``timeout`` seconds; True when none is."""
        end = self.clock() + timeout
        if self._tasks and timeout > 0:  # (asyncio.wait cancels nothing at its timeout)
            await asyncio.wait(set(self._tasks), timeout=timeout)
        with contextlib.suppress(TimeoutError):
            left = end - self.clock()
            if left > 0:
                await asyncio.wait_for(self._idle.wait(), left)
        return not self._in_flight and not self._tasks

    # -- loops -------------------------------------------------------------------------------

    def watch(self, name: str, task: asyncio.Task,
              alive: Callable[[], bool] | None = None) -> asyncio.Task:
        """Name a loop the bot needs: readiness fails once ``task`` ended, or while
        ``alive()`` (when given) is False -- e.g. a worker whose heartbeat is late.  Returns
        ``task``."""
        self._loops[name] = task
        if alive is not None:
            self._alive[name] = alive
        return task

    def loops_down(self) -> list[str]:
        """The named loops that ended or say they are not alive."""
        return sorted(name for name, task in self._loops.items()
                      if task.done() or not self._alive.get(name, lambda: True)())

    # -- probes ------------------------------------------------------------------------------

    async def readiness(self, database: Callable[[], Awaitable[dict[str, str]]]
                        ) -> Readiness:
        """Ready when no stop began, every named loop runs, and every check ``database()``
        answers (:func:`service.health.database_checks`: reachable, schema at its newest) is
        ``"ok"``."""
        checks = {"stopping": "stopping" if self.stopping.is_set() else "ok"}
        down = self.loops_down()
        checks["loops"] = "down: " + ", ".join(down) if down else "ok"
        checks.update(await database())
        return Readiness(all(v == "ok" for v in checks.values()), checks)
