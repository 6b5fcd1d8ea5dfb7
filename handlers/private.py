"""The private chat: /start (with deep-link payloads), /help.

Payloads: ``j<match id>`` seats the user in that lobby; ``h<match id>`` (from the group
notice when a DM was closed) sends the hand of that match.  Any /start in private records
that the bot may now write to the user (issue 4: 403 until they do).
"""

from __future__ import annotations

import re

from aiogram import Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from handlers.common import App, display_name, register
from service import Status
from ui import render

router = Router(name="private")

_PAYLOAD = re.compile(r"^([jh])(\d{1,18})$")


@router.message(CommandStart())
async def cmd_start(message: Message, command: CommandObject, app: App) -> None:
    user = message.from_user
    if message.chat.id < 0:
        locale = await app.locale_for(message.chat.id, user)
        await message.reply(render.render_help(locale, is_group=True, tr=app.tr))
        return
    await register(app, user, dm_open=True)
    app.publisher.forbidden.discard(user.id)
    locale = await app.locale_for(message.chat.id, user)
    m = _PAYLOAD.match((command.args or "").strip())
    if m and m.group(1) == "j":
        match_id = int(m.group(2))
        res = await app.service.join(match_id, user.id, display_name(user))
        if res.ok:
            await app.publisher.publish(res)
            info = await app.service.chat_info(res.lobby.chat_id)
            await message.answer(app.tr.t(locale, "start-joined", chat=info.title or "—"))
            return
        if res.error is not None and res.error.value != "already_joined":
            await message.answer(app.error_text(locale, res))
            return
    # a closed DM is open now: deliver every hand this user is waiting for
    delivered = False
    for res in await app.service.open_matches(user.id):
        if res.status == Status.PLAYING and res.hand_for(user.id) is not None:
            delivered = await app.publisher.resend_hand(res, user.id) or delivered
    if not delivered:
        await message.answer(app.tr.t(locale, "start-private"))


@router.message(Command("help"))
async def cmd_help(message: Message, app: App) -> None:
    locale = await app.locale_for(message.chat.id, message.from_user)
    await message.reply(render.render_help(locale, is_group=message.chat.id < 0, tr=app.tr))
