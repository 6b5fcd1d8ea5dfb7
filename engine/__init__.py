"""The rules engine of Kozel (RULES.md §1): pure Python, no I/O.

See ``docs/ENGINE_API.md`` for the contract the service and the UI rely on.
"""

from .errors import (
    AmbiguousEnd,
    EngineError,
    IllegalMove,
    InvalidDeal,
    NotYourTurn,
    RoundOver,
    TileDoesNotFit,
    TileNotInHand,
    UnknownEnd,
    WrongLead,
)
from .events import Event, to_dict
from .match import (
    MatchResult,
    MatchState,
    apply,
    apply_host_move,
    deal_next,
    host_move,
    legal_moves,
    new_match,
    start_match,
)
from .round import Move, RoundState
from .rules import Rules
from .scoring import hand_value, rating, timeout_rating
from .tiles import TILES, Tile

__all__ = [
    "AmbiguousEnd", "EngineError", "IllegalMove", "InvalidDeal", "NotYourTurn", "RoundOver",
    "TileDoesNotFit", "TileNotInHand", "UnknownEnd", "WrongLead", "Event", "to_dict",
    "MatchResult", "MatchState", "apply", "apply_host_move", "deal_next", "host_move",
    "legal_moves", "new_match", "start_match", "Move", "RoundState", "Rules", "hand_value",
    "rating", "timeout_rating", "TILES", "Tile",
]
