"""The trains of Мексиканский поезд: one train per seat and the Mexican train, all from the
engine double, with owners, markers and open doubles (RULES.md §2.11 rules 4–7, 10).

One class, :class:`Trains`, owns every rule of *where a tile goes* in that game: which trains a
seat may play on (its own, the Mexican train, the public trains of the others), what each
train's open end shows, the doubles left open and the order in which they must be satisfied,
and when the table is blocked.  Nothing else in the engine places a tile on a train.

A :class:`Trains` is mutable (the round core reuses it placement after placement);
:meth:`Trains.state` gives the immutable :class:`TrainsState` that the engine's API passes
around, and :meth:`TrainsState.to_layout` turns one back.

Trains are numbered by index: seat ``s``'s own train is index ``s`` (0-based), the Mexican
train index ``players``; in moves and records a seat's train is its seat and the Mexican
train ``"mexican"`` (target codes :data:`engine.moves.TRAIN` + seat and
:data:`engine.moves.MEXICAN`).
"""

from __future__ import annotations

from typing import NamedTuple

from .moves import MEXICAN, TRAIN
from .tiles import ALL_HIGH, ALL_LOW, ALL_TILES, DOUBLE_ID, SUITS, ids_of

__all__ = ["Trains", "TrainsState", "MEXICAN_NAME"]

#: The name of the Mexican train in moves, records and views (RULES.md §2.11 rule 15).
MEXICAN_NAME = "mexican"

_IS_DOUBLE = tuple(ALL_LOW[t] == ALL_HIGH[t] for t in range(len(ALL_TILES)))
_DOUBLE_BIT = tuple(1 << i for i in DOUBLE_ID)


class TrainsState(NamedTuple):
    """An immutable snapshot of the trains (compare with ``==``), RULES.md §2.11 rules 4–7.

    - ``engine``: the engine number *e* of the round (the engine double [e|e] lies in the
      middle, rule 1).
    - ``trains``: per seat (0-based), that seat's personal train as oriented ``(a, b)``
      pairs outward from the engine, ``a`` touching what precedes it (the first tile's ``a``
      is *e*); ``mexican``: the Mexican train likewise.
    - ``ends``: per seat, the number the open end of its train shows (*e* while it is empty);
      ``mexican_end`` that of the Mexican train.
    - ``public``: per seat, True while its train carries the marker (public, rule 5).
    - ``open_doubles``: the trains whose last tile is an open double, oldest first (rule 7),
      each a seat or ``"mexican"``.
    - ``mask``: bit mask of the tiles on the table, the engine included; ``last_mask``: the
      tile of the last placement.
    """

    engine: int
    trains: tuple[tuple[tuple[int, int], ...], ...]
    mexican: tuple[tuple[int, int], ...]
    ends: tuple[int, ...]
    mexican_end: int
    public: tuple[bool, ...]
    open_doubles: tuple[int | str, ...]
    mask: int
    last_mask: int

    #: The kind of layout (``LayoutState.kind`` is ``"line"`` or ``"cross"``).
    kind = "trains"

    @property
    def players(self) -> int:
        """The number of personal trains (seats)."""
        return len(self.trains)

    @property
    def oldest_open(self) -> int | str | None:
        """The train of the oldest open double (rule 7), or None when none is open."""
        return self.open_doubles[0] if self.open_doubles else None

    def train(self, key: int | str) -> tuple[tuple[int, int], ...]:
        """The tiles of train ``key`` (a seat, or ``"mexican"``)."""
        return self.mexican if key == MEXICAN_NAME else self.trains[key]

    def end(self, key: int | str) -> int:
        """The number train ``key``'s open end shows (rule 4)."""
        return self.mexican_end if key == MEXICAN_NAME else self.ends[key]

    def available(self, seat: int) -> tuple[int | str, ...]:
        """The trains ``seat`` may play on when no double is open (rule 6): its own, the
        Mexican train, and every public train of another seat, in seat order."""
        return tuple(s for s in range(len(self.trains)) if s == seat or self.public[s]) + \
            (MEXICAN_NAME,)

    @property
    def tiles(self) -> int:
        """How many tiles lie on the table, the engine included."""
        return 1 + sum(len(t) for t in self.trains) + len(self.mexican)

    def to_layout(self) -> Trains:
        """A mutable :class:`Trains` equal to this snapshot."""
        return Trains.from_state(self)


class Trains:
    """The trains of one round on the table (RULES.md §2.11 rules 4–7), mutable.

    ``Trains(players, engine)`` is the table of a new round: the engine double [e|e] in the
    middle and every train empty, private, showing *e*.  Attributes as in
    :class:`TrainsState`, with the Mexican train as the last entry of ``lines`` and ``ends``
    (index ``players``), and ``open`` the indices of the trains with an open double, oldest
    first.  ``pos`` is -2: the round core leaves the moves and the turns to the variant
    (:attr:`engine.layout.OWN_TURNS`).  Methods never check legality: :meth:`placements`
    lists what may go where, and the variant checks a move against it before :meth:`place`.
    """

    __slots__ = ("players", "engine", "lines", "ends", "public", "open", "mask", "last_mask")

    #: The round core's fast path never applies (:data:`engine.layout.OWN_TURNS`).
    pos = -2

    def __init__(self, players: int, engine: int) -> None:
        self.players = players
        self.engine = engine
        self.lines: list[list[tuple[int, int]]] = [[] for _ in range(players + 1)]
        self.ends = [engine] * (players + 1)
        self.public = [False] * players
        self.open: list[int] = []
        self.mask = 1 << DOUBLE_ID[engine]
        self.last_mask = 0

    # ------------------------------------------------------------------ values

    def copy(self) -> Trains:
        """An independent copy."""
        c = Trains.__new__(Trains)
        c.players = self.players
        c.engine = self.engine
        c.lines = [list(x) for x in self.lines]
        c.ends = list(self.ends)
        c.public = list(self.public)
        c.open = list(self.open)
        c.mask = self.mask
        c.last_mask = self.last_mask
        return c

    def key(self, index: int) -> int | str:
        """The name of train ``index`` in moves and views: a seat, or ``"mexican"``."""
        return MEXICAN_NAME if index == self.players else index

    def state(self) -> TrainsState:
        """The immutable snapshot."""
        n = self.players
        return TrainsState(self.engine, tuple(tuple(x) for x in self.lines[:n]),
                           tuple(self.lines[n]), tuple(self.ends[:n]), self.ends[n],
                           tuple(self.public), tuple(self.key(i) for i in self.open),
                           self.mask, self.last_mask)

    @classmethod
    def from_state(cls, st: TrainsState) -> Trains:
        """A mutable table equal to the snapshot ``st``."""
        t = cls.__new__(cls)
        n = len(st.trains)
        t.players = n
        t.engine = st.engine
        t.lines = [list(x) for x in st.trains] + [list(st.mexican)]
        t.ends = list(st.ends) + [st.mexican_end]
        t.public = list(st.public)
        t.open = [n if k == MEXICAN_NAME else k for k in st.open_doubles]
        t.mask = st.mask
        t.last_mask = st.last_mask
        return t

    @staticmethod
    def code(index: int, players: int) -> int:
        """The target code of train ``index`` (:mod:`engine.moves`)."""
        return MEXICAN if index == players else TRAIN + index

    def index(self, code: int) -> int:
        """The train index of target code ``code``; -1 when it names no train of this
        table."""
        if code == MEXICAN:
            return self.players
        i = code - TRAIN
        return i if 0 <= i < self.players else -1

    # ------------------------------------------------------------------ rules

    def available(self, seat: int) -> list[int]:
        """The indices of the trains ``seat`` may play on when no double is open (rule 6):
        its own, every public train of another seat (in seat order), and the Mexican
        train."""
        pub = self.public
        return [s for s in range(self.players) if s == seat or pub[s]] + [self.players]

    def placements(self, seat: int, hand: int, after_double: bool
                   ) -> list[tuple[int, int]]:
        """Every legal placement of a tile of ``hand`` (a mask) for ``seat`` as ``(tile_id,
        train index)``, by tile ([a|b] in order) and then by train index (RULES.md §2.11
        rules 4–7).

        While a double is open: the tiles showing the oldest open double's number, on its
        train (rule 7 a), and — when ``after_double``, the seat's latest placement of this
        turn being a double — every double of the hand on an available train whose open end
        shows its number (rule 7 b).  Otherwise every tile on every available train whose
        open end one of its halves shows (rules 4–6)."""
        ends = self.ends
        out: list[tuple[int, int]] = []
        if self.open:
            oldest = self.open[0]
            for t in ids_of(hand & SUITS[ends[oldest]]):
                out.append((t, oldest))
            if after_double:
                for i in self.available(seat):
                    bit = _DOUBLE_BIT[ends[i]]
                    if hand & bit:
                        out.append((DOUBLE_ID[ends[i]], i))
        else:
            for i in self.available(seat):
                for t in ids_of(hand & SUITS[ends[i]]):
                    out.append((t, i))
        if hand >> 28:
            out.sort(key=lambda p: (ALL_LOW[p[0]], ALL_HIGH[p[0]], p[1]))
        else:
            out.sort()
        return out

    def can_place(self, seat: int, hand: int, after_double: bool) -> bool:
        """Whether :meth:`placements` would list anything (rules 4–7), without listing."""
        ends = self.ends
        if self.open:
            if hand & SUITS[ends[self.open[0]]]:
                return True
            if not after_double:
                return False
            return any(hand & _DOUBLE_BIT[ends[i]] for i in self.available(seat))
        pub = self.public
        for i in range(self.players):
            if (i == seat or pub[i]) and hand & SUITS[ends[i]]:
                return True
        return bool(hand & SUITS[ends[self.players]])

    def fit(self) -> int:
        """Bit mask of the tiles that would fit now, whoever held them (RULES.md §2.11 rule
        10): the tiles showing the oldest open double's number, or, with none open, those
        that fit the open end of any train (private or public, and the Mexican train)."""
        if self.open:
            return SUITS[self.ends[self.open[0]]]
        m = 0
        for v in set(self.ends):
            m |= SUITS[v]
        return m & ~self.mask

    def blocked(self, hands) -> bool:
        """Rule 10 (b) for a bazar that is empty: no hand holds a tile that :meth:`fit`."""
        fit = self.fit()
        for h in hands:
            if h & fit:
                return False
        return True

    def place(self, tid: int, index: int) -> None:
        """Lay tile ``tid`` on train ``index`` (rules 4 and 7): the half that shows the
        train's open end touches it; a placement on an open double satisfies it; a double
        becomes an open double, the newest.  The caller has checked the placement
        (:meth:`placements`).  The tile becomes ``last_mask``."""
        n = self.ends[index]
        a, b = ALL_LOW[tid], ALL_HIGH[tid]
        other = b if a == n else a
        self.lines[index].append((n, other))
        self.ends[index] = other
        if self.open and index in self.open:
            self.open.remove(index)
        if _IS_DOUBLE[tid]:
            self.open.append(index)
        bit = 1 << tid
        self.mask |= bit
        self.last_mask = bit
