"""Чечевэ / ЧЧВ (``chcv``, RULES.md §2.3): every numbered rule and option, on positions written
by hand (``tests.crosskit``), the seed's worked example, plus properties of random play."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules, apply, errors, legal_moves, new_match
from engine.records import ReplayError, replay
from engine.tiles import TILE_ID, Tile
from tests.crosskit import (
    cross_table,
    dealt,
    kinds,
    match_at,
    mv,
    random_record,
    run_cli,
    scored,
)

R = Rules(variant="chcv")


def specials(events):
    return [(e.rule, e.seat) for e in events if e.kind == "special"]


def out_by_seat_0(hands: list[str], rules: Rules = R, **start):
    """Seat 0 goes out with [2|5] on the lead [1|2] (seat 2 led); returns (state, events)."""
    t = cross_table(rules, ["2-5"] + hands, lead="1-2", last=len(hands))
    return apply(match_at(rules, t, **start), 0, mv("2-5 right"), deal=False)


def fish_by_seat_0(hands: list[str], rules: Rules = R, **start):
    """Seat 0 (holding [2|3] and ``hands[0]``) plays [2|3] on the lead [1|2]: the ends 1 and
    3 fit no tile in play, a fish by seat 0."""
    t = cross_table(rules, ["2-3 " + hands[0]] + hands[1:], lead="1-2", last=len(hands) - 1)
    return apply(match_at(rules, t, **start), 0, mv("2-3 right"), deal=False)


# -- rule 1: the deal ---------------------------------------------------------------------------
@pytest.mark.parametrize("players,size,bazar", [(2, 7, 14), (3, 7, 7), (4, 6, 4)])
def test_rule_1_seven_tiles_for_two_or_three_six_for_four(players, size, bazar):
    """RULES.md §2.3 rule 1: 7 tiles each for 2–3 players, 6 each for 4 (bazar 14, 7, 4)."""
    state, _ = new_match(R, players, 17)
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.bazar) == bazar


def test_rule_1_a_record_dealing_seven_to_four_players_is_refused():
    """RULES.md §2.3 rule 1: a record's deal must give 4 players 6 tiles each."""
    from engine.tiles import TILES
    hands = [[t.code() for t in TILES[i * 7:(i + 1) * 7]] for i in range(4)]
    with pytest.raises(ReplayError, match="§2.3"):
        replay({"rules": {"variant": "chcv"}, "players": list("abcd"),
                "rounds": [{"deal": {"hands": hands, "bazar": []}, "decisions": []}]})


# -- rule 2: the lead ---------------------------------------------------------------------------
def test_rule_2_the_first_lead_is_section_1_5():
    """RULES.md §2.3 rule 2: the holder of [1|1] leads it."""
    state = dealt(R, ["0-1 0-2 0-3 2-3 4-5 2-6 3-5", "1-2 1-3 1-4 2-4 0-5 4-6 5-6",
                      "1-1 0-4 0-6 1-5 2-5 3-6 4-4"])
    assert state.round.leader == 2 and state.round.lead_id == TILE_ID[Tile(1, 1)]


def test_rule_2_later_rounds_the_fisher_leads_any_tile():
    """RULES.md §2.3 rule 2 with §1.6: after a fish the fisher leads round 2, any tile."""
    t = cross_table(R, ["2-3 4-5", "4-6 5-6", "0-4"], lead="1-2", last=2)
    state, events = apply(match_at(R, t), 0, mv("2-3 right"))
    assert scored(events).end == "fish" and state.round_no == 2
    assert state.round.leader == 0 and state.round.lead_id == -1
    assert {m.tile for m in legal_moves(state)} == set(state.hand(0))


# -- moves: closing and several doubles ---------------------------------------------------------
def test_moves_a_double_may_be_closed_and_several_go_at_once_only_beside_a_spinner():
    """RULES.md §2.3: closing as §2.0.3; several doubles as §2.2 rule 2 — once a spinner
    exists, 2–4 at once, each face up or closed (C(4,k)·2^k moves of k doubles on four
    fitting ends)."""
    t = cross_table(R, ["5-5 6-6 1-1 2-2 0-4", "0-6 4-6"], lead="3-3",
                    plays=("3-5 left", "3-6 right", "3-1 up", "3-2 down"), last=1)
    assert Counter(len(m) for m in t.moves()) == {1: 8, 2: 24, 3: 32, 4: 16}


def test_moves_there_is_no_double_closure():
    """RULES.md §2.3: no double closure rule — before a spinner no two doubles go at once,
    closed or not."""
    t = cross_table(R, ["2-2 3-3 0-1", "4-6"], lead="2-3", last=1)
    assert all(len(m) == 1 for m in t.moves())
    assert mv("3-3 right closed") in t.moves()
    with pytest.raises(errors.MoveNotAllowed) as err:
        t.apply(0, mv("2-2 left closed", "3-3 right closed"))
    assert err.value.rule == "RULES.md §2.3"


# -- rule 3: round points ------------------------------------------------------------------------
def test_rule_3_the_seed_example_vasya_23_alyona_25():
    """RULES.md §2.3 rule 3, seed example: Petya goes out, Vasya holds 23, Alyona 25 →
    Alyona +48 (the sum of all hands), then §1.12: it opens her score."""
    state, events = out_by_seat_0(["5-6 4-5 0-3", "4-6 3-6 1-5"])
    ev = scored(events)
    assert ev.hand_values == (0, 23, 25) and ev.recorded == (0, 0, 48)
    assert state.scores == (0, 0, 48)


def test_rule_3_the_others_record_nothing_and_lose_their_remembered_points():
    """RULES.md §2.3 rule 3, §1.13 all_to_max: the strictly highest hand gets the total (with
    its remembered points on opening); every other player's remembered points are reset, the
    player who went out too."""
    state, _ = out_by_seat_0(["5-6 4-5 0-3", "4-6 3-6 1-5"], remembered=[4, 7, 5])
    assert state.scores == (0, 0, 48 + 5) and state.remembered == (0, 0, 0)


def test_rule_3_a_fish_goes_to_the_strictly_highest_hand():
    """RULES.md §2.3 rule 3: a fish is scored the same way (9, 21, 4 → 34 to the 21)."""
    state, events = fish_by_seat_0(["4-5", "4-6 5-6", "0-4"])
    assert (scored(events).end, scored(events).by) == ("fish", 0)
    assert state.scores == (0, 34, 0)


def test_rule_3_a_tie_for_the_highest_goes_to_the_pot_and_a_later_round_pays_it():
    """RULES.md §2.3 rule 3, §1.13: tied highest hands: nobody records or loses remembered
    points, the total goes to the pot; the next strictly highest round points take it."""
    state, _ = fish_by_seat_0(["4-5", "4-6", "0-4 0-6"], remembered=[1, 2, 3])
    assert state.pot == 9 + 10 + 10 and state.scores == (0, 0, 0)
    assert state.remembered == (1, 2, 3)
    state, events = out_by_seat_0(["5-6 4-5 0-3", "4-6 3-6 1-5"], pot=29)
    assert scored(events).pot_won == 29 and state.scores == (0, 0, 48 + 29)
    assert state.pot == 0


# -- rule 4: the specials ------------------------------------------------------------------------
def test_rule_4_going_out_with_zero_zero_makes_every_other_player_a_goat():
    """RULES.md §2.3 rule 4: out with [0|0] → every other player is a goat and the match ends,
    after rule 3's recording; rating §1.16."""
    t = cross_table(R, ["0-0", "4-6", "3-5"], lead="0-1", last=2)
    state, events = apply(match_at(R, t), 0, mv("0-0 left"))
    assert specials(events) == [("out_0-0", 0)]
    assert state.scores == (0, 18, 0)
    assert state.finished and state.result.goats == (1, 2)
    assert state.result.rating == (10, 0, 0)
    assert kinds(events)[-1] == "match_ended"


def out_with_six_six(rules: Rules = R, **start):
    t = cross_table(rules, ["6-6", "4-5", "0-3"], lead="1-6", last=2)
    return apply(match_at(rules, t, **start), 0, mv("6-6 right"), deal=False)


def test_rule_4_going_out_with_six_six_makes_every_other_player_record_fifty():
    """RULES.md §2.3 rule 4: out with [6|6] → every other player records 50 per §1.12, which
    opens: seat 1's 12 of rule 3 went to its remembered points (2 + 12) and joins on
    opening."""
    state, events = out_with_six_six(remembered=[0, 2, 5])
    assert specials(events) == [("out_6-6", 0)]
    assert scored(events).recorded == (0, 12 + 50, 50)
    assert state.scores == (0, 50 + 14, 50) and state.remembered == (0, 0, 0)
    assert not state.finished


def test_rule_4_the_fifties_are_a_second_section_1_12_step():
    """RULES.md §2.3 rule 4: each 50 is recorded as a §1.12 step of its own after rule 3:
    with open_threshold 60 neither 12 nor 50 opens (12 + 50 at once would)."""
    rules = Rules(variant="chcv", open_threshold=60)
    state, _ = out_with_six_six(rules, remembered=[0, 2, 5])
    assert state.scores == (0, 0, 0) and state.remembered == (0, 2 + 12 + 50, 50)


def test_rule_4_a_player_left_holding_zero_zero_is_a_goat_after_the_recording():
    """RULES.md §2.3 rule 4: a player still holding [0|0] at the round's end is a goat; the
    match ends after this round's recording ([0|0] beside other tiles counts 0, §1.11)."""
    state, events = out_by_seat_0(["0-0 4-6", "3-5"])
    assert specials(events) == [("held_0-0", 1)]
    assert scored(events).hand_values == (0, 10, 8)
    assert state.scores == (0, 18, 0)
    assert state.result.goats == (1,) and state.result.rating == (10, 0, 10)


def test_rule_4_a_player_left_holding_six_six_records_fifty_more():
    """RULES.md §2.3 rule 4: a player still holding [6|6] records 50 more, after rule 3."""
    state, events = out_by_seat_0(["6-6 0-4", "3-5"])
    assert specials(events) == [("held_6-6", 1)]
    assert state.scores == (0, 24 + 50, 0) and not state.finished


def test_rule_4_every_special_applies_even_when_an_earlier_one_ends_the_match():
    """RULES.md §2.3 rule 4: out with [0|0] and [6|6] in one move: the others are goats and
    still record their 50s."""
    t = cross_table(R, ["0-0 6-6", "4-5", "1-2"], lead="3-3", plays=("3-0 left", "3-6 right"),
                    last=2, events=[])
    state, events = apply(match_at(R, t), 0, mv("0-0 left", "6-6 right"))
    assert specials(events) == [("out_0-0", 0), ("out_6-6", 0)]
    assert state.scores == (0, 12 + 50, 50)
    assert state.result.goats == (1, 2)


def test_rule_4_one_player_left_holding_both_is_a_goat_and_records_fifty_more():
    """RULES.md §2.3 rule 4 after a fish: the holder of [0|0] and [6|6] gets rule 3's 38,
    then 50 more, and is the goat."""
    state, events = fish_by_seat_0(["2-4", "0-0 6-6 4-5", "5-6"])
    assert specials(events) == [("held_0-0", 1), ("held_6-6", 1)]
    assert state.scores == (0, 6 + 21 + 11 + 50, 0)
    assert state.result.goats == (1,)


def test_rule_4_the_replay_lists_the_specials_of_each_round():
    """RULES.md §2.3 rule 4: replay output per round ``specials`` in the rule's order."""
    state, events = out_by_seat_0(["0-0 6-6 4-5", "3-5"])
    assert scored(events).extra == {"specials": (
        {"rule": "held_0-0", "seat": 1}, {"rule": "held_6-6", "seat": 1})}


# -- rule 5: the match end -----------------------------------------------------------------------
def test_rule_5_an_open_score_at_the_limit_is_a_goat_beside_rule_4s():
    """RULES.md §2.3 rule 5: §1.15 (≥ match_limit) plus rule 4's goats, together."""
    state, _ = out_by_seat_0(["0-0 4-6", "6-6 3-5"], scores=[30, 0, 95])
    assert state.scores == (30, 0, 95 + 30 + 50)
    assert state.result.goats == (1, 2) and state.result.rating == (7, 0, 0)


def test_rule_5_no_goat_no_end():
    """RULES.md §2.3 rule 5: below the limit and no [0|0] special, the match goes on."""
    state, _ = out_by_seat_0(["4-6", "3-5"], scores=[0, 82, 0])
    assert state.scores == (0, 100, 0) and not state.finished


# -- options -------------------------------------------------------------------------------------
def test_option_match_limit():
    """RULES.md §2.3 options: match_limit 101 by default; 60 makes 74 a goat."""
    assert R.match_limit == 101
    rules = Rules(variant="chcv", match_limit=60)
    state, _ = out_by_seat_0(["6-6 0-4", "3-5"], rules)
    assert state.result.goats == (1,) and state.result.rating == (6, 0, 6)


def test_option_lone_zero_double_value_and_the_held_zero_zero():
    """RULES.md §2.3 options, §1.11: a hand of only [0|0] counts lone_zero_double_value; its
    holder is still a goat (rule 4)."""
    rules = Rules(variant="chcv", lone_zero_double_value=30)
    state, events = out_by_seat_0(["0-0", "3-5"], rules)
    assert scored(events).hand_values == (0, 30, 8) and state.scores == (0, 38, 0)
    assert state.result.goats == (1,)


@pytest.mark.parametrize("on", [True, False])
def test_option_fish_without_double(on):
    """RULES.md §2.3 options, §2.0.5 (b): every open end shows 5, the six non-doubles of 5 are
    down and [5|5] is in a hand: a fish with the option on, play goes on with it off."""
    rules = Rules(variant="chcv", fish_without_double=on)
    t = cross_table(rules, ["5-6 0-2", "5-5 0-3"], lead="5-0",
                    plays=("0-1 right", "1-5 right", "5-2 right", "2-3 right", "3-5 right",
                           "5-4 right", "4-6 right"), last=1)
    t.apply(0, mv("5-6 right"))
    assert (t.end, t.fish_cause) == (("fish", "no_double") if on else (None, None))


def test_option_bazar_reserve():
    """RULES.md §2.3 options, §1.4: bazar_reserve tiles of the bazar are never drawn."""
    state, _ = new_match(Rules(variant="chcv", bazar_reserve=1), 4, 2)
    assert len(state.bazar) == 4 and state.round.drawable == 3


@pytest.mark.parametrize("option,value", [
    ("fish_scoring", "each_own"), ("fish_scoring", "own_to_max"), ("teams", True),
    ("multi_doubles", True), ("deals", 8),
])
def test_options_chcv_does_not_read_are_refused(option, value):
    """RULES.md §2.3: fish_scoring is not read (rule 3 is always all_to_max), no teams; such
    options are refused unless at their §1 default; the timeouts of §1.17 are read."""
    with pytest.raises(ValueError, match="chcv"):
        Rules(variant="chcv", **{option: value})
    assert Rules(variant="chcv", fish_scoring="all_to_max", teams=False) == R
    timed = Rules(variant="chcv", turn_timeout=30, afk_limit=3)     # §1.17 stays
    assert (timed.turn_timeout, timed.afk_limit) == (30, 3)


# -- records, replay, simulate ----------------------------------------------------------------
def test_replay_reports_the_specials_of_random_matches(tmp_path):
    """RULES.md §2.3 rule 4 through ``python -m engine replay``: the replay of a record with
    several and closed doubles gives every round's scores and specials as played."""
    text, rounds, state = random_record(
        R, 3, lambda text: '"tiles"' in text and '"closed"' in text, seeds=range(500))
    code, out = run_cli("replay", stdin_text=text, tmp_path=tmp_path)
    assert code == 0 and out["goats"] == list(state.result.goats)
    assert [(r["scores"], r.get("specials")) for r in out["rounds"]] == [
        (list(e.scores), json.loads(json.dumps(e.extra["specials"])) if e.extra else None)
        for e in rounds]


def test_simulate_counts_each_special():
    """``tools/simulate.py --variant chcv`` counts how often each special fired."""
    code, out = run_cli("simulate", "--variant", "chcv", "--players", "3", "--matches", "40",
                        "--seed", "2", "--no-progress")
    assert code == 0
    assert {"held_0-0", "held_6-6", "out_0-0"} <= set(out["special"])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32),
       choices=st.randoms(use_true_random=False))
def test_a_round_ending_with_zero_zero_in_a_hand_ends_the_match(players, seed, choices):
    """RULES.md §2.3 rules 4–5: whenever a round ends with [0|0] in a hand, or with an out
    with [0|0], the match ends and the special's goats are goats."""
    state, _ = new_match(R, players, seed)
    zero = 1 << TILE_ID[Tile(0, 0)]
    while not state.finished:
        state, events = apply(state, state.to_act, choices.choice(legal_moves(state)))
        ev = next((e for e in events if e.kind == "round_scored"), None)
        if ev is None:
            continue
        holders = [s for s, h in enumerate(ev.hands) if Tile(0, 0) in h]
        out_zero = ev.end == "out" and bool(ev.layout.last_mask & zero)
        if holders or out_zero:
            assert state.finished
        for s in holders:
            assert s in state.result.goats
        if out_zero:
            assert set(state.result.goats) >= set(range(players)) - {ev.by}
