"""Who can be written to in private (RULES.md aside: Telegram's rule that a bot may write
only to a person who opened a private chat with it and did not block it).

A private send that Telegram refuses with 403 marks the person's private chat closed, in the
database (so the lobby's link and the group's notice say so) and here; their next /start (or
a pressed button that asks for their hand) opens it again.
"""

from __future__ import annotations

from service.people import People

__all__ = ["Reach"]


class Reach:
    """The people whose private chat answered 403 since they last pressed Start, over the
    ``people`` room."""

    def __init__(self, people: People) -> None:
        self.people = people
        self._blocked: set[int] = set()

    async def refused(self, chat_id: int, _error: Exception | None = None) -> None:
        """The outbox's ``on_forbidden``: a send to ``chat_id`` answered 403.  A private
        chat is marked closed; a group's 403 (the bot was removed) is the chat events'
        business."""
        if chat_id > 0:
            await self.people.set_dm_open(chat_id, False)
            self._blocked.add(chat_id)

    def opened(self, user_id: int) -> None:
        """The person pressed Start (or asked for their hand): try their private chat again."""
        self._blocked.discard(user_id)

    def blocked(self, user_id: int) -> bool:
        """Whether the person's private chat refused the bot since they last pressed Start."""
        return user_id in self._blocked
