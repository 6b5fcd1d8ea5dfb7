"""The private chat: /start (with deep-link payloads), /newgame against computer players,
/hand, /stopgame of the match against them, and the answer to group commands sent here.
The router's message filter keeps it to private chats.

Payloads: ``j<match id>`` seats the user in that lobby; ``h<match id>`` (from the group
notice when a DM was closed) sends the hand of that match; ``r<match id>_<signature>``
(from a record button pressed before the DM was open, ``handlers.records.grant_payload``)
sends that match's game record, after a restart too.  Any /start in
private records that the bot may now write to the user (issue 4: 403 until they do).
"""

from __future__ import annotations

import re

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from delivery.app import App
from handlers.common import IN_PRIVATE, answer, display_name, point_to_open, register, reply
from handlers.games import (
    open_solo,
    parse_solo,
    send_solo_setup,
    solo_refusal,
    unknown_variant_text,
)
from handlers.play import cmd_hand
from service.views import ErrorCode, Status
from ui.keyboards import stop_keyboard

_PAYLOAD = re.compile(r"^([jhr])(\d{1,18})(?:_([A-Za-z0-9_-]{12}))?$")

#: Commands that work in groups only; in private they are answered with "group only".
#: (/leave works in both: in private it leaves a running match, ``handlers.records``.)
#: (/stopgame works in both: in private it stops the match against computer players here.)
GROUP_COMMANDS = ("join", "addbot", "startgame", "settings")


async def cmd_start(message: Message, command: CommandObject, app: App, bot: Bot,
                    locale: str) -> None:
    user = message.from_user
    await register(app, user, dm_open=True)
    app.dm_opened(user.id)
    m = _PAYLOAD.match((command.args or "").strip())
    if m and m.group(1) == "j":
        res = await app.service.lobbies.join(int(m.group(2)), user.id, display_name(user))
        if res.ok:
            await app.publish(res)
            info = await app.service.people.chat_info(res.lobby.chat_id)
            answer(app, message, app.tr.t(locale, "start-joined", chat=info.title or "—"))
            return
        if res.error is not None and res.error != ErrorCode.ALREADY_JOINED:
            answer(app, message, app.error_text(locale, res))
            return
    if m and m.group(1) == "r":
        from handlers.records import granted, send_record

        match_id = int(m.group(2))
        key, _ = await send_record(app, user, match_id, user.id,
                                   grant=granted(bot.token, user.id, match_id, m.group(3)))
        if key != "rec-sent":
            answer(app, message, app.tr.t(locale, key, id=int(m.group(2))))
        return
    # a closed DM is open now: deliver every hand this user is waiting for
    delivered = False
    for res in await app.service.store.open_matches(user.id):
        if res.status == Status.PLAYING and res.hand_for(user.id) is not None:
            delivered = await app.publisher.resend_hand(res, user.id) or delivered
    if not delivered:
        answer(app, message, app.tr.t(locale, "start-private"))


async def cmd_newgame_solo(message: Message, command: CommandObject, app: App,
                           locale: str) -> None:
    """/newgame [1-3] [game] [easy|normal|hard] in private: a solo match against computer
    players (issue 6) of that game (RULES.md §2), played with the same table and hand
    messages as in a group; without words, the set-up message with buttons
    (:mod:`handlers.games`).  A count the game does not seat gets an answer that says what
    it seats.  While a match is open here, /newgame with or without words points to it
    (its hand message, /hand and /stopgame) instead of a set-up whose "Play" would refuse
    (issue 30 item 12)."""
    user = message.from_user
    await register(app, user, dm_open=True)
    words = (command.args or "").split()
    default = (await app.service.people.chat_info(user.id)).full_rules.get("variant", "classic")
    if not words:
        found = await app.service.store.find_open(message.chat.id, None)
        if found.ok and found.match_id is not None:
            await point_to_open(app, message, locale, found)
            return
        send_solo_setup(app, message, locale, str(default))
        return
    choice = parse_solo(words, app.tr, str(default))
    if choice is None:
        reply(app, message, app.tr.t(locale, "err-bad-solo") + "\n"
              + unknown_variant_text(app, locale))
        return
    refusal = solo_refusal(app, locale, choice)
    if refusal is not None:
        reply(app, message, refusal)
        return
    res = await open_solo(app, user, choice)
    if res.error == ErrorCode.ALREADY_OPEN and res.match_id is not None:
        await point_to_open(app, message, locale, res)
        return
    if not res.ok:
        reply(app, message, app.error_text(locale, res))
        return
    await app.publish(res)


async def cmd_stopgame_private(message: Message, app: App, locale: str) -> None:
    """/stopgame in private (issue 20 item 4): stop this chat's match against computer
    players after a confirmation (not rated, as every stopped match); the buttons are the
    group's (:func:`handlers.lobby.on_stop_confirmed`), and the player is its creator."""
    found = await app.service.store.find_open(message.chat.id, None)
    if not found.ok:
        reply(app, message, app.tr.t(locale, "err-no-match-here"))
        return
    reply(app, message, app.tr.t(locale, "match-stop-confirm"),
          reply_markup=stop_keyboard(locale, found.match_id, tr=app.tr))


async def cmd_group_only(message: Message, app: App, locale: str) -> None:
    reply(app, message, app.tr.t(locale, "err-group-only"))


def create_router() -> Router:
    """The private chat's router."""
    router = Router(name="private")
    router.message.filter(IN_PRIVATE)
    router.message.register(cmd_start, CommandStart())
    router.message.register(cmd_newgame_solo, Command("newgame"))
    router.message.register(cmd_hand, Command("hand"))
    router.message.register(cmd_stopgame_private, Command("stopgame"))
    router.message.register(cmd_group_only, Command(*GROUP_COMMANDS))
    return router
