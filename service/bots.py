"""Computer players in seats (issue 6): who they are, and where their decisions are made.

A bot holds a seat like a human, with a negative user id (Telegram ids are positive; the
publisher sends no private messages to ids <= 0) and the key ``"bot"`` in the seat's JSON:
``{"user_id": -1, "name": "Бот Фёдор 🤖", "bot": "normal"}``. Views carry the strength in
``PlayerRef.bot`` / ``SeatView.bot`` / ``PlayerResult.bot`` (None for a human).

The decision itself is :func:`service.live.decide` (``engine.ai``): the seat's observation only
(its hand, the chain, the counts, the public history of the round), never another hand or the
bazar order.  :class:`Thinkers` runs decisions off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from concurrent.futures import Executor
from typing import Any

from service.live import STRENGTHS, decide

__all__ = [
    "STRENGTHS",
    "DEFAULT_STRENGTH",
    "PERSONAS",
    "Thinkers",
    "is_bot",
    "strength_of",
    "new_bot_seat",
]

#: Strength of a bot added without naming one.
DEFAULT_STRENGTH = "normal"
#: Bot names, in the order they sit down; bot ``k`` (0-based) has user id ``-(k + 1)``.
PERSONAS = ("Фёдор", "Зина", "Степан", "Маруся", "Кузьма", "Глаша")


def is_bot(seat: Mapping[str, Any]) -> bool:
    """True for a seat (an entry of ``matches.seats``) held by a computer player."""
    return bool(seat.get("bot")) or int(seat["user_id"]) <= 0


def strength_of(seat: Mapping[str, Any]) -> str | None:
    """The seat's bot strength, or None for a human."""
    if not is_bot(seat):
        return None
    s = seat.get("bot")
    return s if s in STRENGTHS else DEFAULT_STRENGTH


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
            return {"user_id": uid, "name": f"Бот {name} 🤖", "bot": strength}
    raise ValueError("no free bot persona")


class Thinkers:
    """Where computer players decide: ``executor`` (any ``concurrent.futures.Executor``;
    tests pass an inline one), or else the event loop's default thread pool.
    ``hard_samples``: sampled deals per ``hard`` decision, None for its time budget."""

    def __init__(self, *, executor: Executor | None = None,
                 hard_samples: int | None = None) -> None:
        self.hard_samples = hard_samples
        self._executor = executor

    async def decide(self, observation: Any, strength: str, seed: str) -> Any:
        """The move of a computer player of ``strength`` from its seat's ``observation``
        (``LiveMatch.observation``); ``seed`` makes the decision reproducible.  Raises
        whatever the decision raised (the caller falls back to the host's move)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, decide, observation, strength,
                                          seed, self.hard_samples)

    def close(self) -> None:
        """Nothing to stop: the executor belongs to its owner."""
