"""The local table in Debian's Chromium (issue 34), as a newcomer meets it: a fresh clone's
``make run`` with no token in the environment, the page it names opened in the browser, a
match of Козёл against three computer players played to its end by clicking — tiles tapped in
the Mini App in the middle, and the hand's buttons pressed in the private chat beside it — a
second page as a second person of the same table (watching the match, the same moves, the
same group), a lobby a second person takes a seat in with the group's button, then Ctrl-C,
which stops everything the table started, and a second ``make run`` that goes on where the
first left off.

The "fresh clone" is the repository's files (``git ls-files``) in a temporary folder, with no
``.env``, no ``local-table/`` and no token; its ``.venv`` is the one running these tests, so
``make run`` goes straight to ``bot.py`` (``-o`` marks the install step done: what it would
install is what runs here).  The table's port is any free one (``LOCAL_TABLE_PORT=0``);
computer players move at once (``BOT_MOVE_DELAY=0``); everything else is as ``make run``
has it, pictures included.

With ``KOZEL_LOCAL_SHOTS=<folder>`` the page is also photographed there (choosing a game,
mid-round, the match's end: the pictures of docs/LOCAL_TABLE.md and the README).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.pagekit import launch, need_browser, tap_a_move, version

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[1]
SHOTS = os.environ.get("KOZEL_LOCAL_SHOTS")
#: What the terminal says once the table is up: where to open it.
OPEN = re.compile(r"Open\s+(http://127\.0\.0\.1:\d+/)")
WIDE = {"width": 1400, "height": 900}
#: A hand's button: a tile, maybe with the end it goes to.
TILE_BUTTON = r"/^\[\d\|\d\]/"


def fresh_clone(dest: Path) -> Path:
    """The repository's files (tracked, and new ones not ignored) copied to ``dest`` as a clone
    has them, with this interpreter's environment as its ``.venv``."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True)
    if listed.returncode == 0:
        for name in filter(None, listed.stdout.decode().split("\0")):
            source = ROOT / name
            if source.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, dest / name)
    else:  # a tree without git (an unpacked archive): all but what a run or a test leaves
        left = shutil.ignore_patterns(".git", ".venv", ".env", "local-table", "__pycache__",
                                      "*.egg-info", ".*_cache", ".hypothesis")
        shutil.copytree(ROOT, dest, dirs_exist_ok=True, symlinks=True, ignore=left)
    (dest / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    return dest


class MakeRun:
    """``make run`` in ``folder`` with no token, in a session of its own (as a terminal runs
    it): its output, the page's address, and Ctrl-C."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self.url = ""
        self._reader: asyncio.Task | None = None

    async def start(self, timeout: float = 120.0) -> str:
        env = {k: v for k, v in os.environ.items()
               if k not in ("BOT_TOKEN", "MAKEFLAGS", "MAKELEVEL")}
        env.update(LOCAL_TABLE_PORT="0", LOCAL_TABLE_BROWSER="0", BOT_MOVE_DELAY="0",
                   PYTHONUNBUFFERED="1")
        self.lines = []
        self.proc = await asyncio.create_subprocess_exec(
            "make", "-o", ".venv/.installed-stamp", "run", cwd=self.folder, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True)
        opened = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(opened))
        self.url = await asyncio.wait_for(opened, timeout)
        return self.url

    async def _read(self, opened: asyncio.Future) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            text = line.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(text)
            found = OPEN.search(text)
            if found and not opened.done():
                opened.set_result(found.group(1))
        if not opened.done():
            opened.set_exception(RuntimeError("make run ended:\n" + self.output))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def left(self) -> list[int]:
        """The processes still in the table's session (its pictures', its computer players')."""
        assert self.proc is not None
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == self.proc.pid and fields[0] != "Z":  # its session id
                found.append(int(stat.parent.name))
        return found

    async def ctrl_c(self, timeout: float = 60.0) -> list[str]:
        """What Ctrl-C in its terminal does: SIGINT to the foreground group.  Returns once the
        output ended (every process that could write to it is gone) and ``make`` exited, with
        the command lines of what is still in the session after ``timeout`` seconds (a
        helper of Python's multiprocessing ends once it sees its parent gone)."""
        assert self.proc is not None and self._reader is not None
        os.killpg(self.proc.pid, signal.SIGINT)
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        await asyncio.wait_for(self.proc.wait(), timeout)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (left := self.left()) and loop.time() < deadline:
            await asyncio.sleep(0.05)  # no event tells a foreign process's end: look again
        return [Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                for pid in left if Path(f"/proc/{pid}/cmdline").exists()]

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with_pids = self.left()
            for pid in with_pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def table(tmp_path_factory) -> AsyncIterator[tuple[MakeRun, object]]:
    """A fresh clone's ``make run`` without a token, and one Chromium."""
    need_browser()
    if shutil.which("make") is None:
        pytest.skip("needs make (make run is what is tested)")
    from playwright.async_api import async_playwright

    run = MakeRun(fresh_clone(tmp_path_factory.mktemp("clone")))
    pw = await async_playwright().start()
    browser = await launch(pw)
    try:
        await run.start()
        yield run, browser
    finally:
        run.kill()
        print(f"--- make run ---\n{run.output}")
        await browser.close()
        await pw.stop()


async def open_tab(browser, url: str, *, new_person: bool = False):
    """A tab of the page, in a browser of its own (another person's computer), as a person
    in English: a new one, else the only one there is or the first one the page offers."""
    context = await browser.new_context(viewport=WIDE, locale="en-US")
    page = await context.new_page()
    await page.goto(url + ("#new" if new_person else ""))
    await page.wait_for_function("document.body.dataset.etag"
                                 " || !document.getElementById('chooser').hidden")
    if await page.locator("#chooser:not([hidden])").count():
        await page.click("#chooser-people button >> nth=0")
        await page.wait_for_function("document.body.dataset.etag")
    return page


async def mini_app(page):
    """The Mini App's frame in the middle of the page, once it shows a table."""
    handle = await page.wait_for_selector("#game:not([hidden]) #miniapp[src]")
    frame = await handle.content_frame()
    await frame.wait_for_function("document.body && Number(document.body.dataset.version) >= 0")
    return frame


async def shoot(page, name: str) -> None:
    """With ``KOZEL_LOCAL_SHOTS``: the page photographed as ``NAME.png`` there, and as a
    phone 400 pixels wide shows it (``NAME-400.png``: one pane at a time, the table's)."""
    if not SHOTS:
        return
    await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))
    await page.set_viewport_size({"width": 400, "height": 860})
    try:
        await page.screenshot(path=str(Path(SHOTS) / f"{name}-400.png"))
    finally:
        await page.set_viewport_size(WIDE)


async def whose_turn(page, frame) -> str:
    """``mine`` once the Mini App offers the person a move, ``end`` once the match ended and
    the page offers a new game."""
    waits = {asyncio.ensure_future(frame.wait_for_selector(
                 "button.tile.legal:not([disabled])", timeout=120_000)): "mine",
             asyncio.ensure_future(page.wait_for_selector(
                 "#again:not([hidden])", timeout=120_000)): "end"}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    task = done.pop()
    task.result()
    return waits[task]


async def press_a_tile(page, pressed_before: str, photos: tuple | None = None) -> str:
    """Press a tile of the hand's newest keyboard in the private chat (a keyboard other than
    the one pressed before); that message's key.  A keyboard the page shows a moment before
    the bot's newest edit reaches it may be out of date: the bot refuses it with an alert,
    which is closed, and the next keyboard pressed, as a person does.  With ``photos``, the
    pages (this one and the second person's) are photographed first (mid-round: the hand's
    buttons up)."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    for _ in range(10):
        key, index = await (await page.wait_for_function(f"""() => {{
            const held = [...document.querySelectorAll('#pane-private .msg')]
                .filter((m) => m.querySelector('.keys'));
            const last = held[held.length - 1];
            if (!last || last.dataset.key === {pressed_before!r}) return null;
            const buttons = [...last.querySelectorAll('.keys button')];
            const tile = buttons.findIndex((b) => b.dataset.kind === 'callback'
                && {TILE_BUTTON}.test(b.textContent));
            return tile < 0 ? null : [last.dataset.key, tile];
        }}""", timeout=60_000)).json_value()
        if photos:
            await shoot(photos[0], "local-round")
            await shoot(photos[1], "local-round-second")
            photos = None
        button = page.locator(f"#pane-private .msg[data-key='{key}'] .keys button").nth(index)
        try:
            async with page.expect_response("**/api/press") as answered:
                await button.click(timeout=3000)
        except PlaywrightTimeout:  # the bot edited the message under the finger: look again
            continue
        answer = await (await answered.value).json()
        if not answer.get("alert"):
            return key
        await page.click("#alert-ok")  # «out of date — see the latest message»
        pressed_before = key
    raise AssertionError("every keyboard pressed was out of date")


async def test_a_match_against_three_computer_players_is_played_to_its_end_by_clicking(table):
    run, browser = table
    out = run.output
    assert "LOCAL TABLE" in out and "@BotFather" in out and "BOT_TOKEN" in out
    assert "Traceback" not in out
    page = await open_tab(browser, run.url)
    # the form: every registered game, with the options it reads
    await page.wait_for_selector("#setup:not([hidden]) #games button.game")
    from ui.variants import variants

    shown = await page.eval_on_selector_all("#games button.game",
                                            "bs => bs.map(b => b.dataset.game)")
    assert shown == [v.name for v in variants()]
    await page.click("#games [data-game=sea_goat]")
    assert await page.locator("#options select[data-option=match_limit]").count() == 1
    await page.click("#games [data-game=classic]")
    # to 101, the game's own length: a match of a round or two with few moves of one's own
    # can end at 51 before both ways of moving were used
    await page.select_option("#options select[data-option=match_limit]", "101")
    await page.click("#strengths [data-strength=easy]")
    await page.click("#bots [data-bots='3']")
    await shoot(page, "local-choose")
    await page.click("#deal")
    frame = await mini_app(page)
    # the group saw what a person would have typed, and the bot's table
    await page.wait_for_selector("#pane-group .msg .bubble.photo img")
    group = await page.inner_text("#pane-group .messages")
    assert "/newgame classic" in group and group.count("/addbot easy") == 3
    seats = await frame.eval_on_selector_all(".seat", "ss => ss.length")
    assert seats == 4

    # a second page: another person, who sees the same match and the same group
    other = await open_tab(browser, run.url, new_person=True)
    other_frame = await mini_app(other)
    assert await other_frame.evaluate("document.body.dataset.version") is not None
    assert await other.inner_text("#game-note") != ""  # watching: the seats are taken
    names = await other.eval_on_selector_all("#person option", "os => os.map(o => o.textContent)")
    assert len(names) == 3 and names[0] != names[1]  # the two people, and "another person"

    moves = {"page": 0, "chat": 0}
    pressed, pictured = "", False
    while (turn := await whose_turn(page, frame)) == "mine":
        how = "chat" if (moves["page"] + moves["chat"]) % 2 else "page"
        before = await version(frame)
        if how == "page":
            assert await tap_a_move(frame)
        else:
            pressed = await press_a_tile(page, pressed, photos=(page, other) if not pictured
                                         and moves["chat"] >= 1 else None)
            pictured = pictured or moves["chat"] >= 1
        await frame.wait_for_function(f"Number(document.body.dataset.version) > {before}",
                                      timeout=60_000)
        moves[how] += 1
        # the second page follows the same match without a reload
        now = await version(frame)
        await other_frame.wait_for_function(f"Number(document.body.dataset.version) >= {now}",
                                            timeout=30_000)
        assert moves["page"] + moves["chat"] < 400
    assert turn == "end" and moves["page"] >= 2 and moves["chat"] >= 2, moves
    # the match's end: in the Mini App, in the group (the goat), on the second page
    await frame.wait_for_selector("#final:not([hidden])")
    assert "🐐" in await frame.inner_text("#final-text")
    await page.wait_for_function("""() => [...document.querySelectorAll(
        '#pane-group .msg .body')].some((b) => b.textContent.includes('🐐'))""")
    await other_frame.wait_for_selector("#final:not([hidden])", timeout=30_000)
    await other.wait_for_function("""() => [...document.querySelectorAll(
        '#pane-group .msg .body')].some((b) => b.textContent.includes('🐐'))""")
    await shoot(page, "local-end")
    # a new game is offered again
    await page.click("#again")
    await page.wait_for_selector("#setup:not([hidden]) #deal")
    await other.close()
    await page.close()


async def test_a_second_person_takes_a_seat_with_the_groups_button(table):
    run, browser = table
    page = await open_tab(browser, run.url)
    await page.wait_for_selector("#setup:not([hidden]) #games button.game")
    await page.click("#games [data-game=classic]")
    await page.click("#wait")
    await page.click("#bots [data-bots='1']")
    await page.click("#deal")
    await page.wait_for_selector("#lobby:not([hidden])")
    other = await open_tab(browser, run.url, new_person=True)
    join = other.locator("#pane-group .keys button", has_text="Take a seat").last
    await join.click()
    start = page.locator("#pane-group .keys button", has_text="Start").last
    await page.wait_for_function("""() => [...document.querySelectorAll('#pane-group .body')]
        .some((b) => /Players \\(3 of/.test(b.textContent))""")
    await start.click()
    mine, theirs = await mini_app(page), await mini_app(other)
    assert await other.inner_text("#game-note") == ""  # seated, not watching
    assert await theirs.eval_on_selector_all(".seat", "ss => ss.length") == 3
    assert await mine.eval_on_selector_all(".seat", "ss => ss.length") == 3
    # both hands arrived in each person's own private chat
    for p in (page, other):
        await p.wait_for_function("""() => [...document.querySelectorAll('#pane-private .body')]
            .some((b) => /Your tiles/.test(b.textContent))""")
    await page.fill("#pane-group input[name=text]", "/stopgame")
    await page.press("#pane-group input[name=text]", "Enter")
    await page.click("#pane-group .keys button >> text=/Yes|Stop/", timeout=30_000)
    await page.wait_for_selector("#again:not([hidden]), #setup:not([hidden])")
    await other.close()
    await page.close()


async def test_ctrl_c_stops_everything_and_the_next_make_run_goes_on(table):
    run, browser = table
    assert run.left()  # the bot, its pictures' and computer players' processes
    assert await run.ctrl_c() == []
    out = run.output
    assert "The local table stopped" in out and "Traceback" not in out, out
    assert (run.folder / "local-table" / "kozel.sqlite3").is_file()
    assert (run.folder / "local-table" / "telegram.json").is_file()
    await run.start()
    context = await browser.new_context(viewport=WIDE, locale="en-US")
    page = await context.new_page()
    await page.goto(run.url)
    await page.wait_for_selector("#chooser:not([hidden])")  # who is this tab?
    people = await page.eval_on_selector_all("#chooser-people button",
                                             "bs => bs.map(b => b.textContent)")
    assert len(people) == 4  # three people and "another person"
    await page.click("#chooser-people button >> nth=0")
    await page.wait_for_function("document.body.dataset.etag")
    # the first match's end is still in the group, and the bot still knows it
    await page.wait_for_function("""() => [...document.querySelectorAll(
        '#pane-group .msg .body')].some((b) => b.textContent.includes('🐐'))""")
    await page.fill("#pane-group input[name=text]", "/history")
    await page.press("#pane-group input[name=text]", "Enter")
    await page.wait_for_function("""() => [...document.querySelectorAll(
        '#pane-group .msg .body')].some((b) => /#1\\b/.test(b.textContent)
        && b.textContent.includes('Kozel'))""", timeout=30_000)
    await page.close()
