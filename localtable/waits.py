"""Waiting for a change of the local Telegram, never for a while: a condition is looked at,
then again after each change of the world (the bot's every call changes it), until it holds or
the time is up."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from localtable.telegram.world import World

__all__ = ["until"]


async def until(world: World, condition: Callable[[], bool | Awaitable[bool]],
                timeout: float) -> bool:
    """Whether ``condition()`` (plain or awaitable) held within ``timeout`` seconds, looked at
    now and after each change of ``world``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        seen = world.version  # before looking: a change while looking wakes the wait at once
        held = condition()
        if not isinstance(held, bool):
            held = await held
        if held:
            return True
        left = deadline - loop.time()
        if left <= 0 or world.closing:
            return False
        await world.wait_change(seen, left)
