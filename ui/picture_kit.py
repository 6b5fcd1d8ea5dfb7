"""The picture's paint box (issue 14; issue 32): the fonts and how a text is made drawable, the
theme's palette and its sprites (tiles, panels, discs, labels), the canvas a picture is drawn
on, and the small drawings every picture shares (an end's mark, a row of tiles in a card,
centred lines of text).  :mod:`ui.picture` draws the line and the cross with them,
:mod:`ui.picture_trains` the trains and the sausage.

A tile's halves are drawn as pips (0–9), as numerals (RULES.md §2.10.3: the halves above 9;
the bot writes every half of the double-9 and double-12 sets as a numeral, which reads at a
phone's 400 pixels where nine pips do not), or as the children's set's seven pictures
(§2.10.4, :data:`FACE_PICTURES`)."""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from service.views import SeatView, TableView

from .i18n import Translator
from .picture_layout import Box, EndMark

__all__ = [
    "COMPLEX_TEXT", "FELT", "FONTS_DIR", "FRAME", "HEIGHT", "LABELS_KEY", "MAX_PNG_BYTES",
    "MIN_TEXT", "PAD", "THEMES", "WIDTH", "ZONE", "Theme", "display_text",
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


#: The children's set (RULES.md §2.10.4): one picture for each number 0–6, the same in every
#: chat — a moon, a sun, a heart, a star, a fir tree, a flower, a fish — each in its colour.
FACE_PICTURES: tuple[str, ...] = ("moon", "sun", "heart", "star", "tree", "flower", "fish")
FACE_COLOURS: tuple[RGB, ...] = ((120, 90, 200), (245, 140, 20), (215, 35, 60),
                                 (235, 180, 0), (30, 140, 60), (225, 80, 170), (30, 115, 220))


def draw_face(d: ImageDraw.ImageDraw, n: int, cx: float, cy: float, side: float,
              bg: RGB) -> None:
    """The children's picture of number ``n`` (:data:`FACE_PICTURES`) centred at (``cx``,
    ``cy``) in a half of ``side`` pixels over ``bg`` — the blank too has its picture."""
    col = FACE_COLOURS[n]
    r = side * 0.3
    if n == 0:  # a crescent moon
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col)
        d.ellipse((cx - r * 0.35, cy - r * 1.05, cx + r * 1.35, cy + r * 0.65), fill=bg)
    elif n == 1:  # a sun with eight rays
        for k in range(8):
            a = k * math.pi / 4
            d.line((cx + math.cos(a) * r * 0.7, cy + math.sin(a) * r * 0.7,
                    cx + math.cos(a) * r * 1.25, cy + math.sin(a) * r * 1.25), fill=col,
                   width=max(1, round(side * 0.06)))
        d.ellipse((cx - r * 0.62, cy - r * 0.62, cx + r * 0.62, cy + r * 0.62), fill=col)
    elif n == 2:  # a heart
        q = r * 0.55
        d.ellipse((cx - 2 * q, cy - 1.4 * q, cx, cy + 0.6 * q), fill=col)
        d.ellipse((cx, cy - 1.4 * q, cx + 2 * q, cy + 0.6 * q), fill=col)
        d.polygon(((cx - 1.95 * q, cy - 0.1 * q), (cx + 1.95 * q, cy - 0.1 * q),
                   (cx, cy + 2.1 * q)), fill=col)
    elif n == 3:  # a five-pointed star
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = r * (1.15 if k % 2 == 0 else 0.48)
            pts.append((cx + math.cos(a) * rr, cy + math.sin(a) * rr + r * 0.08))
        d.polygon(pts, fill=col)
    elif n == 4:  # a fir tree on its trunk
        d.rectangle((cx - r * 0.15, cy + r * 0.6, cx + r * 0.15, cy + r * 1.15), fill=col)
        d.polygon(((cx, cy - r * 1.15), (cx + r * 0.85, cy + r * 0.7),
                   (cx - r * 0.85, cy + r * 0.7)), fill=col)
    elif n == 5:  # a flower: five petals round a light heart
        p = r * 0.42
        for k in range(5):
            a = -math.pi / 2 + k * 2 * math.pi / 5
            px, py = cx + math.cos(a) * r * 0.62, cy + math.sin(a) * r * 0.62
            d.ellipse((px - p, py - p, px + p, py + p), fill=col)
        c = r * 0.3
        d.ellipse((cx - c, cy - c, cx + c, cy + c), fill=bg)
    else:  # a fish swimming left
        d.ellipse((cx - r * 1.05, cy - r * 0.62, cx + r * 0.55, cy + r * 0.62), fill=col)
        d.polygon(((cx + r * 0.35, cy), (cx + r * 1.15, cy - r * 0.6),
                   (cx + r * 1.15, cy + r * 0.6)), fill=col)
        e = r * 0.13
        d.ellipse((cx - r * 0.62 - e, cy - r * 0.15 - e, cx - r * 0.62 + e,
                   cy - r * 0.15 + e), fill=bg)


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
        for colour in FACE_COLOURS:  # the children's pictures on a tile (RULES.md §2.10.4)
            colours += [colour] + [_mix(colour, th.face, i / 4) for i in range(1, 4)]
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
             marked: bool, bg: RGB, style: str = "pips") -> Image.Image:
        """A tile ``unit`` × 2·``unit`` [pixels] (``vertical``: standing), halves ``first``
        (left/top) and ``second``; face ``up``/``down``/``ghost``; ``marked``: ringed as
        the last move (the sprite is then ``ring`` pixels larger on every side).  ``style``:
        the halves as ``pips`` (a half above 9 as a numeral all the same, RULES.md §2.10.3),
        ``numerals`` or ``pictures`` (the children's set, §2.10.4: :data:`FACE_PICTURES`)."""
        return self._cached(("tile", unit, first, second, vertical, face, marked, bg, style),
                            lambda: self._draw_tile(unit, first, second, vertical, face,
                                                    marked, bg, style))

    def ring(self, unit: int) -> int:
        """Width of the last move's ring round a tile of ``unit`` [pixels]."""
        return max(2, unit // 10)

    def _draw_tile(self, unit: int, first: int, second: int, vertical: bool, face: str,
                   marked: bool, bg: RGB, style: str = "pips") -> Image.Image:
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
            fill = th.face_last if marked else th.face
            for i, n in enumerate((first, second)):
                cx, cy = ((x0 + unit * s / 2, y0 + unit * s * (i + 0.5)) if vertical
                          else (x0 + unit * s * (i + 0.5), y0 + unit * s / 2))
                if style == "pictures" and 0 <= n <= 6:
                    draw_face(d, n, cx, cy, unit * s, fill)
                elif style == "numerals" or n > 9:
                    self._numeral(d, n, cx, cy, unit * s, vertical)
                else:
                    self._half(d, cx, cy, vertical, n, th.pip, unit * s)
        return self.to_p(im.reduce(s))

    def _numeral(self, d: ImageDraw.ImageDraw, n: int, cx: float, cy: float, side: float,
                 vertical: bool) -> None:
        """A half as its number (RULES.md §2.10.3), nothing for a blank."""
        if n == 0:
            return
        size = max(6, round(side * (0.8 if n < 10 else 0.6)))
        d.text((cx, cy), str(n), font=_font(True, size), fill=self.theme.pip, anchor="mm")

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
        7: ((-1, -1), (-1, 0), (-1, 1), (0, 0), (1, -1), (1, 0), (1, 1)),
        8: ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
        9: tuple((x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)),
    }

    def _halves(self, d: ImageDraw.ImageDraw, box: tuple, vertical: bool, first: int,
                second: int, colour: RGB, side: float) -> None:
        x0, y0, _, _ = box
        for i, n in enumerate((first, second)):
            if vertical:
                cx, cy = x0 + side / 2, y0 + side * (i + 0.5)
            else:
                cx, cy = x0 + side * (i + 0.5), y0 + side / 2
            self._half(d, cx, cy, vertical, n, colour, side)

    def _half(self, d: ImageDraw.ImageDraw, cx: float, cy: float, vertical: bool, n: int,
              colour: RGB, side: float) -> None:
        """The pips of one half centred at (``cx``, ``cy``): 0–6 as on every table, 7–9 on
        a grid of three by three (the double-9 set)."""
        off = side * PIP_OFFSET
        r = side * (PIP_RADIUS if n <= 6 else PIP_RADIUS * 0.85)
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
