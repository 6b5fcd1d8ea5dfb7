"""The group lobby: /newgame, /join, /leave, /startgame, /stopgame and the lobby buttons.

Issue 4, "The lobby": one lobby or match per chat (per forum topic); Join works only for
users the bot can write to — the others get a deep link that opens the DM, where /start
completes the join.
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from handlers.common import App, alert, display_name, is_admin, is_group, register, thread_of
from service import ErrorCode, Status
from ui.callbacks import LobbyCb, StopCb
from ui.keyboards import stop_keyboard

router = Router(name="lobby")


async def _group_only(message: Message, app: App) -> bool:
    if is_group(message):
        return True
    locale = await app.locale_for(message.chat.id, message.from_user)
    await message.reply(app.tr.t(locale, "err-group-only"))
    return False


async def _dm_open(app: App, user_id: int) -> bool:
    user = await app.service.get_user(user_id)
    return bool(user and user.dm_open)


async def _dm_hint(message: Message, app: App, locale: str, match_id: int) -> None:
    """Tell a seated player whose DM is closed how to open it (one tap)."""
    url = app.publisher.link(f"j{match_id}")
    await message.reply(app.tr.t(locale, "notice-dm-link", name=display_name(message.from_user),
                                 url=url))


async def _this_lobby(message: Message, app: App, locale: str):
    """The open lobby of this chat topic, or None after telling the user there is none."""
    found = await app.service.find_open(message.chat.id, thread_of(message))
    if not found.ok or found.status != Status.LOBBY:
        await message.reply(app.error_text(locale, found) if not found.ok
                            else app.tr.t(locale, "err-lobby-closed"))
        return None
    return found


async def _reply_or_publish(message: Message, app: App, locale: str, res) -> None:
    """Show an accepted change, or answer why it was refused."""
    if not res.ok:
        await message.reply(app.error_text(locale, res))
        return
    await app.publisher.publish(res)


_STRENGTHS = ("easy", "normal", "hard")


@router.message(Command("newgame"), F.chat.type == "private")
async def cmd_newgame_private(message: Message, command: CommandObject, app: App) -> None:
    """/newgame [1-3] [easy|normal|hard] in private: a solo match against computer players
    (issue 6), played with the same table and hand messages as in a group."""
    user = message.from_user
    await register(app, user, dm_open=True)
    locale = await app.locale_for(message.chat.id, user)
    count, strength = 1, "normal"
    for word in (command.args or "").lower().split():
        if word in ("1", "2", "3"):
            count = int(word)
        elif word in _STRENGTHS:
            strength = word
        else:
            await message.reply(app.tr.t(locale, "err-bad-solo"))
            return
    res = await app.service.open_solo(user.id, display_name(user), bots=count,
                                      strength=strength)
    if not res.ok:
        await message.reply(app.error_text(locale, res))
        return
    await app.publisher.publish(res)


@router.message(Command("addbot"))
async def cmd_addbot(message: Message, command: CommandObject, app: App, bot: Bot) -> None:
    """/addbot [easy|normal|hard]: seat a computer player in this chat's lobby (issue 6)."""
    if not await _group_only(message, app):
        return
    locale = await app.locale_for(message.chat.id, message.from_user)
    strength = (command.args or "normal").strip().lower()
    if strength not in _STRENGTHS:
        await message.reply(app.tr.t(locale, "err-bad-strength"))
        return
    found = await _this_lobby(message, app, locale)
    if found is None:
        return
    force = await is_admin(bot, message.chat.id, message.from_user.id)
    await _reply_or_publish(message, app, locale, await app.service.add_bot(
        found.match_id, message.from_user.id, strength, force=force))


@router.message(Command("newgame"))
async def cmd_newgame(message: Message, app: App) -> None:
    """Open a lobby in this chat (topic) and take the first seat."""
    if not await _group_only(message, app):
        return
    user = message.from_user
    await register(app, user)
    chat = await app.service.update_chat(message.chat.id, title=message.chat.title,
                                         is_forum=bool(message.chat.is_forum))
    locale = await app.locale_for(message.chat.id, user)
    # TURN_TIMEOUT is the default of chats whose admins did not choose one in /settings
    extra = {} if "turn_timeout" in chat.chat.rules else {"turn_timeout": app.turn_timeout}
    res = await app.service.open_lobby(message.chat.id, thread_of(message), user.id,
                                       display_name(user), extra)
    if not res.ok:
        await message.reply(app.error_text(locale, res))
        return
    await app.publisher.publish(res)
    if not await _dm_open(app, user.id):
        await _dm_hint(message, app, locale, res.match_id)


@router.message(Command("join"))
async def cmd_join(message: Message, app: App) -> None:
    if not await _group_only(message, app):
        return
    user = message.from_user
    await register(app, user)
    locale = await app.locale_for(message.chat.id, user)
    found = await _this_lobby(message, app, locale)
    if found is None:
        return
    if not await _dm_open(app, user.id):
        await _dm_hint(message, app, locale, found.match_id)
        return
    await _reply_or_publish(message, app, locale, await app.service.join(
        found.match_id, user.id, display_name(user)))


@router.message(Command("leave"))
async def cmd_leave(message: Message, app: App) -> None:
    if not await _group_only(message, app):
        return
    locale = await app.locale_for(message.chat.id, message.from_user)
    found = await app.service.find_open(message.chat.id, thread_of(message))
    if not found.ok:
        await message.reply(app.error_text(locale, found))
        return
    res = await app.service.leave(found.match_id, message.from_user.id)
    if not res.ok:
        await message.reply(app.tr.t(locale, "err-not-joined")
                            if res.error == ErrorCode.NOT_IN_GAME else app.error_text(locale, res))
        return
    await app.publisher.publish(res)


async def _start(app: App, bot: Bot, chat_id: int, match_id: int, user_id: int) -> object:
    """Start as the lobby's creator; anyone else only if Telegram says they are an admin (the
    creator's start costs no ``getChatMember`` call)."""
    res = await app.service.start(match_id, user_id)
    if res.error == ErrorCode.NOT_CREATOR and await is_admin(bot, chat_id, user_id):
        res = await app.service.start(match_id, user_id, force=True)
    return res


@router.message(Command("startgame"))
async def cmd_startgame(message: Message, app: App, bot: Bot) -> None:
    if not await _group_only(message, app):
        return
    locale = await app.locale_for(message.chat.id, message.from_user)
    found = await _this_lobby(message, app, locale)
    if found is None:
        return
    await _reply_or_publish(message, app, locale, await _start(
        app, bot, message.chat.id, found.match_id, message.from_user.id))


@router.message(Command("stopgame"))
async def cmd_stopgame(message: Message, app: App, bot: Bot) -> None:
    """Ask to confirm; the creator or an admin may stop (no rating)."""
    if not await _group_only(message, app):
        return
    locale = await app.locale_for(message.chat.id, message.from_user)
    found = await app.service.find_open(message.chat.id, thread_of(message))
    if not found.ok:
        await message.reply(app.error_text(locale, found))
        return
    creator = (found.lobby.creator_id if found.lobby else None)
    if creator != message.from_user.id and not await is_admin(bot, message.chat.id,
                                                              message.from_user.id):
        await message.reply(app.tr.t(locale, "err-only-creator-or-admin"))
        return
    await message.reply(app.tr.t(locale, "match-stop-confirm"),
                        reply_markup=stop_keyboard(locale, found.match_id, tr=app.tr))


@router.callback_query(StopCb.filter())
async def on_stop(query: CallbackQuery, callback_data: StopCb, app: App, bot: Bot) -> None:
    chat_id = query.message.chat.id if query.message else 0
    locale = await app.locale_for(chat_id, query.from_user)
    if not callback_data.confirm:
        await query.answer(app.tr.plain(locale, "match-stop-kept"))
        if query.message:
            await query.message.edit_text(app.tr.t(locale, "match-stop-kept"))
        return
    force = await is_admin(bot, chat_id, query.from_user.id)
    res = await app.service.stop(callback_data.match, query.from_user.id, force=force)
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        return
    await query.answer()
    if query.message:
        await query.message.delete_reply_markup()
    await app.publisher.publish(res)


@router.callback_query(LobbyCb.filter(F.action.in_({"join", "leave", "start", "cancel",
                                                    "addbot", "rmbot"})))
async def on_lobby_button(query: CallbackQuery, callback_data: LobbyCb, app: App,
                          bot: Bot) -> None:
    user = query.from_user
    chat_id = query.message.chat.id if query.message else 0
    locale = await app.locale_for(chat_id, user)
    action = callback_data.action
    match_id = callback_data.lobby
    if action == "join":
        await register(app, user)
        if not await _dm_open(app, user.id):
            # one tap opens the DM; /start there completes the join
            await query.answer(url=app.publisher.link(f"j{match_id}"))
            return
        res = await app.service.join(match_id, user.id, display_name(user))
    elif action == "leave":
        res = await app.service.leave(match_id, user.id)
    elif action == "start":
        res = await _start(app, bot, chat_id, match_id, user.id)
    elif action in ("addbot", "rmbot"):
        force = await is_admin(bot, chat_id, user.id)
        if action == "addbot":
            res = await app.service.add_bot(match_id, user.id, "normal", force=force)
        else:
            res = await app.service.remove_bot(match_id, user.id, force=force)
    else:
        force = await is_admin(bot, chat_id, user.id)
        res = await app.service.stop(match_id, user.id, force=force)
    if not res.ok:
        key = "err-not-joined" if (action == "leave" and res.error == ErrorCode.NOT_IN_GAME) \
            else None
        await alert(query, app.tr.plain(locale, key) if key else app.error_text(locale, res))
        return
    await query.answer()
    await app.publisher.publish(res)


@router.callback_query(LobbyCb.filter(F.action == "rematch"))
async def on_rematch(query: CallbackQuery, callback_data: LobbyCb, app: App) -> None:
    chat_id = query.message.chat.id if query.message else 0
    locale = await app.locale_for(chat_id, query.from_user)
    res = await app.service.rematch(callback_data.lobby, query.from_user.id)
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        return
    await query.answer()
    if query.message:
        await query.message.edit_reply_markup(reply_markup=None)
    await app.publisher.publish(res)
