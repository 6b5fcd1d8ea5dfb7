"""The webhook of a worker of a cluster (issue 22, "Workers"): store the update, then answer.

:func:`route_of` names the chat whose owner processes an update; :func:`inbox_handler` is the
aiohttp handler that stores it in the inbox (``service.cluster.Cluster.receive``) and answers
200 only after that commit, so an update Telegram was told is received is never lost, and a
resent one is stored once.  :func:`feed` hands a stored update to the dispatcher.
"""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.types import Update
from aiohttp import web

from delivery.app import App
from handlers.intake import refuse, secret_matches
from handlers.webapp import WEBAPP_ACTION, perform
from service.cluster import Cluster
from ui.callbacks import HoldCb, LeaveCb, LobbyCb, MoveCb, PlayCb, RecordCb, StopCb

log = logging.getLogger(__name__)

#: Callback factories whose data names a match: (factory, field).
_MATCH_FIELDS = ((MoveCb, "game"), (PlayCb, "game"), (LobbyCb, "lobby"), (StopCb, "match"),
                 (LeaveCb, "match"), (HoldCb, "match"), (RecordCb, "match"))


def _pressed_match(data: str | None) -> int | None:
    """The match a button's callback data names, or None."""
    if not data:
        return None
    for factory, field in _MATCH_FIELDS:
        try:
            return int(getattr(factory.unpack(data), field))
        except Exception:  # noqa: S112 - not this factory's data
            continue
    return None


async def route_of(update: dict[str, Any], cluster: Cluster) -> int:
    """The route key of a raw update: its chat, except that a press in a private chat on a
    button of a match (a hand message) goes to the match's chat, whose owner holds the
    match.  Updates without a chat go by their sender (0 when there is none)."""
    query = update.get("callback_query")
    if query is not None:
        chat = ((query.get("message") or {}).get("chat") or {})
        if chat.get("type") == "private" or not chat:
            match_id = _pressed_match(query.get("data"))
            if match_id is not None:
                found = await cluster.match_chat(match_id)
                if found is not None:
                    return int(found)
        if chat.get("id") is not None:
            return int(chat["id"])
        return int((query.get("from") or {}).get("id", 0))
    for kind, body in update.items():
        if kind == "update_id" or not isinstance(body, dict):
            continue
        chat = body.get("chat") or (body.get("message") or {}).get("chat")
        if chat and chat.get("id") is not None:
            return int(chat["id"])
        sender = body.get("from") or body.get("user")
        if sender and sender.get("id") is not None:
            return int(sender["id"])
    return 0


def inbox_handler(app: App, secret: str):
    """The aiohttp handler of a worker's webhook: 401 without the secret (nothing stored),
    503 while this worker stops or the cluster's inbox holds more than its backlog limit
    (Telegram sends the update again later), 400 for a body that is no update, else the
    update stored (once per ``update_id``) and 200."""
    cluster = app.cluster
    metrics = app.service.metrics

    async def handle(request: web.Request) -> web.Response:
        if not secret_matches(request, secret):
            return refuse(app, "secret", 401)
        if app.life.stopping.is_set() or await cluster.backlog() >= app.life.max_in_flight:
            return refuse(app, "busy", 503)
        try:
            update = await request.json()
            update_id = int(update["update_id"])
        except Exception:
            return refuse(app, "malformed", 400)
        chat_id = await route_of(update, cluster)
        await cluster.receive(update_id, chat_id, update)
        metrics.updates_received.labels("webhook").inc()
        return web.Response(status=200)

    return handle


def feeder(dp: Dispatcher, bot: Bot):
    """``handle(payload)`` for :meth:`service.cluster.Cluster.run`: the stored update through
    the dispatcher, awaited to its end; a Mini App action (``handlers.webapp``) made by
    :func:`handlers.webapp.perform`, whose outcome it returns (stored with the action)."""
    async def feed(payload: dict[str, Any]) -> dict[str, Any] | None:
        action = payload.get(WEBAPP_ACTION)
        if action is not None:
            return await perform(dp["app"], action)
        update = Update.model_validate(payload, context={"bot": bot})
        await dp.feed_update(bot, update, source="inbox")

    return feed
