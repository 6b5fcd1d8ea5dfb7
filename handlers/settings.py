"""Chat settings and languages: /settings, /rules, /lang and their buttons.

Issue 4, "Settings, languages": chat admins edit the settings of :data:`ui.settings.SETTINGS`
(the game of RULES.md §2, the rule options that game reads and the chat's language) with
inline buttons; changes apply from the next match.  Switching the game keeps the chat's
options the new game reads and drops the others (the service does it); /rules tells the
rules of the game played here.  /lang sets the chat's language in a group (admins) and the
user's own language in private.  One handler per kind of settings button: open a setting's
choices, choose a value, back to the menu, done.
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from handlers.common import IN_GROUPS, App, alert, is_admin, query_chat, reply, thread_of
from handlers.games import unknown_variant_text
from ui import render
from ui.callbacks import LangCb, SettingsCb
from ui.keyboards import lang_keyboard, settings_choices_keyboard, settings_keyboard
from ui.settings import setting
from ui.variants import parse_variant


async def cmd_rules(message: Message, command: CommandObject, app: App, locale: str) -> None:
    """The rules of a game (RULES.md §1, §2): ``/rules <game>`` that game's as a lobby of it
    opened here would play it; else the open lobby's or match's in this chat topic, else the
    chat's for new matches (in a private chat, the games against computer players); what
    the game changes against classic Kozel, its options' values, and every game's name;
    with ``RULES_URL`` set, a link to the rule book and the game's section in it."""
    private = message.chat.type == ChatType.PRIVATE
    if command.args:
        variant = parse_variant(command.args)
        if variant is None:
            reply(app, message, unknown_variant_text(app, locale))
            return
        rules = await app.service.game_rules(message.chat.id, variant)
        reply(app, message, render.render_game_rules(locale, rules, where="named",
                                                     rules_url=app.rules_url, tr=app.tr))
        return
    found = await app.service.find_open(message.chat.id, thread_of(message))
    rules = None
    if found.ok:
        rules = found.lobby.rules if found.lobby is not None else (
            found.table.rules if found.table is not None else None)
    where = "match" if rules else ("private" if private else "chat")
    if not rules:
        rules = (await app.service.chat_info(message.chat.id)).full_rules
    reply(app, message, render.render_game_rules(locale, rules, where=where,
                                                 rules_url=app.rules_url, tr=app.tr))


async def cmd_settings(message: Message, app: App, bot: Bot, locale: str) -> None:
    if not await is_admin(bot, message.chat.id, message.from_user.id):
        reply(app, message, app.tr.t(locale, "err-only-admin"))
        return
    info = await app.service.chat_info(message.chat.id)
    reply(app, message, render.render_settings(locale, info.full_rules, tr=app.tr),
          reply_markup=settings_keyboard(locale, info, tr=app.tr))


async def _admin(query: CallbackQuery, app: App, bot: Bot, locale: str) -> bool:
    """Settings buttons answer a group's admins only."""
    chat_id = query_chat(query)
    if chat_id >= 0 or not await is_admin(bot, chat_id, query.from_user.id):
        await alert(query, app.tr.plain(locale, "err-only-admin"))
        return False
    return True


async def _show_menu(query: CallbackQuery, app: App, locale: str, *, menu: bool) -> None:
    chat_id = query_chat(query)
    info = await app.service.chat_info(chat_id)
    app.publisher.outbox.edit_text(
        chat_id, query.message.message_id,
        render.render_settings(locale, info.full_rules, tr=app.tr),
        reply_markup=settings_keyboard(locale, info, tr=app.tr) if menu else None)


async def on_settings_done(query: CallbackQuery, app: App, bot: Bot, locale: str) -> None:
    if await _admin(query, app, bot, locale):
        await query.answer()
        await _show_menu(query, app, locale, menu=False)


async def on_settings_menu(query: CallbackQuery, app: App, bot: Bot, locale: str) -> None:
    if await _admin(query, app, bot, locale):
        await query.answer()
        await _show_menu(query, app, locale, menu=True)


async def on_setting_open(query: CallbackQuery, callback_data: SettingsCb, app: App, bot: Bot,
                          locale: str) -> None:
    """A setting of the menu: show its choices."""
    if not await _admin(query, app, bot, locale):
        return
    chat_id = query_chat(query)
    info = await app.service.chat_info(chat_id)
    try:
        spec = setting(callback_data.key)
    except KeyError:
        spec = None
    if spec is None or not spec.offered(info.full_rules):  # another game's, or forged
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    await query.answer()
    app.publisher.outbox.edit_text(
        chat_id, query.message.message_id,
        render.render_settings(locale, info.full_rules, choosing=app.tr.plain(locale, spec.label),
                               tr=app.tr),
        reply_markup=settings_choices_keyboard(locale, spec, spec.read(info),
                                               rules=info.full_rules, tr=app.tr))


async def on_setting_chosen(query: CallbackQuery, callback_data: SettingsCb, app: App, bot: Bot,
                            locale: str) -> None:
    """A value of a setting: store it, confirm, and show the menu again."""
    if not await _admin(query, app, bot, locale):
        return
    chat_id = query_chat(query)
    info = await app.service.chat_info(chat_id)
    try:
        spec = setting(callback_data.key)
        patch = spec.parse(callback_data.value, info.full_rules)
    except (KeyError, ValueError):  # forged, or a setting of the chat's previous game
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    res = await app.service.update_chat(
        chat_id, language=patch.language, options=patch.options or None,
        rules={**info.full_rules, **patch.rules} if patch.rules else None,
        variant=patch.variant)
    if not res.ok:
        await alert(query, app.tr.plain(locale, "err-unexpected"))
        return
    locale = patch.language or locale
    await query.answer(app.tr.plain(locale, "settings-saved") + " "
                       + spec.value_label(app.tr, locale, callback_data.value))
    await _show_menu(query, app, locale, menu=True)


async def cmd_lang(message: Message, app: App, bot: Bot, locale: str) -> None:
    if message.chat.id < 0 and not await is_admin(bot, message.chat.id, message.from_user.id):
        reply(app, message, app.tr.t(locale, "err-only-admin"))
        return
    reply(app, message, app.tr.t(locale, "lang-choose"),
          reply_markup=lang_keyboard(locale, tr=app.tr))


async def on_lang(query: CallbackQuery, callback_data: LangCb, app: App, bot: Bot,
                  locale: str) -> None:
    chat_id = query_chat(query)
    code = callback_data.code
    if chat_id < 0:
        if not await is_admin(bot, chat_id, query.from_user.id):
            await alert(query, app.tr.plain(locale, "err-only-admin"))
            return
        await app.service.update_chat(chat_id, language=code)
    else:
        await app.service.register_user(query.from_user.id, query.from_user.first_name,
                                        language=code)
    await query.answer()
    if query.message:
        app.publisher.outbox.edit_text(chat_id, query.message.message_id,
                                       app.tr.t(code, "lang-changed"), reply_markup=None)


def create_router() -> Router:
    """The settings router: /rules, /lang (any chat), /settings (groups) and the buttons."""
    router = Router(name="settings")
    router.message.register(cmd_rules, Command("rules"))
    router.message.register(cmd_settings, Command("settings"), IN_GROUPS)
    router.message.register(cmd_lang, Command("lang"))
    router.callback_query.register(on_settings_done, SettingsCb.filter(F.key == "done"))
    router.callback_query.register(on_settings_menu, SettingsCb.filter(F.key == "menu"))
    router.callback_query.register(on_setting_open, SettingsCb.filter(F.value == ""))
    router.callback_query.register(on_setting_chosen, SettingsCb.filter())
    router.callback_query.register(on_lang, LangCb.filter())
    return router
