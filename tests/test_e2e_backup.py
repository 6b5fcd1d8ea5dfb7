"""End to end (issue 33, "Backups"): ``python bot.py backup PATH`` taken from a running bot
while two groups play, and ``python bot.py restore PATH`` into a bot that finishes their
matches — the real bot process against the test Bot API server, the commands as an operator
types them.  (The same on PostgreSQL, through ``pg_dump``/``pg_restore``, is in
``tests/test_backup.py``.)"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
from contextlib import closing

import pytest

from tests.e2e.botproc import REPO
from tests.e2e.players import MOVE_PREFIX, PLAY_PREFIX, CallFeed, MatchLog, Table, button_move

pytest_plugins = ("tests.emulator.fixtures", "tests.e2e.fixtures")


async def _command(bot, *args: str) -> tuple[int, str, str]:
    """``python bot.py ARGS`` with the running bot's settings: exit status, output, errors."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "bot.py", *args, cwd=REPO, env=bot.env(),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
    return proc.returncode, out.decode(), err.decode()


def _stored(bot, match_id: int) -> tuple[str, int, str | None]:
    """``(status, version, end reason)`` of a match in the bot's database (the connection
    closed at once: an open one would hold the file as a bot does)."""
    with closing(sqlite3.connect(bot.database)) as conn:
        return conn.execute("SELECT status, version, end_reason FROM matches WHERE id = ?",
                            (match_id,)).fetchone()


@pytest.mark.parametrize("emulator_settings", [{"flood": False}])
async def test_a_backup_taken_while_matches_are_played_restores_into_a_bot_that_finishes_them(
        bot, emulator_client, feed, tmp_path):
    """Two groups press their keyboards while the backup is taken, and go on for two moves
    each after it; a restore is refused while the bot runs; the bot stops (SIGTERM), the
    backup is restored over its database, and the bot started again shows the matches as
    the backup holds them (the moves after it are lost, as a restore loses them) and plays
    them to their ends with the players, who ask for their hands again (/hand) where a hand
    message the backup does not know replaced the one it does (docs/OPERATIONS.md,
    "Backups")."""
    tables = [await Table.create(emulator_client, feed, names, first_id=first)
              for names, first in ((("Оля", "Петя"), 700), (("Маша", "Серж"), 710))]
    for t in tables:
        await t.gather()
        await t.start()
    rng = random.Random(29)
    logs = [MatchLog() for _ in tables]
    for t, log in zip(tables, logs, strict=True):
        await t.play(rng, max_moves=2, log=log, timeout=30)
    taken = asyncio.Event()

    async def keep_playing(t: Table, log: MatchLog) -> int:
        during = 0
        while not taken.is_set():
            await t.play(rng, max_moves=1, log=log, timeout=30)
            during += 1
        await t.play(rng, max_moves=2, log=log, timeout=30)
        return during

    players = [asyncio.create_task(keep_playing(t, log))
               for t, log in zip(tables, logs, strict=True)]
    path = tmp_path / "backup" / "kozel.sqlite3"
    path.parent.mkdir()
    try:
        code, out, err = await _command(bot, "backup", str(path))
    finally:
        taken.set()
    assert code == 0, err
    assert out.startswith("backed up the sqlite database") and "2 playing" in out, out
    assert min(await asyncio.gather(*players)) >= 1  # both groups pressed while it ran
    assert not any(log.ended for log in logs)
    with closing(sqlite3.connect(path)) as copy:
        backed = {t.match_id: copy.execute("SELECT version FROM matches WHERE id = ?",
                                           (t.match_id,)).fetchone()[0] for t in tables}
    played = {t.match_id: _stored(bot, t.match_id)[1] for t in tables}
    assert all(backed[m] < played[m] for m in backed)  # moves came after the backup

    code, _, err = await _command(bot, "restore", str(path))
    assert code == 1 and "in use" in err and "--force" in err, err
    assert await bot.stop() == 0
    code, out, err = await _command(bot, "restore", str(path))
    assert code == 0 and out.startswith("restored ") and "replaced the database" in out, err
    assert {t.match_id: _stored(bot, t.match_id)[:2] for t in tables} == {
        m: ("playing", v) for m, v in backed.items()}

    # the restarted bot's calls only: the chats still hold keyboards of the moves it lost
    await feed.sync()
    fresh = CallFeed(emulator_client, since=feed.seq)
    for t in tables:
        t.feed, t.start_seq = fresh, feed.seq
    await bot.restart()
    # the restarted bot edits every message the backup knows to the restored state; a hand
    # message sent after the backup (the one before it deleted) it cannot know: the players
    # ask for their hands again, as README says (/hand), and go on from the turn each new
    # hand message shows
    asked = {p.id: (await emulator_client.send(p.id, "/hand"))["message_id"]
             for t in tables for p in t.players}
    for t in tables:
        await _shown_anew(t, asked, backed[t.match_id])
    ends = await asyncio.gather(*(t.play(rng, after_version=backed[t.match_id] - 1,
                                         timeout=30) for t in tables))
    assert all(log.ended for log in ends)
    for t, log in zip(tables, ends, strict=True):
        status, version, reason = _stored(bot, t.match_id)
        assert (status, reason) == ("finished", "limit")
        assert version > backed[t.match_id]
        assert await t.unanswered_or_alerted(log.presses) == []
    assert bot.errors() == []


async def _shown_anew(table: Table, asked: dict[int, int], version: int) -> None:
    """Wait until every player of ``table`` got a hand message after their /hand (message id
    above ``asked[user]``: each chat has answered its /hand, and what the start-up showed
    there before it is settled, one chat's messages going out in order), one of them with
    the live move keyboard of ``version``.  (A keyboard the stopped bot sent after the
    backup may still be live further up a chat: the players leave it.)"""
    async def settled() -> bool:
        answered, live = set(), []
        for p in table.players:
            for m in await table.client.messages(p.id):
                if not m.from_bot or m.message_id <= asked[p.id]:
                    continue
                answered.add(p.id)
                live += [button_move(b.callback_data).version for b in m.flat_buttons
                         if (b.callback_data or "").startswith((MOVE_PREFIX, PLAY_PREFIX))][:1]
        return answered == set(table.user_ids) and live == [version]

    await table.client.wait_until(settled, timeout=30, what="the hands shown anew")
