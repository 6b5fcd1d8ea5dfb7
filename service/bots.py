"""Computer players in seats (issue 6): who they are and how a seat's move is chosen.

A bot holds a seat like a human, with a negative user id (Telegram ids are positive; the
publisher sends no private messages to ids <= 0) and the key ``"bot"`` in the seat's JSON:
``{"user_id": -1, "name": "Бот Фёдор 🤖", "bot": "normal"}``. Views carry the strength in
``PlayerRef.bot`` / ``SeatView.bot`` / ``PlayerResult.bot`` (None for a human).

The decision itself is :mod:`engine.ai`: the seat's observation only (its hand, the chain,
the counts, the public history of the round), never another hand or the bazar order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import engine
from engine import ai

__all__ = [
    "STRENGTHS",
    "DEFAULT_STRENGTH",
    "PERSONAS",
    "is_bot",
    "strength_of",
    "new_bot_seat",
    "choose_move",
]

#: The strengths a computer player can have, weakest first.
STRENGTHS = ai.STRENGTHS
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


def choose_move(state: Any, seat: int, history: Sequence[Any], strength: str,
                rng: random.Random, *, budget: float | None = ai.DEFAULT_BUDGET,
                samples: int | None = None) -> engine.Move:
    """The move of a bot of ``strength`` in ``seat`` of ``state`` (an ``engine.MatchState``),
    from what the seat may know: ``history`` are the engine events of the current round
    (``LiveMatch.log`` from the last ``dealt`` on). ``budget`` [seconds] / ``samples`` bound
    the ``hard`` search. Pure CPU work (run it off the event loop). Raises ``ValueError``
    when the seat has no decision to make."""
    obs = ai.observe(state, seat, history)
    return ai.decide(obs, strength, rng, budget=budget, samples=samples)
