"""What the local table keeps between two runs, in its folder (``local-table/`` by default):
the bot's database (``kozel.sqlite3``, the bot's own), and the local Telegram
(``telegram.json``, this module): its token, the people of the tabs, the group, every chat's
messages with their keyboards, and the photos and files they show (``files/``, one file per
content, named by its hash).  A second ``make run`` reads it back and the bot, whose database
knows the same message ids, goes on where the first left off.

The token is made at the first run (random, never Telegram's: the local Telegram is the only
server that accepts it, and it signs the Mini App's ``initData`` of the tabs); the tabs'
tokens are signed with a secret made with it (:mod:`localtable.people`).

Written atomically (a temporary file, then renamed) when the table stops and every few
seconds while something changes (:meth:`LocalState.autosave`), so a killed process loses at
most those seconds.  Each chat keeps its newest :data:`KEPT_MESSAGES` messages.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import logging
import os
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from localtable.telegram.records import Chat, Msg, StoredDocument, StoredFile, User
from localtable.telegram.world import World

__all__ = ["KEPT_MESSAGES", "LocalState"]

log = logging.getLogger(__name__)

#: The newest messages of each chat kept in the file (older ones are dropped when saving).
KEPT_MESSAGES = 300
#: The local bot's id (the token's number).
BOT_ID = 700_000_001
_FORMAT = 1
_FILE = "telegram.json"


def _new_token() -> str:
    return f"{BOT_ID}:LOCAL-{secrets.token_urlsafe(24)}"


@dataclass
class LocalState:
    """The local table's folder: ``token`` of the local bot, ``secret`` of the tabs' tokens,
    ``group_id`` of the local group (None before the first person), ``people`` the persons'
    ids in the order they came (the first one created the group), and ``world``, the saved
    local Telegram (applied by :meth:`restore`)."""

    folder: Path
    token: str = field(default_factory=_new_token)
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    group_id: int | None = None
    people: list[int] = field(default_factory=list)
    world: dict[str, Any] = field(default_factory=dict)

    @property
    def database(self) -> Path:
        """The bot's SQLite file."""
        return self.folder / "kozel.sqlite3"

    @classmethod
    def read(cls, folder: Path) -> LocalState:
        """The state in ``folder`` (created when missing; a fresh state for a first run)."""
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / _FILE
        if not path.exists():
            return cls(folder)
        data = json.loads(path.read_text("utf-8"))
        if data.get("format") != _FORMAT:
            raise ValueError(f"{path} was written by another version; move it away")
        table = data["table"]
        return cls(folder, token=table["token"], secret=table["secret"],
                   group_id=table.get("group_id"), people=list(table.get("people", [])),
                   world=data.get("world", {}))

    # -- the world ---------------------------------------------------------------------------

    def restore(self, world: World) -> None:
        """Put the saved people, chats, messages and files back into ``world`` (a new one)."""
        saved = self.world
        if not saved:
            return
        for raw in saved.get("users", []):
            user = User(**raw)
            world.users[user.id] = user
        for raw in saved.get("files", []):
            data = self._blob(raw.pop("digest_file"))
            if data is not None:
                file = StoredFile(**raw, data=data)
                world.files[file.file_id] = file
                world._file_by_hash[file.digest] = file.file_id
        for raw in saved.get("documents", []):
            data = self._blob(raw.pop("digest_file"))
            if data is not None:
                doc = StoredDocument(**raw, data=data)
                world.documents[doc.file_id] = doc
        for raw in saved.get("chats", []):
            chat = _chat(raw)
            world.chats[chat.id] = chat
            for msg in chat.messages.values():
                if msg.photo in world.files:
                    world.files[msg.photo].refs += 1
        world.updates = list(saved.get("updates", []))
        counters = saved.get("counters", {})
        world.next_update_id = max(world.next_update_id, counters.get("update", 1))
        world._chat_ids = itertools.count(counters.get("chat", 1))
        world._file_seq = itertools.count(counters.get("file", 1))
        world._query_ids = itertools.count(counters.get("query", 1))
        world.changed()

    def save(self, world: World) -> None:
        """Write the state and ``world`` to the folder, atomically."""
        chats, shown_files, shown_docs = [], set(), set()
        for chat in world.chats.values():
            kept = [m for m in chat.messages.values() if not m.deleted][-KEPT_MESSAGES:]
            shown_files.update(m.photo for m in kept if m.photo)
            shown_docs.update(m.document for m in kept if m.document)
            chats.append(_chat_data(chat, kept))
        files = [self._file_data(f) for f in world.files.values() if f.file_id in shown_files]
        docs = [self._doc_data(d) for d in world.documents.values() if d.file_id in shown_docs]
        counters = {"update": world.next_update_id, "chat": _peek(world, "_chat_ids"),
                    "file": _peek(world, "_file_seq"), "query": _peek(world, "_query_ids")}
        data = {"format": _FORMAT,
                "table": {"token": self.token, "secret": self.secret, "group_id": self.group_id,
                          "people": self.people},
                "world": {"users": [asdict(u) for u in world.users.values() if not u.is_bot],
                          "chats": chats, "files": files, "documents": docs,
                          "updates": list(world.updates), "counters": counters}}
        path = self.folder / _FILE
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        os.replace(tmp, path)
        self.world = data["world"]

    async def autosave(self, world: World, every: float = 3.0) -> None:
        """Until cancelled: save ``world`` when it changed, looking every ``every`` seconds
        (a burst of changes is one write)."""
        saved = world.version
        while True:
            await asyncio.sleep(every)
            if world.version == saved:
                continue
            saved = world.version
            try:
                self.save(world)  # on the loop: the world changes only there
            except OSError:
                log.exception("saving the local table to %s failed", self.folder)

    # -- files -------------------------------------------------------------------------------

    def _blob(self, name: str) -> bytes | None:
        try:
            return (self.folder / "files" / name).read_bytes()
        except OSError:
            return None

    def _keep(self, data: bytes) -> str:
        name = hashlib.sha256(data).hexdigest()
        path = self.folder / "files" / name
        if not path.exists():
            path.parent.mkdir(exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        return name

    def _file_data(self, file: StoredFile) -> dict[str, Any]:
        raw = asdict(file)
        raw.pop("data")
        raw["refs"] = 0
        raw["digest_file"] = self._keep(file.data)
        return raw

    def _doc_data(self, doc: StoredDocument) -> dict[str, Any]:
        raw = asdict(doc)
        raw.pop("data")
        raw["digest_file"] = self._keep(doc.data)
        return raw


def _peek(world: World, name: str) -> int:
    """The next value of one of the world's counters (taken, and put back as a new count)."""
    value = next(getattr(world, name))
    setattr(world, name, itertools.count(value))
    return value


def _chat_data(chat: Chat, kept: list[Msg]) -> dict[str, Any]:
    return {"id": chat.id, "type": chat.type, "title": chat.title, "username": chat.username,
            "is_forum": chat.is_forum, "members": {str(k): v for k, v in chat.members.items()},
            "bot_status": chat.bot_status, "migrated_to": chat.migrated_to,
            "migrated_from": chat.migrated_from,
            "topics": {str(k): v for k, v in chat.topics.items()},
            "next_message_id": chat.next_message_id, "pinned": chat.pinned,
            "messages": [{**asdict(m), "history": []} for m in kept]}


def _chat(raw: dict[str, Any]) -> Chat:
    messages = {m["message_id"]: Msg(**m) for m in raw.pop("messages")}
    raw["members"] = {int(k): v for k, v in raw["members"].items()}
    raw["topics"] = {int(k): v for k, v in raw["topics"].items()}
    return Chat(**raw, messages=messages)
