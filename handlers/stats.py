"""Boards and personal statistics per game (issue 12, issue 15): /top [all] [game], /stats
[game] and their buttons.

Ratings of different games are not comparable, so both take a game (``/top sea_goat``) and
default to the chat's game (its /settings); a group's /top shows this chat's board, counting
matches with computer players only if its admins allow it in /settings, and /top all (or /top
in private) the global board, which never counts them (``storage.skill``).
"""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from delivery.app import App
from handlers.common import alert, display_name, in_group, pressed_in_group, query_chat, reply
from service.live.rulebook import VARIANT_NAMES
from ui import records
from ui.callbacks import StatsCb, TopCb
from ui.variants import parse_variant, variant_name

#: People per board.
BOARD_SIZE = 20
#: The words of /top that ask for every chat's board (``/top all``, ``/top все морской``).
EVERYWHERE = frozenset({"all", "все", "всі", "global", "общий", "загальний"})


async def _chat_game(app: App, chat_id: int) -> tuple[str, bool]:
    """The chat's game and whether its board counts matches with computer players."""
    info = await app.service.people.chat_info(chat_id)
    return str(info.full_rules.get("variant", "classic")), bool(info.options.get("bot_matches"))


def _bad_game(app: App, locale: str) -> str:
    """No game has that name: the games by their names in the reader's language."""
    names = ", ".join(variant_name(app.tr, locale, v) for v in VARIANT_NAMES)
    return app.tr.t(locale, "err-bad-variant", list=names)


async def _board(app: App, chat_id: int, group: bool, locale: str, variant: str,
                 everywhere: bool):
    """The text and buttons of a board: this ``group``'s, or every chat's (``everywhere``,
    and always in a private chat)."""
    _, with_bots = await _chat_game(app, chat_id)
    everywhere = everywhere or not group
    rows = await app.service.stats.leaderboard(None if everywhere else chat_id, variant=variant,
                                               with_bots=with_bots, limit=BOARD_SIZE)
    text = records.render_board(locale, rows, variant=variant, everywhere=everywhere,
                                with_bots=with_bots, tr=app.tr)
    markup = records.board_keyboard(locale, VARIANT_NAMES, variant, everywhere,
                                    in_group=group, tr=app.tr)
    return text, markup


async def cmd_top(message: Message, command: CommandObject, app: App, locale: str) -> None:
    """/top [all] [game]: this chat's board (all: every chat's; in private always every
    chat's) of a game, by default the chat's; the game by its id or any name of
    :func:`ui.variants.parse_variant` (``/top sea_goat``, ``/top все морской козёл``);
    buttons switch the game and the board."""
    words = (command.args or "").strip().lower().split()
    everywhere = any(w in EVERYWHERE for w in words)
    games = [w for w in words if w not in EVERYWHERE]
    variant = (parse_variant(games, app.tr) if games
               else (await _chat_game(app, message.chat.id))[0])
    if variant is None:
        reply(app, message, _bad_game(app, locale))
        return
    text, markup = await _board(app, message.chat.id, in_group(message.chat), locale, variant,
                                everywhere)
    reply(app, message, text, reply_markup=markup)


async def on_top(query: CallbackQuery, callback_data: TopCb, app: App, locale: str) -> None:
    if callback_data.variant not in VARIANT_NAMES:
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    chat_id = query_chat(query)
    text, markup = await _board(app, chat_id, pressed_in_group(query), locale,
                                callback_data.variant, callback_data.everywhere)
    await query.answer()
    if query.message:
        app.edit(chat_id, query.message.message_id, text,
                                       reply_markup=markup)


async def _stats(app: App, chat_id: int, group: bool, user_id: int, name: str, locale: str,
                 variant: str | None):
    """The /stats text and buttons of ``user_id`` in ``variant`` (None: the chat's game):
    in a ``group`` this chat's and every chat's, in a private chat every chat's and the
    matches against computer players there."""
    game, with_bots = await _chat_game(app, chat_id)
    variant = variant or game
    svc = app.service
    here = (await svc.stats.personal_stats(user_id, chat_id, variant=variant, with_bots=with_bots)
            if group else None)
    overall = await svc.stats.personal_stats(user_id, variant=variant)
    solo = (await svc.stats.personal_stats(user_id, user_id, variant=variant, with_bots=True)
            if not group else None)
    played: dict[str, int] = {}
    for b in await svc.stats.player_boards(user_id):
        played[b.variant] = max(played.get(b.variant, 0), b.matches)
    others = [(v, played[v]) for v in VARIANT_NAMES if v in played and v != variant]
    elsewhere = 0 if group else await svc.stats.bot_matches_in_groups(user_id, variant)
    text = records.render_personal(locale, name, variant, here=here, overall=overall,
                                   solo=solo, others=others,
                                   bots_left_out=group and not with_bots,
                                   bots_elsewhere=elsewhere, tr=app.tr)
    games = [v for v in VARIANT_NAMES if v in played or v == variant]
    return text, records.stats_keyboard(locale, user_id, games, variant, tr=app.tr)


async def cmd_stats(message: Message, command: CommandObject, app: App, locale: str) -> None:
    """/stats [game]: yours, or the replied-to user's, in this chat and over all chats; the
    game by its id or any of its names (``/stats морской``)."""
    target = message.from_user
    if message.reply_to_message and message.reply_to_message.from_user \
            and not message.reply_to_message.from_user.is_bot:
        target = message.reply_to_message.from_user
    arg = (command.args or "").strip()
    variant = parse_variant(arg, app.tr) if arg else None
    if arg and variant is None:
        reply(app, message, _bad_game(app, locale))
        return
    text, markup = await _stats(app, message.chat.id, in_group(message.chat), target.id,
                                display_name(target), locale, variant)
    reply(app, message, text, reply_markup=markup)


async def on_stats(query: CallbackQuery, callback_data: StatsCb, app: App,
                   locale: str) -> None:
    if callback_data.variant not in VARIANT_NAMES:
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    chat_id = query_chat(query)
    user = await app.service.people.get_user(callback_data.user)
    name = user.name if user is not None else str(callback_data.user)
    text, markup = await _stats(app, chat_id, pressed_in_group(query), callback_data.user, name,
                                locale, callback_data.variant)
    await query.answer()
    if query.message:
        app.edit(chat_id, query.message.message_id, text,
                                       reply_markup=markup)


def create_router() -> Router:
    """The statistics router (any chat)."""
    router = Router(name="stats")
    router.message.register(cmd_top, Command("top"))
    router.message.register(cmd_stats, Command("stats"))
    router.callback_query.register(on_top, TopCb.filter())
    router.callback_query.register(on_stats, StatsCb.filter())
    return router
