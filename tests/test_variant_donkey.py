"""Осёл / Закрывашки (``donkey``, RULES.md §2.2): every numbered rule and option, on positions
written by hand (``tests.crosskit``), plus properties of random play."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Rules, Tile, apply, errors, legal_moves, new_match
from engine.layout import ACROSS, CLOSED
from engine.moves import DOWN, LEFT, RIGHT, UP
from engine.tiles import TILE_ID
from engine.variant import VARIANTS
from engine.variants.donkey import DONKEY_LEAD_ORDER
from tests.crosskit import (
    cross_table,
    deal_next_round,
    dealt,
    kinds,
    match_at,
    mv,
    random_record,
    run_cli,
    scored,
    tid,
)

R = Rules(variant="donkey")


# -- rule 1: the lead --------------------------------------------------------------------------
def test_rule_1_the_first_lead_is_section_1_5_for_doubles():
    """RULES.md §2.2 rule 1: §1.5 for doubles — nobody holds [1|1], so the holder of [2|2]
    must lead it."""
    state = dealt(R, ["0-1 0-2 0-3 1-2 1-3 4-5 3-3", "2-2 1-4 2-5 3-6 4-6 0-5 5-6"])
    assert state.round.leader == 1 and state.round.lead_id == tid(2, 2)
    assert legal_moves(state) == (Move(Tile.of(2, 2)),)


def test_rule_1_with_no_double_in_any_hand_the_lowest_tile_leads():
    """RULES.md §2.2 rule 1: no hand holds a double: the holder of the lowest tile leads it,
    by pip sum and then by the lower half — [0|1] and [0|2] are in the bazar, and [0|3]
    comes before [1|2] (classic §1.5 would lead the highest, [5|6])."""
    hands = ["1-2 1-3 1-4 2-4 3-5 4-6 5-6", "0-3 0-4 0-5 0-6 2-5 3-6 2-6"]
    state = dealt(R, hands)
    assert state.round.leader == 1 and state.round.lead_id == tid(0, 3)
    classic = dealt(Rules(), hands)
    assert classic.round.leader == 0 and classic.round.lead_id == tid(5, 6)
    with pytest.raises(errors.WrongLead) as err:
        apply(state, 1, Move(Tile.of(0, 4)))
    assert err.value.rule == "RULES.md §2.2"


def test_rule_1_the_lowest_tile_order_is_the_rule_books():
    """RULES.md §2.2 rule 1: [1|1] … [6|6], [0|0], then [0|1], [0|2], [0|3], [1|2], [0|4],
    [1|3], [0|5], [1|4], [2|3], …"""
    doubles = [Tile.of(n, n) for n in (1, 2, 3, 4, 5, 6, 0)]
    lowest = [Tile.of(*p) for p in ((0, 1), (0, 2), (0, 3), (1, 2), (0, 4), (1, 3), (0, 5),
                                    (1, 4), (2, 3))]
    assert [TILE_ID[t] for t in doubles + lowest] == list(DONKEY_LEAD_ORDER[:16])
    assert len(DONKEY_LEAD_ORDER) == 28


def test_rule_1_later_rounds_the_player_who_went_out_leads_any_tile():
    """RULES.md §2.2 rule 1 with §1.6: round 2 is led by who went out, with any tile."""
    t = cross_table(R, ["2-5", "3-4 4-4"], lead="1-2", last=1)
    state, _ = apply(match_at(R, t), 0, mv("2-5 right"))
    assert state.round_no == 2 and state.round.leader == 0 and state.round.lead_id == -1
    assert {m.tile for m in legal_moves(state)} == set(state.hand(0))


# -- rule 2: moves -----------------------------------------------------------------------------
def test_rule_2_a_double_goes_face_up_or_closed_but_never_leads_closed():
    """RULES.md §2.2 rule 2, §2.0.3: a double on an end may be face up or closed; the lead is
    never closed."""
    t = cross_table(R, ["5-5 1-2", "0-3"])
    assert set(t.moves()) == {Move(Tile.of(5, 5)), Move(Tile.of(1, 2))}
    with pytest.raises(errors.IllegalMove):
        t.apply(0, mv("5-5 closed"))
    t = cross_table(R, ["3-3 0-1", "4-6"], lead="2-3", last=1)
    assert set(t.moves()) == {mv("3-3 right"), mv("3-3 right closed")}


def test_rule_2_a_closed_double_is_never_the_spinner():
    """RULES.md §2.2 rule 2, §2.0.3: the spinner is never closed — a double that would become
    it but goes face down closes its end, and no spinner appears; face up it is the
    spinner."""
    closed = cross_table(R, ["5-5 0-1", "4-6"], lead="2-5", last=1)
    closed.apply(0, mv("5-5 right closed"))
    assert closed.layout.spinner == -1 and closed.layout.ends[RIGHT] == CLOSED
    assert closed.layout.ends[UP] == closed.layout.ends[DOWN] == -1
    face_up = cross_table(R, ["5-5 0-1", "4-6"], lead="2-5", last=1)
    face_up.apply(0, mv("5-5 right"))
    lay = face_up.layout
    assert lay.spinner == 5 and lay.line[lay.spin_at] == (5, 5, ACROSS)


def four_ends(hand: str):
    """Spinner [3|3] led by seat 1, then ends left 5, right 6, up 1, down 2."""
    return cross_table(R, [hand, "0-6 4-6"], lead="3-3",
                       plays=("3-5 left", "3-6 right", "3-1 up", "3-2 down"), last=1)


def test_rule_2_once_a_spinner_exists_two_to_four_doubles_each_face_up_or_closed():
    """RULES.md §2.2 rule 2: 2–4 doubles at once on different open ends, each face up or
    closed: four doubles fitting four ends give C(4,k)·2^k moves of k doubles."""
    t = four_ends("5-5 6-6 1-1 2-2 0-4")
    sizes = Counter(len(m) for m in t.moves())
    assert sizes == {1: 4 * 2, 2: 6 * 4, 3: 4 * 8, 4: 1 * 16}
    t.apply(0, mv("5-5 left closed", "1-1 up", "2-2 down closed"))
    lay = t.layout
    assert lay.ends[LEFT] == CLOSED and lay.ends[DOWN] == CLOSED
    assert lay.ends[UP] == 1 and lay.ends[RIGHT] == 6 and lay.spinner == 3


def test_rule_2_a_pair_of_closed_doubles_beside_a_spinner_does_not_block():
    """RULES.md §2.2 rules 2–3: the lead was a double (a spinner), so closing left and right
    at once is an ordinary move of rule 2: up and down stay open and play goes on."""
    t = cross_table(R, ["2-2 5-5 0-1", "3-4 0-6"], lead="3-3", plays=("3-2 left", "3-5 right"),
                    last=1, events=[])
    t.apply(0, mv("2-2 left closed", "5-5 right closed"))
    assert t.end is None and t.to_act == 1
    assert t.layout.state().open_ends == {"up": 3, "down": 3}
    assert "special" not in kinds(t.events)


# -- rule 3: the double closure ------------------------------------------------------------------
def test_rule_3_before_a_spinner_the_only_several_move_is_two_closed_doubles():
    """RULES.md §2.2 rule 3: while no double is on the table, two doubles at once only both
    closed, one on each end; face up or half face up they are refused."""
    t = cross_table(R, ["2-2 3-3 0-1", "4-6"], lead="2-3", last=1)
    several = [m for m in t.moves() if len(m) > 1]
    assert several == [mv("2-2 left closed", "3-3 right closed")]
    for move in (mv("2-2 left", "3-3 right"), mv("3-3 right", "2-2 left closed")):
        with pytest.raises(errors.MoveNotAllowed) as err:
            t.apply(0, move)
        assert err.value.rule == "RULES.md §2.2"


def test_rule_3_the_double_closure_is_a_fish_of_its_player_scored_per_1_13():
    """RULES.md §2.2 rule 3: both ends closed, the round is blocked and ends as a fish with the
    closer as the fisher, scored per §1.13 (each_own: everybody their own hand, §1.12); no
    several-doubles move creates the spinner."""
    t = cross_table(R, ["2-2 3-3 0-1 0-4", "4-6 5-6 4-5"], lead="2-3", last=1)
    state, events = apply(match_at(R, t), 0, mv("3-3 right closed", "2-2 left closed"),
                          deal=False)
    assert kinds(events)[-4:] == ["played", "special", "fish", "round_scored"]
    special = next(e for e in events if e.kind == "special")
    assert (special.seat, special.rule) == (0, "double_closure")
    ev = scored(events)
    assert (ev.end, ev.by) == ("fish", 0)
    assert ev.recorded == (1 + 4, 10 + 11 + 9)
    assert state.scores == (0, 30) and state.remembered == (5, 0)
    assert state.round.layout.closed_ends == ("left", "right")
    assert state.round.layout.spinner == -1


def test_rule_3_a_double_closure_with_the_last_two_tiles_is_an_out():
    """RULES.md §2.2 rule 3, §2.0.5: the closure that empties the hand is an out."""
    t = cross_table(R, ["2-2 3-3", "4-6 5-6 4-5"], lead="2-3", last=1)
    state, events = apply(match_at(R, t, remembered=[7, 0]), 0,
                          mv("2-2 left closed", "3-3 right closed"), deal=False)
    ev = scored(events)
    assert (ev.end, ev.by) == ("out", 0) and "fish" not in kinds(events)
    assert state.scores == (0, 30) and state.remembered == (0, 0)


# -- rule 4: scoring ---------------------------------------------------------------------------
def test_rule_4_an_out_is_recorded_per_section_1_12():
    """RULES.md §2.2 rule 4, §1.12: the others record their hands (13 or more opens with the
    remembered points, less is remembered); who went out records 0 and loses the remembered."""
    t = cross_table(R, ["2-5", "4-6 3-6", "0-4"], lead="1-2", last=2)
    state, _ = apply(match_at(R, t, remembered=[5, 3, 2]), 0, mv("2-5 right"), deal=False)
    assert state.scores == (0, 19 + 3, 0) and state.remembered == (0, 0, 2 + 4)


def test_rule_4_the_goat_at_the_match_limit_is_the_donkey():
    """RULES.md §2.2 rule 4, §1.15–§1.16: an open score of 101 or more is the goat, «осёл»;
    the others are rated max(1, round_half_up((100 − score) / 10))."""
    assert VARIANTS["donkey"].goat_word == "donkey"
    t = cross_table(R, ["2-5", "4-6 3-6", "0-4"], lead="1-2", last=2)
    state, events = apply(match_at(R, t, scores=[25, 90, 0], remembered=[0, 0, 6]), 0,
                          mv("2-5 right"))
    assert state.finished and state.result.goats == (1,)
    assert state.scores == (25, 109, 0)
    assert state.result.rating == (8, 0, 10)
    assert events[-1].kind == "match_ended"


# -- options -------------------------------------------------------------------------------------
def closure_fish(rules: Rules):
    t = cross_table(rules, ["2-2 3-3 0-1 0-4", "4-6 5-6 4-5"], lead="2-3", last=1)
    return apply(match_at(rules, t, remembered=[3, 4]), 0,
                 mv("2-2 left closed", "3-3 right closed"), deal=False)[0]


@pytest.mark.parametrize("fish_scoring,scores,remembered", [
    ("each_own", (0, 30 + 4), (3 + 5, 0)),
    ("all_to_max", (0, 35 + 4), (0, 0)),
    ("own_to_max", (0, 30 + 4), (3, 0)),
])
def test_option_fish_scoring_defaults_to_each_own(fish_scoring, scores, remembered):
    """RULES.md §2.2 options, §1.13: fish_scoring defaults to each_own; all_to_max and
    own_to_max are honoured (hands 5 and 30, remembered 3 and 4)."""
    assert R.fish_scoring == "each_own"
    state = closure_fish(Rules(variant="donkey", fish_scoring=fish_scoring))
    assert state.scores == scores and state.remembered == remembered


def test_option_match_limit_and_open_threshold():
    """RULES.md §2.2 options (§1.12, §1.15): match_limit sets the goat's score, open_threshold
    the points that open a score."""
    assert (R.match_limit, R.open_threshold) == (101, 13)
    rules = Rules(variant="donkey", match_limit=50, open_threshold=20)
    t = cross_table(rules, ["2-5", "4-6 3-6", "0-4 5-6"], lead="1-2", last=2)
    state, _ = apply(match_at(rules, t, scores=[0, 40, 0]), 0, mv("2-5 right"), deal=False)
    assert state.scores == (0, 59, 0) and state.remembered == (0, 0, 15)
    assert state.result.goats == (1,) and state.result.rating == (5, 0, 5)


def no_double_position(rules: Rules):
    """Ends 5 and 6, five non-doubles of 5 down; seat 0 plays [5|6] on the 6: both ends 5,
    all six down, [5|5] in seat 1's hand."""
    return cross_table(rules, ["5-6 0-2", "5-5 0-3"], lead="5-0",
                       plays=("0-1 right", "1-5 right", "5-2 right", "2-3 right", "3-5 right",
                              "5-4 right", "4-6 right"), last=1)


@pytest.mark.parametrize("on", [True, False])
def test_option_fish_without_double_on_the_cross(on):
    """RULES.md §2.2 options, §2.0.5 (b): every open end shows 5 and the six non-doubles of 5
    are down: a fish while [5|5] is still in a hand when the option is on; play goes on when
    it is off."""
    rules = Rules(variant="donkey", fish_without_double=on)
    t = no_double_position(rules)
    t.apply(0, mv("5-6 right"))
    if on:
        assert (t.end, t.fish_cause, t.last) == ("fish", "no_double", 0)
    else:
        assert t.end is None and t.to_act == 1


def test_option_bazar_reserve():
    """RULES.md §2.2 options, §1.4: the last bazar_reserve tiles are never drawn."""
    state, _ = new_match(Rules(variant="donkey", bazar_reserve=2), 2, 5)
    assert state.round.reserve == 2 and state.round.drawable == 12
    assert new_match(R, 2, 5)[0].round.drawable == 14


@pytest.mark.parametrize("value", [10, 25])
def test_option_lone_zero_double_value(value):
    """RULES.md §2.2 options, §1.11: a hand that is the single tile [0|0] counts
    lone_zero_double_value."""
    rules = Rules(variant="donkey", lone_zero_double_value=value)
    t = cross_table(rules, ["2-5", "0-0"], lead="1-2", last=1)
    state, _ = apply(match_at(rules, t), 0, mv("2-5 right"), deal=False)
    assert state.round.end == "out"
    assert (state.scores, state.remembered) == (((0, 25), (0, 0)) if value == 25 else
                                               ((0, 0), (0, 10)))


def test_option_teams_a_team_records_as_one():
    """RULES.md §2.2 (teams with 4), §1.14: when seat 0 goes out, team 0 records 0 and team 1
    the sum of both its hands."""
    rules = Rules(variant="donkey", teams=True)
    t = cross_table(rules, ["2-5", "4-6", "0-1", "3-6"], lead="1-2", last=3)
    state, _ = apply(match_at(rules, t), 0, mv("2-5 right"), deal=False)
    assert state.scores == (0, 10 + 9) and state.remembered == (0, 0)


@pytest.mark.parametrize("option,value", [
    ("multi_doubles", True), ("both_doubles_value", 12), ("deals", 8), ("sticks", 3),
    ("losses", 2),
])
def test_options_the_donkey_does_not_read_are_refused(option, value):
    """RULES.md §2: an option the variant does not read is refused, naming it; teams false is
    accepted, and the timeouts of §1.17 are read."""
    with pytest.raises(ValueError, match="donkey"):
        Rules(variant="donkey", **{option: value})
    assert Rules(variant="donkey", teams=False).teams is False
    timed = Rules(variant="donkey", turn_timeout=30, afk_limit=3)     # §1.17 stays
    assert (timed.turn_timeout, timed.afk_limit) == (30, 3)


# -- records and replay ----------------------------------------------------------------------
def test_replay_of_a_record_with_several_and_closed_doubles(tmp_path):
    """RULES.md §2.0.4: a record with ``tiles`` and ``closed`` moves and the ends up/down
    replays through ``python -m engine replay`` to the rounds played."""
    text, rounds, state = random_record(
        R, 3, lambda text: all(k in text for k in ('"tiles"', '"closed"', '"up"')))
    code, out = run_cli("replay", stdin_text=text, tmp_path=tmp_path)
    assert code == 0 and out["finished"] is True
    assert [(r["end"], r["by"], r["scores"], r["remembered"]) for r in out["rounds"]] == [
        (e.end, e.by, list(e.scores), list(e.remembered)) for e in rounds]
    assert out["goats"] == list(state.result.goats)


def test_simulate_shows_closed_doubles_several_doubles_and_double_closures():
    """``tools/simulate.py --variant donkey``: the totals count closed doubles, moves
    of several doubles and double closures (RULES.md §2.2 rules 2–3)."""
    code, out = run_cli("simulate", "--variant", "donkey", "--players", "4", "--matches",
                        "30", "--seed", "1", "--no-progress")
    assert code == 0 and out["matches"] == 30
    assert out["closed_doubles"] > 0 and out["multi_tile_moves"] > 0
    assert out["special"]["double_closure"] > 0


# -- properties of random play -------------------------------------------------------------------
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32),
       choices=st.randoms(use_true_random=False))
def test_the_spinner_is_never_closed_and_no_several_move_creates_it(players, seed, choices):
    """RULES.md §2.2 rules 2–3: the spinner always lies face up; a move of several doubles
    never creates the spinner; before a spinner such a move is two closed doubles on left
    and right and ends the round."""
    state, _ = new_match(R, players, seed)
    for _ in range(3000):
        if state.finished:
            break
        before = state.round.layout
        move = choices.choice(legal_moves(state))
        state, events = apply(state, state.to_act, move, deal=False)
        after = state.round.layout
        if after.spinner >= 0:
            assert after.line[after.spin_at][2] == ACROSS
        if len(move) > 1:
            assert all(p.tile.is_double for p in move)
            assert (before.spinner < 0) == (after.spinner < 0)
            if before.spinner < 0:
                assert all(p.closed for p in move)
                assert sorted(p.end for p in move) == ["left", "right"]
                assert state.round.end in ("fish", "out")
                assert "special" in kinds(events)
        if state.round.end is not None and not state.finished:
            state = deal_next_round(state)
