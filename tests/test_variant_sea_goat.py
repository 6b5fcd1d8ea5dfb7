"""Морской козёл (``sea_goat``): every numbered rule and option of RULES.md §2.1.

Positions are written by hand: a line laid move by move (:func:`laid`), hands in the
notation of RULES.md §0, and every tile named nowhere put at the end of the bazar as
reserved (RULES.md §1.4), so that it can be neither drawn nor played.  Leads are dealt with
:func:`engine.match.deal_given` after a match state that says how many rounds were played.
The invariants every variant keeps come from ``tests/test_variants_common.py``; the
properties at the end pin what is particular to this variant.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Placement, Rules, Tile, apply, apply_host_move, errors, legal_moves
from engine.__main__ import main
from engine.events import RoundScored
from engine.layout import GAP_OPEN, Layout
from engine.match import deal_given, new_match, start_match
from engine.moves import END_CODE, GAP
from engine.records import ReplayError, parse_decision, replay
from engine.table import Table
from engine.tiles import TILE_ID
from engine.variants.sea_goat import FAST_ALLOWED, SeaMatch
from tests.enginekit import mask, tiles
from tests.test_engine_records import _played_record
from tools.simulate import main as simulate_main

R = Rules(variant="sea_goat")
T = Tile.parse
P = Placement
EXTRA = Move.of([P(T("0-0"), "left"), P(T("6-6"), "right")])


def tid(code: str) -> int:
    return TILE_ID[T(code)]


def laid(lead: str | None = None, *steps: tuple[str, str]) -> Layout:
    """A line laid move by move: the lead as a record writes it (``"6-5"`` shows 6 on the
    left, RULES.md §0) or ``"extra"`` for [0|0] and [6|6] with the gap (rule 7), then
    ``(tile, end)`` placements."""
    lay = Layout()
    if lead == "extra":
        lay.lay(((tid("0-0"), 0, False, False, False), (tid("6-6"), 1, False, False, False)))
    elif lead is not None:
        a, b = (int(x) for x in lead.split("-"))
        lay.lay(((tid(lead), -1, False, False, a > b),))
    for code, end in steps:
        lay.lay(((tid(code), END_CODE[end], False, False, False),))
    return lay


def position(hands: list[str], lay: Layout | None = None, *, to_act: int = 0,
             leader: int | None = None, bazar: str = "", fast: str | None = None,
             phase: int = 0, rules: Rules = R):
    """A round of ``rules`` in progress (the round core's :class:`RoundState`)."""
    lay = lay or Layout()
    held = [mask(h) for h in hands]
    named = lay.mask | mask(bazar)
    for h in held:
        assert not named & h, "a tile is named twice"
        named |= h
    dead = [i for i in range(28) if not named >> i & 1]
    bz = tuple(TILE_ID[t] for t in tiles(bazar)) + tuple(dead)
    t = Table(rules, len(hands), held, bz, rules.bazar_reserve + len(dead),
              to_act if leader is None else leader, fast=fast, phase=phase)
    t.layout = lay
    t.to_act = to_act
    t.last = (to_act - 1) % len(hands) if lay.line else -1
    return t.state()


def match(rs, scores=None, pot: int = 0, rounds: int = 5):
    """A match whose current round is ``rs``, ``rounds`` rounds played before it."""
    rules = rs.rules
    return start_match(rules, rs.players, rs, "sea", scores, None, pot,
                       own=SeaMatch(rounds))


def play(state, *decisions, deal: bool = False):
    """Apply decisions (record dicts or moves) for the seat to act; returns the state and
    every event."""
    events: list = []
    for d in decisions:
        move = parse_decision(d)[0] if isinstance(d, dict) else d
        state, evs = apply(state, state.to_act, move, deal=deal)
        events += evs
    return state, events


def scored(events) -> RoundScored:
    (ev,) = [e for e in events if isinstance(e, RoundScored)]
    return ev


def after_round(rules=R, players: int = 3, scores=None, rounds: int = 5, last: int = 1,
                end: str = "out", pot: int = 0):
    """A match waiting for its next deal: ``rounds`` rounds played, the last one ended by
    ``end`` with seat ``last`` going out or fishing."""
    state = start_match(rules, players, None, "sea", scores, None, pot,
                        own=SeaMatch(rounds))
    return state._replace(round=state.round._replace(last=last, leader=last, end=end))


def dealt(state, hands: list[str]):
    """Deal ``hands`` (7 tiles each) as the next round; the rest is the bazar."""
    held = [mask(h) for h in hands]
    used = 0
    for h in held:
        used |= h
    bazar = tuple(i for i in range(28) if not used >> i & 1)
    state, _ = deal_given(state, tuple(held), bazar, first=state.own.rounds == 0)
    return state


# Three hands and a bazar ("0-6 2-2 3-3 4-4 5-5 4-6 5-6"): [1|1] with seat 0, [6|6] with
# seat 1, [0|0] with seat 2.
DEAL = ["1-1 0-1 0-2 0-3 0-4 0-5 2-3", "6-6 1-2 1-3 1-4 1-5 2-4 2-5",
        "0-0 1-6 2-6 3-4 3-5 3-6 4-5"]
# Seat 1 holds [0|0] and [6|6].
BOTH = ["1-1 0-1 0-2 0-3 0-4 2-5 2-3", "0-0 6-6 1-2 1-3 1-4 1-5 2-4",
        "0-5 1-6 2-6 3-4 3-5 3-6 4-5"]
# The same for four players (no bazar).
BOTH4 = BOTH + ["0-6 2-2 3-3 4-4 5-5 4-6 5-6"]


# -- options ---------------------------------------------------------------------------------
def test_options_and_their_defaults():
    """RULES.md §2.1 options: match_limit 125, open_threshold 25, both_doubles_value 12,
    fish_without_double true, bazar_reserve 0, teams false; the goat word «морской козёл»."""
    assert (R.match_limit, R.open_threshold, R.both_doubles_value, R.fish_without_double,
            R.bazar_reserve, R.teams) == (125, 25, 12, True, 0, False)
    assert set(R.to_json()) >= {"match_limit", "open_threshold", "both_doubles_value",
                                "fish_without_double", "bazar_reserve", "teams"}
    assert Rules.from_json(R.to_json()) == R
    assert R.spec.goat_word == "sea_goat"


@pytest.mark.parametrize("option,value", [
    ("lone_zero_double_value", 0), ("fish_scoring", "each_own"), ("multi_doubles", True),
    ("deals", 8), ("sticks", 3), ("losses", 2)])
def test_options_it_does_not_read_are_refused(option, value):
    """RULES.md §2: an option the variant does not read is refused, naming the variant (rule
    2 replaces §1.11's lone [0|0]; rule 3 replaces §1.13's fish scoring)."""
    with pytest.raises(ValueError, match=r"sea_goat.*§2\.1"):
        Rules(variant="sea_goat", **{option: value})


def test_options_at_their_classic_default_are_accepted():
    """RULES.md §2: an option that is not read may still hold its §1 default."""
    rules = Rules(variant="sea_goat", lone_zero_double_value=10, fish_scoring="all_to_max")
    assert rules == R


def test_teams_need_four_players():
    """RULES.md §2.1: teams allowed with 4 players (option teams, default false)."""
    rules = Rules(variant="sea_goat", teams=True)
    rules.check_players(4)
    with pytest.raises(ValueError, match="4 players"):
        rules.check_players(3)
    for n in (2, 3, 4):
        R.check_players(n)


def test_bazar_reserve_option():
    """RULES.md §2.1 option bazar_reserve (§1.4): the last N tiles of the bazar are never
    drawn."""
    state, _ = new_match(Rules(variant="sea_goat", bazar_reserve=2), 2, 7)
    assert state.drawable == 12 and state.reserve == 2


# -- rule 1: moves ---------------------------------------------------------------------------
def test_rule_1_two_doubles_at_once_one_on_each_end():
    """RULES.md §2.1 rule 1: one tile, or two doubles at once, one on each end of the line."""
    rs = position(["3-3 5-5 1-2", "1-1 3-6"], laid("3-4", ("4-5", "right")))
    state = match(rs)
    pair = Move.of([P(T("3-3"), "left"), P(T("5-5"), "right")])
    assert set(legal_moves(state)) == {Move(T("3-3"), "left"), Move(T("5-5"), "right"), pair}
    state, _ = play(state, {"tiles": [{"tile": "5-5", "end": "right"},
                                      {"tile": "3-3", "end": "left"}]})
    assert state.chain == ((3, 3), (3, 4), (4, 5), (5, 5))
    assert state.hand(0) == (T("1-2"),) and state.to_act == 1


def test_rule_1_no_other_tiles_at_once():
    """RULES.md §2.1 rule 1: two tiles at once only as two doubles, one on each end."""
    state = match(position(["1-3 2-5 4-4", "1-1 3-6"], laid("3-4", ("4-5", "right"))))
    assert all(len(m) == 1 for m in legal_moves(state))
    with pytest.raises(errors.MoveNotAllowed, match="rule 1") as e:
        apply(state, 0, Move.of([P(T("1-3"), "left"), P(T("2-5"), "right")]))
    assert e.value.rule == "RULES.md §2.1"


def test_rule_1_going_out_with_two_doubles():
    """RULES.md §2.1 rule 1: a player may go out with two doubles."""
    state = match(position(["3-3 5-5", "1-1 3-6"], laid("3-4", ("4-5", "right"))),
                  scores=(30, 30))
    state, events = play(state, Move.of([P(T("3-3"), "left"), P(T("5-5"), "right")]))
    ev = scored(events)
    assert (ev.end, ev.by, ev.recorded) == ("out", 0, (0, 11))


def test_rule_1_two_doubles_never_lead():
    """RULES.md §2.1 rule 1: two doubles at once never as a lead."""
    state = dealt(after_round(scores=(0, 0, 0), rounds=5, last=0),
                  ["3-3 5-5 0-1 0-2 0-3 0-4 0-5", DEAL[1], DEAL[2].replace("0-0", "1-1")])
    assert state.round.leader == 0 and all(len(m) == 1 for m in legal_moves(state))
    with pytest.raises(errors.MoveNotAllowed):
        apply(state, 0, Move.of([P(T("3-3"), "left"), P(T("5-5"), "right")]))


# -- rule 2: hand value ----------------------------------------------------------------------
@pytest.mark.parametrize("hand,value", [
    ("0-0", 25), ("6-6", 50), ("0-0 6-6", 12), ("0-0 1-2", 3), ("6-6 1-1", 14),
    ("2-3 4-5", 14), ("", 0)])
def test_rule_2_hand_values(hand, value):
    """RULES.md §2.1 rule 2: only [0|0] counts 25, only [6|6] 50, only [0|0] and [6|6]
    both_doubles_value (12); [0|0] beside other tiles counts 0 pips."""
    assert R.spec.hand_value(mask(hand), R) == value


def test_rule_2_both_doubles_value_option_is_what_the_loser_records():
    """RULES.md §2.1 rule 2, option both_doubles_value: a loser holding only [0|0] and [6|6]
    records that value."""
    rules = Rules(variant="sea_goat", both_doubles_value=75)
    assert rules.spec.hand_value(mask("0-0"), rules) == 25
    state = match(position(["2-3", "0-0 6-6"], laid("1-2"), rules=rules), scores=(30, 30))
    _, events = play(state, Move(T("2-3"), "right"))
    assert scored(events).recorded == (0, 75) and scored(events).scores == (30, 105)


# -- rule 3: the loser records alone ---------------------------------------------------------
def test_rule_3_only_the_loser_records_its_hand_value():
    """RULES.md §2.1 rule 3: after an out the side with the strictly highest hand value is
    the loser; only it records, its hand value as round points."""
    state = match(position(["2-3", "4-6", "4-5 5-6 3-3"], laid("1-2")), scores=(30, 40, 50))
    _, events = play(state, Move(T("2-3"), "right"))
    ev = scored(events)
    assert ev.hand_values == (0, 10, 26)
    assert (ev.recorded, ev.scores, ev.losers, ev.remembered) == (
        (0, 0, 26), (30, 40, 76), (2,), (0, 0, 0))


def test_rule_3_a_tie_feeds_the_pot_and_the_next_loser_takes_it():
    """RULES.md §2.1 rule 3: a tie for the highest value records nothing and puts the sum of
    the tied values into the pot; the loser of the next round that has a loser gets it on
    top; a further tie lets it grow."""
    state = match(position(["2-3", "4-6", "5-5"], laid("1-2")), scores=(30, 40, 50), pot=3)
    state, events = play(state, Move(T("2-3"), "right"))
    ev = scored(events)
    assert (ev.recorded, ev.scores, ev.pot, ev.losers) == ((0, 0, 0), (30, 40, 50), 23, (1, 2))
    tie = state._replace(round=position(["2-3", "4-6", "5-5"], laid("1-2")))
    state, events = play(tie, Move(T("2-3"), "right"))
    assert scored(events).pot == 43
    nxt = state._replace(round=position(["2-3", "4-6", "4-5 5-6 3-3"], laid("1-2")))
    _, events = play(nxt, Move(T("2-3"), "right"))
    ev = scored(events)
    assert (ev.recorded, ev.scores, ev.pot, ev.pot_won) == ((0, 0, 69), (30, 40, 119), 0, 43)


def test_rule_3_after_a_fish_the_strictly_highest_of_all_sides_loses():
    """RULES.md §2.1 rule 3: after a fish the loser is the side with the strictly highest
    hand value, the fisher too."""
    state = match(position(["2-2 4-6 5-6", "3-4 3-5", "0-3 0-4"], laid("1-2")),
                  scores=(30, 30, 30))
    _, events = play(state, Move(T("2-2"), "right"))
    ev = scored(events)
    assert (ev.end, ev.by, ev.hand_values) == ("fish", 0, (21, 15, 7))
    assert (ev.recorded, ev.scores, ev.losers) == ((21, 0, 0), (51, 30, 30), (0,))


def test_rule_3_team_play_after_an_out_the_other_team_is_the_loser():
    """RULES.md §2.1 rule 3: in team play after an out the loser is always the other team,
    even when the out player's partner holds more."""
    rules = Rules(variant="sea_goat", teams=True)
    rs = position(["2-3", "0-1", "6-6 5-6 4-6", "0-3"], laid("1-2"), rules=rules)
    _, events = play(match(rs, scores=(30, 30)), Move(T("2-3"), "right"))
    ev = scored(events)
    assert (ev.hand_values, ev.recorded, ev.scores, ev.losers) == (
        (33, 4), (0, 4), (30, 34), (1,))


def test_rule_3_team_fish_sums_the_hands_each_valued_by_rule_2():
    """RULES.md §2.1 rules 2–3: a team's value is the sum of its hands, each valued by rule
    2 ([0|0] alone 25, [6|6] alone 50); the strictly highest team records."""
    rules = Rules(variant="sea_goat", teams=True)
    rs = position(["4-4 5-6", "0-0", "1-2", "6-6"], laid("3-4"), rules=rules)
    _, events = play(match(rs, scores=(30, 30)), Move(T("4-4"), "right"))
    ev = scored(events)
    assert (ev.end, ev.hand_values, ev.recorded, ev.scores) == (
        "fish", (14, 75), (0, 75), (30, 105))


# -- rule 4: recording -----------------------------------------------------------------------
@pytest.mark.parametrize("scores,hand,after", [
    ((0, 0), "5-5 4-6", (0, 0)),          # 20 < 25: lost, no remembered points
    ((0, 0), "5-5 6-6 0-3", (0, 25)),     # 25 opens
    ((0, 30), "0-3", (0, 33)),            # once open every round's points count
])
def test_rule_4_the_threshold_opens_and_lower_points_are_lost(scores, hand, after):
    """RULES.md §2.1 rule 4: round points below open_threshold are lost while the score is
    not open (no remembered points); points of 25 or more open it; once open every round's
    points are added."""
    state = match(position(["2-3", hand], laid("1-2")), scores=scores)
    _, events = play(state, Move(T("2-3"), "right"))
    ev = scored(events)
    assert ev.scores == after and ev.remembered == (0, 0)


@pytest.mark.parametrize("pot,hand,after,pot_after", [
    (10, "5-5 1-4", (0, 25), 0),      # 15 + 10 opens
    (5, "5-5", (0, 0), 0),            # 10 + 5 cannot open: the pot is lost with them
])
def test_rule_4_the_pot_counts_towards_the_threshold_or_is_lost(pot, hand, after,
                                                                 pot_after):
    """RULES.md §2.1 rule 4: the pot counts towards the threshold, and a pot that a closed
    loser cannot open with is lost."""
    state = match(position(["2-3", hand], laid("1-2")), scores=(0, 0), pot=pot)
    _, events = play(state, Move(T("2-3"), "right"))
    ev = scored(events)
    assert (ev.scores, ev.pot, ev.pot_won) == (after, pot_after, pot)


def test_rule_4_open_threshold_option():
    """RULES.md §2.1 option open_threshold: 12 points open a score at threshold 10."""
    rules = Rules(variant="sea_goat", open_threshold=10)
    state = match(position(["2-3", "5-5 1-1"], laid("1-2"), rules=rules), scores=(0, 0))
    _, events = play(state, Move(T("2-3"), "right"))
    assert scored(events).scores == (0, 12)


def test_rule_4_going_out_resets_nothing_and_a_reset_score_is_closed_again():
    """RULES.md §2.1 rule 4: no reset for going out except rule 8; a score reset to 0 by
    rule 8 is closed again (its next points below 25 are lost)."""
    state = match(position(["2-3", "4-6"], laid("1-2")), scores=(60, 30))
    _, events = play(state, Move(T("2-3"), "right"))
    assert scored(events).scores == (60, 40)
    state = match(position(["6-6", "1-2"], laid("1-6")), scores=(60, 0))
    state, events = play(state, Move(T("6-6"), "right"))
    assert scored(events).scores == (0, 100)
    nxt = state._replace(round=position(["4-6 5-5", "1-2"], laid("6-1"), to_act=1))
    _, events = play(nxt, Move(T("1-2"), "right"))
    assert scored(events).recorded == (20, 0) and scored(events).scores == (0, 100)


# -- rule 5: leads ---------------------------------------------------------------------------
def test_rule_5_round_1_is_led_per_1_5():
    """RULES.md §2.1 rule 5: round 1 per §1.5 — the holder of [1|1] must lead it."""
    state = dealt(after_round(rounds=0, scores=(30, 30, 30)), DEAL)
    assert (state.round.leader, state.round.fast) == (0, None)
    assert legal_moves(state) == (Move(T("1-1")),)


@pytest.mark.parametrize("rounds", [1, 2])
def test_rule_5_rounds_2_and_3_per_1_5_while_no_score_is_open(rounds):
    """RULES.md §2.1 rule 5: while no side has an open score, rounds 2 and 3 are led per
    §1.5 too (not by the previous round's finisher)."""
    state = dealt(after_round(rounds=rounds, scores=(0, 0, 0), last=2), DEAL)
    assert state.round.leader == 0 and legal_moves(state) == (Move(T("1-1")),)
    assert state.round.fast is None


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_rule_5_with_an_open_score_later_rounds_are_led_per_1_6(rounds):
    """RULES.md §2.1 rule 5: otherwise §1.6 — the previous finisher leads any tile."""
    state = dealt(after_round(rounds=rounds, scores=(0, 30, 0), last=2), DEAL)
    assert state.round.leader == 2 and state.round.lead_id == -1
    assert len(legal_moves(state)) == 6       # any tile, [0|0] aside (rule 6)


def test_rule_5_round_4_opens_with_a_fast_six_six_by_its_holder():
    """RULES.md §2.1 rule 5: if after round 3 still no side has an open score, round 4 opens
    with a fast lead of [6|6] by its holder."""
    state = dealt(after_round(rounds=3, scores=(0, 0, 0), last=2), DEAL)
    assert (state.round.leader, state.round.fast) == (1, "6-6")
    assert legal_moves(state) == (Move(T("6-6")),)
    with pytest.raises(errors.WrongLead) as e:
        apply(state, 1, Move(T("1-2")))
    assert e.value.rule == "RULES.md §2.1 rules 5–6"
    state, _ = play(state, Move(T("6-6")))
    assert state.round.fast == "6-6"


def test_rule_5_round_4_with_six_six_in_the_bazar_is_led_per_1_5_and_not_fast():
    """RULES.md §2.1 rule 5: [6|6] in the bazar — round 4 is led per §1.5 and is not fast
    (the choice recorded in the module doc)."""
    hands = [DEAL[0], DEAL[1].replace("6-6", "0-6"), DEAL[2]]
    state = dealt(after_round(rounds=3, scores=(0, 0, 0), last=2), hands)
    assert (state.round.leader, state.round.fast) == (0, None)
    assert legal_moves(state) == (Move(T("1-1")),)


def test_rule_5_round_5_is_led_per_1_6_even_with_every_score_closed():
    """RULES.md §2.1 rule 5: rule 5 names rounds 1–4 only; round 5 is §1.6."""
    state = dealt(after_round(rounds=4, scores=(0, 0, 0), last=2), DEAL)
    assert state.round.leader == 2 and state.round.fast is None


def test_rule_5_void_rounds_do_not_count():
    """RULES.md §2.1: void rounds do not count as rounds — a void round 4 is dealt again as
    round 4 (the same fast [6|6] lead), and the round after its replay is round 5."""
    rs = position(["1-3 1-4", "5-6 1-2", "2-3 3-4"], laid("6-6"), to_act=1, leader=0,
                  fast="6-6")
    state = match(rs, scores=(0, 0, 0), rounds=3)
    state, events = play(state, Move(T("5-6"), "right"), deal=True)
    assert scored(events).end == "void" and state.own.rounds == 3
    assert state.round.leader == 0 and legal_moves(state) == (Move(T("6-6")),)
    state, events = play(state, Move(T("6-6")), deal=True)
    while state.own.rounds == 3:
        state, events = apply(state, state.to_act, legal_moves(state)[0])
    assert state.own.rounds == 4


# -- rule 6: fast leads ----------------------------------------------------------------------
def test_rule_6_fast_leads_only_when_every_other_side_is_open():
    """RULES.md §2.1 rule 6: in a round led per §1.6 the leader may lead [6|6] or [0|0]
    only when every other side has an open score (the leader's own may be closed)."""
    state = dealt(after_round(scores=(30, 0, 40), last=1), BOTH)
    moves = legal_moves(state)
    assert Move(T("6-6")) in moves and Move(T("0-0")) in moves
    assert state.round.memo == FAST_ALLOWED
    state = dealt(after_round(scores=(30, 0, 0), last=1), BOTH)
    moves = legal_moves(state)
    assert Move(T("6-6")) not in moves and Move(T("0-0")) not in moves and len(moves) == 5
    with pytest.raises(errors.WrongLead) as e:
        apply(state, 1, Move(T("6-6")))
    assert e.value.rule == "RULES.md §2.1 rule 6"


@pytest.mark.parametrize("scores,allowed", [((30, 0), True), ((0, 30), False)])
def test_rule_6_in_team_play_the_other_team_must_be_open(scores, allowed):
    """RULES.md §2.1 rule 6 with teams: every other side is the other team."""
    rules = Rules(variant="sea_goat", teams=True)
    state = dealt(after_round(rules, 4, scores=scores, last=1), BOTH4)
    assert (Move(T("6-6")) in legal_moves(state)) is allowed
    assert (EXTRA in legal_moves(state)) is allowed


@pytest.mark.parametrize("lead,flat", [("6-6", 50), ("0-0", 75)])
def test_rule_6_a_fast_round_records_a_flat_value_with_the_pot_on_top(lead, flat):
    """RULES.md §2.1 rule 6: in a fast round the loser records a flat 50 (lead [6|6]) or 75
    (lead [0|0]) in place of its hand value, pot on top."""
    n = lead[0]
    rs = position(["2-3", "1-2"], laid(lead, (f"{n}-2", "right")), fast=lead)
    _, events = play(match(rs, scores=(30, 40), pot=7), Move(T("2-3"), "right"))
    ev = scored(events)
    assert (ev.hand_values, ev.recorded, ev.scores, ev.pot) == (
        (0, 3), (0, flat + 7), (30, 47 + flat), 0)
    assert ev.extra == {"fast": lead}


def test_rule_6_the_lead_makes_the_round_fast():
    """RULES.md §2.1 rule 6: a lead of [6|6] or [0|0] where it is allowed is fast; any other
    lead is not."""
    state = dealt(after_round(scores=(30, 0, 40), last=1), BOTH)
    assert play(state, Move(T("0-0")))[0].round.fast == "0-0"
    assert play(state, Move(T("1-2")))[0].round.fast is None


def test_rule_6_tied_losers_put_each_flat_value_into_the_pot():
    """RULES.md §2.1 rule 6: tied losers of a fast round put the flat value of each tied
    side into the pot."""
    rs = position(["2-3", "1-2", "0-3"], laid("6-6", ("6-2", "right")), fast="6-6")
    _, events = play(match(rs, scores=(30, 40, 50), pot=1), Move(T("2-3"), "right"))
    ev = scored(events)
    assert (ev.recorded, ev.scores, ev.pot, ev.losers) == ((0, 0, 0), (30, 40, 50), 101, (1, 2))


def test_rule_6_a_blocked_fast_round_is_void_and_dealt_again():
    """RULES.md §2.1 rule 6: a blocked fast round is void (nothing recorded) and replayed:
    the leader keeps the lead tile, the rest is shuffled and dealt (the leader gets 6 tiles
    more), and the leader leads the same again."""
    rs = position(["1-3 1-4", "5-6 1-2", "2-3 3-4"], laid("6-6"), to_act=1, leader=0,
                  fast="6-6")
    state = match(rs, scores=(30, 40, 50), pot=9)
    before = state.round_no
    state, events = play(state, Move(T("5-6"), "right"), deal=True)
    ev = scored(events)
    assert (ev.end, ev.by, ev.recorded, ev.scores, ev.pot, ev.losers) == (
        "void", 1, (0, 0, 0), (30, 40, 50), 9, ())
    assert ev.extra == {"fast": "6-6"}
    assert [e.kind for e in events if e.kind in ("fish", "void")] == ["void"]
    rs = state.round
    assert state.round_no == before + 1 and state.pot == 9
    assert rs.hands[0] >> tid("6-6") & 1
    assert [h.bit_count() for h in rs.hands] == [7, 7, 7] and len(rs.bazar) == 7
    assert (rs.leader, rs.fast) == (0, "6-6")
    assert legal_moves(state) == (Move(T("6-6")),)


def test_rule_6_fish_b_in_a_fast_round_is_void_too():
    """RULES.md §2.1 rule 6: a fast round may not end in fish (a or b): both ends showing 1
    with the six non-doubles of 1 on the table, [1|1] still in a hand, is void; the same
    position in a round that is not fast is a fish (option fish_without_double)."""
    chain = [(1, 0), (0, 6), (6, 6), (6, 1), (1, 4), (4, 2), (2, 1), (1, 5), (5, 3)]
    for fast, end in (("6-6", "void"), (None, "fish")):
        rs = position(["1-1 4-5", "1-3 2-5"], Layout.of_line(chain), to_act=1, fast=fast)
        _, events = play(match(rs, scores=(30, 30)), Move(T("1-3"), "right"))
        assert scored(events).end == end
        assert [e.cause for e in events if e.kind in ("fish", "void")] == ["no_double"]
    off = Rules(variant="sea_goat", fish_without_double=False)
    rs = position(["1-1 4-5", "1-3 2-5"], Layout.of_line(chain), to_act=1, rules=off)
    state, events = play(match(rs, scores=(30, 30)), Move(T("1-3"), "right"))
    assert not [e for e in events if e.kind == "fish"] and state.to_act == 0


# -- rule 7: the extraordinary lead ----------------------------------------------------------
def test_rule_7_an_entitled_leader_holding_both_may_lead_them_at_once():
    """RULES.md §2.1 rule 7: a leader entitled to a fast lead who holds [0|0] and [6|6] may
    lead both at once: left end 0, right end 6 and a gap only [0|6] fits."""
    state = dealt(after_round(scores=(30, 0, 0), last=1), BOTH)
    assert EXTRA not in legal_moves(state)
    state = dealt(after_round(scores=(30, 0, 40), last=1), BOTH)
    assert EXTRA in legal_moves(state)
    state, events = play(state, {"tiles": [{"tile": "0-0", "end": "left"},
                                           {"tile": "6-6", "end": "right"}]})
    assert [e.kind for e in events][:2] == ["led", "played"]
    rs = state.round
    assert (rs.fast, rs.phase, state.chain) == ("extra", 2, ((0, 0), (6, 6)))
    assert rs.layout.ends[GAP] == GAP_OPEN


def test_rule_7_every_later_turn_places_two_tiles():
    """RULES.md §2.1 rule 7: each later turn places two tiles, one on the left and one on
    the right end, or [0|6] into the gap together with one tile on either end."""
    rs = position(["1-1", "0-2 0-6 5-6 1-2", "3-4"], laid("extra"), to_act=1, leader=0,
                  fast="extra", phase=2)
    state = match(rs)

    def two(a, ea, b, eb):
        return Move.of([P(T(a), ea), P(T(b), eb)])

    assert set(legal_moves(state)) == {
        two("0-2", "left", "0-6", "right"), two("0-2", "left", "5-6", "right"),
        two("0-6", "left", "5-6", "right"), two("0-2", "left", "0-6", "gap"),
        two("5-6", "right", "0-6", "gap")}
    with pytest.raises(errors.MoveNotAllowed, match="rule 7"):
        apply(state, 1, Move(T("0-2"), "left"))
    after, _ = play(state, {"tiles": [{"tile": "0-6", "end": "gap"},
                                      {"tile": "0-2", "end": "left"}]})
    assert after.chain == ((2, 0), (0, 0), (0, 6), (6, 6))
    after, _ = play(state, two("0-6", "left", "5-6", "right"))    # the gap stays empty
    assert after.chain == ((6, 0), (0, 0), (6, 6), (6, 5))
    assert "gap" not in after.layout.open_ends


def test_rule_7_the_first_player_who_cannot_place_two_places_one_then_turns_are_normal():
    """RULES.md §2.1 rule 7: the first player who cannot place two places one, and from
    then on turns are normal, for a player who could place two as well."""
    rs = position(["1-3 3-5 5-5", "0-2 5-6 3-4", "2-3 1-1 1-4"], laid("extra"), to_act=1,
                  leader=0, fast="extra", phase=2)
    state, _ = play(match(rs), Move.of([P(T("0-2"), "left"), P(T("5-6"), "right")]))
    assert (state.to_act, state.round.phase) == (2, 0)
    assert legal_moves(state) == (Move(T("2-3"), "left"),)
    state, _ = play(state, Move(T("2-3"), "left"))
    assert set(legal_moves(state)) == {Move(T("1-3"), "left"), Move(T("3-5"), "left"),
                                       Move(T("3-5"), "right"), Move(T("5-5"), "right")}


def test_rule_7_a_player_who_can_place_none_draws_and_places_one():
    """RULES.md §2.1 rule 7: a player who cannot place two and holds nothing that fits draws
    per §1.8 and places the tile that fits; the turns are normal from then on."""
    rs = position(["3-5 5-5 0-1", "0-2 5-6 1-1", "1-3 4-4"], laid("extra"), to_act=1,
                  leader=0, bazar="1-4 2-3", fast="extra", phase=2)
    state, events = play(match(rs), Move.of([P(T("0-2"), "left"), P(T("5-6"), "right")]))
    assert [(e.kind, e.seat) for e in events if e.kind == "drew"] == [("drew", 2)] * 2
    assert state.to_act == 2 and state.round.phase == 0
    assert legal_moves(state) == (Move(T("2-3"), "left"),)
    state, _ = play(state, Move(T("2-3"), "left"))
    assert all(len(m) == 1 for m in legal_moves(state))


def test_rule_7_the_moves_know_the_phase():
    """RULES.md §2.1 rule 7: the same hand on the same ends has other moves while every turn
    places two tiles (the round core caches moves by the variant's key)."""
    hands = ["1-1", "0-2 5-6 1-2", "3-4"]
    two = position(hands, laid("extra"), to_act=1, leader=0, fast="extra", phase=2)
    one = two._replace(phase=0)
    assert [len(m) for m in Table.from_state(two).moves()] == [2]
    assert sorted(len(m) for m in Table.from_state(one).moves()) == [1, 1]


def test_rule_7_the_loser_records_125_and_is_the_goat_whatever_the_limit():
    """RULES.md §2.1 rule 7: the loser of an extraordinary round records 125 (pot on top,
    rule 3) and is the goat, titled «внеочередной козёл», whatever match_limit is."""
    rules = Rules(variant="sea_goat", match_limit=1000)
    rs = position(["2-3", "1-2 4-5"], laid("extra", ("0-2", "left")), fast="extra",
                  rules=rules)
    state, events = play(match(rs, scores=(10, 0), pot=5), Move(T("2-3"), "left"))
    ev = scored(events)
    assert (ev.recorded, ev.scores, ev.extra) == ((0, 130), (10, 130), {"fast": "extra"})
    assert state.result.goats == (1,) and state.result.title == "extraordinary"
    assert state.result.rating == (99, 0)   # (999 − 10) / 10 = 98.9 → 99 (§1.16)
    ended = [e for e in events if e.kind == "match_ended"]
    assert ended[0].title == "extraordinary"


def test_rule_7_tied_losers_put_125_each_into_the_pot_and_there_is_no_goat():
    """RULES.md §2.1 rule 7: tied losers put 125 each into the pot and there is no goat."""
    rs = position(["2-3", "1-2", "0-3"], laid("extra", ("0-2", "left")), fast="extra")
    state, events = play(match(rs, scores=(10, 0, 0)), Move(T("2-3"), "left"))
    assert (scored(events).pot, scored(events).losers) == (250, (1, 2))
    assert state.result is None


def test_rule_7_a_blocked_extraordinary_round_is_void_and_the_leader_keeps_both():
    """RULES.md §2.1 rules 6–7: no fish — a blocked extraordinary round is void; the leader
    keeps [0|0] and [6|6], gets 5 tiles more and leads both again."""
    rs = position(["1-5 2-5", "0-3 3-6 1-2", "1-4 2-4"], laid("extra"), to_act=1, leader=0,
                  fast="extra", phase=2)
    state, events = play(match(rs, scores=(30, 30, 30)),
                         Move.of([P(T("0-3"), "left"), P(T("3-6"), "right")]), deal=True)
    assert scored(events).end == "void"
    rs = state.round
    assert rs.hands[0] & mask("0-0 6-6") == mask("0-0 6-6") and rs.hands[0].bit_count() == 7
    assert (rs.leader, rs.fast, rs.phase) == (0, "extra", 0)
    assert legal_moves(state) == (EXTRA,)
    with pytest.raises(errors.IllegalMove):
        apply(state, 0, Move(T("0-0")))
    state, events = play(state, EXTRA)
    assert state.chain == ((0, 0), (6, 6)) and state.round.fast == "extra"


# -- rule 8: finishing doubles ---------------------------------------------------------------
def test_rule_8_out_with_six_six_the_loser_records_100_then_the_finisher_is_reset():
    """RULES.md §2.1 rule 8: going out with [6|6] — the loser records a flat 100 (pot on
    top) and then the finisher's side's score is reset to 0."""
    state = match(position(["6-6", "1-2"], laid("1-6")), scores=(80, 0), pot=4)
    state, events = play(state, Move(T("6-6"), "right"))
    ev = scored(events)
    assert (ev.recorded, ev.scores, ev.pot) == ((0, 104), (0, 104), 0)
    assert state.result is None


def test_rule_8_six_six_out_with_tied_losers_feeds_100_each_and_still_resets():
    """RULES.md §2.1 rule 8: tied losers put 100 each into the pot; the finisher is reset."""
    state = match(position(["6-6", "1-2", "0-3"], laid("1-6")), scores=(80, 30, 40), pot=2)
    _, events = play(state, Move(T("6-6"), "right"))
    ev = scored(events)
    assert (ev.recorded, ev.scores, ev.pot) == ((0, 0, 0), (0, 30, 40), 202)


def test_rule_8_six_six_among_two_doubles_counts():
    """RULES.md §2.1 rule 8: a double counts when it is among the tiles of the going-out
    move (two doubles at once, rule 1)."""
    state = match(position(["3-3 6-6", "1-2"], laid("3-6")), scores=(80, 0))
    _, events = play(state, Move.of([P(T("3-3"), "left"), P(T("6-6"), "right")]))
    assert scored(events).scores == (0, 100)


@pytest.mark.parametrize("scores", [(0, 0), (45, 110)])
def test_rule_8_out_with_zero_zero_the_loser_is_the_snotty_goat(scores):
    """RULES.md §2.1 rules 8–9: going out with [0|0] ends the match at once, nothing
    recorded; the loser is the goat, titled «сопливый козёл», whatever the scores; a goat by
    rule 8 gets 0 and the others are rated on their scores."""
    state = match(position(["0-0", "2-3"], laid("0-1")), scores=scores, pot=6)
    state, events = play(state, Move(T("0-0"), "left"))
    ev = scored(events)
    assert (ev.recorded, ev.scores, ev.losers) == ((0, 0), scores, (1,))
    res = state.result
    assert (res.goats, res.title) == ((1,), "snotty")
    assert res.rating == ((124 - scores[0] + 5) // 10, 0)


def test_rule_8_snotty_tied_losers_are_all_goats():
    """RULES.md §2.1 rule 8: tied losers of a [0|0] out are all goats."""
    state = match(position(["0-0", "2-3", "1-4"], laid("0-1")), scores=(0, 0, 0))
    state, _ = play(state, Move(T("0-0"), "left"))
    assert (state.result.goats, state.result.title) == ((1, 2), "snotty")


def test_rule_8_out_with_zero_zero_and_six_six_together_is_the_admiral():
    """RULES.md §2.1 rule 8: going out with [0|0] and [6|6] together — the same, titled
    «адмирал»."""
    state = match(position(["0-0 6-6", "2-3"], laid("0-6")), scores=(0, 0))
    state, _ = play(state, {"tiles": [{"tile": "0-0", "end": "left"},
                                      {"tile": "6-6", "end": "right"}]})
    assert (state.result.goats, state.result.title, state.result.rating) == (
        (1,), "admiral", (12, 0))


def test_rule_8_decides_before_rule_6():
    """RULES.md §2.1 rule 8 decides before rules 6–7: a fast [0|0] round won with [6|6]
    records 100, not 75; a fast [6|6] round won with [0|0] makes the snotty goat."""
    rs = position(["6-6", "1-2"], laid("0-0", ("0-6", "right")), fast="0-0")
    _, events = play(match(rs, scores=(30, 30)), Move(T("6-6"), "right"))
    assert scored(events).recorded == (0, 100) and scored(events).scores == (0, 130)
    rs = position(["0-0", "1-2"], laid("6-6", ("6-0", "right")), fast="6-6")
    state, _ = play(match(rs, scores=(30, 30)), Move(T("0-0"), "right"))
    assert state.result.title == "snotty" and state.result.goats == (1,)


def test_rule_8_in_team_play_the_finishers_team_is_reset():
    """RULES.md §2.1 rules 3 and 8 with teams: the other team records the flat 100 and the
    finisher's team is reset to 0."""
    rules = Rules(variant="sea_goat", teams=True)
    rs = position(["6-6", "0-1", "2-3", "0-3"], laid("1-6"), rules=rules)
    _, events = play(match(rs, scores=(70, 20)), Move(T("6-6"), "right"))
    assert (scored(events).recorded, scored(events).scores) == ((0, 100), (0, 120))


def test_rule_8_goats_are_checked_after_the_recording_and_the_reset():
    """RULES.md §2.1 rules 8–9: after the flat 100 and the reset the goats are checked: the
    loser reaching 125 is the goat, the reset finisher is rated on 0."""
    state = match(position(["6-6", "1-2"], laid("1-6")), scores=(80, 30))
    state, _ = play(state, Move(T("6-6"), "right"))
    assert state.scores == (0, 130)
    assert (state.result.goats, state.result.title, state.result.rating) == (
        (1,), "sea", (12, 0))


# -- rule 9: match end -----------------------------------------------------------------------
def test_rule_9_an_open_score_reaching_the_limit_is_the_sea_goat():
    """RULES.md §2.1 rule 9: a side whose open score reaches match_limit (125) is the goat;
    rating §1.16 with L = 125: max(1, round_half_up((124 − score) / 10))."""
    state = match(position(["2-3", "5-6 4-6 3-6", "0-1"], laid("1-2")),
                  scores=(37, 95, 120))
    state, events = play(state, Move(T("2-3"), "right"))
    assert state.scores == (37, 125, 120)
    assert (state.result.goats, state.result.title, state.result.rating) == (
        (1,), "sea", (9, 0, 1))
    assert [e.goats for e in events if e.kind == "match_ended"] == [(1,)]


@pytest.mark.parametrize("fast,title", [("6-6", "hanging"), (None, "sea")])
def test_rule_9_a_side_that_had_124_and_lost_a_fast_round_is_the_hanging_goat(fast, title):
    """RULES.md §2.1 rule 9: a side that had match_limit − 1 (124) and lost a fast round is
    titled «подвесной козёл»; losing a round that is not fast it is the sea goat."""
    rs = position(["2-3", "1-2"], laid("6-6", ("6-2", "right")), fast=fast)
    state, _ = play(match(rs, scores=(30, 124)), Move(T("2-3"), "right"))
    assert (state.result.goats, state.result.title) == ((1,), title)


def test_rule_9_match_limit_option():
    """RULES.md §2.1 option match_limit: the goat limit and L of the rating; 59 is the
    hanging score at limit 60."""
    rules = Rules(variant="sea_goat", match_limit=60)
    state = match(position(["2-3", "5-6 4-6"], laid("1-2"), rules=rules), scores=(10, 40))
    state, _ = play(state, Move(T("2-3"), "right"))
    assert (state.result.goats, state.result.rating) == ((1,), (5, 0))   # 49/10 → 5
    rs = position(["2-3", "1-2"], laid("6-6", ("6-2", "right")), fast="6-6", rules=rules)
    state, _ = play(match(rs, scores=(10, 59)), Move(T("2-3"), "right"))
    assert state.result.title == "hanging"


# -- records, replay, simulate ---------------------------------------------------------------
# A match (3 players, seed 288, random moves from random.Random(288)) with two doubles at
# once, a void extraordinary round, [0|6] into the gap and an extraordinary goat.
RECORD, FINAL = _played_record(3, 288, R)


def test_records_write_and_replay_the_special_decisions():
    """RULES.md §2.1 rules 1, 6, 7 in a record: two doubles and two tiles at once as
    ``tiles``, the extraordinary lead, the gap, the void round as a round of its own whose
    replay is the next round (its deal holds the kept tiles in the leader's hand)."""
    decisions = [d for r in RECORD["rounds"] for d in r["decisions"]]
    assert {"tiles": [{"tile": "0-0", "end": "left"}, {"tile": "6-6", "end": "right"}]} \
        in decisions
    assert any(p.get("end") == "gap" for d in decisions for p in d.get("tiles", []))
    out = replay(json.loads(json.dumps(RECORD)))
    ends = [r["end"] for r in out["rounds"]]
    void = ends.index("void")
    assert out["rounds"][void]["fast"] == "extra"
    assert out["rounds"][void + 1]["fast"] == "extra"
    nxt = RECORD["rounds"][void + 1]
    assert nxt["decisions"][0] == EXTRA.to_dict()
    assert any({"0-0", "6-6"} <= set(h) for h in nxt["deal"]["hands"])
    assert (out["finished"], out["goats"], out["rating"], out["title"]) == (
        True, list(FINAL.result.goats), list(FINAL.result.rating), "extraordinary")
    assert all(r["remembered"] == [0, 0, 0] for r in out["rounds"])
    assert all("losers" in r for r in out["rounds"] if r["end"] != "void")


def test_replay_refuses_a_replayed_deal_without_the_kept_tiles():
    """RULES.md §2.1 rule 6: the replay of a void round deals the kept tiles to its leader;
    a record that does not is refused, naming the rule."""
    record = json.loads(json.dumps(RECORD))
    void = [r["end"] for r in replay(record)["rounds"]].index("void")
    hands = record["rounds"][void + 1]["deal"]["hands"]
    leader = next(i for i, h in enumerate(hands) if "0-0" in h)
    other = (leader + 1) % 3
    i, j = hands[leader].index("0-0"), 0
    hands[leader][i], hands[other][j] = hands[other][j], hands[leader][i]
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert e.value.rule == "RULES.md §2.1 rule 6" and e.value.round_no == void + 2


def test_replay_command_prints_the_title(tmp_path, capsys):
    """``python -m engine replay`` prints the round keys and the title (docs/VARIANTS.md)."""
    path = tmp_path / "sea.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["title"] == "extraordinary" and out["rounds"][-1]["fast"] == "extra"


def test_simulate_shows_the_special_rules_firing(capsys):
    """``tools/simulate.py --variant sea_goat`` counts the fast leads, the void
    rounds, the moves of two tiles and the goats' titles (RULES.md §2.1 rules 1, 6–9)."""
    assert simulate_main(["--players", "3", "--variant", "sea_goat", "--matches", "40",
                 "--seed", "1", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matches"] == 40 and out["multi_tile_moves"] > 0
    assert out["special"]["void"] == out["round_ends"]["void"] > 0
    assert {"fast:6-6", "fast:0-0"} <= set(out["special"])
    assert "sea" in out["titles"] and sum(out["titles"].values()) == 40


def test_host_move_after_the_extraordinary_lead_places_two():
    """RULES.md §1.17 with §2.1 rule 7: the host places the two tiles with the most pips."""
    rs = position(["1-1", "0-2 0-6 5-6 1-2", "3-4"], laid("extra"), to_act=1, leader=0,
                  fast="extra", phase=2)
    state, events = apply_host_move(match(rs))
    assert [(e.tile, e.end) for e in events if e.kind == "played"] == [
        (T("0-6"), "left"), (T("5-6"), "right")]


# -- properties ------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from([(2, False), (3, False), (4, False), (4, True)]),
       seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**32))
def test_properties_of_random_matches(setup, seed, rng_seed):
    """RULES.md §2.1 over random matches: a fast round never ends in fish (rule 6); at most
    one side records per round and nobody remembers points (rules 3–4); a score changes only
    for the round's loser or the [6|6] finisher (rule 8); while every turn places two tiles
    every legal move places two (rule 7); [6|6] and [0|0] lead a §1.6 round only when every
    other side is open (rule 6)."""
    players, teams = setup
    rules = Rules(variant="sea_goat", teams=teams)
    rng = random.Random(rng_seed)
    state, _ = new_match(rules, players, seed)
    while not state.finished:
        moves = legal_moves(state)
        rs = state.round
        if rs.phase:
            assert all(len(m) == 2 for m in moves)
        if not rs.layout.line and rs.lead_id < 0 and rs.fast is None:
            side = state.side_of(rs.leader)
            open_others = all(s > 0 for i, s in enumerate(state.scores) if i != side)
            fast_tiles = {T("0-0"), T("6-6")} & {t for m in moves for t in m.tiles}
            assert open_others or not fast_tiles
        before = state.scores
        state, events = apply(state, state.to_act, rng.choice(moves))
        for ev in events:
            if isinstance(ev, RoundScored):
                assert not (ev.extra and ev.end == "fish")
                assert sum(1 for x in ev.recorded if x) <= 1
                assert not any(ev.remembered)
                changed = {i for i, (a, b) in enumerate(zip(before, ev.scores, strict=True))
                           if a != b}
                assert changed <= set(ev.losers) | {state.side_of(ev.by)}
