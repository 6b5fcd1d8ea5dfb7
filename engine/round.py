"""One round of classic Kozel: deal, legal moves, placing tiles, drawing, knocking, out, fish.

RULES.md §1.2–§1.10.  The functions here are pure; a :class:`RoundState` is never mutated.
Scoring the finished round belongs to :mod:`engine.scoring`, the match to :mod:`engine.match`.
"""

from __future__ import annotations

import hashlib
import struct
from typing import NamedTuple, NoReturn

from . import errors
from .events import Dealt, Drew, Fish, Knocked, Led, Misdeal, Played, WentOut
from .layout import LEFT, RIGHT, Line
from .tiles import (
    DOUBLE_MASK,
    HIGH,
    LOW,
    SUIT_MASK,
    SUIT_NONDOUBLE_MASK,
    TILE_ID,
    TILES,
    Tile,
    ids_of,
)

__all__ = [
    "Move",
    "RoundState",
    "deal_hands",
    "shuffled_deal",
    "misdeal_reason",
    "first_lead",
    "start_round",
    "round_moves",
    "round_apply",
    "HAND_SIZE",
]

#: RULES.md §1.2: seven tiles to each player.
HAND_SIZE = 7


class Move(NamedTuple):
    """A decision: place ``tile`` at ``end`` (``"left"``, ``"right"``, or None on a lead or when
    only one placement is possible) (RULES.md §1.7)."""

    tile: Tile
    end: str | None = None

    def to_dict(self) -> dict:
        """The record form ``{"tile": "2-5", "end": "left"}`` (README, "Game records")."""
        d = {"tile": self.tile.code()}
        if self.end is not None:
            d["end"] = self.end
        return d


# Interned moves: legal_moves allocates nothing per call but the tuple.
_MOVE = {(i, e): Move(TILES[i], e) for i in range(28) for e in (None, LEFT, RIGHT)}


class RoundState(NamedTuple):
    """The position of one round (RULES.md §1.2–§1.10).  Immutable; compare with ``==``.

    - ``hands``: bit mask of tile ids per seat (see :mod:`engine.tiles`).
    - ``bazar``: tile ids still in the bazar, in draw order.
    - ``reserve_mask``: the last ``bazar_reserve`` tiles, which may never be drawn (§1.4).
    - ``reserve``: how many tiles that is.
    - ``chain``: the chain as oriented ``(a, b)`` pairs, left to right; ``left``/``right`` its
      open ends, -1 before the lead (see :attr:`line`); ``chain_mask`` its tiles.
    - ``to_act``: seat whose decision is awaited, -1 once the round is over.
    - ``lead_id``: id of the tile the first lead must be (§1.5), or -1.
    - ``last``: seat that placed the last tile, -1 before the lead.
    - ``end``: None while playing, then ``"out"`` or ``"fish"``; ``fish_cause`` as in
      :class:`engine.events.Fish`.
    - ``fish_without_double``: the option of RULES.md §1.10 (b).

    The fields are flat (no nested objects) because a move builds a new state: one tuple per
    move keeps :func:`round_apply` cheap (``bench/engine_bench.py``).
    """

    players: int
    hands: tuple[int, ...]
    bazar: tuple[int, ...]
    reserve: int
    reserve_mask: int
    chain: tuple[tuple[int, int], ...]
    left: int
    right: int
    chain_mask: int
    to_act: int
    lead_id: int
    last: int
    end: str | None
    fish_cause: str | None
    fish_without_double: bool = True

    @property
    def line(self) -> Line:
        """The chain with its open ends (:class:`engine.layout.Line`, RULES.md §0)."""
        return Line(self.chain, self.left, self.right)

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn (RULES.md §1.4, §1.8)."""
        n = len(self.bazar) - self.reserve
        return n if n > 0 else 0

    @property
    def by(self) -> int:
        """The seat that went out or fished (RULES.md §1.9, §1.10); -1 while playing."""
        return self.last if self.end else -1


def shuffled_deal(players: int, seed: object, round_no: int, attempt: int) -> list[int]:
    """The 28 tile ids in the order of a shuffle fixed by ``(seed, round_no, attempt)``.

    The first ``7 * players`` go to the hands, seat by seat; the rest is the bazar in draw
    order (RULES.md §1.2).  Every tile gets a 64-bit key from SHAKE-128 of the seed string and
    the tiles are sorted by key: a uniform shuffle, identical on every platform and process.
    """
    digest = hashlib.shake_128(f"kozel:{seed}:{round_no}:{attempt}".encode()).digest(224)
    return sorted(_ALL_IDS, key=_KEYS(digest).__getitem__)


_ALL_IDS = tuple(range(28))
_KEYS = struct.Struct("<28Q").unpack


def deal_hands(players: int, order: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Split a shuffled order into hand masks and the bazar (RULES.md §1.2)."""
    bit = _BIT
    hands = []
    for s in range(0, players * HAND_SIZE, HAND_SIZE):
        a0, a1, a2, a3, a4, a5, a6 = order[s:s + HAND_SIZE]
        hands.append(bit[a0] | bit[a1] | bit[a2] | bit[a3] | bit[a4] | bit[a5] | bit[a6])
    return tuple(hands), tuple(order[players * HAND_SIZE:])


_BIT = tuple(1 << i for i in range(28))


def misdeal_reason(hands: tuple[int, ...]) -> tuple[int, str, int, int | None] | None:
    """``(seat, reason, count, number)`` if the deal is void (RULES.md §1.3), else None.

    Void: a hand with 5 or more doubles (``"doubles"``), or 6 or more tiles showing one
    number, a double counting once (``"suit"``).
    """
    for seat, h in enumerate(hands):
        d = (h & DOUBLE_MASK).bit_count()
        if d >= 5:
            return seat, "doubles", d, None
        for n in range(7):
            c = (h & SUIT_MASK[n]).bit_count()
            if c >= 6:
                return seat, "suit", c, n
    return None


# RULES.md §1.5: [1|1], [2|2], ..., [6|6], then [0|0]; then non-doubles by pips, higher half.
_LEAD_DOUBLES = [TILE_ID[Tile(n, n)] for n in (1, 2, 3, 4, 5, 6, 0)]
_LEAD_OTHERS = sorted(
    (i for i, t in enumerate(TILES) if not t.is_double),
    key=lambda i: (TILES[i].pips, TILES[i].b),
    reverse=True,
)
_LEAD_ORDER = _LEAD_DOUBLES + _LEAD_OTHERS


def first_lead(hands: tuple[int, ...]) -> tuple[int, int]:
    """``(seat, tile_id)`` of the first lead of a match (RULES.md §1.5)."""
    held = 0
    for h in hands:
        held |= h
    for i in _LEAD_ORDER:
        bit = 1 << i
        if held & bit:
            for seat, h in enumerate(hands):
                if h & bit:
                    return seat, i
    raise errors.InvalidDeal("no hand holds a tile")


def start_round(
    players: int,
    hands: tuple[int, ...],
    bazar: tuple[int, ...],
    reserve: int,
    leader: int | None,
    fish_without_double: bool = True,
) -> RoundState:
    """The position before the lead.

    ``leader`` None means the first round of a match: the lead is fixed by RULES.md §1.5.
    Otherwise ``leader`` leads any tile (§1.6).  ``reserve`` is ``rules.bazar_reserve`` (§1.4);
    ``fish_without_double`` the option of §1.10 (b).
    """
    if leader is None:
        leader, lead_id = first_lead(hands)
    else:
        lead_id = -1
    r = min(reserve, len(bazar))
    reserve_mask = 0
    for i in bazar[len(bazar) - r:]:
        reserve_mask |= 1 << i
    return _new(RoundState, (
        players, hands, bazar, r, reserve_mask, (), -1, -1, 0, leader, lead_id, -1,
        None, None, fish_without_double,
    ))


def dealt_event(rs: RoundState, round_no: int) -> Dealt:
    """The :class:`engine.events.Dealt` event for a fresh round."""
    lead = TILES[rs.lead_id] if rs.lead_id >= 0 else None
    return Dealt(round_no, rs.to_act, lead, rs.drawable, rs.reserve)


def misdeal_event(round_no: int, found: tuple[int, str, int, int | None]) -> Misdeal:
    """The :class:`engine.events.Misdeal` event for a void deal (RULES.md §1.3)."""
    return Misdeal(round_no, *found)


def round_moves(rs: RoundState) -> tuple[Move, ...]:
    """Every legal decision of the seat to act, and nothing else (RULES.md §1.5–§1.7).

    On a lead: one move per tile of the hand (only the §1.5 tile in a match's first round),
    end None.  Otherwise one move per tile and open end it fits; a tile fitting both ends is
    two moves, except when both ends show the same number: the two placements then leave the
    same open ends, so it is one move (end ``"right"``).  Empty once the round is over.
    """
    seat = rs.to_act
    if seat < 0:
        return ()
    hand = rs.hands[seat]
    left = rs.left
    if left < 0:
        if rs.lead_id >= 0:
            return (_MOVE[rs.lead_id, None],)
        moves = _LEAD_CACHE.get(hand)
        if moves is None:
            moves = _LEAD_CACHE[hand] = tuple(_MOVE[i, None] for i in ids_of(hand))
        return moves
    pos = left * 7 + rs.right
    key = ((hand & _OPEN[pos]) << 6) | pos
    moves = _MOVES_CACHE.get(key)
    if moves is None:
        moves = _MOVES_CACHE[key] = _compute_moves(key >> 6, left, rs.right)
    return moves


# (playable tiles mask, left, right) -> moves; at most 49 * 2**13 small tuples, in practice a
# few thousand: the same positions recur in every round.
_MOVES_CACHE: dict[int, tuple[Move, ...]] = {}
# hand mask -> lead moves; bounded by the hands that actually lead (7-tile hands mostly).
_LEAD_CACHE: dict[int, tuple[Move, ...]] = {}
# Building the hot named tuples through tuple.__new__ skips their Python-level __new__.
_new = tuple.__new__


def _compute_moves(m: int, left: int, right: int) -> tuple[Move, ...]:
    out = []
    for i in ids_of(m):
        fl = _OTHER[i][left] >= 0
        fr = _OTHER[i][right] >= 0
        if fl and fr and left == right:
            out.append(_MOVE[i, RIGHT])
            continue
        if fl:
            out.append(_MOVE[i, LEFT])
        if fr:
            out.append(_MOVE[i, RIGHT])
    return tuple(out)


# _OTHER[tile_id][n]: the other half of the tile when it shows n, else -1.
_OTHER = tuple(
    tuple((t.b if t.a == n else t.a) if n in (t.a, t.b) else -1 for n in range(7))
    for t in TILES
)
# _PAIR[a][b]: the interned oriented pair (a, b) of the chain.
_PAIR = tuple(tuple((a, b) for b in range(7)) for a in range(7))


# The placements, precomputed so that applying a legal move is a few lookups.
# _TILE_ROW[tile] = (id, bit, placements, lead): placements[(left * 7 + right) * 3 + end_code]
# with end_code 0 (None), 1 (left), 2 (right) is None when that placement is illegal, else
# (at_left, oriented pair, new left, new right, event per seat, open mask, no-double mask):
# the open mask holds the tiles fitting either new open end, the no-double mask the six
# non-doubles of n when both new ends show n (RULES.md §1.10 (b)), else 0.  ``lead`` is the
# same shape for the lead.  Events are immutable, so one interned instance serves every round.
def _placement(tid: int, left: int, right: int, code: int):
    ol = _OTHER[tid][left]
    orr = _OTHER[tid][right]
    if code == 0:
        if ol >= 0 and orr >= 0:
            if left != right:
                return None
            code = 2
        elif ol >= 0:
            code = 1
        elif orr >= 0:
            code = 2
        else:
            return None
    if code == 1:
        if ol < 0:
            return None
        at_left, pair, left, end = True, _PAIR[ol][left], ol, LEFT
    else:
        if orr < 0:
            return None
        at_left, pair, right, end = False, _PAIR[right][orr], orr, RIGHT
    played = tuple(Played(s, TILES[tid], end) for s in range(4))
    return at_left, pair, left, right, played, *_open_masks(left, right)


def _open_masks(left: int, right: int) -> tuple[int, int]:
    return (SUIT_MASK[left] | SUIT_MASK[right],
            SUIT_NONDOUBLE_MASK[left] if left == right else 0)


def _lead_placement(tid: int):
    a, b = LOW[tid], HIGH[tid]
    return (False, _PAIR[a][b], a, b, tuple(Led(s, TILES[tid]) for s in range(4)),
            *_open_masks(a, b))


_TILE_ROW = {
    TILES[tid]: (
        tid,
        1 << tid,
        [_placement(tid, left, right, code)
         for left in range(7) for right in range(7) for code in range(3)],
        _lead_placement(tid),
    )
    for tid in range(28)
}
#: _OPEN[left * 7 + right]: the tiles that fit either open end.
_OPEN = tuple(SUIT_MASK[a] | SUIT_MASK[b] for a in range(7) for b in range(7))


def round_apply(rs: RoundState, seat: int, tile: Tile, end: str | None) -> tuple[RoundState, list]:
    """Place ``tile`` for ``seat`` and play the forced steps that follow.

    After the tile: an out (§1.9) or a fish (§1.10) ends the round; otherwise the turn passes
    to the next seat, which draws until a tile fits or knocks when the drawable bazar is empty
    (§1.8), until a seat can play.  ``end`` None is accepted on a lead, when the tile fits one
    end only, or when both ends show the same number.  Returns ``(new_state, events)``.

    Raises (the state is unchanged): :class:`errors.RoundOver`, :class:`errors.NotYourTurn`,
    :class:`errors.TileNotInHand`, :class:`errors.UnknownEnd` / :class:`errors.AmbiguousEnd`,
    :class:`errors.TileDoesNotFit` / :class:`errors.WrongLead`.
    """
    (players, hands, bazar, reserve, reserve_mask, tiles, left, right, chain_mask, to_act,
     lead_id, _last, _end, _cause, fish_without_double) = rs
    row = _TILE_ROW.get(tile)
    if seat != to_act or to_act < 0 or row is None:
        _refuse(rs, seat, tile, end)
    tid, bit, places, lead = row
    if end is None:
        code = 0
    elif end == LEFT:
        code = 1
    elif end == RIGHT:
        code = 2
    else:
        code = -1
    if left >= 0:
        place = places[(left * 7 + right) * 3 + code] if code >= 0 else None
    elif code < 0 or (lead_id >= 0 and tid != lead_id):
        place = None
    else:
        place = lead
    hand = hands[seat]
    if place is None or not hand & bit:
        _refuse(rs, seat, tile, end)
    at_left, pair, left, right, placed, open_mask, no_double = place
    tiles = (pair,) + tiles if at_left else tiles + (pair,)
    events = [placed[seat]]
    chain_mask |= bit
    hand_list = list(hands)
    hand_list[seat] = hand ^ bit

    if hand == bit:
        events.append(WentOut(seat))
        return _new(RoundState, (players, tuple(hand_list), bazar, reserve, reserve_mask, tiles,
                                 left, right, chain_mask, -1, -1, seat, "out", None,
                                 fish_without_double)), events

    if not open_mask & ~(chain_mask | reserve_mask):
        cause = "blocked"
    elif no_double and fish_without_double and chain_mask & no_double == no_double:
        cause = "no_double"
    else:
        cause = None
    if cause is not None:
        events.append(Fish(seat, cause))
        return _new(RoundState, (players, tuple(hand_list), bazar, reserve, reserve_mask, tiles,
                                 left, right, chain_mask, -1, -1, seat, "fish", cause,
                                 fish_without_double)), events

    nxt = seat + 1 if seat + 1 < players else 0
    knocks = 0
    while not hand_list[nxt] & open_mask:
        h = hand_list[nxt]
        fitted = False
        while len(bazar) > reserve:
            i = bazar[0]
            bazar = bazar[1:]
            h |= 1 << i
            events.append(Drew(nxt, TILES[i]))
            if (1 << i) & open_mask:
                fitted = True
                break
        hand_list[nxt] = h
        if fitted:
            break
        events.append(Knocked(nxt))
        knocks += 1
        if knocks > players:  # only a position missing tiles can get here (RULES.md §1.1)
            raise errors.InvalidDeal("the position does not hold all 28 tiles")
        nxt = nxt + 1 if nxt + 1 < players else 0
    return _new(RoundState, (players, tuple(hand_list), bazar, reserve, reserve_mask, tiles,
                             left, right, chain_mask, nxt, -1, seat, None, None,
                             fish_without_double)), events


def _refuse(rs: RoundState, seat: int, tile: Tile, end: str | None) -> NoReturn:
    """Raise the error that explains why :func:`round_apply` refuses the decision."""
    to_act = rs.to_act
    if seat != to_act:
        if to_act < 0:
            raise errors.RoundOver("the round is over: no decision is awaited", "RULES.md §1.9")
        raise errors.NotYourTurn(f"it is seat {to_act}'s turn, not seat {seat}'s")
    if to_act < 0:
        raise errors.RoundOver("the round is over: no decision is awaited", "RULES.md §1.9")
    tid = TILE_ID.get(tile)
    if tid is None:
        raise errors.TileNotInHand(f"{tile!r} is not a tile of the set")
    if not rs.hands[seat] & (1 << tid):
        raise errors.TileNotInHand(f"{TILES[tid]} is not in seat {seat}'s hand")
    if end is not None and end != LEFT and end != RIGHT:
        raise errors.UnknownEnd(f"unknown end {end!r}: use \"left\" or \"right\"")
    left, right = rs.left, rs.right
    if left < 0:
        raise errors.WrongLead(
            f"the first lead of the match must be {TILES[rs.lead_id]}, not {TILES[tid]}"
        )
    ol = _OTHER[tid][left]
    orr = _OTHER[tid][right]
    if end is None:
        if ol >= 0 and orr >= 0:
            raise errors.AmbiguousEnd(f"{TILES[tid]} fits both ends ({left} and {right}): name one")
        raise errors.TileDoesNotFit(f"{TILES[tid]} matches neither open end ({left}, {right})")
    if end == LEFT:
        raise errors.TileDoesNotFit(f"{TILES[tid]} does not fit the left end ({left})")
    raise errors.TileDoesNotFit(f"{TILES[tid]} does not fit the right end ({right})")
