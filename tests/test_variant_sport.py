"""Спортивное домино (``sport``), RULES.md §2.7."""

from __future__ import annotations

import pytest

from engine import Rules, apply, legal_moves, new_match
from engine.records import replay
from tests.linekit import dealt, play, position, random_match

RULES = Rules(variant="sport")
# A deal without a misdeal (§1.3): [1|1] with seat 0.
HANDS = ["1-1 0-0 0-1 2-3 3-4 4-5 5-6", "0-2 1-2 1-3 1-4 2-5 3-5 4-6",
         "0-3 0-4 2-2 2-4 3-6 4-4 5-5", "0-5 0-6 1-5 1-6 2-6 3-3 6-6"]


def finish_round(state):
    """Play the round out with the first legal move each turn; the round is kept."""
    events = []
    while state.to_act is not None:
        state, evs = apply(state, state.to_act, legal_moves(state)[0], deal=False)
        events += evs
    return state, [e for e in events if e.kind == "round_scored"][0]


def last_deal(state, deals=8):
    """The position as the last deal of the match."""
    return state._replace(round_no=deals)


# -- options and seats ---------------------------------------------------------------------
def test_teams_are_always_on_and_false_is_accepted():
    """RULES.md §2.7: exactly 4 players in teams; a record may write "teams": true or leave
    it out, and §2 lets any record carry "teams": false — accepted, teams are still on."""
    assert RULES.teams is True
    assert Rules(variant="sport", teams=False).teams is True
    assert Rules.from_json({"variant": "sport", "teams": False}) == RULES
    assert RULES.to_json()["teams"] is True
    for players in (2, 3):
        with pytest.raises(ValueError):
            new_match(RULES, players, 1)
    state, _ = new_match(RULES, 4, 1)
    assert state.sides == 2 and state.side_of(2) == 0 and state.side_of(3) == 1


def test_option_deals():
    """RULES.md §2.7 option deals: 4, 8, 12 or 16; default 8."""
    assert RULES.deals == 8
    for n in (4, 12, 16):
        assert Rules(variant="sport", deals=n).deals == n
    for n in (0, 5, 20):
        with pytest.raises(ValueError, match="deals"):
            Rules(variant="sport", deals=n)


@pytest.mark.parametrize("option,value", [
    ("match_limit", 50), ("sticks", 3), ("losses", 2), ("multi_doubles", True),
    ("both_doubles_value", 12),
])
def test_options_it_does_not_read_are_refused(option, value):
    """RULES.md §2.7: no goat limit (match_limit is not read, accepted only at 101), and no
    other variant's options."""
    with pytest.raises(ValueError, match=r"sport.*§2\.7"):
        Rules(variant="sport", **{option: value})
    assert Rules(variant="sport", match_limit=101).deals == 8


def test_the_options_of_section_1_are_read():
    """RULES.md §2.7: Kozel scoring "with the options of §1" (fish_scoring,
    open_threshold, …)."""
    rules = Rules(variant="sport", fish_scoring="each_own", open_threshold=20,
                  fish_without_double=False, lone_zero_double_value=0, bazar_reserve=1)
    assert (rules.fish_scoring, rules.open_threshold, rules.fish_without_double,
            rules.lone_zero_double_value) == ("each_own", 20, False, 0)


# -- Kozel scoring every round -------------------------------------------------------------
def test_out_is_scored_by_section_1_in_teams():
    """RULES.md §2.7 with §1.12 and §1.14: seat 1 goes out; team 0 records both hands,
    7 + 5 = 12 < 13: remembered; team 1's remembered points are reset."""
    state = position(RULES, ["3-4", "1-2", "0-5", "6-6"], [(2, 2), (2, 6)], to_act=1,
                     remembered=[3, 9])
    state, events = play(state, "1-2 left")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.end == "out" and scored.hand_values == (12, 12)
    assert scored.recorded == (12, 0)
    assert state.scores == (0, 0) and state.remembered == (15, 0)


def test_open_threshold_option():
    """RULES.md §2.7 with §1.12 and option open_threshold 10: 12 points open the score."""
    rules = Rules(variant="sport", open_threshold=10)
    state = position(rules, ["3-4", "1-2", "0-5", "6-6"], [(2, 2), (2, 6)], to_act=1,
                     remembered=[3, 9])
    state, _ = play(state, "1-2 left")
    assert state.scores == (15, 0) and state.remembered == (0, 0)


FISH_CHAIN = [(6, 0), (0, 1), (1, 6), (6, 2), (2, 3), (3, 6), (6, 6), (6, 4), (4, 5)]


@pytest.mark.parametrize("mode,recorded", [("all_to_max", (0, 14)), ("each_own", (4, 10))])
def test_fish_is_scored_by_fish_scoring(mode, recorded):
    """RULES.md §2.7 "fish rounds count" with §1.13 on the team totals: team 0 holds 2 + 2,
    team 1 holds 3 + 7."""
    rules = Rules(variant="sport", fish_scoring=mode)
    state = position(rules, ["5-6 0-2", "0-3", "1-1", "3-4"], FISH_CHAIN, to_act=0)
    state, events = play(state, "5-6 right")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.end == "fish" and scored.hand_values == (4, 10)
    assert scored.recorded == recorded


# -- leads rotate --------------------------------------------------------------------------
def test_leads_rotate_from_the_first_leader():
    """RULES.md §2.7: round 1 per §1.5 ([1|1], seat 0); round k+1 is led by the seat after
    round k's leader with any tile — not by who fished (seat 2) or went out (seat 1)."""
    state = dealt(RULES, HANDS)
    assert state.to_act == 0 and len(legal_moves(state)) == 1
    state, scored = finish_round(state)
    assert scored.end == "fish" and scored.by == 2
    state = dealt(RULES, HANDS, state=state)
    assert state.to_act == 1 and len(legal_moves(state)) == 7
    state, scored = finish_round(state)
    assert scored.end == "out" and scored.by == 1
    state = dealt(RULES, HANDS, state=state)
    assert state.to_act == 2 and len(legal_moves(state)) == 7


# -- the last deal -------------------------------------------------------------------------
@pytest.mark.parametrize("deals", [4, 8])
def test_the_match_lasts_deals_rounds_fish_included(deals):
    """RULES.md §2.7: option deals fixes the number of rounds; fish rounds count; no goat
    limit, so scores past 101 do not end it."""
    rules = Rules(variant="sport", deals=deals)
    record, state, events = random_match(rules, 4, 3)
    scored = [e for e in events if e.kind == "round_scored"]
    assert len(scored) == deals == state.round_no
    assert [e.extra["deal"] for e in scored] == list(range(1, deals + 1))
    assert replay(record)["rounds"][-1]["deal"] == deals
    state = position(rules, ["3-4", "1-2", "0-5", "6-6"], [(2, 2), (2, 6)], to_act=1,
                     scores=[150, 0])
    state, _ = play(state, "1-2 left", deal=True)
    assert not state.finished and state.round_no == 2


def test_goat_is_the_higher_open_score_remembered_points_do_not_count():
    """RULES.md §2.7: after the last deal team 0 (open 45) is the goat though team 1 holds
    12 + 6 = 18 remembered points; team 1 rates round_half_up((45 − 0) / 10) = 5 (4.5 → 5,
    half up)."""
    state = position(RULES, ["1-2", "0-5", "3-4", "0-1"], [(2, 2), (2, 6)], to_act=0,
                     scores=[45, 0], remembered=[0, 12])
    state, _ = play(last_deal(state), "1-2 left", deal=True)
    assert state.scores == (45, 0) and state.remembered == (0, 18)
    assert state.result.goats == (0,) and state.result.rating == (0, 5)
    assert not state.result.draw


def test_the_pot_does_not_count():
    """RULES.md §2.7: the last deal is a tied fish (team totals 5 and 5): the pot grows to
    30 + 10 and goes to nobody; the higher open score (team 1, 25) is the goat."""
    state = position(RULES, ["5-6 0-2", "0-3", "1-2", "1-1"], FISH_CHAIN, to_act=0,
                     scores=[20, 25], pot=30)
    state, _ = play(last_deal(state), "5-6 right", deal=True)
    assert state.pot == 40 and state.scores == (20, 25)
    assert state.result.goats == (1,) and state.result.rating == (1, 0)


def test_equal_open_scores_are_a_draw_rated_one_each():
    """RULES.md §2.7: equal open scores after the last deal: a draw, no goat, every player
    rated 1."""
    state = position(RULES, ["1-2", "3-4", "0-5", "0-1"], [(2, 2), (2, 6)], to_act=0,
                     scores=[30, 22])
    state, events = play(last_deal(state), "1-2 left", deal=True)
    assert state.scores == (30, 30)
    assert state.result.goats == () and state.result.draw is True
    assert state.result.rating == (1, 1)
    ended = [e for e in events if e.kind == "match_ended"][0]
    assert ended.goats == ()


def test_rating_of_the_other_team_is_at_least_one():
    """RULES.md §2.7: the other team gets max(1, round_half_up((goat − own) / 10)): 77 − 32
    = 45 → 5; 33 − 30 = 3 → 0.3 → 1."""
    state = position(RULES, ["1-2", "3-4", "0-5", "0-1"], [(2, 2), (2, 6)], to_act=0,
                     scores=[32, 69])
    state, _ = play(last_deal(state), "1-2 left", deal=True)
    assert state.scores == (32, 77) and state.result.goats == (1,)
    assert state.result.rating == (5, 0)
    state = position(RULES, ["1-2", "3-4", "0-5", "0-1"], [(2, 2), (2, 6)], to_act=0,
                     scores=[30, 25])
    state, _ = play(last_deal(state), "1-2 left", deal=True)
    assert state.scores == (30, 33) and state.result.rating == (1, 0)


def test_records_replay_with_teams_false_draw_and_deal_keys():
    """RULES.md §2.7 and §2: a record carrying "teams": false replays as team play; each
    round reports its deal number; the result is the engine's."""
    record, state, _ = random_match(RULES, 4, 11)
    record["rules"]["teams"] = False
    out = replay(record)
    assert [r["deal"] for r in out["rounds"]] == list(range(1, 9))
    assert all(len(r["scores"]) == 2 for r in out["rounds"])
    assert out["goats"] == list(state.result.goats) and out["rating"] == list(
        state.result.rating)
    assert out.get("draw", False) == state.result.draw
