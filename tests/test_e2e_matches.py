"""End to end: whole matches to the goat through the real bot process and the Bot API
emulator, with simulated players pressing random buttons of the keyboards the bot offers.

Issue 5: 2, 3 and 4 players, teams, each fish scoring (played again with Rematch until a
round ends in fish, so the scoring is really used), the table as a picture (the default) and
as text (issue 14); every offered button is legal and every
press of one is accepted, no hand leaks, every table accounts for the 28 tiles, and the
summaries and the final table equal the engine's replay of the match from the bot's database.

One bot process serves the whole module (it takes seconds to start); each test has its own
group and players.
"""

from __future__ import annotations

import itertools
import random

import pytest

from tests.e2e.botproc import BotProcess
from tests.e2e.checks import check_all, load_replay, match_ids
from tests.e2e.players import CallFeed, Table
from tests.emulator import EmulatorClient

pytest_plugins = ("tests.e2e.fixtures",)
pytestmark = pytest.mark.asyncio(loop_scope="module")

NAMES = ("Оля", "Петя", "Маша", "Серж")
_ids = itertools.count(1000, 100)


async def play_to_the_goat(client: EmulatorClient, bot: BotProcess, players: int,
                           settings: dict, *, need_fish: bool, seed: int,
                           max_matches: int = 6) -> dict:
    """A group of ``players`` with ``settings`` plays whole matches (Rematch after each)
    until one had a fish round when ``need_fish``; every match is checked."""
    rng = random.Random(seed)
    feed = CallFeed(client, since=(await client.state())["last_call_seq"])
    table = await Table.create(client, feed, NAMES[:players], first_id=next(_ids))
    await table.configure(**settings)
    await table.gather()
    await table.start()
    presses = []
    fish = 0
    for n in range(max_matches):
        if n:
            await table.rematch()
        log = await table.play(rng)
        assert log.ended
        presses += log.presses
        rp = load_replay(bot.database, table.match_id)
        fish += sum(1 for e in rp.scored() if e.end == "fish")
        if fish or not need_fish:
            break
    assert fish or not need_fish, f"no fish in {max_matches} matches"
    assert await table.unanswered_or_alerted(presses) == []  # each answer waited for
    group, dms = await table.chats()
    replays = [load_replay(bot.database, m) for m in match_ids(bot.database, table.chat_id)]
    for rp in replays:
        assert rp.rules.match_limit == int(settings.get("match_limit", 101))
        assert rp.rules.fish_scoring == settings.get("fish_scoring", "all_to_max")
        assert rp.rules.teams == (settings.get("teams") == "1")
        assert rp.final.finished and rp.final.result.reason == "limit"
        assert rp.final.result.goats
    # the round's tables: pictures with captions by default, texts where the chat chose it
    tables = [m for m in group if m.from_bot and (m.shown or "").startswith("Раунд")]
    photos = settings.get("table", "picture") == "picture"
    assert tables and all((m.photo is not None) == photos for m in tables)
    counts = check_all(replays, group, dms)
    assert counts["keyboards"] == len(presses)  # each keyboard pressed once, all accepted
    assert counts["summaries"] == sum(len(rp.scored()) for rp in replays)
    return counts


async def test_two_players(shared_bot):
    client, bot = shared_bot.client, shared_bot.bot
    await play_to_the_goat(client, bot, 2, {"match_limit": "51"}, need_fish=False, seed=2)
    assert bot.errors() == []


async def test_three_players_each_own_fish_with_the_table_as_text(shared_bot):
    client, bot = shared_bot.client, shared_bot.bot
    await play_to_the_goat(client, bot, 3, {"match_limit": "51", "fish_scoring": "each_own",
                                            "table": "text"}, need_fish=True, seed=3)
    assert bot.errors() == []


async def test_four_players_own_to_max_fish(shared_bot):
    client, bot = shared_bot.client, shared_bot.bot
    await play_to_the_goat(client, bot, 4,
                           {"match_limit": "51", "fish_scoring": "own_to_max"},
                           need_fish=True, seed=4)
    assert bot.errors() == []


async def test_teams_all_to_max_fish(shared_bot):
    client, bot = shared_bot.client, shared_bot.bot
    await play_to_the_goat(client, bot, 4,
                           {"match_limit": "51", "teams": "1",
                            "fish_scoring": "all_to_max"},
                           need_fish=True, seed=5)
    assert bot.errors() == []


async def test_a_refused_picture_leaves_the_text_table_and_nothing_is_lost(shared_bot):
    """Issue 14: the emulator refuses the first table picture; round 1 is shown as a text
    table (closed with its summary, however far the match went while the first picture was
    being drawn), the later rounds are pictures again, and every check of the match holds."""
    client, bot = shared_bot.client, shared_bot.bot
    feed = CallFeed(client, since=(await client.state())["last_call_seq"])
    table = await Table.create(client, feed, NAMES[:2], first_id=next(_ids))
    await table.configure(match_limit="51")
    await table.gather()
    await client.configure(fail_photos=1)
    await table.start()
    log = await table.play(random.Random(14))
    assert log.ended
    assert (await client.configure())["fail_photos"] == 0  # the refusal was used
    assert await table.unanswered_or_alerted(log.presses) == []
    group, dms = await table.chats()
    replays = [load_replay(bot.database, m) for m in match_ids(bot.database, table.chat_id)]
    counts = check_all(replays, group, dms)
    assert counts["summaries"] == len(replays[0].scored())
    tables = [m for m in group if m.from_bot and not m.deleted
              and (m.shown or "").startswith("Раунд")]
    first = [m for m in tables if m.shown.splitlines()[0] == "Раунд 1"]
    assert first and all(m.photo is None for m in first)  # round 1 as text, closed
    assert "Раунд 1 окончен" in first[-1].shown
    assert all(m.photo is not None for m in tables if m not in first)
    assert bot.errors() == []
