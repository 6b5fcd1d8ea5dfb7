"""``EmulatorClient``: the control API from Python, for tests and benchmarks.

Everything a simulated person does (write, press, open a link, block the bot), everything a
test sets up (users, groups, forums, migrations, flood settings) and everything it reads (each
chat's messages with their current keyboards, the Bot API call log) — over plain HTTP, so the
emulator may run in the test process while the bot runs in another.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp

__all__ = ["Button", "ChatMessage", "EmulatorClient", "EmulatorError"]

T = TypeVar("T")


class EmulatorError(Exception):
    """The control API refused a request (``status`` is its HTTP status)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Button:
    """One inline keyboard button: ``text`` plus ``callback_data`` or ``url`` (``raw`` has
    every field as the bot sent it)."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    raw: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, d: dict) -> Button:
        """Build from the Bot API object."""
        return cls(text=d.get("text", ""), callback_data=d.get("callback_data"),
                   url=d.get("url"), raw=d)


@dataclass
class ChatMessage:
    """A message as the chat shows it now.

    ``text`` is the plain text after HTML parsing (``source`` the text as the bot sent it,
    None for people's messages); a photo message has ``text`` None, its ``caption`` (after
    parsing; ``caption_source`` as sent, ``caption_entities``), ``photo`` the file id of the
    picture it shows and ``photo_size`` its ``[width, height]``; :attr:`shown` is the text or
    the caption, whichever the message has.  ``buttons`` the inline keyboard rows (empty if
    none),
    ``from_bot`` whether the bot sent it, ``thread_id`` its forum topic, ``service`` the
    service fields (``migrate_to_chat_id``…), ``edits`` how often it was edited and
    ``history`` every text it showed (``{"t", "text", "reply_markup"}``, and for a photo
    ``"caption"`` and ``"photo"``, the file id; :meth:`shown_texts` reads texts and captions
    alike).
    """

    chat_id: int
    message_id: int
    from_id: int
    from_bot: bool
    date: int
    text: str | None
    source: str | None = None
    entities: list[dict] = field(default_factory=list)
    buttons: list[list[Button]] = field(default_factory=list)
    thread_id: int | None = None
    reply_to: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    service: dict | None = None
    edits: int = 0
    history: list[dict] = field(default_factory=list)
    caption: str | None = None
    caption_source: str | None = None
    caption_entities: list[dict] = field(default_factory=list)
    photo: str | None = None
    photo_size: list[int] | None = None
    document: dict | None = None

    @classmethod
    def from_json(cls, d: dict) -> ChatMessage:
        """Build from the control API's message view."""
        return cls(
            chat_id=d["chat_id"], message_id=d["message_id"], from_id=d["from_id"],
            from_bot=d["from_bot"], date=d["date"], text=d.get("text"), source=d.get("source"),
            entities=d.get("entities") or [],
            buttons=[[Button.from_json(b) for b in row] for row in d.get("buttons") or []],
            thread_id=d.get("thread_id"), reply_to=d.get("reply_to"),
            edit_date=d.get("edit_date"), deleted=d.get("deleted", False),
            service=d.get("service"), edits=d.get("edits", 0), history=d.get("history") or [],
            caption=d.get("caption"), caption_source=d.get("caption_source"),
            caption_entities=d.get("caption_entities") or [], photo=d.get("photo"),
            photo_size=d.get("photo_size"), document=d.get("document"),
        )

    @property
    def shown(self) -> str | None:
        """The words the message shows now: its text, or a photo's caption."""
        return self.text if self.text is not None else self.caption

    def shown_texts(self) -> list[tuple[str | None, dict | None]]:
        """Every (text or caption, keyboard) the message showed, oldest first (the current
        one alone when the emulator keeps no history)."""
        if self.history:
            return [(h["text"] if h.get("text") is not None else h.get("caption"),
                     h.get("reply_markup")) for h in self.history]
        if self.shown is None:
            return []
        markup = {"inline_keyboard": [[b.raw for b in row] for row in self.buttons]}
        return [(self.shown, markup if self.buttons else None)]

    @property
    def photos(self) -> list[str]:
        """The file ids of every picture the message showed, oldest first (a new id only
        where the picture changed)."""
        ids = [h["photo"] for h in self.history if h.get("photo")]
        if not ids and self.photo:
            ids = [self.photo]
        return [f for i, f in enumerate(ids) if i == 0 or ids[i - 1] != f]

    @property
    def flat_buttons(self) -> list[Button]:
        """All buttons, row by row."""
        return [b for row in self.buttons for b in row]

    @property
    def button_texts(self) -> list[str]:
        """The texts of all buttons, row by row."""
        return [b.text for b in self.flat_buttons]

    def button(self, text: str) -> Button:
        """The button with exactly this text (KeyError if there is none)."""
        for b in self.flat_buttons:
            if b.text == text:
                return b
        raise KeyError(f"no button {text!r} in message {self.message_id}: {self.button_texts}")


class EmulatorClient:
    """Async client of the emulator's control API at ``base_url`` (the emulator's URL, the
    same one the bot uses as ``BOT_API_URL``).

    Control requests that cannot be carried out raise :class:`EmulatorError`; waits that run
    out raise ``TimeoutError``.  Close with :meth:`close` or use ``async with``.
    """

    def __init__(self, base_url: str, *, session: aiohttp.ClientSession | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._session = session
        self._own_session = session is None

    async def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
            self._own_session = True
        return self._session

    async def close(self) -> None:
        """Close the HTTP session (if this client opened it)."""
        if self._own_session and self._session is not None and not self._session.closed:
            await self._session.close()

    async def __aenter__(self) -> EmulatorClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _request(self, method: str, path: str, body: dict | None = None,
                       params: dict | None = None, timeout: float = 30.0) -> Any:
        session = await self._http()
        query = {k: ("true" if v is True else "false" if v is False else str(v))
                 for k, v in (params or {}).items() if v is not None}
        async with session.request(method, f"{self.base_url}/control/{path}", json=body,
                                   params=query,
                                   timeout=aiohttp.ClientTimeout(total=timeout)) as resp:
            data = await resp.json()
        if resp.status != 200:
            raise EmulatorError(resp.status, data.get("error", str(data)))
        return data["result"]

    # -- set-up --------------------------------------------------------------------------------

    async def reset(self) -> None:
        """Forget all users, chats, updates and logs."""
        await self._request("POST", "reset")

    async def state(self) -> dict:
        """Counters: ``version``, ``now`` (emulator clock), ``pending_updates``, ``calls``,
        ``last_call_seq``, ``last_call_t``, ``events``, ``chats``, ``users``,
        ``allowed_updates``, ``webhook_url``."""
        return await self._request("GET", "state")

    async def config(self) -> dict:
        """The current settings (see ``EmulatorConfig``)."""
        return await self._request("GET", "config")

    async def configure(self, **changes: Any) -> dict:
        """Change settings, e.g. ``configure(flood=False)``,
        ``configure(flood={"group_per_minute": 5})``, ``configure(callback_ttl=2.0)``,
        ``configure(privacy_mode=False)``, ``configure(latency=0.05)``,
        ``configure(fail_photos=1)``; the new settings."""
        return await self._request("POST", "config", changes)

    async def set_flood_control(self, enabled: bool) -> dict:
        """Switch flood control on or off."""
        return await self.configure(flood=enabled)

    async def create_user(self, id: int, first_name: str, *, last_name: str | None = None,
                          username: str | None = None, language_code: str | None = "ru",
                          is_bot: bool = False) -> dict:
        """Create (or update) a person; the ``User`` object plus ``started``/``blocked``."""
        return await self._request("POST", "users", {
            "id": id, "first_name": first_name, "last_name": last_name, "username": username,
            "language_code": language_code, "is_bot": is_bot})

    async def webapp_init_data(self, user_id: int, *, start_param: str | None = None,
                               auth_date: float | None = None) -> str:
        """Signed Mini App ``initData`` for ``user_id`` (see ``World.webapp_init_data``)."""
        body: dict[str, Any] = {"start_param": start_param}
        if auth_date is not None:
            body["auth_date"] = auth_date
        return (await self._request("POST", f"users/{user_id}/webapp_init_data",
                                    body))["init_data"]

    async def user(self, user_id: int) -> dict:
        """A user with ``started`` (wrote to the bot in private) and ``blocked``."""
        return await self._request("GET", f"users/{user_id}")

    async def create_chat(self, *, type: str = "group", title: str = "Kozel club",
                          id: int | None = None, members: Sequence[int] = (),
                          admins: Sequence[int] = (), creator: int | None = None,
                          is_forum: bool = False, username: str | None = None,
                          bot_status: str = "member", announce: bool = False) -> dict:
        """Create a ``group``, ``supergroup`` or ``forum`` with the bot in it (``bot_status``
        member / administrator / left; ``announce``: the bot receives ``my_chat_member`` as if
        just added).  ``creator`` defaults to the first member; the chat's info (``id``,
        ``type``, ``title``, ``members``…)."""
        return await self._request("POST", "chats", {
            "type": type, "title": title, "id": id, "members": list(members),
            "admins": list(admins), "creator": creator, "is_forum": is_forum,
            "username": username, "bot_status": bot_status, "announce": announce})

    async def chat(self, chat_id: int) -> dict:
        """A chat: its Bot API fields plus ``members`` ({user id: status}), ``bot_status``,
        ``migrated_to``, ``migrated_from``, ``topics``, ``pinned_message_id``,
        ``message_count``."""
        return await self._request("GET", f"chats/{chat_id}")

    async def chats(self) -> list[dict]:
        """Every chat (groups and private chats)."""
        return await self._request("GET", "chats")

    async def set_member(self, chat_id: int, user_id: int, status: str) -> dict:
        """Set a user's status in a group: creator, administrator, member, left, kicked (the
        bot gets a ``chat_member`` update if it administers the group and asked for them)."""
        return await self._request("POST", f"chats/{chat_id}/members",
                                   {"user_id": user_id, "status": status})

    async def create_topic(self, chat_id: int, name: str, *, user_id: int | None = None) -> int:
        """Open a forum topic; its ``message_thread_id``."""
        result = await self._request("POST", f"chats/{chat_id}/topics",
                                     {"name": name, "user_id": user_id})
        return result["message_thread_id"]

    # -- people act --------------------------------------------------------------------------

    async def send(self, user_id: int, text: str, *, chat_id: int | None = None,
                   thread_id: int | None = None, reply_to: int | None = None) -> dict:
        """``user_id`` writes ``text`` (commands get ``bot_command`` entities) in ``chat_id``
        (default: the private chat with the bot, which this opens).  ``{"chat_id",
        "message_id", "update_id"}``; ``update_id`` is None if the bot does not get it."""
        return await self._request("POST", "send", {
            "user_id": user_id, "text": text, "chat_id": chat_id, "thread_id": thread_id,
            "reply_to": reply_to})

    async def send_document(self, user_id: int, data: bytes, file_name: str = "file", *,
                            caption: str | None = None, chat_id: int | None = None,
                            reply_to: int | None = None) -> dict:
        """``user_id`` sends a file (``data``) in ``chat_id`` (default: the private chat with
        the bot).  ``{"chat_id", "message_id", "update_id", "file_id"}``."""
        import base64

        return await self._request("POST", "send_document", {
            "user_id": user_id, "data": base64.b64encode(data).decode("ascii"),
            "file_name": file_name, "caption": caption, "chat_id": chat_id,
            "reply_to": reply_to})

    async def start(self, user_id: int, payload: str | None = None) -> dict:
        """``user_id`` sends ``/start`` (with a deep-link payload) to the bot in private."""
        return await self.send(user_id, f"/start {payload}" if payload else "/start")

    async def press(self, user_id: int, chat_id: int, message_id: int, *,
                    text: str | None = None, index: int | Sequence[int] | None = None,
                    data: str | None = None) -> dict:
        """``user_id`` presses a button of a message: by ``text``, by ``index`` (flat number
        or ``(row, column)``), or with forged callback ``data``.  ``{"query_id", "update_id",
        "data"}`` for a callback button, ``{"url", …}`` for a URL button."""
        return await self._request("POST", "press", {
            "user_id": user_id, "chat_id": chat_id, "message_id": message_id, "text": text,
            "index": list(index) if isinstance(index, Sequence) else index, "data": data})

    async def follow_link(self, user_id: int, url: str) -> dict:
        """The user opens ``https://t.me/<bot>?start=<payload>``: ``/start <payload>``."""
        return await self._request("POST", "follow_link", {"user_id": user_id, "url": url})

    async def migrate(self, chat_id: int, *, user_id: int | None = None,
                      supergroup_id: int | None = None) -> int:
        """Upgrade a group to a supergroup (service messages ``migrate_to_chat_id`` and
        ``migrate_from_chat_id``); the supergroup's id."""
        result = await self._request("POST", f"chats/{chat_id}/migrate",
                                     {"user_id": user_id, "supergroup_id": supergroup_id})
        return result["supergroup_id"]

    async def remove_bot(self, chat_id: int, *, user_id: int | None = None,
                         kicked: bool = True) -> dict:
        """Remove the bot from a group (``my_chat_member`` update); the chat's info."""
        return await self._request("POST", f"chats/{chat_id}/remove_bot",
                                   {"user_id": user_id, "kicked": kicked})

    async def add_bot(self, chat_id: int, *, user_id: int | None = None,
                      admin: bool = False) -> dict:
        """Add the bot (back) to a group (``my_chat_member`` update); the chat's info."""
        return await self._request("POST", f"chats/{chat_id}/add_bot",
                                   {"user_id": user_id, "admin": admin})

    async def block(self, user_id: int) -> dict:
        """The user blocks the bot (403 "bot was blocked by the user" from now on)."""
        return await self._request("POST", f"users/{user_id}/block")

    async def unblock(self, user_id: int) -> dict:
        """The user unblocks the bot."""
        return await self._request("POST", f"users/{user_id}/unblock")

    # -- reading -------------------------------------------------------------------------------

    async def messages(self, chat_id: int, *, include_deleted: bool = False,
                       thread_id: int | None = None) -> list[ChatMessage]:
        """A chat's messages in order (people's and the bot's), with current texts and
        keyboards; optionally only one forum topic."""
        rows = await self._request("GET", f"chats/{chat_id}/messages",
                                   params={"include_deleted": include_deleted,
                                           "thread_id": thread_id})
        return [ChatMessage.from_json(r) for r in rows]

    async def message(self, chat_id: int, message_id: int) -> ChatMessage:
        """One message (deleted ones too)."""
        return ChatMessage.from_json(
            await self._request("GET", f"chats/{chat_id}/messages/{message_id}"))

    async def bot_messages(self, chat_id: int) -> list[ChatMessage]:
        """The bot's messages in a chat that are not deleted."""
        return [m for m in await self.messages(chat_id) if m.from_bot]

    async def last_bot_message(self, chat_id: int) -> ChatMessage | None:
        """The bot's newest message in a chat, or None."""
        mine = await self.bot_messages(chat_id)
        return mine[-1] if mine else None

    async def _bytes(self, path: str) -> bytes:
        session = await self._http()
        async with session.get(f"{self.base_url}/control/{path}",
                               timeout=aiohttp.ClientTimeout(total=30.0)) as resp:
            data = await resp.read()
            if resp.status != 200:
                raise EmulatorError(resp.status, (await resp.json()).get("error", ""))
        return data

    async def file(self, file_id: str) -> bytes:
        """The bytes of a photo the bot sent, by file id (``ChatMessage.photo``,
        ``ChatMessage.photos``), or of a document (``ChatMessage.document["file_id"]``);
        :class:`EmulatorError` 404 once the emulator forgot it."""
        return await self._bytes(f"files/{file_id}")

    async def photo(self, chat_id: int, message_id: int) -> bytes:
        """The bytes of the picture a message shows now; :class:`EmulatorError` 404 if it
        shows none."""
        return await self._bytes(f"chats/{chat_id}/messages/{message_id}/photo")

    async def photos(self, chat_id: int, message_id: int) -> list[bytes]:
        """The bytes of every picture a message showed, oldest first (needs the emulator's
        ``keep_history``, its default)."""
        msg = await self.message(chat_id, message_id)
        return [await self.file(f) for f in msg.photos]

    async def query(self, query_id: str) -> dict:
        """A callback query: ``data``, ``user_id``, ``t`` and ``answer`` (None until the bot
        answers; then ``text``, ``show_alert``, ``url``, ``t``)."""
        return await self._request("GET", f"queries/{query_id}")

    async def calls(self, *, since: int = 0, method: str | None = None,
                    chat_id: int | None = None) -> list[dict]:
        """Bot API calls after sequence number ``since``: ``seq``, ``method``, ``params``,
        ``chat_id``, ``t`` / ``t_end`` (emulator's monotonic clock), ``wall``, ``ok``,
        ``error_code``, ``description``, ``parameters``, ``message_id``, ``client`` (the client
        name of the base URL it came through, ``Emulator.client_url``; None for the plain
        one)."""
        return await self._request("GET", "calls", params={
            "since": since, "method": method, "chat_id": chat_id})

    async def events(self, *, since: int = 0) -> list[dict]:
        """What simulated people did: ``seq``, ``kind`` (message, callback_query, url,
        my_chat_member…), ``t``, ``update_id`` and, once the bot fetched it, ``delivered_t``."""
        return await self._request("GET", "events", params={"since": since})

    async def clear_logs(self) -> None:
        """Drop the call and event logs."""
        await self._request("DELETE", "logs")

    async def commands(self) -> list[dict]:
        """Every stored command list: ``scope``, ``language_code``, ``commands``."""
        return await self._request("GET", "commands")

    async def pending_updates(self) -> list[dict]:
        """Updates the bot has not confirmed yet."""
        return await self._request("GET", "updates")

    # -- waiting -------------------------------------------------------------------------------

    async def wait_change(self, since: int, timeout: float = 10.0) -> int:
        """Wait until the emulator's state version exceeds ``since`` (or ``timeout``); the
        current version."""
        result = await self._request("GET", "wait", params={"since": since, "timeout": timeout},
                                     timeout=timeout + 10.0)
        return result["version"]

    async def wait_until(self, predicate: Callable[[], T | Awaitable[T]], *,
                         timeout: float = 5.0, what: str = "condition") -> T:
        """Re-evaluate ``predicate()`` (sync or async) after every change of the emulator's
        state until it returns something truthy, and return that; ``TimeoutError`` after
        ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        version = (await self.state())["version"]
        while True:
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{what} did not hold within {timeout} s")
            version = await self.wait_change(version, min(remaining, 5.0))

    async def wait_chat(self, chat_id: int, predicate: Callable[[list[ChatMessage]], Any], *,
                        timeout: float = 5.0, include_deleted: bool = False
                        ) -> list[ChatMessage]:
        """Wait until ``predicate(messages of the chat)`` holds; those messages."""
        async def check() -> list[ChatMessage] | None:
            msgs = await self.messages(chat_id, include_deleted=include_deleted)
            return msgs if predicate(msgs) else None

        return await self.wait_until(check, timeout=timeout, what=f"chat {chat_id} predicate")

    async def wait_message(self, chat_id: int,
                           predicate: Callable[[ChatMessage], Any] = lambda m: m.from_bot, *,
                           timeout: float = 5.0, after: int = 0) -> ChatMessage:
        """Wait for a message of the chat with id > ``after`` matching ``predicate`` (default:
        any message of the bot); the first such message."""
        async def check() -> ChatMessage | None:
            for m in await self.messages(chat_id):
                if m.message_id > after and predicate(m):
                    return m
            return None

        return await self.wait_until(check, timeout=timeout, what=f"message in chat {chat_id}")

    async def wait_answer(self, query_id: str, *, timeout: float = 5.0) -> dict:
        """Wait until the bot answers a callback query; the answer (``text``, ``show_alert``,
        ``url``, ``t``)."""
        async def check() -> dict | None:
            return (await self.query(query_id))["answer"]

        return await self.wait_until(check, timeout=timeout, what=f"answer to {query_id}")

    async def wait_idle(self, *, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until the bot has confirmed every update and made no Bot API call for
        ``quiet`` seconds of the emulator's clock."""
        deadline = time.monotonic() + timeout
        while True:
            s = await self.state()
            idle_for = s["now"] - s["last_call_t"] if s["last_call_t"] is not None else quiet
            if s["pending_updates"] == 0 and idle_for >= quiet:
                return
            if time.monotonic() >= deadline:
                raise TimeoutError(f"the bot did not go quiet within {timeout} s")
            await asyncio.sleep(max(0.01, min(quiet - idle_for, quiet / 3)))
