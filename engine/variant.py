"""The variant seam: what a game of the Kozel family changes, as a handful of hooks.

RULES.md §2: "A variant changes only what its section says; everything else is §1".  So
:class:`Variant` *is* classic Kozel (§1), and a variant is a small subclass that overrides
the hooks its section names, registered under its ``Rules.variant`` name with
:func:`register` — the way python-chess's variants subclass its board.

The hooks, by the time they are called:

- options: :attr:`Variant.options` (the options the variant reads, with its defaults),
  :attr:`Variant.fixed`, :meth:`Variant.players_range`, :attr:`Variant.teams`;
- the deal: :meth:`Variant.hand_size` (per player count), :meth:`Variant.lead` (the lead
  rule of each round), :meth:`Variant.deal_round` (shuffling, misdeals, void rounds dealt
  again);
- a move: :meth:`Variant.moves` (move generation over the layout, several tiles at once),
  :attr:`Variant.on_move` (play scoring on the count, a race won mid-round),
  :attr:`Variant.turn` (another turn, a forced draw for the next player),
  :meth:`Variant.stuck` (drawing, §1.8), :meth:`Variant.host_move` (§1.17);
- the end of a round: :meth:`Variant.blocked_end` (fish or a void round dealt again),
  :meth:`Variant.hand_value`, :meth:`Variant.score_round`;
- the end of the match: :meth:`Variant.result` (goats, winners, titles, eliminations and
  the rating), :meth:`Variant.timeout_result` (§1.16–§1.17);
- a layout of its own (the trains of §2.11, the sausage of §2.12): :attr:`Variant.sets`,
  :meth:`Variant.new_layout`, :meth:`Variant.begin_round` (the steps the rules force before
  a round's first decision), :attr:`Variant.play_move` (a placement and the turn that
  follows), :meth:`Variant.resolve` (a move named in part), :meth:`Variant.turn_goes_on`
  (a turn of several decisions), :meth:`Variant.public_round` (what a seat may see),
  :meth:`Variant.deal_record` (a round's deal as a record writes it).

The round core (:mod:`engine.table`) and the match (:mod:`engine.match`) call them; a
variant module never places a tile itself (its layout does: :mod:`engine.layout`,
:mod:`engine.trains`, :mod:`engine.sausage`).
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from . import errors
from .events import Dealt, Misdeal, RoundScored
from .layout import Layout
from .moves import Move, single
from .rules import CLASSIC_DEFAULTS, VARIANTS, Option
from .scoring import (
    goats_of,
    hand_value,
    race_rating,
    rating,
    record_round,
    timeout_rating,
)
from .table import Table, holder_of_first, misdeal_reason, shuffled_deal
from .tiles import HIGH, LOW, PIPS, TILE_ID, TILES, Tile, ids_of, tile_code, tiles_of

__all__ = [
    "Variant", "Race", "Classic", "VARIANTS", "register", "variant_of", "MatchResult", "RoundEnd",
    "Mark", "Flag", "LEAD_ORDER", "lead_order",
]

#: Deals tried before giving up on RULES.md §1.3 (never reached in practice: about 1 deal in
#: 50 is void).
MAX_DEALS = 1000


def lead_order(doubles: tuple[int, ...], highest_first: bool = True) -> tuple[int, ...]:
    """Tile ids in a lead order: the doubles ``[n|n]`` for n in ``doubles``, then the
    non-doubles by pip sum and then by the higher half, highest first (RULES.md §1.5:
    [5|6], [4|6], [3|6], [4|5], …) or lowest first by the lower half (§2.2 rule 1:
    [0|1], [0|2], [0|3], [1|2], …)."""
    ids = [TILE_ID[Tile(n, n)] for n in doubles]
    others = [i for i in range(28) if LOW[i] != HIGH[i]]
    if highest_first:
        others.sort(key=lambda i: (PIPS[i], HIGH[i]), reverse=True)
    else:
        others.sort(key=lambda i: (PIPS[i], LOW[i]))
    return tuple(ids + others)


#: RULES.md §1.5: [1|1], [2|2], …, [6|6], [0|0], then [5|6], [4|6], [3|6], [4|5], …
LEAD_ORDER = lead_order((1, 2, 3, 4, 5, 6, 0))


class MatchResult(NamedTuple):
    """How a match ended (RULES.md §1.15–§1.17, §2).

    ``reason``: ``"limit"`` (by the rules) or ``"timeout"``; ``goats``: goat sides;
    ``rating``: rating points per side; ``timed_out``: the seat interrupted by timeout, else
    None.  Variants: ``title`` the goats' title (``"sea"``, ``"snotty"``, ``"admiral"``,
    ``"extraordinary"``, ``"hanging"`` in Морской козёл §2.1, ``"general"`` in Генерал §2.9),
    ``winners`` the winning sides (races §2.0.7; the last player of Семёрка §2.8), ``draw``
    True when the match ended with no goat (sport domino's equal scores, §2.7).
    """

    reason: str
    goats: tuple[int, ...]
    rating: tuple[int, ...]
    timed_out: int | None
    title: str | None = None
    winners: tuple[int, ...] = ()
    draw: bool = False


class RoundEnd(NamedTuple):
    """What :meth:`Variant.score_round` returns: the match's new values and the round's
    :class:`engine.events.RoundScored` event, plus any further events (Семёрка's, §2.8);
    ``own`` the variant's new own value (:attr:`engine.match.MatchState.own`), None to keep
    it."""

    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot: int
    scored: RoundScored
    own: Any = None
    events: tuple[Any, ...] = ()


class Mark(NamedTuple):
    """Something a variant counts and shows beside points (RULES.md §2), declared in
    :attr:`Variant.marks`: ``name`` (the attribute of the variant's own value that holds
    the counts, and its key in game records), ``per`` ``"seat"`` or
    ``"side"`` (a count per player, or per scoring side, §1.14), ``limit`` the rule option
    that holds the count that ends it (None: no limit), ``leaves`` True when a seat that
    reaches the limit leaves the match (Семёрка, §2.8 rule 8).  Its texts are the locale's
    ``mark-…`` keys (``docs/ENGINE_API.md``, "Adding a variant")."""

    name: str
    per: str = "seat"
    limit: str | None = None
    leaves: bool = False


class Flag(NamedTuple):
    """Something a variant says of a round beside its marks (RULES.md §2), declared in
    :attr:`Variant.flags`: ``name`` (its texts are the locale's ``flag-<name>`` and
    ``pic-flag-<name>`` keys), ``during`` True when it is shown while the round is played
    (:meth:`Variant.round_flags`), ``at_end`` True when a scored round's summary says it
    (:meth:`Variant.end_flags`), ``names_losers`` True when its words name the round's
    losers in place of the summary's usual line of them (Генерал's general, §2.9 rule 3).
    A flag holds a short word (its value), which its texts may select on: the sea goat's
    fast lead is ``six``, ``zero`` or ``extra`` (§2.1 rules 6–7); a flag with nothing to
    select holds ``on``."""

    name: str
    during: bool = True
    at_end: bool = False
    names_losers: bool = False


class Scoring:
    """The scoring hooks of :class:`Variant` (RULES.md §1.11–§1.16), kept apart so that each
    class reads in a sitting: a variant overrides them as any other hook."""

    def hand_value(self, mask: int, rules: Any) -> int:
        """The points of a hand (RULES.md §1.11: pips; a lone [0|0] counts
        ``lone_zero_double_value``)."""
        return hand_value(mask, rules)

    def side_values(self, state: Any, t: Table) -> list[int]:
        """Hand values per side at the round's end (a team's is the sum of its hands,
        §1.14)."""
        rules = state.rules
        values = [0] * self.sides_count(state.players, rules)
        for seat, h in enumerate(t.hands):
            values[t.sides[seat]] += self.hand_value(h, rules)
        return values

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """Record the finished round (RULES.md §1.11–§1.14)."""
        rules = state.rules
        values = tuple(self.side_values(state, t))
        rec = record_round(rules, state.scores, state.remembered, state.pot, values, t.end,
                           t.sides[t.last])
        return RoundEnd(rec.scores, rec.remembered, rec.pot, self.scored_event(
            state, t, rec.hand_values, rec.recorded, rec.scores, rec.remembered,
            rec.pot_won, rec.pot))

    @staticmethod
    def scored_event(state: Any, t: Table, hand_values, recorded, scores, remembered,
                     pot_won: int, pot: int, losers=(), extra=None) -> RoundScored:
        """The :class:`engine.events.RoundScored` of a finished round."""
        return RoundScored(state.round_no, t.end, t.last, tuple(tiles_of(h) for h in t.hands),
                           tuple(hand_values), tuple(recorded), tuple(scores),
                           tuple(remembered), pot_won, pot, tuple(t.points), tuple(losers),
                           extra, t.layout.state())

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """The match's end after a recorded round, or None: RULES.md §1.15, every side whose
        open score reached ``match_limit`` is a goat; rating §1.16."""
        goats = goats_of(state.rules, end.scores)
        if not goats:
            return None
        return MatchResult("limit", goats, rating(state.rules, end.scores, goats), None)

    def timeout_result(self, state: Any, seat: int) -> MatchResult:
        """The match interrupted by timeout of ``seat`` (RULES.md §1.16–§1.17)."""
        side = self.side_of(seat, state.rules)
        return MatchResult("timeout", (), timeout_rating(state.scores, side), seat)

    def held_costs(self, rules: Any) -> tuple[float, ...]:
        """Per tile id (0..27), what still holding the tile when the round ends costs the
        holder's side, in points of this game, as the computer players weigh a tile to shed
        (``engine.ai``: the ``normal`` policy and the playouts of ``hard``).  Default: its
        pips, the points it adds to a hand's value (RULES.md §1.11: recorded against the
        holder in the goat games, given to the winner in the races, §2.0.7).  A variant whose
        hand values are not recorded, or that punishes a held tile on its own, says so."""
        return tuple(float(PIPS[t]) for t in range(28))

    def standing(self, state: Any) -> list[float]:
        """Per side, how close it is to losing the match (higher is worse), in the units of
        :meth:`standing_scale`.  Goat variants: the open score, remembered points at half
        weight (RULES.md §1.12, §1.15); races: the points behind the leader, since the side
        with the fewest points is the goat (§2.0.7).  The computer players read it to value
        a position (``engine.ai``)."""
        if self.race:
            return [-float(s) for s in state.scores]
        return [s if s > 0 else 0.5 * r for s, r in zip(state.scores, state.remembered,
                                                         strict=True)]

    def standing_scale(self, rules: Any) -> float:
        """The difference of :meth:`standing` that separates a safe side from a lost one
        (a temperature for the computer players' estimate of the goat risk) [points]: 18 for
        the limit of 101, in proportion for other limits."""
        return 18.0 * (rules.match_limit or 101) / 101


class Variant(Scoring):
    """Classic Kozel (RULES.md §1) and the base of every variant (RULES.md §2).

    Class attributes describe the variant: ``name`` (its ``Rules.variant``), ``section``
    (its rule section, e.g. ``"§2.1"``), ``layout`` (``"line"``, §2.0.1, ``"cross"``,
    §2.0.2, ``"trains"``, §2.11, or ``"sausage"``, §2.12), ``sets`` (the double-N sets it is
    played with, §2.10.2), ``closing`` (doubles may be closed, §2.0.3), ``along`` (doubles
    may lie along, §2.5 rule 3), ``teams`` (``"optional"``, ``"never"`` or ``"always"``,
    §1.14), ``players`` (``(lo, hi)``), ``race`` (the first to the limit wins, §2.0.7),
    ``options`` (the options it reads with its defaults), ``fixed`` (options whose value the
    variant forces), ``goat_word`` (the locale's word for its loser: ``goat``,
    ``sea_goat``, ``donkey``, …), ``one_tile`` (see below).

    ``options`` maps each option the variant reads to its default; an option that only this
    variant reads is given as an :class:`engine.rules.Option` (its default, its values, the
    choices a chat is offered), which the class keeps in ``own_options`` while ``options``
    keeps its default — so the variant module is the one place that declares it.
    """

    name: ClassVar[str] = ""
    section: ClassVar[str] = "§1"
    layout: ClassVar[str] = "line"
    closing: ClassVar[bool] = False
    along: ClassVar[bool] = False
    teams: ClassVar[str] = "optional"
    players: ClassVar[tuple[int, int]] = (2, 4)
    race: ClassVar[bool] = False
    options: ClassVar[dict[str, Any]] = dict(CLASSIC_DEFAULTS)
    own_options: ClassVar[dict[str, Option]] = {}
    fixed: ClassVar[dict[str, Any]] = {}
    goat_word: ClassVar[str] = "goat"
    #: The double-N sets the variant is played with (RULES.md §2.10.2): ``(6,)`` for every
    #: game but Мексиканский поезд.  ``Rules.set`` must be one of them; a variant reads the
    #: option ``set`` only where its ``options`` name it (with its default).
    sets: ClassVar[tuple[int, ...]] = (6,)
    #: The legal moves are exactly the layout's single placements, face up (RULES.md §1.7):
    #: no closing, no laying along, no moves of several tiles.  The round core then lists
    #: them without asking :meth:`generate`.
    one_tile: ClassVar[bool] = True
    #: ``on_move(table, seat, codes)``: called after a move's tiles are laid, before the out
    #: and fish checks; may score points and end a race (``table.end = "limit"``).
    on_move: ClassVar[Any] = None
    #: ``turn(table, seat, codes) -> seat``: who moves next (default: the next seat); may
    #: give another turn or make the next player draw.
    turn: ClassVar[Any] = None
    #: What the variant counts and shows beside points (:class:`Mark`), kept in its own
    #: value (:attr:`engine.match.MatchState.own`); none in classic.
    marks: ClassVar[tuple[Mark, ...]] = ()
    #: What the variant says of a round beside its marks (:class:`Flag`); none in classic.
    flags: ClassVar[tuple[Flag, ...]] = ()
    #: ``"points"``: the match is played for points (open scores, a limit, a race);
    #: ``"marks"``: only its :attr:`marks` decide it, no points are recorded (Семёрка §2.8,
    #: Генерал §2.9).
    scoring: ClassVar[str] = "points"
    #: The hand values at a round's end count for something (recorded, or deciding the
    #: round's losers); False where they are only shown (Генерал, §2.9 rule 4).
    counts_hands: ClassVar[bool] = True
    #: Event kinds after which the next ``drawn`` ``drew`` events of the event's ``seat`` are
    #: a draw the rules force (not a stuck draw, RULES.md §1.8), ``maker`` being the seat
    #: that caused it (Семёрка's 7, §2.8 rule 5).
    forced_draws: ClassVar[frozenset[str]] = frozenset()
    #: ``play_move(table, seat, codes)``: on a layout of its own kind (``layout.pos`` is
    #: :data:`engine.layout.OWN_TURNS`: the trains, the sausage), the round core hands every
    #: move to it: it lays the placement, plays what the rules force after it (draws,
    #: marks, turned-over tiles, the out, the blocked round) and sets ``table.to_act`` to the
    #: seat whose decision is awaited, or ends the round.  None on the line and the cross.
    play_move: ClassVar[Any] = None
    #: How a game record writes a round's deal (:meth:`deal_record`): ``"hands"`` (hands and
    #: a bazar, RULES.md §1.2) or ``"queues"`` (each seat's queue in order, Колбаса §2.12
    #: rule 11).
    deal_form: ClassVar[str] = "hands"
    #: RULES.md §1.3 applies: a deal with too many doubles or tiles of one number is void.
    misdeals: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "options" in cls.__dict__:  # declared here: split the own options from the defaults
            declared = cls.__dict__["options"]
            cls.own_options = {k: o for k, o in declared.items() if isinstance(o, Option)}
            cls.options = {k: (o.default if isinstance(o, Option) else o)
                           for k, o in declared.items()}

    def __init__(self) -> None:
        self._caches: dict[tuple, dict] = {}

    # ------------------------------------------------------------------ options, seats

    def players_range(self, rules: Any) -> tuple[int, int]:
        """(fewest, most) players (RULES.md §1.1; 4 and 4 with teams, §1.14)."""
        if rules.teams:
            return (4, 4)
        return self.players

    def side_of(self, seat: int, rules: Any) -> int:
        """The scoring side of a seat: the seat, or its team (RULES.md §1.14: 0-based seats
        0+2 against 1+3)."""
        return seat % 2 if rules.teams else seat

    def sides_count(self, players: int, rules: Any) -> int:
        """Number of scoring sides: players, or 2 teams (RULES.md §1.14)."""
        return 2 if rules.teams else players

    def reads_fish_without_double(self, rules: Any) -> bool:
        """Whether fish (b) applies (RULES.md §2.0.5: only where the variant reads the
        option)."""
        return "fish_without_double" in self.options and bool(rules.fish_without_double)

    def lead_rule(self, table: Table | None = None) -> str:
        """The rule a refused lead breaks, for the error message."""
        return "RULES.md §1.5" if table is None or table.lead_id >= 0 else "RULES.md §1.6"

    def turn_goes_on(self, rs: Any) -> bool:
        """Whether the seat to act in round ``rs`` is still in the turn of its last decision
        (RULES.md §2.11 rule 8: after placing a double a player places again), so that a
        host finishing a timed-out turn moves again (§2.11 rule 14).  False: one decision
        per turn (§1.7)."""
        return False

    def resolve(self, t: Table, seat: int, move: Move, legal: tuple[Move, ...]) -> Move:
        """The legal move of ``legal`` that ``move`` names on a layout of its own kind (a
        target left out where the tile has one placement, RULES.md §2.11 rule 15), or the
        :class:`engine.errors.IllegalMove` that says why it is not legal.  Only variants
        with :attr:`play_move` are asked."""
        raise errors.MoveNotAllowed(self.why_not(t, move), f"RULES.md {self.section}")

    def why_not(self, table: Table, move: Move) -> str:
        """Why a move whose tiles fit is still refused (for :class:`errors.MoveNotAllowed`)."""
        if len(move) > 1:
            return "one tile per move in this variant (RULES.md §1.7)"
        if move[0].closed:
            return "this double cannot be placed closed here (RULES.md §2.0.3)"
        if move[0].along:
            return "this double cannot be laid along here (RULES.md §2.5 rule 3)"
        return "this move is not allowed here"

    # ------------------------------------------------------------------ the deal

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each player (RULES.md §1.2: seven)."""
        return 7

    def deal_size(self, rules: Any, players: int) -> int:
        """Tiles dealt to each player under ``rules`` (the set may change it, RULES.md §2.11
        rule 2): :meth:`hand_size` by default."""
        return self.hand_size(players)

    def new_layout(self, rules: Any, players: int) -> Any:
        """The empty table of a round: a line (RULES.md §2.0.1) or, for ``layout`` ``"cross"``,
        a cross (§2.0.2) (:class:`engine.layout.Layout`).  A variant on a layout of its own
        returns that (:class:`engine.trains.Trains`, :class:`engine.sausage.Sausage`)."""
        return Layout(self.layout == "cross")

    def begin_round(self, t: Table) -> None:
        """What the rules force before the first decision of a freshly dealt round ``t``
        (its events go to ``t.events``): nothing on the line and the cross, where the leader
        leads.  Мексиканский поезд: a starter with no placement draws and marks (§2.11 rule
        8); Колбаса: the head and every turn without a choice (§2.12 rules 2, 6)."""

    def deal_record(self, rs: Any) -> dict[str, Any]:
        """The ``deal`` of the round ``rs`` as a game record writes it, taken right after the
        deal (``docs/RECORDS.md``): ``{"hands": [[tiles of seat 0], …], "bazar": [tiles in
        draw order]}`` (RULES.md §1.2)."""
        return {"hands": [[tile_code(i) for i in ids_of(h)] for h in rs.hands],
                "bazar": [tile_code(i) for i in rs.bazar]}

    def public_round(self, rs: Any, seat: int) -> Any:
        """The round ``rs`` as ``seat`` may see it (the computer players' observation): the
        other hands 0, the bazar empty and nothing reserved (RULES.md §1.2, §1.4, §1.8)."""
        hands = tuple(h if s == seat else 0 for s, h in enumerate(rs.hands))
        return rs._replace(hands=hands, bazar=(), reserve_mask=0)

    def start(self, rules: Any, players: int) -> dict[str, Any]:
        """The match's values before its first round: per side ``scores`` and
        ``remembered`` of 0, ``pot`` 0 (RULES.md §1.12, §1.13), and ``own``, whatever the
        variant keeps (:attr:`engine.match.MatchState.own`; a named tuple with an attribute
        per :class:`Mark`)."""
        n = self.sides_count(players, rules)
        return {"scores": (0,) * n, "remembered": (0,) * n, "pot": 0}

    def mark_counts(self, state: Any) -> dict[str, tuple[int, ...]]:
        """The count of every :class:`Mark` of the variant, per seat or per side as the mark
        is counted, e.g. ``{name: (0, 2, 1)}``; ``{}`` in classic."""
        own = state.own
        return {m.name: tuple(getattr(own, m.name)) for m in self.marks}

    def with_marks(self, state: Any, given: dict[str, Any]) -> Any:
        """The variant's own value of ``state`` with the counts of marks ``given`` by name (a
        starting position: game records, tests).  Raises ``ValueError`` for a mark the
        variant does not have or a count that is not one non-negative integer per seat or
        side."""
        out = {}
        for name, counts in given.items():
            mark = next((m for m in self.marks if m.name == name), None)
            if mark is None:
                raise ValueError(f"start.{name}: the variant {self.name} counts no {name} "
                                 f"(RULES.md {self.section})")
            n = state.players if mark.per == "seat" else state.sides
            counts = tuple(counts)
            if len(counts) != n or any(type(x) is not int or x < 0 for x in counts):
                raise ValueError(f"start.{name} must list {n} non-negative integers")
            out[name] = counts
        return state.own._replace(**out)

    def round_flags(self, rs: Any) -> tuple[tuple[str, str], ...]:
        """``(name, value)`` of every :class:`Flag` shown ``during`` the round ``rs`` (an
        :class:`engine.table.RoundState`) that holds now; none in classic."""
        return ()

    def end_flags(self, scored: Any) -> tuple[tuple[str, str], ...]:
        """``(name, value)`` of every :class:`Flag` shown ``at_end`` that holds for the round
        the :class:`engine.events.RoundScored` event ``scored`` recorded: by default each
        such flag whose name is a key of the event's ``extra`` with a true value (the value
        written as a word, ``on`` for ``True``)."""
        extra = scored.extra or {}
        return tuple((f.name, "on" if extra[f.name] is True else str(extra[f.name]))
                     for f in self.flags if f.at_end and extra.get(f.name))

    def report(self, state: Any) -> dict[str, Any]:
        """What a replay's summary says of the match at its top besides the result
        (``docs/ENGINE_API.md``, "Game records"): the count of every :class:`Mark` by its
        name, as lists."""
        return {name: list(counts) for name, counts in self.mark_counts(state).items()}

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """``(leader, lead tile id or -1, fast lead or None)`` of the round ``round_no`` about
        to be led from ``hands``; ``state.round`` is the previous round (RULES.md §1.5: the
        first lead of a match is forced; §1.6: later, who went out or fished leads any
        tile)."""
        if round_no == 1:
            seat, tid = holder_of_first(hands, LEAD_ORDER)
            return seat, tid, None
        return state.round.last, -1, None

    def fixed_rounds(self, rules: Any) -> int | None:
        """The number of rounds the match lasts where the variant fixes it (sport domino's
        ``deals``, RULES.md §2.7), else None (the match ends by its limit, §1.15)."""
        return None

    def playing_seats(self, state: Any) -> tuple[int, ...]:
        """The seats dealt in this round, in turn order (all of them, RULES.md §1.1)."""
        return tuple(range(state.players))

    def limits(self, state: Any) -> tuple[int, ...]:
        """Per side, the points that end a race mid-round (RULES.md §2.0.7); () otherwise."""
        return ()

    def new_table(self, state: Any, hands: tuple[int, ...], bazar: tuple[int, ...],
                  round_no: int, events: list | None = None) -> Table:
        """The table of a dealt round: its lead (:meth:`lead`), seats, race limits."""
        rules = state.rules
        leader, lead_id, fast = self.lead(state, hands, round_no)
        return Table(rules, state.players, list(hands), bazar, rules.bazar_reserve, leader,
                     lead_id=lead_id, seats=self.playing_seats(state),
                     limits=self.limits(state), fast=fast, events=events,
                     chance=f"{state.seed}:{round_no}")

    def split_deal(self, state: Any, order: list[int]) -> tuple[tuple[int, ...],
                                                                 tuple[int, ...]]:
        """Hands and bazar from a shuffled order: :meth:`hand_size` tiles to each playing
        seat in seat order, the rest is the bazar in draw order (RULES.md §1.2)."""
        size = self.hand_size(state.players)
        hands = [0] * state.players
        k = 0
        for seat in self.playing_seats(state):
            m = 0
            for i in order[k:k + size]:
                m |= 1 << i
            hands[seat] = m
            k += size
        return tuple(hands), tuple(order[k:])

    def deal_round(self, state: Any, round_no: int) -> tuple[Table, list]:
        """Deal round ``round_no`` from the match's seed, dealing void deals again (RULES.md
        §1.2, §1.3).  Returns the table and the ``misdeal``/``dealt`` events (and those of
        :meth:`begin_round`)."""
        events: list = []
        for attempt in range(MAX_DEALS):
            order = shuffled_deal(state.players, state.seed, round_no, attempt)
            hands, bazar = self.split_deal(state, order)
            found = misdeal_reason(hands)
            if found is None:
                t = self.new_table(state, hands, bazar, round_no)
                events.append(self.dealt_event(t, round_no))
                self.start_round(t, events)
                return t, events
            events.append(Misdeal(round_no, *found))
        raise RuntimeError("no valid deal found")  # pragma: no cover

    def start_round(self, t: Table, events: list) -> None:
        """Run :meth:`begin_round` on a freshly dealt table, its events going to ``events``
        (after the ``dealt`` event)."""
        if type(self).begin_round is Variant.begin_round:
            return
        t.events = events
        self.begin_round(t)
        t.events = None

    @staticmethod
    def dealt_event(t: Table, round_no: int) -> Dealt:
        """The :class:`engine.events.Dealt` event of a fresh table."""
        lead = TILES[t.lead_id] if t.lead_id >= 0 else None
        return Dealt(round_no, t.to_act, lead, t.drawable, t.reserve)

    # ------------------------------------------------------------------ moves

    def generate(self, t: Table) -> tuple[Move, ...]:
        """The legal moves of ``t.to_act``: single placements on the layout
        (:meth:`engine.layout.Layout.placements`, with closing/along where the variant
        allows them) plus :meth:`extra_moves` (RULES.md §1.7, §2.0.4).  The round core
        caches the answer (:meth:`engine.table.Table.moves`): it may depend only on the
        hand's tiles that fit, the open ends and :meth:`move_key`."""
        lay = t.layout
        hand = t.hands[t.to_act]
        out = [single(tid, e, c, a) for tid, e, c, a in
               lay.placements(hand, closing=self.closing, along=self.along,
                              lead_id=t.lead_id)]
        out.extend(self.extra_moves(t))
        return tuple(out)

    def move_key(self, t: Table) -> int:
        """What besides the hand and the open ends the moves depend on, as a small integer
        (< 2**11; the round's phase, its fast lead, ...): 0 in classic.  A variant that
        changes it during a round sets ``t.mkey`` again."""
        return 0

    def move_cache(self, rules: Any) -> dict:
        """The cache of :meth:`generate`'s answers for ``rules`` (one per set of options
        that can change them: :meth:`cache_options`)."""
        key = self.cache_options(rules)
        cache = self._caches.get(key)
        if cache is None:
            cache = self._caches[key] = {}
        return cache

    def cache_options(self, rules: Any) -> tuple:
        """The options that change the legal moves (e.g. ``multi_doubles``); () in classic."""
        return ()

    def extra_moves(self, t: Table) -> list[Move]:
        """Moves of several tiles (RULES.md §2.0.4); none in classic (§1.7)."""
        return []

    def stuck(self, t: Table, seat: int) -> bool:
        """``seat`` has no move: RULES.md §1.8, draw until a drawn tile fits (True) or knock
        (False)."""
        return t.draw_until_fit(seat)

    def blocked_end(self, t: Table, cause: str) -> str:
        """What a blocked layout ends (RULES.md §1.10, §2.0.5): ``"fish"`` or ``"void"``."""
        return "fish"

    def host_move(self, t: Table) -> Move:
        """The host's move for a timed-out player (RULES.md §1.17): the playable tile with the
        most pips (ties: the higher half), face up and across, on the first end it fits in
        the engine's order (left before right); where only moves of several tiles are legal,
        the one with the most pips."""
        moves = t.moves()
        singles = [m for m in moves if len(m) == 1 and not (m.closed or m.along)]
        best = None
        key: tuple[int, int] = (-1, -1)
        for m in singles or moves:
            k = (sum(PIPS[c[0]] for c in m.codes), HIGH[m.codes[0][0]])
            if k > key:
                best, key = m, k
        return best


class Race(Variant):
    """The base of the race variants (RULES.md §2.0.7: Телефон, Маггинс, traditional
    domino): the first side to ``match_limit`` wins, the goat is the side with the fewest
    points (all tied sides), hand values are plain pip sums ([0|0] is 0).  A race that scores
    during play also overrides :meth:`limits`, so that reaching the limit mid-round ends it
    (``end`` ``"limit"``)."""

    race = True

    def hand_value(self, mask: int, rules: Any) -> int:
        """The plain pip sum of a hand; [0|0] is 0, alone too (RULES.md §2.0.7)."""
        return sum(PIPS[i] for i in ids_of(mask))

    def out_points(self, others: int) -> int:
        """Round-end points of the out side, from ``others``: the sum of the other sides'
        hands (a partner's does not count) [points]; traditional domino scores them as they
        are (RULES.md §2.6 rule 3)."""
        return others

    def fish_points(self, margin: int) -> int:
        """Round-end points of the side with the strictly lowest hand after a fish, from
        ``margin``: the sum of the other sides' hands minus its own [points] (RULES.md §2.6
        rule 3: as they are)."""
        return margin

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.4 rule 3, §2.5 rule 5, §2.6 rule 3: an out scores :meth:`out_points`
        for the out side; a fish scores :meth:`fish_points` for the side with the strictly
        lowest hand (a tie scores nothing); a race won mid-round (``"limit"``) scores only
        its play points (§2.0.7).  The scores add the points on the count of the round
        (``play_points``, where the race scores during play) and the round-end points
        (``recorded``)."""
        values = self.side_values(state, t)
        n = len(values)
        pts = [0] * n
        if t.end == "out":
            side = t.sides[t.last]
            pts[side] = self.out_points(sum(values) - values[side])
        elif t.end == "fish":
            low = min(values)
            if values.count(low) == 1:
                side = values.index(low)
                pts[side] = self.fish_points(sum(values) - low - low)
        scores = tuple(s + p + q for s, p, q in zip(state.scores, t.points, pts, strict=True))
        zeros = (0,) * n
        extra = {"play_points": tuple(t.points)} if self.on_move is not None else None
        return RoundEnd(scores, zeros, 0, self.scored_event(
            state, t, values, pts, scores, zeros, 0, 0, extra=extra))

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """RULES.md §2.0.7: the match ends once a side's score has reached ``match_limit``
        (the ``winners``); the goats are the sides with the fewest points; rating: goat 0,
        every other side max(1, round_half_up((score − goat's score) × 10 / match_limit))."""
        limit = state.rules.match_limit
        scores = end.scores
        winners = tuple(s for s, v in enumerate(scores) if v >= limit)
        if not winners:
            return None
        low = min(scores)
        goats = tuple(s for s, v in enumerate(scores) if v == low)
        return MatchResult("limit", goats, race_rating(scores, low, goats, limit), None,
                           winners=winners)

    def timeout_result(self, state: Any, seat: int) -> MatchResult:
        """The race interrupted by timeout of ``seat`` (RULES.md §1.16–§1.17; §2.0.7 does not
        say): the race rating with the timed-out side in the goat's place — 0 for it, every
        other side max(1, round_half_up((score − S_t) × 10 / match_limit)), S_t being the
        timed-out side's score (§1.16's form would reward the sides behind)."""
        side = self.side_of(seat, state.rules)
        return MatchResult("timeout", (), race_rating(
            state.scores, state.scores[side], (side,), state.rules.match_limit), seat)


def register(cls: type[Variant]) -> type[Variant]:
    """Register a variant class under its ``name`` in :data:`engine.rules.VARIANTS` (a class
    decorator)."""
    VARIANTS[cls.name] = cls()
    return cls


def variant_of(rules: Any) -> Variant:
    """The variant object of ``rules``."""
    return VARIANTS[rules.variant]


@register
class Classic(Variant):
    """Classic Kozel (RULES.md §1) and its team play (§1.14)."""

    name = "classic"
    section = "§1"
