"""Game records and ``python -m engine replay`` / ``tools/simulate.py`` (docs/RECORDS.md)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest

from engine import Rules, apply, legal_moves, new_match
from engine.records import ReplayError, record_match, replay

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def _played_record(players=3, seed=5, rules=None):
    rules = rules or Rules()
    rng = random.Random(seed)
    state, _ = new_match(rules, players, seed)
    decisions = []
    while not state.finished:
        move = rng.choice(legal_moves(state))
        decisions.append((move, False))
        state, _ = apply(state, state.to_act, move)
    return record_match(rules, [f"p{i}" for i in range(players)], seed, decisions), state


def _run(*args, stdin=None):
    """``python -m engine ARGS``, or ``tools/simulate.py`` for ``simulate ARGS``."""
    cmd = ["tools/simulate.py", *args[1:]] if args[0] == "simulate" else ["-m", "engine", *args]
    return subprocess.run([sys.executable, *cmd], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_replay_cli_prints_one_json_object(tmp_path):
    record, state = _played_record()
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record, ensure_ascii=False))
    proc = _run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) == {"rounds", "finished", "goats", "rating"}
    assert out["finished"] is True
    assert out["goats"] == list(state.result.goats)
    assert out["rating"] == list(state.result.rating)
    assert out["rounds"][-1]["scores"] == list(state.scores)
    for r in out["rounds"]:
        assert set(r) == {"end", "by", "hand_values", "recorded", "scores", "remembered", "pot"}
        assert r["end"] in ("out", "fish") and 0 <= r["by"] < 3


def test_replay_names_the_broken_rule_and_exits_non_zero(tmp_path):
    record, _ = _played_record()
    bad = copy.deepcopy(record)
    first = bad["rounds"][0]
    # the second decision of round 1: replace it by a tile of the same seat that cannot fit
    first["decisions"][1] = {"tile": first["deal"]["hands"][0][0], "end": "left"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    proc = _run("replay", str(path))
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "round 1, decision 2" in proc.stderr and "RULES.md §1." in proc.stderr


def test_wrong_first_lead_cites_rule_1_5():
    record, _ = _played_record()
    bad = copy.deepcopy(record)
    lead = bad["rounds"][0]["decisions"][0]["tile"]
    seat_hand = next(h for h in bad["rounds"][0]["deal"]["hands"] if lead in h)
    bad["rounds"][0]["decisions"][0] = {"tile": next(t for t in seat_hand if t != lead)}
    with pytest.raises(ReplayError, match="§1.5"):
        replay(bad)


def test_end_may_be_omitted_where_only_one_end_fits():
    """docs/RECORDS.md: ``end`` is optional on a lead or where one placement exists;
    where two placements differ, leaving it out is refused (RULES.md §1.7)."""
    from engine import Tile

    record, state = _played_record(players=4, seed=9)
    stripped = copy.deepcopy(record)
    live, _ = new_match(Rules(), 4, 9)
    ambiguous = None
    for r_i, rnd in enumerate(stripped["rounds"]):
        for d_i, d in enumerate(rnd["decisions"]):
            tile = Tile.parse(d["tile"])
            placements = [m for m in legal_moves(live) if m.tile == tile]
            move = next(m for m in placements if m.end == d.get("end"))
            if len(placements) == 1:
                d.pop("end", None)
            elif ambiguous is None:
                ambiguous = (r_i, d_i)
            live, _ = apply(live, live.to_act, move)
    assert replay(stripped) == replay(record)
    assert ambiguous is not None
    r_i, d_i = ambiguous
    del stripped["rounds"][r_i]["decisions"][d_i]["end"]
    with pytest.raises(ReplayError, match="both ends.*§1.7"):
        replay(stripped)


def _first_round_from(seed: int, start: dict) -> dict:
    record, _ = _played_record(players=2, seed=seed)
    return {"rules": record["rules"], "players": record["players"], "start": start,
            "rounds": [copy.deepcopy(record["rounds"][0])]}


START = {"scores": [95, 0], "remembered": [0, 12], "pot": 4}


def test_start_position_fish_all_to_max_with_pot():
    """Seed 3 ends round 1 in a fish, hands 6 and 16 (§1.13 all_to_max): seat 1 takes
    6 + 16 = 22 and the pot 4 → 26 ≥ 13 opens with its 12 remembered → 38 (§1.12)."""
    out = replay(_first_round_from(3, START))
    assert out["rounds"] == [{"end": "fish", "by": 1, "hand_values": [6, 16],
                              "recorded": [0, 26], "scores": [95, 38], "remembered": [0, 0],
                              "pot": 0}]
    assert out == {**out, "finished": False, "goats": [], "rating": []}


def test_start_position_out_makes_a_goat():
    """Seed 5: seat 1 goes out; seat 0 records 10 + pot 4 on its open 95 → 109, a goat
    (§1.15); seat 1 rates (100 − 0) / 10 = 10 (§1.16)."""
    out = replay(_first_round_from(5, START))
    assert out["rounds"][0]["end"] == "out" and out["rounds"][0]["by"] == 1
    assert out["rounds"][0]["recorded"] == [14, 0]
    assert out["rounds"][0]["scores"] == [109, 0] and out["rounds"][0]["remembered"] == [0, 0]
    assert out["finished"] is True and out["goats"] == [0] and out["rating"] == [0, 10]


def test_incomplete_last_round_is_not_listed():
    partial = _first_round_from(3, START)
    partial["rounds"][0]["decisions"] = partial["rounds"][0]["decisions"][:3]
    assert replay(partial) == {"rounds": [], "finished": False, "goats": [], "rating": []}


@pytest.mark.parametrize("mutate,needle", [
    (lambda r: r["rounds"][0]["deal"]["hands"][0].pop(), "§1.2"),
    (lambda r: r.update(players=["solo"]), "§1.1"),
    (lambda r: r.update(rules={"fish_scoring": "nobody"}), "fish_scoring"),
    (lambda r: r["rounds"][0]["decisions"].append({"tile": "0-0"}), "over"),
    (lambda r: r.update(start={"scores": [1]}), "start.scores"),
])
def test_malformed_records_are_refused_with_a_reason(mutate, needle):
    record, _ = _played_record()
    bad = copy.deepcopy(record)
    bad["rounds"] = bad["rounds"][:1]
    mutate(bad)
    with pytest.raises(ReplayError, match=needle):
        replay(bad)


def test_simulate_cli_prints_totals():
    proc = _run("simulate", "--players", "4", "--teams", "--matches", "20", "--seed", "3",
                "--no-progress")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["matches"] == 20 and out["rounds"] >= 20
    assert len(out["goats_per_side"]) == 2 and sum(out["goats_per_side"]) >= 20
    assert 0 < out["fish_share"] < 1
    assert out["avg_rounds_per_match"] == pytest.approx(out["rounds"] / 20, abs=1e-3)
    again = _run("simulate", "--players", "4", "--teams", "--matches", "20", "--seed", "3",
                 "--no-progress")
    assert json.loads(again.stdout) == out


def test_simulate_refuses_teams_with_three_players():
    proc = _run("simulate", "--players", "3", "--teams", "--matches", "2")
    assert proc.returncode == 2 and "§1.14" in proc.stderr
