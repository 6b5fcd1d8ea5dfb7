"""A chat of the local Telegram as a person sees it in Telegram, for the page
(:mod:`localtable.page`): its newest messages, each with its sender, its text or caption and
their entities (bold, code, links… as Telegram parsed the bot's HTML), its photo, its file,
the message it answers, whether it was edited, and its inline keyboard.

A button is shown by its text and kind only; the page presses it by its place (row, column),
as a finger does, and the local Telegram sends the bot the button's data (a forged press is
no part of the page).  Only what the person may see is given: the group they are a member of
and their own private chat with the bot.
"""

from __future__ import annotations

from typing import Any

from localtable.telegram.records import Chat, Msg
from localtable.telegram.world import World

__all__ = ["SHOWN", "chat_view"]

#: The newest messages of a chat the page shows.
SHOWN = 60


def chat_view(world: World, chat_id: int | None, *, shown: int = SHOWN) -> dict[str, Any]:
    """The chat ``chat_id`` for the page: ``{"id", "title", "members", "messages"}`` (no
    messages for a chat that does not exist yet)."""
    chat = world.chats.get(chat_id) if chat_id is not None else None
    if chat is None:
        return {"id": chat_id, "title": None, "members": 0, "messages": []}
    kept = [m for m in chat.messages.values() if not m.deleted and m.service is None]
    present = sum(s in ("creator", "administrator", "member") for s in chat.members.values())
    return {"id": chat.id, "title": chat.title, "members": present + 1,
            "messages": [_message(world, chat, m) for m in kept[-shown:]]}


def _name(world: World, user_id: int) -> str:
    user = world.users.get(user_id)
    if user is None:
        return "?"
    return " ".join(p for p in (user.first_name, user.last_name) if p)


def _message(world: World, chat: Chat, msg: Msg) -> dict[str, Any]:
    sender = world.users.get(msg.from_id)
    out: dict[str, Any] = {
        "id": msg.message_id, "date": msg.date, "edited": msg.edits > 0,
        "from": {"id": msg.from_id, "name": _name(world, msg.from_id),
                 "bot": bool(sender and sender.is_bot)},
        "text": msg.text if msg.text is not None else msg.caption,
        "entities": msg.entities if msg.text is not None else msg.caption_entities,
    }
    file = world.files.get(msg.photo) if msg.photo else None
    if file is not None:
        out["photo"] = {"url": f"files/{file.file_id}", "width": file.width,
                        "height": file.height}
    doc = world.documents.get(msg.document) if msg.document else None
    if doc is not None:
        out["document"] = {"name": doc.file_name, "url": f"files/{doc.file_id}",
                           "size": len(doc.data)}
    if msg.reply_to is not None and msg.reply_to != msg.thread_id:
        replied = chat.messages.get(msg.reply_to)
        if replied is not None and not replied.deleted:
            text = replied.text if replied.text is not None else (replied.caption or "")
            out["reply_to"] = {"id": replied.message_id,
                               "name": _name(world, replied.from_id),
                               "text": text.split("\n", 1)[0][:90]}
    rows = (msg.markup or {}).get("inline_keyboard") or []
    out["buttons"] = [[_button(b) for b in row] for row in rows]
    return out


def _button(button: dict[str, Any]) -> dict[str, Any]:
    """A button by its text and kind: ``callback`` (pressed by its place), ``url`` and
    ``web_app`` (with the address they open), or ``other`` (shown, not pressable here)."""
    out: dict[str, Any] = {"text": button.get("text", "")}
    if "url" in button:
        out.update(kind="url", url=button["url"])
    elif "web_app" in button:
        out.update(kind="web_app", url=(button.get("web_app") or {}).get("url", ""))
    elif "callback_data" in button:
        out["kind"] = "callback"
    else:
        out["kind"] = "other"
    return out
