"""Where computer players think (issue 6): a pool of worker processes, so that a ``hard``
search never holds the event loop's interpreter lock against the other matches.

The decision itself is :func:`service.live.thinking.decide` (``engine.ai``), made from the
seat's observation only (its hand, the chain, the counts, the public history of the round),
never another hand or the bazar's order.  ``hard`` is bounded by a number of sampled deals
and by work rather than by wall time, so that it plays as well on a busy machine as on an
idle one, and by a time budget in CPU seconds of its worker (``BOT_THINK_SECONDS``), so that
on a slow machine a person does not wait longer, only gets a shallower search (issue 33).
Each decision's CPU time, measured in the worker, comes back with the move and is counted
in the service's metrics (``decision_seconds{strength}``, and ``decision_time_stops
{strength}`` when the time budget ended the search).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from service.live.thinking import DEFAULT_THINK_SECONDS, STRENGTHS, think
from service.metrics import Metrics

__all__ = ["DEFAULT_HARD_SAMPLES", "DEFAULT_THINK_SECONDS", "Thinkers", "default_workers"]

#: Sampled deals the ``hard`` strength plays per decision.  Measured on the project's 2-core
#: machine: with the former time budget of 1 s a decision took 0.41 s of CPU on average
#: (p99 0.95 s) and sampled 130–7,000 deals, 2,800 in the median decision that used up the
#: budget; 1,500 deals cost the same 0.41 s on average (docs/BENCHMARKS.md, "Computer players").
#: The engine's work budget (``engine.ai.DEFAULT_WORK``) stops a decision earlier in the games
#: whose playouts are dearer (a cross, move hooks), so that none takes much over a second.
DEFAULT_HARD_SAMPLES = 1500

def default_workers() -> int:
    """Worker processes for computer players: one per CPU, at least one."""
    return max(1, os.cpu_count() or 1)


def _worker_init(parent: int) -> None:
    """A worker thinks at a lower priority than the bot's event loop (people's presses come
    first, and a computer player's strength, a count of samples, does not depend on it), and
    ends when the bot's process is gone, even if that was killed without a word.  A Ctrl-C
    in the terminal is the bot's to handle (it closes the pool), not the worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _ready() -> bool:
    """A worker process is up (it imported this module, the engine with it)."""
    time.sleep(0.05)  # held a moment, so that the pool starts another process for the next
    return True


class Thinkers:
    """Where computer players decide: ``executor`` (any ``concurrent.futures.Executor``;
    tests pass a thread or inline one), or else a process pool of ``workers`` processes
    (default :func:`default_workers`) created at the first decision.  ``hard_samples``:
    sampled deals per ``hard`` decision; ``think_seconds``: CPU seconds a ``hard`` decision
    may take in its worker (its search stops at this or its work, whichever comes first);
    ``metrics``: where each decision's CPU time and the decisions time stopped are counted
    (:class:`service.metrics.Metrics`; None counts nothing).  What crosses to a worker is the
    seat's ``engine.ai.Observation``, the strength, a seed string, the sample count and the
    time budget; an ``engine.ai.Thought`` and the decision's CPU seconds come back.  Raises
    ``ValueError`` for fewer than one worker or a time budget that is not positive."""

    def __init__(self, *, executor: Executor | None = None, workers: int | None = None,
                 hard_samples: int = DEFAULT_HARD_SAMPLES,
                 think_seconds: float = DEFAULT_THINK_SECONDS,
                 metrics: Metrics | None = None) -> None:
        if workers is not None and workers < 1:
            raise ValueError("a pool needs at least one worker")
        if not think_seconds > 0:
            raise ValueError("a computer player needs some time to think")
        self.hard_samples = int(hard_samples)
        self.think_seconds = float(think_seconds)
        self.metrics = metrics
        if metrics is not None:
            for strength in STRENGTHS:  # every series from the start: a rate of 0 is news
                metrics.decision_time_stops.labels(strength)
        self.workers = workers or default_workers()
        self._executor = executor
        self._own: ProcessPoolExecutor | None = None

    def executor(self) -> Executor:
        """The executor decisions run in (the process pool is created on first use)."""
        if self._executor is not None:
            return self._executor
        if self._own is None:
            self._own = ProcessPoolExecutor(
                max_workers=self.workers, initializer=_worker_init, initargs=(os.getpid(),),
                mp_context=multiprocessing.get_context("spawn"))
        return self._own

    async def warm(self) -> None:
        """Start every worker process of the pool now, rather than at the first decision: a
        process is a fresh interpreter that imports the engine, which takes seconds on a busy
        machine, and a worker of a cluster that takes a dead one's chats must move their
        computer players at once (issue 22: ≤ 3 s from the kill to the next move).  Nothing
        with an executor of the caller's."""
        if self._executor is not None:
            return
        loop = asyncio.get_running_loop()
        pool = self.executor()
        await asyncio.gather(*(loop.run_in_executor(pool, _ready)
                               for _ in range(self.workers)), return_exceptions=True)

    async def decide(self, observation: Any, strength: str, seed: str) -> Any:
        """The move of a computer player of ``strength`` from its seat's ``observation``
        (``LiveMatch.observation``); ``seed`` makes the decision reproducible while the time
        budget does not stop it.  Counts the decision's CPU seconds in ``decision_seconds
        {strength}`` and, when the time budget ended it, ``decision_time_stops{strength}``.
        Raises whatever the decision raised (the caller falls back to the host's move), and
        counts nothing then."""
        loop = asyncio.get_running_loop()
        thought, cpu = await loop.run_in_executor(self.executor(), think, observation,
                                                  strength, seed, self.hard_samples,
                                                  self.think_seconds)
        if self.metrics is not None:
            self.metrics.decision_seconds.labels(strength).observe(cpu)
            if thought.stop == "time":
                self.metrics.decision_time_stops.labels(strength).inc()
        return thought.move

    def close(self) -> None:
        """Stop the worker processes this object started (decisions in flight are
        cancelled)."""
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None
