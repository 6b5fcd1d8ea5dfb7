"""What every part of publishing shares: :class:`Post` (the outbox, the translator, the books,
the languages, who blocked the bot, the clock) and :class:`Links` (the bot's deep links and
the Mini App's addresses).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from delivery.books import Books
from delivery.languages import Languages
from delivery.outbox import Outbox
from delivery.reach import Reach
from ui.i18n import Translator
from ui.keyboards import deep_link, webapp_keyboard, webapp_link, webapp_page

__all__ = ["Links", "Post", "thread"]


@dataclass(frozen=True, slots=True)
class Links:
    """Where a button leads: the bot's private chat (``bot_username``), the Mini App's page
    (``webapp_url``, for a private chat's ``web_app`` button) and its direct link
    (``webapp_short_name``, for a group's URL button); without ``webapp_url`` there is no
    page anywhere (issue 21)."""

    bot_username: str
    webapp_url: str | None = None
    webapp_short_name: str | None = None

    def deep(self, payload: str | None = None) -> str:
        """Deep link into the bot's private chat, e.g. ``deep("j12")``."""
        return deep_link(self.bot_username, payload)

    def page(self, match_id: int) -> str | None:
        """The Mini App's page of a match for a private chat's button, None without one."""
        return webapp_page(self.webapp_url, match_id) if self.webapp_url else None

    def group_link(self, match_id: int) -> str | None:
        """The Mini App's direct link to a match for a group's URL button, None without
        one."""
        if not (self.webapp_url and self.webapp_short_name):
            return None
        return webapp_link(self.bot_username, self.webapp_short_name, match_id)

    def idle_markup(self, match_id: int, locale: str, tr: Translator) -> Any:
        """The keyboard of a hand message while it is not the player's turn: the button that
        opens the Mini App (issue 21), or None (none configured)."""
        page = self.page(match_id)
        return webapp_keyboard(locale, page=page, tr=tr) if page else None


@dataclass(frozen=True, slots=True)
class Post:
    """The tools of publishing: the ``outbox``, the translator ``tr``, the ``books``, who
    speaks which language (``languages``), who blocked the bot (``reach``), the ``clock``
    (Unix seconds: deadlines are counted against it) and the ``links``."""

    outbox: Outbox
    tr: Translator
    books: Books
    languages: Languages
    reach: Reach
    clock: Callable[[], float]
    links: Links


def thread(thread_id: int | None) -> dict[str, Any]:
    """The keyword arguments that put a message in a forum topic (none outside one)."""
    return {"message_thread_id": thread_id} if thread_id else {}
