"""One round: deal, misdeal, reserve, leads, compulsory play, bazar, out, fish.

Each test names the rule of RULES.md it pins.
"""

from __future__ import annotations

import pytest

from engine import Rules, Tile, apply, errors, legal_moves, new_match
from engine.events import Dealt, Drew, Fish, Knocked, Led, Misdeal, Played, RoundScored, WentOut
from engine.moves import Move
from engine.table import misdeal_reason
from engine.tiles import tiles_of
from tests.enginekit import in_play, mask, mid_round, rest_of, round_state, tiles
from tests.roundkit import round_apply, round_moves

T = Tile.of


# -- §1.2 deal ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players,bazar", [(2, 14), (3, 7), (4, 0)])
def test_deal_gives_seven_tiles_each_and_the_rest_to_the_bazar(players, bazar):
    """RULES.md §1.2."""
    state, events = new_match(Rules(), players, seed=7)
    assert state.hand_sizes() == (7,) * players
    assert state.drawable == bazar and len(state.bazar) == bazar
    assert sorted(in_play(state.round)) == sorted(rest_of())
    assert isinstance(events[-1], Dealt) and events[-1].drawable == bazar


def test_same_seed_same_deal_other_seed_other_deal():
    a, _ = new_match(Rules(), 4, seed=123)
    b, _ = new_match(Rules(), 4, seed=123)
    c, _ = new_match(Rules(), 4, seed=124)
    assert a == b
    assert a.hands != c.hands


# -- §1.3 misdeal ------------------------------------------------------------------------------
def test_five_doubles_is_a_misdeal():
    """RULES.md §1.3: 5 or more doubles in one hand."""
    hands = (mask("1-2 1-3 1-4 1-5 1-6 2-3 2-4"), mask("0-0 1-1 2-2 3-3 4-4 0-1 0-2"))
    assert misdeal_reason(hands) == (1, "doubles", 5, None)


def test_six_tiles_of_one_number_is_a_misdeal_and_a_double_counts_once():
    """RULES.md §1.3: 6 or more tiles showing one number; [3|3] counts once."""
    assert misdeal_reason((mask("0-3 1-3 2-3 3-3 3-4 3-5 0-1"),)) == (0, "suit", 6, 3)
    # five tiles showing 3, the double among them, and four doubles: a valid hand
    assert misdeal_reason((mask("3-3 0-3 1-3 2-3 3-4 0-0 1-1"),)) is None
    assert misdeal_reason((mask("0-0 1-1 2-2 3-3 0-1 0-2 0-3"),)) is None


def test_void_deals_are_dealt_again_automatically():
    """RULES.md §1.3: over many seeds some deals are void; none survives into play."""
    seen_misdeal = 0
    for seed in range(300):
        state, events = new_match(Rules(), 4, seed)
        misdeals = [e for e in events if isinstance(e, Misdeal)]
        seen_misdeal += len(misdeals)
        assert misdeal_reason(state.round.hands) is None
        assert isinstance(events[-1], Dealt)
        for e in misdeals:
            assert e.reason in ("doubles", "suit")
    assert seen_misdeal > 0


# -- §1.4 reserve ------------------------------------------------------------------------------
def _reserve_position(reserve: int):
    seat0 = "6-6 0-6 1-6 2-6 3-6 0-0 0-1"
    seat1 = "1-1 1-2 1-3 1-4 1-5 2-2 2-3"
    bazar = [t for t in rest_of(seat0, seat1) if 6 not in t] + tiles("4-6 5-6")
    return round_state([seat0, seat1], bazar, reserve=reserve, leader=0)


def test_reserved_tiles_are_never_drawn():
    """RULES.md §1.4: with bazar_reserve=2 the last two tiles stay; the player knocks."""
    rs = _reserve_position(2)
    assert rs.drawable == 12
    rs2, events = round_apply(rs, 0, T(6, 6), None)
    drawn = [e.tile for e in events if isinstance(e, Drew)]
    assert len(drawn) == 12 and T(4, 6) not in drawn and T(5, 6) not in drawn
    assert isinstance(events[-1], Knocked) and events[-1].seat == 1
    assert rs2.to_act == 0 and rs2.drawable == 0
    assert tiles_of(rs2.hands[1])[-1] != T(4, 6)
    assert [tiles_of(1 << i)[0] for i in rs2.bazar] == tiles("4-6 5-6")


def test_without_reserve_the_same_bazar_is_drawn_to_the_fitting_tile():
    """RULES.md §1.4 default 0 and §1.8: draw until a drawn tile fits."""
    rs = _reserve_position(0)
    rs2, events = round_apply(rs, 0, T(6, 6), None)
    drawn = [e.tile for e in events if isinstance(e, Drew)]
    assert len(drawn) == 13 and drawn[-1] == T(4, 6)
    assert rs2.to_act == 1
    assert round_moves(rs2) == (Move(T(4, 6), "right"),)


# -- §1.5 first lead ---------------------------------------------------------------------------
def test_holder_of_one_one_leads_it():
    """RULES.md §1.5."""
    rs = round_state(["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "2-2 2-3 2-4 2-5 2-6 3-3 3-4",
                      "1-1 1-2 1-3 1-4 1-5 1-6 3-5", "3-6 4-4 4-5 4-6 5-5 5-6 6-6"], leader=None)
    assert rs.to_act == 2
    assert round_moves(rs) == (Move(T(1, 1)),)


def test_next_double_leads_when_one_one_is_in_the_bazar():
    """RULES.md §1.5: [1|1] in the bazar → the holder of [2|2]."""
    rs = round_state(["0-1 0-2 0-3 0-4 0-5 0-6 3-4", "2-2 2-3 2-4 2-5 2-6 1-3 1-4"],
                     bazar=rest_of("0-1 0-2 0-3 0-4 0-5 0-6 3-4", "2-2 2-3 2-4 2-5 2-6 1-3 1-4"),
                     leader=None)
    assert rs.to_act == 1 and round_moves(rs) == (Move(T(2, 2)),)


def test_zero_double_comes_after_six_six():
    """RULES.md §1.5: [1|1] … [6|6] before [0|0]."""
    hands = ["0-0 0-1 0-2 0-3 0-4 1-2 1-3", "1-4 1-5 1-6 2-3 2-4 2-5 2-6"]
    rs = round_state(hands, bazar=rest_of(*hands), leader=None)
    assert rs.to_act == 0 and round_moves(rs) == (Move(T(0, 0)),)
    hands = ["0-0 0-1 0-2 0-3 0-4 1-2 1-3", "1-4 1-5 1-6 2-3 2-4 2-5 6-6"]
    rs = round_state(hands, bazar=rest_of(*hands), leader=None)
    assert rs.to_act == 1 and round_moves(rs) == (Move(T(6, 6)),)


def test_without_doubles_the_highest_tile_leads():
    """RULES.md §1.5: by pip sum, then by the higher half: [5|6], [4|6], [3|6], [4|5] …"""
    hands = ["0-1 0-2 0-3 0-4 1-2 3-6 1-3", "1-4 1-5 2-3 2-4 2-5 4-5 0-5"]
    rs = round_state(hands, bazar=rest_of(*hands), leader=None)
    assert rs.to_act == 0 and round_moves(rs) == (Move(T(3, 6)),)
    hands = ["0-1 0-2 0-3 0-4 1-2 2-6 1-3", "1-4 1-5 2-3 2-4 2-5 3-5 0-5"]
    rs = round_state(hands, bazar=rest_of(*hands), leader=None)
    assert rs.to_act == 0 and round_moves(rs) == (Move(T(2, 6)),)


def test_first_lead_must_be_the_named_tile():
    """RULES.md §1.5: another tile raises WrongLead and changes nothing."""
    rs = round_state(["1-1 0-1 0-2 0-3 0-4 0-5 0-6", "2-2 2-3 2-4 2-5 2-6 3-3 3-4"],
                     bazar=rest_of("1-1 0-1 0-2 0-3 0-4 0-5 0-6", "2-2 2-3 2-4 2-5 2-6 3-3 3-4"),
                     leader=None)
    before = rs
    with pytest.raises(errors.WrongLead) as e:
        round_apply(rs, 0, T(0, 1), None)
    assert "§1.5" in str(e.value)
    assert rs == before and rs.line.tiles == ()


# -- §1.6 later rounds -------------------------------------------------------------------------
def test_later_rounds_are_led_by_the_winner_of_the_last_with_any_tile():
    """RULES.md §1.6: the player who went out, or the fisher, leads any tile."""
    import random

    rng = random.Random(5)
    checked = 0
    for seed in range(20):
        state, _ = new_match(Rules(), 3, seed)
        while not state.finished and checked < 20:
            state, events = apply(state, state.to_act, rng.choice(legal_moves(state)))
            scored = [e for e in events if isinstance(e, RoundScored)]
            if scored and not state.finished:
                dealt = [e for e in events if isinstance(e, Dealt)][-1]
                assert dealt.leader == scored[0].by == state.to_act
                assert dealt.lead_tile is None
                assert {m.tile for m in legal_moves(state)} == set(state.hand(state.to_act))
                assert all(m.end is None for m in legal_moves(state))
                checked += 1
    assert checked == 20


# -- §1.7 compulsory play ----------------------------------------------------------------------
def test_moves_are_exactly_the_tiles_that_fit_each_end():
    """RULES.md §1.7: one move per tile and end; nothing else is offered."""
    rs = mid_round(["2-5 3-5 2-2 0-6 1-4", "0-0"], chain=[(2, 3), (3, 5)])
    moves = set(round_moves(rs))
    assert moves == {Move(T(2, 5), "left"), Move(T(2, 5), "right"), Move(T(3, 5), "right"),
                     Move(T(2, 2), "left")}


def test_tile_fitting_both_ends_of_one_number_is_one_move():
    """RULES.md §1.7: with both ends showing 3, [3|5] placed left or right leaves the same
    open ends, so it is offered once; either end is still accepted."""
    rs = mid_round(["3-5 0-1", "0-0"], chain=[(3, 4), (4, 3)])
    assert round_moves(rs) == (Move(T(3, 5), "right"),)
    left, _ = round_apply(rs, 0, T(3, 5), "left")
    right, _ = round_apply(rs, 0, T(3, 5), None)
    assert left.line.ends == (5, 3) and right.line.ends == (3, 5)


def test_end_must_be_named_when_the_two_placements_differ():
    rs = mid_round(["2-5 0-1", "0-0"], chain=[(2, 3), (3, 5)])
    with pytest.raises(errors.AmbiguousEnd):
        round_apply(rs, 0, T(2, 5), None)
    played, events = round_apply(rs, 0, T(2, 5), "left")
    assert played.line.tiles == ((5, 2), (2, 3), (3, 5)) and played.line.ends == (5, 5)
    assert events[0] == Played(0, T(2, 5), "left")


def test_illegal_decisions_raise_specific_errors_and_change_nothing():
    """RULES.md §1.1, §1.7: wrong seat, tile not in hand, does not fit, unknown end."""
    rs = mid_round(["2-5 0-1", "0-0 1-6"], chain=[(2, 3), (3, 5)])
    snapshot = tuple(rs)
    cases = [
        (1, T(0, 0), None, errors.NotYourTurn),
        (0, T(1, 6), None, errors.TileNotInHand),
        (0, T(0, 1), None, errors.TileDoesNotFit),
        (0, T(2, 5), "middle", errors.UnknownEnd),
        (0, Tile(7, 9), None, errors.TileNotInHand),
    ]
    for seat, tile, end, exc in cases:
        with pytest.raises(exc) as info:
            round_apply(rs, seat, tile, end)
        assert "RULES.md §1." in str(info.value)
    assert tuple(rs) == snapshot


def test_a_tile_does_not_fit_the_end_named():
    rs = mid_round(["3-6 0-1", "0-0"], chain=[(2, 3), (3, 5)])
    with pytest.raises(errors.TileDoesNotFit):
        round_apply(rs, 0, T(3, 6), "left")


# -- §1.8 bazar --------------------------------------------------------------------------------
def test_draw_until_a_tile_fits_and_keep_the_drawn_tiles():
    """RULES.md §1.8."""
    hands = ["1-1 1-2 1-3 1-4 1-5 1-6 0-0", "2-2 2-3 2-4 2-5 2-6 3-3 3-4"]
    bazar = tiles("4-4 5-5 0-1 6-6") + [t for t in rest_of(*hands, "4-4 5-5 0-1 6-6")]
    rs = round_state(hands, bazar, leader=0)
    rs2, events = round_apply(rs, 0, T(1, 1), None)
    assert events[0] == Led(0, T(1, 1))
    assert [e for e in events[1:]] == [Drew(1, T(4, 4)), Drew(1, T(5, 5)), Drew(1, T(0, 1))]
    assert rs2.to_act == 1 and rs2.hands[1].bit_count() == 10
    assert round_moves(rs2) == (Move(T(0, 1), "right"),)
    assert rs2.drawable == len(bazar) - 3


def test_knock_when_nothing_fits_and_the_bazar_is_empty():
    """RULES.md §1.8: the turn passes to the next seat that can play."""
    rs = mid_round(["6-6 0-1", "0-0 0-2", "4-6 0-3"], chain=[(5, 6)], to_act=0)
    rs2, events = round_apply(rs, 0, T(6, 6), "right")
    assert events[1:] == [Knocked(1)]
    assert rs2.to_act == 2 and round_moves(rs2) == (Move(T(4, 6), "right"),)


# -- §1.9 out, §1.10 fish ----------------------------------------------------------------------
def test_last_tile_is_an_out_even_when_it_blocks_the_chain():
    """RULES.md §1.9."""
    chain = [(4, 0), (0, 4), (4, 1), (1, 4), (4, 2), (2, 4), (4, 4), (4, 5), (5, 4), (4, 6),
             (6, 3)]
    rs = mid_round(["3-4", "0-0 1-1"], chain=chain)
    assert rs.line.ends == (4, 3)
    rs2, events = round_apply(rs, 0, T(3, 4), "right")
    assert events[-1] == WentOut(0) and rs2.end == "out" and rs2.to_act == -1
    assert not any(isinstance(e, Fish) for e in events)


def test_blocked_chain_is_fish_and_the_last_placer_is_the_fisher():
    """RULES.md §1.10 (a)."""
    chain = [(4, 0), (0, 4), (4, 1), (1, 4), (4, 2), (2, 4), (4, 4), (4, 5), (5, 4), (4, 6),
             (6, 3)]
    rs = mid_round(["3-4 0-0", "1-1 2-2"], chain=chain)
    rs2, events = round_apply(rs, 0, T(3, 4), "right")
    assert events[-1] == Fish(0, "blocked") and rs2.end == "fish" and rs2.by == 0


def test_reserved_tiles_do_not_prevent_a_fish():
    """RULES.md §1.10 (a) with §1.4: only the drawable bazar counts."""
    chain = [(4, 0), (0, 4), (4, 1), (1, 4), (4, 2), (2, 4), (4, 5), (5, 4), (4, 6), (6, 3)]
    rs = mid_round(["3-4 0-0", "1-1 2-2"], chain=chain, bazar="4-4", reserve=1)
    assert rs.drawable == 0
    _, events = round_apply(rs, 0, T(3, 4), "right")
    assert events[-1] == Fish(0, "blocked")
    # §1.10 (b) would call this fish too; without it the drawable [4|4] keeps the round going
    rs = mid_round(["3-4 0-0", "1-1 2-2"], chain=chain, bazar="4-4", reserve=0,
                   fish_without_double=False)
    rs2, events = round_apply(rs, 0, T(3, 4), "right")
    assert events[-1] == Drew(1, T(4, 4)) and rs2.to_act == 1


def _no_double_position(option: bool):
    chain = [(5, 0), (0, 5), (5, 1), (1, 5), (5, 3), (3, 5), (5, 4), (4, 5), (5, 6), (6, 2)]
    return mid_round(["2-5 0-0", "5-5 1-1"], chain=chain, fish_without_double=option)


def test_fish_without_the_double_when_the_six_others_are_out():
    """RULES.md §1.10 (b), option fish_without_double (default true)."""
    rs2, events = round_apply(_no_double_position(True), 0, T(2, 5), "right")
    assert rs2.line.ends == (5, 5)
    assert events[-1] == Fish(0, "no_double") and rs2.end == "fish"


def test_without_the_option_the_double_is_still_played():
    """RULES.md §1.10 (b) switched off: [5|5] is still in a hand, so play goes on."""
    rs2, events = round_apply(_no_double_position(False), 0, T(2, 5), "right")
    assert rs2.end is None and rs2.to_act == 1
    assert round_moves(rs2) == (Move(T(5, 5), "right"),)
    rs3, events = round_apply(rs2, 1, T(5, 5), "right")
    assert events[-1] == Fish(1, "blocked")


def test_no_decision_after_the_round_is_over():
    rs2, _ = round_apply(_no_double_position(True), 0, T(2, 5), "right")
    assert round_moves(rs2) == ()
    with pytest.raises(errors.RoundOver):
        round_apply(rs2, 1, T(5, 5), "right")
