"""Chat life-cycle: group → supergroup migration, the bot removed from a chat.

Issue 4: when a group is upgraded (``migrate_to_chat_id``) its lobby, match and statistics
move with it; if the bot is removed, matches there end without rating.
"""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.types import ChatMemberUpdated, Message

from handlers.common import App

log = logging.getLogger(__name__)


async def on_migrate(message: Message, app: App) -> None:
    """The old group's last service message names the new supergroup id."""
    new_id = message.migrate_to_chat_id
    moved = await app.service.migrate_chat(message.chat.id, new_id)
    log.info("chat %s migrated to %s (%d matches moved)", message.chat.id, new_id, len(moved))
    for match_id in moved:
        await app.publisher.chat_migrated(match_id, new_id)


async def on_migrate_from(message: Message, app: App) -> None:
    """The new supergroup's first service message: the same move, idempotent."""
    await app.service.migrate_chat(message.migrate_from_chat_id, message.chat.id)


async def on_my_member(update: ChatMemberUpdated, app: App) -> None:
    status = update.new_chat_member.status
    if update.chat.id > 0:
        # a user blocked (kicked) or unblocked the bot in private
        await app.service.set_dm_open(update.chat.id, status == ChatMemberStatus.MEMBER)
        return
    if status in (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED):
        closed = await app.service.bot_removed(update.chat.id)
        log.info("removed from chat %s: %d matches closed without rating", update.chat.id,
                 len(closed))
    elif status in (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR):
        await app.service.update_chat(update.chat.id, title=update.chat.title, active=True)


def create_router() -> Router:
    """The chat life-cycle router."""
    router = Router(name="chat_events")
    router.message.register(on_migrate, F.migrate_to_chat_id)
    router.message.register(on_migrate_from, F.migrate_from_chat_id)
    router.my_chat_member.register(on_my_member)
    return router
