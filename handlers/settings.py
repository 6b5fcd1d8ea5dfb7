"""Chat settings and languages: /settings, /rules, /lang and their buttons.

Issue 4, "Settings, languages": chat admins edit the settings of :func:`ui.settings.settings`
(the game of RULES.md §2, the rule options that game reads and the chat's language) with
inline buttons; changes apply from the next match.  Switching the game keeps the chat's
options the new game reads and drops the others (the service does it); /rules tells the
rules of the game played here.  /lang sets the chat's language in a group (admins) and the
user's own language in private.  One handler per kind of settings button: open a setting's
choices, choose a value, back to the menu, done.  Who may: the handlers of a group's settings
carry the chat-type and admin filters (:data:`handlers.admins.IS_ADMIN`, asked last); a
fallback handler answers everybody else that only admins may.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from delivery.app import App
from handlers.admins import IS_ADMIN
from handlers.common import IN_GROUPS, PRESSED_IN_GROUPS, alert, query_chat, reply, thread_of
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
        variant = parse_variant(command.args, app.tr)
        if variant is None:
            reply(app, message, unknown_variant_text(app, locale))
            return
        rules = await app.service.people.game_rules(message.chat.id, variant)
        reply(app, message, render.render_game_rules(locale, rules, where="named",
                                                     rules_url=app.rules_url, tr=app.tr))
        return
    found = await app.service.store.find_open(message.chat.id, thread_of(message))
    rules = None
    if found.ok:
        rules = found.lobby.rules if found.lobby is not None else (
            found.table.rules if found.table is not None else None)
    where = "match" if rules else ("private" if private else "chat")
    if not rules:
        rules = (await app.service.people.chat_info(message.chat.id)).full_rules
    reply(app, message, render.render_game_rules(locale, rules, where=where,
                                                 rules_url=app.rules_url, tr=app.tr))


async def cmd_settings(message: Message, app: App, locale: str) -> None:
    """/settings in a group, by an admin: the menu of the chat's settings."""
    info = await app.service.people.chat_info(message.chat.id)
    reply(app, message, render.render_settings(locale, info.full_rules, tr=app.tr),
          reply_markup=settings_keyboard(locale, info, tr=app.tr))


async def cmd_only_admins(message: Message, app: App, locale: str) -> None:
    """/settings or /lang in a group by someone who is not its admin."""
    reply(app, message, app.tr.t(locale, "err-only-admin"))


async def on_only_admins(query: CallbackQuery, app: App, locale: str) -> None:
    """A settings or group language button pressed by someone who is not the group's admin
    (a settings button in a private chat too: a group's settings live in the group)."""
    await alert(query, app.tr.plain(locale, "err-only-admin"))


async def _show_menu(query: CallbackQuery, app: App, locale: str, *, menu: bool) -> None:
    chat_id = query_chat(query)
    info = await app.service.people.chat_info(chat_id)
    app.edit(
        chat_id, query.message.message_id,
        render.render_settings(locale, info.full_rules, tr=app.tr),
        reply_markup=settings_keyboard(locale, info, tr=app.tr) if menu else None)


async def on_settings_done(query: CallbackQuery, app: App, locale: str) -> None:
    await query.answer()
    await _show_menu(query, app, locale, menu=False)


async def on_settings_menu(query: CallbackQuery, app: App, locale: str) -> None:
    await query.answer()
    await _show_menu(query, app, locale, menu=True)


async def on_setting_open(query: CallbackQuery, callback_data: SettingsCb, app: App,
                          locale: str) -> None:
    """A setting of the menu: show its choices."""
    chat_id = query_chat(query)
    info = await app.service.people.chat_info(chat_id)
    try:
        spec = setting(callback_data.key)
    except KeyError:
        spec = None
    if spec is None or not spec.offered(info.full_rules):  # another game's, or forged
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    await query.answer()
    app.edit(
        chat_id, query.message.message_id,
        render.render_settings(locale, info.full_rules, choosing=app.tr.plain(locale, spec.label),
                               tr=app.tr),
        reply_markup=settings_choices_keyboard(locale, spec, spec.read(info),
                                               rules=info.full_rules, tr=app.tr))


async def on_setting_chosen(query: CallbackQuery, callback_data: SettingsCb, app: App,
                            locale: str) -> None:
    """A value of a setting: store it, confirm, and show the menu again."""
    chat_id = query_chat(query)
    info = await app.service.people.chat_info(chat_id)
    try:
        spec = setting(callback_data.key)
        patch = spec.parse(callback_data.value, info.full_rules)
    except (KeyError, ValueError):  # forged, or a setting of the chat's previous game
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    res = await app.service.people.update_chat(
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


async def cmd_lang(message: Message, app: App, locale: str) -> None:
    """/lang: the languages, for the group's (by its admin) or for the user's own (in
    private)."""
    reply(app, message, app.tr.t(locale, "lang-choose"),
          reply_markup=lang_keyboard(locale, tr=app.tr))


async def on_chat_lang(query: CallbackQuery, callback_data: LangCb, app: App) -> None:
    """A language button in a group, by its admin: the group's language; an open lobby and a
    running match's table are shown again in it at once (issue 30 item 10)."""
    chat_id = query_chat(query)
    await app.service.people.update_chat(chat_id, language=callback_data.code)
    await _lang_changed(query, app, callback_data.code)
    await app.publisher.show_again(chat_id)


async def on_own_lang(query: CallbackQuery, callback_data: LangCb, app: App) -> None:
    """A language button in a private chat: the user's own language."""
    await app.service.people.register_user(query.from_user.id, query.from_user.first_name,
                                           language=callback_data.code)
    await _lang_changed(query, app, callback_data.code)


async def _lang_changed(query: CallbackQuery, app: App, code: str) -> None:
    await query.answer()
    if query.message:
        app.edit(query_chat(query), query.message.message_id,
                                       app.tr.t(code, "lang-changed"), reply_markup=None)


def create_router() -> Router:
    """The settings router: /rules, /lang (any chat), /settings (groups) and the buttons.
    A group's settings and language are its admins' (:data:`~handlers.admins.IS_ADMIN`, the
    last filter of each, so Telegram is asked only for an update the handler would take);
    the fallbacks after them answer everybody else."""
    router = Router(name="settings")
    router.message.register(cmd_rules, Command("rules"))
    router.message.register(cmd_settings, Command("settings"), IN_GROUPS, IS_ADMIN)
    router.message.register(cmd_lang, Command("lang"), IN_GROUPS, IS_ADMIN)
    router.message.register(cmd_only_admins, Command("settings", "lang"), IN_GROUPS)
    router.message.register(cmd_lang, Command("lang"))  # a private chat: the user's own
    for handler, data in ((on_settings_done, SettingsCb.filter(F.key == "done")),
                          (on_settings_menu, SettingsCb.filter(F.key == "menu")),
                          (on_setting_open, SettingsCb.filter(F.value == "")),
                          (on_setting_chosen, SettingsCb.filter()),
                          (on_chat_lang, LangCb.filter())):
        router.callback_query.register(handler, data, PRESSED_IN_GROUPS, IS_ADMIN)
    router.callback_query.register(on_only_admins, SettingsCb.filter())
    router.callback_query.register(on_only_admins, LangCb.filter(), PRESSED_IN_GROUPS)
    router.callback_query.register(on_own_lang, LangCb.filter())
    return router
