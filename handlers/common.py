"""What every router needs: the chat-type filters, the locale middleware, replies and alerts
(the shared objects are :class:`delivery.app.App`; who administers a group:
:mod:`handlers.admins`).

Handlers stay thin: they parse the update, call the service, and hand the result to the app's
verbs (``app.publish``, ``app.reply``).  Nothing here computes a rule.  Whether a chat is a
group is read from its type (``chat.type``), never from the sign of its id.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, F
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, Chat, Message, ReplyParameters, TelegramObject, User

from delivery.app import App
from service.views import Result, Status

log = logging.getLogger(__name__)

#: The chat types of groups (a supergroup, a forum too).
GROUP_TYPES = frozenset({ChatType.GROUP, ChatType.SUPERGROUP})
#: Router filters by chat type (``router.message.filter(IN_GROUPS)``).
IN_GROUPS = F.chat.type.in_(GROUP_TYPES)
IN_PRIVATE = F.chat.type == ChatType.PRIVATE
#: The same of a button press: the chat of the message under which the button was pressed.
PRESSED_IN_GROUPS = F.message.chat.type.in_(GROUP_TYPES)


class LocaleMiddleware(BaseMiddleware):
    """An outer middleware of the dispatcher's updates: puts the reader's language into the
    handler data as ``locale`` — the chat's in a group, the user's own in a private chat
    (issue 4, "Settings, languages") — and remembers the language Telegram reports for the
    user."""

    async def __call__(self, handler: Callable[[TelegramObject, dict[str, Any]],
                                               Awaitable[Any]],
                       event: TelegramObject, data: dict[str, Any]) -> Any:
        app: App = data["app"]
        user: User | None = data.get("event_from_user")
        chat = data.get("event_chat")
        await app.remember(user)
        data["locale"] = await app.locale_for(chat, user)
        return await handler(event, data)


class SameChatGuard(BaseMiddleware):
    """An inner middleware of a router's button presses: a press whose callback data names a
    match (``lobby`` or ``match``) is handled only under a message of that match's own chat.
    A forged press that carries another chat's lobby or match id (a join, a start, an admin's
    stop or game switch, which the admin check alone would judge by the pressing chat) gets
    an alert and changes nothing.  ``only``: the callback data classes it guards (default
    all; a router whose buttons also live in private chats guards its group buttons only)."""

    def __init__(self, only: tuple[type, ...] = ()) -> None:
        self.only = only

    async def __call__(self, handler: Callable[[TelegramObject, dict[str, Any]],
                                               Awaitable[Any]],
                       event: TelegramObject, data: dict[str, Any]) -> Any:
        cb = data.get("callback_data")
        if self.only and not isinstance(cb, self.only):
            return await handler(event, data)
        match_id = getattr(cb, "lobby", None)
        if match_id is None:
            match_id = getattr(cb, "match", None)
        if isinstance(event, CallbackQuery) and isinstance(match_id, int):
            app: App = data["app"]
            res = await app.service.store.view(match_id)
            view = (res.lobby or res.table) if res.ok else None
            if view is not None and view.chat_id != query_chat(event):
                await alert(event, app.tr.plain(data.get("locale", "en"), "err-other-chat"))
                return None
        return await handler(event, data)


def in_group(chat: Chat | None) -> bool:
    """Whether ``chat`` is a group (``chat.type``: a group or a supergroup)."""
    return chat is not None and chat.type in GROUP_TYPES


def pressed_in_group(query: CallbackQuery) -> bool:
    """Whether a button was pressed under a message of a group."""
    return query.message is not None and in_group(query.message.chat)


def display_name(user: User) -> str:
    """How a player is called at the table: first and last name, as Telegram has them."""
    name = user.full_name.strip() or (user.username or str(user.id))
    return name[:64]


def thread_of(message: Message) -> int | None:
    """The forum topic a message belongs to, or None (issue 4: one lobby per topic)."""
    return message.message_thread_id if message.is_topic_message else None


def query_chat(query: CallbackQuery) -> int:
    """The chat of a pressed button's message (the presser's private chat if unknown)."""
    return query.message.chat.id if query.message else query.from_user.id


def reply(app: App, message: Message, text: str, **kwargs: Any) -> None:
    """Answer ``message`` in its chat (in its forum topic, quoting it), through the outbox, so
    that the chat's rate limits count the answer too (:meth:`delivery.app.App.reply`);
    ``kwargs`` as ``send_message``'s."""
    app.reply(message, text, **kwargs)


async def point_to_open(app: App, message: Message, locale: str, found: Result) -> None:
    """Answer a /newgame refused because ``found`` is open in this chat (issue 20 item 4):
    say which — a lobby to join, a group's running match, or the private chat's match
    against computer players, with /hand and /stopgame — quoting its message (the lobby, the
    table, or the player's hand message) when its id is known."""
    books = await app.messages(found.match_id)
    if found.status == Status.LOBBY:
        key, target = "err-lobby-exists", books.id_of("lobby")
    elif in_group(message.chat):
        key, target = "err-match-exists", books.id_of("table")
    else:
        key, target = "err-match-exists-here", books.id_of("hand", message.from_user.id)
    kwargs: dict[str, Any] = {}
    if target is not None:
        kwargs["reply_parameters"] = ReplyParameters(message_id=target,
                                                     allow_sending_without_reply=True)
    reply(app, message, app.tr.t(locale, key, id=found.match_id), **kwargs)


def answer(app: App, message: Message, text: str, **kwargs: Any) -> None:
    """Write ``text`` in ``message``'s chat (no quote), through the outbox."""
    app.say(message.chat.id, text, **kwargs)


async def acknowledge(query: CallbackQuery) -> None:
    """Answer a button press with nothing to say (the client's spinner stops).

    A press is answered after the service has already committed what it did, so a failed
    answer -- Telegram's «query is too old» after a slow turn or a restart, or the network --
    must not stop the rest of the handler (publishing the move): the failure is logged and
    swallowed.  Raises nothing from the Bot API."""
    try:
        await query.answer()
    except TelegramAPIError as exc:  # TelegramNetworkError among them
        log.info("a press answered too late or not at all: %s", exc)


async def alert(query: CallbackQuery, text: str, **kwargs: Any) -> None:
    """Answer a button press with a pop-up alert (the game stays as it was)."""
    await query.answer(text[:200], show_alert=True, **kwargs)


async def register(app: App, user: User, *, dm_open: bool | None = None) -> None:
    """Store the user's names (and, from a private /start, that the DM is open)."""
    await app.remember(user)
    await app.service.people.register_user(user.id, user.first_name, user.last_name, user.username,
                                           dm_open=dm_open)
