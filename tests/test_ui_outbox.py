"""delivery.outbox: ordering, coalescing, rate limits on a fake clock, 429, not-modified, 403."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
)
from aiogram.methods import SendMessage

from delivery.outbox import Outbox, is_group_chat

GROUP = -100123
USER = 42
METHOD = SendMessage(chat_id=1, text="x")


class FakeClock:
    """Virtual time.  ``auto``: a sleep jumps the clock forward at once; otherwise sleepers
    wait until the test calls :meth:`advance`."""

    def __init__(self, auto: bool = True) -> None:
        self.now = 1000.0
        self.auto = auto
        self.sleeps: list[float] = []
        self._waiters: list[asyncio.Event] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        target = self.now + seconds
        if self.auto:
            await asyncio.sleep(0)
            self.now = max(self.now, target)
            return
        while self.now < target - 1e-9:
            event = asyncio.Event()
            self._waiters.append(event)
            await event.wait()

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        waiters, self._waiters = self._waiters, []
        for event in waiters:
            event.set()
        for _ in range(5):
            await asyncio.sleep(0)


class FakeBot:
    """Records every Bot API call with the fake time; ``failures`` scripts exceptions."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls: list[tuple[str, dict, float]] = []
        self.failures: list = []  # (predicate(method, kwargs), exception) consumed once
        self.gate: asyncio.Event | None = None
        self._next_id = 100

    async def _do(self, method: str, kwargs: dict):
        self.calls.append((method, kwargs, self.clock.now))
        if self.gate is not None:
            await self.gate.wait()
        for i, (pred, exc) in enumerate(self.failures):
            if pred(method, kwargs):
                del self.failures[i]
                raise exc
        if method == "send_message":
            self._next_id += 1
            return SimpleNamespace(message_id=self._next_id, chat_id=kwargs["chat_id"])
        return True

    async def send_message(self, **kw):
        return await self._do("send_message", kw)

    async def edit_message_text(self, **kw):
        return await self._do("edit_message_text", kw)

    async def edit_message_reply_markup(self, **kw):
        return await self._do("edit_message_reply_markup", kw)

    async def delete_message(self, **kw):
        return await self._do("delete_message", kw)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def bot(clock):
    return FakeBot(clock)


def make(bot, clock, **kw):
    return Outbox(bot, clock=clock, sleep=clock.sleep, **kw)


class Claims:
    """A cluster's coordination that only claims (``claim``): no fence, no shared limits."""

    def __init__(self, claim):
        self.claim = claim

    def check(self):
        pass

    async def shared(self, chat_id):
        return 0.0


def any_call(method):
    return lambda m, kw: m == method


async def test_per_chat_order_is_kept(bot, clock):
    box = make(bot, clock)
    for i in range(4):
        box.send(GROUP, f"s{i}")
    box.edit_text(GROUP, 7, "e")
    box.delete(GROUP, 8)
    box.send(USER, "private")
    await box.drain()
    group_calls = [(m, kw.get("text"), kw.get("message_id")) for m, kw, _ in bot.calls
                   if kw["chat_id"] == GROUP]
    assert group_calls == [("send_message", "s0", None), ("send_message", "s1", None),
                           ("send_message", "s2", None), ("send_message", "s3", None),
                           ("edit_message_text", "e", 7), ("delete_message", None, 8)]
    # Another chat does not wait behind the group's queue.
    private_at = next(t for m, kw, t in bot.calls if kw["chat_id"] == USER)
    assert private_at == 1000.0


async def test_send_returns_message_and_uses_html(bot, clock):
    box = make(bot, clock)
    msg = await box.send(USER, "<b>hi</b>", message_thread_id=5)
    assert msg.message_id == 101
    (_, kw, _), = bot.calls
    assert kw == {"chat_id": USER, "text": "<b>hi</b>", "parse_mode": "HTML",
                  "message_thread_id": 5}


async def test_edits_of_one_message_coalesce_to_the_latest(bot, clock):
    box = make(bot, clock)
    msg = await box.send(GROUP, "table v0")
    futures = [box.edit_text(GROUP, msg.message_id, f"table v{i}", reply_markup=i)
               for i in range(1, 51)]
    await box.drain()
    edits = [kw for m, kw, _ in bot.calls if m == "edit_message_text"]
    assert len(edits) == 1
    assert edits[0]["text"] == "table v50" and edits[0]["reply_markup"] == 50
    assert [f.result() for f in futures] == [True] * 50


async def test_edit_never_merges_into_one_already_in_flight(bot, clock):
    box = make(bot, clock)
    bot.gate = asyncio.Event()
    box.edit_text(GROUP, 7, "v1")
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert len(bot.calls) == 1  # v1 is on the wire
    box.edit_text(GROUP, 7, "v2")
    box.edit_text(GROUP, 7, "v3")
    bot.gate.set()
    await box.drain()
    assert [kw["text"] for _, kw, _ in bot.calls] == ["v1", "v3"]


async def test_coalescing_keeps_different_kinds_and_messages_apart(bot, clock):
    box = make(bot, clock)
    box.send(GROUP, "first")
    box.edit_text(GROUP, 7, "a1")
    box.edit_text(GROUP, 8, "b1")
    box.edit_markup(GROUP, 7, "keys")  # (a keyboard: "a1" shows none)
    box.edit_text(GROUP, 7, "a2")   # the last op on 7 is a markup edit: no merge
    box.edit_text(GROUP, 8, "b2")   # merges into b1
    await box.drain()
    assert [(m, kw.get("message_id"), kw.get("text")) for m, kw, _ in bot.calls] == [
        ("send_message", None, "first"),
        ("edit_message_text", 7, "a1"),
        ("edit_message_text", 8, "b2"),
        ("edit_message_reply_markup", 7, None),
        ("edit_message_text", 7, "a2"),
    ]


async def test_group_gets_at_most_20_requests_per_minute_and_1_per_second(bot, clock):
    box = make(bot, clock)
    for i in range(45):
        box.send(GROUP, f"m{i}")
    await box.drain()
    times = [t for _, _, t in bot.calls]
    assert len(times) == 45
    for i in range(20, 45):
        assert times[i] - times[i - 20] >= 60.0 - 1e-9
    assert all(b - a >= 1.0 - 1e-9 for a, b in zip(times, times[1:], strict=False))
    assert times[-1] - times[0] >= 120.0 - 1e-9
    # and not much slower than the limit requires
    assert times[-1] - times[0] <= 125.0


async def test_a_busy_group_still_ends_on_the_latest_table():
    """Issue 4: never more than 20 per minute, yet the latest state is shown in the end."""
    clock = FakeClock(auto=False)
    bot = FakeBot(clock)
    box = make(bot, clock)
    table = await box.send(GROUP, "t0")
    for i in range(1, 301):
        box.edit_text(GROUP, table.message_id, f"t{i}")
        if i % 3 == 0:
            box.send(GROUP, f"notice {i}")
        await clock.advance(0.5)  # a move every half second for 150 s
    while box.pending():
        await clock.advance(0.5)
    await box.drain()
    times = [t for _, _, t in bot.calls]
    for i in range(20, len(times)):
        assert times[i] - times[i - 20] >= 60.0 - 1e-9
    edits = [kw["text"] for m, kw, _ in bot.calls if m == "edit_message_text"]
    notices = [kw["text"] for m, kw, _ in bot.calls if m == "send_message"][1:]
    assert edits[-1] == "t300"
    assert len(edits) < 30
    assert notices == [f"notice {i}" for i in range(3, 301, 3)]


async def test_private_chats_take_a_burst_then_one_a_second(bot, clock):
    """A token bucket per private chat: the first ``private_burst`` (3) messages go at once,
    then one a second (the long-run rate); an idle chat's bucket fills up again."""
    box = make(bot, clock)
    for i in range(30):
        box.send(USER, f"m{i}")
    await box.drain()
    times = [t for _, _, t in bot.calls]
    assert times[:3] == [times[0]] * 3
    assert [b - a for a, b in zip(times[2:], times[3:], strict=False)] == pytest.approx(
        [1.0] * 27)
    for i in range(len(times)):  # never more than 3 + n in any n seconds
        for j in range(i, len(times)):
            assert j - i + 1 <= 3 + (times[j] - times[i]) + 1e-9
    await clock.sleep(10.0)  # idle: the bucket is full again
    start = clock.now
    for i in range(4):
        box.send(USER, f"again {i}")
    await box.drain()
    again = [t for _, _, t in bot.calls[30:]]
    assert again[:3] == [start] * 3 and again[3] == pytest.approx(start + 1.0)


async def test_a_burst_of_one_keeps_private_chats_at_one_a_second(bot, clock):
    box = make(bot, clock, private_burst=1)
    for i in range(5):
        box.send(USER, f"m{i}")
    await box.drain()
    times = [t for _, _, t in bot.calls]
    assert [b - a for a, b in zip(times, times[1:], strict=False)] == pytest.approx([1.0] * 4)


async def test_global_limit_across_chats(bot, clock):
    box = make(bot, clock, global_per_second=30)
    for chat in range(1, 71):
        box.send(chat, "hello")
    await box.drain()
    times = sorted(t for _, _, t in bot.calls)
    assert len(times) == 70
    for i in range(30, len(times)):
        assert times[i] - times[i - 30] >= 1.0 - 1e-9


async def test_retry_after_is_waited_out_and_retried(bot, clock):
    errors = []
    box = make(bot, clock, on_error=lambda *a: errors.append(a))
    bot.failures.append((any_call("send_message"),
                         TelegramRetryAfter(METHOD, "Too Many Requests", retry_after=7)))
    start = clock.now
    msg = await box.send(GROUP, "important")
    assert msg is not None
    sends = [(kw["text"], t) for m, kw, t in bot.calls]
    assert [s for s, _ in sends] == ["important", "important"]
    assert sends[1][1] - start >= 7.0
    assert errors == []


async def test_retry_after_keeps_order_and_lets_edits_merge_meanwhile(bot, clock):
    box = make(bot, clock)
    bot.failures.append((any_call("edit_message_text"),
                         TelegramRetryAfter(METHOD, "Too Many Requests", retry_after=30)))
    box.edit_text(GROUP, 7, "v1")
    box.send(GROUP, "after")
    await asyncio.sleep(0)
    box.edit_text(GROUP, 7, "v2")  # v1 failed and waits: v2 replaces it
    await box.drain()
    assert [kw.get("text") for _, kw, _ in bot.calls] == ["v1", "v2", "after"]


async def test_message_not_modified_is_success(bot, clock):
    errors = []
    box = make(bot, clock, on_error=lambda *a: errors.append(a))
    bot.failures.append((any_call("edit_message_text"), TelegramBadRequest(
        METHOD, "Bad Request: message is not modified: specified new message content and "
                "reply markup are exactly the same")))
    assert await box.edit_text(GROUP, 7, "same") is True
    assert errors == []


async def test_an_edit_to_what_a_message_shows_is_never_asked_for(bot, clock):
    """Issue 33: Telegram refuses an edit that changes nothing («message is not modified»),
    and it would cost a request of the chat's rate: an edit to the text and keyboard the
    outbox last sent or edited a message to is done without a request; any change, a
    failed edit, a photo or a delete makes the next edit go out again."""
    from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

    def keys(label):
        return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text=label, callback_data=label)]])

    box = make(bot, clock)
    sent = await box.send(USER, "hand", reply_markup=keys("a"))
    mid = sent.message_id
    assert await box.edit_text(USER, mid, "hand", reply_markup=keys("a")) is True
    assert await box.edit_markup(USER, mid, keys("a")) is True
    assert [m for m, _, _ in bot.calls] == ["send_message"]
    await box.edit_text(USER, mid, "hand")  # the keyboard goes: a change
    await box.edit_text(USER, mid, "hand")
    await box.edit_markup(USER, mid, None)
    await box.edit_markup(USER, mid, keys("b"))
    await box.edit_text(USER, mid, "hand", reply_markup=keys("b"))
    await box.edit_text(USER, mid, "hand 2", reply_markup=keys("b"))
    assert [(m, kw.get("text")) for m, kw, _ in bot.calls[1:]] == [
        ("edit_message_text", "hand"), ("edit_message_reply_markup", None),
        ("edit_message_text", "hand 2")]
    # a failed edit: what the message shows is not known, the next edit is made
    bot.failures.append((any_call("edit_message_text"), TelegramBadRequest(
        METHOD, "Bad Request: message to edit not found")))
    assert await box.edit_text(USER, mid, "hand 3") is None
    await box.edit_text(USER, mid, "hand 2", reply_markup=keys("b"))
    assert len(bot.calls) == 6
    # a message never seen by this outbox (a restart): its edit is made
    await box.edit_text(USER, 5, "x")
    assert len(bot.calls) == 7
    # a deleted one is forgotten
    await box.delete(USER, mid)
    await box.edit_text(USER, mid, "hand 2", reply_markup=keys("b"))
    assert [m for m, _, _ in bot.calls[-2:]] == ["delete_message", "edit_message_text"]


async def test_forbidden_goes_to_the_callback_and_the_queue_goes_on(bot, clock):
    closed = []

    async def on_forbidden(chat_id, exc):
        closed.append((chat_id, type(exc)))

    box = make(bot, clock, on_forbidden=on_forbidden)
    bot.failures.append((any_call("send_message"),
                         TelegramForbiddenError(METHOD, "Forbidden: bot was blocked by the user")))
    first = box.send(USER, "your hand")
    second = box.send(USER, "again")
    assert await first is None
    assert (await second).message_id > 0
    assert closed == [(USER, TelegramForbiddenError)]


async def test_other_bad_requests_are_reported_not_raised(bot, clock):
    errors = []
    box = make(bot, clock, on_error=lambda chat, kind, exc: errors.append((chat, kind)))
    bot.failures.append((any_call("edit_message_text"),
                         TelegramBadRequest(METHOD, "Bad Request: message to edit not found")))
    assert await box.edit_text(GROUP, 7, "x") is None
    assert errors == [(GROUP, "edit_text")]


async def test_sends_to_an_upgraded_group_go_to_the_supergroup(bot, clock):
    """A round summary sent just as the group became a supergroup is not lost; edits of the
    old group's messages are dropped (they cannot be made in the supergroup)."""
    errors = []
    box = make(bot, clock, on_error=lambda *a: errors.append(a))
    upgraded = TelegramMigrateToChat(METHOD, "Bad Request: group chat was upgraded to a "
                                             "supergroup chat", migrate_to_chat_id=-1009)
    bot.failures.append((any_call("send_message"), upgraded))
    bot.failures.append((any_call("edit_message_text"), upgraded))
    summary = box.send(GROUP, "round over", message_thread_id=None)
    table = box.edit_text(GROUP, 7, "table")
    sent = await summary
    assert sent is not None and sent.chat_id == -1009
    assert await table is None
    assert box.migrated == {GROUP: -1009}
    # later requests for the old id: sends go to the supergroup, edits are not even tried
    assert (await box.send(GROUP, "match over")).chat_id == -1009
    assert await box.edit_text(GROUP, 8, "x") is None
    assert sorted((m, kw["chat_id"], kw.get("text")) for m, kw, _ in bot.calls) == sorted([
        ("send_message", GROUP, "round over"), ("edit_message_text", GROUP, "table"),
        ("send_message", -1009, "round over"), ("send_message", -1009, "match over")])
    assert errors == []


async def test_deleting_a_message_that_is_gone_counts_as_done(bot, clock):
    box = make(bot, clock)
    bot.failures.append((any_call("delete_message"),
                         TelegramBadRequest(METHOD, "Bad Request: message to delete not found")))
    assert await box.delete(GROUP, 7) is True


async def test_network_errors_are_retried_then_reported(bot, clock):
    errors = []
    box = make(bot, clock, max_attempts=3, on_error=lambda *a: errors.append(a[1]))
    for _ in range(2):
        bot.failures.append((any_call("send_message"), TelegramNetworkError(METHOD, "timeout")))
    assert (await box.send(USER, "x")) is not None
    for _ in range(3):
        bot.failures.append((any_call("send_message"), TelegramNetworkError(METHOD, "timeout")))
    assert await box.send(USER, "y") is None
    assert errors == ["send"]


async def test_a_crashing_bot_call_does_not_kill_the_queue(bot, clock):
    box = make(bot, clock, on_error=lambda *a: None)
    bot.failures.append((any_call("send_message"), RuntimeError("boom")))
    assert await box.send(USER, "x") is None
    assert (await box.send(USER, "y")) is not None


async def test_close_resolves_waiting_requests_to_none(bot, clock):
    gate_clock = FakeClock()

    async def never(_seconds):
        await asyncio.Event().wait()

    box = Outbox(FakeBot(gate_clock), clock=gate_clock, sleep=never)
    first = box.send(GROUP, "a")
    second = box.send(GROUP, "b")
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    await box.close()
    assert first.result() is not None
    assert second.result() is None
    assert box.send(GROUP, "late").result() is None
    assert box.pending() == 0


def test_group_chat_ids_are_negative():
    assert is_group_chat(-1001234) and is_group_chat(-5)
    assert not is_group_chat(42)


async def test_direct_requests_wait_out_flood_control_but_outbox_requests_do_not(bot, clock):
    """A handler's own reply that meets 429 is retried after retry_after; a request of the
    outbox is not (the outbox waits itself, letting edits merge meanwhile)."""
    from delivery.outbox import RetryAfterMiddleware

    tries = []

    async def make_request(_bot, method):
        tries.append(method)
        if len(tries) in (1, 3):
            raise TelegramRetryAfter(METHOD, "Too Many Requests: retry after 2", retry_after=2)
        return "sent"

    waits = []

    async def sleep(seconds):
        waits.append(seconds)

    middleware = RetryAfterMiddleware(max_wait=5, sleep=sleep)
    assert await middleware(make_request, None, METHOD) == "sent"
    assert len(tries) == 2 and waits == [2]

    class Relay:
        async def send_message(self, **kw):
            return await middleware(make_request, None, METHOD)

    box = make(Relay(), clock)
    assert await box.send(USER, "hand") == "sent"  # the outbox met 429 itself and retried
    assert len(tries) == 4 and waits == [2] and clock.sleeps and clock.sleeps[-1] >= 2
    # too long a wait: the error is raised as before
    tries.clear()
    waits.clear()

    async def always_busy(_bot, method):
        raise TelegramRetryAfter(METHOD, "Too Many Requests: retry after 3", retry_after=3)

    with pytest.raises(TelegramRetryAfter):
        await middleware(always_busy, None, METHOD)
    assert waits == [3]


async def test_an_edit_of_a_message_still_being_sent_follows_its_send(bot, clock):
    """The publisher never waits for a send: it edits the message by the future of its send,
    and the edit goes out after the send, to the message it made (or not at all when the
    send failed)."""
    box = make(bot, clock)
    sent = box.send(USER, "your turn")
    edited = box.edit_text(USER, sent, "taken away")
    merged = box.edit_markup(USER, sent, "keys")
    assert not sent.done()
    message = await sent
    assert await edited is True and await merged is True
    calls = [(m, kw.get("message_id")) for m, kw, _ in bot.calls]
    assert calls == [("send_message", None), ("edit_message_text", message.message_id),
                     ("edit_message_reply_markup", message.message_id)]
    bot.failures.append((any_call("send_message"),
                         TelegramForbiddenError(METHOD, "Forbidden: bot was blocked by the user")))
    lost = box.send(USER, "never arrives")
    orphan = box.edit_text(USER, lost, "nothing to edit")
    assert await lost is None and await orphan is None
    assert len(bot.calls) == 4  # the failed send only


async def test_edits_of_one_pending_message_coalesce(bot, clock):
    box = make(bot, clock)
    first = box.send(GROUP, "table")
    later = [box.edit_text(GROUP, first, f"table {i}") for i in range(5)]
    await box.drain()
    assert [kw["text"] for m, kw, _ in bot.calls] == ["table", "table 4"]
    assert all(f.done() for f in later)


class SendLog:
    """An in-memory stand-in for ``service.messages.SendLog`` (Unix seconds)."""

    def __init__(self) -> None:
        self.sends: list[tuple[int, float]] = []

    async def record(self, chat_id, at):
        self.sends.append((chat_id, at))

    async def recent(self):
        out: dict[int, list[float]] = {}
        for chat_id, at in self.sends:
            out.setdefault(chat_id, []).append(at)
        return out


async def test_a_restarted_outbox_goes_on_counting_the_groups_last_minute():
    """Issue 11: 20 requests a minute per group hold across a restart: every group request is
    recorded before it is made, and the next process starts its windows from the record."""
    clock = FakeClock()
    wall = FakeClock()  # Unix seconds, on another origin than the monotonic clock
    wall.now = 1_700_000_000.0
    log = SendLog()
    bot = FakeBot(clock)
    first = Outbox(bot, clock=clock, sleep=clock.sleep, wall=wall, send_log=log)
    for i in range(15):
        first.send(GROUP, f"before {i}")
        first.send(USER, f"dm {i}")
    await first.drain()
    await first.close()
    assert [c for c, _ in log.sends] == [GROUP] * 15  # groups only
    # the process dies and a new one starts 10 s later, with new clocks
    gap = 10.0
    clock.now += gap
    wall.now += gap
    second = Outbox(bot, clock=clock, sleep=clock.sleep, wall=wall, send_log=log)
    assert await second.restore() == 15
    for i in range(30):
        second.send(GROUP, f"after {i}")
    await second.drain()
    times = [t for m, kw, t in bot.calls if kw["chat_id"] == GROUP]
    assert len(times) == 45
    for i in range(20, len(times)):
        assert times[i] - times[i - 20] >= 60.0 - 1e-9


async def test_a_failing_send_log_does_not_stop_the_group(bot, clock):
    class Broken(SendLog):
        async def record(self, chat_id, at):
            raise RuntimeError("disk full")

    box = make(bot, clock, send_log=Broken())
    assert (await box.send(GROUP, "still sent")) is not None


async def test_a_group_request_counts_from_its_answer(clock):
    """Telegram counts a request when it receives it, some time after the outbox starts it:
    the minute and the second are counted from the answer, so a slow request cannot let the
    21st of a minute (or the next of a second) arrive early."""

    class SlowBot(FakeBot):
        async def _do(self, method, kwargs):
            result = await super()._do(method, kwargs)
            self.clock.now += 0.5  # the request took half a second
            return result

    bot = SlowBot(clock)
    box = make(bot, clock)
    for i in range(25):
        box.send(GROUP, f"m{i}")
    await box.drain()
    starts = [t for _, _, t in bot.calls]
    answers = [t + 0.5 for t in starts]
    for i in range(20, len(starts)):
        assert starts[i] >= answers[i - 20] + 60.0 - 1e-9
    assert all(b >= a + 1.0 - 1e-9 for a, b in zip(answers, starts[1:], strict=False))


async def test_a_claimed_request_is_made_only_after_its_mark_and_dropped_when_refused(bot,
                                                                                       clock):
    """``claim`` (service.once.sending) is asked when a request is queued; what it gives is
    awaited right before that request: the request is made after it, and not at all when it
    gives False (the update it answers was answered by another try).  An edit that
    coalesces into a queued one keeps the mark.  A request queued without a mark goes as
    before."""
    order: list[str] = []
    verdicts = iter([True, False, True])
    pending: list = []

    def claim():
        if not pending:
            return None
        name = pending.pop()

        async def mark():
            order.append(f"mark {name}")
            return next(verdicts)
        return mark

    real = bot._do

    async def do(method, kwargs):
        order.append(f"{method} {kwargs.get('text')}")
        return await real(method, kwargs)
    bot._do = do
    box = make(bot, clock, cluster=Claims(claim))
    pending.append("a")
    first = box.send(GROUP, "a")
    pending.append("b")
    second = box.send(GROUP, "b")
    third = box.send(GROUP, "c")  # no mark
    box.edit_text(GROUP, 9, "e1")
    pending.append("e2")
    box.edit_text(GROUP, 9, "e2")  # coalesces into e1, with its mark
    await box.drain()
    assert order == ["mark a", "send_message a", "mark b", "send_message c", "mark e2",
                     "edit_message_text e2"]
    assert (await first) is not None and (await second) is None and (await third) is not None
