"""Helpers for the tests of the line variants (RULES.md §2.6–§2.9): matches dealt from hands
written by hand, positions in the middle of a round under a variant's rules, and moves
written as text."""

from __future__ import annotations

import random

from engine import Move, Rules, Tile, apply, legal_moves, new_match
from engine.match import MatchState, deal_given, start_match
from engine.records import record_match
from engine.tiles import TILE_ID
from tests.enginekit import mask, mid_round, rest_of, tiles


def dealt(rules: Rules, hands: list[str], bazar: str | None = None,
          state: MatchState | None = None, **start) -> MatchState:
    """Round 1 dealt from ``hands`` (``"1-1 2-5 …"`` per seat) and ``bazar`` (draw order;
    default: every other tile in set order), or with ``state`` the next round of that
    match.  ``start`` as :func:`engine.match.start_match` (``scores``, ``sticks``, …)."""
    first = state is None
    if first:
        state = start_match(rules, len(hands), **start)
    if bazar is None:
        bazar_tiles = rest_of(*hands)
    else:
        bazar_tiles = tiles(bazar)
    state, _ = deal_given(state, tuple(mask(h) for h in hands),
                          tuple(TILE_ID[t] for t in bazar_tiles), first=first)
    return state


def position(rules: Rules, hands: list[str], chain: list[tuple[int, int]], to_act: int = 0,
             bazar: str = "", last: int = -1, seats: tuple[int, ...] | None = None,
             **start) -> MatchState:
    """A match in the middle of a round under ``rules``: ``chain`` as oriented pairs (RULES.md
    §0), ``bazar`` in draw order, its last ``rules.bazar_reserve`` tiles reserved (§1.4);
    tiles named nowhere lie reserved at the end of the bazar (never drawn, never played:
    :func:`tests.enginekit.mid_round`).  ``seats``: the
    seats that play the round (default all)."""
    fwd = rules.spec.reads_fish_without_double(rules)
    rs = mid_round(hands, chain, to_act, bazar, rules.bazar_reserve, fwd, last)
    if seats is not None:
        rs = rs._replace(seats=tuple(seats))
    return start_match(rules, len(hands), rs, start.pop("seed", "test"), **start)


def move(text: str) -> Move:
    """``"2-5 right"`` → the move of [2|5] on the right end; ``"6-5"`` a lead (laid as
    written, RULES.md §0) or a tile that fits one end."""
    parts = text.split()
    tile = Tile.parse(parts[0])
    end = parts[1] if len(parts) > 1 else None
    flip = end is None and parts[0][0] > parts[0][-1]
    return Move(tile, end, flip=flip)


def play(state: MatchState, *moves: str, deal: bool = False, take=None
         ) -> tuple[MatchState, list]:
    """Apply ``moves`` in turn for the seat to act; ``take`` (tiles text) goes with the last
    move.  Returns the state and every event."""
    events: list = []
    for i, text in enumerate(moves):
        extra = {"take": tiles(take)} if take is not None and i == len(moves) - 1 else {}
        state, evs = apply(state, state.to_act, move(text), deal=deal, **extra)
        events += evs
    return state, events


def kinds(events: list) -> list[str]:
    """The kinds of ``events``, in order."""
    return [e.kind for e in events]


def random_match(rules: Rules, players: int, seed: object) -> tuple[dict, MatchState, list]:
    """A random legal match: its record, its final state and every event."""
    rng = random.Random(str(seed))
    state, events = new_match(rules, players, seed)
    decisions = []
    while not state.finished:
        m = rng.choice(legal_moves(state))
        decisions.append((m, False))
        state, evs = apply(state, state.to_act, m)
        events += evs
    record = record_match(rules, [f"p{i}" for i in range(players)], seed, decisions)
    return record, state, events
