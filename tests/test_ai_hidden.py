"""Issue 23 (1): a computer player decides from its observation alone — in every registered
game, at every strength, a deal that differs only in tiles the seat cannot see (other hands,
the bazar and its order, other seats' draws; RULES.md §1.4, §1.8) gives the same move for
the same random seed."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import Rules
from engine.variant import VARIANTS
from tests.test_ai import assert_blind, play_to


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
