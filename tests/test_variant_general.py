"""Генерал (``general``), RULES.md §2.9."""

from __future__ import annotations

import pytest

from engine import Rules, Tile, legal_moves, new_match
from engine.records import replay
from tests.linekit import dealt, kinds, move, play, position, random_match
from tools.simulate import simulate

T = Tile.of
RULES = Rules(variant="general")
# A deal without a misdeal (§1.3): [1|1] with seat 2.
HANDS = ["0-2 1-2 1-3 1-4 2-5 3-5 4-6", "0-3 0-4 2-2 2-4 3-6 4-4 5-5",
         "1-1 0-0 0-1 2-3 3-4 4-5 5-6", "0-5 0-6 1-5 1-6 2-6 3-3 6-6"]
CHAIN = [(1, 3), (3, 4)]  # ends 1 and 4


def scored_of(events):
    return [e for e in events if e.kind == "round_scored"][0]


# -- options and seats ---------------------------------------------------------------------
def test_teams_always_and_option_losses():
    """RULES.md §2.9: exactly 4 players, teams always on (as §2.7: "teams": false is
    accepted, still teams); option losses, default 2."""
    assert RULES.teams is True and RULES.losses == 2
    assert Rules(variant="general", teams=False).teams is True
    assert Rules(variant="general", losses=3).losses == 3
    for players in (2, 3):
        with pytest.raises(ValueError):
            new_match(RULES, players, 1)


@pytest.mark.parametrize("option,value", [
    ("fish_without_double", False), ("match_limit", 50), ("bazar_reserve", 1),
    ("open_threshold", 20), ("fish_scoring", "each_own"), ("deals", 8), ("sticks", 3),
])
def test_options_it_does_not_read_are_refused(option, value):
    """RULES.md §2.9: fish (a) only, no points, no bazar: other options are refused unless
    at their §1 default."""
    with pytest.raises(ValueError, match=r"general.*§2\.9"):
        Rules(variant="general", **{option: value})


def test_seven_tiles_each_no_bazar():
    """RULES.md §2.9: 7 tiles each, so the bazar is empty."""
    for seed in range(5):
        state, _ = new_match(RULES, 4, seed)
        assert state.hand_sizes() == (7, 7, 7, 7) and state.drawable == 0


# -- rule 1: the lead of every round -------------------------------------------------------
def test_rule_1_the_holder_of_one_one_leads_it_every_round():
    """RULES.md §2.9 rule 1: the holder of [1|1] leads it — in round 2 too, not the player
    who went out (seat 0)."""
    state = dealt(RULES, HANDS)
    assert state.to_act == 2 and legal_moves(state) == (move("1-1"),)
    state = position(RULES, ["1-2", "5-5", "0-0", "0-2"], CHAIN, to_act=0)
    state, _ = play(state, "1-2 left")
    state = dealt(RULES, HANDS, state=state)
    assert state.round_no == 2 and state.to_act == 2
    assert legal_moves(state) == (move("1-1"),)


# -- rule 2: fish is void ------------------------------------------------------------------
def test_rule_2_a_blocked_round_is_void_and_dealt_again():
    """RULES.md §2.9 rule 2: [4|6] leaves ends 1 and 6 that nothing fits: the round is void
    (no fish), nothing is counted, and the next deal is led by the holder of [1|1]."""
    state = position(RULES, ["4-6 0-0", "5-5", "2-2", "0-2"], CHAIN, to_act=0,
                     losses=[1, 1])
    state, events = play(state, "4-6 right", deal=True)
    assert "fish" not in kinds(events)
    assert kinds(events)[:3] == ["played", "void", "round_scored"]
    scored = scored_of(events)
    assert scored.end == "void" and scored.losers == () and scored.recorded == (0, 0)
    assert scored.extra == {"losses": (1, 1)}
    assert state.own.losses == (1, 1) and not state.finished and state.round_no == 2
    dealt_ev = [e for e in events if e.kind == "dealt"][0]
    assert dealt_ev.lead_tile == T(1, 1) and state.to_act == dealt_ev.leader
    assert Tile(1, 1) in state.hand(state.to_act)


def test_rule_2_fish_b_does_not_apply():
    """RULES.md §2.9 "fish (a) only": both ends 6 with the six non-doubles of 6 down and
    [6|6] in a hand is no fish; [6|6] is played."""
    chain = [(6, 0), (0, 1), (1, 6), (6, 2), (2, 3), (3, 6), (6, 4), (4, 5)]
    state = position(RULES, ["5-6 0-2", "6-6 0-3", "1-2", "0-4"], chain, to_act=0)
    state, _ = play(state, "5-6 right")
    assert state.round.end is None and legal_moves(state) == (move("6-6 right"),)


# -- rule 3: the round end -----------------------------------------------------------------
@pytest.mark.parametrize("finisher,team", [(0, 1), (1, 0), (2, 1), (3, 0)])
def test_rule_3_the_next_player_loses_the_round_for_the_team(finisher, team):
    """RULES.md §2.9 rule 3: the loser is the next player in turn after the finisher (an
    opponent); the loser's team loses the round."""
    hands = ["5-5", "0-0", "2-2", "0-3"]
    hands[finisher] = "1-2"
    state = position(RULES, hands, CHAIN, to_act=finisher)
    state, events = play(state, "1-2 left", deal=True)
    scored = scored_of(events)
    assert scored.end == "out" and scored.by == finisher
    assert scored.losers == (team,) and "general" not in scored.extra
    assert state.own.losses == tuple(int(s == team) for s in range(2))
    assert scored.recorded == (0, 0) and state.scores == (0, 0)
    assert not state.finished


@pytest.mark.parametrize("last,chain", [("0-0", [(0, 3), (3, 5)]), ("6-6", [(5, 3), (3, 6)])])
def test_rule_3_and_4_a_finish_on_zero_zero_or_six_six_makes_a_general(last, chain):
    """RULES.md §2.9 rules 3–4: seat 1 goes out with [0|0] or [6|6]: seat 2 is a general;
    team 0 is the goat at once (no lost rounds before), the other team rated 2."""
    state = position(RULES, ["1-2", last, "2-4", "1-4"], chain, to_act=1)
    state, events = play(state, f"{last} {'left' if last == '0-0' else 'right'}", deal=True)
    scored = scored_of(events)
    assert scored.losers == (0,) and scored.extra == {"general": True, "losses": (1, 0)}
    assert state.finished and state.result.goats == (0,)
    assert state.result.title == "general" and state.result.rating == (0, 2)
    ended = [e for e in events if e.kind == "match_ended"][0]
    assert ended.title == "general" and ended.goats == (0,)


def test_rule_3_only_the_last_tile_makes_a_general():
    """RULES.md §2.9 rule 3: [6|6] played earlier, or another double last, is no general."""
    state = position(RULES, ["6-6 1-6", "2-2", "0-4", "1-4"], [(5, 3), (3, 6)], to_act=0)
    state, events = play(state, "6-6 right")
    assert kinds(events) == ["played", "knocked", "knocked", "knocked"] and state.to_act == 0
    state, events = play(state, "1-6 right", deal=True)
    assert scored_of(events).extra == {"losses": (0, 1)} and not state.finished
    state = position(RULES, ["5-5", "2-2", "0-4", "1-4"], [(1, 3), (3, 5)], to_act=0)
    state, events = play(state, "5-5 right", deal=True)
    assert "general" not in scored_of(events).extra and not state.finished


# -- rule 4: the match ---------------------------------------------------------------------
def test_rule_4_losses_lost_rounds_make_the_goat():
    """RULES.md §2.9 rule 4: team 0 loses its second round: the goat; team 1 rated 1; no
    title."""
    state = position(RULES, ["5-5", "1-2", "0-0", "0-3"], CHAIN, to_act=1, losses=[1, 1])
    state, events = play(state, "1-2 left", deal=True)
    assert state.finished and state.own.losses == (2, 1)
    assert state.result.goats == (0,) and state.result.rating == (0, 1)
    assert state.result.title is None


def test_option_losses():
    """RULES.md §2.9 option losses 3: two lost rounds do not end the match, three do."""
    rules = Rules(variant="general", losses=3)
    state = position(rules, ["5-5", "1-2", "0-0", "0-3"], CHAIN, to_act=1, losses=[1, 0])
    state, _ = play(state, "1-2 left", deal=True)
    assert not state.finished and state.own.losses == (2, 0)
    state = position(rules, ["5-5", "1-2", "0-0", "0-3"], CHAIN, to_act=1, losses=[2, 0])
    state, _ = play(state, "1-2 left", deal=True)
    assert state.finished and state.result.goats == (0,) and state.result.rating == (0, 1)


def test_rule_4_a_general_ends_the_match_whatever_the_losses():
    """RULES.md §2.9 rule 4 "at once": with losses 5 a single general ends the match."""
    rules = Rules(variant="general", losses=5)
    state = position(rules, ["1-2", "0-0", "2-4", "1-4"], [(0, 3), (3, 5)], to_act=1)
    state, _ = play(state, "0-0 left", deal=True)
    assert state.finished and state.result.title == "general"


# -- records, replay, simulate -------------------------------------------------------------
def test_replay_reports_losses_generals_and_void_rounds():
    """RULES.md §2.9: per round losers, losses and general; void rounds as "end": "void";
    at the top losses and the title."""
    seen = set()
    for seed in range(40):
        record, state, events = random_match(RULES, 4, seed)
        record["rules"]["teams"] = False  # §2: accepted, still teams
        out = replay(record)
        assert out["losses"] == list(state.own.losses)
        assert out["goats"] == list(state.result.goats)
        assert out.get("title") == state.result.title
        losses = [0, 0]
        for r in out["rounds"]:
            if r["end"] == "void":
                assert "losers" not in r and "general" not in r
                seen.add("void")
            else:
                assert r["end"] == "out"
                loser = (r["by"] + 1) % 2
                assert r["losers"] == [loser]
                losses[loser] += 1
                seen.add("general" if r.get("general") else "out")
            assert r["losses"] == losses
        if out.get("title") == "general":
            assert out["rounds"][-1]["general"] is True and out["rating"].count(2) == 1
        else:
            assert max(losses) == 2 and out["rating"].count(1) == 1
        if seen == {"void", "general", "out"}:
            break
    assert seen == {"void", "general", "out"}


def test_simulate_counts_void_rounds_and_generals():
    """RULES.md §2.9 rules 2 and 4 in the simulation totals."""
    totals = simulate(RULES, 4, 40, 3).as_dict(2)
    assert totals["round_ends"]["void"] == totals["special"]["void"] > 0
    assert totals["titles"]["general"] > 0 and totals["fish"] == 0
