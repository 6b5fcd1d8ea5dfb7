"""A move of several doubles built tap by tap in the Mini App's page, as the private keyboard
builds it (issue 21; RULES.md §2.0.4, §2.2 rule 2): in Debian's Chromium against the real
routers, service and publisher over a mocked Bot API (``tests/botkit.py``), at a donkey turn
whose moves of several doubles include closed ones.  Each tap changes nothing in the game
until the move is whole; then it is one move, one action with every placement."""

from __future__ import annotations

from aiohttp import web

from handlers.webapp import create_webapp
from tests.botkit import Harness
from tests.pagekit import free_port, launch, need_browser, open_page, page_url, version
from tests.test_handlers_moves import PEOPLE, _actions, _at_a_build
from tests.test_webapp_server import TOKEN, WEBAPP, init_data


async def test_a_move_of_several_doubles_is_built_tap_by_tap(tmp_path):
    need_browser()
    from playwright.async_api import async_playwright

    async with Harness(tmp_path, settings=WEBAPP) as h:
        match_id, state = await _at_a_build(h)
        person = PEOPLE[state.to_act]
        view = await h.app.service.store.view(match_id)
        legal = view.hand_for(person.id).legal
        target = max(legal, key=lambda m: (len(m.placements), sum(p.closed for p in m.placements)))
        assert len(target.placements) >= 2
        root = web.Application()
        root.add_subapp("/webapp/", create_webapp(h.app, h.app.pages, TOKEN))
        runner = web.AppRunner(root)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        pw = await async_playwright().start()
        browser = await launch(pw)
        try:
            page = await open_page(browser, page_url(port, init_data(person), match=match_id))
            before = await version(page)
            assert before == view.version
            posts: list[str] = []
            page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
            summary = page.locator("#panel:not([hidden]) #panel-close")
            if await summary.count():  # the last round's summary, read and closed
                await summary.click()
            for n, p in enumerate(target.placements):
                await page.locator(f'button.tile.legal[data-tile="{p.tile}"]').click(
                    timeout=5000)
                ends = page.locator(
                    f'#ends button.end[data-end="{p.end or ""}"]'
                    f'[data-closed="{str(p.closed).lower()}"][data-along="{str(p.along).lower()}"]')
                if await ends.count():
                    await ends.click()
                if n < len(target.placements) - 1:
                    # a part of the move: the game has not changed
                    assert await version(page) == before and posts == []
                    now = await h.app.service.store.view(match_id)
                    assert now.version == view.version
            # a whole move that nothing can extend is sent by its last tap; else "play"
            if await page.locator("#play-now:not([hidden])").count():
                await page.locator("#play-now").click(timeout=5000)
            await page.wait_for_function(
                f"Number(document.body.dataset.version) > {before}", timeout=5000)
            assert len(posts) == 1
            last = (await _actions(h, match_id))[-1]
            assert last.seat == state.to_act
            assert sorted(d["tile"] for d in last.decision["tiles"]) == sorted(
                p.tile for p in target.placements)
            # the move's haptic comes with the answer to its POST, which may arrive after
            # the pushed state that raised the version
            await page.wait_for_function(
                "window.__haptics.includes('impact:medium')", timeout=5000)
        finally:
            await browser.close()
            await pw.stop()
            await runner.cleanup()
