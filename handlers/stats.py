"""Leaderboards and personal statistics: /top, /top all, /stats (RULES.md §1.16)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from handlers.common import App, display_name, reply
from ui import render


async def cmd_top(message: Message, command: CommandObject, app: App, locale: str) -> None:
    """/top: this chat; /top all (and /top in private): every chat."""
    arg = (command.args or "").strip().lower()
    if arg not in ("", "all"):
        reply(app, message, app.tr.t(locale, "help-group" if message.chat.id < 0
                                     else "help-private"))
        return
    global_ = arg == "all" or message.chat.id > 0
    rows = await app.service.leaderboard(None if global_ else message.chat.id, limit=20)
    reply(app, message, render.render_top(
        locale, [(r.name, r.rating, r.matches, r.goats) for r in rows], global_=global_,
        tr=app.tr))


async def cmd_stats(message: Message, app: App, locale: str) -> None:
    """/stats: yours, or the replied-to user's (over all chats)."""
    target = message.from_user
    if message.reply_to_message and message.reply_to_message.from_user \
            and not message.reply_to_message.from_user.is_bot:
        target = message.reply_to_message.from_user
    st = await app.service.personal_stats(target.id)
    reply(app, message, render.render_stats(
        locale, display_name(target), matches=st.matches, goats=st.goats, rating=st.rating,
        outs=st.outs, fish=st.fish, average=st.average_score if st.matches else None,
        tr=app.tr))


def create_router() -> Router:
    """The statistics router (any chat)."""
    router = Router(name="stats")
    router.message.register(cmd_top, Command("top"))
    router.message.register(cmd_stats, Command("stats"))
    return router
