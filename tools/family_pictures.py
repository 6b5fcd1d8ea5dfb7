"""The pictures of docs/PLAYING.md for Мексиканский поезд and Колбаса (RULES.md §2.11, §2.12)
and the children's set (§2.10.4), from real matches (issue 32; a development tool).

``python -m tools.family_pictures DIR`` plays random matches through the service over a
database in a temporary folder until it reaches the tables it wants, and writes for each the
group's picture (``ui.picture.render_table_png``) and, with ``--pages``, the Mini App page
as Debian's Chromium shows it (Playwright; the page's files served from ``ui/webapp_static``
and its state from ``ui.webapp_view.page_state``, no bot needed), each also 400 pixels wide
as a phone shows it:

- ``trains-8``: eight seats on double-12 in the middle of a round, a public train and an open
  double on the table;
- ``trains-9``: three seats on double-9;
- ``sausage-before-cut`` / ``sausage-after-cut``: the turned-over tile can cut the sausage,
  and the table once it did;
- ``children``: a round of Козёл drawn with the children's set, with its legend.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from service.game import GameService
from service.views import Result
from ui.i18n import get_translator
from ui.picture import PHONE_WIDTH, phone_view, render_table_png
from ui.webapp_view import page_state

NAMES = ("Оля", "Петя", "Маша", "Серж", "Аня", "Боря", "Вика", "Гена")
STATIC = Path(__file__).resolve().parents[1] / "ui" / "webapp_static"


async def _play_until(variant: str, players: int, want: Callable[[Result], bool], *,
                      rules: dict | None = None, seeds: range = range(1, 400),
                      max_moves: int = 400, then: Callable | None = None
                      ) -> tuple[Result, Result | None]:
    """Play random matches of ``variant`` until a result ``want`` likes; that result and,
    with ``then`` (it picks the move from the hand), the result after that move."""
    for seed in seeds:
        with tempfile.TemporaryDirectory() as folder:
            svc = await GameService.open(Path(folder) / "kozel.sqlite3",
                                         seed_source=lambda s=seed: s, bot_move_delay=1.0)
            try:
                res = await svc.lobbies.open_lobby(-1, None, 1, NAMES[0],
                                                   {"variant": variant, **(rules or {})})
                for uid in range(2, players + 1):
                    res = await svc.lobbies.join(res.match_id, uid, NAMES[uid - 1])
                res = await svc.lobbies.start(res.match_id, 1)
                rng = random.Random(seed)
                for _ in range(max_moves):
                    if res.status != "playing":
                        break
                    hand = next(h for h in res.hands if h.your_turn)
                    if want(res):
                        after = None
                        if then is not None:
                            after = await svc.play.act(res.match_id, hand.user_id,
                                                       then(hand), None, res.version)
                        return res, after
                    res = await svc.play.act(res.match_id, hand.user_id,
                                             rng.choice(hand.legal), None, res.version)
            finally:
                await svc.close()
    raise SystemExit(f"no {variant} table found")


def _mid_round_trains(players: int) -> Callable[[Result], bool]:
    def want(res: Result) -> bool:
        lay = res.table.layout
        return (res.table.round_no == 1 and any(t.public for t in lay.trains)
                and bool(lay.open_trains) and lay.tiles >= 3 * players
                and res.hand_for(1) is not None and res.hand_for(1).your_turn)
    return want


def _can_cut(res: Result) -> bool:
    hand = next((h for h in res.hands if h.your_turn), None)
    s = res.table.layout.sausage
    return hand is not None and any(m.cut is not None for m in hand.legal) and s is not None \
        and min(len(s.a), len(s.b)) >= 3


def _the_cut(hand: Any) -> Any:
    return max((m for m in hand.legal if m.cut is not None), key=lambda m: m.cut)


async def tables() -> dict[str, tuple[Result, str]]:
    """The results to draw, by name, with the faces to draw them with."""
    out: dict[str, tuple[Result, str]] = {}
    res, _ = await _play_until("mexican_train", 8, _mid_round_trains(8))
    out["trains-8"] = (res, "pips")
    res, _ = await _play_until("mexican_train", 3, lambda r: r.table.round_no == 2
                               and r.table.layout.tiles >= 14, rules={"set": 9})
    out["trains-9"] = (res, "pips")
    before, after = await _play_until("kolbasa", 2, _can_cut, then=_the_cut)
    out["sausage-before-cut"] = (before, "pips")
    # the table right after the cut: the first of the step's tables (the forced
    # placements after it come one by one, ``Result.frames``)
    out["sausage-after-cut"] = (replace(after, table=after.frames[0]) if after.frames
                                else after, "pips")
    res, _ = await _play_until("classic", 3, lambda r: r.table.layout.tiles >= 8)
    out["children"] = (res, "pictures")
    return out


def pictures(found: dict[str, tuple[Result, str]], folder: Path, locale: str) -> None:
    """The group's picture of each table, and as a phone shows it."""
    for name, (res, faces) in found.items():
        png = render_table_png(res.table, locale=locale, faces=faces)
        (folder / f"{name}.png").write_bytes(png)
        (folder / f"{name}-{PHONE_WIDTH}.png").write_bytes(phone_view(png))
        print(folder / f"{name}.png", len(png))


async def pages(found: dict[str, tuple[Result, str]], folder: Path, locale: str) -> None:
    """The Mini App page of each table as its first seat sees it, 720 and 400 pixels wide."""
    from playwright.async_api import async_playwright

    from tests.pagekit import CHROMIUM, LIGHT

    tr = get_translator()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                           args=["--no-sandbox", "--disable-gpu"])
        for name, (res, faces) in found.items():
            state = page_state(res, 1, locale, tr, now=time.time(), faces=faces)
            body = json.dumps({"state": state, "token": "t"})
            for width in (720, PHONE_WIDTH):
                context = await browser.new_context(viewport={"width": width, "height": 900},
                                                    device_scale_factor=1)
                page = await context.new_page()
                await page.route("**/*", partial(_serve, state=body))
                theme = quote(json.dumps(LIGHT), safe="")
                await page.goto(f"http://kozel.test/webapp/#tgWebAppData=x&"
                                f"tgWebAppThemeParams={theme}")
                await page.wait_for_function("document.body.dataset.version")
                suffix = "" if width == 720 else f"-{PHONE_WIDTH}"
                path = folder / f"webapp-{name}{suffix}.png"
                await page.screenshot(path=str(path), full_page=True)
                print(path)
                await context.close()
        await browser.close()


async def _serve(route: Any, request: Any = None, *, state: str) -> None:
    """The page's files, its state and telegram.org's script stand-in; nothing else."""
    from tests.pagekit import TELEGRAM_STUB

    url = route.request.url.split("#")[0].split("?")[0]
    if url.startswith("https://telegram.org/"):
        await route.fulfill(status=200, content_type="application/javascript",
                            body=TELEGRAM_STUB)
    elif url.endswith("/api/state"):
        await route.fulfill(status=200, content_type="application/json", body=state)
    elif url.endswith("/webapp/") or url.endswith(("app.js", "app.css")):
        file = "index.html" if url.endswith("/") else url.rsplit("/", 1)[1]
        kind = {"html": "text/html", "js": "application/javascript",
                "css": "text/css"}[file.rsplit(".", 1)[1]]
        await route.fulfill(status=200, content_type=kind,
                            body=(STATIC / file).read_text("utf-8"))
    else:
        await route.abort()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.family_pictures")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--locale", default="ru")
    parser.add_argument("--pages", action="store_true", help="also the Mini App's pages")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    found = asyncio.run(tables())
    pictures(found, args.folder, args.locale)
    if args.pages:
        asyncio.run(pages(found, args.folder, args.locale))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
