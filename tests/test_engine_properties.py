"""Engine invariants over random matches (hypothesis): RULES.md §1.1, §1.7, §1.15.

- the 28 tiles are conserved and never duplicated;
- every offered move is legal and every legal move is offered (checked against a naive
  reading of §1.5–§1.7);
- every random match terminates with at least one goat;
- the record of a simulated match replays to the same result.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules, Tile, apply, errors, legal_moves, new_match
from engine.moves import Move
from engine.records import record_match, replay
from engine.tiles import TILES
from tests.enginekit import in_play

rules_strategy = st.builds(
    Rules,
    bazar_reserve=st.integers(0, 2),
    fish_without_double=st.booleans(),
    fish_scoring=st.sampled_from(["all_to_max", "each_own", "own_to_max"]),
    match_limit=st.sampled_from([31, 61, 101]),
)
setup = st.one_of(
    st.tuples(rules_strategy, st.integers(2, 4)),
    st.tuples(rules_strategy.map(lambda r: Rules(**{**r.to_json(), "teams": True})), st.just(4)),
)
SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def naive_moves(state) -> set[tuple[Tile, str | None]]:
    """§1.5–§1.7 read literally, without the engine's tables."""
    hand = state.hand(state.to_act)
    rs = state.round
    if not rs.line.tiles:
        if rs.lead_id >= 0:
            return {(TILES[rs.lead_id], None)}
        return {(t, None) for t in hand}
    left, right = rs.line.ends
    out = set()
    for t in hand:
        fits_left = left in (t.a, t.b)
        fits_right = right in (t.a, t.b)
        if fits_left and fits_right and left == right:
            out.add((t, "right"))
            continue
        if fits_left:
            out.add((t, "left"))
        if fits_right:
            out.add((t, "right"))
    return out


@SETTINGS
@given(setup=setup, seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_random_matches_keep_every_invariant(setup, seed, choices):
    rules, players = setup
    state, _ = new_match(rules, players, seed)
    steps = 0
    while not state.finished:
        everything = in_play(state.round)
        assert len(everything) == 28 and set(everything) == set(TILES)
        moves = legal_moves(state)
        assert moves, "a seat to act always has a legal move (§1.8 draws first)"
        assert {(m.tile, m.end) for m in moves} == naive_moves(state)
        assert len(set(moves)) == len(moves)
        # a tile of the hand that is not offered is refused, and nothing changes
        offered = {m.tile for m in moves}
        for t in state.hand(state.to_act):
            if t not in offered and state.round.line.tiles:
                try:
                    apply(state, state.to_act, Move(t, "left"))
                except errors.IllegalMove:
                    pass
                else:  # pragma: no cover - a failure path
                    raise AssertionError(f"{t} was accepted but not offered")
        state, events = apply(state, state.to_act, choices.choice(moves))
        steps += 1
        assert steps < 5000, "a match must terminate"
    assert state.result.reason == "limit"
    assert len(state.result.goats) >= 1
    assert all(state.scores[g] >= rules.match_limit for g in state.result.goats)


@SETTINGS
@given(setup=setup, seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**32))
def test_record_of_a_simulated_match_replays_to_the_same_result(setup, seed, rng_seed):
    rules, players = setup
    rng = random.Random(rng_seed)
    state, _ = new_match(rules, players, seed)
    decisions = []
    rounds = []
    while not state.finished:
        host = rng.random() < 0.05
        if host:
            from engine import apply_host_move

            state, events = apply_host_move(state)
            decisions.append((None, True))
        else:
            move = rng.choice(legal_moves(state))
            state, events = apply(state, state.to_act, move)
            decisions.append((move, False))
        rounds += [e for e in events if e.kind == "round_scored"]
    names = [f"p{i}" for i in range(players)]
    record = record_match(rules, names, seed, decisions)
    result = replay(record)
    assert result["finished"] is True
    assert result["rating"] == list(state.result.rating)
    assert result["goats"] == list(state.result.goats)
    assert [r["scores"] for r in result["rounds"]] == [list(e.scores) for e in rounds]
    assert [r["remembered"] for r in result["rounds"]] == [list(e.remembered) for e in rounds]
    assert [r["pot"] for r in result["rounds"]] == [e.pot for e in rounds]
    assert [r["by"] for r in result["rounds"]] == [e.by for e in rounds]
