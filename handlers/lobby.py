"""The group lobby: /newgame [game], /join, /leave, /addbot, /startgame, /stopgame and the
lobby buttons (one handler per button; the game menu is in :mod:`handlers.games`); /hand and
/start in a group are answered here too.

Issue 4, "The lobby": one lobby or match per chat (per forum topic); Join works only for
users the bot can write to — the others get a deep link that opens the DM, where /start
completes the join.  The commands of this router work in groups (its message filter); the
private router answers them there.
"""

from __future__ import annotations

from functools import partial

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message, User

from delivery.app import App
from handlers.admins import AdminCheck, or_as_admin
from handlers.common import (
    IN_GROUPS,
    SameChatGuard,
    alert,
    display_name,
    point_to_open,
    query_chat,
    register,
    reply,
    thread_of,
)
from handlers.games import unknown_variant_text
from service.views import ErrorCode, Result, Status
from ui import render
from ui.callbacks import LobbyCb, StopCb
from ui.keyboards import stop_keyboard
from ui.strengths import parse_strength
from ui.variants import parse_variant


async def _dm_open(app: App, user_id: int) -> bool:
    user = await app.service.people.get_user(user_id)
    return bool(user and user.dm_open)


def _dm_hint(message: Message, app: App, locale: str, match_id: int) -> None:
    """Tell a seated player whose DM is closed how to open it (one tap)."""
    url = app.link(f"j{match_id}")
    reply(app, message, app.tr.t(locale, "notice-dm-link",
                                 name=display_name(message.from_user), url=url))


async def _this_lobby(message: Message, app: App, locale: str) -> Result | None:
    """The open lobby of this chat topic, or None after telling the user there is none."""
    found = await app.service.store.find_open(message.chat.id, thread_of(message))
    if not found.ok or found.status != Status.LOBBY:
        reply(app, message, app.error_text(locale, found) if not found.ok
              else app.tr.t(locale, "err-lobby-closed"))
        return None
    return found


async def _reply_or_publish(message: Message, app: App, locale: str, res: Result) -> None:
    """Show an accepted change, or answer why it was refused."""
    if not res.ok:
        reply(app, message, app.error_text(locale, res))
        return
    await app.publish(res)


async def _press_or_publish(query: CallbackQuery, app: App, locale: str, res: Result,
                            refused: str | None = None) -> None:
    """Answer a lobby button: an alert why it was refused (``refused``: the text key for
    ``not_in_game``), or publish the change."""
    if not res.ok:
        key = refused if refused and res.error == ErrorCode.NOT_IN_GAME else None
        await alert(query, app.tr.plain(locale, key) if key else app.error_text(locale, res))
        return
    await query.answer()
    await app.publish(res)


async def _start(app: App, is_admin: AdminCheck, match_id: int, user_id: int) -> Result:
    """Start as the lobby's creator, or as a chat admin (the creator's start costs no
    ``getChatMember`` call)."""
    return await or_as_admin(is_admin, partial(app.service.lobbies.start, match_id, user_id),
                             ErrorCode.NOT_CREATOR)


async def _seat_bot(app: App, is_admin: AdminCheck, match_id: int, user_id: int,
                    strength: str | None) -> Result:
    """Seat a computer player of ``strength`` (None: take the last one seated off), as a
    player of the lobby or as a chat admin."""
    lobbies = app.service.lobbies
    operation = (partial(lobbies.add_bot, match_id, user_id, strength) if strength
                 else partial(lobbies.remove_bot, match_id, user_id))
    return await or_as_admin(is_admin, operation, ErrorCode.NOT_IN_GAME)


async def _stop(app: App, is_admin: AdminCheck, match_id: int, user: User) -> Result:
    """Stop a lobby or a match as its creator, or as a chat admin, in ``user``'s name."""
    return await or_as_admin(is_admin, partial(app.service.lobbies.stop, match_id, user.id,
                                               name=display_name(user)),
                             ErrorCode.NOT_CREATOR)


# -- commands --------------------------------------------------------------------------------


async def cmd_newgame(message: Message, command: CommandObject, app: App,
                      locale: str) -> None:
    """/newgame [game]: open a lobby of that game (RULES.md §2; the chat's game without
    words) in this chat (topic) and take the first seat."""
    user = message.from_user
    variant = None
    if (command.args or "").strip():
        variant = parse_variant(command.args, app.tr)
        if variant is None:
            words = command.args.lower().split()
            solo = any(w.isdigit() or parse_strength(w, app.tr) for w in words)
            text = unknown_variant_text(app, locale)
            if solo:  # the private command's words: a group seats computer players with /addbot
                text = app.tr.t(locale, "err-newgame-group-words") + "\n" + text
            reply(app, message, text)
            return
    await register(app, user)
    chat = await app.service.people.update_chat(message.chat.id, title=message.chat.title,
                                                is_forum=bool(message.chat.is_forum))
    # TURN_TIMEOUT is the default of chats whose admins did not choose one in /settings
    extra = {} if "turn_timeout" in chat.chat.rules else {"turn_timeout": app.turn_timeout}
    res = await app.service.lobbies.open_lobby(message.chat.id, thread_of(message), user.id,
                                               display_name(user), extra, variant=variant)
    if res.error == ErrorCode.ALREADY_OPEN and res.match_id is not None:
        await point_to_open(app, message, locale, res)
        return
    if not res.ok:
        reply(app, message, app.error_text(locale, res))
        return
    await app.publish(res)
    if not await _dm_open(app, user.id):
        _dm_hint(message, app, locale, res.match_id)


async def cmd_join(message: Message, app: App, locale: str) -> None:
    user = message.from_user
    await register(app, user)
    found = await _this_lobby(message, app, locale)
    if found is None:
        return
    if not await _dm_open(app, user.id):
        _dm_hint(message, app, locale, found.match_id)
        return
    await _reply_or_publish(message, app, locale, await app.service.lobbies.join(
        found.match_id, user.id, display_name(user)))


async def cmd_leave(message: Message, app: App, locale: str) -> None:
    """/leave: free a lobby seat; during a match, hand the seat to a computer player after a
    confirmation (issue 15, :mod:`handlers.records`)."""
    found = await app.service.store.find_open(message.chat.id, thread_of(message))
    if not found.ok:
        reply(app, message, app.error_text(locale, found))
        return
    if found.status == Status.PLAYING:
        if found.hand_for(message.from_user.id) is None:
            reply(app, message, app.tr.t(locale, "err-not-joined"))
            return
        from handlers.records import confirm_leave

        confirm_leave(app, message, locale, found, message.from_user)
        return
    res = await app.service.lobbies.leave(found.match_id, message.from_user.id)
    if not res.ok:
        reply(app, message, app.tr.t(locale, "err-not-joined")
              if res.error == ErrorCode.NOT_IN_GAME else app.error_text(locale, res))
        return
    await app.publish(res)


async def cmd_addbot(message: Message, command: CommandObject, app: App,
                     is_admin: AdminCheck, locale: str) -> None:
    """/addbot [strength]: seat a computer player in this chat's lobby (issue 6); the
    strength by its id or its word in any language (``hard``, ``сложный``)."""
    strength = parse_strength((command.args or "normal").strip(), app.tr)
    if strength is None:
        reply(app, message, app.tr.t(locale, "err-bad-strength"))
        return
    found = await _this_lobby(message, app, locale)
    if found is None:
        return
    await _reply_or_publish(message, app, locale, await _seat_bot(
        app, is_admin, found.match_id, message.from_user.id, strength))


async def cmd_startgame(message: Message, app: App, is_admin: AdminCheck, locale: str) -> None:
    found = await _this_lobby(message, app, locale)
    if found is None:
        return
    await _reply_or_publish(message, app, locale, await _start(
        app, is_admin, found.match_id, message.from_user.id))


async def cmd_stopgame(message: Message, app: App, is_admin: AdminCheck, locale: str) -> None:
    """Ask to confirm; the creator or an admin may stop (no rating)."""
    found = await app.service.store.find_open(message.chat.id, thread_of(message))
    if not found.ok:
        reply(app, message, app.error_text(locale, found))
        return
    creator = (found.lobby or found.table).creator_id
    if creator != message.from_user.id and not await is_admin():
        reply(app, message, app.tr.t(locale, "err-only-creator-or-admin"))
        return
    key = "lobby-stop-confirm" if found.lobby is not None else "match-stop-confirm"
    reply(app, message, app.tr.t(locale, key),
          reply_markup=stop_keyboard(locale, found.match_id, tr=app.tr))


async def cmd_private_only(message: Message, app: App, locale: str) -> None:
    reply(app, message, app.tr.t(locale, "err-private-only"))


async def cmd_start_here(message: Message, app: App, locale: str) -> None:
    """/start in a group: what the bot does here."""
    reply(app, message, render.render_help(locale, is_group=True, tr=app.tr))


# -- the stop confirmation ----------------------------------------------------------------------


async def on_stop_confirmed(query: CallbackQuery, callback_data: StopCb, app: App,
                            is_admin: AdminCheck, locale: str) -> None:
    chat_id = query_chat(query)
    res = await _stop(app, is_admin, callback_data.match, query.from_user)
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        return
    await query.answer()
    if query.message:  # the question says who stopped it (the group's notice, issue 30)
        key = "lobby-stopped-by" if res.table is None else "match-stopped-by"
        app.edit(chat_id, query.message.message_id,
                 app.tr.t(locale, key, name=render.clean_name(display_name(query.from_user))),
                 reply_markup=None)
    await app.publish(res)


async def on_stop_kept(query: CallbackQuery, app: App, locale: str) -> None:
    await query.answer(app.tr.plain(locale, "match-stop-kept"))
    if query.message:
        app.edit(query_chat(query), query.message.message_id,
                                       app.tr.t(locale, "match-stop-kept"), reply_markup=None)


# -- the lobby buttons --------------------------------------------------------------------------


async def on_join(query: CallbackQuery, callback_data: LobbyCb, app: App,
                  locale: str) -> None:
    user = query.from_user
    await register(app, user)
    if not await _dm_open(app, user.id):
        # one tap opens the DM; /start there completes the join
        await query.answer(url=app.link(f"j{callback_data.lobby}"))
        return
    await _press_or_publish(query, app, locale, await app.service.lobbies.join(
        callback_data.lobby, user.id, display_name(user)))


async def on_leave(query: CallbackQuery, callback_data: LobbyCb, app: App,
                   locale: str) -> None:
    await _press_or_publish(query, app, locale, await app.service.lobbies.leave(
        callback_data.lobby, query.from_user.id), refused="err-not-joined")


async def on_start(query: CallbackQuery, callback_data: LobbyCb, app: App,
                   is_admin: AdminCheck, locale: str) -> None:
    await _press_or_publish(query, app, locale, await _start(
        app, is_admin, callback_data.lobby, query.from_user.id))


async def on_cancel(query: CallbackQuery, callback_data: LobbyCb, app: App,
                    is_admin: AdminCheck, locale: str) -> None:
    await _press_or_publish(query, app, locale, await _stop(
        app, is_admin, callback_data.lobby, query.from_user))


async def on_addbot(query: CallbackQuery, callback_data: LobbyCb, app: App,
                    is_admin: AdminCheck, locale: str) -> None:
    await _press_or_publish(query, app, locale, await _seat_bot(
        app, is_admin, callback_data.lobby, query.from_user.id, "normal"))


async def on_rmbot(query: CallbackQuery, callback_data: LobbyCb, app: App,
                   is_admin: AdminCheck, locale: str) -> None:
    await _press_or_publish(query, app, locale, await _seat_bot(
        app, is_admin, callback_data.lobby, query.from_user.id, None))


async def on_rematch(query: CallbackQuery, callback_data: LobbyCb, app: App,
                     locale: str) -> None:
    res = await app.service.lobbies.rematch(callback_data.lobby, query.from_user.id)
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        return
    await query.answer()
    if query.message:
        app.edit_markup(query_chat(query), query.message.message_id, None)
    await app.publish(res)


def create_router() -> Router:
    """The lobby's router: group commands, the stop confirmation and the lobby buttons (the
    Rematch button also in a private chat, under a solo match)."""
    router = Router(name="lobby")
    router.callback_query.middleware(SameChatGuard())
    router.message.filter(IN_GROUPS)
    router.message.register(cmd_newgame, Command("newgame"))
    router.message.register(cmd_join, Command("join"))
    router.message.register(cmd_leave, Command("leave"))
    router.message.register(cmd_addbot, Command("addbot"))
    router.message.register(cmd_startgame, Command("startgame"))
    router.message.register(cmd_stopgame, Command("stopgame"))
    router.message.register(cmd_private_only, Command("hand"))
    router.message.register(cmd_start_here, CommandStart())
    router.callback_query.register(on_stop_confirmed, StopCb.filter(F.confirm))
    router.callback_query.register(on_stop_kept, StopCb.filter(~F.confirm))
    for action, handler in (("join", on_join), ("leave", on_leave), ("start", on_start),
                            ("cancel", on_cancel), ("addbot", on_addbot), ("rmbot", on_rmbot),
                            ("rematch", on_rematch)):
        router.callback_query.register(handler, LobbyCb.filter(F.action == action))
    return router
