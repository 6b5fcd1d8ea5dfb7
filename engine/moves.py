"""Placements and moves (RULES.md §2.0.4), and the names of the ends they go on.

A *placement* is one tile put on one end of the layout: ``(tile, end, closed, along)``.  A
*move* is one placement, or — where the variant allows it — several at once (several doubles,
RULES.md §2.0.4; the two tiles per turn after the extraordinary lead, §2.1 rule 7).  So "one
tile" and "several doubles at once" are the same type: :class:`Move` is a tuple of
:class:`Placement`.

Ends (RULES.md §2.0.1–§2.0.2, §2.1 rule 7): ``left`` and ``right`` on every layout, ``up`` and
``down`` once a cross has its spinner, ``gap`` after the extraordinary lead.  ``end`` None
means the lead, or a tile that fits exactly one open end (or both ends of a line that show
the same number: then it means ``right``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .tiles import TILE_ID, Tile

__all__ = [
    "LEFT", "RIGHT", "UP", "DOWN", "GAP", "END_NAMES", "END_CODE",
    "Placement", "Move", "single", "several",
]

#: End codes, in the order every listing uses (RULES.md §2.0.2).
LEFT, RIGHT, UP, DOWN, GAP = 0, 1, 2, 3, 4
#: The name of each end code.
END_NAMES = ("left", "right", "up", "down", "gap")
#: The code of each end name.
END_CODE = {name: code for code, name in enumerate(END_NAMES)}


class Placement(NamedTuple):
    """One tile on one end (RULES.md §2.0.4).

    - ``tile``: the :class:`engine.tiles.Tile` (``a <= b``).
    - ``end``: an end name (:data:`END_NAMES`) or None (the lead; or the only end it fits).
    - ``closed``: a double placed face down, closing that end (§2.0.3).
    - ``along``: a double laid along, counting once (Маггинс, §2.5 rule 3).
    - ``flip``: a lead laid high half first: the lead ``"6-5"`` shows 6 at the left end
      (RULES.md §0); False lays it as ``a|b`` (``"5-6"``).  Only a lead reads it.
    """

    tile: Tile
    end: str | None = None
    closed: bool = False
    along: bool = False
    flip: bool = False

    def code(self) -> str:
        """The tile as a record writes it: ``"a-b"``, or ``"b-a"`` for a flipped lead."""
        t = self.tile
        return f"{t.b}-{t.a}" if self.flip else f"{t.a}-{t.b}"

    def to_dict(self) -> dict[str, Any]:
        """The record form ``{"tile": "2-5", "end": "up", "closed": true}`` (RULES.md
        §2.0.4); default fields are left out."""
        d: dict[str, Any] = {"tile": self.code()}
        if self.end is not None:
            d["end"] = self.end
        if self.closed:
            d["closed"] = True
        if self.along:
            d["along"] = True
        return d


class Move(tuple):
    """A move: a tuple of :class:`Placement`, in the order they are laid (RULES.md §2.0.4).

    ``Move(tile, end)`` is the move of one tile (``closed``/``along``/``flip`` as keywords);
    :meth:`of` builds a move of several placements.  ``move.tile``/``move.end``/
    ``move.closed``/``move.along`` read the first placement.  Moves compare and hash as
    tuples, so the engine's legal moves can be looked up in a set.  :attr:`codes` is the
    move in the round core's terms (tile ids and end codes), computed once per object.
    """

    def __new__(cls, tile: Tile, end: str | None = None, *, closed: bool = False,
                along: bool = False, flip: bool = False) -> Move:
        return tuple.__new__(cls, (Placement(tile, end, closed, along, flip),))

    @classmethod
    def of(cls, placements) -> Move:
        """A move of the given placements (at least one). Raises ``ValueError`` if empty."""
        ps = tuple(p if isinstance(p, Placement) else Placement(*p) for p in placements)
        if not ps:
            raise ValueError("a move places at least one tile (RULES.md §2.0.4)")
        return tuple.__new__(cls, ps)

    @property
    def tile(self) -> Tile:
        """The first placement's tile."""
        return self[0].tile

    @property
    def end(self) -> str | None:
        """The first placement's end."""
        return self[0].end

    @property
    def closed(self) -> bool:
        """Whether the first placement is a closed double (§2.0.3)."""
        return self[0].closed

    @property
    def along(self) -> bool:
        """Whether the first placement is a double laid along (§2.5 rule 3)."""
        return self[0].along

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile of the move, in order."""
        return tuple(p.tile for p in self)

    @property
    def codes(self) -> tuple[tuple[int, int, bool, bool, bool], ...]:
        """``(tile_id, end_code, closed, along, flip)`` per placement, end code -1 for None.
        Raises ``ValueError`` for an unknown end name."""
        try:
            return self.__dict__["_c"]
        except KeyError:
            pass
        out = []
        for p in self:
            e = p.end
            if e is None:
                code = -1
            else:
                code = END_CODE.get(e, -2) if isinstance(e, str) else -2
                if code == -2:
                    raise ValueError(f"unknown end {e!r}: use one of {', '.join(END_NAMES)}")
            out.append((TILE_ID[p.tile], code, bool(p.closed), bool(p.along), bool(p.flip)))
        c = self.__dict__["_c"] = tuple(out)
        # the index of a single placement on a plain line's step table, -1 for others
        # (engine.layout.LINE_STEP; the round core's fast path reads it)
        self.__dict__["_s"] = c[0][0] * 98 + c[0][1] if len(c) == 1 and 0 <= c[0][1] <= 1 \
            and not c[0][2] and not c[0][3] else -1
        return c

    def to_dict(self) -> dict[str, Any]:
        """The record form of RULES.md §2.0.4: one placement's dict, or
        ``{"tiles": [placement, ...]}`` for several."""
        if len(self) == 1:
            return self[0].to_dict()
        return {"tiles": [p.to_dict() for p in self]}

    def __repr__(self) -> str:
        parts = []
        for p in self:
            s = str(p.tile) + (f" {p.end}" if p.end else "")
            if p.closed:
                s += " closed"
            if p.along:
                s += " along"
            if p.flip:
                s += " flipped"
            parts.append(s)
        return f"Move({', '.join(parts)})"

    def __reduce__(self):  # pickling (computer players decide in other processes)
        return (Move.of, (tuple(self),))


# Interned moves: the round core lists the same moves again and again.
_SINGLE: dict[tuple[int, int, bool, bool], Move] = {}


def single(tid: int, end: int, closed: bool = False, along: bool = False) -> Move:
    """The interned :class:`Move` of one placement: tile id ``tid`` on end code ``end`` (-1:
    the lead), with its :attr:`Move.codes` computed."""
    key = (tid, end, closed, along)
    m = _SINGLE.get(key)
    if m is None:
        from .tiles import TILES

        m = _SINGLE[key] = Move(TILES[tid], END_NAMES[end] if end >= 0 else None,
                                closed=closed, along=along)
        m.codes  # noqa: B018 - computed once, kept with the interned move
    return m


def several(placements) -> Move:
    """A :class:`Move` of several placements ``(tile_id, end_code, closed, along)``, with its
    :attr:`Move.codes` computed."""
    from .tiles import TILES

    m = Move.of(Placement(TILES[t], END_NAMES[e] if e >= 0 else None, c, a)
                for t, e, c, a in placements)
    m.codes  # noqa: B018
    return m
