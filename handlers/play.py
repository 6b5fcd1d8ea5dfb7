"""Play: the move buttons of the private hand message, /hand and /score.

Issue 4, "Hands in private": a press is validated against the match version, the seat to act
and the hand by the service; a stale, foreign or forged press gets an alert and changes
nothing.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from handlers.common import App, alert, thread_of
from service import ErrorCode, Status
from ui import render
from ui.callbacks import BadCallback, MoveCb, parse_callback

router = Router(name="play")


@router.callback_query(F.data.startswith(MoveCb.__prefix__ + ":"))
async def on_move(query: CallbackQuery, app: App) -> None:
    """A move button: ``MoveCb(game, ver, tile, end)``."""
    locale = await app.locale_for(query.from_user.id, query.from_user)
    try:
        cb = parse_callback(query.data)
        if not isinstance(cb, MoveCb):
            raise BadCallback(query.data)
    except BadCallback:
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    a, b = cb.halves
    res = await app.service.act(cb.game, query.from_user.id, f"{a}-{b}", cb.engine_end, cb.ver)
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        if res.error in (ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN) and query.message \
                and res.status == Status.PLAYING:
            # an old keyboard: take it away so only the live one remains
            hand = res.hand_for(query.from_user.id)
            live = res.messages.get(f"hand:{query.from_user.id}")
            if hand is not None and not (live and live[0] == query.message.message_id
                                         and live[3]):
                app.publisher.outbox.edit_markup(query.message.chat.id,
                                                 query.message.message_id, None)
        return
    await query.answer()
    await app.publisher.publish(res)


async def _my_open_match(app: App, user_id: int):
    for res in await app.service.open_matches(user_id):
        if res.status == Status.PLAYING and res.hand_for(user_id) is not None:
            return res
    return None


@router.message(Command("hand"))
async def cmd_hand(message: Message, app: App) -> None:
    """Send my hand again (private chat)."""
    user = message.from_user
    locale = await app.locale_for(message.chat.id, user)
    if message.chat.id < 0:
        await message.reply(app.tr.t(locale, "err-private-only"))
        return
    res = await _my_open_match(app, user.id)
    if res is None:
        await message.answer(app.tr.t(locale, "err-no-hand"))
        return
    await app.service.set_dm_open(user.id, True)
    app.publisher.forbidden.discard(user.id)
    await app.publisher.resend_hand(res, user.id)


@router.message(Command("score"))
async def cmd_score(message: Message, app: App) -> None:
    """The match table of this chat's running match."""
    locale = await app.locale_for(message.chat.id, message.from_user)
    found = await app.service.find_open(message.chat.id, thread_of(message))
    if not found.ok or found.state is None:
        await message.reply(app.tr.t(locale, "err-no-game"))
        return
    names = [s.name for s in found.table.seats]
    await message.reply(render.render_score(locale, found.state, names, tr=app.tr))
