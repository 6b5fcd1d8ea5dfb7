"""Computer players (issue 6, engine/ai.py): what a seat may know, the three strengths, the
playout kernel against the engine.

RULES.md §1.8 (drawn tiles are private), §1.5–§1.10 (moves, draws, knocks, out, fish),
§1.11–§1.15 (scoring, goats).
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Rules, Tile, ai, apply, legal_moves, new_match
from engine.events import Drew
from engine.tiles import ALL_MASK, SUIT_MASK, TILE_ID, TILES, ids_of, mask_of

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

rules_strategy = st.builds(
    Rules,
    bazar_reserve=st.integers(0, 2),
    fish_without_double=st.booleans(),
    fish_scoring=st.sampled_from(["all_to_max", "each_own", "own_to_max"]),
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
            if ev.kind in ("dealt", "misdeal") and history and history[-1].kind not in (
                    "dealt", "misdeal"):
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
@given(rules=rules_strategy, players=st.integers(2, 4), seed=st.integers(0, 10**6),
       steps=st.integers(0, 60))
def test_legal_moves_of_the_observation_are_the_engines(rules, players, seed, steps):
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    if state.finished:
        return
    seat = state.to_act
    obs = ai.observe(state, seat, history)
    assert obs.legal == legal_moves(state)  # RULES.md §1.5–§1.7, same order
    assert obs.hand == state.hand(seat)
    assert obs.hand_sizes == state.hand_sizes()
    other = (seat + 1) % players
    assert ai.observe(state, other, history).legal == ()


@SETTINGS
@given(rules=rules_strategy, players=st.integers(2, 4), seed=st.integers(0, 10**6),
       steps=st.integers(0, 60), shuffle_seed=st.integers(0, 10**6))
def test_decisions_cannot_see_hidden_tiles(rules, players, seed, steps, shuffle_seed):
    """Two states that differ only in tiles the seat cannot see — the other hands, the bazar
    order, the tiles other seats drew (RULES.md §1.8) — give equal observations and equal
    decisions of every strength with the same random seed."""
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    if state.finished:
        return
    seat = state.to_act
    rng = random.Random(shuffle_seed)
    twin = shuffle_hidden(state, seat, rng)
    twin_history = other_draws(history, seat, rng)
    obs = ai.observe(state, seat, history)
    assert ai.observe(twin, seat, twin_history) == obs
    for strength in ai.STRENGTHS:
        a = ai.decide(obs, strength, random.Random(7), samples=3)
        b = ai.decide(ai.observe(twin, seat, twin_history), strength, random.Random(7),
                      samples=3)
        assert a == b and a in legal_moves(state)


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
    assert all(len(a.ends) == 2 for a in drew)  # the numbers the seat could not match


def test_observe_refuses_a_history_that_misses_the_chain():
    state, history = play_to(Rules(), 4, 3, 5, random.Random(3))
    with pytest.raises(ValueError):
        ai.observe(state, state.to_act, [])
    with pytest.raises(ValueError):
        ai.observe(state, 4, history)


def test_observe_accepts_event_dicts():
    from engine import to_dict

    state, history = play_to(Rules(), 3, 11, 9, random.Random(11))
    seat = state.to_act
    assert ai.observe(state, seat, [to_dict(e) for e in history]) == ai.observe(
        state, seat, history)


# ------------------------------------------------------------------ beliefs and sampling


@SETTINGS
@given(rules=rules_strategy, players=st.integers(2, 4), seed=st.integers(0, 10**6),
       steps=st.integers(1, 60))
def test_beliefs_hold_for_the_true_deal_and_samples_respect_them(rules, players, seed,
                                                                 steps):
    state, history = play_to(rules, players, seed, steps, random.Random(seed))
    if state.finished:
        return
    seat = state.to_act
    obs = ai.observe(state, seat, history)
    bel = ai.beliefs(obs)
    hands = state.round.hands
    assert bel.unseen == ALL_MASK & ~hands[seat] & ~state.round.chain_mask
    for s in range(players):
        if s == seat:
            continue
        assert sum(c for c, _ in bel.groups[s]) == hands[s].bit_count()
        for n in range(7):  # a known void is true (RULES.md §1.8: knocks and draws)
            if bel.voids[s] >> n & 1:
                assert not hands[s] & SUIT_MASK[n]
        allowed = 0
        for _, m in bel.groups[s]:
            allowed |= m
        assert hands[s] & ~allowed == 0
    sampled, bazar = ai.sample_deal(obs, bel, random.Random(seed))
    assert sampled[seat] == hands[seat]
    assert len(bazar) == len(state.round.bazar)
    total = mask_of(TILES[i] for i in bazar) | state.round.chain_mask
    for s in range(players):
        assert sampled[s].bit_count() == hands[s].bit_count()
        assert not total & sampled[s]
        total |= sampled[s]
        if s != seat:
            for n in range(7):
                if bel.voids[s] >> n & 1:
                    assert not sampled[s] & SUIT_MASK[n]
    assert total == ALL_MASK


def test_first_lead_shows_tiles_that_nobody_was_dealt():
    """RULES.md §1.5: when [2|2] opens the match, nobody held [1|1]: it is in the bazar."""
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


# ------------------------------------------------------------------ the playout kernel


def kernel_of(state) -> ai._Sim:
    rs = state.round
    left, right = (rs.line.left, rs.line.right)
    return ai._Sim(state.players, list(rs.hands), list(rs.bazar), rs.reserve, left, right,
                   rs.chain_mask, rs.to_act, rs.lead_id, state.rules,
                   [0] * state.players, [[0] * 7 for _ in range(state.players)], events=[])


def kernel_events(evs) -> list[tuple]:
    out = []
    for ev in evs:
        if ev.kind in ("led", "played"):
            out.append((ev.kind, ev.seat, TILE_ID[ev.tile], getattr(ev, "end", None)))
        elif ev.kind == "drew":
            out.append(("drew", ev.seat, TILE_ID[ev.tile], None))
        elif ev.kind in ("knocked", "went_out", "fish"):
            out.append((ev.kind, ev.seat, -1, None))
    return out


@SETTINGS
@given(rules=rules_strategy, players=st.integers(2, 4), seed=st.integers(0, 10**6),
       teams=st.booleans())
def test_playout_kernel_plays_rounds_exactly_like_the_engine(rules, players, seed, teams):
    """The internal simulator of the hard player, move by move against engine.apply:
    the same legal moves, draws, knocks, chain, hands, out or fish (RULES.md §1.5–§1.10)
    and, recorded the way the hard player records it, the same scores (§1.11–§1.14)."""
    from engine.scoring import record_round

    if teams:  # RULES.md §1.14: four players in two teams
        rules, players = Rules(**{**rules.to_json(), "teams": True}), 4
    rng = random.Random(seed)
    state, _ = new_match(rules, players, seed)
    for _ in range(3):  # the first round (fixed lead, §1.5) and two later ones (§1.6)
        sim = kernel_of(state)
        before = state
        while True:
            moves = legal_moves(state)
            assert [ai._to_move(m) for m in sim.moves()] == list(moves)
            move = rng.choice(moves)
            sim.events.clear()
            state, evs = apply(state, state.to_act, move)
            sim.play(*ai._from_move(move))
            assert sim.events == kernel_events(evs)
            scored = [ev for ev in evs if ev.kind == "round_scored"]
            if scored:
                ev = scored[0]
                assert (sim.end, sim.last) == (ev.end, ev.by)
                assert [mask_of(h) for h in ev.hands] == sim.hands
                sides = 2 if rules.teams else players
                values = [0] * sides
                for s, h in enumerate(sim.hands):
                    values[s % sides if rules.teams else s] += ai._hand_value(
                        h, rules.lone_zero_double_value)
                by = sim.last % 2 if rules.teams else sim.last
                rec = record_round(rules, before.scores, before.remembered, before.pot,
                                   tuple(values), sim.end, by)
                assert (rec.scores, rec.remembered, rec.pot) == (ev.scores, ev.remembered,
                                                                 ev.pot)
                break
            rs = state.round
            assert (sim.hands, sim.bazar, sim.chain) == (list(rs.hands), list(rs.bazar),
                                                         rs.chain_mask)
            assert (sim.left, sim.right, sim.to_act) == (rs.line.left, rs.line.right,
                                                         rs.to_act)
        if state.finished:
            return


# ------------------------------------------------------------------ the strengths


def observation(hand: str, chain: list[tuple[int, int]], sizes: tuple[int, ...],
                history=(), rules: Rules | None = None, scores=None, remembered=None,
                drawable: int = 0) -> ai.Observation:
    """An observation of seat 0, to act, in a later round (RULES.md §1.6)."""
    rules = rules or Rules()
    tiles = tuple(sorted(Tile.parse(t) for t in hand.split()))
    players = len(sizes)
    ends = (chain[0][0], chain[-1][1]) if chain else ()
    lead = -1
    moves = tuple(ai._to_move(m) for m in ai._moves(mask_of(tiles), ends, lead))
    return ai.Observation(
        seat=0, players=players, rules=rules, round_no=2, hand=tiles, chain=tuple(chain),
        ends=ends, hand_sizes=sizes, drawable=drawable, reserve=0,
        scores=tuple(scores or (0,) * players), remembered=tuple(remembered or (0,) * players),
        pot=0, history=tuple(history), lead_tile=None, to_act=0, legal=moves)


def test_easy_plays_every_legal_move_sometimes():
    obs = observation("1-2 1-5 1-6 3-4", [(1, 1)], (4, 6, 6, 6))
    seen = {ai.decide_easy(obs, random.Random(k)) for k in range(60)}
    assert seen == set(obs.legal)


def test_normal_sheds_the_heavy_tile():
    obs = observation("0-1 1-6 2-3 4-5", [(1, 1)], (4, 6, 6, 6))
    assert ai.decide_normal(obs).tile == Tile(1, 6)


def test_normal_opens_the_number_the_next_player_knocked_on():
    """Seat 1 knocked when the open ends were 5 and 3: it holds no 5 (RULES.md §1.8), so
    opening a 5 makes it draw or knock — worth more than the pip of the heavier [2|6]."""
    chain = [(2, 1), (1, 2)]
    plain = observation("2-5 2-6 0-0 1-1", chain, (4, 7, 7, 7))
    assert ai.decide_normal(plain).tile == Tile(2, 6)
    knock = [ai.PublicAction("knocked", 1, None, None, (5, 3))]
    informed = observation("2-5 2-6 0-0 1-1", chain, (4, 7, 7, 7), history=knock)
    assert ai.beliefs(informed).voids[1] == (1 << 5) | (1 << 3)
    assert ai.decide_normal(informed).tile == Tile(2, 5)


# Ends 2 and 4; every non-double of 2 but [2|4] is on the table, so [2|4] at the right end
# makes both ends 2: a fish by RULES.md §1.10 (b), wherever [2|2] is.
FISH_LINE = [(2, 5), (5, 6), (6, 2), (2, 3), (3, 1), (1, 2), (2, 0), (0, 4)]


def test_normal_takes_a_fish_when_it_pays():
    """RULES.md §1.13 all_to_max: our hand after the fish is light, the others hold six
    tiles each — the highest hand is theirs and takes every point."""
    obs = observation("2-4 2-2 0-1", FISH_LINE, (3, 6, 6, 5))
    fish = Move(Tile(2, 4), "right")
    assert fish in obs.legal
    assert ai.decide_normal(obs) == fish


def test_normal_avoids_a_fish_that_would_cost_it():
    """Same position, but the others hold one tile each and we would keep 26 pips: we would
    be the highest hand and record everything (RULES.md §1.13)."""
    obs = observation("2-4 2-2 6-6 5-5", FISH_LINE, (4, 1, 1, 1))
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
    t0 = time.perf_counter()
    ai.decide_hard(obs, random.Random(5), budget=0.1)
    assert time.perf_counter() - t0 < 0.1
    with pytest.raises(ValueError):
        ai.decide_hard(obs, random.Random(5), budget=None)


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
