"""The one way out: every send, edit and delete of the bot goes through :class:`Outbox`.

Issue 4 ("The table in the group", "Timeouts, absence, failures"):

- one FIFO queue and one worker task per chat, so a chat's messages arrive in order;
- edits of the same message coalesce: an edit that finds an earlier edit of that message still
  waiting in the queue replaces its content (and takes its place), so only the latest text is
  sent and the latest state is always shown in the end;
- Telegram's limits (:mod:`delivery.limits`): a group's 20 requests a minute and one a
  second, a private chat's burst of three then one a second, 30 a second in all;
- the group windows survive a restart: with a ``send_log`` (``record(chat_id, at)`` and
  ``recent()``, Unix seconds; :class:`service.messages.SendLog`) every group request is
  recorded before it is made, and :meth:`Outbox.restore` starts each group's window with the
  sends of the last minute, so no group gets more than 20 in any minute, a restart included;
- ``TelegramRetryAfter`` (429) is waited out (``retry_after`` seconds, on that chat) and the
  same request retried, never dropped; network and 5xx errors are retried a few times;
- "message is not modified" counts as success, and so does deleting a message that is gone;
  and an edit is never asked for when the outbox knows the message shows that content
  already (:class:`Shown`: what each message was last sent or edited to, for the newest
  :data:`SHOWN_KEPT` messages): Telegram answers such an edit with an error, and it would
  cost a request of the chat's rate for nothing (issue 33);
- photos (issue 14: the group's table as a picture): :meth:`Outbox.send_photo` and
  :meth:`Outbox.edit_media` (``editMessageMedia``, coalescing like text edits) upload PNG
  bytes that may be given as a function, called only when the request is made: edits that
  coalesce never draw the pictures nobody would see.  A photo request that fails (Telegram
  refuses it, the network gives up, the picture cannot be drawn) calls its ``on_failed``, so
  the caller can show the text instead;
- a worker of a cluster passes its ``cluster`` (:class:`Coordination`): before every request
  its ``check`` fences a worker that may have lost its chats, its ``shared`` limits keep all
  workers together within Telegram's limits, and a request answering an update that changed
  no game is made only after that update is marked done (``claim``), and is dropped when
  another try of the update answered it (a reply is sent at most once);
- ``TelegramForbiddenError`` (403: the user never opened the DM or blocked the bot) is
  reported to ``on_forbidden(chat_id, error)`` so the service can mark the DM closed; other
  failures go to ``on_error(chat_id, kind, error)``;
- a group upgraded to a supergroup (400 with ``migrate_to_chat_id``): a send is sent to the
  supergroup instead, so a round summary or a match end is not lost, and so is every later
  send to the old id; an edit or delete of the old group's messages cannot be done there and
  resolves to None (the migration handler shows the table anew in the supergroup).

Handlers send their replies through the outbox too (``delivery.app.App.reply``), so a group's
count holds every message the bot writes there.  Only the answers to button presses
(``answerCallbackQuery``, no chat message) go directly; :class:`RetryAfterMiddleware` on the
bot's session waits out flood control for any direct request, so it is delayed, not lost.

Every method returns an ``asyncio.Future`` at once; await it for the result (the ``Message``
of a send, ``True``/``Message`` of an edit) or ignore it.  An edit may name its message by
the future of the send that makes it (a message still waiting in the queue): the edit runs
after that send, on its message, and resolves to None when the send failed.  A failed
request resolves to None (never raises), so an unawaited future never logs "exception was
never retrieved".  Do not await these futures while holding a database transaction: rate
limits can delay them for minutes.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiogram.client.session.middlewares.base import BaseRequestMiddleware
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import BufferedInputFile, InputMediaPhoto

from delivery.limits import Limits, is_group_chat

__all__ = ["SHOWN_KEPT", "Coordination", "MessageRef", "Outbox", "PhotoSource",
           "RetryAfterMiddleware", "Shown", "is_group_chat", "ref_id"]

log = logging.getLogger(__name__)

#: True while an outbox worker makes a request: the outbox waits out 429 itself.
_IN_OUTBOX: ContextVar[bool] = ContextVar("kozel_in_outbox", default=False)

_NOT_MODIFIED = "message is not modified"
#: The file name a photo is uploaded under.
PHOTO_FILENAME = "table.png"
_SENDS = ("send", "send_photo")
_EDITS = ("edit_text", "edit_markup", "edit_media")
#: A message to delete that is gone already (deleted, as asked).
_GONE = ("message to delete not found",)
#: What Telegram says of an edit to a message its reader deleted, or one too old to edit: only
#: these call an edit's ``on_failed`` (its content goes to a new message).
_LOST = ("message to edit not found", "message can't be edited")
#: A message Telegram will not delete (a bot's own message older than 48 hours): it stays.
_KEPT = ("message can't be deleted",)
#: How many messages :class:`Shown` remembers the content of (the least recently touched go).
SHOWN_KEPT = 20_000
#: The keyword arguments of a text message that make what it shows (its keyboard aside).
_TEXT_KEYS = ("text", "parse_mode", "entities", "link_preview_options",
              "disable_web_page_preview")


#: A message: its id, or the future of the send that makes it (resolving to the ``Message``).
MessageRef = int | asyncio.Future

#: A photo to upload: its bytes, or a function (plain or async) that returns them, called
#: when the request is made (and again if the request is retried).
PhotoSource = bytes | Callable[[], "bytes | Awaitable[bytes]"]


class Coordination(Protocol):
    """What a worker of a cluster asks of its outbox (:class:`service.cluster.Cluster`):
    ``check()`` before every request (raises or exits when this worker may no longer send:
    its chats may have another owner); ``await shared(chat_id)`` the limits shared with the
    other workers (0.0: go, else the seconds to wait); ``claim()`` when a request is queued
    (in the queuing task): None, or a coroutine function awaited right before the request,
    whose False drops it (:func:`service.once.sending`)."""

    def check(self) -> None: ...
    async def shared(self, chat_id: int) -> float: ...
    def claim(self) -> Callable[[], Awaitable[bool]] | None: ...


def ref_id(ref: MessageRef | None) -> int | None:
    """The message id of ``ref``: the id itself, the sent message's id once its send is
    done, else None (still waiting, or failed)."""
    if ref is None or isinstance(ref, int):
        return ref
    if ref.done() and not ref.cancelled() and ref.result() is not None:
        return ref.result().message_id
    return None


def _same(a: MessageRef | None, b: MessageRef | None) -> bool:
    """Whether two references name one message (ids by value, pending sends by identity)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return a is b


@dataclass
class _Op:
    kind: str  # "send" | "send_photo" | "send_document" | "edit_text" | "edit_markup" |
    #            "edit_media" | "delete" | "delete_many"
    chat_id: int
    message_id: MessageRef | None
    kwargs: dict[str, Any]
    futures: list[asyncio.Future] = field(default_factory=list)
    started: bool = False
    attempts: int = 0
    photo: PhotoSource | None = None  # send_photo, edit_media
    on_failed: Callable[[], Any] | None = None  # send_photo, edit_media, edit_text
    after: Any = None  # an awaitable the request waits for (a send's recorded intent)
    mark: Callable[[], Awaitable[bool]] | None = None  # awaited right before the request
    queued: float = 0.0  # when it was queued (the outbox's clock), for /metrics


@dataclass
class _Chat:
    ops: deque[_Op] = field(default_factory=deque)
    task: asyncio.Task | None = None


#: What a request came to: its result, and whether it failed (its ``on_failed`` is due).
_Outcome = tuple[Any, bool]
#: A request to make again (429, a network error, a migrated group's send): no outcome yet.
_AGAIN = object()


def _digest(value: Any) -> bytes:
    """A short fingerprint of a message's content (a text and its options, or a keyboard)."""
    if hasattr(value, "model_dump_json"):
        value = value.model_dump_json(exclude_none=True)
    return hashlib.blake2b(repr(value).encode(), digest_size=16).digest()


class Shown:
    """What the bot's messages show, as far as this outbox made them: per ``(chat id,
    message id)`` the fingerprints of the text (with its options) and of the keyboard it was
    last sent or edited to, for the ``kept`` messages touched last.  A message whose content
    is not known (a photo, one edited by a request that failed, one forgotten) is simply
    absent: its edits are made."""

    def __init__(self, kept: int = SHOWN_KEPT) -> None:
        self.kept = kept
        self._known: OrderedDict[tuple[int, int], tuple[bytes | None, bytes]] = OrderedDict()

    @staticmethod
    def _text(kwargs: dict[str, Any]) -> bytes:
        return _digest(tuple((k, kwargs.get(k)) for k in _TEXT_KEYS))

    def unchanged(self, op: _Op) -> bool:
        """Whether the edit ``op`` would leave its message as it is."""
        if op.kind not in ("edit_text", "edit_markup") or not isinstance(op.message_id, int):
            return False
        known = self._known.get((op.chat_id, op.message_id))
        if known is None:
            return False
        text, markup = known
        if markup != _digest(op.kwargs.get("reply_markup")):
            return False
        return op.kind == "edit_markup" or text == self._text(op.kwargs)

    def made(self, op: _Op, result: Any) -> None:
        """The request ``op`` came to ``result`` (None: it failed)."""
        if op.kind == "delete_many":
            for mid in op.kwargs.get("message_ids", ()):
                self._known.pop((op.chat_id, mid), None)
            return
        mid = getattr(result, "message_id", None) if op.kind == "send" else op.message_id
        if not isinstance(mid, int):
            return
        key = (op.chat_id, mid)
        if result is None or op.kind not in ("send", "edit_text", "edit_markup"):
            self._known.pop(key, None)  # gone, a photo, or not known what it shows now
            return
        markup = _digest(op.kwargs.get("reply_markup"))
        if op.kind == "edit_markup":
            known = self._known.get(key)
            if known is None:
                return
            self._known[key] = (known[0], markup)
        else:
            self._known[key] = (self._text(op.kwargs), markup)
        self._known.move_to_end(key)
        while len(self._known) > self.kept:
            self._known.popitem(last=False)


class Outbox:
    """Per-chat queues with coalescing and Telegram's rate limits (see the module doc).

    ``bot`` is an aiogram ``Bot`` or any object with async ``send_message``,
    ``edit_message_text``, ``edit_message_reply_markup`` and ``delete_message`` (and, for
    photos, ``send_photo`` and ``edit_message_media``) taking the Bot API's keyword
    arguments.  ``clock()`` returns seconds (monotonic); ``sleep(seconds)`` is
    awaited to wait; ``wall()`` returns Unix seconds (for ``send_log``) -- all injectable for
    tests.  The limits are :class:`delivery.limits.Limits`'s.  ``on_forbidden`` /
    ``on_error`` may be plain functions or coroutines; their exceptions are logged and
    swallowed.  ``cluster``: a worker of a cluster's :class:`Coordination`, None alone.
    """

    def __init__(
        self,
        bot: Any,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        group_per_minute: int = 20,
        chat_interval: float = 1.0,
        private_burst: int = 3,
        global_per_second: int = 30,
        send_log: Any = None,
        wall: Callable[[], float] = time.time,
        on_forbidden: Callable[[int, Exception], Any] | None = None,
        on_error: Callable[[int, str, Exception], Any] | None = None,
        max_attempts: int = 5,
        parse_mode: str | None = "HTML",
        cluster: Coordination | None = None,
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.sleep = sleep
        self.limits = Limits(clock=clock, group_per_minute=group_per_minute,
                             chat_interval=chat_interval, private_burst=private_burst,
                             global_per_second=global_per_second)
        self.send_log = send_log
        self.wall = wall
        self.on_forbidden = on_forbidden
        self.on_error = on_error
        self.max_attempts = max_attempts
        self.parse_mode = parse_mode
        self.cluster = cluster
        self._chats: dict[int, _Chat] = {}
        self._closed = False
        #: Groups upgraded to supergroups: old chat id → new chat id.
        self.migrated: dict[int, int] = {}
        #: Per chat, the id of the newest message this outbox sent there (since it started).
        self.newest: dict[int, int] = {}
        #: What the messages this outbox made show (no edit to what one shows is made).
        self.shown = Shown()

    # -- public API ----------------------------------------------------------------------------

    def send(self, chat_id: int, text: str, *, after: Any = None, **kwargs: Any
             ) -> asyncio.Future:
        """Queue ``send_message(chat_id=…, text=…, parse_mode="HTML", **kwargs)``
        (``reply_markup``, ``message_thread_id`` for forum topics, …).  Sends never coalesce.
        ``after``: a future or task the request waits for, whatever it gives (the
        publisher's record of what it is about to send).  The future gives the sent
        ``Message`` or None."""
        kwargs.setdefault("parse_mode", self.parse_mode)
        return self._enqueue(_Op("send", chat_id, None, {"text": text, **kwargs}, after=after))

    def edit_text(self, chat_id: int, message_id: MessageRef, text: str, *,
                  on_failed: Callable[[], Any] | None = None, **kwargs: Any
                  ) -> asyncio.Future:
        """Queue ``edit_message_text``; coalesces with a waiting text edit of the same message
        (the newest text, ``reply_markup`` and ``on_failed`` win).  Omitting ``reply_markup``
        removes the keyboard, as in the Bot API.  The future gives the result, ``True`` for
        "not modified", or None on failure; when the message is gone (its reader deleted
        it) or too old to edit, ``on_failed()`` is called first."""
        kwargs.setdefault("parse_mode", self.parse_mode)
        return self._enqueue(_Op("edit_text", chat_id, message_id, {"text": text, **kwargs},
                                 on_failed=on_failed))

    def send_photo(self, chat_id: int, photo: PhotoSource, *, caption: str | None = None,
                   on_failed: Callable[[], Any] | None = None, **kwargs: Any
                   ) -> asyncio.Future:
        """Queue ``send_photo`` of a PNG (``photo``: its bytes, or a function returning them,
        called when the request is made) with an HTML ``caption`` (at most 1024 characters,
        Telegram's limit) and ``kwargs`` as for :meth:`send`.  Sends never coalesce.  The
        future gives the sent ``Message`` or None; on a failure other than 403, a migrated
        group or :meth:`close`, ``on_failed()`` (plain or async) is called first."""
        kwargs.setdefault("parse_mode", self.parse_mode)
        return self._enqueue(_Op("send_photo", chat_id, None, {"caption": caption, **kwargs},
                                 photo=photo, on_failed=on_failed))

    def edit_media(self, chat_id: int, message_id: MessageRef, photo: PhotoSource, *,
                   caption: str | None = None, on_failed: Callable[[], Any] | None = None,
                   **kwargs: Any) -> asyncio.Future:
        """Queue ``edit_message_media``: the photo message ``message_id`` shows ``photo`` (as
        for :meth:`send_photo`) with ``caption``; coalesces with a waiting media edit of the
        same message (the newest photo, caption, ``reply_markup`` and ``on_failed`` win, and
        only that photo is drawn).  Omitting ``reply_markup`` removes the keyboard.  The
        future gives the result, ``True`` for "not modified", or None on failure (then
        ``on_failed()``, as for :meth:`send_photo`, also when the message it edits was never
        sent)."""
        kwargs.setdefault("parse_mode", self.parse_mode)
        return self._enqueue(_Op("edit_media", chat_id, message_id,
                                 {"caption": caption, **kwargs}, photo=photo,
                                 on_failed=on_failed))

    def edit_markup(self, chat_id: int, message_id: MessageRef, reply_markup: Any = None
                    ) -> asyncio.Future:
        """Queue ``edit_message_reply_markup`` (None removes the keyboard, e.g. from the
        previous hand message); coalesces like :meth:`edit_text`."""
        return self._enqueue(
            _Op("edit_markup", chat_id, message_id, {"reply_markup": reply_markup}))

    def send_document(self, chat_id: int, document: Any, **kwargs: Any) -> asyncio.Future:
        """Queue ``send_document(chat_id=…, document=…, parse_mode="HTML", **kwargs)`` (a game
        record, issue 15; ``caption`` at most 1024 characters).  The future gives the sent
        ``Message`` or None (a 403 of a closed private chat included)."""
        kwargs.setdefault("parse_mode", self.parse_mode)
        return self._enqueue(_Op("send_document", chat_id, None,
                                 {"document": document, **kwargs}))

    def delete(self, chat_id: int, message_id: MessageRef) -> asyncio.Future:
        """Queue ``delete_message``; a message already gone counts as deleted (True), one
        Telegram will not delete (older than 48 hours) gives False (it is still there), and
        a failure None."""
        return self._enqueue(_Op("delete", chat_id, message_id, {}))

    def delete_many(self, chat_id: int, message_ids: list[MessageRef]) -> asyncio.Future:
        """Queue ``delete_messages``: up to 100 messages of one chat deleted in one request
        (one call of the chat's rate however many); those already gone, or never sent, are
        skipped.  The future gives True, or None on failure."""
        return self._enqueue(_Op("delete_many", chat_id, None,
                                 {"refs": list(message_ids)[:100]}))

    def last_sent(self, chat_id: int) -> int | None:
        """The id of the newest message this outbox sent to ``chat_id`` (0: none since it
        started), or None while a send to that chat is still queued or being made (the
        newest is not known yet)."""
        chat = self._chats.get(chat_id)
        if chat is not None and any(op.kind in _SENDS or op.kind == "send_document"
                                    for op in chat.ops):
            return None
        return self.newest.get(chat_id, 0)

    def quiet(self, chat_id: int) -> bool:
        """Nothing waits for ``chat_id`` nor any private chat (its hands): a worker of a
        cluster may hand the chat on then."""
        chat = self._chats.get(chat_id)
        if chat is not None and chat.ops:
            return False
        return not any(c.ops for cid, c in self._chats.items() if cid > 0)

    def depths(self) -> dict[str, tuple[int, float]]:
        """``{"group": (waiting, oldest age [s]), "private": (…)}`` (``/metrics``)."""
        return _depths(self._chats, self.clock())

    def pending(self, chat_id: int | None = None) -> int:
        """Requests waiting (not yet sent) for one chat, or for all chats."""
        chats = [self._chats.get(chat_id)] if chat_id is not None else self._chats.values()
        return sum(len(c.ops) for c in chats if c is not None)

    async def restore(self, chat_id: int | None = None) -> int:
        """Start every group's window with its sends of the last minute, as ``send_log``
        recorded them (before the first request after a restart); with ``chat_id`` only that
        group's, when this outbox has sent it nothing yet (a chat taken over from another
        worker of a cluster).  Returns how many."""
        if self.send_log is None:
            return 0
        recent = await self.send_log.recent()
        if chat_id is not None:
            if chat_id in self._chats or self.limits.knows(chat_id):
                return 0
            recent = {chat_id: recent[chat_id]} if chat_id in recent else {}
        return self.limits.restore(recent, self.wall())

    async def drain(self, timeout: float | None = None) -> int:
        """Wait until every queue is empty (e.g. before shutdown or in tests), at most
        ``timeout`` seconds (None: as long as it takes).  Returns how many requests are
        still waiting (0 when drained)."""
        loop = asyncio.get_running_loop()  # real time, whatever clock the limits keep
        end = None if timeout is None else loop.time() + timeout
        while True:
            tasks = [c.task for c in self._chats.values() if c.task and not c.task.done()]
            if not tasks:
                return 0
            if end is None:
                await asyncio.gather(*tasks, return_exceptions=True)
                continue
            left = end - loop.time()
            if left <= 0:
                return self.pending()
            await asyncio.wait(tasks, timeout=left)

    async def close(self) -> None:
        """Stop all workers; requests still waiting resolve to None."""
        self._closed = True
        for chat in self._chats.values():
            if chat.task and not chat.task.done():
                chat.task.cancel()
        for chat in self._chats.values():
            if chat.task:
                try:
                    await chat.task
                except asyncio.CancelledError:
                    pass
            while chat.ops:
                _resolve(chat.ops.popleft(), None)

    # -- queueing ------------------------------------------------------------------------------

    def _enqueue(self, op: _Op) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        if self._closed:
            future.set_result(None)
            return future
        if self.cluster is not None:
            op.mark = self.cluster.claim()
        if op.chat_id in self.migrated:
            if op.kind not in _SENDS:  # the old group's messages cannot be changed any more
                future.set_result(None)
                return future
            op.chat_id = self.migrated[op.chat_id]
        chat = self._chats.setdefault(op.chat_id, _Chat())
        op.queued = self.clock()
        target = self._coalesce_target(chat, op)
        if target is not None:
            target.kwargs = op.kwargs
            target.photo, target.on_failed = op.photo, op.on_failed
            target.mark = target.mark or op.mark
            target.futures.append(future)
        else:
            op.futures.append(future)
            chat.ops.append(op)
        if chat.task is None or chat.task.done():
            chat.task = loop.create_task(self._worker(op.chat_id, chat))
        return future

    @staticmethod
    def _coalesce_target(chat: _Chat, op: _Op) -> _Op | None:
        if op.kind not in _EDITS:
            return None
        for queued in reversed(chat.ops):
            if _same(queued.message_id, op.message_id) and queued.kind not in _SENDS:
                if queued.kind == op.kind and not queued.started:
                    return queued
                return None
        return None

    async def _log_send(self, chat_id: int) -> None:
        """Record a group request in ``send_log`` before it is made (a failure to record is
        logged; the request goes out all the same)."""
        if self.send_log is None or not is_group_chat(chat_id):
            return
        try:
            await self.send_log.record(chat_id, self.wall())
        except Exception:
            log.warning("chat %s: the send could not be recorded", chat_id, exc_info=True)

    # -- the worker ------------------------------------------------------------------------------

    async def _waited(self, chat_id: int) -> bool:
        """Wait for the chat's limits (this worker's, then the cluster's shared ones); True
        when the waiting is over and the request may be made now, False when it waited (the
        worker looks again)."""
        wait = self.limits.wait(chat_id)
        if wait > 0:
            await self.sleep(wait)
            return False
        if self.cluster is not None:
            self.cluster.check()
            wait = await self.cluster.shared(chat_id)
            if wait > 0:
                await self.sleep(wait)
                return False
        return True

    async def _ready(self, chat: _Chat, op: _Op) -> bool:
        """Whether the request at the head of the queue is still to be made: the message it
        edits was sent, and its update's mark (a cluster's reply) holds.  Else it is gone
        from the queue and resolved to None."""
        if not await _resolve_target(op):
            chat.ops.popleft()
            if op.on_failed is not None:  # a photo for a message that never came
                await _notify(op.on_failed)
            _resolve(op, None)  # the message it edits was never sent
            return False
        if op.mark is not None:
            mark, op.mark = op.mark, None
            if not await mark():  # its update was answered by another try
                chat.ops.popleft()
                _resolve(op, None)
                return False
        return True

    async def _worker(self, chat_id: int, chat: _Chat) -> None:
        while chat.ops:
            op = chat.ops[0]
            if _skipped(self.shown, chat, op):
                continue
            if not await self._waited(chat_id) or not await self._ready(chat, op):
                continue
            if _skipped(self.shown, chat, op):
                continue
            self.limits.record(chat_id)
            op.started = True
            op.attempts += 1
            await self._log_send(chat_id)
            try:
                try:
                    outcome = (await self._call(op), False)
                finally:
                    self.limits.answered(chat_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                outcome = await self._failed(chat_id, chat, op, exc)
            if outcome is _AGAIN:
                continue
            result, failed = outcome
            chat.ops.popleft()
            if failed and op.on_failed is not None:
                await _notify(op.on_failed)
            self.shown.made(op, None if failed else result)
            sent_id = getattr(result, "message_id", None) if op.kind.startswith("send") else None
            if isinstance(sent_id, int):
                self.newest[op.chat_id] = max(self.newest.get(op.chat_id, 0), sent_id)
            _resolve(op, result)

    async def _failed(self, chat_id: int, chat: _Chat, op: _Op, exc: Exception
                      ) -> _Outcome | object:
        """What a request that raised ``exc`` came to, or :data:`_AGAIN` to make it again:
        429 is waited out (never counted as a failure), a network or server error retried a
        few times, "not modified" and a message already gone count as done, a 403 goes to
        ``on_forbidden``, and a group upgraded to a supergroup takes its sends there."""
        if isinstance(exc, TelegramRetryAfter):
            op.started = False
            op.attempts -= 1
            self.limits.block(chat_id, exc.retry_after)
            log.warning("chat %s: flood control, retry in %ss", chat_id, exc.retry_after)
            return _AGAIN
        if isinstance(exc, TelegramBadRequest):
            text = str(exc.message).lower()
            gone = op.kind in ("delete", "delete_many") and any(g in text for g in _GONE)
            if _NOT_MODIFIED in text or gone:
                return True, False
            if op.kind == "delete" and any(k in text for k in _KEPT):
                return False, False
        elif isinstance(exc, TelegramForbiddenError):
            await _notify(self.on_forbidden, chat_id, exc)
            return None, False
        elif isinstance(exc, TelegramMigrateToChat):
            new_id = exc.migrate_to_chat_id
            self.migrated[chat_id] = new_id
            log.info("chat %s was upgraded to %s: %s goes there", chat_id, new_id,
                     op.kind if op.kind in _SENDS else "nothing of its old messages")
            if op.kind not in _SENDS:
                return None, False
            chat.ops.popleft()
            self._redirect(op, new_id)
            return _AGAIN
        elif isinstance(exc, TelegramNetworkError | TelegramServerError):
            if op.attempts < self.max_attempts:
                op.started = False
                self.limits.block(chat_id, min(2.0 ** op.attempts, 30.0))
                log.warning("chat %s: %s, retrying", chat_id, exc)
                return _AGAIN
        else:  # a bug or an unexpected API answer: never kill the queue
            log.exception("chat %s: %s failed", chat_id, op.kind, exc_info=exc)
        if op.kind == "edit_text" and not (isinstance(exc, TelegramBadRequest) and any(
                k in str(exc.message).lower() for k in _LOST)):
            op.on_failed = None  # an edit's content goes elsewhere only when its message is
        await self._report_error(chat_id, op.kind, exc)
        return None, True

    def _redirect(self, op: _Op, chat_id: int) -> None:
        """Queue a send (of a text or a photo) again for the supergroup ``chat_id``; its
        futures go with it."""
        kwargs = {k: v for k, v in op.kwargs.items()
                  if k not in ("reply_to_message_id", "reply_parameters")}
        moved = _Op(op.kind, chat_id, None, kwargs, futures=op.futures, photo=op.photo,
                    on_failed=op.on_failed)
        chat = self._chats.setdefault(chat_id, _Chat())
        chat.ops.append(moved)
        if chat.task is None or chat.task.done():
            chat.task = asyncio.get_running_loop().create_task(self._worker(chat_id, chat))

    async def _call(self, op: _Op) -> Any:
        token = _IN_OUTBOX.set(True)
        try:
            return await _request(self.bot, op)
        finally:
            _IN_OUTBOX.reset(token)

    async def _report_error(self, chat_id: int, kind: str, exc: Exception) -> None:
        if self.on_error is None:
            log.warning("chat %s: %s failed: %s", chat_id, kind, exc)
        await _notify(self.on_error, chat_id, kind, exc)


def _resolve(op: _Op, result: Any) -> None:
    """Give ``result`` to every caller waiting on ``op``."""
    for future in op.futures:
        if not future.done():
            future.set_result(result)


async def _notify(callback: Callable[..., Any] | None, *args: Any) -> None:
    """Call ``callback(*args)`` (plain or async), if any; its errors are logged, never
    raised into the queue."""
    if callback is None:
        return
    try:
        outcome = callback(*args)
        if inspect.isawaitable(outcome):
            await outcome
    except Exception:
        log.exception("outbox callback %r failed", callback)


def _skipped(shown: Shown, chat: _Chat, op: _Op) -> bool:
    """An edit at the head of ``chat``'s queue that would show what its message shows
    already is done without a request (Telegram would refuse it as "not modified").  Not
    before its mark (a cluster's reply) is settled, nor while the message is being sent."""
    if op.mark is not None or op.after is not None or not shown.unchanged(op):
        return False
    chat.ops.popleft()
    _resolve(op, True)
    return True


def _depths(chats: dict[int, _Chat], now: float) -> dict[str, tuple[int, float]]:
    """The requests waiting per chat kind in ``chats`` and how long the oldest of them has
    waited [seconds] at ``now``."""
    out = {"group": [0, 0.0], "private": [0, 0.0]}
    for chat_id, chat in chats.items():
        if not chat.ops:
            continue
        kind = out["group" if is_group_chat(chat_id) else "private"]
        kind[0] += len(chat.ops)
        kind[1] = max(kind[1], now - min(op.queued for op in chat.ops))
    return {k: (int(n), float(age)) for k, (n, age) in out.items()}


async def _resolve_target(op: _Op) -> bool:
    """Turn an edit's message reference into its id (waiting for its send); False when
    that send failed.  The messages of a ``delete_many`` become their ids, those never
    sent left out; False when none is left."""
    if op.after is not None:
        await asyncio.wait([op.after])  # never raises: what it gave does not matter
        op.after = None
    if op.kind == "delete_many":
        if "message_ids" in op.kwargs:  # (a retry: resolved before)
            return bool(op.kwargs["message_ids"])
        ids = []
        for ref in op.kwargs.pop("refs", []):
            if not isinstance(ref, int):
                sent = await asyncio.shield(ref) if not ref.done() else ref.result()
                ref = getattr(sent, "message_id", None)
            if isinstance(ref, int):
                ids.append(ref)
        op.kwargs["message_ids"] = sorted(set(ids))
        return bool(ids)
    ref = op.message_id
    if ref is None or isinstance(ref, int):
        return True
    sent = await asyncio.shield(ref) if not ref.done() else ref.result()
    if sent is None:
        return False
    op.message_id = sent.message_id
    return True


async def _request(bot: Any, op: _Op) -> Any:
    """Make the Bot API request of ``op`` with ``bot``."""
    chat, mid = op.chat_id, op.message_id
    if op.kind == "send":
        return await bot.send_message(chat_id=chat, **op.kwargs)
    if op.kind == "send_photo":
        photo = BufferedInputFile(await _photo_bytes(op.photo), filename=PHOTO_FILENAME)
        return await bot.send_photo(chat_id=chat, photo=photo, **op.kwargs)
    if op.kind == "edit_media":
        kwargs = dict(op.kwargs)
        media = InputMediaPhoto(
            media=BufferedInputFile(await _photo_bytes(op.photo), filename=PHOTO_FILENAME),
            caption=kwargs.pop("caption", None), parse_mode=kwargs.pop("parse_mode", None))
        return await bot.edit_message_media(chat_id=chat, message_id=mid, media=media,
                                            **kwargs)
    if op.kind == "send_document":
        return await bot.send_document(chat_id=chat, **op.kwargs)
    if op.kind == "edit_text":
        return await bot.edit_message_text(chat_id=chat, message_id=mid, **op.kwargs)
    if op.kind == "edit_markup":
        return await bot.edit_message_reply_markup(chat_id=chat, message_id=mid, **op.kwargs)
    if op.kind == "delete_many":
        return await bot.delete_messages(chat_id=chat, **op.kwargs)
    return await bot.delete_message(chat_id=chat, message_id=mid)


async def _photo_bytes(photo: PhotoSource | None) -> bytes:
    """The bytes of a photo source (calling it, awaiting what it returns)."""
    data = photo() if callable(photo) else photo
    if inspect.isawaitable(data):
        data = await data
    if not isinstance(data, bytes | bytearray) or not data:
        raise ValueError("a photo source gave no bytes")
    return bytes(data)


class RetryAfterMiddleware(BaseRequestMiddleware):
    """A request middleware for the bot's session: a request that meets flood control (429)
    is retried after ``retry_after`` seconds, as long as the waits add up to at most
    ``max_wait`` seconds (then the error is raised as before).

    For the requests handlers make directly: a reply to /score in a busy group arrives late
    instead of never.  Requests of :class:`Outbox` workers pass straight through, since the
    outbox waits out 429 itself (and meanwhile lets later edits merge).  Register with
    ``bot.session.middleware(RetryAfterMiddleware())``.
    """

    def __init__(self, *, max_wait: float = 120.0,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.max_wait = max_wait
        self.sleep = sleep

    async def __call__(self, make_request: Any, bot: Any, method: Any) -> Any:
        if _IN_OUTBOX.get():
            return await make_request(bot, method)
        waited = 0.0
        while True:
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as exc:
                delay = max(float(exc.retry_after), 0.0)
                if waited + delay > self.max_wait:
                    raise
                log.warning("%s: flood control, retry in %ss", type(method).__name__, delay)
                await self.sleep(delay)
                waited += delay
