"""End to end: who administers a group, through the real bot process and the emulator
(``handlers/admins.py``).

The bot asks Telegram for ``chat_member`` updates (its ``allowed_updates``), which Telegram
sends only where the bot is an administrator; a member promoted or demoted there has the
rights of the news at their next command, without a ``getChatMember`` call, while the answer
Telegram gave before would still be trusted for a minute.  Where the bot is a plain member no
such update comes: the remembered answer stands.
"""

from __future__ import annotations

import itertools

import pytest

pytest_plugins = ("tests.e2e.fixtures",)
pytestmark = pytest.mark.asyncio(loop_scope="module")

_ids = itertools.count(8000, 100)
ONLY_ADMINS = "Это могут делать только админы чата."


async def _settings(client, user: int, chat_id: int):
    """``user`` writes /settings in the group; the bot's reply to it."""
    sent = await client.send(user, "/settings", chat_id=chat_id)
    return await client.wait_message(
        chat_id, lambda m: m.from_bot and m.reply_to == sent["message_id"], timeout=10)


async def _asked(client, since: int, user: int) -> int:
    """How many ``getChatMember`` calls about ``user`` the bot made after call ``since``."""
    return sum(1 for c in await client.calls(since=since, method="getChatMember")
               if c["params"].get("user_id") == user)


async def _delivered(client, kind: str, user: int) -> None:
    """Wait until the bot fetched the last ``kind`` update about ``user`` and is quiet (its
    handler has run)."""
    async def done() -> bool:
        events = [e for e in await client.events() if e["kind"] == kind
                  and e.get("user_id") == user]
        return bool(events) and events[-1].get("delivered_t") is not None
    await client.wait_until(done, timeout=10, what=f"{kind} delivered")
    # no observable change: the handler only notes the status, with no Bot API call, so a
    # quiet spell after the delivery is all there is to wait for
    await client.wait_idle(quiet=0.3)


async def test_a_promotion_where_the_bot_is_an_admin_counts_at_once(shared_bot):
    client = shared_bot.client
    olya, petya = next(_ids), next(_ids)
    await client.create_user(olya, "Оля")
    await client.create_user(petya, "Петя")
    chat_id = (await client.create_chat(title="Двор", members=[olya, petya],
                                        bot_status="administrator"))["id"]
    assert "chat_member" in (await client.state())["allowed_updates"]
    since = (await client.state())["last_call_seq"]
    assert (await _settings(client, petya, chat_id)).text == ONLY_ADMINS
    assert await _asked(client, since, petya) == 1
    await client.set_member(chat_id, petya, "administrator")
    await _delivered(client, "chat_member", petya)
    menu = await _settings(client, petya, chat_id)
    assert menu.text != ONLY_ADMINS and menu.buttons
    await client.set_member(chat_id, petya, "member")
    await _delivered(client, "chat_member", petya)
    assert (await _settings(client, petya, chat_id)).text == ONLY_ADMINS
    assert await _asked(client, since, petya) == 1


async def test_where_the_bot_is_a_member_the_remembered_answer_stands(shared_bot):
    client = shared_bot.client
    olya, petya = next(_ids), next(_ids)
    await client.create_user(olya, "Оля")
    await client.create_user(petya, "Петя")
    chat_id = (await client.create_chat(title="Двор", members=[olya, petya]))["id"]
    since = (await client.state())["last_call_seq"]
    assert (await _settings(client, petya, chat_id)).text == ONLY_ADMINS
    await client.set_member(chat_id, petya, "administrator")  # no update reaches the bot
    assert (await _settings(client, petya, chat_id)).text == ONLY_ADMINS
    assert await _asked(client, since, petya) == 1
    assert (await _settings(client, olya, chat_id)).buttons  # the creator: asked, an admin
    assert await _asked(client, since, olya) == 1
