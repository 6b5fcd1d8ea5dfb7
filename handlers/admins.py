"""Who administers a group: asked of Telegram only when a handler needs it, remembered for a
short time, refreshed by the member updates the bot receives.

Every update's handler data carries ``is_admin``, an :class:`AdminCheck` put there by
:class:`AdminMiddleware`; a handler that needs to know awaits it (``await is_admin()``), and
nothing is asked before.  So the rights are asked only where they decide something:

- a handler that only chat admins may use (/settings and its buttons, /lang in a group, the
  language buttons there) carries the :data:`IS_ADMIN` filter after its other filters, and a
  fallback handler answers everybody else;
- an operation its own player may do (the lobby's creator starts, stops, switches the game;
  a seated player adds a computer player; the other players answer the timeout question) is
  first asked of the service as the presser's own (:func:`or_as_admin`); only when the
  service refuses it for want of that right is Telegram asked whether the presser is an
  admin, who may then do it anyway (``force``).

One answer per chat and user is remembered for a minute (:class:`delivery.admins.Admins`), so
a burst of an admin's presses costs one ``getChatMember`` call.  Where the bot is an
administrator of the group, Telegram also sends it ``chat_member`` updates (only then, and
only when ``allowed_updates`` names them: the dispatcher asks for every update type a router
handles, ``Dispatcher.resolve_used_update_types``, and :mod:`handlers.chat_events` handles
them); each replaces the remembered answer of its user at once.  A ``my_chat_member`` update
(the bot's own status in the group changed: promoted, demoted, removed) forgets the group's
answers.  In a private chat nobody is an admin and nothing is asked.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.enums import ChatType
from aiogram.filters import BaseFilter
from aiogram.types import Chat, TelegramObject, User

from delivery.admins import Admins
from service.views import ErrorCode, Result

__all__ = ["IS_ADMIN", "AdminCheck", "AdminMiddleware", "or_as_admin"]

log = logging.getLogger(__name__)

_GROUPS = frozenset({ChatType.GROUP, ChatType.SUPERGROUP})


class AdminCheck:
    """Whether the user of one update administers its chat, asked when first awaited
    (``await is_admin()``) and kept for the rest of the update.  Always False, without a
    question, in a private chat or for an update with no chat or no user."""

    __slots__ = ("_admins", "_bot", "_chat_id", "_user_id", "_answer")

    def __init__(self, admins: Admins, bot: Bot, chat: Chat | None, user: User | None) -> None:
        self._admins = admins
        self._bot = bot
        in_group = chat is not None and user is not None and chat.type in _GROUPS
        self._chat_id = chat.id if in_group else None
        self._user_id = user.id if in_group else None
        self._answer: bool | None = None if in_group else False

    async def __call__(self) -> bool:
        if self._answer is None:
            self._answer = await self._admins.ask(self._bot, self._chat_id, self._user_id)
        return self._answer


class AdminMiddleware(BaseMiddleware):
    """An outer middleware of the dispatcher's updates: puts the update's :class:`AdminCheck`
    into the handler data as ``is_admin`` (from the ``app``'s :class:`Admins`)."""

    async def __call__(self, handler: Callable[[TelegramObject, dict[str, Any]],
                                               Awaitable[Any]],
                       event: TelegramObject, data: dict[str, Any]) -> Any:
        data["is_admin"] = AdminCheck(data["app"].admins, data["bot"], data.get("event_chat"),
                                      data.get("event_from_user"))
        return await handler(event, data)


class _IsAdmin(BaseFilter):
    """Passes for a chat admin's update (see :class:`AdminCheck`)."""

    async def __call__(self, event: TelegramObject, is_admin: AdminCheck) -> bool:
        return await is_admin()


#: The filter of the handlers only chat admins may use: put it after the handler's other
#: filters, so that Telegram is asked only for an update the handler would take.
IS_ADMIN = _IsAdmin()


async def or_as_admin(is_admin: AdminCheck, operation: Callable[..., Awaitable[Result]],
                      refusal: ErrorCode) -> Result:
    """``operation(force=False)``, the presser's own; when the service refuses it with
    ``refusal`` (``not_creator``: not the lobby's creator; ``not_in_game``: not a player who
    may) and the presser administers the chat, ``operation(force=True)``, as an admin may.
    The rights are asked of Telegram only in that case."""
    res = await operation(force=False)
    if res.error == refusal and await is_admin():
        res = await operation(force=True)
    return res
