"""Starting and stopping the local table (``make run`` without a token; ``bot.py
--local-table-without-token`` calls :func:`main`).

In one process and one event loop: the local Telegram (:mod:`localtable.telegram`) on
127.0.0.1 and a free port, the real bot polling it (``handlers.run.run``, with settings of its
own: the local token, the local Telegram's address, the database in the table's folder, the
Mini App at the page's address, Telegram's limits off because the local Telegram has none),
and the page (:mod:`localtable.page`) on ``127.0.0.1:<port>`` beside the bot.  The terminal
says that this is a local table, where to open it and how to run the real bot.

Ctrl-C (SIGINT or SIGTERM) stops the bot as it always stops (it sends what is queued and
closes the database, its pictures' and computer players' processes end with it), then the
page, then the local Telegram, whose state is written to the folder (:mod:`localtable.state`):
the next ``make run`` goes on from there.  A second table on the same folder is refused while
one runs.  Other settings (``DEFAULT_LOCALE``, ``TURN_TIMEOUT``, ``BOT_MOVE_DELAY``…) come
from the environment or ``.env`` as for the bot; the token, the database, the Bot API's
address, a webhook and the Mini App's address never do.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TextIO

from aiohttp import web
from pydantic import ValidationError

from delivery.app import App
from delivery.settings import Settings
from localtable.page import LocalTable, create_page
from localtable.people import People
from localtable.state import LocalState
from localtable.telegram import EmulatorConfig, FloodLimits, TelegramServer
from localtable.telegram.world import World

__all__ = ["DEFAULT_PORT", "FOLDER", "local_settings", "main", "serve"]

log = logging.getLogger("localtable")

#: The page's port when it is free (``LOCAL_TABLE_PORT`` changes it; 0: any free port).
DEFAULT_PORT = 8765
#: The table's folder, in the working directory (``LOCAL_TABLE_DIR`` changes it).
FOLDER = Path("local-table")
#: Only here: the local table is never served to another machine.
HOST = "127.0.0.1"
BOT_NAME = "Козёл"
BOT_USERNAME = "kozel_local_bot"


def local_settings(token: str, api_url: str, database: Path, port: int) -> Settings:
    """The bot's settings at the local table: the environment's (or ``.env``'s), except what
    ties the bot to a Telegram, a database or an address, which are the table's (and no
    health server: the table serves this computer only, on one port)."""
    return Settings(bot_token=token, bot_api_url=api_url, database_url=None,
                    database_path=database, webhook_url=None, webhook_secret=None,
                    webapp_url=f"http://{HOST}:{port}/webapp/", webapp_short_name="table",
                    webapp_host=HOST, webapp_port=port, rate_chat_interval=0.0,
                    rate_private_burst=30, rate_group_per_minute=1_000_000,
                    rate_global_per_second=1_000_000, health_port=0,
                    # a person sees their chat beside their page here: the chat follows
                    # every move, page open or not
                    webapp_hold_chats=False)


def _listen(port: int) -> socket.socket:
    """The page's socket on 127.0.0.1: ``port``, or any free port when that one is taken."""
    for wanted in dict.fromkeys((port, 0)):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, wanted))
        except OSError:
            sock.close()
            continue
        sock.listen(128)
        sock.setblocking(False)
        return sock
    raise OSError(f"no free port on {HOST}")


def _lock(folder: Path) -> Any:
    """Hold the folder for this table (an open file with a lock), or None when another table
    holds it."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: trust the person
        return open(folder / ".lock", "w")  # noqa: SIM115
    handle = open(folder / ".lock", "w")  # noqa: SIM115
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def banner(url: str, folder: Path, port_wanted: int, port: int) -> str:
    """What the terminal says once the table is up."""
    moved = (f"  (port {port_wanted} was taken, so {port})\n"
             if port_wanted and port != port_wanted else "")
    return (
        "\n"
        "  ┌──────────────────────────────────────────────────────────────────┐\n"
        "  │  Козёл — a LOCAL TABLE: no BOT_TOKEN is set, so no Telegram.     │\n"
        "  └──────────────────────────────────────────────────────────────────┘\n"
        f"  Open  {url}  in your browser.\n{moved}"
        "  The bot runs here against a Telegram of its own on this computer: choose a game,\n"
        "  play against computer players, open a second tab to join as another person.\n"
        f"  Games are kept in {folder}/ (delete it to start afresh). Ctrl-C stops it all.\n"
        "\n"
        "  To run the real bot for your group: create it with @BotFather in Telegram\n"
        "  (/newbot), then  export BOT_TOKEN=123456:ABC...  (or  cp .env.example .env  and\n"
        "  put the token there) and run  make run  again. See README.md, \"Running it\".\n"
    )


def _open_browser(url: str, out: TextIO) -> None:
    """Open ``url`` in the person's browser when there is a person at a screen: a terminal,
    and on Linux a display (else a console browser would take the terminal)."""
    if not out.isatty() or os.environ.get("LOCAL_TABLE_BROWSER", "1") == "0":
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        return
    threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()


async def _answer_at_stop(app: App, world: World, table: LocalTable) -> None:
    """Once Ctrl-C began the bot's stop: every long poll of the local Telegram (the bot's
    getUpdates) and of the tabs answers at once, so the stop takes no longer than what is
    left to send, not the rest of a poll."""
    await app.life.stopping.wait()
    table.closing = True
    world.close()


@asynccontextmanager
async def _page(app: App, world: World, state: LocalState, sock: socket.socket, *,
                port_wanted: int, out: TextIO) -> AsyncIterator[None]:
    """The page beside the bot (``handlers.run.Beside``), and the state saved meanwhile."""
    from handlers.run import mini_app

    port = sock.getsockname()[1]
    people = People(state, world, app.tr, on_change=lambda: state.save(world))
    table = LocalTable(app, world, people, port)
    runner = web.AppRunner(create_page(table, mini_app(app.settings, app)), access_log=None,
                           shutdown_timeout=1.0)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    saving = asyncio.create_task(state.autosave(world))
    stopping = asyncio.create_task(_answer_at_stop(app, world, table))
    url = f"http://{HOST}:{port}/"
    print(banner(url, state.folder, port_wanted, port), file=out, flush=True)
    _open_browser(url, out)
    try:
        yield
    finally:
        table.closing = True
        world.changed()  # the tabs' waiting views answer now
        saving.cancel()
        stopping.cancel()
        await asyncio.gather(saving, stopping, return_exceptions=True)
        await runner.cleanup()


async def serve(folder: Path, port: int, *, out: TextIO = sys.stdout) -> int:
    """Run the local table until Ctrl-C; the exit status (1: another table holds the
    folder)."""
    from handlers.run import run

    folder.mkdir(parents=True, exist_ok=True)
    lock = _lock(folder)
    if lock is None:
        print(f"A local table is already running on {folder}/ (see its terminal).",
              file=sys.stderr)
        return 1
    try:
        state = LocalState.read(folder)
        config = EmulatorConfig(flood=FloodLimits(enabled=False), keep_history=False,
                                log_calls=False)
        server = TelegramServer(token=state.token, host=HOST, bot_name=BOT_NAME,
                                bot_username=BOT_USERNAME, config=config)
        state.restore(server.world)
        sock = _listen(port)
        api_url = await server.start()
        try:
            settings = local_settings(state.token, api_url, state.database,
                                      sock.getsockname()[1])
            await run(settings, beside=lambda app: _page(app, server.world, state, sock,
                                                          port_wanted=port, out=out))
        finally:
            state.save(server.world)
            await server.stop()
            sock.close()
        print("The local table stopped; `make run` opens it again.", file=out, flush=True)
        return 0
    finally:
        lock.close()


def _quiet_logs(level: str) -> None:
    logging.basicConfig(level=level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # an update, a request: a line each would bury what the terminal says
    for name in ("aiogram.event", "aiogram.dispatcher", "aiohttp.access"):
        logging.getLogger(name).setLevel(max(logging.WARNING, logging.getLogger().level))


def main(argv: list[str] | None = None) -> None:
    """``python -m localtable`` (and ``make run`` without a token): run the local table."""
    parser = argparse.ArgumentParser(prog="python -m localtable", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--port", type=int,
                        default=int(os.environ.get("LOCAL_TABLE_PORT", DEFAULT_PORT)),
                        help=f"the page's port on {HOST} (default {DEFAULT_PORT}; 0: any)")
    parser.add_argument("--folder", type=Path,
                        default=Path(os.environ.get("LOCAL_TABLE_DIR", str(FOLDER))),
                        help="where the games are kept (default local-table/)")
    args = parser.parse_args(argv)
    try:  # the other settings are read as the bot reads them, and checked as strictly
        settings = local_settings("1:x", "http://127.0.0.1:1", args.folder / "kozel.sqlite3",
                                  1)
    except ValidationError as exc:
        print(f"Invalid settings: {exc}", file=sys.stderr)
        sys.exit(2)
    # the terminal is the table's: warnings and errors only, unless LOG_LEVEL asks for more
    _quiet_logs(settings.log_level if "log_level" in settings.model_fields_set else "WARNING")
    status = 0
    with contextlib.suppress(KeyboardInterrupt):
        status = asyncio.run(serve(args.folder, args.port))
    sys.exit(status)
