"""The Mini App's page in Debian's Chromium (issue 21), against the real bot process and the
test Bot API server: two people and two computer players play a whole match in pages, each
move appearing on the other pages and a spectator's without a reload; a tap out of turn and a
stale page are refused and change nothing; forged, tampered and expired ``initData`` gets no
table; Telegram's theme reaches the page.  What the server answers is tested at the HTTP
level in ``tests/test_webapp_server.py``; these tests are few on purpose.

With ``KOZEL_WEBAPP_SHOTS=<folder>`` the pages are also photographed there (the pictures
of docs/WEBAPP.md)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.botproc import FAST_RATES, BotProcess
from tests.e2e.fixtures import Shared
from tests.e2e.players import Table
from tests.emulator import Emulator, FloodLimits
from tests.pagekit import (
    DARK,
    TELEGRAM_STUB,
    free_port,
    launch,
    need_browser,
    open_page,
    page_url,
    tap_a_move,
    version,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

SHOTS = os.environ.get("KOZEL_WEBAPP_SHOTS")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def world(tmp_path_factory) -> AsyncIterator[tuple[Shared, int, object]]:
    """One emulator, one bot with its Mini App on a free port, one Chromium."""
    need_browser()
    from playwright.async_api import async_playwright

    emu = Emulator(flood=FloodLimits(enabled=False))
    await emu.start()
    port = free_port()  # after the emulator took its own
    client = emu.client()
    settings = {**FAST_RATES, "BOT_MOVE_DELAY": "0", "PICTURE_WORKERS": "0",
                "TABLE_VIEW": "text", "WEBAPP_URL": f"http://127.0.0.1:{port}/webapp/",
                "WEBAPP_SHORT_NAME": "table", "WEBAPP_HOST": "127.0.0.1",
                "WEBAPP_PORT": str(port)}
    pw = await async_playwright().start()
    browser = await launch(pw)
    folder = tmp_path_factory.mktemp("bot")
    proc = BotProcess(api_url=emu.url, token=emu.token, database=folder / "kozel.sqlite3",
                      log_path=folder / "bot.log", settings=settings, emulator=emu, fork=True)
    try:
        await proc.start(timeout=60)  # a busy machine starts it slowly
        yield Shared(emu, client, proc), port, browser
    finally:
        proc.kill()
        print(f"--- bot output ---\n{proc.log_tail()}")
        await browser.close()
        await pw.stop()
        await client.close()
        await emu.stop()


async def _table(shared: Shared, first_id: int, *, bots: int = 2, game: str = "",
                 limit: str = "51") -> Table:
    feed = await shared.feed()
    names = ("Оля", "Петя", "Маша", "Серж")[:4 - bots]
    table = await Table.create(shared.client, feed, names, first_id=first_id)
    await table.configure(match_limit=limit)
    await table.gather(game)
    for n in range(bots):
        await table.command(table.players[0], "/addbot easy")
        await table.wait_seated(len(names) + n + 1)
    await table.start()
    return table


async def _pages(shared: Shared, port: int, browser, table: Table, *, theme=None):
    players = []
    for p in table.players:
        data = await shared.client.webapp_init_data(p.id)
        players.append(await open_page(browser, page_url(port, data, match=table.match_id,
                                                         theme=theme)))
    await shared.client.create_user(table.players[0].id + 50, "Зритель")
    data = await shared.client.webapp_init_data(table.players[0].id + 50,
                                                start_param=f"m{table.match_id}")
    spectator = await open_page(browser, page_url(port, data, theme=theme))
    return players, spectator


async def _all_reach(pages, at_least: int, timeout: float = 5.0) -> None:
    for page in pages:
        await page.wait_for_function(f"Number(document.body.dataset.version) >= {at_least}",
                                     timeout=timeout * 1000)


async def _seat_cards_are_labelled(page) -> None:
    """Issue 30 item 15: a seat card says what its number is («счёт 96», as the text table
    says it), and its tiles' backs are drawn, not a glyph of a font the phone may lack."""
    cards = await page.evaluate("""() => [...document.querySelectorAll('.seat')].map((s) => ({
        tiles: Number(s.querySelector('.count').dataset.tiles),
        backs: s.querySelectorAll('.backs i').length,
        glyphs: s.querySelector('.backs').textContent,
        score: (s.querySelector('.score') || {}).textContent || null}))""")
    from ui.i18n import get_translator

    word = get_translator().plain(await page.evaluate("document.documentElement.lang"),
                                  "webapp-score")
    assert cards and all(c["backs"] == min(c["tiles"], 12) and c["glyphs"] == ""
                         for c in cards), cards
    assert all(c["score"] and c["score"].split()[0] == word
               and c["score"].split()[1].lstrip("+").split("(")[0].isdigit()
               for c in cards), cards


async def _uncovered(page, selector: str) -> bool:
    """Whether the first ``selector`` is what a finger at its middle touches."""
    return await page.evaluate("""(sel) => {
        const el = document.querySelector(sel);
        if (!el) return false;
        el.scrollIntoView({block: "center"});
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && (hit === el || el.contains(hit));
    }""", selector)


async def test_a_whole_match_played_in_pages_with_a_spectator(world):
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    shared, port, browser = world
    table = await _table(shared, 9100)
    players, spectator = await _pages(shared, port, browser, table)
    everyone = [*players, spectator]
    actions: list[str] = []
    for page in everyone:
        page.on("request", lambda r: actions.append(r.url) if "/api/action" in r.url else None)
    moves, shot_mid, deadline = 0, False, time.monotonic() + 40
    while time.monotonic() < deadline:
        if await spectator.locator("#final:not([hidden])").count():
            break
        moved = False
        for page in players:
            before = await version(page)
            if await tap_a_move(page):
                try:
                    await page.wait_for_function(
                        f"Number(document.body.dataset.version) > {before}", timeout=3000)
                except PlaywrightTimeout:
                    continue
                after = await version(page)
                # the move appears on every other page without a reload
                await _all_reach([p for p in everyone if p is not page], after)
                moves += 1
                moved = True
                if moves == 1:
                    await _seat_cards_are_labelled(page)
                if SHOTS and not shot_mid and moves >= 7:
                    await page.screenshot(path=str(Path(SHOTS) / "webapp-line.png"))
                    shot_mid = True
        # the spectator never holds a tile of a hand
        assert await spectator.locator("#hand button.tile").count() == 0
        if not moved:
            await asyncio.sleep(0.05)
    for page in everyone:
        await page.wait_for_selector("#final:not([hidden])", timeout=5000)
    assert moves >= 2 and len(actions) >= moves
    for page in everyone:
        await _seat_cards_are_labelled(page)
        # the match's end covers nothing: the seats with the goat and the table stay in view
        assert await _uncovered(page, "#table-wrap") and await _uncovered(page, ".seat.goat")
        assert await page.locator("#panel:not([hidden])").count() == 0
    text = await spectator.locator("#final-text").inner_text()
    assert "🐐" in text or "коз" in text.lower()
    assert await spectator.evaluate("document.body.dataset.role") == "spectator"
    assert "impact:medium" in await players[0].evaluate("window.__haptics")
    if SHOTS:
        await players[0].screenshot(path=str(Path(SHOTS) / "webapp-match-end.png"))
    assert await table.wait_end()  # the group heard of the end, as today
    for page in everyone:
        await page.context.close()


async def test_out_of_turn_and_stale_taps_are_refused_and_change_nothing(world):
    shared, port, browser = world
    table = await _table(shared, 9200, bots=2)
    players, spectator = await _pages(shared, port, browser, table)
    # wait for a person's turn
    for _ in range(100):
        mine = [p for p in players if await p.locator("button.tile.legal").count()]
        if mine:
            break
        await asyncio.sleep(0.05)
    (turn,) = mine
    other = players[1 - players.index(turn)]
    shown = await version(turn)
    # out of turn: the other page's tiles are not enabled, and a forced request is refused
    assert await other.locator("button.tile.legal").count() == 0
    answer = await other.evaluate("""async (v) => {
        const init = window.Telegram.WebApp.initData;
        const m = new URLSearchParams(location.search).get("m");
        const r = await fetch("api/action", {method: "POST", headers: {
            Authorization: "tma " + init, "Content-Type": "application/json"},
            body: JSON.stringify({m, version: v, placements: [{tile: "0-0", end: null}]})});
        return [r.status, await r.json()];
    }""", shown)
    assert answer[0] == 409 and answer[1]["error"] == "not_your_turn"
    # the other person plays on in the private chat from here: their page closes (while it
    # was open their chat waited for it, issue 33)
    await other.context.close()
    # a stale page: its stream is held, the move is made from the private chat's button
    await turn.route("**/api/stream*", lambda route: None)
    await turn.reload()
    await turn.wait_for_function(f"Number(document.body.dataset.version) === {shown}")
    # the keyboard of that very version (its message may come after the page's state, and
    # once the page's stream ended and its grace passed when the chat waited for the page)
    kb = await table.next_keyboard(shown - 1)
    assert kb is not None and kb.version == shown
    await table.press(kb)
    # the computer players' turns after it, if any, up to the next person's keyboard: the
    # version the game rests at until a person presses
    rest = await table.next_keyboard(shown)
    assert rest is not None
    now = rest.version
    await _all_reach([spectator], now)
    assert await version(turn) == shown  # the page did not hear of it
    await tap_a_move(turn)
    await turn.wait_for_selector("#toast:not([hidden])", timeout=5000)
    reason = await turn.locator("#toast").inner_text()
    assert reason.strip()
    assert "notify:error" in await turn.evaluate("window.__haptics")
    # the refusal brings the page the server's state: still ``now``, so nothing changed
    await turn.wait_for_function(f"Number(document.body.dataset.version) >= {now}",
                                 timeout=5000)
    assert await version(turn) == now and await version(spectator) == now
    for page in (turn, spectator):
        await page.context.close()


async def test_a_page_whose_stream_fails_polls_and_still_follows_the_game(world):
    shared, port, browser = world
    table = await _table(shared, 9500, bots=3)
    data = await shared.client.webapp_init_data(table.players[0].id)
    context = await browser.new_context(viewport={"width": 420, "height": 860})
    page = await context.new_page()
    await page.route("https://telegram.org/**", lambda route: route.fulfill(
        status=200, content_type="application/javascript", body=TELEGRAM_STUB))
    await page.route("**/api/stream*", lambda route: route.abort())
    await page.goto(page_url(port, data, match=table.match_id))
    await page.wait_for_function("document.body.dataset.polling === '1'", timeout=10_000)
    for _ in range(50):  # its own turn, after the computer players' (seen by polling)
        if await page.locator("button.tile.legal").count():
            break
        await asyncio.sleep(0.1)
    shown = await version(page)
    assert await tap_a_move(page)
    # its move's answer gives it shown + 1; what the computer players do next comes by polling
    await page.wait_for_function(f"Number(document.body.dataset.version) > {shown + 1}",
                                 timeout=8000)
    await context.close()


async def test_forged_tampered_and_expired_init_data_get_no_table(world):
    shared, port, browser = world
    table = await _table(shared, 9300, bots=3)
    uid = table.players[0].id
    good = await shared.client.webapp_init_data(uid)
    expired = await shared.client.webapp_init_data(uid, auth_date=time.time() - 3 * 86_400)
    tampered = good.replace(f"%22id%22%3A{uid}", f"%22id%22%3A{uid + 1}")
    assert tampered != good
    forged = good[:-4] + ("0000" if not good.endswith("0000") else "1111")
    for data in (forged, tampered, expired):
        page = await open_page(browser, page_url(port, data, match=table.match_id))
        assert await page.evaluate("document.body.dataset.error") == "auth"
        assert await page.locator("#table *").count() == 0
        assert await page.locator("#hand button").count() == 0
        await page.context.close()
    page = await open_page(browser, page_url(port, good, match=table.match_id))
    assert await page.evaluate("document.body.dataset.role") == "player"
    await page.context.close()


async def test_the_theme_reaches_the_page(world):
    shared, port, browser = world
    table = await _table(shared, 9400, bots=3, game="donkey", limit="51")
    data = await shared.client.webapp_init_data(table.players[0].id)
    page = await open_page(browser, page_url(port, data, match=table.match_id, theme=DARK))
    colours = await page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.body).color,
        getComputedStyle(document.documentElement).getPropertyValue("--tg-theme-bg-color"),
        document.documentElement.dataset.scheme]""")
    assert colours == ["rgb(23, 33, 43)", "rgb(245, 245, 245)", "#17212b", "dark"]
    if SHOTS:
        for _ in range(60):  # a few tiles on the cross first
            if int(await page.evaluate("document.getElementById('table').dataset.tiles || 0")) >= 6:
                break
            if not await tap_a_move(page):
                await asyncio.sleep(0.1)
        await page.screenshot(path=str(Path(SHOTS) / "webapp-cross-dark.png"))
        light = await open_page(browser, page_url(port, data, match=table.match_id))
        await light.screenshot(path=str(Path(SHOTS) / "webapp-cross.png"))
        await light.context.close()
    await page.context.close()
