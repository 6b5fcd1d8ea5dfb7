"""Players' records (issue 15): /history and its pages, a match's game record (/record, the
button under a match's end and in /history), the check of a record a user sends in private
(a document, or /replay in reply to one), and leaving a running match (/leave in private,
the button of the private keyboard, the confirmation; /leave in a group is in
:mod:`handlers.lobby`) with the group's answer when a player's turns time out.

Thin as every router: the service decides who may do what; a refused press gets an alert and
changes nothing.  Records go to the presser's private chat; a user who never opened it gets a
link that opens it, and ``/start r<match id>`` there sends the record
(:mod:`handlers.private`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import io
import logging
from functools import partial

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, Message, User

from delivery.app import App
from handlers.admins import AdminCheck, or_as_admin
from handlers.common import (
    IN_PRIVATE,
    SameChatGuard,
    alert,
    answer,
    in_group,
    pressed_in_group,
    query_chat,
    reply,
)
from service.live.records import MAX_RECORD_BYTES
from service.views import ErrorCode, Result, Status
from ui import records
from ui.callbacks import HistoryCb, HoldCb, LeaveCb, RecordCb

log = logging.getLogger(__name__)

#: Seconds a button press waits for its record to reach the private chat before answering.
RECORD_WAIT = 8.0

#: The key of the record links' signatures (:func:`grant_payload`), from the bot's token.
_GRANT_SALT = b"kozel record link\0"

_RECORD_ERRORS = {ErrorCode.WRONG_STATUS: "err-record-open",
                  ErrorCode.NOT_IN_GAME: "err-record-foreign",
                  ErrorCode.NOT_FOUND: "err-record-none"}


# -- the history --------------------------------------------------------------------------


async def _history(app: App, chat_id: int, group: bool, user_id: int, locale: str, page: int):
    """The text and keyboard of a history page: the chat's in a ``group``, the user's own in
    private (the chat's board, with or without computer players, gives the skill changes)."""
    if group:
        info = await app.service.people.chat_info(chat_id)
        found = await app.service.stats.history(chat_id=chat_id, page=page,
                                                with_bots=bool(info.options.get("bot_matches")))
    else:
        found = await app.service.stats.history(user_id=user_id, page=page)
    return (records.render_history(locale, found, mine=not group, tr=app.tr),
            records.history_keyboard(locale, found, tr=app.tr))


async def cmd_history(message: Message, app: App, locale: str) -> None:
    """/history: this chat's finished matches (a group), or your own (private), newest
    first, with a page's buttons and a record button per match."""
    text, markup = await _history(app, message.chat.id, in_group(message.chat),
                                  message.from_user.id, locale, 0)
    reply(app, message, text, reply_markup=markup)


async def on_history_page(query: CallbackQuery, callback_data: HistoryCb, app: App,
                          locale: str) -> None:
    chat_id = query_chat(query)
    text, markup = await _history(app, chat_id, pressed_in_group(query), query.from_user.id,
                                  locale, callback_data.page)
    await query.answer()
    if query.message:
        app.edit(chat_id, query.message.message_id, text,
                                       reply_markup=markup)


# -- records --------------------------------------------------------------------------------


def _signature(token: str, user_id: int, match_id: int) -> str:
    key = hashlib.sha256(_GRANT_SALT + token.encode()).digest()
    mac = hmac.new(key, f"{int(user_id)}:{int(match_id)}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:9]).decode()  # 12 characters, no padding


def grant_payload(token: str, user_id: int, match_id: int) -> str:
    """The ``/start`` payload of a record link given to ``user_id`` where they may have the
    record of ``match_id`` (its chat) but their private chat is closed:
    ``r<match id>_<signature>``, signed with a key derived from the bot's ``token`` (issue 20
    item 15: nothing is kept in memory, so the link still works after a restart).  At most
    32 characters of ``[A-Za-z0-9_-]``, as Telegram's deep links allow."""
    return f"r{int(match_id)}_{_signature(token, user_id, match_id)}"


def granted(token: str, user_id: int, match_id: int, signature: str | None) -> bool:
    """Whether ``signature`` is the one :func:`grant_payload` gave ``user_id`` for
    ``match_id``."""
    return bool(signature) and hmac.compare_digest(
        signature, _signature(token, user_id, match_id))


async def send_record(app: App, user: User, match_id: int, chat_id: int | None, *,
                      grant: bool = False) -> tuple[str | None, bool]:
    """Send the game record of ``match_id`` to ``user``'s private chat, asked in
    ``chat_id`` (``grant``: by a signed link given in the match's chat, :func:`granted`).
    Returns ``(text key of the answer, dm_closed)``: ``rec-sent``, the error's key, or
    ``err-record-dm`` with ``dm_closed`` when the private chat is not open (403; the
    match's chat may then be left: ``/start`` with :func:`grant_payload` sends the
    record)."""
    rec = await app.service.records.record(match_id, user.id, chat_id, granted=grant)
    if isinstance(rec, ErrorCode):
        return _RECORD_ERRORS.get(rec, "err-unexpected"), False
    known = await app.service.people.get_user(user.id)
    if known is None or not known.dm_open:
        return "err-record-dm", True
    locale = await app.languages.of_user(user.id)
    sent = app.send_document(
        user.id, BufferedInputFile(rec.data, filename=rec.filename),
        caption=records.record_caption(locale, rec, tr=app.tr))
    try:
        done = await asyncio.wait_for(asyncio.shield(sent), RECORD_WAIT)
    except TimeoutError:  # still queued behind the chat's limit: it goes out
        return "rec-sent", False
    if done is None:
        return "err-record-dm", app.reach.blocked(user.id)
    return "rec-sent", False


async def cmd_record(message: Message, command: CommandObject, app: App, bot: Bot,
                     locale: str) -> None:
    """/record [number]: the game record of a match of /history (default: the newest) to
    your private chat."""
    arg = (command.args or "").strip().lstrip("#")
    chat_id, user, group = message.chat.id, message.from_user, in_group(message.chat)
    if arg and not (arg.isdigit() and len(arg) <= 18):
        reply(app, message, app.tr.t(locale, "err-record-usage"))
        return
    if arg:
        match_id = int(arg)
    else:
        match_id = await app.service.records.latest(
            chat_id=chat_id if group else None, user_id=None if group else user.id)
        if match_id is None:
            reply(app, message, app.tr.t(locale, "rec-none"))
            return
    key, closed = await send_record(app, user, match_id, chat_id)
    if closed:
        reply(app, message, app.tr.t(locale, "notice-dm-link", name=user.full_name[:64],
                                     url=app.link(grant_payload(bot.token, user.id,
                                                                          match_id))))
    elif group or key != "rec-sent":
        reply(app, message, app.tr.t(locale, key, id=match_id))


async def on_record(query: CallbackQuery, callback_data: RecordCb, app: App, bot: Bot,
                    locale: str) -> None:
    """The record button: the record goes to the presser's private chat; a closed one
    opens with the answer's link (:func:`grant_payload`), and ``/start`` there sends it."""
    match_id = callback_data.match
    key, closed = await send_record(app, query.from_user, match_id, query_chat(query))
    if closed:
        await query.answer(url=app.link(grant_payload(bot.token, query.from_user.id,
                                                                match_id)))
    elif key == "rec-sent":
        await query.answer(app.tr.plain(locale, key, id=match_id))
    else:
        await alert(query, app.tr.plain(locale, key, id=match_id))


# -- checking a record ----------------------------------------------------------------------


async def _check(message: Message, document, app: App, bot: Bot, locale: str) -> None:
    """Check a sent record file: its size from Telegram first, then its bytes."""
    size = document.file_size
    if size is not None and size > MAX_RECORD_BYTES:
        reply(app, message, app.tr.t(locale, "chk-err-size", size=size, limit=MAX_RECORD_BYTES))
        return
    try:
        got = await bot.download(document.file_id, destination=io.BytesIO())
        data = got.getvalue() if got is not None else b""
    except Exception:
        log.warning("downloading a record from %s failed", message.from_user.id, exc_info=True)
        reply(app, message, app.tr.t(locale, "chk-download-failed"))
        return
    check = await app.service.records.check(data)
    reply(app, message, records.render_record_check(locale, check, limit=MAX_RECORD_BYTES,
                                                    rules_url=app.rules_url,
                                                    tr=app.tr))


async def on_document(message: Message, app: App, bot: Bot, locale: str) -> None:
    """A file sent in private: checked as a game record."""
    await _check(message, message.document, app, bot, locale)


async def cmd_replay(message: Message, app: App, bot: Bot, locale: str) -> None:
    """/replay in reply to a record file (or as the caption of one): check it, in any chat
    (issue 20 item 5: in a group too, where the answer quotes the command; a record holds
    only what its file already shows, and a stored match is compared only once finished).
    Without a file, how to send one (in a group: reply to the file with /replay)."""
    replied = message.reply_to_message
    document = message.document or (replied.document if replied is not None else None)
    if document is None:
        reply(app, message, app.tr.t(locale, "chk-hint-group" if in_group(message.chat)
                                     else "chk-hint"))
        return
    await _check(message, document, app, bot, locale)


# -- leaving a running match ------------------------------------------------------------------


async def _playing(app: App, user_id: int) -> list[Result]:
    return [r for r in await app.service.store.open_matches(user_id)
            if r.status == Status.PLAYING and r.hand_for(user_id) is not None]


def last_person(res: Result, user_id: int) -> bool:
    """Whether ``user_id`` is the only person seated in ``res``'s match (the others are
    computer players): their leaving ends the match (``Leaving.leave``)."""
    return res.table is not None and not any(
        s.user_id > 0 and s.user_id != user_id for s in res.table.seats)


def leave_text(app: App, locale: str, res: Result, user: User) -> str:
    """The question before leaving: a computer player takes the seat, or — for the last
    person at the table, as in a match against computer players — the match ends (issue 20
    item 4)."""
    key = "leave-confirm-last" if last_person(res, user.id) else "leave-confirm"
    return app.tr.t(locale, key, name=user.full_name[:64])


def confirm_leave(app: App, message: Message, locale: str, res: Result, user: User,
                  *, where: str | None = None) -> None:
    """Ask ``user`` to confirm leaving ``res``'s match (the buttons answer them only)."""
    text = leave_text(app, locale, res, user)
    if where:
        text = where + "\n" + text
    reply(app, message, text, reply_markup=records.leave_keyboard(locale, res.match_id,
                                                                  user.id, tr=app.tr))


async def cmd_leave_private(message: Message, app: App, locale: str) -> None:
    """/leave in private: leave your running match (after a confirmation)."""
    user = message.from_user
    found = await _playing(app, user.id)
    if not found:
        reply(app, message, app.tr.t(locale, "leave-none"))
        return
    for res in found:
        where = None
        if len(found) > 1:
            info = await app.service.people.chat_info(res.table.chat_id)
            where = f"#{res.match_id} · {records.clean_name(info.title or '—')}"
        confirm_leave(app, message, locale, res, user, where=where)


async def on_leave(query: CallbackQuery, callback_data: LeaveCb, app: App,
                   locale: str) -> None:
    """The leave buttons: ``ask`` (the private keyboard's) shows the confirmation, ``yes``
    leaves, ``no`` stays; each only for the player it names."""
    if query.from_user.id != callback_data.user:
        await alert(query, app.tr.plain(locale, "err-not-your-leave"))
        return
    chat_id = query_chat(query)
    mid = query.message.message_id if query.message else None
    if callback_data.action == "ask":
        await query.answer()
        found = await app.service.store.view(callback_data.match)
        answer(app, query.message, leave_text(app, locale, found, query.from_user),
               reply_markup=records.leave_keyboard(locale, callback_data.match,
                                                   callback_data.user, tr=app.tr))
        return
    if callback_data.action == "no":
        await query.answer(app.tr.plain(locale, "leave-kept"))
        if mid is not None:
            app.edit(chat_id, mid, app.tr.t(locale, "leave-kept"),
                                           reply_markup=None)
        return
    res = await app.service.leaving.leave(callback_data.match, query.from_user.id)
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        if mid is not None:
            app.edit_markup(chat_id, mid, None)
        return
    await query.answer()
    if mid is not None:
        app.edit_markup(chat_id, mid, None)
    await app.publish(res)


async def on_hold(query: CallbackQuery, callback_data: HoldCb, app: App,
                  is_admin: AdminCheck, locale: str) -> None:
    """The group's answer to the question about a player's timeouts: the other players, or
    a chat admin."""
    act = (app.service.leaving.substitute if callback_data.choice == "bot"
           else app.service.leaving.end_by_timeout)
    res = await or_as_admin(is_admin, partial(act, callback_data.match, query.from_user.id,
                                              callback_data.ver), ErrorCode.NOT_IN_GAME)
    if not res.ok:
        key = "err-hold-not-yours" if res.error == ErrorCode.NOT_IN_GAME else None
        await alert(query, app.tr.plain(locale, key) if key else app.error_text(locale, res))
        return
    await query.answer()
    await app.publish(res)


def create_router() -> Router:
    """The records router: /history, /record, /replay and their buttons (any chat); in
    private the check of any record file sent and /leave; the leave and timeout-question buttons."""
    router = Router(name="records")
    # the timeout question lives in its match's group (its other buttons: in private too)
    router.callback_query.middleware(SameChatGuard(only=(HoldCb,)))
    router.message.register(cmd_history, Command("history"))
    router.message.register(cmd_record, Command("record"))
    router.message.register(cmd_replay, Command("replay"))
    router.message.register(cmd_leave_private, Command("leave"), IN_PRIVATE)
    router.message.register(on_document, F.document, IN_PRIVATE)
    router.callback_query.register(on_history_page, HistoryCb.filter())
    router.callback_query.register(on_record, RecordCb.filter())
    router.callback_query.register(on_leave, LeaveCb.filter())
    router.callback_query.register(on_hold, HoldCb.filter())
    return router
