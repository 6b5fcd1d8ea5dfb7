"""Tiles of the double-N sets (RULES.md §0, §1.1, §2.10).

A tile is written ``[a|b]``; in a hand ``a <= b``, comparing numbers (RULES.md §0, §2.10.3:
``[9|10]``, never ``[10|9]``).  Internally every tile also has an id and a bit ``1 << id``,
so that hands and suits are bit masks: the rules engine asks "which tiles of this hand show
number n" with one ``&``.

The double-six set (§1.1) is ids ``0..27`` in the order ``[0|0], [0|1], …, [0|6], [1|1], …,
[6|6]`` (:data:`TILES`).  The tiles with a half above 6, up to the largest set built
(:data:`MAX_TOP`, double-12, §2.10.1), follow by their higher half and then their lower half:
``[0|7], [1|7], …, [7|7], [0|8], …, [12|12]`` (ids ``28..90``).  So every double-N set with
N ≥ 6 is a prefix of the ids: ids ``0 .. set_size(N) − 1`` (:func:`set_mask`), and the masks
of the double-six games are unchanged.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "Tile",
    "TILES",
    "ALL_TILES",
    "TILE_ID",
    "DOUBLES",
    "SUIT_MASK",
    "SUITS",
    "ALL_MASK",
    "SETS",
    "MAX_TOP",
    "set_size",
    "set_mask",
    "set_tiles",
    "tiles_of",
    "mask_of",
    "format_tiles",
]

#: The largest number a tile of a built set shows (double-12, RULES.md §2.10.1).
MAX_TOP = 12
#: The sets a game may be played with (RULES.md §2.10.2: option ``set``).
SETS = (6, 9, 12)


class Tile(NamedTuple):
    """One tile ``[a|b]`` with ``a <= b`` (RULES.md §0).

    Build tiles with :meth:`Tile.of` or :meth:`Tile.parse`, which normalise the order; the
    28 tiles are interned in :data:`TILES`.
    """

    a: int
    b: int

    @property
    def id(self) -> int:
        """Index of this tile: 0..27 in the double-six set (:data:`TILES`), 28..90 above it
        (:data:`ALL_TILES`, module doc)."""
        return TILE_ID[self]

    @property
    def pips(self) -> int:
        """Pip count ``a + b`` (RULES.md §1.11)."""
        return self.a + self.b

    @property
    def is_double(self) -> bool:
        """True for ``[n|n]`` (RULES.md §1.1)."""
        return self.a == self.b

    def __str__(self) -> str:
        return f"[{self.a}|{self.b}]"

    def code(self) -> str:
        """The record notation ``"a-b"`` used by game records (docs/RECORDS.md)."""
        return f"{self.a}-{self.b}"

    @staticmethod
    def of(a: int, b: int, top: int = 6) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order, of the double-``top`` set.

        ``top``: the set's highest number (RULES.md §2.10.1: 6, 9 or 12; default the
        double-six set of §1.1).  Raises ``ValueError`` when a half is not a number
        ``0..top``.
        """
        if not (isinstance(a, int) and isinstance(b, int)) or top > MAX_TOP \
                or not (0 <= a <= top and 0 <= b <= top):
            raise ValueError(f"not a tile of the double-{top} set: {a}-{b}")
        return ALL_TILES[_ID[a][b]]

    @staticmethod
    def parse(text: object, top: int = 6) -> Tile:
        """Parse ``"2-5"``, ``"[5|2]"``, ``"25"`` or ``[2, 5]`` into a tile of the
        double-``top`` set (default double-six).  Numbers above 9 need a separator:
        ``"9-12"``, ``"[12|9]"`` (RULES.md §2.10.3); either order names the same tile.

        Raises ``ValueError`` for anything else, a half above ``top`` included.
        """
        if isinstance(text, (list, tuple)) and len(text) == 2:
            return Tile.of(text[0], text[1], top)
        if isinstance(text, str):
            m = _PATTERN.fullmatch(text.strip())
            if m:
                return Tile.of(int(m.group(1)), int(m.group(2)), top)
            m = _WIDE.fullmatch(text.strip())
            if m:
                return Tile.of(int(m.group(1)), int(m.group(2)), top)
        raise ValueError(f"not a tile: {text!r} (expected e.g. \"2-5\" or \"[2|5]\")")


_PATTERN = re.compile(r"\[?\s*([0-9])\s*[-|:,/ ]?\s*([0-9])\s*\]?")
# numbers of one or two digits, with a separator (RULES.md §2.10.3: "9-12", "[9|12]")
_WIDE = re.compile(r"\[?\s*([0-9]{1,2})\s*[-|:,/ ]\s*([0-9]{1,2})\s*\]?")

#: The 28 tiles of the double-six set, ordered [0|0], [0|1], ..., [0|6], [1|1], ..., [6|6].
TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(7) for b in range(a, 7))
#: Every tile of the largest set built (double-12, 91 tiles), by id: :data:`TILES`, then the
#: tiles with a half above 6 by their higher and then their lower half (module doc).
ALL_TILES: tuple[Tile, ...] = TILES + tuple(Tile(a, b) for b in range(7, MAX_TOP + 1)
                                            for a in range(b + 1))
TILE_ID: dict[Tile, int] = {t: i for i, t in enumerate(ALL_TILES)}
_ID = [[TILE_ID[Tile(min(a, b), max(a, b))] for b in range(MAX_TOP + 1)]
       for a in range(MAX_TOP + 1)]

#: Pips of each tile id of the double-six set (:data:`TILES`).
PIPS: tuple[int, ...] = tuple(t.a + t.b for t in TILES)
#: Lower / higher half of each tile id of the double-six set.
LOW: tuple[int, ...] = tuple(t.a for t in TILES)
HIGH: tuple[int, ...] = tuple(t.b for t in TILES)
#: Pips, lower and higher half of every tile id of :data:`ALL_TILES` (the first 28 are
#: :data:`PIPS`, :data:`LOW`, :data:`HIGH`).
ALL_PIPS: tuple[int, ...] = tuple(t.a + t.b for t in ALL_TILES)
ALL_LOW: tuple[int, ...] = tuple(t.a for t in ALL_TILES)
ALL_HIGH: tuple[int, ...] = tuple(t.b for t in ALL_TILES)
#: The seven doubles, [0|0]..[6|6].
DOUBLES: tuple[Tile, ...] = tuple(t for t in TILES if t.is_double)
#: SUIT_MASK[n]: bit mask of the seven tiles showing n (RULES.md §0, "suit").
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(TILES) if n in (t.a, t.b)) for n in range(7)
)
#: Mask of the six non-doubles of each suit (RULES.md §1.10 (b)).
SUIT_NONDOUBLE_MASK: tuple[int, ...] = tuple(
    SUIT_MASK[n] & ~(1 << _ID[n][n]) for n in range(7)
)
DOUBLE_MASK: int = sum(1 << TILE_ID[t] for t in DOUBLES)
ALL_MASK: int = (1 << 28) - 1
ZERO_DOUBLE_ID: int = _ID[0][0]
#: SUITS[n]: bit mask of every tile of :data:`ALL_TILES` showing n, n = 0..12 (RULES.md
#: §2.10.1: in a double-N set, ``SUITS[n] & set_mask(N)``).
SUITS: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(ALL_TILES) if n in (t.a, t.b)) for n in range(MAX_TOP + 1)
)
#: DOUBLE_ID[n]: the id of [n|n], n = 0..12.
DOUBLE_ID: tuple[int, ...] = tuple(_ID[n][n] for n in range(MAX_TOP + 1))
#: Bit mask of every double of :data:`ALL_TILES`.
ALL_DOUBLES_MASK: int = sum(1 << i for i in DOUBLE_ID)


def set_size(top: int) -> int:
    """Tiles in the double-``top`` set: (N+1)(N+2)/2 (RULES.md §2.10.1: 28, 55, 91)."""
    return (top + 1) * (top + 2) // 2


def set_mask(top: int) -> int:
    """Bit mask of every tile of the double-``top`` set (``top`` 6..12, RULES.md §2.10.1)."""
    return (1 << set_size(top)) - 1


def set_tiles(top: int) -> tuple[Tile, ...]:
    """The tiles of the double-``top`` set, by id (RULES.md §2.10.1)."""
    return ALL_TILES[:set_size(top)]


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a bit mask, sorted by their lower and then their higher half ([0|0]
    first; RULES.md §0)."""
    out = []
    m = mask
    while m:
        low = m & -m
        out.append(ALL_TILES[low.bit_length() - 1])
        m ^= low
    if mask >> 28:  # tiles above the double-six set: their ids do not follow that order
        out.sort()
    return tuple(out)


def ids_of(mask: int) -> list[int]:
    """Tile ids of a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(tiles) -> int:
    """Bit mask of an iterable of tiles."""
    m = 0
    for t in tiles:
        m |= 1 << TILE_ID[t]
    return m


def tile_code(tid: int) -> str:
    """The record notation ``"a-b"`` of tile id ``tid`` (docs/RECORDS.md)."""
    return f"{ALL_LOW[tid]}-{ALL_HIGH[tid]}"


def format_tiles(tiles) -> str:
    """Tiles in the notation of RULES.md §0, e.g. ``[0|3][1|1]``."""
    return "".join(str(t) for t in tiles)
