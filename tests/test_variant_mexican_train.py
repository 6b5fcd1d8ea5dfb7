"""Мексиканский поезд (``mexican_train``), RULES.md §2.11 (and the sets of §2.10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Move,
    Rules,
    Tile,
    apply,
    apply_host_move,
    errors,
    host_move,
    legal_moves,
    new_match,
)
from engine.records import ReplayError, record_match, replay
from engine.tiles import DOUBLE_ID, TILE_ID, set_mask, set_size, tiles_of
from engine.variants.mexican_train import DEAL, MexicanTrain, engine_of
from tests.trainkit import RULES, mask, position

T = Tile.of


def mv(text: str, train=None) -> Move:
    """``mv("12-5", 0)``: the tile on seat 0's train; ``mv("5-9", "mexican")``."""
    return Move(Tile.parse(text, 12), train=train)


def play(state, *steps):
    """Apply ``(tile, train)`` steps for the seat to act; returns (state, all events)."""
    events = []
    for step in steps:
        state, evs = apply(state, state.to_act, mv(*step), deal=False)
        events += evs
    return state, events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def hand(state, seat) -> set[Tile]:
    return set(tiles_of(state.round.hands[seat]))


def trains_of(moves) -> set:
    return {(m.tile, m.train) for m in moves}


# -- §2.10 the set and the options ---------------------------------------------------------
def test_options_and_their_defaults():
    """RULES.md §2.11: set 12 (or 9), double_blank_value 0 (25, 50), the timeouts; §2.10.2."""
    assert (RULES.set, RULES.double_blank_value, RULES.turn_timeout, RULES.afk_limit) == \
        (12, 0, 60, 2)
    assert Rules(variant="mexican_train", set=9).set == 9
    for value in (0, 25, 50):
        assert Rules(variant="mexican_train", double_blank_value=value).double_blank_value \
            == value
    with pytest.raises(ValueError, match="mexican_train.*set 9 or 12"):
        Rules(variant="mexican_train", set=6)
    with pytest.raises(ValueError):
        Rules(variant="mexican_train", double_blank_value=10)
    assert RULES.to_json() == {"variant": "mexican_train", "set": 12, "double_blank_value": 0,
                               "turn_timeout": 60, "afk_limit": 2}


@pytest.mark.parametrize("option,value", [
    ("teams", True), ("bazar_reserve", 1), ("match_limit", 50), ("open_threshold", 20),
    ("fish_scoring", "each_own"), ("fish_without_double", False),
    ("lone_zero_double_value", 0), ("deals", 8),
])
def test_options_it_does_not_read_are_refused(option, value):
    """RULES.md §2.11 "Not read": teams, bazar_reserve, match_limit, open_threshold,
    fish_scoring, fish_without_double, lone_zero_double_value (refused unless at §1's
    default, naming the variant)."""
    with pytest.raises(ValueError, match=r"mexican_train.*§2\.11"):
        Rules(variant="mexican_train", **{option: value})
    assert Rules(variant="mexican_train", teams=False, bazar_reserve=0).set == 12


def test_seats_2_to_8_and_set_9_only_with_2_to_4():
    """RULES.md §2.10.0, §2.11: 2–8 players; rule 2: set 9 with 5–8 players is refused."""
    for n in range(2, 9):
        new_match(RULES, n, 1)
    nine = Rules(variant="mexican_train", set=9)
    for n in (2, 3, 4):
        new_match(nine, n, 1)
    for n in (5, 6, 7, 8):
        with pytest.raises(ValueError, match=r"2 to 4 players with the double-9 set"):
            new_match(nine, n, 1)
    for n in (1, 9):
        with pytest.raises(ValueError):
            new_match(RULES, n, 1)


# -- rule 1: rounds and engines ------------------------------------------------------------
@pytest.mark.parametrize("top,rounds", [(12, 13), (9, 10)])
def test_rule_1_rounds_and_descending_engines(top, rounds):
    """RULES.md §2.11 rule 1: N+1 rounds; round r uses the engine [N+1−r|N+1−r]: [12|12] in
    round 1, [11|11] in round 2, …, [0|0] in the last."""
    rules = Rules(variant="mexican_train", set=top)
    assert MexicanTrain().fixed_rounds(rules) == rounds
    assert [engine_of(top, r) for r in (1, 2, rounds)] == [top, top - 1, 0]
    state, _ = new_match(rules, 2, 5)
    engines = []
    rng = random.Random(1)
    while not state.finished:
        if not engines or engines[-1][0] != state.round_no:
            engines.append((state.round_no, state.round.layout.engine))
        state, _ = apply(state, state.to_act, rng.choice(legal_moves(state)))
    assert engines == [(r, top + 1 - r) for r in range(1, rounds + 1)]


# -- rule 2: setting up a round ------------------------------------------------------------
@pytest.mark.parametrize("top,players", [(12, n) for n in range(2, 9)] +
                         [(9, n) for n in (2, 3, 4)])
def test_rule_2_the_deal_table(top, players):
    """RULES.md §2.11 rule 2: the engine is set aside, the rest dealt by the table (set 12:
    15/15/15/12/12/10/10 tiles, bazar 60/45/30/30/18/20/10; set 9: 12/11/10, bazar
    30/21/14); nobody ever draws for the engine."""
    want = {(12, 2): (15, 60), (12, 3): (15, 45), (12, 4): (15, 30), (12, 5): (12, 30),
            (12, 6): (12, 18), (12, 7): (10, 20), (12, 8): (10, 10), (9, 2): (12, 30),
            (9, 3): (11, 21), (9, 4): (10, 14)}[top, players]
    assert (DEAL[top][players], set_size(top) - 1 - players * DEAL[top][players]) == want
    rules = Rules(variant="mexican_train", set=top)
    for seed in range(3):
        state, events = new_match(rules, players, seed)
        memo = state.round.memo  # the deal as dealt, before any draw of the starter
        assert all(h.bit_count() == want[0] for h in memo.hands)
        assert len(memo.bazar) == want[1]
        engine_bit = 1 << DOUBLE_ID[top]
        everything = engine_bit
        for h in memo.hands:
            everything |= h
        for i in memo.bazar:
            everything |= 1 << i
        assert everything == set_mask(top)
        assert state.round.layout.mask == engine_bit and state.round.layout.engine == top
        assert events[0].kind == "dealt"


# -- rule 3: who starts --------------------------------------------------------------------
def test_rule_3_round_r_is_started_by_seat_r_minus_1_mod_n():
    """RULES.md §2.11 rule 3: round 1 by the first seat, then each round the next seat;
    laying out the engine is not a turn (no event places it)."""
    rules = Rules(variant="mexican_train", set=9)
    state, events = new_match(rules, 3, 11)
    starters = []
    rng = random.Random(3)
    while True:
        for k, e in enumerate(events):
            if e.kind == "dealt":
                starters.append(e.leader)
                assert not [x for x in events[k:] if x.kind == "played"]
        if state.finished:
            break
        state, events = apply(state, state.to_act, rng.choice(legal_moves(state)))
    assert starters == [(r - 1) % 3 for r in range(1, 11)]


# -- rule 4: trains ------------------------------------------------------------------------
def test_rule_4_a_train_starts_at_the_engine_and_has_one_open_end():
    """RULES.md §2.11 rule 4: an empty train shows e; the first tile shows e and lies with e
    towards the engine; then its far half is the open end."""
    state = position(["12-5 3-4", "1-2"])
    assert trains_of(legal_moves(state)) == {(T(5, 12, 12), 0), (T(5, 12, 12), "mexican")}
    state, events = play(state, ("12-5", 0))
    lay = state.round.layout
    assert lay.trains[0] == ((12, 5),) and lay.ends[0] == 5 and lay.mexican_end == 12
    assert events[0].kind == "played" and events[0].train == 0 and events[0].end is None


def test_rule_4_the_orientation_is_always_determined():
    """RULES.md §2.11 rule 4: [3|5] on a train ending in 5 lies (5, 3)."""
    state = position(["5-3 1-1", "1-2"], trains={0: "12-5"})
    state, _ = play(state, ("3-5", 0))
    assert state.round.layout.trains[0] == ((12, 5), (5, 3))


# -- rules 5–6: private and public trains, available trains -------------------------------
def test_rules_5_6_another_seats_private_train_is_not_available():
    """RULES.md §2.11 rules 5–6: a personal train starts private; only its owner may play
    on it; the Mexican train is public from the first turn."""
    state = position(["12-5 1-2", "12-7 12-3"], to_act=1)
    assert trains_of(legal_moves(state)) == {(T(7, 12, 12), 1), (T(7, 12, 12), "mexican"),
                                            (T(3, 12, 12), 1), (T(3, 12, 12), "mexican")}
    with pytest.raises(errors.MoveNotAllowed, match="private"):
        apply(state, 1, mv("12-7", 0))


def test_rule_5_a_marked_train_is_public_and_its_owner_unmarks_it():
    """RULES.md §2.11 rule 5: a marked train is public, even while empty (anyone with a tile
    showing e may start it); it becomes private as soon as its owner places on it."""
    state = position(["12-3 5-6 12-4", "3-6 3-1"], public=(1,))
    assert (T(3, 12, 12), 1) in trains_of(legal_moves(state))
    state, _ = play(state, ("12-3", 1))
    assert state.round.layout.public == (False, True)
    state, events = play(state, ("3-6", 1))
    assert kinds(events)[:2] == ["played", "unmarked"]
    assert state.round.layout.public == (False, False)


def test_rule_6_available_trains():
    """RULES.md §2.11 rule 6: own, the Mexican train and every public train of another
    seat, in seat order."""
    state = position(["1-2", "1-3", "1-4", "1-5"], public=(0, 2))
    lay = state.round.layout
    assert lay.available(1) == (0, 1, 2, "mexican")
    assert lay.available(3) == (0, 2, 3, "mexican")


# -- rule 7: doubles -----------------------------------------------------------------------
def test_rule_7a_an_open_double_allows_only_its_tiles_even_on_a_private_train():
    """RULES.md §2.11 rule 7 (a): while [5|5] on seat 0's private train is open, seat 1 may
    only place a 5 on it; that does not make the train public."""
    state = position(["1-2 9-3", "5-9 12-7 5-1"], to_act=1, trains={0: "12-5 5-5"},
                     open_doubles=(0,))
    assert trains_of(legal_moves(state)) == {(T(5, 9, 12), 0), (T(1, 5, 12), 0)}
    with pytest.raises(errors.MoveNotAllowed, match="open"):
        apply(state, 1, mv("12-7", "mexican"))
    state, _ = play(state, ("5-9", 0))
    lay = state.round.layout
    assert lay.open_doubles == () and lay.public == (False, False) and lay.ends[0] == 9


def test_rule_7_the_several_doubles_example():
    """RULES.md §2.11 rule 7, the example: Ann's train ends in 9, mexican in 4; she holds
    [9|9], [4|4], [9|1]: [9|9] on 0, then [4|4] on mexican (b), then she must place on
    [9|9] first: [9|1]; the turn passes with [4|4] open and the next player must place on
    it."""
    state = position(["9-9 4-4 9-1 4-7", "4-2 12-3 2-5"], trains={0: "12-9",
                                                                "mexican": "12-4"})
    state, _ = play(state, ("9-9", 0))
    assert state.to_act == 0
    # (a) tiles on [9|9]; (b) another double on an available train showing its number
    assert trains_of(legal_moves(state)) == {(T(1, 9, 12), 0), (T(4, 4, 12), "mexican")}
    state, _ = play(state, ("4-4", "mexican"))
    assert state.round.layout.open_doubles == (0, "mexican")
    # satisfied strictly in order: [4|7] may not go on [4|4] before [9|9] is satisfied
    assert trains_of(legal_moves(state)) == {(T(1, 9, 12), 0)}
    state, _ = play(state, ("9-1", 0))
    assert state.to_act == 1 and state.round.layout.open_doubles == ("mexican",)
    assert trains_of(legal_moves(state)) == {(T(2, 4, 12), "mexican")}


def test_rule_7b_needs_the_players_latest_placement_this_turn_to_be_a_double():
    """RULES.md §2.11 rule 7 (b): another player facing an open double may not add a double
    of their own."""
    state = position(["1-2", "7-7 5-3"], to_act=1, trains={0: "12-5 5-5", "mexican": "12-7"},
                     open_doubles=(0,))
    assert legal_moves(state) == (mv("3-5", 0),)


# -- rule 8: the turn ----------------------------------------------------------------------
def test_rule_8_a_double_places_again_and_a_non_double_passes_the_turn():
    """RULES.md §2.11 rule 8 (a)."""
    state = position(["12-6 6-6 6-2 1-1", "12-2"])
    state, _ = play(state, ("12-6", 0))
    assert state.to_act == 1
    state = position(["6-6 6-2 1-1", "12-2"], trains={0: "12-6"})
    state, _ = play(state, ("6-6", 0))
    assert state.to_act == 0 and state.round.phase == 1
    state, _ = play(state, ("6-2", 0))
    assert state.to_act == 1 and state.round.phase == 0


def test_rule_8b_a_drawn_tile_that_fits_must_be_placed():
    """RULES.md §2.11 rule 8 (b): no legal placement: one tile is drawn; it fits, so the
    player must place it (the only legal tile), their choice of train."""
    # seat 1 places; seat 0 has nothing for any train and draws [9|12]
    state = position(["3-4", "12-6 5-1"], "12-9 0-1", to_act=1)
    state, events = play(state, ("12-6", 1))
    assert kinds(events) == ["played", "drew"]
    assert state.to_act == 0 and hand(state, 0) == {T(3, 4), T(9, 12, 12)}
    assert trains_of(legal_moves(state)) == {(T(9, 12, 12), 0), (T(9, 12, 12), "mexican")}
    assert state.drawable == 1


def test_rule_8b_a_drawn_tile_that_does_not_fit_is_kept_and_the_train_marked():
    """RULES.md §2.11 rule 8 (b): draw one; it does not fit: the player marks their own
    train and the turn passes; the tile stays in the hand.  Only one tile is drawn."""
    state = position(["3-4", "12-6 5-1 6-1"], "0-1 12-9", to_act=1)
    state, events = play(state, ("12-6", 1))
    assert kinds(events) == ["played", "drew", "passed", "marked"]
    assert state.to_act == 1 and hand(state, 0) == {T(3, 4), T(0, 1)}
    assert state.round.layout.public == (True, False) and state.drawable == 1


def test_rule_8c_an_empty_bazar_is_a_knock_and_a_mark():
    """RULES.md §2.11 rule 8 (c): no legal placement and no bazar: knock, mark, pass."""
    state = position(["3-4", "12-6 6-1", "1-3"], "", to_act=1)
    state, events = play(state, ("12-6", 1))
    assert kinds(events) == ["played", "knocked", "marked", "knocked", "marked"]
    assert [e.seat for e in events] == [1, 2, 2, 0, 0]
    assert state.to_act == 1 and state.round.layout.public == (True, False, True)


def test_rule_8_an_unsatisfied_double_ends_the_turn_with_a_mark():
    """RULES.md §2.11 rule 8: after a double the player places again; with nothing to place
    and a drawn tile that does not fit either, they mark and the turn passes with the double
    open."""
    state = position(["6-6 1-2", "6-3"], "0-1", trains={0: "12-6"})
    state, events = play(state, ("6-6", 0))
    assert kinds(events) == ["played", "drew", "passed", "marked"]
    assert state.to_act == 1 and state.round.layout.open_doubles == (0,)
    assert legal_moves(state) == (mv("3-6", 0),)


# -- rule 9: the first turn ----------------------------------------------------------------
def test_rule_9_one_placement_on_the_first_turn_and_the_mexican_train_may_be_started():
    """RULES.md §2.11 rule 9: no special first turn: one placement and the turn passes (the
    several-tiles first turn is not built); the Mexican train may be started at once."""
    state = position(["12-5 5-1 1-3", "12-3"])
    assert (T(5, 12, 12), "mexican") in trains_of(legal_moves(state))
    state, _ = play(state, ("12-5", "mexican"))
    assert state.to_act == 1


# -- rule 10: the round end ----------------------------------------------------------------
def test_rule_10a_going_out_ends_the_round_at_once_even_on_an_open_double():
    """RULES.md §2.11 rule 10 (a): the last tile is a double: out, at once."""
    state = position(["6-6", "1-2 3-4"], trains={0: "12-6"})
    state, events = apply(state, 0, mv("6-6", 0), deal=False)
    assert kinds(events)[:3] == ["played", "went_out", "round_scored"]
    assert events[2].end == "out" and events[2].by == 0


def test_rule_10b_blocked_when_the_bazar_is_empty_and_no_hand_fits():
    """RULES.md §2.11 rule 10 (b): checked as the turn passes: the bazar is empty and nobody
    holds a tile for any train: a fish at once, whose seat is the last placer."""
    state = position(["12-6 1-2", "3-4"], "")
    state, events = apply(state, 0, mv("12-6", 0), deal=False)
    assert kinds(events) == ["played", "fish", "round_scored"]
    scored = events[-1]
    assert (scored.end, scored.by) == ("fish", 0)
    assert scored.extra == {"trains_public": ()}
    # checked each time the turn passes: after seat 1's knock [12|4] still fits; once it
    # is down nothing does
    state = position(["12-6 12-4 1-2", "3-5"], "")
    state, events = apply(state, 0, mv("12-6", 0), deal=False)
    assert kinds(events) == ["played", "knocked", "marked"] and state.to_act == 0
    state, events = apply(state, 0, mv("12-4", "mexican"), deal=False)
    assert kinds(events) == ["played", "fish", "round_scored"]
    assert events[-1].by == 0 and events[-1].extra == {"trains_public": (1,)}


def test_rule_10b_not_blocked_while_the_bazar_holds_tiles():
    """RULES.md §2.11 rule 10 (b) needs the bazar empty: the others draw one tile a turn."""
    state = position(["12-6 1-2", "3-4"], "2-3")
    state, events = apply(state, 0, mv("12-6", 0), deal=False)
    assert kinds(events) == ["played", "drew", "passed", "marked", "fish", "round_scored"]


def test_rule_10b_an_open_double_blocks_when_no_hand_shows_its_number():
    """RULES.md §2.11 rule 10 (b): with [6|6] open, a tile for another train does not
    count."""
    state = position(["6-6 12-1", "12-3"], "", trains={0: "12-6"})
    state, events = apply(state, 0, mv("6-6", 0), deal=False)
    assert "fish" in kinds(events)


# -- rule 11: scoring ----------------------------------------------------------------------
@pytest.mark.parametrize("blank,value", [(0, 4), (25, 29), (50, 54)])
def test_rule_11_hand_values_and_the_double_blank(blank, value):
    """RULES.md §2.11 rule 11: plain pips; [0|0] counts double_blank_value; the player who
    went out records 0; totals grow."""
    rules = Rules(variant="mexican_train", double_blank_value=blank)
    state = position(["12-6", "0-0 1-3", "9-10"], rules=rules, scores=[5, 7, 0])
    state, events = apply(state, 0, mv("12-6", 0), deal=False)
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.recorded == (0, value, 19)
    assert scored.scores == (5, 7 + value, 19)
    assert scored.remembered == (0, 0, 0) and scored.pot == 0


# -- rules 12–13: the match end and rating -------------------------------------------------
def _last_round(scores, last_hands):
    rules = Rules(variant="mexican_train", set=9)
    return position(last_hands, engine=0, rules=rules, round_no=10, scores=scores)


def test_rule_12_lowest_total_wins_highest_is_the_goat():
    """RULES.md §2.11 rules 12–13: after the last round; the rating example: totals 180, 95,
    60 → 0, round_half_up(4.72) = 5, round_half_up(6.67) = 7."""
    state = _last_round([180, 95, 57], ["0-1", "1-1", "2-1"])
    state, events = apply(state, 0, mv("0-1", 0))
    assert state.finished and state.scores == (180, 95 + 2, 57 + 3)
    res = state.result
    assert res.goats == (0,) and res.winners == (2,) and not res.draw
    assert res.rating == (0, 5, 7)


def test_rule_12_ties_and_the_draw():
    """RULES.md §2.11 rule 12: all tied players win, all tied highest are goats; every
    total equal: a draw, every player a winner, no goat, rated 1."""
    state = _last_round([10, 13, 12], ["0-3", "1-1", "1-2"])
    state, _ = apply(state, 0, mv("0-3", 0))
    assert state.scores == (10, 15, 15)
    assert state.result.goats == (1, 2) and state.result.winners == (0,)
    assert state.result.rating == (3, 0, 0)  # round_half_up(10 × 5 / 15) = 3
    state = _last_round([5, 3, 4], ["0-3", "1-1", "1-0"])
    state, _ = apply(state, 0, mv("0-3", 0))
    assert state.scores == (5, 5, 5)
    assert state.result.draw and state.result.goats == () and state.result.winners == (0, 1, 2)
    assert state.result.rating == (1, 1, 1)


def test_rule_13_a_timeout_puts_the_timed_out_player_in_the_goats_place():
    """RULES.md §2.11 rule 13: G = the timed-out player's total; G = 0: the others get 1."""
    rules = Rules(variant="mexican_train", afk_limit=1)
    state = position(["12-6 1-2", "12-1 3-4", "12-2"], rules=rules, scores=[180, 95, 60])
    state, events = apply_host_move(state)
    assert state.result.reason == "timeout" and state.result.rating == (0, 5, 7)
    state = position(["12-6 1-2", "12-1 3-4", "12-2"], rules=rules, scores=[0, 95, 60])
    state, _ = apply_host_move(state)
    assert state.result.rating == (0, 1, 1)


# -- rule 14: timeouts ---------------------------------------------------------------------
def test_rule_14_the_host_takes_the_heaviest_tile_then_the_train_order():
    """RULES.md §2.11 rule 14: the legal tile with the most pips (ties: the higher half);
    trains: the oldest open double's, own, Mexican, the other public trains from the seat
    after the mover."""
    state = position(["1-2", "12-3 8-4 3-9", "5-6"], to_act=1, public=(0, 2))
    assert host_move(state) == mv("3-12", 1)  # own train before the Mexican train
    state = position(["1-2", "3-9 4-8 12-1", "5-6"], to_act=1, public=(0, 2),
                     trains={1: "12-5", 0: "12-3", 2: "12-4", "mexican": "12-8"})
    # [3|9] and [4|8] weigh 12, [3|9] has the higher half; it fits train 0 only
    assert host_move(state) == mv("3-9", 0)
    state = position(["1-2", "4-5 4-8", "5-6", "7-7"], to_act=1, public=(0, 2, 3),
                     trains={0: "12-4", 2: "12-3 3-4", 3: "12-2 2-4", 1: "12-1"})
    # [4|8] on trains 0, 2, 3: from the seat after the mover: 2, 3, 0
    assert host_move(state) == mv("4-8", 2)


def test_rule_14_the_host_finishes_the_whole_turn_as_one_host_move():
    """RULES.md §2.11 rule 14: the host places [6|6], then satisfies it with [6|2]; draws and
    marks happen at once; the turn counts once for afk_limit."""
    rules = Rules(variant="mexican_train", afk_limit=2)
    state = position(["6-6 6-2 1-1", "1-3 3-4"], trains={0: "12-6"}, rules=rules)
    state, events = apply_host_move(state)
    assert kinds(events)[:3] == ["host_moved", "played", "played"]
    assert [e.tile for e in events if e.kind == "played"] == [T(6, 6), T(2, 6)]
    assert state.to_act == 1 and state.afk == (1, 0) and not state.finished


def test_rule_14_a_player_who_placed_a_double_then_timed_out():
    """RULES.md §2.11 rule 14: the deadline is per turn: the host finishes the turn the
    player began."""
    state = position(["6-6 6-2 6-3", "1-3"], trains={0: "12-6"})
    state, _ = play(state, ("6-6", 0))
    state, events = apply_host_move(state)
    assert [e.tile for e in events if e.kind == "played"] == [T(3, 6)]
    assert state.to_act == 1


# -- rule 15: the record -------------------------------------------------------------------
def _random_decisions(rules, players, seed, host_share=0.0):
    rng = random.Random(seed)
    state, _ = new_match(rules, players, seed)
    decisions = []
    while not state.finished:
        if rng.random() < host_share:
            state, _ = apply_host_move(state)
            decisions.append((None, True))
        else:
            move = rng.choice(legal_moves(state))
            state, _ = apply(state, state.to_act, move)
            decisions.append((move, False))
    return state, decisions


def test_rule_15_the_record_and_its_replay():
    """RULES.md §2.11 rule 15: rules {"variant": "mexican_train", "set": 12, …}; the deal's
    hands and bazar without the engine; one decision per placement {"tile", "train"}; no
    draws or marks; replay adds trains_public per round and winners, goats, draw, rating."""
    rules = Rules(variant="mexican_train", set=9)
    state, decisions = _random_decisions(rules, 3, 8)
    record = record_match(rules, ["Ann", "Bob", "Cat"], 8, decisions)
    assert record["rules"]["variant"] == "mexican_train" and record["rules"]["set"] == 9
    assert len(record["rounds"]) == 10
    first = record["rounds"][0]
    dealt = [t for h in first["deal"]["hands"] for t in h] + first["deal"]["bazar"]
    assert len(dealt) == 54 and "9-9" not in dealt
    assert all(set(d) <= {"tile", "train"} for d in first["decisions"])
    assert sum(len(r["decisions"]) for r in record["rounds"]) == len(decisions)
    out = replay(record)
    assert out["finished"] and out["winners"] == list(state.result.winners)
    assert out["goats"] == list(state.result.goats) and out["draw"] is False
    assert out["rating"] == list(state.result.rating)
    assert all("trains_public" in r for r in out["rounds"])
    assert out["rounds"][-1]["scores"] == list(state.scores)


def test_rule_15_train_may_be_omitted_only_where_the_tile_has_one_placement():
    """RULES.md §2.11 rule 15: "train" may be left out where the tile has exactly one legal
    placement; else it is ambiguous."""
    state = position(["12-5 5-1", "1-2"])
    with pytest.raises(errors.AmbiguousEnd):
        apply(state, 0, Move(T(5, 12, 12)))
    state = position(["12-5 3-1", "1-2"], trains={"mexican": "12-3"})
    state, events = apply(state, 0, Move(T(1, 3, 12)))
    assert events[0].train == "mexican"


def test_rule_15_a_host_turn_is_one_host_entry_per_placement():
    """RULES.md §2.11 rules 14–15: the host's placements are written one by one with
    "host": true, and replay checks them."""
    rules = Rules(variant="mexican_train", set=9, afk_limit=100)
    for seed in range(40):
        state, decisions = _random_decisions(rules, 2, seed, host_share=0.3)
        record = record_match(rules, ["a", "b"], seed, decisions)
        entries = [d for r in record["rounds"] for d in r["decisions"]]
        if sum(1 for d in entries if d.get("host")) > sum(1 for _, h in decisions if h):
            break
    else:  # pragma: no cover
        pytest.fail("no host turn of several placements in 40 matches")
    assert replay(record)["rating"] == list(state.result.rating)
    for r in record["rounds"]:
        for i, d in enumerate(r["decisions"]):
            if d.get("host") and i + 1 < len(r["decisions"]) and \
                    r["decisions"][i + 1].get("host"):
                r["decisions"][i + 1] = dict(r["decisions"][i + 1], host=False)
                with pytest.raises(ReplayError, match="host"):
                    replay(record)
                return


def test_rule_15_a_record_is_read_with_the_sets_tiles():
    """RULES.md §2.10.3: "12-5" is a tile of the double-12 set; a deal that holds the
    engine, or misses a tile, is refused."""
    rules = Rules(variant="mexican_train")
    state, decisions = _random_decisions(rules, 2, 3)
    record = record_match(rules, ["a", "b"], 3, decisions)
    d = record["rounds"][0]["decisions"][0]
    a, b = d["tile"].split("-")
    record["rounds"][0]["decisions"][0] = dict(d, tile=f"{b}-{a}")  # "12-5" as well as "5-12"
    assert replay(record)["finished"]
    bad = dict(record)
    bad["rounds"] = [dict(record["rounds"][0], deal={
        "hands": record["rounds"][0]["deal"]["hands"],
        "bazar": record["rounds"][0]["deal"]["bazar"][:-1] + ["12-12"]})]
    with pytest.raises(ReplayError, match="engine"):
        replay(bad)


# -- the worked example of §2.11 -----------------------------------------------------------
def test_the_three_player_round_1_example():
    """RULES.md §2.11, the example (3 players, round 1, engine [12|12]; Ann 0, Bob 1,
    Cat 2), step by step."""
    state = position(["12-5 5-5 5-9 12-3 1-1", "7-7 3-6 0-1 2-2", "12-7 7-11 10-10 11-4"],
                     "3-4 2-8 0-2 0-3")
    # Ann places [12|5] on train 0 (her train now ends in 5). Turn passes.
    # Bob has no 12 and nothing else is started: he draws [3|4], which fits nowhere; he
    # marks train 1 (public, still empty). Turn passes.
    state, events = play(state, ("12-5", 0))
    assert kinds(events) == ["played", "drew", "passed", "marked"]
    assert events[1].tile == T(3, 4) and events[1].seat == 1
    lay = state.round.layout
    assert lay.ends[0] == 5 and lay.public == (False, True, False) and lay.trains[1] == ()
    assert state.to_act == 2
    # Cat places [12|7] on mexican (ends in 7). Turn passes.
    state, _ = play(state, ("12-7", "mexican"))
    assert state.round.layout.mexican_end == 7 and state.to_act == 0
    # Ann places [5|5] on train 0 (open double), places again: [5|9] on it (satisfied).
    state, _ = play(state, ("5-5", 0))
    assert state.to_act == 0 and state.round.layout.open_doubles == (0,)
    state, _ = play(state, ("5-9", 0))
    assert state.round.layout.open_doubles == () and state.round.layout.ends[0] == 9
    assert state.to_act == 1
    # Bob places [7|7] on mexican; he must place again, has no 7 and no other double; draws
    # [2|8], which does not fit; train 1 is already marked. Turn passes with [7|7] open.
    state, events = play(state, ("7-7", "mexican"))
    assert kinds(events) == ["played", "drew", "passed"]
    assert events[1].tile == T(2, 8, 12)
    assert state.round.layout.open_doubles == ("mexican",) and state.to_act == 2
    # Cat must place on [7|7] (nothing else is allowed): [7|11] on mexican.
    assert legal_moves(state) == (mv("7-11", "mexican"),)
    state, _ = play(state, ("7-11", "mexican"))
    # Ann may now play on 0, mexican (ends in 11) or train 1 (public, empty: needs a 12).
    lay = state.round.layout
    assert lay.available(0) == (0, 1, "mexican") and lay.mexican_end == 11
    assert trains_of(legal_moves(state)) == {(T(3, 12, 12), 1)}
    state, _ = play(state, ("12-3", 1))
    assert state.round.layout.public == (False, True, False)
    # Bob places [3|6] on train 1: his own, so it becomes private again.
    state, events = play(state, ("3-6", 1))
    assert kinds(events)[:2] == ["played", "unmarked"]
    assert state.round.layout.public == (False, False, False)
    assert state.round.layout.trains[1] == ((12, 3), (3, 6))


# -- properties ----------------------------------------------------------------------------
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 8), top=st.sampled_from([9, 12]), seed=st.integers(0, 2**32),
       rng_seed=st.integers(0, 2**32))
def test_every_tile_is_accounted_for_at_every_step(players, top, seed, rng_seed):
    """RULES.md §2.10.1, §2.11 rule 2: hands + bazar + trains + engine = the set, at every
    step of a random match (host moves too), and every round and match ends."""
    if top == 9 and players > 4:
        players = 4
    rules = Rules(variant="mexican_train", set=top, afk_limit=100)
    rng = random.Random(rng_seed)
    state, _ = new_match(rules, players, seed)
    steps = 0
    while not state.finished:
        rs = state.round
        lay = rs.layout
        on_table = {T(a, b, top) for tr in lay.trains + (lay.mexican,) for a, b in tr}
        on_table.add(T(lay.engine, lay.engine, top))
        assert mask(" ".join(t.code() for t in on_table), top) == lay.mask
        total = lay.mask.bit_count() + len(rs.bazar) + sum(h.bit_count() for h in rs.hands)
        seen = lay.mask
        for h in rs.hands:
            assert not seen & h
            seen |= h
        for i in rs.bazar:
            seen |= 1 << i
        assert seen == set_mask(top) and total == set_size(top)
        if rng.random() < 0.05:
            state, _ = apply_host_move(state)
        else:
            state, _ = apply(state, state.to_act, rng.choice(legal_moves(state)))
        steps += 1
        assert steps < 5000
    assert state.round_no == top + 1


def test_decisions_are_placements_and_legal_moves_are_sorted():
    """RULES.md §2.11 rule 8: every legal move is one placement with a train."""
    state, _ = new_match(RULES, 4, 9)
    for m in legal_moves(state):
        assert len(m) == 1 and m.train is not None
    assert TILE_ID[T(12, 12, 12)] == DOUBLE_ID[12]
