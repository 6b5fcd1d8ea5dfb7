"""The trains and the sausage in the group's table picture (RULES.md §2.11 Мексиканский
поезд, §2.12 Колбаса; issue 32).  :func:`ui.picture.render_table_image` draws the view a
layout declares: the line and the cross itself, these two here, with the paint box of
:mod:`ui.picture_kit`.

**The trains** (up to eight seats and the Mexican train): the engine double stands at the
left, in the middle of the rows, and a rail runs from it to every train — the station all
trains leave from.  One row per train, in seat order, the Mexican train last: a card with
the owner's name, the marker 🚩 (drawn as a red flag) while the train is public, how many
tiles the owner holds (backs only, RULES.md §1.8) and their total; then the train's tiles
outward from the engine, doubles across, and a disc with the number its open end shows.
The oldest open double is ringed red and named under the rows (rule 7).  A train longer
than its row shows its last tiles after a chip «+k»: only the end is played on.  The row of
the seat to play is outlined; the closing picture says what each seat recorded and its
total instead of its tiles in hand (the summary's text lists the hands).  Halves of the
double-9 and double-12 sets are numerals (§2.10.3): they read at a phone's 400 pixels where
nine pips do not.

**The sausage** (two seats, in the cards of :mod:`ui.picture`): the head standing at the
left, its upper half starting line A and its lower half line B; both lines run right, one
above the other, aligned by position (a cut's pair is one column, §2.12 rule 5 c), the
positions numbered above; a disc with each line's end number; the tile turned over that
waits for a choice below, ringed; the queues are the cards' backs (lengths only: nobody
sees a queue, rule 1).
"""

from __future__ import annotations

from service.views import LayoutView, RoundSummary, TableView, TrainView

from .i18n import Translator
from .picture_kit import (
    FRAME,
    HEIGHT,
    MIN_TEXT,
    PAD,
    WIDTH,
    ZONE,
    _Canvas,
    _font,
    display_text,
)
from .render import clean_name

__all__ = ["draw_trains", "draw_sausage", "legend", "card_boxes", "TRAIN_UNITS",
           "SAUSAGE_UNITS"]

#: Tile sizes tried for the trains, largest first [pixels: a tile's short side].
TRAIN_UNITS: tuple[int, ...] = tuple(range(60, 27, -2))
#: Tile sizes tried for the sausage, largest first.
SAUSAGE_UNITS: tuple[int, ...] = tuple(range(64, 17, -2))

_TOP = FRAME + PAD          # the inner edge of the frame
_BOTTOM = HEIGHT - FRAME - PAD
_LEFT = FRAME + PAD
_RIGHT = WIDTH - FRAME - PAD
_HEADER = 92                # the title and the game above the rows [pixels]
_FOOTER = 48                # the note of the open double under the rows
_NAME_W = 272               # the name card of a train
_GAP = 4                    # between two tiles of a train


def _style(layout: LayoutView, faces: str) -> str:
    """How the halves are drawn: the children's pictures (RULES.md §2.10.4, double-six
    only), numerals for the big sets (§2.10.3), else pips."""
    if faces == "pictures" and layout.top == 6:
        return "pictures"
    return "numerals" if layout.top > 6 else "pips"


def _disc(c: _Canvas, cx: float, cy: float, size: int, number: int) -> None:
    """The disc at a train's or a line's open end, with the number it shows."""
    th = c.th
    c.paste(c.p.disc(size, th.mark, th.felt), round(cx - size / 2), round(cy - size / 2))
    text = str(number)
    font = max(12, round(size * (0.62 if len(text) < 2 else 0.5)))
    c.text(text, cx, cy, size=font, bold=True, fg=th.mark_text, bg=th.mark, anchor="c")


def _flag(c: _Canvas, x: int, y: int, h: int) -> int:
    """The marker of a public train: a red flag on its pole, ``h`` pixels high; returns its
    width."""
    th = c.th
    w = max(8, h * 2 // 3)
    pole = max(2, h // 10)
    c.paste(c.p.panel(pole + 2, h, 1, th.frame_line, th.frame_line, 1, th.card), x, y)
    c.paste(c.p.panel(w, h // 2 + 2, 2, th.closed, th.closed, 1, th.card), x + pole + 1, y)
    return w + pole + 2


# -- the trains -------------------------------------------------------------------------------


def _train_width(train: TrainView, unit: int) -> int:
    """How wide a whole train is at ``unit`` [pixels], its end disc included."""
    w = sum((unit if t.a == t.b else 2 * unit) + _GAP for t in train.tiles)
    return w + unit + _GAP


def _train_unit(layout: LayoutView, row_h: int, width: int) -> int:
    """The largest unit at which a double across fits its row and, if possible, the longest
    train its room; else the smallest that fits the row (the long trains show their ends)."""
    fits_row = [u for u in TRAIN_UNITS if 2 * u + 10 <= row_h]
    if not fits_row:
        return TRAIN_UNITS[-1]
    for u in fits_row:
        if all(_train_width(t, u) <= width for t in layout.trains):
            return u
    return max(fits_row[-1], min(fits_row[0], 40))


def _shown_tiles(train: TrainView, unit: int, width: int) -> tuple[int, int]:
    """``(first index shown, room the «+k» chip takes)`` of a train in ``width`` pixels:
    its last tiles when the whole does not fit."""
    if _train_width(train, unit) <= width:
        return 0, 0
    chip = 2 * unit
    room = width - chip - unit - _GAP
    k = len(train.tiles)
    used = 0
    while k > 0:
        t = train.tiles[k - 1]
        w = (unit if t.a == t.b else 2 * unit) + _GAP
        if used + w > room:
            break
        used += w
        k -= 1
    return k, chip


def _rows(trains: int) -> tuple[int, int, int, int, int]:
    """The rows' geometry for ``trains`` trains: ``(top, row height, hub unit, hub x, the
    cards' x)`` [pixels]."""
    top, bottom = _TOP + _HEADER, _BOTTOM - _FOOTER
    row_h = min(170, (bottom - top) // max(1, trains))
    hub_u = max(32, min(64, row_h // 2))
    hub_x = _LEFT + 6
    return top, row_h, hub_u, hub_x, hub_x + hub_u + 26


def card_boxes(trains: int) -> list[tuple[int, int, int, int]]:
    """The box of every train's card, in row order (a seat's train in seat order, the
    Mexican train last): where a seat's name, marker, tiles in hand (backs only) and total
    are drawn."""
    top, row_h, _, _, x = _rows(trains)
    return [(x, top + row_h * k + 4, x + _NAME_W, top + row_h * (k + 1) - 4)
            for k in range(trains)]


def draw_trains(c: _Canvas, table: TableView, tr: Translator, locale: str,
                summary: RoundSummary | None, *, faces: str = "pips") -> None:
    """The trains of RULES.md §2.11 with their owners (see the module's doc): the hub, a
    row per train, the header and the open double's note."""
    th = c.th
    layout = summary.layout if summary is not None and summary.layout else table.layout
    style = _style(layout, faces)
    trains = layout.trains
    top, row_h, hub_u, hub_x, rows_x = _rows(len(trains))
    tiles_x = rows_x + _NAME_W + 12
    width = _RIGHT - 8 - tiles_x
    unit = _train_unit(layout, row_h, width)
    # the station: the engine double standing in the middle of the rows, a rail to each
    mid = top + row_h * len(trains) / 2
    for k in range(len(trains)):
        cy = top + row_h * k + row_h // 2
        c.paste(c.p.panel(rows_x - hub_x - hub_u // 2, 4, 1, th.frame_line, th.frame_line, 1,
                          th.felt), hub_x + hub_u // 2, cy - 2)
    e = layout.engine if layout.engine is not None else 0
    c.paste(c.p.tile(hub_u, e, e, True, "up", False, th.felt, style), hub_x,
            round(mid - hub_u))
    goats = frozenset(p.seat for p in table.final.players if p.goat) if table.final else \
        frozenset()
    last = frozenset(layout.last)
    for k, train in enumerate(trains):
        y = top + row_h * k
        _train_card(c, table, train, tr, locale, summary, rows_x, y, row_h, goats)
        _train_tiles(c, train, layout, unit, tiles_x, y + row_h // 2, width, style, last)
    _trains_header(c, table, layout, tr, locale, summary)


def _train_card(c: _Canvas, table: TableView, train: TrainView, tr: Translator, locale: str,
                summary: RoundSummary | None, x: int, y: int, row_h: int,
                goats: frozenset[int]) -> None:
    """A train's card: its owner (the Mexican train's name), the marker, the seat's tiles in
    hand and total, or at the round's end what it recorded."""
    th = c.th
    h = row_h - 8
    seat = table.seats[train.owner] if train.owner is not None and \
        train.owner < len(table.seats) else None
    turn = seat is not None and summary is None and table.to_act == seat.seat and \
        table.final is None
    line, lw = (th.turn, 5) if turn else (th.card_line, 2)
    if seat is not None and seat.seat in goats:
        line, lw = th.closed, 5
    c.paste(c.p.panel(_NAME_W, h, 14, th.card, line, lw, th.felt), x, y + 4)
    one_line = h < 2 * MIN_TEXT + 16
    name_y = y + 4 + (h // 2 if one_line else h // 2 - MIN_TEXT // 2 - 4)
    info_y = y + 4 + h // 2 + MIN_TEXT // 2 + 4
    left = x + 12
    right = x + _NAME_W - 10
    if seat is None:
        c.text(tr.plain(locale, "pic-mexican"), left, y + 4 + h // 2, size=MIN_TEXT,
               fg=th.accent, bg=th.card, max_width=right - left)
        return
    flag = _flag(c, right - 24, name_y - MIN_TEXT // 2, MIN_TEXT) + 6 if train.public else 0
    name = clean_name(seat.name, limit=64)
    if not display_text(name, bold=True):
        name = tr.plain(locale, "pic-seat", seat=seat.seat + 1)
    c.text(name, left, name_y, size=MIN_TEXT, bold=True, fg=th.text, bg=th.card,
           max_width=right - left - flag)
    if one_line:
        return
    if summary is not None and seat.side < len(summary.recorded):
        words = tr.plain(locale, "pic-recorded", points=summary.recorded[seat.side],
                         score=summary.scores[seat.side])
        c.text(words, left, info_y, size=MIN_TEXT, fg=th.accent, bg=th.card,
               max_width=right - left)
        return
    back = 13
    c.paste(c.p.tile(back, 0, 0, True, "down", False, th.card), left, info_y - back)
    drawn = c.text(str(seat.tiles), left + back + 6, info_y, size=MIN_TEXT, bold=True,
                   fg=th.text, bg=th.card)
    c.text(f"· {seat.score}", left + back + 16 + drawn, info_y, size=MIN_TEXT, fg=th.dim,
           bg=th.card, max_width=right - (left + back + 16 + drawn))


def _train_tiles(c: _Canvas, train: TrainView, layout: LayoutView, unit: int, x: int,
                 cy: int, width: int, style: str, last: frozenset) -> None:
    """A train's tiles outward from the engine, doubles across, the oldest open double
    ringed red, then the disc with its open end."""
    th = c.th
    arm = "mexican" if train.owner is None else f"t{train.owner}"
    start, chip = _shown_tiles(train, unit, width)
    if chip:
        c.text(f"+{start}", x + chip / 2, cy, size=MIN_TEXT, bold=True, fg=th.dim,
               bg=th.felt, anchor="c")
        x += chip
    ring = c.p.ring(unit)
    for i in range(start, len(train.tiles)):
        t = train.tiles[i]
        double = t.a == t.b
        marked = (arm, i) in last
        off = ring if marked else 0
        if double:
            if train.open == 0 and i == len(train.tiles) - 1:  # the oldest open double
                pad = max(3, unit // 8)
                c.paste(c.p.panel(unit + 2 * pad, 2 * unit + 2 * pad, unit // 4, th.closed,
                                  th.closed, 1, th.felt), x - pad, cy - unit - pad)
            sprite = c.p.tile(unit, t.a, t.b, True, "up", marked, th.felt, style)
            c.paste(sprite, x - off, cy - unit - off)
            x += unit + _GAP
        else:
            sprite = c.p.tile(unit, t.a, t.b, False, "up", marked, th.felt, style)
            c.paste(sprite, x - off, cy - unit // 2 - off)
            x += 2 * unit + _GAP
    _disc(c, x + unit / 2, cy, max(16, round(unit * 0.9)), train.end)


def _trains_header(c: _Canvas, table: TableView, layout: LayoutView, tr: Translator,
                   locale: str, summary: RoundSummary | None) -> None:
    """Above the rows: the round of the match and the hub, the game and the bazar; below
    them, the oldest open double everybody must cover (rule 7) or how the round ended."""
    th = c.th
    cx = WIDTH / 2
    e = layout.engine if layout.engine is not None else 0
    if table.final is not None and summary is None:
        title = tr.plain(locale, "pic-match-over")
    elif summary is not None:
        title = tr.plain(locale, "pic-round-over", round=summary.round_no)
    else:
        key = tr.pick(locale, f"pic-round-of-{table.variant}", "pic-round-of")
        title = tr.plain(locale, key, round=table.round_no, deals=table.deals or 0)
    title += f" · {tr.plain(locale, 'pic-engine')} [{e}|{e}]"
    game = tr.plain(locale, "pic-variant", variant=table.variant)
    game += " · " + tr.plain(locale, "pic-bazar", count=table.drawable)
    width = _RIGHT - _LEFT - 20
    c.text(title, cx, _TOP + 22, size=34, bold=True, fg=th.text, bg=th.felt, anchor="c",
           max_width=width, sizes=(MIN_TEXT,))
    c.text(game, cx, _TOP + 64, size=MIN_TEXT, fg=th.dim, bg=th.felt, anchor="c",
           max_width=width)
    note = _trains_note(table, layout, tr, locale, summary)
    if note:
        c.text(note, cx, _BOTTOM - _FOOTER / 2, size=MIN_TEXT, bold=True, fg=th.accent,
               bg=th.felt, anchor="c", max_width=width)


def _trains_note(table: TableView, layout: LayoutView, tr: Translator, locale: str,
                 summary: RoundSummary | None) -> str | None:
    """The line under the rows: how the round ended, else the oldest open double."""
    names = {s.seat: s.name for s in table.seats}
    if summary is not None:
        who = clean_name(names.get(summary.by, "?"))
        if summary.end == "fish":
            return tr.plain(locale, tr.pick(locale, f"pic-fish-{table.variant}", "pic-fish"),
                            name=who)
        return tr.plain(locale, "pic-out", name=who)
    oldest = next(iter(layout.open_trains), None)
    if oldest is None:
        return None
    double = oldest.tiles[-1].a if oldest.tiles else layout.engine
    owner = tr.plain(locale, "pic-mexican") if oldest.owner is None else \
        clean_name(names.get(oldest.owner, "?"))
    return f"{tr.plain(locale, 'pic-open')}: [{double}|{double}] · {owner}"


# -- the sausage ------------------------------------------------------------------------------


def _sausage_unit(columns: int, zone_w: int) -> int:
    """The largest unit at which ``columns`` positions (the head, the longer line, the end
    disc) fit the zone's width."""
    for u in SAUSAGE_UNITS:
        if columns * (2 * u + _GAP) <= zone_w:
            return u
    return SAUSAGE_UNITS[-1]


def draw_sausage(c: _Canvas, layout: LayoutView, tr: Translator, locale: str, *,
                 zone: tuple[int, int, int, int] = ZONE, faces: str = "pips") -> None:
    """The sausage of RULES.md §2.12 in ``zone`` (see the module's doc): the head, lines A
    and B aligned by position with the positions numbered, their end discs, and the tile
    turned over that waits for a choice."""
    th = c.th
    s = layout.sausage
    x0, y0, x1, y1 = zone
    cx = (x0 + x1) / 2
    if s is None or s.head is None:
        c.text(tr.plain(locale, "pic-waiting"), cx, (y0 + y1) / 2, size=40, fg=th.dim,
               bg=th.felt, anchor="c")
        return
    style = _style(layout, faces)
    longest = max(len(s.a), len(s.b))
    unit = _sausage_unit(longest + 2, x1 - x0 - 20)
    step = 2 * unit + _GAP
    width = (longest + 1) * step + unit
    left = round(cx - width / 2)
    turned_room = (2 * unit + 70) if s.turned is not None else 0
    top = round((y0 + y1 - turned_room) / 2 - unit) + 10
    last = frozenset(layout.last)
    ring = c.p.ring(unit)
    # the positions over line A (rule 3): 0 over the head, k over the outer half of tile k,
    # whose number the position shows (a cut at k pairs the two numbers of that column)
    for k in range(longest + 1):
        x = left + unit // 2 if k == 0 else left + unit + _GAP + (k - 1) * step + 3 * unit // 2
        c.text(str(k), x, top - 26, size=max(18, min(MIN_TEXT, unit)), fg=th.dim,
               bg=th.felt, anchor="c")
    hx, hy = s.head
    marked = ("head", 0) in last
    off = ring if marked else 0
    c.paste(c.p.tile(unit, hx, hy, True, "up", marked, th.felt, style), left - off, top - off)
    for row, name in enumerate(("a", "b")):
        tiles = s.line(name)
        y = top + row * unit
        x = left + unit + _GAP
        for i, t in enumerate(tiles):
            marked = (name, i) in last
            off = ring if marked else 0
            c.paste(c.p.tile(unit, t.a, t.b, False, "up", marked, th.felt, style), x - off,
                    y - off)
            x += step
        _disc(c, x + unit / 2, y + unit / 2, max(16, round(unit * 0.86)), s.ends[row])
        if left - unit > x0 + 30:
            c.text(name.upper(), left - 12, y + unit / 2, size=MIN_TEXT, bold=True,
                   fg=th.accent, bg=th.felt, anchor="r")
    if s.turned is not None:
        tu = max(unit, 40)
        ty = top + 2 * unit + 60
        pad = max(4, tu // 8)
        c.paste(c.p.panel(2 * tu + 2 * pad, tu + 2 * pad, tu // 4, th.turn, th.turn, 1,
                          th.felt), round(cx - tu - pad), ty - pad)
        c.paste(c.p.tile(tu, s.turned[0], s.turned[1], False, "up", False, th.turn, style),
                round(cx - tu), ty)
        c.text(tr.plain(locale, "pic-turned"), cx - tu - pad - 14, ty + tu / 2, size=MIN_TEXT,
               bold=True, fg=th.text, bg=th.felt, anchor="r")


def legend(c: _Canvas, tr: Translator, locale: str, y: int, x0: int = _LEFT,
           x1: int = _RIGHT) -> None:
    """The children's set's legend (RULES.md §2.10.4), centred on one row at ``y``: «pictures
    = numbers», then each picture (a tile of it) with its number."""
    th = c.th
    unit = 24
    words = tr.plain(locale, "pic-legend")
    shown = display_text(words, size=MIN_TEXT)
    text_w = _font(False, MIN_TEXT).getlength(shown) + 20
    num_w = 62
    item = 2 * unit + num_w
    x = round((x0 + x1 - (text_w + 7 * item)) / 2)
    c.text(words, x, y, size=MIN_TEXT, fg=th.dim, bg=th.felt)
    x += round(text_w)
    for n in range(7):
        c.paste(c.p.tile(unit, n, n, False, "up", False, th.felt, "pictures"), x,
                y - unit // 2)
        c.text(f"={n}", x + 2 * unit + 6, y, size=MIN_TEXT, bold=True, fg=th.text,
               bg=th.felt)
        x += item
