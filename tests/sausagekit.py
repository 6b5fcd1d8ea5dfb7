"""Positions of Колбаса (RULES.md §2.12) written by hand for the tests: the two queues
(front first), the head and the lines in the notation of RULES.md §0.  Tiles named nowhere
are out of play."""

from __future__ import annotations

from engine import Rules, Tile
from engine.match import MatchState, start_match
from engine.sausage import Sausage
from engine.table import Table
from engine.tiles import TILE_ID
from engine.variants.kolbasa import Kolbasa, KolbasaRound

RULES = Rules(variant="kolbasa")


def ids(text: str) -> tuple[int, ...]:
    """``"1-0 5-6"`` → the tile ids in that order."""
    return tuple(TILE_ID[Tile.parse(t)] for t in text.split())


def line(text: str, start: int) -> list[tuple[int, int]]:
    """A line from the head outward, each tile written with its inner half first:
    ``"2-3 3-6 6-1"``."""
    out = []
    want = start
    for t in text.split():
        a, b = (int(x) for x in t.split("-"))
        assert a == want, f"{t} does not touch {want}"
        out.append((a, b))
        want = b
    return out


def position(queues: list[str], head: str | None = None, a: str = "", b: str = "", *,
             to_act: int = 0, turns: int = 1, fresh: tuple[int, int] = (0, 0),
             rules: Rules | None = None, scores=None) -> tuple[MatchState, list]:
    """The match after ``to_act`` turns over its front tile on the given table (``head``
    ``"2-5"`` starts line ``a`` from 2 and ``b`` from 5), and every turn without a choice
    after it: ``(state, events)``."""
    rules = rules or RULES
    qs = tuple(ids(q) for q in queues)
    masks = [sum(1 << i for i in q) for q in qs]
    t = Table(rules, 2, masks, (), 0, to_act, memo=KolbasaRound(qs, fresh, turns, qs))
    lay = Sausage(2)
    if head is not None:
        x, y = (int(v) for v in head.split("-"))
        lay.lead(TILE_ID[Tile.of(x, y)])
        lay.hx, lay.hy = x, y
        lay.lines = [line(a, x), line(b, y)]
        for p, q in lay.lines[0] + lay.lines[1]:
            lay.mask |= 1 << TILE_ID[Tile.of(p, q)]
    seen = 0
    for m in masks:
        assert not seen & m and not lay.mask & m, "a tile is named twice"
        seen |= m
    lay.queues = [len(q) for q in qs]
    lay.last_mask = 0
    t.layout = lay
    events: list = []
    t.events = events
    Kolbasa.run(rules.spec, t, to_act)
    t.events = None
    state = start_match(rules, 2, t.state(), "test", scores)
    return state, events
