"""The Mini App's page in a real browser: Debian's Chromium driven by Playwright's async API
(the tests' event loop also runs the test Bot API server, so the sync API cannot be used).

Telegram opens a Mini App with its launch parameters in the address's fragment
(``#tgWebAppData=<initData>&tgWebAppThemeParams=<JSON>``) and the page loads
``telegram-web-app.js`` from telegram.org, which cannot be reached here: :data:`TELEGRAM_STUB`
stands in for it — ``Telegram.WebApp`` with the launch parameters, and a
``HapticFeedback`` that records each call in ``window.__haptics``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

#: Debian's Chromium (``apt install chromium``; .ci/run installs it).
CHROMIUM = Path(os.environ.get("KOZEL_CHROMIUM", "/usr/bin/chromium"))

TELEGRAM_STUB = """
(function () {
  const h = new URLSearchParams(location.hash.slice(1));
  let theme = {};
  try { theme = JSON.parse(h.get("tgWebAppThemeParams") || "{}"); } catch (e) {}
  window.__haptics = [];
  const note = (x) => window.__haptics.push(x);
  window.Telegram = { WebApp: {
    initData: h.get("tgWebAppData") || "", themeParams: theme,
    colorScheme: (parseInt((theme.bg_color || "#fff").slice(1, 3), 16) < 100)
      ? "dark" : "light",
    ready() {}, expand() {}, onEvent() {},
    HapticFeedback: { impactOccurred: (s) => note("impact:" + s),
                      notificationOccurred: (s) => note("notify:" + s),
                      selectionChanged: () => note("select") },
  } };
})();
"""

LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579",
         "link_color": "#3390ec", "button_color": "#3390ec", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f4f4f5"}
DARK = {"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
        "link_color": "#6ab3f3", "button_color": "#5288c1", "button_text_color": "#ffffff",
        "secondary_bg_color": "#232e3c"}


def need_browser() -> None:
    """Skip the test without Chromium, unless ``KOZEL_REQUIRE_BROWSER=1`` (CI), where a
    missing browser fails it."""
    if CHROMIUM.exists() or shutil.which(str(CHROMIUM)):
        return
    if os.environ.get("KOZEL_REQUIRE_BROWSER") == "1":
        pytest.fail(f"KOZEL_REQUIRE_BROWSER=1 but there is no Chromium at {CHROMIUM}")
    pytest.skip(f"no Chromium at {CHROMIUM} (apt install chromium)")


def free_port() -> int:
    """A free TCP port on the loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def webapp_env(port: int) -> dict[str, str]:
    """The bot's settings for a Mini App on ``127.0.0.1:port``."""
    return {"WEBAPP_URL": f"http://127.0.0.1:{port}/webapp/", "WEBAPP_SHORT_NAME": "table",
            "WEBAPP_HOST": "127.0.0.1", "WEBAPP_PORT": str(port)}


def page_url(port: int, init_data: str, *, match: int | None = None,
             theme: dict | None = None) -> str:
    """The address Telegram opens: the page (``?m=`` as the private chat's ``web_app``
    button has it, none for the group's direct link) with its launch parameters."""
    query = f"?m={match}" if match is not None else ""
    fragment = f"tgWebAppData={quote(init_data, safe='')}"
    fragment += "&tgWebAppThemeParams=" + quote(json.dumps(theme or LIGHT), safe="")
    return f"http://127.0.0.1:{port}/webapp/{query}#{fragment}"


async def launch(playwright: Any) -> Any:
    """Chromium, headless (``--no-sandbox``: the tests may run as root)."""
    return await playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])


async def open_page(browser: Any, url: str, *, width: int = 420, height: int = 860,
                    script: str | None = None) -> Any:
    """A page in a context of its own (as each user has their own phone) at ``url``, with
    :data:`TELEGRAM_STUB` in place of telegram.org's script (and ``script`` run before the
    page's own); waits for the first state."""
    context = await browser.new_context(viewport={"width": width, "height": height},
                                        device_scale_factor=2)
    if script:
        await context.add_init_script(script)
    page = await context.new_page()
    await page.route("https://telegram.org/**", lambda route: route.fulfill(
        status=200, content_type="application/javascript", body=TELEGRAM_STUB))
    await page.goto(url)
    await page.wait_for_function("document.body.dataset.version || document.body.dataset.error")
    return page


async def version(page: Any) -> int:
    """The version the page shows."""
    return int(await page.evaluate("document.body.dataset.version || -1"))


async def tap_a_move(page) -> bool:
    """Tap the first legal tile, then its first end, then "play" when the move is built;
    False when the page has no legal tile."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    tile = page.locator("button.tile.legal:not([disabled])").first
    if not await tile.count():
        return False
    summary = page.locator("#panel[data-kind=summary]:not([hidden]) #panel-close")
    before = await version(page)
    sent = f"document.body.dataset.busy === '1' || Number(document.body.dataset.version) > {before}"
    try:
        if await summary.count():  # the last round's summary, read and closed
            await summary.click(timeout=2000)
        await tile.click(timeout=2000)
        for _ in range(6):
            if await page.evaluate(sent):
                break
            ends = page.locator("#ends:not([hidden]) button.end")
            more = page.locator("button.tile.legal:not([disabled])")
            if await ends.count():
                await ends.first.click(timeout=2000)
            elif await page.locator("#play-now:not([hidden])").count():
                await page.locator("#play-now").click(timeout=2000)
            elif await page.locator("#building:not([hidden])").count() and await more.count():
                await more.first.click(timeout=2000)
            else:
                break
    except PlaywrightTimeout:  # the page moved on under the finger: look again
        pass
    return True
