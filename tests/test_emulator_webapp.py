"""The test Bot API server and the Mini App (issue 21): it refuses a ``web_app`` button outside
a private chat as Telegram does (``BUTTON_TYPE_INVALID``), and mints the signed ``initData``
Telegram hands a Mini App opened by one of its users."""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager

import pytest
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from delivery.initdata import InitDataError, verify_init_data
from service.views import Status
from tests.emulator.server import close_bot

pytest_plugins = ("tests.emulator.fixtures",)


@pytest.fixture
def emulator_settings() -> dict:
    return {"flood": False}


def _app_button() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text="table", web_app=WebAppInfo(url="https://kozel.example/webapp/?m=1"))]])


async def test_a_web_app_button_is_refused_in_a_group_and_taken_in_private(
        emulator, emulator_client, emulator_bot):
    await emulator_client.create_user(501, "Оля")
    group = (await emulator_client.create_chat(members=[501]))["id"]
    await emulator_client.start(501)
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await emulator_bot.send_message(group, "table", reply_markup=_app_button())
    plain = await emulator_bot.send_message(group, "table")
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await emulator_bot.edit_message_reply_markup(chat_id=group, message_id=plain.message_id,
                                                     reply_markup=_app_button())
    link = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text="table", url="https://t.me/kozel_test_bot/table?startapp=m1")]])
    await emulator_bot.send_message(group, "table", reply_markup=link)
    sent = await emulator_bot.send_message(501, "hand", reply_markup=_app_button())
    shown = await emulator_client.message(501, sent.message_id)
    assert [b.raw.get("web_app") for b in shown.flat_buttons] == [
        {"url": "https://kozel.example/webapp/?m=1"}]


async def test_it_mints_init_data_the_bot_token_verifies(emulator, emulator_client):
    await emulator_client.create_user(502, "Петя", language_code="uk")
    data = await emulator_client.webapp_init_data(502, start_param="m7")
    caller = verify_init_data(data, emulator.token)
    assert (caller.user_id, caller.match_id, caller.language_code) == (502, 7, "uk")
    assert abs(caller.auth_date - time.time()) < 5
    with pytest.raises(InitDataError, match="signature"):
        verify_init_data(data, "1:OTHER")
    old = await emulator_client.webapp_init_data(502, auth_date=time.time() - 90_000)
    with pytest.raises(InitDataError, match="expired"):
        verify_init_data(old, emulator.token)
    fields = dict(x.split("=", 1) for x in data.split("&"))
    assert json.loads(__import__("urllib.parse").parse.unquote_plus(fields["user"]))["id"] == 502


# -- people playing in pages: the chats held back, and brought up to date (issue 33) ------------

PLAYERS = ((611, "Оля"), (612, "Петя"), (613, "Маша"))
PAGE_SETTINGS = {"webapp_url": "https://kozel.example/webapp/", "webapp_short_name": "table",
                 "table_view": "text", "picture_workers": 0}


class Table:
    """The real app in this process over the emulator (its messages as Telegram shows them),
    its Mini App behind an aiohttp test client, a dealt match of ``PLAYERS`` in a group."""

    def __init__(self, emulator, client, app, web, group: int, match_id: int) -> None:
        self.emulator, self.client, self.app, self.web = emulator, client, app, web
        self.group, self.match_id = group, match_id
        self.streams: dict[int, object] = {}

    async def view(self):
        return await self.app.service.store.view(self.match_id)

    async def settle(self) -> None:
        await self.app.outbox.drain()
        await self.app.publisher.settled()
        await self.app.pages.settled()

    def init_data(self, user_id: int) -> str:
        from tests.test_webapp_server import init_data

        return init_data(user_id, token=self.emulator.token)

    async def open_page(self, user_id: int) -> None:
        """A page of ``user_id`` with its stream connected, counted as watching."""
        from tests.test_webapp_server import auth

        r = await self.web.get(f"/webapp/api/state?m={self.match_id}",
                               headers=auth(self.init_data(user_id)))
        token = (await r.json())["token"]
        self.streams[user_id] = await self.web.get(
            f"/webapp/api/stream?token={token}&since={(await self.view()).version}")
        await until(lambda: user_id in self.app.pages.watching(self.match_id))

    async def close_page(self, user_id: int) -> None:
        self.streams.pop(user_id).close()

    async def move(self) -> int | None:
        """The seat to act makes its first legal move through the page's API: who moved;
        None when nobody is to act (the match is over)."""
        from tests.test_webapp_server import auth

        view = await self.view()
        if view.status != Status.PLAYING or view.table.to_act is None:
            return None
        uid = view.table.seats[view.table.to_act].user_id
        move = view.hand_for(uid).legal[0]
        r = await self.web.post("/webapp/api/action", headers=auth(self.init_data(uid)), json={
            "m": self.match_id, "version": view.version,
            "placements": [{"tile": p.tile, "end": p.end, "closed": p.closed,
                            "along": p.along} for p in move.placements]})
        assert r.status == 200, await r.text()
        await self.settle()
        return uid

    async def seq(self) -> int:
        return (await self.client.state())["last_call_seq"]

    async def calls(self, since: int, chat_id: int | None = None) -> list[dict]:
        return [c for c in await self.client.calls(since=since)
                if chat_id is None or c.get("chat_id") == chat_id]

    # -- what the chats should show ------------------------------------------------------------

    async def expected_hand(self, user_id: int) -> tuple[str, list]:
        from ui import compose
        from ui.names import localized

        app, view = self.app, await self.view()
        locale = await app.languages.of_user(user_id)
        hand, table = view.hand_for(user_id), view.table
        text = compose.hand_text(locale, localized(hand, locale, app.tr),
                                 localized(table, locale, app.tr), tr=app.tr)
        if hand.your_turn and view.status == Status.PLAYING:
            markup = app.publisher.hands.keyboard(table, hand, locale)
        elif view.status == Status.PLAYING:
            markup = app.links.idle_markup(table.match_id, locale, app.tr)
        else:
            markup = None
        return text, _rows(markup)

    async def shown_hand(self, user_id: int) -> tuple[str | None, list]:
        """The hand message the books hold, as the private chat shows it; it is the chat's
        newest message of the bot."""
        books = await self.app.messages(self.match_id)
        from delivery.outbox import ref_id

        mid = ref_id(books.hands[user_id].message)
        last = await self.client.last_bot_message(user_id)
        assert last is not None and last.message_id == mid, (user_id, mid, last)
        return last.source, [[b.raw for b in row] for row in last.buttons]

    async def expected_table(self) -> tuple[str, list]:
        from ui import render
        from ui.names import localized

        app, view = self.app, await self.view()
        locale = await app.languages.of_chat(self.group)
        table = localized(view, locale, app.tr).table
        markup = app.publisher.group._table_markup(table, locale).get("reply_markup")
        return render.render_table(locale, table, tr=app.tr), _rows(markup)

    async def shown_table(self) -> tuple[str | None, list]:
        from delivery.outbox import ref_id

        books = await self.app.messages(self.match_id)
        shown = await self.client.message(self.group, ref_id(books.table))
        return shown.source, [[b.raw for b in row] for row in shown.buttons]


def _rows(markup) -> list:
    if markup is None:
        return []
    return markup.model_dump(exclude_none=True)["inline_keyboard"]


async def until(predicate, timeout: float = 10.0):
    """Wait for ``predicate()`` (plain or async) to hold; what it gave."""
    import asyncio
    import inspect

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = predicate()
        if inspect.isawaitable(got):
            got = await got
        if got:
            return got
        if loop.time() > end:
            raise TimeoutError("the condition never held")
        await asyncio.sleep(0.01)


@asynccontextmanager
async def table_in_pages(emulator, client, tmp_path, *, calm: float, grace: float):
    from aiohttp import web
    from aiohttp.test_utils import TestClient, TestServer

    import delivery.settings as settings_module
    from handlers.run import build
    from handlers.webapp import create_webapp
    from tests.servicekit import InlineExecutor

    for uid, name in PLAYERS:
        await client.create_user(uid, name)
        await client.start(uid)
    group = (await client.create_chat(members=[uid for uid, _ in PLAYERS]))["id"]
    settings = settings_module.Settings(
        bot_token=emulator.token, database_path=tmp_path / "kozel.sqlite3", _env_file=None,
        webapp_table_calm=calm, webapp_page_grace=grace, **PAGE_SETTINGS)
    bot = emulator.make_bot()
    _, app = await build(settings, bot, chat_interval=0.0, group_per_minute=10**9,
                         global_per_second=10**9,
                         service_overrides={"bot_executor": InlineExecutor(),
                                            "hard_samples": 2})
    root = web.Application()
    root.add_subapp("/webapp/", create_webapp(app, app.pages, emulator.token,
                                              max_age_s=3600))
    web_client = TestClient(TestServer(root))
    await web_client.start_server()
    try:
        svc = app.service
        svc.lobbies.seed_source = lambda: 11
        (first, first_name), *others = PLAYERS
        res = await svc.lobbies.open_lobby(group, None, first, first_name, {"match_limit": 1})
        for uid, name in others:
            assert (await svc.lobbies.join(res.match_id, uid, name)).ok
        res = await svc.lobbies.start(res.match_id, first)
        assert res.ok, res
        await app.publish(res)
        t = Table(emulator, client, app, web_client, group, res.match_id)
        await t.settle()
        yield t
    finally:
        await web_client.close()
        await app.close()
        await close_bot(bot)


async def _same_now(shown, expected) -> bool:
    return await shown() == await expected()


def _not_modified(calls: list[dict]) -> list[dict]:
    return [c for c in calls if not c["ok"] and "not modified" in (c.get("description") or "")]


async def test_pages_hold_the_chats_back_and_a_closed_page_brings_them_up_to_date(
        emulator, emulator_client, tmp_path, monkeypatch):
    """Issue 33, the token's budget: while everyone plays in pages no private chat is
    edited move by move and the group's table follows at the calmer pace, always to the
    newest state; a page that closes brings its person's hand message and the table to the
    match as it is; a person without a page gets every change as before; the match's end is
    shown in the group and in every private chat; no edit to identical content is asked."""
    import handlers.webapp as webapp

    monkeypatch.setattr(webapp, "PROBE", 0.05)
    async with table_in_pages(emulator, emulator_client, tmp_path, calm=0.5,
                              grace=0.2) as t:
        start = await t.seq()
        for uid, _ in PLAYERS:
            await t.open_page(uid)
        moved_at = asyncio.get_running_loop().time()
        before = await t.seq()
        moves = 0
        for _ in range(4):
            assert await t.move()
            moves += 1
        held = await t.calls(before)
        elapsed = asyncio.get_running_loop().time() - moved_at
        assert [c for c in held if c["chat_id"] > 0] == []  # no private chat touched
        table_edits = [c for c in held if c["chat_id"] == t.group]
        assert len(table_edits) <= 1 + elapsed / 0.5, (table_edits, elapsed)
        # the calmer table shows the newest state once its interval is up, pages still open
        await until(lambda: _same_now(t.shown_table, t.expected_table))

        # Маша closes her page: her hand message and the table show the match as it is
        masha = PLAYERS[2][0]
        version = (await t.view()).version
        await t.close_page(masha)
        await until(lambda: masha not in t.app.pages.watching(t.match_id))
        await t.settle()
        assert await t.shown_hand(masha) == await t.expected_hand(masha)
        assert await t.shown_table() == await t.expected_table()
        assert (await t.view()).version == version
        # the others' pages are open: their hand messages still wait
        for uid, _ in PLAYERS[:2]:
            assert (await t.app.messages(t.match_id)).hands[uid].behind

        # from now on Маша's hand message follows every move as before — the keyboard on
        # her turn (a new message), gone with her move, the hand as it is then — and the
        # table shows every move at once
        turns = 0
        while True:
            since = await t.seq()
            mover = await t.move()
            if mover is None:
                break
            view = await t.view()
            if view.status != Status.PLAYING:
                continue
            text, rows = await t.shown_hand(masha)
            want_text, want_rows = await t.expected_hand(masha)
            assert rows == want_rows
            if view.hand_for(masha).your_turn or mover == masha:
                assert text == want_text
                turns += view.hand_for(masha).your_turn
            assert await t.shown_table() == await t.expected_table()
            assert [c["method"] for c in await t.calls(since, t.group)][-1:] in (
                ["editMessageText"], ["sendMessage"])
        assert turns

        # the match's end: in the group, the closed table and the end as its last word;
        # every private chat shows the final hand, no keyboard anywhere
        view = await t.view()
        assert view.status == Status.FINISHED
        from ui import render
        from ui.names import localized

        locale = await t.app.languages.of_chat(t.group)
        end = render.render_match_end(locale, localized(view, locale, t.app.tr).final,
                                      tr=t.app.tr)
        assert (await emulator_client.last_bot_message(t.group)).source == end
        for uid, _ in PLAYERS:
            text, rows = await t.shown_hand(uid)
            assert (text, rows) == await t.expected_hand(uid) and rows == []
        assert _not_modified(await t.calls(start)) == []


async def _held_back(t: Table, moves: int = 3) -> None:
    """Everyone's page open, ``moves`` moves made in pages: the hand messages behind."""
    for uid, _ in PLAYERS:
        await t.open_page(uid)
    before = await t.seq()
    for _ in range(moves):
        assert await t.move() is not None
    assert [c for c in await t.calls(before) if c["chat_id"] > 0] == []
    books = await t.app.messages(t.match_id)
    assert all(books.hands[uid].behind for uid, _ in PLAYERS)


async def test_whoever_shows_the_match_next_brings_what_pages_held_back_up_to_date(
        emulator, emulator_client, tmp_path):
    """The books store a hand message held back for a page as ``behind``: a worker that
    takes the chat over (it sees none of the pages), or a restart, shows the match and
    brings those messages, and the table, to the match as it is."""
    from delivery.books import MatchMessages

    async with table_in_pages(emulator, emulator_client, tmp_path, calm=60.0,
                              grace=60.0) as t:
        await _held_back(t)
        stored = (await t.app.messages(t.match_id)).to_json()
        assert all(MatchMessages.from_json(stored).hands[uid].behind for uid, _ in PLAYERS)
        assert await t.shown_table() != await t.expected_table()  # held at the calm pace
        start = await t.seq()
        t.app.publisher.watching = None  # as the worker that takes the chat over
        await t.app.publisher.heal_chat(t.group)
        await t.settle()
        for uid, _ in PLAYERS:
            assert await t.shown_hand(uid) == await t.expected_hand(uid)
            assert not (await t.app.messages(t.match_id)).hands[uid].behind
        assert await t.shown_table() == await t.expected_table()
        assert _not_modified(await t.calls(start)) == []


async def test_a_stop_shows_what_pages_held_back(emulator, emulator_client, tmp_path):
    """A bot that stops takes its pages' streams with it: before the outbox is sent out,
    every hand message held back for a page and the table held at the calm pace show the
    match as it is."""
    async with table_in_pages(emulator, emulator_client, tmp_path, calm=60.0,
                              grace=60.0) as t:
        await _held_back(t)
        hands = {uid: await t.expected_hand(uid) for uid, _ in PLAYERS}
        table = await t.expected_table()
        books = await t.app.messages(t.match_id)
        assert [await t.shown_hand(uid) for uid in hands] != list(hands.values())
        await t.app.close()
        for uid, want in hands.items():
            last = await emulator_client.last_bot_message(uid)
            assert last.message_id == books.hands[uid].message
            assert (last.source, [[b.raw for b in r] for r in last.buttons]) == want
        shown = await emulator_client.message(t.group, books.table)
        assert (shown.source, [[b.raw for b in r] for r in shown.buttons]) == table
