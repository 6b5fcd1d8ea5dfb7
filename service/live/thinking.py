"""A computer player's decision: the entry point of the worker processes computer players
think in (:class:`service.thinkers.Thinkers`).

What crosses to a worker is the seat's ``engine.ai.Observation`` (its hand, the table, the
counts and the public history of the round — never another hand or the bazar's order), the
strength, a seed string, the sample count and the time budget; the ``engine.ai.Thought``
(the move and what stopped the search) and the CPU seconds it took come back.
"""

from __future__ import annotations

import random
import time
from typing import Any

from engine import ai

__all__ = ["DEFAULT_THINK_SECONDS", "STRENGTHS", "decide", "think"]

#: Seconds of CPU time (the worker process's ``time.process_time``) a ``hard`` decision may
#: take (``BOT_THINK_SECONDS``): its search stops at this or at its work budget, whichever
#: comes first (issue 33).
DEFAULT_THINK_SECONDS = ai.DEFAULT_BUDGET
#: The computer players' strengths, weakest first (``engine.ai.STRENGTHS``).
STRENGTHS = ai.STRENGTHS


def think(obs: Any, strength: str, seed: str, samples: int,
          seconds: float | None = DEFAULT_THINK_SECONDS) -> tuple[Any, float]:
    """A computer player's decision (pure CPU) and what it took: ``(thought, cpu)``.

    ``engine.ai.think`` on the seat's observation with a ``random.Random(seed)``; ``hard``
    plays at most ``samples`` sampled deals and at most ``engine.ai.DEFAULT_WORK`` work
    units, and stops sooner when ``seconds`` of this process's CPU time
    (``time.process_time``, the clock the engine is given) would be passed (None: no time
    budget).  The move is the same whatever the machine does unless time stopped the search
    (``thought.stop == "time"``).  ``thought`` is an ``engine.ai.Thought``; ``cpu`` the CPU
    seconds the decision took in this process.  Raises ``ValueError`` when the seat has no
    decision to make or the strength is unknown."""
    start = time.process_time()
    thought = ai.think(obs, strength, random.Random(seed), samples=samples, budget=seconds,
                       clock=time.process_time if seconds is not None else None)
    return thought, time.process_time() - start


def decide(obs: Any, strength: str, seed: str, samples: int,
           seconds: float | None = DEFAULT_THINK_SECONDS) -> Any:
    """The move of :func:`think` (an ``engine.Move``), without what it took.  Raises as
    :func:`think` does."""
    return think(obs, strength, seed, samples, seconds)[0].move
