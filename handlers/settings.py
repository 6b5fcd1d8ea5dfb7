"""Chat settings and languages: /settings, /rules, /lang and their buttons.

Issue 4, "Settings, languages": chat admins edit the rule options of RULES.md with inline
buttons; changes apply from the next match.  /lang sets the chat's language in a group
(admins) and the user's own language in private.
"""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

import engine
from handlers.common import App, alert, is_admin
from ui import render
from ui.callbacks import LangCb, SettingsCb
from ui.keyboards import (
    lang_keyboard,
    rules_patch,
    settings_choices_keyboard,
    settings_keyboard,
    settings_label,
    settings_value,
)

router = Router(name="settings")


async def _chat_rules(app: App, chat_id: int) -> tuple[engine.Rules, str | None]:
    info = await app.service.chat_info(chat_id)
    return engine.Rules.from_json(info.rules), info.language


@router.message(Command("rules"))
async def cmd_rules(message: Message, app: App) -> None:
    """This chat's active rules (RULES.md §1 options)."""
    locale = await app.locale_for(message.chat.id, message.from_user)
    rules, _ = await _chat_rules(app, message.chat.id)
    await message.reply(app.tr.t(locale, "rules-title") + "\n"
                        + render.render_rules(locale, rules, tr=app.tr))


@router.message(Command("settings"))
async def cmd_settings(message: Message, app: App, bot: Bot) -> None:
    locale = await app.locale_for(message.chat.id, message.from_user)
    if message.chat.id > 0:
        await message.reply(app.tr.t(locale, "err-group-only"))
        return
    if not await is_admin(bot, message.chat.id, message.from_user.id):
        await message.reply(app.tr.t(locale, "err-only-admin"))
        return
    rules, chat_lang = await _chat_rules(app, message.chat.id)
    await message.reply(render.render_settings(locale, rules, tr=app.tr),
                        reply_markup=settings_keyboard(locale, rules, chat_lang, tr=app.tr))


@router.callback_query(SettingsCb.filter())
async def on_settings(query: CallbackQuery, callback_data: SettingsCb, app: App,
                      bot: Bot) -> None:
    msg = query.message
    chat_id = msg.chat.id if msg else 0
    locale = await app.locale_for(chat_id, query.from_user)
    if chat_id >= 0 or not await is_admin(bot, chat_id, query.from_user.id):
        await alert(query, app.tr.plain(locale, "err-only-admin"))
        return
    key, value = callback_data.key, callback_data.value
    rules, chat_lang = await _chat_rules(app, chat_id)
    if key == "done":
        await query.answer()
        await msg.edit_text(render.render_settings(locale, rules, tr=app.tr), reply_markup=None)
        return
    if key == "menu":
        await query.answer()
        await msg.edit_text(render.render_settings(locale, rules, tr=app.tr),
                            reply_markup=settings_keyboard(locale, rules, chat_lang, tr=app.tr))
        return
    if value == "":
        label = app.tr.plain(locale, f"settings-{key.replace('_', '-')}") \
            if key != "lang" else app.tr.plain(locale, "settings-language")
        await query.answer()
        await msg.edit_text(
            render.render_settings(locale, rules, choosing=label, tr=app.tr),
            reply_markup=settings_choices_keyboard(
                locale, key, settings_value(rules, key, chat_lang), tr=app.tr))
        return
    try:
        patch = rules_patch(key, value)
    except ValueError:
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    if key == "lang":
        await app.service.update_chat(chat_id, language=value)
        locale = value
    else:
        res = await app.service.update_chat(chat_id, rules={**rules.to_json(), **patch})
        if not res.ok:
            await alert(query, app.tr.plain(locale, "err-unexpected"))
            return
    rules, chat_lang = await _chat_rules(app, chat_id)
    await query.answer(app.tr.plain(locale, "settings-saved") + " "
                       + settings_label(locale, key, value, tr=app.tr))
    await msg.edit_text(render.render_settings(locale, rules, tr=app.tr),
                        reply_markup=settings_keyboard(locale, rules, chat_lang, tr=app.tr))


@router.message(Command("lang"))
async def cmd_lang(message: Message, app: App, bot: Bot) -> None:
    locale = await app.locale_for(message.chat.id, message.from_user)
    if message.chat.id < 0 and not await is_admin(bot, message.chat.id, message.from_user.id):
        await message.reply(app.tr.t(locale, "err-only-admin"))
        return
    await message.reply(app.tr.t(locale, "lang-choose"),
                        reply_markup=lang_keyboard(locale, tr=app.tr))


@router.callback_query(LangCb.filter())
async def on_lang(query: CallbackQuery, callback_data: LangCb, app: App, bot: Bot) -> None:
    msg = query.message
    chat_id = msg.chat.id if msg else query.from_user.id
    if chat_id < 0:
        locale = await app.locale_for(chat_id, query.from_user)
        if not await is_admin(bot, chat_id, query.from_user.id):
            await alert(query, app.tr.plain(locale, "err-only-admin"))
            return
        await app.service.update_chat(chat_id, language=callback_data.code)
    else:
        await app.service.register_user(query.from_user.id, query.from_user.first_name,
                                        language=callback_data.code)
    code = callback_data.code
    await query.answer()
    if msg:
        await msg.edit_text(app.tr.t(code, "lang-changed"), reply_markup=None)
