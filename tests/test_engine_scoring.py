"""Hand values, recording, fish scorings, the pot, teams, goats, rating, timeouts.

RULES.md §1.11–§1.17; each test names its rule.
"""

from __future__ import annotations

import pytest

from engine import Rules, Tile, apply, apply_host_move, errors, host_move, legal_moves
from engine.events import HostMoved, MatchEnded, RoundScored
from engine.match import start_match
from engine.moves import Move
from engine.scoring import hand_value, rating, record_round, timeout_rating
from tests.enginekit import mask, mid_round

T = Tile.of
R = Rules()


# -- §1.11 -------------------------------------------------------------------------------------
def test_hand_value_is_the_pip_sum():
    """RULES.md §1.11."""
    assert hand_value(mask("6-6 5-6"), R) == 23
    assert hand_value(0, R) == 0


def test_lone_zero_double_counts_ten_but_nothing_beside_other_tiles():
    """RULES.md §1.11, option lone_zero_double_value (default 10)."""
    assert hand_value(mask("0-0"), R) == 10
    assert hand_value(mask("0-0 1-2"), R) == 3
    assert hand_value(mask("0-0"), Rules(lone_zero_double_value=25)) == 25


# -- §1.12 -------------------------------------------------------------------------------------
def test_worked_example_of_rule_1_12():
    """RULES.md §1.12: Masha went out; Alex, Olya, Serg record their hands."""
    rec = record_round(R, scores=(0, 0, 0, 0), remembered=(19, 0, 7, 4), pot=0,
                       hand_values=(0, 3, 13, 5), end="out", by_side=0)
    assert rec.scores == (0, 0, 20, 0)
    assert rec.remembered == (0, 3, 0, 9)
    assert rec.recorded == (0, 3, 13, 5)


def test_open_scores_take_every_round_and_remembered_points_may_exceed_twelve():
    """RULES.md §1.12: once open, even 2 points are added; unopened 12s pile up."""
    rec = record_round(R, (20, 0, 0), (0, 10, 0), 0, (2, 12, 0), "out", 2)
    assert rec.scores == (22, 0, 0) and rec.remembered == (0, 22, 0)


def test_threshold_is_an_option():
    """RULES.md §1.12 open_threshold."""
    rec = record_round(Rules(open_threshold=5), (0, 0), (3, 0), 0, (0, 6), "out", 0)
    assert rec.scores == (0, 6) and rec.remembered == (0, 0)


# -- §1.13 -------------------------------------------------------------------------------------
def test_fish_each_own():
    """RULES.md §1.13 each_own: everyone records their own hand; nobody is reset."""
    rec = record_round(Rules(fish_scoring="each_own"), (0, 0, 30), (3, 4, 0), 0,
                       (10, 5, 20), "fish", 1)
    # seat 0: 3 remembered + 10 is still below the threshold of 13 round points
    assert rec.scores == (0, 0, 50) and rec.remembered == (13, 9, 0)
    assert rec.recorded == (10, 5, 20)


def test_fish_all_to_max():
    """RULES.md §1.13 all_to_max: the highest hand takes the total; others are reset."""
    rec = record_round(R, (0, 0, 0), (3, 4, 6), 0, (10, 5, 20), "fish", 0)
    assert rec.recorded == (0, 0, 35)
    assert rec.scores == (0, 0, 41) and rec.remembered == (0, 0, 0)


def test_fish_own_to_max():
    """RULES.md §1.13 own_to_max: the highest hand records its own; others keep theirs."""
    rec = record_round(Rules(fish_scoring="own_to_max"), (0, 0, 0), (3, 4, 6), 0,
                       (10, 5, 20), "fish", 0)
    assert rec.scores == (0, 0, 26) and rec.remembered == (3, 4, 0)


@pytest.mark.parametrize("scoring,fed", [("all_to_max", 50), ("own_to_max", 20)])
def test_tied_fish_feeds_the_pot_and_nobody_records(scoring, fed):
    """RULES.md §1.13: a tie for the highest hand sends the points to the pot."""
    rec = record_round(Rules(fish_scoring=scoring), (0, 0, 0), (3, 4, 6), 5,
                       (10, 20, 20), "fish", 0)
    assert rec.recorded == (0, 0, 0) and rec.scores == (0, 0, 0)
    assert rec.remembered == (3, 4, 6)
    assert rec.pot == 5 + fed and rec.pot_won == 0


def test_pot_goes_to_the_strictly_highest_round_points_and_can_open_a_score():
    """RULES.md §1.13: the pot joins the round points before §1.12."""
    rec = record_round(R, (0, 0, 0), (0, 2, 0), 10, (0, 5, 3), "out", 0)
    assert rec.recorded == (0, 15, 3) and rec.pot_won == 10 and rec.pot == 0
    assert rec.scores == (0, 17, 0) and rec.remembered == (0, 0, 3)


def test_pot_stays_while_the_top_is_tied():
    """RULES.md §1.13: "While the top is tied the pot keeps growing"."""
    rec = record_round(R, (0, 0, 0), (0, 0, 0), 20, (0, 7, 7), "out", 0)
    assert rec.pot == 20 and rec.pot_won == 0 and rec.remembered == (0, 7, 7)
    rec = record_round(R, (0, 0, 0), (0, 0, 0), 20, (10, 20, 20), "fish", 0)
    assert rec.pot == 70


def test_each_own_fish_with_equal_hands_does_not_feed_the_pot():
    """RULES.md §1.13: only the max scorings have a tie rule."""
    rec = record_round(Rules(fish_scoring="each_own"), (0, 0), (0, 0), 0, (7, 7), "fish", 0)
    assert rec.pot == 0 and rec.remembered == (7, 7)


# -- §1.14 teams -------------------------------------------------------------------------------
def test_team_out_records_zero_and_the_others_sum_both_hands():
    """RULES.md §1.14: seat 1 goes out; team 1 (seats 1, 3) records 0, team 0 the sum."""
    chain = [(2, 3)]
    rs = mid_round(["6-6 5-6", "3-4", "0-0", "4-4 0-1"], chain=chain, to_act=1)
    rules = Rules(teams=True)
    state = start_match(rules, 4, rs, "s", scores=(0, 0), remembered=(0, 9))
    new, events = apply(state, 1, Move(T(3, 4), "right"), deal=False)
    scored = [e for e in events if isinstance(e, RoundScored)][0]
    assert scored.end == "out" and scored.by == 1
    assert scored.hand_values == (23 + 10, 9)
    assert new.scores == (33, 0) and new.remembered == (0, 0)


def test_team_fish_compares_team_totals():
    """RULES.md §1.14 with §1.13 all_to_max."""
    rec = record_round(Rules(teams=True), (0, 0), (4, 0), 0, (12, 30), "fish", 0)
    assert rec.scores == (0, 42) and rec.remembered == (0, 0)


# -- §1.15 goats, §1.16 rating -----------------------------------------------------------------
def test_reaching_the_limit_makes_goats_and_ends_the_match():
    """RULES.md §1.15: every side at 101 or more is a goat; remembered points never count."""
    chain = [(2, 3)]
    rs = mid_round(["3-4", "6-6 5-6", "5-5 4-5"], chain=chain, to_act=0)
    state = start_match(R, 3, rs, "s", scores=(0, 80, 90), remembered=(0, 0, 0))
    new, events = apply(state, 0, Move(T(3, 4), "right"))
    assert new.finished and new.to_act is None
    assert new.scores == (0, 103, 109)
    assert new.result.goats == (1, 2) and new.result.reason == "limit"
    assert new.result.rating == (10, 0, 0)
    assert isinstance(events[-1], MatchEnded) and events[-1].goats == (1, 2)
    assert legal_moves(new) == ()
    with pytest.raises(errors.RoundOver):
        apply(new, 0, Move(T(0, 0)))


def test_remembered_points_do_not_make_a_goat():
    rec = record_round(R, (0, 0), (100, 0), 0, (12, 0), "out", 1)
    assert rec.remembered == (112, 0) and rec.scores == (0, 0)


def test_rating_examples_of_rule_1_16():
    """RULES.md §1.16: score 25 → 7.5 → 8; round half up: 6.5 → 7; at least 1; goat 0."""
    assert rating(R, (25, 101), (1,)) == (8, 0)
    assert rating(R, (35, 120), (1,)) == (7, 0)   # 6.5 → 7, not 6
    assert rating(R, (99, 101), (1,)) == (1, 0)    # 0.1 → minimum 1
    assert rating(R, (0, 101), (1,)) == (10, 0)
    assert rating(Rules(match_limit=51), (25, 60), (1,)) == (3, 0)  # (50 − 25) / 10 = 2.5 → 3


def test_timeout_rating_examples_of_rule_1_16():
    """RULES.md §1.16: S_t = 32: score 30 → 1 (minimum), score 13 → 1.9 → 2."""
    assert timeout_rating((32, 30, 13), 0) == (0, 1, 2)
    assert timeout_rating((32, 50), 0) == (0, 1)


# -- §1.17 timeouts ----------------------------------------------------------------------------
def test_host_plays_the_playable_tile_with_the_most_pips():
    """RULES.md §1.17."""
    rs = mid_round(["2-2 2-6 3-5 0-0", "1-1"], chain=[(2, 3), (3, 5)], to_act=0)
    state = start_match(R, 2, rs, "s")
    assert host_move(state) == Move(T(2, 6), "left")
    new, events = apply_host_move(state)
    assert events[0] == HostMoved(0, 1)
    assert new.afk == (1, 0) and not new.finished


def test_afk_limit_consecutive_host_moves_end_the_match_by_timeout():
    """RULES.md §1.17 and §1.16 timeout rating."""
    import random

    from engine import new_match

    state, _ = new_match(Rules(afk_limit=2), 3, seed=11)
    rng = random.Random(2)
    # play normally a while so that scores are not all zero
    while state.round_no < 3:
        state, _ = apply(state, state.to_act, rng.choice(legal_moves(state)))
    victim = state.to_act
    state, events = apply_host_move(state)
    assert state.afk[victim] == 1 and not state.finished
    # the other seats move by themselves until the victim's turn comes back
    while state.to_act != victim:
        state, _ = apply(state, state.to_act, rng.choice(legal_moves(state)))
    assert state.afk[victim] == 1
    before_scores = state.scores
    state, events = apply_host_move(state)
    assert state.finished and state.result.reason == "timeout"
    assert state.result.timed_out == victim and state.result.goats == ()
    assert state.result.rating == timeout_rating(state.scores, victim)
    assert isinstance(events[-1], MatchEnded) and events[-1].reason == "timeout"
    assert len(before_scores) == 3


def test_own_move_resets_the_host_move_count():
    """RULES.md §1.17: only consecutive host moves count."""
    rs = mid_round(["2-2 2-6 3-5 0-0", "1-1 1-6"], chain=[(2, 3), (3, 5)], to_act=0)
    state = start_match(R, 2, rs, "s")
    state = state._replace(afk=(1, 0))
    new, _ = apply(state, 0, Move(T(3, 5), "right"))
    assert new.afk == (0, 0)
