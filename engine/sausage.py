"""The sausage of Колбаса: a head and two aligned lines growing from it, with doubles
inserted at junctions and cuts (RULES.md §2.12 rules 3, 5, 7 b).

One class, :class:`Sausage`, owns every rule of *where a tile goes* in that game: the numbers
of each line at each position, the placements of a tile (a line's end, a double at any
position that shows its number, a cut where the two lines show its two numbers), what a
placement does (a double pushes the tiles beyond it outward; a cut takes the head and the
first k tiles of both lines off the table and makes the cutting tile the new head), and which
tiles could still be placed at all (the fish of rule 7 b).  Nothing else in the engine places
a tile on the sausage.

A :class:`Sausage` is mutable; :meth:`Sausage.state` gives the immutable
:class:`SausageState` that the engine's API passes around (public: queue lengths, never queue
contents), and :meth:`SausageState.to_layout` turns one back.

Positions (rule 3): line ``a``'s number at position 0 is the head's half that starts it, at
position k ≥ 1 the outer half of its tile k.  Target codes (:mod:`engine.moves`):
``LINE_END + line`` (the end of line ``a`` = 0 / ``b`` = 1, a double laid there included),
``LINE_AT + 2 * j + line`` (a double inserted at the junction j < length), ``CUT + k``.
"""

from __future__ import annotations

from typing import NamedTuple

from .moves import CUT, LINE_AT, LINE_END, LINES
from .tiles import DOUBLE_MASK, HIGH, LOW, SUIT_MASK, TILE_ID, TILES, Tile

__all__ = ["Sausage", "SausageState"]

_ID = [[TILE_ID[Tile(min(a, b), max(a, b))] for b in range(7)] for a in range(7)]
_DOUBLE_BIT = tuple(1 << _ID[n][n] for n in range(7))
_NON_DOUBLE = tuple(SUIT_MASK[n] & ~DOUBLE_MASK for n in range(7))


class SausageState(NamedTuple):
    """An immutable snapshot of the sausage (compare with ``==``), RULES.md §2.12.

    - ``head``: ``(x, y)``, the head's half that starts line ``a`` and the one that starts
      line ``b`` (the lead [2|5]: ``(2, 5)``; after a cut by [x|y] at k: ``(x, y)``); None
      before the lead.
    - ``a``, ``b``: each line's tiles outward from the head as ``(inner, outer)`` pairs,
      ``inner`` touching what precedes it; every tile, doubles included, takes one position
      and lies along its line (rule 3).
    - ``turned``: the tile the player to act has turned over and must place, as ``(low,
      high)``, while a decision is awaited (rule 6); else None.
    - ``queues``: the length of each seat's queue (public: nobody sees a queue's tiles,
      rule 1); a turned-over tile that waits for its placement is in none.
    - ``mask``: bit mask of the tiles on the table; ``last_mask``: the last placement's
      tile.
    """

    head: tuple[int, int] | None
    a: tuple[tuple[int, int], ...]
    b: tuple[tuple[int, int], ...]
    turned: tuple[int, int] | None
    queues: tuple[int, ...]
    mask: int
    last_mask: int

    #: The kind of layout (``LayoutState.kind`` is ``"line"`` or ``"cross"``).
    kind = "sausage"

    def numbers(self, line: str) -> tuple[int, ...]:
        """The numbers of ``line`` (``"a"``/``"b"``) at positions 0, 1, …, length (rule 3);
        () before the lead."""
        if self.head is None:
            return ()
        tiles = self.a if line == "a" else self.b
        return (self.head[0 if line == "a" else 1],) + tuple(o for _, o in tiles)

    @property
    def ends(self) -> tuple[int, int] | tuple[()]:
        """The numbers at the ends of lines ``a`` and ``b``; () before the lead."""
        if self.head is None:
            return ()
        return (self.a[-1][1] if self.a else self.head[0],
                self.b[-1][1] if self.b else self.head[1])

    @property
    def tiles(self) -> int:
        """How many tiles lie on the table."""
        return (self.head is not None) + len(self.a) + len(self.b)

    def to_layout(self) -> Sausage:
        """A mutable :class:`Sausage` equal to this snapshot."""
        return Sausage.from_state(self)


class Sausage:
    """The sausage of one round (RULES.md §2.12), mutable.

    Attributes: ``head`` (tile id, -1 before the lead), ``hx``/``hy`` (the head's numbers
    that start lines ``a`` and ``b``), ``lines`` (the two lines' ``(inner, outer)`` pairs),
    ``turned`` (tile id or -1), ``queues`` (lengths per seat), ``mask``, ``last_mask``.
    ``pos`` is -2: the round core leaves the moves and the turns to the variant
    (:data:`engine.layout.OWN_TURNS`).  Methods never check legality: :meth:`placements`
    lists what may go where, and the variant checks a move against it before :meth:`place`.
    """

    __slots__ = ("head", "hx", "hy", "lines", "turned", "queues", "mask", "last_mask")

    pos = -2

    def __init__(self, seats: int = 2) -> None:
        self.head = -1
        self.hx = self.hy = -1
        self.lines: list[list[tuple[int, int]]] = [[], []]
        self.turned = -1
        self.queues = [0] * seats
        self.mask = 0
        self.last_mask = 0

    # ------------------------------------------------------------------ values

    def copy(self) -> Sausage:
        """An independent copy."""
        c = Sausage.__new__(Sausage)
        c.head = self.head
        c.hx = self.hx
        c.hy = self.hy
        c.lines = [list(self.lines[0]), list(self.lines[1])]
        c.turned = self.turned
        c.queues = list(self.queues)
        c.mask = self.mask
        c.last_mask = self.last_mask
        return c

    def state(self) -> SausageState:
        """The immutable snapshot."""
        t = self.turned
        return SausageState(None if self.head < 0 else (self.hx, self.hy),
                            tuple(self.lines[0]), tuple(self.lines[1]),
                            None if t < 0 else (LOW[t], HIGH[t]), tuple(self.queues),
                            self.mask, self.last_mask)

    @classmethod
    def from_state(cls, st: SausageState) -> Sausage:
        """A mutable sausage equal to the snapshot ``st``."""
        s = cls.__new__(cls)
        if st.head is None:
            s.head, s.hx, s.hy = -1, -1, -1
        else:
            s.hx, s.hy = st.head
            s.head = _ID[s.hx][s.hy]
        s.lines = [list(st.a), list(st.b)]
        s.turned = -1 if st.turned is None else _ID[st.turned[0]][st.turned[1]]
        s.queues = list(st.queues)
        s.mask = st.mask
        s.last_mask = st.last_mask
        return s

    @property
    def empty(self) -> bool:
        """True before the lead."""
        return self.head < 0

    def number(self, line: int, k: int) -> int:
        """The number of line ``line`` (0 = ``a``, 1 = ``b``) at position ``k`` (rule 3)."""
        if k == 0:
            return self.hx if line == 0 else self.hy
        return self.lines[line][k - 1][1]

    def end(self, line: int) -> int:
        """The number at the end of line ``line``."""
        tiles = self.lines[line]
        return tiles[-1][1] if tiles else (self.hx if line == 0 else self.hy)

    # ------------------------------------------------------------------ rules

    def placements(self, tid: int) -> list[int]:
        """The target codes where tile ``tid`` may go (RULES.md §2.12 rule 5), ascending:
        the ends of ``a`` and ``b`` (a non-double showing that end's number, rule 5 a; a
        double showing it, rule 5 b), a double at every junction of ``a`` and ``b`` whose
        number it shows (rule 5 b), and a cut at every position k (1 ≤ k ≤ the shorter
        line's length) where the lines show the tile's two numbers (rule 5 c).  [] before
        the lead (the lead is the head, rule 2)."""
        if self.head < 0:
            return []
        lo, hi = LOW[tid], HIGH[tid]
        out = []
        la, lb = self.lines
        if lo != hi:
            for line in (0, 1):
                e = self.end(line)
                if lo == e or hi == e:
                    out.append(LINE_END + line)
        else:
            for line, tiles in ((0, la), (1, lb)):
                if (self.hx if line == 0 else self.hy) == lo and tiles:
                    out.append(LINE_AT + line)
                last = len(tiles)
                for j in range(1, last):
                    if tiles[j - 1][1] == lo:
                        out.append(LINE_AT + 2 * j + line)
                if self.end(line) == lo:
                    out.append(LINE_END + line)
        for k in range(1, min(len(la), len(lb)) + 1):
            x = la[k - 1][1]
            y = lb[k - 1][1]
            if (x == lo and y == hi) or (x == hi and y == lo):
                out.append(CUT + k)
        out.sort()
        return out

    def lead(self, tid: int) -> None:
        """The head of the round (rule 2): line ``a`` from its lower half, ``b`` from its
        higher half (both from its number for a double)."""
        self.head = tid
        self.hx, self.hy = LOW[tid], HIGH[tid]
        bit = 1 << tid
        self.mask |= bit
        self.last_mask = bit

    def place(self, tid: int, code: int) -> list[int]:
        """Lay tile ``tid`` at target ``code`` (rule 5); returns the tile ids a cut takes off
        the table, in the order they join the opponent's queue (the old head, line ``a``'s
        tiles 1…k, line ``b``'s tiles 1…k), else [].  The caller has checked the placement
        (:meth:`placements`)."""
        bit = 1 << tid
        self.last_mask = bit
        if code >= CUT:
            k = code - CUT
            la, lb = self.lines
            x = la[k - 1][1]
            y = lb[k - 1][1]
            gone = [self.head] + [_ID[p][q] for p, q in la[:k]] + \
                [_ID[p][q] for p, q in lb[:k]]
            for g in gone:
                self.mask &= ~(1 << g)
            self.head = tid
            self.hx, self.hy = x, y
            self.lines = [la[k:], lb[k:]]
            self.mask |= bit
            return gone
        self.mask |= bit
        if code >= LINE_AT:
            line = (code - LINE_AT) & 1
            j = (code - LINE_AT) >> 1
            n = self.number(line, j)
            self.lines[line].insert(j, (n, n))
            return []
        line = code - LINE_END
        n = self.end(line)
        other = HIGH[tid] if LOW[tid] == n else LOW[tid]
        self.lines[line].append((n, other))
        return []

    def fit(self) -> int:
        """Bit mask of the tiles that have some placement on the table as it is (rule 7 b):
        the non-doubles showing an end's number, the doubles of every number a line shows
        at some position, and the tiles that cut at some position; 0 before the lead."""
        if self.head < 0:
            return 0
        la, lb = self.lines
        m = _NON_DOUBLE[self.end(0)] | _NON_DOUBLE[self.end(1)] | \
            _DOUBLE_BIT[self.hx] | _DOUBLE_BIT[self.hy]
        for _, o in la:
            m |= _DOUBLE_BIT[o]
        for _, o in lb:
            m |= _DOUBLE_BIT[o]
        for k in range(min(len(la), len(lb))):
            m |= 1 << _ID[la[k][1]][lb[k][1]]
        return m & ~self.mask

    def target_text(self, code: int) -> str:
        """A target code as words for messages: ``line a``, ``line b at 2``, ``cut 3``."""
        if code >= CUT:
            return f"cut {code - CUT}"
        if code >= LINE_AT:
            return f"line {LINES[(code - LINE_AT) & 1]} at {(code - LINE_AT) >> 1}"
        return f"line {LINES[code - LINE_END]}"

    def tile_text(self, tid: int) -> str:
        """``[a|b]``."""
        return str(TILES[tid])
