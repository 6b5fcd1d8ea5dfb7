"""The round core: one round on the table, mutable, for every variant (RULES.md §1.2–§1.10,
§2.0).

:class:`Table` is the one implementation of a turn: the move's placements go to the layout
(:class:`engine.layout.Layout`), the variant's hooks score the move and choose who moves next
(:class:`engine.variant.Variant`), an empty hand is an out, a blocked layout a fish (or a void
round), and a player who cannot move draws or knocks.  The service's matches, game records,
simulations and the computer players' playouts all run on it.

A table is mutable so that playouts reuse it move after move; :meth:`Table.state` gives the
immutable :class:`RoundState` that the engine's API passes around, and
:meth:`Table.from_state` rebuilds a table from one.

The trains of RULES.md §2.11 and the sausage of §2.12 are layouts of their own kind (their
``pos`` is :data:`engine.layout.OWN_TURNS`): there the table keeps the same state — hands
(Колбаса's queues as sets), the bazar, the seat to act, the round's end, the events — and
hands every move to the variant (:attr:`engine.variant.Variant.play_move`), which lays it on
its layout and plays the turn the way its section says.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any, NamedTuple

from . import errors
from .events import Drew, Fish, Knocked, Led, Played, Void, WentOut
from .layout import LINE_MOVES, LINE_STEP, OWN_TURNS, LayoutState, Line
from .moves import END_CODE, END_NAMES, GAP, LEFT, RIGHT, Move
from .tiles import DOUBLE_MASK, HIGH, LOW, SUIT_MASK, TILE_ID, TILES

__all__ = [
    "Table",
    "RoundState",
    "table_of",
    "remember",
    "shuffled_deal",
    "misdeal_reason",
    "holder_of_first",
    "canonical",
]


class RoundState(NamedTuple):
    """The position of one round, immutable (compare with ``==``); see :class:`Table` for the
    meaning of each field.

    - ``rules``: the :class:`engine.rules.Rules`; ``players``: seats at the table.
    - ``hands``: bit mask of tile ids per seat (:mod:`engine.tiles`); ``bazar``: the tile ids
      still in the bazar, in draw order; ``reserve``/``reserve_mask``: its last tiles, which
      may never be drawn (§1.4).
    - ``layout``: the :class:`engine.layout.LayoutState`.
    - ``to_act``: the seat whose decision is awaited, -1 once the round is over.
    - ``lead_id``: the tile the lead must be (§1.5), else -1; ``leader``: who leads the round.
    - ``last``: the seat that made the last move, -1 before the lead.
    - ``end``: None while playing, then ``"out"``, ``"fish"``, ``"void"`` (dealt again,
      §2.1 rule 6, §2.9 rule 2) or ``"limit"`` (a race won mid-round, §2.0.7);
      ``fish_cause``: ``"blocked"`` (§1.10 a) or ``"no_double"`` (§1.10 b).
    - ``fish_without_double``: whether fish (b) applies in this round (§2.0.5).
    - ``seats``: the seats that play this round, in turn order (Семёрка's leavers are out,
      §2.8 rule 8); ``sides``: the scoring side of each seat (§1.14).
    - ``points``: per side, points scored on the count in this round (§2.0.6); ``limits``:
      per side, the points that end a race mid-round (§2.0.7), or () outside races;
      ``count``: the count after the last move, None where nobody counts.
    - ``fast``: the fast lead of Морской козёл (``"6-6"``, ``"0-0"``, ``"extra"``), else
      None; ``phase``: 2 while every turn places two tiles (§2.1 rule 7), else 0.
    - ``memo``: whatever else the variant keeps for the round (immutable).
    """

    rules: Any
    players: int
    hands: tuple[int, ...]
    bazar: tuple[int, ...]
    reserve: int
    reserve_mask: int
    layout: LayoutState
    to_act: int
    lead_id: int
    leader: int
    last: int
    end: str | None
    fish_cause: str | None
    fish_without_double: bool
    seats: tuple[int, ...]
    sides: tuple[int, ...]
    points: tuple[int, ...]
    limits: tuple[int, ...]
    count: int | None
    fast: str | None
    phase: int
    memo: Any

    # -- the classic names ----------------------------------------------------------------
    @property
    def line(self):
        """The line with its two ends (:class:`engine.layout.Line`, RULES.md §0); empty on
        the trains and the sausage, which have no line (§2.11, §2.12)."""
        lay = self.layout
        if type(lay) is not LayoutState or not lay.line:
            return _EMPTY_LINE
        return Line(lay.chain, lay.ends[LEFT], lay.ends[RIGHT])

    @property
    def chain(self) -> tuple[tuple[int, int], ...]:
        """The line as oriented ``(a, b)`` pairs, left to right; () on the trains and the
        sausage."""
        return self.line.tiles

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn (RULES.md §1.4, §1.8)."""
        n = len(self.bazar) - self.reserve
        return n if n > 0 else 0

    @property
    def by(self) -> int:
        """The seat that went out, fished or made the round's last move; -1 while playing."""
        return self.last if self.end else -1

    def table(self, events: list | None = None) -> Table:
        """A mutable :class:`Table` of this position (``events`` collects what it does)."""
        return Table.from_state(self, events)


_EMPTY_LINE = Line((), -1, -1)


class Table:
    """One round in play, mutable (RULES.md §1.2–§1.10, §2.0).

    Fields as in :class:`RoundState`, except that the bazar is the whole deal's bazar with
    ``drawn`` tiles taken from its front, and ``layout`` is a mutable
    :class:`engine.layout.Layout`.  ``v`` is the variant (``rules.spec``); ``nxt[seat]`` the
    seat after ``seat`` among ``seats``; ``events`` a list that collects the engine events of
    every step, or None (playouts); ``take`` the tiles a record gives for Семёрка's blind
    take (RULES.md §2.8 rule 5), consumed by the next take (``[]``: a record that gives
    none; None: a live match, the variant picks by chance); ``chance`` the key of the
    round's seeded generator for choices the rules leave to chance.

    :meth:`moves` lists the legal moves of the seat to act; :meth:`play` makes one of them
    (unchecked: the caller passes a move from :meth:`moves`); :meth:`apply` checks a move
    first and raises the error that names the broken rule.
    """

    __slots__ = ("rules", "v", "players", "hands", "bazar", "drawn", "reserve",
                 "reserve_mask", "layout", "to_act", "lead_id", "leader", "last", "end",
                 "fish_cause", "fwd", "seats", "nxt", "sides", "points", "limits", "count",
                 "fast", "phase", "memo", "events", "take", "chance", "cache", "mkey",
                 "simple", "one_tile")

    def __init__(self, rules: Any, players: int, hands: list[int], bazar: tuple[int, ...],
                 reserve: int, leader: int, *, lead_id: int = -1,
                 seats: tuple[int, ...] | None = None, sides: tuple[int, ...] | None = None,
                 limits: tuple[int, ...] = (), fast: str | None = None, phase: int = 0,
                 memo: Any = None, events: list | None = None, chance: str = "") -> None:
        v = rules.spec
        self.rules = rules
        self.v = v
        self.players = players
        self.hands = list(hands)
        self.bazar = bazar = tuple(bazar)
        self.drawn = 0
        if reserve:
            r = min(reserve, len(bazar))
            rm = 0
            for i in bazar[len(bazar) - r:]:
                rm |= 1 << i
            self.reserve = r
            self.reserve_mask = rm
        else:
            self.reserve = self.reserve_mask = 0
        self.layout = v.new_layout(rules, players)
        self.to_act = leader
        self.lead_id = lead_id
        self.leader = leader
        self.last = -1
        self.end: str | None = None
        self.fish_cause: str | None = None
        seats = _ALL_SEATS[players] if seats is None else tuple(seats)
        self.seats = seats
        shape = _SHAPES.get((id(rules), players, seats))
        if shape is None or shape[0] is not rules:
            if len(_SHAPES) > 10_000:
                _SHAPES.clear()
            dflt = tuple(v.side_of(s, rules) for s in range(players))
            shape = _SHAPES[id(rules), players, seats] = (
                rules, _next_table(players, seats), dflt, v.reads_fish_without_double(rules),
                v.move_cache(rules), max(dflt) + 1, v.on_move is None and v.turn is None)
        _, self.nxt, dflt_sides, self.fwd, self.cache, nsides, self.simple = shape
        self.one_tile = v.one_tile
        if sides is None:
            self.sides = dflt_sides
            self.points = [0] * nsides
        else:
            self.sides = tuple(sides)
            self.points = [0] * (max(self.sides) + 1)
        self.limits = tuple(limits)
        self.count: int | None = None
        self.fast = fast
        self.phase = phase
        self.memo = memo
        self.events = events
        self.take: list[int] | None = None
        self.chance = chance
        self.mkey = v.move_key(self)

    # ------------------------------------------------------------------ values

    def copy(self, events: list | None = None) -> Table:
        """An independent copy (``events`` for the copy, None by default)."""
        c = Table.__new__(Table)
        c.rules = self.rules
        c.v = self.v
        c.players = self.players
        c.hands = self.hands[:]
        c.bazar = self.bazar
        c.drawn = self.drawn
        c.reserve = self.reserve
        c.reserve_mask = self.reserve_mask
        c.layout = self.layout.copy()
        c.to_act = self.to_act
        c.lead_id = self.lead_id
        c.leader = self.leader
        c.last = self.last
        c.end = self.end
        c.fish_cause = self.fish_cause
        c.fwd = self.fwd
        c.seats = self.seats
        c.nxt = self.nxt
        c.sides = self.sides
        c.points = self.points[:]
        c.limits = self.limits
        c.count = self.count
        c.fast = self.fast
        c.phase = self.phase
        c.memo = self.memo
        c.events = events
        c.take = None if self.take is None else self.take[:]
        c.chance = self.chance
        c.cache = self.cache
        c.mkey = self.mkey
        c.simple = self.simple
        c.one_tile = self.one_tile
        return c

    def state(self) -> RoundState:
        """The immutable :class:`RoundState` of this table."""
        return RoundState(
            self.rules, self.players, tuple(self.hands), self.bazar[self.drawn:],
            self.reserve, self.reserve_mask, self.layout.state(), self.to_act, self.lead_id,
            self.leader, self.last, self.end, self.fish_cause, self.fwd, self.seats,
            self.sides, tuple(self.points), self.limits, self.count, self.fast, self.phase,
            self.memo)

    @classmethod
    def from_state(cls, rs: RoundState, events: list | None = None,
                   chance: str = "") -> Table:
        """A mutable table equal to ``rs``."""
        t = cls.__new__(cls)
        t.rules = rs.rules
        t.v = rs.rules.spec
        t.players = rs.players
        t.hands = list(rs.hands)
        t.bazar = tuple(rs.bazar)
        t.drawn = 0
        t.reserve = rs.reserve
        t.reserve_mask = rs.reserve_mask
        t.layout = rs.layout.to_layout()
        t.to_act = rs.to_act
        t.lead_id = rs.lead_id
        t.leader = rs.leader
        t.last = rs.last
        t.end = rs.end
        t.fish_cause = rs.fish_cause
        t.fwd = rs.fish_without_double
        t.seats = rs.seats
        t.nxt = _next_table(rs.players, rs.seats)
        t.sides = rs.sides
        t.points = list(rs.points)
        t.limits = rs.limits
        t.count = rs.count
        t.fast = rs.fast
        t.phase = rs.phase
        t.memo = rs.memo
        t.events = events
        t.take = None
        t.chance = chance
        t.cache = t.v.move_cache(rs.rules)
        t.mkey = t.v.move_key(t)
        t.simple = t.v.on_move is None and t.v.turn is None
        t.one_tile = t.v.one_tile
        return t

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn (RULES.md §1.4, §1.8)."""
        n = len(self.bazar) - self.reserve - self.drawn
        return n if n > 0 else 0

    def draw(self) -> int:
        """Take the next drawable tile of the bazar (RULES.md §1.8); -1 when none is left.
        The caller puts it in a hand."""
        if len(self.bazar) - self.reserve - self.drawn <= 0:
            return -1
        tid = self.bazar[self.drawn]
        self.drawn += 1
        return tid

    # ------------------------------------------------------------------ play

    def moves(self) -> tuple[Move, ...]:
        """Every legal move of the seat to act, and nothing else (RULES.md §1.5–§1.7,
        §2.0.4 and the variant's section); empty once the round is over.

        Moves depend only on the tiles of the hand that fit, the open ends, and the variant's
        own key (``mkey``: its options and phase), so they are cached per variant."""
        seat = self.to_act
        if seat < 0:
            return ()
        lay = self.layout
        pos = lay.pos
        if pos >= 0 and self.one_tile:  # a plain line: each fitting tile's moves, looked up
            m = self.hands[seat] & lay.fit
            if not m:
                return ()
            row = LINE_MOVES[pos]
            low = m & -m
            m ^= low
            got = row[low]
            while m:
                low = m & -m
                m ^= low
                got += row[low]
            return got
        if pos == OWN_TURNS:  # the trains, the sausage: the variant lists them every time
            return self.v.generate(self)
        if lay.line:
            key = (self.hands[seat] & lay.fit) << 32 | self.mkey << 21 | lay.ends_key()
        elif self.lead_id < 0 and not self.mkey:
            return self.v.generate(self)  # a free lead: hands rarely repeat, do not cache
        else:
            key = -((self.lead_id + 1) << 11 | self.mkey) if self.lead_id >= 0 else \
                -((self.hands[seat] << 11 | self.mkey) << 5)
        cache = self.cache
        got = cache.get(key)
        if got is None:
            got = self.v.generate(self)
            if len(cache) > 300_000:
                cache.clear()
            cache[key] = got
        return got

    def play(self, move: Move) -> None:
        """Make ``move`` (one of :meth:`moves`) for the seat to act, then everything the rules
        force after it: the variant's effects (points on the count, another turn, a forced
        draw), an out (§1.9), a fish or a void round (§2.0.5), and the next seat's draws
        and knocks (§1.8).  The move is not checked (see :meth:`apply`)."""
        lay = self.layout
        try:
            step = move._s
        except AttributeError:
            move.codes  # noqa: B018 - computes _c and _s once
            step = move._s
        pos = lay.pos
        if step >= 0 and pos >= 0 and self.simple:
            # One tile on a plain line in a variant without move hooks (classic's every move
            # after the lead): the line's precomputed step (engine.layout.LINE_STEP) and the
            # checks of the general path below, inlined.
            nl, nr, laid, fit, nd, lay.pos, tid, e = LINE_STEP[step + pos * 2]
            if e:
                lay.line.append(laid)
            else:
                lay.line.insert(0, laid)
                if lay.gap_at >= 0:
                    lay.gap_at += 1
            ends = lay.ends
            ends[0] = nl
            ends[1] = nr
            lay.fit = fit
            bit = 1 << tid
            mask = lay.mask | bit
            lay.mask = mask
            lay.last_mask = bit
            seat = self.to_act
            hands = self.hands
            hand = hands[seat] ^ bit
            hands[seat] = hand
            self.last = seat
            ev = self.events
            if ev is not None:
                ev.append(Played(seat, TILES[tid], END_NAMES[e]))
            if not hand:
                self.end = "out"
                self.to_act = -1
                if ev is not None:
                    ev.append(WentOut(seat))
            elif not fit & ~(mask | self.reserve_mask):
                self._blocked(seat, "blocked")
            elif nd and self.fwd and mask & nd == nd:
                self._blocked(seat, "no_double")
            else:
                nxt = self.nxt[seat]
                if hands[nxt] & fit:
                    self.to_act = nxt
                else:
                    self.give_turn(nxt)
            return
        codes = move._c
        seat = self.to_act
        if pos == OWN_TURNS:  # the trains, the sausage: the variant lays it and runs the turn
            self.v.play_move(self, seat, codes)
            return
        ev = self.events
        lead = not lay.line
        bits = lay.lay(codes)
        if ev is not None:
            for part, (tid, e, closed, along, flip) in enumerate(codes):
                if lead and not part:
                    ev.append(Led(seat, TILES[tid], flip))
                else:
                    ev.append(Played(seat, TILES[tid], END_NAMES[e], closed, along, part))
        hand = self.hands[seat] ^ bits
        self.hands[seat] = hand
        self.last = seat
        self.lead_id = -1
        v = self.v
        if v.on_move is not None:
            v.on_move(self, seat, codes)
            if self.end is not None:
                self.to_act = -1
                return
        if not hand:
            self.end = "out"
            self.to_act = -1
            if ev is not None:
                ev.append(WentOut(seat))
            return
        if not lay.fit & ~(lay.mask | self.reserve_mask):
            self._blocked(seat, "blocked")
            return
        if self.fwd and lay.no_double_fish():
            self._blocked(seat, "no_double")
            return
        if v.turn is None:
            nxt = self.nxt[seat]
        else:
            nxt = v.turn(self, seat, codes)
            if self.end is not None:
                self.to_act = -1
                return
        if self.hands[nxt] & lay.fit:
            self.to_act = nxt
        else:
            self.give_turn(nxt)

    def _blocked(self, seat: int, cause: str) -> None:
        """The layout is blocked after ``seat``'s move: a fish, or a void round (§2.0.5)."""
        end = self.v.blocked_end(self, cause)
        self.end = end
        self.fish_cause = cause
        self.to_act = -1
        if self.events is not None:
            self.events.append(Fish(seat, cause) if end == "fish" else Void(seat, cause))

    def give_turn(self, seat: int) -> None:
        """The turn passes to ``seat``: while the seat to act cannot move, it draws or knocks
        by the variant's rule (:meth:`engine.variant.Variant.stuck`, §1.8) and the turn
        passes on.  Raises :class:`engine.errors.InvalidDeal` when nobody can ever move (only
        a position missing tiles gets there, RULES.md §1.1)."""
        hands = self.hands
        stuck = self.v.stuck
        knocks = 0
        nxt = self.nxt
        while not hands[seat] & self.layout.fit:
            if stuck(self, seat):
                break
            if not self.drawable:
                knocks += 1
                if knocks > self.players:
                    raise errors.InvalidDeal("the position does not hold all 28 tiles")
            seat = nxt[seat]
        self.to_act = seat

    def draw_until_fit(self, seat: int) -> bool:
        """RULES.md §1.8: ``seat`` draws one tile at a time until a drawn tile fits (True), or
        knocks when the drawable bazar is empty (False).  Drawn tiles stay in the hand."""
        h = self.hands[seat]
        fit = self.layout.fit
        ev = self.events
        bazar = self.bazar
        i = self.drawn
        stop = len(bazar) - self.reserve
        while i < stop:
            tid = bazar[i]
            i += 1
            h |= 1 << tid
            if ev is not None:
                ev.append(Drew(seat, TILES[tid]))
            if fit >> tid & 1:
                self.drawn = i
                self.hands[seat] = h
                return True
        self.drawn = max(i, self.drawn)
        self.hands[seat] = h
        if ev is not None:
            ev.append(Knocked(seat))
        return False

    def apply(self, seat: int, move: Move) -> None:
        """:meth:`play` after checking that ``seat`` is to act and ``move`` is legal.

        A move may leave ``end`` out where RULES.md §2.0.4 allows it (the lead; a tile that
        fits one end only; both ends of a line showing the same number: ``right``), and list
        several placements in any order.  Raises (the table is unchanged):
        :class:`errors.RoundOver`, :class:`errors.NotYourTurn`, :class:`errors.TileNotInHand`,
        :class:`errors.UnknownEnd` / :class:`errors.AmbiguousEnd`,
        :class:`errors.TileDoesNotFit` / :class:`errors.WrongLead`,
        :class:`errors.MoveNotAllowed`.
        """
        self.play(self.legal(seat, move))

    def legal(self, seat: int, move: Move) -> Move:
        """The legal move of :meth:`moves` that ``move`` names (ends filled in, placements in
        the engine's order; a lead keeps its ``flip``), or the error of :meth:`apply`."""
        if self.to_act < 0:
            raise errors.RoundOver("the round is over: no decision is awaited", "RULES.md §1.9")
        if seat != self.to_act:
            raise errors.NotYourTurn(f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        legal = self.moves()
        if move in legal:
            return move
        if self.layout.pos == OWN_TURNS:
            return self.v.resolve(self, seat, move, legal)
        found = _match(self, move, legal)
        if found is None:
            _refuse(self, seat, move)
        return found


# The tables behind the newest RoundState values (id -> (state, table)): the immutable API
# then copies a table instead of rebuilding it from the state.  A bounded, identity-checked
# cache: states stay plain values.
_TABLES: dict[int, tuple[RoundState, Table]] = {}
_TABLES_KEPT = 4096


def table_of(rs: RoundState, events: list | None = None, chance: str = "",
             *, copy: bool = True) -> Table:
    """A mutable :class:`Table` equal to ``rs`` (a copy of the one remembered with it, or a
    new one).  With ``copy`` False the remembered table itself may be returned: the caller
    must not change it (e.g. it only lists moves)."""
    hit = _TABLES.get(id(rs))
    if hit is not None and hit[0] is rs:
        if not copy:
            return hit[1]
        t = hit[1].copy(events)
        t.chance = chance
        return t
    return Table.from_state(rs, events, chance)


def remember(rs: RoundState, t: Table) -> RoundState:
    """Keep ``t`` (no longer changed by its owner) as the table of ``rs``; returns ``rs``."""
    if len(_TABLES) >= _TABLES_KEPT:
        for key in list(_TABLES)[: _TABLES_KEPT // 4]:
            del _TABLES[key]
    _TABLES[id(rs)] = (rs, t)
    return rs


# (id(rules), players, seats) -> (rules, next seats, sides, fish b, move cache, sides count,
# no move hooks): the same for every round of a match.
_SHAPES: dict[tuple, tuple] = {}
_ALL_SEATS = tuple(tuple(range(n)) for n in range(9))


def _next_table(players: int, seats: tuple[int, ...]) -> tuple[int, ...]:
    nxt = [-1] * players
    for i, s in enumerate(seats):
        nxt[s] = seats[(i + 1) % len(seats)]
    # a seat that does not play passes to the next one that does
    for s in range(players):
        if nxt[s] < 0:
            k = s
            for _ in range(players):
                k = (k + 1) % players
                if k in seats:
                    nxt[s] = k
                    break
    return tuple(nxt)


def _order(p: tuple) -> tuple:
    return (END_CODE.get(p[1], 9), p[0])


def canonical(t: Table, placements) -> tuple | None:
    """``placements`` as ``((tile_id, end, closed, along), ...)`` in the engine's order: each
    end filled in where RULES.md §2.0.4 lets it be left out, several placements sorted by end
    (a first face-up double kept first where it becomes the spinner, §2.0.2, §2.4); the lead's
    ``flip`` dropped.
    None when a tile is not a tile or an end cannot be filled in."""
    lay = t.layout
    out = []
    lead = not lay.line and len(placements) == 1
    for p in placements:
        tid = TILE_ID.get(p.tile) if isinstance(p.tile, tuple) else None
        if tid is None or tid >= 28:  # the line and the cross are of the double-six set
            return None
        end = None if lead else p.end  # a lead of one tile has no end to name
        if lay.line and end is None:
            fits = lay.fitting_ends(tid)
            if len(fits) == 1:
                end = END_NAMES[fits[0]]
            elif fits == [LEFT, RIGHT] and lay.equal_line_ends():
                end = "right"
            else:
                return None
        out.append((tid, end, bool(p.closed), bool(p.along)))
    if len(out) > 1:
        first = out[0]
        if lay.cross and lay.spinner < 0 and lay.line and not first[2] and \
                LOW[first[0]] == HIGH[first[0]]:
            out = out[:1] + sorted(out[1:], key=_order)  # the first double is the spinner
        else:
            out.sort(key=_order)
    return tuple(out)


def _match(t: Table, move: Move, legal: tuple[Move, ...]) -> Move | None:
    """The legal move that ``move`` names, up to what RULES.md §2.0.4 lets a record leave out
    or order freely; a flipped lead stays flipped, and ``left`` on a line whose two ends show
    the same number is laid on the left (the mirror of the one listed placement)."""
    if not isinstance(move, Move) or not len(move):
        return None
    want = canonical(t, move)
    if want is None:
        return None
    for m in legal:
        if canonical(t, m) == want:
            if not t.layout.line and len(move) == 1 and move[0].flip:
                return Move(m.tile, flip=True)
            return m
    if len(want) == 1 and want[0][1] == "left" and t.layout.equal_line_ends():
        tid, _, closed, along = want[0]
        mirror = ((tid, "right", closed, along),)
        if any(canonical(t, m) == mirror for m in legal):
            return Move(TILES[tid], "left", closed=closed, along=along)
    return None


def _refuse(t: Table, seat: int, move: Move) -> None:
    """Raise the error that explains why ``move`` is not legal for ``seat``."""
    if not isinstance(move, Move) or not len(move):
        raise errors.IllegalMove("a move must place at least one tile (RULES.md §2.0.4)")
    hand = t.hands[seat]
    lay = t.layout
    seen = 0
    for p in move:
        tid = TILE_ID.get(p.tile) if isinstance(p.tile, tuple) else None
        if tid is None or tid >= 28:  # the line and the cross are of the double-six set
            raise errors.TileNotInHand(f"{p.tile!r} is not a tile of the set")
        if not hand >> tid & 1:
            raise errors.TileNotInHand(f"{TILES[tid]} is not in seat {seat}'s hand")
        if seen >> tid & 1:
            raise errors.IllegalMove(f"{TILES[tid]} is placed twice (RULES.md §2.0.4)")
        seen |= 1 << tid
        if p.end is not None and p.end not in END_NAMES:
            raise errors.UnknownEnd(
                f"unknown end {p.end!r}: use one of {', '.join(END_NAMES)}")
    if not lay.line:
        if t.lead_id >= 0 and TILE_ID[move[0].tile] != t.lead_id:
            raise errors.WrongLead(
                f"the lead must be {TILES[t.lead_id]}, not {move[0].tile}", t.v.lead_rule(t))
        if len(move) > 1:
            raise errors.MoveNotAllowed("the lead is one tile here (RULES.md §2.0.4)",
                                        f"RULES.md {t.v.section}")
        raise errors.WrongLead(f"{move[0].tile} may not lead this round", t.v.lead_rule(t))
    for p in move:
        tid = TILE_ID[p.tile]
        shown = ", ".join(f"{END_NAMES[e]} {v}" for e, v in enumerate(lay.ends)
                          if 0 <= v <= 6) or "none"
        if p.end is None:
            fits = lay.fitting_ends(tid)
            if fits == [LEFT, RIGHT]:
                raise errors.AmbiguousEnd(
                    f"{TILES[tid]} fits both ends ({lay.ends[LEFT]} and {lay.ends[RIGHT]}): "
                    "name one")
            if len(fits) > 1:
                raise errors.AmbiguousEnd(
                    f"{TILES[tid]} fits several ends ({', '.join(END_NAMES[e] for e in fits)})"
                    ": name one")
            if not fits:
                raise errors.TileDoesNotFit(f"{TILES[tid]} matches no open end ({shown})")
        else:
            e = END_NAMES.index(p.end)
            if not lay.fits(tid, e):
                if e == GAP:
                    raise errors.TileDoesNotFit("only [0|6] fits the gap (RULES.md §2.1 rule 7)",
                                                "RULES.md §2.1")
                what = "is closed" if lay.ends[e] == -2 else (
                    "does not exist" if lay.ends[e] == -1 else f"shows {lay.ends[e]}")
                raise errors.TileDoesNotFit(
                    f"{TILES[tid]} does not fit the {p.end} end (it {what})",
                    "RULES.md §2.0.3" if lay.ends[e] == -2 else "RULES.md §1.7")
    raise errors.MoveNotAllowed(t.v.why_not(t, move), f"RULES.md {t.v.section}")


def shuffled_deal(players: int, seed: object, round_no: int, attempt: int,
                  ids: tuple[int, ...] | None = None) -> list[int]:
    """The 28 tile ids in the order of a shuffle fixed by ``(seed, round_no, attempt)``.

    Every tile gets a 64-bit key from SHAKE-128 of the seed string and the tiles are sorted
    by key: a uniform shuffle, identical on every platform and process (RULES.md §1.2).
    ``players`` is accepted for a uniform signature.  ``ids``: other tile ids to shuffle
    instead (a bigger set, a set without its engine double, RULES.md §2.10–§2.11); their
    keys come from the same seed string, salted with how many there are.
    """
    if ids is None:
        digest = hashlib.shake_128(f"kozel:{seed}:{round_no}:{attempt}".encode()).digest(224)
        return sorted(_ALL_IDS, key=_KEYS(digest).__getitem__)
    n = len(ids)
    digest = hashlib.shake_128(f"kozel:{seed}:{round_no}:{attempt}:{n}".encode()).digest(8 * n)
    keys = struct.unpack(f"<{n}Q", digest)
    return [ids[i] for i in sorted(range(n), key=keys.__getitem__)]


_ALL_IDS = tuple(range(28))
_KEYS = struct.Struct("<28Q").unpack


def misdeal_reason(hands) -> tuple[int, str, int, int | None] | None:
    """``(seat, reason, count, number)`` if the deal is void (RULES.md §1.3), else None.

    Void: a hand with 5 or more doubles (``"doubles"``), or 6 or more tiles showing one
    number, a double counting once (``"suit"``).
    """
    for seat, h in enumerate(hands):
        d = (h & DOUBLE_MASK).bit_count()
        if d >= 5:
            return seat, "doubles", d, None
        if h.bit_count() >= 6:
            for n in range(7):
                c = (h & SUIT_MASK[n]).bit_count()
                if c >= 6:
                    return seat, "suit", c, n
    return None


def holder_of_first(hands, order) -> tuple[int, int]:
    """``(seat, tile_id)`` of the first tile of ``order`` (tile ids) that a hand holds, e.g.
    the §1.5 lead order; ``(-1, -1)`` when no hand holds any."""
    held = 0
    for h in hands:
        held |= h
    for i in order:
        if held >> i & 1:
            for seat, h in enumerate(hands):
                if h >> i & 1:
                    return seat, i
    return -1, -1


