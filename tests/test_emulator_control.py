"""The emulator's control API: people writing and pressing, groups migrating, the bot removed
or blocked, reading chats and logs, waiting — and an aiogram Dispatcher polling the emulator."""

from __future__ import annotations

import asyncio
import sys

import pytest
from aiogram import Dispatcher, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    CallbackQuery,
    ChatMemberUpdated,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from tests.emulator import EmulatorError

pytest_plugins = ("tests.emulator.fixtures",)

MASHA, PETYA, VASYA = 41, 42, 43
LOBBY_KB = InlineKeyboardMarkup(inline_keyboard=[
    [InlineKeyboardButton(text="Сесть", callback_data="v1:join:7"),
     InlineKeyboardButton(text="Выйти", callback_data="v1:leave:7")],
    [InlineKeyboardButton(text="Правила", url="https://t.me/kozel_test_bot?start=rules")],
])


@pytest.fixture
def emulator_settings():
    return {"flood": False}


@pytest.fixture
async def group(emulator_client):
    for uid, name in ((MASHA, "Маша"), (PETYA, "Петя"), (VASYA, "Вася")):
        await emulator_client.create_user(uid, name, language_code="uk" if uid == VASYA else "ru")
    return (await emulator_client.create_chat(title="Двор", members=[MASHA, PETYA]))["id"]


async def drain(bot) -> list:
    """Every pending update, confirmed."""
    updates = await bot.get_updates()
    if updates:
        await bot.get_updates(offset=updates[-1].update_id + 1)
    return updates


async def test_dispatcher_receives_a_command_and_a_callback_query(emulator_bot, emulator_client,
                                                                  group):
    router = Router()
    seen: list[tuple] = []

    @router.message(Command("newgame"))
    async def newgame(message: Message, command: CommandObject) -> None:
        seen.append(("command", message.chat.id, message.from_user.id, command.args))
        await message.reply("<b>Лобби</b>", parse_mode="HTML", reply_markup=LOBBY_KB)

    @router.callback_query(F.data.startswith("v1:join:"))
    async def join(query: CallbackQuery) -> None:
        seen.append(("callback", query.from_user.id, query.message.message_id, query.data))
        await query.answer("Вы за столом")
        await query.message.edit_text("<b>Лобби</b>: Петя", parse_mode="HTML")

    dp = Dispatcher()
    dp.include_router(router)
    polling = asyncio.create_task(dp.start_polling(
        emulator_bot, polling_timeout=1, handle_signals=False, close_bot_session=False,
        allowed_updates=dp.resolve_used_update_types()))
    try:
        said = await emulator_client.send(MASHA, "/newgame@kozel_test_bot 101", chat_id=group)
        lobby = await emulator_client.wait_message(group, lambda m: m.from_bot and m.buttons)
        assert lobby.reply_to == said["message_id"] and lobby.text == "Лобби"
        press = await emulator_client.press(PETYA, group, lobby.message_id, text="Сесть")
        answer = await emulator_client.wait_answer(press["query_id"])
        assert answer["text"] == "Вы за столом" and not answer["show_alert"]
        await emulator_client.wait_chat(
            group, lambda ms: any(m.text == "Лобби: Петя" and not m.buttons for m in ms))
        await emulator_client.wait_idle(quiet=0.05)
    finally:
        await dp.stop_polling()
        await polling
    assert seen == [("command", group, MASHA, "101"),
                    ("callback", PETYA, lobby.message_id, "v1:join:7")]
    assert (await emulator_client.state())["allowed_updates"] == ["callback_query", "message"]
    # the log tells what each action cost, on the emulator's clock
    events = await emulator_client.events()
    assert [e["kind"] for e in events] == ["message", "callback_query"]
    assert all(e["delivered_t"] >= e["t"] for e in events)
    calls = await emulator_client.calls()
    assert [c["method"] for c in calls] == [
        "getMe", "sendMessage", "answerCallbackQuery", "editMessageText"]
    assert all(c["ok"] and c["t_end"] >= c["t"] for c in calls)
    after_press = [c for c in calls if c["t"] >= events[1]["t"]]
    assert len(after_press) == 2
    assert (await emulator_client.calls(method="editmessagetext"))[0]["params"]["text"] == \
        "<b>Лобби</b>: Петя"


async def test_privacy_mode(emulator_bot, emulator_client, group):
    plain = await emulator_client.send(MASHA, "кто играет?", chat_id=group)
    assert plain["update_id"] is None
    for_other = await emulator_client.send(MASHA, "/start@other_bot", chat_id=group)
    assert for_other["update_id"] is None
    command = await emulator_client.send(MASHA, "/join", chat_id=group)
    assert command["update_id"] is not None
    sent = await emulator_bot.send_message(group, "стол")
    reply = await emulator_client.send(PETYA, "я тоже", chat_id=group, reply_to=sent.message_id)
    assert reply["update_id"] is not None
    await emulator_client.configure(privacy_mode=False)
    assert (await emulator_client.send(MASHA, "привет", chat_id=group))["update_id"] is not None
    assert [u.message.text for u in await drain(emulator_bot)] == ["/join", "я тоже", "привет"]
    # every message is in the chat, delivered or not
    texts = [m.text for m in await emulator_client.messages(group)]
    assert texts == ["кто играет?", "/start@other_bot", "/join", "стол", "я тоже", "привет"]


async def test_private_chat_and_start_links(emulator_bot, emulator_client, group):
    assert (await emulator_client.user(PETYA))["started"] is False
    got = await emulator_client.follow_link(PETYA, "https://t.me/kozel_test_bot?start=j7")
    assert got["chat_id"] == PETYA
    assert (await emulator_client.user(PETYA))["started"] is True
    update = (await drain(emulator_bot))[0]
    assert update.message.text == "/start j7" and update.message.chat.type == "private"
    assert update.message.from_user.language_code == "ru"
    with pytest.raises(EmulatorError) as err:
        await emulator_client.follow_link(PETYA, "https://t.me/other_bot?start=x")
    assert err.value.status == 400
    router = Router()
    payloads = []

    @router.message(CommandStart(deep_link=True))
    async def start(message: Message, command: CommandObject) -> None:
        payloads.append(command.args)

    dp = Dispatcher()
    dp.include_router(router)
    await dp.feed_update(emulator_bot, update)
    assert payloads == ["j7"]


async def test_pressing_buttons(emulator_bot, emulator_client, group):
    lobby = await emulator_bot.send_message(group, "Лобби", reply_markup=LOBBY_KB)
    mid = lobby.message_id
    by_text = await emulator_client.press(MASHA, group, mid, text="Выйти")
    by_index = await emulator_client.press(MASHA, group, mid, index=0)
    by_cell = await emulator_client.press(PETYA, group, mid, index=(0, 1))
    forged = await emulator_client.press(PETYA, group, mid, data="v1:move:6-6:99")
    assert [p["data"] for p in (by_text, by_index, by_cell, forged)] == [
        "v1:leave:7", "v1:join:7", "v1:leave:7", "v1:move:6-6:99"]
    url = await emulator_client.press(MASHA, group, mid, text="Правила")
    assert url["url"] == "https://t.me/kozel_test_bot?start=rules" and url["query_id"] is None
    queries = [u.callback_query for u in await drain(emulator_bot)]
    assert [q.data for q in queries] == ["v1:leave:7", "v1:join:7", "v1:leave:7",
                                         "v1:move:6-6:99"]
    assert [q.from_user.id for q in queries] == [MASHA, MASHA, PETYA, PETYA]
    assert queries[0].message.message_id == mid and queries[0].message.text == "Лобби"
    assert queries[0].chat_instance == queries[3].chat_instance
    info = await emulator_client.query(forged["query_id"])
    assert (info["user_id"], info["data"], info["answer"]) == (PETYA, "v1:move:6-6:99", None)

    async def refused(status: int, **kwargs) -> None:
        with pytest.raises(EmulatorError) as err:
            await emulator_client.press(**kwargs)
        assert err.value.status == status, err.value

    await refused(409, user_id=VASYA, chat_id=group, message_id=mid, index=0)  # not a member
    await refused(409, user_id=MASHA, chat_id=group, message_id=mid, text="Нет такой")
    await refused(409, user_id=MASHA, chat_id=group, message_id=mid, index=7)
    await refused(400, user_id=MASHA, chat_id=group, message_id=mid, data="x" * 65)
    await refused(404, user_id=MASHA, chat_id=group, message_id=999, index=0)
    plain = await emulator_bot.send_message(group, "без кнопок")
    await refused(409, user_id=MASHA, chat_id=group, message_id=plain.message_id, index=0)
    await emulator_bot.delete_message(group, mid)
    await refused(404, user_id=MASHA, chat_id=group, message_id=mid, index=0)
    await emulator_client.start(MASHA)
    dm = await emulator_bot.send_message(MASHA, "рука", reply_markup=LOBBY_KB)
    await refused(409, user_id=PETYA, chat_id=MASHA, message_id=dm.message_id, index=0)
    assert (await emulator_client.press(MASHA, MASHA, dm.message_id, index=0))["query_id"]


async def test_migration_to_supergroup(emulator_bot, emulator_client, group):
    await emulator_bot.send_message(group, "стол")
    new_id = await emulator_client.migrate(group, user_id=PETYA)
    assert new_id == int(f"-100{abs(group):010d}")
    updates = await drain(emulator_bot)
    old_msg, new_msg = updates[0].message, updates[1].message
    assert (old_msg.chat.id, old_msg.migrate_to_chat_id) == (group, new_id)
    assert (new_msg.chat.id, new_msg.chat.type, new_msg.migrate_from_chat_id) == (
        new_id, "supergroup", group)
    assert old_msg.from_user.id == PETYA
    info = await emulator_client.chat(new_id)
    assert info["members"] == {str(MASHA): "creator", str(PETYA): "member"}
    assert (await emulator_client.chat(group))["migrated_to"] == new_id
    with pytest.raises(EmulatorError):
        await emulator_client.send(MASHA, "/join", chat_id=group)
    said = await emulator_client.send(MASHA, "/join", chat_id=new_id)
    assert said["message_id"] == 2  # message ids start afresh after the service message
    with pytest.raises(EmulatorError):
        await emulator_client.migrate(new_id)


async def test_bot_removed_and_added(emulator_bot, emulator_client, group):
    await emulator_client.remove_bot(group, user_id=MASHA)
    update = (await drain(emulator_bot))[0]
    member: ChatMemberUpdated = update.my_chat_member
    assert member.chat.id == group and member.from_user.id == MASHA
    assert (member.old_chat_member.status, member.new_chat_member.status) == (
        "member", "kicked")
    assert member.new_chat_member.user.id == 100500
    assert (await emulator_client.send(MASHA, "/join", chat_id=group))["update_id"] is None
    await emulator_client.add_bot(group, admin=True)
    update = (await drain(emulator_bot))[0]
    assert update.my_chat_member.new_chat_member.status == "administrator"
    assert (await emulator_client.chat(group))["bot_status"] == "administrator"
    assert await emulator_bot.leave_chat(group)
    assert (await drain(emulator_bot))[0].my_chat_member.new_chat_member.status == "left"
    added = await emulator_client.create_chat(members=[PETYA], announce=True)
    update = (await drain(emulator_bot))[0].my_chat_member
    assert (update.chat.id, update.from_user.id) == (added["id"], PETYA)
    assert (update.old_chat_member.status, update.new_chat_member.status) == ("left", "member")



async def test_chat_member_updates_reach_only_a_bot_that_administers_the_group_and_asked(
        emulator_bot, emulator_client, group):
    """Telegram sends ``chat_member`` only to a bot that is an administrator of the chat, and
    only when ``allowed_updates`` names it (it is not in the default set)."""
    await emulator_client.set_member(group, VASYA, "member")  # the bot is a plain member
    assert await drain(emulator_bot) == []
    assert [e["update_id"] for e in await emulator_client.events()
            if e["kind"] == "chat_member"] == [None]
    await emulator_client.add_bot(group, admin=True)
    await drain(emulator_bot)
    await emulator_client.set_member(group, VASYA, "administrator")
    assert await emulator_bot.get_updates() == []  # the default set has no chat_member
    await emulator_client.set_member(group, VASYA, "member")
    updates = await emulator_bot.get_updates(allowed_updates=["chat_member"])
    member: ChatMemberUpdated = updates[0].chat_member
    assert (member.chat.id, member.new_chat_member.user.id) == (group, VASYA)
    assert (member.old_chat_member.status, member.new_chat_member.status) == (
        "administrator", "member")

async def test_block_and_unblock(emulator_bot, emulator_client, group):
    await emulator_client.start(MASHA)
    await emulator_client.block(MASHA)
    assert (await emulator_client.user(MASHA))["blocked"] is True
    await emulator_client.unblock(MASHA)
    await emulator_client.block(MASHA)
    await emulator_client.start(MASHA)  # "Restart" in the client unblocks and sends /start
    kinds = [(u.event_type, getattr(u.my_chat_member, "new_chat_member", None))
             for u in await drain(emulator_bot)]
    assert [k for k, _ in kinds] == ["message", "my_chat_member", "my_chat_member",
                                     "my_chat_member", "my_chat_member", "message"]
    assert [m.status for _, m in kinds if m] == ["kicked", "member", "kicked", "member"]
    assert (await emulator_client.user(MASHA))["blocked"] is False


async def test_users_chats_topics_and_members(emulator_client, group):
    chats = await emulator_client.chats()
    assert [c["id"] for c in chats] == [group]
    assert chats[0]["title"] == "Двор" and chats[0]["type"] == "group"
    forum = await emulator_client.create_chat(type="forum", title="Клуб", members=[MASHA],
                                              admins=[PETYA], username="kozel_club")
    assert forum["is_forum"] and forum["members"] == {str(MASHA): "creator",
                                                      str(PETYA): "administrator"}
    thread = await emulator_client.create_topic(forum["id"], "Стол 1", user_id=PETYA)
    assert (await emulator_client.chat(forum["id"]))["topics"] == {str(thread): "Стол 1"}
    await emulator_client.set_member(group, VASYA, "member")
    assert (await emulator_client.send(VASYA, "/join", chat_id=group))["update_id"]
    await emulator_client.set_member(group, VASYA, "kicked")
    with pytest.raises(EmulatorError) as err:
        await emulator_client.send(VASYA, "/join", chat_id=group)
    assert err.value.status == 409
    for bad in ({"type": "channel"}, {"type": "group", "is_forum": True},
                {"members": [999]}, {"id": group}):
        with pytest.raises(EmulatorError):
            await emulator_client.create_chat(**bad)
    with pytest.raises(EmulatorError) as err:
        await emulator_client.user(999)
    assert err.value.status == 404
    with pytest.raises(EmulatorError):
        await emulator_client.create_user(100500, "Бот")


async def test_waits(emulator_bot, emulator_client, group):
    with pytest.raises(TimeoutError):
        await emulator_client.wait_message(group, timeout=0.2)

    async def later() -> None:
        await asyncio.sleep(0.1)
        await emulator_bot.send_message(group, "стол")

    task = asyncio.create_task(later())
    msg = await emulator_client.wait_message(group, lambda m: m.text == "стол", timeout=3)
    await task
    assert msg.from_bot
    msgs = await emulator_client.wait_chat(group, lambda ms: len(ms) == 1)
    assert msgs[0].message_id == msg.message_id
    assert await emulator_client.wait_until(lambda: 42) == 42
    version = (await emulator_client.state())["version"]
    assert await emulator_client.wait_change(version, timeout=0.1) == version
    await emulator_client.send(MASHA, "/join", chat_id=group)
    with pytest.raises(TimeoutError):  # an update nobody fetched
        await emulator_client.wait_idle(quiet=0.01, timeout=0.2)
    await drain(emulator_bot)
    await emulator_client.wait_idle(quiet=0.01, timeout=2)


async def test_logs_config_and_reset(emulator_bot, emulator_client, group):
    await emulator_bot.send_message(group, "a")
    with pytest.raises(TelegramBadRequest):
        await emulator_bot.send_message(group, "")
    calls = await emulator_client.calls()
    assert [(c["method"], c["ok"], c["error_code"]) for c in calls] == [
        ("sendMessage", True, None), ("sendMessage", False, 400)]
    assert calls[1]["description"] == "Bad Request: message text is empty"
    assert await emulator_client.calls(since=calls[0]["seq"]) == calls[1:]
    assert await emulator_client.calls(chat_id=MASHA) == []
    await emulator_client.configure(log_polls=True)
    await emulator_bot.get_updates()
    assert (await emulator_client.calls(method="getUpdates"))[0]["ok"]
    await emulator_client.clear_logs()
    assert await emulator_client.calls() == [] and await emulator_client.events() == []
    config = await emulator_client.configure(flood={"group_per_minute": 5}, callback_ttl=3.0)
    assert config["flood"]["group_per_minute"] == 5 and config["callback_ttl"] == 3.0
    assert (await emulator_client.config())["flood"]["enabled"] is False
    with pytest.raises(EmulatorError):
        await emulator_client.configure(colour="red")
    await emulator_client.reset()
    assert await emulator_client.chats() == []
    assert (await emulator_client.state())["users"] == 0


async def test_standalone_server():
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.emulator", "--port", "0", "--no-flood",
        stdout=asyncio.subprocess.PIPE)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        url = line.split(" at ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        from tests.emulator import EmulatorClient

        async with EmulatorClient(url) as client:
            assert (await client.config())["flood"]["enabled"] is False
    finally:
        proc.terminate()
        await proc.wait()
