"""The open Mini App pages of every match, and what each of them is sent (issue 21).

The publisher hands every result it publishes to :meth:`Pages.push` (``Publisher.listeners``),
so a move made anywhere — a button in the private chat, a page, a computer player, the host
on a timeout — reaches every open page as it reaches the chats. Each page follows one match
as one user; :meth:`Pages.push` builds that page's own state
(:func:`ui.webapp_view.page_state`: the table, plus the hand of the page's user if seated),
so a stream event of one seat never holds another seat's tiles and a spectator's holds none.

On a worker of a cluster a page's stream may be served by a worker that does not own the
match's chat, whose publisher never sees its moves: ``handlers.webapp.follow`` reads the
versions of the followed matches from the database and pushes the newer ones here.

A page that falls behind is not sent every state it missed: it keeps only the newest one
(``Page.latest``), which is all a table needs. Versions only go forward: a state older than
the one a page already has is dropped.

Who is looking (issue 33, "the token's budget"): a person *watches* a match while a page of
theirs follows it by its stream, and for :attr:`Pages.grace` seconds after its last stream
ended (a page that reconnects, or comes back from the background, is not a page that left).
The publisher asks :meth:`Pages.watching` which people those are: their hand messages wait,
and the group's table follows at a calmer pace while every person at the table watches
(``delivery.publisher``).  When the grace ends with no page of that person open, the
``on_gone`` callbacks are told (the publisher brings their private chat up to date).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from service.views import Result
from ui.i18n import Translator
from ui.webapp_view import page_state

log = logging.getLogger(__name__)

__all__ = ["PAGE_GRACE", "Page", "Pages"]

#: Seconds a person counts as watching a match after the last stream of their page ended.
PAGE_GRACE = 5.0


@dataclass(eq=False)
class Page:
    """One open page: ``user_id`` follows ``match_id`` in ``locale``; ``latest`` is the newest
    state not yet taken (None when there is none), ``version`` the newest version it was
    given, ``wake`` set when ``latest`` changes."""

    match_id: int
    user_id: int
    locale: str
    version: int = -1
    latest: dict[str, Any] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def offer(self, state: dict[str, Any]) -> bool:
        """Keep ``state`` if it is newer than what the page has; True when kept."""
        if state["version"] <= self.version:
            return False
        self.version = state["version"]
        self.latest = state
        self.wake.set()
        return True

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The newest state not yet taken, waiting up to ``timeout`` seconds; None when
        nothing came (the stream then sends a keep-alive)."""
        if self.latest is None:
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                return None
        state, self.latest = self.latest, None
        return state


class Pages:
    """The open pages, per match. ``tr`` words the states; ``clock`` gives Unix seconds (the
    ``now`` a page counts its countdown against); ``grace``: seconds a person still counts as
    watching after their page's stream ended."""

    def __init__(self, tr: Translator, *, clock: Callable[[], float] = time.time,
                 faces: Callable[[int], str] | None = None,
                 grace: float = PAGE_GRACE) -> None:
        self.tr = tr
        self.clock = clock
        #: How a match's tiles are drawn (``delivery.books.Books.faces``, RULES.md §2.10.4).
        self.faces = faces or (lambda match_id: "pips")
        self.grace = grace
        self._pages: dict[int, set[Page]] = {}
        #: Per match, the people whose last page ended less than ``grace`` ago: the timer
        #: that tells ``on_gone`` of them.
        self._leaving: dict[int, dict[int, asyncio.TimerHandle]] = {}
        self._tasks: set[asyncio.Task] = set()
        self._stopped = False
        #: Called with each result pushed to at least one page (the benchmark times them).
        self.observers: list[Callable[[Result], Awaitable[None] | None]] = []
        #: Called with ``(match id, user id)`` when a person's last page of a match closed
        #: and ``grace`` passed without another (the publisher's ``page_closed``).
        self.on_gone: list[Callable[[int, int], Awaitable[None] | None]] = []

    def open(self, match_id: int, user_id: int, locale: str, since: int = -1) -> Page:
        """A page of ``user_id`` following ``match_id``; ``since``: the version it shows."""
        page = Page(match_id, user_id, locale, version=since)
        self._pages.setdefault(match_id, set()).add(page)
        leaving = self._leaving.get(match_id, {})
        timer = leaving.pop(user_id, None)
        if timer is not None:  # back within the grace: it never left
            timer.cancel()
            if not leaving:
                self._leaving.pop(match_id, None)
        return page

    def close(self, page: Page) -> None:
        """Forget a page (its stream ended); the person's last page of the match starts the
        grace after which ``on_gone`` is told."""
        pages = self._pages.get(page.match_id)
        if pages is None or page not in pages:
            return
        pages.discard(page)
        if not pages:
            del self._pages[page.match_id]
        if self._stopped or any(p.user_id == page.user_id for p in pages):
            return
        leaving = self._leaving.setdefault(page.match_id, {})
        if page.user_id not in leaving:
            leaving[page.user_id] = asyncio.get_running_loop().call_later(
                self.grace, self._gone, page.match_id, page.user_id)

    def _gone(self, match_id: int, user_id: int) -> None:
        leaving = self._leaving.get(match_id, {})
        leaving.pop(user_id, None)
        if not leaving:
            self._leaving.pop(match_id, None)
        for callback in self.on_gone:
            try:
                outcome = callback(match_id, user_id)
            except Exception:
                log.exception("a page's leaving failed on match %s", match_id)
                continue
            if inspect.isawaitable(outcome):
                task = asyncio.ensure_future(outcome)
                self._tasks.add(task)
                task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a page's leaving failed", exc_info=task.exception())

    def watching(self, match_id: int) -> set[int]:
        """The people watching ``match_id``: a page of theirs follows it, or did less than
        ``grace`` seconds ago."""
        return {p.user_id for p in self._pages.get(match_id, ())} | set(
            self._leaving.get(match_id, ()))

    async def settled(self) -> None:
        """Wait until what the pages that left set off is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def close_all(self) -> None:
        """Shutting down: no grace is waited out any more (the next start shows the chats
        as they are)."""
        self._stopped = True
        for leaving in self._leaving.values():
            for timer in leaving.values():
                timer.cancel()
        self._leaving.clear()

    def count(self, match_id: int | None = None) -> int:
        """How many pages are open (on one match, or on all)."""
        if match_id is not None:
            return len(self._pages.get(match_id, ()))
        return sum(len(p) for p in self._pages.values())

    def following(self) -> dict[int, int]:
        """``{match id: the oldest version one of its open pages has}``, for every match
        with an open page (a worker of a cluster that does not own a match's chat reads
        newer versions from the database for them: ``handlers.webapp.follow``)."""
        return {match_id: min(p.version for p in pages)
                for match_id, pages in self._pages.items() if pages}

    def state_for(self, result: Result, user_id: int, locale: str) -> dict[str, Any]:
        """The state one page of ``user_id`` shows for ``result`` (``result.table`` set)."""
        return page_state(result, user_id, locale, self.tr, now=self.clock(),
                          faces=self.faces(result.match_id))

    def push(self, result: Result) -> None:
        """Give every page of the result's match its own state of ``result`` (a result
        without a table — a lobby — is no page's business)."""
        if result.table is None or result.match_id is None:
            return
        pages = self._pages.get(result.match_id)
        if not pages:
            return
        cache: dict[tuple[int | None, str], dict[str, Any]] = {}
        for page in list(pages):
            if (result.version or 0) <= page.version:
                continue
            hand = result.hand_for(page.user_id)
            key = (hand.seat if hand is not None else None, page.locale)
            state = cache.get(key)
            if state is None:
                state = cache[key] = self.state_for(result, page.user_id, page.locale)
            page.offer(state)
        for observer in self.observers:
            observer(result)
