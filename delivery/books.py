"""The message-id books: what was sent for each match, typed, kept and stored.

:class:`Books` keeps a :class:`MatchMessages` per match in memory, the truth while the bot
runs, and stores it with the match (``service.messages.MessageIds.save``) so that a restarted
bot edits the same messages: now, and again as each send in flight is done.  A message still
waiting in the outbox is held as the future of its send (:data:`delivery.outbox.MessageRef`);
only message ids that are known are stored.  One lock per match (:meth:`Books.lock`) keeps
the publishing of one match's results in order.

The stored JSON object (``matches.messages``)::

    {"lobby": 12, "lobby_chat": -100, "lobby_closed": 1,
     "table": 13, "table_round": 2, "table_chat": -100, "table_closed": 1, "table_photo": 1,
     "faces": "pictures",
     "end_shown": 1, "hold": 15, "hold_version": 9, "hold_name": "Петя",
     "hand:21": {"id": 14, "version": 7, "round": 2, "live": 1, "unsure": 1, "behind": 1},
     "dm_notice:22": 2, "dm_notice_msg:22": 16, "retired:21": [11], "spent:21": [9, 10],
     "sending:22": 16}

``hand:<user id>`` was written ``[id, version, round, live]`` before; both forms are read.
``table_photo`` is absent for a table shown as text (as every table was before pictures);
``faces`` is absent for tiles drawn with pips.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from delivery.outbox import MessageRef, ref_id

__all__ = ["Books", "HandMessage", "MatchMessages"]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class HandMessage:
    """The last hand message of one player in their private chat: ``message`` (its id or
    the future of its send), the match ``version`` and ``round_no`` it shows, and whether
    its keyboard is ``live`` (the player's turn); ``unsure``: the edit that puts this
    version's keyboard on it is asked for but not known to be made (stored, so a restart
    makes it again, issue 20 item 15); ``behind``: it may show an older state than the
    match, held back while a page of its player was open (issue 33: stored, so whoever
    shows the match next brings it up to date)."""

    message: MessageRef
    version: int
    round_no: int
    live: bool
    unsure: bool = False
    behind: bool = False

    @classmethod
    def from_json(cls, value: Any) -> HandMessage | None:
        """Read ``{"id", "version", "round", "live"}`` or the older ``[id, version, round,
        live]``; None for anything else."""
        if isinstance(value, dict) and isinstance(value.get("id"), int):
            return cls(value["id"], int(value.get("version", -1)), int(value.get("round", 0)),
                       bool(value.get("live")), bool(value.get("unsure")),
                       bool(value.get("behind")))
        if isinstance(value, list) and value and isinstance(value[0], int):
            mid, version, round_no, live = (list(value) + [-1, 0, 0])[:4]
            return cls(mid, int(version), int(round_no), bool(live))
        return None

    def to_json(self) -> dict[str, int] | None:
        """The stored form, None while the message is still being sent."""
        mid = ref_id(self.message)
        if mid is None:
            return None
        out = {"id": mid, "version": self.version, "round": self.round_no,
               "live": int(self.live)}
        if self.unsure:
            out["unsure"] = 1
        if self.behind:
            out["behind"] = 1
        return out


@dataclass(slots=True)
class MatchMessages:
    """The messages of one match.

    - ``lobby`` / ``lobby_chat``: the lobby message in the group, and the chat it is in (a
      send to a group that just became a supergroup lands in the supergroup);
      ``lobby_closed``: it says the match started;
    - ``table`` / ``table_round`` / ``table_chat``: the current round's table message, its
      round, its chat; ``table_closed``: the round whose table was edited into its closed
      form with the summary; ``table_photo``: the table message is a photo (the picture of
      the table with its caption, issue 14), edited with ``editMessageMedia``, else a text;
      ``faces``: how the match's tiles are drawn, ``pips`` or ``pictures`` (the children's
      set, RULES.md §2.10.4), the chat's setting when the match was first shown — kept for
      the whole match, in its picture and on its page; None before;
    - ``end``: the match-end message (sent once; a crash before it was recorded shows it
      twice rather than never);
    - ``hands``: per user id, the last hand message (:class:`HandMessage`);
    - ``dm_notices``: per user id, the round in which the group was told the DM is closed;
      ``dm_notice_msgs`` that notice's message, deleted once a hand reaches the player
      (issue 20 item 6);
    - ``spent``: per user id, the hand messages without a keyboard that a newer one
      replaced this round, deleted together at the round's end (issue 30 item 13);
    - ``retired``: per user id, hand messages a newer one replaced whose closing edit is not
      known to be made yet; stored before it is asked for, so a restart closes them
      (issue 20 item 15);
    - ``sending``: per user id, the newest message id known in their private chat when a
      hand message with the turn's keyboard was asked for and its id is not known yet;
      stored before the send is made, so a restart after a SIGKILL knows that one message
      after that id may hold a keyboard it never learnt of, and closes it (issue 20 item 15).
      It is stored only while a send to that chat is still in flight
      (:meth:`in_flight`): the write that stores the sent message's id leaves it out, so a
      restart probes only chats where a send may really be unaccounted for;
    - ``hold`` / ``hold_version`` / ``hold_name``: the group's question about a player's
      timeouts (issue 15), the match version it was asked at and the player's name, until
      the answer is shown in its place.
    """

    lobby: MessageRef | None = None
    lobby_chat: int | None = None
    lobby_closed: bool = False
    table: MessageRef | None = None
    table_round: int | None = None
    table_chat: int | None = None
    table_closed: int | None = None
    table_photo: bool = False
    faces: str | None = None
    end: MessageRef | None = None
    hands: dict[int, HandMessage] = field(default_factory=dict)
    dm_notices: dict[int, int] = field(default_factory=dict)
    dm_notice_msgs: dict[int, MessageRef] = field(default_factory=dict)
    retired: dict[int, list[MessageRef]] = field(default_factory=dict)
    spent: dict[int, list[MessageRef]] = field(default_factory=dict)
    sending: dict[int, int] = field(default_factory=dict)
    hold: MessageRef | None = None
    hold_version: int | None = None
    hold_name: str | None = None

    # ------------------------------------------------------------------ stored form

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> MatchMessages:
        """Read the stored object (unknown keys are ignored)."""
        data = data or {}
        books = cls(
            lobby=_int(data.get("lobby")), lobby_chat=_int(data.get("lobby_chat")),
            lobby_closed=bool(data.get("lobby_closed")),
            table=_int(data.get("table")), table_round=_int(data.get("table_round")),
            table_chat=_int(data.get("table_chat")), table_closed=_int(data.get("table_closed")),
            table_photo=bool(data.get("table_photo")),
            faces=data.get("faces") if data.get("faces") in ("pips", "pictures") else None,
            end=1 if data.get("end_shown") else None,
            hold=_int(data.get("hold")), hold_version=_int(data.get("hold_version")),
            hold_name=data.get("hold_name") if isinstance(data.get("hold_name"), str) else None,
        )
        for key, value in data.items():
            kind, _, uid = key.partition(":")
            if not uid.lstrip("-").isdigit():
                continue
            if kind == "hand":
                hand = HandMessage.from_json(value)
                if hand is not None:
                    books.hands[int(uid)] = hand
            elif kind == "dm_notice" and isinstance(value, int):
                books.dm_notices[int(uid)] = value
            elif kind == "dm_notice_msg" and _int(value) is not None:
                books.dm_notice_msgs[int(uid)] = value
            elif kind == "sending" and _int(value) is not None:
                books.sending[int(uid)] = value
            elif kind in ("retired", "spent") and isinstance(value, list):
                ids = [v for v in value if _int(v) is not None]
                if ids:
                    getattr(books, kind)[int(uid)] = ids
        return books

    def to_json(self) -> dict[str, Any]:
        """The stored form: what is known now (messages still being sent are left out)."""
        out: dict[str, Any] = {}
        lobby, table = ref_id(self.lobby), ref_id(self.table)
        if lobby is not None:
            out.update(lobby=lobby, lobby_chat=self.lobby_chat)
        if self.lobby_closed:
            out["lobby_closed"] = 1
        if table is not None:
            out.update(table=table, table_round=self.table_round, table_chat=self.table_chat)
            if self.table_photo:
                out["table_photo"] = 1
        if self.table_closed is not None:
            out["table_closed"] = self.table_closed
        if self.faces == "pictures":
            out["faces"] = self.faces
        if ref_id(self.end) is not None:
            out["end_shown"] = 1
        if ref_id(self.hold) is not None:
            out.update(hold=ref_id(self.hold), hold_version=self.hold_version,
                       hold_name=self.hold_name)
        for uid, hand in self.hands.items():
            stored = hand.to_json()
            if stored is not None:
                out[f"hand:{uid}"] = stored
        for uid, round_no in self.dm_notices.items():
            out[f"dm_notice:{uid}"] = round_no
        for uid, ref in self.dm_notice_msgs.items():
            if ref_id(ref) is not None:
                out[f"dm_notice_msg:{uid}"] = ref_id(ref)
        for kind in ("retired", "spent"):
            for uid, refs in getattr(self, kind).items():
                ids = [ref_id(r) for r in refs if ref_id(r) is not None]
                if ids:
                    out[f"{kind}:{uid}"] = ids
        for uid, floor in self.sending.items():
            if self.in_flight(uid):  # (else the ids above account for every send there)
                out[f"sending:{uid}"] = floor
        return {k: v for k, v in out.items() if v is not None}

    def in_flight(self, user_id: int) -> bool:
        """Whether a message these books hold in ``user_id``'s private chat (the hand
        message, or one it replaced) is still being sent, so that its id is not known yet."""
        hand = self.hands.get(user_id)
        refs = [hand.message] if hand is not None else []
        refs += [*self.retired.get(user_id, ()), *self.spent.get(user_id, ())]
        return any(isinstance(r, asyncio.Future) and not r.done() for r in refs)

    def id_of(self, which: str, user_id: int | None = None) -> int | None:
        """The id of the match's ``"lobby"``, ``"table"`` or ``user_id``'s ``"hand"`` message,
        None while it is not known (never sent, or still being sent)."""
        if which == "hand":
            hand = self.hands.get(user_id)
            return ref_id(hand.message) if hand is not None else None
        return ref_id(self.lobby if which == "lobby" else self.table)

    def known_ids(self, user_id: int) -> set[int]:
        """The ids of the messages in ``user_id``'s private chat these books know."""
        refs = [h.message for u, h in self.hands.items() if u == user_id]
        refs += [*self.retired.get(user_id, ()), *self.spent.get(user_id, ())]
        return {i for i in (ref_id(r) for r in refs) if i is not None}

    # ------------------------------------------------------------------ sends in flight

    def pending(self) -> list[asyncio.Future]:
        """The sends still waiting in the outbox."""
        refs = [self.lobby, self.table, self.end, self.hold,
                *(h.message for h in self.hands.values()), *self.dm_notice_msgs.values(),
                *(r for refs in self.retired.values() for r in refs),
                *(r for refs in self.spent.values() for r in refs)]
        return [r for r in refs if isinstance(r, asyncio.Future) and not r.done()]

    def settle(self) -> None:
        """Replace finished sends by their message ids; forget the failed ones (the next
        publish sends them again)."""
        self.lobby, chat = _settled(self.lobby)
        if chat is not None:
            self.lobby_chat = chat
        self.table, chat = _settled(self.table)
        if chat is not None:
            self.table_chat = chat
        self.end, _ = _settled(self.end)
        self.hold, _ = _settled(self.hold)
        for kept in (self.retired, self.spent):
            for uid, refs in list(kept.items()):
                done = [m for m in (_settled(r)[0] for r in refs) if m is not None]
                if done:
                    kept[uid] = done
                else:
                    del kept[uid]
        for uid, ref in list(self.dm_notice_msgs.items()):
            message, _ = _settled(ref)
            if message is None:
                del self.dm_notice_msgs[uid]
            else:
                self.dm_notice_msgs[uid] = message
        for uid, hand in list(self.hands.items()):
            message, _ = _settled(hand.message)
            if message is None:
                del self.hands[uid]
            else:
                hand.message = message
        for uid in list(self.sending):
            if not self.in_flight(uid):
                del self.sending[uid]  # its id is known now (or it was never sent)


def _settled(ref: MessageRef | None) -> tuple[MessageRef | None, int | None]:
    """A finished send as ``(message id, chat id)`` (None, None when it failed); anything
    else as it is."""
    if not isinstance(ref, asyncio.Future) or not ref.done():
        return ref, None
    sent = None if ref.cancelled() else ref.result()
    if sent is None:
        return None, None
    return sent.message_id, getattr(getattr(sent, "chat", None), "id", None)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class Stored(Protocol):
    """Where the books are stored (:class:`service.messages.MessageIds`)."""

    async def load(self, match_id: int) -> dict[str, Any] | None: ...
    async def save(self, match_id: int, books: dict[str, Any]) -> bool: ...


class Books:
    """The books of every match this process shows, over ``stored``.

    - :meth:`of` a match: its :class:`MatchMessages`, read from the database the first time;
    - :meth:`changed` after any change of them: they are stored now, and again as each of
      their sends in flight is done (one slow send, the group's picture or a group send
      waiting for its minute, never holds back the others' ids), one write of a match's books
      at a time, each taken as the books are when its turn comes, so a write never lands
      after a newer one (issue 20 item 15);
    - :meth:`lock` a match while its messages change; :meth:`shown` / :meth:`show` the newest
      version shown, so an older result shows only its one-shots;
    - :meth:`close` a match that ended: its books are dropped once stored, and with them what
      ``on_forget`` callers keep of it.
    """

    def __init__(self, stored: Stored) -> None:
        self._stored = stored
        self._books: dict[int, MatchMessages] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}
        self._saving: dict[int, asyncio.Task] = {}
        #: Per match being saved: set when its books change, so the saving task stores
        #: what is known then instead of waiting for every send in flight to finish.
        self._wake: dict[int, asyncio.Event] = {}
        #: Per match: one write of its books at a time.
        self._writing: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        self._closed: set[int] = set()
        self._tasks: set[asyncio.Task] = set()
        #: Called with a match id when its books are dropped (others' state of that match).
        self.on_forget: list[Callable[[int], None]] = []

    async def of(self, match_id: int) -> MatchMessages:
        """What was sent for a match (read from the database the first time)."""
        books = self._books.get(match_id)
        if books is None:
            books = MatchMessages.from_json(await self._stored.load(match_id))
            books = self._books.setdefault(match_id, books)
        return books

    def held(self, match_id: int) -> MatchMessages | None:
        """A match's books if they are in memory, else None."""
        return self._books.get(match_id)

    def faces(self, match_id: int) -> str:
        """How a match's tiles are drawn (``MatchMessages.faces``, RULES.md §2.10.4):
        ``pictures`` or ``pips`` (also before its table was first shown)."""
        books = self._books.get(match_id)
        return (books.faces if books is not None else None) or "pips"

    def lock(self, match_id: int) -> asyncio.Lock:
        """The lock under which a match's messages change."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def held_matches(self) -> list[int]:
        """The matches whose books are in memory."""
        return list(self._books)

    def shown(self, match_id: int) -> int:
        """The newest version of a match shown (-1: none yet)."""
        return self._shown.get(match_id, -1)

    def show(self, match_id: int, version: int) -> None:
        """``version`` of the match is the one its messages show now."""
        self._shown[match_id] = version

    def close(self, match_id: int) -> None:
        """The match ended: its books go once stored."""
        self._closed.add(match_id)

    def changed(self, match_id: int) -> None:
        """Store the match's books: now, and again as each send in flight is done."""
        self._dirty.add(match_id)
        wake = self._wake.get(match_id)
        if wake is not None:
            wake.set()
        if match_id not in self._saving:
            self._saving[match_id] = self.spawn(self._save(match_id))

    async def _save(self, match_id: int) -> None:
        """Store the books of ``match_id`` as its sends in flight are done, and whenever they
        change meanwhile, until nothing is in flight.  The id of each send is stored as it
        comes, its ``sending`` record gone in the same write, so the stored books never
        claim a send unaccounted for that is not (issue 20 item 15)."""
        wake = self._wake.setdefault(match_id, asyncio.Event())
        first = True
        try:
            while match_id in self._dirty:
                books = self._books.get(match_id)
                if books is None:
                    return
                wake.clear()
                books.settle()
                pending = books.pending()
                if not pending:
                    self._dirty.discard(match_id)
                # a change whose sends were just asked for is stored once one of them is
                # done (their ``sending`` records went with the sends); but first the
                # intent, if any: which messages are to be closed, before the sends that
                # replace them are done (a SIGKILL meanwhile: the restart closes them).
                # A write that failed is logged; the next one stores what it missed.
                if not (first and pending and not books.retired):
                    await self.store(match_id, books)
                first = False
                if pending:
                    changed = asyncio.ensure_future(wake.wait())
                    try:
                        await asyncio.wait([*pending, changed],
                                           return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        changed.cancel()
        finally:
            self._saving.pop(match_id, None)
            self._wake.pop(match_id, None)
            if match_id in self._closed and match_id not in self._dirty:
                self._forget(match_id)

    def _forget(self, match_id: int) -> None:
        self._books.pop(match_id, None)
        self._closed.discard(match_id)
        self._shown.pop(match_id, None)
        self._locks.pop(match_id, None)
        self._writing.pop(match_id, None)
        for forget in self.on_forget:
            forget(match_id)

    async def store(self, match_id: int, books: MatchMessages) -> bool:
        """Store the books as they are when no other write of this match's books is under
        way (so the stored books are never older than the last write asked for); False,
        and logged, if that failed (a send waiting for it goes ahead)."""
        async with self._writing.setdefault(match_id, asyncio.Lock()):
            try:
                await self._stored.save(match_id, books.to_json())
            except Exception:
                log.exception("storing the message ids of match %s failed", match_id)
                return False
        return True

    def known_ids(self, user_id: int, books: MatchMessages) -> set[int]:
        """The ids of the messages in ``user_id``'s private chat that the books of every
        match in memory know, ``books`` included."""
        known = set(books.known_ids(user_id))
        for other in self._books.values():
            known |= other.known_ids(user_id)
        return known

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task:
        """Run ``coro`` as a task that :meth:`settled` waits for."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def settled(self) -> None:
        """Wait until every message id in flight is stored (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
