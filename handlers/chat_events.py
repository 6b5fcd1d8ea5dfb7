"""Chat life-cycle: group → supergroup migration, the bot removed from a chat, members'
rights.

Issue 4: when a group is upgraded (``migrate_to_chat_id``) its lobby, match and statistics
move with it; if the bot is removed, matches there end without rating.  A member promoted or
demoted (a ``chat_member`` update, which Telegram sends only where the bot is an
administrator) is remembered at once by :class:`handlers.admins.Admins`; a change of the
bot's own status in a group forgets what was remembered there.  The bot added to a group
greets it with how to start (issue 20 item 11): open the private chat, /newgame, /rules.
"""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.types import ChatMemberUpdated, Message

from delivery.app import App
from ui.keyboards import dm_keyboard

log = logging.getLogger(__name__)


async def _migrated(app: App, old_id: int, new_id: int) -> None:
    """Move the chat's matches to the supergroup and show them there (both service messages
    do it, whichever comes first; the second changes nothing)."""
    matches = await app.service.migrate_chat(old_id, new_id)
    log.info("chat %s migrated to %s (%d open matches)", old_id, new_id, len(matches))
    for match_id in matches:
        await app.publisher.chat_migrated(match_id, new_id)


async def on_migrate(message: Message, app: App) -> None:
    """The old group's last service message names the new supergroup id."""
    await _migrated(app, message.chat.id, message.migrate_to_chat_id)


async def on_migrate_from(message: Message, app: App) -> None:
    """The new supergroup's first service message names the old group."""
    await _migrated(app, message.migrate_from_chat_id, message.chat.id)


async def on_my_member(update: ChatMemberUpdated, app: App) -> None:
    """The bot's own status changed: blocked or unblocked in private; added, promoted,
    demoted or removed in a group."""
    status = update.new_chat_member.status
    if update.chat.type == ChatType.PRIVATE:
        # a user blocked (kicked) or unblocked the bot in private
        await app.service.people.set_dm_open(update.chat.id, status == ChatMemberStatus.MEMBER)
        return
    app.admins.forget(update.chat.id)
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED):
        title = update.chat.title or (await app.service.people.chat_info(update.chat.id)).title
        closed = await app.service.bot_removed(update.chat.id)
        await app.publisher.bot_removed(closed, title)
        log.info("removed from chat %s: %d matches closed without rating", update.chat.id,
                 len(closed))
    elif status in (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR):
        await app.service.people.update_chat(update.chat.id, title=update.chat.title, active=True)
        if update.old_chat_member.status in _ABSENT:
            # a new group speaks the language of who added the bot (issue 30 item 8)
            await app.languages.adopt(update.chat.id, update.from_user.language_code)
            await _greet(app, update.chat.id)


#: The bot's statuses outside a chat: a change from one of these to a member is being added.
_ABSENT = (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED)


async def _greet(app: App, chat_id: int) -> None:
    """The bot was just added to a group: a short how-to-start in the group's language (and
    how to change it), with the button that opens the private chat (promotions and
    demotions say nothing)."""
    locale = await app.languages.of_chat(chat_id)
    app.say(chat_id, app.tr.t(locale, "greet-group"),
            reply_markup=dm_keyboard(locale, app.link(), tr=app.tr))


async def on_member(update: ChatMemberUpdated, app: App) -> None:
    """A member's status changed in a group the bot administers: remember whether they are
    an admin now (no ``getChatMember`` call needed for their next press)."""
    member = update.new_chat_member
    app.admins.note(update.chat.id, member.user.id, member.status)


def create_router() -> Router:
    """The chat life-cycle router (its ``chat_member`` handler makes the dispatcher ask
    Telegram for those updates: ``allowed_updates`` is ``resolve_used_update_types()``)."""
    router = Router(name="chat_events")
    router.message.register(on_migrate, F.migrate_to_chat_id)
    router.message.register(on_migrate_from, F.migrate_from_chat_id)
    router.my_chat_member.register(on_my_member)
    router.chat_member.register(on_member)
    return router
