"""The rules engine of the Kozel family (RULES.md §1, §2): pure Python, no I/O.

See ``docs/ENGINE_API.md`` for the contract the service and the UI rely on.
"""

# The variants of RULES.md §2, one module each, register themselves in VARIANTS on import
# (engine/variants/__init__.py lists them); engine.variant itself imports none of them.
from . import variants  # noqa: F401
from .errors import (
    AmbiguousEnd,
    EngineError,
    IllegalMove,
    InvalidDeal,
    MoveNotAllowed,
    NotYourTurn,
    RoundOver,
    TileDoesNotFit,
    TileNotInHand,
    UnknownEnd,
    WrongLead,
)
from .events import Event, to_dict
from .layout import Layout, LayoutState
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
from .moves import END_NAMES, Move, Placement
from .rules import Rules
from .scoring import hand_value, rating, timeout_rating
from .table import RoundState, Table
from .tiles import TILES, Tile
from .variant import VARIANTS, Variant, variant_of

__all__ = [
    "AmbiguousEnd", "EngineError", "IllegalMove", "InvalidDeal", "MoveNotAllowed",
    "NotYourTurn", "RoundOver", "TileDoesNotFit", "TileNotInHand", "UnknownEnd", "WrongLead",
    "Event", "to_dict", "Layout", "LayoutState", "MatchResult", "MatchState", "apply",
    "apply_host_move", "deal_next", "host_move", "legal_moves", "new_match", "start_match",
    "END_NAMES", "Move", "Placement", "Rules", "hand_value", "rating", "timeout_rating",
    "RoundState", "Table", "TILES", "Tile", "VARIANTS", "Variant", "variant_of",
]
