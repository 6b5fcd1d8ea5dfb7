"""The Bot API methods, on top of :class:`~localtable.telegram.world.World`.

Parameters arrive as aiogram sends them: form fields whose nested values (``reply_markup``,
``reply_parameters``, ``scope``, ``commands``, ``allowed_updates``, ``media``…) are JSON
strings and whose numbers and booleans are JSON scalars; a JSON body or a query string works
too.  Uploads (``sendPhoto``, ``editMessageMedia``) arrive as multipart/form-data: a file
field, named by the parameter itself or by ``attach://<name>`` in it, whose bytes reach the
method beside the parameters.  Every method
validates what Telegram validates and raises :class:`~localtable.telegram.records.ApiError` with
Telegram's code and description.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from .apitools import COMMAND_NAME, MAX_COMMANDS, SCOPES, bad, int_param, normalize_params
from .chat_methods import ChatMethods
from .media_methods import MediaMethods
from .message_methods import MessageMethods
from .records import ApiError
from .world import World

__all__ = ["BotApi", "normalize_params"]


class BotApi(ChatMethods, MessageMethods, MediaMethods):
    """The Bot API methods the bot may call, served from one :class:`World`.

    ``await api.call(method, params)`` runs a method (name case-insensitive, params as
    :func:`normalize_params` gives them) and returns its ``result`` or raises ``ApiError``;
    an unknown method is 404 "Not Found", as on Telegram.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        self._methods: dict[str, Callable[[dict], Awaitable[Any] | Any]] = {
            name[4:].lower(): getattr(self, name) for name in dir(self) if name.startswith("api_")
        }
        #: The file names of the uploads of the request being served, by field.
        self._file_names: dict[str, str] = {}

    async def call(self, method: str, params: dict[str, Any],
                   files: dict[str, bytes] | None = None,
                   file_names: dict[str, str] | None = None) -> Any:
        """Run ``method`` with ``params`` (and the uploaded ``files`` by field name, their
        ``file_names``); the result, or ``ApiError``."""
        self._file_names = dict(file_names or {})
        handler = self._methods.get(method.lower())
        if handler is None:
            raise ApiError(404, "Not Found")
        if getattr(handler, "uploads", False):
            result = handler(params, files or {})
        else:
            result = handler(params)
        if inspect.isawaitable(result):
            result = await result
        return result

    # -- the bot and updates -----------------------------------------------------------------

    def api_getMe(self, p: dict) -> dict:
        """The bot's own ``User``."""
        w = self.world
        return {**w.bot.api(), "can_join_groups": True,
                "can_read_all_group_messages": not w.config.privacy_mode,
                "supports_inline_queries": False, "can_connect_to_business": False,
                "has_main_web_app": False}

    def api_logOut(self, p: dict) -> bool:
        """Accepted and ignored."""
        return True

    def api_close(self, p: dict) -> bool:
        """Accepted and ignored."""
        return True

    async def api_getUpdates(self, p: dict) -> list[dict]:
        """Long polling; see :meth:`World.get_updates`."""
        offset = int_param(p, "offset")
        limit = int_param(p, "limit")
        timeout = int_param(p, "timeout") or 0
        allowed = p.get("allowed_updates")
        if allowed is not None and not isinstance(allowed, list):
            raise bad("can't parse allowed updates JSON object")
        return await self.world.get_updates(offset, 100 if limit is None else limit,
                                            max(0, min(timeout, 50)), allowed)

    def api_setWebhook(self, p: dict) -> bool:
        """Set the webhook: pending updates are then POSTed there (localtable/telegram/webhook.py)
        with ``secret_token``, to the types of ``allowed_updates``, at most
        ``max_connections`` at once."""
        url = str(p.get("url") or "")
        if url and not url.startswith("https://"):
            raise bad("bad webhook: An HTTPS URL must be provided for webhook")
        self.world.webhook_url = url
        self.world.webhook_secret = str(p.get("secret_token") or "")
        if p.get("max_connections"):
            self.world.webhook_max_connections = int(p["max_connections"])
        allowed = p.get("allowed_updates")
        if isinstance(allowed, list):
            from .world import DEFAULT_UPDATES
            self.world.allowed_updates = frozenset(allowed) if allowed else DEFAULT_UPDATES
        if p.get("drop_pending_updates"):
            self.world.updates.clear()
        self.world.changed()
        return True

    def api_deleteWebhook(self, p: dict) -> bool:
        """Remove the webhook; ``drop_pending_updates`` discards the queue."""
        self.world.webhook_url = ""
        if p.get("drop_pending_updates"):
            self.world.updates.clear()
        self.world.changed()
        return True

    def api_getWebhookInfo(self, p: dict) -> dict:
        """The webhook URL (empty) and the number of pending updates."""
        return {"url": self.world.webhook_url, "has_custom_certificate": False,
                "pending_update_count": len(self.world.updates)}

    # -- commands and profile ----------------------------------------------------------------

    def _command_key(self, p: dict) -> tuple[str, str]:
        scope = p.get("scope") or {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in SCOPES:
            raise bad("can't parse BotCommandScope JSON object")
        if scope["type"] in ("chat", "chat_administrators", "chat_member"):
            if "chat_id" not in scope:
                raise bad("chat_id is empty")
            if scope["type"] == "chat_member" and "user_id" not in scope:
                raise bad("user_id is empty")
        lang = str(p.get("language_code") or "")
        if lang and not re.fullmatch(r"[a-z]{2}", lang):
            raise bad("invalid language code specified")
        return json.dumps(scope, sort_keys=True), lang

    def api_setMyCommands(self, p: dict) -> bool:
        """Store the command list for (scope, language_code); an empty list deletes it."""
        commands = p.get("commands")
        if not isinstance(commands, list):
            raise bad("can't parse commands JSON object")
        if len(commands) > MAX_COMMANDS:
            raise bad("BOT_COMMANDS_TOO_MUCH")
        clean = []
        for c in commands:
            if not isinstance(c, dict) or not COMMAND_NAME.match(str(c.get("command", ""))):
                raise bad("BOT_COMMAND_INVALID")
            description = str(c.get("description") or "")
            if not 1 <= len(description) <= 256:
                raise bad("BOT_COMMAND_DESCRIPTION_INVALID")
            clean.append({"command": c["command"], "description": description})
        key = self._command_key(p)
        if clean:
            self.world.commands[key] = clean
        else:
            self.world.commands.pop(key, None)
        self.world.changed()
        return True

    def api_getMyCommands(self, p: dict) -> list[dict]:
        """The list stored for exactly this (scope, language_code); no fallback."""
        return self.world.commands.get(self._command_key(p), [])

    def api_deleteMyCommands(self, p: dict) -> bool:
        """Delete the list for (scope, language_code)."""
        self.world.commands.pop(self._command_key(p), None)
        self.world.changed()
        return True

    def _bot_text(self, kind: str, p: dict, limit: int) -> bool:
        value = str(p.get(kind) or "")
        if len(value) > limit:
            raise bad(f"{kind.upper()}_INVALID")
        lang = str(p.get("language_code") or "")
        self.world.bot_texts.setdefault(kind, {})[lang] = value
        return True

    def api_setMyName(self, p: dict) -> bool:
        """Store the bot's name for a language."""
        return self._bot_text("name", p, 64)

    def api_getMyName(self, p: dict) -> dict:
        """The stored name (default: the bot's first name)."""
        names = self.world.bot_texts.get("name", {})
        return {"name": names.get(str(p.get("language_code") or ""), "")
                or self.world.bot.first_name}

    def api_setMyDescription(self, p: dict) -> bool:
        """Store the bot's description for a language."""
        return self._bot_text("description", p, 512)

    def api_getMyDescription(self, p: dict) -> dict:
        """The stored description."""
        texts = self.world.bot_texts.get("description", {})
        return {"description": texts.get(str(p.get("language_code") or ""), "")}

    def api_setMyShortDescription(self, p: dict) -> bool:
        """Store the bot's short description for a language."""
        return self._bot_text("short_description", p, 120)

    def api_getMyShortDescription(self, p: dict) -> dict:
        """The stored short description."""
        texts = self.world.bot_texts.get("short_description", {})
        return {"short_description": texts.get(str(p.get("language_code") or ""), "")}

    def api_setChatMenuButton(self, p: dict) -> bool:
        """Accepted and ignored."""
        return True

    def api_getChatMenuButton(self, p: dict) -> dict:
        """Always the commands menu."""
        return {"type": "commands"}

    def api_setMyDefaultAdministratorRights(self, p: dict) -> bool:
        """Accepted and ignored."""
        return True
