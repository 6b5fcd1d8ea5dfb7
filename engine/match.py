"""A match of Kozel: rounds until a goat, or until a timeout interrupts it (RULES.md §1).

:func:`new_match` deals the first round, :func:`apply` takes one decision of the seat to act,
:func:`apply_host_move` moves for a seat whose turn timed out (§1.17).  States are immutable
named tuples; every call returns ``(new_state, events)``.  A seed and the list of decisions
reproduce a match exactly.
"""

from __future__ import annotations

from typing import NamedTuple

from . import errors
from .events import HostMoved, MatchEnded, RoundScored
from .round import (
    Move,
    RoundState,
    deal_hands,
    dealt_event,
    misdeal_event,
    misdeal_reason,
    round_apply,
    round_moves,
    shuffled_deal,
    start_round,
)
from .rules import Rules
from .scoring import (
    goats_of,
    hand_value,
    rating,
    record_round,
    side_of,
    sides_count,
    timeout_rating,
)
from .tiles import PIPS, TILE_ID, TILES, Tile, tiles_of

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
]

# Building the named tuple through tuple.__new__ skips its Python-level __new__ (hot path).
_new = tuple.__new__

#: Deals tried before giving up on RULES.md §1.3 (never reached in practice: about 1 deal in
#: 50 is void).
_MAX_DEALS = 1000


class MatchResult(NamedTuple):
    """How a match ended (RULES.md §1.15–§1.17).

    ``reason``: ``"limit"`` or ``"timeout"``; ``goats``: goat sides; ``rating``: rating points
    per side; ``timed_out``: the seat interrupted by timeout, else None.
    """

    reason: str
    goats: tuple[int, ...]
    rating: tuple[int, ...]
    timed_out: int | None


class MatchState(NamedTuple):
    """The whole state of a match.  Immutable; compare with ``==``.

    ``scores``/``remembered`` are per side (player, or team with ``rules.teams``, §1.14),
    ``afk`` counts each seat's consecutive host moves (§1.17), ``version`` the accepted
    decisions so far, ``round`` the current :class:`engine.round.RoundState`.
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

    # -- read-only views ------------------------------------------------------------------
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
    def chain(self) -> tuple[tuple[int, int], ...]:
        """The chain as oriented ``(a, b)`` pairs, left to right (RULES.md §0)."""
        return self.round.line.tiles

    @property
    def ends(self) -> tuple[int, ...]:
        """``()`` before the lead, else the (left, right) open ends."""
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
        return sides_count(self.players, self.rules)


def _deal(rules: Rules, players: int, seed: object, round_no: int,
          leader: int | None) -> tuple[RoundState, list]:
    """Deal a round from the seed, redealing void deals (RULES.md §1.2, §1.3)."""
    events: list = []
    for attempt in range(_MAX_DEALS):
        hands, bazar = deal_hands(players, shuffled_deal(players, seed, round_no, attempt))
        found = misdeal_reason(hands)
        if found is None:
            rs = start_round(players, hands, bazar, rules.bazar_reserve, leader,
                             rules.fish_without_double)
            events.append(dealt_event(rs, round_no))
            return rs, events
        events.append(misdeal_event(round_no, found))
    raise RuntimeError("no valid deal found")  # pragma: no cover


def new_match(rules: Rules, players: int, seed: object) -> tuple[MatchState, list]:
    """Start a match: deal the first round from ``seed`` (RULES.md §1.2–§1.5).

    ``players`` is 2..4 (4 with ``rules.teams``); ``seed`` any int or str.
    Returns ``(state, events)``; raises ``ValueError`` for a bad number of players.
    """
    rules.check_players(players)
    rs, events = _deal(rules, players, seed, 1, None)
    return _fresh(rules, players, seed, rs), events


def _fresh(rules: Rules, players: int, seed: object, rs: RoundState,
           scores=None, remembered=None, pot: int = 0) -> MatchState:
    n = sides_count(players, rules)
    return MatchState(rules, players, seed, 1, rs,
                      tuple(scores) if scores is not None else (0,) * n,
                      tuple(remembered) if remembered is not None else (0,) * n,
                      pot, (0,) * players, 0, None)


def start_match(rules: Rules, players: int, round_state: RoundState, seed: object = None,
                scores=None, remembered=None, pot: int = 0) -> MatchState:
    """A match whose first round is the given position (used by game records).

    ``scores``/``remembered`` per side and ``pot`` give a starting position [points].
    Raises ``ValueError`` when their shapes do not match the sides.
    """
    rules.check_players(players)
    n = sides_count(players, rules)
    for name, v in (("scores", scores), ("remembered", remembered)):
        if v is not None and (len(v) != n or any(type(x) is not int or x < 0 for x in v)):
            raise ValueError(f"start.{name} must list {n} non-negative integers")
    if type(pot) is not int or pot < 0:
        raise ValueError("start.pot must be a non-negative integer")
    return _fresh(rules, players, seed, round_state, scores, remembered, pot)


def legal_moves(state: MatchState) -> tuple[Move, ...]:
    """Every legal decision of ``state.to_act`` and nothing else (RULES.md §1.5–§1.7).

    Empty when the match is over.  See :func:`engine.round.round_moves` for the shape.
    """
    if state.result is not None:
        return ()
    return round_moves(state.round)


def _finish_round(state: MatchState, rs: RoundState, events: list,
                  version: int, afk: tuple[int, ...]) -> MatchState:
    """Score a finished round, then end the match or deal the next round (§1.6)."""
    scored = _score_only(state, rs, events, version, afk)
    if scored.result is not None:
        return scored
    nxt, deal_events = _deal(state.rules, state.players, state.seed, state.round_no + 1, rs.last)
    events.extend(deal_events)
    return deal_next(scored, nxt)


def deal_next(state: MatchState, round_state: RoundState) -> MatchState:
    """The match moved on to ``round_state`` as its next round (round number + 1)."""
    return state._replace(round_no=state.round_no + 1, round=round_state)


def apply(state: MatchState, seat: int, move: Move, *, deal: bool = True,
          _host: bool = False) -> tuple[MatchState, list]:
    """Apply one decision of ``seat`` and everything the rules force after it.

    ``move`` is a :class:`engine.round.Move` (or any ``(tile, end)`` pair).  After the tile
    the engine plays the forced draws and knocks (§1.8); a finished round is scored (§1.12–
    §1.14) and, unless the match is over (§1.15), the next round is dealt from the seed —
    unless ``deal`` is False, in which case the state keeps the finished round (``to_act`` is
    None) until :func:`deal_next` supplies one (game records give their own deals).

    Returns ``(new_state, events)``.  Raises a subclass of :class:`engine.errors.IllegalMove`
    (``NotYourTurn``, ``TileNotInHand``, ``TileDoesNotFit``/``WrongLead``, ``UnknownEnd``/
    ``AmbiguousEnd``, ``RoundOver``); ``state`` is never modified.
    """
    if state.result is not None:
        raise errors.RoundOver("the match is over")
    tile, end = move
    rs, events = round_apply(state.round, seat, tile, end)
    version = state.version + 1
    afk = state.afk
    if not _host and afk[seat]:
        afk = afk[:seat] + (0,) + afk[seat + 1:]
    if rs.end is None:
        return _new(MatchState, (state.rules, state.players, state.seed, state.round_no, rs,
                                 state.scores, state.remembered, state.pot, afk, version,
                                 None)), events
    if not deal:
        return _score_only(state, rs, events, version, afk), events
    return _finish_round(state, rs, events, version, afk), events


def _score_only(state: MatchState, rs: RoundState, events: list, version: int,
                afk: tuple[int, ...]) -> MatchState:
    """Record the finished round ``rs`` (§1.11–§1.14) and end the match on a goat (§1.15)."""
    rules = state.rules
    values = [0] * sides_count(state.players, rules)
    for seat, h in enumerate(rs.hands):
        values[side_of(seat, rules)] += hand_value(h, rules)
    rec = record_round(rules, state.scores, state.remembered, state.pot, tuple(values),
                       rs.end, side_of(rs.last, rules))
    events.append(RoundScored(state.round_no, rs.end, rs.last,
                              tuple(tiles_of(h) for h in rs.hands), rec.hand_values,
                              rec.recorded, rec.scores, rec.remembered, rec.pot_won, rec.pot))
    goats = goats_of(rules, rec.scores)
    result = None
    if goats:
        result = MatchResult("limit", goats, rating(rules, rec.scores, goats), None)
        events.append(MatchEnded("limit", goats, result.rating, None, rec.scores))
    return MatchState(rules, state.players, state.seed, state.round_no, rs, rec.scores,
                      rec.remembered, rec.pot, afk, version, result)


def host_move(state: MatchState) -> Move:
    """The move the host makes for a player whose turn timed out (RULES.md §1.17).

    The playable tile with the most pips (ties: the higher half); where it fits both ends,
    the left end.  Drawing and knocking are already forced by the engine.
    Raises :class:`engine.errors.RoundOver` when no decision is awaited.
    """
    moves = legal_moves(state)
    if not moves:
        raise errors.RoundOver("no decision is awaited")
    best = moves[0]
    key = (-1, -1)
    for m in moves:
        k = (PIPS[TILE_ID[m.tile]], m.tile.b)
        if k > key:
            best, key = m, k
    return best


def apply_host_move(state: MatchState, *, deal: bool = True) -> tuple[MatchState, list]:
    """The turn of ``state.to_act`` timed out: the host moves for them (RULES.md §1.17).

    Emits :class:`engine.events.HostMoved` before the move's own events.  After
    ``rules.afk_limit`` consecutive host moves for one seat — unless that move ended the match
    — the match is interrupted by timeout with the timeout rating (§1.16).  ``deal`` as in
    :func:`apply`.  Raises :class:`engine.errors.RoundOver` when the match is over.
    """
    if state.result is not None:
        raise errors.RoundOver("the match is over")
    seat = state.round.to_act
    move = host_move(state)
    count = state.afk[seat] + 1
    new, events = apply(state, seat, move, deal=deal, _host=True)
    events.insert(0, HostMoved(seat, count))
    afk = new.afk[:seat] + (count,) + new.afk[seat + 1:]
    new = new._replace(afk=afk)
    if new.result is None and count >= state.rules.afk_limit:
        side = side_of(seat, state.rules)
        r = timeout_rating(new.scores, side)
        result = MatchResult("timeout", (), r, seat)
        events.append(MatchEnded("timeout", (), r, seat, new.scores))
        new = new._replace(result=result)
    return new, events
