"""The group's messages of a match: the lobby, the round's table (a picture with its caption,
or text), the one-shot notices (a round's summary without a table, a seat handed to a computer
player, a stopped match, a closed private chat), the question about a player's timeouts, and
the match end (issue 4, "The table in the group"; issue 14; issue 15; issue 20).

The table message is a photo — the picture of the table (:mod:`delivery.pictures`, drawn only
when its request is made, so edits that coalesce draw nothing) with a caption of what the
picture does not show (:func:`ui.caption.render_caption`), edited with ``editMessageMedia`` —
or, where the chat's admins chose text (``ChatInfo.options["table"]``,
:func:`ui.settings.table_view`), the text table.  A table message keeps its kind for its
round, so a new choice applies from the next round's table.  If a picture fails (Telegram
refuses the upload, the network gives up, it cannot be drawn), the round goes on as text: the
photo is deleted and the latest table is sent as a text message in its place (a photo cannot
be edited into a text), and the next round tries a picture again (issue 14).

A calmer table (issue 33, "the token's budget"): while every person at the table follows the
match in a page (the publisher says so: ``calm``), the table message of a round in play is
edited at most once every ``calm_every`` seconds, always to the newest state — the states in
between are held back (:class:`_Calm`) and a timer shows the newest when the interval is up.
Everything else is shown at once and supersedes what is held: the round's closing table and
summary, the next round's table, the match end, a table shown anew, and the table as it is
when a page closes (:meth:`GroupMessages.flush`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from delivery.books import MatchMessages
from delivery.outbox import MessageRef, ref_id
from delivery.pictures import TablePictures
from delivery.post import Post, thread
from service.views import ChatInfo, Result, SeatView, Status, TableView
from ui import records, render
from ui.caption import render_caption
from ui.keyboards import dm_keyboard, lobby_keyboard, rematch_keyboard, webapp_keyboard
from ui.names import localize_name, localized
from ui.settings import faces, table_view

__all__ = ["TABLE_CALM", "GroupMessages"]

log = logging.getLogger(__name__)

#: Seconds between two edits of a round's table message while everyone at the table plays in
#: a page (0: every change at once).
TABLE_CALM = 10.0


@dataclass(eq=False)
class _Calm:
    """A match's table message at the calmer pace: when it was last asked to show a state
    (``last``, the post's clock), the newest table held back since (``due``: the table, its
    language, whether a picture) and the timer that shows it."""

    last: float = float("-inf")
    due: tuple[TableView, str, bool] | None = None
    timer: asyncio.TimerHandle | None = None

    def drop(self) -> None:
        self.due = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class GroupMessages:
    """The group's messages of every match, through ``post``; ``pictures`` draws the table
    pictures, ``chat_info(chat_id)`` gives a chat's settings (``People.chat_info``)."""

    def __init__(self, post: Post, pictures: TablePictures,
                 chat_info: Callable[[int], Awaitable[ChatInfo]], *,
                 calm_every: float = TABLE_CALM) -> None:
        self.post = post
        self.pictures = pictures
        self.chat_info = chat_info
        self.calm_every = calm_every
        #: Per match, the table message's pace while everyone plays in a page.
        self._calm: dict[int, _Calm] = {}
        #: The table each match's table message was last given, and its language.
        self._shown: dict[int, tuple[TableView, str]] = {}
        #: Per match, the rounds whose closed table a failed picture left to a text.
        self._closed_as_text: dict[int, set[int]] = {}

    def forget(self, match_id: int) -> None:
        """The match's books were dropped: so is what is kept of it here."""
        self._shown.pop(match_id, None)
        self._closed_as_text.pop(match_id, None)
        calm = self._calm.pop(match_id, None)
        if calm is not None:
            calm.drop()

    # -- the lobby -------------------------------------------------------------------------

    async def lobby(self, result: Result, books: MatchMessages) -> None:
        """The lobby message: sent, then edited as players come and go; a lobby that expired
        or was cancelled says so and keeps no buttons."""
        post, tr = self.post, self.post.tr
        locale = await post.languages.of_chat(result.lobby.chat_id)
        lobby = localized(result.lobby, locale, tr)
        if lobby.status == Status.LOBBY:
            ttl = None
            if lobby.deadline_at is not None:
                ttl = max(1, round((lobby.deadline_at - post.clock()) / 60))
            text = render.render_lobby(locale, lobby, expires_minutes=ttl, tr=tr)
            markup = lobby_keyboard(locale, lobby.match_id, allow_bots=True,
                                    has_bots=any(p.bot for p in lobby.players), tr=tr)
        else:
            key = "lobby-expired" if lobby.status == Status.EXPIRED else "lobby-cancelled"
            text = tr.t(locale, key)
            markup = None
        if books.lobby:
            post.outbox.edit_text(lobby.chat_id, books.lobby, text, reply_markup=markup)
        elif lobby.status == Status.LOBBY:
            books.lobby = post.outbox.send(lobby.chat_id, text, reply_markup=markup,
                                           **thread(lobby.thread_id))
            books.lobby_chat = lobby.chat_id
        else:
            post.outbox.send(lobby.chat_id, text, **thread(lobby.thread_id))

    # -- the table -------------------------------------------------------------------------

    async def table(self, result: Result, books: MatchMessages, redo: bool = False, *,
                    calm: bool = False) -> None:
        """The round's table message: the lobby says the match started; a round that is over
        on the table message is shown closed with its summary first (``redo``: again, after
        a restart), and the new round's table comes with its lead.  ``calm``: everyone at the
        table plays in a page, so a change within the round may wait for the calmer pace
        (:meth:`_hold`)."""
        post = self.post
        info = await self.chat_info(result.table.chat_id)
        locale = await post.languages.of_chat(result.table.chat_id)
        result = localized(result, locale, post.tr)
        table = result.table
        picture = table_view(info) == "picture"
        if books.faces is None:  # kept for the whole match (RULES.md §2.10.4)
            books.faces = faces(info)
        if books.lobby and not books.lobby_closed:
            post.outbox.edit_text(table.chat_id, books.lobby,
                                  post.tr.t(locale, "lobby-started"), reply_markup=None)
            books.lobby_closed = True
        shown = books.table_round
        if books.table and shown is not None and shown != table.round_no:
            # the round on that message is over: show it closed, with its summary
            closed = result.closed
            if (books.table_closed != shown or redo) and closed is not None \
                    and closed.round_no == shown:
                self._show_table(books, closed, locale, picture=picture)
                books.table_closed = shown
            if not table.layout.started:
                # the new round opens its table with the lead; until then the closed table
                # is the group's last word (the leader has their keyboard already)
                return
            books.table = None
        if calm and not redo and books.table and books.table_round == table.round_no \
                and self._hold(table, locale, picture):
            return
        self._show_table(books, table, locale, picture=picture)

    async def frame(self, table: TableView, books: MatchMessages) -> bool:
        """One of Колбаса's tables between a step's placements (``TableView.frame``): the
        round's table message, where it shows this round, is edited to it (True); nothing
        new is sent for a frame (False: no table message of its round)."""
        if not books.table or books.table_round != table.round_no:
            return False
        locale = await self.post.languages.of_chat(table.chat_id)
        self._show_table(books, localized(table, locale, self.post.tr), locale,
                         picture=books.table_photo)
        return True

    def _hold(self, table: TableView, locale: str, picture: bool) -> bool:
        """Hold ``table`` back if the table message was asked to show a state less than
        ``calm_every`` seconds ago (True): it becomes the newest state held, shown when the
        interval is up."""
        if self.calm_every <= 0:
            return False
        calm = self._calm.setdefault(table.match_id, _Calm())
        wait = calm.last + self.calm_every - self.post.clock()
        if wait <= 0:
            return False
        calm.due = (table, locale, picture)
        if calm.timer is None:
            calm.timer = asyncio.get_running_loop().call_later(
                wait, self._interval_up, table.match_id)
        return True

    def _interval_up(self, match_id: int) -> None:
        calm = self._calm.get(match_id)
        if calm is not None:
            calm.timer = None
            self.post.books.spawn(self.flush(match_id))

    def holding(self, match_id: int) -> bool:
        """Whether a state of the match's table is held back."""
        calm = self._calm.get(match_id)
        return calm is not None and calm.due is not None

    async def flush(self, match_id: int, books: MatchMessages | None = None) -> None:
        """Show the table held back now (the interval is up, a page closed, the bot stops);
        ``books``: the match's, when the caller holds its lock."""
        if not self.holding(match_id):
            return
        if books is not None:
            self._flush(match_id, books)
            return
        async with self.post.books.lock(match_id):
            books = await self.post.books.of(match_id)
            self._flush(match_id, books)
            self.post.books.changed(match_id)

    def _flush(self, match_id: int, books: MatchMessages) -> None:
        calm = self._calm.get(match_id)
        if calm is None or calm.due is None:
            return
        table, locale, picture = calm.due
        calm.drop()
        if books.table and books.table_round == table.round_no:
            self._show_table(books, table, locale, picture=picture)

    def _show_table(self, books: MatchMessages, table: TableView, locale: str, *,
                    picture: bool) -> None:
        """Make the round's table message show ``table``: edit it in its kind (the picture
        and its caption, or the text), or send it (a photo when ``picture``)."""
        outbox, tr = self.post.outbox, self.post.tr
        chat = table.chat_id
        self._shown[table.match_id] = (table, locale)
        calm = self._calm.get(table.match_id)
        if calm is not None or self.calm_every > 0:  # what it shows now supersedes any held
            calm = calm or self._calm.setdefault(table.match_id, _Calm())
            calm.drop()
            calm.last = self.post.clock()
        markup = self._table_markup(table, locale)
        if books.table and books.table_photo:
            ref = books.table
            outbox.edit_media(chat, ref, self.pictures.source(table, locale,
                                                               books.faces or "pips"),
                              caption=render_caption(locale, table, tr=tr),
                              on_failed=self._on_photo_failed(table, locale, ref), **markup)
        elif books.table:
            outbox.edit_text(chat, books.table, render.render_table(locale, table, tr=tr),
                             **markup)
        else:
            where = thread(table.thread_id)
            if picture:
                holder: list[MessageRef] = []
                books.table = outbox.send_photo(
                    chat, self.pictures.source(table, locale, books.faces or "pips"),
                    caption=render_caption(locale, table, tr=tr),
                    on_failed=lambda: self._photo_failed(table, locale, holder[0]),
                    **where, **markup)
                holder.append(books.table)
            else:
                books.table = outbox.send(chat, render.render_table(locale, table, tr=tr),
                                          **where, **markup)
            books.table_photo = picture
            books.table_round = table.round_no
            books.table_chat = chat

    def _table_markup(self, table: TableView, locale: str) -> dict[str, Any]:
        """The group table's keyboard as ``reply_markup`` keyword arguments: a URL button
        with the Mini App's direct link while the round is played (issue 21; a group cannot
        carry a ``web_app`` button), nothing without a configured Mini App."""
        link = self.post.links.group_link(table.match_id)
        if link is None or table.status != Status.PLAYING or table.summary is not None:
            return {}
        return {"reply_markup": webapp_keyboard(locale, link=link, tr=self.post.tr)}

    def _on_photo_failed(self, table: TableView, locale: str, ref: MessageRef
                         ) -> Callable[[], None]:
        return lambda: self._photo_failed(table, locale, ref)

    def _photo_failed(self, table: TableView, locale: str, ref: MessageRef) -> None:
        """The picture ``table`` was to show on the photo ``ref`` failed: the round goes on as
        text (the photo deleted, the latest table sent as text in its place); a closing
        picture that failed after the next round's table came (or whose photo never came) is
        sent as a text of its own, once.  Nothing of the round is lost."""
        post = self.post
        books = post.books.held(table.match_id)
        if books is None:
            return
        texts = self._closed_as_text.setdefault(table.match_id, set())
        chat, where = table.chat_id, thread(table.thread_id)
        shown = ref_id(ref) is not None  # a photo that was sent and is to go
        current = books.table_photo and books.table_round == table.round_no and (
            books.table is ref or ref_id(books.table) is not None
            and ref_id(books.table) == ref_id(ref))
        if current:
            latest, latest_locale = self._shown.get(table.match_id, (table, locale))
            log.warning("match %s: the table picture failed; round %s goes on as text",
                        table.match_id, table.round_no)
            if shown:
                post.outbox.delete(chat, ref)
            books.table = post.outbox.send(
                chat, render.render_table(latest_locale, latest, tr=post.tr), **where)
            books.table_photo = False
            if latest.summary is not None:
                texts.add(latest.round_no)
            post.books.changed(table.match_id)
        elif table.summary is not None and table.round_no not in texts:
            texts.add(table.round_no)
            log.warning("match %s: the closing picture of round %s failed; sent as text",
                        table.match_id, table.round_no)
            if shown:
                post.outbox.delete(chat, ref)
            post.outbox.send(chat, render.render_table(locale, table, tr=post.tr), **where)

    # -- one-shot messages -----------------------------------------------------------------

    async def one_shots(self, result: Result, books: MatchMessages, fresh: bool) -> None:
        """For a ``fresh`` change, a round summary when no table message of that round exists
        (normally the table, closed, carries it), the notice of a seat a person handed to a
        computer player and the notice of a stopped match; the question about a player's
        timeouts (the match end: :meth:`match_end`)."""
        if result.table is None:
            return
        post, tr = self.post, self.post.tr
        locale = await post.languages.of_chat(result.table.chat_id)
        result = localized(result, locale, tr)
        table = result.table
        names = [s.name for s in table.seats]
        sides = [s.side for s in table.seats]
        where = thread(table.thread_id)
        for summary in result.rounds if fresh else ():
            if not (books.table and books.table_round == summary.round_no):
                post.outbox.send(table.chat_id, render.render_round_summary(
                    locale, summary, names, sides, tr=tr), **where)
        handed = result.handed
        if fresh and handed is not None and handed.why != "afk":
            # (after the timeouts the group's answer to its question says it: ``hold-bot``)
            post.outbox.send(table.chat_id, tr.t(
                locale, "leave-notice", name=render.clean_name(handed.name),
                bot=render.clean_name(localize_name(handed.bot, locale, tr))), **where)
        self._question(result, books, locale, where)
        stopped_by = result.final.stopped_by if result.final is not None else None
        if fresh and result.status == Status.STOPPED and not stopped_by:
            # (a person's /stopgame: its question, edited, says who stopped it)
            post.outbox.send(table.chat_id, tr.t(locale, "match-stopped"), **where)

    def _question(self, result: Result, books: MatchMessages, locale: str,
                  where: dict[str, Any]) -> None:
        """The group's question about a player's timeouts (``Result.hold``), asked once per
        question; once answered, the question's message shows the answer instead."""
        post, tr = self.post, self.post.tr
        hold, chat = result.hold, result.table.chat_id
        if hold is not None:
            if books.hold_version == hold.version:
                return
            seconds = max(1, round((hold.deadline_at or 0) - post.clock()))
            books.hold = post.outbox.send(
                chat, records.render_hold(locale, hold, seconds, tr=tr),
                reply_markup=records.hold_keyboard(locale, hold, result.match_id, tr=tr),
                **where)
            books.hold_version, books.hold_name = hold.version, hold.name
            return
        if books.hold is None:
            return
        key = ("hold-bot" if result.handed is not None else
               "hold-end" if result.status == Status.FINISHED else
               "match-stopped" if result.status == Status.STOPPED else "hold-back")
        post.outbox.edit_text(chat, books.hold, tr.t(
            locale, key, name=render.clean_name(books.hold_name or "?")), reply_markup=None)
        books.hold = books.hold_version = books.hold_name = None

    async def match_end(self, result: Result, books: MatchMessages) -> None:
        """The match end as a new group message, once (``books.end`` records it, so a publish
        repeated after a restart sends it if and only if it was not sent).  Queued after
        the closing table of the last round, so the group gets the round's summary before
        the end (RULES.md §1.15) and the end is the match's last word."""
        final = result.final
        if result.table is None or result.status != Status.FINISHED or final is None \
                or books.end is not None:
            return
        post, tr = self.post, self.post.tr
        locale = await post.languages.of_chat(result.table.chat_id)
        table = result.table
        final = localized(result, locale, tr).final
        markup = rematch_keyboard(locale, table.match_id, tr=tr)
        markup.inline_keyboard.append([records.record_button(locale, table.match_id, tr=tr)])
        books.end = post.outbox.send(
            table.chat_id, render.render_match_end(locale, final, tr=tr),
            reply_markup=markup, **thread(table.thread_id))

    # -- closed private chats --------------------------------------------------------------

    async def dm_closed(self, table: TableView, seat: SeatView) -> None:
        """A player's private chat is closed (403): tell the group, with a button that opens
        it (once per round)."""
        post = self.post
        if not post.reach.blocked(seat.user_id):
            return
        books = await post.books.of(table.match_id)
        if books.dm_notices.get(seat.user_id) == table.round_no:
            return
        locale = await post.languages.of_chat(table.chat_id)
        url = post.links.deep(f"h{table.match_id}")
        books.dm_notices[seat.user_id] = table.round_no
        books.dm_notice_msgs[seat.user_id] = post.outbox.send(
            table.chat_id, post.tr.t(locale, "notice-dm-closed", name=seat.name),
            reply_markup=dm_keyboard(locale, url, tr=post.tr), **thread(table.thread_id))
        post.books.changed(table.match_id)

    async def dm_reached(self, table: TableView, user_id: int) -> None:
        """A hand reached a player the group was told gets none (issue 20 item 6): the
        notice is out of date and leaves the group (the next closed chat tells it again)."""
        post = self.post
        async with post.books.lock(table.match_id):
            books = await post.books.of(table.match_id)
            books.dm_notices.pop(user_id, None)
            ref = books.dm_notice_msgs.pop(user_id, None)
            if ref is not None:
                post.outbox.delete(table.chat_id, ref)
            post.books.changed(table.match_id)
