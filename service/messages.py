"""Message ids and group sends: what the UI layer keeps of the messages it sent.

:class:`MessageIds` stores, per match, the JSON object of message ids the publisher owns
(``matches.messages``; the publisher gives it its shape, see ``delivery.books``).
:class:`SendLog` remembers the bot's sends to each group over the last minute, so that a
restarted outbox goes on counting Telegram's 20 messages a minute per group where the last
process stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from storage import Database
from storage import repository as repo

__all__ = ["MessageIds", "SendLog"]


class MessageIds:
    """The message ids stored with each match, changing no version."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    async def load(self, match_id: int) -> dict[str, Any] | None:
        """The stored message ids of a match, None if there is no such match."""
        row = await self.db.read(repo.get_match, match_id)
        return dict(row.messages) if row is not None else None

    async def save(self, match_id: int, messages: dict[str, Any]) -> bool:
        """Replace the stored message ids of a match; False if there is no such match."""
        now = self.clock()
        return await self.db.write(lambda c: repo.set_messages(c, match_id, messages, now=now))


class SendLog:
    """The bot's sends to groups over the last ``window`` seconds, in the database.

    ``clock`` gives Unix seconds (the times are compared across processes).  Rows older than
    the window are deleted at most every ``prune_every`` seconds, as sends arrive.
    """

    def __init__(self, db: Database, *, window: float = 60.0, prune_every: float = 10.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.window = window
        self.prune_every = prune_every
        self.clock = clock
        self._pruned = 0.0

    async def record(self, chat_id: int, at: float | None = None) -> None:
        """Record a send (message or edit) to group ``chat_id`` at ``at`` (default: now)."""
        at = self.clock() if at is None else at
        forget = None
        if at - self._pruned >= self.prune_every:
            forget, self._pruned = at - self.window, at
        await self.db.write(lambda c: repo.record_group_send(c, chat_id, at,
                                                             forget_before=forget))

    async def recent(self) -> dict[int, list[float]]:
        """The sends of the last window per group chat, oldest first (Unix seconds)."""
        rows = await self.db.read(repo.recent_group_sends, self.clock() - self.window)
        out: dict[int, list[float]] = {}
        for chat_id, at in rows:
            out.setdefault(chat_id, []).append(at)
        return out
