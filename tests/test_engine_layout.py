"""Layouts (RULES.md §2.0): the line, the cross and its spinner, closed doubles, the gap,
fish on any layout, the count — and random play on a cross.

The cross is tested on a variant made for these tests (``tests.enginekit.CrossForTests``),
so that the geometry is pinned before any variant of §2 uses it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Placement, Tile, apply, errors, legal_moves, new_match
from engine.layout import CLOSED, GAP_OPEN, NO_END, Layout
from engine.moves import DOWN, GAP, LEFT, RIGHT, UP
from engine.table import Table
from engine.tiles import ALL_MASK, TILE_ID
from tests.enginekit import cross_rules

T = Tile.of


def tid(a: int, b: int) -> int:
    return TILE_ID[T(a, b)]


def lead(lay: Layout, a: int, b: int, flip: bool = False) -> None:
    lay.lay(((tid(a, b), -1, False, False, flip),))


# -- §2.0.6 the count -------------------------------------------------------------------------
def test_count_example_with_the_spinner_in_the_middle():
    """RULES.md §2.0.6: ends 6 and 3, spinner [4|4] in the middle, nothing on up/down: [6|6]
    on the 6 → 6+6+3 = 15; then [4|5] on up → 20."""
    lay = Layout(cross=True)
    lead(lay, 4, 6, flip=True)                     # 6 | 4
    lay.place(tid(4, 4), RIGHT)                    # the spinner, at the right end
    lay.place(tid(3, 4), RIGHT)                    # 6 | 4 [4|4] 4 | 3
    assert (lay.ends[LEFT], lay.ends[RIGHT], lay.spinner) == (6, 3, 4)
    lay.place(tid(6, 6), LEFT)
    assert lay.count() == 15
    lay.place(tid(4, 5), UP)
    assert lay.count() == 20


def test_count_example_with_the_spinner_as_the_lead():
    """RULES.md §2.0.6: lead [5|5] → 10; [5|0] on up → 10 + 0; [5|2] on right → 10 + 2 + 0;
    [5|3] on left → 3 + 2 + 0 (both sides of the spinner now hold a tile)."""
    lay = Layout(cross=True)
    lead(lay, 5, 5)
    assert lay.count() == 10
    lay.place(tid(0, 5), UP)
    assert lay.count() == 10
    lay.place(tid(2, 5), RIGHT)
    assert lay.count() == 12
    lay.place(tid(3, 5), LEFT)
    assert lay.count() == 5


def test_count_a_single_tile_is_its_pips_and_closed_ends_count_nothing():
    """RULES.md §2.0.6: one tile on the table counts its pip sum; a closed end counts 0."""
    lay = Layout(cross=True)
    lead(lay, 2, 3)
    assert lay.count() == 5
    lay.place(tid(3, 3), RIGHT, closed=True)
    assert lay.ends[RIGHT] == CLOSED and lay.count() == 2


def test_count_a_double_along_counts_once():
    """RULES.md §2.5 rule 3 with §2.0.6: a double along at an end counts once."""
    lay = Layout(cross=True)
    lead(lay, 5, 5)
    lay.place(tid(1, 5), RIGHT)
    lay.place(tid(1, 1), RIGHT, along=True)        # [1|1] along on the 1
    lay.place(tid(3, 5), LEFT)
    assert lay.count() == 3 + 1
    lay2 = Layout(cross=True)
    lead(lay2, 5, 5)
    lay2.place(tid(1, 5), RIGHT)
    lay2.place(tid(1, 1), RIGHT)                   # across
    lay2.place(tid(3, 5), LEFT)
    assert lay2.count() == 3 + 2


# -- §2.0.2 the cross -------------------------------------------------------------------------
def test_a_spinner_lead_opens_four_ends():
    """RULES.md §2.0.2: the spinner as the lead shows its number on left, right, up, down."""
    lay = Layout(cross=True)
    lead(lay, 3, 3)
    assert lay.spinner == 3 and lay.state().open_ends == {
        "left": 3, "right": 3, "up": 3, "down": 3}


def test_a_spinner_placed_later_keeps_the_line_going_and_opens_up_and_down():
    """RULES.md §2.0.2: placed on the right end, the line goes on through it on that side
    (the end keeps its name) and up/down open, each showing the spinner's number."""
    lay = Layout(cross=True)
    lead(lay, 2, 5)
    assert lay.state().open_ends == {"left": 2, "right": 5}
    lay.place(tid(5, 5), RIGHT)
    st_ = lay.state()
    assert st_.open_ends == {"left": 2, "right": 5, "up": 5, "down": 5}
    assert st_.spin_at == 1 and st_.chain == ((2, 5), (5, 5))
    lay.place(tid(5, 6), RIGHT)
    lay.place(tid(1, 5), DOWN)
    st_ = lay.state()
    assert st_.open_ends == {"left": 2, "right": 6, "up": 5, "down": 1}
    assert st_.down == ((5, 1, ""),) and st_.chain == ((2, 5), (5, 5), (5, 6))


def test_a_line_has_no_spinner():
    """RULES.md §2.0.1: on a line a double is just a tile; only left and right exist."""
    lay = Layout(cross=False)
    lead(lay, 4, 4)
    lay.place(tid(4, 6), RIGHT)
    assert lay.spinner == -1 and lay.state().open_ends == {"left": 4, "right": 6}


def test_a_lead_lies_as_it_is_written():
    """RULES.md §0: the lead "6-5" shows 6 at the left end, "5-6" the other way round."""
    for flip, ends in ((True, (6, 5)), (False, (5, 6))):
        lay = Layout()
        lead(lay, 5, 6, flip=flip)
        assert (lay.ends[LEFT], lay.ends[RIGHT]) == ends


# -- §2.0.3 closing ---------------------------------------------------------------------------
def test_a_closed_double_closes_its_end_for_play_fish_and_count():
    """RULES.md §2.0.3: no tile may go on a closed end; it is no open end for fish."""
    lay = Layout(cross=True)
    lead(lay, 2, 3)
    lay.place(tid(2, 2), LEFT, closed=True)
    assert lay.ends[LEFT] == CLOSED and not lay.fits(tid(1, 2), LEFT)
    assert lay.placements(1 << tid(1, 2)) == []
    assert lay.state().closed_ends == ("left",)


def test_a_closed_double_is_not_the_spinner_the_next_face_up_double_is():
    """RULES.md §2.0.3: a double placed closed while no spinner exists is not a spinner."""
    lay = Layout(cross=True)
    lead(lay, 2, 3)
    lay.place(tid(2, 2), LEFT, closed=True)
    assert lay.spinner == -1
    lay.place(tid(3, 3), RIGHT)
    assert lay.spinner == 3 and lay.state().open_ends == {"right": 3, "up": 3, "down": 3}


def test_every_end_closed_is_blocked():
    """RULES.md §2.0.5: a layout whose ends are all closed is blocked."""
    lay = Layout(cross=True)
    lead(lay, 2, 3)
    lay.place(tid(2, 2), LEFT, closed=True)
    lay.place(tid(3, 3), RIGHT, closed=True)
    assert lay.fit == 0 and lay.blocked()


def test_closing_and_along_are_offered_only_where_allowed():
    """RULES.md §2.0.3, §2.5 rule 3: a double may be offered closed (not the lead) or along
    (not where it becomes the spinner); a line offers neither unless asked."""
    lay = Layout(cross=True)
    lead(lay, 2, 3)
    hand = 1 << tid(3, 3)
    assert lay.placements(hand) == [(tid(3, 3), RIGHT, False, False)]
    assert (tid(3, 3), RIGHT, True, False) in lay.placements(hand, closing=True)
    assert not any(a for *_, a in lay.placements(hand, along=True))
    lay.place(tid(3, 3), RIGHT)
    lay.place(tid(3, 4), UP)
    hand = 1 << tid(4, 4)
    assert (tid(4, 4), UP, False, True) in lay.placements(hand, along=True)
    empty = Layout(cross=True)
    assert empty.placements(1 << tid(5, 5), closing=True) == [(tid(5, 5), -1, False, False)]


# -- §2.0.4 placements and moves ----------------------------------------------------------------
def test_a_tile_fitting_both_ends_of_a_line_with_one_number_is_one_placement():
    """RULES.md §2.0.4: both ends show 3 → [3|5] is one placement, on the right."""
    lay = Layout.of_line([(3, 4), (4, 3)])
    assert lay.placements(1 << tid(3, 5)) == [(tid(3, 5), RIGHT, False, False)]


def test_several_doubles_each_on_a_different_end_showing_its_number():
    """RULES.md §2.0.4: several doubles at once, each on an open end that shows its number,
    at most one per end; with a spinner already down the order does not matter."""
    lay = Layout(cross=True)
    lead(lay, 3, 3)
    lay.place(tid(3, 5), LEFT)
    lay.place(tid(3, 6), RIGHT)                     # ends: left 5, right 6, up 3, down 3
    hand = (1 << tid(5, 5)) | (1 << tid(6, 6)) | (1 << tid(1, 1))
    moves = lay.double_sets(hand, least=2, most=4)
    assert moves == [((tid(5, 5), LEFT, False, False), (tid(6, 6), RIGHT, False, False))]
    closing = lay.double_sets(hand, least=2, most=4, closing=True)
    assert len(closing) == 4


def test_without_a_spinner_each_face_up_double_may_come_first():
    """RULES.md §2.0.2, §2.4: the first double of a move placed face up becomes the spinner,
    so the two orders are two moves."""
    lay = Layout(cross=True)
    lead(lay, 2, 5)
    hand = (1 << tid(2, 2)) | (1 << tid(5, 5))
    moves = lay.double_sets(hand, least=2, most=2)
    assert sorted(m[0][0] for m in moves) == sorted([tid(2, 2), tid(5, 5)])
    assert all(len(m) == 2 for m in moves)


# -- the gap of the extraordinary lead (§2.1 rule 7) -------------------------------------------
def test_the_gap_takes_zero_six_only_and_an_end_placement_leaves_it_empty():
    """RULES.md §2.1 rule 7: left end 0, right end 6, between them a gap only [0|6] fits;
    [0|6] may also go on an end, and then the gap stays empty."""
    lay = Layout()
    lay.lay(((tid(0, 0), LEFT, False, False, False), (tid(6, 6), RIGHT, False, False, False)))
    assert lay.ends[GAP] == GAP_OPEN and lay.gap_at == 1
    assert lay.fitting_ends(tid(0, 6)) == [LEFT, RIGHT, GAP]
    assert lay.fitting_ends(tid(0, 5)) == [LEFT]
    into = lay.copy()
    into.place(tid(0, 6), GAP)
    assert into.state().chain == ((0, 0), (0, 6), (6, 6)) and into.ends[GAP] == NO_END
    onto = lay.copy()
    onto.place(tid(0, 6), LEFT)
    assert onto.ends[GAP] == NO_END and onto.state().chain == ((6, 0), (0, 0), (6, 6))
    assert onto.gap_at == 2


# -- §2.0.5 fish on any layout -------------------------------------------------------------------
def test_fish_b_needs_every_open_end_to_show_one_number():
    """RULES.md §2.0.5 (b): every open end shows n and the six non-doubles of n are down."""
    lay = Layout.of_line([(5, 0), (0, 5), (5, 1), (1, 5), (5, 3), (3, 5), (5, 4), (4, 5),
                          (5, 6), (6, 2), (2, 5)])
    assert lay.no_double_fish()
    lay2 = Layout.of_line([(5, 0), (0, 5), (5, 1), (1, 5), (5, 3), (3, 5), (5, 4), (4, 5)])
    assert not lay2.no_double_fish()


# -- the cross in play ------------------------------------------------------------------------
def test_on_a_cross_a_move_on_a_closed_end_is_refused_and_changes_nothing():
    """RULES.md §2.0.3 through the engine: the error names the rule."""
    with cross_rules() as rules:
        state, _ = new_match(rules, 2, 11)
        # play until some end is closed, then try to place on it
        import random

        rng = random.Random(3)
        for _ in range(400):
            if state.finished:
                state, _ = new_match(rules, 2, rng.randrange(10**6))
            lay = state.round.layout
            if CLOSED in lay.ends and state.to_act is not None:
                closed_end = ("left", "right", "up", "down")[lay.ends.index(CLOSED)]
                for t in state.hand(state.to_act):
                    with pytest.raises(errors.IllegalMove):
                        apply(state, state.to_act, Move(t, closed_end))
                return
            moves = legal_moves(state)
            closing = [m for m in moves if any(p.closed for p in m)]
            state, _ = apply(state, state.to_act, rng.choice(closing or moves))
    pytest.fail("no closed end came up")


def test_a_multi_double_move_arrives_as_one_move_in_any_order():
    """RULES.md §2.0.4: the record may list the doubles in any order once a spinner exists."""
    with cross_rules() as rules:
        table = Table(rules, 2, [(1 << tid(5, 5)) | (1 << tid(6, 6)) | (1 << tid(0, 1)),
                                 ALL_MASK & ~((1 << tid(5, 5)) | (1 << tid(6, 6))
                                              | (1 << tid(0, 1)) | (1 << tid(3, 3))
                                              | (1 << tid(3, 5)) | (1 << tid(3, 6)))],
                      (), 0, 0)
        table.layout.lay(((tid(3, 3), -1, False, False, False),))
        table.layout.place(tid(3, 5), LEFT)
        table.layout.place(tid(3, 6), RIGHT)
        move = Move.of([Placement(T(6, 6), "right"), Placement(T(5, 5), "left", closed=True)])
        legal = table.legal(0, move)
        assert [p.end for p in legal] == ["left", "right"] and legal[0].closed
        table.apply(0, move)
        assert table.layout.ends[LEFT] == CLOSED and table.layout.ends[RIGHT] == 6


CROSS_SETTINGS = settings(max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


@CROSS_SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32),
       choices=st.randoms(use_true_random=False))
def test_random_play_on_a_cross_keeps_the_geometry_and_always_ends(players, seed, choices):
    """RULES.md §2.0: every generated move is legal on its layout (each placement fits the
    end it names, several doubles on different ends), the 28 tiles are conserved, touching
    halves match on the line and on every arm, and every round ends."""
    with cross_rules() as rules:
        state, _ = new_match(rules, players, seed)
        for _ in range(3):
            steps = 0
            start_round = state.round_no
            while not state.finished and state.round_no == start_round:
                rs = state.round
                lay = Layout.from_state(rs.layout)
                held = rs.layout.mask
                for h in rs.hands:
                    assert not held & h
                    held |= h
                for i in rs.bazar:
                    held |= 1 << i
                assert held == ALL_MASK
                chain = rs.layout.chain
                assert all(chain[i][1] == chain[i + 1][0] for i in range(len(chain) - 1))
                if rs.layout.spinner >= 0:
                    for arm in (rs.layout.up, rs.layout.down):
                        if arm:
                            assert arm[0][0] == rs.layout.spinner
                            assert all(arm[i][1] == arm[i + 1][0] for i in range(len(arm) - 1))
                for m in legal_moves(state):
                    if not rs.layout.line:
                        continue
                    ends = [p.end for p in m]
                    assert len(set(ends)) == len(ends)
                    for p in m:
                        code = ("left", "right", "up", "down", "gap").index(p.end)
                        assert lay.fits(TILE_ID[p.tile], code)
                        if p.closed:
                            assert p.tile.is_double
                state, _ = apply(state, state.to_act, choices.choice(legal_moves(state)))
                steps += 1
                assert steps < 200
            if state.finished:
                break


# -- §2.0.6 the count end by end (what the picture's end marks show) --------------------------
def test_end_counts_follow_the_rule_books_worked_example():
    """RULES.md §2.0.6's table, end by end: the values add up to the count, the spinner's
    empty side counts its two halves once at its own end, an empty arm adds nothing."""
    lay = Layout(cross=True)
    lead(lay, 2, 3)
    assert lay.end_counts() == {"left": 2, "right": 3}
    lay.place(tid(3, 3), RIGHT)  # the spinner; its right side is empty
    assert lay.end_counts() == {"left": 2, "right": 6} and lay.count() == 8
    lay.place(tid(3, 5), RIGHT)
    assert lay.end_counts() == {"left": 2, "right": 5}
    lay.place(tid(3, 6), UP)
    assert lay.end_counts() == {"left": 2, "right": 5, "up": 6}
    lay.place(tid(2, 2), LEFT)  # across: both halves
    assert lay.end_counts() == {"left": 4, "right": 5, "up": 6} and lay.count() == 15


def test_end_counts_of_a_lone_spinner_and_of_a_spinner_led_and_played_on():
    """A lone [5|5] counts 10 once, not 5 at each of its four ends (issue 20 item 13)."""
    lay = Layout(cross=True)
    lead(lay, 5, 5)
    assert lay.end_counts() == {"left": 10} and lay.count() == 10
    lay.place(tid(5, 0), UP)
    assert lay.end_counts() == {"left": 10, "up": 0}
    lay.place(tid(5, 2), RIGHT)  # the spinner's left side is still empty
    assert lay.end_counts() == {"left": 10, "right": 2, "up": 0} and lay.count() == 12
    lay.place(tid(5, 3), LEFT)
    assert lay.end_counts() == {"left": 3, "right": 2, "up": 0} and lay.count() == 5
    assert Layout(cross=True).end_counts() is None


@CROSS_SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32),
       choices=st.randoms(use_true_random=False))
def test_end_counts_always_add_up_to_the_count(players, seed, choices):
    """RULES.md §2.0.6: after every move of random play on a cross, what the ends add
    (``end_counts``) sums to ``count``, and only ends that exist count."""
    with cross_rules() as rules:
        state, _ = new_match(rules, players, seed)
        steps = 0
        while not state.finished and steps < 120:
            lay = state.round.layout
            counts = lay.end_counts()
            if lay.line:
                assert sum(counts.values()) == lay.count()
                names = ("left", "right", "up", "down", "gap")
                assert all(lay.ends[names.index(n)] != NO_END for n in counts)
            state, _ = apply(state, state.to_act, choices.choice(legal_moves(state)))
            steps += 1
