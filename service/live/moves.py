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
from engine.tiles import ALL_TILES, MAX_TOP
from service.views import (
    EndView,
    LaidTile,
    LayoutView,
    MoveOption,
    PlacementOption,
    SausageView,
    TrainView,
)

__all__ = ["TILE_CODES", "decision", "decision_move", "layout_view", "move_of", "option_of",
           "public_events", "tile_code"]

_CODES = {t: f"{t.a}-{t.b}" for t in ALL_TILES}

#: The tile codes (``"2-5"``, low half first) of every set the games are played with, in the
#: order of the engine's tile ids (``engine.tiles.TILE_ID``, RULES.md §0, §2.10): the 28 of
#: double-six first (ids 0..27), then those of double-9 and double-12 (``"7-12"``, up to 90),
#: so that every set is a prefix.  The one table of tile ids for the whole bot, e.g. the
#: compact ids in callback data.
TILE_CODES: tuple[str, ...] = tuple(_CODES[t] for t in ALL_TILES)


def tile_code(tile: Any) -> str:
    """``Tile(2, 5)`` → ``"2-5"``."""
    code = _CODES.get(tile)
    return code if code is not None else f"{tile.a}-{tile.b}"


def move_of(option: MoveOption) -> Any:
    """The ``engine.Move`` of a :class:`MoveOption` (one placement, or several in
    ``option.more``, RULES.md §2.0.4; a train, a line or a cut as its target, §2.10.0).
    Raises ``ValueError`` for a tile that is no tile of any set or an unknown end; the
    engine refuses a tile of another set than the match's (it is in no hand)."""
    placements = []
    for p in option.placements:
        if p.end is not None and p.end not in engine.END_NAMES:
            raise ValueError(f"unknown end {p.end!r}")
        placements.append(engine.Placement(
            engine.Tile.parse(p.tile, MAX_TOP), p.end, bool(p.closed), bool(p.along),
            train=p.train, line=p.line, at=p.at, cut=p.cut))
    return engine.Move.of(placements)


def _placement_option(p: Any) -> PlacementOption:
    return PlacementOption(tile_code(p.tile), p.end, p.closed, p.along, p.train, p.line,
                           p.at, p.cut)


def option_of(move: Any) -> MoveOption:
    """The :class:`MoveOption` of an ``engine.Move``."""
    first, *more = move
    return MoveOption.of(_placement_option(first), tuple(map(_placement_option, more)))


def decision_move(d: Mapping[str, Any]) -> Any:
    """The ``engine.Move`` of a logged decision: ``{"tile", "end"}`` (with ``closed`` /
    ``along`` where set) or ``{"tiles": [...]}`` (RULES.md §2.0.4).  Raises ``ValueError``
    for a decision that is no move."""
    try:
        return parse_decision({k: v for k, v in d.items() if k != "bot"}, MAX_TOP)[0]
    except RecordError as exc:
        raise ValueError(str(exc)) from exc


def decision(move: Any, **extra: Any) -> dict[str, Any]:
    """The action-log entry of a move: ``{"tile": "2-5", "end": "left"}`` for one tile (as
    before the variants; ``closed``/``along`` only where set), ``{"tiles": [...]}`` for
    several (the record form of RULES.md §2.0.4), and the record form of a placement on the
    trains or the sausage (``{"tile": "5-12", "train": 0}``, ``{"tile": "1-0", "cut": 3}``,
    §2.11 rule 15, §2.12 rule 11); ``extra`` joins it (``bot=strength``)."""
    p = move[0]
    if len(move) > 1 or p.train is not None or p.line is not None or p.cut is not None:
        return {**move.to_dict(), **extra}
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


def _last_of(lines: Sequence[tuple[str, Sequence[tuple[int, int]]]], mask: int
             ) -> tuple[tuple[str, int], ...]:
    """Where the tile of ``mask`` (the last placement) lies among ``lines`` (arm name, its
    pairs): ``((arm, index),)``, or () when it lies in none of them."""
    if not mask:
        return ()
    tid = mask.bit_length() - 1
    a, b = ALL_TILES[tid]
    for arm, tiles in lines:
        for i, (x, y) in enumerate(tiles):
            if {x, y} == {a, b} and (x == y) == (a == b):
                return ((arm, i),)
    return ()


def _trains_view(lay: Any, top: int) -> LayoutView:
    """The trains of Мексиканский поезд (RULES.md §2.11): each seat's train, then the
    Mexican train, their open ends and markers, the open doubles in order."""
    opened = {key: k for k, key in enumerate(lay.open_doubles)}

    def train(key: Any, pairs: Sequence[tuple[int, int]], end: int, public: bool
              ) -> TrainView:
        tiles = tuple(LaidTile(a, b, "across" if a == b else "") for a, b in pairs)
        return TrainView(None if key == "mexican" else key, tiles, end, public,
                         opened.get(key))

    trains = tuple(train(s, pairs, lay.ends[s], lay.public[s])
                   for s, pairs in enumerate(lay.trains))
    trains += (train("mexican", lay.mexican, lay.mexican_end, False),)
    arms = [(f"t{s}", pairs) for s, pairs in enumerate(lay.trains)] + \
        [("mexican", lay.mexican)]
    return LayoutView(kind="trains", engine=lay.engine, trains=trains,
                      last=_last_of(arms, lay.last_mask), top=top)


def _sausage_view(lay: Any) -> LayoutView:
    """The sausage of Колбаса (RULES.md §2.12): the head, lines ``a`` and ``b``, the tile
    turned over that waits and the queues' lengths (never their tiles, rule 1)."""
    a = tuple(LaidTile(x, y) for x, y in lay.a)
    b = tuple(LaidTile(x, y) for x, y in lay.b)
    head = lay.head
    arms = [("a", lay.a), ("b", lay.b)]
    if head is not None:
        arms.append(("head", (tuple(head),)))
    return LayoutView(kind="sausage",
                      sausage=SausageView(None if head is None else tuple(head), a, b,
                                          None if lay.turned is None else tuple(lay.turned),
                                          tuple(lay.queues)),
                      last=_last_of(arms, lay.last_mask))


def layout_view(lay: Any, count: int | None = None, top: int = 6) -> LayoutView:
    """The :class:`LayoutView` of an engine layout state, by its ``kind``: the line and the
    cross (RULES.md §2.0: the spinner and its arms, the gap, every open or closed end — with
    what it adds to the count, when ``count`` is given —, the count, §2.0.6), the trains
    (§2.11) or the sausage (§2.12); where the last move's tiles lie.  ``top``: the set's
    highest number (§2.10)."""
    if lay.kind == "trains":
        return _trains_view(lay, top)
    if lay.kind == "sausage":
        return _sausage_view(lay)

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
