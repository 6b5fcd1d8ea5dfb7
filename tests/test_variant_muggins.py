"""Маггинс / Muggins (``muggins``, RULES.md §2.5): every numbered rule and option, the count
examples of §2.0.6 through the variant, on positions written by hand (``tests.crosskit``),
plus properties of random play."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules, apply, errors, legal_moves, new_match
from engine.layout import ACROSS, ALONG
from tests.crosskit import (
    cross_table,
    deal_next_round,
    dealt,
    match_at,
    mv,
    one_round_record,
    run_cli,
    scored,
)

R = Rules(variant="muggins")


def counts(events):
    return [(e.seat, e.points) for e in events if e.kind == "scored"]


# -- rule 1: the deal ---------------------------------------------------------------------------
@pytest.mark.parametrize("players,size,bazar", [(2, 7, 14), (3, 5, 13), (4, 5, 8)])
def test_rule_1_seven_tiles_for_two_five_for_three_or_four(players, size, bazar):
    """RULES.md §2.5 rule 1: 7 tiles each for 2 players, 5 each for 3–4 (bazar 14, 13, 8)."""
    state, _ = new_match(R, players, 21)
    assert [len(h) for h in state.hands] == [size] * players and len(state.bazar) == bazar


# -- rule 2: the lead ---------------------------------------------------------------------------
def test_rule_2_round_one_the_first_seat_leads_any_tile():
    """RULES.md §2.5 rule 2: the first seat leads round 1 with any tile, whoever holds [1|1]."""
    state = dealt(R, ["0-1 0-2 0-3 2-3 4-5", "1-2 1-3 1-4 2-4 0-5", "1-1 0-4 0-6 1-5 2-5"])
    assert state.round.leader == 0 and state.round.lead_id == -1
    assert {m.tile for m in legal_moves(state)} == set(state.hand(0))


def test_rule_2_later_rounds_the_player_who_went_out_or_the_fisher_leads():
    """RULES.md §2.5 rule 2: after an out its player leads, after a fish the fisher."""
    t = cross_table(R, ["2-5", "3-4 4-4"], lead="1-2", last=1)
    state, _ = apply(match_at(R, t), 0, mv("2-5 right"))
    assert state.round_no == 2 and state.round.leader == 0 and state.round.lead_id == -1
    t = cross_table(R, ["4-5", "2-3 4-6 5-6"], lead="1-2", to_act=1, last=0)
    state, events = apply(match_at(R, t), 1, mv("2-3 right"))
    assert scored(events).end == "fish" and state.round.leader == 1


# -- rule 3: the layout -------------------------------------------------------------------------
def four_ends(hand: str):
    """Spinner [3|3] led by seat 1, then ends left 5, right 6, up 1, down 2."""
    return cross_table(R, [hand, "0-6 4-6"], lead="3-3",
                       plays=("3-5 left", "3-6 right", "3-1 up", "3-2 down"), last=1)


def test_rule_3_one_tile_per_move_each_other_double_across_or_along():
    """RULES.md §2.5 rule 3: one tile per move (four doubles on four fitting ends are still
    single moves), each double beside the spinner across or along."""
    t = four_ends("5-5 6-6 1-1 2-2 0-4")
    moves = t.moves()
    assert Counter(len(m) for m in moves) == {1: 8}
    assert Counter(m.along for m in moves) == {False: 4, True: 4}
    with pytest.raises(errors.MoveNotAllowed):
        t.apply(0, mv("5-5 left", "6-6 right"))


def test_rule_3_the_first_double_placed_is_the_spinner_never_along():
    """RULES.md §2.5 rule 3: the first double placed is the spinner: it is not offered along,
    and laying it along is refused."""
    t = cross_table(R, ["5-5 0-1", "4-6"], lead="2-5", last=1)
    assert t.moves() == (mv("5-5 right"),)
    with pytest.raises(errors.MoveNotAllowed):
        t.apply(0, mv("5-5 right along"))
    t.apply(0, mv("5-5 right"))
    assert t.layout.spinner == 5


def test_rule_3_no_double_is_closed():
    """RULES.md §2.5 rule 3: no closing."""
    t = four_ends("5-5 0-4")
    assert not any(m.closed for m in t.moves())
    with pytest.raises(errors.MoveNotAllowed):
        t.apply(0, mv("5-5 left closed"))


# -- rule 4: play scoring -----------------------------------------------------------------------
@pytest.mark.parametrize("along,count,points", [(False, 15, [15, 0]), (True, 9, [0, 0])])
def test_rule_4_across_counts_both_halves_along_once(along, count, points):
    """RULES.md §2.5 rules 3–4, §2.0.6: ends 6 and 3 beside the spinner [4|4]: [6|6] across on
    the 6 makes 6+6+3 = 15 and scores; along it counts once, 6+3 = 9, and scores nothing."""
    t = cross_table(R, ["6-6 0-1", "4-5 0-2"], lead="6-4", plays=("4-4 right", "4-3 right"),
                    last=1, events=[])
    t.apply(0, mv("6-6 left" + (" along" if along else "")))
    assert t.count == count and t.points == points
    assert t.layout.line[0][2] == (ALONG if along else ACROSS)


def test_rule_4_the_count_example_of_the_spinner_lead():
    """RULES.md §2.0.6 with §2.5 rule 4: lead [5|5] → 10; [5|0] up → 10; [5|2] right → 12;
    [5|3] left → 5: the lead's count scores too."""
    t = cross_table(R, ["5-5 2-5 6-6", "0-5 3-5 1-1"], to_act=0, events=[])
    for seat, move in ((0, "5-5"), (1, "5-0 up"), (0, "5-2 right"), (1, "5-3 left")):
        t.apply(seat, mv(move))
    assert counts(t.events) == [(0, 10), (1, 10), (1, 5)]


def test_rule_4_reaching_the_limit_mid_round_ends_the_match():
    """RULES.md §2.5 rule 4, §2.0.7: the lead's 10 takes 190 to 200: "limit" by the mover."""
    t = cross_table(R, ["5-5 0-1", "4-6 0-2"], to_act=0)
    state, events = apply(match_at(R, t, scores=[190, 60]), 0, mv("5-5"))
    assert (scored(events).end, scored(events).by) == ("limit", 0)
    assert state.scores == (200, 60) and state.result.winners == (0,)
    assert state.result.rating == (7, 0)                    # (200 − 60) × 10 / 200


# -- rule 5: round end --------------------------------------------------------------------------
def test_rule_5_going_out_scores_ten():
    """RULES.md §2.5 rule 5: going out scores 10 for the out side, whatever the others hold."""
    t = cross_table(R, ["2-5", "4-6 3-5"], lead="1-2", last=1)
    state, events = apply(match_at(R, t), 0, mv("2-5 right"), deal=False)
    assert scored(events).recorded == (10, 0) and state.scores == (10, 0)


@pytest.mark.parametrize("hands,recorded", [
    (["4-5", "4-6 5-6"], (10, 0)),             # 21 − 9 = 12 → 10
    (["4-4", "4-6 5-6"], (15, 0)),             # 21 − 8 = 13 → 15
    (["0-4", "4-6 5-6"], (15, 0)),             # 21 − 4 = 17 → 15
    (["0-4", "4-6 6-6"], (20, 0)),             # 22 − 4 = 18 → 20
    (["4-5", "4-6 5-6", "0-4"], (0, 0, 25)),   # (9 + 21) − 4 = 26 → 25
    (["4-5", "0-4 0-5"], (0, 0)),              # a tie for the lowest: nothing
])
def test_rule_5_a_fish_scores_the_margin_to_the_nearest_five(hands, recorded):
    """RULES.md §2.5 rule 5: a fish scores for the strictly lowest side the other sides' hands
    minus its own, rounded to the nearest multiple of 5 (halves up); a tie scores nothing."""
    t = cross_table(R, ["2-3 " + hands[0]] + hands[1:], lead="1-2", last=len(hands) - 1)
    state, events = apply(match_at(R, t), 0, mv("2-3 right"), deal=False)
    assert (scored(events).end, scored(events).recorded) == ("fish", recorded)


def test_the_goat_has_the_fewest_points_and_the_rating_rounds_half_up():
    """RULES.md §2.0.7: 190 + 10 for going out reaches 200; the goat is the side on 0; the side
    on 30 gets round_half_up(30 × 10 / 200 = 1.5) = 2."""
    t = cross_table(R, ["2-5", "4-6", "3-5"], lead="1-2", last=2)
    state, _ = apply(match_at(R, t, scores=[190, 30, 0]), 0, mv("2-5 right"))
    assert state.scores == (200, 30, 0)
    assert state.result.goats == (2,) and state.result.rating == (10, 2, 0)


# -- options -------------------------------------------------------------------------------------
def test_options_match_limit_teams_bazar_reserve():
    """RULES.md §2.5 options: match_limit 200, teams (a team scores as one), bazar_reserve."""
    assert (R.match_limit, R.teams, R.bazar_reserve) == (200, False, 0)
    rules = Rules(variant="muggins", teams=True, match_limit=50)
    t = cross_table(rules, ["4-6", "0-1", "2-3 6-6", "3-4"], to_act=2)
    state, events = apply(match_at(rules, t, scores=[40, 0]), 2, mv("2-3"))
    assert state.round.points == (5, 0) and not state.finished
    state, events = apply(match_at(rules, t, scores=[45, 0]), 2, mv("2-3"))
    assert scored(events).end == "limit" and state.result.winners == (0,)
    assert Rules(variant="muggins", bazar_reserve=1).bazar_reserve == 1
    assert new_match(Rules(variant="muggins", bazar_reserve=1), 3, 4)[0].round.drawable == 12


@pytest.mark.parametrize("option,value", [
    ("multi_doubles", True), ("open_threshold", 20), ("fish_scoring", "each_own"),
    ("fish_without_double", False), ("lone_zero_double_value", 25), ("sticks", 3),
])
def test_options_muggins_does_not_read_are_refused(option, value):
    """RULES.md §2.5: options outside the section are refused unless at their §1 default; the
    timeouts of §1.17 are read."""
    with pytest.raises(ValueError, match="muggins"):
        Rules(variant="muggins", **{option: value})
    timed = Rules(variant="muggins", turn_timeout=30, afk_limit=3)     # §1.17 stays
    assert (timed.turn_timeout, timed.afk_limit) == (30, 3)


# -- records, replay, simulate ----------------------------------------------------------------
RECORD = one_round_record("muggins", [
    "3-4 4-4 3-6 0-1 0-2 1-2 2-6", "3-3 3-5 5-5 0-4 1-5 2-4 6-6"], [
    {"tile": "4-3"},                                 # 4 + 3 = 7
    {"tile": "3-3", "end": "right"},                 # spinner: 6 + 4 = 10, Петя
    {"tile": "4-4", "end": "left", "along": True},   # 6 + 4 = 10, Оля
    {"tile": "3-5", "end": "up"},                    # 6 + 4 + 5 = 15, Петя
    {"tile": "3-6", "end": "right"},                 # 4 + 6 + 5 = 15, Оля
    {"tile": "5-5", "end": "up"},                    # 4 + 6 + 10 = 20, Петя
], scores=[170, 170])


def test_replay_a_round_with_a_double_along_ended_by_the_limit(tmp_path):
    """RULES.md §2.0.4, §2.5 rules 3–4 through ``python -m engine replay``: a double laid
    along counts once; Петя's 170 + 45 passes 200 at the last move."""
    code, out = run_cli("replay", stdin_text=json.dumps(RECORD, ensure_ascii=False),
                        tmp_path=tmp_path)
    assert code == 0
    (rnd,) = out["rounds"]
    assert (rnd["end"], rnd["by"], rnd["play_points"]) == ("limit", 1, [25, 45])
    assert rnd["scores"] == [195, 215]
    assert out["winners"] == [1] and out["goats"] == [0] and out["rating"] == [0, 1]


def test_simulate_shows_points_on_the_count_and_doubles_along():
    """``tools/simulate.py --variant muggins`` counts points on the count and doubles
    laid along."""
    code, out = run_cli("simulate", "--variant", "muggins", "--players", "3", "--matches",
                        "10", "--seed", "5", "--no-progress")
    assert code == 0 and out["special"]["scored"] > 0 and out["along_doubles"] > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32),
       choices=st.randoms(use_true_random=False))
def test_only_doubles_beside_the_spinner_lie_along(players, seed, choices):
    """RULES.md §2.5 rule 3: every tile laid along is a double and never the spinner; every
    move is one tile."""
    state, _ = new_match(R, players, seed)
    while not state.finished:
        move = choices.choice(legal_moves(state))
        assert len(move) == 1
        state, _ = apply(state, state.to_act, move, deal=False)
        lay = state.round.layout
        for arm in (lay.line, lay.up, lay.down):
            for a, b, how in arm:
                if how == ALONG:
                    assert a == b and lay.spinner >= 0
        if lay.spinner >= 0:
            assert lay.line[lay.spin_at][2] == ACROSS
        if state.round.end is not None and not state.finished:
            state = deal_next_round(state)

