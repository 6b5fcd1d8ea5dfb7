"""Turn the service's results into Telegram messages: the lobby, the table, the hands.

The publisher takes the service's views only (``Result.lobby``/``table``/``hands``/
``rounds``/``final``/``closed``): the group's texts are rendered from the group's views, each
hand message from that seat's :class:`~service.views.HandView`.  Every message goes through
:class:`ui.outbox.Outbox`, and the publisher never waits for Telegram: it queues what a change
needs and keeps, per match, what it sent (:class:`ui.bookkeeping.MatchMessages`; a message
still in the queue is known by the future of its send, and a later edit of it queues behind
that send).  So a player's keyboard never waits for the group's rate limit.

The publisher is *idempotent*: given the newest :class:`service.Result` of a match it makes
the chats show that state (editing what exists, sending what is missing), and stores the
message ids with the match once they are known (``service.messages.MessageIds.save``), so
re-publishing after a crash or a restart heals a half-sent change.  One-shot messages — a
round's summary without a table message, the match end, a stopped match — are sent only for
the change that produced them.  The match end is queued last, after the last round's closing
table: a group's queue is sent in order, so the end is the match's last word there.

Per accepted move this costs three Bot API calls besides the answer to the press: the table
edit, the mover's hand message losing its keyboard, and a new DM (with a notification) to the
player to act.  When the mover is to act again (everyone else knocked, or they lead the next
round, RULES.md §1.6), their pressed message is edited to the new turn in place instead of
losing its keyboard to a new DM.  A round's end edits its table into the closed table with
the round's summary (hands revealed, points recorded) and the other players' hand messages to
their new hands; the next round's table is sent with its lead, in place of that move's table
edit.  So a round's end costs what a move costs, and nothing about a closed round is lost when
a publish is repeated after a restart (:meth:`Publisher.heal`).

The table message is a photo — the picture of the table (:mod:`ui.table_photo`, drawn in a
thread of its own only when its request is made, so edits that coalesce draw nothing) with a
caption of what the picture does not show (:func:`ui.caption.render_caption`), edited with
``editMessageMedia`` — or, where the chat's admins chose text (``ChatInfo.options["table"]``,
:func:`ui.settings.table_view`), the text table.  A table message keeps its kind for its
round, so a new choice applies from the next round's table.  If a picture fails (Telegram
refuses the upload, the network gives up, it cannot be drawn), the round goes on as text: the
photo is deleted and the latest table is sent as a text message in its place (a photo cannot
be edited into a text), and the next round tries a picture again (issue 14).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from service.game import GameService
from service.views import ErrorCode, Result, SeatView, Status, TableView
from ui import compose, records, render
from ui.bookkeeping import HandMessage, MatchMessages
from ui.caption import render_caption
from ui.i18n import DEFAULT_LOCALE, Translator, choose_locale
from ui.keyboards import (
    compose_keyboard,
    deep_link,
    dm_keyboard,
    hand_keyboard,
    lobby_keyboard,
    rematch_keyboard,
    webapp_button,
    webapp_keyboard,
    webapp_link,
    webapp_page,
)
from ui.names import localize_name, localized
from ui.outbox import MessageRef, ref_id
from ui.settings import table_view
from ui.table_photo import TablePictures

__all__ = ["Publisher"]

log = logging.getLogger(__name__)

#: Seconds after which a finished match's end counts as long announced (start-up looks no
#: further back for a match end a crash kept from being shown).
END_LOOKBACK = 86_400.0
#: How many message ids after the last one it knew a restart looks at in a private chat where
#: the killed process was sending a keyboard whose id it never stored.
STRAY_PROBE = 3


class Publisher:
    """Renders results for each audience and sends them through the outbox.

    ``service``: the :class:`service.game.GameService`; ``outbox``: a :class:`ui.outbox.Outbox`;
    ``tr``: the translator; ``bot_username``: for deep links (``t.me/<bot>?start=…``);
    ``user_locale(user_id)``: the language code Telegram reported for a user, if known;
    ``pictures``: draws the table pictures (default a :class:`ui.table_photo.TablePictures` of
    its own drawing in ``picture_workers`` processes, 0 for a thread; :meth:`close` stops it).
    """

    def __init__(self, service: GameService, outbox: Any, tr: Translator, *,
                 bot_username: str, default_locale: str = DEFAULT_LOCALE,
                 user_locale: Callable[[int], str | None] | None = None,
                 pictures: TablePictures | None = None, picture_workers: int = 0,
                 webapp_url: str | None = None, webapp_short_name: str | None = None
                 ) -> None:
        self.service = service
        #: The Mini App (issue 21): the page's address (the private hand message's
        #: ``web_app`` button) and its short name (the group table's direct link); None: no
        #: button anywhere.
        self.webapp_url = webapp_url
        self.webapp_short_name = webapp_short_name if webapp_url else None
        self.outbox = outbox
        self.tr = tr
        self._own_pictures = pictures is None
        self.pictures = pictures if pictures is not None else TablePictures(
            tr, workers=picture_workers)
        #: The table each match's table message was last given, and its language.
        self._shown: dict[int, tuple[TableView, str]] = {}
        #: Per match, the rounds whose closed table a failed picture left to a text.
        self._closed_as_text: dict[int, set[int]] = {}
        self.bot_username = bot_username
        self.default_locale = default_locale
        self._user_locale = user_locale or (lambda _uid: None)
        self._locks: dict[int, asyncio.Lock] = {}
        self._published: dict[int, int] = {}
        self._books: dict[int, MatchMessages] = {}
        self._saving: dict[int, asyncio.Task] = {}
        #: Per match being saved: set when its books change, so the saving task stores
        #: what is known then instead of waiting for every send in flight to finish.
        self._wake: dict[int, asyncio.Event] = {}
        #: Per match: one write of its books at a time, each taken as the books are when
        #: its turn comes, so a write never lands after a newer one.
        self._writing: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        self._closed: set[int] = set()
        self._tasks: set[asyncio.Task] = set()
        #: Users whose DM answered 403 since they last pressed Start (set by the outbox hook).
        self.forbidden: set[int] = set()
        #: Called with every result published, before the chats' messages are queued: the
        #: open Mini App pages (:meth:`ui.webapp_hub.Pages.push`, issue 21).
        self.listeners: list[Callable[[Result], None]] = []

    # -- languages -------------------------------------------------------------------------

    async def chat_locale(self, chat_id: int) -> str:
        """The language of a match's chat: a group's language setting, else the default
        (issue 4, "Settings, languages"); a private chat (a solo match: its id is its user's,
        which no group's id ever is) speaks its person's language, as every reply there does
        (:meth:`user_locale`; issue 20 item 8)."""
        if await self.service.people.get_user(chat_id) is not None:
            return await self.user_locale(chat_id)
        info = await self.service.people.chat_info(chat_id)
        return choose_locale(is_group=True, chat_locale=info.language,
                             default=self.default_locale)

    async def user_locale(self, user_id: int) -> str:
        """A user's own choice (/lang in private), else their Telegram language (as this
        process last saw it, else as stored: a restart keeps it), else the default."""
        user = await self.service.people.get_user(user_id)
        code = self._user_locale(user_id) or (user.telegram_language if user else None)
        return choose_locale(is_group=False, user_locale=user.language if user else None,
                             telegram_code=code, default=self.default_locale)

    def link(self, payload: str | None = None) -> str:
        """Deep link into the bot's private chat, e.g. ``link("j12")``."""
        return deep_link(self.bot_username, payload)

    # -- bookkeeping -------------------------------------------------------------------------

    async def messages(self, match_id: int) -> MatchMessages:
        """What was sent for a match (read from the database the first time)."""
        books = self._books.get(match_id)
        if books is None:
            books = MatchMessages.from_json(await self.service.messages.load(match_id))
            books = self._books.setdefault(match_id, books)
        return books

    def _changed(self, match_id: int) -> None:
        """Store the match's message ids: now, and again as each send in flight is done."""
        self._dirty.add(match_id)
        wake = self._wake.get(match_id)
        if wake is not None:
            wake.set()
        if match_id not in self._saving:
            self._saving[match_id] = self._spawn(self._save(match_id))

    async def _save(self, match_id: int) -> None:
        """Store the books of ``match_id`` as its sends in flight are done, and whenever they
        change meanwhile, until nothing is in flight.  One slow send (the group's picture, a
        group send waiting for its minute) never holds back the others: the id of each is
        stored as it comes, its ``sending`` record gone in the same write, so the stored
        books never claim a send unaccounted for that is not (issue 20 item 15)."""
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
                    await self._store(match_id, books)
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
        self._shown.pop(match_id, None)
        self._closed_as_text.pop(match_id, None)
        self._closed.discard(match_id)
        self._published.pop(match_id, None)
        self._locks.pop(match_id, None)
        self._writing.pop(match_id, None)

    def _spawn(self, coro: Any) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def settled(self) -> None:
        """Wait until every message id in flight is stored (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def close(self) -> None:
        """Stop drawing pictures (shutdown; the picture drawer given to it is left alone)."""
        if self._own_pictures:
            self.pictures.close()

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
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            books = await self.messages(match_id)
            await self._publish(result, books, fresh, redo)
            if result.status not in (Status.LOBBY, Status.PLAYING):
                self._closed.add(match_id)
            self._changed(match_id)

    async def _publish(self, result: Result, books: MatchMessages, fresh: bool,
                       redo: bool = False) -> None:
        match_id = result.match_id
        version = result.version or 0
        await self._one_shots(result, books, fresh)
        if version >= self._published.get(match_id, -1):
            # (an older one: a newer state was already shown; only its one-shots count)
            self._published[match_id] = version
            if result.lobby is not None and result.table is None:
                await self._lobby(result, books)
                return
            if result.table is not None:
                await self._table(result, books, redo)
                await self._hands(result, books, redo)
        # the match end last: a group's queue is sent in order, so whoever reads it finds
        # the table above already closed with the last round's summary
        await self._match_end(result, books)

    # -- lobby -----------------------------------------------------------------------------

    async def _lobby(self, result: Result, books: MatchMessages) -> None:
        locale = await self.chat_locale(result.lobby.chat_id)
        lobby = localized(result.lobby, locale, self.tr)
        if lobby.status == Status.LOBBY:
            ttl = None
            if lobby.deadline_at is not None:
                ttl = max(1, round((lobby.deadline_at - self.service.clock()) / 60))
            text = render.render_lobby(locale, lobby, expires_minutes=ttl, tr=self.tr)
            markup = lobby_keyboard(locale, lobby.match_id, allow_bots=True,
                                    has_bots=any(p.bot for p in lobby.players), tr=self.tr)
        else:
            key = "lobby-expired" if lobby.status == Status.EXPIRED else "lobby-cancelled"
            text = self.tr.t(locale, key)
            markup = None
        if books.lobby:
            self.outbox.edit_text(lobby.chat_id, books.lobby, text, reply_markup=markup)
        elif lobby.status == Status.LOBBY:
            books.lobby = self.outbox.send(lobby.chat_id, text, reply_markup=markup,
                                           **_thread(lobby.thread_id))
            books.lobby_chat = lobby.chat_id
        else:
            self.outbox.send(lobby.chat_id, text, **_thread(lobby.thread_id))

    # -- the table in the group ------------------------------------------------------------

    async def _table(self, result: Result, books: MatchMessages, redo: bool = False) -> None:
        info = await self.service.people.chat_info(result.table.chat_id)
        locale = await self.chat_locale(result.table.chat_id)
        result = localized(result, locale, self.tr)
        table = result.table
        picture = table_view(info) == "picture"
        if books.lobby and not books.lobby_closed:
            self.outbox.edit_text(table.chat_id, books.lobby,
                                  self.tr.t(locale, "lobby-started"), reply_markup=None)
            books.lobby_closed = True
        shown = books.table_round
        if books.table and shown is not None and shown != table.round_no:
            # the round on that message is over: show it closed, with its summary
            closed = result.closed
            if (books.table_closed != shown or redo) and closed is not None \
                    and closed.round_no == shown:
                self._show_table(books, closed, locale, picture=picture)
                books.table_closed = shown
            if not table.layout.line:
                # the new round opens its table with the lead; until then the closed table
                # is the group's last word (the leader has their keyboard already)
                return
            books.table = None
        self._show_table(books, table, locale, picture=picture)

    def _show_table(self, books: MatchMessages, table: TableView, locale: str, *,
                    picture: bool) -> None:
        """Make the round's table message show ``table``: edit it in its kind (the picture
        and its caption, or the text), or send it (a photo when ``picture``)."""
        chat = table.chat_id
        self._shown[table.match_id] = (table, locale)
        markup = self._table_markup(table, locale)
        if books.table and books.table_photo:
            ref = books.table
            self.outbox.edit_media(chat, ref, self.pictures.source(table, locale),
                                   caption=render_caption(locale, table, tr=self.tr),
                                   on_failed=self._on_photo_failed(table, locale, ref),
                                   **markup)
        elif books.table:
            self.outbox.edit_text(chat, books.table,
                                  render.render_table(locale, table, tr=self.tr), **markup)
        else:
            thread = _thread(table.thread_id)
            if picture:
                holder: list[MessageRef] = []
                books.table = self.outbox.send_photo(
                    chat, self.pictures.source(table, locale),
                    caption=render_caption(locale, table, tr=self.tr),
                    on_failed=lambda: self._photo_failed(table, locale, holder[0]),
                    **thread, **markup)
                holder.append(books.table)
            else:
                books.table = self.outbox.send(
                    chat, render.render_table(locale, table, tr=self.tr), **thread, **markup)
            books.table_photo = picture
            books.table_round = table.round_no
            books.table_chat = chat

    def _table_markup(self, table: TableView, locale: str) -> dict[str, Any]:
        """The group table's keyboard as ``reply_markup`` keyword arguments: a URL button
        with the Mini App's direct link while the round is played (issue 21; a group cannot
        carry a ``web_app`` button), nothing without a configured Mini App."""
        if not self.webapp_short_name or table.status != Status.PLAYING \
                or table.summary is not None:
            return {}
        link = webapp_link(self.bot_username, self.webapp_short_name, table.match_id)
        return {"reply_markup": webapp_keyboard(locale, link=link, tr=self.tr)}

    def _idle_markup(self, match_id: int, locale: str) -> Any:
        """The keyboard of a hand message while it is not the player's turn: the button
        that opens the Mini App (issue 21), or None (none configured)."""
        if not self.webapp_url:
            return None
        return webapp_keyboard(locale, page=webapp_page(self.webapp_url, match_id),
                               tr=self.tr)

    def _on_photo_failed(self, table: TableView, locale: str, ref: MessageRef
                         ) -> Callable[[], None]:
        return lambda: self._photo_failed(table, locale, ref)

    def _photo_failed(self, table: TableView, locale: str, ref: MessageRef) -> None:
        """The picture ``table`` was to show on the photo ``ref`` failed: the round goes on as
        text (the photo deleted, the latest table sent as text in its place); a closing
        picture that failed after the next round's table came (or whose photo never came) is
        sent as a text of its own, once.  Nothing of the round is lost."""
        books = self._books.get(table.match_id)
        if books is None:
            return
        texts = self._closed_as_text.setdefault(table.match_id, set())
        chat, thread = table.chat_id, _thread(table.thread_id)
        shown = ref_id(ref) is not None  # a photo that was sent and is to go
        current = books.table_photo and books.table_round == table.round_no and (
            books.table is ref or ref_id(books.table) is not None
            and ref_id(books.table) == ref_id(ref))
        if current:
            latest, latest_locale = self._shown.get(table.match_id, (table, locale))
            log.warning("match %s: the table picture failed; round %s goes on as text",
                        table.match_id, table.round_no)
            if shown:
                self.outbox.delete(chat, ref)
            books.table = self.outbox.send(
                chat, render.render_table(latest_locale, latest, tr=self.tr), **thread)
            books.table_photo = False
            if latest.summary is not None:
                texts.add(latest.round_no)
            self._changed(table.match_id)
        elif table.summary is not None and table.round_no not in texts:
            texts.add(table.round_no)
            log.warning("match %s: the closing picture of round %s failed; sent as text",
                        table.match_id, table.round_no)
            if shown:
                self.outbox.delete(chat, ref)
            self.outbox.send(chat, render.render_table(locale, table, tr=self.tr), **thread)

    async def _one_shots(self, result: Result, books: MatchMessages, fresh: bool) -> None:
        """For a ``fresh`` change, a round summary when no table message of that round exists
        (normally the table, closed, carries it) and the notice of a stopped match; the
        question about a player's timeouts (the match end: :meth:`_match_end`)."""
        if result.table is None:
            return
        locale = await self.chat_locale(result.table.chat_id)
        stored, result = result, localized(result, locale, self.tr)
        table = result.table
        names = [s.name for s in table.seats]
        sides = [s.side for s in table.seats]
        thread = _thread(table.thread_id)
        for summary in result.rounds if fresh else ():
            if not (books.table and books.table_round == summary.round_no):
                self.outbox.send(table.chat_id, render.render_round_summary(
                    locale, summary, names, sides, tr=self.tr), **thread)
        if fresh and result.handed is not None:
            self._handed(stored, books, locale, thread)
        self._question(result, books, locale, thread)
        if fresh and result.status == Status.STOPPED:
            self.outbox.send(table.chat_id, self.tr.t(locale, "match-stopped"), **thread)

    async def _match_end(self, result: Result, books: MatchMessages) -> None:
        """The match end as a new group message, once (``books.end`` records it, so a publish
        repeated after a restart sends it if and only if it was not sent).  Queued after
        the closing table of the last round, so the group gets the round's summary before
        the end (RULES.md §1.15) and the end is the match's last word."""
        final = result.final
        if result.table is None or result.status != Status.FINISHED or final is None \
                or books.end is not None:
            return
        locale = await self.chat_locale(result.table.chat_id)
        table = result.table
        final = localized(result, locale, self.tr).final
        markup = rematch_keyboard(locale, table.match_id, tr=self.tr)
        markup.inline_keyboard.append([records.record_button(locale, table.match_id,
                                                             tr=self.tr)])
        books.end = self.outbox.send(
            table.chat_id, render.render_match_end(locale, final, tr=self.tr),
            reply_markup=markup, **_thread(table.thread_id))

    def _handed(self, result: Result, books: MatchMessages, locale: str,
                thread: dict[str, Any]) -> None:
        """A person's seat went to a computer player (issue 15): the group is told, and the
        person's hand message loses its keyboard and says they left."""
        handed = result.handed
        chat = result.table.chat_id
        afk = handed.why == "afk"  # the group's choice after the timeouts, not the person's
        if not afk:  # the group's answer to its question says it (``hold-bot``)
            self.outbox.send(chat, self.tr.t(locale, "leave-notice", name=render.clean_name(
                handed.name), bot=render.clean_name(localize_name(handed.bot, locale, self.tr))),
                **thread)
        old = books.hands.pop(handed.user_id, None)
        if old is not None:
            self._spawn(self._left_hand(handed.user_id, old.message, handed.bot,
                                        "leave-done-afk" if afk else "leave-done"))

    async def _left_hand(self, user_id: int, message: Any, bot: str, key: str) -> None:
        locale = await self.user_locale(user_id)
        bot = localize_name(bot, locale, self.tr)
        self.outbox.edit_text(user_id, message, self.tr.t(locale, key,
                                                          bot=render.clean_name(bot)),
                              reply_markup=None)

    def _question(self, result: Result, books: MatchMessages, locale: str,
                  thread: dict[str, Any]) -> None:
        """The group's question about a player's timeouts (``Result.hold``), asked once per
        question; once answered, the question's message shows the answer instead."""
        hold, chat = result.hold, result.table.chat_id
        if hold is not None:
            if books.hold_version == hold.version:
                return
            seconds = max(1, round((hold.deadline_at or 0) - self.service.clock()))
            books.hold = self.outbox.send(
                chat, records.render_hold(locale, hold, seconds, tr=self.tr),
                reply_markup=records.hold_keyboard(locale, hold, result.match_id, tr=self.tr),
                **thread)
            books.hold_version, books.hold_name = hold.version, hold.name
            return
        if books.hold is None:
            return
        key = ("hold-bot" if result.handed is not None else
               "hold-end" if result.status == Status.FINISHED else
               "match-stopped" if result.status == Status.STOPPED else "hold-back")
        self.outbox.edit_text(chat, books.hold, self.tr.t(
            locale, key, name=render.clean_name(books.hold_name or "?")), reply_markup=None)
        books.hold = books.hold_version = books.hold_name = None

    # -- hands in private ------------------------------------------------------------------

    async def _hands(self, result: Result, books: MatchMessages, redo: bool = False) -> None:
        table = result.table
        version = table.version
        round_no = table.round_no
        events = result.events
        touched = {e.get("seat") for e in events if e["kind"] in ("drew", "knocked",
                                                                   "host_moved")}
        # seats that placed a tile of this change by their own press (not the host, §1.17)
        pressed = {e["seat"] for e in events if e["kind"] in ("led", "played")} - {
            e["seat"] for e in events if e["kind"] == "host_moved"}
        # however the match closed (played out, stopped, the bot removed), every seat's hand
        # message says so (issue 20 item 3)
        finished = result.status in (Status.FINISHED, Status.STOPPED)
        for seat, hand in zip(table.seats, result.hands, strict=True):
            uid = seat.user_id
            if uid <= 0:
                continue  # computer players have no private chat
            old = books.hands.get(uid)
            locale = await self.user_locale(uid)
            text = compose.hand_text(locale, localized(hand, locale, self.tr),
                                     localized(table, locale, self.tr), tr=self.tr)
            idle = None if finished else self._idle_markup(table.match_id, locale)
            for message in list(books.retired.get(uid, ())) if redo else ():
                # a restart: closing it was cut short
                self._retire(books, table.match_id, uid, message, locale)
            if hand.your_turn:
                markup = self._hand_keyboard(table.match_id, version, hand.legal, uid, locale)
                if old and old.version == version and old.live:
                    if redo and old.unsure:
                        # a restart: the books say it holds this keyboard, but a SIGKILL came
                        # before the edit that puts it there was known to be made
                        # (:meth:`_put_keyboard`); it is made now (an edit to what it shows
                        # already counts as done)
                        self._put_keyboard(books, table.match_id, uid, old, text, markup)
                    # else it already holds the keyboard for this version (maybe a move half
                    # built in it, which a restart keeps)
                    continue
                if old and old.live and seat.seat in pressed:
                    # the player is looking at the message they just pressed: their next turn
                    # (everyone else knocked, or they lead the new round, §1.6) goes there
                    hand_message = HandMessage(old.message, version, round_no, True)
                    books.hands[uid] = hand_message
                    self._put_keyboard(books, table.match_id, uid, hand_message, text, markup)
                    continue
                if old and old.live:  # the new message below takes the turn (issue 20 item 6)
                    self._retire(books, table.match_id, uid, old.message, locale)
                self._send_hand(books, table, seat, text, markup, version, live=True)
            elif old and (old.live or redo):
                self.outbox.edit_text(uid, old.message, text, reply_markup=idle)
                books.hands[uid] = HandMessage(old.message, version, round_no, False)
            elif not old:
                self._send_hand(books, table, seat, text, idle, version, live=False)
            elif old.round_no != round_no or seat.seat in touched or finished:
                # a new round's hand replaces the last one in place: no notification while
                # it is not this player's turn
                self.outbox.edit_text(uid, old.message, text, reply_markup=idle)
                books.hands[uid] = HandMessage(old.message, version, round_no, False)

    def _send_hand(self, books: MatchMessages, table: TableView, seat: SeatView, text: str,
                   markup: Any, version: int, *, live: bool) -> None:
        """A new hand message; if the player's DM turns out closed (403), the group is told.

        One with the turn's keyboard (``live``) is recorded before it is sent: the books,
        with the newest message id known in that chat (``MatchMessages.sending``: what any
        match's books hold there, or what the outbox sent there since it started), are
        stored first, and the send waits for that.  A SIGKILL between the send and the
        storing of its id thus leaves a trace, and the restart closes whatever came after
        that id (:meth:`heal`), so no keyboard the books never learnt of stays live beside
        the new one (issue 20 item 15)."""
        uid = seat.user_id
        after = None
        newest = getattr(self.outbox, "newest", {}).get(uid, 0)  # what this process sent there
        floor = max(self._known_ids(uid, books) | {newest})
        if live and floor > 0:  # (with no id known in that chat, nothing marks where to look)
            books.sending[uid] = floor
            after = self._spawn(self._store(table.match_id, books))
        sent = self.outbox.send(uid, text, reply_markup=markup, after=after)
        books.hands[uid] = HandMessage(sent, version, table.round_no, live)

        def done(future: asyncio.Future) -> None:
            if future.cancelled():
                return
            if future.result() is None:
                self._spawn(self._dm_closed(table, seat))
            elif seat.user_id in books.dm_notices or seat.user_id in books.dm_notice_msgs:
                self._spawn(self._dm_reached(table, seat.user_id))

        sent.add_done_callback(done)

    def _put_keyboard(self, books: MatchMessages, match_id: int, user_id: int,
                      hand: HandMessage, text: str, markup: Any) -> None:
        """Edit the known hand message ``hand`` to ``text`` with the turn's keyboard
        ``markup``; until the edit is made the books hold it as ``unsure``, so a restart after
        a SIGKILL makes it again (:meth:`heal`) instead of trusting a keyboard that may not be
        there."""
        hand.unsure = True
        edit = self.outbox.edit_text(user_id, hand.message, text, reply_markup=markup)

        def done(future: asyncio.Future) -> None:
            if future.cancelled() or future.result() is None:
                return  # not made: the next start makes it
            if books.hands.get(user_id) is hand:
                hand.unsure = False
                self._changed(match_id)

        edit.add_done_callback(done)

    async def _store(self, match_id: int, books: MatchMessages) -> bool:
        """Store the books as they are when no other write of this match's books is under
        way (so the stored books are never older than the last write asked for); False,
        and logged, if that failed (a send waiting for it goes ahead)."""
        async with self._writing.setdefault(match_id, asyncio.Lock()):
            try:
                await self.service.messages.save(match_id, books.to_json())
            except Exception:
                log.exception("storing the message ids of match %s failed", match_id)
                return False
        return True

    def _known_ids(self, user_id: int, books: MatchMessages) -> set[int]:
        """The ids of the messages in ``user_id``'s private chat that the books of every
        match in memory know, ``books`` included."""
        known = set(books.known_ids(user_id))
        for other in self._books.values():
            known |= other.known_ids(user_id)
        return known

    def _close_strays(self, books: MatchMessages, user_id: int, floor: int) -> None:
        """A restart: a hand message with a keyboard was being sent to ``user_id`` when the
        last process died, after message ``floor`` of that chat, and its id was never
        stored.  The first :data:`STRAY_PROBE` ids after ``floor`` that no match's books
        know lose their keyboards (a person's own message, or an id not used yet, refuses
        the edit, and nothing changes), before anything new is sent there."""
        known = self._known_ids(user_id, books)
        for mid in range(floor + 1, floor + 1 + STRAY_PROBE):
            if mid not in known:
                self.outbox.edit_markup(user_id, mid, None)

    async def _dm_closed(self, table: TableView, seat: SeatView) -> None:
        """A player's DM is closed (403): tell the group, with a button that opens it (once
        per round)."""
        if seat.user_id not in self.forbidden:
            return
        books = await self.messages(table.match_id)
        if books.dm_notices.get(seat.user_id) == table.round_no:
            return
        locale = await self.chat_locale(table.chat_id)
        url = self.link(f"h{table.match_id}")
        books.dm_notices[seat.user_id] = table.round_no
        books.dm_notice_msgs[seat.user_id] = self.outbox.send(
            table.chat_id, self.tr.t(locale, "notice-dm-closed", name=seat.name),
            reply_markup=dm_keyboard(locale, url, tr=self.tr), **_thread(table.thread_id))
        self._changed(table.match_id)

    async def _dm_reached(self, table: TableView, user_id: int) -> None:
        """A hand reached a player the group was told gets none (issue 20 item 6): the
        notice is out of date and leaves the group (the next closed DM tells it again)."""
        async with self._locks.setdefault(table.match_id, asyncio.Lock()):
            books = await self.messages(table.match_id)
            books.dm_notices.pop(user_id, None)
            ref = books.dm_notice_msgs.pop(user_id, None)
            if ref is not None:
                self.outbox.delete(table.chat_id, ref)
            self._changed(table.match_id)

    async def bot_removed(self, results: Sequence[Result], title: str | None) -> None:
        """The bot was removed from a group (issue 20 item 2) and ``results`` are its matches
        that closed (``Service.bot_removed``): nothing goes to the group, which the bot can no
        longer write to, but every person seated in a dealt match is told in private, and
        their hand messages close (no live buttons).  A lobby that never dealt sent nobody
        anything in private, so nobody is told of it."""
        for res in results:
            if res.table is None or res.match_id is None:
                continue
            async with self._locks.setdefault(res.match_id, asyncio.Lock()):
                books = await self.messages(res.match_id)
                self._published[res.match_id] = res.version or 0
                await self._hands(res, books)
                for seat in res.table.seats:
                    if seat.user_id > 0 and seat.user_id not in self.forbidden:
                        locale = await self.user_locale(seat.user_id)
                        self.outbox.send(seat.user_id, self.tr.t(
                            locale, "notice-bot-removed", chat=render.clean_name(title or "—"),
                            id=res.match_id))
                self._closed.add(res.match_id)
                self._changed(res.match_id)

    # -- start-up, private chats, stale buttons, migrations ----------------------------------

    async def heal(self) -> None:
        """Start-up: show every open match as it is — every message the books know edited to
        it, every hand message a newer one replaced closed (``redo``), and first the few
        messages after a keyboard's recorded send whose id was never stored closed
        (:meth:`_close_strays`) — and announce the end of any match that finished without its
        end message, so a crash between a commit and its publish, or between a request and
        its bookkeeping, heals itself."""
        opened = await self.service.store.open_matches()
        loaded = [await self.messages(res.match_id) for res in opened
                  if res.match_id is not None]
        for books in loaded:
            # a keyboard was being sent when the last process died: closed before anything
            # new is sent (every match's books are read first: what any of them knows is
            # never touched)
            for uid, floor in list(books.sending.items()):
                self._close_strays(books, uid, floor)
            books.sending.clear()
        for res in opened:
            await self.publish(res, fresh=False, redo=True)
        since = self.service.clock() - END_LOOKBACK
        for match_id, stored in await self.service.store.finished_since(since):
            books = self._books.get(match_id) or MatchMessages.from_json(stored)
            if books.table and books.end is None:
                await self.publish(await self.service.store.view(match_id), fresh=False)

    async def heal_chat(self, chat_id: int) -> None:
        """A chat taken over from another worker of a cluster: show its open matches as they
        are, and announce the end of a match of it that finished without its end message
        (the worker that showed them before may have died between a commit and its
        publish)."""
        for res in await self.service.store.open_matches(chat_id=chat_id):
            await self.publish(res, fresh=False)
        since = self.service.clock() - END_LOOKBACK
        for match_id, stored in await self.service.store.finished_since(since, chat_id=chat_id):
            books = self._books.get(match_id) or MatchMessages.from_json(stored)
            if books.table and books.end is None:
                await self.publish(await self.service.store.view(match_id), fresh=False)

    async def resend_hand(self, result: Result, user_id: int) -> bool:
        """/hand or a Start pressed after a 403: a fresh hand message for ``user_id`` (with the
        keyboard when it is their turn), the old keyboard removed.  False if not seated."""
        if result.table is None or result.hand_for(user_id) is None:
            return False
        async with self._locks.setdefault(result.match_id, asyncio.Lock()):
            books = await self.messages(result.match_id)
            old = books.hands.pop(user_id, None)
            if old is not None and old.live:
                self._retire(books, result.match_id, user_id, old.message,
                             await self.user_locale(user_id))
        await self.publish(await self.service.store.view(result.match_id), fresh=False)
        return True

    async def refused(self, result: Result, user_id: int, chat_id: int,
                      message_id: int, pressed_version: int | None = None, *,
                      had_keyboard: bool = True) -> None:
        """A press on ``message_id`` was refused as outdated, out of turn or on a closed match:
        unless that message holds the player's live keyboard, close it, so only the live one
        remains (a closed match keeps none); if it is the one the books hold and it shows a
        keyboard of an older version (``pressed_version``, as Telegram sent it with the
        press), it shows the state anew: its last edit was lost to a SIGKILL, and it would
        answer «outdated» for ever.  A message that
        showed no keyboard (a forged press) is left as it is."""
        hand = result.hand_for(user_id)
        if hand is None or chat_id != user_id:  # a hand message lives in its owner's chat
            return
        if result.status != Status.PLAYING:  # a closed match keeps no keyboard
            self.outbox.edit_markup(chat_id, message_id, None)
            return
        async with self._locks.setdefault(result.match_id, asyncio.Lock()):
            books = await self.messages(result.match_id)
            live = books.hands.get(user_id)
            locale = await self.user_locale(user_id)
            if not (live and ref_id(live.message) == message_id):
                if not had_keyboard:
                    return
                # a keyboard the books do not know (a send whose id a SIGKILL kept from being
                # stored): closed now that it shows itself (issue 20 item 15)
                self._close_unknown(result, user_id, chat_id, message_id, locale)
            elif result.table is not None and result.error == ErrorCode.STALE \
                    and pressed_version is not None and pressed_version < result.table.version:
                # the books' own message showed an older keyboard than they say (an edit a
                # SIGKILL cut short): show it as it is now
                table = result.table
                text = compose.hand_text(locale, hand, table, tr=self.tr)
                markup = (self._hand_keyboard(table.match_id, table.version, hand.legal,
                                              user_id, locale) if hand.your_turn else None)
                self.outbox.edit_text(chat_id, live.message, text, reply_markup=markup)
                books.hands[user_id] = HandMessage(live.message, table.version, table.round_no,
                                                   hand.your_turn)
                self._changed(result.match_id)

    def _close_unknown(self, result: Result, user_id: int, chat_id: int, message_id: int,
                       locale: str) -> None:
        """Close a pressed hand message that is not the one the books hold: it points to the
        newer one on the player's turn, else it shows the hand as it is, without buttons."""
        hand, table = result.hand_for(user_id), result.table
        if hand is None or table is None or hand.your_turn:
            self._moved_on(chat_id, message_id, locale)
        else:
            self.outbox.edit_text(chat_id, message_id,
                                  compose.hand_text(locale, hand, table, tr=self.tr),
                                  reply_markup=None)

    async def accepted(self, result: Result, user_id: int, chat_id: int,
                       message_id: int) -> None:
        """A move pressed on ``message_id`` was accepted and published: if that message is
        not the hand message the books hold (an orphan of a restart), it is closed, so one
        keyboard stays live (issue 20 item 15)."""
        if result.match_id is None or result.hand_for(user_id) is None or chat_id != user_id:
            return
        async with self._locks.setdefault(result.match_id, asyncio.Lock()):
            books = await self.messages(result.match_id)
            live = books.hands.get(user_id)
            if live is None or ref_id(live.message) in (None, message_id):
                return
            newest = await self.service.store.view(result.match_id)
            self._close_unknown(newest if newest.ok else result, user_id, chat_id,
                                message_id, await self.user_locale(user_id))

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
        turn's keyboard (the hand was sent again: /hand, /start, a restart), the pressed one
        takes over and the other loses its keyboard, so one keyboard stays live."""
        hand = result.hand_for(user_id)
        table = result.table
        if table is None or hand is None or not hand.your_turn:
            return False
        async with self._locks.setdefault(result.match_id, asyncio.Lock()):
            if self._published.get(result.match_id, -1) > (result.version or 0):
                return False
            books = await self.messages(result.match_id)
            old = books.hands.get(user_id)
            ref: Any = message_id
            locale = await self.user_locale(user_id)
            if old is not None and ref_id(old.message) == message_id:
                ref = old.message
            elif old is not None and old.live:
                self._retire(books, result.match_id, user_id, old.message, locale)
            books.hands[user_id] = HandMessage(ref, table.version, table.round_no, True)
            self._changed(result.match_id)
            text = compose.hand_text(locale, localized(hand, locale, self.tr),
                                     localized(table, locale, self.tr), chosen=chosen,
                                     tr=self.tr)
            if chosen is None:
                markup = self._hand_keyboard(table.match_id, table.version, hand.legal,
                                             user_id, locale)
            else:
                markup = compose_keyboard(table.match_id, table.version, hand.legal, chosen,
                                          locale=locale, tr=self.tr)
            self.outbox.edit_text(chat_id, ref, text, reply_markup=markup)
        return True

    def _moved_on(self, chat_id: int, message: Any, locale: str) -> asyncio.Future:
        """An old hand message whose keyboard another message took over: it no longer says
        «▶️ Ваш ход!» without buttons, but points to the newer one (issue 20 item 6)."""
        return self.outbox.edit_text(chat_id, message, self.tr.t(locale, "hand-moved-on"),
                                     reply_markup=None)

    def _retire(self, books: MatchMessages, match_id: int, user_id: int, message: Any,
                locale: str) -> None:
        """Close the hand message ``message`` of ``user_id`` that a newer one replaces
        (:meth:`_moved_on`).  Until that edit is made the books keep it among the messages
        still to close (``MatchMessages.retired``, stored with the match before anything is
        sent, :meth:`_save`), so a restart after a SIGKILL closes it instead of leaving a
        second live keyboard (issue 20 item 15)."""
        waiting = books.retired.setdefault(user_id, [])
        if not any(m is message or ref_id(m) == ref_id(message) is not None for m in waiting):
            waiting.append(message)
        edit = self._moved_on(user_id, message, locale)

        def done(future: asyncio.Future) -> None:
            if future.cancelled():
                return  # shutting down: the next start closes it
            left = [m for m in books.retired.get(user_id, ()) if m is not message
                    and (ref_id(m) is None or ref_id(m) != ref_id(message))]
            if left:
                books.retired[user_id] = left
            else:
                books.retired.pop(user_id, None)
            self._changed(match_id)

        edit.add_done_callback(done)

    def _hand_keyboard(self, match_id: int, version: int, legal: Any, user_id: int,
                       locale: str) -> Any:
        """A hand's move buttons (:func:`ui.keyboards.hand_keyboard`) with the button that
        leaves the match under them (issue 15)."""
        markup = hand_keyboard(match_id, version, legal, locale=locale, tr=self.tr)
        markup.inline_keyboard.append(records.leave_button(locale, match_id, user_id,
                                                           tr=self.tr))
        if self.webapp_url:  # beside today's buttons, which stay (issue 21)
            markup.inline_keyboard[-1].append(webapp_button(
                locale, page=webapp_page(self.webapp_url, match_id), tr=self.tr))
        return markup

    async def chat_migrated(self, match_id: int, new_chat_id: int) -> None:
        """The match's group became the supergroup ``new_chat_id``: the old group's messages
        cannot be edited there, so the lobby and the table are shown anew (a message the
        outbox already sent to the supergroup is kept)."""
        async with self._locks.setdefault(match_id, asyncio.Lock()):
            books = await self.messages(match_id)
            books.settle()
            if books.table_chat != new_chat_id:
                books.table = books.table_round = books.table_chat = None
            if books.lobby_chat != new_chat_id:
                books.lobby, books.lobby_closed, books.lobby_chat = None, False, None
            self._changed(match_id)
        res = await self.service.store.view(match_id)
        if res.ok:
            await self.publish(res, fresh=False)


def _thread(thread_id: int | None) -> dict[str, Any]:
    return {"message_thread_id": thread_id} if thread_id else {}
