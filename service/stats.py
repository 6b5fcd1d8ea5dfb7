"""Statistics: boards per variant with the skill rating, personal figures, the match history,
and the computer players' results kept apart (RULES.md §1.15, §1.16; issue 12 "Statistics
per variant", issue 15 "History", "A skill rating", "Fair boards").

A board is one chat (or all chats) in one variant, counting every match or only the matches
without computer players (``storage.skill``): the global board always counts only the
latter.  Boards are ordered by the conservative skill estimate μ − 3σ.
"""

from __future__ import annotations

import math
from typing import Any

from service.live.rulebook import variant_infos
from service.views import (
    BotStats,
    HistoryEntry,
    HistoryPage,
    HistoryPlayer,
    LeaderRow,
    MarkMean,
    MarkView,
    PersonalStats,
)
from storage import GLOBAL_SCOPE, Database
from storage import repository as repo

__all__ = ["HISTORY_PAGE", "Statistics"]

#: Matches per page of the history.
HISTORY_PAGE = 5


def _board(chat_id: int | None, with_bots: bool) -> tuple[int, bool]:
    """The board key ``(scope, with_bots)``: the global board counts no computer players."""
    if chat_id is None:
        return GLOBAL_SCOPE, False
    return chat_id, bool(with_bots)


def _personal(r: repo.StatsRow, chat_id: int | None, place: tuple[int, int] | None = None,
              marks: tuple[MarkMean, ...] = ()) -> PersonalStats:
    return PersonalStats(
        r.user_id, chat_id, r.matches, r.goats, r.rating, r.outs, r.fish,
        r.score_sum / r.matches if r.matches else 0.0, variant=r.variant,
        with_bots=r.with_bots, wins=r.wins, skill=r.skill, mu=r.mu, sigma=r.sigma,
        place=place[0] if place else None, players=place[1] if place else 0, marks=marks)


def _counts_marks(variant: str) -> tuple[str, ...]:
    """The names of the marks ``variant`` counts beside points (RULES.md §2), in its order."""
    info = variant_infos().get(variant)
    return tuple(m.name for m in info.marks) if info is not None else ()


def _means(names: tuple[str, ...], sums: dict[str, tuple[int, int]]) -> tuple[MarkMean, ...]:
    """Each of the marks ``names`` per match, from ``{name: (sum, matches)}``
    (:func:`storage.repository.mark_sums`); a mark no stored match holds is left out."""
    return tuple(MarkMean(n, sums[n][0] / sums[n][1], sums[n][1]) for n in names
                 if sums.get(n, (0, 0))[1])


def _marks_of(stored: list[dict[str, Any]] | None) -> tuple[MarkView, ...] | None:
    """A result row's marks (``match_results.marks``) as views; None when not stored."""
    if stored is None:
        return None
    return tuple(MarkView(str(m["name"]), int(m["count"]),
                          int(m["limit"]) if m.get("limit") is not None else None,
                          str(m.get("per", "seat"))) for m in stored)


class Statistics:
    """Read-only figures over ``db`` (kept up to date in the transaction that ends a match)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(self, chat_id: int | None = None, *, variant: str = "classic",
                          with_bots: bool = False, limit: int = 10,
                          offset: int = 0) -> tuple[LeaderRow, ...]:
        """People of one board by the skill estimate μ − 3σ, with the rating points of
        RULES.md §1.16, matches and goats: in one chat or (``chat_id`` None) over all chats,
        in one ``variant``; ``with_bots`` counts matches with computer players too (a chat's
        board only).  Ties: more rating points, fewer goats, more matches.  Only matches
        ended by limit or timeout count.  In a game whose marks are its result (Семёрка's
        палки, Генерал's lost rounds, RULES.md §2.8–§2.9) each row has them per match."""
        scope, bots = _board(chat_id, with_bots)
        marks = _counts_marks(variant)

        def read(conn):
            rows = repo.leaderboard(conn, scope, variant, bots, limit=limit, offset=offset)
            sums = repo.mark_sums(conn, [r.user_id for r in rows], scope, variant,
                                  bots) if marks else {}
            return rows, sums

        rows, sums = await self.db.read(read)
        return tuple(LeaderRow(offset + i + 1, r.user_id, r.name, r.rating, r.matches, r.goats,
                               r.skill, r.mu, r.sigma, r.wins, username=r.username,
                               marks=_means(marks, sums.get(r.user_id, {})))
                     for i, r in enumerate(rows))

    async def personal_stats(self, user_id: int, chat_id: int | None = None, *,
                             variant: str = "classic", with_bots: bool = False
                             ) -> PersonalStats:
        """A player's figures on one board (see :meth:`leaderboard`): matches, goats, rating
        points, outs, fish, average final score, first places, the skill rating and their
        place on the board (zeros and no place when they finished no match counted there);
        in a game whose marks are its result (RULES.md §2.8–§2.9) each mark per match."""
        scope, bots = _board(chat_id, with_bots)
        marks = _counts_marks(variant)

        def read(conn):
            row = repo.player_stats(conn, user_id, scope, variant, bots)
            if row is None:
                return None, None, {}
            sums = repo.mark_sums(conn, [user_id], scope, variant, bots) if marks else {}
            return row, repo.board_place(conn, user_id, scope, variant, bots), sums

        r, place, sums = await self.db.read(read)
        if r is None:
            return PersonalStats(user_id, chat_id, 0, 0, 0, 0, 0, 0.0, variant=variant,
                                 with_bots=bots)
        return _personal(r, chat_id, place, _means(marks, sums.get(user_id, {})))

    async def bot_matches_in_groups(self, user_id: int, variant: str = "classic") -> int:
        """How many finished matches of ``variant`` a person played in groups with computer
        players: on no board but the group's own of such matches (issue 20 item 7: the
        reason private /stats does not count what /history lists)."""
        return await self.db.read(repo.bot_matches_in_groups, user_id, variant)

    async def player_boards(self, user_id: int) -> tuple[PersonalStats, ...]:
        """Every board a player is on (any chat, any variant, either kind), without places;
        ``chat_id`` None for the global boards."""
        rows = await self.db.read(repo.player_boards, user_id)
        return tuple(_personal(r, None if r.scope == GLOBAL_SCOPE else r.scope) for r in rows)

    async def history(self, *, chat_id: int | None = None, user_id: int | None = None,
                      page: int = 0, per_page: int = HISTORY_PAGE,
                      with_bots: bool = False) -> HistoryPage:
        """The finished matches of a chat (``chat_id``) or of a person (``user_id``: their
        seats in every chat, a seat they left included), newest first, ``per_page`` a page;
        ``page`` is clamped to the pages there are.  The skill change shown per player is the
        chat's board (``with_bots`` as the chat counts them) for a chat's history, and for a
        person's the global board, or the chat's board of every match for a match with
        computer players."""
        total = await self.db.read(lambda c: repo.history_count(c, chat_id=chat_id,
                                                                user_id=user_id))
        pages = max(1, math.ceil(total / per_page))
        page = min(max(0, int(page)), pages - 1)
        rows = await self.db.read(lambda c: repo.history(
            c, chat_id=chat_id, user_id=user_id, limit=per_page, offset=page * per_page))
        entries = []
        for m in rows:
            bots = any(r.bot for r in m.results)
            if chat_id is not None:
                board = _board(chat_id, with_bots)
            else:
                board = (GLOBAL_SCOPE, False) if not bots else (m.chat_id, True)
            delta = {c.user_id: c.delta for c in m.changes
                     if (c.scope, c.with_bots) == board}
            players = tuple(HistoryPlayer(
                seat=r.seat, user_id=r.user_id, name=r.name, side=r.side, place=r.place,
                score=r.final_score, goat=r.goat, rating=r.rating, title=r.title,
                timed_out=r.timed_out, left=r.left_match, bot=r.bot,
                skill=delta.get(r.user_id), marks=_marks_of(r.marks),
                remembered=r.remembered, **_handed(m.seats, r.seat) if r.left_match else {})
                for r in m.results)
            entries.append(HistoryEntry(m.match_id, m.chat_id, m.chat_title, m.variant,
                                        m.finished_at, m.ended_by, players, bots, m.rules))
        return HistoryPage(tuple(entries), page, pages, total)

    async def bot_stats(self) -> tuple[BotStats, ...]:
        """The computer players' results per strength over all chats."""
        rows = await self.db.read(repo.bot_stats)
        return tuple(BotStats(r.strength, r.matches, r.goats, r.rating,
                              r.score_sum / r.matches if r.matches else 0.0) for r in rows)


def _handed(seats: tuple[dict[str, Any], ...], seat: int) -> dict[str, Any]:
    """Who finished a seat a person left, and from which round (issue 20 item 1), from the
    match's seat JSON (``service.leaving``); nothing when it does not say."""
    held = seats[seat] if 0 <= seat < len(seats) else {}
    left = held.get("left") if isinstance(held, dict) else None
    if not isinstance(left, dict):
        return {}
    return {"played_by": str(held.get("name", "")) or None,
            "left_round": int(left.get("round", 0)) or None}
