"""Tiles of the double-six set (RULES.md §0, §1.1).

A tile is written ``[a|b]``; in a hand ``a <= b`` (RULES.md §0).  Internally every tile also
has an id ``0..27`` and a bit ``1 << id`` so that hands and suits are 28-bit masks: the rules
engine asks "which tiles of this hand show number n" with one ``&``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "Tile",
    "TILES",
    "TILE_ID",
    "DOUBLES",
    "SUIT_MASK",
    "ALL_MASK",
    "tiles_of",
    "mask_of",
    "format_tiles",
]


class Tile(NamedTuple):
    """One tile ``[a|b]`` with ``a <= b`` (RULES.md §0).

    Build tiles with :meth:`Tile.of` or :meth:`Tile.parse`, which normalise the order; the
    28 tiles are interned in :data:`TILES`.
    """

    a: int
    b: int

    @property
    def id(self) -> int:
        """Index 0..27 of this tile in :data:`TILES`."""
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
    def of(a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order.

        Raises ``ValueError`` when a half is not a number 0..6 (RULES.md §1.1).
        """
        if not (isinstance(a, int) and isinstance(b, int)) or not (0 <= a <= 6 and 0 <= b <= 6):
            raise ValueError(f"not a tile of the double-six set: {a}-{b}")
        return TILES[_ID[a][b]]

    @staticmethod
    def parse(text: object) -> Tile:
        """Parse ``"2-5"``, ``"[5|2]"``, ``"25"`` or ``[2, 5]`` into a tile.

        Raises ``ValueError`` for anything else.
        """
        if isinstance(text, (list, tuple)) and len(text) == 2:
            return Tile.of(text[0], text[1])
        if isinstance(text, str):
            m = _PATTERN.fullmatch(text.strip())
            if m:
                return Tile.of(int(m.group(1)), int(m.group(2)))
        raise ValueError(f"not a tile: {text!r} (expected e.g. \"2-5\" or \"[2|5]\")")


_PATTERN = re.compile(r"\[?\s*([0-6])\s*[-|:,/ ]?\s*([0-6])\s*\]?")

#: The 28 tiles, ordered [0|0], [0|1], ..., [0|6], [1|1], ..., [6|6].
TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(7) for b in range(a, 7))
TILE_ID: dict[Tile, int] = {t: i for i, t in enumerate(TILES)}
_ID = [[TILE_ID[Tile(min(a, b), max(a, b))] for b in range(7)] for a in range(7)]

#: Pips of each tile id.
PIPS: tuple[int, ...] = tuple(t.a + t.b for t in TILES)
#: Lower / higher half of each tile id.
LOW: tuple[int, ...] = tuple(t.a for t in TILES)
HIGH: tuple[int, ...] = tuple(t.b for t in TILES)
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


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a bit mask, sorted ([0|0] first)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(TILES[low.bit_length() - 1])
        mask ^= low
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


def format_tiles(tiles) -> str:
    """Tiles in the notation of RULES.md §0, e.g. ``[0|3][1|1]``."""
    return "".join(str(t) for t in tiles)
