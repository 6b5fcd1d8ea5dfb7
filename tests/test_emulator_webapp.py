"""The test Bot API server and the Mini App (issue 21): it refuses a ``web_app`` button outside
a private chat as Telegram does (``BUTTON_TYPE_INVALID``), and mints the signed ``initData``
Telegram hands a Mini App opened by one of its users."""

from __future__ import annotations

import json
import time

import pytest
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from delivery.initdata import InitDataError, verify_init_data

pytest_plugins = ("tests.emulator.fixtures",)


@pytest.fixture
def emulator_settings() -> dict:
    return {"flood": False}


def _app_button() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text="table", web_app=WebAppInfo(url="https://kozel.example/webapp/?m=1"))]])


async def test_a_web_app_button_is_refused_in_a_group_and_taken_in_private(
        emulator, emulator_client, emulator_bot):
    await emulator_client.create_user(501, "Оля")
    group = (await emulator_client.create_chat(members=[501]))["id"]
    await emulator_client.start(501)
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await emulator_bot.send_message(group, "table", reply_markup=_app_button())
    plain = await emulator_bot.send_message(group, "table")
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await emulator_bot.edit_message_reply_markup(chat_id=group, message_id=plain.message_id,
                                                     reply_markup=_app_button())
    link = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text="table", url="https://t.me/kozel_test_bot/table?startapp=m1")]])
    await emulator_bot.send_message(group, "table", reply_markup=link)
    sent = await emulator_bot.send_message(501, "hand", reply_markup=_app_button())
    shown = await emulator_client.message(501, sent.message_id)
    assert [b.raw.get("web_app") for b in shown.flat_buttons] == [
        {"url": "https://kozel.example/webapp/?m=1"}]


async def test_it_mints_init_data_the_bot_token_verifies(emulator, emulator_client):
    await emulator_client.create_user(502, "Петя", language_code="uk")
    data = await emulator_client.webapp_init_data(502, start_param="m7")
    caller = verify_init_data(data, emulator.token)
    assert (caller.user_id, caller.match_id, caller.language_code) == (502, 7, "uk")
    assert abs(caller.auth_date - time.time()) < 5
    with pytest.raises(InitDataError, match="signature"):
        verify_init_data(data, "1:OTHER")
    old = await emulator_client.webapp_init_data(502, auth_date=time.time() - 90_000)
    with pytest.raises(InitDataError, match="expired"):
        verify_init_data(old, emulator.token)
    fields = dict(x.split("=", 1) for x in data.split("&"))
    assert json.loads(__import__("urllib.parse").parse.unquote_plus(fields["user"]))["id"] == 502
