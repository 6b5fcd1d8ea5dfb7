"""Семёрка (``seven``), RULES.md §2.8."""

from __future__ import annotations

import copy
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Rules, Tile, apply, errors, legal_moves, new_match
from engine.events import Took
from engine.layout import Layout
from engine.moves import LEFT, RIGHT
from engine.records import ReplayError, replay
from engine.tiles import tiles_of
from engine.variants.seven import DrawTwo, SevenMatch
from tests.linekit import dealt, kinds, move, play, position, random_match

T = Tile.of
RULES = Rules(variant="seven")
# Ends 1 and 4: [4|6] on the right makes 1 + 6 = 7.
CHAIN = [(1, 3), (3, 4)]


def hand(state, seat):
    return tiles_of(state.round.hands[seat])


def scored_of(events):
    return [e for e in events if e.kind == "round_scored"][0]


# -- options and seats ---------------------------------------------------------------------
def test_options_and_their_defaults():
    """RULES.md §2.8 options: fish_without_double true, sticks 3; 2–4 players, no teams."""
    assert (RULES.fish_without_double, RULES.sticks, RULES.teams) == (True, 3, False)
    assert Rules(variant="seven", sticks=5).sticks == 5
    assert Rules(variant="seven", fish_without_double=False).fish_without_double is False
    for players in (2, 3, 4):
        new_match(RULES, players, 1)
    with pytest.raises(ValueError):
        new_match(RULES, 5, 1)


@pytest.mark.parametrize("option,value", [
    ("teams", True), ("bazar_reserve", 1), ("match_limit", 50), ("open_threshold", 20),
    ("fish_scoring", "each_own"), ("lone_zero_double_value", 0), ("deals", 8),
    ("losses", 2),
])
def test_options_it_does_not_read_are_refused(option, value):
    """RULES.md §2.8: no teams, no reserve, no scores; other options are refused unless at
    their §1 default."""
    with pytest.raises(ValueError, match=r"seven.*§2\.8"):
        Rules(variant="seven", **{option: value})
    assert Rules(variant="seven", teams=False, bazar_reserve=0).sticks == 3


# -- rule 1: the deal ----------------------------------------------------------------------
@pytest.mark.parametrize("players,size,market", [(2, 7, 14), (3, 7, 7), (4, 6, 4)])
def test_rule_1_deal(players, size, market):
    """RULES.md §2.8 rule 1: 7 each for 2–3 players, 6 each for 4; the market never starts
    empty."""
    for seed in range(5):
        state, _ = new_match(RULES, players, seed)
        assert state.hand_sizes() == (size,) * players and state.drawable == market


# -- rule 2: the lead ----------------------------------------------------------------------
def test_rule_2_round_1_per_section_1_5():
    """RULES.md §2.8 rule 2: round 1 per §1.5: [1|1] is in the market, so the holder of
    [2|2] leads it."""
    state = dealt(RULES, ["2-2 0-1 0-2 0-3 0-4 0-5 0-6", "3-3 1-2 1-3 1-4 1-5 1-6 2-3"])
    assert state.to_act == 0 and legal_moves(state) == (move("2-2"),)


def test_rule_2_later_rounds_the_winner_leads_any_tile():
    """RULES.md §2.8 rule 2: later rounds §1.6: seat 2 went out and leads round 2 with any
    tile."""
    state = position(RULES, ["0-0 5-5", "2-2", "1-2"], CHAIN, to_act=2)
    state, _ = play(state, "1-2 left", deal=True)
    assert state.round_no == 2 and state.to_act == 2
    assert len(legal_moves(state)) == 7


@pytest.mark.parametrize("fisher,leader", [(1, 2), (2, 0)])
def test_rule_2_if_that_player_has_left_the_next_remaining_seat_leads(fisher, leader):
    """RULES.md §2.8 rule 2: the fisher takes its third stick and leaves; the next remaining
    seat after it leads round 2, with any tile."""
    hands = ["0-2", "0-2", "0-2"]
    hands[fisher] = "4-6 3-3 5-5"
    hands[(fisher + 1) % 3] = "2-2"
    hands[(fisher + 2) % 3] = "0-2"
    sticks = [0, 0, 0]
    sticks[fisher] = 2
    # ends 1 and 6 once [4|6] is down: no hand or market tile fits, a fish by the fisher
    state = position(RULES, hands, CHAIN, to_act=fisher, sticks=sticks)
    state, events = play(state, "4-6 right", deal=True)
    assert "fish" in kinds(events) and state.own.departed == (fisher,)
    assert state.round_no == 2 and state.to_act == leader
    assert state.round.seats == tuple(s for s in range(3) if s != fisher)
    assert state.hand_sizes()[fisher] == 0 and len(legal_moves(state)) == 7


# -- rule 3: the end sum -------------------------------------------------------------------
def test_rule_3_end_sum_counts_a_double_at_an_end_twice():
    """RULES.md §2.8 rule 3: the two open ends; [1|1] = 2, …, [6|6] = 12 at an end."""
    lay = Layout.of_line([(3, 3), (3, 1)])
    assert lay.end_sum() == 6 + 1
    lay = Layout.of_line([(2, 6), (6, 6)])
    assert lay.end_sum() == 2 + 12
    assert (lay.ends[LEFT], lay.ends[RIGHT]) == (2, 6)


@pytest.mark.parametrize("lead", ["3-4", "3-3", "1-5"])
def test_rule_3_the_lead_is_not_checked(lead):
    """RULES.md §2.8 rule 3 "except the lead": a lead of [3|4] (7), [3|3] (6) or [1|5] (6)
    gives no draw and no extra move: the next seat is to act."""
    state = position(RULES, [f"{lead} 0-0", "4-5 1-3 3-6 5-6", "0-1"], [], to_act=0,
                     bazar="0-2 0-3")
    state, events = play(state, lead)
    assert kinds(events) == ["led"] and state.to_act == 1


# -- rule 4: sum 6 -------------------------------------------------------------------------
def test_rule_4_sum_six_moves_again_and_again():
    """RULES.md §2.8 rule 4: ends 0 and 5; [5|6] → 0 + 6 = 6: seat 0 again; [0|0] on the 0
    → 0 + 6 = 6: again; [2|6] → 0 + 2: the next seat."""
    state = position(RULES, ["5-6 0-0 2-6 1-1", "2-4", "4-4"], [(0, 3), (3, 5)], to_act=0)
    state, events = play(state, "5-6 right")
    assert kinds(events) == ["played", "again"] and state.to_act == 0
    state, events = play(state, "0-0 left")
    assert kinds(events) == ["played", "again"] and state.to_act == 0
    state, events = play(state, "2-6 right")
    assert kinds(events) == ["played"] and state.to_act == 1


def test_rule_4_the_player_again_with_nothing_to_play_draws_one():
    """RULES.md §2.8 rules 4 and 6: seat 0 makes 6 and moves again; it has nothing for the
    ends and draws one tile, which does not fit: the turn passes."""
    state = position(RULES, ["5-6 3-3", "2-6", "4-4"], [(0, 3), (3, 5)], to_act=0,
                     bazar="4-5 0-1")
    state, events = play(state, "5-6 right")
    assert kinds(events) == ["played", "again", "drew", "passed"] and state.to_act == 1
    assert hand(state, 0) == (T(3, 3), T(4, 5))


# -- rule 5: sum 7 -------------------------------------------------------------------------
def test_rule_5_sum_seven_the_next_player_draws_two_and_loses_the_turn():
    """RULES.md §2.8 rule 5: ends 1 and 4; [4|6] → 1 + 6 = 7: seat 1 draws [0|5] and [2|5]
    from the market and loses the turn; seat 2 is to act."""
    state = position(RULES, ["4-6 0-0 2-2", "5-5", "1-2"], CHAIN, to_act=0,
                     bazar="0-5 2-5 3-5")
    state, events = play(state, "4-6 right")
    assert kinds(events) == ["played", "draw_two", "drew", "drew"]
    assert events[1] == DrawTwo(1, 0, 2, 0)
    assert hand(state, 1) == (T(0, 5), T(2, 5), T(5, 5)) and state.drawable == 1
    assert state.to_act == 2


def test_rule_5_with_two_players_the_seven_maker_moves_next():
    """RULES.md §2.8 rule 5 with 2 players: the other player draws two and loses the turn,
    so the 7-maker moves again."""
    state = position(RULES, ["4-6 1-2 2-2", "5-5"], CHAIN, to_act=0, bazar="0-5 2-5")
    state, events = play(state, "4-6 right")
    assert kinds(events) == ["played", "draw_two", "drew", "drew"] and state.to_act == 0


def test_rule_5_market_short_the_rest_from_the_makers_hand():
    """RULES.md §2.8 rule 5: one tile in the market: seat 1 draws it and takes the record's
    [2|2] blindly from seat 0's hand (events draw_two, drew, took)."""
    state = position(RULES, ["4-6 0-0 2-2", "5-5", "1-2"], CHAIN, to_act=0, bazar="0-5")
    state, events = play(state, "4-6 right", take="2-2")
    assert kinds(events) == ["played", "draw_two", "drew", "took"]
    assert events[1] == DrawTwo(1, 0, 1, 1) and events[3] == Took(1, 0, (T(2, 2),))
    assert hand(state, 0) == (T(0, 0),)
    assert hand(state, 1) == (T(0, 5), T(2, 2), T(5, 5))


def test_rule_5_the_blind_take_is_seeded():
    """RULES.md §2.8 rule 5: without a record the take is picked from the match's seeded
    generator: the same seed and position take the same tile, every time."""
    got = set()
    for seed in range(12):
        picks = set()
        for _ in range(2):
            state = position(RULES, ["4-6 0-0 2-2 3-3", "5-5", "1-2"], CHAIN, to_act=0,
                             bazar="0-5", seed=seed)
            state, events = play(state, "4-6 right")
            took = [e for e in events if e.kind == "took"][0]
            picks.add(took.tiles)
            assert set(took.tiles) <= {T(0, 0), T(2, 2), T(3, 3)} and len(took.tiles) == 1
        assert len(picks) == 1
        got |= picks
    assert len(got) > 1  # the pick depends on the seed


def test_rule_5_and_7_a_take_that_empties_the_makers_hand_is_its_out():
    """RULES.md §2.8 rules 5 and 7: the market is empty and seat 0 holds two tiles after
    making 7: both go to seat 1 and seat 0 has gone out."""
    state = position(RULES, ["4-6 0-0 2-2", "5-5", "1-2"], CHAIN, to_act=0)
    state, events = play(state, "4-6 right")
    assert kinds(events)[:5] == ["played", "draw_two", "took", "went_out", "round_scored"]
    assert events[1] == DrawTwo(1, 0, 0, 2)
    scored = scored_of(events)
    assert scored.end == "out" and scored.by == 0
    assert scored.hand_values == (0, 30, 3) and scored.losers == (1,)


def test_rule_5_a_records_take_must_fit():
    """RULES.md §2.8 rule 5: a record's take must be as many tiles of the 7-maker's hand as
    the market lacks; where the hand leaves a choice a record must give one (take=[] is a
    record that gives none); and no take where none is called for."""
    state = position(RULES, ["4-6 0-0 2-2 1-5", "5-5", "1-2"], CHAIN, to_act=0,
                     bazar="0-5")
    for bad in (["5-5"], ["0-0", "2-2"], []):
        with pytest.raises(errors.IllegalMove, match="§2.8"):
            apply(state, 0, move("4-6 right"), take=[Tile.parse(t) for t in bad])
    with pytest.raises(errors.IllegalMove, match="do not call for"):
        apply(state, 0, move("1-5 left"), take=[T(2, 2)])  # 5 + 4 = 9: no take
    state, events = apply(state, 0, move("4-6 right"), take=[T(1, 5)])
    assert hand(state, 0) == (T(0, 0), T(2, 2))


def test_rule_5_a_forced_take_may_be_left_out_of_a_record():
    """RULES.md §2.8 rule 5: when the whole hand must go there is no choice, and a record
    that gives no take (take=[]) replays it."""
    state = position(RULES, ["4-6 0-0 2-2", "5-5", "1-2"], CHAIN, to_act=0)
    state, events = apply(state, 0, move("4-6 right"), take=[])
    assert [e for e in events if e.kind == "took"][0].tiles == (T(0, 0), T(2, 2))


def test_rule_5_records_write_and_need_their_takes():
    """RULES.md §2.8 rule 5: a recorded match writes each take as {"take": [...]} right
    after the move, and replays with them; without them the replay is refused where a take
    had a choice."""
    refused = 0
    for seed in range(12):
        record, state, events = random_match(RULES, 4, seed)
        takes = [e for e in events if isinstance(e, Took)]
        entries = [d for r in record["rounds"] for d in r["decisions"] if "take" in d]
        assert [e["take"] for e in entries] == [[t.code() for t in e.tiles] for e in takes]
        assert replay(record)["goats"] == list(state.result.goats)
        stripped = copy.deepcopy(record)
        for r in stripped["rounds"]:
            r["decisions"] = [d for d in r["decisions"] if "take" not in d]
        try:
            replay(stripped)
        except ReplayError as e:
            assert "must give" in str(e) and e.rule == "RULES.md §2.8"
            refused += 1
        else:  # every take was forced: the whole hand went, an out (rule 7)
            for i, e in enumerate(events):
                if isinstance(e, Took):
                    assert events[i + 1].kind == "went_out" and events[i + 1].seat == e.maker
    assert refused


# -- rule 6: stuck -------------------------------------------------------------------------
def test_rule_6_draw_one_only_and_pass():
    """RULES.md §2.8 rule 6: seat 1 has nothing for 1 and 0, draws [2|5] which does not fit
    and the turn passes (classic would draw on to [0|2])."""
    state = position(RULES, ["0-4 3-3", "5-5", "1-2"], CHAIN, to_act=0, bazar="2-5 0-2")
    state, events = play(state, "0-4 right")
    assert kinds(events) == ["played", "drew", "passed"] and state.to_act == 2
    assert hand(state, 1) == (T(2, 5), T(5, 5)) and state.drawable == 1


def test_rule_6_a_drawn_tile_that_fits_must_be_played():
    """RULES.md §2.8 rule 6: the drawn [0|2] fits the 0 end: seat 1 must play it (the only
    legal move)."""
    state = position(RULES, ["0-4 3-3", "5-5", "1-2"], CHAIN, to_act=0, bazar="0-2 2-5")
    state, events = play(state, "0-4 right")
    assert kinds(events) == ["played", "drew"] and state.to_act == 1
    assert legal_moves(state) == (move("0-2 right"),)


def test_rule_6_empty_market_knock():
    """RULES.md §2.8 rule 6: with an empty market the player knocks."""
    state = position(RULES, ["0-4 3-3", "5-5", "1-2"], CHAIN, to_act=0)
    state, events = play(state, "0-4 right")
    assert kinds(events) == ["played", "knocked"] and state.to_act == 2


# -- rule 7: the round end -----------------------------------------------------------------
def test_rule_7_out_before_the_end_sum():
    """RULES.md §2.8 rule 7: going out on a sum of 6 (1 + 5) ends the round: no extra move."""
    state = position(RULES, ["4-5", "5-5", "1-2"], CHAIN, to_act=0)
    state, events = play(state, "4-5 right")
    assert kinds(events)[:3] == ["played", "went_out", "round_scored"]


def test_rule_7_fish_before_the_end_sum_and_all_tied_lose():
    """RULES.md §2.8 rule 7: [4|6] blocks the line on a sum of 7: a fish, no draw; hands
    [0|0], [5|5], [2|2] are 10 each (doubles 10): all three are losers and get a stick."""
    state = position(RULES, ["4-6 0-0", "5-5", "2-2"], CHAIN, to_act=0, bazar="0-3")
    state, events = play(state, "4-6 right")
    assert kinds(events)[:3] == ["played", "fish", "round_scored"]
    scored = scored_of(events)
    assert scored.hand_values == (10, 10, 10) and scored.losers == (0, 1, 2)
    assert [(e.seat, e.sticks) for e in events if e.kind == "stick"] == [(0, 1), (1, 1), (2, 1)]
    assert state.own.sticks == (1, 1, 1)


NO_DOUBLE_CHAIN = [(6, 0), (0, 1), (1, 6), (6, 2), (2, 3), (3, 6), (6, 4), (4, 5)]


def test_option_fish_without_double():
    """RULES.md §2.8 rule 7 with §2.0.5 (b), option fish_without_double (default true): both
    ends 6, the six non-doubles of 6 down, [6|6] in a hand: fish; with the option off, no
    fish and [6|6] is played."""
    hands = ["5-6 0-2", "6-6 0-3", "1-2"]
    state, events = play(position(RULES, hands, NO_DOUBLE_CHAIN, to_act=0), "5-6 right")
    assert "fish" in kinds(events)
    off = Rules(variant="seven", fish_without_double=False)
    state, events = play(position(off, hands, NO_DOUBLE_CHAIN, to_act=0), "5-6 right")
    assert state.round.end is None and legal_moves(state) == (move("6-6 right"),)


@pytest.mark.parametrize("hands,values,losers", [
    (["1-2", "1-1 0-0", "5-6 3-4"], (0, 20, 18), (1,)),   # doubles 10: 20 beats plain 18
    (["1-2", "6-6", "5-6"], (0, 10, 11), (2,)),           # [6|6] is 10 too, not 12
    (["1-2", "2-3 0-4", "4-5"], (0, 9, 9), (1, 2)),       # all tied lose
])
def test_rule_7_losers_most_pips_doubles_ten(hands, values, losers):
    """RULES.md §2.8 rule 7: the loser holds the most pips, every double counting 10
    ([6|6] too); all tied are losers; each gets a stick."""
    state = position(RULES, hands, CHAIN, to_act=0)
    state, events = play(state, "1-2 left")
    scored = scored_of(events)
    assert scored.end == "out" and scored.hand_values == values and scored.losers == losers
    assert scored.recorded == (0, 0, 0) and state.scores == (0, 0, 0)
    assert state.own.sticks == tuple(int(s in losers) for s in range(3))
    assert scored.extra == {"sticks": state.own.sticks, "left": ()}


# -- rule 8: the match ---------------------------------------------------------------------
def test_rule_8_option_sticks_leave_and_later_deals_keep_the_hand_size():
    """RULES.md §2.8 rule 8, option sticks 1: the loser leaves at once (left_match); the
    next round deals 6 tiles to each of the 3 remaining players of a 4-player match (10 in
    the market) and none to the seat that left."""
    rules = Rules(variant="seven", sticks=1)
    state = position(rules, ["1-2", "6-6 5-5", "0-1", "0-2"], CHAIN, to_act=0)
    state, events = play(state, "1-2 left", deal=True)
    assert [e.kind for e in events if e.kind in ("stick", "left_match")] == [
        "stick", "left_match"]
    assert state.own.departed == (1,) and not state.finished
    assert state.hand_sizes() == (6, 0, 6, 6) and state.drawable == 10
    assert state.round.seats == (0, 2, 3)


def test_rule_8_three_sticks_by_default():
    """RULES.md §2.8 rule 8: with sticks 3 a second stick keeps the player in; the third
    sends it out."""
    state = position(RULES, ["1-2", "6-6 5-5", "0-1"], CHAIN, to_act=0, sticks=[0, 1, 0])
    state, _ = play(state, "1-2 left", deal=True)
    assert state.own.sticks == (0, 2, 0) and state.own.departed == ()
    state = position(RULES, ["1-2", "6-6 5-5", "0-1"], CHAIN, to_act=0, sticks=[0, 2, 0])
    state, _ = play(state, "1-2 left", deal=True)
    assert state.own.sticks == (0, 3, 0) and state.own.departed == (1,)


def test_rule_8_leaving_together_the_last_player_wins():
    """RULES.md §2.8 rule 8: seats 0 and 1 take their third sticks in the same round and
    leave together: both are goats; seat 2 remains and wins with players − 1 = 2."""
    state = position(RULES, ["0-4 3-3", "5-6 0-3", "1-2"], CHAIN, to_act=2,
                     sticks=[2, 2, 0])
    state, events = play(state, "1-2 left", deal=True)
    assert state.finished and state.own.departed == (0, 1)
    assert state.result.goats == (0, 1) and state.result.winners == (2,)
    assert state.result.rating == (0, 0, 2)
    ended = [e for e in events if e.kind == "match_ended"][0]
    assert ended.winners == (2,) and ended.goats == (0, 1)


def test_rule_8_nobody_remains_no_winner():
    """RULES.md §2.8 rule 8: both players leave in the same round (tied hands): no winner;
    both are goats."""
    state = position(RULES, ["4-6 2-3", "0-5"], CHAIN, to_act=0, sticks=[2, 2])
    state, events = play(state, "4-6 right")  # ends 1 and 6: a fish, hands 5 and 5
    assert state.finished and state.result.winners == () and state.result.goats == (0, 1)
    assert state.result.rating == (0, 0)


def test_rule_8_rating_counts_the_players_who_left_earlier():
    """RULES.md §2.8 rule 8: seat 3 left first (rating 0); seats 0 and 2 leave together
    next (1 each); seat 1 wins with players − 1 = 3."""
    state = position(RULES, ["4-4 0-5", "1-2", "5-6 0-4", ""], CHAIN, to_act=1,
                     seats=(0, 1, 2), own=SevenMatch((2, 0, 2, 3), (3,), ((3,),)))
    state, _ = play(state, "1-2 left", deal=True)
    assert state.finished and state.own.departed == (3, 0, 2)
    assert state.result.goats == (3,) and state.result.winners == (1,)
    assert state.result.rating == (1, 3, 1, 0)


# -- records and replay --------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_reports_sticks_leaving_and_winners(players):
    """RULES.md §2.8 rules 7–8 in the replay output: per round losers, sticks, left; at the
    top sticks, departed, winners, goats and the rating of rule 8."""
    record, state, events = random_match(RULES, players, 20 + players)
    out = replay(record)
    scored = [e for e in events if e.kind == "round_scored"]
    assert [r["losers"] for r in out["rounds"]] == [list(e.losers) for e in scored]
    assert out["rounds"][-1]["sticks"] == out["sticks"] == list(state.own.sticks)
    assert [s for r in out["rounds"] for s in r["left"]] == out["departed"]
    assert out["departed"] == list(state.own.departed)
    assert out["winners"] == list(state.result.winners)
    left_in = defaultdict(list)
    for i, r in enumerate(out["rounds"]):
        for s in r["left"]:
            left_in[i].append(s)
    first = min(left_in)
    assert out["goats"] == left_in[first]
    earlier = 0
    for i in sorted(left_in):
        for s in left_in[i]:
            assert out["rating"][s] == earlier
        earlier += len(left_in[i])
    for s in out["winners"]:
        assert out["rating"][s] == players - 1


def test_replay_checks_deals_to_the_remaining_seats():
    """RULES.md §2.8 rule 8: a record's deal after a player left gives that seat no tiles."""
    for seed in range(30):
        record, state, _ = random_match(RULES, 3, seed)
        rounds = replay(record)["rounds"]
        later = [i for i, r in enumerate(rounds) if r["left"]]
        if later and later[0] + 1 < len(rounds):
            break
    nxt = record["rounds"][later[0] + 1]["deal"]
    gone = rounds[later[0]]["left"][0]
    assert nxt["hands"][gone] == []
    bad = copy.deepcopy(record)
    bad_deal = bad["rounds"][later[0] + 1]["deal"]
    bad_deal["hands"][gone] = [bad_deal["bazar"].pop()]
    with pytest.raises(ReplayError, match="§2.8"):
        replay(bad)


# -- properties of random matches ---------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_property_again_draw_two_and_departed_seats(seed, players):
    """RULES.md §2.8 rules 4, 5 and 8 on random matches: after ``again`` the same seat acts
    next (plays, draws its one tile or knocks); after ``draw_two`` the drawer gets exactly its
    drawn and taken tiles — two, unless the take emptied the 7-maker's hand (its out) — and
    does not act next; a seat that has left never acts and is dealt nothing."""
    _, state, events = random_match(RULES, players, seed)
    gone: set[int] = set()
    for i, e in enumerate(events):
        if e.kind == "again":
            nxt = events[i + 1]
            assert nxt.kind in ("played", "drew", "knocked") and nxt.seat == e.seat
        elif e.kind == "draw_two":
            drew = [x for x in events[i + 1:i + 1 + e.drawn] if x.kind == "drew"]
            assert len(drew) == e.drawn and all(x.seat == e.seat for x in drew)
            rest = events[i + 1 + e.drawn:]
            if e.taken:
                assert rest[0].kind == "took" and len(rest[0].tiles) == e.taken
                rest = rest[1:]
            if e.drawn + e.taken < 2:
                assert rest[0].kind == "went_out" and rest[0].seat == e.maker
            else:
                nxt = next((x for x in rest if x.kind in ("played", "drew", "knocked",
                                                          "round_scored")), None)
                assert nxt is None or nxt.kind == "round_scored" or nxt.seat != e.seat
        elif e.kind == "left_match":
            gone.add(e.seat)
        elif e.kind in ("played", "led", "drew", "knocked", "passed"):
            assert e.seat not in gone
    assert gone == set(state.own.departed) and len(state.own.departed) >= players - 1
