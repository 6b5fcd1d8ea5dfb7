"""/help in any chat: the group's command list or the private one."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from delivery.app import App
from handlers.common import in_group, reply
from ui import render


async def cmd_help(message: Message, app: App, locale: str) -> None:
    reply(app, message, render.render_help(locale, is_group=in_group(message.chat), tr=app.tr))


def create_router() -> Router:
    """The /help router."""
    router = Router(name="help")
    router.message.register(cmd_help, Command("help"))
    return router
