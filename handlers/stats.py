"""Leaderboards and personal statistics: /top, /top all, /stats (RULES.md §1.16)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from handlers.common import App, display_name
from ui import render

router = Router(name="stats")


@router.message(Command("top"))
async def cmd_top(message: Message, command: CommandObject, app: App) -> None:
    """/top: this chat; /top all (and /top in private): every chat."""
    locale = await app.locale_for(message.chat.id, message.from_user)
    arg = (command.args or "").strip().lower()
    if arg not in ("", "all"):
        await message.reply(app.tr.t(locale, "help-group" if message.chat.id < 0
                                     else "help-private"))
        return
    global_ = arg == "all" or message.chat.id > 0
    rows = await app.service.leaderboard(None if global_ else message.chat.id, limit=20)
    text = render.render_top(locale, [(r.name, r.rating, r.matches, r.goats) for r in rows],
                             global_=global_, tr=app.tr)
    await message.reply(text)


@router.message(Command("stats"))
async def cmd_stats(message: Message, app: App) -> None:
    """/stats: yours, or the replied-to user's (over all chats)."""
    locale = await app.locale_for(message.chat.id, message.from_user)
    target = message.from_user
    if message.reply_to_message and message.reply_to_message.from_user \
            and not message.reply_to_message.from_user.is_bot:
        target = message.reply_to_message.from_user
    st = await app.service.personal_stats(target.id)
    await message.reply(render.render_stats(
        locale, display_name(target), matches=st.matches, goats=st.goats, rating=st.rating,
        outs=st.outs, fish=st.fish, average=st.average_score if st.matches else None,
        tr=app.tr))
