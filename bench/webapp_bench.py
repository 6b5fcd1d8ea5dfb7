"""Mini App benchmark (issue 21): how fast a move made in a page reaches the other seats'
pages, and how many Bot API calls a move costs when everyone plays in pages against when
everyone presses buttons in the private chat.

    nice .venv/bin/python bench/webapp_bench.py              # about 1–2 minutes
    nice .venv/bin/python bench/webapp_bench.py --matches 3

The real ``bot.py`` runs as a child process against the Bot API emulator of ``tests/emulator``
(in this process, flood control off, the outbox's limits off), with its Mini App on a free
loopback port; Debian's Chromium shows one page per player (``tests/pagekit.py``).  Four people
play classic matches to 101:

- **page → pages**: each page notes, on its own clock (one browser: one clock), when it first
  shows a version; a move's latency is from the click that sent it to each other seat's page
  showing the version it made — p50 and p99 over every (move, other page) pair;
- **Bot API calls per move**: every call the bot made (``getUpdates`` aside) from the first move
  until it fell quiet after the last, divided by the moves.  Then the same number of matches
  played by pressing the private chat's buttons, as today (``tests.e2e.players.Table.play``).
- **the chats once a page closes** (issue 33): in each match played in pages one player closes
  their page after :data:`CLOSE_AT` moves; their private chat must then show their hand as it
  is, with the move buttons exactly when it is their turn (read from the page's own state
  call), before they open the page again and play on.  Its calls count with the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.botproc import FAST_RATES, BotProcess  # noqa: E402
from tests.e2e.players import CallFeed, Table  # noqa: E402
from tests.emulator import Emulator, FloodLimits  # noqa: E402
from tests.pagekit import (  # noqa: E402
    free_port,
    launch,
    open_page,
    page_url,
    tap_a_move,
    version,
)

SEEN = """
window.__seen = {}; window.__click = 0;
document.addEventListener("click", () => {
  window.__click = performance.timeOrigin + performance.now(); }, true);
new MutationObserver(() => {
  const v = document.body && document.body.dataset.version;
  if (v && !(v in window.__seen)) window.__seen[v] = performance.timeOrigin + performance.now();
}).observe(document, {attributes: true, subtree: true,
                       attributeFilter: ["data-version"]});
"""


#: After how many moves of a match played in pages one player closes their page.
CLOSE_AT = 15


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


async def _table(client, first_id: int) -> Table:
    feed = CallFeed(client, since=(await client.state())["last_call_seq"])
    table = await Table.create(client, feed, ("Оля", "Петя", "Маша", "Серж"), first_id=first_id)
    await table.configure(match_limit="101")
    await table.gather()
    await table.start()
    return table


async def _quiet(client, quiet: float = 0.5) -> int:
    """Wait until the bot made no call for ``quiet`` seconds; the last call's number."""
    await client.wait_idle(quiet=quiet)
    return (await client.state())["last_call_seq"]


async def _calls(client, since: int, until: int) -> int:
    return len([c for c in await client.calls(since=since)
                if c["seq"] <= until and c["method"].lower() != "getupdates"])


async def _page_state(port: int, init_data: str, match_id: int) -> dict:
    """The state the page of ``init_data``'s user is given (its own call)."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/webapp/api/state?m={match_id}",
                            headers={"Authorization": f"tma {init_data}"}) as r:
            return (await r.json())["state"]


async def _chat_caught_up(client, port: int, init_data: str, user_id: int, match_id: int,
                          timeout: float = 30.0) -> float:
    """Wait until ``user_id``'s private chat shows their hand as the page's state has it —
    its tiles, and move buttons exactly when it is their turn; the seconds it took."""
    begin = time.monotonic()
    while True:
        hand = (await _page_state(port, init_data, match_id))["hand"]
        pairs = [tuple(int(x) for x in code.split("-")) for code in hand["tiles"]]
        tiles = " ".join(f"[{a}|{b}]" for a, b in sorted((min(p), max(p)) for p in pairs))
        last = await client.last_bot_message(user_id)
        presses = [b for b in (last.flat_buttons if last else []) if b.callback_data]
        if last is not None and tiles in (last.text or "").splitlines() \
                and bool(presses) == bool(hand["your_turn"]):
            return time.monotonic() - begin
        if time.monotonic() - begin > timeout:
            raise RuntimeError(f"user {user_id}'s private chat never showed {tiles} "
                               f"(turn: {hand['your_turn']}): {last}")
        await client.wait_change((await client.state())["version"], timeout=1.0)


async def in_pages(client, browser, port: int, first_id: int
                   ) -> tuple[list[float], int, int, float]:
    """One match played in pages: (latencies in ms, moves, Bot API calls, seconds a closed
    page's private chat took to show the hand as it is)."""
    table = await _table(client, first_id)
    pages, datas = [], []
    for p in table.players:
        data = await client.webapp_init_data(p.id)
        datas.append(data)
        pages.append(await open_page(browser, page_url(port, data, match=table.match_id),
                                     script=SEEN))
    start = await _quiet(client)
    latencies: list[float] = []
    moves = 0
    caught_up = -1.0
    deadline = time.monotonic() + 600  # (a loaded machine plays slowly)
    while time.monotonic() < deadline:
        if await pages[0].locator("#final:not([hidden])").count():
            break
        moved = False
        if moves >= CLOSE_AT and caught_up < 0:
            # the last player closes their page: their private chat takes over
            k = len(pages) - 1
            await pages[k].context.close()
            caught_up = await _chat_caught_up(client, port, datas[k], table.players[k].id,
                                              table.match_id)
            pages[k] = await open_page(browser, page_url(port, datas[k],
                                                         match=table.match_id), script=SEEN)
        for page in pages:
            before = await version(page)
            if not await tap_a_move(page):
                continue
            try:
                await page.wait_for_function(
                    f"Number(document.body.dataset.version) > {before}", timeout=5000)
            except Exception:
                continue
            seen_here = [int(v) for v in await page.evaluate("Object.keys(window.__seen)")]
            if not any(v > before for v in seen_here):
                raise RuntimeError(f"the page noted no version after {before}: {seen_here}")
            made = min(v for v in seen_here if v > before)
            clicked = await page.evaluate("window.__click")
            for other in pages:
                if other is page:
                    continue
                await other.wait_for_function(
                    f"Number(document.body.dataset.version) >= {made}", timeout=5000)
                seen = await other.evaluate(
                    f"Math.min(...Object.entries(window.__seen).filter(([v]) => +v >= {made})"
                    ".map(([, t]) => t))")
                latencies.append(seen - clicked)
            moves += 1
            moved = True
        if not moved:
            await asyncio.sleep(0.02)
    end = await _quiet(client)
    calls = await _calls(client, start, end)
    if not await pages[0].locator("#final:not([hidden])").count():
        raise RuntimeError(f"the match in pages did not end within the time ({moves} moves)")
    for page in pages:
        await page.context.close()
    return latencies, moves, calls, caught_up


async def by_buttons(client, first_id: int) -> tuple[int, int]:
    """One match played with the private chat's buttons: (moves, Bot API calls)."""
    table = await _table(client, first_id)
    start = await _quiet(client)
    log = await table.play(random.Random(first_id), timeout=30)
    end = await _quiet(client)
    moves = len([p for p in log.presses if p.data.startswith(("m1:", "p1:p"))]) or len(
        log.presses)
    return moves, await _calls(client, start, end)


async def main(matches: int) -> None:
    from playwright.async_api import async_playwright

    emu = Emulator(flood=FloodLimits(enabled=False))
    await emu.start()
    client = emu.client()
    port = free_port()
    settings = {**FAST_RATES, "BOT_MOVE_DELAY": "0", "PICTURE_WORKERS": "0",
                "TABLE_VIEW": "text", "WEBAPP_URL": f"http://127.0.0.1:{port}/webapp/",
                "WEBAPP_SHORT_NAME": "table", "WEBAPP_HOST": "127.0.0.1",
                "WEBAPP_PORT": str(port), "LOG_LEVEL": "WARNING"}
    folder = Path(tempfile.mkdtemp(prefix="webapp-bench-"))
    proc = BotProcess(api_url=emu.url, token=emu.token, database=folder / "kozel.sqlite3",
                      log_path=folder / "bot.log", settings=settings, emulator=emu)
    pw = await async_playwright().start()
    browser = await launch(pw)
    try:
        await proc.start(timeout=60)
        lat: list[float] = []
        page_moves = page_calls = 0
        caught: list[float] = []
        for n in range(matches):
            got, moves, calls, took = await in_pages(client, browser, port, 20_000 + 10 * n)
            lat += got
            page_moves += moves
            page_calls += calls
            caught.append(took)
        button_moves = button_calls = 0
        for n in range(matches):
            moves, calls = await by_buttons(client, 30_000 + 10 * n)
            button_moves += moves
            button_calls += calls
        print(f"matches: {matches} in pages, {matches} by buttons (4 people, classic to 101)")
        print(f"page → other seats' pages: n={len(lat)}  p50 {pct(lat, 50):.1f} ms  "
              f"p99 {pct(lat, 99):.1f} ms  max {max(lat):.1f} ms  "
              f"mean {statistics.fmean(lat):.1f} ms")
        print(f"Bot API calls per move, everyone in pages: {page_calls / page_moves:.2f} "
              f"({page_calls} calls / {page_moves} moves)")
        print("a page closed mid-match: its private chat showed the hand as it is after "
              + ", ".join(f"{t:.1f} s" for t in caught))
        print(f"Bot API calls per move, everyone by buttons: {button_calls / button_moves:.2f} "
              f"({button_calls} calls / {button_moves} moves)")
    finally:
        proc.kill()
        await browser.close()
        await pw.stop()
        await client.close()
        await emu.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2)
    asyncio.run(main(parser.parse_args().matches))
