"""The Bot API methods that write messages (:mod:`localtable.telegram.botapi`): texts and
captions in their parse modes, keyboards, replies, sends, edits, deletions and the answers to
callback queries.
"""

from __future__ import annotations

from typing import Any

from .apitools import (
    BUTTON_ACTIONS,
    MAX_ANSWER_TEXT,
    MAX_BUTTONS,
    MAX_CAPTION,
    MAX_TEXT,
    NOT_MODIFIED,
    QUERY_INVALID,
    bad,
    int_param,
    start_link,
    valid_url,
)
from .html import EntityParseError, parse_html, strip_text, utf16_len
from .records import MAX_CALLBACK_DATA, ApiError, Chat, Msg

__all__ = ["MessageMethods"]


class MessageMethods:
    """The messages' methods: a part of :class:`~localtable.telegram.botapi.BotApi`."""

    def _text(self, p: dict) -> tuple[str, list[dict], str]:
        """(plain text, entities, source) after parse mode, trimming and Telegram's limits."""
        source = p.get("text")
        if source is None or source == "":
            raise bad("message text is empty")
        source = str(source)
        text, entities = self._formatted(source, p.get("parse_mode"), p.get("entities"))
        if not text:
            raise bad("message text is empty")
        if len(text) > MAX_TEXT:
            raise bad("message is too long")
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
            raise bad("message caption is too long")
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
                    raise bad(f"can't parse entities: {exc}") from exc
            elif mode.lower() in ("markdown", "markdownv2"):
                text = source  # formatting is not modelled; the text is kept as sent
            else:
                raise bad("unsupported parse_mode")
        else:
            text = source
            if given is not None:
                if not isinstance(given, list):
                    raise bad("can't parse entities JSON object")
                total = utf16_len(text)
                for e in given:
                    if (not isinstance(e, dict) or "type" not in e
                            or not isinstance(e.get("offset"), int)
                            or not isinstance(e.get("length"), int)):
                        raise bad("can't parse MessageEntity JSON object")
                    if e["offset"] + e["length"] > total:
                        raise bad("entity beyond the end of the text")
                entities = sorted(given, key=lambda e: (e["offset"], -e["length"]))
        return strip_text(text, entities)

    def _markup(self, value: Any, chat: Chat | None = None) -> dict | None:
        """The stored form of ``reply_markup`` (None: no keyboard).  A ``web_app`` button
        outside a private chat is refused with ``BUTTON_TYPE_INVALID``, as Telegram refuses
        it (a group gets a URL button with a direct Mini App link instead)."""
        if value is None:
            return None
        if not isinstance(value, dict):
            raise bad("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in value:
            return dict(value)  # reply keyboards and friends: kept, never shown to presses
        rows = value["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad("can't parse inline keyboard button: Field \"inline_keyboard\" must be "
                       "of type Array")
        clean: list[list[dict]] = []
        count = 0
        for row in rows:
            out_row = []
            for b in row:
                if not isinstance(b, dict) or not isinstance(b.get("text"), str):
                    raise bad("can't parse inline keyboard button: Field \"text\" must be of "
                               "type String")
                if not b["text"]:
                    raise bad("BUTTON_TEXT_INVALID")
                if not any(k in b for k in BUTTON_ACTIONS):
                    raise bad("can't parse inline keyboard button: Text buttons are unallowed "
                               "in the inline keyboard")
                if "callback_data" in b:
                    data = b["callback_data"]
                    if (not isinstance(data, str) or not data
                            or len(data.encode()) > MAX_CALLBACK_DATA):
                        raise bad("BUTTON_DATA_INVALID")
                if "web_app" in b and (chat is None or chat.type != "private"):
                    raise bad("BUTTON_TYPE_INVALID")
                if "web_app" in b and not valid_url(str((b["web_app"] or {}).get("url"))):
                    raise bad("BUTTON_URL_INVALID")
                if "url" in b and not valid_url(b["url"]):
                    raise bad("BUTTON_URL_INVALID")
                out_row.append(dict(b))
                count += 1
            if out_row:
                clean.append(out_row)
        if count > MAX_BUTTONS:
            raise bad("reply markup is too long")
        return {"inline_keyboard": clean} if clean else None

    def _reply(self, chat: Chat, p: dict, thread: int | None) -> tuple[int | None, int | None]:
        """(reply_to message id, thread id) from ``reply_parameters`` / ``reply_to_message_id``."""
        rp = p.get("reply_parameters")
        if rp is not None and not isinstance(rp, dict):
            raise bad("can't parse reply parameters JSON object")
        target = rp.get("message_id") if rp else int_param(p, "reply_to_message_id")
        allow = bool(rp.get("allow_sending_without_reply") if rp
                     else p.get("allow_sending_without_reply"))
        if rp and rp.get("chat_id") not in (None, chat.id, str(chat.id)):
            target = None  # a reply to another chat: shown without the quote here
        if target is None:
            return thread, thread
        replied = self.world._live(chat, int(target))
        if replied is None:
            if not allow:
                raise bad("message to be replied not found")
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
            raise bad("MESSAGE_ID_INVALID")
        mid = int_param(p, "message_id")
        if mid is None:
            raise bad("message identifier is not specified")
        msg = self.world._live(chat, mid)
        if msg is None:
            raise bad("message to edit not found")
        if msg.from_id != self.world.bot.id:
            raise bad("message can't be edited")
        return msg

    def _apply_edit(self, chat: Chat, msg: Msg, text: str | None, entities: list[dict],
                    source: str | None, markup: dict | None) -> dict:
        w = self.world
        if text == msg.text and entities == msg.entities and markup == msg.markup:
            raise bad(NOT_MODIFIED)
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
            raise bad("there is no text in the message to edit")
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

    def api_editMessageCaption(self, p: dict) -> dict:
        """Replace a photo's caption; omitting ``reply_markup`` removes the keyboard."""
        chat = self._target(p)
        msg = self._editable(p, chat)
        if msg.photo is None:
            raise bad("there is no caption in the message to edit")
        caption, entities, source = self._caption(p)
        markup = self._markup(p.get("reply_markup"), chat)
        return self._apply_media(chat, msg, msg.photo, caption, entities, source, markup)

    def _delete_one(self, chat: Chat, mid: int | None) -> None:
        w = self.world
        msg = w._live(chat, mid) if mid is not None else None
        if msg is None:
            raise bad("message to delete not found")
        if (msg.from_id != w.bot.id and chat.type != "private"
                and chat.bot_status != "administrator"):
            raise bad("message can't be deleted")
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
        self._delete_one(chat, int_param(p, "message_id"))
        return True

    def api_deleteMessages(self, p: dict) -> bool:
        """Delete several messages; missing ones are skipped."""
        chat = self._target(p)
        ids = p.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise bad("message identifiers are not specified")
        deleted = 0
        for mid in ids:
            try:
                self._delete_one(chat, int(mid))
                deleted += 1
            except ApiError:
                continue
        if not deleted:
            raise bad("message to delete not found")
        return True

    # -- callback queries --------------------------------------------------------------------

    def api_answerCallbackQuery(self, p: dict) -> bool:
        """Answer a callback query once, within ``callback_ttl`` seconds: a toast
        (``text``), an alert (``show_alert``) or a start link of this bot (``url``)."""
        w = self.world
        query = w.queries.get(str(p.get("callback_query_id") or ""))
        if (query is None or query.answer is not None
                or w.clock() - query.t > w.config.callback_ttl):
            raise bad(QUERY_INVALID)
        text = str(p.get("text") or "")
        if len(text) > MAX_ANSWER_TEXT:
            raise bad("MESSAGE_TOO_LONG")
        url = str(p.get("url") or "")
        if url and not start_link(url, w.bot.username or ""):
            raise bad("URL_INVALID")
        query.answer = {"text": text, "show_alert": bool(p.get("show_alert")),
                        "url": url or None, "cache_time": int_param(p, "cache_time") or 0,
                        "t": w.clock()}
        w.changed()
        return True
