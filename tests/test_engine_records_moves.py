"""The general move format of game records (RULES.md §2.0.4, §0): several tiles at once,
closed doubles, ends up/down, the lead written as it lies, and malformed decisions.

Classic records are pinned in tests/test_engine_records.py; here the cross variant of the
layout tests carries the moves that no classic record has.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine import Move, Placement, Tile, apply, legal_moves, new_match
from engine.records import ReplayError, parse_decision, record_match, replay
from tests.enginekit import cross_rules

T = Tile.of


def test_a_lead_lies_as_it_is_written():
    """RULES.md §0: the lead "6-5" shows 6 at the left end; a record that writes it so
    replays with that orientation, and to the same scores as "5-6"."""
    move, host = parse_decision({"tile": "6-5"})
    assert move == Move(T(5, 6), flip=True) and move[0].code() == "6-5" and not host
    assert parse_decision({"tile": "5-6"})[0] == Move(T(5, 6))


def test_several_tiles_closed_and_along_parse_into_one_move():
    """RULES.md §2.0.4: {"tiles": [...]} is one move; "closed"/"along" are booleans."""
    move, _ = parse_decision({"tiles": [{"tile": "3-3", "end": "left"},
                                        {"tile": "5-5", "end": "right", "closed": True}]})
    assert move == Move.of([Placement(T(3, 3), "left"), Placement(T(5, 5), "right", True)])
    assert move.to_dict() == {"tiles": [{"tile": "3-3", "end": "left"},
                                        {"tile": "5-5", "end": "right", "closed": True}]}
    along, _ = parse_decision({"tile": "4-4", "end": "up", "along": True})
    assert along.along and along.end == "up"


@pytest.mark.parametrize("decision,needle", [
    ({"tile": "2-5", "end": "middle"}, "end"),
    ({"tile": "2-5", "closed": "yes"}, "closed"),
    ({"tiles": []}, "placements"),
    ({"tiles": "3-3"}, "placements"),
    ({"tile": "7-9"}, "tile"),
    ({"tile": "2-5", "host": "no"}, "host"),
    ([], "object"),
])
def test_malformed_decisions_are_refused_with_a_reason(decision, needle):
    with pytest.raises(ReplayError, match=needle):
        parse_decision(decision)


def _cross_record(seed: int, rng_seed: int):
    """A whole match on the test cross, with its moves of several doubles and closed
    doubles, recorded and replayed."""
    with cross_rules() as rules:
        rng = random.Random(rng_seed)
        state, _ = new_match(rules, 3, seed)
        decisions = []
        while not state.finished:
            moves = legal_moves(state)
            multi = [m for m in moves if len(m) > 1]
            move = rng.choice(multi) if multi and rng.random() < 0.7 else rng.choice(moves)
            decisions.append((move, False))
            state, _ = apply(state, state.to_act, move)
        record = record_match(rules, ["a", "b", "c"], seed, decisions)
        return record, state, rules


def test_a_cross_match_with_several_doubles_and_closed_ones_replays():
    """RULES.md §2.0.2–§2.0.4: moves with "tiles", "closed" and the ends up/down are
    written and read back to the same result."""
    with cross_rules():
        for seed in range(40):
            record, state, _ = _cross_record(seed, seed)
            written = [d for r in record["rounds"] for d in r["decisions"]]
            if any("tiles" in d for d in written) and any(
                    d.get("closed") or any(p.get("closed") for p in d.get("tiles", []))
                    for d in written) and any(
                    d.get("end") in ("up", "down") for d in written):
                break
        else:
            pytest.fail("no match had several doubles, a closed double and an arm")
        out = replay(record)
        assert out["finished"] and out["goats"] == list(state.result.goats)
        assert out["rounds"][-1]["scores"] == list(state.scores)


def test_several_doubles_may_be_listed_in_any_order():
    """RULES.md §2.0.4: with a spinner down, the record's order of the doubles is free."""
    with cross_rules():
        for seed in range(60):
            record, state, _ = _cross_record(seed, 100 + seed)
            swapped = copy.deepcopy(record)
            touched = False
            for rnd in swapped["rounds"]:
                for d in rnd["decisions"]:
                    if "tiles" in d and len(d["tiles"]) > 1 and rnd["decisions"].index(d) > 0:
                        d["tiles"].reverse()
                        touched = True
            if touched:
                assert replay(swapped) == replay(record)
                return
        pytest.fail("no move of several doubles came up")


def test_an_illegal_move_of_several_tiles_names_the_decision():
    """A record whose move puts a double on an end that does not show its number is refused
    with the round, the decision and the rule."""
    with cross_rules():
        for seed in range(60):
            record, _, _ = _cross_record(seed, 200 + seed)
            for r_i, rnd in enumerate(record["rounds"]):
                for d_i, d in enumerate(rnd["decisions"]):
                    if "tiles" in d:
                        bad = copy.deepcopy(record)
                        placements = bad["rounds"][r_i]["decisions"][d_i]["tiles"]
                        ends = [p["end"] for p in placements]
                        for p, e in zip(placements, ends[1:] + ends[:1], strict=True):
                            p["end"] = e
                        with pytest.raises(ReplayError) as info:
                            replay(bad)
                        err = info.value
                        assert (err.round_no, err.decision_no) == (r_i + 1, d_i + 1)
                        assert "RULES.md" in str(err)
                        return
        pytest.fail("no move of several doubles came up")


def test_a_flipped_lead_replays_to_the_same_scores():
    """RULES.md §0: writing a later round's lead high-low ("6-5") mirrors the line but
    changes no score."""
    from engine import Rules

    rng = random.Random(4)
    state, _ = new_match(Rules(), 2, 21)
    decisions = []
    while not state.finished:
        move = rng.choice(legal_moves(state))
        decisions.append((move, False))
        state, _ = apply(state, state.to_act, move)
    record = record_match(Rules(), ["a", "b"], 21, decisions)
    flipped = copy.deepcopy(record)
    count = 0
    for rnd in flipped["rounds"][1:]:
        lead = rnd["decisions"][0]
        a, b = lead["tile"].split("-")
        if a != b:
            lead["tile"] = f"{b}-{a}"
            count += 1
            # the placements after it name their ends, so they follow the mirrored line
            for d in rnd["decisions"][1:]:
                if d.get("end") in ("left", "right"):
                    d["end"] = "right" if d["end"] == "left" else "left"
    assert count
    assert replay(flipped) == replay(record)
