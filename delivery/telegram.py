"""The bot's connection to the Bot API: the aiogram ``Bot`` with its session's middlewares,
and the command menus it registers.
"""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramForbiddenError, TelegramRetryAfter
from aiogram.methods.base import Response
from aiogram.types import BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from delivery.outbox import RetryAfterMiddleware
from delivery.settings import Settings
from ui.commands import bot_commands
from ui.i18n import SUPPORTED_LOCALES, Translator

__all__ = ["count_calls", "make_bot", "pin_response_types", "register_commands"]

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


def count_calls(metrics: Any) -> Any:
    """A request middleware that counts every Bot API request the bot makes in ``metrics``
    (:class:`service.metrics.Metrics`' ``botapi_calls{method, outcome}``): ``ok``,
    ``retry_after`` (Telegram's 429), ``forbidden`` (403) or ``error``.  Registered last,
    it sees each attempt, a retried one included."""
    calls = metrics.botapi_calls

    async def counted(make_request: Any, bot: Bot, method: Any) -> Any:
        name = getattr(method, "__api_method__", type(method).__name__)
        try:
            result = await make_request(bot, method)
        except TelegramRetryAfter:
            calls.labels(name, "retry_after").inc()
            raise
        except TelegramForbiddenError:
            calls.labels(name, "forbidden").inc()
            raise
        except Exception:
            calls.labels(name, "error").inc()
            raise
        calls.labels(name, "ok").inc()
        return result

    return counted


def make_bot(settings: Settings) -> Bot:
    """The aiogram Bot, talking to ``BOT_API_URL`` when it is set (a local Bot API server);
    its session waits out flood control (:class:`delivery.outbox.RetryAfterMiddleware`) and
    keeps the response models it needs (:func:`pin_response_types`)."""
    session = None
    if settings.bot_api_url:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.bot_api_url))
    bot = Bot(settings.bot_token.get_secret_value(), session=session,
              default=DefaultBotProperties(parse_mode=ParseMode.HTML))
    # handlers' direct replies wait out flood control; the outbox waits for its own requests
    bot.session.middleware(RetryAfterMiddleware())
    bot.session.middleware(pin_response_types)
    return bot


async def register_commands(bot: Bot, tr: Translator, default_locale: str) -> None:
    """``set_my_commands`` for each language and for group and private scopes (issue 4)."""
    for scope_name, scope in (("group", BotCommandScopeAllGroupChats()),
                              ("private", BotCommandScopeAllPrivateChats())):
        await bot.set_my_commands(bot_commands(default_locale, scope_name, tr=tr), scope=scope)
        for code in SUPPORTED_LOCALES:
            await bot.set_my_commands(bot_commands(code, scope_name, tr=tr), scope=scope,
                                      language_code=code)
