"""Wiring: database → service → Bot + Dispatcher → outbox, publisher, deadlines → run.

:func:`run` is called by ``bot.py`` with the settings.  Long polling by default; a webhook
server when ``WEBHOOK_URL`` is set.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.methods.base import Response
from aiogram.types import BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from handlers import setup_routers
from handlers.common import App
from service import once
from service.game import GameService
from ui.commands import bot_commands
from ui.i18n import SUPPORTED_LOCALES, get_translator
from ui.outbox import Outbox, RetryAfterMiddleware
from ui.publish import Publisher
from ui.webapp_hub import Pages

log = logging.getLogger(__name__)


#: ``Response[T]`` of every method the bot has called, kept alive (see below).
_RESPONSE_TYPES: dict[type, type] = {}


async def pin_response_types(make_request: Any, bot: Bot, method: Any) -> Any:
    """A request middleware that keeps ``Response[<method's result type>]`` alive.

    aiogram parses every answer with the pydantic model ``Response[method.__returning__]``.
    pydantic caches such parametrized models only weakly, so the garbage collector drops one
    soon after each request and the next request builds the model class anew: a third of
    the main thread's time in a profile under load, +20% moves/s without it
    (bench/e2e_load.py).  One strong reference per method class keeps the cached model."""
    cls = type(method)
    if cls not in _RESPONSE_TYPES:
        _RESPONSE_TYPES[cls] = Response[method.__returning__]
    return await make_request(bot, method)


def make_bot(settings: Any) -> Bot:
    """The aiogram Bot, talking to ``BOT_API_URL`` when it is set (a local Bot API server);
    its session waits out flood control (:class:`ui.outbox.RetryAfterMiddleware`) and keeps
    the response models it needs (:func:`pin_response_types`)."""
    session = None
    if settings.bot_api_url:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.bot_api_url))
    bot = Bot(settings.bot_token.get_secret_value(), session=session,
              default=DefaultBotProperties(parse_mode=ParseMode.HTML))
    # handlers' direct replies wait out flood control; the outbox waits for its own requests
    bot.session.middleware(RetryAfterMiddleware())
    bot.session.middleware(pin_response_types)
    return bot


async def register_commands(bot: Bot, tr: Any, default_locale: str) -> None:
    """``set_my_commands`` for each language and for group and private scopes (issue 4)."""
    for scope_name, scope in (("group", BotCommandScopeAllGroupChats()),
                              ("private", BotCommandScopeAllPrivateChats())):
        await bot.set_my_commands(bot_commands(default_locale, scope_name, tr=tr), scope=scope)
        for code in SUPPORTED_LOCALES:
            await bot.set_my_commands(bot_commands(code, scope_name, tr=tr), scope=scope,
                                      language_code=code)


def clustered(settings: Any) -> bool:
    """True when this process is a worker of a cluster: a webhook over PostgreSQL
    (``service.cluster``; docs/SCALE_OUT.md).  Long polling, and SQLite, run alone."""
    return bool(settings.webhook_url) and str(settings.database).startswith("postgres")


async def build(settings: Any, bot: Bot, *, service_overrides: dict[str, Any] | None = None,
                cluster: bool = False,
                **outbox_options: Any) -> tuple[Dispatcher, App, Outbox]:
    """Service, outbox, publisher and dispatcher for ``bot`` (also used by tests, which pass
    ``outbox_options`` such as a fake clock to :class:`ui.outbox.Outbox`, and
    ``service_overrides`` such as an executor for computer players to
    :class:`service.game.GameService`).  The outbox starts with the group sends of the last
    minute before the restart (:meth:`ui.outbox.Outbox.restore`)."""
    service_options = {"lobby_ttl": settings.lobby_ttl,
                       "bot_move_delay": settings.bot_move_delay,
                       "hard_samples": settings.bot_hard_samples,
                       "bot_workers": settings.bot_workers,
                       "chat_options": {"table": settings.table_view}}
    service_options.update(service_overrides or {})
    database = settings.database
    worker_id = None
    if cluster:
        from service.cluster import new_worker_id, worker_url

        worker_id = getattr(settings, "worker_id", None) or new_worker_id()
        database = worker_url(str(database), worker_id)
    service = await GameService.open(database, **service_options)
    tr = get_translator(settings.default_locale)
    me = await bot.me()
    app_ref: dict[str, App] = {}

    async def on_forbidden(chat_id: int, _error: Exception) -> None:
        if chat_id > 0:
            await service.people.set_dm_open(chat_id, False)
            app_ref["app"].publisher.forbidden.add(chat_id)

    limits = {"chat_interval": settings.rate_chat_interval,
              "private_burst": settings.rate_private_burst,
              "group_per_minute": settings.rate_group_per_minute,
              "global_per_second": settings.rate_global_per_second,
              "send_log": service.sends}
    member = None
    if cluster:
        from service.cluster import Cluster

        member = Cluster(service.db, lease=settings.worker_lease, worker_id=worker_id)
        service.deadlines.due = member.due
        limits["shared"] = member.limiter(
            private_burst=settings.rate_private_burst, chat_interval=settings.rate_chat_interval,
            global_per_second=settings.rate_global_per_second)
        limits["gate"] = member.check
    # a message answering an update a worker of a cluster processes marks that update done
    # before it is sent (service.once.sending; outside a cluster there is no such update)
    limits["claim"] = once.sending
    outbox = Outbox(bot, on_forbidden=on_forbidden, **{**limits, **outbox_options})
    if member is None:
        await outbox.restore()  # a worker of a cluster restores a chat when it takes it
    app = App(service=service, publisher=None, tr=tr, bot_username=me.username or "bot",
              default_locale=settings.default_locale, turn_timeout=settings.turn_timeout,
              rules_url=settings.rules_url)
    app.publisher = Publisher(service, outbox, tr, bot_username=app.bot_username,
                              default_locale=settings.default_locale,
                              user_locale=app.telegram_lang.get,
                              picture_workers=settings.picture_workers,
                              webapp_url=getattr(settings, "webapp_url", None),
                              webapp_short_name=getattr(settings, "webapp_short_name", None))
    if app.publisher.webapp_url:
        app.pages = Pages(tr)
        app.publisher.listeners.append(app.pages.push)
    app.cluster = member
    app_ref["app"] = app
    dp = Dispatcher()
    dp["app"] = app
    setup_routers(dp)
    return dp, app, outbox


#: The garbage collector's thresholds while the bot runs.  With CPython's defaults (700, 10,
#: 10) the states of matches waiting for a player's move live long enough to be promoted to
#: the oldest generation, where they die by reference counting but still trigger full
#: collections: with 1,000 matches open those took 170–330 ms each and set the tail latency
#: (bench/e2e_load.py, 1,000 matches, think 20 s: p99 81–116 ms).  A larger young generation
#: lets them die young and makes full collections rare: 43 young collections of about 30 ms
#: in the same run, none older, p99 65 ms.  Reference cycles still go in young collections.
GC_THRESHOLDS = (20_000, 50, 100)


async def run(settings: Any) -> None:
    """Run the bot until cancelled: migrate, re-render open matches, fire deadlines, poll."""
    bot = make_bot(settings)
    dp, app, outbox = await build(settings, bot, cluster=clustered(settings))
    if app.cluster is not None:
        return await _run_worker(settings, bot, dp, app, outbox)
    stop = asyncio.Event()
    # the table pictures' process starts and draws its sprites and fonts while the bot starts
    warm = asyncio.create_task(app.publisher.pictures.warm())
    try:
        await register_commands(bot, app.tr, settings.default_locale)
        await app.publisher.heal()
        sweeper = asyncio.create_task(app.service.deadlines.run(app.publisher.publish,
                                                                stop=stop))
        # aiogram's models make a large heap that never dies; keeping it out of the garbage
        # collector's sight makes every full collection cheap (bench/e2e_load.py: +15% moves/s)
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        log.info("@%s is running (%s)", app.bot_username,
                 "webhook" if settings.webhook_url else "long polling")
        if settings.webhook_url:
            await _run_webhook(settings, bot, dp, app)
        else:
            page_runner = await _run_pages(settings, app)
            await bot.delete_webhook(drop_pending_updates=False)
            try:
                await dp.start_polling(bot, allowed_updates=dp.resolve_used_update_types(),
                                       handle_signals=True)
            finally:
                if page_runner is not None:
                    await page_runner.cleanup()
    finally:
        stop.set()
        if "sweeper" in locals():
            await asyncio.gather(sweeper, return_exceptions=True)
        await outbox.drain()
        await app.publisher.settled()
        await outbox.close()
        await asyncio.gather(warm, return_exceptions=True)
        app.publisher.close()
        await app.service.close()
        await bot.session.close()


def _pages_app(settings: Any, app: App) -> Any:
    """The Mini App's aiohttp application (``handlers.webapp``), or None without one."""
    if app.pages is None:
        return None
    from handlers.webapp import create_webapp

    return create_webapp(app, app.pages, settings.bot_token.get_secret_value(),
                         max_age_s=settings.webapp_max_age)


async def _run_pages(settings: Any, app: App) -> Any:
    """In polling mode, the Mini App on a runner of its own at ``WEBAPP_HOST:WEBAPP_PORT``
    under ``/webapp/`` (the runner, to clean up; None without a Mini App)."""
    pages = _pages_app(settings, app)
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


async def _run_webhook(settings: Any, bot: Bot, dp: Dispatcher, app: App) -> None:
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
    pages = _pages_app(settings, app)
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


async def _run_worker(settings: Any, bot: Bot, dp: Dispatcher, app: App, outbox: Outbox) -> None:
    """A worker of a cluster (``service.cluster``): the webhook stores updates in the inbox;
    the chats this worker owns are processed from it, their deadlines fired here; a chat
    taken from another worker is shown as it is first."""
    from aiohttp import web

    from handlers.cluster import feeder, inbox_handler

    cluster = app.cluster
    stop = asyncio.Event()
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    await cluster.start()

    async def taken(chat_id: int) -> None:
        await outbox.restore(chat_id)
        await app.publisher.heal_chat(chat_id)
        app.service.play.wake.set()  # its deadlines are this worker's now

    web_app = web.Application()
    web_app.router.add_post(settings.webhook_path, inbox_handler(cluster, secret))
    pages = _pages_app(settings, app)
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
        tasks.append(asyncio.create_task(app.service.deadlines.run(app.publisher.publish,
                                                                   stop=stop)))
        tasks.append(asyncio.create_task(cluster.run(feeder(dp, bot), taken, stop=stop)))
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        log.info("@%s is running (worker %s of a cluster)", app.bot_username,
                 cluster.worker_id)
        await asyncio.Event().wait()
    finally:
        stop.set()
        await runner.cleanup()
        await asyncio.gather(*tasks, return_exceptions=True)
        await outbox.drain()
        await app.publisher.settled()
        await cluster.stop()
        await outbox.close()
        await asyncio.gather(warm, return_exceptions=True)
        app.publisher.close()
        await app.service.close()
        await bot.session.close()
