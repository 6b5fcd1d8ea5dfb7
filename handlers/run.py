"""Running the bot: the app wired once (:func:`delivery.app.wire`), the dispatcher with every
router (:func:`build`), then long polling, a webhook, or a worker of a cluster (:func:`run`),
until a signal stops it gracefully.

:func:`run` is called by ``bot.py`` with the settings.  Long polling by default; a webhook
server when ``WEBHOOK_URL`` is set; a worker of a cluster when that webhook is over
PostgreSQL (docs/SCALE_OUT.md).  Every mode serves ``/healthz``, ``/readyz`` and ``/metrics``
(``handlers.intake``): a webhook on its own port, long polling on ``HEALTH_PORT``.

**The stop** (issue 33; docs/OPERATIONS.md): the first SIGTERM or SIGINT begins it and gives
it ``STOP_GRACE`` seconds -- readiness fails at once; no new update is taken (polling ends, a
webhook's port closes, so Telegram or the proxy delivers elsewhere or later); the updates in
hand are finished; the deadlines' sweeper and a worker's owner loop end; the outbox sends
what it holds while time is left (what is left is shown anew from the database by whoever
runs the chat next); a worker hands its chats back; the process exits with status 0.  A
second signal ends the process at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from aiogram import Bot, Dispatcher
from aiohttp import web

from delivery.app import App, clustered, wire
from delivery.lifecycle import Lifecycle
from delivery.settings import Settings
from delivery.telegram import make_bot, register_commands
from handlers import setup_routers
from handlers.intake import probe_routes, webhook_handler
from service.secrets import webhook_secret

__all__ = ["GC_THRESHOLDS", "Beside", "Stopper", "build", "mini_app", "run"]

#: What runs beside the bot while it polls, given the app: an async context manager entered
#: once the bot is ready and left when polling stops.  By default the Mini App's own server
#: (``WEBAPP_PORT``); the local table (``localtable``) passes its page, which serves the Mini
#: App itself.
Beside = Callable[[App], AbstractAsyncContextManager[Any]]

log = logging.getLogger(__name__)

#: Seconds of the grace kept for handing the chats back and closing, after the outbox.
_CLOSING = 1.0


async def build(settings: Settings, bot: Bot, *, cluster: bool = False,
                **options: Any) -> tuple[Dispatcher, App]:
    """The app (:func:`delivery.app.wire`, which takes ``options``: tests pass a fake clock
    to the outbox, an executor for computer players to the service) and a dispatcher with
    every router, the app as its ``app``."""
    app = await wire(settings, bot, cluster=cluster, **options)
    app.life.max_in_flight = settings.backlog_limit
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


class Stopper:
    """The signals that stop the bot: the first SIGTERM or SIGINT sets ``life.stopping`` and
    starts ``grace`` seconds; a second one ends the process at once (``os._exit`` with
    128 + the signal's number).  :meth:`left` says how much of the grace is left."""

    def __init__(self, life: Lifecycle, grace: float) -> None:
        self.life = life
        self.grace = grace
        self._loop = asyncio.get_running_loop()
        self._deadline: float | None = None

    def install(self) -> None:
        """Handle SIGTERM and SIGINT on the running loop."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._loop.add_signal_handler(sig, self.signalled, sig)

    def uninstall(self) -> None:
        """Give SIGTERM and SIGINT back to their default handling."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(Exception):
                self._loop.remove_signal_handler(sig)

    def signalled(self, sig: int) -> None:
        """A signal came: begin the stop, or end at once when it began already."""
        if self.life.stopping.is_set():
            log.warning("%s again: stopping at once", signal.Signals(sig).name)
            logging.shutdown()
            os._exit(128 + int(sig))
        log.info("%s: stopping within %.0f s", signal.Signals(sig).name, self.grace)
        self.begin()

    def begin(self) -> None:
        """Begin the stop now (a signal, or a loop the bot needs that ended)."""
        if self._deadline is None:
            self._deadline = self._loop.time() + self.grace
        self.life.stopping.set()

    def left(self, keep: float = 0.0) -> float:
        """Seconds of the grace left, less ``keep`` (never below 0)."""
        if self._deadline is None:
            return self.grace - keep
        return max(0.0, self._deadline - self._loop.time() - keep)


async def run(settings: Settings, *, beside: Beside | None = None) -> None:
    """Run the bot until a signal stops it (see the module doc); with ``beside`` running
    beside it (:data:`Beside`; long polling only)."""
    bot = make_bot(settings)
    dp, app = await build(settings, bot, cluster=clustered(settings))
    stopper = Stopper(app.life, settings.stop_grace)
    stopper.install()
    try:
        if app.cluster is not None:
            await _run_worker(settings, bot, dp, app, stopper)
        else:
            await _run_single(settings, bot, dp, app, stopper, beside)
    finally:
        stopper.uninstall()
    log.info("stopped")


async def _until_stop(app: App, stopper: Stopper, *needed: asyncio.Task) -> None:
    """Wait for the stop; a loop the bot needs that ends begins it too (logged)."""
    waiting = asyncio.create_task(app.life.stopping.wait())
    done, _ = await asyncio.wait({waiting, *needed}, return_when=asyncio.FIRST_COMPLETED)
    for task in needed:
        if task in done:
            log.error("a loop ended unexpectedly: stopping", exc_info=task.exception())
            stopper.begin()
    waiting.cancel()


async def _serve(routes: Any, host: str, port: int, *, pages: Any = None,
                 post: tuple[str, Any] | None = None) -> tuple[web.AppRunner, web.TCPSite]:
    """An aiohttp server at ``host:port``: ``routes``, ``pages`` (the Mini App, under
    ``/webapp/``) and ``post`` (a webhook: its path and handler)."""
    web_app = web.Application()
    web_app.add_routes(routes)
    if post is not None:
        web_app.router.add_post(*post)
    if pages is not None:
        web_app.add_subapp("/webapp/", pages)
    runner = web.AppRunner(web_app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    return runner, site


async def _run_single(settings: Settings, bot: Bot, dp: Dispatcher, app: App,
                      stopper: Stopper, beside: Beside | None = None) -> None:
    """The single process: long polling (with ``beside`` beside it), or a webhook."""
    loops_end = asyncio.Event()
    # the table pictures' process starts and draws its sprites and fonts while the bot starts
    warm = asyncio.create_task(app.publisher.pictures.warm())
    runners: list[web.AppRunner] = []
    intake: asyncio.Task | None = None
    try:
        await register_commands(bot, app.tr, settings.default_locale)
        await app.publisher.heal()
        deadlines = app.life.watch("deadlines", asyncio.create_task(
            app.service.deadlines.run(app.publish, stop=loops_end)))
        _collect_young()
        if settings.webhook_url:
            secret = await webhook_secret(app.service.db, _configured(settings))
            runner, site = await _serve(
                probe_routes(app), settings.webhook_host, settings.webhook_port,
                pages=mini_app(settings, app),
                post=(settings.webhook_path, webhook_handler(dp, bot, app, secret)))
            runners.append(runner)
            await bot.set_webhook(settings.webhook_url.rstrip("/") + settings.webhook_path,
                                  secret_token=secret,
                                  allowed_updates=dp.resolve_used_update_types())
            log.info("@%s is running (webhook)", app.bot_username)
            await _until_stop(app, stopper, deadlines)
            await site.stop()  # no new update: Telegram sends it again later
        else:
            if settings.health_port:
                runners.append((await _serve(probe_routes(app), settings.health_host,
                                             settings.health_port))[0])
            around = beside(app) if beside is not None else _pages_beside(settings, app)
            async with around:
                await bot.delete_webhook(drop_pending_updates=False)
                intake = app.life.watch("polling", asyncio.create_task(dp.start_polling(
                    bot, allowed_updates=dp.resolve_used_update_types(),
                    handle_signals=False, close_bot_session=False, source="polling")))
                log.info("@%s is running (long polling)", app.bot_username)
                await _until_stop(app, stopper, deadlines, intake)
                with contextlib.suppress(RuntimeError):  # polling had ended already
                    await dp.stop_polling()
                await asyncio.gather(intake, return_exceptions=True)
        await _finish(app, stopper, loops_end)
    finally:
        loops_end.set()
        if intake is not None and not intake.done():
            intake.cancel()
        await asyncio.gather(warm, return_exceptions=True)
        for runner in runners:
            await runner.cleanup()
        await app.close(timeout=0)
        await bot.session.close()


async def _finish(app: App, stopper: Stopper, loops_end: asyncio.Event,
                  *loops: asyncio.Task) -> None:
    """The stop, once no new update comes in: the loops told to end (no deadline fired, no
    update claimed from now on), the updates in hand finished, the outbox sent while the
    grace lasts (:meth:`App.close`)."""
    loops_end.set()
    if not await app.life.settled(stopper.left(keep=2 * _CLOSING)):
        log.warning("stopping with %d updates unfinished", app.life.in_flight)
    if loops:
        await asyncio.wait(loops, timeout=stopper.left(keep=2 * _CLOSING))
    await app.close(timeout=stopper.left(keep=_CLOSING))


def _configured(settings: Settings) -> str | None:
    """``WEBHOOK_SECRET`` when set."""
    return settings.webhook_secret.get_secret_value() if settings.webhook_secret else None


def mini_app(settings: Settings, app: App) -> Any:
    """The Mini App's aiohttp application (``handlers.webapp``), or None without one."""
    if app.pages is None:
        return None
    from handlers.webapp import create_webapp

    return create_webapp(app, app.pages, settings.bot_token.get_secret_value(),
                         max_age_s=settings.webapp_max_age)


async def _run_pages(settings: Settings, app: App) -> web.AppRunner | None:
    """In polling mode, the Mini App on a runner of its own at ``WEBAPP_HOST:WEBAPP_PORT``
    under ``/webapp/`` (the runner, to clean up; None without a Mini App)."""
    pages = mini_app(settings, app)
    if pages is None:
        return None
    runner, _ = await _serve([], settings.webapp_host, settings.webapp_port, pages=pages)
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


async def _run_worker(settings: Settings, bot: Bot, dp: Dispatcher, app: App,
                      stopper: Stopper) -> None:
    """A worker of a cluster (``service.cluster``): the webhook stores updates in the inbox;
    the chats this worker owns are processed from it, their deadlines fired here; a chat
    taken from another worker is shown as it is first."""
    from handlers.cluster import feeder, inbox_handler

    cluster = app.cluster
    loops_end = asyncio.Event()
    secret = await webhook_secret(app.service.db, _configured(settings))
    await cluster.start()
    # a chat taken from a dead worker may be a computer player's turn: its pool must be up
    warm = asyncio.gather(app.publisher.pictures.warm(), app.service.thinkers.warm())
    runner: web.AppRunner | None = None
    try:
        runner, site = await _serve(
            probe_routes(app), settings.webhook_host, settings.webhook_port,
            pages=mini_app(settings, app),
            post=(settings.webhook_path, inbox_handler(app, secret)))
        await bot.set_webhook(settings.webhook_url.rstrip("/") + settings.webhook_path,
                              secret_token=secret,
                              allowed_updates=dp.resolve_used_update_types())
        await register_commands(bot, app.tr, settings.default_locale)
        deadlines = app.life.watch("deadlines", asyncio.create_task(
            app.service.deadlines.run(app.publish, stop=loops_end)))
        owner = app.life.watch("owner", asyncio.create_task(
            cluster.run(feeder(dp, bot), app.taken, stop=loops_end)),
            alive=lambda: cluster.heartbeat_age() <= cluster.lease)
        _collect_young()
        log.info("@%s is running (worker %s of a cluster)", app.bot_username,
                 cluster.worker_id)
        await _until_stop(app, stopper, deadlines, owner)
        await site.stop()  # no new update: the proxy sends it to another worker
        await _finish(app, stopper, loops_end, deadlines, owner)
    finally:
        loops_end.set()
        if runner is not None:
            await runner.cleanup()
        await asyncio.gather(warm, return_exceptions=True)
        await app.close(timeout=0)
        await bot.session.close()
