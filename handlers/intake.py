"""How updates come in, and what the bot's port answers besides (issue 33).

- :class:`IntakeMiddleware`: every update the dispatcher handles is held by the App's
  :class:`delivery.lifecycle.Lifecycle` while it runs (a stop waits for it), its ids bound to
  the log lines, and counted (``updates_received``/``updates_applied`` of a single process:
  a worker's are counted where it stores and processes them, ``handlers.cluster`` and
  ``service.cluster``).
- :func:`webhook_handler`: a single process's webhook: 401 without the secret (nothing
  changes), 503 while it is stopping or has too many updates in hand (Telegram sends the
  update again later), 400 for a body that is no update, else the update handed to the
  dispatcher and 200.
- :func:`probe_routes`: ``GET /healthz`` (the process answers), ``GET /readyz`` (ready to
  take updates: :meth:`Lifecycle.readiness`), ``GET /metrics`` (Prometheus' text format).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, Dispatcher
from aiogram.types import Update
from aiohttp import web

from delivery.app import App
from service.health import database_checks
from service.metrics import CONTENT_TYPE_LATEST

__all__ = ["IntakeMiddleware", "RETRY_AFTER", "probe_routes", "secret_matches",
           "webhook_handler"]

log = logging.getLogger(__name__)

#: Seconds a webhook that refuses an update for now asks to wait (``Retry-After``).
RETRY_AFTER = 5
#: The dispatcher's ``source`` of updates a single process received itself.
_OWN_SOURCES = ("polling", "webhook")


class IntakeMiddleware(BaseMiddleware):
    """An outer middleware of the dispatcher's updates (see the module doc).  The update's
    ``source`` comes from the dispatcher's data: ``"polling"`` (long polling),
    ``"webhook"`` (a single process's webhook), ``"inbox"`` (a worker's stored update)."""

    async def __call__(self, handler: Callable[[Update, dict[str, Any]], Awaitable[Any]],
                       event: Update, data: dict[str, Any]) -> Any:
        app: App = data["app"]
        source = data.get("source")
        chat = data.get("event_chat")
        metrics = app.service.metrics
        if source in _OWN_SOURCES:
            metrics.updates_received.labels(source).inc()
        async with app.life.update(event.update_id, chat.id if chat else None):
            try:
                result = await handler(event, data)
            except Exception:
                if source in _OWN_SOURCES:
                    metrics.updates_applied.labels("failed").inc()
                raise
        if source in _OWN_SOURCES:
            metrics.updates_applied.labels("done").inc()
        return result


def secret_matches(request: web.Request, secret: str) -> bool:
    """Whether the POST carries the webhook's secret (``X-Telegram-Bot-Api-Secret-Token``),
    compared in constant time."""
    got = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    return hmac.compare_digest(got.encode(), secret.encode())


def refuse(app: App, why: str, status: int) -> web.Response:
    """Count a refused webhook POST (``updates_refused{why}``) and answer it: 503 with
    ``Retry-After``, else ``status`` alone."""
    app.service.metrics.updates_refused.labels(why).inc()
    headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else None
    return web.Response(status=status, headers=headers)


def webhook_handler(dp: Dispatcher, bot: Bot, app: App, secret: str
                    ) -> Callable[[web.Request], Awaitable[web.Response]]:
    """The aiohttp handler of a single process's webhook (see the module doc).  The update
    is handled after the answer, held by ``app.life`` from the moment it is accepted."""
    async def handle(request: web.Request) -> web.Response:
        if not secret_matches(request, secret):
            return refuse(app, "secret", 401)
        if app.life.busy():
            return refuse(app, "busy", 503)
        try:
            update = await request.json()
            int(update["update_id"])
        except (ValueError, KeyError, TypeError, json.JSONDecodeError):
            return refuse(app, "malformed", 400)
        app.life.track(asyncio.create_task(_feed(dp, bot, update)))
        return web.json_response({})

    return handle


async def _feed(dp: Dispatcher, bot: Bot, update: dict[str, Any]) -> None:
    try:
        await dp.feed_raw_update(bot, update, source="webhook")
    except Exception:
        log.exception("update %s failed", update.get("update_id"))


def probe_routes(app: App) -> list[web.RouteDef]:
    """``/healthz``, ``/readyz`` and ``/metrics`` of ``app`` (see the module doc)."""
    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(request: web.Request) -> web.Response:
        found = await app.life.readiness(lambda: database_checks(app.service.db))
        return web.json_response({"ready": found.ready, "checks": found.checks},
                                 status=200 if found.ready else 503)

    async def metrics(request: web.Request) -> web.Response:
        body = app.service.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    return [web.get("/healthz", healthz), web.get("/readyz", readyz),
            web.get("/metrics", metrics)]
