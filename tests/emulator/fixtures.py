"""Pytest fixtures for the emulator.  Load them in a test module with::

    pytest_plugins = ("tests.emulator.fixtures",)

``emulator`` is a running :class:`~tests.emulator.Emulator` on 127.0.0.1 and a free port,
fresh for each test; ``emulator_client`` an :class:`~tests.emulator.EmulatorClient` for it;
``emulator_bot`` an aiogram ``Bot`` talking to it.

Settings come from the ``emulator_settings`` fixture (default: none, i.e. Telegram's rules
with flood control on).  Override it in a module (``@pytest.fixture def emulator_settings():
return {"flood": False}``) or per test (``@pytest.mark.parametrize("emulator_settings",
[{"flood": False}])``).  Keys: the keyword arguments of ``Emulator`` (``token``,
``bot_username``, ``clock``, ``wall``…) and of ``World.configure`` (``flood`` as a bool or a
dict of ``FloodLimits`` fields, ``privacy_mode``, ``callback_ttl``, ``latency``…).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot

from .client import EmulatorClient
from .server import Emulator, close_bot

__all__ = ["emulator", "emulator_bot", "emulator_client", "emulator_settings"]

_EMULATOR_ARGS = ("token", "host", "bot_name", "bot_username", "clock", "wall")


@pytest.fixture
def emulator_settings() -> dict:
    """Settings for the ``emulator`` fixture (override to change them)."""
    return {}


@pytest.fixture
async def emulator(emulator_settings: dict) -> AsyncIterator[Emulator]:
    """A running emulator on 127.0.0.1 (free port), configured by ``emulator_settings``."""
    settings = dict(emulator_settings)
    emu = Emulator(**{k: v for k, v in settings.items() if k in _EMULATOR_ARGS})
    changes = {k: v for k, v in settings.items() if k not in _EMULATOR_ARGS}
    if changes:
        emu.world.configure(**changes)
    await emu.start()
    try:
        yield emu
    finally:
        await emu.stop()


@pytest.fixture
async def emulator_client(emulator: Emulator) -> AsyncIterator[EmulatorClient]:
    """An :class:`EmulatorClient` for the ``emulator`` fixture."""
    client = emulator.client()
    try:
        yield client
    finally:
        await client.close()


@pytest.fixture
async def emulator_bot(emulator: Emulator) -> AsyncIterator[Bot]:
    """An aiogram ``Bot`` whose session talks to the ``emulator`` fixture."""
    bot = emulator.make_bot()
    try:
        yield bot
    finally:
        await close_bot(bot)
