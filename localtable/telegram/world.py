"""The local Telegram: users, chats, messages, the update queue, flood control and the logs.

:class:`World` holds all state and implements both sides: what the Bot API methods the bot
calls need (:mod:`localtable.telegram.botapi` is the HTTP glue; the update queue, flood
control and the Bot API objects are :mod:`~localtable.telegram.updates`, photos and documents
:mod:`~localtable.telegram.files`) and the actions of people (``user_*`` and friends,
:mod:`~localtable.telegram.control`), used by the control API, the tests and the local
table's page.  It runs on one event loop; every
method runs to completion without awaiting, except the waits (long polling, ``wait_change``),
so no locking is needed.

Errors the bot can meet are raised as :class:`ApiError` with Telegram's code and description;
mistakes of a test (unknown user, pressing a button that is not there) raise
:class:`ControlError`.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from .control import Control
from .files import Files
from .records import (
    DEFAULT_UPDATES,
    MAX_CALLBACK_DATA,
    PRESENT,
    ApiError,
    Chat,
    ControlError,
    EmulatorConfig,
    FloodLimits,
    Msg,
    Query,
    StoredDocument,
    StoredFile,
    User,
)
from .updates import Updates

__all__ = [
    "ApiError",
    "ControlError",
    "EmulatorConfig",
    "FloodLimits",
    "MAX_CALLBACK_DATA",
    "World",
]


class World(Control, Files, Updates):
    """All of the emulated Telegram's state and behaviour (see the module doc).

    ``token`` is the only token accepted; the bot's id is its numeric prefix.  ``clock`` gives
    monotonic seconds (flood control, timestamps in the logs, timeouts); ``wall`` gives Unix
    time for ``date`` fields.  Both are injectable so tests can move time without sleeping.
    """

    def __init__(
        self,
        *,
        token: str,
        bot_name: str = "Kozel",
        bot_username: str = "kozel_test_bot",
        config: EmulatorConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        bot_id = int(token.split(":", 1)[0])
        self.token = token
        self.bot = User(id=bot_id, first_name=bot_name, username=bot_username, is_bot=True)
        self.config = config if config is not None else EmulatorConfig()
        self.clock = clock
        self.wall = wall
        self.closing = False
        self._waiters: list[asyncio.Future] = []
        # Counters survive reset(): a running bot keeps its getUpdates offset.
        self.next_update_id = 1
        self.version = 0
        self.poll_token = 0
        #: ``getUpdates`` calls begun per client name (``None``: the plain ``/bot<token>``
        #: base URL; see ``TelegramServer.client_url``), counted when the request is taken up.
        self.polls_by: dict[str | None, int] = {}
        self.allowed_updates: frozenset[str] = DEFAULT_UPDATES
        self.webhook_url = ""
        self.webhook_secret = ""
        self.webhook_max_connections = 40
        #: (update_id, target, HTTP status or 0, clock) of every webhook attempt
        self.webhook_log: list[tuple[int, str, int, float]] = []
        self._query_ids = itertools.count(1)
        self._call_seq = itertools.count(1)
        self._event_seq = itertools.count(1)
        self._chat_ids = itertools.count(1)
        self._file_seq = itertools.count(1)
        self.reset()


    # -- state ---------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every user, chat, pending update, query, command list and log entry.

        Update ids, sequence numbers and the bot's ``allowed_updates`` carry on, so a bot that
        keeps polling through a reset loses nothing that comes after it.
        """
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.chats: dict[int, Chat] = {}
        self.updates: list[dict] = []
        self.commands: dict[tuple[str, str], list[dict]] = {}
        self.bot_texts: dict[str, dict[str, str]] = {}
        self.queries: dict[str, Query] = {}
        self.files: dict[str, StoredFile] = {}
        self._file_by_hash: dict[str, str] = {}
        self.documents: dict[str, StoredDocument] = {}
        self.calls: list[dict] = []
        self.events: list[dict] = []
        self.global_window: deque[float] = deque()
        self.last_call_t: float | None = None
        self.changed()

    def changed(self) -> None:
        """Note a change of state and wake everyone waiting for one."""
        self.version += 1
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait_change(self, since: int, timeout: float) -> int:
        """Wait until ``version`` exceeds ``since`` or ``timeout`` seconds pass; the version.
        A cancelled wait ends with ``CancelledError``, even when a change came at the same
        moment (``asyncio.wait_for`` of Python 3.11 would swallow that cancellation, and a
        task stopped at that moment would go on waiting)."""
        if self.version > since or timeout <= 0:
            return self.version
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await asyncio.wait([fut], timeout=timeout)
        finally:
            if not fut.done():
                fut.cancel()  # changed() passes it over
        return self.version

    def close(self) -> None:
        """Wake every waiter (long polls answer at once) before the server stops."""
        self.closing = True
        self.changed()

    def now(self) -> int:
        """Unix time for ``date`` fields."""
        return int(self.wall())


    # -- logs (control) --------------------------------------------------------------------------

    def call_log(self, since: int = 0, method: str | None = None,
                 chat_id: int | None = None) -> list[dict]:
        """Bot API calls with ``seq > since`` (optionally one method and/or one chat)."""
        lowered = method.lower() if method else None
        return [c for c in self.calls if c["seq"] > since
                and (lowered is None or c["method"].lower() == lowered)
                and (chat_id is None or c["chat_id"] == chat_id)]

    def event_log(self, since: int = 0) -> list[dict]:
        """What simulated people did (messages, presses, link opens, migrations…)."""
        return [e for e in self.events if e["seq"] > since]

    def clear_logs(self) -> None:
        """Drop the call and event logs (sequence numbers keep counting)."""
        self.calls.clear()
        self.events.clear()
        self.changed()

    def state(self) -> dict:
        """Counters: version, pending updates, calls, events, the time of the last call."""
        return {
            "version": self.version,
            "now": self.clock(),
            "pending_updates": len(self.updates),
            "next_update_id": self.next_update_id,
            "calls": len(self.calls),
            "last_call_seq": self.calls[-1]["seq"] if self.calls else 0,
            "last_call_t": self.last_call_t,
            "events": len(self.events),
            "chats": len(self.chats),
            "users": len(self.users) - 1,
            "allowed_updates": sorted(self.allowed_updates),
            "webhook_url": self.webhook_url,
        }

    def config_dict(self) -> dict:
        """The current :class:`EmulatorConfig` as a dict."""
        return asdict(self.config)

    def configure(self, **changes: Any) -> dict:
        """Change settings: the fields of :class:`EmulatorConfig`, plus ``flood`` (a bool or a
        dict of :class:`FloodLimits` fields)."""
        for key, value in changes.items():
            if key == "flood":
                if isinstance(value, bool):
                    self.config.flood.enabled = value
                elif isinstance(value, dict):
                    for k, v in value.items():
                        if not hasattr(self.config.flood, k):
                            raise ControlError(f"unknown flood setting {k!r}")
                        setattr(self.config.flood, k, v)
                else:
                    raise ControlError("flood must be a bool or an object")
            elif key in EmulatorConfig.__dataclass_fields__:
                setattr(self.config, key, value)
            else:
                raise ControlError(f"unknown setting {key!r}")
        self.changed()
        return self.config_dict()

    # -- the call log ----------------------------------------------------------------------------

    def log_call(self, method: str, params: dict, t0: float, result: Any,
                 error: ApiError | None, *, client: str | None = None) -> None:
        """Record one Bot API call (see :meth:`call_log`), made through the base URL of
        ``client`` (None: the plain one); ``getUpdates`` does not count as activity for
        ``last_call_t``."""
        t1 = self.clock()
        poll = method.lower() == "getupdates"
        if not poll:
            self.last_call_t = t1
        if not self.config.log_calls or (poll and not self.config.log_polls):
            return
        chat_id = params.get("chat_id")
        if isinstance(chat_id, str):
            try:
                chat_id = int(chat_id)
            except ValueError:
                pass
        entry = {
            "seq": next(self._call_seq), "method": method, "params": params, "chat_id": chat_id,
            "t": t0, "t_end": t1, "wall": self.wall(), "ok": error is None,
            "error_code": error.code if error else None,
            "description": error.description if error else None,
            "parameters": error.parameters if error and error.parameters else None,
            "message_id": result.get("message_id") if isinstance(result, dict) else None,
            "client": client,
        }
        self.calls.append(entry)
        self.changed()

    def _event(self, kind: str, **fields: Any) -> dict:
        event = {"seq": next(self._event_seq), "kind": kind, "t": self.clock(), **fields}
        self.events.append(event)
        return event


    # -- helpers -----------------------------------------------------------------------------------

    def _user(self, user_id: int) -> User:
        user = self.users.get(user_id)
        if user is None or user is self.bot:
            raise ControlError(f"no user {user_id}", 404)
        return user

    def _chat(self, chat_id: int) -> Chat:
        chat = self.chats.get(chat_id)
        if chat is None:
            raise ControlError(f"no chat {chat_id}", 404)
        return chat

    def _group(self, chat_id: int) -> Chat:
        chat = self._chat(chat_id)
        if chat.type == "private":
            raise ControlError(f"chat {chat_id} is a private chat")
        return chat

    def _private(self, user: User, create: bool = False) -> Chat:
        chat = self.chats.get(user.id)
        if chat is None and create:
            chat = self.chats[user.id] = Chat(id=user.id, type="private")
            chat.members[user.id] = "member"
        return chat

    def _owner(self, chat: Chat) -> int:
        for uid, status in chat.members.items():
            if status == "creator":
                return uid
        for uid, status in chat.members.items():
            if status in PRESENT:
                return uid
        raise ControlError(f"chat {chat.id} has no members to act")

    def _live(self, chat: Chat, message_id: int) -> Msg | None:
        msg = chat.messages.get(message_id)
        return None if msg is None or msg.deleted else msg

    def _store(self, chat: Chat, from_id: int, text: str | None, *, entities: list | None = None,
               source: str | None = None, markup: dict | None = None,
               thread_id: int | None = None, reply_to: int | None = None,
               service: dict | None = None, caption: str | None = None,
               caption_entities: list | None = None, caption_source: str | None = None,
               photo: str | None = None) -> Msg:
        msg = Msg(chat_id=chat.id, message_id=chat.next_message_id, date=self.now(),
                  from_id=from_id, text=text, entities=entities or [], source=source,
                  markup=markup, thread_id=thread_id, reply_to=reply_to, service=service,
                  caption=caption, caption_entities=caption_entities or [],
                  caption_source=caption_source)
        if photo is not None:
            self.set_photo(msg, photo)
        chat.next_message_id += 1
        chat.messages[msg.message_id] = msg
        if self.config.keep_history and (text is not None or photo is not None):
            msg.history.append(msg.snapshot(self.clock()))
        self.changed()
        return msg

    def _find_button(self, msg: Msg, text: str | None, index: int | list[int] | None) -> dict:
        rows = (msg.markup or {}).get("inline_keyboard") or []
        flat = [b for row in rows for b in row]
        if not flat:
            raise ControlError(f"message {msg.message_id} has no inline keyboard", 409)
        if text is not None:
            for b in flat:
                if b.get("text") == text:
                    return b
            raise ControlError(f"no button {text!r}; buttons: {[b.get('text') for b in flat]}",
                               409)
        if index is None:
            raise ControlError("say which button: text, index or data")
        try:
            if isinstance(index, list | tuple):
                return rows[index[0]][index[1]]
            return flat[index]
        except (IndexError, TypeError) as exc:
            raise ControlError(f"no button at {index}", 409) from exc

    def _set_bot_status(self, chat: Chat, status: str, by: int) -> dict:
        old = chat.bot_status
        chat.bot_status = status
        self._push("my_chat_member", {
            "chat": self._chat_api(chat), "from": self.users[by].api(), "date": self.now(),
            "old_chat_member": self._member_api(chat, self.bot.id, old),
            "new_chat_member": self._member_api(chat, self.bot.id, status),
        }, chat_id=chat.id, user_id=by)
        return self.chat_info(chat.id)

    def _set_blocked(self, user: User, blocked: bool) -> None:
        if user.blocked == blocked:
            return
        user.blocked = blocked
        chat = self._private(user, create=True)
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        self._push("my_chat_member", {
            "chat": self._chat_api(chat), "from": user.api(), "date": self.now(),
            "old_chat_member": self._member_api(chat, self.bot.id, old),
            "new_chat_member": self._member_api(chat, self.bot.id, new),
        }, chat_id=chat.id, user_id=user.id, blocked=blocked)

