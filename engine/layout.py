"""The tiles on the table and their geometry: the line, the cross, closed doubles, the gap.

RULES.md §2.0.  One class, :class:`Layout`, owns every rule of *where a tile goes*: which
ends exist and what they show, the spinner of a cross (§2.0.2), closing (§2.0.3), the
extraordinary lead's gap (§2.1 rule 7), fish on any layout (§2.0.5) and the count (§2.0.6).
Nothing else in the engine places a tile.

A :class:`Layout` is mutable (the round core reuses it move after move); :meth:`Layout.state`
gives an immutable :class:`LayoutState` for the engine's API, and :meth:`Layout.from_state`
turns one back.

End values (``Layout.ends``, one per end code of :mod:`engine.moves`):

- ``0..6``: an open end showing that number;
- :data:`NO_END` (-1): the end does not exist (``up``/``down`` before a spinner, the gap
  outside the extraordinary lead);
- :data:`CLOSED` (-2): a closed double shut it (§2.0.3);
- :data:`GAP_OPEN` (7): the gap, which only [0|6] fits.
"""

from __future__ import annotations

from typing import NamedTuple

from .moves import DOWN, END_NAMES, GAP, LEFT, RIGHT, UP, single
from .tiles import HIGH, LOW, SUIT_MASK, SUIT_NONDOUBLE_MASK, TILE_ID, Tile, ids_of

__all__ = [
    "NO_END", "CLOSED", "GAP_OPEN", "ACROSS", "ALONG", "FACE_DOWN", "PLAIN", "OWN_TURNS",
    "Layout", "LayoutState", "Line", "fit_mask", "LINE_STEP", "LINE_MOVES",
]

NO_END = -1
CLOSED = -2
GAP_OPEN = 7
#: ``pos`` of a layout of its own kind (the trains of RULES.md §2.11, :mod:`engine.trains`;
#: the sausage of §2.12, :mod:`engine.sausage`): the round core neither looks up nor caches
#: its moves, and leaves a move's placement and the turn that follows to the variant
#: (:attr:`engine.variant.Variant.play_move`).
OWN_TURNS = -2

#: How a tile lies (``LayoutState`` triples ``(a, b, lay)``): a non-double or a double in
#: line with the chain, a double across (counts both halves at an end, §2.0.6), a double
#: along (Маггинс, counts once), a closed double face down (§2.0.3).
PLAIN, ACROSS, ALONG, FACE_DOWN = "", "across", "along", "closed"

_ZERO_SIX = TILE_ID[Tile(0, 6)]
_ZERO_SIX_BIT = 1 << _ZERO_SIX
# FIT[v + 2]: the tiles that fit an end of value v.
_FIT = (0, 0) + SUIT_MASK + (_ZERO_SIX_BIT,)


def fit_mask(value: int) -> int:
    """Bit mask of the tiles that fit an end of ``value`` (see the module doc)."""
    return _FIT[value + 2]


# _OTHER[tile_id][n]: the other half of the tile when it shows n, else -1.
_OTHER = tuple(
    tuple((HIGH[t] if LOW[t] == n else LOW[t]) if n in (LOW[t], HIGH[t]) else -1
          for n in range(7))
    for t in range(28)
)
_IS_DOUBLE = tuple(LOW[t] == HIGH[t] for t in range(28))
_DOUBLE_ID = tuple(TILE_ID[Tile(n, n)] for n in range(7))


class Line(NamedTuple):
    """The line of a layout as the classic API reads it (RULES.md §0, §2.0.1): ``tiles`` are
    oriented ``(a, b)`` pairs left to right, ``left``/``right`` the numbers of its ends (-1
    before the lead or when that end is closed)."""

    tiles: tuple[tuple[int, int], ...]
    left: int
    right: int

    @property
    def ends(self) -> tuple[int, ...]:
        """``()`` before the lead, else ``(left, right)`` (RULES.md §1.7)."""
        return () if not self.tiles else (self.left, self.right)


class LayoutState(NamedTuple):
    """An immutable snapshot of a :class:`Layout` (compare with ``==``).

    - ``cross``: a spinner may appear (RULES.md §2.0.2).
    - ``line``: ``(a, b, lay)`` triples left to right; ``up``/``down``: the arms outward from
      the spinner, ``a`` touching the spinner side.
    - ``ends``: per end code (left, right, up, down, gap): the end's value (module doc).
    - ``spinner``: its number, -1 while there is none; ``spin_at`` its index in ``line``;
      ``sides``: bit 0 set once a tile lies left of it, bit 1 right of it.
    - ``gap_at``: index in ``line`` before which the extraordinary lead's gap lies, -1 if none.
    - ``mask``: bit mask of the tiles on the table; ``last_mask``: those of the last move.
    - ``lead_at``: index in ``line`` of the round's lead (its first tile), -1 before it.
    """

    cross: bool
    line: tuple[tuple[int, int, str], ...]
    up: tuple[tuple[int, int, str], ...]
    down: tuple[tuple[int, int, str], ...]
    ends: tuple[int, ...]
    spinner: int
    spin_at: int
    sides: int
    gap_at: int
    mask: int
    last_mask: int
    lead_at: int = -1

    @property
    def kind(self) -> str:
        """The kind of layout: ``"line"`` (RULES.md §2.0.1) or ``"cross"`` (§2.0.2); the
        trains and the sausage have states of their own (``"trains"``, ``"sausage"``)."""
        return "cross" if self.cross else "line"

    def to_layout(self) -> Layout:
        """A mutable :class:`Layout` equal to this snapshot."""
        return Layout.from_state(self)

    @property
    def last(self) -> tuple[tuple[str, int], ...]:
        """Where the last move's tiles lie, as ``(arm, index)`` with arm ``"line"``, ``"up"``
        or ``"down"``."""
        out = []
        for arm, tiles in (("line", self.line), ("up", self.up), ("down", self.down)):
            for i, (a, b, _) in enumerate(tiles):
                if self.last_mask >> TILE_ID[Tile.of(a, b)] & 1:
                    out.append((arm, i))
        return tuple(out)

    @property
    def chain(self) -> tuple[tuple[int, int], ...]:
        """The line as oriented ``(a, b)`` pairs, left to right (RULES.md §0)."""
        return tuple((a, b) for a, b, _ in self.line)

    @property
    def open_ends(self) -> dict[str, int | None]:
        """Every open end by name with the number it shows (None for the gap)."""
        out: dict[str, int | None] = {}
        for code, v in enumerate(self.ends):
            if 0 <= v <= 6:
                out[END_NAMES[code]] = v
            elif v == GAP_OPEN:
                out[END_NAMES[code]] = None
        return out

    @property
    def closed_ends(self) -> tuple[str, ...]:
        """The names of the ends closed by a closed double (§2.0.3)."""
        return tuple(END_NAMES[c] for c, v in enumerate(self.ends) if v == CLOSED)

    @property
    def tiles(self) -> int:
        """How many tiles lie on the table."""
        return len(self.line) + len(self.up) + len(self.down)

    def count(self) -> int | None:
        """The count (RULES.md §2.0.6); None before the lead."""
        return Layout.from_state(self).count()

    def end_counts(self) -> dict[str, int] | None:
        """What each end adds to the count (RULES.md §2.0.6), by end name; see
        :meth:`Layout.end_counts`. None before the lead."""
        return Layout.from_state(self).end_counts()


# A plain line's placements, precomputed (the classic hot path, RULES.md §1.7, §2.0.1):
# LINE_STEP[(tid * 49 + left * 7 + right) * 2 + end] for end 0 (left) / 1 (right) is None when
# the tile does not fit, else (new left, new right, the laid triple, fit mask, no-double mask,
# new position left * 7 + right, tile id, end).
# Layout.place and the round core's fast path both read it.
def _line_row(tid: int, left: int, right: int, end: int):
    n = right if end else left
    other = _OTHER[tid][n]
    if other < 0:
        return None
    lay = ACROSS if _IS_DOUBLE[tid] else PLAIN
    if end:
        nl, nr, laid = left, other, (n, other, lay)
    else:
        nl, nr, laid = other, right, (other, n, lay)
    return nl, nr, laid, _FIT[nl + 2] | _FIT[nr + 2], \
        SUIT_NONDOUBLE_MASK[nl] if nl == nr else 0, nl * 7 + nr, tid, end


LINE_STEP = tuple(_line_row(t, left, right, e) for t in range(28) for left in range(7)
                  for right in range(7) for e in (0, 1))
def _line_moves(tid: int, left: int, right: int) -> tuple:
    fl = _OTHER[tid][left] >= 0
    fr = _OTHER[tid][right] >= 0
    if fl and fr and left == right:
        return (single(tid, RIGHT),)
    return ((single(tid, LEFT),) if fl else ()) + ((single(tid, RIGHT),) if fr else ())


#: LINE_MOVES[left * 7 + right][1 << tid]: the moves of one tile on a plain line (RULES.md
#: §1.7; both ends showing the same number: one move, on the right, §2.0.4).
LINE_MOVES = tuple({1 << t: _line_moves(t, left, right) for t in range(28)}
                   for left in range(7) for right in range(7))


class Layout:
    """The tiles of one round on the table (RULES.md §2.0), mutable.

    ``Layout(cross)`` is an empty table: a line (``cross`` False, §2.0.1) or a table on which
    the first double placed face up becomes the spinner (``cross`` True, §2.0.2).  The
    attributes are those of :class:`LayoutState`, and: ``fit``, the mask of the tiles that fit
    some open end; ``pos``, ``left * 7 + right`` for a non-empty line with no gap (a plain line:
    the fast path), else -1.
    Methods never check legality: :meth:`placements` lists what may go where, and the round
    core checks a move against it before :meth:`place`.
    """

    __slots__ = ("cross", "line", "up", "down", "ends", "spinner", "spin_at", "sides",
                 "gap_at", "mask", "last_mask", "fit", "pos", "lead_tid")

    def __init__(self, cross: bool = False) -> None:
        self.cross = cross
        self.line: list[tuple[int, int, str]] = []
        self.up: list[tuple[int, int, str]] = []
        self.down: list[tuple[int, int, str]] = []
        self.ends = [NO_END] * 5
        self.spinner = -1
        self.spin_at = -1
        self.sides = 0
        self.gap_at = -1
        self.mask = 0
        self.last_mask = 0
        self.lead_tid = -1
        self.fit = 0
        self.pos = -1

    # ------------------------------------------------------------------ values

    def copy(self) -> Layout:
        """An independent copy."""
        c = Layout.__new__(Layout)
        c.cross = self.cross
        c.line = list(self.line)
        c.up = list(self.up)
        c.down = list(self.down)
        c.ends = list(self.ends)
        c.spinner = self.spinner
        c.spin_at = self.spin_at
        c.sides = self.sides
        c.gap_at = self.gap_at
        c.lead_tid = self.lead_tid
        c.mask = self.mask
        c.last_mask = self.last_mask
        c.fit = self.fit
        c.pos = self.pos
        return c

    def state(self) -> LayoutState:
        """The immutable snapshot."""
        return LayoutState(self.cross, tuple(self.line), tuple(self.up), tuple(self.down),
                           tuple(self.ends), self.spinner, self.spin_at, self.sides,
                           self.gap_at, self.mask, self.last_mask, self._lead_at())

    def _lead_at(self) -> int:
        """Where the lead lies in the line now (tiles placed on the left moved it right)."""
        if self.lead_tid < 0:
            return -1
        a, b = LOW[self.lead_tid], HIGH[self.lead_tid]
        for i, (x, y, _) in enumerate(self.line):
            if (x == a and y == b) or (x == b and y == a):
                return i
        return -1

    @classmethod
    def from_state(cls, st: LayoutState) -> Layout:
        """A mutable layout equal to the snapshot ``st``."""
        lay = cls(st.cross)
        lay.line = list(st.line)
        lay.up = list(st.up)
        lay.down = list(st.down)
        lay.ends = list(st.ends)
        lay.spinner = st.spinner
        lay.spin_at = st.spin_at
        lay.sides = st.sides
        lay.gap_at = st.gap_at
        if 0 <= st.lead_at < len(st.line):
            x, y, _ = st.line[st.lead_at]
            lay.lead_tid = TILE_ID[Tile.of(x, y)]
        lay.mask = st.mask
        lay.last_mask = st.last_mask
        lay.refit()
        return lay

    @classmethod
    def of_line(cls, chain, cross: bool = False) -> Layout:
        """A line laid from oriented ``(a, b)`` pairs, left to right (for positions written
        by hand, e.g. in tests); doubles lie across.  Raises ``ValueError`` when touching
        halves do not match."""
        lay = cls(cross)
        pairs = [(int(a), int(b)) for a, b in chain]
        for (_, b), (a, _) in zip(pairs, pairs[1:], strict=False):
            if a != b:
                raise ValueError(f"the chain does not match at {b}|{a} (RULES.md §0)")
        for a, b in pairs:
            lay.line.append((a, b, ACROSS if a == b else PLAIN))
            lay.mask |= 1 << TILE_ID[Tile.of(a, b)]
        if pairs:
            lay.ends[LEFT] = pairs[0][0]
            lay.ends[RIGHT] = pairs[-1][1]
        lay.refit()
        return lay

    def refit(self) -> None:
        """Recompute ``fit`` and ``pos`` from the ends."""
        ends = self.ends
        self.fit = (_FIT[ends[0] + 2] | _FIT[ends[1] + 2] | _FIT[ends[2] + 2]
                    | _FIT[ends[3] + 2] | _FIT[ends[4] + 2])
        self.pos = ends[0] * 7 + ends[1] if self.line and not self.cross and ends[GAP] == NO_END \
            and ends[0] >= 0 and ends[1] >= 0 else -1

    def ends_key(self) -> int:
        """An integer that identifies the open ends and whether a spinner exists (the round
        core caches moves by it)."""
        key = 0
        for e, v in enumerate(self.ends):
            key |= (v + 2) << (4 * e)
        return key | ((self.spinner >= 0) << 20)

    def nd_mask(self) -> int:
        """The six non-doubles of *n* when every open end shows *n*, else 0 (fish b,
        RULES.md §1.10 b, §2.0.5; never while the gap is open)."""
        n = -1
        for v in self.ends:
            if v == GAP_OPEN:
                return 0
            if 0 <= v <= 6:
                if n < 0:
                    n = v
                elif v != n:
                    return 0
        return SUIT_NONDOUBLE_MASK[n] if n >= 0 else 0

    @property
    def empty(self) -> bool:
        """True before the lead."""
        return not self.line

    @property
    def chain(self) -> tuple[tuple[int, int], ...]:
        """The line as oriented pairs, left to right."""
        return tuple((a, b) for a, b, _ in self.line)

    # ------------------------------------------------------------------ rules

    def fits(self, tid: int, end: int) -> bool:
        """Whether tile ``tid`` may go on end code ``end`` (an open end that shows one of its
        numbers; the gap takes [0|6] only) (RULES.md §2.0.2, §2.1 rule 7)."""
        return bool(_FIT[self.ends[end] + 2] >> tid & 1)

    def fitting_ends(self, tid: int) -> list[int]:
        """The end codes tile ``tid`` fits, in end order."""
        return [e for e in range(5) if _FIT[self.ends[e] + 2] >> tid & 1]

    def equal_line_ends(self) -> bool:
        """Both ends of a line (a cross before its spinner) show the same number: a tile that
        fits both is one placement, ``right`` (RULES.md §2.0.4)."""
        ends = self.ends
        return self.spinner < 0 and ends[LEFT] == ends[RIGHT] and ends[LEFT] >= 0

    def placements(self, hand: int, *, closing: bool = False, along: bool = False,
                   lead_id: int = -1) -> list[tuple[int, int, bool, bool]]:
        """Every single placement of a tile of ``hand`` (a mask) as ``(tile_id, end_code,
        closed, along)``, end code -1 for the lead, by tile ([0|0] first) and then by end
        (RULES.md §2.0.2–§2.0.4).

        On an empty table: one lead per tile (only ``lead_id`` when it is not -1), never
        closed.  Otherwise every open end each tile fits; a tile that fits both ends of a
        line showing the same number once, on the right.  With ``closing`` a double may
        also be placed closed (§2.0.3); with ``along`` a double that does not become the
        spinner may also be laid along (§2.5 rule 3).
        """
        if not self.line:
            if lead_id >= 0:
                return [(lead_id, -1, False, False)] if hand >> lead_id & 1 else []
            return [(t, -1, False, False) for t in ids_of(hand)]
        out = []
        ends = self.ends
        skip_left = self.equal_line_ends()
        new_spinner = self.cross and self.spinner < 0
        open_ends = [(e, _FIT[v + 2]) for e, v in enumerate(ends)
                     if v >= 0 and not (e == LEFT and skip_left)]
        for t in ids_of(hand & self.fit):
            bit = 1 << t
            for e, fit in open_ends:
                if not fit & bit:
                    continue
                out.append((t, e, False, False))
                if _IS_DOUBLE[t] and e != GAP:
                    if closing:
                        out.append((t, e, True, False))
                    if along and not (new_spinner and e in (LEFT, RIGHT)):
                        out.append((t, e, False, True))
        return out

    def double_sets(self, hand: int, *, least: int = 2, most: int = 4,
                    closing: bool = False, ends: tuple[int, ...] | None = None
                    ) -> list[tuple[tuple[int, int, bool, bool], ...]]:
        """Moves of several doubles at once (RULES.md §2.0.4): ``least``..``most`` doubles of
        ``hand``, each on a different open end that shows its number (at most one per end;
        only the end codes ``ends`` when given), each face up or — with ``closing`` — closed
        (§2.0.3).  Each move is a tuple of placements ``(tile_id, end_code, closed, False)``
        sorted by end; where the first double placed face up would become the spinner (a
        cross without one, §2.0.2), every face-up double comes first once, the rest sorted."""
        allowed = range(4) if ends is None else ends
        options: list[list[tuple[int, int, bool, bool]]] = []
        for d in range(7):
            tid = _DOUBLE_ID[d]
            if not hand >> tid & 1:
                continue
            opts = []
            for e in allowed:
                if self.ends[e] == d:
                    opts.append((tid, e, False, False))
                    if closing:
                        opts.append((tid, e, True, False))
            if opts:
                options.append(opts)
        out: list[tuple[tuple[int, int, bool, bool], ...]] = []
        spins = self.cross and self.spinner < 0

        def walk(i: int, chosen: list) -> None:
            if i == len(options):
                if least <= len(chosen) <= most:
                    ordered = sorted(chosen, key=lambda p: p[1])
                    if spins:
                        for k, first in enumerate(ordered):
                            if not first[2]:
                                out.append((first,) + tuple(ordered[:k] + ordered[k + 1:]))
                        if all(p[2] for p in ordered):
                            out.append(tuple(ordered))
                    else:
                        out.append(tuple(ordered))
                return
            walk(i + 1, chosen)
            if len(chosen) < most:
                for p in options[i]:
                    walk(i + 1, chosen + [p])

        walk(0, [])
        return out

    def place(self, tid: int, end: int, closed: bool = False, along: bool = False,
              flip: bool = False) -> None:
        """Lay tile ``tid`` on end code ``end`` (-1 or any code on an empty table: the lead;
        ``flip`` lays the lead high half left, RULES.md §0).  The caller has checked the
        placement (:meth:`placements`); the result is undefined otherwise.  The tiles of one
        move are added to ``last_mask`` (call :meth:`begin_move` first)."""
        if self.pos >= 0 and end < 2 and not along:  # a plain line: one table lookup
            ends = self.ends
            nl, nr, laid, fit, _, self.pos, _, _ = LINE_STEP[tid * 98 + self.pos * 2 + end]
            if end:
                self.line.append(laid)
            else:
                self.line.insert(0, laid)
                if self.gap_at >= 0:
                    self.gap_at += 1
            ends[0] = nl
            ends[1] = nr
            self.fit = fit
            bit = 1 << tid
            self.mask |= bit
            self.last_mask |= bit
            return
        self._place(tid, end, closed, along, flip)

    def _place(self, tid: int, end: int, closed: bool, along: bool, flip: bool) -> None:
        a = LOW[tid]
        b = HIGH[tid]
        double = a == b
        ends = self.ends
        line = self.line
        bit = 1 << tid
        self.mask |= bit
        self.last_mask |= bit
        lay = (FACE_DOWN if closed else ALONG if along else ACROSS) if double else PLAIN
        if not line:
            self.lead_tid = tid
            if double and self.cross:  # the lead double is the spinner (§2.0.2)
                line.append((a, a, ACROSS))
                self.spinner = a
                self.spin_at = 0
                self.sides = 0
                ends[LEFT] = ends[RIGHT] = ends[UP] = ends[DOWN] = a
            else:
                if flip:
                    a, b = b, a
                line.append((a, b, lay))
                ends[LEFT] = a
                ends[RIGHT] = b
            self.refit()
            return
        if end == GAP:
            at = self.gap_at
            line.insert(at, (0, 6, PLAIN))
            if self.spin_at >= at:
                self.spin_at += 1
            ends[GAP] = NO_END
            self.gap_at = -1
            self.refit()
            return
        n = ends[end]
        other = _OTHER[tid][n]
        if tid == _ZERO_SIX:
            ends[GAP] = NO_END  # [0|6] went on an end: the gap stays empty (§2.1 rule 7)
        spins = double and not closed and self.cross and self.spinner < 0
        if end == LEFT:
            line.insert(0, (other, n, lay))
            if self.spin_at >= 0:
                self.spin_at += 1
            if self.gap_at >= 0:
                self.gap_at += 1
            self.sides |= 1
        elif end == RIGHT:
            line.append((n, other, lay))
            self.sides |= 2
        else:
            (self.up if end == UP else self.down).append((n, other, lay))
        ends[end] = CLOSED if closed else other
        if spins:  # the first double face up becomes the spinner (§2.0.2)
            self.spinner = n
            if end == LEFT:
                self.spin_at = 0
                self.sides = 2
            else:
                self.spin_at = len(line) - 1
                self.sides = 1
            ends[UP] = ends[DOWN] = n
        self.refit()

    def lay(self, codes) -> int:
        """Lay the placements of one move, ``(tile_id, end_code, closed, along, flip)`` each
        (:attr:`engine.moves.Move.codes`), and return the mask of its tiles.  On an empty
        table one placement is the lead; two are the extraordinary lead, [0|0] and [6|6] with
        the gap between them (RULES.md §2.1 rule 7)."""
        self.last_mask = 0
        if not self.line:
            if len(codes) == 2:
                self.open_gap(codes[0][0], codes[1][0])
                return self.mask
            tid, _, _, _, flip = codes[0]
            self._place(tid, -1, False, False, flip)
            return 1 << tid
        bits = 0
        for tid, e, closed, along, _ in codes:
            self.place(tid, e, closed, along)
            bits |= 1 << tid
        return bits

    def _end_value(self, e: int) -> int:
        """What end ``e`` adds to the count (§2.0.6): its number, twice for a double laid
        across at the end; nothing for a closed end."""
        v = self.ends[e]
        if v < 0 or v > 6:
            return 0
        if e == LEFT:
            a, b, lay = self.line[0]
        elif e == RIGHT:
            a, b, lay = self.line[-1]
        else:
            arm = self.up if e == UP else self.down
            if not arm:
                return v + v  # the spinner itself
            a, b, lay = arm[-1]
        return v + v if a == b and lay == ACROSS else v

    def count(self) -> int | None:
        """The count after the last move (RULES.md §2.0.6): a single tile's pip sum;
        otherwise the open ends of ``left`` and ``right``, and of ``up``/``down`` once they
        hold a tile, a double laid across at an end counting both halves; while the spinner
        has an empty left or right side it counts both its halves, once; closed ends count
        nothing.  None before the lead."""
        line = self.line
        if not line:
            return None
        if len(line) + len(self.up) + len(self.down) == 1:
            a, b, _ = line[0]
            return a + b
        c = 0
        sp = self.spinner
        if sp >= 0 and self.sides != 3:
            c += sp + sp
            if self.sides & 1:
                c += self._end_value(LEFT)
            if self.sides & 2:
                c += self._end_value(RIGHT)
        else:
            c += self._end_value(LEFT) + self._end_value(RIGHT)
        if self.up:
            c += self._end_value(UP)
        if self.down:
            c += self._end_value(DOWN)
        return c

    def end_counts(self) -> dict[str, int] | None:
        """The count (RULES.md §2.0.6) end by end: ``{end name: what it adds}`` [pips], the
        values adding up to :meth:`count`. An end missing from it adds nothing now: an empty
        ``up``/``down`` arm, or the side of a spinner that still has an empty side, which
        counts both its halves once, at its ``left`` end (its ``right`` end while only its
        left side is taken). A lone tile counts at its ``left`` end only when it is a double.
        A closed end adds 0. None before the lead."""
        line = self.line
        if not line:
            return None
        if len(line) + len(self.up) + len(self.down) == 1:
            a, b, _ = line[0]
            return {"left": a + b} if a == b else {"left": a, "right": b}
        out: dict[str, int] = {}
        sp = self.spinner
        if sp >= 0 and self.sides != 3:
            out[END_NAMES[RIGHT if self.sides == 1 else LEFT]] = sp + sp
            if self.sides & 1:
                out["left"] = self._end_value(LEFT)
            if self.sides & 2:
                out["right"] = self._end_value(RIGHT)
        else:
            out["left"] = self._end_value(LEFT)
            out["right"] = self._end_value(RIGHT)
        if self.up:
            out["up"] = self._end_value(UP)
        if self.down:
            out["down"] = self._end_value(DOWN)
        return out

    def end_sum(self) -> int:
        """The sum of the line's two open ends, a double at an end counting both halves
        (Семёрка, RULES.md §2.8 rule 3)."""
        return self._end_value(LEFT) + self._end_value(RIGHT)

    def blocked(self, reserve_mask: int = 0) -> bool:
        """Fish (a) (RULES.md §2.0.5): no tile off the table and not reserved (§1.4) — in a
        hand or the drawable bazar — fits an open end; a layout whose ends are all closed is
        blocked."""
        return not self.fit & ~(self.mask | reserve_mask)

    def no_double_fish(self) -> bool:
        """Fish (b) (RULES.md §1.10 b, §2.0.5): every open end shows one number *n* and the six
        non-doubles of *n* are on the table.  Never while the gap is open."""
        nd = self.nd_mask()
        return bool(nd) and self.mask & nd == nd

    def open_gap(self, left_tid: int, right_tid: int) -> None:
        """The extraordinary lead (RULES.md §2.1 rule 7): [0|0] on the left, [6|6] on the
        right, and between them a gap that only [0|6] fits (a third open end)."""
        self.line = [(0, 0, ACROSS), (6, 6, ACROSS)]
        self.lead_tid = left_tid
        self.ends = [0, 6, NO_END, NO_END, GAP_OPEN]
        self.gap_at = 1
        self.mask = (1 << left_tid) | (1 << right_tid)
        self.last_mask = self.mask
        self.refit()
