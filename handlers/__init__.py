"""aiogram routers: one per concern, each made by its module's ``create_router()`` (a router
may belong to one dispatcher only, and tests build several).

Order: chat events, the private chat (its message filter), the group lobby (its message
filter), the games (the lobby's game menu, the private set-up), play, statistics, players'
records, settings, help, and the errors router last (unknown buttons, the error handler).
Every update is held while it runs, its ids bound to the log lines and counted by
:class:`handlers.intake.IntakeMiddleware`; its locale is put into the handler data as
``locale`` by :class:`handlers.common.LocaleMiddleware`, and whether its user administers
its chat, asked only when awaited, as ``is_admin`` by :class:`handlers.admins.
AdminMiddleware`.
"""

from __future__ import annotations

from aiogram import Dispatcher

from handlers.admins import AdminMiddleware
from handlers.common import LocaleMiddleware
from handlers.intake import IntakeMiddleware


def setup_routers(dp: Dispatcher) -> None:
    """The intake, locale and admin middlewares and every router, in order."""
    from handlers import (
        chat_events,
        errors,
        games,
        help,
        lobby,
        play,
        private,
        records,
        settings,
        stats,
    )

    dp.update.outer_middleware(IntakeMiddleware())
    dp.update.outer_middleware(LocaleMiddleware())
    dp.update.outer_middleware(AdminMiddleware())
    for module in (chat_events, private, lobby, games, play, stats, records, settings, help,
                   errors):
        dp.include_router(module.create_router())
