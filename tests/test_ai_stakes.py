"""Issue 23 (2, 3): each game declares its own stakes, and the computer players read them.

- :meth:`engine.variant.Variant.held_costs`: what a tile still held at the round's end costs
  (RULES.md §1.11 pips by default; §2.9 rule 4 Генерал records no hand values; §2.3 rule 4
  ЧЧВ: a held [6|6] records 50 more, a held [0|0] makes a goat);
- :meth:`~engine.variant.Variant.standing` / ``standing_scale``: how close a side is to
  losing the match (points; sticks in Семёрка §2.8; lost rounds in Генерал §2.9).
"""

from __future__ import annotations

import random

import pytest

from engine import Rules, ai, apply, new_match
from engine.table import Table
from engine.tiles import PIPS, TILE_ID, Tile, set_size
from engine.variant import VARIANTS
from tests.test_ai import position

ZERO = TILE_ID[Tile(0, 0)]
SIX = TILE_ID[Tile(6, 6)]


def test_the_default_cost_of_a_held_tile_is_its_pips():
    costs = Rules().spec.held_costs(Rules())
    assert costs == tuple(float(p) for p in PIPS)


def test_general_counts_no_hand_and_chcv_punishes_its_specials():
    general = Rules(variant="general")
    assert general.spec.held_costs(general) == (0.0,) * 28
    chcv = Rules(variant="chcv")
    costs = chcv.spec.held_costs(chcv)
    assert costs[SIX] == 12 + 50  # §2.3 rule 4: a held [6|6] records 50 more
    assert costs[ZERO] > max(c for t, c in enumerate(costs) if t != ZERO)  # a goat at once
    assert costs[TILE_ID[Tile(2, 5)]] == 7


def test_traditional_weighs_a_held_pip_at_half_a_point():
    """§2.6 rule 3: held pips go to whoever goes out, so shedding weighs less than tempo."""
    rules = Rules(variant="traditional")
    assert rules.spec.held_costs(rules) == tuple(0.5 * p for p in PIPS)


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_game_declares_a_cost_per_tile_that_the_policy_reads(game):
    """A cost per tile of the game's set (RULES.md §2.10.1: 28, or 91 with double-12)."""
    rules = Rules(variant=game)
    costs = rules.spec.held_costs(rules)
    assert len(costs) == set_size(rules.set) and all(c >= 0 for c in costs)
    base = ai._base_scores(rules)
    doubles = {TILE_ID[Tile(n, n)] for n in range(rules.set + 1)}
    for t in range(len(costs)):
        extra = ai.W_DOUBLE if t in doubles else 0.0
        assert base[t] == pytest.approx(ai.W_PIPS * costs[t] + extra)


def test_normal_sheds_what_the_game_says_costs_most(monkeypatch):
    """The position of ``test_normal_sheds_the_heavy_tile``: by pips the policy sheds [1|6];
    a game that makes [0|1] dear to hold makes it shed [0|1] instead."""
    hands = ["0-1 1-6 2-3 4-5", "0-0 0-2 0-3 0-4 0-5 0-6", "2-2 2-4 2-5 2-6 3-3 3-4",
             "3-5 3-6 4-4 4-6 5-5 5-6"]
    assert ai.decide_normal(position(hands, [(1, 1)])).tile == Tile(1, 6)
    spec = type(Rules().spec)
    dear = list(spec.held_costs(Rules().spec, Rules()))
    dear[TILE_ID[Tile(0, 1)]] = 40.0
    monkeypatch.setattr(spec, "held_costs", lambda self, rules: tuple(dear))
    monkeypatch.setattr(ai, "_BASES", {})
    assert ai.decide_normal(position(hands, [(1, 1)])).tile == Tile(0, 1)


def test_the_match_stakes_of_each_game():
    """standing: higher is closer to losing — points (§1.15), sticks (§2.8), lost rounds
    (§2.9), points behind in a race (§2.0.7)."""
    for game in sorted(VARIANTS):
        rules = Rules(variant=game)
        state, _ = new_match(rules, min(4, rules.spec.players_range(rules)[1]), "stakes")
        stand = rules.spec.standing(state)
        assert len(stand) == len(state.scores)
        assert len(set(stand)) == 1  # nobody is closer to losing at the start
        assert rules.spec.standing_scale(rules) > 0


def _general_after(seed: str, steps: int):
    """The observation of the seat to act in Генерал after ``steps`` moves of four ``easy``
    players from ``seed`` (each move's generator seeded from the match and the move)."""
    state, events = new_match(Rules(variant="general"), 4, seed)
    history = list(events)
    for k in range(steps):
        obs = ai.observe(state, state.to_act, history)
        move = ai.decide(obs, "easy", random.Random(f"{seed}:{k}"))
        state, evs = apply(state, state.to_act, move)
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    return state, ai.observe(state, state.to_act, history)


def _voids(state, obs):
    out = []
    for m in obs.legal:
        t = Table.from_state(state.round)
        t.play(m)
        out.append(t.end == "void")
    return out


def test_general_normal_blocks_the_round_when_the_other_team_would_go_out_first():
    """§2.9 rule 2: a blocked round is dealt again.  Seat 2 holds 3 tiles; seat 1, an
    opponent, holds one and would go out before anyone else: blocking saves the round."""
    state, obs = _general_after("fv-10", 20)
    assert obs.seat == 2 and obs.hand_sizes == (3, 1, 2, 2)
    voids = _voids(state, obs)
    assert any(voids) and not all(voids)
    move = ai.decide_normal(obs)
    assert voids[obs.legal.index(move)]


def test_general_normal_does_not_block_a_round_its_team_would_win():
    """Every hand holds two tiles and seat 1 is to act: after its move it holds one and,
    nobody missing a turn, goes out first; blocking would throw the round away."""
    state, obs = _general_after("fv-22", 20)
    assert obs.seat == 1 and obs.hand_sizes == (2, 2, 2, 2)
    voids = _voids(state, obs)
    assert any(voids) and not all(voids)
    move = ai.decide_normal(obs)
    assert not voids[obs.legal.index(move)]
