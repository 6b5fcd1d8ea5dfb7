"""Pytest fixtures that run the real bot against the emulator.  Load them with the emulator's::

    pytest_plugins = ("tests.emulator.fixtures", "tests.e2e.fixtures")

``bot`` is a running :class:`~tests.e2e.botproc.BotProcess` (``python bot.py``) polling the
``emulator`` fixture, with a fresh database in the test's temporary directory; it is killed at
teardown.  Its settings come from ``bot_settings`` (default: the outbox's rate limits off, for
an emulator without flood control — pair it with ``emulator_settings`` ``{"flood": False}``);
override that fixture like ``emulator_settings``.  ``feed`` follows the emulator's call log
(:class:`~tests.e2e.players.CallFeed`).  :func:`running_bot` is the same as an async context
manager, for fixtures of a wider scope that share one bot between tests.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.botproc import FAST_RATES, BotProcess
from tests.e2e.players import CallFeed

__all__ = ["bot", "bot_settings", "feed", "running_bot"]


@asynccontextmanager
async def running_bot(emulator: Any, directory: Path, settings: Mapping[str, Any]
                      ) -> AsyncIterator[BotProcess]:
    """``python bot.py`` polling ``emulator`` with its database and log in ``directory``;
    killed on exit, its output printed (pytest shows it for a failed test)."""
    proc = BotProcess(api_url=emulator.url, token=emulator.token,
                      database=directory / "kozel.sqlite3", log_path=directory / "bot.log",
                      settings=settings, emulator=emulator)
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
async def bot(emulator, bot_settings: dict, tmp_path) -> AsyncIterator[BotProcess]:
    """``python bot.py`` polling the emulator, database in ``tmp_path``; killed afterwards.
    Its output is in ``tmp_path / "bot.log"`` (printed when the test fails)."""
    async with running_bot(emulator, tmp_path, bot_settings) as proc:
        yield proc


@pytest.fixture
async def feed(emulator_client) -> CallFeed:
    """A :class:`CallFeed` over the emulator's call log."""
    return CallFeed(emulator_client)
