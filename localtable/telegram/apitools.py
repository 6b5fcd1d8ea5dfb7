"""What the Bot API methods share (:mod:`localtable.telegram.botapi`): Telegram's limits, its
errors, how aiogram's form fields are decoded, and a few checks of values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from .records import ApiError

__all__ = ["BOOL_FIELDS", "BUTTON_ACTIONS", "CHAT_ACTIONS", "COMMAND_NAME", "INT_FIELDS",
           "JSON_FIELDS", "MAX_ANSWER_TEXT", "MAX_BUTTONS", "MAX_CAPTION", "MAX_COMMANDS",
           "MAX_TEXT", "NOT_MODIFIED", "QUERY_INVALID", "SCOPES", "bad", "forbidden",
           "int_param", "normalize_params", "start_link", "uploads", "valid_url"]

MAX_TEXT = 4096
#: Longest caption of a photo [UTF-16 code units, after entity parsing].
MAX_CAPTION = 1024
MAX_BUTTONS = 100
MAX_ANSWER_TEXT = 200
MAX_COMMANDS = 100
NOT_MODIFIED = ("message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message")
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
BUTTON_ACTIONS = ("callback_data", "url", "web_app", "login_url", "switch_inline_query",
                   "switch_inline_query_current_chat", "switch_inline_query_chosen_chat",
                   "copy_text", "callback_game", "pay")
JSON_FIELDS = frozenset({"reply_markup", "reply_parameters", "entities", "commands", "scope",
                          "allowed_updates", "link_preview_options", "message_ids",
                          "menu_button", "rights", "media", "caption_entities"})
INT_FIELDS = frozenset({"chat_id", "message_id", "offset", "limit", "timeout", "user_id",
                         "message_thread_id", "reply_to_message_id", "cache_time"})
BOOL_FIELDS = frozenset({"show_alert", "drop_pending_updates", "allow_sending_without_reply",
                          "disable_notification", "protect_content", "for_channels",
                          "disable_web_page_preview", "show_caption_above_media",
                          "has_spoiler"})
COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
SCOPES = frozenset({"default", "all_private_chats", "all_group_chats",
                     "all_chat_administrators", "chat", "chat_administrators", "chat_member"})
CHAT_ACTIONS = frozenset({"typing", "upload_photo", "record_video", "upload_video", "record_voice",
                      "upload_voice", "upload_document", "choose_sticker", "find_location",
                      "record_video_note", "upload_video_note"})


def uploads(method: Callable) -> Callable:
    """Mark a Bot API method that takes uploaded files: it is called as ``method(params,
    files)`` with ``files`` the multipart file fields by name (bytes)."""
    method.uploads = True  # type: ignore[attr-defined]
    return method


def bad(description: str, **parameters: Any) -> ApiError:
    return ApiError(400, f"Bad Request: {description}", **parameters)


def forbidden(description: str) -> ApiError:
    return ApiError(403, f"Forbidden: {description}")


def normalize_params(raw: dict[str, Any]) -> dict[str, Any]:
    """Decode aiogram's form fields: JSON for nested fields, int for ids, bool for flags.
    Values that do not decode stay as they came (the method then rejects them)."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str):
            if key in JSON_FIELDS:
                try:
                    value = json.loads(value)
                except ValueError:
                    pass
            elif key in INT_FIELDS:
                try:
                    value = int(value)
                except ValueError:
                    pass
            elif key in BOOL_FIELDS:
                value = value.lower() in ("true", "1")
        out[key] = value
    return out


def int_param(p: dict, name: str) -> int | None:
    value = p.get(name)
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise bad(f"invalid {name} specified") from exc


def valid_url(url: Any) -> bool:
    if not isinstance(url, str):
        return False
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        return bool(parts.netloc) and " " not in url
    return parts.scheme == "tg" and bool(parts.netloc or parts.path)


def start_link(url: str, username: str) -> bool:
    """Telegram lets a callback answer open only a start link of the bot itself (or a game)."""
    u = username.lower()
    low = url.lower()
    return any(low.startswith(prefix) for prefix in (
        f"https://t.me/{u}?start=", f"http://t.me/{u}?start=", f"t.me/{u}?start=",
        f"https://telegram.me/{u}?start=", f"tg://resolve?domain={u}&start="))
