"""Who holds a seat: a person, or a computer player (issue 6).

A computer player holds a seat like a person, with a negative user id (Telegram ids are
positive; nothing is sent to a private chat of an id <= 0) and the key ``"bot"`` in the seat's
JSON: ``{"user_id": -1, "name": "Бот Фёдор 🤖", "bot": "normal"}``.  Views carry the strength
in ``PlayerRef.bot`` / ``SeatView.bot`` / ``PlayerResult.bot`` (None for a person).  A seat a
person handed to a computer player keeps them as ``"left"``: ``{"name": "Оля", "round": 3}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine import ai

__all__ = ["DEFAULT_STRENGTH", "PERSONAS", "PERSONA_GENDERS", "STRENGTHS", "bot_name",
           "is_bot", "new_bot_seat", "seat_name", "strength_of"]

#: The strengths a computer player can have, weakest first (``engine.ai``).
STRENGTHS: tuple[str, ...] = tuple(ai.STRENGTHS)
#: Strength of a computer player added without naming one.
DEFAULT_STRENGTH = "normal"
#: Bot names, in the order they sit down; bot ``k`` (0-based) has user id ``-(k + 1)``.
PERSONAS = ("Фёдор", "Зина", "Степан", "Маруся", "Кузьма", "Глаша")
#: Each persona's grammatical gender, for the texts that need it (a past tense: «доигрывала
#: Бот Зина 🤖»; the locales' ``$gender`` selectors): ``masculine`` or ``feminine``.
PERSONA_GENDERS = ("masculine", "feminine", "masculine", "feminine", "masculine", "feminine")


def is_bot(seat: Mapping[str, Any]) -> bool:
    """True for a seat (an entry of ``matches.seats``) held by a computer player: it has the
    key ``"bot"`` or a user id <= 0."""
    return bool(seat.get("bot")) or int(seat["user_id"]) <= 0


def strength_of(seat: Mapping[str, Any]) -> str | None:
    """The strength of a seat's computer player (one of :data:`STRENGTHS`;
    :data:`DEFAULT_STRENGTH` when the seat names none it knows), or None for a person."""
    if not is_bot(seat):
        return None
    s = seat.get("bot")
    return s if s in STRENGTHS else DEFAULT_STRENGTH


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


def seat_name(seat: Mapping[str, Any]) -> str:
    """The name a seat plays under in a game record: its holder's, or for a seat a person
    left to a computer player ``"Оля → Бот Фёдор 🤖"``."""
    left = seat.get("left")
    if isinstance(left, Mapping) and left.get("name"):
        return f"{left['name']} → {seat['name']}"
    return str(seat["name"])
