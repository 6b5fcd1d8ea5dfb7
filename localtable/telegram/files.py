"""Photos and documents of :class:`~localtable.telegram.world.World`: uploads kept as Telegram
keeps them (one file per content, its sizes), downloads, and a person sending a file.
"""

from __future__ import annotations

import hashlib
import io

from .html import command_entities
from .records import ApiError, ControlError, Msg, StoredDocument, StoredFile

__all__ = ["Files", "MAX_DOCUMENT_BYTES", "MAX_DOWNLOAD_BYTES", "MAX_PHOTO_BYTES", "PHOTO_SIZES"]


#: Telegram's largest file a bot may send or download with getFile [bytes].
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024

#: Telegram's limits for a photo: its bytes, the sum of its sides, the ratio of its sides.
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10_000
MAX_PHOTO_RATIO = 20
#: The sides Telegram scales a photo's smaller copies to (``PhotoSize``): s, m, x, y [pixels].
PHOTO_SIZES = (90, 320, 800, 1280)


class Files:
    """Photos and documents: a part of :class:`~localtable.telegram.world.World`."""

    # -- photos ------------------------------------------------------------------------------

    def store_photo(self, data: bytes) -> StoredFile:
        """Keep an uploaded photo and return its file; the same bytes give the same file.

        Raises :class:`ApiError` as Telegram does: 400 ``IMAGE_PROCESS_FAILED`` for bytes that
        are not an image (or while ``fail_photos`` refuses uploads),
        ``PHOTO_INVALID_DIMENSIONS`` for sides that add up to more than 10,000 pixels or differ
        more than 20 times, 413 for more than 10 MB.
        """
        if self.config.fail_photos > 0:
            self.config.fail_photos -= 1
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED")
        if len(data) > MAX_PHOTO_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        digest = hashlib.sha256(data).hexdigest()
        known = self._file_by_hash.get(digest)
        if known is not None and known in self.files:
            return self.files[known]
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(data)) as im:
                im.verify()
                width, height, fmt = im.width, im.height, im.format or "?"
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise ApiError(400, "Bad Request: IMAGE_PROCESS_FAILED") from exc
        if (width + height > MAX_PHOTO_SIDES or not width or not height
                or max(width, height) > MAX_PHOTO_RATIO * min(width, height)):
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        n = next(self._file_seq)
        file = StoredFile(file_id=f"AgACAgIAAx{n:010d}{digest[:16]}",
                          unique_id=f"AQAD{digest[:12]}", data=data, width=width,
                          height=height, format=fmt, digest=digest)
        self.files[file.file_id] = file
        self._file_by_hash[digest] = file.file_id
        return file

    def photo_file(self, file_id: str) -> StoredFile | None:
        """The file of a ``file_id`` the bot got back (any of a photo's sizes), or None."""
        base = file_id.split(":", 1)[0]
        return self.files.get(base)

    def photo_sizes(self, file: StoredFile) -> list[dict]:
        """The ``PhotoSize`` list of a message's ``photo``: smaller copies, then the original
        (the original's ``file_id`` is the file's; a copy's ``file_id`` names it too)."""
        out = []
        for side in PHOTO_SIZES:
            if side >= max(file.width, file.height):
                break
            scale = side / max(file.width, file.height)
            out.append({"file_id": f"{file.file_id}:{side}",
                        "file_unique_id": f"{file.unique_id}{side}",
                        "width": max(1, round(file.width * scale)),
                        "height": max(1, round(file.height * scale))})
        out.append({"file_id": file.file_id, "file_unique_id": file.unique_id,
                    "width": file.width, "height": file.height, "file_size": len(file.data)})
        return out

    def set_photo(self, msg: Msg, file_id: str | None) -> None:
        """Show ``file_id`` in ``msg``; without ``keep_history`` a photo no message shows any
        more is forgotten (so a long load test keeps only the pictures on screen)."""
        old, msg.photo = msg.photo, file_id
        if old == file_id:
            return
        new = self.files.get(file_id) if file_id is not None else None
        if new is not None:
            new.refs += 1
        gone = self.files.get(old) if old is not None else None
        if gone is None:
            return
        gone.refs -= 1
        self.forget_unshown(gone)

    def forget_unshown(self, file: StoredFile) -> None:
        """Forget an upload that no message shows (a refused edit), unless history is kept."""
        if file.refs <= 0 and not self.config.keep_history:
            self.files.pop(file.file_id, None)
            self._file_by_hash.pop(file.digest, None)

    def file_data(self, file_id: str) -> bytes:
        """The bytes of a photo or a document (control API); 404 if it is not kept."""
        doc = self.documents.get(str(file_id))
        if doc is not None:
            return doc.data
        file = self.photo_file(str(file_id))
        if file is None:
            raise ControlError(f"no file {file_id}", 404)
        return file.data

    # -- documents ---------------------------------------------------------------------------

    def store_document(self, data: bytes, file_name: str,
                       mime_type: str = "application/octet-stream") -> StoredDocument:
        """Keep a file sent as a document and return it (413 over Telegram's 50 MB)."""
        if len(data) > MAX_DOCUMENT_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        n = next(self._file_seq)
        digest = hashlib.sha256(data).hexdigest()
        doc = StoredDocument(file_id=f"BQACAgIAAx{n:010d}{digest[:16]}",
                             unique_id=f"AgAD{digest[:12]}", data=data,
                             file_name=file_name or "file", mime_type=mime_type)
        self.documents[doc.file_id] = doc
        return doc

    def get_file(self, file_id: str) -> dict:
        """``getFile``: the ``File`` of a document (its ``file_path`` to download); 400 for an
        unknown id or a file over the 20 MB a bot may download."""
        doc = self.documents.get(str(file_id))
        if doc is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        if len(doc.data) > MAX_DOWNLOAD_BYTES:
            raise ApiError(400, "Bad Request: file is too big")
        return {"file_id": doc.file_id, "file_unique_id": doc.unique_id,
                "file_size": len(doc.data), "file_path": doc.file_path}

    def download(self, file_path: str) -> bytes:
        """The bytes behind a ``file_path`` of :meth:`get_file` (404 for another path)."""
        prefix = "documents/"
        doc = self.documents.get(file_path[len(prefix):]) if file_path.startswith(prefix) \
            else None
        if doc is None:
            raise ControlError(f"no file {file_path}", 404)
        return doc.data

    def user_send_document(self, user_id: int, data: bytes, file_name: str = "file", *,
                           caption: str | None = None, chat_id: int | None = None,
                           reply_to: int | None = None,
                           mime_type: str = "application/json") -> dict:
        """``user_id`` sends a file in ``chat_id`` (default: the private chat with the bot),
        with an optional ``caption`` (a command in it gets its entity).  Returns
        ``message_id``, ``update_id`` and the ``file_id``."""
        user = self._user(user_id)
        if chat_id is None or chat_id == user_id:
            chat = self._private(user, create=True)
            user.started = True
        else:
            chat = self._group(chat_id)
        if reply_to is not None and self._live(chat, reply_to) is None:
            raise ControlError(f"no message {reply_to} to reply to in chat {chat.id}")
        doc = self.store_document(data, file_name, mime_type)
        msg = self._store(chat, user_id, None, reply_to=reply_to, caption=caption,
                          caption_entities=command_entities(caption) if caption else None,
                          caption_source=caption)
        msg.document = doc.file_id
        update_id = self._deliver_message(chat, msg, force=chat.type == "private")
        return {"chat_id": chat.id, "message_id": msg.message_id, "update_id": update_id,
                "file_id": doc.file_id}

    def message_photo(self, chat_id: int, message_id: int) -> bytes:
        """The bytes of the photo a message shows now (control API); 404 if it shows none."""
        chat = self._chat(chat_id)
        msg = chat.messages.get(message_id)
        if msg is None:
            raise ControlError(f"no message {message_id} in chat {chat_id}", 404)
        if msg.photo is None:
            raise ControlError(f"message {message_id} in chat {chat_id} has no photo", 404)
        return self.file_data(msg.photo)

