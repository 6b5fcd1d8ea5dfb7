"""The group's table pictures as the publisher needs them: drawn off the event loop, once per
state, with the drawing caches warm from the start (issue 14).

:func:`ui.picture.render_table_png` takes about 3 ms of CPU (``bench/picture_bench.py``), and
much longer the first time each tile, label and panel is drawn.  :class:`TablePictures` runs
it off the event loop — in a process of its own (``PICTURE_WORKERS``, the bot's default), or
in a thread — so the event loop goes on answering presses meanwhile, and keeps each picture
in a :class:`PictureCache` per (match, version, locale, closing round): a picture
is drawn once however often it is asked for (a retried upload, a restart's re-render).
:meth:`TablePictures.warm` draws the example tables of :mod:`ui.picture_examples` in every
locale at start-up, where the pictures are drawn, so the first match of the day does not pay
for the sprites.

The pictures are drawn from the group's :class:`~service.views.TableView` only, and the hands
only from the round's :class:`~service.views.RoundSummary` (``table.summary``, the closing
picture), so a picture can show no hand before the round's end (RULES.md §1.8).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from service.views import RoundSummary, TableView
from ui.i18n import SUPPORTED_LOCALES, Translator, get_translator
from ui.picture import FELT, Theme, render_table_png

__all__ = ["PictureCache", "TablePictures"]

log = logging.getLogger(__name__)


class PictureCache:
    """Table pictures per (match, version, locale, theme, closing round), newest kept.

    A match's version changes with every change of its state (``TableView.version``), so a
    picture for one version never goes stale: :meth:`table_png` draws each state once, and
    asking again (a re-send after a failed upload, a restart's re-render, a second chat
    language) costs a dictionary look-up. ``maxsize`` pictures are kept [entries]; at about
    30 KB each the default holds about 8 MB. Thread-safe.
    """

    def __init__(self, maxsize: int = 256) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[tuple, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(table: TableView, locale: str, summary: RoundSummary | None, theme: Theme
            ) -> tuple:
        """The cache key of a picture."""
        return (table.match_id, table.version, locale, theme.name,
                summary.round_no if summary is not None else None)

    def table_png(self, table: TableView, *, locale: str, tr: Translator | None = None,
                  summary: RoundSummary | None = None, theme: Theme = FELT) -> bytes:
        """:func:`render_table_png`, drawn once per key."""
        key = self.key(table, locale, summary, theme)
        hit = self.get(key)
        if hit is not None:
            return hit
        png = render_table_png(table, locale=locale, tr=tr, summary=summary, theme=theme)
        self.put(key, png)
        return png

    def get(self, key: tuple) -> bytes | None:
        """The picture cached under ``key`` (:meth:`key`), or None."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                self.hits += 1
            return hit

    def put(self, key: tuple, png: bytes) -> None:
        """Keep ``png`` under ``key``, the oldest pictures going beyond ``maxsize``."""
        with self._lock:
            self.misses += 1
            self._items[key] = png
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def _draw(table: TableView, locale: str, summary: RoundSummary | None, theme: Theme,
          tr: Translator | None = None) -> bytes:
    """One picture (:func:`ui.picture.render_table_png`), where the drawing runs: a worker
    process uses its own default translator (the same locale files)."""
    return render_table_png(table, locale=locale, tr=tr, summary=summary, theme=theme)


def _warm_draw(locales: Sequence[str], theme: Theme, tr: Translator | None = None) -> None:
    """Draw the example tables of :mod:`ui.picture_examples` in ``locales``, so the sprites,
    labels and fonts of the process that draws are ready."""
    from ui.picture_examples import EXAMPLES

    for locale in locales:
        for table, summary in EXAMPLES.values():
            render_table_png(table(), locale=locale, tr=tr,
                             summary=summary() if summary else None, theme=theme)


def _worker_init(parent: int) -> None:
    """A drawing process ends when the bot's process is gone, even if that was killed
    without a word; a Ctrl-C in the terminal is the bot's to handle (it closes the pool),
    not the process's (which would die with a traceback in the middle of the bot's
    shutdown)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class TablePictures:
    """PNG pictures of group tables, drawn off the event loop and cached.

    ``tr``: the translator (default :func:`ui.i18n.get_translator`); ``cache``: a
    :class:`PictureCache` (default one of 256 pictures, about 8 MB), looked up
    in the bot's process; ``workers``: the pictures are drawn in that many processes of
    their own (created at the first picture; they draw with the default translator), or,
    with 0, in one thread of the bot's process; ``executor``: where to draw instead (any
    ``concurrent.futures.Executor``; it is given ``tr``); ``theme``: the colours.

    A process keeps the drawing's Python work off the bot's interpreter lock: drawing in a
    thread of the bot costs the event loop a few milliseconds each time the lock changes
    hands (``bench/e2e_load.py``).  A process that dies is replaced for the next picture.
    """

    def __init__(self, tr: Translator | None = None, *, cache: PictureCache | None = None,
                 workers: int = 0, executor: Executor | None = None,
                 theme: Theme = FELT) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (a thread) or more (processes)")
        self.tr = tr if tr is not None else get_translator()
        self.cache = cache if cache is not None else PictureCache()
        self.theme = theme
        self.workers = workers
        self._given = executor
        self._own: Executor | None = None

    def _executor(self) -> Executor:
        if self._given is not None:
            return self._given
        if self._own is None:
            if self.workers:
                self._own = ProcessPoolExecutor(
                    max_workers=self.workers, initializer=_worker_init,
                    initargs=(os.getpid(),), mp_context=multiprocessing.get_context("spawn"))
            else:
                self._own = ThreadPoolExecutor(max_workers=1,
                                               thread_name_prefix="table-picture")
        return self._own

    def _tr_arg(self) -> Translator | None:
        """The translator to hand to the drawing: none across a process boundary."""
        return None if self._given is None and self.workers else self.tr

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        executor = self._executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(
                executor, partial(fn, *args, tr=self._tr_arg()))
        except BrokenProcessPool:
            # the drawing process died: this picture fails, the next one gets a new process
            if executor is self._own:
                self._own = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise

    async def png(self, table: TableView, locale: str) -> bytes:
        """The picture of ``table`` for a group reading ``locale``: the closing picture with
        the hands revealed when the round is scored (``table.summary``), else the table as it
        is.  PNG bytes of 1200 × 960 pixels (:func:`ui.picture.render_table_png`; raises its
        ``ValueError`` for an impossible layout, ``BrokenProcessPool`` when the drawing
        process died)."""
        summary = table.summary
        key = PictureCache.key(table, locale, summary, self.theme)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        png = await self._run(_draw, table, locale, summary, self.theme)
        self.cache.put(key, png)
        return png

    def source(self, table: TableView, locale: str) -> Callable[[], Awaitable[bytes]]:
        """A function that draws :meth:`png` when called: the photo source of an outbox
        request (:data:`delivery.outbox.PhotoSource`), so a picture whose request is coalesced
        away is never drawn."""
        return partial(self.png, table, locale)

    async def warm(self, locales: Sequence[str] = SUPPORTED_LOCALES) -> float:
        """Draw the example tables (a line, a closed round with hands, a cross) in every
        locale once, outside the cache, where the pictures are drawn (starting the drawing
        process), so its sprites, labels and fonts are ready; returns the seconds it took."""
        t0 = time.perf_counter()
        try:
            await self._run(_warm_draw, tuple(locales), self.theme)
        except Exception:  # a picture that cannot be drawn: each table falls back to text
            log.exception("the example table pictures could not be drawn")
        took = time.perf_counter() - t0
        log.info("table pictures warmed in %.2f s", took)
        return took

    def close(self) -> None:
        """Stop the drawing thread or processes (if they are this object's own); pictures
        still waiting are cancelled."""
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None
