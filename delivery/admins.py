"""Who administers which group, as Telegram last said: remembered for a short time, so a burst
of an admin's presses costs one ``getChatMember`` call (``handlers.admins`` asks only when a
handler needs to know; a ``chat_member`` update replaces an answer at once).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from aiogram import Bot
from aiogram.enums import ChatMemberStatus

__all__ = ["ADMIN_TTL", "Admins"]

log = logging.getLogger(__name__)

#: Seconds an answer of Telegram about a member's rights is trusted (a member demoted meanwhile
#: keeps an admin's rights in the bot at most this long where the bot gets no member updates).
ADMIN_TTL = 60.0
#: Remembered answers before the memory starts afresh.
_REMEMBERED = 50_000
_ADMIN_STATUSES = frozenset({ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR})


class Admins:
    """Remembered answers to "does this user administer this group": ``(chat id, user id)``
    → True or False, each for ``ttl`` seconds of ``clock`` (monotonic seconds)."""

    def __init__(self, ttl: float = ADMIN_TTL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = float(ttl)
        self.clock = clock
        self._known: dict[tuple[int, int], tuple[float, bool]] = {}

    def known(self, chat_id: int, user_id: int) -> bool | None:
        """The remembered answer, or None when there is none (or it is older than ``ttl``)."""
        hit = self._known.get((chat_id, user_id))
        if hit is None or hit[0] <= self.clock():
            return None
        return hit[1]

    async def ask(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is the group's creator or one of its administrators: the
        remembered answer, else ``getChatMember`` (remembered).  False when Telegram cannot
        tell (network trouble, a chat the bot cannot see; that is not remembered)."""
        admin = self.known(chat_id, user_id)
        if admin is not None:
            return admin
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except Exception:  # not an admin this time; asked again next time
            log.warning("get_chat_member(%s, %s) failed", chat_id, user_id, exc_info=True)
            return False
        return self.note(chat_id, user_id, member.status)

    def note(self, chat_id: int, user_id: int, status: str) -> bool:
        """Remember what Telegram said of a member: its ``status`` (``creator``,
        ``administrator``, ``member``, ``left``…) from ``getChatMember`` or a ``chat_member``
        update.  Returns whether that is an admin."""
        if len(self._known) >= _REMEMBERED:
            self._known.clear()
        admin = status in _ADMIN_STATUSES
        self._known[(chat_id, user_id)] = (self.clock() + self.ttl, admin)
        return admin

    def forget(self, chat_id: int) -> None:
        """Drop every remembered answer of a group (the bot's own status there changed)."""
        for key in [k for k in self._known if k[0] == chat_id]:
            del self._known[key]
