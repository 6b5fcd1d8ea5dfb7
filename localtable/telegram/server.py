"""The HTTP side: the Bot API at ``/bot<token>/<method>`` and the control API at ``/control/…``.

Start a :class:`TelegramServer`, hand its :attr:`TelegramServer.url` to the bot as
``BOT_API_URL`` (aiogram: ``AiohttpSession(api=TelegramAPIServer.from_base(url))``) and drive
it through its :attr:`~TelegramServer.world` in the same process (the local table does) or
its control API over HTTP (the tests' ``EmulatorClient``).  It listens on a loopback address
only.

The Bot API is also served under a client's name, ``/<client>/bot<token>/<method>``
(:meth:`TelegramServer.client_url`): the same bot, but every call of that base URL is logged with
``client`` and :attr:`World.polls_by` counts its ``getUpdates``, so a test can tell the calls
of one bot process from those of another — a request a SIGKILLed process sent just before
it died may still be served after it is gone.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .botapi import BotApi, normalize_params
from .world import ApiError, ControlError, EmulatorConfig, FloodLimits, World

if TYPE_CHECKING:
    from aiogram import Bot

__all__ = ["DEFAULT_TOKEN", "TelegramServer", "close_bot"]

log = logging.getLogger(__name__)

#: The token the emulator accepts unless told otherwise; the bot's id is 100500.
DEFAULT_TOKEN = "100500:EMULATOR-token_for_tests"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class TelegramServer:
    """A local Telegram Bot API server with a control API for tests.

    ``flood`` (or ``config.flood``) sets flood control; ``FloodLimits(enabled=False)`` turns it
    off.  ``clock`` / ``wall`` are the monotonic and Unix clocks (injectable).  ``port=0``
    picks a free port.  Use as ``async with TelegramServer() as emu:`` or ``await emu.start()`` /
    ``await emu.stop()``; :attr:`world` is the state, readable directly in-process.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        host: str = "127.0.0.1",
        port: int = 0,
        bot_name: str = "Kozel",
        bot_username: str = "kozel_test_bot",
        config: EmulatorConfig | None = None,
        flood: FloodLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        if not _is_loopback(host):
            raise ValueError(f"the emulator listens on loopback addresses only, not {host!r}")
        config = config if config is not None else EmulatorConfig()
        if flood is not None:
            config.flood = flood
        self.host = host
        self.port = port
        self.world = World(token=token, bot_name=bot_name, bot_username=bot_username,
                           config=config, clock=clock, wall=wall)
        self.api = BotApi(self.world)
        self._runner: web.AppRunner | None = None
        self._delivery: asyncio.Task | None = None
        self.app = self._make_app()

    # -- life cycle ----------------------------------------------------------------------------

    @property
    def token(self) -> str:
        """The bot token the emulator accepts."""
        return self.world.token

    @property
    def url(self) -> str:
        """The base URL, for ``BOT_API_URL`` / ``TelegramAPIServer.from_base``."""
        if self._runner is None:
            raise RuntimeError("the emulator is not running")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def client_url(self, client: str) -> str:
        """The base URL of the Bot API for one named client (letters, digits, ``-``, ``_``):
        calls made through it are logged with ``client`` and counted per client
        (:attr:`World.polls_by`)."""
        if not client or not all(c.isalnum() or c in "-_" for c in client) \
                or client in ("control", "file") or client.startswith("bot"):
            raise ValueError(f"not a client name: {client!r}")
        return f"{self.url}/{client}"

    async def start(self) -> str:
        """Start listening; returns :attr:`url`."""
        self.world.closing = False
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self.port = runner.addresses[0][1]
        from .webhook import WebhookDelivery

        self._delivery = asyncio.create_task(WebhookDelivery(self.world).run())
        return self.url

    async def stop(self) -> None:
        """Answer waiting long polls and stop the server."""
        if self._runner is None:
            return
        self.world.close()
        if self._delivery is not None:
            self._delivery.cancel()
            await asyncio.gather(self._delivery, return_exceptions=True)
            self._delivery = None
        await asyncio.sleep(0)
        runner, self._runner = self._runner, None
        await runner.cleanup()

    async def __aenter__(self) -> TelegramServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def make_bot(self, **kwargs: Any) -> Bot:
        """An aiogram ``Bot`` talking to this emulator (close its session when done)."""
        from aiogram import Bot
        from aiogram.client.session.aiohttp import AiohttpSession
        from aiogram.client.telegram import TelegramAPIServer

        session = AiohttpSession(api=TelegramAPIServer.from_base(self.url))
        return Bot(self.token, session=session, **kwargs)

    # -- routes --------------------------------------------------------------------------------

    def _make_app(self) -> web.Application:
        # Telegram takes photos up to 10 MB; aiohttp's default would refuse 1 MB.
        app = web.Application(client_max_size=20 * 1024 * 1024)
        w = self.world
        r = app.router
        r.add_route("*", "/bot{token}/{method}", self._bot_api)
        r.add_get("/file/bot{token}/{path:.*}", self._file)
        control: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", "/control/state", lambda q, b: w.state()),
            ("POST", "/control/reset", lambda q, b: w.reset()),
            ("GET", "/control/config", lambda q, b: w.config_dict()),
            ("POST", "/control/config", lambda q, b: w.configure(**b)),
            ("POST", "/control/users", lambda q, b: w.create_user(**b)),
            ("GET", "/control/users/{user_id}", lambda q, b: w.user_info(q["user_id"])),
            ("POST", "/control/users/{user_id}/webapp_init_data",
             lambda q, b: w.webapp_init_data(q["user_id"], **b)),
            ("POST", "/control/users/{user_id}/block",
             lambda q, b: w.block(q["user_id"], True)),
            ("POST", "/control/users/{user_id}/unblock",
             lambda q, b: w.block(q["user_id"], False)),
            ("POST", "/control/chats", lambda q, b: w.create_chat(**b)),
            ("GET", "/control/chats", lambda q, b: w.chat_list()),
            ("GET", "/control/chats/{chat_id}", lambda q, b: w.chat_info(q["chat_id"])),
            ("POST", "/control/chats/{chat_id}/members",
             lambda q, b: w.set_member(q["chat_id"], **b)),
            ("POST", "/control/chats/{chat_id}/topics",
             lambda q, b: w.create_topic(q["chat_id"], **b)),
            ("GET", "/control/chats/{chat_id}/messages",
             lambda q, b: w.messages(q["chat_id"], include_deleted=q.get("include_deleted"),
                                     thread_id=q.get("thread_id"))),
            ("GET", "/control/chats/{chat_id}/messages/{message_id}",
             lambda q, b: w.message(q["chat_id"], q["message_id"])),
            ("POST", "/control/chats/{chat_id}/migrate",
             lambda q, b: w.migrate(q["chat_id"], **b)),
            ("POST", "/control/chats/{chat_id}/remove_bot",
             lambda q, b: w.remove_bot(q["chat_id"], **b)),
            ("POST", "/control/chats/{chat_id}/add_bot",
             lambda q, b: w.add_bot(q["chat_id"], **b)),
            ("POST", "/control/send", lambda q, b: w.user_send(**b)),
            ("POST", "/control/send_document", lambda q, b: w.user_send_document(
                b["user_id"], base64.b64decode(b["data"]), b.get("file_name", "file"),
                caption=b.get("caption"), chat_id=b.get("chat_id"),
                reply_to=b.get("reply_to"))),
            ("POST", "/control/press", lambda q, b: w.user_press(**b)),
            ("POST", "/control/follow_link", lambda q, b: w.follow_link(**b)),
            ("GET", "/control/queries/{query_id}", lambda q, b: w.query_info(q["query_id"])),
            ("GET", "/control/calls",
             lambda q, b: w.call_log(since=q.get("since", 0), method=q.get("method"),
                                     chat_id=q.get("chat_id"))),
            ("GET", "/control/events", lambda q, b: w.event_log(since=q.get("since", 0))),
            ("DELETE", "/control/logs", lambda q, b: w.clear_logs()),
            ("GET", "/control/commands", lambda q, b: [
                {"scope": json.loads(scope), "language_code": lang, "commands": cmds}
                for (scope, lang), cmds in w.commands.items()]),
            ("GET", "/control/updates", lambda q, b: list(w.updates)),
        ]
        for method, path, fn in control:
            r.add_route(method, path, self._control(fn))
        r.add_get("/control/wait", self._wait)
        r.add_get("/control/files/{file_id}", self._bytes(lambda q: w.file_data(q["file_id"])))
        r.add_get("/control/chats/{chat_id}/messages/{message_id}/photo",
                  self._bytes(lambda q: w.message_photo(int(q["chat_id"]),
                                                        int(q["message_id"]))))
        # the Bot API under a client's name (:meth:`client_url`), after every other route
        r.add_route("*", "/{client}/bot{token}/{method}", self._bot_api)
        r.add_get("/{client}/file/bot{token}/{path:.*}", self._file)
        return app

    async def _bot_api(self, request: web.Request) -> web.Response:
        w = self.world
        if request.match_info["token"] != w.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        method = request.match_info["method"]
        client = request.match_info.get("client")
        if method.lower() == "getupdates":
            w.polls_by[client] = w.polls_by.get(client, 0) + 1
        raw: dict[str, Any] = dict(request.query)
        files: dict[str, bytes] = {}
        names: dict[str, str] = {}
        if request.method == "POST":
            if request.content_type == "application/json":
                body = await request.json()
                if isinstance(body, dict):
                    raw.update(body)
            else:
                form = await request.post()
                for key, value in form.items():
                    if isinstance(value, str):
                        raw[key] = value
                    else:  # an uploaded file: its bytes go to the method, "<file>" to the log
                        raw[key] = "<file>"
                        files[key] = value.file.read()
                        names[key] = value.filename or key
        params = normalize_params(raw)
        t0 = w.clock()
        if w.config.latency > 0:
            await asyncio.sleep(w.config.latency)
        result: Any = None
        error: ApiError | None = None
        try:
            result = await self.api.call(method, params, files, names)
        except ApiError as exc:
            error = exc
        except Exception as exc:  # an emulator bug: loud in the log, a 500 to the bot
            log.exception("emulator failed on %s %r", method, params)
            error = ApiError(500, f"Internal Server Error: {type(exc).__name__}: {exc}")
        w.log_call(method, params, t0, result, error, client=client)
        if error is None:
            return web.json_response({"ok": True, "result": result})
        body = {"ok": False, "error_code": error.code, "description": error.description}
        if error.parameters:
            body["parameters"] = error.parameters
        return web.json_response(body, status=error.code)

    async def _file(self, request: web.Request) -> web.Response:
        """A file download of the Bot API: ``/file/bot<token>/<file_path>``."""
        w = self.world
        if request.match_info["token"] != w.token:
            return web.json_response({"ok": False, "error_code": 401,
                                      "description": "Unauthorized"}, status=401)
        try:
            data = w.download(request.match_info["path"])
        except ControlError:
            return web.json_response({"ok": False, "error_code": 404,
                                      "description": "Not Found"}, status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    def _control(self, fn: Callable[[dict, dict], Any]) -> Callable:
        async def handler(request: web.Request) -> web.Response:
            args: dict[str, Any] = {}
            for key, value in [*request.query.items(), *request.match_info.items()]:
                args[key] = _scalar(value)
            body: dict[str, Any] = {}
            if request.can_read_body:
                try:
                    body = await request.json()
                except ValueError:
                    return web.json_response({"error": "the body must be JSON"}, status=400)
                if not isinstance(body, dict):
                    return web.json_response({"error": "the body must be an object"},
                                             status=400)
            try:
                result = fn(args, body)
            except ControlError as exc:
                return web.json_response({"error": str(exc)}, status=exc.code)
            except TypeError as exc:
                return web.json_response({"error": f"bad arguments: {exc}"}, status=400)
            return web.json_response({"ok": True, "result": result})

        return handler

    def _bytes(self, fn: Callable[[dict], bytes]) -> Callable:
        """A control route that answers with raw bytes (a photo), or JSON ``error``."""
        async def handler(request: web.Request) -> web.Response:
            try:
                data = fn(dict(request.match_info))
            except ControlError as exc:
                return web.json_response({"error": str(exc)}, status=exc.code)
            except ValueError as exc:
                return web.json_response({"error": f"bad arguments: {exc}"}, status=400)
            return web.Response(body=data, content_type=_content_type(data))

        return handler

    async def _wait(self, request: web.Request) -> web.Response:
        since = int(request.query.get("since", 0))
        timeout = min(float(request.query.get("timeout", 10)), 60.0)
        version = await self.world.wait_change(since, timeout)
        return web.json_response({"ok": True, "result": {"version": version}})


async def close_bot(bot: Bot) -> None:
    """Close an aiogram bot's HTTP session without aiogram's fixed 0.25 s grace sleep
    (there are no TLS connections to drain on loopback)."""
    session = getattr(bot.session, "_session", None)
    if session is not None and not session.closed:
        await session.close()


def _content_type(data: bytes) -> str:
    """The MIME type of a photo's bytes (PNG, JPEG, or unknown)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    return "application/octet-stream"


def _scalar(value: str) -> Any:
    """Query and path values: integers and booleans as such, anything else as text."""
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    try:
        return int(value)
    except ValueError:
        return value

