"""Традиционное домино (``traditional``), RULES.md §2.6, with the race of §2.0.7."""

from __future__ import annotations

import pytest

from engine import Rules, Tile, apply, apply_host_move, errors, legal_moves, new_match
from engine.records import replay
from engine.tiles import tiles_of
from tests.linekit import dealt, kinds, move, play, position, random_match

T = Tile.of
RULES = Rules(variant="traditional")
TEAMS = Rules(variant="traditional", teams=True)


# -- options -------------------------------------------------------------------------------
def test_options_and_their_defaults():
    """RULES.md §2.6 options: match_limit 100, teams, bazar_reserve 0."""
    assert (RULES.match_limit, RULES.teams, RULES.bazar_reserve) == (100, False, 0)
    assert Rules(variant="traditional", match_limit=150).match_limit == 150
    assert Rules(variant="traditional", bazar_reserve=2).bazar_reserve == 2
    assert TEAMS.teams is True


@pytest.mark.parametrize("option,value", [
    ("fish_without_double", False), ("open_threshold", 25), ("fish_scoring", "each_own"),
    ("lone_zero_double_value", 0), ("deals", 8), ("sticks", 3), ("losses", 2),
    ("multi_doubles", True),
])
def test_options_it_does_not_read_are_refused(option, value):
    """RULES.md §2: an option the variant does not read is refused unless at its §1
    default; §2.6 reads fish (a) only, so fish_without_double true is accepted."""
    with pytest.raises(ValueError, match=r"traditional.*§2\.6"):
        Rules(variant="traditional", **{option: value})
    assert Rules(variant="traditional", fish_without_double=True, open_threshold=13,
                 teams=False).match_limit == 100


def test_teams_need_four_players():
    """RULES.md §2.6: teams with 4 players only (§1.14)."""
    with pytest.raises(ValueError, match="exactly 4"):
        new_match(TEAMS, 3, 1)


# -- rule 1: the deal ----------------------------------------------------------------------
@pytest.mark.parametrize("players,size,bazar", [(2, 7, 14), (3, 5, 13), (4, 5, 8)])
def test_rule_1_deal(players, size, bazar):
    """RULES.md §2.6 rule 1: 7 each for 2 players, 5 each for 3–4; the rest is the bazar."""
    for seed in range(5):
        state, _ = new_match(RULES, players, seed)
        assert state.hand_sizes() == (size,) * players
        assert state.drawable == bazar


# -- rule 2: the lead of every round -------------------------------------------------------
HANDS_66 = ["0-1 0-2 0-3 1-2 1-3 2-3 5-5", "6-6 0-4 1-4 2-4 3-4 4-4 0-5"]


def test_rule_2_the_holder_of_six_six_leads_it():
    """RULES.md §2.6 rule 2: the holder of [6|6] leads it (no other tile, §1.5's forced
    lead), even while another player holds [5|5]."""
    state = dealt(RULES, HANDS_66)
    assert state.to_act == 1
    assert legal_moves(state) == (move("6-6"),)
    with pytest.raises(errors.WrongLead):
        apply(state, 1, move("4-4"))


def test_rule_2_then_the_next_double_down():
    """RULES.md §2.6 rule 2: nobody holds [6|6] (it is in the bazar): [5|5], then [4|4], …,
    [0|0]."""
    state = dealt(RULES, ["0-1 0-2 0-3 1-2 1-3 2-3 4-4", "1-1 0-4 1-4 2-4 3-4 5-6 0-5"])
    assert state.to_act == 0 and legal_moves(state) == (move("4-4"),)
    state = dealt(RULES, ["0-1 0-2 0-3 1-2 1-3 2-3 0-0", "1-1 0-4 1-4 2-4 3-4 5-6 0-5"])
    assert state.to_act == 1 and legal_moves(state) == (move("1-1"),)


def test_rule_2_without_doubles_the_highest_non_double():
    """RULES.md §2.6 rule 2: no double in any hand: the highest non-double by §1.5's order
    ([5|6], [4|6], [3|6], [4|5], …)."""
    state = dealt(RULES, ["0-1 0-2 0-3 1-2 1-3 2-3 4-5", "0-4 1-4 2-4 3-4 3-6 0-5 1-5"])
    assert state.to_act == 1 and legal_moves(state) == (move("3-6"),)


def test_rule_2_applies_to_every_round_not_the_winner():
    """RULES.md §2.6 rule 2 "of every round": after seat 0 goes out, round 2 is led by the
    holder of [6|6] (seat 1) with it — not by the winner with any tile (§1.6)."""
    state = position(RULES, ["1-2", "3-4 5-5"], [(2, 2), (2, 6)], to_act=0)
    state, _ = play(state, "1-2 left")
    assert state.round.end == "out" and state.round.last == 0
    state = dealt(RULES, HANDS_66, state=state)
    assert state.round_no == 2 and state.to_act == 1
    assert legal_moves(state) == (move("6-6"),)


# -- rule 3: the round end -----------------------------------------------------------------
def test_rule_3_out_scores_the_other_hands():
    """RULES.md §2.6 rule 3: seat 0 goes out and scores the other hands: 7 + 9 = 16."""
    state = position(RULES, ["1-2", "3-4", "4-5"], [(2, 2), (2, 6)], to_act=0)
    state, events = play(state, "1-2 left")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.end == "out" and scored.by == 0
    assert scored.hand_values == (0, 7, 9)
    assert scored.recorded == (16, 0, 0) and state.scores == (16, 0, 0)
    assert state.remembered == (0, 0, 0) and state.pot == 0


def test_rule_3_out_in_teams_does_not_count_the_partner():
    """RULES.md §2.6 rule 3: "not the partner's": seat 0 goes out; its team scores seats 1
    and 3 (7 + 9), not its partner seat 2 (11)."""
    state = position(TEAMS, ["1-2", "3-4", "5-6", "4-5"], [(2, 2), (2, 6)], to_act=0)
    state, events = play(state, "1-2 left")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.hand_values == (11, 16)
    assert scored.recorded == (16, 0) and state.scores == (16, 0)


def test_rule_3_plain_pips_a_lone_zero_double_is_zero():
    """RULES.md §2.6 rule 3 "plain pip sums" (§2.0.7: [0|0] is 0): a hand that is only
    [0|0] counts 0, not §1.11's 10."""
    state = position(RULES, ["1-2", "0-0", "4-5"], [(2, 2), (2, 6)], to_act=0)
    state, events = play(state, "1-2 left")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.hand_values == (0, 0, 9) and state.scores == (9, 0, 0)


# Both ends 6 and every tile of suit 6 on the table once [5|6] goes right: blocked.
FISH_CHAIN = [(6, 0), (0, 1), (1, 6), (6, 2), (2, 3), (3, 6), (6, 6), (6, 4), (4, 5)]


def test_rule_3_fish_the_strictly_lowest_scores_the_others_minus_its_own():
    """RULES.md §2.6 rule 3: after a fish, hands 2, 6 and 8: seat 0 (lowest) scores
    6 + 8 − 2 = 12."""
    state = position(RULES, ["5-6 0-2", "1-2 0-3", "1-3 0-4"], FISH_CHAIN, to_act=0)
    state, events = play(state, "5-6 right")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.end == "fish" and scored.by == 0
    assert scored.hand_values == (2, 6, 8)
    assert scored.recorded == (12, 0, 0) and state.scores == (12, 0, 0)


def test_rule_3_fish_the_lowest_need_not_be_the_fisher_and_teams_sum():
    """RULES.md §2.6 rule 3 with teams: team sums 3 + 4 = 7 against 2 + 1 = 3: team 1
    (lowest) scores 7 − 3 = 4, though seat 0 fished."""
    state = position(TEAMS, ["5-6 0-3", "0-2", "0-4", "0-1"], FISH_CHAIN, to_act=0)
    state, events = play(state, "5-6 right")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.end == "fish" and scored.hand_values == (7, 3)
    assert scored.recorded == (0, 4)


def test_rule_3_fish_tie_scores_nothing():
    """RULES.md §2.6 rule 3: the lowest hands are tied (3 and 3): nothing is scored."""
    state = position(RULES, ["5-6 0-3", "1-2", "0-4 1-3"], FISH_CHAIN, to_act=0,
                     scores=[5, 6, 7])
    state, events = play(state, "5-6 right")
    scored = [e for e in events if e.kind == "round_scored"][0]
    assert scored.end == "fish" and scored.recorded == (0, 0, 0)
    assert state.scores == (5, 6, 7)


def test_rule_3_fish_a_only():
    """RULES.md §2.6 options: no fish_without_double, so fish (b) does not apply: both ends
    6 with the six non-doubles of 6 down and [6|6] in a hand is no fish; [6|6] is played."""
    chain = [(6, 0), (0, 1), (1, 6), (6, 2), (2, 3), (3, 6), (6, 4), (4, 5)]
    state = position(RULES, ["5-6 0-2", "6-6 0-3"], chain, to_act=0)
    state, _ = play(state, "5-6 right")
    assert state.round.end is None and state.to_act == 1
    assert legal_moves(state) == (move("6-6 right"),)
    classic = position(Rules(), ["5-6 0-2", "6-6 0-3"], chain, to_act=0)
    classic, _ = play(classic, "5-6 right")
    assert classic.round.end == "fish"  # the same position is fish (b) in §1


def test_rule_3_draw_from_the_bazar_with_reserve():
    """RULES.md §2.6 (everything else §1.8, option bazar_reserve 1): seat 1 has nothing for
    the ends 1 and 6 and draws [0|4], [0|5]; the reserved [1|6], which would fit, is never
    drawn: seat 1 knocks."""
    rules = Rules(variant="traditional", bazar_reserve=1)
    state = position(rules, ["1-2 3-4 5-6", "0-0 0-3"], [(2, 2), (2, 6)], to_act=0,
                     bazar="0-4 0-5 1-6")
    state, events = play(state, "1-2 left")
    assert kinds(events) == ["played", "drew", "drew", "knocked"]
    assert tiles_of(state.round.hands[1]) == (T(0, 0), T(0, 3), T(0, 4), T(0, 5))
    assert state.round.drawable == 0 and state.to_act == 0


# -- the race ------------------------------------------------------------------------------
def test_race_ends_after_the_round_that_reaches_the_limit():
    """RULES.md §2.6 rule 3 and §2.0.7: 95 + 7 = 102 ≥ 100 ends the match at the round's
    end; the winner is seat 0; the goat the fewest points; rating (102 − 0) × 10 / 100 =
    10.2 → 10."""
    state = position(RULES, ["1-2", "3-4"], [(2, 2), (2, 6)], to_act=0, scores=[95, 0])
    state, events = play(state, "1-2 left", deal=True)
    assert state.finished and state.scores == (102, 0)
    assert state.result.goats == (1,) and state.result.winners == (0,)
    assert state.result.rating == (10, 0)
    ended = [e for e in events if e.kind == "match_ended"][0]
    assert ended.winners == (0,) and ended.goats == (1,)


def test_race_below_the_limit_goes_on():
    """RULES.md §2.6: 92 + 7 = 99 < 100: the next round is dealt; with match_limit 150 even
    102 goes on."""
    state = position(RULES, ["1-2", "3-4"], [(2, 2), (2, 6)], to_act=0, scores=[92, 0])
    state, _ = play(state, "1-2 left", deal=True)
    assert not state.finished and state.round_no == 2 and state.scores == (99, 0)
    rules = Rules(variant="traditional", match_limit=150)
    state = position(rules, ["1-2", "3-4"], [(2, 2), (2, 6)], to_act=0, scores=[95, 0])
    state, _ = play(state, "1-2 left", deal=True)
    assert not state.finished and state.scores == (102, 0)


def test_race_rating_rounds_half_up_and_is_at_least_one():
    """RULES.md §2.0.7: goat 35; (100 − 35) × 10 / 100 = 6.5 → 7; (60 − 35) → 2.5 → 3 (half
    up, not to even)."""
    state = position(RULES, ["1-2", "3-4", "1-1"], [(2, 2), (2, 6)], to_act=0,
                     scores=[91, 35, 60])
    state, _ = play(state, "1-2 left", deal=True)
    assert state.scores == (100, 35, 60)
    assert state.result.goats == (1,) and state.result.rating == (7, 0, 3)
    state = position(RULES, ["1-2", "3-4", "1-1"], [(2, 2), (2, 6)], to_act=0,
                     scores=[91, 35, 36])
    state, _ = play(state, "1-2 left", deal=True)
    assert state.result.rating == (7, 0, 1)  # 0.1 → the minimum 1


def test_race_tied_goats():
    """RULES.md §2.0.7: the goat is the side with the fewest points, all tied sides."""
    state = position(RULES, ["1-2", "3-4", "1-1"], [(2, 2), (2, 6)], to_act=0,
                     scores=[91, 20, 20])
    state, _ = play(state, "1-2 left", deal=True)
    assert state.result.goats == (1, 2) and state.result.rating == (8, 0, 0)


def test_timeout_rating_takes_the_race_form():
    """RULES.md §1.17 in a race (unclear in the rule book, see the module doc): the timed-out
    side 0, every other side max(1, round_half_up((score − its score) × 10 / limit)):
    (10 − 40) → 1, (75 − 40) × 10 / 100 = 3.5 → 4."""
    rules = Rules(variant="traditional", afk_limit=1)
    state = position(rules, ["1-2 3-3", "1-3 4-4", "5-5 0-0"], [(2, 2), (2, 6)], to_act=0,
                     scores=[40, 10, 75])
    state, _ = apply_host_move(state)
    assert state.round.end is None and state.scores == (40, 10, 75)
    assert state.result.reason == "timeout" and state.result.timed_out == 0
    assert state.result.rating == (0, 1, 4)


# -- records -------------------------------------------------------------------------------
def test_records_replay_race_scores_and_winners():
    """RULES.md §2.6: a recorded match replays with the race scores per round and the
    winners at the top."""
    record, state, _ = random_match(RULES, 3, 7)
    out = replay(record)
    assert out["finished"] and out["winners"] == list(state.result.winners)
    assert out["rounds"][-1]["scores"] == list(state.scores)
    assert max(state.scores) >= 100 > max(out["rounds"][-2]["scores"])
    for r in out["rounds"]:
        assert r["remembered"] == [0, 0, 0] and r["pot"] == 0
        assert sum(1 for x in r["recorded"] if x) <= 1
