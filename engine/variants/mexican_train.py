"""Мексиканский поезд (``mexican_train``): personal trains and the Mexican train grow from
the engine double; N+1 rounds with descending engines, the lowest total wins, RULES.md §2.11.

What the section changes from classic Kozel (§1), rule by rule, and the hook that does it:

- the set (:attr:`MexicanTrain.sets`, option ``set``): double-12 (default) or double-9;
  seats 2–8, and 2–4 with double-9 (:meth:`MexicanTrain.players_range`); no teams, no
  misdeal, no reserve;
1. rounds and engines (:meth:`MexicanTrain.fixed_rounds`, :func:`engine_of`): N+1 rounds,
   round r with the engine [N+1−r|N+1−r];
2. setting up (:meth:`MexicanTrain.deal_round`, :data:`DEAL`): the engine is set aside, the
   other tiles shuffled and dealt by the table of rule 2, the rest is the bazar;
3. who starts (:meth:`MexicanTrain.new_table`): seat (r − 1) mod n, then seat order;
4.–7. the trains, markers, available trains and doubles: the layout
   (:class:`engine.trains.Trains`) lists the legal placements of rule 7 (a)/(b);
8. the turn (:meth:`MexicanTrain.play_move`, :meth:`MexicanTrain.take_turn`): a placement is
   a decision; after a double the same player places again (``Table.phase`` 1: "my latest
   placement this turn was a double"); a player with no legal placement draws one tile
   (``drew``) and must place it if it fits, else passes (``passed``) and marks their own
   train (``marked``); with an empty bazar they knock (``knocked``) and mark; placing on
   one's own train takes the marker off (``unmarked``);
9. no special first turn;
10. the round end: an out (``went_out``) ends it at once; each time the turn passes with the
   bazar empty, a blocked table ends it (``fish``, its seat the last placer);
11. scoring (:meth:`MexicanTrain.score_round`): every hand's pips, [0|0] counting
   ``double_blank_value``; the player who went out records 0;
12.–13. the match end and rating (:meth:`MexicanTrain.result`): after the last round the
   lowest totals win, the highest are goats, all equal is a draw; rating
   max(1, round_half_up(10 × (G − S) / G));
14. timeouts (:meth:`MexicanTrain.host_move`, :meth:`MexicanTrain.turn_goes_on`): the host
   finishes the whole turn, the heaviest legal tile on the first train of: the oldest open
   double's, own, Mexican, the other public trains from the seat after the mover;
15. the record (:meth:`MexicanTrain.deal_record`): the deal as dealt (hands and bazar,
   without the engine); every placement a decision ``{"tile": "5-12", "train": 0}``.

Options: ``set`` 12 (or 9), ``double_blank_value`` 0 (25, 50), and the timeouts of §1.17.

Where RULES.md §2.11 is silent or unclear (docs/VARIANTS.md, "mexican_train"):

- the deal: the shuffled tiles go to the seats in seat order, ``size`` each, from seat 0; the
  rest is the bazar in draw order;
- a double placed on one's own train by rule 7 (b), or a tile placed on an open double that
  lies on one's own train (rule 7 a), takes the marker off like any placement of the owner
  on it (rule 5: "as soon as its owner places any tile on it");
- marking when a turn ends after a double that could not be satisfied: the player "could not
  place", so they mark (the section's example, Bob's [7|7]);
- the blocked check is made each time the turn passes, also when the starter of a round has
  no placement at the deal and passes; it needs the bazar empty (rule 10 b);
- the host finishing a turn whose player already made a placement in it counts as one host
  move; the player's own placement earlier in the turn set the count back to 0 as any
  decision does;
- a match interrupted by timeout is rated by rule 13 with the timed-out player as the goat,
  whose total is G; where G = 0 every other player gets 1.

Replay: per round ``trains_public`` (the seats whose train is marked at the round's end), at
the match's end ``winners``, ``goats``, ``draw`` (true or false) and ``rating``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import errors
from ..events import Drew, Fish, Knocked, Passed, Played, WentOut, seat_note
from ..moves import MEXICAN, TRAIN, Move, single
from ..rules import CLASSIC_DEFAULTS, Option
from ..scoring import round_half_up
from ..table import Table, shuffled_deal
from ..tiles import (
    ALL_HIGH,
    ALL_LOW,
    ALL_PIPS,
    ALL_TILES,
    DOUBLE_ID,
    TILE_ID,
    ZERO_DOUBLE_ID,
    ids_of,
    set_size,
    tile_code,
)
from ..trains import MEXICAN_NAME, Trains
from ..variant import MatchResult, RoundEnd, Variant, register

__all__ = ["MexicanTrain", "MexicanRound", "Marked", "Unmarked", "DEAL", "engine_of"]

#: RULES.md §2.11 rule 2: tiles dealt to each player, by set and number of players.
DEAL = {
    12: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10},
    9: {2: 12, 3: 11, 4: 10},
}


def engine_of(top: int, round_no: int) -> int:
    """The engine number of round ``round_no`` with the double-``top`` set (RULES.md §2.11
    rule 1): ``top + 1 − round_no`` (12 in round 1 with double-12, …, 0 in the last)."""
    return top + 1 - round_no


class Marked(NamedTuple):
    """``seat`` could not place and ends the turn: its train gets the marker and is public
    (RULES.md §2.11 rules 5, 8)."""

    seat: int
    kind = "marked"
    note = seat_note


class Unmarked(NamedTuple):
    """``seat`` placed a tile on its own marked train: the marker comes off and the train is
    private again (RULES.md §2.11 rule 5)."""

    seat: int
    kind = "unmarked"
    note = seat_note


class MexicanRound(NamedTuple):
    """What the round core keeps of a round beside the trains (``Table.memo``): the deal as
    it was dealt — ``hands`` (a mask per seat) and ``bazar`` (tile ids in draw order) —
    before any draw of the round (a game record writes it, RULES.md §2.11 rule 15).  Hidden
    information: never part of what a seat sees."""

    hands: tuple[int, ...]
    bazar: tuple[int, ...]


_IS_DOUBLE = tuple(ALL_LOW[t] == ALL_HIGH[t] for t in range(len(ALL_TILES)))
_ZERO_BIT = 1 << ZERO_DOUBLE_ID


@register
class MexicanTrain(Variant):
    """Мексиканский поезд (RULES.md §2.11): see the module doc for the rules and choices."""

    name = "mexican_train"
    section = "§2.11"
    layout = "trains"
    teams = "never"
    players = (2, 8)
    sets = (9, 12)
    one_tile = False
    misdeals = False
    options = {
        "set": 12,
        "double_blank_value": Option(0, (0, 25, 50), choices=("0", "25", "50"),
                                     unit="points"),
        "turn_timeout": CLASSIC_DEFAULTS["turn_timeout"],
        "afk_limit": CLASSIC_DEFAULTS["afk_limit"],
    }

    # ------------------------------------------------------------------ seats, rounds, deal

    def players_range(self, rules: Any) -> tuple[int, int]:
        """RULES.md §2.11: 2–8 players; with the double-9 set 2–4 (rule 2's table)."""
        return (2, max(DEAL[rules.set]))

    def fixed_rounds(self, rules: Any) -> int | None:
        """RULES.md §2.11 rule 1: N+1 rounds (13 with the double-12 set, 10 with double-9)."""
        return rules.set + 1

    def deal_size(self, rules: Any, players: int) -> int:
        """RULES.md §2.11 rule 2: the tiles each player is dealt (:data:`DEAL`)."""
        return DEAL[rules.set][players]

    def hand_size(self, players: int) -> int:
        """The double-12 row of :data:`DEAL` (``deal_size`` reads the set)."""
        return DEAL[12][players]

    def new_layout(self, rules: Any, players: int) -> Trains:
        """The trains of round 1: the engine [N|N] and every train empty (rules 1, 4)."""
        return Trains(players, rules.set)

    def deal_round(self, state: Any, round_no: int) -> tuple[Table, list]:
        """RULES.md §2.11 rules 1–3: the engine of the round is set aside; the other tiles
        of the set are shuffled from the match's seed and dealt, :meth:`deal_size` to each
        seat in seat order, the rest being the bazar in draw order; no misdeal.  The
        starter's first turn begins (it may draw and mark, :meth:`begin_round`)."""
        rules = state.rules
        top = rules.set
        engine_id = DOUBLE_ID[engine_of(top, round_no)]
        ids = tuple(i for i in range(set_size(top)) if i != engine_id)
        order = shuffled_deal(state.players, state.seed, round_no, 0, ids)
        size = self.deal_size(rules, state.players)
        hands = []
        for s in range(state.players):
            m = 0
            for i in order[s * size:(s + 1) * size]:
                m |= 1 << i
            hands.append(m)
        bazar = tuple(order[state.players * size:])
        t = self.new_table(state, tuple(hands), bazar, round_no)
        events = [self.dealt_event(t, round_no)]
        self.start_round(t, events)
        return t, events

    def new_table(self, state: Any, hands: tuple[int, ...], bazar: tuple[int, ...],
                  round_no: int, events: list | None = None) -> Table:
        """The table of a dealt round: the engine of the round (rule 1) and its trains, the
        starter seat (r − 1) mod n (rule 3), the deal kept for the record
        (:class:`MexicanRound`).  Raises :class:`engine.errors.InvalidDeal` when the hands
        and the bazar are not the set without the engine, or a hand is not dealt
        :meth:`deal_size` tiles (rule 2)."""
        rules = state.rules
        top = rules.set
        n = state.players
        e = engine_of(top, round_no)
        if e < 0:
            raise errors.InvalidDeal(f"the match has {top + 1} rounds (RULES.md §2.11 rule 1)",
                                     "RULES.md §2.11")
        full = (1 << set_size(top)) - 1
        engine_bit = 1 << DOUBLE_ID[e]
        seen = 0
        count = 0
        for h in hands:
            seen |= h
            count += h.bit_count()
        for i in bazar:
            seen |= 1 << i
        count += len(bazar)
        size = self.deal_size(rules, n)
        if seen != full & ~engine_bit or count != set_size(top) - 1 or \
                any(h.bit_count() != size for h in hands):
            raise errors.InvalidDeal(
                f"a deal of round {round_no} holds {size} tiles per player and the bazar: "
                f"every tile of the double-{top} set except the engine [{e}|{e}] "
                "(RULES.md §2.11 rule 2)", "RULES.md §2.11")
        starter = (round_no - 1) % n
        t = Table(rules, n, list(hands), bazar, 0, starter, memo=MexicanRound(
            tuple(hands), tuple(bazar)), events=events, chance=f"{state.seed}:{round_no}")
        t.layout = Trains(n, e)
        return t

    def begin_round(self, t: Table) -> None:
        """RULES.md §2.11 rule 3: laying out the engine is not a turn; the starter's first
        turn begins (rule 8): a starter with no legal placement draws, and marks and passes
        if the drawn tile does not fit either."""
        self.take_turn(t, t.to_act)

    def deal_record(self, rs: Any) -> dict[str, Any]:
        """RULES.md §2.11 rule 15: the hands and the bazar (draw order) as dealt, without
        the engine, whatever the starter drew before the first decision."""
        memo = rs.memo
        return {"hands": [[tile_code(i) for i in _sorted(h)] for h in memo.hands],
                "bazar": [tile_code(i) for i in memo.bazar]}

    def public_round(self, rs: Any, seat: int) -> Any:
        """What ``seat`` sees (RULES.md §2.11): its own hand; the other hands, the bazar and
        the deal are hidden."""
        return super().public_round(rs, seat)._replace(memo=None)

    # ------------------------------------------------------------------ moves

    def generate(self, t: Table) -> tuple[Move, ...]:
        """The legal placements of the seat to act (RULES.md §2.11 rules 4–7), each a move
        ``Move(tile, train=seat | "mexican")``, by tile and then by train (seats in order,
        the Mexican train last)."""
        seat = t.to_act
        lay = t.layout
        n = lay.players
        return tuple(single(tid, MEXICAN if i == n else TRAIN + i)
                     for tid, i in lay.placements(seat, t.hands[seat], t.phase == 1))

    def turn_goes_on(self, rs: Any) -> bool:
        """RULES.md §2.11 rule 8: the seat to act placed a double as its latest placement of
        this turn and places again (``RoundState.phase`` 1)."""
        return rs.phase == 1 and rs.end is None

    def resolve(self, t: Table, seat: int, move: Move, legal: tuple[Move, ...]) -> Move:
        """The legal placement ``move`` names (``train`` may be left out where the tile has
        exactly one legal placement, rule 15), or the error that says why it is not legal:
        :class:`engine.errors.TileNotInHand`, :class:`~engine.errors.UnknownEnd` (no such
        train), :class:`~engine.errors.AmbiguousEnd` (say which train),
        :class:`~engine.errors.TileDoesNotFit`, :class:`~engine.errors.MoveNotAllowed`
        (an open double first, a private train, one tile per decision)."""
        rule = "RULES.md §2.11"
        if not isinstance(move, Move) or len(move) != 1:
            raise errors.MoveNotAllowed(
                "one tile per decision: a turn's placements are decisions of their own "
                "(RULES.md §2.11 rule 8)", rule)
        p = move[0]
        tid = TILE_ID.get(p.tile) if isinstance(p.tile, tuple) else None
        if tid is None or tid >= set_size(t.rules.set):
            raise errors.TileNotInHand(f"{p.tile!r} is not a tile of the double-{t.rules.set} "
                                       "set (RULES.md §2.10.1)", rule)
        if not t.hands[seat] >> tid & 1:
            raise errors.TileNotInHand(f"{p.tile} is not in seat {seat}'s hand", rule)
        try:
            code = move.codes[0][1]
        except ValueError as e:
            raise errors.UnknownEnd(str(e), rule) from None
        lay = t.layout
        mine = [m for m in legal if m.codes[0][0] == tid]
        if code == -1:
            if len(mine) == 1:
                return mine[0]
            if mine:
                where = ", ".join(str(m.train) for m in mine)
                raise errors.AmbiguousEnd(f"{p.tile} may go on several trains ({where}): "
                                          "name one (RULES.md §2.11 rule 15)", rule)
        elif code != MEXICAN and not TRAIN <= code < TRAIN + lay.players:
            raise errors.UnknownEnd(
                f"name a train: a seat 0..{lay.players - 1} or \"mexican\", not "
                f"{p.target() or 'none'} (RULES.md §2.11 rule 15)", rule)
        else:
            for m in mine:
                if m.codes[0][1] == code:
                    return m
        i = lay.players if code == MEXICAN else code - TRAIN
        if lay.open:
            oldest = lay.key(lay.open[0])
            raise errors.MoveNotAllowed(
                f"the double on train {oldest} is open: only a tile showing "
                f"{lay.ends[lay.open[0]]} on it"
                + (", or another double on an available train," if t.phase == 1 else "")
                + " may be placed (RULES.md §2.11 rule 7)", rule)
        if code != -1 and i != seat and i < lay.players and not lay.public[i]:
            raise errors.MoveNotAllowed(f"train {i} is private: only its owner plays on it "
                                        "until it is marked (RULES.md §2.11 rules 5–6)", rule)
        where = "any train open to you" if code == -1 else f"train {lay.key(i)}"
        shows = "" if code == -1 else f" (it shows {lay.ends[i]})"
        raise errors.TileDoesNotFit(f"{p.tile} does not fit {where}{shows} "
                                    "(RULES.md §2.11 rule 4)", rule)

    # ------------------------------------------------------------------ the turn

    def play_move(self, t: Table, seat: int, codes: Any) -> None:
        """One placement of ``seat`` (RULES.md §2.11 rules 4–8): laid on its train (an open
        double it lands on is satisfied; a double becomes open); the owner's placement on
        its own marked train takes the marker off; an empty hand is an out, at once; after
        a double the seat places again (:meth:`take_turn`); otherwise the turn passes."""
        tid, code = codes[0][0], codes[0][1]
        lay = t.layout
        n = lay.players
        i = n if code == MEXICAN else code - TRAIN
        lay.place(tid, i)
        hand = t.hands[seat] ^ (1 << tid)
        t.hands[seat] = hand
        t.last = seat
        ev = t.events
        if ev is not None:
            ev.append(Played(seat, ALL_TILES[tid], None, train=MEXICAN_NAME if i == n else i))
        if i == seat and lay.public[seat]:
            lay.public[seat] = False
            if ev is not None:
                ev.append(Unmarked(seat))
        if not hand:
            t.end = "out"
            t.to_act = -1
            t.phase = 0
            if ev is not None:
                ev.append(WentOut(seat))
            return
        if _IS_DOUBLE[tid]:
            t.phase = 1  # rule 8 (a): a double: the same player places again
            self.take_turn(t, seat)
            return
        t.phase = 0
        self.pass_turn(t, seat)

    def can_place(self, t: Table, seat: int) -> bool:
        """Whether ``seat`` has a legal placement now (rules 4–7)."""
        return t.layout.can_place(seat, t.hands[seat], t.phase == 1)

    def take_turn(self, t: Table, seat: int) -> None:
        """RULES.md §2.11 rule 8 from step (a) for ``seat``: if it has a legal placement, its
        decision is awaited; else it draws one tile (b) and its decision is awaited if that
        tile has a legal placement; else — or with an empty bazar (c), a knock — it marks its
        own train (if not marked yet) and the turn passes (:meth:`pass_turn`).  Draws, marks
        and knocks happen at once (rule 14)."""
        guard = 0
        while True:
            if self.can_place(t, seat):
                t.to_act = seat
                return
            ev = t.events
            tid = t.draw()
            if tid >= 0:
                t.hands[seat] |= 1 << tid
                if ev is not None:
                    ev.append(Drew(seat, ALL_TILES[tid]))
                if self.can_place(t, seat):
                    t.to_act = seat
                    return
                if ev is not None:
                    ev.append(Passed(seat))
            else:
                guard += 1  # every train is public after a round of knocks (rule 5)
                if guard > 2 * t.players:
                    raise errors.InvalidDeal("nobody can ever place: the position is missing "
                                             "tiles (RULES.md §2.11 rule 2)", "RULES.md §2.11")
                if ev is not None:
                    ev.append(Knocked(seat))
            lay = t.layout
            if not lay.public[seat]:
                lay.public[seat] = True
                if ev is not None:
                    ev.append(Marked(seat))
            t.phase = 0
            if self.blocked(t):
                return
            seat = t.nxt[seat]

    def pass_turn(self, t: Table, seat: int) -> None:
        """The turn of ``seat`` passes (rule 8): unless the table is blocked (rule 10 b), the
        next seat's turn begins (:meth:`take_turn`)."""
        if not self.blocked(t):
            self.take_turn(t, t.nxt[seat])

    def blocked(self, t: Table) -> bool:
        """RULES.md §2.11 rule 10 (b), checked as the turn passes: with the bazar empty and
        no hand holding a tile that fits (the oldest open double, or any train's open
        end), the round ends as a fish whose seat is the last placer."""
        if t.drawable or not t.layout.blocked(t.hands):
            return False
        t.end = "fish"
        t.fish_cause = "blocked"
        t.to_act = -1
        t.phase = 0
        if t.events is not None:
            t.events.append(Fish(t.last, "blocked"))
        return True

    def host_move(self, t: Table) -> Move:
        """RULES.md §2.11 rule 14: among the legal placements, the tile with the most pips
        (ties: the higher half), on the first train it may go on of: the oldest open double's
        train, the mover's own, the Mexican train, the other public trains in seat order
        from the seat after the mover."""
        moves = t.moves()
        seat = t.to_act
        lay = t.layout
        n = lay.players
        best = max({m.codes[0][0] for m in moves}, key=lambda i: (ALL_PIPS[i], ALL_HIGH[i]))
        order = ([lay.open[0]] if lay.open else []) + [seat, n] + \
            [(seat + k) % n for k in range(1, n)]
        rank = {i: k for k, i in reversed(list(enumerate(order)))}
        options = [m for m in moves if m.codes[0][0] == best]
        return min(options, key=lambda m: rank[n if m.codes[0][1] == MEXICAN
                                              else m.codes[0][1] - TRAIN])

    # ------------------------------------------------------------------ scoring

    def hand_value(self, mask: int, rules: Any) -> int:
        """RULES.md §2.11 rule 11: the plain pip sum; [0|0] counts ``double_blank_value``."""
        v = sum(ALL_PIPS[i] for i in ids_of(mask))
        if mask & _ZERO_BIT:
            v += rules.double_blank_value
        return v

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.11 rule 11: every player records its hand value, added to its total
        (the player who went out 0); no thresholds, remembered points or pot; a blocked
        round alike.  ``extra``: ``trains_public``, the marked seats at the round's end."""
        values = tuple(self.side_values(state, t))
        scores = tuple(s + v for s, v in zip(state.scores, values, strict=True))
        zeros = (0,) * len(values)
        marked = tuple(s for s, p in enumerate(t.layout.public) if p)
        scored = self.scored_event(state, t, values, values, scores, zeros, 0, 0,
                                   extra={"trains_public": marked})
        return RoundEnd(scores, zeros, 0, scored)

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """RULES.md §2.11 rules 12–13: after the last round the players with the lowest
        total win and those with the highest are goats (rated 0); every other player
        max(1, round_half_up(10 × (G − S) / G)), G the goats' total; every total equal: a
        draw, all winners, no goat, each rated 1.  None before the last round."""
        if state.round_no < self.fixed_rounds(state.rules):
            return None
        totals = end.scores
        low, high = min(totals), max(totals)
        winners = tuple(s for s, v in enumerate(totals) if v == low)
        if low == high:
            return MatchResult("limit", (), (1,) * len(totals), None, winners=winners,
                               draw=True)
        goats = tuple(s for s, v in enumerate(totals) if v == high)
        return MatchResult("limit", goats, _rating(totals, high, goats), None,
                           winners=winners)

    def timeout_result(self, state: Any, seat: int) -> MatchResult:
        """RULES.md §2.11 rule 13: the timed-out player in the goat's place — 0 for it, every
        other player max(1, round_half_up(10 × (G − S) / G)) with G its total, 1 where
        G = 0."""
        return MatchResult("timeout", (), _rating(state.scores, state.scores[seat], (seat,)),
                           seat)

    def report(self, state: Any) -> dict[str, Any]:
        """The replay's top: ``draw`` (true or false) once the match is over (rule 12)."""
        out = super().report(state)
        if state.result is not None:
            out["draw"] = state.result.draw
        return out

    def held_costs(self, rules: Any) -> tuple[float, ...]:
        """Per tile id of the set, its points in a hand at the round's end (rule 11)."""
        out = [float(ALL_PIPS[i]) for i in range(set_size(rules.set))]
        out[ZERO_DOUBLE_ID] = float(rules.double_blank_value)
        return tuple(out)

    def standing(self, state: Any) -> list[float]:
        """Per player, its total: the highest total is the goat (rule 12) [points]."""
        return [float(s) for s in state.scores]

    def standing_scale(self, rules: Any) -> float:
        """About a fifth of what a round leaves in the hands of 4 players [points]."""
        return 30.0 if rules.set == 12 else 20.0


def _rating(totals: tuple[int, ...], g: int, zero: tuple[int, ...]) -> tuple[int, ...]:
    """RULES.md §2.11 rule 13: the seats in ``zero`` get 0, every other one max(1,
    round_half_up(10 × (g − S) / g)), or 1 where ``g`` is 0."""
    return tuple(0 if s in zero else (max(1, round_half_up(10 * (g - v), g)) if g > 0 else 1)
                 for s, v in enumerate(totals))


def _sorted(mask: int) -> list[int]:
    """The tile ids of ``mask`` in hand order ([a|b] by a, then b; RULES.md §0)."""
    return sorted(ids_of(mask), key=lambda i: (ALL_LOW[i], ALL_HIGH[i]))
