"""Placements and moves (RULES.md §2.0.4, §2.10.0), and the names of where they go.

A *placement* is one tile put somewhere on the layout: ``(tile, target)``.  On the line and
the cross the target is an end (``closed``/``along`` say how a double lies); on the trains of
RULES.md §2.11 it is a ``train``; on the sausage of §2.12 a ``line`` (with ``at``, the
position of a double inserted at a junction) or a ``cut`` (§2.10.0: "(tile, end, closed?)
becomes (tile, target)").  A *move* is one placement, or — where the variant allows it —
several at once (several doubles, RULES.md §2.0.4; the two tiles per turn after the
extraordinary lead, §2.1 rule 7).  So "one tile" and "several doubles at once" are the same
type: :class:`Move` is a tuple of :class:`Placement`.  In ``mexican_train`` a turn of several
placements is several moves, each its own decision (§2.11 rule 8).

Ends (RULES.md §2.0.1–§2.0.2, §2.1 rule 7): ``left`` and ``right`` on every layout, ``up`` and
``down`` once a cross has its spinner, ``gap`` after the extraordinary lead.  ``end`` None
means the lead, or a tile that fits exactly one open end (or both ends of a line that show
the same number: then it means ``right``); a placement with no target at all on the trains or
the sausage means the one place the tile may go (§2.11 rule 15).

In the round core's terms (:attr:`Move.codes`) every target is one integer, the *target
code*: the end codes 0..4 (:data:`END_CODE`), -1 for none, :data:`TRAIN` + seat and
:data:`MEXICAN` for the trains, :data:`LINE_END` + line, :data:`LINE_AT` + 2 × position +
line and :data:`CUT` + position for the sausage (line ``a`` 0, ``b`` 1).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .tiles import TILE_ID, Tile

__all__ = [
    "LEFT", "RIGHT", "UP", "DOWN", "GAP", "END_NAMES", "END_CODE",
    "TRAIN", "MEXICAN", "LINE_END", "LINE_AT", "CUT", "LINES",
    "Placement", "Move", "single", "several", "target_code", "target_fields",
]

#: End codes, in the order every listing uses (RULES.md §2.0.2).
LEFT, RIGHT, UP, DOWN, GAP = 0, 1, 2, 3, 4
#: The name of each end code.
END_NAMES = ("left", "right", "up", "down", "gap")
#: The code of each end name.
END_CODE = {name: code for code, name in enumerate(END_NAMES)}

#: Target codes of the trains (RULES.md §2.11 rule 4): seat ``s``'s train is ``TRAIN + s``
#: (seats 0..7), the Mexican train ``MEXICAN``.
TRAIN = 16
MEXICAN = 24
#: Target codes of the sausage (RULES.md §2.12 rule 5): the end of line ``a``/``b`` is
#: ``LINE_END + 0/1``; a double at position ``j`` of a line ``LINE_AT + 2 * j + line``; a cut
#: at position ``k`` ``CUT + k``.
LINE_END = 32
LINE_AT = 64
CUT = 1024
#: The names of the sausage's lines, by index (RULES.md §2.12 rule 3).
LINES = ("a", "b")
_LINE_CODE = {"a": 0, "b": 1}


def target_code(p: Placement) -> int:
    """The target code of placement ``p`` (module doc): its end's code, or its train, line
    and position, or cut; -1 when it names none.  Raises ``ValueError`` for an unknown end,
    train or line, or for a placement that names targets of two kinds."""
    kinds = (p.end is not None) + (p.train is not None) + (p.line is not None) + \
        (p.cut is not None)
    if kinds > 1:
        raise ValueError("a placement names one target: an end, a train, a line or a cut "
                         "(RULES.md §2.10.0)")
    if p.at is not None and p.line is None:
        raise ValueError("\"at\" is a position on a line: name the line (RULES.md §2.12 rule 11)")
    e = p.end
    if e is not None:
        code = END_CODE.get(e, -2) if isinstance(e, str) else -2
        if code == -2:
            raise ValueError(f"unknown end {e!r}: use one of {', '.join(END_NAMES)}")
        return code
    if p.train is not None:
        tr = p.train
        if tr == "mexican":
            return MEXICAN
        if type(tr) is int and 0 <= tr < MEXICAN - TRAIN:
            return TRAIN + tr
        raise ValueError(f"unknown train {tr!r}: a seat (0-based) or \"mexican\" "
                         "(RULES.md §2.11 rule 15)")
    if p.line is not None:
        line = _LINE_CODE.get(p.line) if isinstance(p.line, str) else None
        if line is None:
            raise ValueError(f"unknown line {p.line!r}: use a or b (RULES.md §2.12 rule 3)")
        if p.at is None:
            return LINE_END + line
        if type(p.at) is not int or not 0 <= p.at < (CUT - LINE_AT) // 2:
            raise ValueError(f"\"at\" must be a position 0, 1, … of the line, not {p.at!r}")
        return LINE_AT + 2 * p.at + line
    if p.cut is not None:
        if type(p.cut) is not int or not 1 <= p.cut < 1000:
            raise ValueError(f"\"cut\" must be a position 1, 2, …, not {p.cut!r} "
                             "(RULES.md §2.12 rule 5)")
        return CUT + p.cut
    return -1


def target_fields(code: int) -> dict[str, Any]:
    """The :class:`Placement` fields of a target code (the inverse of :func:`target_code`):
    ``{"end": "left"}``, ``{"train": 2}``, ``{"train": "mexican"}``, ``{"line": "a"}``,
    ``{"line": "b", "at": 3}``, ``{"cut": 2}``, or ``{}`` for -1."""
    if code < 0:
        return {}
    if code < TRAIN:
        return {"end": END_NAMES[code]}
    if code < MEXICAN:
        return {"train": code - TRAIN}
    if code == MEXICAN:
        return {"train": "mexican"}
    if code < LINE_AT:
        return {"line": LINES[code - LINE_END]}
    if code < CUT:
        return {"line": LINES[(code - LINE_AT) & 1], "at": (code - LINE_AT) >> 1}
    return {"cut": code - CUT}


class Placement(NamedTuple):
    """One tile on one target (RULES.md §2.0.4, §2.10.0).

    - ``tile``: the :class:`engine.tiles.Tile` (``a <= b``).
    - ``end``: an end name (:data:`END_NAMES`) or None (the lead; or the only end it fits).
    - ``closed``: a double placed face down, closing that end (§2.0.3).
    - ``along``: a double laid along, counting once (Маггинс, §2.5 rule 3).
    - ``flip``: a lead laid high half first: the lead ``"6-5"`` shows 6 at the left end
      (RULES.md §0); False lays it as ``a|b`` (``"5-6"``).  Only a lead reads it.
    - ``train``: on the trains (§2.11 rule 4), a seat's train by its 0-based seat, or
      ``"mexican"``; None where the tile has one legal placement only (rule 15).
    - ``line``: on the sausage (§2.12 rule 3), ``"a"`` or ``"b"``: the line's end, or with
      ``at`` the position ``j`` where a double goes (``at`` None: the end, rule 5 b).
    - ``cut``: on the sausage, the position ``k`` of a cut (§2.12 rule 5 c).

    At most one of ``end``, ``train``, ``line`` and ``cut`` is given (:func:`target_code`).
    """

    tile: Tile
    end: str | None = None
    closed: bool = False
    along: bool = False
    flip: bool = False
    train: int | str | None = None
    line: str | None = None
    at: int | None = None
    cut: int | None = None

    def code(self) -> str:
        """The tile as a record writes it: ``"a-b"``, or ``"b-a"`` for a flipped lead."""
        t = self.tile
        return f"{t.b}-{t.a}" if self.flip else f"{t.a}-{t.b}"

    def to_dict(self) -> dict[str, Any]:
        """The record form ``{"tile": "2-5", "end": "up", "closed": true}`` (RULES.md
        §2.0.4), ``{"tile": "5-12", "train": 0}`` (§2.11 rule 15), ``{"tile": "6-6", "line":
        "a", "at": 2}`` or ``{"tile": "0-1", "cut": 3}`` (§2.12 rule 11); default fields are
        left out."""
        d: dict[str, Any] = {"tile": self.code()}
        if self.end is not None:
            d["end"] = self.end
        if self.closed:
            d["closed"] = True
        if self.along:
            d["along"] = True
        if self.train is not None:
            d["train"] = self.train
        if self.line is not None:
            d["line"] = self.line
            if self.at is not None:
                d["at"] = self.at
        if self.cut is not None:
            d["cut"] = self.cut
        return d

    def target(self) -> str:
        """Where it goes, as text for messages: ``left``, ``train 2``, ``train mexican``,
        ``line a``, ``line b at 3``, ``cut 2``, or ``""``."""
        if self.end is not None:
            return self.end
        if self.train is not None:
            return f"train {self.train}"
        if self.line is not None:
            return f"line {self.line}" + ("" if self.at is None else f" at {self.at}")
        if self.cut is not None:
            return f"cut {self.cut}"
        return ""


class Move(tuple):
    """A move: a tuple of :class:`Placement`, in the order they are laid (RULES.md §2.0.4).

    ``Move(tile, end)`` is the move of one tile (``closed``/``along``/``flip``, and
    ``train``/``line``/``at``/``cut`` on the trains and the sausage, as keywords:
    ``Move(tile, train=0)``, ``Move(tile, line="a", at=2)``, ``Move(tile, cut=3)``);
    :meth:`of` builds a move of several placements.  ``move.tile``/``move.end``/
    ``move.closed``/``move.along`` read the first placement.  Moves compare and hash as
    tuples, so the engine's legal moves can be looked up in a set.  :attr:`codes` is the
    move in the round core's terms (tile ids and target codes), computed once per object.
    """

    def __new__(cls, tile: Tile, end: str | None = None, *, closed: bool = False,
                along: bool = False, flip: bool = False, train: int | str | None = None,
                line: str | None = None, at: int | None = None, cut: int | None = None
                ) -> Move:
        if train is None and line is None and cut is None:
            return tuple.__new__(cls, (Placement(tile, end, closed, along, flip),))
        return tuple.__new__(cls, (Placement(tile, end, closed, along, flip, train, line, at,
                                             cut),))

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
    def train(self) -> int | str | None:
        """The first placement's train (RULES.md §2.11)."""
        return self[0].train

    @property
    def line(self) -> str | None:
        """The first placement's line (RULES.md §2.12)."""
        return self[0].line

    @property
    def at(self) -> int | None:
        """The first placement's position on its line (RULES.md §2.12)."""
        return self[0].at

    @property
    def cut(self) -> int | None:
        """The first placement's cut position (RULES.md §2.12)."""
        return self[0].cut

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile of the move, in order."""
        return tuple(p.tile for p in self)

    @property
    def codes(self) -> tuple[tuple[int, int, bool, bool, bool], ...]:
        """``(tile_id, target_code, closed, along, flip)`` per placement, target code -1 for
        none (:func:`target_code`).  Raises ``ValueError`` for an unknown end, train or
        line."""
        try:
            return self.__dict__["_c"]
        except KeyError:
            pass
        out = []
        for p in self:
            e = p.end
            if p.train is None and p.line is None and p.cut is None:
                if e is None:
                    code = -1
                else:
                    code = END_CODE.get(e, -2) if isinstance(e, str) else -2
                    if code == -2:
                        raise ValueError(
                            f"unknown end {e!r}: use one of {', '.join(END_NAMES)}")
            else:
                code = target_code(p)
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
            s = str(p.tile) + (f" {p.target()}" if p.target() else "")
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
    """The interned :class:`Move` of one placement: tile id ``tid`` on target code ``end``
    (-1: the lead, or no target), with its :attr:`Move.codes` computed."""
    key = (tid, end, closed, along)
    m = _SINGLE.get(key)
    if m is None:
        from .tiles import ALL_TILES

        if end < TRAIN:
            m = Move(ALL_TILES[tid], END_NAMES[end] if end >= 0 else None, closed=closed,
                     along=along)
        else:
            m = Move(ALL_TILES[tid], **target_fields(end))
        m.codes  # noqa: B018 - computed once, kept with the interned move
        if len(_SINGLE) > 100_000:  # pragma: no cover - sausage positions are unbounded
            _SINGLE.clear()
        _SINGLE[key] = m
    return m


def several(placements) -> Move:
    """A :class:`Move` of several placements ``(tile_id, end_code, closed, along)``, with its
    :attr:`Move.codes` computed."""
    from .tiles import TILES

    m = Move.of(Placement(TILES[t], END_NAMES[e] if e >= 0 else None, c, a)
                for t, e, c, a in placements)
    m.codes  # noqa: B018
    return m
