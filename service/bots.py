"""Computer players in seats (issue 6): who they are, and where their decisions are made.

A bot holds a seat like a human, with a negative user id (Telegram ids are positive; the
publisher sends no private messages to ids <= 0) and the key ``"bot"`` in the seat's JSON:
``{"user_id": -1, "name": "Бот Фёдор 🤖", "bot": "normal"}``. Views carry the strength in
``PlayerRef.bot`` / ``SeatView.bot`` / ``PlayerResult.bot`` (None for a human).  The seat is
read by :func:`service.live.is_bot` and :func:`service.live.strength_of`, which the match in
memory needs for its views; this module names them too, and imports :mod:`service.live`, never
the other way round.

The decision itself is :func:`service.live.decide` (``engine.ai``): the seat's observation only
(its hand, the chain, the counts, the public history of the round), never another hand or the
bazar order.  :class:`Thinkers` runs decisions in worker processes, so that a ``hard`` search
never holds the event loop's interpreter lock against the other matches, and bounds ``hard``
by a number of sampled deals rather than by wall time, so that it plays as well on a busy
machine as on an idle one.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from service.live import DEFAULT_STRENGTH, STRENGTHS, decide, is_bot, strength_of

__all__ = [
    "STRENGTHS",
    "DEFAULT_STRENGTH",
    "DEFAULT_HARD_SAMPLES",
    "PERSONAS",
    "PERSONA_GENDERS",
    "Thinkers",
    "is_bot",
    "strength_of",
    "new_bot_seat",
    "bot_name",
    "default_workers",
]

#: Sampled deals the ``hard`` strength plays per decision.  Measured on the project's 2-core
#: machine: with the former time budget of 1 s a decision took 0.41 s of CPU on average
#: (p99 0.95 s) and sampled 130–7,000 deals, 2,800 in the median decision that used up the
#: budget; 1,500 deals cost the same 0.41 s on average (docs/BENCHMARKS.md, "Computer players").
#: The engine's work budget (``engine.ai.DEFAULT_WORK``) stops a decision earlier in the games
#: whose playouts are dearer (a cross, move hooks), so that none takes much over a second.
DEFAULT_HARD_SAMPLES = 1500
#: Bot names, in the order they sit down; bot ``k`` (0-based) has user id ``-(k + 1)``.
PERSONAS = ("Фёдор", "Зина", "Степан", "Маруся", "Кузьма", "Глаша")
#: Each persona's grammatical gender, for the texts that need it (a past tense: «доигрывала
#: Бот Зина 🤖»; the locales' ``$gender`` selectors): ``masculine`` or ``feminine``.
PERSONA_GENDERS = ("masculine", "feminine", "masculine", "feminine", "masculine", "feminine")


def bot_name(persona: str) -> str:
    """The name a computer player of ``persona`` (one of :data:`PERSONAS`) sits under, as
    stored in its seat: «Бот <persona> 🤖».  The interface shows it in the reader's language
    (``ui.names``)."""
    return f"Бот {persona} 🤖"


def new_bot_seat(taken: Iterable[Mapping[str, Any]], strength: str) -> dict[str, Any]:
    """The seat JSON of a new bot for a table whose seats are ``taken``: the first persona
    whose id is free, named «Бот <name> 🤖». Raises ``ValueError`` for an unknown strength
    or when every persona is seated (never with 4 seats)."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}: use one of {', '.join(STRENGTHS)}")
    used = {int(s["user_id"]) for s in taken}
    for k, name in enumerate(PERSONAS):
        uid = -(k + 1)
        if uid not in used:
            return {"user_id": uid, "name": bot_name(name), "bot": strength}
    raise ValueError("no free bot persona")


def default_workers() -> int:
    """Worker processes for computer players: one per CPU, at least one."""
    return max(1, os.cpu_count() or 1)


def _worker_init(parent: int) -> None:
    """A worker thinks at a lower priority than the bot's event loop (people's presses come
    first, and a computer player's strength, a count of samples, does not depend on it), and
    ends when the bot's process is gone, even if that was killed without a word."""
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
    sampled deals per ``hard`` decision.  What crosses to a worker is the seat's
    ``engine.ai.Observation``, the strength, a seed string and the sample count; a
    ``engine.Move`` comes back."""

    def __init__(self, *, executor: Executor | None = None, workers: int | None = None,
                 hard_samples: int = DEFAULT_HARD_SAMPLES) -> None:
        if workers is not None and workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.hard_samples = int(hard_samples)
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
        (``LiveMatch.observation``); ``seed`` makes the decision reproducible.  Raises
        whatever the decision raised (the caller falls back to the host's move)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor(), decide, observation, strength,
                                          seed, self.hard_samples)

    def close(self) -> None:
        """Stop the worker processes this object started (decisions in flight are
        cancelled)."""
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None
