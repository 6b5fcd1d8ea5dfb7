"""A match: rounds until the variant's end — a goat, a race's winner, the last deal — or
until a timeout interrupts it (RULES.md §1, §2).

:func:`new_match` deals the first round, :func:`apply` takes one decision of the seat to act,
:func:`apply_host_move` moves for a seat whose turn timed out (§1.17).  States are immutable
named tuples; every call returns ``(new_state, events)``.  A seed and the list of decisions
reproduce a match exactly.  Every rule is the variant's (:mod:`engine.variant`) and the round
core's (:mod:`engine.table`); this module only strings rounds together.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import errors
from .events import HostMoved, MatchEnded
from .moves import Move
from .rules import Rules
from .table import RoundState, Table, remember, table_of
from .tiles import TILE_ID, TILES, Tile, tiles_of
from .variant import MatchResult, RoundEnd

__all__ = [
    "MatchResult",
    "MatchState",
    "new_match",
    "start_match",
    "legal_moves",
    "apply",
    "apply_host_move",
    "host_move",
    "deal_next",
    "deal_given",
    "deal_from_seed",
]


class MatchState(NamedTuple):
    """The whole state of a match.  Immutable; compare with ``==``.

    - ``rules``, ``players``, ``seed``; ``round_no`` (1-based, every dealt round counts, void
      ones too); ``round``: the current :class:`engine.table.RoundState`.
    - ``scores``/``remembered`` per side (player, or team with ``rules.teams``, §1.14),
      ``pot`` (§1.13) [points].
    - ``afk``: each seat's consecutive host moves (§1.17); ``version``: accepted decisions so
      far; ``result``: the :class:`engine.variant.MatchResult` once the match is over.
    - ``own``: what the variant keeps between rounds (RULES.md §2), a value of its own
      (immutable; None in classic) — the marks it counts beside points
      (:attr:`engine.variant.Variant.marks`, each an attribute of it), the rounds played, …;
      only the variant reads it (:meth:`engine.variant.Variant.start`).
    """

    rules: Rules
    players: int
    seed: object
    round_no: int
    round: RoundState
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot: int
    afk: tuple[int, ...]
    version: int
    result: MatchResult | None
    own: Any = None

    # -- read-only views ------------------------------------------------------------------
    @property
    def variant(self):
        """The :class:`engine.variant.Variant` of the match."""
        return self.rules.spec

    @property
    def finished(self) -> bool:
        """True once the match has ended (RULES.md §1.15, §1.17)."""
        return self.result is not None

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited, or None when the match is over."""
        if self.result is not None or self.round.to_act < 0:
            return None
        return self.round.to_act

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's hand, sorted.  Hidden information: show a hand to its seat only."""
        return tuple(tiles_of(h) for h in self.round.hands)

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """One seat's hand, sorted (RULES.md §0)."""
        return tiles_of(self.round.hands[seat])

    def hand_sizes(self) -> tuple[int, ...]:
        """Tiles left in each hand (public)."""
        return tuple(h.bit_count() for h in self.round.hands)

    @property
    def layout(self):
        """The tiles on the table: a :class:`engine.layout.LayoutState` (the line and the
        cross, RULES.md §2.0), :class:`engine.trains.TrainsState` (§2.11) or
        :class:`engine.sausage.SausageState` (§2.12); ``layout.kind`` says which."""
        return self.round.layout

    @property
    def chain(self) -> tuple[tuple[int, int], ...]:
        """The line as oriented ``(a, b)`` pairs, left to right (RULES.md §0); () on the
        trains and the sausage (§2.11, §2.12)."""
        return self.round.chain

    @property
    def ends(self) -> tuple[int, ...]:
        """``()`` before the lead, else the (left, right) numbers of the line's ends (-2 for
        a closed end)."""
        return self.round.line.ends

    @property
    def bazar(self) -> tuple[Tile, ...]:
        """The bazar in draw order.  Hidden information."""
        return tuple(TILES[i] for i in self.round.bazar)

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn (RULES.md §1.4)."""
        return self.round.drawable

    @property
    def reserve(self) -> int:
        """Tiles of the bazar that may never be drawn (RULES.md §1.4)."""
        return self.round.reserve

    @property
    def sides(self) -> int:
        """Number of scoring sides (RULES.md §1.14)."""
        return self.rules.spec.sides_count(self.players, self.rules)

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat`` (RULES.md §1.14)."""
        return self.rules.spec.side_of(seat, self.rules)


def _initial(rules: Rules, players: int, seed: object, **given: Any) -> MatchState:
    v = rules.spec
    start = v.start(rules, players)
    start.update({k: tuple(x) if isinstance(x, list) else x for k, x in given.items()
                  if x is not None})
    placeholder = Table(rules, players, [0] * players, (), 0, 0).state()
    return MatchState(rules, players, seed, 1, placeholder, tuple(start["scores"]),
                      tuple(start["remembered"]), start["pot"], (0,) * players, 0, None,
                      start.get("own"))


def new_match(rules: Rules, players: int, seed: object) -> tuple[MatchState, list]:
    """Start a match: deal the first round from ``seed`` (RULES.md §1.2–§1.5 and the
    variant's deal and lead).

    ``players`` as the variant allows (2..4; 4 with teams; 2..8 in Мексиканский поезд, 2 in
    Колбаса); ``seed`` any int or str.  A round that the rules play to its end before any
    decision (Колбаса) is recorded within the call and the next one dealt.  Returns
    ``(state, events)``; raises ``ValueError`` for a bad number of players.
    """
    rules.check_players(players)
    state = _initial(rules, players, seed)
    t, events = rules.spec.deal_round(state, 1)
    state = state._replace(round=remember(t.state(), t))
    if t.end is not None:  # a round the rules played to its end without a decision
        state = _finish_round(state, t, events, True)
    return state, events


def start_match(rules: Rules, players: int, round_state: RoundState | None = None,
                seed: object = None, scores=None, remembered=None, pot: int = 0,
                own: Any = None, **marks: Any) -> MatchState:
    """A match whose first round is the given position (game records, tests).

    ``scores``/``remembered`` per side and ``pot`` give a starting position [points];
    ``own`` the variant's own value (:attr:`MatchState.own`, default its start); ``marks``
    the counts of the variant's marks by name, per seat or per side as the mark is counted
    (:attr:`engine.variant.Variant.marks`; Семёрка's per player, §2.8).  The round
    takes the race limits of the starting scores (:meth:`engine.variant.Variant.limits`).
    Without ``round_state`` the match waits for :func:`deal_given`.  Raises ``ValueError`` when the
    shapes do not match the sides or a mark is not the variant's.
    """
    rules.check_players(players)
    spec = rules.spec
    n = spec.sides_count(players, rules)
    for name, v in (("scores", scores), ("remembered", remembered)):
        if v is not None and (len(v) != n or any(type(x) is not int or x < 0 for x in v)):
            raise ValueError(f"start.{name} must list {n} non-negative integers")
    if type(pot) is not int or pot < 0:
        raise ValueError("start.pot must be a non-negative integer")
    state = _initial(rules, players, seed, scores=scores, remembered=remembered, pot=pot,
                     own=own)
    given = {k: x for k, x in marks.items() if x is not None}
    if given:
        state = state._replace(own=spec.with_marks(state, given))
    if round_state is not None:
        v = rules.spec
        if round_state.rules != rules:  # a position written for other rules: seat it here
            round_state = round_state._replace(
                rules=rules, sides=tuple(v.side_of(s, rules) for s in range(players)),
                points=(0,) * n)
        # a race ends mid-round at the limits of the starting scores (RULES.md §2.0.7)
        state = state._replace(round=round_state._replace(limits=v.limits(state)))
    return state


def legal_moves(state: MatchState) -> tuple[Move, ...]:
    """Every legal decision of ``state.to_act`` and nothing else (RULES.md §1.5–§1.7,
    §2.0.4); empty when the match is over."""
    if state.result is not None:
        return ()
    rs = state.round
    if rs.to_act < 0:
        return ()
    return table_of(rs, copy=False).moves()


def deal_next(state: MatchState, round_state: RoundState) -> MatchState:
    """The match moved on to ``round_state`` as its next round (round number + 1)."""
    return state._replace(round_no=state.round_no + 1, round=round_state)


def deal_given(state: MatchState, hands: tuple, bazar: tuple[int, ...],
               *, first: bool = False) -> tuple[MatchState, list]:
    """Deal the next round (or, with ``first``, the first) from given hands and bazar, e.g.
    a game record's deal: the variant's lead rule picks the leader (RULES.md §1.5, §1.6).
    ``hands``: a tile mask per seat; in Колбаса (RULES.md §2.12) each seat's queue as tile
    ids, front first, and ``bazar`` ().  Returns ``(state, [dealt event, …])``: the steps the
    rules force before the first decision follow the ``dealt`` event
    (:meth:`engine.variant.Variant.begin_round`)."""
    v = state.rules.spec
    round_no = state.round_no if first else state.round_no + 1
    t = v.new_table(state, tuple(hands), tuple(bazar), round_no)
    events = [v.dealt_event(t, round_no)]
    v.start_round(t, events)
    state = state._replace(round_no=round_no, round=remember(t.state(), t))
    if t.end is not None:  # the rules played the round to its end: it is recorded now
        state = _finish_round(state, t, events, False)
    return state, events


def deal_from_seed(state: MatchState, *, first: bool = False) -> tuple[MatchState, list]:
    """Deal the next round (or, with ``first``, the first) from the match's seed, as
    :func:`apply` does, for a match whose finished round was kept with ``deal=False`` (or a
    match from :func:`start_match` without a round).  A round that the rules play to its end
    before any decision (Колбаса, RULES.md §2.12 rule 6) is recorded at once and kept as it
    finished.  Returns ``(state, events)``."""
    v = state.rules.spec
    round_no = state.round_no if first else state.round_no + 1
    t, events = v.deal_round(state, round_no)
    state = state._replace(round_no=round_no, round=remember(t.state(), t))
    if t.end is not None:
        state = _finish_round(state, t, events, False)
    return state, events


def apply(state: MatchState, seat: int, move: Move, *, deal: bool = True,
          take: list[Tile] | None = None, _host: bool = False) -> tuple[MatchState, list]:
    """Apply one decision of ``seat`` and everything the rules force after it.

    ``move`` is a :class:`engine.moves.Move`.  After the move the engine plays the forced
    steps (draws and knocks §1.8, the variant's effects); a finished round is scored and,
    unless the match is over, the next round is dealt from the seed — unless ``deal`` is
    False, in which case the state keeps the finished round (``to_act`` is None) until
    :func:`deal_next`/:func:`deal_given` supplies one (game records give their own deals).
    ``take``: the tiles a record gives for Семёрка's blind take (RULES.md §2.8 rule 5);
    ``[]`` for a record that gives none (a take that leaves a choice is then refused); None
    in a live match, where the engine picks them from the match's seed.

    Returns ``(new_state, events)``.  Raises a subclass of :class:`engine.errors.IllegalMove`
    (``NotYourTurn``, ``TileNotInHand``, ``TileDoesNotFit``/``WrongLead``, ``UnknownEnd``/
    ``AmbiguousEnd``, ``MoveNotAllowed``, ``RoundOver``); ``state`` is never modified.
    """
    if state.result is not None:
        raise errors.RoundOver("the match is over")
    if not isinstance(move, Move):
        raise errors.IllegalMove("a decision must be a Move (RULES.md §2.0.4)")
    events: list = []
    t = table_of(state.round, events, chance=f"{state.seed}:{state.round_no}")
    if take is not None:
        t.take = [TILE_ID[x] for x in take]
    t.apply(seat, move)
    if t.take:
        raise errors.IllegalMove("the record gives a take that the rules do not call for "
                                 "(RULES.md §2.8 rule 5)", "RULES.md §2.8")
    version = state.version + 1
    afk = state.afk
    if not _host and afk[seat]:
        afk = afk[:seat] + (0,) + afk[seat + 1:]
    t.events = None
    if t.end is None:
        return state._replace(round=remember(t.state(), t), afk=afk, version=version), events
    return _finish_round(state._replace(afk=afk, version=version), t, events, deal), events


def _finish_round(state: MatchState, t: Table, events: list, deal: bool) -> MatchState:
    """Score a finished round (the variant's :meth:`score_round`), then end the match or,
    with ``deal``, deal the next round.  A round that the rules play to its end before any
    decision (Колбаса, RULES.md §2.12 rule 6: every turn without a choice) is scored at once
    and the next one dealt."""
    v = state.rules.spec
    while True:
        rs = t.state()
        end: RoundEnd = v.score_round(state._replace(round=rs), t)
        events.append(end.scored)
        events.extend(end.events)
        state = state._replace(
            round=rs, scores=end.scores, remembered=end.remembered, pot=end.pot,
            own=end.own if end.own is not None else state.own)
        result = v.result(state, end)
        if result is not None:
            events.append(MatchEnded(result.reason, result.goats, result.rating, None,
                                     state.scores, result.title, result.winners))
            return state._replace(result=result)
        if not deal:
            return state
        t, deal_events = v.deal_round(state, state.round_no + 1)
        events.extend(deal_events)
        state = deal_next(state, remember(t.state(), t))
        if t.end is None:
            return state


def host_move(state: MatchState) -> Move:
    """The move the host makes for a player whose turn timed out (RULES.md §1.17; see
    :meth:`engine.variant.Variant.host_move`).  Drawing and knocking are already forced by the
    engine.  Raises :class:`engine.errors.RoundOver` when no decision is awaited."""
    if state.result is not None or state.round.to_act < 0:
        raise errors.RoundOver("no decision is awaited")
    return state.rules.spec.host_move(table_of(state.round, copy=False))


def apply_host_move(state: MatchState, *, deal: bool = True,
                    take: list[Tile] | None = None) -> tuple[MatchState, list]:
    """The turn of ``state.to_act`` timed out: the host moves for them (RULES.md §1.17).

    Where a turn holds several decisions (Мексиканский поезд, RULES.md §2.11 rule 14) the
    host finishes the whole turn, each placement a decision of its own (``version`` grows by
    each), and the turn counts as one host move.  Emits :class:`engine.events.HostMoved`
    before the move's own events.  After
    ``rules.afk_limit`` consecutive host moves for one seat — unless that move ended the match
    — the match is interrupted by timeout with the timeout rating (§1.16).  ``deal``/``take``
    as in :func:`apply`.  Raises :class:`engine.errors.RoundOver` when the match is over.
    """
    if state.result is not None:
        raise errors.RoundOver("the match is over")
    seat = state.round.to_act
    move = host_move(state)
    count = state.afk[seat] + 1
    new, events = apply(state, seat, move, deal=deal, take=take, _host=True)
    v = state.rules.spec
    while new.result is None and new.round.to_act == seat and v.turn_goes_on(new.round):
        # a turn of several decisions: the host finishes it (RULES.md §2.11 rule 14)
        new, more = apply(new, seat, host_move(new), deal=deal, _host=True)
        events.extend(more)
    events.insert(0, HostMoved(seat, count))
    afk = new.afk[:seat] + (count,) + new.afk[seat + 1:]
    new = new._replace(afk=afk)
    if new.result is None and count >= state.rules.afk_limit:
        result = state.rules.spec.timeout_result(new, seat)
        events.append(MatchEnded("timeout", (), result.rating, seat, new.scores))
        new = new._replace(result=result)
    return new, events

