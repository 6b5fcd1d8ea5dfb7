"""Computer players (engine/ai.py) on the variants' ground: a cross with its spinner, closed
doubles and moves of several doubles (RULES.md §2.0.2–§2.0.4), the effects of a move — points
on the count (§2.0.6), another turn and a forced draw (§2.8 rules 4–5), a race won in the
middle of a round (§2.0.7) — and a seat that left the match (§2.8 rule 8).

No variant of RULES.md §2 is registered yet, so each test registers a small test-only
:class:`engine.variant.Variant` under a temporary name (the ``variant`` fixture removes it
afterwards).  ``engine/ai.py`` knows none of them: everything it learns of a variant comes
through the round core and the variant's hooks.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Rules, Tile, ai, apply, legal_moves, new_match, start_match
from engine.events import Dealt, Drew, Knocked, Passed, Took
from engine.moves import GAP, several
from engine.rules import CLASSIC_DEFAULTS
from engine.table import Table
from engine.tiles import DOUBLE_MASK, TILE_ID, TILES, ids_of
from engine.variant import VARIANTS, MatchResult, RoundEnd, Variant
from engine.variants._cross import FivesRace
from engine.variants.seven import Again, DrawTwo, Seven
from tests.enginekit import mask
from tests.test_ai import check_beliefs

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture
def variant(monkeypatch):
    """``variant(cls)`` registers a test variant for the test (RULES.md §2: a variant is one
    registered subclass) and returns its rules; it is gone after the test."""

    def add(cls: type[Variant], **options) -> Rules:
        obj = cls()
        monkeypatch.setitem(VARIANTS, cls.name, obj)
        return Rules(variant=cls.name, **options)

    return add


# ------------------------------------------------------------------ the test variants


class CrossDoubles(Variant):
    """A cross with closing (RULES.md §2.0.2–§2.0.3) and, once a spinner exists, moves of
    2–4 doubles on different open ends, each face up or closed (as §2.2 rule 2)."""

    name = "ai_test_cross"
    section = "§2.2"
    layout = "cross"
    closing = True
    one_tile = False

    def extra_moves(self, t: Table) -> list[Move]:
        lay = t.layout
        if lay.spinner < 0 or not lay.line:
            return []
        by_end: dict[int, list[int]] = {}
        for tid, e, closed, _ in lay.placements(t.hands[t.to_act] & DOUBLE_MASK):
            if not closed and e != GAP:
                by_end.setdefault(e, []).append(tid)
        ends = sorted(by_end)
        out: list[Move] = []
        for k in range(2, len(ends) + 1):
            for chosen in itertools.combinations(ends, k):
                for tiles in itertools.product(*(by_end[e] for e in chosen)):
                    if len(set(tiles)) < k:
                        continue
                    for shut in itertools.product((False, True), repeat=k):
                        out.append(several(
                            (tid, e, c, False)
                            for tid, e, c in zip(tiles, chosen, shut, strict=True)))
        return out


class Effects(Variant):
    """A line race to ``match_limit`` (60) in the manner of RULES.md §2.4 and §2.8: a count
    (§2.0.6) that is a positive multiple of 5 scores for the mover and may win the race in the
    middle of a round (§2.0.7); ends that sum to 6 give the mover another turn, to 7 make the
    next player draw two tiles — taken from the mover's hand when the bazar runs short — and
    lose the turn (§2.8 rules 4–5); a player who cannot move
    draws one tile only and passes if it does not fit (§2.8 rule 6); a blocked round is void
    (§2.0.5, as §2.9 rule 2)."""

    name = "ai_test_effects"
    section = "§2.8"
    race = True
    options = dict(CLASSIC_DEFAULTS, match_limit=60)
    forced_draws = Seven.forced_draws  # its draw of two tiles (§2.8 rule 5)

    def limits(self, state) -> tuple[int, ...]:
        return tuple(max(1, state.rules.match_limit - s) for s in state.scores)

    # the fives games' play scoring on the count (RULES.md §2.4 rule 2), on a line here
    on_move = FivesRace.on_move

    def turn(self, t: Table, seat: int, codes) -> int:
        nxt = t.nxt[seat]
        if codes[0][1] < 0:
            return nxt
        s = t.layout.end_sum()
        if s == 6:
            if t.events is not None:
                t.events.append(Again(seat))
            return seat
        if s == 7:
            got = []
            for _ in range(2):
                tid = t.draw()
                if tid < 0:
                    break
                t.hands[nxt] |= 1 << tid
                got.append(tid)
            taken = ids_of(t.hands[seat])[:2 - len(got)]  # the market ran short
            for tid in taken:
                t.hands[seat] ^= 1 << tid
                t.hands[nxt] |= 1 << tid
            if t.events is not None:
                t.events.append(DrawTwo(nxt, seat, len(got), len(taken)))
                t.events.extend(Drew(nxt, TILES[tid]) for tid in got)
                if taken:
                    t.events.append(Took(nxt, seat, tuple(TILES[i] for i in taken)))
            if not t.hands[seat]:
                t.end = "out"  # the take emptied the maker's hand
            return t.nxt[nxt]
        return nxt

    def stuck(self, t: Table, seat: int) -> bool:
        tid = t.draw()
        if tid < 0:
            if t.events is not None:
                t.events.append(Knocked(seat))
            return False
        t.hands[seat] |= 1 << tid
        if t.events is not None:
            t.events.append(Drew(seat, TILES[tid]))
        if t.layout.fit >> tid & 1:
            return True
        if t.events is not None:
            t.events.append(Passed(seat))
        return False

    def blocked_end(self, t: Table, cause: str) -> str:
        return "void"  # a blocked round is dealt again, nothing counted (as §2.9 rule 2)

    def score_round(self, state, t: Table) -> RoundEnd:
        if t.end == "void":
            scored = self.scored_event(state, t, (0,) * len(state.scores),
                                       (0,) * len(state.scores), state.scores,
                                       state.remembered, 0, 0)
            return RoundEnd(state.scores, state.remembered, 0, scored)
        scores = [s + p for s, p in zip(state.scores, t.points, strict=True)]
        values = self.side_values(state, t)
        recorded = list(t.points)
        if t.end == "out":
            side = t.sides[t.last]
            won = sum(v for s, v in enumerate(values) if s != side) // 5 * 5
            scores[side] += won
            recorded[side] += won
        scored = self.scored_event(state, t, values, recorded, scores, state.remembered, 0, 0)
        return RoundEnd(tuple(scores), state.remembered, 0, scored)

    def result(self, state, end: RoundEnd) -> MatchResult | None:
        limit = state.rules.match_limit
        if max(end.scores) < limit:
            return None
        low = min(end.scores)
        goats = tuple(s for s, v in enumerate(end.scores) if v == low)
        return MatchResult("limit", goats, tuple(0 if s in goats else 1
                                                 for s in range(len(end.scores))), None,
                           winners=tuple(s for s, v in enumerate(end.scores) if v >= limit))

    def standing(self, state) -> list[float]:
        top = max(state.scores)
        return [float(top - s) for s in state.scores]

    def standing_scale(self, rules) -> float:
        return 15.0


class Leavers(Variant):
    """Classic, except that the seats in its own value (``MatchState.own``, a tuple) have
    left the match and are dealt no tiles (as RULES.md §2.8 rule 8)."""

    name = "ai_test_leave"
    section = "§2.8"

    def playing_seats(self, state) -> tuple[int, ...]:
        return tuple(s for s in range(state.players) if s not in (state.own or ()))


# ------------------------------------------------------------------ helpers


def scripted(rules: Rules, hands: list[str], script: list[list[tuple[str, str | None, bool]]],
             bazar: str = "", leader: int = 0):
    """A match of ``rules`` whose round is dealt ``hands`` (and ``bazar``, in draw order) and
    played by ``script``: one move per entry, each a list of ``(tile, end, closed)``.
    Returns (state, round events)."""
    t = Table(rules, len(hands), [mask(h) for h in hands],
              tuple(TILE_ID[Tile.parse(x)] for x in bazar.split()), 0, leader)
    state = start_match(rules, len(hands), t.state(), "scripted")
    history: list = [Dealt(1, leader, None, t.drawable, 0)]
    for placements in script:
        move = Move.of((Tile.parse(tile), end, closed) for tile, end, closed in placements)
        state, evs = apply(state, state.to_act, move)
        history += evs
    return state, history


def play(state, history, strengths, rng, limit=400):
    """Play on with the given strength per seat (hard with 2 samples) for up to ``limit``
    decisions; every decision must be legal (``apply`` refuses anything else)."""
    for _ in range(limit):
        if state.finished:
            break
        seat = state.to_act
        obs = ai.observe(state, seat, history)
        move = ai.decide(obs, strengths[seat], rng, samples=2)
        assert move in legal_moves(state)
        state, evs = apply(state, seat, move)
        for ev in evs:
            if ev.kind == "dealt":
                history = []
            history.append(ev)
    return state, history


def random_match(rules: Rules, players: int, seed: int, steps: int):
    """A match of ``rules`` after up to ``steps`` random decisions: (state, round events)."""
    rng = random.Random(seed)
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


# ------------------------------------------------------------------ the cross


HANDS = ["3-3 3-6 0-0 0-1 0-2 0-3 0-4", "3-5 1-3 1-1 1-2 1-4 1-5 1-6",
         "5-5 4-4 6-6 2-2 2-4 2-5 2-6", "3-4 0-5 0-6 2-3 4-5 4-6 5-6"]
# The lead [3|3] is the spinner (RULES.md §2.0.2); [5|5] closes the right end (§2.0.3).
SCRIPT = [[("3-3", None, False)], [("3-5", "right", False)], [("5-5", "right", True)],
          [("3-4", "up", False)], [("3-6", "down", False)], [("1-3", "left", False)]]


def test_a_cross_position_by_hand(variant):
    """Seat 2 faces a cross with ends left 1, up 4, down 6 and the right end closed, holding
    [4|4] and [6|6]: it may place them one by one or together, face up or closed.  All three
    strengths choose legal moves; the hard player's playouts, on the round core, end."""
    rules = variant(CrossDoubles)
    state, history = scripted(rules, HANDS, SCRIPT)
    lay = state.round.layout
    assert lay.spinner == 3 and lay.closed_ends == ("right",)
    assert lay.open_ends == {"left": 1, "up": 4, "down": 6}
    obs = ai.observe(state, 2, history)
    assert obs.layout == lay and obs.ends == (1, 4, 6)
    played = [a for a in obs.history if a.kind == "played"]
    assert [a.closed for a in played] == [False, True, False, False, False]
    assert played[1].shown == 5 and played[1].ends == (3, 5)
    several_doubles = [m for m in obs.legal if len(m) > 1]
    assert several_doubles, "moves of several doubles are offered"
    assert Move.of([(Tile(4, 4), "up"), (Tile(6, 6), "down", True)]) in obs.legal
    for strength in ai.STRENGTHS:
        for seed in range(3):
            move = ai.decide(obs, strength, random.Random(seed), samples=4)
            assert move in obs.legal
            apply(state, 2, move)  # the engine takes it
    bel = ai.beliefs(obs)
    sampler_rng = random.Random(1)
    for _ in range(20):
        t = ai._deal_table(obs, *ai.sample_deal(obs, bel, sampler_rng))
        ai._run(t, ai._knowledge(obs, bel), ai._Judge(ai._context(obs)))
        assert t.end in ("out", "fish")
    check_beliefs(state, obs, 3)


def test_normal_lays_two_doubles_at_once(variant):
    """Two doubles placed together shed more pips than one (RULES.md §2.0.4): the heuristic
    sees the whole move on a preview of the table."""
    rules = variant(CrossDoubles)
    state, history = scripted(rules, HANDS, SCRIPT)
    move = ai.decide_normal(ai.observe(state, 2, history))
    assert sorted(p.tile for p in move) == [Tile(4, 4), Tile(6, 6)]


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 50))
def test_every_strength_plays_legal_moves_on_the_cross(variant, players, seed, steps):
    rules = variant(CrossDoubles)
    state, history = random_match(rules, players, seed, steps)
    if state.finished:
        return
    check_beliefs(state, ai.observe(state, (state.to_act + 1) % players, history), seed)
    rng = random.Random(seed)
    strengths = [rng.choice(ai.STRENGTHS) for _ in range(players)]
    play(state, history, strengths, rng, limit=40)


# ------------------------------------------------------------------ effects of a move


# ------------------------------------------------------------------ effects of a move


def two_seat_position(rules: Rules, hand: str, other: str, lead: str, scores=None):
    """Two players: seat 1 leads ``lead`` from ``lead + other``, seat 0 holds ``hand`` and is
    to act; the other tiles are the bazar.  ``scores`` per side before the round (the race's
    limits follow from them, RULES.md §2.0.7)."""
    used = set(f"{hand} {other} {lead}".split())
    rest = " ".join(t.code() for t in TILES if t.code() not in used)
    state, history = scripted(rules, [hand, f"{lead} {other}"], [[(lead, None, False)]], rest,
                              leader=1)
    state = state._replace(scores=tuple(scores or (0, 0)))
    state = state._replace(round=state.round._replace(limits=rules.spec.limits(state)))
    assert state.to_act == 0
    return ai.observe(state, 0, history)


OTHER = "0-0 0-1 0-4 0-5 5-5 1-1"


@pytest.mark.parametrize(("hand", "effect"), [
    # Ends 1 and 4 after the lead [1|4].  [1|6] on the left makes a count of 10, which
    # scores (RULES.md §2.0.6).
    ("1-6 4-4 0-2 3-5 0-3 2-5 0-6", Move(Tile(1, 6), "left")),
    # [4|5] on the right makes ends that sum to 6: another turn (§2.8 rule 4).
    ("4-5 4-4 2-5 0-3 3-6 2-6 0-6", Move(Tile(4, 5), "right")),
    # [4|6] on the right makes ends that sum to 7: the next player draws two (§2.8 rule 5).
    ("4-6 4-4 0-2 3-5 0-3 2-5 6-6", Move(Tile(4, 6), "right")),
])
def test_normal_sees_what_a_move_does_in_the_variant(variant, hand, effect):
    """In classic the heavier double [4|4] is the heuristic's move; in a variant where the
    other move scores, moves again or makes the next player draw, the preview on a copy of
    the table shows it and the heuristic takes it."""
    classic = two_seat_position(Rules(), hand, OTHER, "1-4")
    assert ai.decide_normal(classic) == Move(Tile(4, 4), "right")
    obs = two_seat_position(variant(Effects), hand, OTHER, "1-4")
    assert ai.decide_normal(obs) == effect
    for strength in ai.STRENGTHS:
        assert ai.decide(obs, strength, random.Random(3), samples=4) in obs.legal


def test_the_race_won_in_the_middle_of_a_round(variant):
    """[0|0] on the left makes a count of 5 after the lead [0|5].  Far from the limit the
    heuristic sheds the heavier [3|5]; 5 points short of it, [0|0] ends the match as a win
    (RULES.md §2.0.7: the round ends ``"limit"``), scored by the variant."""
    rules = variant(Effects)
    hand, other = "0-0 4-5 3-5 1-2 1-3 2-6 3-6", "1-1 1-4 1-6 2-2 2-3 2-4"
    far = two_seat_position(rules, hand, other, "0-5")
    assert ai.decide_normal(far) == Move(Tile(3, 5), "right")
    near = two_seat_position(rules, hand, other, "0-5", scores=(55, 0))
    win = Move(Tile(0, 0), "left")
    assert ai.decide_normal(near) == win
    assert ai.decide_hard(near, random.Random(1), samples=10) == win


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 60),
       observer=st.integers(0, 3))
def test_beliefs_stay_sound_through_forced_draws(variant, players, seed, steps, observer):
    """Tiles drawn because the ends sum to 7 (RULES.md §2.8 rule 5) say nothing of what the
    seat lacked: the true deal still satisfies the beliefs, samples match the sizes."""
    rules = variant(Effects)
    state, history = random_match(rules, players, seed, steps)
    if state.finished:
        return
    check_beliefs(state, ai.observe(state, observer % players, history), seed)


def test_a_forced_draw_is_not_a_void(variant):
    """After [4|6] makes ends 1 and 6 (sum 7), seat 1 draws two tiles by the rule and loses
    the turn: a ``forced`` step, not a draw for want of a 1 or a 6, so nothing is learned of
    its suits (RULES.md §2.8 rule 5)."""
    rules = variant(Effects)
    hand = "4-6 4-4 0-2 3-5 0-3 2-5 6-6"
    used = set(f"{hand} 1-4 {OTHER}".split())
    bazar = " ".join(t.code() for t in TILES if t.code() not in used)
    state, history = scripted(rules, [hand, f"1-4 {OTHER}"],
                              [[("1-4", None, False)], [("4-6", "right", False)]], bazar,
                              leader=1)
    assert state.to_act == 0  # seat 1 lost its turn
    obs = ai.observe(state, 0, history)
    assert [a.kind for a in obs.history] == ["led", "played", "forced"]
    forced = obs.history[-1]
    assert (forced.seat, forced.count, forced.source, forced.tile) == (1, 2, 0, None)
    bel = ai.beliefs(obs)
    assert bel.voids[1] == 0
    assert sum(c for c, _ in bel.groups[1]) == obs.hand_sizes[1] == 8
    check_beliefs(state, obs, 1)


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_every_strength_plays_legal_moves_in_a_race_with_effects(variant, players, seed, steps):
    rules = variant(Effects)
    state, history = random_match(rules, players, seed, steps)
    if state.finished:
        return
    rng = random.Random(seed)
    strengths = [rng.choice(ai.STRENGTHS) for _ in range(players)]
    play(state, history, strengths, rng, limit=40)


def test_hard_is_deterministic_in_a_variant(variant):
    rules = variant(Effects)
    state, history = random_match(rules, 3, 12, 3)
    while len(legal_moves(state)) < 2:
        state, evs = apply(state, state.to_act, legal_moves(state)[0])
        history += evs
    obs = ai.observe(state, state.to_act, history)
    a = ai.decide_hard(obs, random.Random(4), samples=12)
    assert a == ai.decide_hard(obs, random.Random(4), samples=12) and a in obs.legal


# ------------------------------------------------------------------ a seat that left


def test_a_seat_that_left_holds_nothing(variant):
    """Seat 1 has left the match (as RULES.md §2.8 rule 8): it is dealt nothing, the turn
    skips it, the beliefs give it an empty hand and samples deal it none."""
    rules = variant(Leavers)
    state = start_match(rules, 3, seed="left", own=(1,))
    t, events = rules.spec.deal_round(state, 1)
    state = state._replace(round=t.state())
    history = list(events)
    rng = random.Random(5)
    for _ in range(12):
        if state.finished:
            break
        obs = ai.observe(state, state.to_act, history)
        assert obs.hand_sizes[1] == 0 and 1 not in obs.round.seats
        bel = ai.beliefs(obs)
        assert bel.groups[1] == ()
        hands, _ = ai.sample_deal(obs, bel, rng)
        assert hands[1] == 0
        check_beliefs(state, obs, 5)
        move = ai.decide(obs, ("easy", "normal", "hard")[len(history) % 3], rng, samples=3)
        state, evs = apply(state, state.to_act, move)
        history += evs


# ------------------------------------------------------------------ the benchmark's variants


@pytest.mark.parametrize("cls", [CrossDoubles, Effects])
def test_the_benchmark_plays_any_registered_variant(variant, cls):
    """``bench/ai_bench.py --variant V``: whole matches of normal against three easy players,
    a loss counted for the side that loses the match (RULES.md §2.0.7)."""
    from bench import ai_bench

    rules = variant(cls)
    stats = ai_bench.run_lineup("ne", "normal", "easy", 4, 1.0, 1, 1, rules.to_json())
    assert stats["normal"]["n"] == 4 and stats["easy"]["n"] == 12
    assert stats["normal"]["goats"] + stats["easy"]["goats"] >= 4  # every match has a loser
