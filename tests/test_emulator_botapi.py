"""The emulator's Bot API through a real aiogram ``Bot``: each method the bot uses, and each rule
Telegram enforces arriving as the aiogram exception the bot will meet in production."""

from __future__ import annotations

import aiohttp
import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramUnauthorizedError,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    ReplyParameters,
)

from tests.emulator import Emulator, close_bot

pytest_plugins = ("tests.emulator.fixtures",)


@pytest.fixture
def emulator_settings():
    """Flood control has its own tests; here it would only slow the calls down."""
    return {"flood": False}

MASHA, PETYA, VASYA = 11, 12, 13


def kb(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    """An inline keyboard of callback buttons from (text, data) rows."""
    return InlineKeyboardMarkup(inline_keyboard=[
        [InlineKeyboardButton(text=t, callback_data=d) for t, d in row] for row in rows])


@pytest.fixture
async def group(emulator_client):
    """Masha (creator), Petya (admin) and Vasya in a basic group; Masha opened the DM."""
    for uid, name in ((MASHA, "Маша"), (PETYA, "Петя"), (VASYA, "Вася")):
        await emulator_client.create_user(uid, name)
    chat = await emulator_client.create_chat(members=[MASHA, PETYA, VASYA], admins=[PETYA])
    await emulator_client.start(MASHA)
    return chat["id"]


# -- the bot, updates, commands ---------------------------------------------------------------


async def test_get_me_and_tokens(emulator, emulator_bot):
    me = await emulator_bot.get_me()
    assert (me.id, me.is_bot, me.username) == (100500, True, "kozel_test_bot")
    assert me.can_read_all_group_messages is False  # privacy mode, like BotFather's default
    from aiogram import Bot
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer

    stranger = Bot("100500:wrong-token", session=AiohttpSession(
        api=TelegramAPIServer.from_base(emulator.url)))
    try:
        with pytest.raises(TelegramUnauthorizedError):
            await stranger.get_me()
    finally:
        await close_bot(stranger)


async def test_unknown_method_is_404(emulator, emulator_bot):
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{emulator.url}/bot{emulator.token}/sendHologram") as resp:
            assert resp.status == 404
            assert await resp.json() == {"ok": False, "error_code": 404,
                                         "description": "Not Found"}
    from aiogram.methods import GetMe

    class Hologram(GetMe):
        __api_method__ = "sendHologram"

    with pytest.raises(TelegramNotFound):
        await emulator_bot(Hologram())


async def test_method_names_are_case_insensitive_and_json_bodies_work(emulator):
    async with aiohttp.ClientSession() as http:
        url = f"{emulator.url}/bot{emulator.token}/GETME"
        async with http.post(url, json={}) as resp:
            assert (await resp.json())["result"]["id"] == 100500


async def test_commands_stored_per_scope_and_language(emulator_bot, emulator_client):
    group_ru = [BotCommand(command="newgame", description="Новая игра"),
                BotCommand(command="join", description="Сесть за стол")]
    private_en = [BotCommand(command="hand", description="Show my tiles")]
    assert await emulator_bot.set_my_commands(group_ru, scope=BotCommandScopeAllGroupChats(),
                                              language_code="ru")
    assert await emulator_bot.set_my_commands(private_en, scope=BotCommandScopeAllPrivateChats(),
                                              language_code="en")
    assert await emulator_bot.set_my_commands(private_en)
    got = await emulator_bot.get_my_commands(scope=BotCommandScopeAllGroupChats(),
                                             language_code="ru")
    assert [(c.command, c.description) for c in got] == [
        ("newgame", "Новая игра"), ("join", "Сесть за стол")]
    # exact (scope, language) match only, as on Telegram
    assert await emulator_bot.get_my_commands(scope=BotCommandScopeAllGroupChats()) == []
    assert await emulator_bot.get_my_commands(scope=BotCommandScopeAllGroupChats(),
                                              language_code="uk") == []
    stored = await emulator_client.commands()
    assert {(s["scope"]["type"], s["language_code"]) for s in stored} == {
        ("all_group_chats", "ru"), ("all_private_chats", "en"), ("default", "")}
    assert await emulator_bot.delete_my_commands(scope=BotCommandScopeAllPrivateChats(),
                                                 language_code="en")
    assert len(await emulator_client.commands()) == 2
    chat_scope = BotCommandScopeChat(chat_id=-5)
    assert await emulator_bot.set_my_commands(group_ru, scope=chat_scope)
    assert len(await emulator_bot.get_my_commands(scope=chat_scope)) == 2


async def test_invalid_commands_rejected(emulator_bot):
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await emulator_bot.set_my_commands([BotCommand(command="New-Game", description="x")])
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_DESCRIPTION_INVALID"):
        await emulator_bot.set_my_commands([BotCommand(command="ok", description="x" * 257)])


async def test_trivial_profile_methods(emulator_bot, group):
    assert await emulator_bot.set_my_name("Козёл", language_code="ru")
    assert (await emulator_bot.get_my_name(language_code="ru")).name == "Козёл"
    assert await emulator_bot.set_my_description("Домино", language_code="ru")
    assert (await emulator_bot.get_my_description(language_code="ru")).description == "Домино"
    assert await emulator_bot.set_my_short_description("Домино")
    assert await emulator_bot.set_chat_menu_button()
    assert await emulator_bot.send_chat_action(group, "typing")
    assert await emulator_bot.delete_webhook(drop_pending_updates=True)
    info = await emulator_bot.get_webhook_info()
    assert info.url == "" and info.pending_update_count == 0


async def test_updates_offset_limit_and_allowed_updates(emulator_bot, emulator_client, group):
    start = await emulator_bot.get_updates()  # Masha's /start from the fixture
    assert [u.message.text for u in start] == ["/start"]
    assert await emulator_bot.get_updates(offset=start[-1].update_id + 1) == []
    for i in range(3):
        await emulator_client.send(MASHA, f"/score{i}", chat_id=group)
    first = await emulator_bot.get_updates(limit=2)
    assert [u.message.text for u in first] == ["/score0", "/score1"]
    assert first[0].message.entities[0].type == "bot_command"
    # unconfirmed updates come again
    again = await emulator_bot.get_updates()
    assert [u.update_id for u in again][:2] == [u.update_id for u in first]
    rest = await emulator_bot.get_updates(offset=first[-1].update_id + 1)
    assert [u.message.text for u in rest] == ["/score2"]
    assert await emulator_bot.get_updates(offset=rest[-1].update_id + 1) == []
    # allowed_updates filters out (and drops) other types
    await emulator_client.send(MASHA, "/stats", chat_id=group)
    assert await emulator_bot.get_updates(allowed_updates=["callback_query"]) == []
    await emulator_client.send(MASHA, "/top", chat_id=group)
    assert await emulator_bot.get_updates() == []  # the choice sticks, as on Telegram
    got = await emulator_bot.get_updates(allowed_updates=[])  # empty list: the default set
    assert got == []
    await emulator_client.send(MASHA, "/help", chat_id=group)
    assert [u.message.text for u in await emulator_bot.get_updates()] == ["/help"]


async def test_long_poll_returns_when_an_update_arrives(emulator_bot, emulator_client, group):
    import asyncio
    import time

    start = await emulator_bot.get_updates()
    await emulator_bot.get_updates(offset=start[-1].update_id + 1)
    poll = asyncio.create_task(emulator_bot.get_updates(timeout=5))
    await asyncio.sleep(0.1)
    assert not poll.done()
    t0 = time.monotonic()
    await emulator_client.send(MASHA, "/newgame", chat_id=group)
    updates = await asyncio.wait_for(poll, 2)
    assert time.monotonic() - t0 < 1.0
    assert updates[0].message.text == "/newgame"


async def test_a_newer_poll_ends_the_older_with_409(emulator_bot):
    import asyncio

    from aiogram.exceptions import TelegramConflictError

    old = asyncio.create_task(emulator_bot.get_updates(timeout=5))
    await asyncio.sleep(0.1)
    new = asyncio.create_task(emulator_bot.get_updates(timeout=0))
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates request"):
        await asyncio.wait_for(old, 3)
    assert await new == []


# -- sending ----------------------------------------------------------------------------------


async def test_send_message_returns_what_aiogram_expects(emulator_bot, emulator_client, group):
    sent = await emulator_bot.send_message(
        group, "<b>Стол</b> открыт &amp; ждёт", parse_mode="HTML",
        reply_markup=kb([("Сесть", "v1:j:1"), ("Выйти", "v1:l:1")]))
    assert sent.chat.id == group and sent.chat.type == "group"
    assert sent.from_user.id == 100500 and sent.from_user.is_bot
    assert sent.text == "Стол открыт & ждёт"
    assert sent.entities[0].type == "bold" and sent.entities[0].length == 4
    assert [b.callback_data for b in sent.reply_markup.inline_keyboard[0]] == [
        "v1:j:1", "v1:l:1"]
    shown = await emulator_client.message(group, sent.message_id)
    assert shown.from_bot and shown.text == sent.text
    assert shown.source == "<b>Стол</b> открыт &amp; ждёт"
    assert shown.button_texts == ["Сесть", "Выйти"]
    assert shown.button("Выйти").callback_data == "v1:l:1"


async def test_reply_and_private_chat(emulator_bot, emulator_client, group):
    said = await emulator_client.send(MASHA, "/join", chat_id=group)
    reply = await emulator_bot.send_message(
        group, "ok", reply_parameters=ReplyParameters(message_id=said["message_id"]))
    assert reply.reply_to_message.message_id == said["message_id"]
    assert reply.reply_to_message.from_user.id == MASHA
    with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
        await emulator_bot.send_message(group, "ok", reply_parameters=ReplyParameters(
            message_id=999))
    loose = await emulator_bot.send_message(group, "ok", reply_parameters=ReplyParameters(
        message_id=999, allow_sending_without_reply=True))
    assert loose.reply_to_message is None
    dm = await emulator_bot.send_message(MASHA, "Ваши камни")
    assert dm.chat.type == "private" and dm.chat.first_name == "Маша"


async def test_text_limits(emulator_bot, group):
    ok = await emulator_bot.send_message(group, "<b>" + "к" * 4096 + "</b>", parse_mode="HTML")
    assert len(ok.text) == 4096  # the tags do not count
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await emulator_bot.send_message(group, "к" * 4097)
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await emulator_bot.send_message(group, "   \n ")
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await emulator_bot.send_message(group, "<b> </b>", parse_mode="HTML")
    trimmed = await emulator_bot.send_message(group, "\n  стол  \n")
    assert trimmed.text == "стол"


async def test_html_errors_are_cant_parse_entities(emulator_bot, emulator_client, group):
    with pytest.raises(TelegramBadRequest) as err:
        await emulator_bot.send_message(group, "<b>Ход <i>Маши</b>", parse_mode="HTML")
    assert err.value.message.startswith("Bad Request: can't parse entities: Unmatched end tag")
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Unsupported start tag"):
        await emulator_bot.send_message(group, "счёт 3 <5 очков", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="unsupported parse_mode"):
        await emulator_bot.send_message(group, "x", parse_mode="BBCode")
    # the same text without parse mode is fine, and nothing was stored for the failures
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Unclosed start tag"):
        await emulator_bot.send_message(group, "счёт 3 <5", parse_mode="HTML")
    plain = await emulator_bot.send_message(group, "счёт 3 <5")
    assert plain.text == "счёт 3 <5"
    assert [m.text for m in await emulator_client.bot_messages(group)] == ["счёт 3 <5"]


async def test_callback_data_limit_in_bytes(emulator_bot, group):
    ok = await emulator_bot.send_message(group, "x", reply_markup=kb([("a", "d" * 64)]))
    assert ok.reply_markup.inline_keyboard[0][0].callback_data == "d" * 64
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await emulator_bot.send_message(group, "x", reply_markup=kb([("a", "d" * 65)]))
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await emulator_bot.send_message(group, "x", reply_markup=kb([("a", "ж" * 33)]))  # 66 B
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await emulator_bot.edit_message_reply_markup(
            chat_id=group, message_id=ok.message_id, reply_markup=kb([("a", "d" * 65)]))


async def test_keyboard_rules(emulator_bot, group):
    url_kb = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text="Открыть", url="https://t.me/kozel_test_bot?start=j1")]])
    sent = await emulator_bot.send_message(group, "x", reply_markup=url_kb)
    assert sent.reply_markup.inline_keyboard[0][0].url.endswith("start=j1")
    bad_url = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text="x", url="not a url")]])
    with pytest.raises(TelegramBadRequest, match="BUTTON_URL_INVALID"):
        await emulator_bot.send_message(group, "x", reply_markup=bad_url)
    bare = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="x")]])
    with pytest.raises(TelegramBadRequest, match="Text buttons are unallowed"):
        await emulator_bot.send_message(group, "x", reply_markup=bare)
    huge = kb(*[[(str(i), str(i))] for i in range(101)])
    with pytest.raises(TelegramBadRequest, match="reply markup is too long"):
        await emulator_bot.send_message(group, "x", reply_markup=huge)


async def test_dm_needs_start_and_respects_blocking(emulator_bot, emulator_client, group):
    with pytest.raises(TelegramForbiddenError,
                       match="Forbidden: bot can't initiate conversation with a user"):
        await emulator_bot.send_message(PETYA, "hi")
    await emulator_client.start(PETYA)
    assert (await emulator_bot.send_message(PETYA, "hi")).chat.id == PETYA
    await emulator_client.block(PETYA)
    with pytest.raises(TelegramForbiddenError, match="Forbidden: bot was blocked by the user"):
        await emulator_bot.send_message(PETYA, "hi")
    await emulator_client.unblock(PETYA)
    assert await emulator_bot.send_message(PETYA, "hi again")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await emulator_bot.send_message(999, "hi")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await emulator_bot.send_message(-999, "hi")


async def test_migrated_group_answers_migrate_to_chat(emulator_bot, emulator_client, group):
    old = await emulator_bot.send_message(group, "стол")
    new_id = await emulator_client.migrate(group)
    for call in (emulator_bot.send_message(group, "x"),
                 emulator_bot.edit_message_text("y", chat_id=group, message_id=old.message_id),
                 emulator_bot.delete_message(group, old.message_id)):
        with pytest.raises(TelegramMigrateToChat) as err:
            await call
        assert err.value.migrate_to_chat_id == new_id
        assert "group chat was upgraded to a supergroup chat" in err.value.message
    moved = await emulator_bot.send_message(new_id, "стол")
    assert moved.chat.type == "supergroup"


async def test_removed_bot_is_forbidden(emulator_bot, emulator_client, group):
    await emulator_client.remove_bot(group)
    with pytest.raises(TelegramForbiddenError, match="bot was kicked from the group chat"):
        await emulator_bot.send_message(group, "x")
    await emulator_client.add_bot(group)
    assert await emulator_bot.send_message(group, "back")
    await emulator_client.remove_bot(group, kicked=False)
    with pytest.raises(TelegramForbiddenError, match="bot is not a member of the group chat"):
        await emulator_bot.send_message(group, "x")


# -- editing and deleting -----------------------------------------------------------------


async def test_edit_text_and_markup(emulator_bot, emulator_client, group):
    sent = await emulator_bot.send_message(group, "Ход 1", reply_markup=kb([("a", "1")]))
    edited = await emulator_bot.edit_message_text(
        "<b>Ход 2</b>", chat_id=group, message_id=sent.message_id, parse_mode="HTML",
        reply_markup=kb([("b", "2")]))
    assert edited.text == "Ход 2" and edited.edit_date is not None
    assert edited.reply_markup.inline_keyboard[0][0].callback_data == "2"
    # omitting reply_markup in editMessageText removes the keyboard
    bare = await emulator_bot.edit_message_text("Ход 3", chat_id=group,
                                                message_id=sent.message_id)
    assert bare.reply_markup is None
    with_kb = await emulator_bot.edit_message_reply_markup(
        chat_id=group, message_id=sent.message_id, reply_markup=kb([("c", "3")]))
    assert with_kb.text == "Ход 3" and with_kb.reply_markup.inline_keyboard[0][0].text == "c"
    removed = await emulator_bot.edit_message_reply_markup(chat_id=group,
                                                           message_id=sent.message_id)
    assert removed.reply_markup is None
    shown = await emulator_client.message(group, sent.message_id)
    assert shown.edits == 4 and shown.buttons == []
    assert [h["text"] for h in shown.history] == ["Ход 1", "Ход 2", "Ход 3", "Ход 3", "Ход 3"]


async def test_identical_edits_are_not_modified(emulator_bot, group):
    sent = await emulator_bot.send_message(group, "<b>x</b>", parse_mode="HTML",
                                           reply_markup=kb([("a", "1")]))
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await emulator_bot.edit_message_text("<b>x</b>", chat_id=group,
                                             message_id=sent.message_id, parse_mode="HTML",
                                             reply_markup=kb([("a", "1")]))
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await emulator_bot.edit_message_reply_markup(chat_id=group, message_id=sent.message_id,
                                                     reply_markup=kb([("a", "1")]))
    # same text, different formatting or keyboard: a real change
    assert await emulator_bot.edit_message_text("x", chat_id=group, message_id=sent.message_id,
                                                reply_markup=kb([("a", "1")]))
    assert await emulator_bot.edit_message_text("x", chat_id=group, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await emulator_bot.edit_message_reply_markup(chat_id=group, message_id=sent.message_id)


async def test_edit_errors(emulator_bot, emulator_client, group):
    said = await emulator_client.send(MASHA, "/join", chat_id=group)
    with pytest.raises(TelegramBadRequest, match="message can't be edited"):
        await emulator_bot.edit_message_text("x", chat_id=group, message_id=said["message_id"])
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await emulator_bot.edit_message_text("x", chat_id=group, message_id=777)


async def test_delete(emulator_bot, emulator_client, group):
    sent = await emulator_bot.send_message(group, "x")
    assert await emulator_bot.delete_message(group, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await emulator_bot.delete_message(group, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await emulator_bot.edit_message_text("y", chat_id=group, message_id=sent.message_id)
    said = await emulator_client.send(MASHA, "/join", chat_id=group)
    with pytest.raises(TelegramBadRequest, match="message can't be deleted"):
        await emulator_bot.delete_message(group, said["message_id"])
    assert await emulator_client.messages(group) != []
    gone = await emulator_client.messages(group, include_deleted=True)
    assert [m.deleted for m in gone] == [True, False]
    # in private chats the bot may delete the user's messages too
    dm = await emulator_client.send(MASHA, "/hand")
    assert await emulator_bot.delete_message(MASHA, dm["message_id"])


# -- callback queries, members, chats -----------------------------------------------------


async def test_answer_callback_query(emulator, emulator_bot, emulator_client, group):
    sent = await emulator_bot.send_message(group, "x", reply_markup=kb([("a", "1")]))
    press = await emulator_client.press(VASYA, group, sent.message_id, text="a")
    assert await emulator_bot.answer_callback_query(press["query_id"], text="Не ваш ход",
                                                    show_alert=True)
    answer = (await emulator_client.query(press["query_id"]))["answer"]
    assert answer["text"] == "Не ваш ход" and answer["show_alert"] is True
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await emulator_bot.answer_callback_query(press["query_id"])  # only once
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await emulator_bot.answer_callback_query("12345")
    second = await emulator_client.press(VASYA, group, sent.message_id, index=0)
    with pytest.raises(TelegramBadRequest, match="MESSAGE_TOO_LONG"):
        await emulator_bot.answer_callback_query(second["query_id"], text="x" * 201)
    with pytest.raises(TelegramBadRequest, match="URL_INVALID"):
        await emulator_bot.answer_callback_query(second["query_id"], url="https://example.org")
    assert await emulator_bot.answer_callback_query(
        second["query_id"], url="https://t.me/kozel_test_bot?start=j7")
    assert (await emulator_client.wait_answer(second["query_id"]))["url"].endswith("start=j7")
    await emulator_client.configure(callback_ttl=0.0)
    late = await emulator_client.press(VASYA, group, sent.message_id, index=0)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await emulator_bot.answer_callback_query(late["query_id"])


async def test_get_chat_member_statuses(emulator_bot, emulator_client, group):
    owner = await emulator_bot.get_chat_member(group, MASHA)
    admin = await emulator_bot.get_chat_member(group, PETYA)
    member = await emulator_bot.get_chat_member(group, VASYA)
    assert isinstance(owner, ChatMemberOwner) and owner.user.first_name == "Маша"
    assert isinstance(admin, ChatMemberAdministrator) and admin.can_delete_messages
    assert isinstance(member, ChatMemberMember)
    await emulator_client.create_user(14, "Гость")
    assert isinstance(await emulator_bot.get_chat_member(group, 14), ChatMemberLeft)
    await emulator_client.set_member(group, VASYA, "left")
    assert isinstance(await emulator_bot.get_chat_member(group, VASYA), ChatMemberLeft)
    me = await emulator_bot.get_chat_member(group, 100500)
    assert me.status == "member"
    with pytest.raises(TelegramBadRequest, match="user not found"):
        await emulator_bot.get_chat_member(group, 4242)
    admins = await emulator_bot.get_chat_administrators(group)
    assert {a.user.id for a in admins} == {MASHA, PETYA}
    assert await emulator_bot.get_chat_member_count(group) == 3  # Masha, Petya and the bot


async def test_get_chat(emulator_bot, emulator_client, group):
    chat = await emulator_bot.get_chat(group)
    assert (chat.id, chat.type, chat.title) == (group, "group", "Kozel club")
    private = await emulator_bot.get_chat(MASHA)
    assert private.type == "private" and private.first_name == "Маша"
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await emulator_bot.get_chat(PETYA)  # never wrote to the bot


async def test_forum_topics(emulator_bot, emulator_client):
    await emulator_client.create_user(MASHA, "Маша")
    forum = (await emulator_client.create_chat(type="forum", members=[MASHA]))["id"]
    assert forum < -1_000_000_000_000
    thread = await emulator_client.create_topic(forum, "Домино")
    said = await emulator_client.send(MASHA, "/newgame", chat_id=forum, thread_id=thread)
    updates = await emulator_bot.get_updates()
    created, command = updates[0].message, updates[1].message
    assert created.forum_topic_created.name == "Домино"
    assert command.is_topic_message and command.message_thread_id == thread
    assert command.chat.is_forum
    reply = await command.reply("стол")  # aiogram passes the thread on by itself
    assert reply.message_thread_id == thread and reply.is_topic_message
    assert reply.reply_to_message.message_id == said["message_id"]
    general = await emulator_bot.send_message(forum, "общий")
    assert general.message_thread_id is None
    with pytest.raises(TelegramBadRequest, match="message thread not found"):
        await emulator_bot.send_message(forum, "x", message_thread_id=999)
    in_topic = await emulator_client.messages(forum, thread_id=thread)
    assert [m.text for m in in_topic] == [None, "/newgame", "стол"]


async def test_emulator_listens_on_loopback_only():
    with pytest.raises(ValueError, match="loopback"):
        Emulator(host="0.0.0.0")
    async with Emulator(host="::1") as emu:
        assert emu.url.startswith("http://[::1]:")
