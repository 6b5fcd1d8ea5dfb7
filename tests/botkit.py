"""A mocked Bot API session and a harness that feeds updates to the real dispatcher.

``FakeTelegram`` answers the Bot API methods the bot uses, keeps every chat's messages with
their current text and keyboard, and enforces the Telegram facts the bot must respect:
callback_data ≤ 64 bytes, text ≤ 4096 characters, "message is not modified" on identical
edits, 403 for a private chat the user never opened.  Photos (``sendPhoto``,
``editMessageMedia``; the group's table as a picture) keep their PNG bytes and their caption
(≤ 1024 characters after HTML parsing) as the message's ``text``; a text cannot be edited into
a photo's caption and back; ``fail_photos`` refuses that many photo requests, ``fail_members``
that many ``getChatMember`` requests (as a network failure would), ``fail_answers`` that
many ``answerCallbackQuery`` (as «query is too old» after a slow turn).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiogram import Bot
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramNetworkError
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    DeleteMessages,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    GetFile,
    GetMe,
    SendDocument,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import (
    CallbackQuery,
    Chat,
    ChatMemberAdministrator,
    ChatMemberMember,
    ChatMemberOwner,
    Document,
    File,
    Message,
    MessageEntity,
    PhotoSize,
    Update,
    User,
)

from tests.emulator.html import parse_html, utf16_len
from tests.servicekit import InlineExecutor

BOT = User(id=1000, is_bot=True, first_name="Kozel", username="kozel_test_bot")


@dataclass
class Sent:
    """A message as the chat shows it now."""

    chat_id: int
    message_id: int
    text: str
    markup: Any = None
    thread_id: int | None = None
    deleted: bool = False
    photo: bytes | None = None  # a photo's PNG; ``text`` is then its caption (HTML)
    document: bytes | None = None  # a sent file's bytes (its caption is ``text``)
    filename: str | None = None

    def buttons(self) -> list[Any]:
        if self.markup is None:
            return []
        return [b for row in self.markup.inline_keyboard for b in row]

    def move_buttons(self) -> list[Any]:
        """The buttons of a private keyboard that play a move (not "leave the match", nor
        the one that opens the Mini App)."""
        from ui.callbacks import LeaveCb

        return [b for b in self.buttons() if b.callback_data
                and not b.callback_data.startswith(LeaveCb.__prefix__ + ":")]


@dataclass
class FakeTelegram:
    """State of the fake Bot API: messages per chat, users with an open DM, admins."""

    dm_open: set[int] = field(default_factory=set)
    admins: dict[int, set[int]] = field(default_factory=dict)
    messages: dict[tuple[int, int], Sent] = field(default_factory=dict)
    calls: list[tuple[str, dict]] = field(default_factory=list)
    alerts: list[tuple[int, str | None, bool, str | None]] = field(default_factory=list)
    fail_photos: int = 0  # refuse that many photo requests (an upload Telegram does not take)
    fail_members: int = 0  # fail that many getChatMember requests
    fail_answers: int = 0  # refuse that many answerCallbackQuery as «query is too old»
    files: dict[str, bytes] = field(default_factory=dict)  # file_id -> bytes users sent
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def chat(self, chat_id: int) -> list[Sent]:
        """Messages of a chat in order, deleted ones left out."""
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id
                and not m.deleted]

    def last(self, chat_id: int) -> Sent:
        return self.chat(chat_id)[-1]

    def answer(self, method: TelegramMethod, bot: Bot) -> Any:
        name = type(method).__name__
        self.calls.append((name, method.model_dump(exclude_none=True)))
        if isinstance(method, GetMe):
            return BOT
        if isinstance(method, SendMessage):
            chat_id = int(method.chat_id)
            self._check_text(method, method.text, method.reply_markup)
            if chat_id > 0 and chat_id not in self.dm_open:
                raise TelegramForbiddenError(
                    method, "Forbidden: bot can't initiate conversation with a user")
            mid = next(self._ids)
            self.messages[(chat_id, mid)] = Sent(chat_id, mid, method.text, method.reply_markup,
                                                 method.message_thread_id)
            return self._message(chat_id, mid)
        if isinstance(method, SendPhoto):
            chat_id = int(method.chat_id)
            data = self._check_photo(method, method.photo, method.caption, method.reply_markup)
            mid = next(self._ids)
            self.messages[(chat_id, mid)] = Sent(chat_id, mid, method.caption or "",
                                                 method.reply_markup, method.message_thread_id,
                                                 photo=data)
            return self._message(chat_id, mid)
        if isinstance(method, EditMessageMedia):
            sent = self.messages[(int(method.chat_id), method.message_id)]
            media = method.media
            data = self._check_photo(method, media.media, media.caption, method.reply_markup)
            caption = media.caption or ""
            if sent.photo == data and sent.text == caption and _same(sent.markup,
                                                                    method.reply_markup):
                raise TelegramBadRequest(method, "Bad Request: message is not modified")
            sent.photo, sent.text, sent.markup = data, caption, method.reply_markup
            return self._message(sent.chat_id, sent.message_id)
        if isinstance(method, SendDocument):
            chat_id = int(method.chat_id)
            if chat_id > 0 and chat_id not in self.dm_open:
                raise TelegramForbiddenError(
                    method, "Forbidden: bot can't initiate conversation with a user")
            doc = method.document
            if method.caption is not None and len(method.caption) > 1024:
                raise TelegramBadRequest(method, "Bad Request: message caption is too long")
            mid = next(self._ids)
            self.messages[(chat_id, mid)] = Sent(chat_id, mid, method.caption or "",
                                                 method.reply_markup, None,
                                                 document=doc.data, filename=doc.filename)
            return self._message(chat_id, mid)
        if isinstance(method, GetFile):
            data = self.files[method.file_id]
            return File(file_id=method.file_id, file_unique_id=method.file_id[-8:],
                        file_size=len(data), file_path=f"documents/{method.file_id}")
        if isinstance(method, EditMessageText):
            sent = self.messages[(int(method.chat_id), method.message_id)]
            if sent.photo is not None:
                raise TelegramBadRequest(method,
                                         "Bad Request: there is no text in the message to edit")
            self._check_text(method, method.text, method.reply_markup)
            if sent.text == method.text and _same(sent.markup, method.reply_markup):
                raise TelegramBadRequest(method, "Bad Request: message is not modified")
            sent.text, sent.markup = method.text, method.reply_markup
            return self._message(sent.chat_id, sent.message_id)
        if isinstance(method, EditMessageReplyMarkup):
            sent = self.messages[(int(method.chat_id), method.message_id)]
            if _same(sent.markup, method.reply_markup):
                raise TelegramBadRequest(method, "Bad Request: message is not modified")
            sent.markup = method.reply_markup
            return self._message(sent.chat_id, sent.message_id)
        if isinstance(method, DeleteMessage):
            self.messages[(int(method.chat_id), method.message_id)].deleted = True
            return True
        if isinstance(method, DeleteMessages):
            for mid in method.message_ids:  # those not found are skipped, as Telegram does
                sent = self.messages.get((int(method.chat_id), mid))
                if sent is not None:
                    sent.deleted = True
            return True
        if isinstance(method, AnswerCallbackQuery):
            if self.fail_answers > 0:
                self.fail_answers -= 1
                raise TelegramBadRequest(method, "Bad Request: query is too old and response "
                                         "timeout expired or query ID is invalid")
            self.alerts.append((int(method.callback_query_id), method.text,
                                bool(method.show_alert), method.url))
            return True
        if isinstance(method, GetChatMember):
            if self.fail_members > 0:
                self.fail_members -= 1
                raise TelegramNetworkError(method, "Request timeout error")
            chat_id, uid = int(method.chat_id), method.user_id
            user = User(id=uid, is_bot=False, first_name=f"u{uid}")
            if uid in self.admins.get(chat_id, set()):
                # only the status matters to the bot; the permission flags vary by version
                return ChatMemberAdministrator.model_construct(status="administrator",
                                                               user=user)
            if uid == -chat_id:
                return ChatMemberOwner(user=user, is_anonymous=False)
            return ChatMemberMember(user=user)
        return True  # setMyCommands, deleteWebhook, ...

    def _check_text(self, method: TelegramMethod, text: str, markup: Any) -> None:
        if not text or len(text) > 4096:
            raise TelegramBadRequest(method, "Bad Request: message is too long or empty")
        for row in (markup.inline_keyboard if markup is not None else []):
            for b in row:
                if b.callback_data is not None and len(b.callback_data.encode()) > 64:
                    raise TelegramBadRequest(method, "Bad Request: BUTTON_DATA_INVALID")

    def _check_photo(self, method: TelegramMethod, photo: Any, caption: str | None,
                     markup: Any) -> bytes:
        """The PNG bytes of an upload, after Telegram's checks of photo and caption."""
        if self.fail_photos > 0:
            self.fail_photos -= 1
            raise TelegramBadRequest(method, "Bad Request: IMAGE_PROCESS_FAILED")
        data = getattr(photo, "data", None)
        if not isinstance(data, bytes) or not data.startswith(b"\x89PNG\r\n\x1a\n"):
            raise TelegramBadRequest(method, "Bad Request: IMAGE_PROCESS_FAILED")
        if caption is not None and utf16_len(parse_html(caption)[0].strip()) > 1024:
            raise TelegramBadRequest(method, "Bad Request: message caption is too long")
        self._check_text(method, "-", markup)
        return data

    def _message(self, chat_id: int, mid: int) -> Message:
        sent = self.messages[(chat_id, mid)]
        chat = Chat(id=chat_id, type="private" if chat_id > 0 else "supergroup")
        if sent.photo is not None:
            size = PhotoSize(file_id=f"photo{mid}", file_unique_id=f"p{mid}", width=1200,
                             height=960, file_size=len(sent.photo))
            return Message(message_id=mid, date=int(time.time()), chat=chat, from_user=BOT,
                           caption=sent.text, photo=[size], reply_markup=sent.markup)
        return Message(message_id=mid, date=int(time.time()), chat=chat,
                       from_user=BOT, text=sent.text, reply_markup=sent.markup)


def _same(a: Any, b: Any) -> bool:
    da = a.model_dump() if a is not None else None
    db = b.model_dump() if b is not None else None
    return da == db


class FakeSession(BaseSession):
    """An aiogram session whose every request is answered by :class:`FakeTelegram`."""

    def __init__(self, tg: FakeTelegram) -> None:
        super().__init__()
        self.tg = tg

    async def make_request(self, bot: Bot, method: TelegramMethod, timeout: int | None = None):
        return self.tg.answer(method, bot)

    async def stream_content(self, url: str, *args, chunk_size: int = 65536, **kwargs):
        """A file download: the bytes of ``documents/<file_id>`` (what getFile gave)."""
        data = self.tg.files[url.rsplit("/", 1)[-1]]
        for i in range(0, len(data), chunk_size):
            yield data[i:i + chunk_size]

    async def close(self) -> None:
        return None


@dataclass
class Person:
    id: int
    first_name: str
    language_code: str = "ru"

    @property
    def user(self) -> User:
        return User(id=self.id, is_bot=False, first_name=self.first_name,
                    language_code=self.language_code)


class Harness:
    """The real dispatcher and routers over a temporary database and :class:`FakeTelegram`."""

    def __init__(self, tmp: Path, default_locale: str = "ru", turn_timeout: int = 60,
                 table_view: str = "picture", settings: dict | None = None,
                 translator=None):
        self.tmp = tmp
        # more of delivery.settings.Settings (e.g. WEBAPP_URL)
        self.extra_settings = dict(settings or {})
        self.tg = FakeTelegram()
        self.default_locale = default_locale
        self.turn_timeout = turn_timeout
        self.table_view = table_view  # TABLE_VIEW: the group's table as a picture or text
        self.translator = translator  # a game's own texts (a game that exists only in a test)
        self._update_ids = itertools.count(1)
        self._cb_ids = itertools.count(1)

    async def __aenter__(self) -> Harness:
        import delivery.settings as bot_module
        from handlers.run import build

        self.settings = bot_module.Settings(
            bot_token="42:TEST", database_path=self.tmp / "kozel.sqlite3",
            default_locale=self.default_locale, turn_timeout=self.turn_timeout,
            table_view=self.table_view, picture_workers=0, _env_file=None,
            **self.extra_settings)
        self.bot = Bot("42:TEST", session=FakeSession(self.tg))
        self.dp, self.app = await build(
            self.settings, self.bot, chat_interval=0.0, group_per_minute=10**9,
            global_per_second=10**9,
            service_overrides={"bot_executor": InlineExecutor(), "hard_samples": 2},
            translator=self.translator)
        return self

    @property
    def outbox(self):
        """The app's outbox (the tests look at what it holds)."""
        return self.app.outbox

    async def __aexit__(self, *exc) -> None:
        await self.app.close()

    async def feed(self, update: Update) -> None:
        """Hand ``update`` to the dispatcher; return once everything it sent went out and
        the message ids are stored."""
        await self.dp.feed_update(self.bot, update)
        await self.outbox.drain()
        await self.app.publisher.settled()

    async def say(self, person: Person, chat_id: int, text: str,
                  reply_to: Message | None = None, thread_id: int | None = None) -> None:
        """``person`` writes ``text`` (a command, usually) in ``chat_id``."""
        chat = Chat(id=chat_id, type="private" if chat_id > 0 else "supergroup",
                    title=None if chat_id > 0 else "Домино во дворе",
                    first_name=person.first_name if chat_id > 0 else None)
        entities = None
        if text.startswith("/"):
            entities = [MessageEntity(type="bot_command", offset=0,
                                      length=len(text.split()[0]))]
        msg = Message(message_id=900000 + next(self._update_ids), date=int(time.time()),
                      chat=chat, from_user=person.user, text=text, entities=entities,
                      reply_to_message=reply_to, message_thread_id=thread_id,
                      is_topic_message=bool(thread_id) or None)
        await self.feed(Update(update_id=next(self._update_ids), message=msg))

    async def send_document(self, person: Person, chat_id: int, data: bytes, *,
                            file_name: str = "record.json", caption: str | None = None,
                            reply_to: Message | None = None,
                            file_size: int | None = None) -> Message:
        """``person`` sends a file (``data``) in ``chat_id``; ``file_size`` what Telegram
        reports (default: the real size).  Returns the message as the bot got it."""
        fid = f"BQACAgIAAx{next(self._update_ids):08d}"
        self.tg.files[fid] = data
        chat = Chat(id=chat_id, type="private" if chat_id > 0 else "supergroup",
                    first_name=person.first_name if chat_id > 0 else None)
        entities = None
        if caption and caption.startswith("/"):
            entities = [MessageEntity(type="bot_command", offset=0,
                                      length=len(caption.split()[0]))]
        msg = Message(message_id=900000 + next(self._update_ids), date=int(time.time()),
                      chat=chat, from_user=person.user, caption=caption,
                      caption_entities=entities, reply_to_message=reply_to,
                      document=Document(file_id=fid, file_unique_id=fid[-8:],
                                        file_name=file_name,
                                        file_size=len(data) if file_size is None else file_size))
        await self.feed(Update(update_id=next(self._update_ids), message=msg))
        return msg

    async def press(self, person: Person, sent: Sent, data: str | None = None,
                    text: str | None = None) -> tuple[str | None, bool, str | None]:
        """``person`` presses a button of ``sent`` (by label ``text``, or raw ``data``);
        returns the answer (text, show_alert, url)."""
        if data is None:
            button = next(b for b in sent.buttons() if text is None or b.text == text)
            data = button.callback_data
        chat = Chat(id=sent.chat_id, type="private" if sent.chat_id > 0 else "supergroup")
        msg = Message(message_id=sent.message_id, date=int(time.time()), chat=chat,
                      from_user=BOT, text=sent.text, reply_markup=sent.markup)
        qid = next(self._cb_ids)
        query = CallbackQuery(id=str(qid), from_user=person.user, chat_instance="ci",
                              message=msg, data=data)
        await self.feed(Update(update_id=next(self._update_ids), callback_query=query))
        for aid, text_, alert, url in reversed(self.tg.alerts):
            if aid == qid:
                return text_, alert, url
        return None, False, None

    def keyboard_message(self, person: Person) -> Sent | None:
        """The private message of ``person`` that holds a live move keyboard, if any."""
        live = [m for m in self.tg.chat(person.id) if m.move_buttons()]
        return live[-1] if live else None

    def the_live_keyboard(self, people: Sequence[Person]) -> tuple[Person, Sent]:
        """The one person of ``people`` with a live move keyboard, and its message; fails
        unless exactly one has one."""
        live = [(p, self.keyboard_message(p)) for p in people]
        live = [(p, m) for p, m in live if m is not None]
        assert len(live) == 1, f"live keyboards: {[p.id for p, _ in live]}"
        return live[0]
