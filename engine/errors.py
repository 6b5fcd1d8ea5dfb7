"""Exceptions raised for illegal input.  The state is immutable, so it is untouched."""

from __future__ import annotations

__all__ = [
    "EngineError",
    "IllegalMove",
    "NotYourTurn",
    "TileNotInHand",
    "TileDoesNotFit",
    "WrongLead",
    "UnknownEnd",
    "AmbiguousEnd",
    "RoundOver",
    "InvalidDeal",
    "MoveNotAllowed",
]


class EngineError(Exception):
    """Base of every error the engine raises on bad input.

    ``rule`` names the rule that was broken, e.g. ``"RULES.md §1.7"``.
    """

    rule = "RULES.md §1"

    def __init__(self, message: str, rule: str | None = None):
        if rule is not None:
            self.rule = rule
        super().__init__(f"{message} ({self.rule})")


class IllegalMove(EngineError):
    """A decision that the rules do not allow."""


class NotYourTurn(IllegalMove):
    """The seat is not the one to act (RULES.md §1.1: the turn passes seat by seat)."""

    rule = "RULES.md §1.1"


class TileNotInHand(IllegalMove):
    """The tile is not in the acting player's hand (RULES.md §1.7)."""

    rule = "RULES.md §1.7"


class TileDoesNotFit(IllegalMove):
    """The tile matches no open end, or not the end named (RULES.md §1.7)."""

    rule = "RULES.md §1.7"


class WrongLead(TileDoesNotFit):
    """The first lead of a match must be the tile named by RULES.md §1.5."""

    rule = "RULES.md §1.5"


class UnknownEnd(IllegalMove):
    """The end is not one of ``left``, ``right``, ``up``, ``down``, ``gap`` (RULES.md §1.7,
    §2.0.2)."""

    rule = "RULES.md §1.7"


class MoveNotAllowed(IllegalMove):
    """The tiles fit, but the variant does not allow this move: several tiles at once where
    it allows one, a double closed where nothing may be closed, one tile where two must be
    placed, … (RULES.md §2.0.3, §2.0.4 and the variant's section)."""

    rule = "RULES.md §2.0.4"


class AmbiguousEnd(UnknownEnd):
    """No end was named, but the tile fits both ends with different results (RULES.md §1.7)."""


class RoundOver(IllegalMove):
    """The round or the match is over: no decision is awaited (RULES.md §1.9, §1.10, §1.15)."""

    rule = "RULES.md §1.15"


class InvalidDeal(EngineError):
    """A deal given in a game record is not a deal of the double-six set (RULES.md §1.2)."""

    rule = "RULES.md §1.2"
