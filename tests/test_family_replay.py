"""A replayed record equals the match, for Мексиканский поезд and Колбаса (RULES.md §2.11
rule 15, §2.12 rule 11), with hypothesis.

A random match of either game — any seats it allows, both sets of the trains, host moves
among the decisions — is written as a record, sent through JSON text as a file would be, and
replayed.  Every round of the replay equals the round the match played: how it ended and by
whom, every hand's value, the points recorded and the scores, and the game's own additions
read off the table the round ended with (the marked trains; the queue lengths); the match
ends with the same winners, goats, draw and rating.  The common test of every variant
(``tests/test_variants_common.py``) compares ends, scores and ratings; this one reads every
field, the trains' markers and the queues from the match itself.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Rules, apply, apply_host_move, legal_moves, new_match
from engine.records import record_match, replay_json

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _play(rules: Rules, players: int, seed: int, rng: random.Random, host_share: float):
    """A random match to its end: (final state, decisions, round_scored events)."""
    state, _ = new_match(rules, players, seed)
    decisions, scored = [], []
    while not state.finished:
        if rng.random() < host_share:
            state, events = apply_host_move(state)
            decisions.append((None, True))
        else:
            move = rng.choice(legal_moves(state))
            state, events = apply(state, state.to_act, move)
            decisions.append((move, False))
        scored += [e for e in events if e.kind == "round_scored"]
    return state, decisions, scored


def _same_rounds(out: dict, scored: list, own) -> None:
    assert len(out["rounds"]) == len(scored)
    for r, e in zip(out["rounds"], scored, strict=True):
        assert (r["end"], r["by"]) == (e.end, e.by)
        assert r["hand_values"] == list(e.hand_values)
        assert r["recorded"] == list(e.recorded)
        assert r["scores"] == list(e.scores)
        own(r, e)


def _same_end(out: dict, state, *, winners: bool) -> None:
    """The match's end; ``winners``: the replay names the winners and a draw (the game of
    rounds, §2.11 rule 12; a goat game names its goats alone, §1.15)."""
    result = state.result
    assert out["finished"] is True
    assert out["goats"] == list(result.goats)
    assert out["rating"] == list(result.rating)
    if winners:
        assert out["winners"] == list(result.winners)
        assert out["draw"] is bool(result.draw)


@SETTINGS
@given(players=st.integers(2, 8), top=st.sampled_from([9, 12]), seed=st.integers(0, 2**32),
       rng_seed=st.integers(0, 2**32), host=st.sampled_from([0.0, 0.05]))
def test_a_replayed_mexican_train_record_equals_the_match(players, top, seed, rng_seed, host):
    """RULES.md §2.11 rule 15: per round the end, hands, points and the marked trains at the
    round's end (``trains_public``, read off the round's last table); the match's result."""
    players = min(players, 4) if top == 9 else players
    rules = Rules(variant="mexican_train", set=top, afk_limit=100)
    state, decisions, scored = _play(rules, players, seed, random.Random(rng_seed), host)
    names = [f"p{i}" for i in range(players)]
    record = record_match(rules, names, seed, decisions)
    out = replay_json(json.dumps(record, ensure_ascii=False))

    def trains(r: dict, e) -> None:
        assert r["trains_public"] == [s for s, marked in enumerate(e.layout.public) if marked]

    _same_rounds(out, scored, trains)
    if state.result.reason == "limit":  # not stopped by a timeout (rule 13)
        assert len(out["rounds"]) == top + 1  # rule 1: N+1 rounds
    _same_end(out, state, winners=True)


@SETTINGS
@given(seed=st.integers(0, 2**32), rng_seed=st.integers(0, 2**32),
       host=st.sampled_from([0.0, 0.1]))
def test_a_replayed_kolbasa_record_equals_the_match(seed, rng_seed, host):
    """RULES.md §2.12 rule 11: per round the end, queues' values, points and the queue
    lengths at the round's end (the hands the round revealed); the match's result."""
    rules = Rules(variant="kolbasa", afk_limit=100)
    state, decisions, scored = _play(rules, 2, seed, random.Random(rng_seed), host)
    record = record_match(rules, ["a", "b"], seed, decisions)
    out = replay_json(json.dumps(record))

    def queues(r: dict, e) -> None:
        assert r["queue_lengths"] == [len(h) for h in e.hands]

    _same_rounds(out, scored, queues)
    _same_end(out, state, winners=False)
