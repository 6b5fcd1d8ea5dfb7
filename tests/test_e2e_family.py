"""End to end: Мексиканский поезд and Колбаса (RULES.md §2.11, §2.12) played whole through
the real bot process and the Bot API emulator, each killed with SIGKILL in the middle of a
round and finishing after the restart (issue 32, "Must show").

- Mexican Train with eight seats on the double-12 set: three people and five computer
  players of every strength in a group (``/addbot``), thirteen rounds;
- Mexican Train with three people on the double-9 set (the group's /settings), ten rounds;
- Колбаса with two people in a group, its forced placements shown one table at a time
  (``BOT_MOVE_DELAY`` > 0: ``Result.frames``);
- Колбаса against a computer player in a private chat (``/newgame 1 колбаса``).

The simulated people press random buttons of every keyboard the bot sends them, choosing a
train where a tile fits several (one press for the tile, one for the train).  Afterwards
:mod:`tests.e2e.checks` replays each match from the bot's database through the engine: every
keyboard offered exactly the legal placements of its version, the tables account for the
whole set and show no tile of a hand (and nobody, the owner included, a tile of a Колбаса
queue), the hand messages only the player's own tiles, the summaries and the match end are
the engine's.

One emulator and one bot serve the module (the bot is killed and restarted by each test);
the computer players decide within the bot's worker pool (``BOT_WORKERS``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.e2e.botproc import FAST_RATES
from tests.e2e.checks import check_all, load_replay, match_ids, shows_version
from tests.e2e.fixtures import Shared, running_bot
from tests.e2e.players import (
    MOVE_PREFIX,
    PLACE_PREFIX,
    PLAY_PREFIX,
    Keyboard,
    MatchLog,
    Person,
    Press,
    Table,
    button_move,
)
from tests.emulator import Emulator, FloodLimits

pytest_plugins = ("tests.e2e.fixtures",)
pytestmark = pytest.mark.asyncio(loop_scope="module")

#: Колбаса's forced placements are shown this far apart (``Result.frames``), and computer
#: players wait as long before they move.
PACE = "0.05"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def family_bot(tmp_path_factory) -> AsyncIterator[Shared]:
    """One emulator (no flood control) and one bot for the module."""
    emu = Emulator(flood=FloodLimits(enabled=False))
    await emu.start()
    client = emu.client()
    settings = {**FAST_RATES, "BOT_MOVE_DELAY": PACE, "BOT_WORKERS": "2",
                "BOT_HARD_SAMPLES": "30", "PICTURE_WORKERS": "0"}
    try:
        async with running_bot(emu, tmp_path_factory.mktemp("family"), settings) as proc:
            yield Shared(emu, client, proc)
    finally:
        await client.close()
        await emu.stop()


def _stored_version(bot, match_id: int) -> int:
    import sqlite3

    with sqlite3.connect(bot.database) as conn:
        return int(conn.execute("SELECT version FROM matches WHERE id = ?",
                                (match_id,)).fetchone()[0])


async def _live_keyboards(table: Table) -> list[int]:
    """The version of every move keyboard the players' chats show."""
    live = []
    for p in table.players:
        for m in await table.client.messages(p.id):
            data = [b.callback_data or "" for b in m.flat_buttons if (
                b.callback_data or "").startswith((MOVE_PREFIX, PLAY_PREFIX, PLACE_PREFIX))]
            if m.from_bot and data:
                live.append(button_move(data[0]).version)
    return sorted(live)


async def _live_version(table: Table, bot, timeout: float = 30.0) -> int:
    """After a restart: one less than the stored version, once the players' chats show the
    match as the database has it — exactly one move keyboard live, of the stored version
    (``Table.play`` then presses it).  Not merely a keyboard of that version: one the killed
    process sent without storing its id may still be live until the restart closes it, and
    pressing it would be stale (a computer player's turn shows none until it has moved)."""
    async def settled() -> tuple[int] | None:
        version = _stored_version(bot, table.match_id)
        return (version - 1,) if await _live_keyboards(table) == [version] else None

    try:
        (found,) = await table.client.wait_until(settled, timeout=timeout,
                                                 what="one live keyboard, of the stored version")
    except TimeoutError:
        raise AssertionError(f"live keyboards {await _live_keyboards(table)}, stored version "
                             f"{_stored_version(bot, table.match_id)}") from None
    return found


async def _play_killing_once(table: Table, bot, rng: random.Random, *, before: int,
                             timeout: float = 30.0) -> MatchLog:
    """Play ``before`` moves, press once more and kill the bot with SIGKILL right after that
    press, restart it, and play the match to its end; the presses made (the killed one
    aside: it may have been lost).  A press whose update the killed process had not
    confirmed is given to the restarted one, which makes it: its answer is waited for
    before the restarted table is read, or the next press would meet the version it
    moved past."""
    log = await table.play(rng, max_moves=before, timeout=timeout)
    assert not log.ended, "the match ended before the kill"
    kb = await table.next_keyboard(log.presses[-1].keyboard.version, timeout=timeout)
    assert kb is not None
    killed = await table.press(kb, rng)
    await asyncio.sleep(0.005)  # where the kill falls: just after the press
    bot.kill()
    pending = {u["update_id"] for u in await table.client.pending_updates()}
    await bot.restart()
    if killed.update_id in pending:
        feed = table.feed
        await feed.wait(lambda: any(
            c["method"].lower() == "answercallbackquery"
            and c["params"].get("callback_query_id") == killed.query_id for c in feed.calls),
            timeout=60, what="the restarted process's answer to the killed press")
    rest = await table.play(rng, after_version=await _live_version(table, bot),
                            timeout=timeout)
    assert rest.ended
    return MatchLog(log.presses + rest.presses, True, rest.end_text)


class ReadingTable(Table):
    """People who look at the table before they press: a keyboard of version v is pressed
    once the table message shows version v — after the forced placements the step before it
    carried (``Result.frames``, RULES.md §2.12 rule 6), which the bot shows one after the
    other before that table (people who press the instant their keyboard comes make a newer
    change, which ends the frames where they are) — and on the message that then carries
    it (in a private chat's match the turn moves below a new round's table, the old message
    deleted)."""

    database = None

    async def press(self, kb: Keyboard, rng: random.Random | None = None, *,
                    index: int | None = None) -> Press:
        replay = load_replay(self.database, self.match_id)

        async def shown() -> bool:
            return any(m.from_bot and not m.deleted and shows_version(replay, m.shown,
                                                                         kb.version)
                       for m in reversed(await self.client.messages(self.chat_id)))

        async def live() -> Keyboard | None:
            for m in reversed(await self.client.messages(kb.chat_id)):
                buttons = tuple({"text": b.text, "callback_data": b.callback_data}
                                for b in m.flat_buttons if (b.callback_data or "").startswith(
                                    (MOVE_PREFIX, PLAY_PREFIX, PLACE_PREFIX)))
                if m.from_bot and not m.deleted and buttons and \
                        button_move(buttons[0]["callback_data"]).version == kb.version:
                    return Keyboard(kb.chat_id, m.message_id, kb.match_id, kb.version,
                                    buttons, kb.seq)
            return None

        await self.client.wait_until(shown, timeout=30,
                                     what=f"the table of version {kb.version}")
        kb = await self.client.wait_until(live, timeout=30,
                                          what=f"the live keyboard of version {kb.version}")
        return await super().press(kb, rng, index=index)


async def _checked(shared: Shared, table: Table, log: MatchLog, variant: str, *,
                   solo: bool = False) -> dict:
    """The checkers over the table's match (:func:`tests.e2e.checks.check_all`): every
    press after the restart answered, the engine's end."""
    bot = shared.bot
    assert await table.unanswered_or_alerted(log.presses) == []
    group, dms = await table.chats()
    (rp,) = [load_replay(bot.database, m) for m in match_ids(bot.database, table.chat_id)]
    assert rp.rules.variant == variant
    assert rp.final.finished and rp.final.result.reason == "limit"
    counts = check_all([rp], dms[table.chat_id] if solo else group, dms)
    assert counts["keyboards"] >= len(log.presses) - 1
    assert counts["summaries"] >= len(rp.scored()) > 0
    assert bot.errors() == []
    return {**counts, "rounds": len(rp.scored()), "actions": len(rp.actions)}


async def test_mexican_train_with_eight_seats_on_double_twelve(family_bot):
    """RULES.md §2.11: eight seats — three people and five computer players, easy, normal
    and hard — on the double-12 set, thirteen rounds from [12|12] down to [0|0]; the lowest
    total wins.  Killed once mid-round."""
    shared = family_bot
    feed = await shared.feed()
    table = await Table.create(shared.client, feed, ("Оля", "Петя", "Маша"), first_id=3200)
    await table.gather("поезд")
    for seated, strength in enumerate(("easy", "normal", "hard", "easy", "normal"), start=4):
        await table.command(table.players[0], f"/addbot {strength}")
        await table.wait_seated(seated)
    await table.start()
    log = await _play_killing_once(table, shared.bot, random.Random(32), before=25)
    counts = await _checked(shared, table, log, "mexican_train")
    assert counts["rounds"] == 13
    assert "🏆" in (log.end_text or "")


async def test_mexican_train_with_three_seats_on_double_nine(family_bot):
    """RULES.md §2.10.2, §2.11: the group's admin chooses Mexican Train and the double-9
    set in /settings; three people play its ten rounds.  Killed once mid-round."""
    shared = family_bot
    feed = await shared.feed()
    table = await Table.create(shared.client, feed, ("Аня", "Боря", "Вика"), first_id=3300)
    await table.configure(variant="mexican_train", set="9")
    await table.gather()
    await table.start()
    log = await _play_killing_once(table, shared.bot, random.Random(9), before=20)
    counts = await _checked(shared, table, log, "mexican_train")
    assert counts["rounds"] == 10
    (rp,) = [load_replay(shared.bot.database, m)
             for m in match_ids(shared.bot.database, table.chat_id)]
    assert rp.rules.set == 9


async def test_kolbasa_with_two_people(family_bot):
    """RULES.md §2.12: two people in a group; the keyboard comes only when the turned-over
    tile has a choice, the forced placements are shown one table at a time.  Killed once
    mid-round."""
    shared = family_bot
    feed = await shared.feed()
    table = await ReadingTable.create(shared.client, feed, ("Гена", "Дина"), first_id=3400)
    table.database = shared.bot.database
    await table.gather("колбаса")
    await table.start()
    log = await _play_killing_once(table, shared.bot, random.Random(12), before=1)
    counts = await _checked(shared, table, log, "kolbasa")
    assert counts["frames"] > 0  # the forced placements' tables were shown
    # nobody's private chat ever showed a tile of a queue: check_private held every hand
    # message to the tiles on the table and turned over in everybody's sight


async def test_kolbasa_against_a_computer_player(family_bot):
    """RULES.md §2.12 in a private chat against one computer player (``/newgame 1 колбаса
    normal``).  Killed once mid-round."""
    shared = family_bot
    feed = await shared.feed()
    person = Person(3500, "Ева")
    await shared.client.create_user(person.id, person.name)
    await shared.client.start(person.id)
    table = ReadingTable(shared.client, feed, person.id, [person])
    table.database = shared.bot.database
    await feed.sync()
    table.start_seq = feed.seq
    await shared.client.send(person.id, "/newgame 1 колбаса normal", chat_id=person.id)
    kb = await table.next_keyboard(-1, since=table.start_seq)  # the match's first
    assert kb is not None
    table.match_id = kb.match_id
    log = await _play_killing_once(table, shared.bot, random.Random(5), before=1)
    await _checked(shared, table, log, "kolbasa", solo=True)
