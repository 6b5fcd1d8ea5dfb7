"""End to end: a match's game record through the real bot process and the emulator (issue
15): the record button under the match end sends the record to the presser's private chat
as a document; the downloaded record replays through the engine to the result the bot
stored; sent back to the bot (getFile and the file download), it is checked and found equal
to the stored match; a file that is not a record gets an answer; /history lists the match.
A player who leaves a running match (/leave) has a computer player finish their seat."""

from __future__ import annotations

import json
import random
import re

import pytest
from sqlalchemy import create_engine, text

from engine import records
from tests.e2e.botproc import FAST_RATES
from tests.e2e.checks import check_private, load_replay, match_ids
from tests.e2e.players import Table

pytest_plugins = ("tests.emulator.fixtures", "tests.e2e.fixtures")


@pytest.mark.parametrize("emulator_settings", [{"flood": False}])
@pytest.mark.parametrize("bot_settings", [dict(FAST_RATES)])
async def test_a_downloaded_record_replays_to_the_stored_result(bot, emulator_client, feed):
    client = emulator_client
    table = await Table.create(client, feed, ("Оля", "Петя"), first_id=900,
                               others=("Гость",))
    olya, petya = table.players
    await table.configure(match_limit="51")
    await table.gather()
    await table.start()
    log = await table.play(random.Random(15), timeout=20)
    assert log.ended
    end = await table.wait_end()
    press = await client.press(petya.id, table.chat_id, end["message_id"],
                               text="📄 Запись партии")
    answer = await client.wait_answer(press["query_id"], timeout=10)
    assert not answer["show_alert"] and "в личке" in answer["text"]
    doc = await client.wait_message(petya.id, lambda m: m.from_bot and m.document, timeout=10)
    (match_id,) = match_ids(bot.database, table.chat_id)
    assert doc.document["file_name"] == f"kozel-classic-{match_id}.json"
    assert f"#{match_id}" in doc.caption
    data = await client.file(doc.document["file_id"])
    out = records.replay(json.loads(data))
    stored = load_replay(bot.database, match_id).final.result
    assert out["finished"] and out["goats"] == list(stored.goats)
    assert out["rating"] == list(stored.rating)
    # a person not at the table, whose private chat is closed, gets a link that opens it
    guest = table.others[0]
    press = await client.press(guest.id, table.chat_id, end["message_id"],
                               text="📄 Запись партии")
    answer = await client.wait_answer(press["query_id"], timeout=10)
    # signed for this person and this match, so it still works after a restart
    assert re.search(rf"\?start=r{match_id}_[\w-]+$", answer["url"]), answer["url"]
    await client.follow_link(guest.id, answer["url"])
    got = await client.wait_message(guest.id, lambda m: m.from_bot and m.document, timeout=10)
    assert await client.file(got.document["file_id"]) == data
    # the record sent back is checked against the stored match
    sent = await client.send_document(olya.id, data, file_name="запись.json")
    check = await client.wait_message(olya.id, lambda m: m.from_bot and m.text
                                      and m.message_id > sent["message_id"], timeout=10)
    assert check.text.startswith("✅") and f"Совпадает с партией #{match_id}" in check.text
    sent = await client.send_document(olya.id, b"\x89PNG not a record", file_name="x.png")
    bad = await client.wait_message(olya.id, lambda m: m.from_bot and m.text
                                    and m.message_id > sent["message_id"], timeout=10)
    assert bad.text.startswith("❌ Это не JSON")
    await table.command(olya, "/history")
    history = await client.wait_message(table.chat_id, lambda m: m.from_bot and m.text
                                        and "Партии этого чата" in m.text, timeout=10)
    assert f"#{match_id}" in history.text
    assert bot.errors() == []


@pytest.mark.parametrize("emulator_settings", [{"flood": False}])
@pytest.mark.parametrize("bot_settings", [dict(FAST_RATES)])
async def test_a_player_leaves_and_a_computer_player_finishes_the_match(bot, emulator_client,
                                                                          feed):
    """/leave in the group during a match, confirmed: the group is told, the seat's computer
    player moves in the real process (the deadline sweeper is woken), the match ends, and the
    leaver's result row is rated 0 while the record still replays."""
    client = emulator_client
    table = await Table.create(client, feed, ("Оля", "Петя", "Маша"), first_id=960)
    olya, petya, masha = table.players
    await table.configure(match_limit="51")
    await table.gather()
    await table.start()
    rng = random.Random(8)
    log = await table.play(rng, max_moves=2)
    assert not log.ended
    await table.command(petya, "/leave")
    confirm = await client.wait_message(table.chat_id, lambda m: m.from_bot and m.text
                                        and m.text.startswith("Петя, выйти из партии?"),
                                        timeout=10)
    stranger = await client.press(olya.id, table.chat_id, confirm.message_id,
                                  text="🚪 Да, выйти")
    assert (await client.wait_answer(stranger["query_id"], timeout=10))["show_alert"]
    press = await client.press(petya.id, table.chat_id, confirm.message_id, text="🚪 Да, выйти")
    answer = await client.wait_answer(press["query_id"], timeout=10)
    assert not answer.get("show_alert"), answer
    await client.wait_message(table.chat_id, lambda m: m.from_bot and m.text
                              and m.text.startswith("🚪 Петя выходит из партии"), timeout=10)
    table.players = [olya, masha]  # Petya's keyboard, if he was to act, is gone
    log = await table.play(rng, log=log, timeout=20)
    assert log.ended  # the match end is sent once the results are stored
    (match_id,) = match_ids(bot.database, table.chat_id)
    replay = load_replay(bot.database, match_id)
    assert replay.final.result is not None
    assert replay.row.seats[1].get("left", {}).get("user_id") == petya.id
    moves = [a for a in replay.actions if a.seat == 1]
    assert moves and any(a.user_id is not None and a.user_id < 0 for a in moves)
    eng = create_engine(f"sqlite:///{bot.database}")
    try:
        with eng.connect() as conn:
            rows = {r.user_id: r for r in conn.execute(text(
                "SELECT user_id, rating, left_match FROM match_results WHERE match_id = :m"),
                {"m": match_id})}
    finally:
        eng.dispose()
    assert rows[petya.id].left_match and rows[petya.id].rating == 0
    assert not rows[olya.id].left_match and not rows[masha.id].left_match
    # no hand shown to anyone else (the group's tables are checked by the other tests: the
    # checker rebuilds them from the seats as they are now, the computer player's name in
    # the seat Petya left)
    for p in (olya, petya, masha):
        check_private([replay], p.id, await client.messages(p.id, include_deleted=True))
    dm = await client.messages(petya.id, include_deleted=True)
    assert any("Вы вышли из партии" in (h["text"] or "") for m in dm for h in m.history)
    assert bot.errors() == []
