"""Running the bot: the app wired once (:func:`delivery.app.wire`), the dispatcher with every
router (:func:`build`), then long polling, a webhook, or a worker of a cluster (:func:`run`).

:func:`run` is called by ``bot.py`` with the settings.  Long polling by default; a webhook
server when ``WEBHOOK_URL`` is set; a worker of a cluster when that webhook is over
PostgreSQL (docs/SCALE_OUT.md).
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from aiogram import Bot, Dispatcher

from delivery.app import App, clustered, wire
from delivery.settings import Settings
from delivery.telegram import make_bot, register_commands
from handlers import setup_routers

__all__ = ["GC_THRESHOLDS", "Beside", "build", "mini_app", "run"]

#: What runs beside the bot while it polls, given the app: an async context manager entered
#: once the bot is ready and left when polling stops.  By default the Mini App's own server
#: (``WEBAPP_PORT``); the local table (``localtable``) passes its page, which serves the Mini
#: App itself.
Beside = Callable[[App], AbstractAsyncContextManager[Any]]

log = logging.getLogger(__name__)


async def build(settings: Settings, bot: Bot, *, cluster: bool = False,
                **options: Any) -> tuple[Dispatcher, App]:
    """The app (:func:`delivery.app.wire`, which takes ``options``: tests pass a fake clock
    to the outbox, an executor for computer players to the service) and a dispatcher with
    every router, the app as its ``app``."""
    app = await wire(settings, bot, cluster=cluster, **options)
    dp = Dispatcher()
    dp["app"] = app
    setup_routers(dp)
    return dp, app


#: The garbage collector's thresholds while the bot runs.  With CPython's defaults (700, 10,
#: 10) the states of matches waiting for a player's move live long enough to be promoted to
#: the oldest generation, where they die by reference counting but still trigger full
#: collections: with 1,000 matches open those took 170–330 ms each and set the tail latency
#: (bench/e2e_load.py, 1,000 matches, think 20 s: p99 81–116 ms).  A larger young generation
#: lets them die young and makes full collections rare: 43 young collections of about 30 ms
#: in the same run, none older, p99 65 ms.  Reference cycles still go in young collections.
GC_THRESHOLDS = (20_000, 50, 100)


def _collect_young() -> None:
    """aiogram's models make a large heap that never dies; keeping it out of the garbage
    collector's sight makes every full collection cheap (bench/e2e_load.py: +15% moves/s)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def run(settings: Settings, *, beside: Beside | None = None) -> None:
    """Run the bot until cancelled: migrate, re-render open matches, fire deadlines, poll
    (with ``beside`` running beside it: :data:`Beside`; polling only)."""
    bot = make_bot(settings)
    dp, app = await build(settings, bot, cluster=clustered(settings))
    if app.cluster is not None:
        return await _run_worker(settings, bot, dp, app)
    stop = asyncio.Event()
    # the table pictures' process starts and draws its sprites and fonts while the bot starts
    warm = asyncio.create_task(app.publisher.pictures.warm())
    tasks: list[asyncio.Task] = []
    try:
        await register_commands(bot, app.tr, settings.default_locale)
        await app.publisher.heal()
        tasks.append(asyncio.create_task(app.service.deadlines.run(app.publish, stop=stop)))
        _collect_young()
        log.info("@%s is running (%s)", app.bot_username,
                 "webhook" if settings.webhook_url else "long polling")
        if settings.webhook_url:
            await _run_webhook(settings, bot, dp, app)
        else:
            around = beside(app) if beside is not None else _pages_beside(settings, app)
            async with around:
                await bot.delete_webhook(drop_pending_updates=False)
                await dp.start_polling(bot, allowed_updates=dp.resolve_used_update_types(),
                                       handle_signals=True)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(warm, return_exceptions=True)
        await app.close()
        await bot.session.close()


def mini_app(settings: Settings, app: App) -> Any:
    """The Mini App's aiohttp application (``handlers.webapp``), or None without one."""
    if app.pages is None:
        return None
    from handlers.webapp import create_webapp

    return create_webapp(app, app.pages, settings.bot_token.get_secret_value(),
                         max_age_s=settings.webapp_max_age)


async def _run_pages(settings: Settings, app: App) -> Any:
    """In polling mode, the Mini App on a runner of its own at ``WEBAPP_HOST:WEBAPP_PORT``
    under ``/webapp/`` (the runner, to clean up; None without a Mini App)."""
    pages = mini_app(settings, app)
    if pages is None:
        return None
    from aiohttp import web

    root = web.Application()
    root.add_subapp("/webapp/", pages)
    runner = web.AppRunner(root, shutdown_timeout=1.0)
    await runner.setup()
    await web.TCPSite(runner, settings.webapp_host, settings.webapp_port).start()
    log.info("the Mini App listens on %s:%s/webapp/", settings.webapp_host,
             settings.webapp_port)
    return runner


@asynccontextmanager
async def _pages_beside(settings: Settings, app: App) -> AsyncIterator[None]:
    """The default :data:`Beside`: the Mini App's own server while the bot polls."""
    runner = await _run_pages(settings, app)
    try:
        yield
    finally:
        if runner is not None:
            await runner.cleanup()


async def _run_webhook(settings: Settings, bot: Bot, dp: Dispatcher, app: App) -> None:
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
    from aiohttp import web

    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    await bot.set_webhook(settings.webhook_url.rstrip("/") + settings.webhook_path,
                          secret_token=secret,
                          allowed_updates=dp.resolve_used_update_types())
    web_app = web.Application()
    SimpleRequestHandler(dispatcher=dp, bot=bot, secret_token=secret).register(
        web_app, path=settings.webhook_path)
    setup_application(web_app, dp, bot=bot)
    pages = mini_app(settings, app)
    if pages is not None:  # the Mini App beside the webhook, behind the same proxy
        web_app.add_subapp("/webapp/", pages)
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
    await site.start()
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


async def _run_worker(settings: Settings, bot: Bot, dp: Dispatcher, app: App) -> None:
    """A worker of a cluster (``service.cluster``): the webhook stores updates in the inbox;
    the chats this worker owns are processed from it, their deadlines fired here; a chat
    taken from another worker is shown as it is first."""
    from aiohttp import web

    from handlers.cluster import feeder, inbox_handler

    cluster = app.cluster
    stop = asyncio.Event()
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    await cluster.start()

    web_app = web.Application()
    web_app.router.add_post(settings.webhook_path, inbox_handler(cluster, secret))
    pages = mini_app(settings, app)
    if pages is not None:  # its moves go through the inbox to the chat's owner
        web_app.add_subapp("/webapp/", pages)
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
    # a chat taken from a dead worker may be a computer player's turn: its pool must be up
    warm = asyncio.gather(app.publisher.pictures.warm(), app.service.thinkers.warm())
    tasks: list[asyncio.Task] = []
    try:
        await site.start()
        await bot.set_webhook(settings.webhook_url.rstrip("/") + settings.webhook_path,
                              secret_token=secret,
                              allowed_updates=dp.resolve_used_update_types())
        await register_commands(bot, app.tr, settings.default_locale)
        tasks.append(asyncio.create_task(app.service.deadlines.run(app.publish, stop=stop)))
        tasks.append(asyncio.create_task(cluster.run(feeder(dp, bot), app.taken, stop=stop)))
        _collect_young()
        log.info("@%s is running (worker %s of a cluster)", app.bot_username,
                 cluster.worker_id)
        await asyncio.Event().wait()
    finally:
        stop.set()
        await runner.cleanup()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(warm, return_exceptions=True)
        await app.close()
        await bot.session.close()
