"""The emulator's flood control: 429 "Too Many Requests: retry after N" (aiogram's
``TelegramRetryAfter``) for more than one message or edit a second in a group (a private chat:
a burst of three, then one a second), more than 20 a minute in a group, more than 30 a second
overall — on an injected clock, so no test sleeps."""

from __future__ import annotations

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

pytest_plugins = ("tests.emulator.fixtures",)

MASHA, PETYA = 21, 22


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def emulator_settings(clock):
    return {"clock": clock}


@pytest.fixture
async def group(emulator_client):
    await emulator_client.create_user(MASHA, "Маша")
    await emulator_client.create_user(PETYA, "Петя")
    await emulator_client.start(MASHA)
    return (await emulator_client.create_chat(members=[MASHA, PETYA]))["id"]


async def retry_after(call) -> int:
    with pytest.raises(TelegramRetryAfter) as err:
        await call
    assert err.value.message.endswith(f"Too Many Requests: retry after {err.value.retry_after}")
    return err.value.retry_after


async def test_one_per_second_in_a_group(emulator_bot, clock, group):
    sent = await emulator_bot.send_message(group, "1")
    assert await retry_after(emulator_bot.send_message(group, "2")) == 1
    clock.advance(0.5)
    assert await retry_after(emulator_bot.edit_message_text(
        "1'", chat_id=group, message_id=sent.message_id)) == 1  # edits count too
    clock.advance(0.5)
    assert await emulator_bot.edit_message_text("1'", chat_id=group, message_id=sent.message_id)
    assert await retry_after(emulator_bot.send_message(group, "2")) == 1
    # another chat is not affected
    assert await emulator_bot.send_message(MASHA, "hand")
    clock.advance(1.0)
    assert await emulator_bot.send_message(group, "2")


async def test_a_private_chat_takes_a_burst_then_one_a_second(emulator_bot, emulator_client,
                                                              clock, group):
    sent = await emulator_bot.send_message(MASHA, "1")
    assert await emulator_bot.edit_message_text("1'", chat_id=MASHA, message_id=sent.message_id)
    assert await emulator_bot.send_message(MASHA, "2")
    assert await retry_after(emulator_bot.send_message(MASHA, "3")) == 1
    clock.advance(0.5)
    assert await retry_after(emulator_bot.send_message(MASHA, "3")) == 1
    clock.advance(0.5)
    assert await emulator_bot.send_message(MASHA, "3")  # one token back after a second
    assert await retry_after(emulator_bot.send_message(MASHA, "4")) == 1
    clock.advance(10.0)  # an idle chat's bucket fills up to the burst, not beyond
    for i in range(3):
        assert await emulator_bot.send_message(MASHA, f"burst {i}")
    assert await retry_after(emulator_bot.send_message(MASHA, "too many")) == 1
    await emulator_client.configure(flood={"private_burst": 1})
    clock.advance(1.0)
    assert await emulator_bot.send_message(MASHA, "one")
    assert await retry_after(emulator_bot.send_message(MASHA, "two")) == 1


async def test_twenty_a_minute_in_a_group(emulator_bot, emulator_client, clock, group):
    first = await emulator_bot.send_message(group, "0")
    keyboard = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text="x", callback_data="x")]])
    for i in range(1, 20):  # 20 in all, one a second, half of them edits
        clock.advance(1.0)
        if i % 2:
            await emulator_bot.edit_message_text(str(i), chat_id=group,
                                                 message_id=first.message_id)
        else:
            await emulator_bot.send_message(group, str(i), reply_markup=keyboard)
    clock.advance(1.0)  # t = 20 s; the first of the 20 leaves the window at t = 60 s
    assert await retry_after(emulator_bot.send_message(group, "21")) == 40
    clock.advance(39.5)
    assert await retry_after(emulator_bot.edit_message_reply_markup(
        chat_id=group, message_id=first.message_id, reply_markup=keyboard)) == 1
    clock.advance(0.5)
    assert await emulator_bot.send_message(group, "21")
    assert await retry_after(emulator_bot.send_message(group, "22")) == 1
    calls = await emulator_client.calls(chat_id=group)
    refused = [c for c in calls if c["error_code"] == 429]
    assert [c["parameters"] for c in refused] == [
        {"retry_after": 40}, {"retry_after": 1}, {"retry_after": 1}]
    assert [c["t"] for c in refused] == [1020.0, 1059.5, 1060.0]


async def test_failures_deletes_and_answers_do_not_count(emulator_bot, emulator_client, clock,
                                                         group):
    with pytest.raises(TelegramBadRequest):
        await emulator_bot.send_message(group, "<b>", parse_mode="HTML")
    sent = await emulator_bot.send_message(group, "ok")
    with pytest.raises(TelegramBadRequest, match="not modified"):
        await emulator_bot.edit_message_text("ok", chat_id=group, message_id=sent.message_id)
    assert await emulator_bot.delete_message(group, sent.message_id)
    clock.advance(1.0)
    keyboard = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text="x", callback_data="x")]])
    table = await emulator_bot.send_message(group, "table", reply_markup=keyboard)
    press = await emulator_client.press(PETYA, group, table.message_id, text="x")
    assert await emulator_bot.answer_callback_query(press["query_id"])
    assert await emulator_bot.send_chat_action(group, "typing")


async def test_global_limit(emulator_bot, emulator_client, clock):
    await emulator_client.configure(flood={"global_per_second": 3})
    for uid in range(31, 35):
        await emulator_client.create_user(uid, f"u{uid}")
        await emulator_client.start(uid)
    for uid in range(31, 34):
        await emulator_bot.send_message(uid, "hi")
    assert await retry_after(emulator_bot.send_message(34, "hi")) == 1
    clock.advance(1.0)
    assert await emulator_bot.send_message(34, "hi")


async def test_limits_configurable_and_switchable(emulator_bot, emulator_client, clock, group):
    await emulator_client.configure(flood={"group_per_minute": 2, "chat_interval": 0.25})
    await emulator_bot.send_message(group, "1")
    clock.advance(0.25)
    await emulator_bot.send_message(group, "2")
    clock.advance(0.25)
    assert await retry_after(emulator_bot.send_message(group, "3")) == 60
    assert (await emulator_client.set_flood_control(False))["flood"]["enabled"] is False
    for i in range(50):
        await emulator_bot.send_message(group, f"fast {i}")
    await emulator_client.set_flood_control(True)
    assert await retry_after(emulator_bot.send_message(group, "slow")) >= 1
