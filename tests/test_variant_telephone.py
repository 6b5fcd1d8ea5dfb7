"""Телефон / Домики (``telephone``, RULES.md §2.4): every numbered rule and option, the count
examples of §2.0.6 and the seed's 18 → 15 through the variant, on positions written by hand
(``tests.crosskit``), plus properties of random play."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Rules, Tile, apply, apply_host_move, errors, legal_moves, new_match
from engine.moves import DOWN, LEFT, RIGHT, UP
from engine.tiles import TILE_ID
from tests.crosskit import (
    cross_table,
    deal_next_round,
    dealt,
    kinds,
    match_at,
    mv,
    one_round_record,
    run_cli,
    scored,
)

R = Rules(variant="telephone")


def counts(events):
    return [(e.seat, e.side, e.points) for e in events if e.kind == "scored"]


# -- §2.0.6 the count, through the variant ------------------------------------------------------
def test_count_example_spinner_in_the_middle_scores_15_then_20():
    """RULES.md §2.0.6 with §2.4 rule 2: ends 6 and 3, spinner [4|4] in the middle: [6|6] on
    the 6 → 15 for its player; then [4|5] on up → 20 for the next."""
    t = cross_table(R, ["6-6 0-1", "4-5 0-2"], lead="6-4", plays=("4-4 right", "4-3 right"),
                    last=1, events=[])
    t.apply(0, mv("6-6 left"))
    assert t.count == 15 and t.points == [15, 0]
    t.apply(1, mv("4-5 up"))
    assert t.count == 20 and t.points == [15, 20]
    assert counts(t.events) == [(0, 0, 15), (1, 1, 20)]


def test_count_example_spinner_lead_scores_10_10_nothing_5():
    """RULES.md §2.0.6 with §2.4 rule 2: lead [5|5] → 10 (the lead scores too); [5|0] on up →
    10; [5|2] on right → 12, nothing; [5|3] on left → 5."""
    t = cross_table(R, ["5-5 2-5 6-6", "0-5 3-5 1-1"], to_act=0, events=[])
    for seat, move, count in ((0, "5-5", 10), (1, "5-0 up", 10), (0, "5-2 right", 12),
                              (1, "5-3 left", 5)):
        t.apply(seat, mv(move))
        assert t.count == count
    assert counts(t.events) == [(0, 0, 10), (1, 1, 10), (1, 1, 5)]
    assert t.points == [10, 15]


# -- rule 1: the lead ---------------------------------------------------------------------------
def test_rule_1_round_one_the_holder_of_zero_zero_leads_it():
    """RULES.md §2.4 rule 1: the holder of [0|0] leads it (not [1|1] as in §1.5)."""
    state = dealt(R, ["1-1 0-1 0-2 0-3 1-2 1-3 4-5", "0-0 1-4 2-5 3-6 4-6 0-5 5-6"])
    assert state.round.leader == 1 and state.round.lead_id == TILE_ID[Tile(0, 0)]
    assert legal_moves(state) == (Move(Tile(0, 0)),)
    with pytest.raises(errors.WrongLead) as err:
        apply(state, 1, Move(Tile(1, 4)))
    assert err.value.rule == "RULES.md §2.4"


def test_rule_1_zero_zero_in_the_bazar_then_one_one_two_two():
    """RULES.md §2.4 rule 1: [0|0] and [1|1] in the bazar: [2|2] is next."""
    state = dealt(R, ["3-3 0-1 0-2 0-3 1-2 1-3 4-5", "2-2 1-4 2-5 3-6 4-6 0-5 5-6"])
    assert state.round.leader == 1 and state.round.lead_id == TILE_ID[Tile(2, 2)]


def test_rule_1_no_double_in_any_hand_the_highest_non_double():
    """RULES.md §2.4 rule 1: then §1.5's non-double order: [5|6] first."""
    state = dealt(R, ["1-2 1-3 1-4 2-4 3-5 4-6 5-6", "0-3 0-4 0-5 0-6 2-5 3-6 2-6"])
    assert state.round.leader == 0 and state.round.lead_id == TILE_ID[Tile(5, 6)]


def test_rule_1_later_rounds_the_player_who_went_out_or_the_fisher_leads_any_tile():
    """RULES.md §2.4 rule 1: after an out its player leads any tile; after a fish the
    fisher."""
    t = cross_table(R, ["2-5", "3-4 4-4"], lead="1-2", last=1)
    state, _ = apply(match_at(R, t), 0, mv("2-5 right"))
    assert state.round_no == 2 and state.round.leader == 0 and state.round.lead_id == -1
    t = cross_table(R, ["4-5", "2-3 4-6 5-6"], lead="1-2", to_act=1, last=0)
    state, events = apply(match_at(R, t), 1, mv("2-3 right"))
    assert scored(events).end == "fish" and state.round.leader == 1


# -- moves: several doubles, no closing -----------------------------------------------------------
def four_ends(hand: str, rules: Rules = R):
    """Spinner [3|3] led by seat 1, then ends left 5, right 6, up 1, down 2."""
    return cross_table(rules, [hand, "0-6 4-6"], lead="3-3",
                       plays=("3-5 left", "3-6 right", "3-1 up", "3-2 down"), last=1)


def test_multi_doubles_up_to_four_doubles_at_once_one_per_open_end():
    """RULES.md §2.4: with a spinner, up to four doubles at once, one per open end that shows
    its number, all face up: C(4,k) moves of k doubles."""
    t = four_ends("5-5 6-6 1-1 2-2 0-4")
    assert Counter(len(m) for m in t.moves()) == {1: 4, 2: 6, 3: 4, 4: 1}
    t.apply(0, mv("6-6 right", "2-2 down", "5-5 left", "1-1 up"))
    assert t.layout.state().open_ends == {"left": 5, "right": 6, "up": 1, "down": 2}
    assert t.count == 10 + 12 + 2 + 4 and t.points == [0, 0]


def test_multi_doubles_without_a_spinner_the_first_listed_double_becomes_it():
    """RULES.md §2.4: no spinner yet: a move holds at most two doubles and the first listed
    becomes the spinner, so the two orders are two moves with different crosses."""
    t = cross_table(R, ["2-2 5-5 0-1", "4-6"], lead="2-5", last=1)
    several = [m for m in t.moves() if len(m) > 1]
    assert sorted(m[0].tile for m in several) == [Tile(2, 2), Tile(5, 5)]
    assert all(len(m) == 2 for m in several)
    first_two = t.copy()
    first_two.apply(0, mv("2-2 left", "5-5 right"))
    assert first_two.layout.spinner == 2
    assert (first_two.layout.ends[UP], first_two.layout.ends[DOWN]) == (2, 2)
    first_five = t.copy()
    first_five.apply(0, mv("5-5 right", "2-2 left"))
    assert first_five.layout.spinner == 5
    assert (first_five.layout.ends[UP], first_five.layout.ends[DOWN]) == (5, 5)
    assert first_five.layout.ends[LEFT] == 2 and first_five.layout.ends[RIGHT] == 5


def test_option_multi_doubles_off_is_one_tile_per_move():
    """RULES.md §2.4 option multi_doubles (default true): false → one tile per move."""
    assert R.multi_doubles is True
    rules = Rules(variant="telephone", multi_doubles=False)
    t = four_ends("5-5 6-6 1-1 2-2 0-4", rules)
    assert Counter(len(m) for m in t.moves()) == {1: 4}
    with pytest.raises(errors.MoveNotAllowed, match="multi_doubles"):
        t.apply(0, mv("5-5 left", "6-6 right"))


def test_no_double_is_placed_closed():
    """RULES.md §2.4: the cross without closing: no closed move, and one is refused."""
    t = cross_table(R, ["3-3 0-1", "4-6"], lead="2-3", last=1)
    assert t.moves() == (mv("3-3 right"),)
    with pytest.raises(errors.MoveNotAllowed, match="closed"):
        t.apply(0, mv("3-3 right closed"))


# -- rule 2: play scoring ---------------------------------------------------------------------
@pytest.mark.parametrize("lead,points", [("2-3", 5), ("5-5", 10), ("0-0", 0), ("1-3", 0)])
def test_rule_2_the_lead_scores_a_positive_multiple_of_five(lead, points):
    """RULES.md §2.4 rule 2: the lead's own count scores; 0 is no positive multiple."""
    t = cross_table(R, [lead + " 4-6", "1-2"], to_act=0, events=[])
    t.apply(0, mv(lead))
    assert t.points == [points, 0] and t.count == Tile.parse(lead).pips
    assert kinds(t.events).count("scored") == (1 if points else 0)


def test_rule_2_a_team_scores_as_one():
    """RULES.md §2.4 (teams with 4): the mover's side is its team: seat 2 scores for team 0."""
    rules = Rules(variant="telephone", teams=True)
    t = cross_table(rules, ["0-1", "0-2", "2-3 6-6", "3-4"], to_act=2, events=[])
    t.apply(2, mv("2-3"))
    assert t.points == [5, 0] and counts(t.events) == [(2, 0, 5)]


def test_rule_2_reaching_the_limit_mid_round_ends_the_match_at_that_move():
    """RULES.md §2.4 rule 2, §2.0.7: the move's points are scored first; at match_limit the
    match ends there: end "limit", by the mover, no round-end scoring; the goat has the
    fewest points, rated 0; the winner max(1, round_half_up(225 × 10 / 225))."""
    t = cross_table(R, ["2-3 4-6", "1-2 5-6"], to_act=0)
    state, events = apply(match_at(R, t, scores=[220, 0]), 0, mv("2-3"))
    ev = scored(events)
    assert (ev.end, ev.by, ev.play_points, ev.recorded) == ("limit", 0, (5, 0), (0, 0))
    assert ev.hand_values == (10, 3 + 11) and state.scores == (225, 0)
    assert state.result.winners == (0,) and state.result.goats == (1,)
    assert state.result.rating == (10, 0)
    assert "went_out" not in kinds(events) and kinds(events)[-1] == "match_ended"


def test_rule_2_the_limit_comes_before_the_out():
    """RULES.md §2.0.7: a last tile whose count reaches the limit ends the race as "limit",
    not as an out, so the out's points are not scored."""
    t = cross_table(R, ["3-4", "4-6 5-6"], lead="1-3", last=1)
    state, events = apply(match_at(R, t, scores=[220, 100]), 0, mv("3-4 right"))
    ev = scored(events)
    assert (ev.end, ev.by, ev.play_points, ev.recorded) == ("limit", 0, (5, 0), (0, 0))
    assert state.scores == (225, 100) and state.result.winners == (0,)


# -- rule 3: round end --------------------------------------------------------------------------
def test_rule_3_an_out_scores_the_other_hands_rounded_down_18_to_15():
    """RULES.md §2.4 rule 3, seed: 18 → 15 for the out side."""
    t = cross_table(R, ["2-5", "4-6 3-5"], lead="1-2", last=1)
    state, events = apply(match_at(R, t), 0, mv("2-5 right"), deal=False)
    ev = scored(events)
    assert (ev.end, ev.hand_values, ev.recorded) == ("out", (0, 18), (15, 0))
    assert state.scores == (15, 0) and state.remembered == (0, 0) and state.pot == 0


def test_rule_3_a_partners_hand_does_not_count():
    """RULES.md §2.4 rule 3 with teams: seat 0 goes out; seats 1 and 3 hold 10 + 8 = 18 → 15;
    the partner's 11 does not count."""
    rules = Rules(variant="telephone", teams=True)
    t = cross_table(rules, ["2-5", "4-6", "5-6", "3-5"], lead="1-2", last=3)
    state, _ = apply(match_at(rules, t), 0, mv("2-5 right"), deal=False)
    assert state.scores == (15, 0)


@pytest.mark.parametrize("hands,recorded", [
    (["4-5", "4-6 5-6"], (10, 0)),                 # 21 − 9 = 12 → 10
    (["4-5", "4-6 5-6", "0-4"], (0, 0, 25)),       # (9 + 21) − 4 = 26 → 25
    (["4-5", "0-4 0-5"], (0, 0)),                  # a tie for the lowest: nothing
])
def test_rule_3_a_fish_scores_the_others_minus_the_lowest_rounded_down(hands, recorded):
    """RULES.md §2.4 rule 3: a fish scores for the side with the strictly lowest hand the sum
    of the other sides' hands minus its own, rounded down to a multiple of 5; a tie scores
    nothing."""
    t = cross_table(R, ["2-3 " + hands[0]] + hands[1:], lead="1-2", last=len(hands) - 1)
    state, events = apply(match_at(R, t), 0, mv("2-3 right"), deal=False)
    ev = scored(events)
    assert (ev.end, ev.recorded, ev.play_points) == ("fish", recorded, (0,) * len(hands))
    assert state.scores == recorded


@pytest.mark.parametrize("hand,value", [("0-0", 0), ("0-0 5-5", 10)])
def test_rule_3_plain_pip_sums_zero_zero_is_zero(hand, value):
    """RULES.md §2.4 rule 3, §2.0.7: hand values are plain pip sums — a lone [0|0] is 0, not
    §1.11's 10."""
    t = cross_table(R, ["2-5", hand], lead="1-2", last=1)
    state, events = apply(match_at(R, t), 0, mv("2-5 right"), deal=False)
    assert scored(events).hand_values == (0, value) and state.scores == (value // 5 * 5, 0)


# -- the match: goat and rating -----------------------------------------------------------------
def test_goats_are_all_sides_with_the_fewest_points_rated_by_the_race_formula():
    """RULES.md §2.0.7: the round-end points reach 225: the winner; the two sides on 40 are
    goats; rating max(1, round_half_up((225 − 40) × 10 / 225)) = 8."""
    t = cross_table(R, ["2-5", "4-6 3-5", "5-6"], lead="1-2", last=2)
    state, _ = apply(match_at(R, t, scores=[200, 40, 40]), 0, mv("2-5 right"))
    assert state.scores == (225, 40, 40)
    assert state.result.winners == (0,) and state.result.goats == (1, 2)
    assert state.result.rating == (8, 0, 0)


def test_option_match_limit_and_the_rating_rounds_half_up():
    """RULES.md §2.4 option match_limit (default 225), §2.0.7: with 100, 95 + 15 wins;
    25 × 10 / 100 = 2.5 rates 3."""
    assert R.match_limit == 225
    rules = Rules(variant="telephone", match_limit=100)
    t = cross_table(rules, ["2-5", "4-6 3-5", "0-1"], lead="1-2", last=2)
    state, _ = apply(match_at(rules, t, scores=[95, 25, 0]), 0, mv("2-5 right"))
    assert state.scores == (110, 25, 0)
    assert state.result.goats == (2,) and state.result.rating == (11, 3, 0)


def test_a_timeout_rates_against_the_timed_out_side():
    """RULES.md §1.16–§1.17 in a race (see the module doc): the timed-out side gets 0, every
    other side max(1, round_half_up((score − S_t) × 10 / match_limit))."""
    rules = Rules(variant="telephone", afk_limit=1)
    t = cross_table(rules, ["1-2 0-1", "4-6", "3-5"], to_act=0)
    state, events = apply_host_move(match_at(rules, t, scores=[30, 100, 0]))
    assert state.result.reason == "timeout" and state.result.timed_out == 0
    assert state.result.rating == (0, 3, 1)


# -- options -------------------------------------------------------------------------------------
def test_fish_without_double_does_not_apply():
    """RULES.md §2.4 (fish_without_double not read), §2.0.5: every open end shows 5, the six
    non-doubles of 5 are down and [5|5] is in a hand: play goes on."""
    t = cross_table(R, ["5-6 0-2", "5-5 0-3"], lead="5-0",
                    plays=("0-1 right", "1-5 right", "5-2 right", "2-3 right", "3-5 right",
                           "5-4 right", "4-6 right"), last=1)
    t.apply(0, mv("5-6 right"))
    assert t.end is None and t.to_act == 1


def test_option_bazar_reserve_and_teams():
    """RULES.md §2.4 options: bazar_reserve (§1.4), teams (4 players, two sides)."""
    state, _ = new_match(Rules(variant="telephone", bazar_reserve=2), 2, 9)
    assert state.round.drawable == 12
    state, _ = new_match(Rules(variant="telephone", teams=True), 4, 9)
    assert state.scores == (0, 0) and state.round.sides == (0, 1, 0, 1)


@pytest.mark.parametrize("option,value", [
    ("open_threshold", 20), ("fish_scoring", "each_own"), ("fish_without_double", False),
    ("lone_zero_double_value", 25), ("deals", 8),
])
def test_options_telephone_does_not_read_are_refused(option, value):
    """RULES.md §2.4: options outside the section are refused unless at their §1 default; the
    timeouts of §1.17 are read."""
    with pytest.raises(ValueError, match="telephone"):
        Rules(variant="telephone", **{option: value})
    assert Rules(variant="telephone", fish_without_double=True) == R
    timed = Rules(variant="telephone", turn_timeout=30, afk_limit=3)     # §1.17 stays
    assert (timed.turn_timeout, timed.afk_limit) == (30, 3)


# -- records, replay, simulate ----------------------------------------------------------------
RECORD = one_round_record("telephone", [
    "0-0 5-5 0-4 2-3 2-6 3-5 6-6", "0-5 0-1 4-4 1-1 1-2 3-6 4-5"], [
    {"tile": "0-0"},                                    # count 0
    {"tile": "0-5", "end": "right"},                    # 0 + 5 = 5: Петя +5
    {"tile": "5-5", "end": "right"},                    # 0 + 10: Оля +10
    {"tile": "0-1", "end": "down"},                     # 0 + 10 + 1 = 11
    {"tile": "0-4", "end": "up"},                       # 0 + 10 + 4 + 1 = 15: Оля +15
    {"tiles": [{"tile": "1-1", "end": "down"},          # 0 + 10 + 8 + 2 = 20: Петя +20
               {"tile": "4-4", "end": "up"}]},
], scores=[190, 210])


def test_replay_a_round_with_up_down_and_several_doubles_ended_by_the_limit(tmp_path):
    """RULES.md §2.0.4, §2.0.6, §2.0.7 through ``python -m engine replay``: the counts of the
    record's comments give 25 each; Петя's 210 + 25 reaches 225 at the last move."""
    code, out = run_cli("replay", stdin_text=json.dumps(RECORD, ensure_ascii=False),
                        tmp_path=tmp_path)
    assert code == 0
    (rnd,) = out["rounds"]
    assert (rnd["end"], rnd["by"], rnd["play_points"]) == ("limit", 1, [25, 25])
    assert rnd["scores"] == [215, 235] and rnd["recorded"] == [0, 0]
    assert out["finished"] and out["winners"] == [1] and out["goats"] == [0]
    assert out["rating"] == [0, 1]


def test_simulate_shows_points_on_the_count_and_limit_ends():
    """``tools/simulate.py --variant telephone``: points on the count, several doubles
    and races won mid-round are counted."""
    code, out = run_cli("simulate", "--variant", "telephone", "--players", "2", "--matches",
                        "12", "--seed", "4", "--no-progress")
    assert code == 0
    assert out["special"]["scored"] > 0 and out["multi_tile_moves"] > 0
    assert out["round_ends"]["limit"] > 0


# -- properties of random play -------------------------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32),
       choices=st.randoms(use_true_random=False))
def test_points_on_the_count_are_the_count_and_sum_to_the_play_points(players, seed, choices):
    """RULES.md §2.4 rule 2: every score during play is the count after its move, a positive
    multiple of 5, and a round's play_points are their sums per side."""
    state, _ = new_match(R, players, seed)
    round_points = [0] * players
    while not state.finished:
        state, events = apply(state, state.to_act, choices.choice(legal_moves(state)),
                              deal=False)
        for e in events:
            if e.kind == "scored":
                assert e.points == e.count and e.points > 0 and e.points % 5 == 0
                round_points[e.side] += e.points
        if state.round.end is None:
            assert state.round.count == state.round.layout.count()
            continue
        assert list(scored(events).play_points) == round_points
        round_points = [0] * players
        if not state.finished:
            state = deal_next_round(state)
