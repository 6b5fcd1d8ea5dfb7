"""Statistics: leaderboards and personal figures of people, and the computer players' results
kept apart (RULES.md §1.15, §1.16)."""

from __future__ import annotations

from service.views import BotStats, LeaderRow, PersonalStats
from storage import GLOBAL_SCOPE, Database
from storage import repository as repo

__all__ = ["Statistics"]


class Statistics:
    """Read-only figures over ``db`` (kept up to date in the transaction that ends a match)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(self, chat_id: int | None = None, *, limit: int = 10,
                          offset: int = 0) -> tuple[LeaderRow, ...]:
        """People by rating sum (RULES.md §1.16), with matches and goats; in one chat or
        (``chat_id`` None) over all chats. Ties: fewer goats, then fewer matches first.
        Only matches ended by limit or timeout count."""
        scope = GLOBAL_SCOPE if chat_id is None else chat_id
        rows = await self.db.read(lambda c: repo.leaderboard(c, scope, limit=limit,
                                                             offset=offset))
        return tuple(LeaderRow(offset + i + 1, r.user_id, r.name, r.rating, r.matches, r.goats)
                     for i, r in enumerate(rows))

    async def personal_stats(self, user_id: int, chat_id: int | None = None) -> PersonalStats:
        """A player's matches, goats, rating, outs, fish and average final score, in one chat
        or over all chats (zeros when they finished no match)."""
        scope = GLOBAL_SCOPE if chat_id is None else chat_id
        r = await self.db.read(repo.player_stats, user_id, scope)
        if r is None:
            return PersonalStats(user_id, chat_id, 0, 0, 0, 0, 0, 0.0)
        return PersonalStats(user_id, chat_id, r.matches, r.goats, r.rating, r.outs, r.fish,
                             r.score_sum / r.matches if r.matches else 0.0)

    async def bot_stats(self) -> tuple[BotStats, ...]:
        """The computer players' results per strength over all chats."""
        rows = await self.db.read(repo.bot_stats)
        return tuple(BotStats(r.strength, r.matches, r.goats, r.rating,
                              r.score_sum / r.matches if r.matches else 0.0) for r in rows)
