"""The bot process harness: a restart is waited for until the new process itself polls.

A ``getUpdates`` that a process sent just before its SIGKILL may be taken up by the
in-process emulator only after the process is gone; counted as the new process's poll, it
let ``BotProcess.restart`` return while no bot was running, and a test then pressed a
keyboard that the dead process had already moved past (issue 20 item 15: the restart test's
press "answered as outdated").  Each start talks to the emulator under a client name of its
own, and only that name's polls count.
"""

from __future__ import annotations

import subprocess
import sys

import aiohttp
import pytest

from tests.e2e.botproc import BotProcess

pytest_plugins = ("tests.emulator.fixtures",)


@pytest.fixture
def emulator_settings():
    return {"flood": False}


async def _poll(emulator, client: str | None) -> dict:
    """One ``getUpdates`` (no waiting) through ``client``'s base URL (None: the plain one)."""
    base = emulator.url if client is None else emulator.client_url(client)
    async with aiohttp.ClientSession() as http, http.post(
            f"{base}/bot{emulator.token}/getUpdates", json={"timeout": 0}) as response:
        return await response.json()


async def test_calls_are_logged_and_polls_counted_per_client(emulator, emulator_client):
    assert (await _poll(emulator, "start2"))["ok"]
    assert (await _poll(emulator, "start2"))["ok"]
    assert (await _poll(emulator, None))["ok"]
    assert emulator.world.polls_by == {"start2": 2, None: 1}
    async with aiohttp.ClientSession() as http, http.post(
            f"{emulator.client_url('start2')}/bot{emulator.token}/getMe") as response:
        assert (await response.json())["result"]["is_bot"]
    (call,) = await emulator_client.calls(method="getMe")
    assert call["client"] == "start2"
    with pytest.raises(ValueError):
        emulator.client_url("control")


async def test_a_poll_of_the_killed_process_does_not_count_as_the_new_ones(emulator,
                                                                          tmp_path):
    """The second start waits for a poll of its own: the first start's late poll (served
    after its SIGKILL) leaves it waiting, the new process's poll ends the wait."""
    proc = BotProcess(api_url=emulator.url, token=emulator.token,
                      database=tmp_path / "db.sqlite3", log_path=tmp_path / "bot.log",
                      emulator=emulator)
    proc.starts = 2  # the second start; a stand-in process that never calls anything
    proc.proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert proc.client == "start2"
        assert proc.env()["BOT_API_URL"] == emulator.client_url("start2")
        after = proc._polls()
        await _poll(emulator, "start1")  # the killed process's request, served late
        with pytest.raises(TimeoutError):
            await proc.wait_polling(after=after, timeout=0.3)
        await _poll(emulator, "start2")  # the new process polls
        await proc.wait_polling(after=after, timeout=5)
    finally:
        proc.proc.kill()
        proc.proc.wait(10)
