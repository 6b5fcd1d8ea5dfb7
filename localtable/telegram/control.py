"""What people do and what a test or the local table sets up (the control side of
:class:`~localtable.telegram.world.World`): users and chats, reading them, writing, pressing,
following links, migrating a group, removing the bot, blocking it.
"""

from __future__ import annotations

import time
from dataclasses import asdict

from .html import command_entities
from .records import GROUPS, MAX_CALLBACK_DATA, PRESENT, Chat, ControlError, Msg, Query, User

__all__ = ["Control"]


class Control:
    """The control side of :class:`~localtable.telegram.world.World` (a part of it)."""

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
        if type not in GROUPS:
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
            if chat.members.get(user_id) not in PRESENT:
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
        elif chat.members.get(user_id) not in PRESENT:
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

