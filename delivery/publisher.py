"""Turn the service's results into Telegram messages: the lobby, the table, the hands.

The publisher takes the service's views only (``Result.lobby``/``table``/``hands``/
``rounds``/``final``/``closed``): the group's messages are :class:`delivery.group.
GroupMessages`', each player's hand message :class:`delivery.hands.HandMessages`'.  Every
message goes through the outbox, and the publisher never waits for Telegram: it queues what a
change needs and keeps, per match, what it sent (:class:`delivery.books.Books`; a message
still in the queue is known by the future of its send, and a later edit of it queues behind
that send).  So a player's keyboard never waits for the group's rate limit.

The publisher is *idempotent*: given the newest :class:`~service.views.Result` of a match it
makes the chats show that state (editing what exists, sending what is missing), and stores
the message ids with the match once they are known, so re-publishing after a crash or a
restart heals a half-sent change (:meth:`Publisher.heal`).  One-shot messages — a round's
summary without a table message, the match end, a stopped match — are sent only for the
change that produced them.  The match end is queued last, after the last round's closing
table: a group's queue is sent in order, so the end is the match's last word there.

Колбаса's placements without a choice (RULES.md §2.12 rule 6; issue 32) come as the result's
``frames``: the group's table after each of them.  The players' hand messages show the change
at once; the table message shows the frames one after the other, ``frame_seconds`` apart, and
then the table as it is (:meth:`Publisher._frames`) — the service gave the next turn that
much more time.  A newer change of the match ends the frames where they are.

Per accepted move this costs three Bot API calls besides the answer to the press: the table
edit, the mover's hand message losing its keyboard, and a new message (with a notification)
to the player to act.  A round's end edits its table into the closed table with the round's
summary (hands revealed, points recorded) and the other players' hand messages to their new
hands; the next round's table is sent with its lead, in place of that move's table edit.  So a
round's end costs what a move costs.

Where people play in pages (issue 33, "the token's budget": one token sends about 30
requests a second, a group takes 20 a minute), the chats are kept truthful with fewer
requests.  ``watching(match id)`` (:meth:`delivery.pages.Pages.watching`) names the people a
page of whom follows the match:

- a watching person's hand message is not edited move by move — the page shows their hand
  and their turn; it is marked ``behind`` and brought up to date in one request when the
  page closes (:meth:`Publisher.page_closed`), the turn then coming as a new message that
  notifies;
- while every person at the table watches, the group's table follows at a calmer pace: at
  most one edit every ``table_calm`` seconds within a round, always to the newest state
  (:class:`delivery.group.GroupMessages`); a round's closing table and summary, the next
  round's table and the match end go at once, and a page that closes shows the table as it
  is;
- the match's end shows every hand message and the group as before; so does a restart.

A person whose page is closed gets every change as before.  So a move made in a page costs
the table's edit at the calmer pace and nothing in private.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence
from typing import Any

from delivery.books import MatchMessages
from delivery.group import TABLE_CALM, GroupMessages
from delivery.hands import HandMessages
from delivery.pictures import TablePictures
from delivery.post import Post
from service.game import GameService
from service.views import Result, Status
from ui import render

__all__ = ["END_LOOKBACK", "Publisher"]

log = logging.getLogger(__name__)

#: Seconds after which a finished match's end counts as long announced (start-up looks no
#: further back for a match end a crash kept from being shown).
END_LOOKBACK = 86_400.0


class Publisher:
    """Renders results for each audience and sends them through ``post``'s outbox.

    ``service``: the :class:`service.game.GameService` (its ``store`` for the newest views,
    its ``people`` for chats' settings); ``pictures`` draws the table pictures;
    ``listeners``: called with every result published, before the chats' messages are
    queued (the open Mini App pages, :meth:`delivery.pages.Pages.push`, issue 21).
    """

    def __init__(self, service: GameService, post: Post, pictures: TablePictures, *,
                 listeners: Sequence[Callable[[Result], None]] = (),
                 watching: Callable[[int], Collection[int]] | None = None,
                 table_calm: float = TABLE_CALM) -> None:
        self.service = service
        self.post = post
        self.books = post.books
        self.pictures = pictures
        self.listeners = tuple(listeners)
        self.watching = watching
        self.group = GroupMessages(post, pictures, service.people.chat_info,
                                   calm_every=table_calm)
        self.hands = HandMessages(post, dm_closed=self.group.dm_closed,
                                  dm_reached=self.group.dm_reached, view=service.store.view)
        self.books.on_forget.append(self.group.forget)

    async def messages(self, match_id: int) -> MatchMessages:
        """What was sent for a match (:meth:`delivery.books.Books.of`)."""
        return await self.books.of(match_id)

    async def settled(self) -> None:
        """Wait until every message id in flight is stored (tests, shutdown)."""
        await self.books.settled()

    # -- entry points ----------------------------------------------------------------------

    async def publish(self, result: Result, *, fresh: bool = True, redo: bool = False
                      ) -> None:
        """Show ``result`` (an accepted change, or a view when ``fresh`` is False) in the
        group and in the players' private chats.  Never raises for Telegram errors and never
        waits for Telegram.  ``redo`` (a restart): make every message the books know show
        the state again, whatever the books say it shows — an edit the killed process had
        recorded but not made is made now (an edit to what a message already shows counts
        as done), so no hand keeps a keyboard the books think is gone (issue 20 item 15)."""
        if result.match_id is None:
            return
        for listener in self.listeners:
            try:
                listener(result)
            except Exception:  # a page's trouble never keeps a move from the chats
                log.exception("a page listener failed on match %s", result.match_id)
        match_id = result.match_id
        paced = fresh and bool(result.frames) and result.table is not None
        async with self.books.lock(match_id):
            books = await self.books.of(match_id)
            await self._publish(result, books, fresh, redo, table=not paced)
            if result.status not in (Status.LOBBY, Status.PLAYING):
                self.books.close(match_id)
            self.books.changed(match_id)
        if paced:  # (in a task of its own: the caller never waits for them)
            self.books.spawn(self._frames(result))

    async def _frames(self, result: Result) -> None:
        """The table message of ``result``'s match shows its ``frames`` one after the other,
        ``frame_seconds`` apart, then the result's table — unless a newer change of the
        match was shown meanwhile, which ends them where they are."""
        match_id, version = result.match_id, result.version or 0
        for table in (*result.frames, result.table):
            async with self.books.lock(match_id):
                if self.books.shown(match_id) > version:
                    return
                books = await self.books.of(match_id)
                if table is result.table:
                    await self.group.table(result, books)
                    shown = False
                else:
                    shown = await self.group.frame(table, books)
                self.books.changed(match_id)
            if shown:
                await asyncio.sleep(result.frame_seconds)

    async def _publish(self, result: Result, books: MatchMessages, fresh: bool,
                       redo: bool = False, *, table: bool = True) -> None:
        match_id = result.match_id
        version = result.version or 0
        await self.group.one_shots(result, books, fresh)
        if fresh and result.handed is not None and result.table is not None:
            await self.hands.handed(result, books)
        if version >= self.books.shown(match_id):
            # (an older one: a newer state was already shown; only its one-shots count)
            self.books.show(match_id, version)
            if result.lobby is not None and result.table is None:
                await self.group.lobby(result, books)
                return
            if result.table is not None:
                watching = self._watching(result, redo)
                humans = {s.user_id for s in result.table.seats if s.user_id > 0}
                if table:  # (else its frames go first: :meth:`_frames`)
                    await self.group.table(result, books, redo,
                                           calm=bool(humans) and humans <= watching)
                await self.hands.show(result, books, redo, watching=watching)
        # the match end last: a group's queue is sent in order, so whoever reads it finds
        # the table above already closed with the last round's summary
        await self.group.match_end(result, books)

    def _watching(self, result: Result, redo: bool) -> set[int]:
        """The people a page of whom follows the match while it is played (none after a
        restart, or for a match that closed: every chat shows those in full)."""
        if self.watching is None or redo or result.status != Status.PLAYING:
            return set()
        return set(self.watching(result.match_id))

    # -- pages that closed (issue 33) -------------------------------------------------------

    async def page_closed(self, match_id: int, user_id: int) -> None:
        """``user_id``'s last page of the match closed (``Pages.on_gone``): what was held
        back for it is shown as the match is now — the group's table, and their hand
        message (the turn, if theirs, as a new message).  Only what this process held back:
        on a worker of a cluster, only for a chat it still owns."""
        if user_id in (self.watching(match_id) if self.watching else ()):
            return  # (back again)
        await self._catch_up(match_id, {user_id})

    async def _catch_up(self, match_id: int, users: Collection[int]) -> None:
        held = self.books.held(match_id)
        if held is None:
            return
        behind = {u for u in users if (h := held.hands.get(u)) is not None and h.behind}
        if not behind and not self.group.holding(match_id):
            return
        cluster = self.service.cluster
        if cluster is not None and held.table_chat not in cluster.owned:
            return
        res = await self.service.store.view(match_id)
        if not res.ok or res.table is None:
            return
        async with self.books.lock(match_id):
            books = await self.books.of(match_id)
            if (res.version or 0) < self.books.shown(match_id):
                return  # (a newer state is being shown: it shows them)
            await self.group.flush(match_id, books)
            for user_id in behind:
                await self.hands.catch_up(res, books, user_id)
            self.books.changed(match_id)

    async def flush(self) -> None:
        """Stopping: every table held back is shown and every hand message held back for a
        page brought up to date (the pages lose their streams with this process)."""
        for match_id in self.books.held_matches():
            held = self.books.held(match_id)
            if held is not None:
                try:
                    await self._catch_up(match_id, list(held.hands))
                except Exception:
                    log.exception("match %s: showing what pages held back failed", match_id)

    async def bot_removed(self, results: Sequence[Result], title: str | None) -> None:
        """The bot was removed from a group (issue 20 item 2) and ``results`` are its matches
        that closed (``GameService.bot_removed``): nothing goes to the group, which the bot
        can no longer write to, but every person seated in a dealt match is told in private,
        and their hand messages close (no live buttons).  A lobby that never dealt sent
        nobody anything in private, so nobody is told of it."""
        post = self.post
        for res in results:
            if res.table is None or res.match_id is None:
                continue
            async with self.books.lock(res.match_id):
                books = await self.books.of(res.match_id)
                self.books.show(res.match_id, res.version or 0)
                await self.hands.show(res, books)
                for seat in res.table.seats:
                    if seat.user_id > 0 and not post.reach.blocked(seat.user_id):
                        locale = await post.languages.of_user(seat.user_id)
                        post.outbox.send(seat.user_id, post.tr.t(
                            locale, "notice-bot-removed", chat=render.clean_name(title or "—"),
                            id=res.match_id))
                self.books.close(res.match_id)
                self.books.changed(res.match_id)

    # -- start-up, a chat taken over, hands sent again, migrations ---------------------------

    async def heal(self) -> None:
        """Start-up: show every open match as it is — every message the books know edited to
        it, every hand message a newer one replaced closed (``redo``), and first the few
        messages after a keyboard's recorded send whose id was never stored closed
        (:meth:`delivery.hands.HandMessages.close_strays`) — and announce the end of any
        match that finished without its end message, so a crash between a commit and its
        publish, or between a request and its bookkeeping, heals itself."""
        opened = await self.service.store.open_matches()
        loaded = [await self.books.of(res.match_id) for res in opened
                  if res.match_id is not None]
        for books in loaded:
            # a keyboard was being sent when the last process died: closed before anything
            # new is sent (every match's books are read first: what any of them knows is
            # never touched)
            for uid, floor in list(books.sending.items()):
                self.hands.close_strays(books, uid, floor)
            books.sending.clear()
        for res in opened:
            await self.publish(res, fresh=False, redo=True)
        await self._announce_ends()

    async def heal_chat(self, chat_id: int) -> None:
        """A chat taken over from another worker of a cluster: show its open matches as they
        are, and announce the end of a match of it that finished without its end message
        (the worker that showed them before may have died between a commit and its
        publish)."""
        for res in await self.service.store.open_matches(chat_id=chat_id):
            await self.publish(res, fresh=False)
        await self._announce_ends(chat_id)

    async def show_again(self, chat_id: int) -> None:
        """Show the open lobby or match of ``chat_id`` anew, as it is (its language changed):
        its messages edited in place, nothing sent that was not."""
        for res in await self.service.store.open_matches(chat_id=chat_id):
            await self.publish(res, fresh=False)

    async def _announce_ends(self, chat_id: int | None = None) -> None:
        """Publish every match (of ``chat_id``, or of every chat) that finished within
        :data:`END_LOOKBACK` with a table but without its end message."""
        since = self.post.clock() - END_LOOKBACK
        kwargs: dict[str, Any] = {} if chat_id is None else {"chat_id": chat_id}
        for match_id, stored in await self.service.store.finished_since(since, **kwargs):
            books = self.books.held(match_id) or MatchMessages.from_json(stored)
            if books.table and books.end is None:
                await self.publish(await self.service.store.view(match_id), fresh=False)

    async def resend_hand(self, result: Result, user_id: int) -> bool:
        """/hand or a Start pressed after a 403: a fresh hand message for ``user_id`` (with the
        keyboard when it is their turn), the old keyboard removed.  False if not seated."""
        if result.table is None or result.hand_for(user_id) is None:
            return False
        async with self.books.lock(result.match_id):
            books = await self.books.of(result.match_id)
            self.hands.retire_live(books, result.match_id, user_id,
                                   await self.post.languages.of_user(user_id))
        await self.publish(await self.service.store.view(result.match_id), fresh=False)
        return True

    async def chat_migrated(self, match_id: int, new_chat_id: int) -> None:
        """The match's group became the supergroup ``new_chat_id``: the old group's messages
        cannot be edited there, so the lobby and the table are shown anew (a message the
        outbox already sent to the supergroup is kept)."""
        async with self.books.lock(match_id):
            books = await self.books.of(match_id)
            books.settle()
            if books.table_chat != new_chat_id:
                books.table = books.table_round = books.table_chat = None
            if books.lobby_chat != new_chat_id:
                books.lobby, books.lobby_closed, books.lobby_chat = None, False, None
            self.books.changed(match_id)
        res = await self.service.store.view(match_id)
        if res.ok:
            await self.publish(res, fresh=False)

    # -- presses on hand messages (delivery.hands) -----------------------------------------

    async def accepted(self, result: Result, user_id: int, chat_id: int, message_id: int
                       ) -> None:
        """:meth:`delivery.hands.HandMessages.accepted`; and a person who pressed a button
        in the chat while a page of theirs was open is looking at the chat: their hand
        message, held back for the page, shows the match as it is."""
        await self.hands.accepted(result, user_id, chat_id, message_id)
        held = self.books.held(result.match_id) if result.match_id is not None else None
        hand = held.hands.get(user_id) if held is not None else None
        if hand is not None and hand.behind:
            await self._catch_up(result.match_id, {user_id})

    async def refused(self, result: Result, user_id: int, chat_id: int, message_id: int,
                      pressed_version: int | None = None, *, had_keyboard: bool = True
                      ) -> None:
        """:meth:`delivery.hands.HandMessages.refused`."""
        await self.hands.refused(result, user_id, chat_id, message_id, pressed_version,
                                 had_keyboard=had_keyboard)

    async def show_move(self, result: Result, user_id: int, chat_id: int, message_id: int,
                        chosen: Sequence[Any] | None) -> bool:
        """:meth:`delivery.hands.HandMessages.show_move`."""
        return await self.hands.show_move(result, user_id, chat_id, message_id, chosen)
