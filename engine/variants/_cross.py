"""What the variants on the cross share (RULES.md §2.0.2–§2.0.7, §2.2–§2.5).

- :func:`doubles_at_once`: the moves of 2–4 doubles at once once a spinner exists (Осёл
  §2.2 rule 2, ЧЧВ §2.3).
- :class:`FivesRace`: the fives races Телефон (§2.4) and Маггинс (§2.5): points on the count
  after every move (§2.0.6), the race won mid-round (§2.0.7), plain pip sums, the round-end
  points of an out and of a fish, the goat and the race rating.

Not a variant itself (nothing here is registered).
"""

from __future__ import annotations

from typing import Any

from ..events import Scored
from ..moves import Move, several
from ..table import Table
from ..tiles import DOUBLE_MASK, PIPS, ids_of
from ..variant import MatchResult, RoundEnd, Variant

__all__ = ["two_doubles_fit", "doubles_at_once", "round_half_up", "race_rating",
           "FivesRace"]


def two_doubles_fit(t: Table) -> bool:
    """Whether the hand of ``t.to_act`` holds at least two doubles that fit open ends: the
    cheap test before looking for moves of several doubles (RULES.md §2.0.4)."""
    d = t.hands[t.to_act] & t.layout.fit & DOUBLE_MASK
    return bool(d & (d - 1))


def doubles_at_once(t: Table, closing: bool) -> list[Move]:
    """Once a spinner exists, the moves of 2–4 doubles of the hand of ``t.to_act`` at once,
    each on a different open end that shows its number, each face up or — with ``closing`` —
    closed (RULES.md §2.2 rule 2, §2.3, §2.0.4); none before the spinner."""
    lay = t.layout
    if lay.spinner < 0 or not two_doubles_fit(t):
        return []
    return [several(p) for p in lay.double_sets(t.hands[t.to_act], least=2, most=4,
                                                closing=closing)]


def round_half_up(num: int, den: int) -> int:
    """``num / den`` rounded half up (towards +infinity on .5), exactly; ``den`` > 0
    (RULES.md §1.16, §2.0.7)."""
    return (2 * num + den) // (2 * den)


def race_rating(scores: tuple[int, ...], base: int, zero: tuple[int, ...],
                limit: int) -> tuple[int, ...]:
    """Rating points per side of a race (RULES.md §2.0.7): the sides in ``zero`` get 0, every
    other side max(1, round_half_up((score − base) × 10 / ``limit``)); ``base`` is the goat's
    score [points]."""
    return tuple(0 if s in zero else max(1, round_half_up((v - base) * 10, limit))
                 for s, v in enumerate(scores))


class FivesRace(Variant):
    """The fives races on the cross: Телефон (RULES.md §2.4) and Маггинс (§2.5).

    After every move — the lead too — a count (§2.0.6, :meth:`engine.layout.Layout.count`)
    that is a positive multiple of 5 scores its face value for the mover's side
    (:class:`engine.events.Scored`); ``table.count`` holds the count after the last move.  A
    race reaching ``match_limit`` mid-round ends the match at that move (``end`` ``"limit"``,
    §2.0.7, no round-end scoring).  At the round's end :meth:`out_points` and
    :meth:`fish_points` score; scores start at 0, with no thresholds, remembered points or
    pot.  Hand values are plain pip sums ([0|0] is 0).  The goat is the side with the
    fewest points (all tied sides).

    Replay adds per round ``play_points`` (per side, always present; the points on the count
    during the round) and at the top ``winners``; ``scores`` = the previous scores +
    ``play_points`` + ``recorded`` (the round-end points).
    """

    layout = "cross"
    race = True
    one_tile = False

    # ------------------------------------------------------------------ play scoring

    def on_move(self, t: Table, seat: int, codes: Any) -> None:
        """RULES.md §2.4 rule 2, §2.5 rule 4: the count after the move; a positive multiple
        of 5 scores it for the mover's side; reaching the side's limit ends the race there
        (§2.0.7)."""
        c = t.layout.count()
        t.count = c
        if c and c % 5 == 0:
            side = t.sides[seat]
            t.points[side] += c
            if t.events is not None:
                t.events.append(Scored(seat, side, c, c))
            if t.limits and t.points[side] >= t.limits[side]:
                t.end = "limit"

    def limits(self, state: Any) -> tuple[int, ...]:
        """Per side, the points on the count that reach ``match_limit`` this round (RULES.md
        §2.0.7) [points]."""
        limit = state.rules.match_limit
        return tuple(limit - s for s in state.scores)

    # ------------------------------------------------------------------ round end

    def hand_value(self, mask: int, rules: Any) -> int:
        """The plain pip sum of a hand; [0|0] is 0 (RULES.md §2.0.7)."""
        return sum(PIPS[i] for i in ids_of(mask))

    def out_points(self, others: int) -> int:
        """Round-end points of the out side, from ``others``: the sum of the other sides'
        hands [points]."""
        raise NotImplementedError

    def fish_points(self, margin: int) -> int:
        """Round-end points of the side with the strictly lowest hand after a fish, from
        ``margin``: the sum of the other sides' hands minus its own [points]."""
        raise NotImplementedError

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        """RULES.md §2.4 rule 3, §2.5 rule 5: an out scores :meth:`out_points` for the out
        side; a fish scores :meth:`fish_points` for the side with the strictly lowest hand
        (a tie scores nothing); a race won mid-round (``"limit"``) scores only its play
        points (§2.0.7)."""
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
        extra = {"play_points": tuple(t.points)}
        return RoundEnd(scores, zeros, 0, self.scored_event(
            state, t, values, pts, scores, zeros, 0, 0, extra=extra))

    # ------------------------------------------------------------------ match end

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        """RULES.md §2.0.7: the match ends once a side's score reaches ``match_limit`` (its
        winners); the goats are the sides with the fewest points; race rating."""
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
        """The race interrupted by timeout of ``seat`` (RULES.md §1.16–§1.17 with §2.0.7):
        the timed-out side gets 0, every other side max(1, round_half_up((score − S_t) × 10
        / ``match_limit``)), S_t being the timed-out side's score — the race rating with the
        timed-out side in the goat's place."""
        side = self.side_of(seat, state.rules)
        return MatchResult("timeout", (), race_rating(
            state.scores, state.scores[side], (side,), state.rules.match_limit), seat)

    def standing(self, state: Any) -> list[float]:
        """Per side, the points it still needs to win the race (higher is worse)."""
        limit = state.rules.match_limit
        return [float(limit - s) for s in state.scores]

    @property
    def standing_scale(self) -> float:
        """See :meth:`standing` [points]."""
        return 50.0
