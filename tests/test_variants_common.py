"""Invariants every registered variant keeps (RULES.md §2.0, §1.1), with hypothesis.

For every variant of ``engine.variant.VARIANTS`` and every number of players it allows:

- the tiles of the set are conserved: hands (Колбаса's queues), bazar and table hold each
  tile exactly once (RULES.md §1.1, §2.10.1);
- the seat to act always has a legal move, every offered move is accepted, and a tile of the
  hand that no move offers is refused without changing the state;
- every random match ends;
- the record of a random match replays to the same rounds and result;
- the rules round-trip through JSON.

A variant's own rules are pinned in its own test module (``tests/test_variant_<name>.py``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Rules, apply, apply_host_move, errors, legal_moves, new_match
from engine.records import record_match, replay
from engine.tiles import set_mask, set_size
from engine.variant import VARIANTS

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def setups() -> list[tuple[str, int, bool]]:
    """(variant, players, teams) for every variant and allowed player count."""
    out = []
    for name, v in VARIANTS.items():
        lo, hi = v.players
        for n in range(lo, hi + 1):
            if v.teams != "always":
                out.append((name, n, False))
        if v.teams in ("optional", "always"):
            out.append((name, 4, True))
    return out


SETUPS = setups()


def rules_of(name: str, teams: bool) -> Rules:
    v = VARIANTS[name]
    if teams and v.teams == "optional":
        return Rules(variant=name, teams=True)
    return Rules(variant=name)


def tiles_conserved(state) -> None:
    rs = state.round
    seen = rs.layout.mask
    total = rs.layout.mask.bit_count()
    for h in rs.hands:
        assert not seen & h
        seen |= h
        total += h.bit_count()
    for i in rs.bazar:
        assert not seen >> i & 1
        seen |= 1 << i
        total += 1
    top = state.rules.set
    assert seen == set_mask(top) and total == set_size(top)


@pytest.mark.parametrize("name,players,teams", SETUPS)
@SETTINGS
@given(seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_random_matches_keep_every_invariant(name, players, teams, seed, choices):
    """RULES.md §1.1 (28 tiles), §2.0.4 (a seat that can move must; only legal moves),
    and every match ends."""
    rules = rules_of(name, teams)
    state, _ = new_match(rules, players, seed)
    steps = 0
    while not state.finished:
        tiles_conserved(state)
        moves = legal_moves(state)
        assert moves, "a seat to act always has a legal move (§1.8 draws first)"
        assert len(set(moves)) == len(moves)
        offered = {t for m in moves for t in m.tiles}
        seat = state.to_act
        lay = state.round.layout
        if lay.kind not in ("line", "cross") or lay.line:
            for t in state.hand(seat):
                if t in offered:
                    continue
                with pytest.raises(errors.IllegalMove):
                    apply(state, seat, Move(t, "left") if lay.kind in ("line", "cross")
                          else Move(t))
        if choices.random() < 0.03:
            state, _ = apply_host_move(state)
        else:
            state, _ = apply(state, seat, choices.choice(moves))
        steps += 1
        assert steps < 20_000, "a match must end"
    assert state.result is not None


@pytest.mark.parametrize("name,players,teams", SETUPS)
@SETTINGS
@given(seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**32))
def test_records_replay_to_the_same_result(name, players, teams, seed, rng_seed):
    """A record of a random match (RULES.md §2.0.4 moves, host moves) replays to the same
    rounds and the same result."""
    rules = rules_of(name, teams)
    rng = random.Random(rng_seed)
    state, _ = new_match(rules, players, seed)
    decisions = []
    scored = []
    while not state.finished:
        if rng.random() < 0.03:
            state, events = apply_host_move(state)
            decisions.append((None, True))
        else:
            move = rng.choice(legal_moves(state))
            state, events = apply(state, state.to_act, move)
            decisions.append((move, False))
        scored += [e for e in events if e.kind == "round_scored"]
    record = record_match(rules, [f"p{i}" for i in range(players)], seed, decisions)
    out = replay(record)
    assert out["finished"] is True
    assert out["goats"] == list(state.result.goats)
    assert out["rating"] == list(state.result.rating)
    assert [r["end"] for r in out["rounds"]] == [e.end for e in scored]
    assert [r["scores"] for r in out["rounds"]] == [list(e.scores) for e in scored]
    assert [r["by"] for r in out["rounds"]] == [e.by for e in scored]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rules_round_trip_and_name_the_variant(name):
    """RULES.md §2: the variant's options with their defaults; to_json → from_json."""
    rules = Rules(variant=name)
    again = Rules.from_json(rules.to_json())
    assert again == rules
    assert rules.to_json()["variant"] == name
    for option, default in VARIANTS[name].options.items():
        assert getattr(rules, option) == VARIANTS[name].fixed.get(option, default)
