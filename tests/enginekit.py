"""Helpers for engine tests: positions written in the notation of RULES.md §0."""

from __future__ import annotations

from engine import Rules, Tile
from engine.layout import Layout
from engine.match import MatchState, start_match
from engine.table import RoundState
from engine.tiles import TILE_ID, TILES
from tests.roundkit import start_round


def tiles(text: str) -> list[Tile]:
    """``"1-1 2-5"`` → ``[Tile(1, 1), Tile(2, 5)]``."""
    return [Tile.parse(t) for t in text.split()]


def mask(text: str) -> int:
    return sum(1 << TILE_ID[t] for t in tiles(text))


def rest_of(*used: str) -> list[Tile]:
    """Every tile not named in ``used``, in set order (a convenient bazar / filler)."""
    taken = {t for u in used for t in tiles(u)}
    return [t for t in TILES if t not in taken]


def round_state(hands: list[str], bazar: list[Tile] | str = "", reserve: int = 0,
                leader: int | None = 0, fish_without_double: bool = True) -> RoundState:
    """A round position with the given hands; ``leader`` None applies RULES.md §1.5."""
    if isinstance(bazar, str):
        bazar = tiles(bazar)
    return start_round(len(hands), tuple(mask(h) for h in hands),
                       tuple(TILE_ID[t] for t in bazar), reserve, leader, fish_without_double)


def match_state(hands: list[str], rules: Rules | None = None, bazar: list[Tile] | str = "",
                leader: int | None = 0, scores=None, remembered=None, pot: int = 0,
                seed: object = "test") -> MatchState:
    """A match whose current round is the given position."""
    rules = rules or Rules()
    rs = round_state(hands, bazar, rules.bazar_reserve, leader, rules.fish_without_double)
    return start_match(rules, len(hands), rs, seed, scores, remembered, pot)


def mid_round(hands: list[str], chain: list[tuple[int, int]], to_act: int = 0,
              bazar: str = "", reserve: int = 0, fish_without_double: bool = True,
              last: int = -1) -> RoundState:
    """A round in progress: ``chain`` as oriented pairs, left to right.

    Tiles named nowhere are put at the end of the bazar as reserved tiles (RULES.md §1.4), so
    that the position holds all 28 tiles and those extra tiles can never be drawn or played.
    """
    cmask = 0
    for a, b in chain:
        cmask |= 1 << TILE_ID[Tile.of(a, b)]
    chain_text = " ".join(f"{a}-{b}" for a, b in chain)
    dead = rest_of(*hands, bazar, chain_text)
    rs = round_state(hands, tiles(bazar) + dead, reserve + len(dead), 0, fish_without_double)
    layout = Layout.of_line(chain).state()
    assert layout.mask == cmask
    return rs._replace(layout=layout, to_act=to_act, last=last, lead_id=-1)


def in_play(rs: RoundState) -> list[Tile]:
    """Every tile of a position: hands, bazar and chain (RULES.md §1.1: 28 in all)."""
    from engine.tiles import tiles_of

    out = [t for h in rs.hands for t in tiles_of(h)]
    out += [TILES[i] for i in rs.bazar]
    out += [Tile.of(a, b) for a, b in rs.line.tiles]
    return out


# -- a cross for tests ---------------------------------------------------------------------

import contextlib  # noqa: E402

from engine.moves import several  # noqa: E402
from engine.variant import VARIANTS, Variant  # noqa: E402


class CrossForTests(Variant):
    """A variant on the cross of RULES.md §2.0.2–§2.0.4 for the layout's tests: closing
    allowed (the spinner never), and once a spinner exists 2–4 doubles at once on different
    open ends, each face up or closed.  Registered only inside :func:`cross_rules`."""

    name = "cross_for_tests"
    section = "§2.0"
    layout = "cross"
    closing = True
    one_tile = False

    def extra_moves(self, t):
        lay = t.layout
        if lay.spinner < 0 or not lay.line:
            return []
        hand = t.hands[t.to_act]
        return [several(p) for p in lay.double_sets(hand, least=2, most=4, closing=True)]


@contextlib.contextmanager
def cross_rules(**options):
    """``Rules`` of :class:`CrossForTests`, registered for the ``with`` block only (blocks
    may nest)."""
    mine = CrossForTests.name not in VARIANTS
    if mine:
        VARIANTS[CrossForTests.name] = CrossForTests()
    try:
        yield Rules(variant=CrossForTests.name, **options)
    finally:
        if mine:
            VARIANTS.pop(CrossForTests.name, None)
