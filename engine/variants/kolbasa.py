"""Колбаса (``kolbasa``): two players turn over the front tile of a face-down queue and lay
it on a sausage of two lines; cuts send tiles to the opponent, RULES.md §2.12.

What the section changes from classic Kozel (§1), rule by rule, and the hook that does it:

- exactly 2 players, no teams, the double-six set, no bazar, no misdeal, no reserve;
1. the deal (:meth:`Kolbasa.deal_round`): 14 tiles to each player as a queue, in deal
   order, the front first; nobody sees a queue, its owner included — only its length
   (``SausageState.queues``);
2. who starts (:meth:`Kolbasa.new_table`): seat (r − 1) mod 2; the starter's first tile is
   the head (``led``, forced);
3. lines and junctions, and 5. the placements: the layout (:class:`engine.sausage.Sausage`);
4. the turn (:meth:`Kolbasa.run`): the front tile is turned over; a tile with one placement
   is placed at once (``played`` with ``forced``), a tile with none goes to the back of its
   queue (``sent_back``); a tile with two or more waits for the player's choice
   (``SausageState.turned``, the seat to act); a cut sends the head and the first k tiles of
   both lines to the back of the opponent's queue (``cut``);
6. the decision (:meth:`Kolbasa.generate`): only which placement, when there are two or
   more; everything else is forced and happens inside the engine's calls;
7. the round end: an out (``went_out``), a fish when no tile of either queue has a placement
   (``fish``, cause ``blocked``), or the 1000th turn (``fish``, cause ``cap``); the seat of
   the ``fish`` event is the last placer;
8. scoring (:meth:`Kolbasa.score_round`): the pips left in each queue, added to the score
   (the player who went out 0);
9. the match end (:meth:`engine.variant.Variant.result`): §1.15 at ``match_limit`` (101),
   rating §1.16;
10. timeouts (:meth:`Kolbasa.host_move`): the cut at the largest k, else line a's end, else
   b's, else a double at a junction of a, then b, at the smallest position; the turns
   without a choice never wait and never count for ``afk_limit``;
11. the record (:meth:`Kolbasa.deal_record`): ``{"queues": [[14 tiles], [14 tiles]]}``,
   front first; every placement is a decision entry, the forced ones too (``forced``
   events), the lead ``{"tile": "2-5"}``.

Options: ``match_limit`` 101, and the timeouts of §1.17.

Where RULES.md §2.12 is silent or unclear (docs/VARIANTS.md, "kolbasa"):

- the deal: the shuffled tiles' first 14 are seat 0's queue and the next 14 seat 1's, each
  front first;
- a tile turned over that waits for the player's choice is in no queue (its queue's length
  leaves it out) but still in the seat's tiles (``RoundState.hands``);
- a record may leave the target of a placement out where the tile has exactly one (as
  §2.0.4 lets an end be left out), and may write a double at a line's end with ``at`` equal
  to the line's length; the engine writes neither;
- the fish of rule 7 (b) is also checked after the lead;
- a match interrupted by timeout keeps §1.16's timeout rating.

Replay: per round ``queue_lengths`` (each queue's length at the round's end).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import errors
from ..events import Fish, Led, Note, Played, WentOut
from ..moves import CUT, LINE_AT, LINE_END, Move, single, target_fields
from ..rules import CLASSIC_DEFAULTS
from ..sausage import Sausage
from ..table import Table, shuffled_deal
from ..tiles import PIPS, TILE_ID, TILES, Tile, ids_of, tile_code
from ..variant import RoundEnd, Variant, register

__all__ = ["Kolbasa", "KolbasaRound", "SentBack", "Cut", "CAP", "QUEUE"]

#: RULES.md §2.12 rule 7 (c): the turns after which a round ends as a fish.
CAP = 1000
#: RULES.md §2.12 rule 1: tiles in each queue at the deal.
QUEUE = 14


class SentBack(NamedTuple):
    """``seat`` turned over ``tile``, which fits nowhere: it goes to the back of the seat's
    queue (RULES.md §2.12 rule 4).  Public: everybody saw it."""

    seat: int
    tile: Tile
    kind = "sent_back"

    def note(self) -> Note:
        """The seat and the tile it sent to the back of its queue."""
        return Note(self.kind, self.seat, (("tile", str(self.tile)),))


class Cut(NamedTuple):
    """``seat`` cut the sausage at position ``at``: ``tiles`` (the old head, line ``a``'s
    tiles 1…k, line ``b``'s tiles 1…k) went to the back of the queue of ``to``, in that
    order (RULES.md §2.12 rule 5 c).  Public."""

    seat: int
    at: int
    tiles: tuple[Tile, ...]
    to: int
    kind = "cut"

    def note(self) -> Note:
        """The cutter, the position, how many tiles went to whom."""
        return Note(self.kind, self.seat, (("at", self.at), ("count", len(self.tiles))),
                    (("to", self.to),))


class KolbasaRound(NamedTuple):
    """What the round core keeps of a round beside the sausage (``Table.memo``):

    - ``queues``: per seat, its queue as tile ids, front first (a tile turned over and
      waiting for its placement is in none); -1 stands for a tile the observer has not seen
      in a seat's view (:meth:`Kolbasa.public_round`);
    - ``fresh``: per seat, how many tiles at the front of its queue are still the ones dealt
      and never turned over (hidden from everyone, RULES.md §2.12 rule 1); the rest of a
      queue came to its back in view of both (sent back, cut);
    - ``turns``: the turns of the round so far, the lead the first (rule 7 c);
    - ``dealt``: the queues as dealt (a game record writes them, rule 11); None in a seat's
      view."""

    queues: tuple[tuple[int, ...], ...]
    fresh: tuple[int, ...]
    turns: int
    dealt: tuple[tuple[int, ...], ...] | None


@register
class Kolbasa(Variant):
    """Колбаса (RULES.md §2.12): see the module doc for the rules and the choices."""

    name = "kolbasa"
    section = "§2.12"
    layout = "sausage"
    teams = "never"
    players = (2, 2)
    one_tile = False
    misdeals = False
    deal_form = "queues"
    options = {
        "match_limit": CLASSIC_DEFAULTS["match_limit"],
        "turn_timeout": CLASSIC_DEFAULTS["turn_timeout"],
        "afk_limit": CLASSIC_DEFAULTS["afk_limit"],
    }

    # ------------------------------------------------------------------ the deal

    def hand_size(self, players: int) -> int:
        """RULES.md §2.12 rule 1: 14 tiles in each queue."""
        return QUEUE

    def new_layout(self, rules: Any, players: int) -> Sausage:
        """An empty table: no head yet (rule 2)."""
        return Sausage(players)

    def deal_round(self, state: Any, round_no: int) -> tuple[Table, list]:
        """RULES.md §2.12 rule 1: the 28 tiles shuffled from the match's seed; the first 14
        are seat 0's queue and the next 14 seat 1's, front first.  Then the head and the
        turns without a choice (:meth:`begin_round`)."""
        order = shuffled_deal(state.players, state.seed, round_no, 0)
        queues = (tuple(order[:QUEUE]), tuple(order[QUEUE:2 * QUEUE]))
        t = self.new_table(state, queues, (), round_no)
        events = [self.dealt_event(t, round_no)]
        self.start_round(t, events)
        return t, events

    def new_table(self, state: Any, hands: tuple, bazar: tuple[int, ...], round_no: int,
                  events: list | None = None) -> Table:
        """The table of a dealt round: ``hands`` are the two queues as tile ids, front first
        (rule 1); the starter is seat (r − 1) mod 2 (rule 2).  Raises
        :class:`engine.errors.InvalidDeal` unless the queues hold 14 tiles each and the 28
        tiles of the set once, with no bazar."""
        queues = tuple(tuple(q) for q in hands)
        every = [i for q in queues for i in q]
        if len(queues) != 2 or any(len(q) != QUEUE for q in queues) or bazar or \
                sorted(every) != list(range(28)):
            raise errors.InvalidDeal("a deal is two queues of 14 tiles holding the 28 tiles "
                                     "of the set, and no bazar (RULES.md §2.12 rule 1)",
                                     "RULES.md §2.12")
        masks = [sum(1 << i for i in q) for q in queues]
        starter = (round_no - 1) % 2
        t = Table(state.rules, 2, masks, (), 0, starter, memo=KolbasaRound(
            queues, (QUEUE, QUEUE), 0, queues), events=events,
                  chance=f"{state.seed}:{round_no}")
        t.layout.queues = [QUEUE, QUEUE]
        return t

    def begin_round(self, t: Table) -> None:
        """RULES.md §2.12 rules 2, 4, 6: the starter turns over the head, then every turn is
        played until one waits for a choice or the round ends (:meth:`run`)."""
        self.run(t, t.to_act)

    def deal_record(self, rs: Any) -> dict[str, Any]:
        """RULES.md §2.12 rule 11: ``{"queues": [[14 tiles], [14 tiles]]}``, front first, as
        dealt."""
        return {"queues": [[tile_code(i) for i in q] for q in rs.memo.dealt]}

    def public_round(self, rs: Any, seat: int) -> Any:
        """What ``seat`` sees (RULES.md §2.12 rule 1): no queue's tiles, its own included —
        every hand is 0 and, in ``memo.queues``, each tile never turned over is -1 — but the
        tiles that came to the back of a queue in view of both (sent back, cut), the
        sausage, the turned-over tile and the queues' lengths."""
        memo = rs.memo
        queues = tuple((-1,) * f + q[f:] for q, f in zip(memo.queues, memo.fresh, strict=True))
        return rs._replace(hands=(0,) * rs.players, bazar=(), reserve_mask=0,
                           memo=memo._replace(queues=queues, dealt=None))

    # ------------------------------------------------------------------ moves

    def generate(self, t: Table) -> tuple[Move, ...]:
        """The placements of the turned-over tile (RULES.md §2.12 rules 5–6): two or more
        whenever a decision is awaited; ends first, then doubles at junctions by position,
        then cuts by position."""
        lay = t.layout
        tid = lay.turned
        if tid < 0:
            return ()
        return tuple(single(tid, code) for code in lay.placements(tid))

    def resolve(self, t: Table, seat: int, move: Move, legal: tuple[Move, ...]) -> Move:
        """The legal placement ``move`` names: a double at a line's end may be written with
        ``at`` equal to the line's length, and a target may be left out where there is one
        placement only.  Raises :class:`engine.errors.TileNotInHand` for another tile than
        the turned-over one (rule 4), :class:`~engine.errors.UnknownEnd` /
        :class:`~engine.errors.AmbiguousEnd` for a target that is not the sausage's or is
        missing, :class:`~engine.errors.TileDoesNotFit` for a place it does not fit, and
        :class:`~engine.errors.MoveNotAllowed` for several tiles."""
        rule = "RULES.md §2.12"
        if not isinstance(move, Move) or len(move) != 1:
            raise errors.MoveNotAllowed("one tile per turn (RULES.md §2.12 rule 4)", rule)
        lay = t.layout
        p = move[0]
        tid = TILE_ID.get(p.tile) if isinstance(p.tile, tuple) else None
        if tid != lay.turned:
            raise errors.TileNotInHand(
                f"the tile to place is the one turned over, {TILES[lay.turned]}, not "
                f"{p.tile} (RULES.md §2.12 rule 4)", rule)
        try:
            code = move.codes[0][1]
        except ValueError as e:
            raise errors.UnknownEnd(str(e), rule) from None
        if code == -1:
            if len(legal) == 1:
                return legal[0]
            raise errors.AmbiguousEnd(
                f"{p.tile} has {len(legal)} placements: name the line (and where) or the cut "
                "(RULES.md §2.12 rule 6)", rule)
        if 0 <= code < LINE_END:
            raise errors.UnknownEnd(f"the sausage has lines a and b and cuts, not the end "
                                    f"{p.end!r} (RULES.md §2.12 rule 3)", rule)
        if LINE_AT <= code < CUT:  # a double at the end named by its position
            line = (code - LINE_AT) & 1
            if (code - LINE_AT) >> 1 == len(lay.lines[line]):
                code = LINE_END + line
        for m in legal:
            if m.codes[0][1] == code:
                return m
        what = lay.target_text(code) if code >= LINE_END else p.target()
        raise errors.TileDoesNotFit(
            f"{p.tile} does not go at {what} (RULES.md §2.12 rule 5); it may go at "
            + ", ".join(lay.target_text(m.codes[0][1]) for m in legal), rule)

    def host_move(self, t: Table) -> Move:
        """RULES.md §2.12 rule 10: the first legal placement of: the cut at the largest k;
        the end of line a, then of b (a double at a line's end counts as that end); a double
        at a junction of line a, then b, at the smallest position."""
        moves = t.moves()

        def rank(m: Move) -> tuple[int, int]:
            code = m.codes[0][1]
            if code >= CUT:
                return (0, -(code - CUT))
            if code < LINE_AT:
                return (1, code - LINE_END)
            line = (code - LINE_AT) & 1
            return (2 + line, (code - LINE_AT) >> 1)

        return min(moves, key=rank)

    # ------------------------------------------------------------------ the turns

    def play_move(self, t: Table, seat: int, codes: Any) -> None:
        """The player's choice for the turned-over tile (rule 6): it is placed, the turn's
        checks made (:meth:`after_turn`), and the turns go on (:meth:`run`)."""
        tid, code = codes[0][0], codes[0][1]
        t.layout.turned = -1
        self.place(t, seat, tid, code, False)
        if not self.after_turn(t, seat):
            self.run(t, t.nxt[seat])

    def place(self, t: Table, seat: int, tid: int, code: int, forced: bool) -> None:
        """Lay ``tid`` at ``code`` for ``seat`` (rule 5): a ``played`` event (``forced`` when
        the rules chose the place); a cut's tiles join the back of the opponent's queue
        (``cut``)."""
        lay = t.layout
        gone = lay.place(tid, code)
        t.hands[seat] ^= 1 << tid
        t.last = seat
        ev = t.events
        if ev is not None:
            ev.append(Played(seat, TILES[tid], None, forced=forced, **target_fields(code)))
        if gone:
            other = t.nxt[seat]
            memo = t.memo
            queues = list(memo.queues)
            queues[other] = queues[other] + tuple(gone)
            for g in gone:
                t.hands[other] |= 1 << g
            t.memo = memo._replace(queues=tuple(queues))
            lay.queues[other] = len(queues[other])
            if ev is not None:
                ev.append(Cut(seat, code - CUT, tuple(TILES[g] for g in gone), other))

    def after_turn(self, t: Table, seat: int) -> bool:
        """RULES.md §2.12 rule 7, after ``seat``'s turn (cut tiles already in the opponent's
        queue): an out, a fish (no tile of either queue has a placement), or the cap of
        :data:`CAP` turns (a fish); True when the round ended."""
        ev = t.events
        if not t.hands[seat] and t.layout.turned < 0:
            t.end = "out"
            t.to_act = -1
            if ev is not None:
                ev.append(WentOut(seat))
            return True
        cause = None
        if not t.layout.fit() & (t.hands[0] | t.hands[1]):
            cause = "blocked"
        elif t.memo.turns >= CAP:
            cause = "cap"
        if cause is None:
            return False
        t.end = "fish"
        t.fish_cause = cause
        t.to_act = -1
        if ev is not None:
            ev.append(Fish(t.last, cause))
        return True

    def run(self, t: Table, seat: int) -> None:
        """Play turns from ``seat``'s on (rules 2, 4, 6): the front tile is turned over; the
        head at the round's first turn; a tile that fits nowhere goes to the back of the
        queue; a tile with one placement is placed; a tile with two or more is shown
        (``SausageState.turned``) and ``seat``'s decision is awaited.  Stops there or at the
        round's end."""
        lay = t.layout
        while True:
            memo = t.memo
            queue = memo.queues[seat]
            tid = queue[0]
            rest = queue[1:]
            fresh = memo.fresh
            if fresh[seat]:
                fresh = fresh[:seat] + (fresh[seat] - 1,) + fresh[seat + 1:]
            turns = memo.turns + 1
            ev = t.events
            if lay.head < 0:
                lay.lead(tid)
                t.hands[seat] ^= 1 << tid
                t.last = seat
                queues = _with(memo.queues, seat, rest)
                if ev is not None:
                    ev.append(Led(seat, TILES[tid], forced=True))
            else:
                places = lay.placements(tid)
                if len(places) >= 2:
                    lay.turned = tid
                    lay.queues[seat] = len(rest)
                    t.memo = memo._replace(queues=_with(memo.queues, seat, rest),
                                           fresh=fresh, turns=turns)
                    t.to_act = seat
                    return
                if places:
                    queues = _with(memo.queues, seat, rest)
                    t.memo = memo._replace(queues=queues, fresh=fresh, turns=turns)
                    lay.queues[seat] = len(rest)
                    self.place(t, seat, tid, places[0], True)
                    if self.after_turn(t, seat):
                        return
                    seat = t.nxt[seat]
                    continue
                queues = _with(memo.queues, seat, rest + (tid,))
                if ev is not None:
                    ev.append(SentBack(seat, TILES[tid]))
            t.memo = memo._replace(queues=queues, fresh=fresh, turns=turns)
            lay.queues[seat] = len(queues[seat])
            if self.after_turn(t, seat):
                return
            seat = t.nxt[seat]

    # ------------------------------------------------------------------ scoring

    def hand_value(self, mask: int, rules: Any) -> int:
        """RULES.md §2.12 rule 8: the plain pip sum of a queue ([0|0] is 0)."""
        return sum(PIPS[i] for i in ids_of(mask))

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.12 rule 8: each player records the pips left in its queue (the player
        who went out 0), added to its score; no thresholds, remembered points or pot.
        ``extra``: ``queue_lengths`` at the round's end."""
        values = tuple(self.side_values(state, t))
        scores = tuple(s + v for s, v in zip(state.scores, values, strict=True))
        zeros = (0,) * len(values)
        lengths = tuple(h.bit_count() for h in t.hands)
        scored = self.scored_event(state, t, values, values, scores, zeros, 0, 0,
                                   extra={"queue_lengths": lengths})
        return RoundEnd(scores, zeros, 0, scored)

    def standing(self, state: Any) -> list[float]:
        """Per player, its score (RULES.md §2.12 rule 9: the limit makes the goat)."""
        return [float(s) for s in state.scores]

    def standing_scale(self, rules: Any) -> float:
        """A round leaves the loser about 70 pips (§2.12 rule 8's reading): a fifth of it,
        in proportion to the limit [points]."""
        return 15.0 * (rules.match_limit or 101) / 101


def _with(queues: tuple[tuple[int, ...], ...], seat: int, queue: tuple[int, ...]
          ) -> tuple[tuple[int, ...], ...]:
    """``queues`` with ``seat``'s replaced by ``queue``."""
    return queues[:seat] + (queue,) + queues[seat + 1:]

