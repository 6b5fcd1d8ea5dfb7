"""The group's table pictures as the publisher needs them: drawn off the event loop, once per
state, with the drawing caches warm from the start (issue 14).

:func:`ui.picture.render_table_png` takes about 3 ms of CPU (``bench/picture_bench.py``), and
much longer the first time each tile, label and panel is drawn.  :class:`TablePictures` runs
it in a thread of its own (Pillow releases the GIL while it encodes), so the event loop goes on
answering presses meanwhile, and keeps each picture in a :class:`ui.picture.PictureCache` per
(match, version, locale, closing round): a picture is drawn once however often it is asked for
(a retried upload, a restart's re-render).  :meth:`TablePictures.warm` draws the example tables
of :mod:`ui.picture_examples` in every locale at start-up, so the first match of the day does
not pay for the sprites.

The pictures are drawn from the group's :class:`~service.views.TableView` only, and the hands
only from the round's :class:`~service.views.RoundSummary` (``table.summary``, the closing
picture), so a picture can show no hand before the round's end (RULES.md §1.8).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial

from service.views import TableView

from .i18n import SUPPORTED_LOCALES, Translator, get_translator
from .picture import FELT, PictureCache, Theme

__all__ = ["TablePictures"]

log = logging.getLogger(__name__)


class TablePictures:
    """PNG pictures of group tables, drawn in a worker thread and cached.

    ``tr``: the translator (default :func:`ui.i18n.get_translator`); ``cache``: a
    :class:`~ui.picture.PictureCache` (default one of 256 pictures, about 8 MB);
    ``executor``: where pictures are drawn (default one thread of its own, shut down by
    :meth:`close`); ``theme``: the colours.
    """

    def __init__(self, tr: Translator | None = None, *, cache: PictureCache | None = None,
                 executor: Executor | None = None, theme: Theme = FELT) -> None:
        self.tr = tr if tr is not None else get_translator()
        self.cache = cache if cache is not None else PictureCache()
        self.theme = theme
        self._own = executor is None
        self._executor = executor if executor is not None else ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="table-picture")

    async def png(self, table: TableView, locale: str) -> bytes:
        """The picture of ``table`` for a group reading ``locale``: the closing picture with
        the hands revealed when the round is scored (``table.summary``), else the table as it
        is.  PNG bytes of 1200 × 960 pixels (:func:`ui.picture.render_table_png`; raises its
        ``ValueError`` for an impossible layout)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(
            self.cache.table_png, table, locale=locale, tr=self.tr, summary=table.summary,
            theme=self.theme))

    def source(self, table: TableView, locale: str) -> Callable[[], Awaitable[bytes]]:
        """A function that draws :meth:`png` when called: the photo source of an outbox
        request (:data:`ui.outbox.PhotoSource`), so a picture whose request is coalesced
        away is never drawn."""
        return partial(self.png, table, locale)

    async def warm(self, locales: Sequence[str] = SUPPORTED_LOCALES) -> float:
        """Draw the example tables (a line, a closed round with hands, a cross) in every
        locale once, outside the cache, so the sprites, labels and fonts are ready; returns
        the seconds it took."""
        from .picture import render_table_png
        from .picture_examples import EXAMPLES

        def draw() -> None:
            for locale in locales:
                for table, summary in EXAMPLES.values():
                    render_table_png(table(), locale=locale, tr=self.tr,
                                     summary=summary() if summary else None, theme=self.theme)

        t0 = time.perf_counter()
        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, draw)
        except Exception:  # a picture that cannot be drawn: each table falls back to text
            log.exception("the example table pictures could not be drawn")
        took = time.perf_counter() - t0
        log.info("table pictures warmed in %.2f s", took)
        return took

    def close(self) -> None:
        """Stop the drawing thread (if it is this object's own); pictures still waiting are
        cancelled."""
        if self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
