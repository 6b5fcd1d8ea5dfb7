"""End to end: people who do unusual things, through the real bot process and the emulator.

Issue 5: a player who never opened the private chat (joins through the deep link, or gets the
group's notice with the open-DM button, and /start delivers the hand); presses by
non-players, out of turn, on old keyboards and with forged callback_data, each answered with
an alert while nothing changes; a group upgraded to a supergroup in the middle of a match,
which then goes on in the new chat.  Every match is played to the goat and checked like those
of ``test_e2e_matches``.

One bot process serves the whole module; each test has its own group and players.
"""

from __future__ import annotations

import itertools
import random

import pytest

from tests.e2e.checks import check_all, load_replay, match_ids, shows_version
from tests.e2e.players import Table, move_buttons, parse_move_data
from ui.callbacks import tile_id

pytest_plugins = ("tests.e2e.fixtures",)
pytestmark = pytest.mark.asyncio(loop_scope="module")

_ids = itertools.count(5000, 100)


async def finish_and_check(shared, table: Table, rng: random.Random, presses: list) -> dict:
    """Play the match to the goat, then check every chat against the replay."""
    log = await table.play(rng)
    assert log.ended
    bot = shared.bot
    assert await table.unanswered_or_alerted(presses + log.presses) == []
    group, dms = await table.chats()
    replays = [load_replay(bot.database, m)
               for m in match_ids(bot.database, table.chat_id)]
    assert len(replays) == 1 and replays[0].final.finished
    return check_all(replays, group, dms)


async def test_a_player_who_never_opened_the_private_chat(shared_bot):
    """Olya opens the lobby without a private chat, Masha joins through the deep link the
    Join button answers with; when the hands go out, Olya's cannot, the group is told with an
    open-DM button, and her /start from it delivers her hand."""
    client, bot = shared_bot.client, shared_bot.bot
    feed = await shared_bot.feed()
    table = await Table.create(client, feed, ("Оля", "Петя", "Маша"), first_id=next(_ids),
                               open_dm=(False, True, False))
    olya, petya, masha = table.players
    await table.configure(match_limit="51")
    await table.open_lobby()
    hint = await client.wait_message(table.chat_id, lambda m: m.from_bot and "Оля" in (
        m.text or "") and "откройте личку" in m.text, timeout=10)
    assert f"start=j{table.match_id}" in hint.source
    assert await table.seated() == ["Оля"]
    # Masha has no private chat: Join answers with the deep link, which seats her
    answer = await table.press_join(masha)
    assert answer["url"] == f"https://t.me/kozel_test_bot?start=j{table.match_id}"
    assert await table.seated() == ["Оля"]
    await client.follow_link(masha.id, answer["url"])
    await table.wait_seated(2)
    joined = await client.wait_message(masha.id, timeout=10)
    assert "Вы за столом" in joined.text and table.chat_id != masha.id
    answer = await table.press_join(petya)
    assert not answer.get("url") and not answer.get("show_alert")
    await table.wait_seated(3)
    assert await table.seated() == ["Оля", "Маша", "Петя"]
    # the hands go out: Olya's private chat is closed, the group gets a button to open it
    await table.start()
    notice = await client.wait_message(
        table.chat_id, lambda m: m.from_bot and "Оля не получает" in (m.text or ""),
        timeout=10)
    assert [b.url for b in notice.flat_buttons] == [
        f"https://t.me/kozel_test_bot?start=h{table.match_id}"]
    assert (await client.user(olya.id))["started"] is False  # no private chat yet
    opened = await client.press(olya.id, table.chat_id, notice.message_id, index=0)
    await client.follow_link(olya.id, opened["url"])
    hand = await client.wait_message(olya.id, timeout=10)
    assert hand.text.startswith("Ваши кости")
    # the match plays on to the goat, with every check
    counts = await finish_and_check(shared_bot, table, random.Random(7), [])
    assert counts["hands"] > 0
    # one notice per closed chat and round, not one per message that failed; gone from the
    # group once her hand reached her (issue 20 item 6)
    group = await client.messages(table.chat_id, include_deleted=True)
    assert sum("Оля не получает" in (m.text or "") for m in group) == 1
    assert (await client.message(table.chat_id, notice.message_id)).deleted
    assert bot.errors() == []


async def answered(client, press: dict) -> dict:
    """The bot's answer to a press (waits for it)."""
    return await client.wait_answer(press["query_id"], timeout=10)


async def _table_showing(client, table: Table, replay, version: int):
    """The group's table message once it shows match version ``version``."""
    async def shown():
        for m in reversed(await client.messages(table.chat_id)):
            if m.from_bot and shows_version(replay, m.shown, version):
                return m
        return None

    return await client.wait_until(shown, timeout=15, what=f"the table of version {version}")


async def _hand_message(client, user_id: int):
    """The player's hand message (the newest the bot sent them that shows a hand): sent at
    the deal or with their last turn, it stays theirs while the other player is on turn."""
    async def found():
        return next((m for m in reversed(await client.messages(user_id))
                     if m.from_bot and "Ваши кости" in (m.text or "")), None)

    return await client.wait_until(found, timeout=15, what=f"the hand of {user_id}")


async def test_bad_presses_are_refused_and_change_nothing(shared_bot):
    """A bystander, the player out of turn, an old keyboard and forged data: every press gets
    an alert and neither the table nor any keyboard changes; the next real press works."""
    client = shared_bot.client
    feed = await shared_bot.feed()
    table = await Table.create(client, feed, ("Оля", "Петя"), first_id=next(_ids),
                               others=("Зевака",))
    bystander = table.others[0]
    await table.configure(match_limit="51")
    await table.gather()
    await table.start()
    rng = random.Random(11)
    presses = []
    kb = await table.next_keyboard(-1)
    old = None
    for step in range(6):
        mover = kb.chat_id
        other = next(p.id for p in table.players if p.id != mover)
        data = kb.buttons[0]["callback_data"]
        game, ver, tile, end = parse_move_data(data)
        # a tile of the other hand: a well-formed move the mover cannot make
        replay = load_replay(shared_bot.bot.database, game)
        state = replay.state_at(ver)
        foreign = tile_id(state.hand(1 - state.to_act)[0])
        # the keyboard may arrive before the table's edit and before the last press's edit
        # of its own message: both are waited for (the table showing this very version,
        # the pressed message's next edit), not guessed from a quiet spell
        table_msg = await _table_showing(client, table, replay, ver)
        if presses:
            await feed.wait(lambda: feed.edits(presses[-1].keyboard.chat_id,
                                               presses[-1].keyboard.message_id)
                            > presses[-1].edits, what="the edit of the last press")
        other_msg = await _hand_message(client, other)
        bad = [
            (bystander.id, table.chat_id, table_msg.message_id, data, "Вы не играете"),
            (other, other, other_msg.message_id, data, "Сейчас не ваш ход"),
            (mover, mover, kb.message_id, f"m1:{game}:{ver + 1}:{tile}:{end}", "устарела"),
            (mover, mover, kb.message_id, f"m1:{game + 999}:{ver}:{tile}:{end}", "нет игры"),
            (mover, mover, kb.message_id, f"m1:{game}:{ver}:{tile}:x", "устарела"),
            (mover, mover, kb.message_id, f"m1:{game}:{ver}:{foreign}:l", "устарела"),
            (mover, mover, kb.message_id, "garbage", "устарела"),
            (mover, mover, kb.message_id, f"l1:start:{game}", "другом чате"),
            (bystander.id, table.chat_id, table_msg.message_id, f"l1:cancel:{game}", ""),
        ]
        if old is not None:  # the keyboard before this one, pressed again
            bad.append((old.chat_id, old.chat_id, old.message_id,
                        old.buttons[0]["callback_data"], ""))
        await feed.sync()
        since = feed.seq
        before = await client.message(mover, kb.message_id)
        for user, chat, mid, forged, says in bad:
            answer = await answered(client, await client.press(user, chat, mid, data=forged))
            assert answer["show_alert"] and answer["text"], (forged, answer)
            assert says in answer["text"], (forged, answer)
        # nothing may follow the answers: a quiet spell is the only proof of an absence
        await client.wait_idle(quiet=0.2)
        await feed.sync()
        changes = [c for c in feed.calls if c["seq"] > since
                   and c["method"] not in ("answerCallbackQuery", "getChatMember")]
        # at most an attempt to take the keyboard off an old message, which had none
        assert all(c["method"] == "editMessageReplyMarkup" and not c["ok"]
                   and "not modified" in c["description"] for c in changes), \
            [(c["method"], c["chat_id"], c["params"].get("message_id"), c["ok"],
              c["description"]) for c in changes]
        assert (await client.message(table.chat_id, table_msg.message_id)).edits \
            == table_msg.edits
        after = await client.message(mover, kb.message_id)
        assert after.buttons == before.buttons and after.text == before.text
        assert move_buttons({"inline_keyboard": [[b.raw for b in row]
                                                 for row in after.buttons]})
        # the live keyboard still works
        presses.append(await table.press(kb, rng))
        old = kb
        kb = await table.next_keyboard(kb.version)
        assert kb is not None, "the match ended early"
        assert step < 5 or kb.version > old.version
    await finish_and_check(shared_bot, table, rng, presses)


async def test_group_becomes_a_supergroup_mid_match(shared_bot):
    """Telegram upgrades the group while a match runs: the table moves to the supergroup and
    the match goes on there to the goat."""
    client, bot = shared_bot.client, shared_bot.bot
    feed = await shared_bot.feed()
    table = await Table.create(client, feed, ("Оля", "Петя", "Маша"), first_id=next(_ids))
    await table.configure(match_limit="51")
    await table.gather()
    await table.start()
    rng = random.Random(13)
    log = await table.play(rng, max_moves=8)
    assert not log.ended
    old_id = table.chat_id
    new_id = await table.migrate()
    await client.wait_message(new_id, lambda m: m.from_bot and (m.shown or "").startswith(
        "Раунд"), timeout=10)
    counts = await finish_and_check(shared_bot, table, rng, log.presses)
    assert counts["tables"] > 0
    replay = load_replay(bot.database, table.match_id)
    assert replay.row.chat_id == new_id
    new_msgs = await client.messages(new_id)
    assert any("🐐" in (m.text or "") for m in new_msgs)
    assert (await client.chat(old_id))["migrated_to"] == new_id
    assert bot.errors() == []
