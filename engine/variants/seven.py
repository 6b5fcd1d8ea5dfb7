"""Семёрка (``seven``): the end sum of the line gives another turn or two tiles to draw;
losers get sticks and leave the match, RULES.md §2.8.

What the section changes from classic Kozel (§1), rule by rule, and the hook that does it:

1. the deal (:meth:`Seven.hand_size`): 7 tiles each for 2–3 players, 6 each for 4 (the
   market — the bazar — keeps 14, 7 or 4); later rounds deal the same number to each
   remaining player (:meth:`Seven.playing_seats`);
2. the lead (:meth:`Seven.lead`): round 1 per §1.5 (a forced tile); later rounds §1.6 (the
   player who went out or fished leads any tile), and if that player has left the match,
   the next remaining seat after them;
3. the end sum (:meth:`engine.layout.Layout.end_sum`): the two open ends, a double at an end
   counting both halves; checked after every placement except the lead (:meth:`Seven.turn`);
4. sum 6: the same player moves again (event ``again``), and again on another 6;
5. sum 7: the next player draws two tiles from the market and loses that turn (event
   ``draw_two``, then ``drew`` per tile); when the market runs short, the rest are taken
   blindly from the 7-maker's hand (event ``took``): a record gives them as
   ``{"take": [...]}`` right after the move; in a match they are picked at random by a
   generator seeded from the match's seed, the round and the position (:func:`blind_take`);
6. stuck (:meth:`Seven.stuck`): a player with no playable tile draws one tile only; if it
   fits it must be played (it is then the only tile that fits), otherwise the turn passes
   (event ``passed``); with an empty market the player knocks;
7. the round end: an out, or a fish per §2.0.5 with ``fish_without_double`` (the round core
   checks both before the end sum, so a round ending on a sum of 6 or 7 has no extra move
   and no draw); a take that empties the 7-maker's hand is the 7-maker's out; the losers
   are the players with the most pips in hand, every double counting 10
   (:meth:`Seven.hand_value`); each gets a stick (event ``stick``) (:meth:`Seven.score_round`);
8. the match: a player with ``sticks`` sticks (default 3) leaves (event ``left_match``;
   ``MatchState.own.departed`` in order); when one player remains the match ends and that
   player wins; players who leave in the same round leave together; if nobody remains
   there is no winner; the first to leave is the goat (all who left together); rating: the
   number of players who left in earlier rounds, the winner ``players − 1``
   (:meth:`Seven.result`).

Options: ``fish_without_double`` true, ``sticks`` 3, and the timeouts of §1.17; no teams,
no reserve (``bazar_reserve`` is refused unless 0).

Where the rule book is silent or unclear (docs/VARIANTS.md, "seven"):

- "the next player" of rule 5 is the next remaining seat in turn order; with two players
  the 7-maker therefore moves again after the other player has drawn;
- the blind take of rule 5 is taken from the 7-maker's hand as it is after the move; the
  drawer gets the drawn and the taken tiles;
- a record that omits a take where the 7-maker's hand leaves a choice is refused (the
  record is incomplete); where the whole hand must go, the take may be omitted;
- §1.3's misdeals apply to every deal, the later ones too;
- a match interrupted by timeout (§1.17) keeps §1.16's timeout rating; with every score 0
  that is 0 for the timed-out player and 1 for every other player.

Replay: per round ``losers`` (the stick holders of the round), ``sticks`` (per player after
the round), ``left`` (the seats that left after it, in seat order); at the top ``sticks``,
``departed`` (in order of leaving), ``winners`` (the last player, if one remains).
``hand_values`` are the rule 7 values (doubles 10); ``recorded``/``scores`` stay 0.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, NamedTuple

from .. import errors
from ..events import Drew, Knocked, Note, Passed, Took, WentOut, seat_note
from ..rules import CLASSIC_DEFAULTS, Option
from ..table import Table, holder_of_first
from ..tiles import HIGH, LOW, PIPS, TILES, ids_of
from ..variant import LEAD_ORDER, Mark, MatchResult, RoundEnd, Variant, register

__all__ = ["Seven", "SevenMatch", "blind_take", "Again", "DrawTwo", "Stick", "LeftMatch"]

# ---------------------------------------------------------------------- Семёрка's own events


class Again(NamedTuple):
    """The ends sum to 6: ``seat`` moves again (RULES.md §2.8 rule 4)."""

    seat: int
    kind = "again"
    note = seat_note


class DrawTwo(NamedTuple):
    """The ends sum to 7: ``seat`` takes two tiles and loses the turn (RULES.md §2.8 rule 5):
    ``drawn`` from the market (the ``drew`` events right after this one) and ``taken`` from
    the hand of ``maker`` (the player who made the 7) when the market ran short (a ``took``
    event after them)."""

    seat: int
    maker: int
    drawn: int
    taken: int
    kind = "draw_two"

    def note(self) -> Note:
        """``count`` tiles to the seat, ``taken`` of them from ``maker``'s hand; the market's
        ``drew`` events that follow are part of it."""
        return Note(self.kind, self.seat, (("count", self.drawn + self.taken),
                                           ("taken", self.taken)),
                    (("maker", self.maker),), draws=self.drawn)


class Stick(NamedTuple):
    """``seat`` lost the round and gets a stick, now holding ``sticks`` (RULES.md §2.8
    rule 7)."""

    seat: int
    sticks: int
    kind = "stick"

    def note(self) -> Note:
        """The seat and the sticks it now holds."""
        return Note(self.kind, self.seat, (("sticks", self.sticks),))


class LeftMatch(NamedTuple):
    """``seat`` leaves the match with all its sticks (RULES.md §2.8 rule 8)."""

    seat: int
    kind = "left_match"
    note = seat_note


#: RULES.md §2.8 rule 7: the points of each tile in a loser's count (doubles 10).
STICK_VALUE = tuple(10 if LOW[i] == HIGH[i] else PIPS[i] for i in range(28))


def blind_take(t: Table, maker: int, count: int) -> list[int]:
    """``count`` tile ids picked at random from the hand of ``maker`` (RULES.md §2.8 rule 5),
    sorted.  The generator is seeded by SHA-256 of the round's key ``t.chance`` (the match's
    seed and the round) and the position (the table's tiles, the hand, the tiles drawn), so
    a match replays identically from its seed."""
    hand = t.hands[maker]
    key = f"seven-take:{t.chance}:{t.layout.mask}:{hand}:{t.drawn}:{count}"
    rng = random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "little"))
    return sorted(rng.sample(ids_of(hand), count))


class SevenMatch(NamedTuple):
    """What Семёрка keeps between rounds (``MatchState.own``, RULES.md §2.8 rules 7–8):
    ``sticks`` per seat, ``departed`` the seats that left in order of leaving, ``groups``
    the seats that left together, group by group (those a starting position lists in
    ``departed`` alone count as having left one by one before them)."""

    sticks: tuple[int, ...] = ()
    departed: tuple[int, ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()


@register
class Seven(Variant):
    """Семёрка (RULES.md §2.8): 2–4 players, no teams; the end sum of the line gives
    another turn (6) or two tiles to draw (7); the losers of each round get sticks, and
    ``sticks`` sticks send a player out of the match."""

    name = "seven"
    section = "§2.8"
    teams = "never"
    options = {
        "fish_without_double": True,
        "sticks": Option(3, (1, 20), choices=("2", "3", "4", "5")),
        "turn_timeout": CLASSIC_DEFAULTS["turn_timeout"],
        "afk_limit": CLASSIC_DEFAULTS["afk_limit"],
    }

    #: RULES.md §2.8 rules 7–8: sticks per player; ``sticks`` of them and the player leaves.
    marks = (Mark("sticks", per="seat", limit="sticks", leaves=True),)
    scoring = "marks"
    forced_draws = frozenset({"draw_two"})

    # ------------------------------------------------------------------ seats and deal

    def hand_size(self, players: int) -> int:
        """RULES.md §2.8 rule 1: 7 tiles each for 2–3 players, 6 each for 4; ``players`` is
        the match's count, so later rounds deal as many as round 1 did (rule 8)."""
        return 6 if players == 4 else 7

    def start(self, rules: Any, players: int) -> dict[str, Any]:
        """No sticks yet, nobody has left (RULES.md §2.8 rule 8): a :class:`SevenMatch`."""
        out = super().start(rules, players)
        out["own"] = SevenMatch((0,) * players)
        return out

    def report(self, state: Any) -> dict[str, Any]:
        """The replay's top: ``sticks`` per player and, once someone left, ``departed`` in
        order of leaving (RULES.md §2.8 rule 8)."""
        out = super().report(state)
        if state.own.departed:
            out["departed"] = list(state.own.departed)
        return out

    def playing_seats(self, state: Any) -> tuple[int, ...]:
        """The seats still in the match (RULES.md §2.8 rule 8), in turn order."""
        gone = state.own.departed
        return tuple(s for s in range(state.players) if s not in gone)

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """RULES.md §2.8 rule 2: round 1 per §1.5; later, the player who went out or fished
        leads any tile, or the next remaining seat after them if they have left."""
        if round_no == 1:
            seat, tid = holder_of_first(hands, LEAD_ORDER)
            return seat, tid, None
        seats = self.playing_seats(state)
        seat = state.round.last
        for k in range(state.players):
            nxt = (seat + k) % state.players
            if nxt in seats:
                return nxt, -1, None
        raise RuntimeError("no seat left to lead")  # pragma: no cover (the match is over)

    # ------------------------------------------------------------------ a move's effects

    def turn(self, t: Table, seat: int, codes: Any) -> int:
        """Who moves after ``seat``'s placement (RULES.md §2.8 rules 3–5); the round core
        has already checked the out and the fish (rule 7).  After the lead: the next seat.
        End sum 6: ``seat`` again.  End sum 7: the next seat draws two and loses the turn
        (:meth:`draw_two`).  Otherwise the next seat."""
        lay = t.layout
        if len(lay.line) == 1:  # the lead: no end sum (rule 3)
            return t.nxt[seat]
        total = lay.end_sum()
        if total == 6:
            if t.events is not None:
                t.events.append(Again(seat))
            return seat
        if total == 7:
            return self.draw_two(t, seat)
        return t.nxt[seat]

    def draw_two(self, t: Table, maker: int) -> int:
        """RULES.md §2.8 rule 5: the seat after ``maker`` draws two tiles from the market,
        the rest blindly from ``maker``'s hand (:meth:`take`); it loses the turn, so the seat
        after it is returned.  A take that empties ``maker``'s hand is ``maker``'s out
        (rule 7: ``t.end`` becomes ``"out"``).  Raises :class:`engine.errors.IllegalMove`
        for a record's take that does not fit (:meth:`take`)."""
        drawer = t.nxt[maker]
        drawn = []
        while len(drawn) < 2:
            tid = t.draw()
            if tid < 0:
                break
            drawn.append(tid)
        taken = self.take(t, maker, 2 - len(drawn)) if len(drawn) < 2 else []
        hands = t.hands
        for tid in drawn + taken:
            hands[drawer] |= 1 << tid
        for tid in taken:
            hands[maker] &= ~(1 << tid)
        ev = t.events
        if ev is not None:
            ev.append(DrawTwo(drawer, maker, len(drawn), len(taken)))
            ev.extend(Drew(drawer, TILES[tid]) for tid in drawn)
            if taken:
                ev.append(Took(drawer, maker, tuple(TILES[tid] for tid in taken)))
        if not hands[maker]:
            t.end = "out"
            if ev is not None:
                ev.append(WentOut(maker))
        return t.nxt[drawer]

    def take(self, t: Table, maker: int, short: int) -> list[int]:
        """The tile ids taken blindly from ``maker``'s hand when the market is ``short``
        tiles short (RULES.md §2.8 rule 5): as many as the hand holds, at most ``short``.

        ``t.take`` given by a record (tile ids) is used and consumed; it must be exactly
        that many distinct tiles of the hand.  ``t.take == []`` means a record that gives no
        take: accepted only where the whole hand must go.  ``t.take`` None (a match): the
        seeded pick of :func:`blind_take`.  Raises :class:`engine.errors.IllegalMove`."""
        hand = t.hands[maker]
        count = min(short, hand.bit_count())
        given = t.take
        t.take = None
        if given is None:
            return blind_take(t, maker, count)
        if not given:
            if count == hand.bit_count():
                return ids_of(hand)
            raise errors.IllegalMove(
                f"the record must give the {count} tile(s) taken from seat {maker}'s hand: "
                "{\"take\": [...]} right after the move that made the 7 (RULES.md §2.8 rule 5)",
                "RULES.md §2.8")
        mask = 0
        for tid in given:
            mask |= 1 << tid
        if len(given) != count or mask.bit_count() != count or mask & ~hand:
            raise errors.IllegalMove(
                f"the take must be {count} tile(s) of seat {maker}'s hand, not "
                f"{', '.join(str(TILES[i]) for i in given)} (RULES.md §2.8 rule 5)",
                "RULES.md §2.8")
        return sorted(given)

    def stuck(self, t: Table, seat: int) -> bool:
        """RULES.md §2.8 rule 6: ``seat`` has no playable tile and draws one tile only; True
        when it fits (it must then be played), else the turn passes (``passed``); with an
        empty market ``seat`` knocks (``knocked``)."""
        tid = t.draw()
        ev = t.events
        if tid < 0:
            if ev is not None:
                ev.append(Knocked(seat))
            return False
        t.hands[seat] |= 1 << tid
        if ev is not None:
            ev.append(Drew(seat, TILES[tid]))
        if t.layout.fit >> tid & 1:
            return True
        if ev is not None:
            ev.append(Passed(seat))
        return False

    # ------------------------------------------------------------------ scoring

    def hand_value(self, mask: int, rules: Any) -> int:
        """RULES.md §2.8 rule 7: the pips in hand, every double counting 10 [points]."""
        return sum(STICK_VALUE[i] for i in ids_of(mask))

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.8 rules 7–8: the players still in the match with the most points in
        hand get a stick each; those who reach ``sticks`` sticks leave the match together.
        Scores, remembered points and the pot are untouched."""
        values = self.side_values(state, t)
        seats = t.seats
        top = max(values[s] for s in seats)
        losers = tuple(s for s in seats if values[s] == top)
        own = state.own
        sticks = list(own.sticks)
        for s in losers:
            sticks[s] += 1
        left = tuple(s for s in losers if sticks[s] >= state.rules.sticks)
        groups = own.groups + ((left,) if left else ())
        events = [Stick(s, sticks[s]) for s in losers] + [LeftMatch(s) for s in left]
        scored = self.scored_event(
            state, t, values, (0,) * len(values), state.scores, state.remembered, 0,
            state.pot, losers, {"sticks": tuple(sticks), "left": left})
        return RoundEnd(state.scores, state.remembered, state.pot, scored,
                        own=SevenMatch(tuple(sticks), own.departed + left, groups),
                        events=tuple(events))

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """RULES.md §2.8 rule 8: the match ends when at most one player remains.  Goats: the
        first seats to leave (together); rating per seat: the number of players who left in
        earlier rounds, the winner ``players − 1``; ``winners``: the remaining player."""
        remaining = self.playing_seats(state)
        if len(remaining) > 1:
            return None
        groups = _groups(state)
        rating = [0] * state.players
        before = 0
        for group in groups:
            for s in group:
                rating[s] = before
            before += len(group)
        for s in remaining:
            rating[s] = state.players - 1
        return MatchResult("limit", groups[0] if groups else (), tuple(rating), None,
                           winners=remaining)


    def standing(self, state: Any) -> list[float]:
        """Per player, sticks held (RULES.md §2.8 rules 7–8: the first to leave is the goat);
        a seat that left already counts as lost."""
        limit = state.rules.sticks
        own = state.own
        return [float(limit + 1 if s in own.departed else n)
                for s, n in enumerate(own.sticks)]

    def standing_scale(self, rules: Any) -> float:
        """One stick separates a player from the next [sticks]."""
        return 0.8


def _groups(state: Any) -> list[tuple[int, ...]]:
    """The seats that left, grouped by the round they left in, in order (RULES.md §2.8 rule
    8).  Seats a starting position lists as departed without a group count as having left
    one by one before everyone else."""
    groups = [tuple(g) for g in state.own.groups]
    known = {s for g in groups for s in g}
    return [(s,) for s in state.own.departed if s not in known] + groups
