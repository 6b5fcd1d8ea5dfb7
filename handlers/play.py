"""Play: the move buttons of the private hand message, /hand and /score.

Issue 4, "Hands in private": a press is validated against the match version, the seat to act
and the hand by the service; a stale, foreign or forged press gets an alert and changes
nothing (a forged one does not even parse: ``MoveCb.filter()`` lets it fall through to the
errors router, which answers it as outdated).

Issues 12 and 13 ("Moves of two tiles", "Composing a move"): a :class:`~ui.callbacks.PlayCb`
button plays a move of any variant (RULES.md §2.0.4), or shows a move of several doubles
being built, whose placements so far travel in the button itself.  A building press changes
nothing in the game: the service checks it as it checks a move, without playing one
(``Play.check_press``: the match running, a player's, at the version shown, on their turn),
the handler only answers a refusal; then its placements must be part of a legal move of the
seat's ``HandView`` (``ui.compose.is_prefix``), and the pressed message is edited to the move
so far.  A press to play goes to the service, which checks it as every move (stale, out of
turn, illegal).
"""

from __future__ import annotations

from typing import Any

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from delivery.app import App
from handlers.common import acknowledge, alert, answer, reply, thread_of
from service.views import ErrorCode, MoveOption, Result, Status
from ui import compose, render, targets
from ui.callbacks import MoveCb, PlaceCb, PlayCb, parse_callback


async def on_move(query: CallbackQuery, callback_data: MoveCb, app: App, locale: str) -> None:
    """A move button: ``MoveCb(game, ver, tile, end)``."""
    a, b = callback_data.halves
    await _act(query, app, locale, callback_data.game, f"{a}-{b}", callback_data.engine_end,
               callback_data.ver)


async def _act(query: CallbackQuery, app: App, locale: str, game: int,
               move: str | MoveOption, end: str | None, version: int) -> None:
    res = await app.service.play.act(game, query.from_user.id, move, end, version)
    if not res.ok:
        await _refused(query, app, locale, res)
        return
    await acknowledge(query)  # never in the way of publishing the move already committed
    await app.publish(res)
    if query.message is not None:
        await app.publisher.accepted(res, query.from_user.id, query.message.chat.id,
                                     query.message.message_id)


async def _refused(query: CallbackQuery, app: App, locale: str, res: Result,
                   key: str | None = None) -> None:
    """The alert answering a refused press (``key``: its text, else the refusal's own); an
    old keyboard (stale, not this player's turn, a closed match) is taken away, so that only
    the live one remains, and a message showing an older keyboard than the books say is
    shown anew (:meth:`delivery.publisher.Publisher.refused`)."""
    await alert(query, app.tr.plain(locale, key) if key else app.error_text(locale, res))
    if res.error in (ErrorCode.STALE, ErrorCode.NOT_YOUR_TURN, ErrorCode.WRONG_STATUS,
                     ErrorCode.BAD_MOVE) and query.message:
        await app.publisher.refused(res, query.from_user.id, query.message.chat.id,
                                    query.message.message_id, _shown_version(query.message),
                                    had_keyboard=query.message.reply_markup is not None)


def _shown_version(message: Any) -> int | None:
    """The match version of the move keyboard a message shows now (as Telegram sent it with
    the press), None without one."""
    markup = getattr(message, "reply_markup", None)
    for row in markup.inline_keyboard if markup is not None else ():
        for button in row:
            try:
                cb = parse_callback(button.callback_data)
            except Exception:  # noqa: BLE001 - a button of another kind
                continue
            if isinstance(cb, (MoveCb, PlayCb, PlaceCb)):
                return int(cb.ver)
    return None


async def _pressable(query: CallbackQuery, app: App, locale: str, match_id: int, user: int,
                     version: int) -> Result | None:
    """The views of a press that changes nothing (building a move, choosing a target), if
    :meth:`service.play.Play.check_press` takes it; else the refusal is told (a match gone:
    its button is out of date) and None."""
    res = await app.service.play.check_press(match_id, user, version)
    if res.ok:
        return res
    gone = res.error == ErrorCode.NOT_FOUND
    await _refused(query, app, locale, res, "err-stale-button" if gone else None)
    return None


async def on_play(query: CallbackQuery, callback_data: PlayCb, app: App, locale: str) -> None:
    """A :class:`~ui.callbacks.PlayCb` button: ``p`` plays its placements as one move
    (RULES.md §2.0.4); ``b`` shows the move being built with its placements so far
    (refused unless they are part of a legal move of the presser's seat, at the current
    version, on the presser's turn); ``t`` shows the move buttons again (the move being
    built is dropped).  Nothing a ``b`` or ``t`` press does changes the game."""
    cb = callback_data
    user = query.from_user.id
    if cb.act == "p":
        first, *more = cb.placements
        option = MoveOption(first.tile, first.end, first.closed, first.along, tuple(more))
        await _act(query, app, locale, cb.game, option, None, cb.ver)
        return
    res = await _pressable(query, app, locale, cb.game, user, cb.ver)
    if res is None:  # a match gone or over: the move being built is out of date
        return
    hand = res.hand_for(user)
    chosen = list(cb.placements) if cb.act == "b" else None
    if chosen is not None and not compose.is_prefix(chosen, hand.legal):
        await alert(query, app.tr.plain(locale, "err-compose-bad"))
        return
    await acknowledge(query)
    if query.message is not None:
        await app.publisher.show_move(res, user, query.message.chat.id,
                                      query.message.message_id, chosen)


async def on_place(query: CallbackQuery, callback_data: PlaceCb, app: App, locale: str
                   ) -> None:
    """A :class:`~ui.callbacks.PlaceCb` button on the trains or the sausage (RULES.md §2.11,
    §2.12): ``p`` plays its tile on its target (checked by the service as every move);
    ``c`` shows the trains its tile fits (refused unless the tile has a legal placement of
    the presser's seat, at the current version, on their turn); ``t`` shows the tiles
    again.  Nothing a ``c`` or ``t`` press does changes the game."""
    cb = callback_data
    user = query.from_user.id
    if cb.act == "p":
        await _act(query, app, locale, cb.game, MoveOption.of(cb.placement), None, cb.ver)
        return
    res = await _pressable(query, app, locale, cb.game, user, cb.ver)
    if res is None:
        return
    hand = res.hand_for(user)
    chosen = [cb.placement] if cb.act == "c" else None
    if chosen is not None and cb.placement.tile not in targets.tile_targets(hand.legal):
        await alert(query, app.tr.plain(locale, "err-compose-bad"))
        return
    await acknowledge(query)
    if query.message is not None:
        await app.publisher.show_move(res, user, query.message.chat.id,
                                      query.message.message_id, chosen)


async def _my_open_match(app: App, user_id: int) -> Result | None:
    for res in await app.service.store.open_matches(user_id):
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
    await app.service.people.set_dm_open(user.id, True)
    app.dm_opened(user.id)
    await app.publisher.resend_hand(res, user.id)


async def cmd_score(message: Message, app: App, locale: str) -> None:
    """The match table of this chat's running match (a group's, or a solo match's)."""
    found = await app.service.store.find_open(message.chat.id, thread_of(message))
    if not found.ok or found.table is None:
        reply(app, message, app.tr.t(locale, "err-no-game"))
        return
    reply(app, message, render.render_score(locale, found.table, tr=app.tr))


def create_router() -> Router:
    """The play router: the move buttons and /score (/hand is in the private router)."""
    router = Router(name="play")
    router.callback_query.register(on_move, MoveCb.filter())
    router.callback_query.register(on_play, PlayCb.filter())
    router.callback_query.register(on_place, PlaceCb.filter())
    router.message.register(cmd_score, Command("score"))
    return router
