"""Events: what happened, in order, as the result of one engine call.

Every event is an immutable named tuple with a class attribute ``kind`` and :func:`to_dict`.
Seats are 0-based.  Only :class:`Drew` carries private information: its ``tile`` may be shown
to ``seat`` alone (RULES.md §1.8); everyone else learns only that a tile was drawn.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .tiles import Tile

__all__ = [
    "Event",
    "Dealt",
    "Misdeal",
    "Led",
    "Played",
    "HostMoved",
    "Drew",
    "Knocked",
    "WentOut",
    "Fish",
    "RoundScored",
    "MatchEnded",
    "to_dict",
]


class Dealt(NamedTuple):
    """A round was dealt (RULES.md §1.2); ``leader`` leads it (§1.5, §1.6).

    ``lead_tile`` is the tile the leader must lead in the first round (§1.5), else None.
    ``drawable`` and ``reserve`` count the bazar's tiles (§1.4).
    """

    round_no: int
    leader: int
    lead_tile: Tile | None
    drawable: int
    reserve: int
    kind = "dealt"


class Misdeal(NamedTuple):
    """A deal was void and is dealt again (RULES.md §1.3).

    ``reason`` is ``"doubles"`` (``count`` doubles in one hand) or ``"suit"`` (``count`` tiles
    showing ``number``).
    """

    round_no: int
    seat: int
    reason: str
    count: int
    number: int | None
    kind = "misdeal"


class Led(NamedTuple):
    """``seat`` placed the first tile of the round (RULES.md §1.5, §1.6)."""

    seat: int
    tile: Tile
    kind = "led"


class Played(NamedTuple):
    """``seat`` placed ``tile`` at ``end`` (``"left"`` / ``"right"``) (RULES.md §1.7)."""

    seat: int
    tile: Tile
    end: str
    kind = "played"


class HostMoved(NamedTuple):
    """The turn timed out and the host moved for ``seat`` (RULES.md §1.17).

    ``in_a_row`` counts this seat's consecutive host moves.
    """

    seat: int
    in_a_row: int
    kind = "host_moved"


class Drew(NamedTuple):
    """``seat`` drew ``tile`` from the bazar (RULES.md §1.8).  The tile is private to ``seat``."""

    seat: int
    tile: Tile
    kind = "drew"


class Knocked(NamedTuple):
    """``seat`` could neither play nor draw and knocked (RULES.md §1.8)."""

    seat: int
    kind = "knocked"


class WentOut(NamedTuple):
    """``seat`` placed their last tile (RULES.md §1.9)."""

    seat: int
    kind = "went_out"


class Fish(NamedTuple):
    """The round is blocked (RULES.md §1.10); ``seat`` is the fisher.

    ``cause`` is ``"blocked"`` for §1.10 (a) and ``"no_double"`` for §1.10 (b).
    """

    seat: int
    cause: str
    kind = "fish"


class RoundScored(NamedTuple):
    """A round was recorded (RULES.md §1.11–§1.14).

    ``end`` is ``"out"`` or ``"fish"``, ``by`` the seat that went out or fished.
    ``hands`` reveals every hand at the round's end (tuple per seat).  ``hand_values``,
    ``recorded``, ``scores`` and ``remembered`` are tuples per player, or per team when
    ``rules.teams`` (§1.14); ``recorded`` are the round points written this round, pot
    included; ``pot_won`` the pot paid out and ``pot`` the pot after the round [points].
    """

    round_no: int
    end: str
    by: int
    hands: tuple[tuple[Tile, ...], ...]
    hand_values: tuple[int, ...]
    recorded: tuple[int, ...]
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot_won: int
    pot: int
    kind = "round_scored"


class MatchEnded(NamedTuple):
    """The match is over (RULES.md §1.15, §1.16, §1.17).

    ``reason`` is ``"limit"`` (someone reached the match limit) or ``"timeout"``.
    ``goats`` lists goat players (or teams, with ``rules.teams``); ``rating`` the rating points
    each player (team) gains; ``timed_out`` the seat interrupted by timeout, else None.
    """

    reason: str
    goats: tuple[int, ...]
    rating: tuple[int, ...]
    timed_out: int | None
    scores: tuple[int, ...]
    kind = "match_ended"


Event = (
    Dealt | Misdeal | Led | Played | HostMoved | Drew | Knocked | WentOut | Fish | RoundScored
    | MatchEnded
)


def _plain(value: Any) -> Any:
    if isinstance(value, Tile):
        return value.code()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def to_dict(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict with its ``kind``; tiles are written ``"a-b"``."""
    d = {"kind": event.kind}
    for k, v in zip(event._fields, event, strict=True):
        d[k] = _plain(v)
    return d
