"""Issue 23 (1): a computer player decides from its observation alone — in every registered
game, at every strength, a deal that differs only in tiles the seat cannot see (other hands,
the bazar and its order, other seats' draws; RULES.md §1.4, §1.8) gives the same move for
the same random seed."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import Rules, Tile, ai, legal_moves
from engine.tiles import TILE_ID
from engine.variant import VARIANTS
from tests.test_ai import assert_blind, other_draws, play_to, shuffle_hidden


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(VARIANTS)), players=st.integers(2, 4),
       seed=st.integers(0, 10**6), steps=st.integers(0, 50), shuffle_seed=st.integers(0, 10**6))
def test_every_game_decides_the_same_whatever_the_hidden_tiles(game, players, seed, steps,
                                                               shuffle_seed):
    try:
        state, history = play_to(Rules(variant=game), players, seed, steps, random.Random(seed))
    except ValueError:
        assume(False)  # this game does not seat that many players
    assume(not state.finished)
    assert_blind(state, history, random.Random(shuffle_seed))


def _assert_same_decisions(state, history, twin, twin_history) -> None:
    """``twin`` differs from ``state`` only in tiles the seat to act cannot see: equal
    observations, and every strength (hard by samples and by work) decides the same legal
    move with the same seed."""
    seat = state.to_act
    obs = ai.observe(state, seat, history)
    assert ai.observe(twin, seat, twin_history) == obs
    for strength in ai.STRENGTHS:
        a = ai.decide(obs, strength, random.Random(7), samples=3)
        b = ai.decide(ai.observe(twin, seat, twin_history), strength, random.Random(7),
                      samples=3)
        assert a == b and a in legal_moves(state)
    a = ai.decide(obs, "hard", random.Random(7), work=3000)
    b = ai.decide(ai.observe(twin, seat, twin_history), "hard", random.Random(7), work=3000)
    assert a == b and a in legal_moves(state)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 8), top=st.sampled_from([9, 12]), seed=st.integers(0, 10**6),
       steps=st.integers(0, 80), shuffle_seed=st.integers(0, 10**6))
def test_mexican_train_decides_the_same_whatever_the_hidden_tiles(players, top, seed, steps,
                                                                  shuffle_seed):
    """RULES.md §2.11: the other hands, the bazar and its order, the other seats' draws and
    the deal as dealt are hidden; 2–8 players, both sets."""
    if top == 9:
        players = min(players, 4)
    rules = Rules(variant="mexican_train", set=top)
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    assume(not state.finished)
    rng = random.Random(shuffle_seed)
    twin = shuffle_hidden(state, state.to_act, rng)
    twin = twin._replace(round=twin.round._replace(memo=None))
    _assert_same_decisions(state, history, twin, other_draws(history, state.to_act, rng))


def _shuffle_queues(state, rng: random.Random):
    """The same match with every tile nobody has turned over yet dealt anew into the
    queues' unseen fronts — the seat's own queue included (RULES.md §2.12 rule 1) — and the
    deal as dealt forgotten."""
    rs = state.round
    memo = rs.memo
    unseen = [x for q, f in zip(memo.queues, memo.fresh, strict=True) for x in q[:f]]
    rng.shuffle(unseen)
    queues = []
    k = 0
    for q, f in zip(memo.queues, memo.fresh, strict=True):
        queues.append(tuple(unseen[k:k + f]) + q[f:])
        k += f
    hands = [sum(1 << x for x in q) for q in queues]
    turned = rs.layout.turned
    if turned is not None:
        hands[rs.to_act] |= 1 << TILE_ID[Tile.of(*turned)]
    return state._replace(round=rs._replace(
        hands=tuple(hands), memo=memo._replace(queues=tuple(queues), dealt=None)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 20),
       shuffle_seed=st.integers(0, 10**6))
def test_kolbasa_decides_the_same_whatever_the_queues_hide(seed, steps, shuffle_seed):
    """RULES.md §2.12 rule 1: nobody sees a queue, its owner included; only what was turned
    over (and sent back or cut) is known."""
    state, history = play_to(Rules(variant="kolbasa"), 2, seed, steps, random.Random(seed))
    assume(not state.finished)
    twin = _shuffle_queues(state, random.Random(shuffle_seed))
    obs = ai.observe(state, state.to_act, history)
    assert obs.hand == () and obs.round.hands == (0, 0)
    _assert_same_decisions(state, history, twin, history)


def test_the_new_games_observe_the_same_from_events_and_their_dicts():
    """The bot hands the computer players the events' ``to_dict`` forms (tiles as
    ``"5-12"``, RULES.md §2.10.3): the observation is the same."""
    from engine import to_dict

    for rules, players in ((Rules(variant="mexican_train"), 4), (Rules(variant="kolbasa"), 2)):
        state, history = play_to(rules, players, 5, 30, random.Random(5))
        assert not state.finished
        seat = state.to_act
        assert ai.observe(state, seat, [to_dict(e) for e in history]) == \
            ai.observe(state, seat, history)
