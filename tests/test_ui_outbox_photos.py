"""delivery.outbox photos (issue 14): sendPhoto and editMessageMedia go through the same queues,
coalescing and limits as texts; a picture given as a function is drawn only when its request
is made, so coalesced edits never draw; a failed photo calls ``on_failed``."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
)
from aiogram.types import BufferedInputFile, InputMediaPhoto

from tests.test_ui_outbox import GROUP, METHOD, FakeBot, FakeClock, any_call, make


class PhotoBot(FakeBot):
    """The outbox tests' fake bot, with photos."""

    async def send_photo(self, **kw):
        self._next_id += 1
        result = await self._do("send_photo", kw)
        return SimpleNamespace(message_id=self._next_id, chat_id=kw["chat_id"]) \
            if result is True else result

    async def edit_message_media(self, **kw):
        return await self._do("edit_message_media", kw)


class Drawer:
    """A picture function that counts how often it was called."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.calls = 0

    async def __call__(self) -> bytes:
        self.calls += 1
        await asyncio.sleep(0)
        return self.data


def photo_bytes(kw: dict) -> bytes:
    photo = kw["photo"] if "photo" in kw else kw["media"].media
    assert isinstance(photo, BufferedInputFile) and photo.filename == "table.png"
    return photo.data


async def test_send_photo_uploads_bytes_with_an_html_caption():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock)
    sent = await box.send_photo(GROUP, b"png-1", caption="<b>Раунд 1</b>", message_thread_id=3)
    assert sent.message_id == 101
    ((method, kw, _),) = bot.calls
    assert method == "send_photo" and photo_bytes(kw) == b"png-1"
    assert {k: v for k, v in kw.items() if k != "photo"} == {
        "chat_id": GROUP, "caption": "<b>Раунд 1</b>", "parse_mode": "HTML",
        "message_thread_id": 3}


async def test_media_edits_coalesce_and_only_the_sent_picture_is_drawn():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock)
    first = Drawer(b"v0")
    sent = box.send_photo(GROUP, first, caption="v0")
    drawers = [Drawer(f"v{i}".encode()) for i in range(1, 31)]
    futures = [box.edit_media(GROUP, sent, d, caption=f"caption v{i}", reply_markup=i)
               for i, d in enumerate(drawers, start=1)]
    await box.drain()
    edits = [kw for m, kw, _ in bot.calls if m == "edit_message_media"]
    assert len(edits) == 1
    media = edits[0]["media"]
    assert isinstance(media, InputMediaPhoto) and media.caption == "caption v30"
    assert media.parse_mode == "HTML" and photo_bytes(edits[0]) == b"v30"
    assert edits[0]["message_id"] == (await sent).message_id
    assert edits[0]["reply_markup"] == 30
    assert first.calls == 1 and [d.calls for d in drawers] == [0] * 29 + [1]
    assert [f.result() for f in futures] == [True] * 30


async def test_an_edit_in_flight_keeps_its_picture_and_the_next_one_follows():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock)
    bot.gate = asyncio.Event()
    box.edit_media(GROUP, 7, b"a", caption="a")
    for _ in range(4):
        await asyncio.sleep(0)
    assert len(bot.calls) == 1
    box.edit_media(GROUP, 7, b"b", caption="b")
    box.edit_media(GROUP, 7, b"c", caption="c")
    bot.gate.set()
    await box.drain()
    assert [photo_bytes(kw) for _, kw, _ in bot.calls] == [b"a", b"c"]


async def test_photo_edits_do_not_merge_with_text_edits_or_sends():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock)
    box.edit_media(GROUP, 7, b"a")
    box.edit_text(GROUP, 7, "text")
    box.edit_media(GROUP, 7, b"b")  # the last op on 7 is a text edit: no merge
    box.send_photo(GROUP, b"new")
    box.edit_media(GROUP, 7, b"c")  # merges into b
    await box.drain()
    assert [m for m, _, _ in bot.calls] == ["edit_message_media", "edit_message_text",
                                            "edit_message_media", "send_photo"]
    assert photo_bytes(bot.calls[2][1]) == b"c"


async def test_photos_count_against_the_groups_limits():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock)
    for i in range(12):
        box.send_photo(GROUP, b"p")
        box.edit_media(GROUP, 100 + i, b"q")
    await box.drain()
    times = [t for _, _, t in bot.calls]
    assert len(times) == 24
    assert all(b - a >= 1.0 - 1e-9 for a, b in zip(times, times[1:], strict=False))
    assert all(times[i] - times[i - 20] >= 60.0 - 1e-9 for i in range(20, 24))


async def test_a_refused_photo_calls_on_failed_before_its_future_resolves():
    clock = FakeClock()
    bot = PhotoBot(clock)
    errors, order = [], []
    box = make(bot, clock, on_error=lambda chat, kind, exc: errors.append((chat, kind)))
    bot.failures.append((any_call("send_photo"),
                         TelegramBadRequest(METHOD, "Bad Request: IMAGE_PROCESS_FAILED")))
    sent = box.send_photo(GROUP, b"x", on_failed=lambda: order.append(sent.done()))
    assert await sent is None
    assert order == [False] and errors == [(GROUP, "send_photo")]
    # an edit refused; "not modified" is a success and calls nothing
    bot.failures.append((any_call("edit_message_media"),
                         TelegramBadRequest(METHOD, "Bad Request: message to edit not found")))
    bot.failures.append((any_call("edit_message_media"),
                         TelegramBadRequest(METHOD, "Bad Request: message is not modified")))
    calls = []

    async def failed() -> None:
        calls.append("failed")

    assert await box.edit_media(GROUP, 5, b"y", on_failed=failed) is None
    assert await box.edit_media(GROUP, 5, b"y", on_failed=failed) is True
    assert calls == ["failed"]


async def test_a_media_edit_of_a_photo_that_never_came_calls_on_failed():
    """The edits queued behind a refused photo have no message to edit: each calls its
    ``on_failed`` (the publisher shows their table as text) and draws nothing."""
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock, on_error=lambda *a: None)
    bot.failures.append((any_call("send_photo"),
                         TelegramBadRequest(METHOD, "Bad Request: IMAGE_PROCESS_FAILED")))
    failed = []
    sent = box.send_photo(GROUP, b"x", on_failed=lambda: failed.append("send"))
    drawer = Drawer(b"y")
    edit = box.edit_media(GROUP, sent, drawer, on_failed=lambda: failed.append("edit"))
    text = box.edit_text(GROUP, sent, "words")  # no on_failed: resolved quietly
    assert await edit is None and await text is None
    assert failed == ["send", "edit"] and drawer.calls == 0
    assert [m for m, _, _ in bot.calls] == ["send_photo"]


async def test_a_picture_that_cannot_be_drawn_fails_like_a_refused_upload():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock, on_error=lambda *a: None)
    failed = []

    def broken() -> bytes:
        raise ValueError("no such layout")

    assert await box.send_photo(GROUP, broken, on_failed=lambda: failed.append(1)) is None
    assert await box.edit_media(GROUP, 3, lambda: b"", on_failed=lambda: failed.append(2)) \
        is None
    assert failed == [1, 2]
    assert await box.send(GROUP, "the queue goes on") is not None


async def test_network_errors_retry_the_photo_and_draw_it_again():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock, on_error=lambda *a: None)
    drawer = Drawer(b"p")
    bot.failures.append((any_call("send_photo"), TelegramNetworkError(METHOD, "timeout")))
    failed = []
    assert await box.send_photo(GROUP, drawer, on_failed=lambda: failed.append(1)) is not None
    assert drawer.calls == 2 and failed == []
    for _ in range(5):
        bot.failures.append((any_call("send_photo"), TelegramNetworkError(METHOD, "down")))
    assert await box.send_photo(GROUP, drawer, on_failed=lambda: failed.append(2)) is None
    assert failed == [2]


async def test_forbidden_migration_and_closing_are_not_photo_failures():
    clock = FakeClock()
    bot = PhotoBot(clock)
    box = make(bot, clock)
    failed = []
    bot.failures.append((any_call("send_photo"),
                         TelegramForbiddenError(METHOD, "Forbidden: bot was kicked")))
    assert await box.send_photo(GROUP, b"x", on_failed=lambda: failed.append("403")) is None
    upgraded = TelegramMigrateToChat(METHOD, "Bad Request: group chat was upgraded to a "
                                             "supergroup chat", migrate_to_chat_id=-1009)
    bot.failures.append((any_call("send_photo"), upgraded))
    sent = await box.send_photo(GROUP, b"y", caption="c", on_failed=lambda: failed.append("m"))
    assert sent is not None and sent.chat_id == -1009  # the photo goes to the supergroup
    assert photo_bytes(bot.calls[-1][1]) == b"y" and bot.calls[-1][1]["caption"] == "c"
    assert await box.edit_media(GROUP, 4, b"z", on_failed=lambda: failed.append("e")) is None
    await box.close()
    assert await box.send_photo(GROUP, b"w", on_failed=lambda: failed.append("c")) is None
    assert failed == []
