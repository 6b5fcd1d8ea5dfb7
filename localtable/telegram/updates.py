"""The bot's side of :class:`~localtable.telegram.world.World`: the update queue and long
polling, Telegram's flood control, and the Bot API objects (chats, members, messages) as the
bot receives them.
"""

from __future__ import annotations

import math
import time
from typing import Any

from .records import DEFAULT_UPDATES, GROUPS, ApiError, Chat, Msg

__all__ = ["Updates", "kind_of"]


class Updates:
    """Updates, flood control and Bot API objects: a part of
    :class:`~localtable.telegram.world.World`."""

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
            kept = [u for u in self.updates if kind_of(u) in self.allowed_updates]
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
        if chat.type not in GROUPS:
            tokens = self._tokens(chat, now)
            if tokens < 1.0:
                wait = (1.0 - tokens) * limits.chat_interval
        elif chat.last_counted is not None and now - chat.last_counted < limits.chat_interval:
            wait = chat.last_counted + limits.chat_interval - now
        if chat.type in GROUPS:
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
        if chat.type not in GROUPS:
            chat.tokens = self._tokens(chat, now) - 1.0
        chat.last_counted = now
        if chat.type in GROUPS:
            chat.window.append(now)
        self.global_window.append(now)


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




def kind_of(update: dict) -> str:
    """The type of an update: its one key besides ``update_id``."""
    return next(k for k in update if k != "update_id")


def _utf16_slice(text: str, offset: int, length: int) -> str:
    raw = text.encode("utf-16-le")
    return raw[2 * offset:2 * (offset + length)].decode("utf-16-le", errors="replace")


