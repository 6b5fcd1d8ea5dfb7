"""The skill rating: a multiplayer Weng–Lin rating (``openskill``'s Plackett–Luce model) per
variant and board, and which boards a finished match counts on.

Pure functions of the result rows of one match; the repository applies them in the
transaction that ends the match (:func:`storage.repository.record_results`), and revision
0005 applies the same functions to the stored history, match by match in the order they
finished, so the stored ratings always equal a recomputation from ``match_results``.

- **Ranks** (RULES.md §1.15–§1.16, §2.0.7): a match's sides (a player, or a team of two with
  ``teams``, §1.14) are ranked by their place in the match (``PlayerResult.place``: 1 is best,
  equal places are a tie); a team is one rank, its members rated together.  A player who left
  the match (their seat handed to a computer player) is rated as the timed-out player of
  §1.16: alone, below every side.
- **Boards**: every chat has two boards per variant — one that counts only matches without
  computer players (``with_bots`` False) and one that counts every match (True); the chat's
  admins choose in /settings which one the chat's /top shows.  The global board
  (:data:`storage.models.GLOBAL_SCOPE`) counts only matches without computer players ("fair
  boards").  A computer player is a seat that a bot held from the start (``bot`` set); a bot
  that took the seat of a player who left does not make a match one against computer players.
- **Computer players** on a board that counts them enter every match at the model's initial
  rating and are not rated themselves.
- **The conservative estimate** ``μ − 3σ`` (:func:`conservative`) orders the boards; it starts
  at 0 (μ = 25, σ = 25/3, the model's defaults).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "INITIAL",
    "MODEL",
    "Entry",
    "boards",
    "conservative",
    "entries_of",
    "rate",
    "ranked_teams",
]

#: The rating model: openskill's Plackett–Luce with its defaults (μ 25, σ 25/3, β 25/6,
#: τ 25/300 of added uncertainty per match).
MODEL = PlackettLuce()
#: (μ, σ) of a player who has not played on a board yet.
INITIAL: tuple[float, float] = (float(MODEL.mu), float(MODEL.sigma))


def conservative(mu: float, sigma: float) -> float:
    """The conservative estimate of a skill, ``μ − 3σ`` [rating units]: the board's order."""
    return float(mu) - 3.0 * float(sigma)


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat of a finished match as the rating reads it: ``user_id`` (negative for a
    computer player), ``side`` (the seat, or its team, RULES.md §1.14), ``place`` (1 best),
    ``bot`` a computer player's strength (None for a person) and ``left`` True for a person
    who left the match (their seat handed to a computer player)."""

    user_id: int
    side: int
    place: int
    bot: str | None = None
    left: bool = False


def boards(entries: Sequence[Entry], chat_id: int, global_scope: int
           ) -> list[tuple[int, bool]]:
    """The boards ``(scope, with_bots)`` a match of ``chat_id`` counts on: the chat's board
    of every match, and — when no computer player held a seat from the start — the chat's
    board without computer players and the global one."""
    out = [(chat_id, True)]
    if not any(e.bot for e in entries):
        out += [(chat_id, False), (global_scope, False)]
    return out


def ranked_teams(entries: Sequence[Entry], *, with_bots: bool
                 ) -> list[tuple[int, list[Entry]]]:
    """The teams of the rating and their ranks (lower is better): one team per side, its
    people (and its computer players when ``with_bots``) by the side's place; every player
    who left alone, ranked below all sides.  Sides with nobody rated are left out."""
    sides: dict[int, list[Entry]] = {}
    places: dict[int, int] = {}
    leavers: list[Entry] = []
    for e in entries:
        if e.left:
            leavers.append(e)
            continue
        places.setdefault(e.side, e.place)
        if e.bot is None or with_bots:
            sides.setdefault(e.side, []).append(e)
    out = [(places[s], members) for s, members in sorted(sides.items())]
    last = max([p for p, _ in out] + list(places.values()) + [0]) + 1
    out += [(last, [e]) for e in leavers]
    return out


def rate(entries: Sequence[Entry], ratings: Mapping[int, tuple[float, float]], *,
         with_bots: bool) -> dict[int, tuple[float, float]]:
    """The new ``(μ, σ)`` of every person of the match on one board: ``ratings`` holds the
    ratings they had there (missing: :data:`INITIAL`).  Computer players count at
    :data:`INITIAL` when ``with_bots`` and get no rating.  A match with fewer than two rated
    teams changes nobody's rating (they are returned unchanged)."""
    teams = ranked_teams(entries, with_bots=with_bots)
    people = [e.user_id for _, members in teams for e in members if e.bot is None]
    if len(teams) < 2:
        return {uid: ratings.get(uid, INITIAL) for uid in people}
    model_teams = []
    for _, members in teams:
        model_teams.append([
            MODEL.create_rating(list(ratings.get(e.user_id, INITIAL) if e.bot is None
                                     else INITIAL)) for e in members])
    new = MODEL.rate(model_teams, ranks=[rank for rank, _ in teams])
    out: dict[int, tuple[float, float]] = {}
    for (_, members), rated in zip(teams, new, strict=True):
        for e, r in zip(members, rated, strict=True):
            if e.bot is None:
                out[e.user_id] = (float(r.mu), float(r.sigma))
    return out


def entries_of(rows: Iterable[object]) -> list[Entry]:
    """The :class:`Entry` of each result row (anything with ``user_id``, ``side``, ``place``,
    ``bot``, ``left_match``)."""
    return [Entry(int(r.user_id), int(r.side), int(r.place), r.bot, bool(r.left_match))
            for r in rows]
