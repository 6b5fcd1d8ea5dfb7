"""The last router: unknown buttons, and the error handler.

Issue 4: an unexpected error in a handler is logged with the update id, the user gets a short
apology, and the game is exactly as before (every service operation is one transaction).
"""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery, ErrorEvent

from delivery.app import App
from handlers.common import alert
from service.once import AlreadyApplied

log = logging.getLogger(__name__)


async def on_unknown_button(query: CallbackQuery, app: App, locale: str) -> None:
    """Forged or outdated callback_data nobody else recognised: an alert, nothing changes."""
    await alert(query, app.tr.plain(locale, "err-stale-button"))


async def on_error(event: ErrorEvent, app: App) -> bool:
    """Log, apologise, and tell the dispatcher the error is handled.  An update a worker of
    a cluster finds applied already (``service.once.AlreadyApplied``: an earlier try
    committed its change) is no error of the user's: it goes on to the worker, unanswered."""
    if isinstance(event.exception, AlreadyApplied):
        raise event.exception
    update = event.update
    log.error("update %s failed: %r", update.update_id, event.exception,
              exc_info=event.exception)
    try:
        if update.callback_query is not None:
            q = update.callback_query
            locale = await app.locale_for(q.message.chat if q.message else None, q.from_user)
            await alert(q, app.tr.plain(locale, "err-unexpected"))
        elif update.message is not None:
            m = update.message
            locale = await app.locale_for(m.chat, m.from_user)
            app.say(m.chat.id, app.tr.t(locale, "err-unexpected"))
    except Exception:  # the apology itself failed: already logged above
        log.warning("could not apologise for update %s", update.update_id, exc_info=True)
    return True


def create_router() -> Router:
    """The last router: unknown buttons and the error handler."""
    router = Router(name="errors")
    router.callback_query.register(on_unknown_button)
    router.errors.register(on_error)
    return router
