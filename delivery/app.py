"""The application as the handlers see it: one :class:`App`, wired once by :func:`wire`.

Every field of an :class:`App` is set when it is made and typed; nothing is filled in later.
The handlers call its verbs — :meth:`App.publish` a result, :meth:`App.reply` to a message,
:meth:`App.say` / :meth:`App.edit` / :meth:`App.edit_markup` / :meth:`App.send_document` in a
chat, :meth:`App.dm_opened` when a person presses Start — and never reach the outbox or the
publisher's books.  A worker of a cluster (a webhook over PostgreSQL, ``docs/SCALE_OUT.md``)
has its :class:`service.cluster.Cluster` as ``cluster``; the single process has none, and
nothing of the cluster is made for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot
from aiogram.types import Chat, Message, ReplyParameters, User

from delivery.admins import Admins
from delivery.books import Books, MatchMessages
from delivery.languages import Languages
from delivery.lifecycle import Lifecycle
from delivery.outbox import Outbox
from delivery.pages import Pages
from delivery.pictures import TablePictures
from delivery.post import Links, Post
from delivery.publisher import Publisher
from delivery.reach import Reach
from delivery.settings import Settings
from delivery.telegram import count_calls
from service.cluster import Cluster, WorkerOptions
from service.game import GameService
from service.views import ErrorCode, Result, Status
from ui.i18n import Translator, get_translator

__all__ = ["App", "clustered", "wire"]

log = logging.getLogger(__name__)

#: Seconds between two looks, while a worker stops, for chats with nothing left to send.
_HAND_BACK_EVERY = 0.05

#: Which text answers which service error (issue 4: every bad press gets a clear answer).
ERROR_KEYS: dict[ErrorCode, str] = {
    ErrorCode.NOT_FOUND: "err-no-game",
    ErrorCode.ALREADY_OPEN: "err-game-exists",
    ErrorCode.WRONG_STATUS: "err-lobby-closed",
    ErrorCode.ALREADY_JOINED: "err-already-joined",
    ErrorCode.LOBBY_FULL: "err-game-full",
    ErrorCode.NOT_ENOUGH_PLAYERS: "err-need-players",
    ErrorCode.NOT_CREATOR: "err-only-creator-or-admin",
    ErrorCode.NOT_IN_GAME: "err-not-in-game",
    ErrorCode.NOT_YOUR_TURN: "err-not-your-turn",
    ErrorCode.STALE: "err-stale-button",
    ErrorCode.BAD_MOVE: "err-stale-button",
    ErrorCode.BAD_RULES: "err-unexpected",
    ErrorCode.CHAT_INACTIVE: "err-no-game",
    ErrorCode.BAD_STRENGTH: "err-bad-strength",
    ErrorCode.TOO_MANY_PLAYERS: "err-game-full",
}


@dataclass(eq=False)
class App:
    """What the handlers share (the dispatcher's ``app``): the ``service``; the translator
    ``tr``; the ``outbox`` every message leaves through; the message-id ``books``; the
    ``publisher`` (its verbs for hand messages: ``accepted``, ``refused``, ``show_move``,
    ``resend_hand``, ``chat_migrated``, ``bot_removed``, ``heal``); who speaks which
    language (``languages``); who blocked the bot (``reach``); who administers which group
    (``admins``); the ``links``; the open Mini App ``pages`` (None without a Mini App); this
    worker's ``cluster`` (None in a single process); ``settings``; the process's ``life``
    (the updates in hand, the loops it needs, its stop: :class:`delivery.lifecycle.
    Lifecycle`)."""

    service: GameService
    tr: Translator
    outbox: Outbox
    books: Books
    publisher: Publisher
    languages: Languages
    reach: Reach
    links: Links
    settings: Settings
    pages: Pages | None = None
    cluster: Cluster | None = None
    admins: Admins = field(default_factory=Admins)
    life: Lifecycle = field(default_factory=Lifecycle)
    _closed: bool = field(default=False, init=False, repr=False)

    # -- what the settings say -------------------------------------------------------------

    @property
    def bot_username(self) -> str:
        return self.links.bot_username

    @property
    def default_locale(self) -> str:
        return self.settings.default_locale

    @property
    def turn_timeout(self) -> int:
        """Seconds a turn lasts where a chat chose none (RULES.md §1.17)."""
        return self.settings.turn_timeout

    @property
    def rules_url(self) -> str | None:
        """Where the rule book can be read (``RULES_URL``), or None."""
        return self.settings.rules_url

    # -- languages -------------------------------------------------------------------------

    async def remember(self, user: User | None) -> None:
        """Note the language Telegram reports for ``user`` (:class:`delivery.languages.
        Languages`)."""
        await self.languages.remember(user)

    async def locale_for(self, chat: Chat | None, user: User | None) -> str:
        """Groups speak the chat's language; private chats (and updates without a chat) the
        user's (issue 4)."""
        return await self.languages.of_update(chat, user)

    # -- the verbs -------------------------------------------------------------------------

    async def publish(self, result: Result) -> None:
        """Show an accepted change in its group, its players' private chats and its pages."""
        await self.publisher.publish(result)

    def say(self, chat_id: int, text: str, **kwargs: Any) -> asyncio.Future:
        """Write ``text`` in a chat through the outbox (``kwargs`` as ``send_message``'s),
        so that the chat's rate limits count it; the future gives the sent message or
        None."""
        return self.outbox.send(chat_id, text, **kwargs)

    def reply(self, message: Message, text: str, **kwargs: Any) -> asyncio.Future:
        """Answer ``message`` in its chat (in its forum topic, quoting it), through the
        outbox; ``kwargs`` as ``send_message``'s."""
        if message.is_topic_message and message.message_thread_id:
            kwargs.setdefault("message_thread_id", message.message_thread_id)
        kwargs.setdefault("reply_parameters", ReplyParameters(
            message_id=message.message_id, allow_sending_without_reply=True))
        return self.outbox.send(message.chat.id, text, **kwargs)

    def edit(self, chat_id: int, message_id: int, text: str, **kwargs: Any) -> asyncio.Future:
        """Edit a message's text (and, with ``reply_markup``, its keyboard; without it the
        keyboard goes), through the outbox."""
        return self.outbox.edit_text(chat_id, message_id, text, **kwargs)

    def edit_markup(self, chat_id: int, message_id: int, markup: Any = None) -> asyncio.Future:
        """Change (None: remove) a message's keyboard, through the outbox."""
        return self.outbox.edit_markup(chat_id, message_id, markup)

    def send_document(self, chat_id: int, document: Any, **kwargs: Any) -> asyncio.Future:
        """Send a file (a game record) through the outbox; the future gives the sent message,
        or None (a private chat that refused it included)."""
        return self.outbox.send_document(chat_id, document, **kwargs)

    async def taken(self, chat_id: int) -> None:
        """A worker of a cluster took ``chat_id`` from another worker: its group window is
        restored, its matches shown as they are, and its deadlines are this worker's now."""
        await self.outbox.restore(chat_id)
        await self.publisher.heal_chat(chat_id)
        self.service.play.wake.set()

    def dm_opened(self, user_id: int) -> None:
        """The person pressed Start: their private chat may take the bot's messages again."""
        self.reach.opened(user_id)

    async def messages(self, match_id: int) -> MatchMessages:
        """What was sent for a match (to quote its lobby, table or hand message)."""
        return await self.books.of(match_id)

    def link(self, payload: str | None = None) -> str:
        """Deep link into the bot's private chat, e.g. ``link("j12")``."""
        return self.links.deep(payload)

    def error_text(self, locale: str, result: Result) -> str:
        """The localized answer to a refused operation (too few players: the count the
        lobby's game needs, RULES.md §1.1, §1.14, §2; a closed match: that it is closed,
        not the lobby's text)."""
        lobby = result.lobby
        if result.error == ErrorCode.NOT_ENOUGH_PLAYERS and lobby is not None and \
                lobby.min_players == lobby.max_players:  # teams, sport domino, Генерал
            return self.tr.plain(locale, "err-need-players-range", min=lobby.min_players,
                                 max=lobby.max_players, need="exact")
        if result.error == ErrorCode.WRONG_STATUS and result.table is not None \
                and result.status not in (Status.LOBBY, Status.PLAYING):
            # a dealt match that closed, not a lobby (issue 20 item 2)
            return self.tr.plain(locale, "err-match-closed")
        return self.tr.plain(locale, ERROR_KEYS.get(result.error, "err-unexpected"))

    # -- the end ---------------------------------------------------------------------------

    async def close(self, timeout: float | None = None) -> None:
        """Send what the outbox holds (for at most ``timeout`` seconds: what is left then is
        dropped -- the chats are shown anew from the database by the next start, or by the
        worker that takes them), store the message ids in flight, then (a worker) hand the
        chats back, and stop the outbox, the picture processes and the service.  Once: a
        second call does nothing."""
        if self._closed:
            return
        self._closed = True
        if self.pages is not None:
            self.pages.close_all()
        try:  # what pages held back is shown before the outbox is sent out
            await asyncio.wait_for(self.publisher.flush(), timeout)
        except TimeoutError:
            log.warning("stopping before the chats held back for pages were shown")
        if self.cluster is not None:
            left = await self._drain_handing_back(timeout)
        else:
            left = await self.outbox.drain(timeout)
        if left:
            log.warning("stopping with %d messages unsent: the next owner shows the chats "
                        "anew", left)
        await self.publisher.settled()
        if self.cluster is not None:
            await self.cluster.stop()
        await self.outbox.close()
        self.publisher.pictures.close()
        await self.service.close()


    async def _drain_handing_back(self, timeout: float | None) -> int:
        """A worker's stop: send what the outbox holds (at most ``timeout`` seconds) and hand
        each chat back to the cluster as soon as nothing of it is left to send, so that
        another worker takes it while the others still drain (its players wait for no
        slower chat).  Returns how many requests are still waiting."""
        drain = asyncio.ensure_future(self.outbox.drain(timeout))
        while True:
            quiet = [c for c in self.cluster.owned if self.outbox.quiet(c)]
            if quiet:
                try:
                    await self.cluster.hand_back(quiet)
                except Exception:
                    log.warning("chats could not be handed back", exc_info=True)
            if drain.done() or not self.cluster.owned:
                break
            await asyncio.wait({drain}, timeout=_HAND_BACK_EVERY)
        return await drain


def clustered(settings: Settings) -> bool:
    """True when this process is a worker of a cluster: a webhook over PostgreSQL
    (``service.cluster``; docs/SCALE_OUT.md).  Long polling, and SQLite, run alone."""
    return bool(settings.webhook_url) and str(settings.database).startswith("postgres")


async def wire(settings: Settings, bot: Bot, *, cluster: bool = False,
               service_overrides: Mapping[str, Any] | None = None,
               translator: Translator | None = None, **outbox_options: Any) -> App:
    """The :class:`App` for ``bot``, every part made once, in order: the database (migrated),
    the cluster membership of a worker (``cluster``), the service, the translator, the
    outbox (its group windows restored in a single process: a worker restores a chat when it
    takes it), the books, the table pictures, the Mini App's pages, the publisher.

    Tests pass ``service_overrides`` (e.g. an executor for computer players, a clock) to
    :class:`service.game.GameService`, ``outbox_options`` (e.g. a fake clock) to
    :class:`delivery.outbox.Outbox`, and ``translator`` (a game's own texts)."""
    service_options: dict[str, Any] = {
        "lobby_ttl": settings.lobby_ttl, "bot_move_delay": settings.bot_move_delay,
        "hard_samples": settings.bot_hard_samples, "bot_workers": settings.bot_workers,
        "think_seconds": settings.bot_think_seconds,
        "chat_options": {"table": settings.table_view}}
    service_options.update(service_overrides or {})
    worker = WorkerOptions(settings.worker_id, settings.worker_lease,
                           settings.rate_private_burst, settings.rate_chat_interval,
                           settings.rate_global_per_second) if cluster else None
    service = await GameService.open(settings.database, worker=worker, **service_options)
    member = service.cluster
    tr = translator or get_translator(settings.default_locale)
    me = await bot.me()
    reach = Reach(service.people)
    limits = {"chat_interval": settings.rate_chat_interval,
              "private_burst": settings.rate_private_burst,
              "group_per_minute": settings.rate_group_per_minute,
              "global_per_second": settings.rate_global_per_second,
              "send_log": service.sends}
    outbox = Outbox(bot, on_forbidden=reach.refused, cluster=member,
                    **{**limits, **outbox_options})
    if member is None:
        await outbox.restore()
    service.metrics.watch_outbox(outbox.depths)
    if member is not None:
        member.quiet = outbox.quiet
    bot.session.middleware(count_calls(service.metrics))
    languages = Languages(service.people, settings.default_locale)
    books = Books(service.messages)
    links = Links(me.username or "bot", settings.webapp_url,
                  settings.webapp_short_name if settings.webapp_url else None)
    pages = (Pages(tr, faces=books.faces, grace=settings.webapp_page_grace)
             if settings.webapp_url else None)
    post = Post(outbox, tr, books, languages, reach, service.clock, links)
    publisher = Publisher(service, post, TablePictures(tr, workers=settings.picture_workers),
                          listeners=(pages.push,) if pages is not None else (),
                          watching=(pages.watching if pages is not None
                                    and settings.webapp_hold_chats else None),
                          table_calm=settings.webapp_table_calm)
    if pages is not None:
        pages.on_gone.append(publisher.page_closed)
    return App(service=service, tr=tr, outbox=outbox, books=books, publisher=publisher,
               languages=languages, reach=reach, links=links, settings=settings,
               pages=pages, cluster=member)
