"""Where each tile of the table lies in the picture: pure geometry, no drawing.

:func:`plan_table` turns a :class:`service.views.LayoutView` (RULES.md §2.0: the line, or the
cross with its spinner and four arms) into rectangles in pixels inside a zone of the picture.
:mod:`ui.picture` draws them.

How the tiles are laid (the choices the rule book leaves to the table):

- A tile is ``unit`` × 2·``unit`` pixels; touching tiles are ``gap`` pixels apart. A double
  laid across (``LaidTile.lay`` ``"across"``; closed doubles too) stands across its arm, as on
  a real table, except as the last tile before a turn, where it lies in line.
- A chain that fits in one row is one straight row, centred.
- Otherwise the table grows out of its centre: the spinner of a cross (RULES.md §2.0.2), the
  extraordinary lead's gap (§2.1 rule 7), or the lead of a line (``LayoutView.lead``; the
  middle tile when it is not known). Each arm runs straight to the edge of the zone and then
  turns like a snake, back and forth, always to the same side: on a line the right arm turns
  down and the left arm up; on a cross every arm turns clockwise (right → down, down → left,
  left → up, up → right), so each arm snakes in its own quarter of the zone. A turn is one
  tile laid at right angles beside the end of the row, and the next row runs back beside it.
- Every end gets a mark where the next tile would go (:class:`EndMark`), so it needs room too.
- The largest ``unit`` of :data:`UNITS` with which everything fits is taken.

Coordinates are pixels, ``x`` to the right and ``y`` down; boxes are ``(x0, y0, x1, y1)`` with
``x1``/``y1`` exclusive.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from service.views import LaidTile, LayoutView

__all__ = ["UNITS", "Box", "EndMark", "Placed", "TablePlan", "arm_tiles", "plan_table"]

#: Tile sizes tried, largest first [pixels: the short side of a tile].
UNITS: tuple[int, ...] = (56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16)

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
    drawn, where the next tile's touching half would lie [pixels]."""

    name: str
    number: int | None
    closed: bool
    box: Box


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
    the centre; the end it leads to; the straight run's direction and the side it turns to;
    where it starts (a point on its centre line) and the box its later rows stay in."""

    tiles: tuple[tuple[int, int, bool, str, tuple[str, int] | None], ...]
    end: tuple[str, int | None, bool] | None
    direction: tuple[int, int]
    turn: tuple[int, int]
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


def _end_of(layout: LayoutView, name: str) -> tuple[str, int | None, bool] | None:
    for e in layout.ends:
        if e.name == name:
            return (e.name, e.number, e.closed)
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


def _lay_arm(arm: _Arm, unit: int, gap: int, zone: Box, out: list[Placed]) -> EndMark | None:
    """Lay one arm (see the module doc); raises _Overflow when it leaves its room."""
    h, length = unit, 2 * unit
    dx, dy = arm.direction
    tx, ty = arm.turn
    horizontal = dx != 0
    # Along/across coordinates: along the row axis (x for a horizontal arm), across = turn axis.
    sx, sy = arm.start
    along = sx if horizontal else sy
    across = sy if horizontal else sx
    sign = dx if horizontal else dy
    turn_sign = ty if horizontal else tx
    r0, r1 = (arm.rows[0], arm.rows[2]) if horizontal else (arm.rows[1], arm.rows[3])
    c0, c1 = (arm.rows[1], arm.rows[3]) if horizontal else (arm.rows[0], arm.rows[2])
    z0, z1 = (zone[0], zone[2]) if horizontal else (zone[1], zone[3])
    lo, hi = z0, z1  # the straight run goes to the zone's edge
    last_inline = False  # the previous tile of this row lies in line (a turn may follow it)
    count = 0

    def fits(start: float, size: float) -> bool:
        end = start + sign * size
        return lo <= min(start, end) and max(start, end) <= hi

    def box(a0: float, a1: float, b0: float, b1: float) -> Box:
        x0, x1 = sorted((a0, a1))
        y0, y1 = sorted((b0, b1))
        if not horizontal:
            x0, x1, y0, y1 = y0, y1, x0, x1
        return (round(x0), round(y0), round(x1), round(y1))

    def inside(b: Box) -> bool:
        return zone[0] <= b[0] and zone[1] <= b[1] and b[2] <= zone[2] and b[3] <= zone[3]

    items = list(arm.tiles) + [None]  # None: the end mark's slot
    for item in items:
        across_tile = item is not None and item[2]
        size = h if across_tile else length
        if across_tile and not fits(along, h + gap + length):
            across_tile, size = False, length  # the last tile before a turn lies in line
        if fits(along, size):
            width = length if across_tile else h
            b = box(along, along + sign * size, across - width / 2, across + width / 2)
            if item is None:
                m = box(along, along + sign * h, across - h / 2, across + h / 2)
                if not inside(m):
                    raise _Overflow
                return _mark(arm, m)
            if not inside(b):
                raise _Overflow
            inner, outer, _, face, pos = item
            out.append(_placed(b, inner, outer, sign, horizontal, across_tile, face, pos))
            along += sign * (size + gap)
            last_inline = not across_tile
            count += 1
            continue
        # Turn: one tile at right angles beside the outer half of the row's last tile.
        if count == 0 or not last_inline:
            raise _Overflow
        outer_half = along - sign * gap  # the far edge of the last tile
        a0, a1 = outer_half - sign * h, outer_half
        t0 = across + turn_sign * (h / 2 + gap)
        t1 = t0 + turn_sign * length
        if not (c0 <= min(t0, t1) and max(t0, t1) <= c1):
            raise _Overflow
        b = box(a0, a1, t0, t1)
        if not inside(b):
            raise _Overflow
        if item is None:
            m = box(a0, a1, t0, t0 + turn_sign * h)
            return _mark(arm, m)
        inner, outer, _, face, pos = item
        # Drawn along the turn axis: inner half towards the row it leaves.
        out.append(_placed(b, inner, outer, turn_sign, not horizontal, False, face, pos))
        across = t0 + turn_sign * (h + h / 2)
        along = min(a0, a1) - gap if sign > 0 else max(a0, a1) + gap
        sign = -sign
        lo, hi = r0, r1
        last_inline = False  # the tile after a turn never turns again at once
        count = 0
    return None  # pragma: no cover - the loop always returns at the mark's slot


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
    name, number, closed = arm.end
    return EndMark(name, number, closed, b)


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
        marks.append(EndMark(*left_end, (round(x), round(cy - h / 2), round(x + h),
                                         round(cy + h / 2))))
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
        marks.append(EndMark(*right_end, (round(x), round(cy - h / 2), round(x + h),
                                          round(cy + h / 2))))
    if spinner_box is not None:
        sx = (spinner_box[0] + spinner_box[2]) / 2
        for name, y0 in (("up", spinner_box[1] - gap - h), ("down", spinner_box[3] + gap)):
            end = _end_of(layout, name)
            if end is None:
                continue
            b = (round(sx - h / 2), round(y0), round(sx + h / 2), round(y0 + h))
            if b[1] < zone[1] or b[3] > zone[3]:
                return None
            marks.append(EndMark(*end, b))
    for m in marks:
        if m.box[1] < zone[1] or m.box[3] > zone[3]:
            return None
    return TablePlan(unit, tuple(tiles), tuple(marks), True)


def _from_centre(layout: LayoutView, zone: Box, unit: int, gap: int) -> TablePlan:
    """The arms grown out of the centre (see the module doc); raises _Overflow."""
    h = unit
    line = layout.line
    cx = (zone[0] + zone[2]) / 2
    cy = (zone[1] + zone[3]) / 2
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
        clear = h + gap  # later rows keep clear of the arms' straight runs (±unit)
        arms = [
            _Arm(_oriented(right, "line"), _end_of(layout, "right"), _RIGHT, _DOWN,
                 (cx + half + gap, cy), (round(cx + clear), y0, x1, y1)),
            _Arm(_oriented([(t, i, True) for i, t in enumerate(layout.down)], "down"),
                 _end_of(layout, "down"), _DOWN, _LEFT, (cx, cy + half_v + gap),
                 (x0, round(cy + clear), x1, y1)),
            _Arm(_oriented(left, "line"), _end_of(layout, "left"), _LEFT, _UP,
                 (cx - half - gap, cy), (x0, y0, round(cx - clear), y1)),
            _Arm(_oriented([(t, i, True) for i, t in enumerate(layout.up)], "up"),
                 _end_of(layout, "up"), _UP, _RIGHT, (cx, cy - half_v - gap),
                 (x0, y0, x1, round(cy - clear))),
        ]
    else:
        arms = [
            _Arm(_oriented(right, "line"), _end_of(layout, "right"), _RIGHT, _DOWN,
                 (cx + half + gap, cy), zone),
            _Arm(_oriented(left, "line"), _end_of(layout, "left"), _LEFT, _UP,
                 (cx - half - gap, cy), zone),
        ]
    marks = []
    for arm in arms:
        mark = _lay_arm(arm, unit, gap, zone, out)
        if mark is not None:
            marks.append(mark)
    return TablePlan(unit, tuple(out), tuple(marks), True)


def plan_table(layout: LayoutView, zone: Box, *, units: Sequence[int] = UNITS,
               gap: int | None = None) -> TablePlan:
    """Lay out ``layout`` inside ``zone`` (see the module doc): the largest unit of ``units``
    [pixels] with which every tile and end mark fits; at equal units one straight row wins.
    ``gap`` between touching tiles defaults to a tenth of the unit (at least 2) [pixels].

    An empty layout (before the lead) gives no tiles. When nothing fits even at the smallest
    unit, the plan of the smallest unit comes back with ``fits`` False. Never raises for a
    valid :class:`LayoutView`; a spinner or gap index outside the line raises ``ValueError``.
    """
    if not layout.line and not layout.up and not layout.down:
        return TablePlan(units[0], (), (), True)
    if layout.spinner is not None and not 0 <= layout.spinner < len(layout.line):
        raise ValueError(f"spinner {layout.spinner} is outside the line")
    if layout.gap is not None and not 0 <= layout.gap <= len(layout.line):
        raise ValueError(f"gap {layout.gap} is outside the line")
    for unit in units:
        g = gap if gap is not None else max(2, unit // 10)
        row = _one_row(layout, zone, unit, g)
        if row is not None:
            return row
        try:
            return _from_centre(layout, zone, unit, g)
        except _Overflow:
            continue
    # Nothing fits: one row at the smallest unit, cut off by the zone (never happens with the
    # 28 tiles of a set in the picture's zone; kept so that a picture is always drawn).
    unit = units[-1]
    g = gap if gap is not None else max(2, unit // 10)
    tiles = []
    x = zone[0]
    cy = (zone[1] + zone[3]) // 2
    for i, t in enumerate(layout.line):
        tiles.append(Placed((x, cy - unit // 2, x + 2 * unit, cy + unit // 2), t.a, t.b, False,
                            _face(t), ("line", i)))
        x += 2 * unit + g
    return TablePlan(unit, tuple(tiles), (), False)
