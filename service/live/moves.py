"""Tiles, moves, logged decisions and public events in the service's terms (RULES.md §0,
§2.0.4): the one table of tile codes (:data:`TILE_CODES`), a view's :class:`MoveOption` and the
engine's move both ways, the action log's decision format, the group's events (a drawn tile
hidden, RULES.md §1.8), and the layout as a :class:`~service.views.LayoutView`.

The action log keeps its decision format: ``{"tile": "a-b", "end": ...}`` for a person,
``{"host": true}`` for the host's move (RULES.md §1.17), ``{"tile", "end", "bot": strength}``
for a computer player, ``{"tiles": [...]}`` for a move of several tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import engine
from engine.records import ReplayError as RecordError
from engine.records import parse_decision
from service.views import EndView, LaidTile, LayoutView, MoveOption, PlacementOption

__all__ = ["TILE_CODES", "decision", "decision_move", "layout_view", "move_of", "option_of",
           "public_events", "tile_code"]

_CODES = {t: f"{t.a}-{t.b}" for t in engine.TILES}

#: The 28 tile codes (``"2-5"``, low half first) in the order of the engine's tile ids
#: (``engine.tiles.TILE_ID``, RULES.md §0): the one table of tile ids for the whole bot, e.g. the
#: compact ids in callback data.
TILE_CODES: tuple[str, ...] = tuple(_CODES[t] for t in engine.TILES)


def tile_code(tile: Any) -> str:
    """``Tile(2, 5)`` → ``"2-5"``."""
    code = _CODES.get(tile)
    return code if code is not None else f"{tile.a}-{tile.b}"


def move_of(option: MoveOption) -> Any:
    """The ``engine.Move`` of a :class:`MoveOption` (one placement, or several in
    ``option.more``, RULES.md §2.0.4).  Raises ``ValueError`` for a tile that is not a tile
    of the set or an unknown end."""
    placements = []
    for p in option.placements:
        if p.end is not None and p.end not in engine.END_NAMES:
            raise ValueError(f"unknown end {p.end!r}")
        placements.append(engine.Placement(engine.Tile.parse(p.tile), p.end, bool(p.closed),
                                           bool(p.along)))
    return engine.Move.of(placements)


def option_of(move: Any) -> MoveOption:
    """The :class:`MoveOption` of an ``engine.Move``."""
    first, *more = move
    return MoveOption(tile_code(first.tile), first.end, first.closed, first.along,
                      tuple(PlacementOption(tile_code(p.tile), p.end, p.closed, p.along)
                            for p in more))


def decision_move(d: Mapping[str, Any]) -> Any:
    """The ``engine.Move`` of a logged decision: ``{"tile", "end"}`` (with ``closed`` /
    ``along`` where set) or ``{"tiles": [...]}`` (RULES.md §2.0.4).  Raises ``ValueError``
    for a decision that is no move."""
    try:
        return parse_decision({k: v for k, v in d.items() if k != "bot"})[0]
    except RecordError as exc:
        raise ValueError(str(exc)) from exc


def decision(move: Any, **extra: Any) -> dict[str, Any]:
    """The action-log entry of a move: ``{"tile": "2-5", "end": "left"}`` for one tile (as
    before the variants; ``closed``/``along`` only where set), ``{"tiles": [...]}`` for
    several (the record form of RULES.md §2.0.4); ``extra`` joins it (``bot=strength``)."""
    if len(move) > 1:
        return {**move.to_dict(), **extra}
    p = move[0]
    out = {"tile": p.code(), "end": p.end}
    if p.closed:
        out["closed"] = True
    if p.along:
        out["along"] = True
    return {**out, **extra}


def _event_dict(event: Any) -> dict[str, Any]:
    to_dict = getattr(event, "to_dict", None)
    return to_dict() if callable(to_dict) else engine.to_dict(event)


def public_events(events: Iterable[Any]) -> tuple[dict[str, Any], ...]:
    """Engine events as dicts for the group: a ``drew`` event loses its ``tile`` (RULES.md
    §1.8: a drawn tile is shown to its seat alone)."""
    out = []
    for ev in events:
        d = _event_dict(ev)
        if d.get("kind") == "drew":
            d.pop("tile", None)
        out.append(d)
    return tuple(out)


def layout_view(lay: Any, count: int | None = None) -> LayoutView:
    """The :class:`LayoutView` of an engine ``LayoutState`` (RULES.md §2.0): the line, the
    spinner and its arms, the gap, every open or closed end (with what it adds to the count,
    when ``count`` is given), the count (§2.0.6) and where the last move's tiles lie."""
    def laid(tiles: Sequence[tuple[int, int, str]]) -> tuple[LaidTile, ...]:
        return tuple(LaidTile(a, b, how) for a, b, how in tiles)

    ends = []
    # what each end adds to the count, in the games that keep one (§2.0.6)
    adds = (lay.end_counts() or {}) if count is not None else {}
    for name, value in zip(engine.END_NAMES, lay.ends, strict=True):
        if value == -1:
            continue  # no such end (yet)
        ends.append(EndView(name, value if 0 <= value <= 6 else None, value == -2,
                            adds.get(name)))
    return LayoutView(
        kind="cross" if lay.cross else "line", line=laid(lay.line),
        spinner=lay.spin_at if lay.spinner >= 0 else None, up=laid(lay.up),
        down=laid(lay.down), gap=lay.gap_at if lay.gap_at >= 0 else None,
        ends=tuple(ends), count=count, last=lay.last,
        lead=lay.lead_at if lay.lead_at >= 0 else None)
