"""Webhook delivery of the emulator: pending updates POSTed to the bot as Telegram does.

Once the bot has called ``setWebhook``, :class:`WebhookDelivery` sends every pending update
(of the types in ``allowed_updates``) as a JSON POST with the ``secret_token`` in
``X-Telegram-Bot-Api-Secret-Token``.  Like Telegram: a chat's next update goes only after
the previous one was answered with a 2xx; updates of other chats go in parallel (at most
``max_connections``, default 40); an update answered otherwise, or not answered within
``webhook_timeout`` seconds, or whose connection fails, is sent again after
``webhook_retry`` seconds.

``EmulatorConfig.webhook_targets`` stands for a load balancer in front of several workers:
when set, each attempt goes to the next of those URLs (round robin; a failed attempt's retry
to the next one; a target that failed is passed over for ``webhook_fail_duration`` seconds
while others remain, as a proxy's passive health check does) instead of the URL the bot set
(which must be HTTPS, so a test's plain HTTP workers sit behind it as behind a
TLS-terminating proxy).  Each delivered update's event gets ``delivered_t``, and
``World.webhook_log`` keeps ``(update_id, target, status, t)`` of every attempt (status 0
when the connection failed or timed out).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools

import aiohttp

from .updates import kind_of
from .world import World

__all__ = ["WebhookDelivery", "update_chat"]


def update_chat(update: dict) -> int:
    """The chat an update belongs to (its sender's id when it has no chat; 0 when neither)."""
    for key, body in update.items():
        if key == "update_id" or not isinstance(body, dict):
            continue
        chat = body.get("chat") or (body.get("message") or {}).get("chat")
        if chat and "id" in chat:
            return int(chat["id"])
        sender = body.get("from") or body.get("user")
        if sender and "id" in sender:
            return int(sender["id"])
    return 0


class WebhookDelivery:
    """The delivery loop over ``world`` (started and stopped by the emulator's server)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._busy: set[int] = set()
        self._tasks: set[asyncio.Task] = set()
        self._rr = itertools.count()
        self._session: aiohttp.ClientSession | None = None
        #: target -> clock until which it is passed over after a failed attempt
        self._failed: dict[str, float] = {}

    async def run(self) -> None:
        """Deliver until cancelled."""
        self._session = aiohttp.ClientSession()
        try:
            while True:
                version = self.world.version
                self._dispatch()
                await self.world.wait_change(version, 0.25)
        finally:
            for t in list(self._tasks):
                t.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            await self._session.close()

    def _targets(self) -> list[str]:
        if not self.world.webhook_url:
            return []
        return list(self.world.config.webhook_targets) or [self.world.webhook_url]

    def _dispatch(self) -> None:
        if not self._targets() or self.world.closing:
            return
        limit = max(1, int(self.world.webhook_max_connections or 40))
        for update in list(self.world.updates):
            if len(self._busy) >= limit:
                return
            if kind_of(update) not in self.world.allowed_updates:
                self.world.updates.remove(update)
                continue
            chat = update_chat(update)
            if chat in self._busy:
                continue  # its previous update is not answered yet
            self._busy.add(chat)
            task = asyncio.create_task(self._deliver(chat, update))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _deliver(self, chat: int, update: dict) -> None:
        world = self.world
        headers = {}
        if world.webhook_secret:
            headers["X-Telegram-Bot-Api-Secret-Token"] = world.webhook_secret
        try:
            while not world.closing:
                targets = self._targets()
                if not targets:
                    return
                now = world.clock()
                healthy = [t for t in targets if self._failed.get(t, 0.0) <= now] or targets
                target = healthy[next(self._rr) % len(healthy)]
                status = 0
                with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError, OSError):
                    async with self._session.post(
                            target, json=update, headers=headers,
                            timeout=aiohttp.ClientTimeout(total=world.config.webhook_timeout)
                    ) as resp:
                        status = resp.status
                        await resp.read()
                world.webhook_log.append((update["update_id"], target, status, world.clock()))
                if not 200 <= status < 300:
                    self._failed[target] = world.clock() + world.config.webhook_fail_duration
                if 200 <= status < 300:
                    if update in world.updates:
                        world.updates.remove(update)
                    world._mark_delivered(update["update_id"], world.clock())
                    return
                await asyncio.sleep(world.config.webhook_retry)
        finally:
            self._busy.discard(chat)
            world.changed()
