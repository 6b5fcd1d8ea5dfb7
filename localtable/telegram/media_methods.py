"""The Bot API methods of photos and documents (:mod:`localtable.telegram.botapi`): uploads,
the table picture sent and edited in place, files sent and fetched.
"""

from __future__ import annotations

from typing import Any

from .apitools import NOT_MODIFIED, bad, uploads
from .records import ApiError, Chat, Msg, StoredFile

__all__ = ["MediaMethods"]


class MediaMethods:
    """Photos and documents: a part of :class:`~localtable.telegram.botapi.BotApi`."""

    def _photo(self, value: Any, files: dict[str, bytes], field: str) -> StoredFile:
        """The photo a parameter names: ``attach://<name>`` (a file field of the request), the
        file field ``field`` itself, or the ``file_id`` of a photo sent before."""
        w = self.world
        if value is None or value == "" or value == "<file>":
            data = files.get(field)
            if data is None:
                raise bad(f"there is no {field} in the request")
            return w.store_photo(data)
        if not isinstance(value, str):
            raise bad("wrong file identifier/HTTP URL specified")
        if value.startswith("attach://"):
            data = files.get(value[len("attach://"):])
            if data is None:
                raise bad("wrong file identifier/HTTP URL specified")
            return w.store_photo(data)
        known = w.photo_file(value)
        if known is None:
            raise bad("wrong file identifier/HTTP URL specified")
        return known

    @uploads
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
            raise bad(NOT_MODIFIED)
        w.flood_check(chat)
        msg.text, msg.entities, msg.source = None, [], None
        msg.caption, msg.caption_entities, msg.caption_source = caption, entities, source
        msg.markup = markup
        w.set_photo(msg, photo)
        return self._edited(chat, msg)

    @uploads
    def api_editMessageMedia(self, p: dict, files: dict[str, bytes]) -> dict:
        """Replace a message's photo (``media``: an ``InputMediaPhoto`` as JSON, its ``media``
        ``attach://<name>`` or a known ``file_id``) and its caption; omitting
        ``reply_markup`` removes the keyboard.  The same bytes, caption and keyboard again are
        "message is not modified".  Only photos are modelled."""
        chat = self._target(p)
        msg = self._editable(p, chat)
        media = p.get("media")
        if not isinstance(media, dict):
            raise bad("can't parse input media JSON object")
        if media.get("type") != "photo":
            raise bad(f"can't parse InputMedia: media type {media.get('type')!r} is not "
                       "supported by the emulator")
        if not media.get("media"):
            raise bad("can't parse InputMedia: Media is not specified")
        caption, entities, source = self._caption(media)
        markup = self._markup(p.get("reply_markup"), chat)
        photo = self._photo(media["media"], files, "media")
        try:
            return self._apply_media(chat, msg, photo.file_id, caption, entities, source, markup)
        except ApiError:
            self.world.forget_unshown(photo)
            raise

    # -- documents ---------------------------------------------------------------------------

    @uploads
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
                raise bad("there is no document in the request")
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
