"""aiogram routers: one per concern (lobby, play, stats, settings, private, chat events) and
the error router last.  :func:`setup_routers` includes them in order."""

from __future__ import annotations

from aiogram import Dispatcher, Router


def _fresh(template: Router) -> Router:
    """A new router with the template's handlers: a router may belong to one dispatcher only,
    and tests build several."""
    router = Router(name=template.name)
    for name, observer in template.observers.items():
        router.observers[name].handlers.extend(observer.handlers)
    return router


def setup_routers(dp: Dispatcher) -> None:
    """Include every router; the catch-all button and error router comes last."""
    from handlers import chat_events, errors, lobby, play, private, settings, stats

    for module in (chat_events, private, lobby, play, stats, settings, errors):
        dp.include_router(_fresh(module.router))
