"""The round API of classic Kozel, kept for positions written by hand (tests, benchmarks):
immutable :class:`RoundState` values in, ``(new_state, events)`` out.

RULES.md §1.2–§1.10.  Every function here is a thin shell over the round core
(:class:`engine.table.Table`); there is no second implementation of a rule in this module.
"""

from __future__ import annotations

from .events import Dealt, Misdeal
from .moves import Move
from .rules import Rules
from .table import RoundState, Table, holder_of_first, misdeal_reason, shuffled_deal
from .tiles import TILES, Tile
from .variant import LEAD_ORDER

__all__ = [
    "Move",
    "RoundState",
    "deal_hands",
    "shuffled_deal",
    "misdeal_reason",
    "first_lead",
    "start_round",
    "round_moves",
    "round_apply",
    "HAND_SIZE",
]

#: RULES.md §1.2: seven tiles to each player.
HAND_SIZE = 7
_BIT = tuple(1 << i for i in range(28))
_RULES: dict[bool, Rules] = {}


def deal_hands(players: int, order: list[int], size: int = HAND_SIZE
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Split a shuffled order into hand masks (``size`` tiles to each seat, in seat order) and
    the bazar in draw order (RULES.md §1.2)."""
    bit = _BIT
    hands = []
    if size == 7:
        for s in range(0, players * 7, 7):
            a0, a1, a2, a3, a4, a5, a6 = order[s:s + 7]
            hands.append(bit[a0] | bit[a1] | bit[a2] | bit[a3] | bit[a4] | bit[a5] | bit[a6])
    else:
        for s in range(0, players * size, size):
            m = 0
            for i in order[s:s + size]:
                m |= bit[i]
            hands.append(m)
    return tuple(hands), tuple(order[players * size:])


def first_lead(hands: tuple[int, ...]) -> tuple[int, int]:
    """``(seat, tile_id)`` of the first lead of a match (RULES.md §1.5)."""
    return holder_of_first(hands, LEAD_ORDER)


def start_round(players: int, hands: tuple[int, ...], bazar: tuple[int, ...], reserve: int,
                leader: int | None, fish_without_double: bool = True,
                rules: Rules | None = None) -> RoundState:
    """The position before the lead of a classic round.

    ``leader`` None means the first round of a match: the lead is fixed by RULES.md §1.5.
    Otherwise ``leader`` leads any tile (§1.6).  ``reserve`` tiles at the end of the bazar may
    never be drawn (§1.4); ``fish_without_double`` the option of §1.10 (b).
    """
    if rules is None:
        rules = _RULES.get(fish_without_double)
        if rules is None:
            rules = _RULES[fish_without_double] = Rules(fish_without_double=fish_without_double)
    lead_id = -1
    if leader is None:
        leader, lead_id = first_lead(hands)
    return Table(rules, players, list(hands), bazar, reserve, leader, lead_id=lead_id).state()


def dealt_event(rs: RoundState, round_no: int) -> Dealt:
    """The :class:`engine.events.Dealt` event for a fresh round."""
    lead = TILES[rs.lead_id] if rs.lead_id >= 0 else None
    return Dealt(round_no, rs.to_act, lead, rs.drawable, rs.reserve)


def misdeal_event(round_no: int, found: tuple[int, str, int, int | None]) -> Misdeal:
    """The :class:`engine.events.Misdeal` event for a void deal (RULES.md §1.3)."""
    return Misdeal(round_no, *found)


def round_moves(rs: RoundState) -> tuple[Move, ...]:
    """Every legal decision of the seat to act, and nothing else (RULES.md §1.5–§1.7):
    :meth:`engine.table.Table.moves`."""
    if rs.to_act < 0:
        return ()
    return Table.from_state(rs).moves()


def round_apply(rs: RoundState, seat: int, tile: Tile | Move, end: str | None = None
                ) -> tuple[RoundState, list]:
    """Place ``tile`` at ``end`` for ``seat`` (or make the :class:`Move` ``tile``) and play the
    forced steps that follow (:meth:`engine.table.Table.apply`).  Returns ``(new_state,
    events)``; raises the errors of :meth:`~engine.table.Table.apply`, the state unchanged."""
    events: list = []
    t = Table.from_state(rs, events)
    move = tile if isinstance(tile, Move) else Move(tile, end)
    t.apply(seat, move)
    return t.state(), events
