"""Computer players: what a seat may know, and three strengths that decide from it only.

Issue 6.  Pure: no I/O, no clock except the optional time budget of the strong player.

Information model (RULES.md §1.2, §1.8): a seat sees its own hand, the chain and its open
ends, how many tiles every hand holds, how many bazar tiles may still be drawn (and how many
are reserved, §1.4), the scores, remembered points and pot (§1.12, §1.13), and the public
history of the round: who led or played which tile at which end, who drew how many tiles and
who knocked, with the open ends they could not match.  It never sees another hand, the tiles
another seat drew, or the bazar order.

- :func:`observe` builds an :class:`Observation` — the only input of a decision — from a
  :class:`engine.MatchState` and the engine events of the current round, reading nothing
  hidden from the state and dropping the tiles of other seats' ``drew`` events.
- :func:`decide` (or :func:`decide_easy` / :func:`decide_normal` / :func:`decide_hard`) maps
  an observation and a :class:`random.Random` to one legal :class:`engine.Move`.

Strengths:

- ``easy``: a uniformly random legal move.
- ``normal``: a one-ply heuristic: shed heavy tiles and doubles early, keep follow-ups and suit
  variety, open numbers that opponents knocked on (RULES.md §1.8), avoid numbers they showed
  strength in, go out (§1.9) and take a fish (§1.10) when its scoring (§1.13) favours us.
- ``hard``: determinized sampling.  Deals of the unseen tiles consistent with everything
  observed (:func:`beliefs`: hand sizes, suits a seat is known to lack from its knocks and
  draws, tiles that the first lead of a match (§1.5) shows were dealt to nobody) are sampled;
  every legal move is played out to the end of the round in each of them with the ``normal``
  policy for all seats by a small mutable playout kernel (:class:`_Sim`, checked against the
  engine by ``tests/test_ai.py``), the round is recorded with the engine's own scoring
  (§1.11–§1.14), and the move with the best mean value in match terms wins: minus the
  estimated probability of becoming the goat (§1.15), plus a little for the expected rating
  (§1.16).  A time budget (default :data:`DEFAULT_BUDGET` seconds) or a fixed number of
  samples (deterministic, for tests) bounds the search.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .moves import END_NAMES, Move
from .rules import Rules
from .scoring import goats_of, record_round
from .tiles import (
    ALL_MASK,
    HIGH,
    LOW,
    PIPS,
    SUIT_MASK,
    SUIT_NONDOUBLE_MASK,
    TILE_ID,
    TILES,
    ZERO_DOUBLE_ID,
    Tile,
    ids_of,
    mask_of,
)
from .variant import LEAD_ORDER as _LEAD_ORDER

__all__ = [
    "STRENGTHS",
    "DEFAULT_BUDGET",
    "PublicAction",
    "Observation",
    "Beliefs",
    "observe",
    "beliefs",
    "sample_deal",
    "decide",
    "decide_easy",
    "decide_normal",
    "decide_hard",
]

#: The three strengths, weakest first.
STRENGTHS = ("easy", "normal", "hard")
#: Seconds the ``hard`` player may think per move by default.
DEFAULT_BUDGET = 1.0

LEFT, RIGHT = END_NAMES[0], END_NAMES[1]
_BIT = tuple(1 << i for i in range(28))
# _OTHER[tile_id][n]: the other half of the tile when it shows n, else -1.
_OTHER = tuple(
    tuple((t.b if t.a == n else t.a) if n in (t.a, t.b) else -1 for n in range(7))
    for t in TILES
)
_END_NAME = (None, LEFT, RIGHT)  # kernel end codes: 0 lead, 1 left, 2 right


# ====================================================================== observation


@dataclass(frozen=True, slots=True)
class PublicAction:
    """One public step of the current round, in order.

    - ``kind``: ``"led"``, ``"played"`` (``tile`` at ``end``), ``"drew"`` (``count`` tiles,
      never which) or ``"knocked"`` (RULES.md §1.5–§1.8).
    - ``ends``: the open ends (left, right) just before the step, ``()`` before the lead; for
      ``drew`` and ``knocked`` these are the numbers the seat could not match.
    """

    kind: str
    seat: int
    tile: Tile | None = None
    end: str | None = None
    ends: tuple[int, ...] = ()
    count: int = 0


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may know when it decides, and nothing else.

    - ``seat``/``players``/``rules``/``round_no``: who observes, in which match and round.
    - ``hand``: the seat's own tiles, sorted (RULES.md §0).
    - ``chain``: oriented ``(a, b)`` pairs left to right; ``ends``: ``()`` before the lead,
      else the (left, right) open-end numbers.
    - ``hand_sizes``: tiles in every hand, per seat; ``drawable``/``reserve``: bazar tiles that
      may / may never be drawn (§1.4, §1.8).
    - ``scores``/``remembered``: per side (player, or team with ``rules.teams``), points;
      ``pot``: points carried by tied fish (§1.12–§1.14).
    - ``history``: the round's :class:`PublicAction` steps; ``lead_tile``: the tile the
      first lead of the match had to be (§1.5), only in the match's first round, else None.
    - ``to_act``: the seat whose decision is awaited (None once the round or match is over);
      ``legal``: this seat's legal moves when it is to act, in the engine's order, else ``()``.
    """

    seat: int
    players: int
    rules: Rules
    round_no: int
    hand: tuple[Tile, ...]
    chain: tuple[tuple[int, int], ...]
    ends: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    drawable: int
    reserve: int
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot: int
    history: tuple[PublicAction, ...]
    lead_tile: Tile | None
    to_act: int | None
    legal: tuple[Move, ...]

    @property
    def side(self) -> int:
        """The observer's scoring side (RULES.md §1.14)."""
        return self.seat % 2 if self.rules.teams else self.seat


def _field(ev: Any, name: str) -> Any:
    if isinstance(ev, dict):
        return ev.get(name)
    return getattr(ev, name, None)


def _tile(value: Any) -> Tile:
    return value if isinstance(value, Tile) else Tile.parse(value)


def observe(state: Any, seat: int, history: Iterable[Any]) -> Observation:
    """What ``seat`` knows of ``state`` (an :class:`engine.MatchState`).

    ``history``: the engine events of the match so far, or at least of the current round
    (engine event objects, or their ``to_dict()`` forms); only those after the last
    ``dealt`` event are read, and the tiles of ``drew`` events are dropped.  Reads from the
    state only public values and ``seat``'s own hand — never another hand or the bazar.

    Raises ``ValueError`` when ``seat`` is not a seat of the match, or when the history does
    not account for the chain on the table (it does not cover the current round).
    """
    players = state.players
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"seat {seat!r} is not a seat of a {players}-player match")
    events = list(history)
    start = 0
    dealt = None
    for i in range(len(events) - 1, -1, -1):
        if _field(events[i], "kind") == "dealt":
            start = i + 1
            dealt = events[i]
            break
    if dealt is not None and _field(dealt, "round_no") != state.round_no:
        raise ValueError("the history ends in another round than the state's")
    lead_tile = None
    if dealt is not None and _field(dealt, "lead_tile") is not None:
        lead_tile = _tile(_field(dealt, "lead_tile"))
    steps: list[PublicAction] = []
    pairs: list[tuple[int, int]] = []
    left = right = -1
    over = False
    for ev in events[start:]:
        kind = _field(ev, "kind")
        if kind in ("led", "played"):
            s = int(_field(ev, "seat"))
            t = _tile(_field(ev, "tile"))
            ends = () if left < 0 else (left, right)
            end = _field(ev, "end") if kind == "played" else None
            if left < 0:
                left, right = t.a, t.b
                pairs.append((t.a, t.b))
            elif end == LEFT:
                other = t.b if t.a == left else t.a
                pairs.insert(0, (other, left))
                left = other
            else:
                other = t.b if t.a == right else t.a
                pairs.append((right, other))
                right = other
            steps.append(PublicAction(kind, s, t, end, ends))
        elif kind == "drew":
            s = int(_field(ev, "seat"))
            last = steps[-1] if steps else None
            if last is not None and last.kind == "drew" and last.seat == s:
                steps[-1] = PublicAction("drew", s, None, None, last.ends, last.count + 1)
            else:
                steps.append(PublicAction("drew", s, None, None, (left, right), 1))
        elif kind == "knocked":
            steps.append(PublicAction("knocked", int(_field(ev, "seat")), None, None,
                                      (left, right)))
        elif kind in ("went_out", "fish", "round_scored", "match_ended"):
            over = True
    chain = tuple(state.chain)
    if tuple(pairs) != chain:
        raise ValueError("the history does not cover the current round's chain")
    to_act = None if over else state.to_act
    hand = tuple(state.hand(seat))
    ends = tuple(state.ends)
    legal: tuple[Move, ...] = ()
    if to_act == seat:
        lead_id = TILE_ID[lead_tile] if (lead_tile is not None and not chain) else -1
        legal = tuple(_to_move(m) for m in _moves(mask_of(hand), ends, lead_id))
    return Observation(
        seat=seat, players=players, rules=state.rules, round_no=state.round_no, hand=hand,
        chain=chain, ends=ends, hand_sizes=tuple(state.hand_sizes()),
        drawable=state.drawable, reserve=state.reserve, scores=tuple(state.scores),
        remembered=tuple(state.remembered), pot=state.pot, history=tuple(steps),
        lead_tile=lead_tile, to_act=to_act, legal=legal,
    )


def _moves(hand: int, ends: Sequence[int], lead_id: int) -> list[tuple[int, int]]:
    """Kernel moves ``(tile_id, end_code)`` in the engine's order (RULES.md §1.5–§1.7)."""
    if not ends:
        if lead_id >= 0:
            return [(lead_id, 0)]
        return [(i, 0) for i in ids_of(hand)]
    left, right = ends
    out = []
    for i in ids_of(hand & (SUIT_MASK[left] | SUIT_MASK[right])):
        fl = _OTHER[i][left] >= 0
        fr = _OTHER[i][right] >= 0
        if fl and fr and left == right:
            out.append((i, 2))
            continue
        if fl:
            out.append((i, 1))
        if fr:
            out.append((i, 2))
    return out


def _to_move(m: tuple[int, int]) -> Move:
    return Move(TILES[m[0]], _END_NAME[m[1]])


def _from_move(move: Move) -> tuple[int, int]:
    return TILE_ID[move.tile], (0 if move.end is None else 1 if move.end == LEFT else 2)


# ====================================================================== beliefs


@dataclass(frozen=True, slots=True)
class Beliefs:
    """What the public history says about the hidden tiles, from one seat's view.

    - ``unseen``: mask of the tiles the observer cannot see (other hands and the bazar).
    - ``groups``: per seat, ``((count, allowed_mask), ...)``: the seat's hidden hand is made of
      groups of ``count`` tiles, each tile of a group one of ``allowed_mask``.  A knock, or a
      draw, on open ends (l, r) removes the suits l and r from every group the seat held then
      (RULES.md §1.8); tiles drawn without fitting form a group of their own.  The observer's
      own entry is ``()``.
    - ``undealt``: tiles the first lead of the match shows were in no hand at the deal
      (RULES.md §1.5: nobody held a tile earlier in the lead order).
    - ``voids``: per seat, a 7-bit mask of the numbers the seat is known to hold no tile of.

    Whatever of ``unseen`` no group holds is in the bazar (``obs.drawable + obs.reserve``
    tiles, in an unknown order).
    """

    unseen: int
    groups: tuple[tuple[tuple[int, int], ...], ...]
    undealt: int
    voids: tuple[int, ...]


def beliefs(obs: Observation) -> Beliefs:
    """Derive the constraints on the hidden tiles from ``obs`` (see :class:`Beliefs`).

    Sound by construction: the true deal always satisfies them.  Where a played tile could have
    come from several groups, those groups are merged (their allowed masks joined), which
    keeps the constraints true at the cost of some precision.
    """
    players = obs.players
    undealt = 0
    if obs.round_no == 1 and obs.lead_tile is not None:
        lead_id = TILE_ID[obs.lead_tile]
        for i in _LEAD_ORDER:
            if i == lead_id:
                break
            undealt |= _BIT[i]
    dealt_allowed = ALL_MASK & ~undealt
    groups: list[list[list[int]]] = [[[7, dealt_allowed]] for _ in range(players)]
    pending = [0] * players  # allowed mask of a drawn tile that must be played next
    for act in obs.history:
        s = act.seat
        g = groups[s]
        if act.kind in ("led", "played"):
            tid = TILE_ID[act.tile]
            bit = _BIT[tid]
            if pending[s]:
                pending[s] = 0
                continue
            holders = [x for x in g if x[0] > 0 and x[1] & bit]
            if len(holders) == 1:
                holders[0][0] -= 1
            elif holders:
                merged = [sum(x[0] for x in holders) - 1, 0]
                for x in holders:
                    merged[1] |= x[1]
                groups[s] = [x for x in g if x not in holders] + [merged]
            else:  # cannot happen with a true history; stay sound by forgetting
                size = sum(x[0] for x in g) - 1
                groups[s] = [[size, ALL_MASK]]
            groups[s] = [x for x in groups[s] if x[0] > 0]
        elif act.kind in ("drew", "knocked"):
            lr = SUIT_MASK[act.ends[0]] | SUIT_MASK[act.ends[1]]
            for x in g:
                x[1] &= ~lr
            if act.kind == "drew":
                # The last drawn tile fits and is played next, unless the seat then knocks.
                closing = _next_of(obs.history, act)
                kept = act.count if closing == "knocked" else act.count - 1
                if kept:
                    g.append([kept, ALL_MASK & ~lr])
                if closing != "knocked":
                    pending[s] = lr
    out_groups = []
    voids = []
    for s in range(players):
        g = [(c, m) for c, m in groups[s] if c > 0]
        if pending[s]:
            g.append((1, pending[s]))
        if s == obs.seat:
            g = []
        elif sum(c for c, _ in g) != obs.hand_sizes[s]:  # inconsistent: forget, stay sound
            g = [(obs.hand_sizes[s], ALL_MASK)]
        out_groups.append(tuple(g))
        v = 0
        if s != obs.seat and g:
            for n in range(7):
                if not any(m & SUIT_MASK[n] for _, m in g):
                    v |= 1 << n
        voids.append(v)
    seen = mask_of(obs.hand)
    for a, b in obs.chain:
        seen |= _BIT[TILE_ID[Tile.of(a, b)]]
    unseen = ALL_MASK & ~seen
    return Beliefs(unseen, tuple(out_groups), undealt, tuple(voids))


def _next_of(history: Sequence[PublicAction], act: PublicAction) -> str | None:
    """The kind of the step right after ``act`` by the same seat (None: none yet)."""
    seen = False
    for a in history:
        if seen and a.seat == act.seat:
            return a.kind
        if a is act:
            seen = True
    return None


def sample_deal(obs: Observation, bel: Beliefs, rng: random.Random
                ) -> tuple[list[int], list[int]]:
    """One deal of the unseen tiles consistent with ``bel``: ``(hands, bazar)``.

    ``hands``: a tile mask per seat (the observer's own hand included); ``bazar``: tile ids in
    a random draw order, the last ``obs.reserve`` of them reserved (RULES.md §1.4).  A
    randomised depth-first assignment, most constrained tile first; it always succeeds because
    the true deal satisfies the constraints.  Raises ``ValueError`` if the counts do not add up.
    """
    slots: list[list[int]] = []  # [capacity, allowed, seat]  (seat -1: bazar)
    for s in range(obs.players):
        for count, allowed in bel.groups[s]:
            slots.append([count, allowed, s])
    nbazar = obs.drawable + obs.reserve
    slots.append([nbazar, ALL_MASK, -1])
    tiles = ids_of(bel.unseen)
    if sum(x[0] for x in slots) != len(tiles):
        raise ValueError("hand sizes and bazar do not add up to the unseen tiles")
    options = []
    for t in tiles:
        bit = _BIT[t]
        opts = [k for k, x in enumerate(slots) if x[1] & bit and x[0] > 0]
        options.append((len(opts), rng.random(), t, opts))
    options.sort()
    caps = [x[0] for x in slots]
    assign = [0] * len(options)
    budget = [20000]

    def place(k: int) -> bool:
        if k == len(options):
            return True
        opts = options[k][3]
        weights = [caps[j] for j in opts]
        total = sum(weights)
        if not total:
            return False
        order: list[int] = []
        # Pick slots in random order weighted by remaining capacity (uniform without
        # constraints), then try the rest.
        ws = list(weights)
        js = list(opts)
        while total > 0:
            r = rng.random() * total
            pick = 0
            for pick, w in enumerate(ws):  # noqa: B007 - ``pick`` is used after the loop
                r -= w
                if r < 0 and w > 0:
                    break
            order.append(js[pick])
            total -= ws[pick]
            ws[pick] = 0
        for j in order:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            caps[j] -= 1
            assign[k] = j
            if place(k + 1):
                return True
            caps[j] += 1
        return False

    if not place(0):  # pragma: no cover - only for contradictory constraints
        raise ValueError("no deal is consistent with the observation")
    hands = [0] * obs.players
    hands[obs.seat] = mask_of(obs.hand)
    bazar: list[int] = []
    for k, (_, _, t, _) in enumerate(options):
        s = slots[assign[k]][2]
        if s < 0:
            bazar.append(t)
        else:
            hands[s] |= _BIT[t]
    rng.shuffle(bazar)
    return hands, bazar


# ====================================================================== playout kernel


class _Sim:
    """Internal simulator: one round of classic Kozel on mutable bit masks.

    Mirrors :func:`engine.round.round_apply` (RULES.md §1.7–§1.10) without its checks and
    immutable copies, for fast playouts; ``tests/test_ai.py`` plays it side by side with the
    engine.  Also carries the public knowledge each seat's ``normal`` policy reads: ``voids``
    (7-bit masks of numbers a seat knocked or drew on) and ``strength`` (how often a seat
    opened each number).  ``events`` (when a list) collects ``(kind, seat, tile_id, end)``.
    """

    __slots__ = ("players", "hands", "bazar", "reserve", "reserve_mask", "left", "right",
                 "chain", "to_act", "lead_id", "fwd", "end", "last", "voids", "strength",
                 "teams", "rules", "events")

    def __init__(self, players: int, hands: list[int], bazar: list[int], reserve: int,
                 left: int, right: int, chain: int, to_act: int, lead_id: int, rules: Rules,
                 voids: list[int], strength: list[list[int]], events: list | None = None):
        self.players = players
        self.hands = hands
        self.bazar = bazar
        r = min(reserve, len(bazar))
        self.reserve = r
        rm = 0
        for i in bazar[len(bazar) - r:]:
            rm |= _BIT[i]
        self.reserve_mask = rm
        self.left = left
        self.right = right
        self.chain = chain
        self.to_act = to_act
        self.lead_id = lead_id
        self.fwd = rules.fish_without_double
        self.rules = rules
        self.teams = rules.teams
        self.end: str | None = None
        self.last = -1
        self.voids = voids
        self.strength = strength
        self.events = events

    def copy(self) -> _Sim:
        """An independent copy (hands, bazar and knowledge are copied)."""
        c = object.__new__(_Sim)
        for name in _Sim.__slots__:
            setattr(c, name, getattr(self, name))
        c.hands = list(self.hands)
        c.bazar = list(self.bazar)
        c.voids = list(self.voids)
        c.strength = [list(x) for x in self.strength]
        c.events = None
        return c

    def moves(self) -> list[tuple[int, int]]:
        """Legal kernel moves of the seat to act, in the engine's order."""
        if self.left < 0:
            return _moves(self.hands[self.to_act], (), self.lead_id)
        return _moves(self.hands[self.to_act], (self.left, self.right), -1)

    def play(self, tid: int, end: int) -> None:
        """Place ``tid`` at ``end`` (0 lead, 1 left, 2 right) for the seat to act, then the
        forced draws and knocks (RULES.md §1.8), or the out (§1.9) / fish (§1.10)."""
        seat = self.to_act
        bit = _BIT[tid]
        ev = self.events
        st = self.strength[seat]
        if self.left < 0:
            left, right = LOW[tid], HIGH[tid]
            st[left] += 1
            st[right] += 1
            if ev is not None:
                ev.append(("led", seat, tid, None))
        elif end == 1:
            left = _OTHER[tid][self.left]
            right = self.right
            st[left] += 1
            if ev is not None:
                ev.append(("played", seat, tid, LEFT))
        else:
            left = self.left
            right = _OTHER[tid][self.right]
            st[right] += 1
            if ev is not None:
                ev.append(("played", seat, tid, RIGHT))
        self.left = left
        self.right = right
        chain = self.chain | bit
        self.chain = chain
        hand = self.hands[seat] ^ bit
        self.hands[seat] = hand
        self.last = seat
        self.lead_id = -1
        if not hand:
            self.end = "out"
            self.to_act = -1
            if ev is not None:
                ev.append(("went_out", seat, -1, None))
            return
        open_mask = SUIT_MASK[left] | SUIT_MASK[right]
        if not (open_mask & ~chain & ~self.reserve_mask) or (
                left == right and self.fwd
                and chain & SUIT_NONDOUBLE_MASK[left] == SUIT_NONDOUBLE_MASK[left]):
            self.end = "fish"
            self.to_act = -1
            if ev is not None:
                ev.append(("fish", seat, -1, None))
            return
        players = self.players
        nxt = seat + 1 if seat + 1 < players else 0
        hands = self.hands
        lr = (1 << left) | (1 << right)
        while not hands[nxt] & open_mask:
            h = hands[nxt]
            bazar = self.bazar
            drawn = 0
            fitted = False
            while len(bazar) > self.reserve:
                i = bazar.pop(0)
                h |= _BIT[i]
                drawn += 1
                if ev is not None:
                    ev.append(("drew", nxt, i, None))
                if _BIT[i] & open_mask:
                    fitted = True
                    break
            hands[nxt] = h
            if drawn > 1 or (drawn == 1 and not fitted):
                self.voids[nxt] = lr  # new unknown tiles: older voids no longer hold
            else:
                self.voids[nxt] |= lr
            if fitted:
                break
            if ev is not None:
                ev.append(("knocked", nxt, -1, None))
            nxt = nxt + 1 if nxt + 1 < players else 0
        self.to_act = nxt

    def run(self) -> None:
        """Play the round to its end with the ``normal`` policy for every seat."""
        while self.end is None:
            moves = self.moves()
            if len(moves) == 1:
                self.play(*moves[0])
            else:
                self.play(*moves[_normal_index(self, moves)])


# ====================================================================== normal policy

# Weights of the one-ply heuristic (tuned with bench/ai_bench.py).
W_PIPS = 1.0       # shed heavy tiles
W_DOUBLE = 4.0     # doubles are hard to place later
W_FOLLOW = 2.0     # keep a follow-up on the new ends
W_STUCK = 3.0      # no tile of mine fits the new ends
W_VARIETY = 1.0    # distinct numbers kept in hand
W_VOID = 3.0       # an opponent knocked on a number we open
W_STRENGTH = 1.0   # an opponent opened this number before
W_CONTROL = 1.5    # we hold the last unseen tiles of an open number


def _hand_value(mask: int, lone_zero: int) -> int:
    if mask == _BIT[ZERO_DOUBLE_ID]:
        return lone_zero
    v = 0
    while mask:
        low = mask & -mask
        v += PIPS[low.bit_length() - 1]
        mask ^= low
    return v


def _normal_index(sim: _Sim, moves: list[tuple[int, int]]) -> int:
    """Index of the ``normal`` choice among ``moves`` for ``sim.to_act``.

    Reads only what that seat may know: its own hand, the chain, hand sizes, the bazar
    counts, and the public ``voids``/``strength``.
    """
    seat = sim.to_act
    hand = sim.hands[seat]
    chain = sim.chain
    players = sim.players
    teams = sim.teams
    best = 0
    best_score = -1e18
    for k, (tid, end) in enumerate(moves):
        s = _score_move(sim, seat, hand, chain, players, teams, tid, end)
        if s > best_score:
            best, best_score = k, s
    return best


def _score_move(sim: _Sim, seat: int, hand: int, chain: int, players: int, teams: bool,
                tid: int, end: int) -> float:
    bit = _BIT[tid]
    h2 = hand ^ bit
    if not h2:
        return 1e9  # going out records 0 (RULES.md §1.9, §1.12)
    if end == 0:
        nl, nr = LOW[tid], HIGH[tid]
    elif end == 1:
        nl, nr = _OTHER[tid][sim.left], sim.right
    else:
        nl, nr = sim.left, _OTHER[tid][sim.right]
    chain2 = chain | bit
    open2 = SUIT_MASK[nl] | SUIT_MASK[nr]
    unseen2 = ALL_MASK & ~h2 & ~chain2
    if not (open2 & ~chain2) or (
            nl == nr and sim.fwd
            and chain2 & SUIT_NONDOUBLE_MASK[nl] == SUIT_NONDOUBLE_MASK[nl]):
        return _fish_score(sim, seat, h2, unseen2)
    score = W_PIPS * PIPS[tid]
    if LOW[tid] == HIGH[tid]:
        score += W_DOUBLE
    mine = (h2 & open2).bit_count()
    score += W_FOLLOW * (mine if mine < 2 else 2)
    if not mine:
        score -= W_STUCK
    distinct = 0
    for n in range(7):
        if h2 & SUIT_MASK[n]:
            distinct += 1
    score += W_VARIETY * distinct
    for n in (nl, nr) if nl != nr else (nl,):
        if h2 & SUIT_MASK[n] and not (unseen2 & SUIT_MASK[n]):
            score += W_CONTROL
    voids = sim.voids
    strength = sim.strength
    nlr = (1 << nl) | (1 << nr)
    for d in range(1, players):
        o = (seat + d) % players
        w = 1.0 if d == 1 else 0.5
        if teams and (o - seat) % 2 == 0:
            w = -w  # partner: help, not hinder
        v = voids[o] & nlr
        if v:
            score += W_VOID * w * (v.bit_count())
        so = strength[o]
        score -= W_STRENGTH * w * (so[nl] + (so[nr] if nr != nl else 0))
    return score


def _fish_score(sim: _Sim, seat: int, h2: int, unseen: int) -> float:
    """Value of fishing now (RULES.md §1.10, §1.13) from expected hand values."""
    rules = sim.rules
    players = sim.players
    lone = rules.lone_zero_double_value
    mine = _hand_value(h2, lone)
    n_unseen = unseen.bit_count()
    avg = (_hand_value(unseen, 0) / n_unseen) if n_unseen else 0.0
    # Other hands: only their sizes are read (expected pips per unseen tile).
    if rules.teams:
        mine += sim.hands[(seat + 2) % 4].bit_count() * avg
        others = [(sim.hands[(seat + 1) % 4].bit_count()
                   + sim.hands[(seat + 3) % 4].bit_count()) * avg]
    else:
        others = [sim.hands[o].bit_count() * avg for o in range(players) if o != seat]
    total = mine + sum(others)
    top = max(others) if others else 0.0
    mode = rules.fish_scoring
    if mode == "each_own":
        return 6.0 + (sum(others) / max(1, len(others)) - mine)
    if mine + 4 < top:
        # Someone else is likely the highest hand: they take the points.
        return 10.0 + (0.5 * total if mode == "all_to_max" else 0.5 * top)
    if mine > top + 4:
        return -2.0 * (total if mode == "all_to_max" else mine)
    return -0.5 * total


# ====================================================================== value in match terms

#: Temperature of the goat-risk estimate [points].
GOAT_T = 18.0


def _goat_risk(rules: Rules, scores: Sequence[int], remembered: Sequence[int]) -> list[float]:
    """Estimated probability of each side becoming the goat (RULES.md §1.15): a softmax of
    the effective scores (remembered points at half weight: they may still be reset)."""
    limit = rules.match_limit
    eff = [s if s > 0 else 0.5 * r for s, r in zip(scores, remembered, strict=True)]
    top = max(eff)
    ws = [math.exp((e - top) / GOAT_T * (101 / limit)) for e in eff]
    tot = sum(ws)
    return [w / tot for w in ws]


def _value(rules: Rules, side: int, scores: Sequence[int], remembered: Sequence[int],
           goats: Sequence[int]) -> float:
    """The observer's value of a recorded position: −P(goat) + 0.02 × expected rating/10."""
    limit = rules.match_limit
    if goats:
        if side in goats:
            return -1.0
        return 0.02 * max(1, (limit - 1 - scores[side] + 5) // 10) / 10
    p = _goat_risk(rules, scores, remembered)[side]
    eff = scores[side] if scores[side] > 0 else remembered[side]
    return -p + 0.02 * (1 - p) * max(1.0, (limit - 1 - eff) / 10) / 10


def _outcome(sim: _Sim, obs: Observation) -> float:
    """Record the finished round of ``sim`` with the engine's scoring (§1.11–§1.14)."""
    rules = obs.rules
    lone = rules.lone_zero_double_value
    teams = rules.teams
    n = 2 if teams else obs.players
    values = [0] * n
    for s, h in enumerate(sim.hands):
        values[s % 2 if teams else s] += _hand_value(h, lone)
    by = sim.last % 2 if teams else sim.last
    rec = record_round(rules, obs.scores, obs.remembered, obs.pot, tuple(values), sim.end, by)
    return _value(rules, obs.side, rec.scores, rec.remembered, goats_of(rules, rec.scores))


# ====================================================================== decisions


def _knowledge(obs: Observation, bel: Beliefs) -> tuple[list[int], list[list[int]]]:
    strength = [[0] * 7 for _ in range(obs.players)]
    for act in obs.history:
        if act.kind == "led":
            strength[act.seat][act.tile.a] += 1
            strength[act.seat][act.tile.b] += 1
        elif act.kind == "played":
            n = act.ends[0] if act.end == LEFT else act.ends[1]
            strength[act.seat][act.tile.b if act.tile.a == n else act.tile.a] += 1
    return list(bel.voids), strength


def _obs_sim(obs: Observation, hands: list[int], bazar: list[int], bel: Beliefs) -> _Sim:
    voids, strength = _knowledge(obs, bel)
    left, right = obs.ends if obs.ends else (-1, -1)
    chain = 0
    for a, b in obs.chain:
        chain |= _BIT[TILE_ID[Tile.of(a, b)]]
    lead_id = TILE_ID[obs.lead_tile] if (obs.lead_tile is not None and not obs.chain) else -1
    return _Sim(obs.players, hands, bazar, obs.reserve, left, right, chain, obs.seat,
                lead_id, obs.rules, voids, strength)


def _check(obs: Observation) -> None:
    if obs.to_act != obs.seat or not obs.legal:
        raise ValueError(f"seat {obs.seat} has no decision to make")


def decide_easy(obs: Observation, rng: random.Random) -> Move:
    """A uniformly random legal move.  Raises ``ValueError`` when ``obs.seat`` is not to act."""
    _check(obs)
    return obs.legal[rng.randrange(len(obs.legal))]


def decide_normal(obs: Observation, rng: random.Random | None = None) -> Move:
    """The heuristic move (see the module doc; weights ``W_*``).  Deterministic: ``rng`` is
    accepted for a uniform signature and unused.  Raises ``ValueError`` when ``obs.seat`` is
    not to act."""
    _check(obs)
    if len(obs.legal) == 1:
        return obs.legal[0]
    bel = beliefs(obs)
    # Other hands are unknown: the policy reads only their sizes, so they are placeholders
    # of the right size (tiles 0..n-1), not tiles the seat could not see.
    hands = [(1 << n) - 1 for n in obs.hand_sizes]
    hands[obs.seat] = mask_of(obs.hand)
    sim = _obs_sim(obs, hands, [], bel)
    moves = [_from_move(m) for m in obs.legal]
    return obs.legal[_normal_index(sim, moves)]


def decide_hard(obs: Observation, rng: random.Random, *, budget: float | None = DEFAULT_BUDGET,
                samples: int | None = None, clock=time.perf_counter) -> Move:
    """Determinized sampling (see the module doc).

    ``samples``: play exactly that many sampled deals (deterministic given ``rng``); else
    sample until ``budget`` seconds (measured by ``clock``) would be exceeded by one more
    deal (at least one deal), or until the best move is settled: after at least
    :data:`EARLY_MIN` deals, its lead over the runner-up, paired deal by deal, exceeds
    :data:`EARLY_Z` standard errors (or the two never differed) — a clear choice spends no
    more of the budget.  Every legal move is played out in the same deals; ties go to the
    ``normal`` choice.  Raises ``ValueError`` when ``obs.seat`` is not to act or neither
    bound is given.
    """
    _check(obs)
    if len(obs.legal) == 1:
        return obs.legal[0]
    if samples is None and budget is None:
        raise ValueError("give a time budget or a number of samples")
    start = clock()
    bel = beliefs(obs)
    moves = [_from_move(m) for m in obs.legal]
    prior = _from_move(decide_normal(obs))
    totals = [0.0] * len(moves)
    per: list[list[float]] = [[] for _ in moves]
    n = 0
    slowest = 0.0
    while True:
        t0 = clock()
        hands, bazar = sample_deal(obs, bel, rng)
        base = _obs_sim(obs, hands, bazar, bel)
        for k, m in enumerate(moves):
            sim = base.copy()
            sim.play(*m)
            sim.run()
            u = _outcome(sim, obs)
            totals[k] += u
            per[k].append(u)
        n += 1
        t1 = clock()
        slowest = max(slowest, t1 - t0)
        if samples is not None:
            if n >= samples:
                break
        elif t1 - start + 1.5 * slowest > 0.95 * budget:
            break
        elif n >= EARLY_MIN and n % 16 == 0 and _settled(per, totals):
            break
    best = max(range(len(moves)),
               key=lambda k: (round(totals[k] / n, 9), moves[k] == prior))
    return obs.legal[best]


#: Fewest sampled deals before the hard player may stop early.
EARLY_MIN = 64
#: Standard errors by which the best move must lead the runner-up to stop early.
EARLY_Z = 3.0


def _settled(per: list[list[float]], totals: list[float]) -> bool:
    """Whether the leading move's paired lead over the runner-up is beyond doubt."""
    order = sorted(range(len(totals)), key=totals.__getitem__, reverse=True)
    a, b = per[order[0]], per[order[1]]
    n = len(a)
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    if var == 0.0:
        return True  # the two moves never differed: either will do
    return mean > EARLY_Z * math.sqrt(var / n)


def decide(obs: Observation, strength: str, rng: random.Random, *,
           budget: float | None = DEFAULT_BUDGET, samples: int | None = None) -> Move:
    """The move of a computer player of ``strength`` (``"easy"``, ``"normal"``, ``"hard"``).

    ``budget``/``samples`` bound ``hard`` (see :func:`decide_hard`).  Raises ``ValueError`` for
    an unknown strength or when ``obs.seat`` is not to act.
    """
    if strength == "easy":
        return decide_easy(obs, rng)
    if strength == "normal":
        return decide_normal(obs, rng)
    if strength == "hard":
        return decide_hard(obs, rng, budget=budget, samples=samples)
    raise ValueError(f"unknown strength {strength!r}: use one of {STRENGTHS}")
