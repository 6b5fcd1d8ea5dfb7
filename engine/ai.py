"""Computer players: what a seat may know, and three strengths that decide from it only.

Pure: no I/O, and no clock of its own (the strong player's time budget is read on the clock
its caller gives).  Every rule the players need — where a tile goes, the legal moves, what a
move does, how a round is scored and when a match ends — is the engine's own: playouts run
on the round core (:class:`engine.table.Table`), and a finished playout is scored by the
variant's hooks (:meth:`engine.variant.Variant.score_round`,
:meth:`~engine.variant.Variant.result`, :meth:`~engine.variant.Variant.standing`).  Nothing
here knows which variant it plays.

Information model (RULES.md §1.2, §1.8, §2.0): a seat sees its own hand, the layout on the
table (public), how many tiles every hand holds, how many bazar tiles may still be drawn (and
how many are reserved, §1.4), the match values (scores, remembered points, pot, the
variant's own value), the round's public values (play points, count, phase) and the public
history of the round: who placed which tile where, who drew how many tiles, knocked or
passed, with the open numbers they could not match, and the tiles moved between hands by a
rule (Семёрка, §2.8 rule 5) — never which.  It never sees another hand, the tiles another
seat drew or took, or the bazar order.

- :func:`observe` builds an :class:`Observation` — the only input of a decision — from a
  :class:`engine.MatchState` and the engine events of the current round.
- :func:`decide` (or :func:`decide_easy` / :func:`decide_normal` / :func:`decide_hard`) maps
  an observation and a :class:`random.Random` to one legal :class:`engine.Move`;
  :func:`think` (:func:`think_hard`) also says what deciding took (:class:`Thought`).

Strengths:

- ``easy``: a uniformly random legal move.
- ``normal``: a one-ply heuristic over the open ends after the move (any number of ends):
  shed heavy tiles and doubles, keep follow-ups on the new ends and suit variety, open
  numbers that opponents could not match (RULES.md §1.8) and avoid numbers they opened
  themselves, keep control of a number, go out (§1.9).  What a move does in the variant —
  points on the count (§2.0.6), another turn, the next player forced to draw (§2.8), a fish or
  a void round (§2.0.5), a race won (§2.0.7) — is read from a preview of the move on a copy of
  the table whose hidden hands are replaced by every tile the mover cannot see; a move that
  ends the round is scored with the variant's own scoring (on the playout's deal, or on a few
  sampled deals at the observation) and taken when that is worth more than the match as it
  stands; a round that changes nothing (a void one, Генерал §2.9 rule 2) is taken when, by
  the hand sizes, another side would go out first, and avoided when the mover's would.
  Plain lines of variants without move hooks take a table look-up
  (:data:`engine.layout.LINE_STEP`) instead of a preview.
- ``hard``: determinized sampling.  Deals of the unseen tiles consistent with everything
  observed (:func:`beliefs`, :func:`sample_deal`) are sampled, each kept among a few in
  proportion to how likely the other seats' plays make it (:class:`_Inference`: a seat that
  placed a light tile where a heavier one would have fitted probably had no heavier one);
  every legal move is played out on copies of the round core in the same deals, to the end
  of the round, with the ``normal`` policy for every seat; the finished round is scored by
  the variant and valued in match terms: minus the estimated probability of losing the
  match (the goat, §1.15; a softmax of :meth:`engine.variant.Variant.standing`), a little
  for the rating.  Work (moves played and weighed in the playouts, :data:`DEFAULT_WORK` by
  default), a number of samples and, on request, a time budget on the caller's clock bound
  the search, the first reached ending it; a move clearly beaten by the leader is dropped,
  so that the deals left go to the moves still in doubt (:func:`_prune`); the search's best
  move replaces the ``normal`` choice only when it beats it by a paired standard error
  (:data:`PRIOR_Z`).

What a game's outcome is worth comes from the variant's own hooks, never from code here:
``held_costs`` (what a tile still in hand at the round's end costs in that game) for
shedding, and ``score_round``/``result``/``standing`` for a finished playout (whatever the
game scores: flat scores, tallies of its own, the count, the pot).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import errors
from .layout import LINE_STEP, Layout
from .match import MatchState, legal_moves
from .moves import END_CODE, Move
from .rules import Rules
from .table import RoundState, Table
from .tiles import ALL_MASK, HIGH, LOW, PIPS, SUIT_MASK, TILE_ID, Tile, ids_of

__all__ = [
    "STRENGTHS",
    "DEFAULT_BUDGET",
    "DEFAULT_WORK",
    "PublicAction",
    "Observation",
    "Beliefs",
    "observe",
    "beliefs",
    "sample_deal",
    "STOPS",
    "Thought",
    "think",
    "think_hard",
    "decide",
    "decide_easy",
    "decide_normal",
    "decide_hard",
]

#: The three strengths, weakest first.
STRENGTHS = ("easy", "normal", "hard")
#: Seconds the ``hard`` player may think per move when a time budget is asked for (the bot
#: gives 1 s of its worker's CPU time, ``BOT_THINK_SECONDS``).
DEFAULT_BUDGET = 1.0
#: Work units (see :func:`decide_hard`) the ``hard`` player spends per move by default:
#: measured with ``bench/strength.py``, a decision at this budget takes at most about a
#: second of CPU in every game on the project's machine (docs/BENCHMARKS.md).
DEFAULT_WORK = 240_000
#: Work units of one move a playout decision weighs on a previewed copy of the table (the
#: games with move hooks or a cross, :func:`_preview_score`) rather than by a look-up.
PREVIEW_WORK = 6

_BIT = tuple(1 << i for i in range(28))


def _numbers(ends) -> int:
    """7-bit mask of the numbers shown by open ends (end values 0..6; the gap, closed and
    missing ends show none)."""
    m = 0
    for v in ends:
        if 0 <= v <= 6:
            m |= 1 << v
    return m


def _open_numbers(ends) -> tuple[int, ...]:
    """The distinct numbers shown by open ends, ascending."""
    m = _numbers(ends)
    return tuple(n for n in range(7) if m >> n & 1)


# ====================================================================== observation


@dataclass(frozen=True, slots=True)
class PublicAction:
    """One public step of the current round, in order.

    - ``kind``: ``"led"`` / ``"played"`` (``tile`` on ``end``, ``closed``/``along`` as placed,
      ``part`` its index in a move of several tiles, RULES.md §2.0.4; ``shown`` the number the
      end showed, -1 for the lead and the gap); ``"drew"`` (``count`` tiles for want of a
      move, never which, §1.8), ``"knocked"`` (§1.8), ``"passed"`` (drew one that did not fit,
      §2.8 rule 6); ``"forced"`` (``count`` tiles drawn by a rule, not for want of a move:
      §2.8 rule 5) and ``"took"`` (``count`` tiles moved blindly from seat ``source`` to
      ``seat``, §2.8 rule 5).
    - ``ends``: the distinct open numbers just before the step (any number of ends, §2.0),
      ``()`` before the lead; ``fit``: the mask of the tiles that fitted an open end then.
      For ``drew``, ``knocked`` and ``passed`` these are what the seat could not match.
    """

    kind: str
    seat: int
    tile: Tile | None = None
    end: str | None = None
    ends: tuple[int, ...] = ()
    count: int = 0
    closed: bool = False
    along: bool = False
    part: int = 0
    fit: int = 0
    shown: int = -1
    source: int = -1


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may know when it decides, and nothing else.  Pickles.

    - ``seat``/``players``/``rules``/``round_no``: who observes, in which match and round.
    - ``hand``: the seat's own tiles, sorted (RULES.md §0).
    - ``round``: the public part of the round (:class:`engine.table.RoundState`): the layout
      (``round.layout``, RULES.md §2.0), the seats in play and their sides, play points and
      count (§2.0.6), phase, leader, last mover; ``round.hands`` holds this seat's hand and 0
      for every other seat, ``round.bazar`` is empty and ``round.reserve_mask`` 0.
    - ``hand_sizes``: tiles in every hand, per seat; ``drawable``/``reserve``: bazar tiles that
      may / may never be drawn (§1.4, §1.8).
    - ``scores``/``remembered``/``pot``: per side (player, or team, §1.14) [points];
      ``own``: the variant's own match value (:attr:`engine.match.MatchState.own`, §2).
    - ``history``: the round's :class:`PublicAction` steps; ``lead_tile``: the tile the
      round's lead had to be (§1.5 and the variants' lead rules), else None.
    - ``to_act``: the seat whose decision is awaited (None once the round or match is over);
      ``legal``: this seat's legal moves when it is to act, in the engine's order, else ``()``.
    """

    seat: int
    players: int
    rules: Rules
    round_no: int
    hand: tuple[Tile, ...]
    round: RoundState
    hand_sizes: tuple[int, ...]
    drawable: int
    reserve: int
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot: int
    own: Any
    history: tuple[PublicAction, ...]
    lead_tile: Tile | None
    to_act: int | None
    legal: tuple[Move, ...]

    @property
    def layout(self):
        """The tiles on the table (:class:`engine.layout.LayoutState`, RULES.md §2.0)."""
        return self.round.layout

    @property
    def chain(self) -> tuple[tuple[int, int], ...]:
        """The line as oriented ``(a, b)`` pairs, left to right (RULES.md §0)."""
        return self.round.layout.chain

    @property
    def ends(self) -> tuple[int, ...]:
        """The distinct numbers the open ends show, ascending; ``()`` before the lead."""
        return _open_numbers(self.round.layout.ends)

    @property
    def side(self) -> int:
        """The observer's scoring side (RULES.md §1.14, §2.0.7)."""
        return self.round.sides[self.seat]


def _field(ev: Any, name: str) -> Any:
    if isinstance(ev, dict):
        return ev.get(name)
    return getattr(ev, name, None)


def _tile(value: Any) -> Tile:
    return value if isinstance(value, Tile) else Tile.parse(value)


def _public_round(rs: RoundState, seat: int) -> RoundState:
    """``rs`` without what ``seat`` may not see: other hands, the bazar, the reserve."""
    hands = tuple(h if s == seat else 0 for s, h in enumerate(rs.hands))
    return rs._replace(hands=hands, bazar=(), reserve_mask=0)


def observe(state: Any, seat: int, history: Iterable[Any]) -> Observation:
    """What ``seat`` knows of ``state`` (an :class:`engine.MatchState`).

    ``history``: the engine events of the match so far, or at least of the current round
    (engine event objects, or their ``to_dict()`` forms); only those after the last ``dealt``
    event are read.  The placements are laid again on an engine :class:`engine.layout.Layout`
    (one ``lay`` per move, the placements of a move grouped by ``part``) to know the open ends
    before every step; the result must be the state's layout.  The tiles of ``drew`` and
    ``took`` events are dropped.  Reads from the state only public values and ``seat``'s own
    hand — never another hand, the bazar or its reserve.

    Raises ``ValueError`` when ``seat`` is not a seat of the match, or when the history does
    not account for the layout on the table (it does not cover the current round).
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
    rs = state.round
    lay = Layout(rs.layout.cross)
    steps: list[PublicAction] = []
    move: list[tuple[int, int, bool, bool, bool]] = []
    before: tuple[tuple[int, ...], int, list[int]] = ((), 0, [])
    forced = [0] * players  # tiles still to come of a forced draw (§2.8 rule 5)
    forcing = state.rules.spec.forced_draws
    over = False
    for ev in events[start:]:
        kind = _field(ev, "kind")
        if kind in ("led", "played"):
            part = int(_field(ev, "part") or 0)
            if kind == "led" or not part:
                if move:
                    lay.lay(tuple(move))
                    move = []
                before = (_open_numbers(lay.ends), lay.fit, list(lay.ends))
            s = int(_field(ev, "seat"))
            t = _tile(_field(ev, "tile"))
            tid = TILE_ID[t]
            closed = bool(_field(ev, "closed"))
            along = bool(_field(ev, "along"))
            if kind == "led":
                move.append((tid, -1, False, False, bool(_field(ev, "flip"))))
                steps.append(PublicAction("led", s, t, None, before[0], 0, False, False, 0,
                                          before[1]))
                continue
            end = _field(ev, "end")
            code = END_CODE.get(end, -2) if isinstance(end, str) else -2
            if code == -2:
                raise ValueError(f"a played event names no end of the table: {end!r}")
            if not before[2] or lay.empty and not move:
                raise ValueError("the history places a tile before the lead")
            shown = before[2][code]
            if not 0 <= shown <= 6:
                shown = t.a if t.is_double else -1  # a new arm of the spinner / the gap
            move.append((tid, code, closed, along, False))
            steps.append(PublicAction("played", s, t, end, before[0], 0, closed, along, part,
                                      before[1], shown))
            continue
        if move:
            lay.lay(tuple(move))
            move = []
        if kind == "drew":
            s = int(_field(ev, "seat"))
            last = steps[-1] if steps else None
            if forced[s]:
                forced[s] -= 1
                if last is not None and last.kind == "forced" and last.seat == s:
                    steps[-1] = PublicAction("forced", s, count=last.count + 1,
                                             source=last.source)
                else:  # pragma: no cover - the forcing event always comes first
                    steps.append(PublicAction("forced", s, count=1))
            elif last is not None and last.kind == "drew" and last.seat == s:
                steps[-1] = PublicAction("drew", s, None, None, last.ends, last.count + 1,
                                         fit=last.fit)
            else:
                steps.append(PublicAction("drew", s, None, None, _open_numbers(lay.ends), 1,
                                          fit=lay.fit))
        elif kind in ("knocked", "passed"):
            steps.append(PublicAction(kind, int(_field(ev, "seat")), None, None,
                                      _open_numbers(lay.ends), fit=lay.fit))
        elif kind in forcing:  # a draw the rules force (the variant's, e.g. §2.8 rule 5)
            s = int(_field(ev, "seat"))
            forced[s] = int(_field(ev, "drawn") or 0)
            steps.append(PublicAction("forced", s, count=0,
                                      source=int(_field(ev, "maker"))))
        elif kind == "took":
            steps.append(PublicAction("took", int(_field(ev, "seat")),
                                      count=len(_field(ev, "tiles") or ()),
                                      source=int(_field(ev, "maker"))))
        elif kind in ("went_out", "fish", "void", "round_scored", "match_ended"):
            over = True
    if move:
        lay.lay(tuple(move))
    if lay.state() != rs.layout:
        raise ValueError("the history does not cover the current round's layout")
    to_act = None if over else state.to_act
    legal: tuple[Move, ...] = legal_moves(state) if to_act == seat else ()
    return Observation(
        seat=seat, players=players, rules=state.rules, round_no=state.round_no,
        hand=tuple(state.hand(seat)), round=_public_round(rs, seat),
        hand_sizes=tuple(state.hand_sizes()), drawable=state.drawable, reserve=state.reserve,
        scores=tuple(state.scores), remembered=tuple(state.remembered), pot=state.pot,
        own=state.own, history=tuple(steps), lead_tile=lead_tile,
        to_act=to_act, legal=legal,
    )


def _context(obs: Observation) -> MatchState:
    """The match as far as ``obs`` shows it: public values only (no seed: it fixes the deals
    to come), the round being :attr:`Observation.round`."""
    return MatchState(obs.rules, obs.players, None, obs.round_no, obs.round, obs.scores,
                      obs.remembered, obs.pot, (0,) * obs.players, 0, None, obs.own)


# ====================================================================== beliefs


@dataclass(frozen=True, slots=True)
class Beliefs:
    """What the public history says about the hidden tiles, from one seat's view.

    - ``unseen``: mask of the tiles the observer cannot see (other hands and the bazar).
    - ``groups``: per seat, ``((count, allowed_mask), ...)``: the seat's hidden hand is made of
      groups of ``count`` tiles, each tile of a group one of ``allowed_mask``.  A knock, a draw
      for want of a move or a pass on open ends that fit the tiles ``fit`` removes ``fit``
      from every group the seat held then (RULES.md §1.8, §2.8 rule 6); tiles drawn without
      fitting form a group of their own.  Tiles drawn or taken by a rule (§2.8 rule 5) form
      a group that may hold anything the bazar (or the giver) may.  The observer's own entry
      is ``()``, as is a seat with no tiles (one that left the match, §2.8 rule 8).
    - ``undealt``: tiles the round's forced lead shows were in no hand at the deal (§1.5: the
      lead is the first tile of the order that some hand holds).
    - ``voids``: per seat, a 7-bit mask of the numbers the seat is known to hold no tile of
      (none of its groups may hold an unseen tile showing it).

    Whatever of ``unseen`` no group holds is in the bazar (``obs.drawable + obs.reserve``
    tiles, in an unknown order).
    """

    unseen: int
    groups: tuple[tuple[tuple[int, int], ...], ...]
    undealt: int
    voids: tuple[int, ...]


def _undealt(obs: Observation) -> int:
    """Tiles that no hand held at the deal, by the variant's own lead rule: the lead had to be
    ``obs.lead_tile``, so every tile that the rule prefers to it was in no hand.  Asks the
    variant's :meth:`~engine.variant.Variant.lead` with two one-tile hands per candidate; a
    rule that cannot answer such hands teaches nothing."""
    if obs.lead_tile is None:
        return 0
    lead_id = TILE_ID[obs.lead_tile]
    seats = obs.round.seats
    if len(seats) < 2:
        return 0
    v = obs.rules.spec
    ctx = _context(obs)
    out = 0
    for x in range(28):
        if x == lead_id:
            continue
        hands = [0] * obs.players
        hands[seats[0]] = _BIT[x]
        hands[seats[1]] = _BIT[lead_id]
        try:
            got = v.lead(ctx, tuple(hands), obs.round_no)[1]
        except Exception:  # noqa: BLE001 - a rule that needs full hands: no inference
            got = -1
        if got == x:
            out |= _BIT[x]
    return out


def _next_of(history: tuple[PublicAction, ...], i: int) -> str | None:
    """The kind of the first step after ``history[i]`` by the same seat (None: none yet)."""
    s = history[i].seat
    for a in history[i + 1:]:
        if a.seat == s:
            return a.kind
    return None


def _merge(g: list[list[int]]) -> list[int]:
    """All groups of a seat as one: their counts added, their allowed masks joined."""
    m = 0
    for _, x in g:
        m |= x
    return [sum(c for c, _ in g), m]


def beliefs(obs: Observation) -> Beliefs:
    """Derive the constraints on the hidden tiles from ``obs`` (see :class:`Beliefs`).

    Sound by construction: the true deal always satisfies them.  Where a placed tile could
    have come from several groups, those groups are merged (their allowed masks joined), and
    tiles that moved between hands by a rule are forgotten the same way, which keeps the
    constraints true at the cost of some precision.
    """
    players = obs.players
    undealt = _undealt(obs)
    hist = obs.history
    # Hand sizes at the deal, from the sizes now and what the history moved.
    size = list(obs.hand_sizes)
    for a in reversed(hist):
        if a.kind in ("led", "played"):
            size[a.seat] += 1
        elif a.kind in ("drew", "forced"):
            size[a.seat] -= a.count
        elif a.kind == "took":
            size[a.seat] -= a.count
            size[a.source] += a.count
    dealt_allowed = ALL_MASK & ~undealt
    groups: list[list[list[int]]] = [[[max(0, n), dealt_allowed]] for n in size]
    pending = [0] * players  # allowed mask of a drawn tile that must be placed next
    for i, act in enumerate(hist):
        s = act.seat
        kind = act.kind
        if kind in ("led", "played"):
            bit = _BIT[TILE_ID[act.tile]]
            if pending[s] & bit:
                pending[s] = 0
                continue
            g = groups[s]
            holders = [x for x in g if x[0] > 0 and x[1] & bit]
            if len(holders) == 1:
                holders[0][0] -= 1
            elif holders:
                merged = _merge(holders)
                merged[0] -= 1
                groups[s] = [x for x in g if x not in holders] + [merged]
            else:  # cannot happen with a true history; stay sound by forgetting
                n = sum(x[0] for x in g) + (1 if pending[s] else 0) - 1
                pending[s] = 0
                groups[s] = [[n, ALL_MASK]]
            groups[s] = [x for x in groups[s] if x[0] > 0]
        elif kind in ("drew", "knocked", "passed"):
            fit = act.fit
            for x in groups[s]:
                x[1] &= ~fit
            if kind == "drew":
                # The last drawn tile fits and is placed next, unless the seat then knocks
                # or passes (§1.8, §2.8 rule 6).
                closing = _next_of(hist, i)
                kept = act.count if closing in ("knocked", "passed") else act.count - 1
                if kept:
                    groups[s].append([kept, ALL_MASK & ~fit])
                if closing not in ("knocked", "passed"):
                    pending[s] = fit
        elif kind == "forced":
            if act.count:
                groups[s].append([act.count, ALL_MASK])
        elif kind == "took":
            src = act.source
            g = groups[src] + ([[1, pending[src]]] if pending[src] else [])
            pending[src] = 0
            merged = _merge(g) if g else [0, 0]
            moved = act.count
            merged[0] -= moved
            groups[src] = [merged] if merged[0] > 0 else []
            groups[s].append([moved, merged[1] or ALL_MASK])
    seen = obs.round.hands[obs.seat] | obs.round.layout.mask
    unseen = ALL_MASK & ~seen
    out_groups = []
    voids = []
    for s in range(players):
        g = [(c, m) for c, m in groups[s] if c > 0]
        if pending[s]:
            g.append((1, pending[s]))
        if s == obs.seat or not obs.hand_sizes[s]:
            g = []
        elif sum(c for c, _ in g) != obs.hand_sizes[s]:  # inconsistent: forget, stay sound
            g = [(obs.hand_sizes[s], ALL_MASK)]
        out_groups.append(tuple(g))
        v = 0
        if g:
            for n in range(7):
                if not any(m & unseen & SUIT_MASK[n] for _, m in g):
                    v |= 1 << n
        voids.append(v)
    return Beliefs(unseen, tuple(out_groups), undealt, tuple(voids))


def sample_deal(obs: Observation, bel: Beliefs, rng: random.Random
                ) -> tuple[list[int], list[int]]:
    """One deal of the unseen tiles consistent with ``bel``: ``(hands, bazar)``.

    ``hands``: a tile mask per seat (the observer's own hand included); ``bazar``: tile ids in
    a random draw order, the last ``obs.reserve`` of them reserved (RULES.md §1.4).  A group
    that may hold exactly as many unseen tiles as it has room for takes them; of the rest, the
    tiles that some group may not hold go first (fewest groups first), each to a group that
    may hold it, chosen in proportion to the room left (tried again a few times from scratch
    if one finds no room), and the others are shuffled into the room that is left.  Should
    that fail, the tiles are placed one by one, each where a complete deal of the rest is
    still possible (a matching check), which always succeeds because the true deal satisfies
    the constraints.  Raises ``ValueError`` if the counts do not add up or no deal exists.
    """
    return _Sampler(obs, bel).deal(rng)


class _Sampler:
    """:func:`sample_deal` with the work that does not depend on the random draw done once
    (the ``hard`` player samples hundreds of deals from one observation).

    ``slots``: ``(room, allowed mask, seat)`` per group of :class:`Beliefs` (seat -1: the
    bazar); ``fixed``: ``(slot, tile)`` forced by a group with no choice; ``caps``: the room
    left after them; ``constrained``: ``(options, tile, slots)`` for the other tiles that some
    slot with room may not hold; ``free``: the tiles every slot with room may hold."""

    __slots__ = ("slots", "caps", "seat_of", "fixed", "constrained", "free", "rest",
                 "players", "own", "seat")

    def __init__(self, obs: Observation, bel: Beliefs) -> None:
        slots: list[tuple[int, int, int]] = []
        for s in range(obs.players):
            for count, allowed in bel.groups[s]:
                if count > 0:
                    slots.append((count, allowed, s))
        nbazar = obs.drawable + obs.reserve
        if nbazar:
            slots.append((nbazar, ALL_MASK, -1))
        unseen = bel.unseen
        if sum(x[0] for x in slots) != unseen.bit_count():
            raise ValueError("hand sizes and bazar do not add up to the unseen tiles")
        caps = [x[0] for x in slots]
        fixed = []
        avail = unseen
        changed = True
        while changed:  # a group with as many candidates as room takes them all
            changed = False
            for j, (_, allowed, _) in enumerate(slots):
                cand = allowed & avail
                if caps[j] and cand.bit_count() <= caps[j]:
                    if cand.bit_count() < caps[j]:
                        raise ValueError("no deal is consistent with the observation")
                    fixed.extend((j, t) for t in ids_of(cand))
                    avail &= ~cand
                    caps[j] = 0
                    changed = True
        free = avail
        for j, x in enumerate(slots):
            if caps[j]:
                free &= x[1]
        opts = []
        for t in ids_of(avail & ~free):
            bit = _BIT[t]
            js = tuple(j for j, x in enumerate(slots) if caps[j] and x[1] & bit)
            opts.append((len(js), t, js))
        self.slots = slots
        self.caps = tuple(caps)
        self.seat_of = tuple(x[2] for x in slots)
        self.fixed = tuple(fixed)
        self.constrained = opts
        self.free = ids_of(free)
        self.rest = ids_of(avail)
        self.players = obs.players
        self.own = obs.round.hands[obs.seat]
        self.seat = obs.seat

    def _start(self) -> tuple[list[int], list[int]]:
        hands = [0] * self.players
        hands[self.seat] = self.own
        bazar: list[int] = []
        seat_of = self.seat_of
        for j, t in self.fixed:
            if seat_of[j] < 0:
                bazar.append(t)
            else:
                hands[seat_of[j]] |= _BIT[t]
        return hands, bazar

    def deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """One deal: ``(hands, bazar)`` (see :func:`sample_deal`)."""
        rnd = rng.random
        seat_of = self.seat_of
        for _ in range(8):
            caps = list(self.caps)
            hands, bazar = self._start()
            ok = True
            for _, t, js in sorted(self.constrained, key=lambda o: (o[0], rnd())):
                total = 0
                for j in js:
                    total += caps[j]
                if not total:
                    ok = False
                    break
                r = rnd() * total
                for j in js:
                    r -= caps[j]
                    if r < 0 and caps[j]:
                        break
                else:  # rounding left r at 0: the last slot with room
                    j = [j for j in js if caps[j]][-1]
                caps[j] -= 1
                if seat_of[j] < 0:
                    bazar.append(t)
                else:
                    hands[seat_of[j]] |= _BIT[t]
            if not ok:
                continue
            rest = [t for _, t in sorted([(rnd(), t) for t in self.free])]  # a random order
            k = 0
            for j, c in enumerate(caps):
                if not c:
                    continue
                part = rest[k:k + c]
                k += c
                s = seat_of[j]
                if s < 0:
                    bazar.extend(part)
                else:
                    m = hands[s]
                    for t in part:
                        m |= _BIT[t]
                    hands[s] = m
            return hands, [t for _, t in sorted([(rnd(), t) for t in bazar])]
        return self._search(rng)

    def _search(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """Place the tiles one by one in a random order, each in a slot chosen in proportion
        to its room among those that leave a complete deal of the rest possible."""
        slots = self.slots
        caps = list(self.caps)
        tiles = list(self.rest)
        rng.shuffle(tiles)
        hands, bazar = self._start()
        for i, t in enumerate(tiles):
            bit = _BIT[t]
            js = [j for j in range(len(slots)) if caps[j] and slots[j][1] & bit]
            while js:
                total = sum(caps[j] for j in js)
                r = rng.random() * total
                pick = js[-1]
                for j in js:
                    r -= caps[j]
                    if r < 0:
                        pick = j
                        break
                caps[pick] -= 1
                if _complete(slots, caps, tiles[i + 1:]):
                    break
                caps[pick] += 1
                js.remove(pick)
            else:
                raise ValueError("no deal is consistent with the observation")
            if self.seat_of[pick] < 0:
                bazar.append(t)
            else:
                hands[self.seat_of[pick]] |= bit
        rng.shuffle(bazar)
        return hands, bazar


def _complete(slots, caps: list[int], tiles: list[int]) -> bool:
    """Whether ``tiles`` can all be placed in ``slots`` with room ``caps`` (each tile in a
    slot that allows it): a bipartite matching with capacities, by augmenting paths."""
    load = [0] * len(slots)
    held: list[list[int]] = [[] for _ in slots]

    def place(t: int, seen: set[int]) -> bool:
        bit = _BIT[t]
        for j in range(len(slots)):
            if j in seen or not caps[j] or not slots[j][1] & bit:
                continue
            seen.add(j)
            if load[j] < caps[j]:
                load[j] += 1
                held[j].append(t)
                return True
            for k, u in enumerate(held[j]):
                if place(u, seen):
                    held[j][k] = t
                    return True
        return False

    return all(place(t, set()) for t in tiles)


def _deal_table(obs: Observation, hands: list[int], bazar: list[int],
                template: Table | None = None) -> Table:
    """The round core for one sampled deal of ``obs`` (``template``: a table of
    ``obs.round`` to copy, which is quicker than building one)."""
    rm = 0
    if obs.reserve:
        for i in bazar[len(bazar) - obs.reserve:]:
            rm |= _BIT[i]
    if template is None:
        return Table.from_state(obs.round._replace(hands=tuple(hands), bazar=tuple(bazar),
                                                   reserve_mask=rm))
    t = template.copy()
    t.hands = hands
    t.bazar = tuple(bazar)
    t.drawn = 0
    t.reserve_mask = rm
    return t


# ====================================================================== value in match terms

#: Weight of the observer's standing in the value of an unfinished match (a side far from
#: losing prefers to stay far) and of the rating of a finished one (RULES.md §1.16).
STAND_W = 0.004
RATING_W = 0.002


def _values(v: Any, state: MatchState, result: Any) -> list[float]:
    """Each side's value of a match position after a round: −1 for a goat (the loser of the
    match, RULES.md §1.15, §2), a little for the rating when the match is over; else minus
    the estimated chance of losing it — a softmax of the variant's
    :meth:`~engine.variant.Variant.standing` at its :meth:`standing_scale` — and a little
    for standing far from losing."""
    if result is not None:
        goats = result.goats
        r = result.rating
        return [-1.0 if s in goats else RATING_W * (r[s] if s < len(r) else 0)
                for s in range(len(state.scores))]
    stand = v.standing(state)
    scale = v.standing_scale(state.rules)
    top = max(stand)
    ws = [math.exp((x - top) / scale) for x in stand]
    tot = sum(ws)
    out = []
    for w, x in zip(ws, stand, strict=True):
        p = w / tot
        out.append(-p - STAND_W * (1.0 - p) * x / scale)
    return out


class _Judge:
    """Values finished rounds for one decision: the match as the observation shows it
    (``state``, :func:`_context`), its variant ``v``, the value of the match as it stands
    (``now``, per side), ``ended``: the values of the round-ending moves the last
    playout decision looked at, so that the playout need not score the same end twice, and
    ``work``: the work units the playouts have spent so far (one per move played, one per
    move a playout decision weighed; :data:`DEFAULT_WORK`)."""

    __slots__ = ("state", "v", "now", "ended", "work")

    def __init__(self, state: MatchState) -> None:
        self.work = 0
        self.state = state
        self.v = state.rules.spec
        self.now = _values(self.v, state, None)
        self.ended: dict[Move, list[float]] = {}


def _settle(judge: _Judge, t: Table) -> list[float]:
    """Score the finished round of ``t`` with the variant (``score_round`` then ``result``,
    on a copy of the match values, as :func:`engine.match.apply` records a round) and value
    it for every side (:func:`_values`)."""
    v = judge.v
    ms = judge.state
    rs = t.state()
    end = v.score_round(MatchState(ms.rules, ms.players, ms.seed, ms.round_no, rs, ms.scores,
                                   ms.remembered, ms.pot, ms.afk, ms.version, None, ms.own),
                     t)
    st = MatchState(ms.rules, ms.players, ms.seed, ms.round_no, rs, end.scores,
                    end.remembered, end.pot, ms.afk, ms.version, None,
                    end.own if end.own is not None else ms.own)
    return _values(v, st, v.result(st, end))


# ====================================================================== normal policy

# Weights of the one-ply heuristic (tuned with bench/ai_bench.py).  Points and pips share a
# unit: a pip kept in hand is a point recorded against us (RULES.md §1.11) or for an opponent
# (§2.4 rule 3), a point on the count is ours (§2.0.6).
W_PIPS = 1.0       # shed heavy tiles
W_DOUBLE = 4.0     # doubles are hard to place later
W_FOLLOW = 2.0     # keep a follow-up on the new ends
W_STUCK = 3.0      # no tile of mine fits the new ends
W_VARIETY = 1.0    # distinct numbers kept in hand
W_VOID = 3.0       # an opponent could not match a number we open
W_STRENGTH = 1.0   # an opponent opened this number before
W_CONTROL = 1.5    # we hold the last unseen tiles of an open number
W_POINTS = 1.0     # points scored on the count (per point)
W_AGAIN = 6.0      # we move again
W_FORCED = 3.0     # per tile an opponent must take
#: A move that ends the round (fish, void round, race won), against the match values as they
#: stand: ``±END_SCORE + W_END × (value difference)`` beyond ``END_EPS``, else just the
#: second term (a round that changes nothing, e.g. a void one, is worth no more than a move).
END_SCORE = 1e6
W_END = 1e3
END_EPS = 1e-9
#: A move that empties the hand (RULES.md §1.9).
OUT_SCORE = 1e9
#: What a round that changes nothing (a void one) is worth when another side would
#: otherwise go out first, and costs when the mover's side would (:func:`_end_score`, at the
#: observation only): measured with Генерал's ``normal`` against three ``easy`` players; in
#: ``hard``'s playouts it made hard weaker against three ``normal`` (docs/BENCHMARKS.md).
W_RACE = 10.0

_BASE = tuple(W_PIPS * PIPS[t] + (W_DOUBLE if LOW[t] == HIGH[t] else 0.0) for t in range(28))
_FOLLOW = (-W_STUCK, W_FOLLOW) + (2 * W_FOLLOW,) * 27


def _chunk(k: int) -> tuple[int, ...]:
    out = []
    for bits in range(128):
        m = 0
        for j in range(7):
            if bits >> j & 1 and 7 * k + j < 28:
                t = 7 * k + j
                m |= (1 << LOW[t]) | (1 << HIGH[t])
        out.append(m)
    return tuple(out)


_N0, _N1, _N2, _N3 = (_chunk(k) for k in range(4))
#: W_VARIETY times the number of numbers in a 7-bit mask.
_VARIETY = tuple(W_VARIETY * m.bit_count() for m in range(128))


def _line_row(i: int):
    row = LINE_STEP[i]
    if row is None:
        return None
    nl, nr, _, fit, nd, *_ = row
    tid = i // 98
    return (nl, nr, fit, nd, _BASE[tid], SUIT_MASK[nl], SUIT_MASK[nr] if nr != nl else 0)


#: :data:`engine.layout.LINE_STEP` with what the heuristic reads of each step: ``(new left,
#: new right, fit mask, fish (b) mask, the tile's base score, suit of the new left, suit of
#: the new right or 0 when both ends show one number)``.
_LINE = tuple(_line_row(i) for i in range(len(LINE_STEP)))


_BASES: dict[Any, tuple[float, ...]] = {}


def _base_scores(rules: Rules) -> tuple[float, ...]:
    """Per tile id, what shedding it is worth to the policy in ``rules``' game: ``W_PIPS``
    times what holding it at the round's end costs there
    (:meth:`engine.variant.Variant.held_costs`, the game's own stakes), ``W_DOUBLE`` more
    for a double.  Cached per variant and rules."""
    key = (rules.variant, rules)
    got = _BASES.get(key)
    if got is None:
        costs = rules.spec.held_costs(rules)
        got = tuple(W_PIPS * costs[t] + (W_DOUBLE if LOW[t] == HIGH[t] else 0.0)
                    for t in range(28))
        if len(_BASES) > 256:
            _BASES.clear()
        _BASES[key] = got
    return got


def _nums(h: int) -> int:
    """7-bit mask of the numbers a hand shows (suit variety)."""
    return _N0[h & 127] | _N1[h >> 7 & 127] | _N2[h >> 14 & 127] | _N3[h >> 21]


class _Know:
    """The public knowledge the ``normal`` policy reads, kept up to date during a playout.

    ``voids[s]``: 7-bit mask of the numbers seat ``s`` is known to lack; ``bonus[7 * s + n]``:
    what opening number ``n`` is worth to seat ``s`` for the others' voids and strengths
    (W_VOID per opponent void, −W_STRENGTH per time an opponent opened it; the next seat at
    full weight and the others at half, partners with the opposite sign: :func:`_weights`);
    ``w[s][o]`` that weight of seat ``o`` for ``s``; ``size[s]`` the hand sizes the knowledge
    was last updated at.  ``on_void[o]``/``on_open[o]``: ``(7 * s, weighted delta)`` for each
    seat ``s`` that weighs ``o``.  ``base[t]``: what shedding tile ``t`` is worth in this
    game (:func:`_base_scores`); ``adj[t]``: its difference from the classic
    ``_BASE[t]`` that the line look-up carries, or None where there is none.
    """

    __slots__ = ("voids", "bonus", "w", "size", "on_void", "on_open", "base", "adj")

    def copy(self) -> _Know:
        c = _Know.__new__(_Know)
        c.base = self.base
        c.adj = self.adj
        c.voids = list(self.voids)
        c.bonus = list(self.bonus)
        c.w = self.w
        c.size = list(self.size)
        c.on_void = self.on_void
        c.on_open = self.on_open
        return c

    def set_void(self, o: int, new: int) -> None:
        """Seat ``o`` is now known to lack exactly the numbers of ``new``."""
        old = self.voids[o]
        if old == new:
            return
        self.voids[o] = new
        changed = old ^ new
        bonus = self.bonus
        for n in range(7):
            if changed >> n & 1:
                up = new >> n & 1
                for off, d in self.on_void[o]:
                    bonus[off + n] += d if up else -d

    def opened(self, o: int, n: int) -> None:
        """Seat ``o`` opened number ``n`` (a strength, RULES.md §1.7)."""
        bonus = self.bonus
        for off, d in self.on_open[o]:
            bonus[off + n] -= d


def _weights(rs: RoundState, players: int) -> list[list[float]]:
    """``w[s][o]``: 1 for the seat after ``s`` in turn order, ½ for the others, negative for a
    partner (RULES.md §1.14), 0 for seats out of play."""
    seats = rs.seats
    w = [[0.0] * players for _ in range(players)]
    for i, s in enumerate(seats):
        for d in range(1, len(seats)):
            o = seats[(i + d) % len(seats)]
            x = 1.0 if d == 1 else 0.5
            if rs.sides[o] == rs.sides[s]:
                x = -x
            w[s][o] = x
    return w


def _knowledge(obs: Observation, bel: Beliefs) -> _Know:
    """The policy's knowledge at the observation: voids from :func:`beliefs`, strengths from
    the numbers each seat opened (RULES.md §1.7)."""
    k = _Know.__new__(_Know)
    players = obs.players
    w = k.w = _weights(obs.round, players)
    k.on_void = tuple(tuple((7 * s, W_VOID * w[s][o]) for s in range(players) if w[s][o])
                      for o in range(players))
    k.on_open = tuple(tuple((7 * s, W_STRENGTH * w[s][o]) for s in range(players) if w[s][o])
                      for o in range(players))
    k.base = _base_scores(obs.rules)
    adj = tuple(b - c for b, c in zip(k.base, _BASE, strict=True))
    k.adj = adj if any(adj) else None
    k.voids = [0] * players
    k.bonus = [0.0] * (7 * players)
    k.size = list(obs.hand_sizes)
    for s in range(players):
        k.set_void(s, bel.voids[s])
    for act in obs.history:
        if act.kind == "led":
            k.opened(act.seat, act.tile.a)
            if act.tile.b != act.tile.a:
                k.opened(act.seat, act.tile.b)
        elif act.kind == "played" and not act.closed and act.shown >= 0:
            t = act.tile
            k.opened(act.seat, t.b if t.a == act.shown else t.a)
    return k


#: How sharply the ``hard`` player expects another seat to prefer shedding a tile worth more
#: to shed (:func:`_base_scores`: the game's held cost and the double bonus, per point):
#: a play weighs a sampled deal by ``exp(INFER_BETA * worth)`` of the tile played over the sum
#: of it over the tiles that seat held then and could have placed (:class:`_Inference`).
INFER_BETA = 0.6
#: Sampled deals drawn for each deal the ``hard`` player plays out, one of them kept in
#: proportion to its weight (sampling–importance–resampling).
INFER_DRAWS = 16


class _Inference:
    """What the other seats' plays say about their hands, as a weight of a sampled deal.

    A seat that plays tends to shed what is worth shedding in the game (RULES.md §1.11: a
    heavy tile held is points against it; a double is hard to place later), so a deal in
    which it held, and could have placed, tiles worth much more than the one it played is
    less likely.  ``steps``: per play of another seat made since that seat's hand last grew
    or gave tiles away (a draw, a take, §1.8, §2.8 rule 5: before that its hand then is not
    known from its hand now), ``(seat, fit, later)``: the tiles that fitted an open end then
    and the seat's tiles placed from then on (the played one included) — its hand then is
    its hand now in the deal plus ``later``.  The weight of a deal is the product over the
    steps of one over the sum of ``exp(INFER_BETA * worth)`` over the tiles of that hand
    then which fitted (the played tile's own factor is the same in every deal).  A seat's
    lead and the parts of a move of several tiles (§2.0.4) teach nothing here."""

    __slots__ = ("steps", "e")

    def __init__(self, obs: Observation, base: tuple[float, ...]) -> None:
        self.e = tuple(math.exp(INFER_BETA * b) for b in base)
        hist = obs.history
        steps = []
        later = [0] * obs.players
        for a in reversed(hist):
            s = a.seat
            if a.kind in ("drew", "forced", "took"):
                later[s] = -1
                if a.kind == "took" and 0 <= a.source < obs.players:
                    later[a.source] = -1
                continue
            if a.kind != "played" or s == obs.seat or later[s] < 0 or a.tile is None:
                if a.kind in ("led", "played") and later[s] >= 0 and a.tile is not None:
                    later[s] |= _BIT[TILE_ID[a.tile]]
                continue
            later[s] |= _BIT[TILE_ID[a.tile]]
            if a.part == 0 and a.fit:
                steps.append((s, a.fit, later[s]))
        self.steps = tuple(steps)

    def weight(self, hands: list[int]) -> float:
        """The weight of the deal ``hands`` (a tile mask per seat), > 0 for a deal the
        observation allows."""
        e = self.e
        w = 1.0
        for s, fit, later in self.steps:
            m = (hands[s] | later) & fit
            tot = 0.0
            while m:
                low = m & -m
                tot += e[low.bit_length() - 1]
                m ^= low
            w /= tot
        return w

    def deal(self, sampler: _Sampler, rng: random.Random) -> tuple[list[int], list[int]]:
        """A deal from ``sampler``, kept among :data:`INFER_DRAWS` in proportion to
        :meth:`weight`."""
        if not self.steps:
            return sampler.deal(rng)
        got = [sampler.deal(rng) for _ in range(INFER_DRAWS)]
        ws = [self.weight(h) for h, _ in got]
        r = rng.random() * sum(ws)
        for d, w in zip(got, ws, strict=True):
            r -= w
            if r < 0:
                return d
        return got[-1]


class _Deals:
    """Sampled deals for valuing a round-ending move where the other hands are not known
    (the decision at the observation): a few tables from :func:`sample_deal`, made on first
    use with a fixed generator, so that ``normal`` stays deterministic."""

    COUNT = 8

    def __init__(self, obs: Observation, bel: Beliefs) -> None:
        self.obs = obs
        self.bel = bel
        self._tables: list[Table] | None = None

    def tables(self) -> list[Table]:
        if self._tables is None:
            rng = random.Random(0x6B6F7A)
            sampler = _Sampler(self.obs, self.bel)
            self._tables = [_deal_table(self.obs, *sampler.deal(rng))
                            for _ in range(self.COUNT)]
        return self._tables


def _end_score(t: Table, seat: int, m: Move, judge: _Judge, deals: _Deals | None,
               know: _Know | None = None) -> float:
    """The policy's score of a move that ends the round (fish, void round, race won): the
    variant's value of the round scored now (:func:`_settle`) against the match as it stands.
    In a playout the hands are the playout's; at the observation they are :class:`_Deals`.
    At the observation (``deals`` given), a round that changes nothing (a void one, RULES.md
    §2.9 rule 2, §2.1 rule 6) is worth :data:`W_RACE` more when, by the hand sizes in
    ``know``, another side would go out first if nobody missed a turn (:func:`_behind`), and
    as much less when the mover's would; the playouts of ``hard`` leave it out."""
    side = t.sides[seat]
    now = judge.now[side]
    tables = [t] if deals is None else deals.tables()
    total = 0.0
    n = 0
    for r in tables:
        a = r.copy()
        a.play(m)
        if a.end is None:
            continue
        vals = _settle(judge, a)
        if deals is None:
            judge.ended[m] = vals
        total += vals[side] - now
        n += 1
    if not n:
        return 0.0
    d = total / n
    if d > END_EPS:
        return END_SCORE + W_END * d
    if d < -END_EPS:
        return -END_SCORE + W_END * d
    if know is not None and deals is not None:
        return W_END * d + W_RACE * _behind(t, seat, len(m._c), know)
    return W_END * d


def _behind(t: Table, seat: int, placed: int, know: _Know) -> float:
    """+1 when, after ``seat`` places ``placed`` tiles, the first hand to run out if nobody
    missed a turn is another side's, −1 when it is ``seat``'s side's (RULES.md §1.9: every
    seat in play goes out after as many turns as it holds tiles, in turn order from the seat
    after ``seat``; hand sizes from ``know.size``, public)."""
    size = know.size
    nxt = t.nxt
    order = []
    s = nxt[seat]
    while s != seat and len(order) < 8:
        order.append(s)
        s = nxt[s]
    order.append(seat)
    n = len(order)
    best = 1 << 30
    who = seat
    for d, s in enumerate(order):
        h = size[s] - (placed if s == seat else 0)
        if h <= 0 and s != seat:
            continue
        key = max(h - 1, 0) * n + d
        if key < best:
            best, who = key, s
    return -1.0 if t.sides[who] == t.sides[seat] else 1.0


def _preview_score(t: Table, seat: int, m: Move, know: _Know, judge: _Judge,
                   deals: _Deals | None) -> float:
    """The policy's score of ``m`` from a preview on a copy of the table: the other seats
    hold every tile the mover cannot see (so the preview shows what the rules make happen,
    not what the hidden hands would), the move is played with the variant's hooks, and the
    features are read off the result (see the module doc)."""
    hand = t.hands[seat]
    lay = t.layout
    sup = ALL_MASK & ~hand & ~lay.mask
    p = t.copy([])
    p.hands = [hand if s == seat else (sup if h else 0) for s, h in enumerate(t.hands)]
    try:
        p.play(m)
    except errors.InvalidDeal:  # nobody could move again: as good as a fish for the preview
        return _end_score(t, seat, m, judge, deals, know)
    if p.end is not None:
        if p.end == "out":
            return OUT_SCORE
        return _end_score(t, seat, m, judge, deals, know)
    h2 = p.hands[seat]
    lay2 = p.layout
    base = know.base
    score = 0.0
    for i in ids_of(hand & ~h2):
        score += base[i]
    for i in ids_of(h2 & ~hand):
        score -= base[i]
    score += _FOLLOW[(h2 & lay2.fit).bit_count()]
    score += W_VARIETY * _nums(h2).bit_count()
    bonus = know.bonus
    off = 7 * seat
    nm = _numbers(lay2.ends)
    mask2 = lay2.mask
    for n in range(7):
        if nm >> n & 1:
            score += bonus[off + n]
            if SUIT_MASK[n] & h2 and not SUIT_MASK[n] & ~(h2 | mask2):
                score += W_CONTROL
    side = t.sides[seat]
    got = p.points[side] - t.points[side]
    others = sum(p.points) - sum(t.points) - got
    score += W_POINTS * (got - others)
    if p.to_act == seat:
        score += W_AGAIN
    w = know.w[seat]
    for ev in p.events:
        k = ev.kind
        if k == "drew" and ev.seat != seat:
            score += W_FORCED * w[ev.seat]
        elif k == "took":
            score += W_FORCED * w[ev.seat] * len(ev.tiles)
    return score


def _pick(t: Table, seat: int, moves: tuple[Move, ...], know: _Know, judge: _Judge,
          deals: _Deals | None = None) -> int:
    """Index of the ``normal`` choice among ``moves`` for ``seat`` on ``t``.

    Reads only what that seat may know: its own hand, the layout, the public knowledge
    ``know``; a preview replaces the other hands (:func:`_preview_score`), and a round-ending
    move is valued on the playout's own deal (``deals`` None) or on sampled ones."""
    lay = t.layout
    hand = t.hands[seat]
    best = 0
    best_score = -1e18
    pos = lay.pos
    if pos >= 0 and t.simple and t.one_tile:
        # A plain line without move hooks: the new ends from the precomputed step.
        mask = lay.mask
        fwd = t.fwd
        bonus = know.bonus
        adj = know.adj
        off = 7 * seat
        k = -1
        for m in moves:
            k += 1
            tid, e, _, _, _ = m._c[0]
            bit = _BIT[tid]
            h2 = hand ^ bit
            if not h2:
                return k  # going out (RULES.md §1.9)
            nl, nr, fit2, nd, s, sl, sr = _LINE[(tid * 49 + pos) * 2 + e]
            mask2 = mask | bit
            if not fit2 & ~mask2 or (nd and fwd and mask2 & nd == nd):
                s = _end_score(t, seat, m, judge, deals, know)
            else:
                rest = ~(h2 | mask2)
                if adj is not None:
                    s += adj[tid]
                s += _FOLLOW[(h2 & fit2).bit_count()] + bonus[off + nl] + \
                    _VARIETY[(_N0[h2 & 127] | _N1[h2 >> 7 & 127] | _N2[h2 >> 14 & 127]
                              | _N3[h2 >> 21])]
                if sl & h2 and not sl & rest:
                    s += W_CONTROL
                if sr:
                    s += bonus[off + nr]
                    if sr & h2 and not sr & rest:
                        s += W_CONTROL
            if s > best_score:
                best, best_score = k, s
        return best
    for k, m in enumerate(moves):
        s = _preview_score(t, seat, m, know, judge, deals)
        if s >= OUT_SCORE:
            return k
        if s > best_score:
            best, best_score = k, s
    return best


def _skipped(t: Table, seat: int, know: _Know) -> None:
    """After ``seat``'s move the turn did not simply pass to the next seat, or somebody drew:
    the seats the turn skipped without a fitting tile lack the open numbers (RULES.md §1.8;
    after drawing, only those), and so will the seat that drew until a tile fitted once it
    has placed that tile."""
    hands = t.hands
    size = know.size
    fit = t.layout.fit
    nm = _numbers(t.layout.ends)
    to_act = t.to_act
    nxt = t.nxt
    s = nxt[seat]
    guard = 0
    while s != to_act and guard < 8:
        grew = hands[s].bit_count() > size[s]
        if not hands[s] & fit:
            know.set_void(s, nm if grew else know.voids[s] | nm)
        elif grew:
            know.set_void(s, 0)
        s = nxt[s]
        guard += 1
    if to_act != seat:
        drew = hands[to_act].bit_count() - size[to_act]
        if drew > 0:
            # It drew until a tile fitted (§1.8): that tile goes next, and the others it drew
            # do not fit either, so once it has moved it lacks the numbers open now — and,
            # when it drew more than one, perhaps no longer the ones it lacked before.
            know.set_void(to_act, nm if drew > 1 else know.voids[to_act] | nm)
    for o in t.seats:
        size[o] = hands[o].bit_count()


def _run(t: Table, know: _Know, judge: _Judge, first: Move | None = None
         ) -> list[float] | None:
    """Play the round of ``t`` to its end (``first`` first, if given) with the ``normal``
    policy for every seat, keeping ``know`` up to date: the numbers each seat opens
    (strength) and the seats the turn skips (:func:`_skipped`).  Returns the values per side
    of the finished round when the policy already scored it (a round-ending move it chose),
    else None."""
    size = know.size
    bonus = know.bonus
    on_open = know.on_open
    nxt = t.nxt
    ended = judge.ended
    picked = False
    work = 0
    while t.end is None:
        seat = t.to_act
        work += 1
        if first is not None:
            m = first
            first = None
        else:
            moves = t.moves()
            if len(moves) == 1:
                m = moves[0]
            else:
                if ended:
                    ended.clear()
                work += len(moves) if t.simple and t.one_tile and t.layout.pos >= 0 \
                    else PREVIEW_WORK * len(moves)
                m = moves[_pick(t, seat, moves, know, judge)]
                picked = True
        drawn = t.drawn
        t.play(m)
        if t.end is not None:
            judge.work += work
            return ended.get(m) if picked and ended else None
        picked = False
        codes = m._c
        if len(codes) == 1 and codes[0][1] >= 0:  # one tile on an end: the common case
            if not codes[0][2]:
                n = t.layout.ends[codes[0][1]]
                if 0 <= n <= 6:
                    for off, d in on_open[seat]:
                        bonus[off + n] -= d
            size[seat] -= 1
        else:
            ends = t.layout.ends
            for tid, e, closed, _, _ in codes:
                if e < 0:
                    know.opened(seat, LOW[tid])
                    if HIGH[tid] != LOW[tid]:
                        know.opened(seat, HIGH[tid])
                elif not closed:
                    n = ends[e]
                    if 0 <= n <= 6:
                        know.opened(seat, n)
            size[seat] -= len(codes)
        if t.to_act != nxt[seat] or t.drawn != drawn:
            _skipped(t, seat, know)
    judge.work += work
    return None


# ====================================================================== decisions


def _check(obs: Observation) -> None:
    if obs.to_act != obs.seat or not obs.legal:
        raise ValueError(f"seat {obs.seat} has no decision to make")
    for m in obs.legal:
        m.codes  # noqa: B018 - kept with the move (an unpickled move has not computed it)


def _public_table(obs: Observation) -> Table:
    """A table of the observation for previews: the other seats in play hold every unseen
    tile at once, the bazar is any of them (its size right), nothing is reserved."""
    own = obs.round.hands[obs.seat]
    sup = ALL_MASK & ~own & ~obs.round.layout.mask
    hands = tuple(own if s == obs.seat else (sup if obs.hand_sizes[s] else 0)
                  for s in range(obs.players))
    bazar = tuple(ids_of(sup)[:obs.drawable + obs.reserve])
    return Table.from_state(obs.round._replace(hands=hands, bazar=bazar))


def decide_easy(obs: Observation, rng: random.Random) -> Move:
    """A uniformly random legal move.  Raises ``ValueError`` when ``obs.seat`` is not to act."""
    _check(obs)
    return obs.legal[rng.randrange(len(obs.legal))]


def _normal(obs: Observation, bel: Beliefs, know: _Know, judge: _Judge) -> Move:
    t = _public_table(obs)
    return obs.legal[_pick(t, obs.seat, obs.legal, know, judge, _Deals(obs, bel))]


def decide_normal(obs: Observation, rng: random.Random | None = None) -> Move:
    """The heuristic move (see the module doc; weights ``W_*``).  Deterministic: ``rng`` is
    accepted for a uniform signature and unused.  Raises ``ValueError`` when ``obs.seat`` is
    not to act."""
    _check(obs)
    if len(obs.legal) == 1:
        return obs.legal[0]
    bel = beliefs(obs)
    return _normal(obs, bel, _knowledge(obs, bel), _Judge(_context(obs)))


#: What can end a decision (:attr:`Thought.stop`): ``easy``/``normal`` decide at once
#: (``"policy"``), a seat with one legal move has nothing to weigh (``"only"``); ``hard``'s
#: search ends at its number of deals (``"samples"``), its work budget (``"work"``), its time
#: budget (``"time"``), once its best move is settled (``"settled"``) or once one move is left
#: (``"pruned"``).
STOPS = ("policy", "only", "samples", "work", "time", "settled", "pruned")


@dataclass(frozen=True, slots=True)
class Thought:
    """A decision and what it took.  Pickles.

    ``move``: the move decided (one of ``obs.legal``); ``deals``: sampled deals ``hard``
    played out (0 for ``easy``/``normal``); ``work``: work units its playouts spent (see
    :func:`think_hard`); ``stop``: what ended the decision (one of :data:`STOPS`).
    """

    move: Move
    deals: int = 0
    work: int = 0
    stop: str = "policy"


class _Bounds:
    """When :func:`think_hard`'s search stops: after ``samples`` deals, before one more deal
    would pass ``work`` units (judged by the deal of most work since the moves last changed,
    ``most``) or 95% of ``budget`` seconds of ``clock`` (judged by the slowest deal, with a
    margin of half of it).  The clock is read when the search starts, when its deals start
    and after each deal; never without a budget."""

    __slots__ = ("samples", "work", "budget", "clock", "start", "last", "slowest", "most")

    def __init__(self, samples: int | None, work: int | None, budget: float | None,
                 clock: Callable[[], float] | None) -> None:
        self.samples, self.work, self.budget = samples, work, budget
        self.clock = clock if budget is not None else None
        self.start = self.last = self.clock() if self.clock else 0.0
        self.slowest = 0.0
        self.most = 0

    def begin(self) -> None:
        """The deals start (what came before them is not a deal's time)."""
        if self.clock:
            self.last = self.clock()

    def dealt(self, n: int, work: int) -> str | None:
        """Deal ``n`` took ``work`` units: ``"samples"`` when it was the last one allowed."""
        self.most = max(self.most, work)
        return "samples" if self.samples is not None and n >= self.samples else None

    def spent(self, work: int) -> str | None:
        """``work`` units spent so far: ``"work"`` or ``"time"`` when one more deal would
        pass that budget, else None."""
        if self.work is not None and work + self.most > self.work:
            return "work"
        if self.clock:
            now = self.clock()
            self.slowest = max(self.slowest, now - self.last)
            self.last = now
            if now - self.start + 1.5 * self.slowest > 0.95 * self.budget:
                return "time"
        return None


def decide_hard(obs: Observation, rng: random.Random, *, budget: float | None = None,
                samples: int | None = None, work: int | None = DEFAULT_WORK,
                clock: Callable[[], float] | None = None) -> Move:
    """The ``hard`` move: :func:`think_hard`'s, without what the search took."""
    return think_hard(obs, rng, budget=budget, samples=samples, work=work, clock=clock).move


def think_hard(obs: Observation, rng: random.Random, *, budget: float | None = None,
               samples: int | None = None, work: int | None = DEFAULT_WORK,
               clock: Callable[[], float] | None = None) -> Thought:
    """Determinized sampling (see the module doc): the move and what the search took.

    Bounds, the first reached ends the search (at least one deal is always played):
    ``samples`` sampled deals; ``work`` work units of the playouts (one per move played,
    one per move a playout decision weighs, :data:`PREVIEW_WORK` per move it previews on a
    copy of the table), :data:`DEFAULT_WORK` by default, so that the decision costs the same
    whatever else the machine does; ``budget`` seconds as measured by ``clock`` (a callable
    returning seconds, e.g. ``time.process_time`` for CPU time; the engine reads no clock of
    its own): the search stops when one more deal would pass 95% of it, judged by the
    slowest deal so far, so that a slower machine thinks no longer, only less deeply.  The
    clock is read once per deal, and never without a budget.  Without ``samples`` the search
    also stops once the best move is settled: after at least :data:`EARLY_MIN` deals, its
    lead over the runner-up, paired deal by deal, exceeds :data:`EARLY_Z` standard errors (or
    the two never differed).  Deterministic given ``rng`` unless ``budget`` stops it
    (``Thought.stop == "time"``).  Every legal move is played out in the same deals, on
    copies of the round core, until :func:`_prune` drops it (clearly beaten by the leader,
    after :data:`PRUNE_MIN` deals; the last move left is played at once); the best move is
    played only when it beats the ``normal`` choice by :data:`PRIOR_Z` paired standard
    errors (:func:`_beats`), else the ``normal`` choice is.  Raises ``ValueError`` when
    ``obs.seat`` is not to act, no bound is given, or a budget is given without a clock.
    """
    _check(obs)
    if len(obs.legal) == 1:
        return Thought(obs.legal[0], stop="only")
    if samples is None and budget is None and work is None:
        raise ValueError("give a work budget, a time budget or a number of samples")
    if budget is not None and clock is None:
        raise ValueError("a time budget needs a clock")
    bounds = _Bounds(samples, work, budget, clock)
    bel = beliefs(obs)
    know = _knowledge(obs, bel)
    judge = _Judge(_context(obs))
    side = obs.side
    moves = obs.legal
    prior = _normal(obs, bel, know, judge)
    judge.work = 0
    template = Table.from_state(obs.round)
    sampler = _Sampler(obs, bel)
    infer = _Inference(obs, know.base)
    totals = [0.0] * len(moves)
    per: list[list[float]] = [[] for _ in moves]
    k0 = moves.index(prior) if prior in moves else -1
    alive = list(range(len(moves)))
    n = 0
    bounds.begin()
    while True:
        w0 = judge.work
        base = _deal_table(obs, *infer.deal(sampler, rng), template)
        for k in alive:
            t = base.copy()
            vals = _run(t, know.copy(), judge, moves[k])
            u = (vals or _settle(judge, t))[side]
            totals[k] += u
            per[k].append(u)
        n += 1
        stop = bounds.dealt(n, judge.work - w0)
        if stop:
            break
        if len(alive) > 1 and n >= PRUNE_MIN:
            kept = _prune(per, totals, alive, k0)
            if len(kept) < len(alive):
                alive = kept
                bounds.most = 0  # the next deals play fewer moves: measure them afresh
                if len(alive) == 1:
                    return Thought(moves[alive[0]], n, judge.work, "pruned")
        stop = bounds.spent(judge.work)
        if stop:
            break
        if samples is None and n >= EARLY_MIN and n % 16 == 0 and \
                _settled([per[k] for k in alive], [totals[k] for k in alive]):
            stop = "settled"
            break
    best = max(alive, key=lambda k: (round(totals[k] / n, 9), k == k0))
    if best != k0 and k0 in alive and not _beats(per[best], per[k0]):
        best = k0
    return Thought(moves[best], n, judge.work, stop)


#: Sampled deals after which the search drops a move the leading one beats by
#: :data:`PRUNE_Z` paired standard errors, so that the deals left go to the moves still in
#: doubt.  Measured at 8,000 work units (docs/BENCHMARKS.md): also dropping, after 4 deals, a
#: move equal to the leader in every deal made the sea goat weaker, where only the round's
#: loser records and moves that differ often give the same value.
PRUNE_MIN = 6
PRUNE_Z = 2.5


def _prune(per: list[list[float]], totals: list[float], alive: list[int], keep: int
           ) -> list[int]:
    """The moves of ``alive`` (indices into ``per``/``totals``, every one played in the same
    deals, at least two deals) still worth playing out: without those the leader (the
    ``keep`` move, the ``normal`` choice, among equal totals) beats by :data:`PRUNE_Z`
    standard errors of their paired differences (a difference that never varies counts when
    it is positive)."""
    lead = max(alive, key=lambda k: (totals[k], k == keep))
    pa = per[lead]
    n = len(pa)
    kept = []
    for k in alive:
        if k != lead:
            d = [x - y for x, y in zip(pa, per[k], strict=True)]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1)
            if mean > PRUNE_Z * math.sqrt(var / n):
                continue
        kept.append(k)
    return kept


#: Standard errors by which the search's best move must beat the ``normal`` choice, paired
#: deal by deal, to be played instead of it: with few deals (a small work budget) the best
#: of many noisy estimates is mostly luck, and the policy's own choice is the better bet.
PRIOR_Z = 1.0


def _beats(a: list[float], b: list[float]) -> bool:
    """Whether the values ``a`` beat ``b`` (the same deals) by :data:`PRIOR_Z` standard
    errors of their paired differences; a difference that never varies beats when it is
    positive."""
    n = len(a)
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    if mean <= 0.0:
        return False
    if n < 2:
        return False
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    if var <= 1e-18:
        return True
    return mean > PRIOR_Z * math.sqrt(var / n)


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


def think(obs: Observation, strength: str, rng: random.Random, *,
          budget: float | None = None, samples: int | None = None,
          work: int | None = DEFAULT_WORK, clock: Callable[[], float] | None = None
          ) -> Thought:
    """The :class:`Thought` of a computer player of ``strength`` (``"easy"``, ``"normal"``,
    ``"hard"``): its move and what deciding it took.

    ``budget``/``samples``/``work``/``clock`` bound ``hard`` (see :func:`think_hard`); the
    others decide at once.  Raises ``ValueError`` for an unknown strength or when
    ``obs.seat`` is not to act.
    """
    if strength == "easy":
        return Thought(decide_easy(obs, rng))
    if strength == "normal":
        return Thought(decide_normal(obs, rng))
    if strength == "hard":
        return think_hard(obs, rng, budget=budget, samples=samples, work=work, clock=clock)
    raise ValueError(f"unknown strength {strength!r}: use one of {STRENGTHS}")


def decide(obs: Observation, strength: str, rng: random.Random, *,
           budget: float | None = None, samples: int | None = None,
           work: int | None = DEFAULT_WORK, clock: Callable[[], float] | None = None
           ) -> Move:
    """The move of a computer player of ``strength``: :func:`think`'s, without what it took.
    Raises ``ValueError`` as :func:`think` does."""
    return think(obs, strength, rng, budget=budget, samples=samples, work=work,
                 clock=clock).move
