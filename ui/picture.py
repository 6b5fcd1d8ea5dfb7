"""The group's table as a picture: pure functions from views to PNG bytes (issue 14).

:func:`render_table_png` draws a :class:`service.views.TableView` — the table the whole group
may see — as a PNG of :data:`WIDTH` × :data:`HEIGHT` pixels:

- the tiles with their pips (never digits), laid by :mod:`ui.picture_layout`: a line that fits
  goes straight, a longer one snakes out of its lead, a cross grows its four arms out of the
  spinner (RULES.md §2.0.2) and turns them at the edges; doubles lie across, closed doubles
  face down (§2.0.3), the extraordinary lead's gap is an empty tile outline (§2.1 rule 7);
- a mark with the number at every open end, a cross at a closed one, and a ring round the
  tiles of the last move; in the games with a count (§2.0.6) each mark shows what its end
  adds to the count (``EndView.counts``), so the marks add up to the printed count;
- the seats in turn order round the table (bottom left, top left, top right, bottom right),
  each with its name, its tiles in hand as backs (how many only, RULES.md §1.8), its side's
  score with remembered points as ``+N`` (§1.12), the seat to play ringed; teams (§1.14) in
  two colours; what the game counts beside points (its marks, RULES.md §2: ``pic-mark``, a
  game's own ``pic-mark-<variant>``), the goat at the end;
- the round (or the deal of sport domino, §2.7), the variant, the bazar (drawable + reserve,
  §1.4), the pot (§1.13), the count and the last move's points in the fives games (§2.0.6), a
  fast lead and two tiles a turn (§2.1 rules 6–7).

Hidden information: the function takes views only, and a :class:`TableView` holds no hand
(RULES.md §1.8), so a group picture cannot show one. The hands appear only when a
:class:`~service.views.RoundSummary` is passed (``summary``): the closing picture of a round,
which reveals them as the text summary does.

Every text comes from the locales (``pic-…`` keys, :class:`ui.i18n.Translator`). Names are
user input: control characters go (:func:`ui.render.clean_name`), so does every character the
font cannot draw (emoji the font lacks, for one), right-to-left names (Hebrew, Arabic) are
laid out by Pillow's complex text layout (libraqm: visual order, Arabic letters joined) where
the machine has it and put in visual order letter by letter where it has not
(:data:`COMPLEX_TEXT`), and a name too wide for its seat is cut with "…".

Speed: everything is drawn into a palette ("P") image with one fixed palette per
:class:`Theme`, from sprites rendered once and cached (tiles per size, orientation, face and
highlight; labels; panels), so a picture is a few dozen rectangle copies and one PNG encoding
of about a megabyte of palette indices. The bot keeps each PNG per (match, version)
(``delivery.pictures.PictureCache``), so an unchanged state is never drawn twice.
``bench/picture_bench.py`` times it.

``python -m ui.picture --examples DIR`` writes the README's example pictures, each also
scaled to :data:`PHONE_WIDTH` pixels wide as a phone shows it (``NAME-400.png``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, PngImagePlugin

from service.views import LayoutView, RoundSummary, SeatView, TableView

from . import picture_trains
from .i18n import Translator, get_translator
from .picture_kit import (  # noqa: F401 - the paint box, also read through this module
    _CENTRE_X0,
    _CENTRE_X1,
    _SEATING,
    _SLOTS,
    CARD_H,
    CARD_W,
    COMPLEX_TEXT,
    FELT,
    FONTS_DIR,
    FRAME,
    HAND_LYING,
    HEIGHT,
    LABELS_KEY,
    MAX_PNG_BYTES,
    MIN_TEXT,
    PAD,
    PIP_OFFSET,
    PIP_RADIUS,
    PNG_COMPRESS_LEVEL,
    RGB,
    THEMES,
    WIDTH,
    ZONE,
    Theme,
    _block,
    _Canvas,
    _draw_mark,
    _font,
    _lines,
    _named,
    _Painter,
    _painter,
    _painters,
    _pairs,
    _team_colour,
    _tiles_row,
    _visual_order,
    _wrap,
    display_text,
)
from .picture_layout import plan_table
from .render import _info, _points, clean_name, flag_text, format_score

__all__ = [
    "COMPLEX_TEXT",
    "FELT",
    "FONTS_DIR",
    "HEIGHT",
    "LABELS_KEY",
    "MAX_PNG_BYTES",
    "PHONE_WIDTH",
    "THEMES",
    "WIDTH",
    "Theme",
    "display_text",
    "encode_png",
    "phone_view",
    "picture_labels",
    "render_table_image",
    "render_table_png",
]


def _draw_layout(c: _Canvas, layout: LayoutView, tr: Translator, locale: str,
                 zone: tuple[int, int, int, int] = ZONE, style: str = "pips") -> None:
    th = c.th
    if not layout.line and not layout.up and not layout.down:
        cx, cy = (zone[0] + zone[2]) / 2, (zone[1] + zone[3]) / 2
        c.text(tr.plain(locale, "pic-waiting"), cx, cy, size=40, fg=th.dim, bg=th.felt,
               anchor="c")
        return
    plan = plan_table(layout, zone)
    last = frozenset(layout.last)
    ring = c.p.ring(plan.unit)
    for t in plan.tiles:
        marked = t.pos is not None and t.pos in last
        sprite = c.p.tile(plan.unit, t.first, t.second, t.vertical, t.face, marked, th.felt,
                          style)
        off = ring if marked else 0
        c.paste(sprite, t.box[0] - off, t.box[1] - off)
    # in the games with a count (RULES.md §2.0.6) each mark shows what its end adds to it,
    # so that the marks add up to the printed count
    counting = layout.count is not None and any(e.counts is not None for e in layout.ends)
    for m in plan.marks:
        _draw_mark(c, m, plan.unit, counting)


def _draw_seat(c: _Canvas, table: TableView, seat: SeatView, slot: str, tr: Translator,
               locale: str, summary: RoundSummary | None, goats: frozenset[int]) -> None:
    """One seat's card in its ``slot``: the name with «to play» or «goat», the hand (backs,
    or revealed at the round's end) and the side's score with what the game counts."""
    th = c.th
    x, y = _SLOTS[slot]
    turn = summary is None and table.to_act == seat.seat and table.final is None
    stripe = _team_colour(th, table, seat)
    line, width = (th.turn, 5) if turn else (th.card_line, 2)
    c.paste(c.p.panel(CARD_W, CARD_H, 18, th.card, line, width, th.felt, stripe), x, y)
    left = x + (34 if stripe else 22)
    right = x + CARD_W - 20
    # the loser's badge in the game's own word (Осёл's «осёл», RULES.md §2.2)
    goat = tr.plain(locale, tr.pick(locale, f"pic-goat-{table.variant}", "pic-goat")) \
        if seat.seat in goats else None
    _seat_name(c, seat, tr, locale, left, right, y, turn=turn, goat=goat)
    _seat_hand(c, table, seat, tr, locale, summary, left, right, y + 84)
    _seat_score(c, table, seat, tr, locale, summary, left, right, y + 134)


def _seat_name(c: _Canvas, seat: SeatView, tr: Translator, locale: str, left: int, right: int,
               y: int, *, turn: bool, goat: str | None) -> None:
    """Row 1 of a seat's card: the name, and «to play» / the loser's word (``goat``: the
    game's own, «козёл», «осёл») on the right."""
    th = c.th
    tag, tag_fill, tag_fg = None, th.turn, th.turn_text
    if turn:
        tag = tr.plain(locale, "pic-turn")
    elif goat:
        tag, tag_fill, tag_fg = goat, th.closed, th.text
    tag_w = 0
    if tag:
        shown = display_text(tag, bold=True, size=MIN_TEXT)
        tag_w = int(_font(True, MIN_TEXT).getlength(shown)) + 26
        c.paste(c.p.panel(tag_w, 42, 21, tag_fill, tag_fill, 1, th.card), right - tag_w, y + 12)
        c.text(shown, right - tag_w / 2, y + 33, size=MIN_TEXT, bold=True, fg=tag_fg,
               bg=tag_fill, anchor="c")
    name = clean_name(seat.name, limit=64)
    if not display_text(name, bold=True):
        name = tr.plain(locale, "pic-seat", seat=seat.seat + 1)
    name_fg = th.dim if seat.left else th.text
    c.text(name, left, y + 33, size=36, bold=True, fg=name_fg, bg=th.card,
           max_width=right - left - tag_w - (12 if tag_w else 0), sizes=(32, MIN_TEXT))


def _seat_hand(c: _Canvas, table: TableView, seat: SeatView, tr: Translator, locale: str,
               summary: RoundSummary | None, left: int, right: int, row: int) -> None:
    """Row 2 of a seat's card: the hand, as backs (how many), or revealed at the round's end
    with its value (RULES.md §1.11)."""
    th = c.th
    if seat.left and summary is None:
        c.text(tr.plain(locale, "pic-left"), left, row, size=MIN_TEXT, fg=th.dim, bg=th.card)
    elif summary is not None and seat.seat < len(summary.queues):
        # Колбаса: a queue is never shown, even at the round's end (RULES.md §2.12 rules 1, 8)
        end = _tiles_row(c, left, row, right - left - 120, summary.queues[seat.seat], th.card,
                         unit=24)
        value = summary.seat_values[seat.seat] if seat.seat < len(summary.seat_values) else 0
        c.text(f"{summary.queues[seat.seat]} = {value}", end + 12, row, size=30, bold=True,
               fg=th.accent, bg=th.card)
    elif summary is not None and seat.seat < len(summary.hands):
        hand = _pairs(summary.hands[seat.seat])
        if hand:
            end = _tiles_row(c, left, row, right - left - 90, hand, th.card, unit=30,
                             lying=HAND_LYING)
            value = (summary.hand_values[seat.side] if seat.side < len(summary.hand_values)
                     else None)
            if value is not None and not table.teams:
                c.text(f"= {value}", end + 12, row, size=30, bold=True, fg=th.accent,
                       bg=th.card)
        else:
            c.text(tr.plain(locale, "pic-hand-empty"), left, row, size=MIN_TEXT, fg=th.dim,
                   bg=th.card)
    else:
        end = _tiles_row(c, left, row, right - left - 60, seat.tiles, th.card, unit=24)
        c.text(str(seat.tiles), end + 12, row, size=32, bold=True, fg=th.text, bg=th.card)


def _seat_extras(table: TableView, seat: SeatView, tr: Translator, locale: str,
                 summary: RoundSummary | None, th: Theme) -> list[tuple[str, RGB, bool]]:
    """What goes right of a seat's score, in order of importance: the points the round
    recorded, what the game counts beside points as the round left it (RULES.md §2), the
    robot of a computer player; ``(text, colour, bold)``."""
    extras = []
    if summary is not None and seat.side < len(summary.recorded) and summary.recorded[seat.side]:
        extras.append((f"+{summary.recorded[seat.side]}", th.accent, True))
    after = {m.name: m for m in summary.marks} if summary is not None else {}
    for mark in seat.marks:
        count = mark.count
        tally = after.get(mark.name)
        if tally is not None:
            k = seat.seat if mark.per == "seat" else seat.side
            count = tally.counts[k] if k < len(tally.counts) else count
        if count:
            key = tr.pick(locale, f"pic-mark-{table.variant}", "pic-mark")
            extras.append((tr.plain(locale, key, mark=mark.name, count=count), th.accent,
                           False))
    if seat.bot:
        extras.append((tr.plain(locale, "pic-bot"), th.dim, True))
    return extras


def _seat_score(c: _Canvas, table: TableView, seat: SeatView, tr: Translator, locale: str,
                summary: RoundSummary | None, left: int, right: int, row: int) -> None:
    """Row 3 of a seat's card: the side's score, remembered points as +N (RULES.md §1.12),
    then as many of :func:`_seat_extras` as fit whole, none cut or smaller than MIN_TEXT."""
    th = c.th
    score, remembered = seat.score, seat.remembered
    if summary is not None and seat.side < len(summary.scores):
        score = summary.scores[seat.side]
        remembered = summary.remembered[seat.side] if seat.side < len(summary.remembered) else 0
    drawn = 0
    if _points(table.variant):  # a game that counts only its marks shows no score
        drawn = c.text(tr.plain(locale, "pic-score", score=format_score(score, remembered)),
                       left, row, size=32, fg=th.text, bg=th.card)
    room = right - (left + drawn + 14)
    kept = []
    for text, fg, bold in _seat_extras(table, seat, tr, locale, summary, th):
        shown = display_text(text, bold=bold, size=MIN_TEXT)
        width = _font(bold, MIN_TEXT).getlength(shown) + 14 if shown else 0
        if shown and width <= room:
            kept.append((text, fg, bold))
            room -= width
    pos = right
    for text, fg, bold in reversed(kept):
        pos -= c.text(text, pos, row, size=MIN_TEXT, bold=bold, fg=fg, bg=th.card,
                      anchor="r") + 14


def _header(c: _Canvas, table: TableView, tr: Translator, locale: str,
            summary: RoundSummary | None) -> None:
    """The centre above the table: the round, the game (and «команды»), what ended the
    round or what is special about it; below the table, the bazar, the pot, the count and
    what the round's moves scored.  Nothing smaller than :data:`MIN_TEXT`: a line too long
    for the centre wraps (the game's name before «· команды»), and what finds no room
    is left out before the more important lines above it."""
    th = c.th
    cx = (_CENTRE_X0 + _CENTRE_X1) / 2
    top = FRAME + PAD
    if table.final is not None and summary is None:
        title = tr.plain(locale, "pic-match-over" if table.final.rated
                         else "pic-match-stopped")
    elif summary is not None:
        title = tr.plain(locale, "pic-round-over", round=summary.round_no)
    elif table.deals:
        title = tr.plain(locale, "pic-round-of", round=table.round_no, deals=table.deals)
    else:
        title = tr.plain(locale, "pic-round", round=table.round_no)
    variant = tr.plain(locale, tr.pick(locale, f"pic-variant-{table.variant}",
                                       f"variant-name-{table.variant}", "pic-variant"),
                       variant=table.variant)
    if table.teams:
        variant += " · " + tr.plain(locale, "pic-teams")
    notes: list[str] = []
    final = table.final
    if summary is None and final is not None and not final.rated and final.stopped_by:
        notes.append(_named(tr, locale, "pic-stopped-by", clean_name(final.stopped_by)))
    if summary is not None:
        names = {s.seat: s.name for s in table.seats}
        who = clean_name(names.get(summary.by, "?"))
        key = {"out": "pic-out", "fish": "pic-fish", "void": "pic-void",
               "limit": "pic-limit"}.get(summary.end)
        if key:
            notes.append(_named(tr, locale, key, who))
        # (a flag shown while the round was played is the caption's at its end)
        game = _info(table.variant)
        ended = {f.name for f in game.flags if not f.during} if game else set()
        flags = [f for f in summary.flags if f.name in ended]
    else:
        flags = list(table.flags)  # the caption says what each stakes (``flag-…``)
    notes += [flag_text(tr, locale, table.variant, f, picture=True) for f in flags]
    # the game's name reads best under the title, but it is the least news (the chat's game;
    # the cards' stripes show teams): where it leaves a note no room, it keeps one line, the
    # game's name alone, and then gives way
    first = _wrap(variant, bold=False, size=MIN_TEXT, width=_CENTRE_X1 - _CENTRE_X0)[0]
    rest = [(n, th.accent, True, MIN_TEXT) for n in notes]
    # the title on one line where a size down to MIN_TEXT allows it, else on two
    size = next((s for s in (36, 33, MIN_TEXT) if _font(True, s).getlength(
        display_text(title, bold=True, size=s)) <= _CENTRE_X1 - _CENTRE_X0), 36)
    title_ = (title, th.text, True, size)
    options = [[title_, (variant, th.dim, False, MIN_TEXT), *rest],
               [title_, (first.removesuffix(" ·"), th.dim, False, MIN_TEXT), *rest],
               [title_, *rest]]
    heading = next((o for o in options if _lines(o, ZONE[1] - top, whole=True)[1] == len(o)),
                   options[-1])
    _block(c, heading, cx, top, ZONE[1])
    # Bottom centre: the bazar, the pot, the count.
    info: list[tuple[str, RGB, bool, int]] = []
    live = summary is None or table.round_no == summary.round_no
    if table.layout.kind == "sausage":
        live = False  # Колбаса has no bazar (RULES.md §2.12)
    if live and (len(table.seats) < 4 or table.drawable or table.reserve):
        key = "pic-bazar-reserve" if table.reserve else "pic-bazar"
        info.append((tr.plain(locale, key, count=table.drawable, reserve=table.reserve),
                     th.text, True, 32))
    pot = summary.pot if summary is not None else table.pot
    if pot:
        info.append((tr.plain(locale, "pic-pot", points=pot), th.accent, True, 32))
    layout = summary.layout if summary is not None and summary.layout else table.layout
    if layout.count is not None:
        info.append((tr.plain(locale, "pic-count", count=layout.count), th.text, True, 32))
        note = table.notes[-1] if table.notes and summary is None else None
        if note is not None and note.points:
            info.append((tr.plain(locale, "pic-scored", points=note.points), th.accent,
                         True, 32))
    if summary is not None and any(summary.play_points):
        points = sum(summary.play_points)
        info.append((tr.plain(locale, "pic-play-points", points=points), th.text, True, 32))
    _block(c, info, cx, ZONE[3], HEIGHT - FRAME - PAD, from_bottom=True)


def render_table_image(table: TableView, *, locale: str, tr: Translator | None = None,
                       summary: RoundSummary | None = None, theme: Theme = FELT,
                       faces: str = "pips") -> Image.Image:
    """The picture of ``table`` as a Pillow palette image (mode ``"P"``) of :data:`WIDTH` ×
    :data:`HEIGHT` pixels; see :func:`render_table_png`, which encodes it.  The view its
    layout declares (``layout.kind``): the line and the cross here, the trains and the
    sausage by :mod:`ui.picture_trains`."""
    tr = tr if tr is not None else get_translator()
    c = _Canvas(_painter(theme))
    layout = summary.layout if summary is not None and summary.layout else table.layout
    if layout.kind == "trains":
        picture_trains.draw_trains(c, table, tr, locale, summary, faces=faces)
        return _finished(c)
    zone = ZONE
    pictures = faces == "pictures" and layout.top == 6  # the children's set (§2.10.4)
    if pictures:
        zone = (ZONE[0], ZONE[1], ZONE[2], ZONE[3] - 56)
        picture_trains.legend(c, tr, locale, ZONE[3] - 24)
    if layout.kind == "sausage":
        picture_trains.draw_sausage(c, layout, tr, locale, zone=zone, faces=faces)
    else:
        _draw_layout(c, layout, tr, locale, zone, "pictures" if pictures else "pips")
    goats = frozenset(p.seat for p in table.final.players if p.goat) if table.final else frozenset()
    seating = _SEATING.get(len(table.seats), _SEATING[4])
    for seat, slot in zip(table.seats, seating, strict=False):
        _draw_seat(c, table, seat, slot, tr, locale, summary, goats)
    _header(c, table, tr, locale, summary)
    return _finished(c)


def _finished(c: _Canvas) -> Image.Image:
    """The canvas's image, with every text it drew in its ``info``."""
    c.im.info[LABELS_KEY] = "\n".join(c.labels)
    c.im.info["label_sizes"] = tuple(c.sizes)
    return c.im


def encode_png(im: Image.Image) -> bytes:
    """A palette image as PNG bytes (zlib level :data:`PNG_COMPRESS_LEVEL`); the texts it
    draws (``im.info[LABELS_KEY]``, set by :func:`render_table_image`) go with it as a
    compressed ``iTXt`` chunk, read back by :func:`picture_labels`."""
    buf = io.BytesIO()
    info = None
    labels = im.info.get(LABELS_KEY)
    if labels:
        info = PngImagePlugin.PngInfo()
        info.add_itxt(LABELS_KEY, labels, zip=True)
    im.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL, pnginfo=info)
    return buf.getvalue()


def picture_labels(png: bytes) -> list[str]:
    """Every text a table picture drew (its labels: the title, the game, names, scores, the
    bazar…), in drawing order, read from the PNG's ``iTXt`` chunk :data:`LABELS_KEY`; empty
    for a PNG without one.  Raises ``PIL.UnidentifiedImageError`` for bytes that are no
    image.  What a reader of the picture sees in words, for checks of its language (issue
    20 item 8) and for anyone who cannot see it."""
    with Image.open(io.BytesIO(png)) as im:
        im.load()
        text = im.text.get(LABELS_KEY, "") if hasattr(im, "text") else ""
    return [line for line in str(text).split("\n") if line]


def render_table_png(table: TableView, *, locale: str, tr: Translator | None = None,
                     summary: RoundSummary | None = None, theme: Theme = FELT,
                     faces: str = "pips") -> bytes:
    """The group's table as PNG bytes, :data:`WIDTH` × :data:`HEIGHT` pixels (issue 14).

    ``table`` is the group's view (it holds no hand, RULES.md §1.8). ``summary``, a scored
    round (``table.summary`` for the closed table), turns it into the round's closing
    picture: the table as the round ended (``summary.layout`` when set), every hand revealed
    with its value, the points recorded and the scores after the round (§1.11–§1.14), and how
    the round ended instead of whose turn it is. Only then does a hand appear.

    ``locale`` is ``ru``, ``uk`` or ``en`` (others fall back to the translator's default);
    ``tr`` the translator (default :func:`ui.i18n.get_translator`); ``theme`` the colours;
    ``faces`` ``pictures`` draws the children's set (RULES.md §2.10.4, double-six only: seven
    pictures and their legend), else pips (numerals for the double-9 and double-12 sets).
    Pure: the same arguments give the same bytes. About 3 ms and 20–40 KB
    (``bench/picture_bench.py``; the target is at most :data:`MAX_PNG_BYTES`). Raises
    ``ValueError`` for a layout whose spinner or gap lies outside its line.
    """
    return encode_png(render_table_image(table, locale=locale, tr=tr, summary=summary,
                                         theme=theme, faces=faces))


def _main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m ui.picture",
                                     description="Draw the README's example table pictures.")
    parser.add_argument("--examples", metavar="DIR", required=True,
                        help="directory to write the example PNGs into")
    parser.add_argument("--locale", default="ru", help="ru, uk or en (default ru)")
    args = parser.parse_args(argv)
    from .picture_examples import EXAMPLES

    out = Path(args.examples)
    out.mkdir(parents=True, exist_ok=True)
    for name, (table, summary) in EXAMPLES.items():
        png = render_table_png(table(), locale=args.locale,
                               summary=summary() if summary else None)
        path = out / f"{name}.png"
        path.write_bytes(png)
        print(f"{path}: {len(png):,} bytes")
        # and as a phone shows it, about 400 pixels wide (issue 20 item 12)
        small = phone_view(png)
        path = out / f"{name}-{PHONE_WIDTH}.png"
        path.write_bytes(small)
        print(f"{path}: {len(small):,} bytes")
    return 0


#: How wide a phone shows a picture in a chat [pixels], about: pips must read there.
PHONE_WIDTH = 400


def phone_view(png: bytes, width: int = PHONE_WIDTH) -> bytes:
    """A picture (PNG bytes) scaled to ``width`` pixels wide, as a phone shows it in a chat
    (Lanczos; the height keeps the picture's proportions), as PNG bytes."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    small = im.resize((width, round(im.height * width / im.width)), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    small.save(buf, "PNG", optimize=True)
    return buf.getvalue()


if __name__ == "__main__":
    raise SystemExit(_main())
