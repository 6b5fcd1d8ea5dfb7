"""Telegram's limits as the outbox keeps them: per chat and over the whole bot, on a clock.

- a group chat (negative chat id): at most ``group_per_minute`` (20) requests in any 60 s and
  one per ``chat_interval`` (1 s), counted from each answer (a limit counted from a request's
  start could let the 21st request of a minute reach Telegram a few milliseconds early);
- a private chat: a token bucket, a burst of ``private_burst`` (3) requests refilled at one per
  ``chat_interval``, so a player's two or three messages of one move arrive at once and the
  long-run rate stays one a second;
- ``global_per_second`` (30) requests a second over all chats;
- flood control (429): the chat waits ``retry_after`` seconds (:meth:`Limits.block`).

Sliding windows on an injectable monotonic clock.  A group's window survives a restart: the
outbox records each group request before it is made (``service.messages.SendLog``) and
:meth:`Limits.restore` starts the window with the sends of the last minute.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["RESTORE_SLACK", "Limits", "is_group_chat"]

#: Seconds by which a restored group send counts later than it was recorded: the record is
#: made before the request, which reached Telegram within that time (or failed).
RESTORE_SLACK = 1.0


def is_group_chat(chat_id: int) -> bool:
    """Groups, supergroups and channels have negative ids; private chats positive."""
    return chat_id < 0


@dataclass(slots=True)
class _Window:
    """One chat's requests as the limits count them."""

    last: float | None = None  # when its last request was answered (or made)
    window: deque[float] = field(default_factory=deque)  # a group's requests of the minute
    blocked_until: float = 0.0  # flood control
    tokens: float | None = None  # a private chat's bucket; None: full


class Limits:
    """The windows of every chat and of the whole bot (see the module doc); times are
    seconds of ``clock`` (monotonic)."""

    def __init__(self, *, clock: Callable[[], float], group_per_minute: int = 20,
                 chat_interval: float = 1.0, private_burst: int = 3,
                 global_per_second: int = 30) -> None:
        self.clock = clock
        self.group_per_minute = group_per_minute
        self.chat_interval = chat_interval
        self.private_burst = max(1, int(private_burst))
        self.global_per_second = global_per_second
        self._chats: dict[int, _Window] = {}
        self._global: deque[float] = deque()

    def _of(self, chat_id: int) -> _Window:
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = _Window()
        return chat

    def knows(self, chat_id: int) -> bool:
        """Whether a request to ``chat_id`` was counted (or restored) here."""
        return chat_id in self._chats

    def _tokens(self, chat: _Window, now: float) -> float:
        """A private chat's bucket now: ``private_burst`` when full, refilled at one token
        per ``chat_interval`` since its last request."""
        if chat.tokens is None or chat.last is None or self.chat_interval <= 0:
            return float(self.private_burst)
        refill = (now - chat.last) / self.chat_interval
        return min(float(self.private_burst), chat.tokens + refill)

    def wait(self, chat_id: int) -> float:
        """Seconds until a request to ``chat_id`` may be made (<= 0: now)."""
        chat = self._of(chat_id)
        now = self.clock()
        wait = chat.blocked_until - now
        if is_group_chat(chat_id):
            if chat.last is not None:
                wait = max(wait, chat.last + self.chat_interval - now)
            while chat.window and chat.window[0] <= now - 60.0:
                chat.window.popleft()
            if len(chat.window) >= self.group_per_minute:
                wait = max(wait, chat.window[0] + 60.0 - now)
        else:
            tokens = self._tokens(chat, now)
            if tokens < 1.0:
                wait = max(wait, (1.0 - tokens) * self.chat_interval)
        while self._global and self._global[0] <= now - 1.0:
            self._global.popleft()
        if len(self._global) >= self.global_per_second:
            wait = max(wait, self._global[0] + 1.0 - now)
        return wait

    def record(self, chat_id: int) -> None:
        """A request to ``chat_id`` is being made now."""
        chat = self._of(chat_id)
        now = self.clock()
        if is_group_chat(chat_id):
            chat.window.append(now)
        else:
            chat.tokens = self._tokens(chat, now) - 1.0
        chat.last = now
        self._global.append(now)

    def answered(self, chat_id: int) -> None:
        """A request came back: Telegram received it at some moment before now, so it counts
        from now on."""
        chat = self._of(chat_id)
        now = self.clock()
        chat.last = now
        if is_group_chat(chat_id) and chat.window:
            chat.window[-1] = now

    def block(self, chat_id: int, seconds: float) -> None:
        """Make no request to ``chat_id`` for ``seconds`` (flood control, a retry's back-off)."""
        self._of(chat_id).blocked_until = self.clock() + max(float(seconds), 0.0)

    def restore(self, recent: Mapping[int, Iterable[float]], wall: float) -> int:
        """Start each group's window with its requests of the last minute, ``recent``: per
        chat the Unix times they were recorded at, ``wall`` the Unix time now.  Returns how
        many were restored."""
        now = self.clock()
        count = 0
        for chat_id, times in recent.items():
            chat = self._of(chat_id)
            times = list(times)
            # a recorded time is a request's start; Telegram got it up to RESTORE_SLACK later
            merged = sorted([now - (wall - t) + RESTORE_SLACK for t in times]
                            + list(chat.window))
            chat.window = deque(merged)
            if merged:
                chat.last = max(chat.last or merged[-1], merged[-1])
            count += len(times)
        return count
