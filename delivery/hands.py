"""Each player's hand message in their private chat (issue 4, "Your hand, in private"; issue
13; issue 20 items 6 and 15; issue 30 item 13).

One hand message per player: while it is not their turn it shows the hand, edited only when
the hand changed or a round began, so no notification comes.  Their turn puts the keyboard
of their legal moves on it:

- in a group's match a turn comes as a new message (Telegram notifies only on new messages),
  and the one it replaces is deleted, so the private chat keeps one hand message; when the
  mover is to act again (everyone else knocked, or they lead the next round, RULES.md §1.6)
  the message they pressed is edited to the new turn in place;
- in a match against computer players in the person's own private chat, where nobody else
  is waited for, the turn is edited into the hand message in place as long as it is the
  chat's newest message; only when something came after it (a new round's table) does the
  turn come as a new message at the bottom, the old one deleted.

While a page of the player follows the match (``watching``, issue 33), their hand message
waits: the page shows the hand and the turn, and nothing is asked of Telegram for that seat
until the page closes; the message is marked ``behind`` in the books, and the first showing
after the page closed (:meth:`HandMessages.catch_up`, or any later change) brings it up to
date in one request — the turn, if it is theirs, as a new message that notifies.  A message
the books do not hold yet (the first deal, /hand) and the match's end are shown whatever
the pages do.

A SIGKILL can fall between a request and its bookkeeping, so the books record the intent
first: a hand message a newer one replaces is stored as still to delete
(``MatchMessages.retired``) before the replacing send is made; a new message with a keyboard
is recorded as being sent (``MatchMessages.sending``: the newest id known in that chat) before
the send; an edit that puts a keyboard on a known message is ``unsure`` until it is made.  The
start-up (``Publisher.heal``) deletes and redoes what these say.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

from delivery.books import HandMessage, MatchMessages
from delivery.outbox import ref_id
from delivery.post import Post
from service.views import ErrorCode, Result, SeatView, Status, TableView
from ui import compose, records, render
from ui.keyboards import compose_keyboard, hand_keyboard, webapp_button
from ui.names import localize_name, localized

__all__ = ["STRAY_PROBE", "HandMessages"]

#: How many message ids after the last one it knew a restart looks at in a private chat where
#: the killed process was sending a keyboard whose id it never stored.
STRAY_PROBE = 3


def _newest(post: Post, books: MatchMessages, table: TableView, user_id: int,
            old: HandMessage) -> bool:
    """Whether the hand message ``old`` may take the turn in place: the match is played in
    the person's own private chat against computer players (nobody else is waited for), and
    it is that chat's newest message — nothing sent after it, nothing being sent (issue 30
    item 13)."""
    if table.chat_id != user_id:
        return False
    mine = ref_id(old.message)
    last = post.outbox.last_sent(user_id)
    if mine is None or last is None:
        return False
    others = [ref_id(r) for r in (books.table, books.end, books.hold)]
    return mine >= max([last, *(i for i in others if i is not None)])


class HandMessages:
    """The hand messages of every match, through ``post``.  ``dm_closed(table, seat)`` and
    ``dm_reached(table, user_id)`` tell the group that a player's private chat refused a
    hand, or took one again (:class:`delivery.group.GroupMessages`); ``view(match_id)`` reads
    a match's newest views (``MatchStore.view``)."""

    def __init__(self, post: Post, *,
                 dm_closed: Callable[[TableView, SeatView], Awaitable[None]],
                 dm_reached: Callable[[TableView, int], Awaitable[None]],
                 view: Callable[[int], Awaitable[Result]]) -> None:
        self.post = post
        self.dm_closed = dm_closed
        self.dm_reached = dm_reached
        self.view = view

    # -- every seat's message after a change -----------------------------------------------

    async def show(self, result: Result, books: MatchMessages, redo: bool = False, *,
                   watching: Collection[int] = ()) -> bool:
        """Make every person's hand message show ``result``: a new message with the keyboard
        on their turn (the old one closed), else the hand edited in place where it changed;
        ``redo`` (a restart): every message the books know shows the state again.  The
        people ``watching`` (a page of theirs is open) are left as they are while the match
        is played, their messages marked ``behind``; True when one was newly marked."""
        table = result.table
        events = result.events
        touched = {e.get("seat") for e in events if e["kind"] in ("drew", "knocked",
                                                                   "host_moved")}
        # seats that placed a tile of this change by their own press (not the host, §1.17)
        pressed = {e["seat"] for e in events if e["kind"] in ("led", "played")} - {
            e["seat"] for e in events if e["kind"] == "host_moved"}
        # however the match closed (played out, stopped, the bot removed), every seat's hand
        # message says so (issue 20 item 3)
        finished = result.status in (Status.FINISHED, Status.STOPPED)
        marked = False
        for seat, hand in zip(table.seats, result.hands, strict=True):
            if seat.user_id <= 0:  # computer players have no private chat
                continue
            old = books.hands.get(seat.user_id)
            if seat.user_id in watching and old is not None and not (redo or finished):
                marked = marked or not old.behind
                old.behind = True  # the page shows it; the message waits for the page
                continue
            await self._seat(books, table, seat, hand, redo=redo, finished=finished,
                             pressed=seat.seat in pressed, touched=seat.seat in touched)
        return marked

    async def catch_up(self, result: Result, books: MatchMessages, user_id: int) -> None:
        """The page of ``user_id`` closed: their hand message, held ``behind``, shows
        ``result`` (the match as it is) — edited in place, or on their turn a new message
        with the keyboard, which notifies (the older one closed).  Nothing when it is not
        behind."""
        table, hand = result.table, result.hand_for(user_id)
        old = books.hands.get(user_id)
        if table is None or hand is None or old is None or not old.behind:
            return
        seat = next(s for s in table.seats if s.user_id == user_id)
        await self._seat(books, table, seat, hand, redo=False,
                         finished=result.status in (Status.FINISHED, Status.STOPPED),
                         pressed=False, touched=True)

    async def _seat(self, books: MatchMessages, table: TableView, seat: SeatView, hand: Any,
                    *, redo: bool, finished: bool, pressed: bool, touched: bool) -> None:
        """One seat's hand message after a change (see :meth:`show`)."""
        post = self.post
        uid, version, round_no = seat.user_id, table.version, table.round_no
        old = books.hands.get(uid)
        if old is not None and old.behind:  # held back for a page: it shows the state now
            touched = True
            old.behind = False
        locale = await post.languages.of_user(uid)
        text = compose.hand_text(locale, localized(hand, locale, post.tr),
                                 localized(table, locale, post.tr), tr=post.tr)
        idle = None if finished else post.links.idle_markup(table.match_id, locale, post.tr)
        for message in list(books.retired.get(uid, ())) if redo else ():
            # a restart: closing it was cut short
            self._retire(books, table.match_id, uid, message, locale)
        if books.spent.get(uid) and (redo or finished or (old and old.round_no != round_no)):
            self._clear(books, table.match_id, uid)
        if hand.your_turn:
            markup = self.keyboard(localized(table, locale, post.tr), hand, locale)
            if old and old.version == version and old.live:
                if redo and old.unsure:
                    # a restart: the books say it holds this keyboard, but a SIGKILL came
                    # before the edit that puts it there was known to be made
                    # (:meth:`_put_keyboard`); it is made now (an edit to what it shows
                    # already counts as done)
                    self._put_keyboard(books, table, seat, old, text, markup)
                # else it already holds the keyboard for this version (maybe a move half
                # built in it, which a restart keeps)
                return
            if old and ((old.live and pressed) or _newest(self.post, books, table, uid, old)):
                # the player is looking at the message they just pressed (everyone else
                # knocked, or they lead the new round, §1.6), or nobody but them is waited
                # for and it is their chat's newest message: the turn goes there
                hand_message = HandMessage(old.message, version, round_no, True)
                books.hands[uid] = hand_message
                self._put_keyboard(books, table, seat, hand_message, text, markup)
                return
            if old and old.live:  # the new message below takes the turn (issue 20 item 6)
                self._retire(books, table.match_id, uid, old.message, locale)
            elif old:  # the old one goes at the round's end, with the others (item 13)
                books.spent.setdefault(uid, []).append(old.message)
            self._send(books, table, seat, text, markup, version, live=True)
        elif old and (old.live or redo):
            post.outbox.edit_text(uid, old.message, text, reply_markup=idle)
            books.hands[uid] = HandMessage(old.message, version, round_no, False)
        elif not old:
            self._send(books, table, seat, text, idle, version, live=False)
        elif old.round_no != round_no or touched or finished:
            # a new round's hand replaces the last one in place: no notification while
            # it is not this player's turn
            post.outbox.edit_text(uid, old.message, text, reply_markup=idle)
            books.hands[uid] = HandMessage(old.message, version, round_no, False)

    def keyboard(self, table: TableView, hand: Any, locale: str,
                 chosen: Sequence[Any] | None = None) -> Any:
        """A hand's move buttons (:func:`ui.keyboards.hand_keyboard`; with ``chosen``, a move
        being built, :func:`ui.keyboards.compose_keyboard`) with the button that leaves the
        match under them (issue 15), and the Mini App's beside it (issue 21)."""
        tr = self.post.tr
        match_id, user_id = table.match_id, hand.user_id
        where = dict(seat=hand.seat, names=[s.name for s in table.seats],
                     oldest=next((t.key for t in table.layout.open_trains), None))
        if chosen is None:
            markup = hand_keyboard(match_id, table.version, hand.legal, locale=locale, tr=tr,
                                   **where)
        else:
            markup = compose_keyboard(match_id, table.version, hand.legal, chosen,
                                      locale=locale, tr=tr, **where)
        if chosen is not None:
            return markup  # building a move, choosing a train: its own buttons only
        markup.inline_keyboard.append(records.leave_button(locale, match_id, user_id, tr=tr))
        page = self.post.links.page(match_id)
        if page:  # beside today's buttons, which stay (issue 21)
            markup.inline_keyboard[-1].append(webapp_button(locale, page=page, tr=tr))
        return markup

    def _send(self, books: MatchMessages, table: TableView, seat: SeatView, text: str,
              markup: Any, version: int, *, live: bool) -> None:
        """A new hand message; if the player's private chat turns out closed (403), the group
        is told.

        One with the turn's keyboard (``live``) is recorded before it is sent: the books,
        with the newest message id known in that chat (``MatchMessages.sending``: what any
        match's books hold there, or what the outbox sent there since it started), are
        stored first, and the send waits for that.  A SIGKILL between the send and the
        storing of its id thus leaves a trace, and the restart closes whatever came after
        that id (:meth:`close_strays`), so no keyboard the books never learnt of stays live
        beside the new one (issue 20 item 15)."""
        post = self.post
        uid = seat.user_id
        after = None
        newest = post.outbox.newest.get(uid, 0)  # what this process sent there
        floor = max(post.books.known_ids(uid, books) | {newest})
        if live and floor > 0:  # (with no id known in that chat, nothing marks where to look)
            books.sending[uid] = floor
            after = post.books.spawn(post.books.store(table.match_id, books))
        sent = post.outbox.send(uid, text, reply_markup=markup, after=after)
        books.hands[uid] = HandMessage(sent, version, table.round_no, live)

        def done(future: asyncio.Future) -> None:
            if future.cancelled():
                return
            if future.result() is None:
                post.books.spawn(self.dm_closed(table, seat))
            elif seat.user_id in books.dm_notices or seat.user_id in books.dm_notice_msgs:
                post.books.spawn(self.dm_reached(table, seat.user_id))

        sent.add_done_callback(done)

    def _put_keyboard(self, books: MatchMessages, table: TableView, seat: SeatView,
                      hand: HandMessage, text: str, markup: Any) -> None:
        """Edit the known hand message ``hand`` of ``seat`` to ``text`` with the turn's
        keyboard ``markup``; until the edit is made the books hold it as ``unsure``, so a
        restart after a SIGKILL makes it again instead of trusting a keyboard that may not be
        there.  When Telegram refuses the edit (the player deleted the message, or it is too
        old to edit), the turn comes in a new message instead: a player is never left
        without the keyboard of their turn."""
        hand.unsure = True
        match_id, user_id = table.match_id, seat.user_id

        def refused() -> None:
            if books.hands.get(user_id) is hand:
                self._send(books, table, seat, text, markup, hand.version, live=True)

        edit = self.post.outbox.edit_text(user_id, hand.message, text, reply_markup=markup,
                                          on_failed=refused)

        def done(future: asyncio.Future) -> None:
            if future.cancelled() or future.result() is None:
                return  # not made: the next start makes it, or a new message has it
            if books.hands.get(user_id) is hand:
                hand.unsure = False
                self.post.books.changed(match_id)

        edit.add_done_callback(done)

    def _moved_on(self, chat_id: int, message: Any, locale: str) -> asyncio.Future:
        """An old hand message whose keyboard another message took over: it no longer says
        «▶️ Ваш ход!» without buttons, but points to the newer one (issue 20 item 6)."""
        return self.post.outbox.edit_text(chat_id, message,
                                          self.post.tr.t(locale, "hand-moved-on"),
                                          reply_markup=None)

    def _retire(self, books: MatchMessages, match_id: int, user_id: int, message: Any,
                locale: str) -> None:
        """Delete the hand message ``message`` of ``user_id`` that a newer one replaces, so
        the private chat keeps one hand message (issue 30 item 13); one Telegram will not
        delete (older than 48 hours) loses its keyboard and points to the newer one instead
        (:meth:`_moved_on`).  Until that is done the books keep it among the messages still
        to delete (``MatchMessages.retired``, stored with the match before anything is
        sent), so a restart after a SIGKILL deletes it instead of leaving a second live
        keyboard (issue 20 item 15)."""
        waiting = books.retired.setdefault(user_id, [])
        if not any(m is message or ref_id(m) == ref_id(message) is not None for m in waiting):
            waiting.append(message)

        def forget(future: asyncio.Future) -> None:
            if future.cancelled():
                return  # shutting down: the next start deletes it
            left = [m for m in books.retired.get(user_id, ()) if m is not message
                    and (ref_id(m) is None or ref_id(m) != ref_id(message))]
            if left:
                books.retired[user_id] = left
            else:
                books.retired.pop(user_id, None)
            self.post.books.changed(match_id)

        def deleted(future: asyncio.Future) -> None:
            if not future.cancelled() and future.result() is False:  # kept by Telegram
                self._moved_on(user_id, message, locale).add_done_callback(forget)
            else:
                forget(future)

        self.post.outbox.delete(user_id, message).add_done_callback(deleted)

    def _clear(self, books: MatchMessages, match_id: int, user_id: int) -> None:
        """Delete the hand messages ``user_id``'s newer ones replaced (``books.spent``) in one
        request, at a round's (or the match's) end: the private chat keeps one hand message,
        at one call a round (issue 30 item 13)."""
        spent = list(books.spent.get(user_id, ()))
        done = self.post.outbox.delete_many(user_id, spent)

        def forget(future: asyncio.Future) -> None:
            if future.cancelled():
                return  # shutting down: the next start deletes them
            left = [m for m in books.spent.get(user_id, ()) if m not in spent]
            if left:
                books.spent[user_id] = left
            else:
                books.spent.pop(user_id, None)
            self.post.books.changed(match_id)

        done.add_done_callback(forget)

    def retire_live(self, books: MatchMessages, match_id: int, user_id: int, locale: str
                    ) -> None:
        """The player's hand message is to be sent anew (/hand, a Start after a 403): the one
        the books hold is forgotten and deleted, so one hand message stays."""
        old = books.hands.pop(user_id, None)
        if old is not None:
            self._retire(books, match_id, user_id, old.message, locale)

    async def handed(self, result: Result, books: MatchMessages) -> None:
        """A person's seat went to a computer player (issue 15): their hand message loses its
        keyboard and says they left (or that the group handed their seat over)."""
        handed = result.handed
        old = books.hands.pop(handed.user_id, None)
        if old is None:
            return
        key = "leave-done-afk" if handed.why == "afk" else "leave-done"
        locale = await self.post.languages.of_user(handed.user_id)
        bot = localize_name(handed.bot, locale, self.post.tr)
        self.post.outbox.edit_text(handed.user_id, old.message, self.post.tr.t(
            locale, key, bot=render.clean_name(bot)), reply_markup=None)

    def close_strays(self, books: MatchMessages, user_id: int, floor: int) -> None:
        """A restart: a hand message with a keyboard was being sent to ``user_id`` when the
        last process died, after message ``floor`` of that chat, and its id was never
        stored.  The first :data:`STRAY_PROBE` ids after ``floor`` that no match's books
        know lose their keyboards (a person's own message, or an id not used yet, refuses
        the edit, and nothing changes), before anything new is sent there."""
        known = self.post.books.known_ids(user_id, books)
        for mid in range(floor + 1, floor + 1 + STRAY_PROBE):
            if mid not in known:
                self.post.outbox.edit_markup(user_id, mid, None)

    # -- presses on a hand message ---------------------------------------------------------

    async def refused(self, result: Result, user_id: int, chat_id: int,
                      message_id: int, pressed_version: int | None = None, *,
                      had_keyboard: bool = True) -> None:
        """A press on ``message_id`` was refused as outdated, out of turn or on a closed match:
        unless that message holds the player's live keyboard, close it, so only the live one
        remains (a closed match keeps none); if it is the one the books hold and it shows a
        keyboard of an older version (``pressed_version``, as Telegram sent it with the
        press), it shows the state anew: its last edit was lost to a SIGKILL, and it would
        answer «outdated» for ever.  A message that showed no keyboard (a forged press) is
        left as it is."""
        post = self.post
        hand = result.hand_for(user_id)
        if hand is None or chat_id != user_id:  # a hand message lives in its owner's chat
            return
        if result.status != Status.PLAYING:  # a closed match keeps no keyboard
            post.outbox.edit_markup(chat_id, message_id, None)
            return
        async with post.books.lock(result.match_id):
            books = await post.books.of(result.match_id)
            live = books.hands.get(user_id)
            locale = await post.languages.of_user(user_id)
            if not (live and ref_id(live.message) == message_id):
                if had_keyboard:
                    # a keyboard the books do not know (a send whose id a SIGKILL kept from
                    # being stored): closed now that it shows itself (issue 20 item 15)
                    self._close_unknown(result, user_id, chat_id, message_id, locale)
            elif result.table is not None and result.error == ErrorCode.STALE \
                    and pressed_version is not None and pressed_version < result.table.version:
                # the books' own message showed an older keyboard than they say (an edit a
                # SIGKILL cut short): show it as it is now
                table = result.table
                text = compose.hand_text(locale, hand, table, tr=post.tr)
                markup = self.keyboard(table, hand, locale) if hand.your_turn else None
                post.outbox.edit_text(chat_id, live.message, text, reply_markup=markup)
                books.hands[user_id] = HandMessage(live.message, table.version, table.round_no,
                                                   hand.your_turn)
                post.books.changed(result.match_id)

    def _close_unknown(self, result: Result, user_id: int, chat_id: int, message_id: int,
                       locale: str) -> None:
        """Close a pressed hand message that is not the one the books hold: it points to the
        newer one on the player's turn, else it shows the hand as it is, without buttons."""
        hand, table = result.hand_for(user_id), result.table
        if hand is None or table is None or hand.your_turn:
            self._moved_on(chat_id, message_id, locale)
        else:
            self.post.outbox.edit_text(chat_id, message_id,
                                       compose.hand_text(locale, hand, table, tr=self.post.tr),
                                       reply_markup=None)

    async def accepted(self, result: Result, user_id: int, chat_id: int,
                       message_id: int) -> None:
        """A move pressed on ``message_id`` was accepted and published: if that message is
        not the hand message the books hold (an orphan of a restart), it is closed, so one
        keyboard stays live (issue 20 item 15)."""
        if result.match_id is None or result.hand_for(user_id) is None or chat_id != user_id:
            return
        post = self.post
        async with post.books.lock(result.match_id):
            books = await post.books.of(result.match_id)
            live = books.hands.get(user_id)
            if live is None or ref_id(live.message) in (None, message_id):
                return
            newest = await self.view(result.match_id)
            self._close_unknown(newest if newest.ok else result, user_id, chat_id,
                                message_id, await post.languages.of_user(user_id))

    async def show_move(self, result: Result, user_id: int, chat_id: int, message_id: int,
                        chosen: Sequence[Any] | None) -> bool:
        """A press that builds a move of several placements (issue 13, "Composing a move"):
        the pressed hand message ``message_id`` of ``user_id`` shows ``result``'s hand with
        the move built so far, ``chosen`` (:func:`ui.compose.hand_text`,
        :func:`ui.keyboards.compose_keyboard`), or the move buttons again when ``chosen`` is
        None.  The caller has checked that ``chosen`` is part of a legal move of the seat to
        act.  Changes nothing when it is not the user's turn in ``result`` or a newer state
        was already shown (the game moved on while the press was answered); True when the
        edit was queued.  An edit of the message already queued coalesces with it, and one
        that would change nothing counts as done (the outbox).  If another message holds the
        turn's keyboard (the hand was sent again: /hand, /start, a restart, and the pressed one
        is being deleted), the move is built on that one, so one keyboard stays live."""
        post, tr = self.post, self.post.tr
        hand = result.hand_for(user_id)
        table = result.table
        if table is None or hand is None or not hand.your_turn:
            return False
        async with post.books.lock(result.match_id):
            if post.books.shown(result.match_id) > (result.version or 0):
                return False
            books = await post.books.of(result.match_id)
            old = books.hands.get(user_id)
            ref: Any = message_id
            locale = await post.languages.of_user(user_id)
            if old is not None and (ref_id(old.message) == message_id or old.live):
                # (a press on an older message that a newer one replaced — being deleted —
                # builds on the live one, so one keyboard stays, at the chat's bottom)
                ref = old.message
            books.hands[user_id] = HandMessage(ref, table.version, table.round_no, True)
            post.books.changed(result.match_id)
            text = compose.hand_text(locale, localized(hand, locale, tr),
                                     localized(table, locale, tr), chosen=chosen, tr=tr)
            markup = self.keyboard(localized(table, locale, tr), hand, locale, chosen)
            post.outbox.edit_text(chat_id, ref, text, reply_markup=markup)
        return True
