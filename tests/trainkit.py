"""Positions of Мексиканский поезд (RULES.md §2.11) written by hand for the tests: hands,
a bazar in draw order and trains in the notation of RULES.md §0 (``"12-5 5-5"``), with tiles
of the double-12 set.  Tiles named nowhere are out of play: only the named ones take part,
which keeps a position small and its outcome easy to follow."""

from __future__ import annotations

from engine import Rules, Tile
from engine.match import MatchState, start_match
from engine.table import Table
from engine.tiles import TILE_ID
from engine.trains import Trains
from engine.variants.mexican_train import MexicanRound

RULES = Rules(variant="mexican_train")


def tiles(text: str, top: int = 12) -> list[Tile]:
    """``"12-5 5-5"`` → ``[Tile(5, 12), Tile(5, 5)]``."""
    return [Tile.parse(t, top) for t in text.split()]


def mask(text: str, top: int = 12) -> int:
    return sum(1 << TILE_ID[t] for t in tiles(text, top))


def train(text: str, engine: int) -> list[tuple[int, int]]:
    """A train laid from the engine outward: ``"12-5 5-5 5-9"`` (each tile written with the
    half that touches first)."""
    out = []
    want = engine
    for t in text.split():
        a, b = (int(x) for x in t.split("-"))
        assert a == want, f"{t} does not touch {want}"
        out.append((a, b))
        want = b
    return out


def position(hands: list[str], bazar: str = "", *, engine: int = 12, to_act: int = 0,
             trains: dict | None = None, public: tuple[int, ...] = (),
             open_doubles: tuple = (), phase: int = 0, rules: Rules | None = None,
             round_no: int | None = None, scores=None) -> MatchState:
    """A match whose round is the given position: ``trains`` maps a seat or ``"mexican"``
    to its tiles (:func:`train`), ``public`` the marked seats, ``open_doubles`` the trains
    with an open double, oldest first; ``to_act`` must have a legal placement."""
    rules = rules or RULES
    top = rules.set
    n = len(hands)
    masks = [mask(h, top) for h in hands]
    baz = tuple(TILE_ID[t] for t in tiles(bazar, top))
    t = Table(rules, n, masks, baz, 0, to_act, memo=MexicanRound(tuple(masks), baz))
    lay = Trains(n, engine)
    used = 0
    for m in masks + [1 << i for i in baz]:
        assert not used & m, "a tile is named twice"
        used |= m
    for key, text in (trains or {}).items():
        i = n if key == "mexican" else key
        for a, b in train(text, engine):
            tid = TILE_ID[Tile.of(a, b, top)]
            assert not (used | lay.mask) >> tid & 1, f"[{a}|{b}] is named twice"
            lay.place(tid, i)
    lay.open = [n if k == "mexican" else k for k in open_doubles]
    for s in public:
        lay.public[s] = True
    lay.last_mask = 0
    t.layout = lay
    t.phase = phase
    state = start_match(rules, n, t.state(), "test", scores)
    if round_no is not None:
        state = state._replace(round_no=round_no)
    return state
