"""What the local Telegram is made of: its errors, its settings and its records (users, chats,
messages, files, callback queries), plain dataclasses that :class:`~localtable.telegram.world.World`
keeps and :mod:`localtable.telegram.state` writes to a file and reads back.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DEFAULT_UPDATES", "GROUPS", "MAX_CALLBACK_DATA", "PRESENT", "ApiError", "Chat",
    "ControlError", "EmulatorConfig", "FloodLimits", "Msg", "Query", "StoredDocument",
    "StoredFile", "User",
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
GROUPS = ("group", "supergroup")
PRESENT = ("creator", "administrator", "member", "restricted")


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
    #: webhook delivery (localtable/telegram/webhook.py): the URLs behind the "load balancer",
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

