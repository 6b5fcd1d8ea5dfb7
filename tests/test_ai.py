"""Computer players (engine/ai.py) in classic Kozel: what a seat may know, the beliefs it
draws, and the three strengths, all on the engine's own round core.

RULES.md §1.8 (drawn tiles are private), §1.5–§1.10 (moves, draws, knocks, out, fish),
§1.11–§1.15 (scoring, goats).  The variants' side (cross layouts, several doubles, effects of
a move) is tests/test_ai_variants.py.
"""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Rules, Tile, ai, apply, legal_moves, new_match, start_match, to_dict
from engine.events import Drew
from engine.tiles import ALL_MASK, SUIT_MASK, TILE_ID, TILES, ids_of, mask_of
from tests.enginekit import mid_round

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

rules_strategy = st.builds(
    Rules,
    bazar_reserve=st.integers(0, 2),
    fish_without_double=st.booleans(),
    fish_scoring=st.sampled_from(["all_to_max", "each_own", "own_to_max"]),
)
# 2–4 players free-for-all, or four in two teams (RULES.md §1.1, §1.14).
setup = st.one_of(
    st.tuples(rules_strategy, st.integers(2, 4)),
    st.tuples(rules_strategy.map(lambda r: Rules(**{**r.to_json(), "teams": True})),
              st.just(4)),
)


def play_to(rules: Rules, players: int, seed: object, steps: int, rng: random.Random):
    """A match after up to ``steps`` random decisions; returns (state, round events)."""
    state, events = new_match(rules, players, seed)
    history = list(events)
    for _ in range(steps):
        if state.finished:
            break
        state, evs = apply(state, state.to_act, rng.choice(legal_moves(state)))
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    return state, history


def shuffle_hidden(state, seat: int, rng: random.Random):
    """The same match with every tile ``seat`` cannot see dealt anew: other hands keep their
    sizes, the bazar its size and reserve (RULES.md §1.4)."""
    rs = state.round
    hidden = [t for s, h in enumerate(rs.hands) if s != seat for t in ids_of(h)] + list(rs.bazar)
    rng.shuffle(hidden)
    hands = list(rs.hands)
    k = 0
    for s, h in enumerate(rs.hands):
        if s == seat:
            continue
        n = h.bit_count()
        hands[s] = sum(1 << i for i in hidden[k:k + n])
        k += n
    bazar = tuple(hidden[k:])
    reserve_mask = sum(1 << i for i in bazar[len(bazar) - rs.reserve:]) if rs.reserve else 0
    new_rs = rs._replace(hands=tuple(hands), bazar=bazar, reserve_mask=reserve_mask)
    return state._replace(round=new_rs)


def other_draws(history, seat: int, rng: random.Random):
    """The history with the private tile of every other seat's draw replaced."""
    return [Drew(ev.seat, rng.choice(TILES)) if ev.kind == "drew" and ev.seat != seat else ev
            for ev in history]


# ------------------------------------------------------------------ the observation


@SETTINGS
@given(setup=setup, seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_legal_moves_of_the_observation_are_the_engines(setup, seed, steps):
    rules, players = setup
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    if state.finished:
        return
    seat = state.to_act
    obs = ai.observe(state, seat, history)
    assert obs.legal == legal_moves(state)  # RULES.md §1.5–§1.7, same order
    assert obs.hand == state.hand(seat)
    assert obs.hand_sizes == state.hand_sizes()
    assert obs.layout == state.round.layout
    assert obs.ends == tuple(sorted(set(state.ends)))
    other = (seat + 1) % players
    assert ai.observe(state, other, history).legal == ()


@SETTINGS
@given(setup=setup, seed=st.integers(0, 10**6), steps=st.integers(0, 60),
       shuffle_seed=st.integers(0, 10**6))
def test_observations_and_decisions_cannot_see_hidden_tiles(setup, seed, steps, shuffle_seed):
    """Two states that differ only in tiles the seat cannot see — the other hands, the bazar
    and its order, the reserve, the tiles other seats drew (RULES.md §1.4, §1.8) — give equal
    observations and equal decisions of every strength with the same random seed, and every
    decision is a legal move."""
    rules, players = setup
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    if state.finished:
        return
    seat = state.to_act
    obs = assert_blind(state, history, random.Random(shuffle_seed))
    # What the observation holds of the round: this seat's hand and nothing hidden.
    assert obs.round.hands == tuple(h if s == seat else 0
                                    for s, h in enumerate(state.round.hands))
    assert obs.round.bazar == () and obs.round.reserve_mask == 0


def assert_blind(state, history, rng: random.Random) -> ai.Observation:
    """The seat to act sees the same observation, and every strength decides the same legal
    move with the same seed, in ``state`` and in a twin whose hidden tiles (other hands, the
    bazar and its order, other seats' draws) ``rng`` shuffled — hard both with a sample
    count and with a work budget; returns the observation."""
    seat = state.to_act
    twin = shuffle_hidden(state, seat, rng)
    twin_history = other_draws(history, seat, rng)
    obs = ai.observe(state, seat, history)
    assert ai.observe(twin, seat, twin_history) == obs
    for strength in ai.STRENGTHS:
        a = ai.decide(obs, strength, random.Random(7), samples=3)
        b = ai.decide(ai.observe(twin, seat, twin_history), strength, random.Random(7),
                      samples=3)
        assert a == b and a in legal_moves(state)
    # hard bounded by work, the bot's way (no sample count, no clock)
    a = ai.decide(obs, "hard", random.Random(7), work=2000)
    b = ai.decide(ai.observe(twin, seat, twin_history), "hard", random.Random(7), work=2000)
    assert a == b and a in legal_moves(state)
    return obs


def test_observation_pickles_and_decides_after_pickling():
    """The bot sends observations to a process pool."""
    state, history = play_to(Rules(bazar_reserve=1), 3, 5, 6, random.Random(5))
    obs = ai.observe(state, state.to_act, history)
    back = pickle.loads(pickle.dumps(obs))
    assert back == obs
    for strength in ai.STRENGTHS:
        assert ai.decide(back, strength, random.Random(1), samples=2) in legal_moves(state)


def test_observation_drops_drawn_tiles_and_merges_draws():
    # Two players with a bazar: play until someone draws (RULES.md §1.8).
    for seed in range(200):
        state, history = play_to(Rules(), 2, seed, 12, random.Random(seed))
        draws = [ev for ev in history if ev.kind == "drew"]
        if draws and not state.finished:
            break
    else:  # pragma: no cover
        pytest.fail("no draw in 200 matches")
    obs = ai.observe(state, state.to_act, history)
    drew = [a for a in obs.history if a.kind == "drew"]
    assert drew and all(a.tile is None for a in drew)
    assert sum(a.count for a in drew) == len(draws)
    for a in drew:  # the numbers and the tiles the seat could not match
        assert a.ends and a.fit == _or(SUIT_MASK[n] for n in a.ends)


def _or(masks) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def test_public_actions_carry_the_open_numbers_before_each_step():
    state, history = play_to(Rules(), 4, 9, 6, random.Random(9))
    obs = ai.observe(state, state.to_act, history)
    steps = [a for a in obs.history if a.kind in ("led", "played")]
    assert steps[0].kind == "led" and steps[0].ends == () and steps[0].shown == -1
    for a in steps[1:]:
        assert a.shown in a.ends and a.shown in (a.tile.a, a.tile.b)
        assert a.fit == _or(SUIT_MASK[n] for n in a.ends)


def test_observe_refuses_a_history_that_misses_the_layout():
    state, history = play_to(Rules(), 4, 3, 5, random.Random(3))
    with pytest.raises(ValueError):
        ai.observe(state, state.to_act, [])
    with pytest.raises(ValueError):
        ai.observe(state, state.to_act, history[:-2])
    with pytest.raises(ValueError):
        ai.observe(state, 4, history)


def test_observe_accepts_event_dicts():
    state, history = play_to(Rules(), 3, 11, 9, random.Random(11))
    seat = state.to_act
    assert ai.observe(state, seat, [to_dict(e) for e in history]) == ai.observe(
        state, seat, history)


# ------------------------------------------------------------------ beliefs and sampling


def check_beliefs(state, obs, seed: int) -> None:
    """The true deal satisfies the beliefs; a sampled deal satisfies them and the sizes."""
    seat = obs.seat
    bel = ai.beliefs(obs)
    rs = state.round
    hands = rs.hands
    assert bel.unseen == ALL_MASK & ~hands[seat] & ~rs.layout.mask
    for s in range(state.players):
        if s == seat:
            assert bel.groups[s] == ()
            continue
        assert sum(c for c, _ in bel.groups[s]) == hands[s].bit_count()
        for n in range(7):  # a known void is true (RULES.md §1.8: knocks and draws)
            if bel.voids[s] >> n & 1:
                assert not hands[s] & SUIT_MASK[n]
        allowed = 0
        for _, m in bel.groups[s]:
            allowed |= m
        assert hands[s] & ~allowed == 0
    for k in range(3):
        sampled, bazar = ai.sample_deal(obs, bel, random.Random(seed + k))
        assert sampled[seat] == hands[seat]
        assert len(bazar) == len(rs.bazar)
        total = mask_of(TILES[i] for i in bazar) | rs.layout.mask
        assert len(set(bazar)) == len(bazar)
        for s in range(state.players):
            assert sampled[s].bit_count() == hands[s].bit_count()
            assert not total & sampled[s]
            total |= sampled[s]
            if s != seat:
                for n in range(7):
                    if bel.voids[s] >> n & 1:
                        assert not sampled[s] & SUIT_MASK[n]
        assert total == ALL_MASK


@SETTINGS
@given(setup=setup, seed=st.integers(0, 10**6), steps=st.integers(1, 60),
       observer=st.integers(0, 3))
def test_beliefs_hold_for_the_true_deal_and_samples_respect_them(setup, seed, steps,
                                                                 observer):
    rules, players = setup
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    if state.finished:
        return
    obs = ai.observe(state, observer % players, history)
    check_beliefs(state, obs, seed)


def test_first_lead_shows_tiles_that_nobody_was_dealt():
    """RULES.md §1.5: when [2|2] opens the match, nobody held [1|1]: it is in the bazar.  The
    lead rule is asked of the variant, not written out again."""
    for seed in range(500):
        state, events = new_match(Rules(), 2, seed)
        lead = next(e for e in events if e.kind == "dealt").lead_tile
        if lead == Tile(2, 2):
            break
    else:  # pragma: no cover
        pytest.fail("no match led by [2|2]")
    seat = (state.to_act + 1) % 2
    obs = ai.observe(state, seat, events)
    bel = ai.beliefs(obs)
    assert bel.undealt == 1 << TILE_ID[Tile(1, 1)]
    for k in range(20):
        hands, bazar = ai.sample_deal(obs, bel, random.Random(k))
        assert TILE_ID[Tile(1, 1)] in bazar
    # A later round's lead is free (§1.6): nothing is learned from it.
    assert ai.beliefs(dataclasses.replace(obs, lead_tile=None)).undealt == 0


def test_a_knock_makes_a_void_and_a_draw_forms_its_own_group():
    """RULES.md §1.8: seat 1 drew two tiles on open numbers 5 and 3 and then played the
    second: the first does not fit 5 or 3, its older tiles do not either."""
    fit = SUIT_MASK[5] | SUIT_MASK[3]
    hist = (ai.PublicAction("led", 0, Tile(3, 5), None, (), fit=0),
            ai.PublicAction("drew", 1, None, None, (3, 5), 2, fit=fit),
            ai.PublicAction("played", 1, Tile(5, 6), "right", (3, 5), fit=fit, shown=5))
    obs = position(["0-1 0-2", "1-1 1-2 1-4 1-6 2-4 2-6 6-6 4-4", "0-0 0-3 0-4 0-5 0-6"],
                   [(3, 5), (5, 6)], history=hist, seat=0)
    bel = ai.beliefs(obs)
    assert sorted(bel.groups[1]) == sorted([(7, ALL_MASK & ~fit), (1, ALL_MASK & ~fit)])
    assert bel.voids[1] == (1 << 3) | (1 << 5)


# ------------------------------------------------------------------ the strengths


def position(hands: list[str], chain: list[tuple[int, int]], *, seat: int = 0, history=(),
             rules: Rules | None = None, scores=None, remembered=None):
    """The observation of ``seat``, to act, in a later round (RULES.md §1.6): ``hands`` per
    seat, the line ``chain``; the tiles named nowhere lie reserved in the bazar, so they can
    never be drawn.  ``history`` is given by hand (its steps need not lay the chain)."""
    rules = rules or Rules()
    players = len(hands)
    rs = mid_round(hands, chain, to_act=seat, reserve=0, last=(seat - 1) % players)
    state = start_match(rules, players, rs, "test", scores, remembered)
    state = state._replace(round_no=2)
    rs = state.round
    public = rs._replace(hands=tuple(h if s == seat else 0 for s, h in enumerate(rs.hands)),
                         bazar=(), reserve_mask=0)
    return ai.Observation(
        seat=seat, players=players, rules=rules, round_no=2, hand=state.hand(seat),
        round=public, hand_sizes=state.hand_sizes(), drawable=state.drawable,
        reserve=state.reserve, scores=state.scores, remembered=state.remembered, pot=0,
        own=None, history=tuple(history),
        lead_tile=None, to_act=seat, legal=legal_moves(state))


def test_easy_plays_every_legal_move_sometimes():
    obs = position(["1-2 1-5 1-6 3-4", "0-0 0-2 0-3 0-4 0-5 0-6", "2-2 2-3 2-4 2-5 2-6 3-3",
                    "3-5 3-6 4-4 4-5 4-6 5-5"], [(1, 1)])
    seen = {ai.decide_easy(obs, random.Random(k)) for k in range(60)}
    assert seen == set(obs.legal) and len(seen) > 2


def test_normal_sheds_the_heavy_tile():
    obs = position(["0-1 1-6 2-3 4-5", "0-0 0-2 0-3 0-4 0-5 0-6", "2-2 2-4 2-5 2-6 3-3 3-4",
                    "3-5 3-6 4-4 4-6 5-5 5-6"], [(1, 1)])
    assert ai.decide_normal(obs).tile == Tile(1, 6)


def test_normal_opens_the_number_the_next_player_knocked_on():
    """Seat 1 knocked when the open ends were 5 and 3: it holds no 5 (RULES.md §1.8), so
    opening a 5 makes it draw or knock — worth more than the pip of the heavier [2|6]."""
    chain = [(2, 3), (3, 1), (1, 2)]
    hands = ["2-5 2-6 0-0 1-1", "0-1 0-2 0-4 0-6 4-4 4-6 6-6", "0-3 0-5 1-4 2-2 3-4 3-5 3-6",
             "1-5 1-6 2-4 3-3 4-5 5-6 5-5"]
    assert ai.decide_normal(position(hands, chain)).tile == Tile(2, 6)
    fit = SUIT_MASK[5] | SUIT_MASK[3]
    knock = [ai.PublicAction("knocked", 1, None, None, (3, 5), fit=fit)]
    informed = position(hands, chain, history=knock)
    assert ai.beliefs(informed).voids[1] == (1 << 5) | (1 << 3)
    assert ai.decide_normal(informed).tile == Tile(2, 5)


# Ends 2 and 4; every non-double of 2 but [2|4] is on the table, so [2|4] at the right end
# makes both ends 2: a fish by RULES.md §1.10 (b), wherever [2|2] is.
FISH_LINE = [(2, 5), (5, 6), (6, 2), (2, 3), (3, 1), (1, 2), (2, 0), (0, 4)]


def test_normal_takes_a_fish_when_it_pays():
    """RULES.md §1.13 all_to_max: our hand after the fish is light, the others hold six
    tiles each — the highest hand is theirs and takes every point (the variant's own scoring
    of the fished round, on deals of the hidden tiles, against the match as it stands)."""
    obs = position(["2-4 2-2 0-1", "0-0 0-3 0-5 0-6 1-1 1-4", "1-5 1-6 3-3 3-4 3-5 3-6",
                    "4-4 4-5 4-6 5-5 6-6"], FISH_LINE)
    fish = Move(Tile(2, 4), "right")
    assert fish in obs.legal
    assert ai.decide_normal(obs) == fish


def test_normal_avoids_a_fish_that_would_cost_it():
    """Same position, but the others hold one tile each and we would keep 26 pips: we would
    be the highest hand and record everything (RULES.md §1.13)."""
    obs = position(["2-4 2-2 6-6 5-5", "0-0", "1-1", "0-3"], FISH_LINE)
    fish = Move(Tile(2, 4), "right")
    assert fish in obs.legal
    assert ai.decide_normal(obs) != fish


def test_hard_is_deterministic_with_a_sample_count_and_bounded_by_its_budget():
    state, history = play_to(Rules(), 4, 21, 2, random.Random(21))
    while len(legal_moves(state)) < 2:
        state, evs = apply(state, state.to_act, legal_moves(state)[0])
        history += evs
    obs = ai.observe(state, state.to_act, history)
    a = ai.decide_hard(obs, random.Random(5), samples=20)
    assert a == ai.decide_hard(obs, random.Random(5), samples=20)
    assert a in obs.legal
    # the budget is kept by the clock hard is given: a clock where every reading is 7 ms
    # later (a busy machine), and hard stops before one more deal would pass 0.1 s
    readings = []

    def clock() -> float:
        readings.append(len(readings) * 0.007)
        return readings[-1]

    assert ai.decide_hard(obs, random.Random(5), budget=0.1, clock=clock) in obs.legal
    assert 2 < len(readings) and readings[-1] - readings[0] <= 0.1
    with pytest.raises(ValueError):
        ai.decide_hard(obs, random.Random(5), budget=None, work=None)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setup, seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_hard_with_a_sample_count_is_deterministic_everywhere(setup, seed, steps):
    rules, players = setup
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    if state.finished:
        return
    obs = ai.observe(state, state.to_act, history)
    a = ai.decide_hard(obs, random.Random(seed), samples=4)
    assert a == ai.decide_hard(pickle.loads(pickle.dumps(obs)), random.Random(seed),
                               samples=4)
    assert a in legal_moves(state)


def test_hard_takes_the_fish_that_pays():
    """The playouts score the round with the variant (RULES.md §1.13): a fish that gives all
    the points to another hand is worth more than playing on."""
    obs = position(["2-4 2-2 0-1", "0-0 0-3 0-5 0-6 1-1 1-4", "1-5 1-6 3-3 3-4 3-5 3-6",
                    "4-4 4-5 4-6 5-5 6-6"], FISH_LINE)
    assert ai.decide_hard(obs, random.Random(2), samples=30) == Move(Tile(2, 4), "right")


def test_decide_refuses_unknown_strengths_and_seats_not_to_act():
    state, history = play_to(Rules(), 4, 1, 3, random.Random(1))
    obs = ai.observe(state, state.to_act, history)
    with pytest.raises(ValueError):
        ai.decide(obs, "grandmaster", random.Random(0))
    idle = ai.observe(state, (state.to_act + 1) % 4, history)
    for strength in ai.STRENGTHS:
        with pytest.raises(ValueError):
            ai.decide(idle, strength, random.Random(0), samples=1)


def test_normal_beats_easy_over_a_few_matches():
    """A smoke check of strength (the measured numbers are in bench/ai_bench.py): over 40
    matches normal is a goat far less often than a fair 25% (RULES.md §1.15)."""
    goats = 0
    for i in range(40):
        strengths = ["easy"] * 4
        strengths[i % 4] = "normal"
        state, events = new_match(Rules(), 4, f"smoke-{i}")
        history = list(events)
        rng = random.Random(i)
        while not state.finished:
            seat = state.to_act
            move = ai.decide(ai.observe(state, seat, history), strengths[seat], rng)
            state, evs = apply(state, seat, move)
            for ev in evs:
                if ev.kind == "dealt":
                    history = []
                history.append(ev)
        goats += (i % 4) in state.result.goats
    assert goats <= 5


def test_hard_stops_early_only_when_the_best_move_is_settled():
    """Paired outcomes of the leader and the runner-up, deal by deal."""
    n = ai.EARLY_MIN
    same = [[0.1 * (i % 3) for i in range(n)]] * 2
    assert ai._settled(same, [sum(x) for x in same])  # never differed
    clear = [[-0.1 + 0.001 * (i % 5) for i in range(n)], [-0.3 + 0.001 * (i % 7)
                                                           for i in range(n)]]
    assert ai._settled(clear, [sum(x) for x in clear])
    rng = random.Random(3)
    noisy = [[rng.gauss(0, 1) for _ in range(n)], [rng.gauss(0, 1) for _ in range(n)]]
    assert not ai._settled(noisy, [sum(x) for x in noisy])


def test_hard_drops_clearly_beaten_moves_only():
    """Paired values per move, deal by deal: a move the leader beats in every deal by much
    goes, a close one and one equal to the leader stay; the normal choice leads a tie."""
    n = ai.PRUNE_MIN
    lead = [0.1 * (i % 3) for i in range(n)]
    equal = list(lead)
    beaten = [x - 0.5 - 0.01 * (i % 2) for i, x in enumerate(lead)]
    close = [x + (0.2 if i % 2 else -0.25) for i, x in enumerate(lead)]
    per = [lead, equal, beaten, close]
    totals = [sum(x) for x in per]
    assert ai._prune(per, totals, [0, 1, 2, 3], -1) == [0, 1, 3]
    assert ai._prune(per, totals, [1, 2, 3], 1) == [1, 3]
    worse = [x - 0.3 for x in lead]  # beaten by the same margin in every deal
    assert ai._prune([lead, worse], [sum(lead), sum(worse)], [0, 1], 0) == [0]


def test_hard_is_bounded_by_work_not_by_the_clock():
    """Issue 23: the default bound is work (moves played and weighed in the playouts), so a
    decision is reproducible; a budget too small for a second deal plays exactly one."""
    state, history = play_to(Rules(), 4, 21, 2, random.Random(21))
    while len(legal_moves(state)) < 2:
        state, evs = apply(state, state.to_act, legal_moves(state)[0])
        history += evs
    obs = ai.observe(state, state.to_act, history)
    one = [ai.decide_hard(obs, random.Random(s), samples=1, work=None) for s in range(12)]
    assert [ai.decide_hard(obs, random.Random(s), work=1) for s in range(12)] == one
    assert ai.decide_hard(obs, random.Random(3)) == ai.decide_hard(obs, random.Random(3))

    def broken_clock() -> float:
        raise AssertionError("the default bound reads no clock")

    assert ai.decide_hard(obs, random.Random(3), clock=broken_clock) in obs.legal


def _hard_position():
    """A classic position early in a round where hard has several moves to weigh."""
    state, history = play_to(Rules(), 4, 21, 2, random.Random(21))
    while len(legal_moves(state)) < 2:
        state, evs = apply(state, state.to_act, legal_moves(state)[0])
        history += evs
    return ai.observe(state, state.to_act, history)


def test_the_time_budget_stops_hard_on_the_clock_it_is_given():
    """Issue 33: hard stops at its work budget or its time budget, whichever comes first,
    the time read on the caller's clock once a deal.  A fake clock makes it exact: readings
    10 ms apart (one before the search, one as the deals start, one after each deal) and a
    budget of 50 ms stop it after the third deal, when a fourth as slow as the slowest, with
    a margin of half, would pass 95% of the budget."""
    obs = _hard_position()
    readings: list[float] = []

    def clock() -> float:
        readings.append(0.01 * len(readings))
        return readings[-1]

    thought = ai.think_hard(obs, random.Random(5), budget=0.05, clock=clock)
    assert thought.stop == "time" and thought.deals == 3 and thought.move in obs.legal
    assert len(readings) == 2 + 3
    # one slow deal is enough to stop: after it the next one is expected as slow
    steps = iter([0.0, 0.0, 0.001, 0.002, 0.05] + [0.051 + 0.001 * i for i in range(100)])
    slow = ai.think_hard(obs, random.Random(5), budget=0.1, clock=lambda: next(steps))
    assert slow.stop == "time" and slow.deals == 3
    # a clock that never runs out changes nothing: the same search, deal for deal
    free = ai.think_hard(obs, random.Random(5), budget=1.0, clock=lambda: 0.0)
    assert free == ai.think_hard(obs, random.Random(5)) and free.stop != "time"
    with pytest.raises(ValueError, match="clock"):
        ai.think_hard(obs, random.Random(5), budget=1.0)


def test_a_thought_says_what_ended_the_decision():
    """The work budget, the number of deals, a single legal move or a strength that does not
    search: each says so, with the deals and work it took (what the bot's metrics count)."""
    obs = _hard_position()
    by_work = ai.think_hard(obs, random.Random(1), work=2000)
    assert by_work.stop == "work" and by_work.deals > 1 and by_work.work <= 2000
    by_deals = ai.think(obs, "hard", random.Random(1), samples=3, work=None)
    assert (by_deals.stop, by_deals.deals) == ("samples", 3)
    assert ai.decide(obs, "hard", random.Random(1), samples=3, work=None) == by_deals.move
    for strength in ("easy", "normal"):
        thought = ai.think(obs, strength, random.Random(1))
        assert thought.stop == "policy" and thought.deals == 0 and thought.move in obs.legal
    state, history = play_to(Rules(), 4, 3, 0, random.Random(3))
    while len(legal_moves(state)) != 1:
        state, evs = apply(state, state.to_act, legal_moves(state)[0])
        history += evs
    only = ai.think(ai.observe(state, state.to_act, history), "hard", random.Random(1))
    assert only.stop == "only" and only.move == legal_moves(state)[0]
    assert pickle.loads(pickle.dumps(by_work)) == by_work
