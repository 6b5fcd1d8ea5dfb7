"""End to end: time, crashes and Telegram's limits, through the real bot process.

Issue 5: a player who never moves until the host's moves end the match by timeout
(TURN_TIMEOUT=5, RULES.md §1.17); the bot SIGKILLed in the middle of a match and started
again, after which the keyboards work and the match ends correctly; flood control on, with
the emulator's and the bot's default limits, where nothing is lost and the table ends on the
latest state.  Each test has a bot process of its own.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.e2e.botproc import FAST_RATES
from tests.e2e.checks import (
    check_all,
    check_group,
    check_keyboards,
    check_latest_table,
    check_private,
    load_replay,
    match_ids,
)
from tests.e2e.players import (
    MOVE_PREFIX,
    PLAY_PREFIX,
    MatchLog,
    Press,
    Table,
    button_move,
)

pytest_plugins = ("tests.emulator.fixtures", "tests.e2e.fixtures")


@pytest.fixture
def bot_fork(request) -> bool:
    """The bots are forked from the fork server, except the SIGKILL-and-restart match's,
    which are fresh ``python bot.py`` interpreters: the whole start of a real process after
    a kill stays covered."""
    return request.node.originalname != (
        "test_the_bot_killed_mid_match_carries_on_after_a_restart")


def _words(call: dict) -> str:
    """The text of a text edit, or the caption of a media edit (its ``media`` as JSON)."""
    params = call["params"]
    media = params.get("media")
    if isinstance(media, str):
        media = json.loads(media)
    return str(params.get("text") or (media or {}).get("caption") or "")


async def replays_of(bot, table: Table) -> list:
    """Every match of the table's group, replayed from the bot's database."""
    return [load_replay(bot.database, m) for m in match_ids(bot.database, table.chat_id)]


@pytest.mark.parametrize("emulator_settings", [{"flood": False}])
@pytest.mark.parametrize("bot_settings", [{**FAST_RATES, "TURN_TIMEOUT": 5}])
async def test_a_player_who_never_moves_loses_the_match_by_timeout(bot, emulator_client, feed):
    """Petya never presses: after 5 s the host moves for him (the group and his chat say so);
    the second host move in a row ends the match by timeout, rated as RULES.md §1.16 says."""
    table = await Table.create(emulator_client, feed, ("Оля", "Петя"), first_id=100)
    olya, petya = table.players
    await table.gather()
    await table.start()
    rng = random.Random(5)
    presses = []
    last = -1
    waited = []
    while True:
        kb = await table.next_keyboard(last, timeout=20)
        if kb is None:
            break
        last = kb.version
        if kb.chat_id == petya.id:
            shown = next(c["t"] for c in feed.calls if c["seq"] == kb.seq)
            waited.append(shown)
            continue  # Petya looks away
        presses.append(await table.press(kb, rng))
    await feed.sync()  # the match end was seen: everything before it is in the log
    (replay,) = await replays_of(bot, table)
    result = replay.final.result
    assert result.reason == "timeout" and result.timed_out == 1
    hosts = [a for a in replay.actions if a.decision.get("host")]
    # two host moves; before the second, which ends the match, the group was asked (issue
    # 15) and Petya got his keyboard again: three keyboards in all
    assert [a.seat for a in hosts] == [1, 1] and len(waited) == 3
    question = [c for c in feed.calls if c["method"] == "sendMessage" and c["ok"]
                and c["chat_id"] == table.chat_id
                and "пропускает ход" in c["params"].get("text", "")]
    assert len(question) == 1
    asked = question[0]["t"] - waited[1]
    assert 4.5 <= asked < 10.0, asked  # when his second turn ran out
    # the host moved when the turn (or the group's time to answer) ran out, not before and
    # not much later
    for k, shown in ((1, waited[0]), (2, waited[2])):
        # the table's edit for the move that gave Petya his turn may come after his keyboard
        # (a picture is drawn first, the first one while its process starts); the host's
        # move is the first edit whose log says for the k-th time that Petya ran out of time
        later = [(c["t"] - shown, _words(c).count("Петя: время вышло")) for c in feed.calls
                 if c["t"] > shown and c["chat_id"] == table.chat_id
                 and c["method"] in ("editMessageText", "editMessageMedia")]
        host = next((t for t, n in later if n >= k), None)
        assert host is not None and 4.5 <= host < 10.0, later  # the turn began at the commit
    group, dms = await table.chats()
    assert any("Петя: время вышло" in (t or "") for m in group for t, _ in m.shown_texts())
    assert any("за вас походил бот" in h["text"] for m in dms[petya.id] for h in m.history)
    end = [m for m in group if "прервана по тайм-ауту" in (m.text or "")]
    assert len(end) == 1 and "Петя: время на ход вышло" in end[0].text
    assert await table.unanswered_or_alerted(presses) == []
    replay.bumped(len(replay.actions) - 1)  # the question, before the last host move
    check_all([replay], group, dms)
    assert bot.errors() == []


@pytest.mark.parametrize("emulator_settings", [{"flood": False}])
async def test_the_bot_killed_mid_match_carries_on_after_a_restart(bot, emulator_client, feed):
    """SIGKILL right after a press (the press may be lost, half done or done), twice; after
    each restart the bot shows the match as it is, exactly one keyboard is live and it works
    (a keyboard the killed process sent without storing its id is closed by the restart,
    issue 20 item 15), no private chat ever holds two live keyboards, and the match ends
    with the goat and the engine's scores."""
    table = await Table.create(emulator_client, feed, ("Оля", "Петя", "Маша"), first_id=200)
    await table.gather()
    await table.start()
    rng = random.Random(17)
    presses: list = []
    killed: list = []
    for delay in (0.0, 0.01):
        log = await table.play(rng, max_moves=6,
                               after_version=await _newest_live_version(table, bot))
        if log.ended:
            break
        presses += log.presses
        kb = await table.next_keyboard(log.presses[-1].keyboard.version)
        if kb is None:
            break
        killed.append(await table.press(kb, rng))
        await asyncio.sleep(delay)  # where the kill falls: right at the press, or just after
        bot.kill()
        again = await _unconfirmed(table, killed[-1])
        await bot.restart()
        await _restarted(table, killed[-1], again, bot)
        await _one_live_keyboard(table, bot)
    else:
        log = MatchLog()
    if not log.ended:
        log = await table.play(rng, after_version=await _newest_live_version(table, bot))
    assert log.ended
    presses += log.presses
    assert len(killed) == 2, "the match ended before the bot was killed twice"
    # every press after a restart was accepted (a killed press may have gone unanswered)
    assert await table.unanswered_or_alerted(presses) == []
    group, dms = await table.chats()
    (replay,) = await replays_of(bot, table)
    assert replay.final.result.reason == "limit"
    assert bot.starts == 3
    check_all([replay], group, dms)  # never two live keyboards in a chat


async def _unconfirmed(table: Table, last: Press) -> bool:
    """Right after the kill: whether the update of ``last`` (the press the kill fell on) is
    still unconfirmed, so that Telegram gives it to the restarted process, which then
    answers it.  A confirmed one the killed process took with it: made and answered, made
    and unanswered, or lost."""
    pending = {u["update_id"] for u in await table.client.pending_updates()}
    return last.update_id in pending


async def _restarted(table: Table, last: Press, again: bool, bot) -> None:
    """After ``bot.restart()``: the press the kill fell on (``last``), when the restarted
    process is given it again (``again``, :func:`_unconfirmed`), is handled by it — its
    ``answerCallbackQuery`` call is waited for, not a quiet spell (Telegram may refuse the
    answer as too old after a slow restart: the call is the change, its success is not) —
    and the restart then shows the turn as the database has it (a live keyboard of the
    stored version, :func:`_newest_live_version`)."""
    if again:
        feed = table.feed
        await feed.wait(lambda: any(
            c["method"].lower() == "answercallbackquery"
            and c["params"].get("callback_query_id") == last.query_id for c in feed.calls),
            timeout=60, what="the restarted process's answer to the press")
    await _newest_live_version(table, bot, timeout=30)


def _stored_version(bot, match_id: int) -> int:
    """The match's version as the bot's database has it."""
    import sqlite3

    with sqlite3.connect(bot.database) as conn:
        return int(conn.execute("SELECT version FROM matches WHERE id = ?",
                                (match_id,)).fetchone()[0])


async def _newest_live_version(table: Table, bot, timeout: float = 20.0) -> int:
    """One less than the database's version once a move keyboard of that version is live
    (``play`` then presses it): the turn the restart shows, not the newest keyboard seen
    once the bot seems quiet.  A keyboard the killed process sent and never recorded may
    still be live beside it (the bot closes it when it is pressed); whether the restart
    left exactly one is :func:`_one_live_keyboard`'s question."""
    async def shown() -> tuple[int] | None:
        version = _stored_version(bot, table.match_id)
        live = await _live_keyboards(table)
        return (version - 1,) if version in {v for v, _, _ in live} else None

    (found,) = await table.client.wait_until(shown, timeout=timeout,
                                             what="a live keyboard of the stored version")
    return found


async def _live_keyboards(table: Table) -> list[tuple[int, int, int]]:
    """``(version, user id, message id)`` of every move keyboard the players' chats show."""
    live = []
    for p in table.players:
        for m in await table.client.messages(p.id):
            data = [b.callback_data or "" for b in m.flat_buttons
                    if (b.callback_data or "").startswith((MOVE_PREFIX, PLAY_PREFIX))]
            if m.from_bot and data:
                live.append((button_move(data[0]).version, p.id, m.message_id))
    return sorted(live)


async def _one_live_keyboard(table: Table, bot, timeout: float = 10.0) -> int:
    """After a restart: wait until the players' chats show the match as the database has
    it — one move keyboard live, of the stored version (the restart closes what the killed
    process sent and never recorded, and shows the turn anew) — and return that version.
    Not the first keyboard seen once the bot seems quiet: a chat's stray keyboard may be
    closed after another chat's new one is sent."""
    async def settled() -> int | None:
        live = await _live_keyboards(table)
        version = _stored_version(bot, table.match_id)
        return version if [v for v, _, _ in live] == [version] else None

    try:
        return await table.client.wait_until(settled, timeout=timeout,
                                             what="one live keyboard, of the stored version")
    except TimeoutError:
        live = await _live_keyboards(table)
        raise AssertionError(f"live keyboards {live}, stored version "
                             f"{_stored_version(bot, table.match_id)}") from None


@pytest.mark.parametrize("emulator_settings", [{"flood": {"private_burst": 1}}])
@pytest.mark.parametrize("bot_settings", [{}])
async def test_flood_control_is_waited_out_and_nothing_is_lost(bot, emulator_client, feed):
    """The emulator enforces Telegram's limits (one message a second per chat, 20 a minute
    per group, 30 a second in all), stricter than the bot in private chats (no burst), and
    the bot keeps its default rates, so its bursts to a player meet 429 and it waits them
    out; a bystander's /score commands share the group's minute.  Every keyboard arrives,
    and once the bot is quiet the table shows the latest state."""
    assert (await emulator_client.config())["flood"]["enabled"]
    table = await Table.create(emulator_client, feed, ("Оля", "Петя", "Маша", "Серж"),
                               first_id=300, others=("Зевака",))
    await table.gather()
    await table.start()
    rng = random.Random(23)
    log = MatchLog()
    asked = []
    for _ in range(3):
        await table.play(rng, max_moves=3, log=log, timeout=30)
        asked.append((await table.command(table.others[0], "/score"))["message_id"])
    assert not log.ended
    # what the bot still owes, however long flood control holds it back: an answer to each
    # press, a reply to each /score, and the table at the stored state — each waited for
    assert await table.unanswered_or_alerted(log.presses, timeout=90) == []
    (replay,) = await replays_of(bot, table)

    async def owed() -> list | None:
        group = await emulator_client.messages(table.chat_id, include_deleted=True)
        replies = [m.reply_to for m in group if m.from_bot and (m.text or "").startswith(
            "Счёт партии")]
        try:
            check_latest_table(replay, group)
        except AssertionError:
            return None
        return group if sorted(replies) == asked else None

    await emulator_client.wait_until(owed, timeout=90, what="the bot's last group messages")
    await feed.sync()
    limited = [c for c in feed.calls if c["error_code"] == 429]
    assert limited, "the bot never met flood control"
    group, dms = await table.chats()
    assert len(replay.actions) == len(log.presses)
    check_group([replay], group)
    check_keyboards([replay], dms)
    for uid, msgs in dms.items():
        check_private([replay], uid, msgs)
    check_latest_table(replay, group)
    # the bystander's /score commands were answered too, if late
    replies = [m.reply_to for m in group if m.from_bot and (m.text or "").startswith(
        "Счёт партии")]
    assert sorted(replies) == asked
    assert bot.errors() == []


_COUNTED = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "sendPhoto",
            "editMessageMedia")


def _most_in_a_minute(times: list[float]) -> int:
    """The most of ``times`` (seconds) that fall in any rolling 60 s."""
    times = sorted(times)
    most, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= 60.0:
            start += 1
        most = max(most, end - start + 1)
    return most


@pytest.mark.parametrize("emulator_settings", [{"flood": False}])
@pytest.mark.parametrize("bot_settings", [{}])
async def test_no_group_gets_more_than_20_a_minute_across_a_restart(bot, emulator_client,
                                                                     feed):
    """Issue 11: two players press as fast as their keyboards come, so the bot has more to
    say in the group than Telegram takes (20 messages and edits a minute, Telegram's rate
    that the bot keeps by default); once the group's minute is full the bot is SIGKILLed and
    started again.  The emulator enforces nothing here, so every message or edit the bot
    makes lands: in no rolling minute, the restart included, does the group get more than
    20, and the restarted bot does write there again once the minute allows."""
    table = await Table.create(emulator_client, feed, ("Оля", "Петя"), first_id=500)
    await table.gather()
    await table.start()
    rng = random.Random(41)

    def group_times() -> list[float]:
        return [c["t"] for c in feed.calls if c["ok"] and c["chat_id"] == table.chat_id
                and c["method"] in _COUNTED]

    log = MatchLog()
    while True:
        times = group_times()
        if times and len([t for t in times if t > times[-1] - 60.0]) >= 20:
            break  # the group's minute is full: the bot holds its table edits back now
        await table.play(rng, max_moves=2, log=log, timeout=30)
        assert not log.ended, "the match ended before the group's minute was full"
        await feed.sync()
    bot.kill()
    killed_at = (await emulator_client.state())["now"]
    again = await _unconfirmed(table, log.presses[-1])
    await bot.restart()
    await _restarted(table, log.presses[-1], again, bot)
    await feed.sync()
    # play on until the restarted bot has written to the group again (the press the kill
    # cut short may be lost: the newest live keyboard is pressed, whichever it is, and from
    # then on each keyboard newer than the last one pressed: looking again for "the newest"
    # after each press would find the keyboard just pressed before the bot closed it)
    after_log = MatchLog()
    start = await _newest_live_version(table, bot)
    while not [t for t in group_times() if t > killed_at] and not after_log.ended:
        await table.play(rng, max_moves=2, log=after_log, after_version=start, timeout=30)
        await feed.sync()
    times = group_times()
    after = [t for t in times if t > killed_at]
    assert after, "the restarted bot never wrote to the group"
    assert _most_in_a_minute(times) <= 20, _most_in_a_minute(times)
    # it waited for the minute of the killed process's last 20 to pass
    before = [t for t in times if t <= killed_at]
    assert after[0] - sorted(before)[-20] >= 60.0 - 1.0
    print(f"group messages and edits: {len(before)} before the kill, {len(after)} after; "
          f"most in a rolling minute {_most_in_a_minute(times)}")
    assert bot.errors() == []
