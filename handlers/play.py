"""Play: the move buttons of the private hand message, /hand and /score.

Issue 4, "Hands in private": a press is validated against the match version, the seat to act
and the hand by the service; a stale, foreign or forged press gets an alert and changes
nothing (a forged one does not even parse: ``MoveCb.filter()`` lets it fall through to the
errors router, which answers it as outdated).
"""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from handlers.common import App, alert, answer, reply, thread_of
from service import ErrorCode, Result, Status
from ui import render
from ui.callbacks import MoveCb


async def on_move(query: CallbackQuery, callback_data: MoveCb, app: App, locale: str) -> None:
    """A move button: ``MoveCb(game, ver, tile, end)``."""
    a, b = callback_data.halves
    res = await app.service.act(callback_data.game, query.from_user.id, f"{a}-{b}",
                                callback_data.engine_end, callback_data.ver)
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        if res.error in (ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN) and query.message:
            # an old keyboard: take it away so only the live one remains
            await app.publisher.refused(res, query.from_user.id, query.message.chat.id,
                                        query.message.message_id)
        return
    await query.answer()
    await app.publisher.publish(res)


async def _my_open_match(app: App, user_id: int) -> Result | None:
    for res in await app.service.open_matches(user_id):
        if res.status == Status.PLAYING and res.hand_for(user_id) is not None:
            return res
    return None


async def cmd_hand(message: Message, app: App, locale: str) -> None:
    """Send my hand again (private chat)."""
    user = message.from_user
    res = await _my_open_match(app, user.id)
    if res is None:
        answer(app, message, app.tr.t(locale, "err-no-hand"))
        return
    await app.service.set_dm_open(user.id, True)
    app.publisher.forbidden.discard(user.id)
    await app.publisher.resend_hand(res, user.id)


async def cmd_score(message: Message, app: App, locale: str) -> None:
    """The match table of this chat's running match (a group's, or a solo match's)."""
    found = await app.service.find_open(message.chat.id, thread_of(message))
    if not found.ok or found.table is None:
        reply(app, message, app.tr.t(locale, "err-no-game"))
        return
    reply(app, message, render.render_score(locale, found.table, tr=app.tr))


def create_router() -> Router:
    """The play router: the move buttons and /score (/hand is in the private router)."""
    router = Router(name="play")
    router.callback_query.register(on_move, MoveCb.filter())
    router.message.register(cmd_score, Command("score"))
    return router
