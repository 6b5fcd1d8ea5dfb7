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
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin, features

from service.views import LayoutView, RoundSummary, SeatView, TableView

from .i18n import Translator, get_translator
from .picture_layout import Box, EndMark, plan_table
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

#: Size of every table picture [pixels]. Telegram shows it at the chat's width.
WIDTH = 1200
HEIGHT = 960
#: The PNG text chunk that carries the labels a picture drew (:func:`picture_labels`).
LABELS_KEY = "Description"
#: The size a picture should stay under [bytes] (bench/picture_bench.py checks it).
MAX_PNG_BYTES = 100_000
#: DejaVu Sans, shipped beside this module under its licence (ui/fonts/README.md).
FONTS_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
#: Whether Pillow has its complex text layout (libraqm, with FriBiDi and HarfBuzz) on this
#: machine: then names are shaped (Arabic letters joined) and put in visual order by it;
#: without it the basic layout draws characters one by one, in the order
#: :func:`_visual_order` gives them, Arabic letters in their isolated forms.
COMPLEX_TEXT: bool = bool(features.check("raqm"))
_LAYOUT = ImageFont.Layout.RAQM if COMPLEX_TEXT else ImageFont.Layout.BASIC

#: zlib level of the PNG: 3 encodes as fast as 1 and 12% smaller; 6 takes twice as long for
#: another quarter, 9 ten times as long (``bench/picture_bench.py --compare``).
PNG_COMPRESS_LEVEL = 3

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of a picture (RGB). The picture is opaque, framed in wood with a light outer
    line, so that it reads on Telegram's light and dark chat backgrounds alike."""

    name: str
    felt: RGB
    frame: RGB
    frame_line: RGB
    card: RGB
    card_line: RGB
    face: RGB
    face_last: RGB
    edge: RGB
    pip: RGB
    back: RGB
    back_mark: RGB
    last: RGB
    turn: RGB
    turn_text: RGB
    text: RGB
    dim: RGB
    accent: RGB
    mark: RGB
    mark_text: RGB
    closed: RGB
    ghost: RGB
    team_a: RGB
    team_b: RGB


#: The default theme: green baize in a wooden frame.
FELT = Theme(
    name="felt",
    felt=(24, 104, 66),
    frame=(94, 60, 32),
    frame_line=(226, 206, 168),
    card=(14, 64, 41),
    card_line=(70, 140, 100),
    face=(248, 244, 232),
    face_last=(255, 240, 186),
    edge=(92, 84, 70),
    pip=(22, 22, 22),
    back=(130, 32, 40),
    back_mark=(222, 182, 102),
    last=(255, 196, 30),
    turn=(255, 196, 30),
    turn_text=(40, 28, 0),
    text=(250, 250, 244),
    dim=(176, 210, 186),
    accent=(255, 214, 92),
    mark=(250, 250, 244),
    mark_text=(14, 64, 41),
    closed=(150, 40, 48),
    ghost=(170, 214, 186),
    team_a=(96, 168, 240),
    team_b=(244, 136, 84),
)

#: Themes by name.
THEMES: dict[str, Theme] = {FELT.name: FELT}

# -- fonts and text ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (Bold) at ``size`` pixels, with Pillow's complex text layout where the
    machine has it (:data:`COMPLEX_TEXT`), else its basic layout."""
    return ImageFont.truetype(str(FONTS_DIR / _FONT_FILES[bold]), size, layout_engine=_LAYOUT)


_glyph_lock = threading.Lock()
_glyphs: dict[tuple[bool, str], bool] = {}
_NOTDEF = "\U0010fffd"  # a private-use code point no font maps: it draws the "missing" box
_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _glyph_image(font: ImageFont.FreeTypeFont, ch: str) -> bytes:
    im = Image.new("L", (48, 48))
    ImageDraw.Draw(im).text((4, 4), ch, font=font, fill=255)
    return im.tobytes()


def _drawable(ch: str, bold: bool) -> bool:
    """Whether the font draws ``ch`` (and not its "missing glyph" box)."""
    key = (bold, ch)
    known = _glyphs.get(key)
    if known is not None:
        return known
    if ch == " ":
        ok = True
    elif _invisible(ch):
        ok = False
    else:
        font = _font(bold, 32)
        ok = _glyph_image(font, ch) != _glyph_image(font, _NOTDEF)
    with _glyph_lock:
        _glyphs[key] = ok
    return ok


def _invisible(ch: str) -> bool:
    """A format or control character, or a variation selector: removed without a trace."""
    return unicodedata.category(ch) in _DROP_CATEGORIES or 0xFE00 <= ord(ch) <= 0xFE0F


def _rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _visual_order(text: str) -> str:
    """The characters of one line in the order they are seen, for a renderer that draws left
    to right: the Unicode bidirectional algorithm's levels and reordering (UAX #9, rules
    W2, N1–N2, I1–I2, L2) for a line without explicit embeddings. Numbers after a
    right-to-left letter stay left to right inside it; a line whose first strong letter is
    right-to-left is a right-to-left line. Brackets are not mirrored, and Arabic letters keep
    their isolated forms (no shaping)."""
    if not any(_rtl(c) for c in text):
        return text
    classes = [unicodedata.bidirectional(c) for c in text]
    first = next((k for k in classes if k in ("L", "R", "AL")), "L")
    rtl_line = first != "L"
    types: list[str | None] = []
    prev = "R" if rtl_line else "L"
    for k in classes:
        if k in ("R", "AL"):
            types.append("R")
            prev = "R"
        elif k == "L":
            types.append("L")
            prev = "L"
        elif k in ("EN", "AN"):
            types.append("N" if prev == "R" else "L")  # a number inside right-to-left text
        else:
            types.append(None)
    edge = "R" if rtl_line else "L"
    for i, t in enumerate(types):
        if t is not None:
            continue
        before = next((types[j] for j in range(i - 1, -1, -1) if types[j]), edge)
        after = next((types[j] for j in range(i + 1, len(types)) if types[j]), edge)
        before, after = ("R" if x in ("R", "N") else "L" for x in (before, after))
        types[i] = before if before == after else edge
    if rtl_line:
        levels = [1 if t == "R" else 2 for t in types]
    else:
        levels = [1 if t == "R" else 2 if t == "N" else 0 for t in types]
    chars = list(text)
    for level in range(max(levels), 0, -1):
        i = 0
        while i < len(chars):
            if levels[i] < level:
                i += 1
                continue
            j = i
            while j < len(chars) and levels[j] >= level:
                j += 1
            chars[i:j] = chars[i:j][::-1]
            levels[i:j] = levels[i:j][::-1]
            i = j
    return "".join(chars)


#: Characters the font cannot draw (marked NUL) with the spaces before them, where a
#: punctuation mark or the end follows: they leave no space behind.
_DROPPED_BEFORE_STOP = re.compile(r"\s*\0+(?=[\s\0]*(?:[:;,.!?…)»”]|$))[\s\0]*")


@lru_cache(maxsize=8192)
def display_text(text: str, *, bold: bool = False, size: int = 32,
                 max_width: float | None = None) -> str:
    """``text`` as the picture draws it: format characters and variation selectors removed,
    every other character DejaVu Sans cannot draw (most emoji) replaced by a space, so no
    "missing glyph" box is ever drawn (none where it would stand before punctuation or at
    the end: «Бот Фёдор 🤖: …» reads «Бот Фёдор: …»); whitespace collapsed; and, with
    ``max_width`` [pixels at ``size``], cut to that width with "…". May be empty (a name of
    emoji only).

    Right-to-left runs: with the complex text layout (:data:`COMPLEX_TEXT`) the text stays
    in reading order, and libraqm orders and joins the letters as it draws them; without it
    they come back in visual order (:func:`_visual_order`)."""
    kept = "".join(c if _drawable(c, bold) else "" if _invisible(c) else "\0" for c in text)
    kept = _DROPPED_BEFORE_STOP.sub("", kept).replace("\0", " ")
    kept = " ".join(kept.split())
    if max_width is not None:
        font = _font(bold, size)
        if font.getlength(kept) > max_width:
            lo, hi = 0, len(kept)
            while lo < hi:  # the longest beginning that fits with "…" (cut in reading order)
                mid = (lo + hi + 1) // 2
                if font.getlength(kept[:mid].rstrip() + "…") <= max_width:
                    lo = mid
                else:
                    hi = mid - 1
            kept = kept[:lo].rstrip() + "…"
    return kept if COMPLEX_TEXT else _visual_order(kept)


# -- the painter: palette and sprites -----------------------------------------------------------

_SUPER = 4  # sprites are drawn this many times larger and reduced, for smooth edges
#: Where the pips of a half lie and how large they are [fractions of the half's side]: the
#: outer pips ``PIP_OFFSET`` from the half's centre, each ``PIP_RADIUS`` in radius, so that
#: the six pips of a 6 stay apart when the picture is shown 400 pixels wide.
PIP_OFFSET = 0.3
PIP_RADIUS = 0.105


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


class _Painter:
    """One theme's palette, background and sprite caches (thread-safe: a cache miss draws the
    sprite twice at worst)."""

    LABELS = 4096  # labels kept [entries]

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        colours = [getattr(theme, f.name) for f in fields(Theme) if f.name != "name"]
        th = theme
        pairs = [
            (th.text, th.card), (th.text, th.felt), (th.dim, th.card), (th.dim, th.felt),
            (th.accent, th.card), (th.accent, th.felt), (th.pip, th.face),
            (th.pip, th.face_last), (th.edge, th.face), (th.edge, th.felt),
            (th.edge, th.face_last), (th.last, th.felt), (th.last, th.edge),
            (th.turn, th.card), (th.turn, th.felt), (th.turn_text, th.turn),
            (th.back, th.felt), (th.back, th.card), (th.back_mark, th.back), (th.edge, th.back),
            (th.edge, th.card), (th.pip, th.card), (th.face, th.card),
            (th.mark, th.felt), (th.mark_text, th.mark), (th.closed, th.felt),
            (th.text, th.closed), (th.ghost, th.felt), (th.card_line, th.felt),
            (th.card_line, th.card), (th.card, th.felt), (th.frame_line, th.frame),
            (th.team_a, th.card), (th.team_b, th.card), (th.face, th.felt),
        ]
        steps = 7
        for a, b in pairs:
            colours += [_mix(a, b, i / steps) for i in range(1, steps)]
        unique = list(dict.fromkeys(colours))
        if len(unique) > 256:  # pragma: no cover - a theme with too many colours
            raise ValueError(f"theme {theme.name} needs {len(unique)} palette colours")
        self.colours = unique
        flat = [v for c in unique for v in c]
        self.flat_palette = flat + [0] * (768 - len(flat))
        self._pal = Image.new("P", (1, 1))
        self._pal.putpalette(self.flat_palette)
        self.index = {c: i for i, c in enumerate(unique)}
        self._sprites: dict[tuple, Image.Image] = {}
        self._labels: OrderedDict[tuple, tuple[Image.Image, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.background = self._background()

    # palette ------------------------------------------------------------------------------

    def to_p(self, rgb: Image.Image) -> Image.Image:
        """An RGB image mapped onto this theme's palette (nearest colour, no dithering)."""
        return rgb.quantize(palette=self._pal, dither=Image.Dither.NONE)

    def _background(self) -> Image.Image:
        th = self.theme
        im = Image.new("RGB", (WIDTH, HEIGHT), th.frame)
        d = ImageDraw.Draw(im)
        d.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=th.frame_line, width=3)
        d.rectangle((FRAME, FRAME, WIDTH - 1 - FRAME, HEIGHT - 1 - FRAME), fill=th.felt)
        d.rectangle((FRAME, FRAME, WIDTH - 1 - FRAME, HEIGHT - 1 - FRAME),
                    outline=_mix(th.frame, (0, 0, 0), 0.35), width=2)
        return self.to_p(im)

    # sprites ------------------------------------------------------------------------------

    def _cached(self, key: tuple, make: Callable[[], Image.Image]) -> Image.Image:
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = make()
            with self._lock:
                self._sprites[key] = sprite
        return sprite

    def tile(self, unit: int, first: int, second: int, vertical: bool, face: str,
             marked: bool, bg: RGB) -> Image.Image:
        """A tile ``unit`` × 2·``unit`` [pixels] (``vertical``: standing), halves ``first``
        (left/top) and ``second`` pips; face ``up``/``down``/``ghost``; ``marked``: ringed as
        the last move (the sprite is then ``ring`` pixels larger on every side)."""
        return self._cached(("tile", unit, first, second, vertical, face, marked, bg),
                            lambda: self._draw_tile(unit, first, second, vertical, face,
                                                    marked, bg))

    def ring(self, unit: int) -> int:
        """Width of the last move's ring round a tile of ``unit`` [pixels]."""
        return max(2, unit // 10)

    def _draw_tile(self, unit: int, first: int, second: int, vertical: bool, face: str,
                   marked: bool, bg: RGB) -> Image.Image:
        th = self.theme
        s = _SUPER
        ring = self.ring(unit) if marked else 0
        w, h = (unit, 2 * unit) if vertical else (2 * unit, unit)
        W, H = (w + 2 * ring) * s, (h + 2 * ring) * s
        im = Image.new("RGB", (W, H), bg)
        d = ImageDraw.Draw(im)
        radius = max(2, unit // 7) * s
        if marked:
            d.rounded_rectangle((0, 0, W - 1, H - 1), radius=radius + ring * s, fill=th.last)
        x0, y0 = ring * s, ring * s
        x1, y1 = x0 + w * s - 1, y0 + h * s - 1
        line = max(1, unit // 24) * s
        if face == "ghost":
            self._dashed(d, (x0, y0, x1, y1), th.ghost, max(1, unit // 18) * s, unit * s // 5)
            self._halves(d, (x0, y0, x1, y1), vertical, 0, 6, th.ghost, unit * s)
        elif face == "down":
            d.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=th.back, outline=th.edge,
                                width=line)
            cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, unit * s * 0.28
            d.polygon(((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)),
                      fill=th.back_mark)
        else:
            d.rounded_rectangle((x0, y0, x1, y1), radius=radius,
                                fill=th.face_last if marked else th.face, outline=th.edge,
                                width=line)
            if vertical:
                my = (y0 + y1) / 2
                d.line((x0 + unit * s * 0.18, my, x1 - unit * s * 0.18, my), fill=th.edge,
                       width=line)
            else:
                mx = (x0 + x1) / 2
                d.line((mx, y0 + unit * s * 0.18, mx, y1 - unit * s * 0.18), fill=th.edge,
                       width=line)
            self._halves(d, (x0, y0, x1, y1), vertical, first, second, th.pip, unit * s)
        return self.to_p(im.reduce(s))

    @staticmethod
    def _dashed(d: ImageDraw.ImageDraw, box: tuple, colour: RGB, width: int, dash: int) -> None:
        x0, y0, x1, y1 = box
        for a0, a1, fixed, horizontal in ((x0, x1, y0, True), (x0, x1, y1, True),
                                          (y0, y1, x0, False), (y0, y1, x1, False)):
            pos = a0
            while pos < a1:
                end = min(pos + dash, a1)
                if horizontal:
                    d.line((pos, fixed, end, fixed), fill=colour, width=width)
                else:
                    d.line((fixed, pos, fixed, end), fill=colour, width=width)
                pos += 2 * dash

    _PIPS = {
        0: (), 1: ((0, 0),), 2: ((1, -1), (-1, 1)), 3: ((1, -1), (0, 0), (-1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
        5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    }

    def _halves(self, d: ImageDraw.ImageDraw, box: tuple, vertical: bool, first: int,
                second: int, colour: RGB, side: float) -> None:
        x0, y0, _, _ = box
        for i, n in enumerate((first, second)):
            if vertical:
                cx, cy = x0 + side / 2, y0 + side * (i + 0.5)
            else:
                cx, cy = x0 + side * (i + 0.5), y0 + side / 2
            off, r = side * PIP_OFFSET, side * PIP_RADIUS
            if n == 6:
                spots = (((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)) if vertical
                         else ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)))
            else:
                spots = self._PIPS[n]
            for sx, sy in spots:
                px, py = cx + sx * off, cy + sy * off
                d.ellipse((px - r, py - r, px + r, py + r), fill=colour)

    def panel(self, w: int, h: int, radius: int, fill: RGB, line: RGB, width: int,
              bg: RGB, stripe: RGB | None = None) -> Image.Image:
        """A rounded panel [pixels] over ``bg``, outlined, with an optional coloured stripe
        down its left edge (a team's colour)."""
        def make() -> Image.Image:
            s = _SUPER
            im = Image.new("RGB", (w * s, h * s), bg)
            d = ImageDraw.Draw(im)
            d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=radius * s, fill=line)
            inset = width * s
            d.rounded_rectangle((inset, inset, w * s - 1 - inset, h * s - 1 - inset),
                                radius=max(1, radius - width) * s, fill=fill)
            if stripe is not None:
                d.rounded_rectangle((inset + 8 * s, inset + 14 * s, inset + 17 * s,
                                     h * s - 1 - inset - 14 * s), radius=4 * s, fill=stripe)
            return self.to_p(im.reduce(s))

        return self._cached(("panel", w, h, radius, fill, line, width, bg, stripe), make)

    def disc(self, size: int, fill: RGB, bg: RGB) -> Image.Image:
        """A disc ``size`` pixels across over ``bg``."""
        def make() -> Image.Image:
            s = _SUPER
            im = Image.new("RGB", (size * s, size * s), bg)
            ImageDraw.Draw(im).ellipse((0, 0, size * s - 1, size * s - 1), fill=fill)
            return self.to_p(im.reduce(s))

        return self._cached(("disc", size, fill, bg), make)

    def ring_disc(self, size: int, line: RGB, bg: RGB, width: int) -> Image.Image:
        """A ring ``size`` pixels across, ``width`` pixels thick, over ``bg``."""
        def make() -> Image.Image:
            s = _SUPER
            im = Image.new("RGB", (size * s, size * s), bg)
            d = ImageDraw.Draw(im)
            d.ellipse((0, 0, size * s - 1, size * s - 1), fill=line)
            w = width * s
            d.ellipse((w, w, size * s - 1 - w, size * s - 1 - w), fill=bg)
            return self.to_p(im.reduce(s))

        return self._cached(("ring", size, line, bg, width), make)

    def label(self, text: str, size: int, bold: bool, fg: RGB, bg: RGB
              ) -> tuple[Image.Image, int]:
        """``text`` (already :func:`display_text`) at ``size`` pixels, ``fg`` over ``bg``:
        the sprite, cropped to the rows the letters cover, and how far below the font's
        ascender line its top lies [pixels] (so that a label never paints over what lies
        just above or below it)."""
        key = (text, size, bold, fg, bg)
        with self._lock:
            hit = self._labels.get(key)
            if hit is not None:
                self._labels.move_to_end(key)
                return hit
        font = _font(bold, size)
        ascent, descent = font.getmetrics()
        w = max(1, int(font.getlength(text)) + 2)
        im = Image.new("RGB", (w, ascent + descent), bg)
        ImageDraw.Draw(im).text((1, 0), text, font=font, fill=fg)
        _, top, _, bottom = font.getbbox(text)
        top, bottom = max(0, top - 1), min(ascent + descent, max(top + 1, bottom + 1))
        made = (self.to_p(im.crop((0, top, w, bottom))), top)
        with self._lock:
            self._labels[key] = made
            if len(self._labels) > self.LABELS:
                self._labels.popitem(last=False)
        return made


_painters: dict[str, _Painter] = {}
_painters_lock = threading.Lock()


def _painter(theme: Theme) -> _Painter:
    p = _painters.get(theme.name)
    if p is None or p.theme != theme:
        p = _Painter(theme)
        with _painters_lock:
            _painters[theme.name] = p
    return p


# -- the picture ------------------------------------------------------------------------------

FRAME = 14        # the wooden frame [pixels]
PAD = 12          # felt between the frame and the cards [pixels]
CARD_W, CARD_H = 390, 160
#: The smallest text the picture draws [pixels]: a third of it, 10 pixels, where a phone
#: shows the picture 400 pixels wide (:data:`PHONE_WIDTH`), still reads («went out», not
#: «want out»; «+20», not «120»). Only the numbers in the end discs follow the tiles' size.
MIN_TEXT = 30
#: How high the revealed tiles of a short hand may lie in a seat's card [pixels]: between the
#: name and the score.
HAND_LYING = 50
ZONE: Box = (FRAME + PAD, FRAME + PAD + CARD_H + 10, WIDTH - FRAME - PAD,
             HEIGHT - FRAME - PAD - CARD_H - 10)
# Seat slots in turn order round the table (clockwise): bottom left, top left, top right,
# bottom right; with two players they sit opposite.
_SLOTS = {
    "bl": (FRAME + PAD, HEIGHT - FRAME - PAD - CARD_H),
    "tl": (FRAME + PAD, FRAME + PAD),
    "tr": (WIDTH - FRAME - PAD - CARD_W, FRAME + PAD),
    "br": (WIDTH - FRAME - PAD - CARD_W, HEIGHT - FRAME - PAD - CARD_H),
}
_SEATING = {1: ("bl",), 2: ("bl", "tr"), 3: ("bl", "tl", "tr"), 4: ("bl", "tl", "tr", "br")}
_CENTRE_X0 = FRAME + PAD + CARD_W + 10
_CENTRE_X1 = WIDTH - FRAME - PAD - CARD_W - 10


@lru_cache(maxsize=64)
def _cap_middle(bold: bool, size: int) -> float:
    """How far below a label's top the middle of its capital letters lies [pixels]: labels
    are centred on that, not on the whole line with its descender."""
    cap = _font(bold, size).getbbox("Н")
    return (cap[1] + cap[3]) / 2


class _Canvas:
    """A picture being drawn: the palette image and the painter's sprites."""

    def __init__(self, painter: _Painter) -> None:
        self.p = painter
        self.th = painter.theme
        self.im = painter.background.copy()
        #: Every text drawn, as drawn (names cut with "…"), in drawing order.
        self.labels: list[str] = []
        #: ``(text drawn, size, the text it was given)`` of every text drawn, for the tests
        #: of what a phone can read (``im.info["label_sizes"]``, never in the PNG).
        self.sizes: list[tuple[str, int, str]] = []

    def paste(self, sprite: Image.Image, x: int, y: int) -> None:
        self.im.paste(sprite, (int(x), int(y)))

    def text(self, text: str, x: float, y: float, *, size: int, bold: bool = False,
             fg: RGB, bg: RGB, anchor: str = "l", max_width: float | None = None,
             sizes: Sequence[int] = ()) -> int:
        """Draw ``text`` with its vertical centre at ``y``, left-aligned at ``x``
        (``anchor`` ``l``), centred (``c``) or right-aligned (``r``); with ``max_width`` it is
        cut with "…", after trying the smaller ``sizes``. Returns the width drawn [pixels]."""
        shown = display_text(text, bold=bold, size=size)
        if max_width is not None:
            font = _font(bold, size)
            for smaller in sizes:
                if font.getlength(shown) <= max_width:
                    break
                size, font = smaller, _font(bold, smaller)
            shown = display_text(text, bold=bold, size=size, max_width=max_width)
        if not shown:
            return 0
        self.labels.append(shown)
        self.sizes.append((shown, size, text))
        sprite, top = self.p.label(shown, size, bold, fg, bg)
        w = sprite.width
        if anchor == "c":
            x -= w / 2
        elif anchor == "r":
            x -= w
        self.paste(sprite, round(x), round(y - _cap_middle(bold, size) + top))
        return w


def _team_colour(th: Theme, table: TableView, seat: SeatView) -> RGB | None:
    if not table.teams:
        return None
    return th.team_a if seat.side % 2 == 0 else th.team_b


def _draw_layout(c: _Canvas, layout: LayoutView, tr: Translator, locale: str) -> None:
    th = c.th
    if not layout.line and not layout.up and not layout.down:
        cx, cy = (ZONE[0] + ZONE[2]) / 2, (ZONE[1] + ZONE[3]) / 2
        c.text(tr.plain(locale, "pic-waiting"), cx, cy, size=40, fg=th.dim, bg=th.felt,
               anchor="c")
        return
    plan = plan_table(layout, ZONE)
    last = frozenset(layout.last)
    ring = c.p.ring(plan.unit)
    for t in plan.tiles:
        marked = t.pos is not None and t.pos in last
        sprite = c.p.tile(plan.unit, t.first, t.second, t.vertical, t.face, marked, th.felt)
        off = ring if marked else 0
        c.paste(sprite, t.box[0] - off, t.box[1] - off)
    # in the games with a count (RULES.md §2.0.6) each mark shows what its end adds to it,
    # so that the marks add up to the printed count
    counting = layout.count is not None and any(e.counts is not None for e in layout.ends)
    for m in plan.marks:
        _draw_mark(c, m, plan.unit, counting)


def _draw_mark(c: _Canvas, m: EndMark, unit: int, counting: bool = False) -> None:
    """One end's mark: a disc with the number the end shows, a red cross where it is shut;
    with ``counting`` (a game with a count) the disc shows what the end adds to the count
    (``EndMark.counts``: 2 under an across [1|1], 10 at a lone [5|5]), and an end that adds
    nothing now (an empty arm, the other side of a spinner with an empty side) is a ring
    round the number it shows."""
    th = c.th
    size = max(14, round(unit * 0.86))
    x0, y0, x1, y1 = m.box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    shut = m.closed or m.number is None
    value = m.number
    hollow = False
    if counting and not shut:
        if m.counts is None:
            hollow = True
        else:
            value = m.counts
    fill = th.closed if shut else th.mark
    left, top = round(cx - size / 2), round(cy - size / 2)
    if hollow:
        c.paste(c.p.ring_disc(size, th.mark, th.felt, max(2, size // 12)), left, top)
    else:
        c.paste(c.p.disc(size, fill, th.felt), left, top)
    text = "×" if shut else str(value)
    fg = th.text if fill == th.closed else th.mark if hollow else th.mark_text
    font = max(10, round(size * (0.62 if len(text) < 2 else 0.5)))
    c.text(text, cx, cy, size=font, bold=True, fg=fg, bg=th.felt if hollow else fill,
           anchor="c")


def _tiles_row(c: _Canvas, x: int, y: int, width: int, tiles: Sequence[tuple[int, int]] | int,
               bg: RGB, unit: int = 22, lying: int = 0) -> int:
    """Draw a hand in a card: tile backs (an int: how many) or faces (codes as pairs), standing,
    from ``x`` with their centre at ``y``, within ``width``; faces lie flat instead, at most
    ``lying`` pixels high, where that draws them larger. Returns the right edge drawn."""
    n = tiles if isinstance(tiles, int) else len(tiles)
    if n == 0:
        return x
    gap = max(2, unit // 6)
    if isinstance(tiles, int):
        step = unit + gap
        if n > 1 and n * step - gap > width:
            step = max(3, (width - unit) // (n - 1))  # backs may overlap
        for i in range(n):
            c.paste(c.p.tile(unit, 0, 0, True, "down", False, bg), x + i * step, y - unit)
        return x + (n - 1) * step + unit
    while unit > 10 and n * (unit + gap) - gap > width:
        unit -= 2
        gap = max(2, unit // 6)
    # A short hand lies flat when its tiles come out larger so: their pips read on a phone.
    flat = min(lying, (width - (n - 1) * gap) // (2 * n)) if lying else 0
    if flat > unit:
        for i, (a, b) in enumerate(tiles):
            c.paste(c.p.tile(flat, a, b, False, "up", False, bg), x + i * (2 * flat + gap),
                    y - flat // 2)
        return x + n * (2 * flat + gap) - gap
    for i, (a, b) in enumerate(tiles):
        c.paste(c.p.tile(unit, a, b, True, "up", False, bg), x + i * (unit + gap), y - unit)
    return x + n * (unit + gap) - gap


def _pairs(codes: Iterable[str]) -> list[tuple[int, int]]:
    out = []
    for code in codes:
        a, _, b = code.partition("-")
        x, y = int(a), int(b)
        out.append((min(x, y), max(x, y)))
    return sorted(out)


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


def _wrap(text: str, *, bold: bool, size: int, width: float, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of at most ``width`` pixels at ``size``: broken
    after « · » where it has one (a game's name and «команды»), else between words; a last
    line still too long is cut with "…" (only a name is ever long enough)."""
    font = _font(bold, size)
    shown = display_text(text, bold=bold, size=size)
    if font.getlength(shown) <= width:
        return [shown]
    if lines <= 1:
        return [display_text(text, bold=bold, size=size, max_width=width)]
    parts = shown.split(" · ") if " · " in shown else shown.split(" ")
    glue = " · " if " · " in shown else " "
    first = parts[0]
    for k in range(len(parts) - 1, 0, -1):  # the longest beginning that fits
        head = glue.join(parts[:k])
        if font.getlength(head) <= width:
            first = head
            rest = glue.join(parts[k:])
            break
    else:
        return [display_text(text, bold=bold, size=size, max_width=width)]
    return [first, *_wrap(rest, bold=bold, size=size, width=width, lines=lines - 1)]


def _lines(entries: Sequence[tuple[str, RGB, bool, int]], room: float, *,
           whole: bool = False) -> tuple[list[tuple[str, RGB, bool, int]], int]:
    """The lines of ``entries`` that fit in ``room`` pixels of height (see :func:`_block`),
    and how many entries they are; ``whole``: an entry that needs two lines and finds room
    for one stops there instead of being cut to one."""
    width = _CENTRE_X1 - _CENTRE_X0
    placed: list[tuple[str, RGB, bool, int]] = []
    count = 0
    for text, fg, bold, size in entries:
        lines = _wrap(text, bold=bold, size=size, width=width)
        need = (size + 6) * len(lines)
        if need > room and whole:
            break
        if need > room:
            lines = _wrap(text, bold=bold, size=size, width=width, lines=1)
            need = size + 6
            if need > room:
                break
        placed += [(line, fg, bold, size) for line in lines]
        room -= need
        count += 1
    return placed, count


def _named(tr: Translator, locale: str, key: str, name: str) -> str:
    """The note ``key`` about ``name`` («Выход: Петя», «Петя went out»), the name cut with
    "…" as far as it takes for the note to fit in two lines of the centre: a long name is
    cut, never the note's words."""
    width = _CENTRE_X1 - _CENTRE_X0
    for k in range(len(name), 0, -1):
        shown = name if k == len(name) else name[:k].rstrip() + "…"
        text = tr.plain(locale, key, name=shown)
        lines = _wrap(text, bold=True, size=MIN_TEXT, width=width)
        if not any(line.endswith("…") for line in lines[:-1]) and not (
                lines[-1].endswith("…") and not text.endswith("…")):
            return text
    return tr.plain(locale, key, name=name[:1] + "…")


def _block(c: _Canvas, entries: Sequence[tuple[str, RGB, bool, int]], cx: float, top: float,
           bottom: float, *, from_bottom: bool = False) -> None:
    """Centred lines between ``top`` and ``bottom``: each entry ``(text, colour, bold,
    size)`` wrapped to two lines where one is too narrow (:func:`_wrap`), each line
    ``size + 6`` pixels apart; entries that find no room left are left out, the last ones
    first (the first are the most important). ``from_bottom``: stacked up from ``bottom``."""
    placed, _ = _lines(entries, bottom - top)
    steps = [size + 6 for *_, size in placed]
    y = bottom - sum(steps) if from_bottom else top
    for (line, fg, bold, size), step in zip(placed, steps, strict=True):
        c.text(line, cx, y + step / 2, size=size, bold=bold, fg=fg, bg=c.th.felt, anchor="c")
        y += step


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
                       summary: RoundSummary | None = None, theme: Theme = FELT
                       ) -> Image.Image:
    """The picture of ``table`` as a Pillow palette image (mode ``"P"``) of :data:`WIDTH` ×
    :data:`HEIGHT` pixels; see :func:`render_table_png`, which encodes it."""
    tr = tr if tr is not None else get_translator()
    c = _Canvas(_painter(theme))
    layout = summary.layout if summary is not None and summary.layout else table.layout
    _draw_layout(c, layout, tr, locale)
    goats = frozenset(p.seat for p in table.final.players if p.goat) if table.final else frozenset()
    seating = _SEATING.get(len(table.seats), _SEATING[4])
    for seat, slot in zip(table.seats, seating, strict=False):
        _draw_seat(c, table, seat, slot, tr, locale, summary, goats)
    _header(c, table, tr, locale, summary)
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
                     summary: RoundSummary | None = None, theme: Theme = FELT) -> bytes:
    """The group's table as PNG bytes, :data:`WIDTH` × :data:`HEIGHT` pixels (issue 14).

    ``table`` is the group's view (it holds no hand, RULES.md §1.8). ``summary``, a scored
    round (``table.summary`` for the closed table), turns it into the round's closing
    picture: the table as the round ended (``summary.layout`` when set), every hand revealed
    with its value, the points recorded and the scores after the round (§1.11–§1.14), and how
    the round ended instead of whose turn it is. Only then does a hand appear.

    ``locale`` is ``ru``, ``uk`` or ``en`` (others fall back to the translator's default);
    ``tr`` the translator (default :func:`ui.i18n.get_translator`); ``theme`` the colours.
    Pure: the same arguments give the same bytes. About 3 ms and 20–40 KB
    (``bench/picture_bench.py``; the target is at most :data:`MAX_PNG_BYTES`). Raises
    ``ValueError`` for a layout whose spinner or gap lies outside its line.
    """
    return encode_png(render_table_image(table, locale=locale, tr=tr, summary=summary,
                                         theme=theme))


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
