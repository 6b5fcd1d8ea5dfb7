"""Морской козёл (``sea_goat``), RULES.md §2.1.

Classic Kozel on a line (§1) with these changes, rule by rule:

1. **Moves**: one tile, or two doubles at once, one on each end of the line — never as a
   lead (:meth:`SeaGoat.extra_moves`, :meth:`engine.layout.Layout.double_sets`).
2. **Hand value**: a hand of only [0|0] counts 25, only [6|6] 50, only [0|0] and [6|6]
   ``both_doubles_value`` (12); otherwise the pips (:meth:`SeaGoat.hand_value`).
3. **The loser records alone**: the side with the strictly highest hand value records it;
   after an out in team play the other team is the loser.  A tie feeds the pot with the sum
   of the tied values; the next round that has a loser pays it out on top.
4. **Recording**: no remembered points; round points (pot included) below
   ``open_threshold`` (25) are lost while the score is closed; a score reset to 0 is closed.
5. **Leads**: round 1 per §1.5; rounds 2 and 3 too while no side has an open score; round 4,
   if still none has, is a fast lead of [6|6] by its holder; otherwise §1.6
   (:meth:`SeaGoat.lead`).
6. **Fast leads**: in a §1.6 round, [6|6] or [0|0] may lead only when every other side has
   an open score; the loser records a flat 50 or 75; a blocked fast round is void and dealt
   again with the leader keeping the lead tile(s) (:meth:`SeaGoat.deal_round`).
7. **Extraordinary lead**: [0|0] and [6|6] at once with the gap between them; then two
   tiles per turn while the player to act can place two (``Table.phase`` 2); the loser
   records 125 and is the goat («внеочередной козёл»).
8. **Finishing doubles**: out with [6|6] → the loser records a flat 100, then the
   finisher's side is reset to 0; out with [0|0] → the loser is the goat at once
   («сопливый козёл»); with both → «адмирал».
9. **Match end**: an open score at ``match_limit`` (125) is the goat («морской козёл»); one
   that had 124 and lost a fast round is «подвесной козёл».  Rating §1.16 with L = 125.

Void rounds do not count as rounds anywhere in §2.1: the match keeps its own count of
played rounds (:class:`SeaMatch`), which ``MatchState.round_no`` (every dealt round) is not.

Where RULES.md §2.1 is silent or unclear, this module chooses (``docs/VARIANTS.md``,
"sea_goat"):

- Rule 3, the loser after an out without teams: the side that went out is never the
  loser; the loser is the strictly highest of the other sides (the same as the rule's
  words whenever a hand left holding tiles is worth more than 0, which only
  ``both_doubles_value`` 0 can break).
- Rule 3/4, ``recorded``: the loser's round points, pot included, even when a closed score
  loses them below the threshold (the scores show that they were lost).
- Rule 5, round 4 with [6|6] in the bazar: the round is led per §1.5 (whatever tile that
  gives) and is not fast.  A §1.5 lead is never fast, even when §1.5 itself gives [6|6] or
  [0|0].  The round-4 leader leads [6|6] only: the extraordinary lead of rule 7 belongs to
  a leader entitled to a fast lead by rule 6 (every other side open), which nobody is in
  round 4.  From round 5 on every round is led per §1.6, whatever the scores.
- Rules 5–6, "every other side": in team play the other team; the leader's own score may
  be closed.  Where fast leads are not allowed, [6|6] and [0|0] may not lead a §1.6 round
  at all (not even as a lead that is not fast).
- Rule 6, the replay of a void round: the kept tiles stay in the leader's hand, the other
  21 or 22 tiles are shuffled from the seed (round number and attempt, as any deal) and
  dealt seat by seat, the leader taking 6 (or 5) and the others 7; a misdeal (§1.3) of the
  resulting hands deals the shuffled tiles again.  The replay is fast as the void round was.
- Rule 7 and the bazar: a player who cannot place two tiles at the start of the turn plays
  one tile if one fits, else draws per §1.8 until one fits and plays that one; two
  orientations of a pair on equal ends are two moves.
- Rule 7, the pot: the loser's 125 gets the pot on top (rule 3).
- Rules 7 and 9: the loser of an extraordinary round that had 124 is titled
  «внеочередной козёл», not «подвесной козёл» (rule 7 names that goat).
- Rules 8 and 9: a fast round won by going out with [6|6] is still a fast round: its loser
  records 100 and, if it had 124, is «подвесной козёл».
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import errors
from ..events import Misdeal
from ..layout import GAP_OPEN, fit_mask
from ..moves import GAP, LEFT, RIGHT, Move, several, single
from ..rules import Option
from ..scoring import goats_of, rating
from ..table import Table, holder_of_first, misdeal_reason, shuffled_deal
from ..tiles import PIPS, TILE_ID, TILES, Tile, ids_of
from ..variant import LEAD_ORDER, MAX_DEALS, Flag, MatchResult, RoundEnd, Variant, register

__all__ = ["SeaGoat", "SeaMatch", "FLAT", "FAST_ALLOWED"]

_ZERO = TILE_ID[Tile(0, 0)]
_SIX = TILE_ID[Tile(6, 6)]
_ZERO_SIX = TILE_ID[Tile(0, 6)]
_ZERO_BIT = 1 << _ZERO
_SIX_BIT = 1 << _SIX
_ZERO_SIX_BIT = 1 << _ZERO_SIX

#: The tiles the leader keeps when a fast round is void (RULES.md §2.1 rule 6), per fast lead.
_KEPT = {"6-6": _SIX_BIT, "0-0": _ZERO_BIT, "extra": _ZERO_BIT | _SIX_BIT}


def _kept_tiles(fast: str) -> str:
    """The tiles the leader keeps after a void fast round, as text (RULES.md §2.1 rule 6)."""
    return " and ".join(str(TILES[i]) for i in ids_of(_KEPT[fast]))


#: The flat round points of a fast round's loser (RULES.md §2.1 rules 6–7) [points].
FLAT = {"6-6": 50, "0-0": 75, "extra": 125}
#: The fast leads as the flag ``fast`` words them (:class:`engine.variant.Flag`).
FAST_WORDS = {"6-6": "six", "0-0": "zero", "extra": "extra"}
#: Round points of the loser when the winner went out with [6|6] (RULES.md §2.1 rule 8).
SIX_OUT = 100
#: ``Table.memo`` of a round led per §1.6 in which [6|6] and [0|0] may lead (rule 6).
FAST_ALLOWED = "fast_allowed"
#: The extraordinary lead (RULES.md §2.1 rule 7): [0|0] on the left, [6|6] on the right.
_EXTRA_LEAD = several(((_ZERO, LEFT, False, False), (_SIX, RIGHT, False, False)))

# move_key bits (RULES.md §2.1 rules 6–7)
_TWO_TILES = 1       # every turn places two tiles (rule 7)
_MAY_FAST = 2        # a §1.6 lead that may be [6|6], [0|0] or both (rules 6–7)
_REPLAY_EXTRA = 4    # the replay of a void extraordinary round: that lead again (rule 6)


class SeaMatch(NamedTuple):
    """What Морской козёл keeps between rounds (``MatchState.own``, RULES.md §2.1).

    - ``rounds``: rounds played so far; void rounds do not count (rule 5, rule 6).
    - ``goats``/``title``: the match's goats and their title once a round decided them
      (rules 7–9: ``"sea"``, ``"hanging"``, ``"extraordinary"``, ``"snotty"``,
      ``"admiral"``), else ``()`` and None.
    """

    rounds: int = 0
    goats: tuple[int, ...] = ()
    title: str | None = None


def _finish(mask: int) -> str | None:
    """What the going-out move's tiles ``mask`` finished with (RULES.md §2.1 rule 8):
    ``"admiral"`` ([0|0] and [6|6]), ``"snotty"`` ([0|0]), ``"six"`` ([6|6]) or None."""
    zero = mask & _ZERO_BIT
    six = mask & _SIX_BIT
    if zero:
        return "admiral" if six else "snotty"
    return "six" if six else None


def _two_tile_moves(lay, hand: int) -> list[Move]:
    """Every two-tile move of ``hand`` after the extraordinary lead (RULES.md §2.1 rule 7),
    placements sorted by end: ``x`` on the left and ``y`` on the right (x ≠ y), then a tile
    on the left or the right end with [0|6] in the gap."""
    left = ids_of(hand & fit_mask(lay.ends[LEFT]))
    right = ids_of(hand & fit_mask(lay.ends[RIGHT]))
    out = [several(((x, LEFT, False, False), (y, RIGHT, False, False)))
           for x in left for y in right if x != y]
    if lay.ends[GAP] == GAP_OPEN and hand & _ZERO_SIX_BIT:
        for end, ids in ((LEFT, left), (RIGHT, right)):
            out.extend(several(((x, end, False, False), (_ZERO_SIX, GAP, False, False)))
                       for x in ids if x != _ZERO_SIX)
    return out


@register
class SeaGoat(Variant):
    """Морской козёл (RULES.md §2.1): see the module doc for the rules and the choices.

    Hooks overridden: the lead (:meth:`lead`, :meth:`new_table`), the replay of a void round
    (:meth:`deal_round`), the moves (:meth:`generate`, :meth:`move_key`,
    :meth:`extra_moves`), a move's effects (:meth:`on_move`: the fast lead; :meth:`turn`:
    the end of two tiles per turn), a blocked fast round (:meth:`blocked_end`), the hand
    value (:meth:`hand_value`), the recording (:meth:`score_round`) and the match end
    (:meth:`result`).
    """

    name = "sea_goat"
    section = "§2.1"
    layout = "line"
    teams = "optional"
    players = (2, 4)
    one_tile = False
    goat_word = "sea_goat"
    #: What a round says beside the scores: its fast lead (rules 6–7: ``six``, ``zero``,
    #: ``extra``), while it is played and in its summary, and the two tiles a turn after the
    #: extraordinary lead (rule 7).
    flags = (Flag("fast", during=True, at_end=True), Flag("two_tiles"))
    options = {
        "match_limit": 125,
        "open_threshold": 25,
        "both_doubles_value": Option(12, (0, 1000), choices=("12", "75"), unit="points"),
        "fish_without_double": True,
        "bazar_reserve": 0,
        "teams": False,
        "turn_timeout": 60,
        "afk_limit": 2,
    }

    # ------------------------------------------------------------------ the deal

    def start(self, rules: Any, players: int) -> dict[str, Any]:
        """Scores and (always empty) remembered points of 0, pot 0, no round played yet
        (RULES.md §2.1 rule 4: no remembered points)."""
        out = super().start(rules, players)
        out["own"] = SeaMatch()
        return out

    @staticmethod
    def rounds_played(state: Any) -> int:
        """Rounds played before the one being dealt, void rounds left out (RULES.md §2.1)."""
        ex = state.own
        return ex.rounds if isinstance(ex, SeaMatch) else 0

    def lead(self, state: Any, hands: tuple[int, ...], round_no: int
             ) -> tuple[int, int, str | None]:
        """``(leader, lead tile id or -1, fast lead or None)`` (RULES.md §2.1 rules 5–6).

        The replay of a void round: its leader leads the same again (fast as before); the
        deal must hold the kept tiles in that leader's hand, else
        :class:`engine.errors.InvalidDeal`.  Round k of the played rounds: k = 1, and k = 2
        or 3 while no side has an open score, per §1.5; k = 4 while none has, [6|6] by its
        holder as a fast lead (per §1.5, not fast, when [6|6] is in the bazar); otherwise
        §1.6 (the previous round's finisher or fisher, any tile — [6|6] and [0|0] as
        :meth:`new_table` allows)."""
        prev = state.round
        if round_no > 1 and prev.end == "void":
            kept = _KEPT[prev.fast]
            leader = prev.leader
            if hands[leader] & kept != kept:
                raise errors.InvalidDeal(
                    f"seat {leader} leads the void round again and must hold "
                    f"{_kept_tiles(prev.fast)}",
                    "RULES.md §2.1 rule 6")
            return leader, (-1 if prev.fast == "extra" else ids_of(kept)[0]), prev.fast
        k = self.rounds_played(state) + 1
        closed = not any(s > 0 for s in state.scores)
        if k == 1 or (closed and k <= 4):
            if k == 4:
                for seat, h in enumerate(hands):
                    if h & _SIX_BIT:
                        return seat, _SIX, "6-6"
            seat, tid = holder_of_first(hands, LEAD_ORDER)
            return seat, tid, None
        return prev.last, -1, None

    def round_flags(self, rs: Any) -> tuple[tuple[str, str], ...]:
        """The round's fast lead (rules 6–7) and, after the extraordinary lead, its two tiles
        a turn (rule 7)."""
        out = []
        if rs.fast:
            out.append(("fast", FAST_WORDS[rs.fast]))
        if rs.phase == 2:
            out.append(("two_tiles", "on"))
        return tuple(out)

    def end_flags(self, scored: Any) -> tuple[tuple[str, str], ...]:
        """The scored round's fast lead, if it had one (rules 6–7)."""
        fast = (scored.extra or {}).get("fast")
        return (("fast", FAST_WORDS[fast]),) if fast else ()

    def new_table(self, state: Any, hands: tuple[int, ...], bazar: tuple[int, ...],
                  round_no: int, events: list | None = None) -> Table:
        """The round's table (:meth:`lead`); in a round led per §1.6 whose leader's every
        other side has an open score, [6|6], [0|0] and both at once may lead (RULES.md §2.1
        rules 6–7): ``memo`` is :data:`FAST_ALLOWED`."""
        t = super().new_table(state, hands, bazar, round_no, events)
        if t.lead_id < 0 and t.fast is None:
            own = t.sides[t.leader]
            if all(s > 0 for side, s in enumerate(state.scores) if side != own):
                t.memo = FAST_ALLOWED
                t.mkey = self.move_key(t)
        return t

    def deal_round(self, state: Any, round_no: int) -> tuple[Table, list]:
        """Deal round ``round_no`` (RULES.md §1.2, §1.3).  After a void round (RULES.md §2.1
        rule 6) its leader keeps the lead tile(s); the other tiles are shuffled from the
        seed and dealt in seat order, the leader taking 6 (5 after the extraordinary lead)
        and every other seat 7; the rest is the bazar.  A misdeal deals them again."""
        prev = state.round
        if round_no == 1 or prev.end != "void":
            return super().deal_round(state, round_no)
        kept = _KEPT[prev.fast]
        leader = prev.leader
        events: list = []
        for attempt in range(MAX_DEALS):
            order = [i for i in shuffled_deal(state.players, state.seed, round_no, attempt)
                     if not kept >> i & 1]
            hands = []
            k = 0
            for seat in range(state.players):
                m = kept if seat == leader else 0
                size = self.hand_size(state.players) - m.bit_count()
                for i in order[k:k + size]:
                    m |= 1 << i
                k += size
                hands.append(m)
            found = misdeal_reason(hands)
            if found is None:
                t = self.new_table(state, tuple(hands), tuple(order[k:]), round_no)
                events.append(self.dealt_event(t, round_no))
                return t, events
            events.append(Misdeal(round_no, *found))
        raise RuntimeError("no valid deal found")  # pragma: no cover

    def lead_rule(self, table: Table | None = None) -> str:
        """The rule a refused lead breaks: §1.5 for a forced first lead, §2.1 rule 5–6 for the
        fast leads (forced or refused)."""
        if table is not None and table.fast is not None:
            return "RULES.md §2.1 rules 5–6"
        if table is not None and table.lead_id < 0:
            return "RULES.md §2.1 rule 6"
        return "RULES.md §1.5"

    # ------------------------------------------------------------------ moves

    def move_key(self, t: Table) -> int:
        """Bits of what the moves depend on besides the hand and the ends (RULES.md §2.1
        rules 6–7): 1 while every turn places two tiles, 2 when [6|6]/[0|0] may lead, 4 for
        the replay of a void extraordinary round (that lead only)."""
        if not t.layout.line:
            if t.fast == "extra":
                return _REPLAY_EXTRA
            return _MAY_FAST if t.memo == FAST_ALLOWED else 0
        return _TWO_TILES if t.phase else 0

    def generate(self, t: Table) -> tuple[Move, ...]:
        """The legal moves of ``t.to_act`` (RULES.md §2.1 rules 1, 6, 7).

        A lead: the forced tile (§1.5, rule 5), the same fast lead again (rule 6), or any
        tile, [6|6] and [0|0] only where fast leads are allowed and then also both at once
        when the hand holds them.  While every turn places two tiles (``t.phase``): only
        the two-tile moves, which the round core lists only when there are some
        (:meth:`turn`).  Otherwise one tile, or two doubles one on each end."""
        lay = t.layout
        hand = t.hands[t.to_act]
        if not lay.line:
            if t.fast == "extra":
                return (_EXTRA_LEAD,) if hand & _KEPT["extra"] == _KEPT["extra"] else ()
            if t.lead_id >= 0:
                return (single(t.lead_id, -1),) if hand >> t.lead_id & 1 else ()
            may = t.memo == FAST_ALLOWED
            out = [single(tid, -1) for tid in ids_of(hand)
                   if may or tid not in (_ZERO, _SIX)]
            if may and hand & _KEPT["extra"] == _KEPT["extra"]:
                out.append(_EXTRA_LEAD)
            return tuple(out)
        if t.phase:
            pairs = _two_tile_moves(lay, hand)
            if pairs:
                return tuple(pairs)
        return super().generate(t)

    def extra_moves(self, t: Table) -> list[Move]:
        """Two doubles at once, one on the left and one on the right end (RULES.md §2.1
        rule 1; never a lead)."""
        lay = t.layout
        if not lay.line:
            return []
        return [several(p) for p in lay.double_sets(t.hands[t.to_act], least=2, most=2,
                                                   ends=(LEFT, RIGHT))]

    def why_not(self, t: Table, move: Move) -> str:
        """Why a move whose tiles fit is refused (RULES.md §2.1 rules 1, 7)."""
        if t.phase:
            return ("after the extraordinary lead each turn places two tiles while it can: "
                    "one on the left and one on the right end, or [0|6] into the gap and "
                    "one on an end (RULES.md §2.1 rule 7)")
        if len(move) > 2:
            return "at most two tiles at once (RULES.md §2.1 rule 1)"
        if len(move) == 2:
            return ("two tiles at once only as two doubles, one on each end of the line "
                    "(RULES.md §2.1 rule 1)")
        return super().why_not(t, move)

    # ------------------------------------------------------------------ a move's effects

    def on_move(self, t: Table, seat: int, codes) -> None:
        """After the lead (RULES.md §2.1 rules 6–7): a lead of [6|6] or [0|0] where fast leads
        are allowed makes the round fast (``t.fast`` ``"6-6"``/``"0-0"``), both at once
        ``"extra"``; after the extraordinary lead every turn places two tiles
        (``t.phase`` 2) until a player places one (see :meth:`turn`)."""
        if len(t.layout.line) != len(codes):
            if t.phase and len(codes) == 1:  # one tile: this player could not place two
                t.phase = 0
                t.mkey = self.move_key(t)
            return
        if t.memo == FAST_ALLOWED:
            if len(codes) == 2:
                t.fast = "extra"
            elif codes[0][0] == _SIX:
                t.fast = "6-6"
            elif codes[0][0] == _ZERO:
                t.fast = "0-0"
            t.memo = None
        if t.fast == "extra":
            t.phase = 2
        t.mkey = self.move_key(t)

    def turn(self, t: Table, seat: int, codes) -> int:
        """The next seat moves.  While every turn places two tiles (RULES.md §2.1 rule 7),
        a next player whose hand cannot place two at the start of the turn ends that phase:
        from then on turns are normal (rule 1; §1.8 when nothing fits)."""
        nxt = t.nxt[seat]
        if t.phase and not _two_tile_moves(t.layout, t.hands[nxt]):
            t.phase = 0
            t.mkey = self.move_key(t)
        return nxt

    def blocked_end(self, t: Table, cause: str) -> str:
        """A blocked fast round is void and dealt again (RULES.md §2.1 rules 6–7: no fish, a
        or b); any other blocked round is a fish (§1.10)."""
        return "void" if t.fast else "fish"

    # ------------------------------------------------------------------ scoring

    def hand_value(self, mask: int, rules: Any) -> int:
        """RULES.md §2.1 rule 2: only [0|0] → 25, only [6|6] → 50, only [0|0] and [6|6] →
        ``both_doubles_value``; any other hand its pips ([0|0] beside other tiles counts 0)
        [points]."""
        if mask == _ZERO_BIT:
            return 25
        if mask == _SIX_BIT:
            return 50
        if mask == _ZERO_BIT | _SIX_BIT:
            return rules.both_doubles_value
        return sum(PIPS[i] for i in ids_of(mask))

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """Record a finished round (RULES.md §2.1 rules 3, 4, 6–9).

        The loser: after an out, the strictly highest hand value among the other sides (in
        team play the other team); after a fish, among all sides.  Finishing doubles (rule
        8) decide first: out with [0|0] (and [6|6]) ends the match with the losers as goats,
        nothing recorded; out with [6|6] makes the round points a flat 100.  Otherwise a
        fast round's are its flat value (50, 75, 125), else the loser's hand value.  One
        loser records them with the pot on top per rule 4; tied losers put each one's round
        points into the pot.  Then the finisher of a [6|6] out is reset to 0, and the goats
        are found (rules 7, 9).  A void round records nothing.  ``RoundScored.extra`` holds
        ``fast`` when the round was fast; ``losers`` the losing sides (all tied ones)."""
        rules = state.rules
        n = self.sides_count(state.players, rules)
        values = self.side_values(state, t)
        played = self.rounds_played(state)
        scores = list(state.scores)
        zeros = (0,) * n
        pot = state.pot
        report = {"fast": t.fast} if t.fast else None
        if t.end == "void":
            return RoundEnd(state.scores, zeros, pot, self.scored_event(
                state, t, values, zeros, state.scores, zeros, 0, pot, (), report),
                own=SeaMatch(played))
        by = t.sides[t.last]
        if t.end == "out":
            field = [1 - by] if rules.teams else [s for s in range(n) if s != by]
        else:
            field = list(range(n))
        top = max(values[s] for s in field)
        losers = tuple(s for s in field if values[s] == top)
        finish = _finish(t.layout.last_mask) if t.end == "out" else None
        recorded = [0] * n
        pot_won = 0
        goats: tuple[int, ...] = ()
        title = None
        if finish in ("snotty", "admiral"):
            goats, title = losers, finish
        else:
            flat = SIX_OUT if finish == "six" else FLAT.get(t.fast)
            if len(losers) == 1:
                s = losers[0]
                pts = (values[s] if flat is None else flat) + pot
                recorded[s] = pts
                pot_won, pot = pot, 0
                if scores[s] > 0:
                    scores[s] += pts
                elif pts >= rules.open_threshold:
                    scores[s] = pts
                if t.fast == "extra":
                    goats, title = (s,), "extraordinary"
            else:
                pot += sum(values[s] if flat is None else flat for s in losers)
            if finish == "six":
                scores[by] = 0
            if not goats:
                goats = goats_of(rules, tuple(scores))
                if goats:
                    hanging = (t.fast and len(losers) == 1 and losers[0] in goats
                               and state.scores[losers[0]] == rules.match_limit - 1)
                    title = "hanging" if hanging else "sea"
        scores_t = tuple(scores)
        return RoundEnd(scores_t, zeros, pot, self.scored_event(
            state, t, values, recorded, scores_t, zeros, pot_won, pot, losers, report),
            own=SeaMatch(played + 1, goats, title))

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """The match's end after a recorded round (RULES.md §2.1 rules 7–9): the goats and
        title :meth:`score_round` found; rating §1.16 with L = ``match_limit`` on the
        scores, goats 0."""
        ex = end.own
        if not ex.goats:
            return None
        return MatchResult("limit", ex.goats, rating(state.rules, end.scores, ex.goats), None,
                           ex.title)
