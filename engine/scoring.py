"""Hand values, recording a round, the pot, goats and rating (RULES.md §1.11–§1.16).

Scores are kept per *side*: a side is a player, or a team when ``rules.teams`` (§1.14; which
side a seat is on is the variant's :meth:`engine.variant.Variant.side_of`).  All values are
points (integers).
"""

from __future__ import annotations

from typing import NamedTuple

from .rules import Rules
from .tiles import PIPS, ZERO_DOUBLE_ID, ids_of

__all__ = [
    "hand_value",
    "RoundRecord",
    "record_round",
    "record_points",
    "goats_of",
    "rating",
    "timeout_rating",
    "round_half_up_div10",
    "round_half_up",
    "race_rating",
]

_ZERO_DOUBLE_BIT = 1 << ZERO_DOUBLE_ID


def hand_value(hand_mask: int, rules: Rules) -> int:
    """Pips of a hand (RULES.md §1.11); the single tile [0|0] alone counts
    ``rules.lone_zero_double_value`` (default 10), [0|0] with other tiles counts 0."""
    if hand_mask == _ZERO_DOUBLE_BIT:
        return rules.lone_zero_double_value
    return sum(PIPS[i] for i in ids_of(hand_mask))


class RoundRecord(NamedTuple):
    """What recording one round did, per side (RULES.md §1.12, §1.13).

    ``recorded``: round points written this round (pot included); ``scores``/``remembered``/
    ``pot`` after the round; ``pot_won``: the pot paid out this round [points].
    """

    hand_values: tuple[int, ...]
    recorded: tuple[int, ...]
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot_won: int
    pot: int


def _write(rules: Rules, scores: list[int], remembered: list[int], side: int, pts: int) -> None:
    """RULES.md §1.12 for one side that records ``pts`` round points."""
    if scores[side] > 0:
        scores[side] += pts
    elif pts >= rules.open_threshold:
        scores[side] = pts + remembered[side]
        remembered[side] = 0
    else:
        remembered[side] += pts


def record_points(rules: Rules, scores: list[int], remembered: list[int], side: int,
                  points: int) -> None:
    """RULES.md §1.12 for one side that records ``points`` round points, as a step of its own
    (e.g. ЧЧВ's 50s after the round's recording, §2.3 rule 4): added to an open score, opening
    it with the remembered points at ``open_threshold`` or more, else remembered.  ``scores``
    and ``remembered`` are per-side lists, changed in place [points]."""
    _write(rules, scores, remembered, side, points)


def _unique_max(values: list[int]) -> int:
    """Index of the strictly highest value, or -1 when the top is tied."""
    top = max(values)
    idx = values.index(top)
    return -1 if values.count(top) > 1 else idx


def record_round(
    rules: Rules,
    scores: tuple[int, ...],
    remembered: tuple[int, ...],
    pot: int,
    hand_values: tuple[int, ...],
    end: str,
    by_side: int,
) -> RoundRecord:
    """Record a finished round (RULES.md §1.12–§1.14).

    ``hand_values`` per side (§1.11, a team's is the sum of both hands); ``end`` is ``"out"``
    (``by_side`` went out) or ``"fish"`` (``by_side`` fished).  The pot goes, before §1.12, to
    the side with the strictly highest round points; a tied fish feeds the pot (§1.13).
    Raises ``ValueError`` for an unknown ``end``.
    """
    n = len(hand_values)
    sc = list(scores)
    rem = list(remembered)
    pts = [0] * n
    writes = [False] * n      # sides that record per §1.12
    resets = [False] * n      # sides whose remembered points are reset to 0
    feed = 0                  # points a tied fish adds to the pot
    if end == "out":
        for s in range(n):
            if s == by_side:
                resets[s] = True
            else:
                pts[s] = hand_values[s]
                writes[s] = True
    elif end == "fish":
        mode = rules.fish_scoring
        if mode == "each_own":
            pts = list(hand_values)
            writes = [True] * n
        else:
            m = _unique_max(list(hand_values))
            if m < 0:
                feed = sum(hand_values) if mode == "all_to_max" else max(hand_values)
            elif mode == "all_to_max":
                pts[m] = sum(hand_values)
                writes[m] = True
                resets = [s != m for s in range(n)]
            else:  # own_to_max
                pts[m] = hand_values[m]
                writes[m] = True
    else:
        raise ValueError(f"unknown round end {end!r}")

    pot_won = 0
    if pot:
        w = _unique_max(pts)
        if w >= 0:
            pts[w] += pot
            pot_won = pot
            pot = 0
    for s in range(n):
        if resets[s]:
            rem[s] = 0
        if writes[s]:
            _write(rules, sc, rem, s, pts[s])
    return RoundRecord(tuple(hand_values), tuple(pts), tuple(sc), tuple(rem), pot_won, pot + feed)


def goats_of(rules: Rules, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Sides whose open score reached ``rules.match_limit`` (RULES.md §1.15)."""
    return tuple(s for s, v in enumerate(scores) if v >= rules.match_limit)


def round_half_up(num: int, den: int) -> int:
    """``num / den`` rounded half up (towards +infinity on .5), exactly; ``den`` > 0
    (RULES.md §1.16, §2.0.7)."""
    return (2 * num + den) // (2 * den)


def race_rating(scores: tuple[int, ...], base: int, zero: tuple[int, ...],
                limit: int) -> tuple[int, ...]:
    """Rating points per side of a race (RULES.md §2.0.7): the sides in ``zero`` get 0, every
    other side max(1, round_half_up((score − ``base``) × 10 / ``limit``)); ``base`` is the
    goat's score [points]."""
    return tuple(0 if s in zero else max(1, round_half_up((v - base) * 10, limit))
                 for s, v in enumerate(scores))


def round_half_up_div10(x: int) -> int:
    """``x / 10`` rounded half up (towards +infinity on .5), exactly (RULES.md §1.16)."""
    return (x + 5) // 10


def rating(rules: Rules, scores: tuple[int, ...], goats: tuple[int, ...]) -> tuple[int, ...]:
    """Rating points per side for a finished match (RULES.md §1.16).

    A goat gets 0; every other side max(1, round_half_up((L − 1 − score) / 10)).
    """
    limit = rules.match_limit
    return tuple(
        0 if s in goats else max(1, round_half_up_div10(limit - 1 - v))
        for s, v in enumerate(scores)
    )


def timeout_rating(scores: tuple[int, ...], timed_out_side: int) -> tuple[int, ...]:
    """Rating points per side for a match interrupted by timeout (RULES.md §1.16).

    The timed-out side gets 0; every other side max(1, round_half_up((S_t − score) / 10)).
    """
    st = scores[timed_out_side]
    return tuple(
        0 if s == timed_out_side else max(1, round_half_up_div10(st - v))
        for s, v in enumerate(scores)
    )
