"""The Mini App's HTTP side (issue 21, ``handlers/webapp.py``) over the real routers, service
and publisher with a mocked Bot API: who may call, what each caller is shown (a seat its own
hand only, a spectator none — RULES.md §1.8), a move from a page taking exactly the path of a
button press (the same refusals and words, published to the group and the private chats),
and the stream of states.  The page itself is driven in a browser by
``tests/test_webapp_browser.py``."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from delivery.initdata import sign_init_data
from handlers.webapp import create_webapp
from service.views import ErrorCode, Result
from tests.botkit import Harness, Person

GROUP = -100777
PEOPLE = (Person(41, "Оля"), Person(42, "Петя", "en"), Person(43, "Маша", "uk"))
TOKEN = "42:TEST"
WEBAPP = {"webapp_url": "https://kozel.example/webapp/", "webapp_short_name": "table"}


def init_data(user: Person | int, *, start: str | None = None, age: float = 0,
              token: str = TOKEN, lang: str | None = None) -> str:
    """Signed initData as Telegram gives it to the page of ``user``."""
    uid = user if isinstance(user, int) else user.id
    code = lang or (user.language_code if isinstance(user, Person) else "ru")
    fields = {"user": json.dumps({"id": uid, "first_name": "X", "language_code": code}),
              "auth_date": str(int(time.time() - age))}
    if start is not None:
        fields["start_param"] = start
    return sign_init_data(fields, token)


def auth(data: str) -> dict[str, str]:
    return {"Authorization": f"tma {data}"}


async def _started(h: Harness, people=PEOPLE, seed: int = 7) -> int:
    svc = h.app.service
    for p in people:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")
    svc.lobbies.seed_source = lambda: seed
    res = await svc.lobbies.open_lobby(GROUP, None, people[0].id, people[0].first_name, {})
    for p in people[1:]:
        assert (await svc.lobbies.join(res.match_id, p.id, p.first_name)).ok
    res = await svc.lobbies.start(res.match_id, people[0].id)
    assert res.ok, res
    await h.app.publisher.publish(res)
    await h.outbox.drain()
    await h.app.publisher.settled()
    return res.match_id


async def _client(h: Harness) -> TestClient:
    root = web.Application()
    root.add_subapp("/webapp/", create_webapp(h.app, h.app.pages, TOKEN, max_age_s=3600))
    client = TestClient(TestServer(root))
    await client.start_server()
    return client


def _codes(hand_tiles) -> set[str]:
    return set(hand_tiles)


def _leaks(state: dict, tiles: set[str]) -> set[str]:
    """Tile codes of ``tiles`` that appear anywhere in ``state`` (as JSON strings)."""
    text = json.dumps(state)
    return {t for t in tiles if f'"{t}"' in text}


async def test_each_caller_sees_the_table_and_only_their_own_hand(tmp_path):
    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id = await _started(h)
        client = await _client(h)
        try:
            view = await h.app.service.store.view(match_id)
            hands = {hd.user_id: set(hd.tiles) for hd in view.hands}
            for p in PEOPLE:
                r = await client.get(f"/webapp/api/state?m={match_id}", headers=auth(
                    init_data(p)))
                assert r.status == 200
                body = await r.json()
                st = body["state"]
                assert st["hand"]["tiles"] == sorted(hands[p.id]) or \
                    set(st["hand"]["tiles"]) == hands[p.id]
                assert st["seat"] == st["hand"]["seat"]
                others = set().union(*(t for u, t in hands.items() if u != p.id))
                assert _leaks(st, others) == set()
                assert st["locale"] == p.language_code
                assert [s["tiles"] for s in st["table"]["seats"]] == \
                    [len(hands[q.id]) for q in PEOPLE]
                assert body["token"]
            # a spectator comes by the group's signed link and sees no hand at all
            r = await client.get("/webapp/api/state", headers=auth(
                init_data(99, start=f"m{match_id}")))
            st = (await r.json())["state"]
            assert r.status == 200 and st["hand"] is None and st["seat"] is None
            assert _leaks(st, set().union(*hands.values())) == set()
            # ... and not by an unsigned match id, which only a player may use
            r = await client.get(f"/webapp/api/state?m={match_id}", headers=auth(init_data(99)))
            assert r.status == 403
            r = await client.get("/webapp/api/state?m=999", headers=auth(init_data(PEOPLE[0])))
            assert r.status == 404
        finally:
            await client.close()


async def test_forged_tampered_expired_or_missing_init_data_is_refused(tmp_path):
    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id = await _started(h)
        client = await _client(h)
        try:
            good = init_data(PEOPLE[0])
            tampered = good.replace("%22id%22%3A+41", "%22id%22%3A+42")
            assert tampered != good
            cases = {"forged": init_data(PEOPLE[0], token="43:OTHER"),
                     "tampered": tampered,
                     "expired": init_data(PEOPLE[0], age=7200),
                     "1970": sign_init_data({"user": '{"id": 41}', "auth_date": "1"}, TOKEN),
                     "unsigned": "user=%7B%22id%22%3A41%7D&auth_date=1"}
            for name, data in cases.items():
                r = await client.get(f"/webapp/api/state?m={match_id}", headers=auth(data))
                assert r.status == 401, name
                r = await client.post("/webapp/api/action", headers=auth(data), json={
                    "m": match_id, "version": 1, "placements": [{"tile": "6-6", "end": None}]})
                assert r.status == 401, name
            r = await client.get(f"/webapp/api/state?m={match_id}")
            assert r.status == 401
            r = await client.get("/webapp/api/stream?token=1.2.3.forged")
            assert r.status == 401
            view = await h.app.service.store.view(match_id)
            assert view.version == (await h.app.service.store.view(match_id)).version
        finally:
            await client.close()


async def _actions(h: Harness, match_id: int) -> int:
    from storage import repository as repo

    return len(await h.app.service.db.read(repo.list_actions, match_id))


async def test_a_move_from_a_page_is_a_button_press_and_refusals_are_the_same(tmp_path):
    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id = await _started(h)
        client = await _client(h)
        try:
            view = await h.app.service.store.view(match_id)
            seat = view.table.to_act
            mover = next(p for p in PEOPLE if p.id == view.table.seats[seat].user_id)
            idle = next(p for p in PEOPLE if p is not mover)
            move = view.hand_for(mover.id).legal[0]
            body = {"m": match_id, "version": view.version,
                    "placements": [{"tile": p.tile, "end": p.end, "closed": p.closed,
                                    "along": p.along} for p in move.placements]}
            before = await _actions(h, match_id)
            group_before = [m.text for m in h.tg.chat(GROUP)]
            # out of turn: refused with the words of the button's alert, nothing changes
            r = await client.post("/webapp/api/action", headers=auth(init_data(idle)),
                                  json=body)
            got = await r.json()
            assert r.status == 409 and got["error"] == "not_your_turn"
            assert got["reason"] == h.app.error_text(
                idle.language_code, Result(False, ErrorCode.NOT_YOUR_TURN))
            assert got["state"]["version"] == view.version
            # stale: an older version, refused alike
            r = await client.post("/webapp/api/action", headers=auth(init_data(mover)),
                                  json={**body, "version": view.version - 1})
            got = await r.json()
            assert r.status == 409 and got["error"] == "stale"
            assert got["reason"] == h.app.error_text(mover.language_code,
                                                     Result(False, ErrorCode.STALE))
            # an illegal tile and a malformed body
            r = await client.post("/webapp/api/action", headers=auth(init_data(mover)),
                                  json={**body, "placements": [{"tile": "9-9", "end": None}]})
            assert r.status == 409 and (await r.json())["error"] == "bad_move"
            r = await client.post("/webapp/api/action", headers=auth(init_data(mover)),
                                  json={**body, "placements": "6-6"})
            assert r.status == 400
            await h.outbox.drain()
            assert await _actions(h, match_id) == before
            assert (await h.app.service.store.view(match_id)).version == view.version
            assert [m.text for m in h.tg.chat(GROUP)] == group_before
            # the move itself: committed and published to the group and the private chats
            r = await client.post("/webapp/api/action", headers=auth(init_data(mover)),
                                  json=body)
            got = await r.json()
            assert r.status == 200 and got["ok"] and got["state"]["version"] > view.version
            await h.outbox.drain()
            await h.app.publisher.settled()
            assert await _actions(h, match_id) == before + 1
            assert [m.text for m in h.tg.chat(GROUP)] != group_before
            # more moves from pages: one live keyboard in the private chats, the one of the
            # player to act; every other hand message keeps only the page's button
            for _ in range(4):
                after = await h.app.service.store.view(match_id)
                if after.table.to_act is None:
                    break
                uid = after.table.seats[after.table.to_act].user_id
                mover = next(p for p in PEOPLE if p.id == uid)
                person, live = h.the_live_keyboard(PEOPLE)
                assert person is mover
                move = after.hand_for(uid).legal[0]
                r = await client.post("/webapp/api/action", headers=auth(init_data(mover)),
                                      json={"m": match_id, "version": after.version,
                                            "placements": [{"tile": p.tile, "end": p.end}
                                                           for p in move.placements]})
                assert r.status == 200
                await h.outbox.drain()
                await h.app.publisher.settled()
                for p in PEOPLE:
                    for m in h.tg.chat(p.id):
                        if m is not h.keyboard_message(p) and m.buttons():
                            assert all(b.web_app for b in m.buttons()), m.buttons()
        finally:
            await client.close()


async def _events(resp, n: int, timeout: float = 5.0) -> list[dict]:
    """The next ``n`` ``state`` events of an SSE response."""
    out: list[dict] = []
    buf = b""

    async def read() -> None:
        nonlocal buf
        while len(out) < n:
            buf += await resp.content.readany()
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data: "):
                        out.append(json.loads(line[6:]))

    await asyncio.wait_for(read(), timeout)
    return out


async def test_the_stream_resyncs_by_version_and_carries_only_the_seats_own_tiles(tmp_path):
    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id = await _started(h)
        client = await _client(h)
        try:
            view = await h.app.service.store.view(match_id)
            seat = view.table.to_act
            mover = next(p for p in PEOPLE if p.id == view.table.seats[seat].user_id)
            watcher = next(p for p in PEOPLE if p is not mover)
            r = await client.get(f"/webapp/api/state?m={match_id}",
                                 headers=auth(init_data(watcher)))
            token = (await r.json())["token"]
            spec = await client.get("/webapp/api/state", headers=auth(
                init_data(99, start=f"m{match_id}")))
            spec_token = (await spec.json())["token"]
            # a page that was in the background, showing an old version, gets the current
            stale = await client.get(f"/webapp/api/stream?token={token}&since=0")
            (first,) = await _events(stale, 1)
            assert first["version"] == view.version and first["hand"]["seat"] != seat
            stale.close()
            # an up-to-date page gets nothing until a move, then that move
            s1 = await client.get(f"/webapp/api/stream?token={token}&since={view.version}")
            s2 = await client.get(
                f"/webapp/api/stream?token={spec_token}&since={view.version}")
            await asyncio.sleep(0.1)
            assert h.app.pages.count(match_id) == 2
            move = view.hand_for(mover.id).legal[0]
            res = await h.app.service.play.act(match_id, mover.id, move, None, view.version)
            assert res.ok
            await h.app.publisher.publish(res)  # a button press publishes just so
            (ev,) = await _events(s1, 1)
            (ev2,) = await _events(s2, 1)
            assert ev["version"] == res.version == ev2["version"]
            own = set(res.hand_for(watcher.id).tiles)
            others = set().union(*(set(x.tiles) for x in res.hands if x.user_id != watcher.id))
            assert set(ev["hand"]["tiles"]) == own and _leaks(ev, others) == set()
            assert ev2["hand"] is None and _leaks(ev2, own | others) == set()
            s1.close()
            s2.close()
        finally:
            await client.close()


async def test_without_the_settings_there_is_no_button_and_with_them_both_kinds(tmp_path):
    async with Harness(tmp_path / "off") as h:
        await _started(h)
        assert h.app.pages is None
        for chat in (GROUP, *(p.id for p in PEOPLE)):
            for m in h.tg.chat(chat):
                assert not any(b.web_app or (b.url or "").find("startapp") >= 0
                               for b in m.buttons())
    async with Harness(tmp_path / "on", settings=WEBAPP) as h:
        match_id = await _started(h)
        (table,) = [m for m in h.tg.chat(GROUP) if m.photo]
        (button,) = table.buttons()
        assert button.url == f"https://t.me/kozel_test_bot/table?startapp=m{match_id}"
        assert button.web_app is None
        for p in PEOPLE:
            hand = h.tg.chat(p.id)[-1]
            apps = [b for b in hand.buttons() if b.web_app]
            assert [b.web_app.url for b in apps] == [f"{WEBAPP['webapp_url']}?m={match_id}"]
        _, live = h.the_live_keyboard(PEOPLE)
        assert live.move_buttons()  # today's buttons stay beside it


@pytest.mark.parametrize("value", ["ftp://x", "https://a b"])
def test_a_malformed_webapp_url_is_refused(value):
    import pydantic

    import delivery.settings as bot_module

    with pytest.raises(pydantic.ValidationError):
        bot_module.Settings(bot_token=TOKEN, webapp_url=value, _env_file=None)


async def test_in_polling_mode_the_page_has_a_server_of_its_own(tmp_path):
    import aiohttp

    from handlers.run import _run_pages
    from tests.pagekit import free_port

    port = free_port()
    async with Harness(tmp_path, settings={**WEBAPP, "webapp_host": "127.0.0.1",
                                           "webapp_port": port}) as h:
        runner = await _run_pages(h.settings, h.app)
        try:
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/webapp/") as r:
                    assert r.status == 200 and "app.js" in await r.text()
                async with http.get(f"http://127.0.0.1:{port}/webapp/app.js") as r:
                    assert r.status == 200 and "initData" in await r.text()
                async with http.get(f"http://127.0.0.1:{port}/webapp/api/state?m=1") as r:
                    assert r.status == 401
        finally:
            await runner.cleanup()
    async with Harness(tmp_path / "off") as h:
        assert await _run_pages(h.settings, h.app) is None


async def test_malformed_requests_get_a_4xx_and_one_log_line(tmp_path, caplog):
    """Issue 30 item 14: match ids too large for the database (a signed ``start_param`` of
    forty digits, the same as an unsigned ``m``, in the body too), digits ``int`` refuses
    («²»), a body nested past Python's recursion limit, a version of forty digits: each is
    answered 4xx, changes nothing, and leaves exactly one line in the log, no traceback."""
    import logging

    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id = await _started(h)
        client = await _client(h)
        before = (await h.app.service.store.view(match_id)).version
        olya, forty = PEOPLE[0], "9" * 40
        move = {"m": match_id, "version": before, "placements": [{"tile": "6-6", "end": None}]}
        try:
            requests = {
                "signed start_param": ("GET", "/webapp/api/state",
                                       init_data(olya, start="m" + forty), None),
                "unsigned m": ("GET", f"/webapp/api/state?m={forty}", init_data(olya), None),
                "unsigned m with m": ("GET", f"/webapp/api/state?m=m{forty}",
                                      init_data(olya), None),
                "superscript digits": ("GET", "/webapp/api/state?m=%C2%B2", init_data(olya),
                                       None),
                "signed superscript": ("GET", "/webapp/api/state",
                                       init_data(olya, start="m\u00b2"), None),
                "nested body": ("POST", "/webapp/api/action", init_data(olya),
                                "[" * 60_000 + "]" * 60_000),
                "body's m": ("POST", "/webapp/api/action", init_data(olya),
                             json.dumps({**move, "m": int(forty)})),
                "body's m as text": ("POST", "/webapp/api/action", init_data(olya),
                                     json.dumps({**move, "m": forty})),
                "forty-digit version": ("POST", "/webapp/api/action", init_data(olya),
                                        json.dumps({**move, "version": int(forty)})),
                "not UTF-8": ("POST", "/webapp/api/action", init_data(olya), b"\xff\xfe{"),
            }
            for name, (method, path, data, body) in requests.items():
                caplog.clear()
                with caplog.at_level(logging.INFO):
                    r = await client.request(method, path, headers=auth(data), data=body)
                    await r.read()
                lines = [rec for rec in caplog.records if rec.levelno >= logging.INFO]
                assert 400 <= r.status < 500, (name, r.status, await r.text())
                assert len(lines) == 1, (name, [x.getMessage() for x in lines])
                assert lines[0].exc_info is None and "\n" not in lines[0].getMessage(), name
            assert (await h.app.service.store.view(match_id)).version == before
        finally:
            await client.close()


async def test_a_fault_of_the_server_is_one_error_line_not_a_traceback(tmp_path, caplog,
                                                                       monkeypatch):
    """Issue 30 item 14: should the server itself fail on a request, the page gets a JSON
    500 and the log one ERROR line that says where, no traceback."""
    import logging

    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id = await _started(h)
        client = await _client(h)

        async def broken(*args, **kwargs):
            raise RuntimeError("the database went away")

        monkeypatch.setattr(h.app.service.store, "view", broken)
        try:
            with caplog.at_level(logging.INFO):
                r = await client.get(f"/webapp/api/state?m={match_id}",
                                     headers=auth(init_data(PEOPLE[0])))
                assert r.status == 500 and (await r.json())["error"] == "server"
            errors = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
            assert len(errors) == 1 and errors[0].exc_info is None
            line = errors[0].getMessage()  # where: the innermost frame, here the stand-in
            assert "RuntimeError" in line and "test_webapp_server.py:" in line, line
        finally:
            await client.close()


async def test_a_button_pressed_in_the_chat_while_a_page_is_open_updates_that_chat(tmp_path):
    """Issue 33: a person whose page is open has their hand message held back, but one who
    presses a move button in the private chat is looking at the chat: the pressed message
    shows the match as it is at once (its keyboard gone), while the others, in their pages,
    are left as they are."""
    from ui import compose

    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id = await _started(h)
        client = await _client(h)
        streams = []
        try:
            view = await h.app.service.store.view(match_id)
            for p in PEOPLE:
                r = await client.get(f"/webapp/api/state?m={match_id}",
                                     headers=auth(init_data(p)))
                token = (await r.json())["token"]
                streams.append(await client.get(
                    f"/webapp/api/stream?token={token}&since={view.version}"))
            for _ in range(500):
                if h.app.pages.watching(match_id) == {p.id for p in PEOPLE}:
                    break
                await asyncio.sleep(0.01)
            mover, pressed = h.the_live_keyboard(PEOPLE)
            others = {p.id: [(m.text, m.markup) for m in h.tg.chat(p.id)]
                      for p in PEOPLE if p is not mover}
            await h.press(mover, pressed, data=pressed.move_buttons()[0].callback_data)
            now = await h.app.service.store.view(match_id)
            assert now.version > view.version
            assert not pressed.move_buttons()
            locale = await h.app.languages.of_user(mover.id)
            assert pressed.text == compose.hand_text(
                locale, now.hand_for(mover.id), now.table, tr=h.app.tr)
            assert {p: [(m.text, m.markup) for m in h.tg.chat(p)] for p in others} == others
        finally:
            for s in streams:
                s.close()
            await client.close()
