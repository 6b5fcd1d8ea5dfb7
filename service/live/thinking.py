"""A computer player's decision: the entry point of the worker processes computer players
think in (:class:`service.thinkers.Thinkers`).

What crosses to a worker is the seat's ``engine.ai.Observation`` (its hand, the table, the
counts and the public history of the round — never another hand or the bazar's order), the
strength, a seed string and the sample count; an ``engine.Move`` comes back.
"""

from __future__ import annotations

import random
from typing import Any

from engine import ai

__all__ = ["decide"]


def decide(obs: Any, strength: str, seed: str, samples: int) -> Any:
    """A computer player's decision (pure CPU): ``engine.ai.decide`` on the seat's
    observation with a ``random.Random(seed)``; ``hard`` plays at most ``samples`` sampled
    deals and at most ``engine.ai.DEFAULT_WORK`` work units, so its strength does not depend
    on how busy the machine is.  Raises ``ValueError`` when the seat has no decision to
    make."""
    return ai.decide(obs, strength, random.Random(seed), samples=samples)
