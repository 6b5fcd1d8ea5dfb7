"""Who speaks which language (issue 4, "Settings, languages"; issue 20 item 8).

A group speaks its language setting (else the bot's default); a private chat its person's own
choice (/lang in private), else the language Telegram reports for them, else the default.  A
match against computer players lives in its person's private chat and speaks their language.
The language Telegram reports for a user is remembered here as updates arrive, and stored when
it changes, so that a restart keeps it.
"""

from __future__ import annotations

import logging

from aiogram.enums import ChatType
from aiogram.types import Chat, User

from service.people import People
from ui.i18n import SUPPORTED_LOCALES, choose_locale, normalize_locale

__all__ = ["Languages"]

log = logging.getLogger(__name__)

_GROUPS = frozenset({ChatType.GROUP, ChatType.SUPERGROUP})


class Languages:
    """The language of each chat and user, over the ``people`` room; ``default`` the bot's
    default locale."""

    def __init__(self, people: People, default: str) -> None:
        self.people = people
        self.default = default
        #: The language code Telegram last reported for each user this process saw.
        self.telegram: dict[int, str] = {}

    async def remember(self, user: User | None) -> None:
        """Note a user's Telegram language (used when they chose none with /lang): in memory,
        and in the database when it is new to this process and differs from the stored one,
        so a restart keeps it.  A failed write is logged and changes nothing else."""
        if user is not None:
            await self.remember_code(user.id, user.language_code or "", user.first_name or "")

    async def remember_code(self, user_id: int, code: str, first_name: str = "") -> None:
        """:meth:`remember` for a user id and a ``language_code`` (the Mini App's caller)."""
        if not code or self.telegram.get(user_id) == code:
            return
        self.telegram[user_id] = code
        try:
            await self.people.remember_telegram_language(user_id, code, first_name)
        except Exception:
            log.exception("storing the Telegram language of user %s failed", user_id)

    async def adopt(self, chat_id: int, code: str | None) -> str | None:
        """A group that has no language yet takes the one Telegram reports for ``code``'s
        person (the one who added the bot, or the first one heard there, issue 30 item 8),
        when the bot speaks it; a group whose admins chose one keeps it.  Returns the
        language stored, or None."""
        chosen = normalize_locale(code)
        if chosen is None or chosen not in SUPPORTED_LOCALES:
            return None
        if (await self.people.chat_info(chat_id)).language is not None:
            return None
        await self.people.update_chat(chat_id, language=chosen)
        return chosen

    async def of_user(self, user_id: int) -> str:
        """A user's own choice (/lang in private), else their Telegram language (as this
        process last saw it, else as stored: a restart keeps it), else the default."""
        user = await self.people.get_user(user_id)
        code = self.telegram.get(user_id) or (user.telegram_language if user else None)
        return choose_locale(is_group=False, user_locale=user.language if user else None,
                             telegram_code=code, default=self.default)

    async def of_chat(self, chat_id: int) -> str:
        """The language of a match's chat: a group's language setting, else the default; a
        private chat (a solo match: its id is its user's, which no group's id ever is) speaks
        its person's language (:meth:`of_user`)."""
        if await self.people.get_user(chat_id) is not None:
            return await self.of_user(chat_id)
        info = await self.people.chat_info(chat_id)
        return choose_locale(is_group=True, chat_locale=info.language, default=self.default)

    async def of_update(self, chat: Chat | None, user: User | None) -> str:
        """The reader's language of an update: a group's (:meth:`of_chat`; a group the bot
        has no record of takes the language of the first person it hears there,
        :meth:`adopt`), else the user's own choice, else the language this update says
        Telegram has for them."""
        if chat is not None and chat.type in _GROUPS:
            info = await self.people.chat_info(chat.id)
            if not info.known and user is not None:
                await self.adopt(chat.id, user.language_code)
            return await self.of_chat(chat.id)
        if user is None:
            return self.default
        info = await self.people.get_user(user.id)
        return choose_locale(is_group=False, user_locale=info.language if info else None,
                             telegram_code=user.language_code, default=self.default)
