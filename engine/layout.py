"""The layout of tiles on the table.

Classic Kozel plays a single line (the chain) with two open ends (RULES.md §0, §1.7).  The
layout is kept behind this small value type so that variants with other layouts (RULES.md §2:
the donkey's cross, for one) can bring their own without touching the turn logic.
"""

from __future__ import annotations

from typing import NamedTuple

from .tiles import HIGH, LOW

__all__ = ["Line", "EMPTY_LINE", "LEFT", "RIGHT", "ENDS"]

LEFT = "left"
RIGHT = "right"
ENDS = (LEFT, RIGHT)


class Line(NamedTuple):
    """A chain of tiles with two open ends (RULES.md §0).

    ``tiles`` are ``(a, b)`` pairs oriented so touching halves match, left to right, e.g.
    ``((1, 1), (1, 5), (5, 3))``; ``left`` and ``right`` are the open-end numbers, or -1 while
    the chain is empty.
    """

    tiles: tuple[tuple[int, int], ...]
    left: int
    right: int

    @property
    def ends(self) -> tuple[int, ...]:
        """``()`` before the lead, else ``(left, right)`` (RULES.md §1.7)."""
        return () if self.left < 0 else (self.left, self.right)

    def fits(self, tile_id: int) -> tuple[bool, bool]:
        """Whether tile ``tile_id`` matches the (left, right) open end (RULES.md §1.7)."""
        a = LOW[tile_id]
        b = HIGH[tile_id]
        left = self.left
        right = self.right
        return (a == left or b == left), (a == right or b == right)

    def place(self, tile_id: int, end: str | None) -> Line:
        """A new line with the tile placed at ``end``.

        On an empty line ``end`` is ignored (the lead).  The caller has checked that the tile
        fits that end (see :meth:`fits`); the result is undefined otherwise.
        """
        a = LOW[tile_id]
        b = HIGH[tile_id]
        if self.left < 0:
            return Line(((a, b),), a, b)
        if end == LEFT:
            other = b if a == self.left else a
            return Line(((other, self.left),) + self.tiles, other, self.right)
        other = b if a == self.right else a
        return Line(self.tiles + ((self.right, other),), self.left, other)


EMPTY_LINE = Line((), -1, -1)
