"""Pytest fixtures that run the real bot against the emulator.  Load them with the emulator's::

    pytest_plugins = ("tests.emulator.fixtures", "tests.e2e.fixtures")

``bot`` is a running :class:`~tests.e2e.botproc.BotProcess` (``python bot.py``) polling the
``emulator`` fixture, with a fresh database in the test's temporary directory; it is killed at
teardown.  Its settings come from ``bot_settings`` (default: the outbox's rate limits off, for
an emulator without flood control — pair it with ``emulator_settings`` ``{"flood": False}``);
override that fixture like ``emulator_settings``.  The bots are forked from the fork server
(:mod:`tests.e2e.forkserver`: the same ``bot.py``, seconds faster to start); a module whose
``bot_fork`` fixture returns False gets fresh ``python bot.py`` interpreters instead.
``feed`` follows the emulator's call log
(:class:`~tests.e2e.players.CallFeed`).  :func:`running_bot` is the same as an async context
manager.  ``shared_bot`` is one emulator (no flood control) and one bot (relaxed rates) for a
whole module; its tests must run on the module's event loop
(``pytestmark = pytest.mark.asyncio(loop_scope="module")``) and use groups and user ids of
their own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e import forkserver
from tests.e2e.botproc import FAST_RATES, BotProcess
from tests.e2e.players import CallFeed
from tests.emulator import Emulator, EmulatorClient, FloodLimits

# the fork server imports the bot's modules while the session collects and runs other tests
forkserver.server()

__all__ = ["Shared", "bot", "bot_fork", "bot_settings", "feed", "running_bot", "shared_bot"]


@dataclass
class Shared:
    """What ``shared_bot`` gives: the emulator, a client of it and the bot process."""

    emulator: Emulator
    client: EmulatorClient
    bot: BotProcess

    async def feed(self) -> CallFeed:
        """A :class:`CallFeed` that starts after every call made so far."""
        return CallFeed(self.client, since=(await self.client.state())["last_call_seq"])


@asynccontextmanager
async def running_bot(emulator: Any, directory: Path, settings: Mapping[str, Any], *,
                      fork: bool = True) -> AsyncIterator[BotProcess]:
    """``python bot.py`` polling ``emulator`` with its database and log in ``directory``
    (forked from the fork server unless ``fork`` is False); killed on exit, its output
    printed (pytest shows it for a failed test)."""
    proc = BotProcess(api_url=emulator.url, token=emulator.token,
                      database=directory / "kozel.sqlite3", log_path=directory / "bot.log",
                      settings=settings, emulator=emulator, fork=fork)
    await proc.start()
    try:
        yield proc
    finally:
        proc.kill()
        print(f"--- bot output ({proc.log_path}) ---\n{proc.log_tail()}")


@pytest.fixture
def bot_settings() -> dict:
    """Environment settings for the ``bot`` fixture (override to change them)."""
    return dict(FAST_RATES)


@pytest.fixture
def bot_fork() -> bool:
    """Whether the ``bot`` fixture forks its process from the fork server (override with
    False for a fresh ``python bot.py`` interpreter)."""
    return True


@pytest.fixture
async def bot(emulator, bot_settings: dict, bot_fork: bool, tmp_path
              ) -> AsyncIterator[BotProcess]:
    """``python bot.py`` polling the emulator, database in ``tmp_path``; killed afterwards.
    Its output is in ``tmp_path / "bot.log"`` (printed when the test fails)."""
    async with running_bot(emulator, tmp_path, bot_settings, fork=bot_fork) as proc:
        yield proc


@pytest.fixture
async def feed(emulator_client) -> CallFeed:
    """A :class:`CallFeed` over the emulator's call log."""
    return CallFeed(emulator_client)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_bot(tmp_path_factory) -> AsyncIterator[Shared]:
    """One emulator without flood control and one bot with relaxed rates for a module."""
    emu = Emulator(flood=FloodLimits(enabled=False))
    await emu.start()
    client = emu.client()
    try:
        async with running_bot(emu, tmp_path_factory.mktemp("bot"), FAST_RATES) as proc:
            yield Shared(emu, client, proc)
    finally:
        await client.close()
        await emu.stop()
