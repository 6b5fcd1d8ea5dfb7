"""The trains and the sausage on the Mini App page (RULES.md §2.11, §2.12; issue 32): where
each tile, disc and word lies in the page's SVG, as plain data for ``app.js``
(``drawTable``), in the format :func:`ui.webapp_view.layout_state` gives the line and the
cross — ``tiles`` with their boxes and halves, ``marks`` (the discs of the open ends) — plus
``labels`` (the trains' owners, the Mexican train, the sausage's positions and lines) and
``flags`` (the markers of the public trains).

The page draws what the group's picture draws (:mod:`ui.picture_trains`), fitted to the
page's zone: the engine double at the left, in the middle of the rows, one row per train
(seats in order, the Mexican train last), doubles across, the oldest open double marked
``open``; a long train shows its last tiles after «+k».  The sausage: the head standing,
lines A and B one above the other aligned by position, the positions numbered, the tile
turned over that waits below.  Nothing here holds a hand: a seat's tiles are counted only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.views import LayoutView, TrainView

__all__ = ["trains_state", "sausage_state"]

#: The page's zone [pixels of the SVG's viewBox] (as :data:`ui.webapp_view.ZONE`).
_W, _H = 720, 560
_GAP = 3
#: The trains' zone: as wide as a phone held upright [pixels of the viewBox], a row per
#: train ``_ROW_H`` high; the smallest tile of a train (a tile's short side).
_TRAINS_W, _ROW_H = 420, 56
#: The sausage's zone is as wide (its height follows its tiles).
_SAUSAGE_W = 420
MIN_UNIT = 21


def _tile(x: float, y: float, unit: int, a: int, b: int, vertical: bool, *,
          last: bool = False, open_: bool = False) -> dict[str, Any]:
    w, h = (unit, 2 * unit) if vertical else (2 * unit, unit)
    return {"box": [round(x), round(y), round(x + w), round(y + h)], "a": a, "b": b,
            "vertical": vertical, "face": "up", "last": last, "open": open_}


def _mark(cx: float, cy: float, unit: int, number: int, name: str) -> dict[str, Any]:
    r = max(unit, 24) / 2  # the disc holds a number of the page's size
    return {"name": name, "number": number, "closed": False,
            "box": [round(cx - r), round(cy - r), round(cx + r), round(cy + r)]}


def _width(train: TrainView, unit: int) -> int:
    return sum((unit if t.a == t.b else 2 * unit) + _GAP for t in train.tiles) + unit


def trains_state(layout: LayoutView, names: Sequence[str], mexican: str) -> dict[str, Any]:
    """The trains (RULES.md §2.11) laid out in a zone as wide as a phone held upright and a
    row per train high; ``names`` of the seats, ``mexican`` the Mexican train's name in the
    reader's language."""
    trains = layout.trains
    rows = max(1, len(trains))
    width, row_h = _TRAINS_W, _ROW_H
    height = row_h * rows + 8
    hub = 22
    label_w = 120
    x0 = hub + 12 + label_w
    room = width - x0 - 4
    unit = max(MIN_UNIT, min(row_h // 2 - 3, 26))
    while unit > MIN_UNIT and any(_width(t, unit) > room for t in trains):
        unit -= 1  # (below it, a long train shows its last tiles after «+k»)
    tiles, marks, labels, flags = [], [], [], []
    e = layout.engine if layout.engine is not None else 0
    top = 4
    tiles.append(_tile(2, top + row_h * rows / 2 - hub, hub, e, e, True))
    last = set(layout.last)
    for k, train in enumerate(trains):
        cy = top + row_h * k + row_h / 2
        owner = mexican if train.owner is None else (
            names[train.owner] if train.owner < len(names) else f"#{train.owner + 1}")
        labels.append({"x": hub + 8, "y": round(cy), "text": owner[:12],
                       "cls": "mexican" if train.owner is None else "owner",
                       "seat": train.owner})
        if train.public:
            flags.append({"x": x0 - 14, "y": round(cy - 9), "seat": train.owner})
        tiles_, mark = _train_row(train, unit, x0, cy, room, last)
        tiles += tiles_["tiles"]
        labels += tiles_["more"]
        marks.append(mark)
    return {"kind": "trains", "zone": [width, height], "unit": unit, "tiles": tiles,
            "marks": marks, "labels": labels, "flags": flags, "ends": [], "count": None,
            "engine": e}


def _train_row(train: TrainView, unit: int, x: float, cy: float, room: int,
               last: set) -> tuple[dict[str, list], dict[str, Any]]:
    """One train's tiles outward from ``x`` on the row centred at ``cy`` (its last tiles
    after «+k» when it is longer than ``room``), and the disc of its end."""
    arm = "mexican" if train.owner is None else f"t{train.owner}"
    start, more = 0, []
    if _width(train, unit) > room:
        used, start = 2 * unit, len(train.tiles)
        while start > 0:
            t = train.tiles[start - 1]
            w = (unit if t.a == t.b else 2 * unit) + _GAP
            if used + w + unit > room:
                break
            used += w
            start -= 1
        more.append({"x": round(x + unit), "y": round(cy), "text": f"+{start}",
                     "cls": "more"})
        x += 2 * unit
    out = []
    for i in range(start, len(train.tiles)):
        t = train.tiles[i]
        double = t.a == t.b
        is_last = (arm, i) in last
        opened = double and train.open is not None and i == len(train.tiles) - 1
        if double:
            out.append(_tile(x, cy - unit, unit, t.a, t.b, True, last=is_last, open_=opened))
            x += unit + _GAP
        else:
            out.append(_tile(x, cy - unit / 2, unit, t.a, t.b, False, last=is_last))
            x += 2 * unit + _GAP
    return {"tiles": out, "more": more}, _mark(x + max(unit, 24) / 2, cy, unit, train.end,
                                               "mexican" if train.owner is None
                                               else f"t{train.owner}")


def sausage_state(layout: LayoutView, turned_word: str) -> dict[str, Any]:
    """The sausage (RULES.md §2.12) laid out in the page's zone: the head, lines A and B
    aligned by position with the positions numbered, the end discs, the tile turned over
    (labelled ``turned_word``)."""
    s = layout.sausage
    out: dict[str, Any] = {"kind": "sausage", "zone": [_W, _H], "unit": 0, "tiles": [],
                           "marks": [], "labels": [], "flags": [], "ends": [],
                           "count": None}
    if s is None or s.head is None:
        return out
    longest = max(len(s.a), len(s.b))
    width = _SAUSAGE_W
    unit = max(8, min(40, int((width - 40) / ((longest + 2) * 2.1))))
    step = 2 * unit + _GAP
    left = (width - ((longest + 1) * step + unit)) / 2 + 14
    top = 30
    tu = max(unit, 24)
    height = top + 2 * unit + (44 + tu if s.turned is not None else 0) + 12
    out["zone"] = [width, round(height)]
    last = set(layout.last)
    tiles, labels, marks = out["tiles"], out["labels"], out["marks"]
    tiles.append(_tile(left, top, unit, s.head[0], s.head[1], True,
                       last=("head", 0) in last))
    for k in range(longest + 1):
        x = left + unit / 2 if k == 0 else left + unit + _GAP + (k - 1) * step + 1.5 * unit
        labels.append({"x": round(x), "y": round(top - 12), "text": str(k), "cls": "pos"})
    for row, name in enumerate(("a", "b")):
        y = top + row * unit
        x = left + unit + _GAP
        for i, t in enumerate(s.line(name)):
            tiles.append(_tile(x, y, unit, t.a, t.b, False, last=(name, i) in last))
            x += step
        marks.append(_mark(x + max(unit, 24) / 2, y + unit / 2, unit, s.ends[row], name))
        labels.append({"x": round(left - 10), "y": round(y + unit / 2), "text": name.upper(),
                       "cls": "line"})
    if s.turned is not None:
        ty = top + 2 * unit + 40
        tiles.append(_tile(width / 2 - tu, ty, tu, s.turned[0], s.turned[1], False, last=True))
        labels.append({"x": round(width / 2 - tu - 10), "y": round(ty + tu / 2),
                       "text": turned_word, "cls": "turned"})
    out["unit"] = unit
    return out
