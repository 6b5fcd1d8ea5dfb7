"""The strength table's pieces (``bench/strength.py``, ``bench/bound.py``): the cheating bound
plays legal moves in every game and does read the hidden tiles (it is the benchmark's upper
reference, never a player of the bot), and a match of the table reports a goat per seat and
the strong seat's decision times."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bench.bound import decide_bound
from bench.strength import play_match, render, wilson
from engine import Rules, legal_moves
from engine.variant import VARIANTS
from tests.test_ai import play_to, shuffle_hidden


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10**6),
       steps=st.integers(0, 40))
def test_the_bound_plays_a_legal_move_in_every_game(game, seed, steps):
    state, history = play_to(Rules(variant=game), 4, seed, steps, random.Random(seed))
    assume(not state.finished)
    assert decide_bound(state, state.to_act, history) in legal_moves(state)


def test_the_bound_sees_the_hidden_tiles():
    """Somewhere its move changes with tiles an honest seat cannot see (other hands, the
    bazar order): it cheats, as the upper reference must."""
    for seed in range(60):
        state, history = play_to(Rules(), 3, seed, 3, random.Random(seed))
        if state.finished or len(legal_moves(state)) < 2:
            continue
        seat = state.to_act
        mine = decide_bound(state, seat, history)
        for k in range(8):
            twin = shuffle_hidden(state, seat, random.Random(k))
            if decide_bound(twin, seat, history) != mine:
                return
    pytest.fail("the bound never changed its move with the hidden tiles")


def test_a_match_of_the_table_and_its_report():
    r = play_match("classic", ("bound", "normal", "normal", "normal"), "t-1", 500)
    assert len(r["goats"]) == 4 and any(r["goats"])
    assert r["times"][0] and all(t >= 0 for t in r["times"][0])
    stats = {("classic", "bn"): {"k": 0, "n": 10, "all": 10, "seats": 40, "times": [0.001]},
             ("classic", "hn"): {"k": 1, "n": 10, "all": 10, "seats": 40, "times": [0.01]}}
    table = render(["classic"], [("hn", "hard", "normal"), ("bn", "bound", "normal")], stats,
                   {"classic": []}, None)
    # hard: 10% against a fair 25%, the bound 0%: it closes (25 - 10) / 25 of the gap
    assert "| classic | hard vs 3 normal | 10 | 10.0%" in table and "| 0.60 |" in table
    assert wilson(0, 10)[0] == 0.0 and wilson(5, 10)[1] < 0.5 < wilson(5, 10)[2]


def test_the_references_against_easy_run_on_request_only(capsys):
    """``--lineups he,be`` plays hard and the bound against three easy (the references for
    normal's line-up); the whole table's default leaves them out."""
    from bench import strength

    assert strength.main(["--games", "classic", "--lineups", "he,be", "--matches", "2",
                          "--hard-work", "300", "--timing-decisions", "0", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "| classic | hard vs 3 easy | 2 |" in out
    assert "| classic | bound vs 3 easy | 2 |" in out
    assert "vs 3 normal" not in out.split("In short")[0]
    assert set(strength.TABLE_LINEUPS) == {"ne", "hn", "bn", "en"}


def test_hard_can_decide_as_the_bot_does_with_its_deal_cap(monkeypatch):
    """``--hard-samples`` reaches every hard decision of a line-up as ``samples`` beside the
    work budget (the bot's way, ``service.live.thinking.decide``); without it there is no cap."""
    from bench import strength

    seen: list[tuple[str, dict]] = []
    real = strength.ai.think

    def spy(obs, strength_name, rng, **kw):
        seen.append((strength_name, kw))
        return real(obs, strength_name, rng, **kw)

    monkeypatch.setattr(strength.ai, "think", spy)
    play_match("classic", ("normal", "hard", "normal", "normal"), "t-2", 300, samples=3)
    hard = [kw for name, kw in seen if name == "hard"]
    assert hard and all(kw == {"work": 300, "samples": 3, "budget": None, "clock": None}
                        for kw in hard)
    seen.clear()
    play_match("classic", ("normal", "hard", "normal", "normal"), "t-2", 300)
    hard = [kw for name, kw in seen if name == "hard"]
    assert hard and all(kw["samples"] is None for kw in hard)


def test_the_time_budget_reaches_hard_and_its_stops_are_counted():
    """``--think-seconds`` (the bot's ``BOT_THINK_SECONDS``) bounds hard's decisions on the CPU
    clock, in the line-ups and the timing, and the report counts the decisions it stopped:
    none when the work stops first, some at a microsecond; the other seats never."""
    from bench.strength import time_hard, timing_positions

    lineup = ("normal", "hard", "normal", "normal")
    ample = play_match("classic", lineup, "t-3", 300, seconds=1.0)
    assert ample["time_stops"] == [0, 0, 0, 0]
    assert ample["goats"] == play_match("classic", lineup, "t-3", 300)["goats"]
    tight = play_match("classic", lineup, "t-3", 300, seconds=1e-6)
    assert tight["time_stops"][1] > 0 and tight["time_stops"][0] == 0
    (ms, n), = timing_positions("classic", 1, 5)
    seconds, stopped = time_hard("classic", ms, n, 1500, 1e-6)
    assert stopped and seconds >= 0
