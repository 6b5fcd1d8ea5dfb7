"""Where each tile of the table lies in the picture: pure geometry, no drawing.

:func:`plan_table` turns a :class:`service.views.LayoutView` (RULES.md §2.0: the line, or the
cross with its spinner and four arms) into rectangles in pixels inside a zone of the picture.
:mod:`ui.picture` draws them.

How the tiles are laid (the choices the rule book leaves to the table):

- A tile is ``unit`` × 2·``unit`` pixels; touching tiles are ``gap`` pixels apart. A double
  laid across (``LaidTile.lay`` ``"across"``; closed doubles too) lies across the run that
  reaches it everywhere, as on a real table (RULES.md §2.0): on the up and down arms and at a
  corner too, where the arm turns at the double's end.
- A chain that fits in one row with tiles of at least :data:`ROW_UNIT` is one straight row,
  centred.
- Otherwise the table grows out of its centre: the spinner of a cross (RULES.md §2.0.2), the
  extraordinary lead's gap (§2.1 rule 7), or the lead of a line (``LayoutView.lead``; the
  middle tile when it is not known). Each arm runs straight to the edge of the zone (or to a
  tile already laid) and then lies in rows that run back and forth, one beside the other: on
  a line the right arm's rows go down and the left arm's up; on a cross every arm turns
  clockwise (right → down, down → left, left → up, up → right) into rows of its own quarter
  of the zone, the up and down arms after one turn into rows running left and right, so no
  arm snakes in short U-turns beside the spinner. A turn is one tile laid at right angles
  beside the end of the row (the *step*), and the next row runs back beside it.
- Every end gets a mark where the next tile would go (:class:`EndMark`), so it needs room too;
  where the rows leave it none, it goes straight on or beside the last tile.
- The largest ``unit`` of :data:`UNITS` with which everything fits is taken, so tiles grow
  and shrink with the chain (issue 20 item 12). A table whose tiles would come out smaller
  than :data:`ROW_UNIT` — a line led near one of its ends, a cross with its tiles on one or
  two arms — grows out of a point moved away from its long arms instead of the centre, so
  that they have the room.
- A move adds a tile at an end and moves none of the others, as long as the unit stays.

Coordinates are pixels, ``x`` to the right and ``y`` down; boxes are ``(x0, y0, x1, y1)`` with
``x1``/``y1`` exclusive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from service.views import LaidTile, LayoutView

__all__ = ["ROW_UNIT", "UNITS", "Box", "EndMark", "Placed", "TablePlan", "arm_tiles", "plan_table"]

#: Tile sizes tried, largest first [pixels: the short side of a tile]: a short chain is laid
#: with large tiles, a long one with smaller ones (issue 20 item 12).
UNITS: tuple[int, ...] = tuple(range(88, 15, -4))
#: The smallest unit at which a straight row is still preferred to larger tiles laid in rows
#: [pixels]: from it on the pips read on a phone, where the picture is about 400 pixels
#: wide (``ui.picture.PIP_RADIUS``).
ROW_UNIT = 56

Box = tuple[int, int, int, int]

_RIGHT, _LEFT, _DOWN, _UP = (1, 0), (-1, 0), (0, 1), (0, -1)
_ACROSS = ("across", "closed")


@dataclass(frozen=True, slots=True)
class Placed:
    """One tile as drawn: ``box`` in pixels; ``first``/``second`` the pips of its left/right
    (``vertical`` False) or top/bottom half (``vertical`` True); ``face`` ``"up"``, ``"down"``
    (a closed double face down, RULES.md §2.0.3) or ``"ghost"`` (the empty gap of the
    extraordinary lead, which only [0|6] fits, §2.1 rule 7); ``pos`` where the tile is in the
    :class:`LayoutView`, as ``LayoutView.last`` names it (``("line", i)``, ``("up", i)``,
    ``("down", i)``), None for the gap."""

    box: Box
    first: int
    second: int
    vertical: bool
    face: str = "up"
    pos: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class EndMark:
    """The mark of one end (``EndView``): ``name`` (``left``/``right``/``up``/``down``),
    ``number`` it shows (None when closed), ``closed``, and ``box`` the square where it is
    drawn, where the next tile's touching half would lie [pixels]; ``counts`` what the end
    adds to the count (``EndView.counts``, RULES.md §2.0.6; None: nothing now, or a game
    without a count)."""

    name: str
    number: int | None
    closed: bool
    box: Box
    counts: int | None = None


@dataclass(frozen=True, slots=True)
class TablePlan:
    """The tiles and end marks of a table laid out in a zone: ``unit`` the tile size used
    [pixels]; ``fits`` False when even the smallest unit overflowed (then the tiles are those of
    the smallest unit, some of them outside the zone)."""

    unit: int
    tiles: tuple[Placed, ...]
    marks: tuple[EndMark, ...]
    fits: bool


@dataclass(frozen=True, slots=True)
class _Arm:
    """An arm to lay: its tiles as (inner half, outer half, across?, face, pos), outward from
    the centre; the end it leads to; ``first`` the direction of its straight run out of the
    centre, ``row`` the direction of its first row after that run (None: the run is its
    first row, as on the left and right arms), ``step`` the side its rows step to; where it
    starts (a point on its centre line) and ``rows``, the box its rows after the first run
    stay in."""

    tiles: tuple[tuple[int, int, bool, str, tuple[str, int] | None], ...]
    end: tuple[str, int | None, bool, int | None] | None
    first: tuple[int, int]
    row: tuple[int, int] | None
    step: tuple[int, int]
    start: tuple[float, float]
    rows: Box


def _across(t: LaidTile) -> bool:
    return t.a == t.b and t.lay in _ACROSS


def _face(t: LaidTile) -> str:
    return "down" if t.lay == "closed" else "up"


def arm_tiles(line: Sequence[LaidTile], centre: int, gap: bool
              ) -> tuple[list[tuple[LaidTile, int, bool]], list[tuple[LaidTile, int, bool]]]:
    """Split the line at its centre into the left and the right arm, each outward from the
    centre, as ``(tile, index in line, inner half is a)``: on the left arm a tile's inner half
    is ``b`` (RULES.md §0: ``a`` is the left half). With ``gap`` the centre is the gap lying
    before ``line[centre]``; otherwise it is the tile ``line[centre]`` itself."""
    right_start = centre if gap else centre + 1
    left = [(line[i], i, False) for i in range(centre - 1, -1, -1)]
    right = [(line[i], i, True) for i in range(right_start, len(line))]
    return left, right


def _end_of(layout: LayoutView, name: str
            ) -> tuple[str, int | None, bool, int | None] | None:
    for e in layout.ends:
        if e.name == name:
            return (e.name, e.number, e.closed, e.counts)
    return None


def _oriented(items: list[tuple[LaidTile, int, bool]], arm: str
              ) -> tuple[tuple[int, int, bool, str, tuple[str, int] | None], ...]:
    out = []
    for t, i, a_inner in items:
        inner, outer = (t.a, t.b) if a_inner else (t.b, t.a)
        out.append((inner, outer, _across(t), _face(t), (arm, i)))
    return tuple(out)


class _Overflow(Exception):
    pass


def _overlaps(b: Box, boxes: Sequence[Box], margin: int) -> bool:
    """Whether ``b`` comes closer than ``margin`` pixels to any of ``boxes``."""
    for o in boxes:
        if (b[0] < o[2] + margin and o[0] < b[2] + margin and b[1] < o[3] + margin
                and o[1] < b[3] + margin):
            return True
    return False


def _lay_arm(arm: _Arm, unit: int, gap: int, zone: Box, out: list[Placed],
             marks: Sequence[EndMark] = ()) -> EndMark | None:
    """Lay one arm (see the module doc) after the tiles already in ``out`` and the ``marks``
    of the arms laid before; raises _Overflow when it leaves its room.

    The arm runs straight out of the centre (``first``) to the edge of the zone or to a tile
    already laid, then lies in rows that run back and forth (``row``, then its opposite)
    inside ``rows``, one row beside the other, stepping to ``step``: a row that is full turns
    with one tile laid at right angles (the *step*) beside the outer half of its last tile,
    and the next row starts beside the step's outer half. A double laid across stays across
    everywhere, on a vertical arm and at a corner too (RULES.md §2.0): a row that ends with
    one turns at the double's end instead of beside a half."""
    return _ArmLayer(arm, unit, gap, zone, out, marks).run()


def _shape(px: float, py: float, d: tuple[int, int], size_along: float,
           size_across: float) -> Box:
    """The box of a tile that starts at ``(px, py)`` and travels ``d``, ``size_along`` long
    and ``size_across`` wide [pixels]."""
    dx, dy = d
    if dx:
        x0, x1 = sorted((px, px + dx * size_along))
        y0, y1 = py - size_across / 2, py + size_across / 2
    else:
        y0, y1 = sorted((py, py + dy * size_along))
        x0, x1 = px - size_across / 2, px + size_across / 2
    return (round(x0), round(y0), round(x1), round(y1))


class _ArmLayer:
    """The laying of one arm (:func:`_lay_arm`), made and dropped within that call: where the
    next tile goes (``x``, ``y`` travelling ``direction``), the run it is in (``mode``:
    ``first``, ``row`` or ``step``), the rows' direction, the last tile laid (``prev``: its
    box, and whether it lies across) and the tiles laid in the current run (``count``)."""

    def __init__(self, arm: _Arm, unit: int, gap: int, zone: Box, out: list[Placed],
                 marks: Sequence[EndMark]) -> None:
        self.arm, self.gap, self.zone, self.out = arm, gap, zone, out
        self.h, self.length = unit, 2 * unit
        self.margin = max(0, gap - 2)  # tiles a gap apart touch; closer they would overlap
        self.taken = [p.box for p in out] + [m.box for m in marks]
        self.x, self.y = arm.start
        self.direction = arm.first
        self.mode = "first"  # the straight run out of the centre; then "row" and "step"
        self.row_dir = arm.first if arm.row is None else arm.row
        self.prev: tuple[Box, bool] | None = None
        self.count = 0

    def run(self) -> EndMark | None:
        """Lay every tile of the arm, then its end's mark (returned)."""
        for item in self.arm.tiles:
            self.lay(item)
        saved = (self.x, self.y, self.direction)
        try:
            return self.lay(None)
        except _Overflow:
            return self.mark_anywhere(*saved)

    def room(self, b: Box, in_rows: bool) -> bool:
        """Whether ``b`` lies inside the arm's rows (``in_rows``) or the zone, and off every
        tile laid."""
        z, zone = (self.arm.rows if in_rows else self.zone), self.zone
        if not (z[0] <= b[0] and z[1] <= b[1] and b[2] <= z[2] and b[3] <= z[3]):
            return False
        if not (zone[0] <= b[0] and zone[1] <= b[1] and b[2] <= zone[2] and b[3] <= zone[3]):
            return False
        return not _overlaps(b, self.taken, self.margin)

    def turn_point(self, d: tuple[int, int]) -> tuple[float, float]:
        """Where a tile travelling ``d`` starts beside the last tile (its outer half, or the
        end of a double across)."""
        assert self.prev is not None
        b, across = self.prev
        h = self.h
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        if not across:  # the outer half's centre: half a unit out from the tile's centre
            cx += self.direction[0] * h / 2
            cy += self.direction[1] * h / 2
        reach = (h if across else h / 2) + self.gap
        return cx + d[0] * reach, cy + d[1] * reach

    def _start(self, d: tuple[int, int], mode: str, size: float, wide: float
               ) -> tuple[Box, tuple[int, int]]:
        """Turn: a new run (``mode``) travelling ``d`` beside the last tile; its first box."""
        self.x, self.y = self.turn_point(d)
        self.direction, self.mode, self.count = d, mode, 0
        b = _shape(self.x, self.y, d, size, wide)
        if not self.room(b, mode == "row"):
            raise _Overflow
        return b, d

    def _box(self, size: float, wide: float) -> tuple[Box, tuple[int, int]]:
        """The box of the next tile, ``size`` long and ``wide`` across, and the direction it
        travels: on in the current run, else turning (into the first row, a step, or after
        the step the next row back); raises _Overflow when it has no room."""
        prev = self.prev
        forced = self.mode == "step" and self.count > 0 and prev is not None and not prev[1]
        if self.mode == "step" and self.count == 1 and prev is not None and prev[1]:
            # a double across as the step: the next row may start at its end, if it has room
            back = (-self.row_dir[0], -self.row_dir[1])
            bx, by = self.turn_point(back)
            if self.room(_shape(bx, by, back, size, wide), True):
                forced = True
        if forced:
            # The step is one tile in line: the next row runs back beside its outer half.
            self.row_dir = (-self.row_dir[0], -self.row_dir[1])
            return self._start(self.row_dir, "row", size, wide)
        b = _shape(self.x, self.y, self.direction, size, wide)
        if self.room(b, self.mode == "row"):
            return b, self.direction
        # Turn: from the first run into the first row (vertical arms) or a step.
        if prev is None or self.mode == "step":
            raise _Overflow
        if self.mode == "first" and self.arm.row is not None:
            return self._start(self.arm.row, "row", size, wide)
        return self._start(self.arm.step, "step", size, wide)

    def lay(self, item: tuple[int, int, bool, str, tuple[str, int] | None] | None
            ) -> EndMark | None:
        """Lay one tile (or the mark: returns it) after the last; raises _Overflow."""
        across_tile = item is not None and item[2]
        size = self.h if item is None or across_tile else self.length
        wide = self.length if across_tile else self.h
        b, placed_dir = self._box(size, wide)
        if item is None:
            return _mark(self.arm, b)
        inner, outer, _, face, pos = item
        horizontal = placed_dir[0] != 0
        sign = placed_dir[0] if horizontal else placed_dir[1]
        self.out.append(_placed(b, inner, outer, sign, horizontal, across_tile, face, pos))
        self.taken.append(b)
        self.prev = (b, across_tile)
        self.x += placed_dir[0] * (size + self.gap)
        self.y += placed_dir[1] * (size + self.gap)
        self.count += 1
        return None

    def mark_anywhere(self, sx: float, sy: float, sd: tuple[int, int]) -> EndMark:
        """The end's mark where the laying rules leave it no room: straight on from the last
        tile (``sx``, ``sy`` travelling ``sd``), or beside its outer half on either side —
        where a next tile could still go."""
        self.direction = sd
        spots = [(sx, sy, sd)]
        if self.prev is not None:
            for d in ((sd[1], sd[0]), (-sd[1], -sd[0])):
                spots.append((*self.turn_point(d), d))
        # in the arm's own rows first, so that the mark keeps out of the other arms' way
        for in_rows in ((True, False) if self.mode != "first" else (False,)):
            for px, py, d in spots:
                b = _shape(px, py, d, self.h, self.h)
                if self.room(b, in_rows):
                    return _mark(self.arm, b)
        raise _Overflow


def _placed(b: Box, inner: int, outer: int, sign: int, horizontal: bool, across: bool,
            face: str, pos: tuple[str, int] | None) -> Placed:
    """A tile travelling along ``sign`` on a horizontal (or vertical) axis: its inner half comes
    first in the direction of travel."""
    first, second = (inner, outer) if sign > 0 else (outer, inner)
    vertical = not horizontal
    if across:
        vertical = not vertical
    return Placed(b, first, second, vertical, face, pos)


def _mark(arm: _Arm, b: Box) -> EndMark | None:
    if arm.end is None:
        return None
    name, number, closed, counts = arm.end
    return EndMark(name, number, closed, b, counts)


def _centre_tile(t: LaidTile, cx: float, cy: float, unit: int, pos: tuple[str, int] | None,
                 vertical_line: bool = False) -> Placed:
    h, length = unit, 2 * unit
    across = _across(t)
    vertical = across != vertical_line
    w, hh = (h, length) if vertical else (length, h)
    b = (round(cx - w / 2), round(cy - hh / 2), round(cx + w / 2), round(cy + hh / 2))
    return Placed(b, t.a, t.b, vertical, _face(t), pos)


def _one_row(layout: LayoutView, zone: Box, unit: int, gap: int) -> TablePlan | None:
    """The whole line as one straight row, centred, if it fits (and no arm goes up or down)."""
    if layout.up or layout.down:
        return None
    h, length = unit, 2 * unit
    sizes = []
    for i, t in enumerate(layout.line):
        if layout.gap is not None and i == layout.gap:
            sizes.append(("gap", length))
        sizes.append((t, h if _across(t) else length))
    if layout.gap is not None and layout.gap >= len(layout.line):
        sizes.append(("gap", length))
    total = sum(s for _, s in sizes) + gap * (len(sizes) + 1) + 2 * h
    if total > zone[2] - zone[0]:
        return None
    cy = (zone[1] + zone[3]) / 2
    x = (zone[0] + zone[2]) / 2 - total / 2
    left_end = _end_of(layout, "left")
    marks = []
    if left_end is not None:
        name, number, closed, counts = left_end
        marks.append(EndMark(name, number, closed, (round(x), round(cy - h / 2), round(x + h),
                                                    round(cy + h / 2)), counts))
    x += h + gap
    tiles = []
    index = 0
    spinner_box = None
    for t, s in sizes:
        if t == "gap":
            tiles.append(Placed((round(x), round(cy - h / 2), round(x + s), round(cy + h / 2)),
                                0, 6, False, "ghost", None))
        else:
            tiles.append(_centre_tile(t, x + s / 2, cy, unit, ("line", index)))
            if index == layout.spinner:
                spinner_box = tiles[-1].box
            index += 1
        x += s + gap
    right_end = _end_of(layout, "right")
    if right_end is not None:
        name, number, closed, counts = right_end
        marks.append(EndMark(name, number, closed, (round(x), round(cy - h / 2), round(x + h),
                                                    round(cy + h / 2)), counts))
    if spinner_box is not None:
        sx = (spinner_box[0] + spinner_box[2]) / 2
        for name, y0 in (("up", spinner_box[1] - gap - h), ("down", spinner_box[3] + gap)):
            end = _end_of(layout, name)
            if end is None:
                continue
            b = (round(sx - h / 2), round(y0), round(sx + h / 2), round(y0 + h))
            if b[1] < zone[1] or b[3] > zone[3]:
                return None
            marks.append(EndMark(end[0], end[1], end[2], b, end[3]))
    for m in marks:
        if m.box[1] < zone[1] or m.box[3] > zone[3]:
            return None
    return TablePlan(unit, tuple(tiles), tuple(marks), True)


def _from_centre(layout: LayoutView, zone: Box, unit: int, gap: int,
                 shift: tuple[float, float] = (0.0, 0.0)) -> TablePlan:
    """The arms grown out of the centre (see the module doc), the centre moved by ``shift``
    [fractions of the zone's width and height]; raises _Overflow."""
    h = unit
    line = layout.line
    cx = round((zone[0] + zone[2]) / 2 + shift[0] * (zone[2] - zone[0]))
    cy = round((zone[1] + zone[3]) / 2 + shift[1] * (zone[3] - zone[1]))
    out: list[Placed] = []
    cross = layout.kind == "cross" and layout.spinner is not None
    if cross:
        centre, is_gap = layout.spinner, False
    elif layout.gap is not None:
        centre, is_gap = layout.gap, True
    elif layout.lead is not None and 0 <= layout.lead < len(line):
        centre, is_gap = layout.lead, False
    else:
        centre, is_gap = len(line) // 2, False
    if is_gap:
        half = h  # the ghost tile lies in line: 2·unit long
        out.append(Placed((round(cx - h), round(cy - h / 2), round(cx + h), round(cy + h / 2)),
                          0, 6, False, "ghost", None))
        half_v = h / 2
    else:
        centre_tile = _centre_tile(line[centre], cx, cy, unit, ("line", centre))
        out.append(centre_tile)
        half = (centre_tile.box[2] - centre_tile.box[0]) / 2
        half_v = (centre_tile.box[3] - centre_tile.box[1]) / 2
    left, right = arm_tiles(line, centre, is_gap)
    x0, y0, x1, y1 = zone
    arms: list[_Arm] = []
    if cross:
        # Each arm's rows keep to its own quarter, clear of the straight runs (doubles across
        # reach a unit to each side); a vertical arm's rows start right beside its own run.
        clear = h + gap
        near = round(h / 2 + gap) - 1
        arms = [
            _Arm(_oriented(right, "line"), _end_of(layout, "right"), _RIGHT, None, _DOWN,
                 (cx + half + gap, cy), (round(cx + clear), round(cy + clear), x1, y1)),
            _Arm(_oriented([(t, i, True) for i, t in enumerate(layout.down)], "down"),
                 _end_of(layout, "down"), _DOWN, _LEFT, _UP, (cx, cy + half_v + gap),
                 (x0, round(cy + clear), round(cx - near), y1)),
            _Arm(_oriented(left, "line"), _end_of(layout, "left"), _LEFT, None, _UP,
                 (cx - half - gap, cy), (x0, y0, round(cx - clear), round(cy - clear))),
            _Arm(_oriented([(t, i, True) for i, t in enumerate(layout.up)], "up"),
                 _end_of(layout, "up"), _UP, _RIGHT, _DOWN, (cx, cy - half_v - gap),
                 (round(cx + near), y0, x1, round(cy - clear))),
        ]
    else:
        arms = [
            _Arm(_oriented(right, "line"), _end_of(layout, "right"), _RIGHT, None, _DOWN,
                 (cx + half + gap, cy), (x0, round(cy), x1, y1)),
            _Arm(_oriented(left, "line"), _end_of(layout, "left"), _LEFT, None, _UP,
                 (cx - half - gap, cy), (x0, y0, x1, round(cy))),
        ]
    marks = []
    for arm in arms:
        mark = _lay_arm(arm, unit, gap, zone, out, marks)
        if mark is not None:
            marks.append(mark)
    return TablePlan(unit, tuple(out), tuple(marks), True)


def plan_table(layout: LayoutView, zone: Box, *, units: Sequence[int] = UNITS,
               gap: int | None = None) -> TablePlan:
    """Lay out ``layout`` inside ``zone`` (see the module doc): one straight row when it fits
    with tiles of at least :data:`ROW_UNIT`; otherwise the largest unit of ``units`` [pixels]
    with which every tile and end mark fits, at equal units one straight row; a table whose
    tiles would come out smaller than :data:`ROW_UNIT` grows out of a point moved away from
    its long arms. ``gap`` between touching tiles defaults to a tenth of the unit (at least
    2) [pixels]. The plans of the latest 256 layouts are kept (a match's table is drawn
    once per language).

    An empty layout (before the lead) gives no tiles. When nothing fits even at the smallest
    unit, the plan of the smallest unit comes back with ``fits`` False. Never raises for a
    valid :class:`LayoutView`; a spinner or gap index outside the line raises ``ValueError``.
    """
    return _plan_table(layout, tuple(zone), tuple(units), gap)


@lru_cache(maxsize=256)
def _plan_table(layout: LayoutView, zone: Box, units: Sequence[int] = UNITS,
                gap: int | None = None) -> TablePlan:
    """:func:`plan_table`, cached."""
    if not layout.line and not layout.up and not layout.down:
        return TablePlan(units[0], (), (), True)
    if layout.spinner is not None and not 0 <= layout.spinner < len(layout.line):
        raise ValueError(f"spinner {layout.spinner} is outside the line")
    if layout.gap is not None and not 0 <= layout.gap <= len(layout.line):
        raise ValueError(f"gap {layout.gap} is outside the line")
    rows = ((unit, _one_row(layout, zone, unit, _gap(gap, unit))) for unit in units)
    row = next(((u, r) for u, r in rows if r is not None), None)
    if row is not None and row[0] >= min(ROW_UNIT, units[0]):
        return row[1]  # a straight row of tiles large enough to read
    best = _largest(layout, zone, units, gap, (0.0, 0.0))
    if best is None or units[best[0]] < ROW_UNIT:
        # A table whose long arms lie on one side (a line led near one of its ends, a cross
        # with its tiles on one or two arms) fills part of the table and leaves the rest
        # empty: move the centre away from the long arms, so that they have more rows (only
        # where the tiles would otherwise be too small to read, so that a move keeps the
        # other tiles in place as long as they read).
        sx, sy = _away_from_the_long_arms(layout)
        for fx, fy in ((0, 0.1), (0.1, 0.1), (0, 0.2), (0.2, 0.2), (0.3, 0.1), (0.3, 0.3),
                       (0.2, 0.3)):
            found = _largest(layout, zone, units, gap, (sx * fx, sy * fy),
                             None if best is None else best[0])
            if found is not None and (best is None or found[0] < best[0]):
                best = found
                if units[best[0]] >= ROW_UNIT:
                    break  # readable: no need to move it further
    if row is not None and (best is None or units[best[0]] <= row[0]):
        return row[1]  # at equal units one straight row wins
    if best is not None:
        return best[1]
    return _cut_row(layout, zone, units[-1], _gap(gap, units[-1]))


def _gap(gap: int | None, unit: int) -> int:
    """The gap between tiles of ``unit`` [pixels]: ``gap`` if given, else a tenth of it."""
    return gap if gap is not None else max(2, unit // 10)


def _largest(layout: LayoutView, zone: Box, units: Sequence[int], gap: int | None,
             shift: tuple[float, float], below: int | None = None
             ) -> tuple[int, TablePlan] | None:
    """The largest unit (index into ``units``, and the plan) whose arms fit with the centre
    moved by ``shift``, among the units larger than ``units[below]``: a larger unit fits
    less, so search by halves, then look a few steps up, where a turn or a mark falling
    differently may still fit."""
    def grown(i: int) -> TablePlan | None:
        try:
            return _from_centre(layout, zone, units[i], _gap(gap, units[i]), shift)
        except _Overflow:
            return None

    lo, hi = 0, len(units) - 1 if below is None else below - 1
    found: tuple[int, TablePlan] | None = None
    while lo <= hi:
        mid = (lo + hi) // 2
        plan = grown(mid)
        if plan is not None:
            found, hi = (mid, plan), mid - 1
        else:
            lo = mid + 1
    if found is not None:
        top = found[0]
        for i in range(top - 1, max(-1, top - 4), -1):
            plan = grown(i)
            if plan is not None:
                found = (i, plan)
    return found


def _away_from_the_long_arms(layout: LayoutView) -> tuple[int, int]:
    """Which way to move the centre (a sign per axis) so that the long arms get more room:
    the right arm's rows go down, the left arm's up (and the up and down arms turn into the
    top right and bottom left quarters); a line's longer side away from its lead."""
    n = len(layout.line)
    if layout.kind == "cross" and layout.spinner is not None:
        left, right = layout.spinner, n - 1 - layout.spinner
        up, down = len(layout.up), len(layout.down)
        return (-1 if right + up >= left + down else 1,
                -1 if right + down >= left + up else 1)
    centre = layout.gap if layout.gap is not None else \
        layout.lead if layout.lead is not None else n // 2
    return (-1, -1) if n - 1 - centre >= centre else (1, 1)


def _cut_row(layout: LayoutView, zone: Box, unit: int, gap: int) -> TablePlan:
    """Nothing fits: one row at ``unit``, cut off by the zone (never happens with the 28
    tiles of a set in the picture's zone; kept so that a picture is always drawn)."""
    tiles = []
    x = zone[0]
    cy = (zone[1] + zone[3]) // 2
    for i, t in enumerate(layout.line):
        tiles.append(Placed((x, cy - unit // 2, x + 2 * unit, cy + unit // 2), t.a, t.b, False,
                            _face(t), ("line", i)))
        x += 2 * unit + gap
    return TablePlan(unit, tuple(tiles), (), False)
