"""The emulator delivers webhooks as Telegram does (tests/emulator/webhook.py): a chat's next
update only after a 2xx for the previous one, other chats in parallel, a failed or unanswered
POST sent again (to the next target behind the "load balancer"), the secret token in its
header."""

from __future__ import annotations

import asyncio
import time

from aiohttp import web

from tests.emulator import Emulator


async def _receiver(answers):
    """An HTTP server whose handler answers each POST with ``answers(update)``'s status
    (a coroutine may sleep first).  Returns (url, got, runner)."""
    got: list[tuple[float, dict, str]] = []

    async def handle(request: web.Request) -> web.Response:
        update = await request.json()
        got.append((time.monotonic(), update,
                    request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")))
        return web.Response(status=await answers(update))

    app = web.Application()
    app.router.add_post("/hook", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    return f"http://127.0.0.1:{port}/hook", got, runner


async def _wait(pred, timeout=10.0):
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end
        await asyncio.sleep(0.02)


async def test_a_chats_next_update_waits_for_a_2xx_and_failures_are_retried():
    failed: set[int] = set()

    async def answers(update):
        uid = update["update_id"]
        if uid % 2 == 1 and uid not in failed:  # every odd update fails once
            failed.add(uid)
            return 500
        await asyncio.sleep(0.05)
        return 200

    url, got, runner = await _receiver(answers)
    async with Emulator() as emu:
        emu.world.configure(webhook_targets=[url], webhook_retry=0.05)
        w = emu.world
        w.create_user(11, "Оля")
        w.create_user(12, "Петя")
        for k in range(3):
            w.user_send(11, f"/start {k}")
            w.user_send(12, f"/start {k}")
        api = emu.api
        assert await api.call("setWebhook", {"url": "https://bot.test/hook",
                                             "secret_token": "s3"}) is not None
        await _wait(lambda: not w.updates)
        await runner.cleanup()
    # every update delivered; the failed ones twice; all with the secret
    ids = [u["update_id"] for _, u, _ in got]
    assert sorted(set(ids)) == list(range(1, 7))
    assert sorted(ids) == sorted([*range(1, 7), 1, 3, 5])
    assert {s for _, _, s in got} == {"s3"}
    # per chat: in order, each only after the previous one's 2xx (no overlap)
    for chat in (11, 12):
        mine = [(t, u["update_id"]) for t, u, _ in got if u["message"]["chat"]["id"] == chat]
        order = [uid for _, uid in mine]
        assert order == sorted(order)
        done = {uid: t for uid, _, status, t in w.webhook_log if status == 200}
        firsts = {}
        for t, uid in mine:
            firsts.setdefault(uid, t)
        uids = sorted(firsts)
        assert all(firsts[b] >= done[a] for a, b in zip(uids, uids[1:], strict=False))
    statuses = [s for _, _, s, _ in w.webhook_log]
    assert statuses.count(500) == 3 and statuses.count(200) == 6


async def test_an_unanswered_post_goes_to_the_next_target():
    async def hang(update):
        await asyncio.sleep(30)
        return 200

    async def ok(update):
        return 200

    url_a, got_a, run_a = await _receiver(hang)
    url_b, got_b, run_b = await _receiver(ok)
    async with Emulator() as emu:
        emu.world.configure(webhook_targets=[url_a, url_b], webhook_timeout=0.3,
                            webhook_retry=0.0)
        emu.world.create_user(11, "Оля")
        emu.world.user_send(11, "/start")
        await emu.api.call("setWebhook", {"url": "https://bot.test/hook"})
        await _wait(lambda: not emu.world.updates)
    assert len(got_a) == 1 and len(got_b) == 1
    assert [s for _, _, s, _ in emu.world.webhook_log] == [0, 200]
    await run_b.cleanup()
    await run_a.shutdown()
