"""A round of classic Kozel as positions written by hand for the tests: immutable
:class:`RoundState` values in, ``(new_state, events)`` out.

RULES.md §1.2–§1.10.  Every function here is a thin shell over the round core
(:class:`engine.table.Table`); there is no second implementation of a rule in this module.
"""

from __future__ import annotations

from engine.moves import Move
from engine.rules import Rules
from engine.table import RoundState, Table, holder_of_first
from engine.tiles import Tile
from engine.variant import LEAD_ORDER

__all__ = ["first_lead", "start_round", "round_moves", "round_apply"]

_RULES: dict[bool, Rules] = {}


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
