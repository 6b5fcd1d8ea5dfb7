"""The Bot API methods about chats (:mod:`localtable.telegram.botapi`): which chat a call names
and whether the bot may reach it, a chat and its members, leaving, chat actions and pins.
"""

from __future__ import annotations

from .apitools import CHAT_ACTIONS, bad, forbidden, int_param
from .records import Chat

__all__ = ["ChatMethods"]


class ChatMethods:
    """The chats' methods: a part of :class:`~localtable.telegram.botapi.BotApi`."""

    # -- chats ---------------------------------------------------------------------------------

    def _target(self, p: dict, *, write: bool = True) -> Chat:
        """The chat named by ``chat_id``, with Telegram's errors for the bot's access to it."""
        w = self.world
        raw = p.get("chat_id")
        if raw is None or raw == "":
            raise bad("chat_id is empty")
        if isinstance(raw, str) and raw.startswith("@"):
            name = raw[1:].lower()
            chat = next((c for c in w.chats.values()
                         if c.username and c.username.lower() == name), None)
            if chat is None:
                raise bad("chat not found")
        else:
            try:
                chat_id = int(raw)
            except (TypeError, ValueError) as exc:
                raise bad("chat not found") from exc
            if chat_id > 0:
                return self._private_target(chat_id, write)
            chat = w.chats.get(chat_id)
            if chat is None:
                raise bad("chat not found")
        if chat.migrated_to is not None:
            raise bad("group chat was upgraded to a supergroup chat",
                       migrate_to_chat_id=chat.migrated_to)
        if chat.bot_status == "kicked":
            raise forbidden(f"bot was kicked from the {chat.type} chat")
        if chat.bot_status == "left":
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def _private_target(self, user_id: int, write: bool) -> Chat:
        w = self.world
        user = w.users.get(user_id)
        if user is None:
            raise bad("chat not found")
        if user is w.bot:
            raise forbidden("bot can't send messages to bots")
        if user.is_bot and write:
            raise forbidden("bot can't send messages to bots")
        chat = w.chats.get(user_id)
        if chat is None or not user.started:
            if write:
                raise forbidden("bot can't initiate conversation with a user")
            raise bad("chat not found")
        if user.blocked and write:
            raise forbidden("bot was blocked by the user")
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
        user_id = int_param(p, "user_id")
        if user_id is None:
            raise bad("user_id is empty")
        if user_id == w.bot.id:
            status = "member" if chat.type == "private" else chat.bot_status
            return w._member_api(chat, user_id, status)
        if user_id not in w.users:
            raise bad("user not found")
        if chat.type == "private":
            if user_id != chat.id:
                raise bad("user not found")
            return w._member_api(chat, user_id, "member")
        return w._member_api(chat, user_id, chat.members.get(user_id, "left"))

    def api_getChatAdministrators(self, p: dict) -> list[dict]:
        """The owner and administrators (the bot too, if it is one)."""
        w = self.world
        chat = self._target(p, write=False)
        if chat.type == "private":
            raise bad("there are no administrators in the private chat")
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
            raise bad("chat member status can't be changed in private chats")
        self.world._set_bot_status(chat, "left", self.world.bot.id)
        return True

    def api_sendChatAction(self, p: dict) -> bool:
        """Check the chat and the action; nothing is shown."""
        chat = self._target(p)
        if p.get("action") not in CHAT_ACTIONS:
            raise bad("wrong parameter action in request")
        self._thread(chat, p)
        return True

    def _pin_target(self, p: dict) -> tuple[Chat, int | None]:
        chat = self._target(p)
        if chat.type != "private" and chat.bot_status != "administrator":
            raise bad("not enough rights to manage pinned messages in the chat")
        return chat, int_param(p, "message_id")

    def api_pinChatMessage(self, p: dict) -> bool:
        """Pin a message (the bot must be an administrator in groups)."""
        chat, mid = self._pin_target(p)
        if mid is None or self.world._live(chat, mid) is None:
            raise bad("message to pin not found")
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
        thread = int_param(p, "message_thread_id")
        if not chat.is_forum or thread is None:
            return None
        if thread not in chat.topics:
            raise bad("message thread not found")
        return thread
