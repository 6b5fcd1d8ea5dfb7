"""End to end: computer players at a group's table, thinking in the bot's worker processes.

Two people and two hard computer players (``/addbot hard``) play a whole match through the
real bot process and the emulator; the computer players decide in a pool of worker
processes of the bot (issue 11), with a small count of sampled deals so the test is quick.
The usual invariants hold: every keyboard offered exactly the legal moves to the person to
act, no hand leaked, the summaries and the final table are the engine's.
"""

from __future__ import annotations

import os
import random

import pytest

from tests.e2e.botproc import FAST_RATES
from tests.e2e.checks import check_all, load_replay, match_ids
from tests.e2e.players import Table

pytest_plugins = ("tests.emulator.fixtures", "tests.e2e.fixtures")


def _workers(pid: int) -> set[int]:
    """The worker processes of a process (those ``multiprocessing`` spawned to run tasks)."""
    out: set[int] = set()
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
            for child in map(int, f.read().split()):
                with open(f"/proc/{child}/cmdline", "rb") as cmd:
                    if b"spawn_main" in cmd.read():
                        out.add(child)
    return out


@pytest.mark.parametrize("emulator_settings", [{"flood": False}])
@pytest.mark.parametrize("bot_settings", [{**FAST_RATES, "BOT_HARD_SAMPLES": 30,
                                           "BOT_WORKERS": 2, "BOT_MOVE_DELAY": 0,
                                           # pictures drawn in a thread: the only worker
                                           # processes are the computer players'
                                           "PICTURE_WORKERS": 0}])
async def test_two_people_and_two_hard_computer_players(bot, emulator_client, feed):
    table = await Table.create(emulator_client, feed, ("Оля", "Петя"), first_id=700)
    await table.configure(match_limit="51")
    await table.gather()
    for seated in (3, 4):
        await table.command(table.players[0], "/addbot hard")
        await table.wait_seated(seated)
    assert not _workers(bot.pid)  # no worker before the first decision
    await table.start()
    log = await table.play(random.Random(31), timeout=30)
    assert log.ended
    assert 1 <= len(_workers(bot.pid)) <= 2  # they thought in processes of their own
    assert await table.unanswered_or_alerted(log.presses) == []  # each answer waited for
    # nothing may follow the match end in the group: a quiet spell is the only proof of that
    await emulator_client.wait_idle(quiet=0.3)
    # the match end is the group's last word: the chat is read once it came, so the last
    # round's closing table (its summary) must be in the chat before it, not after
    await table.feed.sync()
    to_group = [c for c in table.feed.calls if c["ok"] and c["chat_id"] == table.chat_id]
    assert to_group[-1]["seq"] == table.feed.match_end(table.chat_id, table.start_seq)["seq"]
    group, dms = await table.chats()
    (replay,) = [load_replay(bot.database, m) for m in match_ids(bot.database, table.chat_id)]
    bots = [a for a in replay.actions if a.decision.get("bot")]
    assert bots and all(a.decision["bot"] == "hard" and a.user_id < 0 for a in bots)
    assert {a.seat for a in bots} == {2, 3}
    assert replay.final.result.reason == "limit"
    counts = check_all([replay], group, dms)
    assert counts["keyboards"] == len(log.presses)
    assert bot.errors() == []
