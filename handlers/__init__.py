"""aiogram routers: one per concern (lobby, play, stats, settings, private, chat events) and
the error router last.  :func:`setup_routers` includes them in order."""

from __future__ import annotations

from aiogram import Dispatcher


def setup_routers(dp: Dispatcher) -> None:
    """Include every router; the catch-all button and error router comes last."""
    from handlers import chat_events, errors, lobby, play, private, settings, stats

    for module in (chat_events, private, lobby, play, stats, settings, errors):
        dp.include_router(module.router)
