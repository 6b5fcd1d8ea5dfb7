"""The Bot API methods, on top of :class:`~tests.emulator.world.World`.

Parameters arrive as aiogram sends them: form fields whose nested values (``reply_markup``,
``reply_parameters``, ``scope``, ``commands``, ``allowed_updates``, ``media``…) are JSON
strings and whose numbers and booleans are JSON scalars; a JSON body or a query string works
too.  Uploads (``sendPhoto``, ``editMessageMedia``) arrive as multipart/form-data: a file
field, named by the parameter itself or by ``attach://<name>`` in it, whose bytes reach the
method beside the parameters.  Every method
validates what Telegram validates and raises :class:`~tests.emulator.world.ApiError` with
Telegram's code and description.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from .html import EntityParseError, parse_html, strip_text, utf16_len
from .world import MAX_CALLBACK_DATA, ApiError, Chat, Msg, StoredFile, World

__all__ = ["BotApi", "normalize_params"]

MAX_TEXT = 4096
#: Longest caption of a photo [UTF-16 code units, after entity parsing].
MAX_CAPTION = 1024
MAX_BUTTONS = 100
MAX_ANSWER_TEXT = 200
MAX_COMMANDS = 100
NOT_MODIFIED = ("message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message")
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
_BUTTON_ACTIONS = ("callback_data", "url", "web_app", "login_url", "switch_inline_query",
                   "switch_inline_query_current_chat", "switch_inline_query_chosen_chat",
                   "copy_text", "callback_game", "pay")
_JSON_FIELDS = frozenset({"reply_markup", "reply_parameters", "entities", "commands", "scope",
                          "allowed_updates", "link_preview_options", "message_ids",
                          "menu_button", "rights", "media", "caption_entities"})
_INT_FIELDS = frozenset({"chat_id", "message_id", "offset", "limit", "timeout", "user_id",
                         "message_thread_id", "reply_to_message_id", "cache_time"})
_BOOL_FIELDS = frozenset({"show_alert", "drop_pending_updates", "allow_sending_without_reply",
                          "disable_notification", "protect_content", "for_channels",
                          "disable_web_page_preview", "show_caption_above_media",
                          "has_spoiler"})
_COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
_SCOPES = frozenset({"default", "all_private_chats", "all_group_chats",
                     "all_chat_administrators", "chat", "chat_administrators", "chat_member"})
_ACTIONS = frozenset({"typing", "upload_photo", "record_video", "upload_video", "record_voice",
                      "upload_voice", "upload_document", "choose_sticker", "find_location",
                      "record_video_note", "upload_video_note"})


def _uploads(method: Callable) -> Callable:
    """Mark a Bot API method that takes uploaded files: it is called as ``method(params,
    files)`` with ``files`` the multipart file fields by name (bytes)."""
    method.uploads = True  # type: ignore[attr-defined]
    return method


def _bad(description: str, **parameters: Any) -> ApiError:
    return ApiError(400, f"Bad Request: {description}", **parameters)


def _forbidden(description: str) -> ApiError:
    return ApiError(403, f"Forbidden: {description}")


def normalize_params(raw: dict[str, Any]) -> dict[str, Any]:
    """Decode aiogram's form fields: JSON for nested fields, int for ids, bool for flags.
    Values that do not decode stay as they came (the method then rejects them)."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str):
            if key in _JSON_FIELDS:
                try:
                    value = json.loads(value)
                except ValueError:
                    pass
            elif key in _INT_FIELDS:
                try:
                    value = int(value)
                except ValueError:
                    pass
            elif key in _BOOL_FIELDS:
                value = value.lower() in ("true", "1")
        out[key] = value
    return out


class BotApi:
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
        offset = _int(p, "offset")
        limit = _int(p, "limit")
        timeout = _int(p, "timeout") or 0
        allowed = p.get("allowed_updates")
        if allowed is not None and not isinstance(allowed, list):
            raise _bad("can't parse allowed updates JSON object")
        return await self.world.get_updates(offset, 100 if limit is None else limit,
                                            max(0, min(timeout, 50)), allowed)

    def api_setWebhook(self, p: dict) -> bool:
        """Set the webhook: pending updates are then POSTed there (tests/emulator/webhook.py)
        with ``secret_token``, to the types of ``allowed_updates``, at most
        ``max_connections`` at once."""
        url = str(p.get("url") or "")
        if url and not url.startswith("https://"):
            raise _bad("bad webhook: An HTTPS URL must be provided for webhook")
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
        if not isinstance(scope, dict) or scope.get("type") not in _SCOPES:
            raise _bad("can't parse BotCommandScope JSON object")
        if scope["type"] in ("chat", "chat_administrators", "chat_member"):
            if "chat_id" not in scope:
                raise _bad("chat_id is empty")
            if scope["type"] == "chat_member" and "user_id" not in scope:
                raise _bad("user_id is empty")
        lang = str(p.get("language_code") or "")
        if lang and not re.fullmatch(r"[a-z]{2}", lang):
            raise _bad("invalid language code specified")
        return json.dumps(scope, sort_keys=True), lang

    def api_setMyCommands(self, p: dict) -> bool:
        """Store the command list for (scope, language_code); an empty list deletes it."""
        commands = p.get("commands")
        if not isinstance(commands, list):
            raise _bad("can't parse commands JSON object")
        if len(commands) > MAX_COMMANDS:
            raise _bad("BOT_COMMANDS_TOO_MUCH")
        clean = []
        for c in commands:
            if not isinstance(c, dict) or not _COMMAND_NAME.match(str(c.get("command", ""))):
                raise _bad("BOT_COMMAND_INVALID")
            description = str(c.get("description") or "")
            if not 1 <= len(description) <= 256:
                raise _bad("BOT_COMMAND_DESCRIPTION_INVALID")
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
            raise _bad(f"{kind.upper()}_INVALID")
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

    # -- chats ---------------------------------------------------------------------------------

    def _target(self, p: dict, *, write: bool = True) -> Chat:
        """The chat named by ``chat_id``, with Telegram's errors for the bot's access to it."""
        w = self.world
        raw = p.get("chat_id")
        if raw is None or raw == "":
            raise _bad("chat_id is empty")
        if isinstance(raw, str) and raw.startswith("@"):
            name = raw[1:].lower()
            chat = next((c for c in w.chats.values()
                         if c.username and c.username.lower() == name), None)
            if chat is None:
                raise _bad("chat not found")
        else:
            try:
                chat_id = int(raw)
            except (TypeError, ValueError) as exc:
                raise _bad("chat not found") from exc
            if chat_id > 0:
                return self._private_target(chat_id, write)
            chat = w.chats.get(chat_id)
            if chat is None:
                raise _bad("chat not found")
        if chat.migrated_to is not None:
            raise _bad("group chat was upgraded to a supergroup chat",
                       migrate_to_chat_id=chat.migrated_to)
        if chat.bot_status == "kicked":
            raise _forbidden(f"bot was kicked from the {chat.type} chat")
        if chat.bot_status == "left":
            raise _forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def _private_target(self, user_id: int, write: bool) -> Chat:
        w = self.world
        user = w.users.get(user_id)
        if user is None:
            raise _bad("chat not found")
        if user is w.bot:
            raise _forbidden("bot can't send messages to bots")
        if user.is_bot and write:
            raise _forbidden("bot can't send messages to bots")
        chat = w.chats.get(user_id)
        if chat is None or not user.started:
            if write:
                raise _forbidden("bot can't initiate conversation with a user")
            raise _bad("chat not found")
        if user.blocked and write:
            raise _forbidden("bot was blocked by the user")
        return chat

    def api_getChat(self, p: dict) -> dict:
        """``ChatFullInfo`` of a chat the bot can see."""
        chat = self._target(p, write=False)
        info = {**self.world._chat_api(chat), "accent_color_id": 0, "max_reaction_count": 11,
                "accepted_gift_types": dict.fromkeys((
                    "unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription",
                    "gifts_from_channels"), False)}
        if chat.pinned is not None and chat.pinned in chat.messages:
            info["pinned_message"] = self.world._message_api(chat, chat.messages[chat.pinned])
        return info

    def api_getChatMember(self, p: dict) -> dict:
        """creator / administrator / member / left / kicked of a user in a chat."""
        w = self.world
        chat = self._target(p, write=False)
        user_id = _int(p, "user_id")
        if user_id is None:
            raise _bad("user_id is empty")
        if user_id == w.bot.id:
            status = "member" if chat.type == "private" else chat.bot_status
            return w._member_api(chat, user_id, status)
        if user_id not in w.users:
            raise _bad("user not found")
        if chat.type == "private":
            if user_id != chat.id:
                raise _bad("user not found")
            return w._member_api(chat, user_id, "member")
        return w._member_api(chat, user_id, chat.members.get(user_id, "left"))

    def api_getChatAdministrators(self, p: dict) -> list[dict]:
        """The owner and administrators (the bot too, if it is one)."""
        w = self.world
        chat = self._target(p, write=False)
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        out = [w._member_api(chat, uid, s) for uid, s in chat.members.items()
               if s in ("creator", "administrator")]
        if chat.bot_status == "administrator":
            out.append(w._member_api(chat, w.bot.id, "administrator"))
        return out

    def api_getChatMemberCount(self, p: dict) -> int:
        """Members present, the bot included."""
        chat = self._target(p, write=False)
        if chat.type == "private":
            return 2
        present = sum(s in ("creator", "administrator", "member", "restricted")
                      for s in chat.members.values())
        return present + (chat.bot_status in ("member", "administrator"))

    def api_leaveChat(self, p: dict) -> bool:
        """The bot leaves a group (it receives ``my_chat_member``)."""
        chat = self._target(p, write=False)
        if chat.type == "private":
            raise _bad("chat member status can't be changed in private chats")
        self.world._set_bot_status(chat, "left", self.world.bot.id)
        return True

    def api_sendChatAction(self, p: dict) -> bool:
        """Check the chat and the action; nothing is shown."""
        chat = self._target(p)
        if p.get("action") not in _ACTIONS:
            raise _bad("wrong parameter action in request")
        self._thread(chat, p)
        return True

    def _pin_target(self, p: dict) -> tuple[Chat, int | None]:
        chat = self._target(p)
        if chat.type != "private" and chat.bot_status != "administrator":
            raise _bad("not enough rights to manage pinned messages in the chat")
        return chat, _int(p, "message_id")

    def api_pinChatMessage(self, p: dict) -> bool:
        """Pin a message (the bot must be an administrator in groups)."""
        chat, mid = self._pin_target(p)
        if mid is None or self.world._live(chat, mid) is None:
            raise _bad("message to pin not found")
        chat.pinned = mid
        self.world.changed()
        return True

    def api_unpinChatMessage(self, p: dict) -> bool:
        """Unpin a message (or the pinned one)."""
        chat, mid = self._pin_target(p)
        if mid is None or mid == chat.pinned:
            chat.pinned = None
        self.world.changed()
        return True

    def api_unpinAllChatMessages(self, p: dict) -> bool:
        """Unpin everything."""
        chat, _ = self._pin_target(p)
        chat.pinned = None
        self.world.changed()
        return True

    # -- messages ------------------------------------------------------------------------------

    def _thread(self, chat: Chat, p: dict) -> int | None:
        thread = _int(p, "message_thread_id")
        if not chat.is_forum or thread is None:
            return None
        if thread not in chat.topics:
            raise _bad("message thread not found")
        return thread

    def _text(self, p: dict) -> tuple[str, list[dict], str]:
        """(plain text, entities, source) after parse mode, trimming and Telegram's limits."""
        source = p.get("text")
        if source is None or source == "":
            raise _bad("message text is empty")
        source = str(source)
        text, entities = self._formatted(source, p.get("parse_mode"), p.get("entities"))
        if not text:
            raise _bad("message text is empty")
        if len(text) > MAX_TEXT:
            raise _bad("message is too long")
        return text, entities, source

    def _caption(self, p: dict) -> tuple[str | None, list[dict], str | None]:
        """A photo's (caption, entities, source) from ``caption``, ``parse_mode`` and
        ``caption_entities`` (of the method or of an ``InputMedia``); (None, [], None) without
        one.  At most :data:`MAX_CAPTION` UTF-16 code units after parsing."""
        source = p.get("caption")
        if source is None or source == "":
            return None, [], None
        source = str(source)
        text, entities = self._formatted(source, p.get("parse_mode"), p.get("caption_entities"))
        if utf16_len(text) > MAX_CAPTION:
            raise _bad("message caption is too long")
        return (text or None), entities, source

    def _formatted(self, source: str, parse_mode: Any, given: Any) -> tuple[str, list[dict]]:
        """(plain text, entities) of a text or caption: its parse mode applied, or the
        entities given, then trimmed as Telegram trims."""
        mode = str(parse_mode or "")
        entities: list[dict] = []
        if mode:
            if mode.lower() == "html":
                try:
                    text, entities = parse_html(source)
                except EntityParseError as exc:
                    raise _bad(f"can't parse entities: {exc}") from exc
            elif mode.lower() in ("markdown", "markdownv2"):
                text = source  # formatting is not modelled; the text is kept as sent
            else:
                raise _bad("unsupported parse_mode")
        else:
            text = source
            if given is not None:
                if not isinstance(given, list):
                    raise _bad("can't parse entities JSON object")
                total = utf16_len(text)
                for e in given:
                    if (not isinstance(e, dict) or "type" not in e
                            or not isinstance(e.get("offset"), int)
                            or not isinstance(e.get("length"), int)):
                        raise _bad("can't parse MessageEntity JSON object")
                    if e["offset"] + e["length"] > total:
                        raise _bad("entity beyond the end of the text")
                entities = sorted(given, key=lambda e: (e["offset"], -e["length"]))
        return strip_text(text, entities)

    def _markup(self, value: Any, chat: Chat | None = None) -> dict | None:
        """The stored form of ``reply_markup`` (None: no keyboard).  A ``web_app`` button
        outside a private chat is refused with ``BUTTON_TYPE_INVALID``, as Telegram refuses
        it (a group gets a URL button with a direct Mini App link instead)."""
        if value is None:
            return None
        if not isinstance(value, dict):
            raise _bad("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in value:
            return dict(value)  # reply keyboards and friends: kept, never shown to presses
        rows = value["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise _bad("can't parse inline keyboard button: Field \"inline_keyboard\" must be "
                       "of type Array")
        clean: list[list[dict]] = []
        count = 0
        for row in rows:
            out_row = []
            for b in row:
                if not isinstance(b, dict) or not isinstance(b.get("text"), str):
                    raise _bad("can't parse inline keyboard button: Field \"text\" must be of "
                               "type String")
                if not b["text"]:
                    raise _bad("BUTTON_TEXT_INVALID")
                if not any(k in b for k in _BUTTON_ACTIONS):
                    raise _bad("can't parse inline keyboard button: Text buttons are unallowed "
                               "in the inline keyboard")
                if "callback_data" in b:
                    data = b["callback_data"]
                    if (not isinstance(data, str) or not data
                            or len(data.encode()) > MAX_CALLBACK_DATA):
                        raise _bad("BUTTON_DATA_INVALID")
                if "web_app" in b and (chat is None or chat.type != "private"):
                    raise _bad("BUTTON_TYPE_INVALID")
                if "web_app" in b and not _valid_url(str((b["web_app"] or {}).get("url"))):
                    raise _bad("BUTTON_URL_INVALID")
                if "url" in b and not _valid_url(b["url"]):
                    raise _bad("BUTTON_URL_INVALID")
                out_row.append(dict(b))
                count += 1
            if out_row:
                clean.append(out_row)
        if count > MAX_BUTTONS:
            raise _bad("reply markup is too long")
        return {"inline_keyboard": clean} if clean else None

    def _reply(self, chat: Chat, p: dict, thread: int | None) -> tuple[int | None, int | None]:
        """(reply_to message id, thread id) from ``reply_parameters`` / ``reply_to_message_id``."""
        rp = p.get("reply_parameters")
        if rp is not None and not isinstance(rp, dict):
            raise _bad("can't parse reply parameters JSON object")
        target = rp.get("message_id") if rp else _int(p, "reply_to_message_id")
        allow = bool(rp.get("allow_sending_without_reply") if rp
                     else p.get("allow_sending_without_reply"))
        if rp and rp.get("chat_id") not in (None, chat.id, str(chat.id)):
            target = None  # a reply to another chat: shown without the quote here
        if target is None:
            return thread, thread
        replied = self.world._live(chat, int(target))
        if replied is None:
            if not allow:
                raise _bad("message to be replied not found")
            return thread, thread
        if thread is None and chat.is_forum:
            thread = replied.thread_id
        return replied.message_id, thread

    def api_sendMessage(self, p: dict) -> dict:
        """Send a text message (HTML parse mode, inline keyboard, reply, forum topic)."""
        w = self.world
        chat = self._target(p)
        thread = self._thread(chat, p)
        reply_to, thread = self._reply(chat, p, thread)
        text, entities, source = self._text(p)
        markup = self._markup(p.get("reply_markup"), chat)
        w.flood_check(chat)
        msg = w._store(chat, w.bot.id, text, entities=entities, source=source, markup=markup,
                       thread_id=thread, reply_to=reply_to)
        w.flood_count(chat)
        return w._message_api(chat, msg)

    def _editable(self, p: dict, chat: Chat) -> Msg:
        if p.get("inline_message_id"):
            raise _bad("MESSAGE_ID_INVALID")
        mid = _int(p, "message_id")
        if mid is None:
            raise _bad("message identifier is not specified")
        msg = self.world._live(chat, mid)
        if msg is None:
            raise _bad("message to edit not found")
        if msg.from_id != self.world.bot.id:
            raise _bad("message can't be edited")
        return msg

    def _apply_edit(self, chat: Chat, msg: Msg, text: str | None, entities: list[dict],
                    source: str | None, markup: dict | None) -> dict:
        w = self.world
        if text == msg.text and entities == msg.entities and markup == msg.markup:
            raise _bad(NOT_MODIFIED)
        w.flood_check(chat)
        msg.text, msg.entities, msg.source, msg.markup = text, entities, source, markup
        return self._edited(chat, msg)

    def _edited(self, chat: Chat, msg: Msg) -> dict:
        """Count an edit that changed ``msg``: its date, history, flood control; the message
        as the Bot API returns it."""
        w = self.world
        msg.edit_date = w.now()
        msg.edits += 1
        if w.config.keep_history:
            msg.history.append(msg.snapshot(w.clock()))
        w.flood_count(chat)
        w.changed()
        return w._message_api(chat, msg)

    def api_editMessageText(self, p: dict) -> dict:
        """Replace a message's text; omitting ``reply_markup`` removes its keyboard."""
        chat = self._target(p)
        msg = self._editable(p, chat)
        if msg.text is None:
            raise _bad("there is no text in the message to edit")
        text, entities, source = self._text(p)
        markup = self._markup(p.get("reply_markup"), chat)
        return self._apply_edit(chat, msg, text, entities, source, markup)

    def api_editMessageReplyMarkup(self, p: dict) -> dict:
        """Replace (or, without ``reply_markup``, remove) a message's inline keyboard."""
        chat = self._target(p)
        msg = self._editable(p, chat)
        markup = self._markup(p.get("reply_markup"), chat)
        return self._apply_edit(chat, msg, msg.text, msg.entities, msg.source, markup)

    # -- photos ------------------------------------------------------------------------------

    def _photo(self, value: Any, files: dict[str, bytes], field: str) -> StoredFile:
        """The photo a parameter names: ``attach://<name>`` (a file field of the request), the
        file field ``field`` itself, or the ``file_id`` of a photo sent before."""
        w = self.world
        if value is None or value == "" or value == "<file>":
            data = files.get(field)
            if data is None:
                raise _bad(f"there is no {field} in the request")
            return w.store_photo(data)
        if not isinstance(value, str):
            raise _bad("wrong file identifier/HTTP URL specified")
        if value.startswith("attach://"):
            data = files.get(value[len("attach://"):])
            if data is None:
                raise _bad("wrong file identifier/HTTP URL specified")
            return w.store_photo(data)
        known = w.photo_file(value)
        if known is None:
            raise _bad("wrong file identifier/HTTP URL specified")
        return known

    @_uploads
    def api_sendPhoto(self, p: dict, files: dict[str, bytes]) -> dict:
        """Send a photo (an upload or a known ``file_id``) with an optional caption (HTML parse
        mode, at most 1024 characters), inline keyboard, reply and forum topic."""
        w = self.world
        chat = self._target(p)
        thread = self._thread(chat, p)
        reply_to, thread = self._reply(chat, p, thread)
        caption, entities, source = self._caption(p)
        markup = self._markup(p.get("reply_markup"), chat)
        w.flood_check(chat)
        photo = self._photo(p.get("photo"), files, "photo")
        msg = w._store(chat, w.bot.id, None, markup=markup, thread_id=thread,
                       reply_to=reply_to, caption=caption, caption_entities=entities,
                       caption_source=source, photo=photo.file_id)
        w.flood_count(chat)
        return w._message_api(chat, msg)

    def _apply_media(self, chat: Chat, msg: Msg, photo: str, caption: str | None,
                     entities: list[dict], source: str | None, markup: dict | None) -> dict:
        """Show ``photo`` with ``caption`` and ``markup`` in ``msg`` (a text message becomes a
        photo message, as on Telegram)."""
        w = self.world
        if (msg.photo == photo and msg.caption == caption and msg.caption_entities == entities
                and msg.markup == markup and msg.text is None):
            raise _bad(NOT_MODIFIED)
        w.flood_check(chat)
        msg.text, msg.entities, msg.source = None, [], None
        msg.caption, msg.caption_entities, msg.caption_source = caption, entities, source
        msg.markup = markup
        w.set_photo(msg, photo)
        return self._edited(chat, msg)

    @_uploads
    def api_editMessageMedia(self, p: dict, files: dict[str, bytes]) -> dict:
        """Replace a message's photo (``media``: an ``InputMediaPhoto`` as JSON, its ``media``
        ``attach://<name>`` or a known ``file_id``) and its caption; omitting
        ``reply_markup`` removes the keyboard.  The same bytes, caption and keyboard again are
        "message is not modified".  Only photos are modelled."""
        chat = self._target(p)
        msg = self._editable(p, chat)
        media = p.get("media")
        if not isinstance(media, dict):
            raise _bad("can't parse input media JSON object")
        if media.get("type") != "photo":
            raise _bad(f"can't parse InputMedia: media type {media.get('type')!r} is not "
                       "supported by the emulator")
        if not media.get("media"):
            raise _bad("can't parse InputMedia: Media is not specified")
        caption, entities, source = self._caption(media)
        markup = self._markup(p.get("reply_markup"), chat)
        photo = self._photo(media["media"], files, "media")
        try:
            return self._apply_media(chat, msg, photo.file_id, caption, entities, source, markup)
        except ApiError:
            self.world.forget_unshown(photo)
            raise

    # -- documents ---------------------------------------------------------------------------

    @_uploads
    def api_sendDocument(self, p: dict, files: dict[str, bytes]) -> dict:
        """Send a file (an upload, ``attach://<name>`` or a known ``file_id``) with an
        optional caption (at most 1024 characters), inline keyboard, reply and forum
        topic."""
        w = self.world
        chat = self._target(p)
        thread = self._thread(chat, p)
        reply_to, thread = self._reply(chat, p, thread)
        caption, entities, source = self._caption(p)
        markup = self._markup(p.get("reply_markup"), chat)
        value = p.get("document")
        if isinstance(value, str) and value in w.documents:
            doc = w.documents[value]
        else:
            name = value[len("attach://"):] if isinstance(value, str) and \
                value.startswith("attach://") else "document"
            data = files.get(name)
            if data is None:
                raise _bad("there is no document in the request")
            doc = w.store_document(data, self._file_names.get(name, "document"))
        w.flood_check(chat)
        msg = w._store(chat, w.bot.id, None, markup=markup, thread_id=thread,
                       reply_to=reply_to, caption=caption, caption_entities=entities,
                       caption_source=source)
        msg.document = doc.file_id
        w.flood_count(chat)
        return w._message_api(chat, msg)

    def api_getFile(self, p: dict) -> dict:
        """The ``File`` of a ``file_id`` with the path to download it from."""
        return self.world.get_file(str(p.get("file_id") or ""))

    def api_editMessageCaption(self, p: dict) -> dict:
        """Replace a photo's caption; omitting ``reply_markup`` removes the keyboard."""
        chat = self._target(p)
        msg = self._editable(p, chat)
        if msg.photo is None:
            raise _bad("there is no caption in the message to edit")
        caption, entities, source = self._caption(p)
        markup = self._markup(p.get("reply_markup"), chat)
        return self._apply_media(chat, msg, msg.photo, caption, entities, source, markup)

    def _delete_one(self, chat: Chat, mid: int | None) -> None:
        w = self.world
        msg = w._live(chat, mid) if mid is not None else None
        if msg is None:
            raise _bad("message to delete not found")
        if (msg.from_id != w.bot.id and chat.type != "private"
                and chat.bot_status != "administrator"):
            raise _bad("message can't be deleted")
        msg.deleted = True
        if w.config.keep_history:  # the chat shows it no more: nor its keyboard
            msg.history.append({**msg.snapshot(w.clock()), "reply_markup": None,
                                "deleted": True})
        if chat.pinned == mid:
            chat.pinned = None
        w.changed()

    def api_deleteMessage(self, p: dict) -> bool:
        """Delete a message (others' messages in groups only as an administrator)."""
        chat = self._target(p)
        self._delete_one(chat, _int(p, "message_id"))
        return True

    def api_deleteMessages(self, p: dict) -> bool:
        """Delete several messages; missing ones are skipped."""
        chat = self._target(p)
        ids = p.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise _bad("message identifiers are not specified")
        deleted = 0
        for mid in ids:
            try:
                self._delete_one(chat, int(mid))
                deleted += 1
            except ApiError:
                continue
        if not deleted:
            raise _bad("message to delete not found")
        return True

    # -- callback queries --------------------------------------------------------------------

    def api_answerCallbackQuery(self, p: dict) -> bool:
        """Answer a callback query once, within ``callback_ttl`` seconds: a toast
        (``text``), an alert (``show_alert``) or a start link of this bot (``url``)."""
        w = self.world
        query = w.queries.get(str(p.get("callback_query_id") or ""))
        if (query is None or query.answer is not None
                or w.clock() - query.t > w.config.callback_ttl):
            raise _bad(QUERY_INVALID)
        text = str(p.get("text") or "")
        if len(text) > MAX_ANSWER_TEXT:
            raise _bad("MESSAGE_TOO_LONG")
        url = str(p.get("url") or "")
        if url and not _start_link(url, w.bot.username or ""):
            raise _bad("URL_INVALID")
        query.answer = {"text": text, "show_alert": bool(p.get("show_alert")),
                        "url": url or None, "cache_time": _int(p, "cache_time") or 0,
                        "t": w.clock()}
        w.changed()
        return True


def _int(p: dict, name: str) -> int | None:
    value = p.get(name)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise _bad(f"invalid {name} specified") from exc


def _valid_url(url: Any) -> bool:
    if not isinstance(url, str):
        return False
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        return bool(parts.netloc) and " " not in url
    return parts.scheme == "tg" and bool(parts.netloc or parts.path)


def _start_link(url: str, username: str) -> bool:
    """Telegram lets a callback answer open only a start link of the bot itself (or a game)."""
    u = username.lower()
    low = url.lower()
    return any(low.startswith(prefix) for prefix in (
        f"https://t.me/{u}?start=", f"http://t.me/{u}?start=", f"t.me/{u}?start=",
        f"https://telegram.me/{u}?start=", f"tg://resolve?domain={u}&start="))
