"""Where the group's table pictures are drawn (delivery/pictures.py, issue 14): in a process of
their own by default (the bot's interpreter lock stays with the event loop), or in a thread;
the same bytes either way, each state drawn once, and a drawing process that dies is
replaced for the next picture."""

from __future__ import annotations

import asyncio
import io
import os
import signal
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

import pytest
from PIL import Image

from delivery.pictures import TablePictures
from ui.i18n import Translator
from ui.picture import render_table_png
from ui.picture_examples import EXAMPLES

TR = Translator(strict=True)


def pixels(data: bytes) -> bytes:
    """What a PNG shows (its palette's order aside)."""
    return Image.open(io.BytesIO(data)).convert("RGB").tobytes()


def tables():
    """The example tables (a line, a closed round with its summary, a cross) as the group's
    views of three matches: the closed one carries its summary, as the publisher's closed
    tables do."""
    out = []
    for n, (make, summary) in enumerate(EXAMPLES.values()):
        table = replace(make(), match_id=100 + n)
        if summary is not None:
            table = replace(table, summary=summary())
        out.append(table)
    return out


async def test_a_process_draws_what_a_thread_draws_once_per_state():
    pictures = TablePictures(TR, workers=1)
    try:
        assert await pictures.warm(["ru"]) > 0
        for table in tables():
            data = await pictures.png(table, "uk")
            assert pixels(data) == pixels(render_table_png(table, locale="uk", tr=TR,
                                                           summary=table.summary))
        misses = pictures.cache.misses
        for table in tables():
            await pictures.png(table, "uk")
        assert pictures.cache.misses == misses and pictures.cache.hits >= len(tables())
        pid = await asyncio.get_running_loop().run_in_executor(pictures._executor(), os.getpid)
        assert pid != os.getpid()
    finally:
        pictures.close()


async def test_a_dead_drawing_process_fails_one_picture_and_is_replaced():
    pictures = TablePictures(TR, workers=1)
    first, second = tables()[:2]
    try:
        await pictures.png(first, "ru")
        executor = pictures._executor()
        pid = await asyncio.get_running_loop().run_in_executor(executor, os.getpid)
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            for _ in range(50):  # until the pool notices
                await pictures.png(second, "en")
                pictures.cache = type(pictures.cache)()
                await asyncio.sleep(0.05)
        assert pixels(await pictures.png(second, "en")) == pixels(render_table_png(
            second, locale="en", tr=TR, summary=second.summary))
    finally:
        pictures.close()


async def test_workers_must_not_be_negative():
    with pytest.raises(ValueError):
        TablePictures(TR, workers=-1)
