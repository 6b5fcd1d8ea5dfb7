"""The emulated Telegram: users, chats, messages, the update queue, flood control and the logs.

:class:`World` holds all state and implements both sides: the Bot API methods the bot calls
(``api_*``, see :mod:`tests.emulator.botapi` for the HTTP glue) and the actions of simulated
people (``user_*`` and friends, used by the control API).  It runs on one event loop; every
method runs to completion without awaiting, except the waits (long polling, ``wait_change``),
so no locking is needed.

Errors the bot can meet are raised as :class:`ApiError` with Telegram's code and description;
mistakes of a test (unknown user, pressing a button that is not there) raise
:class:`ControlError`.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import itertools
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from .html import command_entities

__all__ = [
    "ApiError",
    "ControlError",
    "EmulatorConfig",
    "FloodLimits",
    "World",
]

#: Update types delivered when the bot never set ``allowed_updates`` (or set an empty list).
DEFAULT_UPDATES = frozenset({
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages",
    "inline_query", "chosen_inline_result", "callback_query", "shipping_query",
    "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member",
    "chat_join_request", "chat_boost", "removed_chat_boost",
})
#: Longest callback_data a client can send (bytes).
MAX_CALLBACK_DATA = 64
_GROUPS = ("group", "supergroup")
_PRESENT = ("creator", "administrator", "member", "restricted")


class ApiError(Exception):
    """A Bot API error: HTTP ``code``, Telegram's ``description`` and optional ``parameters``
    (``retry_after``, ``migrate_to_chat_id``)."""

    def __init__(self, code: int, description: str, **parameters: Any) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters


class ControlError(Exception):
    """A control request that cannot be carried out (the test asked for something impossible).
    ``code`` is the HTTP status the control API answers with."""

    def __init__(self, message: str, code: int = 400) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class FloodLimits:
    """Telegram's flood control, as enforced by the emulator (429 with ``retry_after``).

    Counted are sends and edits (``sendMessage``, ``sendPhoto``, ``editMessageText``,
    ``editMessageReplyMarkup``, ``editMessageMedia``, ``editMessageCaption``) that succeed.
    ``chat_interval``: at most one per that many seconds in a group; a private chat takes a
    short burst of ``private_burst`` and then one per ``chat_interval`` (a token bucket, as
    Telegram allows "short bursts" over one a second); ``group_per_minute``: at most that many
    per 60 s in a group or supergroup; ``global_per_second``: at most that many per second
    over all chats (None: no limit).  ``enabled=False`` switches flood control off for fast
    tests.
    """

    enabled: bool = True
    chat_interval: float = 1.0
    private_burst: int = 3
    group_per_minute: int = 20
    global_per_second: int | None = 30


@dataclass
class EmulatorConfig:
    """Behaviour switches of the emulator (all changeable at run time via the control API).

    ``privacy_mode``: in groups the bot receives only commands, replies to its messages and
    service messages, like a bot with BotFather's default privacy mode.  ``callback_ttl``:
    seconds after which a callback query can no longer be answered.  ``keep_history``: keep
    every earlier text of a message (and every earlier photo's bytes; without it only the
    photos messages show now are kept).  ``log_calls``: keep the Bot API call log;
    ``log_polls``: include ``getUpdates`` calls in it.  ``latency``: seconds every Bot API
    answer is delayed by, to imitate the network.  ``fail_photos``: refuse that many photo
    uploads (``sendPhoto``, ``editMessageMedia``) with 400 ``IMAGE_PROCESS_FAILED``, as
    Telegram refuses an image it cannot process; each refusal counts it down.
    """

    flood: FloodLimits = field(default_factory=FloodLimits)
    privacy_mode: bool = True
    callback_ttl: float = 15.0
    keep_history: bool = True
    log_calls: bool = True
    log_polls: bool = False
    latency: float = 0.0
    fail_photos: int = 0
    #: webhook delivery (tests/emulator/webhook.py): the URLs behind the "load balancer",
    #: seconds before an unanswered POST counts as failed, seconds between retries, seconds
    #: a target that failed is passed over
    webhook_targets: list[str] = field(default_factory=list)
    webhook_timeout: float = 2.0
    webhook_retry: float = 0.2
    webhook_fail_duration: float = 10.0


@dataclass
class User:
    """A simulated person (or the bot itself, ``is_bot``)."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False  # wrote to the bot in private, so the bot may write to them
    blocked: bool = False  # blocked the bot

    def api(self) -> dict:
        """The Bot API ``User`` object."""
        d: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key):
                d[key] = getattr(self, key)
        return d


@dataclass
class Msg:
    """One message of a chat as it is now (plus, with ``keep_history``, its earlier texts)."""

    chat_id: int
    message_id: int
    date: int
    from_id: int
    text: str | None = None
    entities: list[dict] = field(default_factory=list)
    source: str | None = None  # the text as the bot sent it (before HTML parsing)
    markup: dict | None = None  # {"inline_keyboard": [[button, ...], ...]} or another keyboard
    thread_id: int | None = None
    reply_to: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    service: dict | None = None
    edits: int = 0
    history: list[dict] = field(default_factory=list)
    caption: str | None = None  # a photo's caption after HTML parsing
    caption_entities: list[dict] = field(default_factory=list)
    caption_source: str | None = None  # the caption as the bot sent it
    photo: str | None = None  # the file id of the photo the message shows
    document: str | None = None  # the file id of the file (document) the message carries

    def snapshot(self, t: float) -> dict:
        """What the message shows now, as a ``history`` entry: ``t``, ``text``,
        ``reply_markup`` and, for a photo, ``caption`` and ``photo`` (its file id)."""
        entry: dict[str, Any] = {"t": t, "text": self.text, "reply_markup": self.markup}
        if self.photo is not None:
            entry["caption"] = self.caption
            entry["photo"] = self.photo
        return entry


@dataclass
class StoredFile:
    """A photo the bot uploaded: its bytes, pixel size and ids.  Uploads of the same bytes are
    one file (one ``file_unique_id``), as on Telegram."""

    file_id: str
    unique_id: str
    data: bytes
    width: int
    height: int
    format: str
    digest: str
    refs: int = 0  # messages showing it now


@dataclass
class StoredDocument:
    """A file sent as a document, by the bot or by a person: its bytes, name and ids; the
    bot downloads it by ``getFile`` and ``/file/bot<token>/<file_path>``."""

    file_id: str
    unique_id: str
    data: bytes
    file_name: str
    mime_type: str

    @property
    def file_path(self) -> str:
        return f"documents/{self.file_id}"

    def api(self) -> dict:
        """The Bot API ``Document`` object."""
        return {"file_id": self.file_id, "file_unique_id": self.unique_id,
                "file_name": self.file_name, "mime_type": self.mime_type,
                "file_size": len(self.data)}


#: Telegram's largest file a bot may send or download with getFile [bytes].
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024

#: Telegram's limits for a photo: its bytes, the sum of its sides, the ratio of its sides.
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000
MAX_PHOTO_RATIO = 20
#: The sides Telegram scales a photo's smaller copies to (``PhotoSize``): s, m, x, y [pixels].
PHOTO_SIZES = (90, 320, 800, 1280)


@dataclass
class Chat:
    """A private chat, group or supergroup (forum if ``is_forum``)."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    is_forum: bool = False
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    bot_status: str = "member"
    migrated_to: int | None = None
    migrated_from: int | None = None
    topics: dict[int, str] = field(default_factory=dict)  # thread id -> name
    messages: dict[int, Msg] = field(default_factory=dict)
    next_message_id: int = 1
    pinned: int | None = None
    last_counted: float | None = None
    window: deque = field(default_factory=deque)
    tokens: float | None = None  # a private chat's flood bucket (None: full)


@dataclass
class Query:
    """A callback query sent to the bot and, once answered, the answer."""

    id: str
    chat_id: int
    message_id: int
    user_id: int
    data: str
    t: float
    update_id: int
    answer: dict | None = None


class World:
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
        #: base URL; see ``Emulator.client_url``), counted when the request is taken up.
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
        """Wait until ``version`` exceeds ``since`` or ``timeout`` seconds pass; the version."""
        if self.version > since or timeout <= 0:
            return self.version
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            pass
        return self.version

    def close(self) -> None:
        """Wake every waiter (long polls answer at once) before the server stops."""
        self.closing = True
        self.changed()

    def now(self) -> int:
        """Unix time for ``date`` fields."""
        return int(self.wall())

    # -- users and chats (control) ---------------------------------------------------------------

    def create_user(self, id: int, first_name: str, last_name: str | None = None,
                    username: str | None = None, language_code: str | None = "ru",
                    is_bot: bool = False) -> dict:
        """Create (or update) a person; ``id`` must be positive and not the bot's."""
        if id <= 0 or id == self.bot.id:
            raise ControlError(f"user id {id} must be positive and not the bot's id")
        user = self.users.get(id)
        if user is None:
            user = self.users[id] = User(id=id, first_name=first_name)
        user.first_name, user.last_name, user.username = first_name, last_name, username
        user.language_code, user.is_bot = language_code, is_bot
        self.changed()
        return self.user_info(id)

    def user_info(self, user_id: int) -> dict:
        """A user with the emulator's flags (``started``, ``blocked``)."""
        user = self._user(user_id)
        return {**user.api(), "started": user.started, "blocked": user.blocked}

    def webapp_init_data(self, user_id: int, start_param: str | None = None,
                         auth_date: float | None = None, query_id: str | None = None) -> dict:
        """The ``initData`` Telegram hands a Mini App opened by ``user_id`` (a known user):
        ``query_id`` (for a ``web_app`` button), ``user`` (JSON), ``auth_date`` (default now,
        Unix seconds), ``start_param`` (a direct link's ``startapp``), signed with the bot
        token as https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app
        says.  ``{"init_data": query string}``."""
        import json

        from delivery.initdata import sign_init_data

        user = self._user(user_id)
        fields = {"user": json.dumps({k: v for k, v in user.api().items() if v is not None},
                                     separators=(",", ":"), ensure_ascii=False),
                  "auth_date": str(int(time.time() if auth_date is None else auth_date))}
        if start_param is not None:
            fields["start_param"] = start_param
        if query_id is not None:
            fields["query_id"] = query_id
        return {"init_data": sign_init_data(fields, self.token)}

    def create_chat(self, type: str = "group", title: str = "Kozel club", id: int | None = None,
                    members: list[int] | tuple[int, ...] = (), admins: list[int] | tuple = (),
                    creator: int | None = None, is_forum: bool = False,
                    username: str | None = None, bot_status: str = "member",
                    announce: bool = False) -> dict:
        """Create a group, supergroup or forum (``type="forum"``) with the bot in it.

        ``members`` (known users) become members, ``admins`` administrators, ``creator``
        (default: the first member) the owner.  ``id`` defaults to a fresh negative id
        (-100… for supergroups).  ``bot_status``: member, administrator or left.  With
        ``announce`` the bot receives ``my_chat_member`` (left → its status) from the owner,
        as when someone adds it to a group; otherwise it was there all along.
        """
        if type == "forum":
            type, is_forum = "supergroup", True
        if type not in _GROUPS:
            raise ControlError("chat type must be group, supergroup or forum "
                               "(private chats appear when a user writes to the bot)")
        if is_forum and type != "supergroup":
            raise ControlError("only a supergroup can be a forum")
        if bot_status not in ("member", "administrator", "left"):
            raise ControlError("bot_status must be member, administrator or left")
        if id is None:
            n = next(self._chat_ids)
            id = -(1_000_000_000_000 + 1000 + n) if type == "supergroup" else -(1000 + n)
        if id >= 0 or id in self.chats:
            raise ControlError(f"chat id {id} must be negative and new")
        all_ids = list(dict.fromkeys([*([creator] if creator else []), *members, *admins]))
        for uid in all_ids:
            self._user(uid)
        chat = Chat(id=id, type=type, title=title, username=username, is_forum=is_forum,
                    bot_status=bot_status)
        owner = creator if creator is not None else (all_ids[0] if all_ids else None)
        for uid in all_ids:
            chat.members[uid] = ("creator" if uid == owner else
                                 "administrator" if uid in admins else "member")
        self.chats[id] = chat
        if announce and bot_status != "left" and owner is not None:
            chat.bot_status = "left"
            self._set_bot_status(chat, bot_status, owner)
        self.changed()
        return self.chat_info(id)

    def set_member(self, chat_id: int, user_id: int, status: str) -> dict:
        """Set a user's status in a group: creator, administrator, member, left or kicked.
        Emits a ``chat_member`` update as Telegram does: only to a bot that is an
        administrator of the group, and delivered only if the bot asked for them in
        ``allowed_updates``; otherwise the event is logged with no update id."""
        chat = self._group(chat_id)
        self._user(user_id)
        if status not in ("creator", "administrator", "member", "left", "kicked"):
            raise ControlError(f"unknown member status {status!r}")
        old = chat.members.get(user_id, "left")
        chat.members[user_id] = status
        if chat.bot_status != "administrator":
            self._event("chat_member", update_id=None, chat_id=chat_id, user_id=user_id)
            self.changed()
            return self.chat_info(chat_id)
        self._push("chat_member", {
            "chat": self._chat_api(chat), "from": self.users[user_id].api(), "date": self.now(),
            "old_chat_member": self._member_api(chat, user_id, old),
            "new_chat_member": self._member_api(chat, user_id, status),
        }, chat_id=chat_id, user_id=user_id)
        return self.chat_info(chat_id)

    def create_topic(self, chat_id: int, name: str, user_id: int | None = None) -> dict:
        """Open a forum topic; its thread id is the id of the ``forum_topic_created`` service
        message, which the bot receives as a message update."""
        chat = self._group(chat_id)
        if not chat.is_forum:
            raise ControlError(f"chat {chat_id} is not a forum")
        user_id = user_id if user_id is not None else self._owner(chat)
        msg = self._store(chat, user_id, None, service={
            "forum_topic_created": {"name": name, "icon_color": 0x6FB9F0}})
        msg.thread_id = msg.message_id
        chat.topics[msg.message_id] = name
        update_id = self._deliver_message(chat, msg)
        return {"message_thread_id": msg.message_id, "update_id": update_id}

    def chat_info(self, chat_id: int) -> dict:
        """A chat's Bot API object plus members, the bot's status, migration and topics."""
        chat = self._chat(chat_id)
        return {
            **self._chat_api(chat),
            "members": {str(k): v for k, v in chat.members.items()},
            "bot_status": chat.bot_status,
            "migrated_to": chat.migrated_to,
            "migrated_from": chat.migrated_from,
            "topics": {str(k): v for k, v in chat.topics.items()},
            "pinned_message_id": chat.pinned,
            "message_count": sum(not m.deleted for m in chat.messages.values()),
        }

    def chat_list(self) -> list[dict]:
        """Every chat (groups and private chats), in creation order."""
        return [self.chat_info(cid) for cid in self.chats]

    def messages(self, chat_id: int, include_deleted: bool = False,
                 thread_id: int | None = None) -> list[dict]:
        """A chat's messages in order, each as :meth:`message_view` shows it."""
        chat = self._chat(chat_id)
        return [self.message_view(m) for m in chat.messages.values()
                if (include_deleted or not m.deleted)
                and (thread_id is None or m.thread_id == thread_id)]

    def message(self, chat_id: int, message_id: int) -> dict:
        """One message (deleted ones too) as :meth:`message_view` shows it."""
        chat = self._chat(chat_id)
        msg = chat.messages.get(message_id)
        if msg is None:
            raise ControlError(f"no message {message_id} in chat {chat_id}", 404)
        return self.message_view(msg)

    def message_view(self, msg: Msg) -> dict:
        """A message for tests: text, entities, ``buttons`` rows, sender, thread, edits."""
        markup = msg.markup or {}
        return {
            "chat_id": msg.chat_id,
            "message_id": msg.message_id,
            "from_id": msg.from_id,
            "from_bot": msg.from_id == self.bot.id,
            "date": msg.date,
            "edit_date": msg.edit_date,
            "text": msg.text,
            "source": msg.source,
            "entities": msg.entities,
            "buttons": markup.get("inline_keyboard", []),
            "reply_markup": msg.markup,
            "thread_id": msg.thread_id,
            "reply_to": msg.reply_to,
            "deleted": msg.deleted,
            "service": msg.service,
            "edits": msg.edits,
            "history": msg.history,
            "caption": msg.caption,
            "caption_source": msg.caption_source,
            "caption_entities": msg.caption_entities,
            "photo": msg.photo,
            "photo_size": ([self.files[msg.photo].width, self.files[msg.photo].height]
                           if msg.photo in self.files else None),
            "document": (self.documents[msg.document].api()
                         if msg.document in self.documents else None),
        }

    # -- photos ------------------------------------------------------------------------------

    def store_photo(self, data: bytes) -> StoredFile:
        """Keep an uploaded photo and return its file; the same bytes give the same file.

        Raises :class:`ApiError` as Telegram does: 400 ``IMAGE_PROCESS_FAILED`` for bytes that
        are not an image (or while ``fail_photos`` refuses uploads),
        ``PHOTO_INVALID_DIMENSIONS`` for sides that add up to more than 10,000 pixels or differ
        more than 20 times, 413 for more than 10 MB.
        """
        if self.config.fail_photos > 0:
            self.config.fail_photos -= 1
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        if len(data) > MAX_PHOTO_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        digest = hashlib.sha256(data).hexdigest()
        known = self._file_by_hash.get(digest)
        if known is not None and known in self.files:
            return self.files[known]
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(data)) as im:
                im.verify()
                width, height, fmt = im.width, im.height, im.format or "?"
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from exc
        if (width + height > MAX_PHOTO_SIDES or not width or not height
                or max(width, height) > MAX_PHOTO_RATIO * min(width, height)):
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        n = next(self._file_seq)
        file = StoredFile(file_id=f"AgACAgIAAx{n:010d}{digest[:16]}",
                          unique_id=f"AQAD{digest[:12]}", data=data, width=width,
                          height=height, format=fmt, digest=digest)
        self.files[file.file_id] = file
        self._file_by_hash[digest] = file.file_id
        return file

    def photo_file(self, file_id: str) -> StoredFile | None:
        """The file of a ``file_id`` the bot got back (any of a photo's sizes), or None."""
        base = file_id.split(":", 1)[0]
        return self.files.get(base)

    def photo_sizes(self, file: StoredFile) -> list[dict]:
        """The ``PhotoSize`` list of a message's ``photo``: smaller copies, then the original
        (the original's ``file_id`` is the file's; a copy's ``file_id`` names it too)."""
        out = []
        for side in PHOTO_SIZES:
            if side >= max(file.width, file.height):
                break
            scale = side / max(file.width, file.height)
            out.append({"file_id": f"{file.file_id}:{side}",
                        "file_unique_id": f"{file.unique_id}{side}",
                        "width": max(1, round(file.width * scale)),
                        "height": max(1, round(file.height * scale))})
        out.append({"file_id": file.file_id, "file_unique_id": file.unique_id,
                    "width": file.width, "height": file.height, "file_size": len(file.data)})
        return out

    def set_photo(self, msg: Msg, file_id: str | None) -> None:
        """Show ``file_id`` in ``msg``; without ``keep_history`` a photo no message shows any
        more is forgotten (so a long load test keeps only the pictures on screen)."""
        old, msg.photo = msg.photo, file_id
        if old == file_id:
            return
        new = self.files.get(file_id) if file_id is not None else None
        if new is not None:
            new.refs += 1
        gone = self.files.get(old) if old is not None else None
        if gone is None:
            return
        gone.refs -= 1
        self.forget_unshown(gone)

    def forget_unshown(self, file: StoredFile) -> None:
        """Forget an upload that no message shows (a refused edit), unless history is kept."""
        if file.refs <= 0 and not self.config.keep_history:
            self.files.pop(file.file_id, None)
            self._file_by_hash.pop(file.digest, None)

    def file_data(self, file_id: str) -> bytes:
        """The bytes of a photo or a document (control API); 404 if it is not kept."""
        doc = self.documents.get(str(file_id))
        if doc is not None:
            return doc.data
        file = self.photo_file(str(file_id))
        if file is None:
            raise ControlError(f"no file {file_id}", 404)
        return file.data

    # -- documents ---------------------------------------------------------------------------

    def store_document(self, data: bytes, file_name: str,
                       mime_type: str = "application/octet-stream") -> StoredDocument:
        """Keep a file sent as a document and return it (413 over Telegram's 50 MB)."""
        if len(data) > MAX_DOCUMENT_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        n = next(self._file_seq)
        digest = hashlib.sha256(data).hexdigest()
        doc = StoredDocument(file_id=f"BQACAgIAAx{n:010d}{digest[:16]}",
                             unique_id=f"AgAD{digest[:12]}", data=data,
                             file_name=file_name or "file", mime_type=mime_type)
        self.documents[doc.file_id] = doc
        return doc

    def get_file(self, file_id: str) -> dict:
        """``getFile``: the ``File`` of a document (its ``file_path`` to download); 400 for an
        unknown id or a file over the 20 MB a bot may download."""
        doc = self.documents.get(str(file_id))
        if doc is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        if len(doc.data) > MAX_DOWNLOAD_BYTES:
            raise ApiError(400, "Bad Request: file is too big")
        return {"file_id": doc.file_id, "file_unique_id": doc.unique_id,
                "file_size": len(doc.data), "file_path": doc.file_path}

    def download(self, file_path: str) -> bytes:
        """The bytes behind a ``file_path`` of :meth:`get_file` (404 for another path)."""
        prefix = "documents/"
        doc = self.documents.get(file_path[len(prefix):]) if file_path.startswith(prefix) \
            else None
        if doc is None:
            raise ControlError(f"no file {file_path}", 404)
        return doc.data

    def user_send_document(self, user_id: int, data: bytes, file_name: str = "file", *,
                           caption: str | None = None, chat_id: int | None = None,
                           reply_to: int | None = None,
                           mime_type: str = "application/json") -> dict:
        """``user_id`` sends a file in ``chat_id`` (default: the private chat with the bot),
        with an optional ``caption`` (a command in it gets its entity).  Returns
        ``message_id``, ``update_id`` and the ``file_id``."""
        user = self._user(user_id)
        if chat_id is None or chat_id == user_id:
            chat = self._private(user, create=True)
            user.started = True
        else:
            chat = self._group(chat_id)
        if reply_to is not None and self._live(chat, reply_to) is None:
            raise ControlError(f"no message {reply_to} to reply to in chat {chat.id}")
        doc = self.store_document(data, file_name, mime_type)
        msg = self._store(chat, user_id, None, reply_to=reply_to, caption=caption,
                          caption_entities=command_entities(caption) if caption else None,
                          caption_source=caption)
        msg.document = doc.file_id
        update_id = self._deliver_message(chat, msg, force=chat.type == "private")
        return {"chat_id": chat.id, "message_id": msg.message_id, "update_id": update_id,
                "file_id": doc.file_id}

    def message_photo(self, chat_id: int, message_id: int) -> bytes:
        """The bytes of the photo a message shows now (control API); 404 if it shows none."""
        chat = self._chat(chat_id)
        msg = chat.messages.get(message_id)
        if msg is None:
            raise ControlError(f"no message {message_id} in chat {chat_id}", 404)
        if msg.photo is None:
            raise ControlError(f"message {message_id} in chat {chat_id} has no photo", 404)
        return self.file_data(msg.photo)

    # -- people act (control) --------------------------------------------------------------------

    def user_send(self, user_id: int, text: str, chat_id: int | None = None,
                  thread_id: int | None = None, reply_to: int | None = None) -> dict:
        """``user_id`` writes ``text`` in ``chat_id`` (default: the private chat with the bot).

        Commands get ``bot_command`` entities.  Writing in private opens the chat (the bot may
        then write to the user) and unblocks the bot, as the "Restart" button does.  In a
        forum, ``thread_id`` picks the topic.  Returns ``message_id`` and ``update_id`` (None
        if the bot does not receive it: privacy mode, bot not in the chat).
        """
        user = self._user(user_id)
        if chat_id is None or chat_id == user_id:
            chat = self._private(user, create=True)
            if user.blocked:
                self._set_blocked(user, False)
            user.started = True
        else:
            chat = self._group(chat_id)
            if chat.migrated_to is not None:
                raise ControlError(f"chat {chat_id} was migrated to {chat.migrated_to}", 409)
            if chat.members.get(user_id) not in _PRESENT:
                raise ControlError(f"user {user_id} is not a member of chat {chat_id}", 409)
        if not text:
            raise ControlError("empty text")
        if thread_id is not None and thread_id not in chat.topics:
            raise ControlError(f"no topic {thread_id} in chat {chat.id}")
        if reply_to is not None and self._live(chat, reply_to) is None:
            raise ControlError(f"no message {reply_to} to reply to in chat {chat.id}")
        if reply_to is not None and thread_id is None:
            thread_id = chat.messages[reply_to].thread_id
        msg = self._store(chat, user_id, text, entities=command_entities(text),
                          thread_id=thread_id, reply_to=reply_to or thread_id)
        update_id = self._deliver_message(chat, msg)
        return {"chat_id": chat.id, "message_id": msg.message_id, "update_id": update_id}

    def follow_link(self, user_id: int, url: str) -> dict:
        """The user opens a ``t.me/<bot>?start=<payload>`` link: ``/start <payload>`` in
        private (what a Telegram client does)."""
        prefixes = [f"https://t.me/{self.bot.username}?start=", f"t.me/{self.bot.username}?start=",
                    f"http://t.me/{self.bot.username}?start=",
                    f"tg://resolve?domain={self.bot.username}&start="]
        for prefix in prefixes:
            if url.startswith(prefix):
                payload = url[len(prefix):]
                return self.user_send(user_id, f"/start {payload}" if payload else "/start")
        if url in (f"https://t.me/{self.bot.username}", f"tg://resolve?domain={self.bot.username}"):
            return self.user_send(user_id, "/start")
        raise ControlError(f"not a start link of this bot: {url}")

    def user_press(self, user_id: int, chat_id: int, message_id: int, *,
                   text: str | None = None, index: int | list[int] | None = None,
                   data: str | None = None) -> dict:
        """``user_id`` presses a button of a message: by ``text`` (exact), by ``index`` (flat
        number, or ``[row, column]``), or sends a forged ``data`` (any string, whether or not
        the keyboard has it).

        A callback button becomes a ``callback_query`` update: ``{"query_id", "update_id",
        "data"}``.  A URL button only returns ``{"url"}`` (clients open it; no update).
        """
        user = self._user(user_id)
        chat = self._chat(chat_id)
        if chat.type == "private":
            if chat.id != user_id:
                raise ControlError(f"user {user_id} cannot see private chat {chat_id}", 409)
            if user.blocked:
                raise ControlError(f"user {user_id} blocked the bot", 409)
        elif chat.members.get(user_id) not in _PRESENT:
            raise ControlError(f"user {user_id} is not a member of chat {chat_id}", 409)
        msg = self._live(chat, message_id)
        if msg is None:
            raise ControlError(f"no message {message_id} in chat {chat_id}", 404)
        if data is None:
            button = self._find_button(msg, text, index)
            if "url" in button:
                self._event("url", chat_id=chat_id, user_id=user_id, message_id=message_id,
                            url=button["url"])
                return {"url": button["url"], "query_id": None, "update_id": None}
            if "callback_data" not in button:
                raise ControlError(f"button {button.get('text')!r} has no callback data")
            data = button["callback_data"]
        elif not data or len(data.encode()) > MAX_CALLBACK_DATA:
            raise ControlError("a client cannot send callback data that is empty or over 64 "
                               "bytes")
        qid = f"{self.bot.id}{next(self._query_ids):012d}"
        payload = {
            "id": qid,
            "from": user.api(),
            "message": self._message_api(chat, msg),
            "chat_instance": str((chat.id * 2654435761) % (1 << 62)),
            "data": data,
        }
        update_id = self._push("callback_query", payload, chat_id=chat_id, user_id=user_id,
                               message_id=message_id, data=data, query_id=qid)
        self.queries[qid] = Query(id=qid, chat_id=chat_id, message_id=message_id,
                                  user_id=user_id, data=data, t=self.clock(), update_id=update_id)
        return {"query_id": qid, "update_id": update_id, "data": data}

    def query_info(self, query_id: str) -> dict:
        """A callback query and its answer (None until the bot answers)."""
        query = self.queries.get(str(query_id))
        if query is None:
            raise ControlError(f"no callback query {query_id}", 404)
        return asdict(query)

    def migrate(self, chat_id: int, user_id: int | None = None,
                supergroup_id: int | None = None) -> dict:
        """Upgrade a group to a supergroup, as Telegram does when a group gets big or public.

        The bot receives a service message ``migrate_to_chat_id`` in the old group and
        ``migrate_from_chat_id`` in the new supergroup; afterwards every method on the old id
        fails with 400 "group chat was upgraded to a supergroup chat" (``migrate_to_chat_id``).
        Members, admins and the bot's status carry over; message ids start afresh.
        """
        old = self._group(chat_id)
        if old.type != "group" or old.migrated_to is not None:
            raise ControlError(f"chat {chat_id} is not a basic group", 409)
        new_id = supergroup_id if supergroup_id is not None else int(f"-100{abs(chat_id):010d}")
        if new_id in self.chats or new_id >= 0:
            raise ControlError(f"supergroup id {new_id} is taken or not negative")
        user_id = user_id if user_id is not None else self._owner(old)
        new = Chat(id=new_id, type="supergroup", title=old.title, members=dict(old.members),
                   bot_status=old.bot_status, migrated_from=old.id)
        self.chats[new_id] = new
        old.migrated_to = new_id
        m1 = self._store(old, user_id, None, service={"migrate_to_chat_id": new_id})
        m2 = self._store(new, user_id, None, service={"migrate_from_chat_id": old.id})
        first = self._deliver_message(old, m1, force=True)
        second = self._deliver_message(new, m2, force=True)
        return {"supergroup_id": new_id, "update_ids": [first, second]}

    def remove_bot(self, chat_id: int, user_id: int | None = None, kicked: bool = True) -> dict:
        """Remove the bot from a group (``kicked``) or make it leave; the bot receives a
        ``my_chat_member`` update and then 403 for anything it sends there."""
        chat = self._group(chat_id)
        return self._set_bot_status(chat, "kicked" if kicked else "left",
                                    user_id if user_id is not None else self._owner(chat))

    def add_bot(self, chat_id: int, user_id: int | None = None, admin: bool = False) -> dict:
        """Add the bot back to a group (``my_chat_member`` update)."""
        chat = self._group(chat_id)
        return self._set_bot_status(chat, "administrator" if admin else "member",
                                    user_id if user_id is not None else self._owner(chat))

    def block(self, user_id: int, blocked: bool = True) -> dict:
        """The user blocks (or unblocks) the bot: 403 "bot was blocked by the user" for every
        message to them meanwhile; the bot receives ``my_chat_member`` (kicked / member)."""
        user = self._user(user_id)
        self._set_blocked(user, blocked)
        return self.user_info(user_id)

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

    # -- updates -----------------------------------------------------------------------------------

    def _push(self, kind: str, payload: dict, **info: Any) -> int:
        update_id = self.next_update_id
        self.next_update_id += 1
        self.updates.append({"update_id": update_id, kind: payload})
        self._event(kind, update_id=update_id, **info)
        self.changed()
        return update_id

    def _deliver_message(self, chat: Chat, msg: Msg, force: bool = False) -> int | None:
        """Queue a message update if the bot would receive it; the update id or None."""
        if chat.type != "private":
            if chat.bot_status not in ("member", "administrator"):
                self._event("message", update_id=None, chat_id=chat.id, user_id=msg.from_id,
                            message_id=msg.message_id, text=msg.text)
                self.changed()
                return None
            if (self.config.privacy_mode and not force and msg.service is None
                    and not self._meant_for_bot(chat, msg)):
                self._event("message", update_id=None, chat_id=chat.id, user_id=msg.from_id,
                            message_id=msg.message_id, text=msg.text)
                self.changed()
                return None
        return self._push("message", self._message_api(chat, msg), chat_id=chat.id,
                          user_id=msg.from_id, message_id=msg.message_id, text=msg.text)

    def _meant_for_bot(self, chat: Chat, msg: Msg) -> bool:
        if msg.reply_to is not None and msg.reply_to != msg.thread_id:
            replied = chat.messages.get(msg.reply_to)
            if replied is not None and replied.from_id == self.bot.id:
                return True
        for e in msg.entities:
            if e["type"] == "bot_command":
                command = _utf16_slice(msg.text or "", e["offset"], e["length"])
                _, _, target = command.partition("@")
                if not target or target.lower() == (self.bot.username or "").lower():
                    return True
        return False

    async def get_updates(self, offset: int | None, limit: int, timeout: float,
                          allowed: list[str] | None) -> list[dict]:
        """``getUpdates``: confirm everything before ``offset``, then return up to ``limit``
        pending updates, waiting up to ``timeout`` seconds for the first one.  A newer call
        ends a waiting one with 409, like Telegram."""
        if self.webhook_url:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                "use deleteWebhook to delete the webhook first")
        self.poll_token += 1
        token = self.poll_token
        self.changed()  # wakes an older long poll, which then sees it was superseded
        if allowed is not None:
            self.allowed_updates = frozenset(allowed) if allowed else DEFAULT_UPDATES
        if offset is not None:
            if offset < 0:
                self.updates = self.updates[offset:]
            else:
                self.updates = [u for u in self.updates if u["update_id"] >= offset]
        deadline = time.monotonic() + timeout  # a network timeout: real time, not self.clock
        while True:
            kept = [u for u in self.updates if _kind(u) in self.allowed_updates]
            if len(kept) != len(self.updates):
                self.updates = kept
            if kept or self.closing:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            version = self.version
            await self.wait_change(version, min(remaining, 1.0))
            if token != self.poll_token:
                raise ApiError(409, "Conflict: terminated by other getUpdates request; make sure "
                                    "that only one bot instance is running")
        batch = self.updates[:max(1, min(limit, 100))]
        now = self.clock()
        for update in batch:
            self._mark_delivered(update["update_id"], now)
        return batch

    def _mark_delivered(self, update_id: int, now: float) -> None:
        for event in reversed(self.events):
            if event.get("update_id") == update_id:
                event.setdefault("delivered_t", now)
                return
            if event.get("update_id") is not None and event["update_id"] < update_id:
                return

    # -- flood control -----------------------------------------------------------------------------

    def flood_check(self, chat: Chat) -> None:
        """Raise 429 if one more send or edit in ``chat`` now would break a limit."""
        limits = self.config.flood
        if not limits.enabled:
            return
        now = self.clock()
        wait = 0.0
        if chat.type not in _GROUPS:
            tokens = self._tokens(chat, now)
            if tokens < 1.0:
                wait = (1.0 - tokens) * limits.chat_interval
        elif chat.last_counted is not None and now - chat.last_counted < limits.chat_interval:
            wait = chat.last_counted + limits.chat_interval - now
        if chat.type in _GROUPS:
            while chat.window and chat.window[0] <= now - 60.0:
                chat.window.popleft()
            if len(chat.window) >= limits.group_per_minute:
                wait = max(wait, chat.window[0] + 60.0 - now)
        if limits.global_per_second is not None:
            while self.global_window and self.global_window[0] <= now - 1.0:
                self.global_window.popleft()
            if len(self.global_window) >= limits.global_per_second:
                wait = max(wait, self.global_window[0] + 1.0 - now)
        if wait > 0:
            retry = max(1, math.ceil(wait))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", retry_after=retry)

    def _tokens(self, chat: Chat, now: float) -> float:
        """A private chat's bucket: full at ``private_burst``, one more per interval."""
        limits = self.config.flood
        burst = float(max(1, limits.private_burst))
        if chat.tokens is None or chat.last_counted is None or limits.chat_interval <= 0:
            return burst
        return min(burst, chat.tokens + (now - chat.last_counted) / limits.chat_interval)

    def flood_count(self, chat: Chat) -> None:
        """Count one successful send or edit in ``chat``."""
        now = self.clock()
        if chat.type not in _GROUPS:
            chat.tokens = self._tokens(chat, now) - 1.0
        chat.last_counted = now
        if chat.type in _GROUPS:
            chat.window.append(now)
        self.global_window.append(now)

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
            if status in _PRESENT:
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

    # -- Bot API objects ---------------------------------------------------------------------------

    def _chat_api(self, chat: Chat) -> dict:
        if chat.type == "private":
            user = self.users[chat.id]
            d: dict[str, Any] = {"id": chat.id, "type": "private", "first_name": user.first_name}
            if user.last_name:
                d["last_name"] = user.last_name
            if user.username:
                d["username"] = user.username
            return d
        d = {"id": chat.id, "type": chat.type, "title": chat.title}
        if chat.username:
            d["username"] = chat.username
        if chat.is_forum:
            d["is_forum"] = True
        return d

    def _member_api(self, chat: Chat, user_id: int, status: str) -> dict:
        user = self.users[user_id].api()
        if status == "creator":
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status == "administrator":
            rights = dict.fromkeys((
                "can_manage_chat", "can_delete_messages", "can_manage_video_chats",
                "can_restrict_members", "can_change_info", "can_invite_users",
                "can_pin_messages"), True)
            rights.update(dict.fromkeys((
                "can_be_edited", "is_anonymous", "can_promote_members", "can_post_stories",
                "can_edit_stories", "can_delete_stories", "can_send_welcome_messages"), False))
            if chat.is_forum:
                rights["can_manage_topics"] = True
            return {"status": "administrator", "user": user, **rights}
        if status == "kicked":
            return {"status": "kicked", "user": user, "until_date": 0}
        if status in ("member", "restricted"):
            return {"status": "member", "user": user}
        return {"status": "left", "user": user}

    def _message_api(self, chat: Chat, msg: Msg, nested: bool = True) -> dict:
        sender = self.users[msg.from_id]
        d: dict[str, Any] = {
            "message_id": msg.message_id,
            "from": sender.api(),
            "date": msg.date,
            "chat": self._chat_api(chat),
        }
        if msg.thread_id is not None:
            d["message_thread_id"] = msg.thread_id
            if chat.is_forum:
                d["is_topic_message"] = True
        if nested and msg.reply_to is not None:
            replied = chat.messages.get(msg.reply_to)
            if replied is not None and not replied.deleted:
                d["reply_to_message"] = self._message_api(chat, replied, nested=False)
        if msg.edit_date is not None:
            d["edit_date"] = msg.edit_date
        if msg.text is not None:
            d["text"] = msg.text
            if msg.entities:
                d["entities"] = msg.entities
        if msg.document is not None and msg.document in self.documents:
            d["document"] = self.documents[msg.document].api()
            if msg.caption:
                d["caption"] = msg.caption
                if msg.caption_entities:
                    d["caption_entities"] = msg.caption_entities
        if msg.photo is not None and msg.photo in self.files:
            d["photo"] = self.photo_sizes(self.files[msg.photo])
            if msg.caption:
                d["caption"] = msg.caption
                if msg.caption_entities:
                    d["caption_entities"] = msg.caption_entities
        if msg.markup is not None and "inline_keyboard" in msg.markup:
            d["reply_markup"] = msg.markup
        if msg.service:
            d.update(msg.service)
        return d


def _kind(update: dict) -> str:
    """The type of an update: its one key besides ``update_id``."""
    return next(k for k in update if k != "update_id")


def _utf16_slice(text: str, offset: int, length: int) -> str:
    raw = text.encode("utf-16-le")
    return raw[2 * offset:2 * (offset + length)].decode("utf-16-le", errors="replace")

