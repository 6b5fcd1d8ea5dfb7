"""The real bot process (``python bot.py``) against a Bot API server, for end-to-end tests and
the load benchmark.

:class:`BotProcess` starts ``bot.py`` from the repository root with an environment built from
scratch (no ``BOT_TOKEN`` or other setting leaks in from the caller's environment; a ``.env``
file in the repository is overridden for every setting the bot reads), waits until it long-polls
the emulator, and stops it with SIGTERM or SIGKILL.  Its output goes to a log file, whose tail
:meth:`BotProcess.log_tail` shows when a test fails.  CPU time and resident memory are read from
``/proc`` (Linux only).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["REPO", "FAST_RATES", "BotProcess", "proc_cpu_seconds", "proc_rss_kib"]

#: The repository root (where ``bot.py`` lives).
REPO = Path(__file__).resolve().parents[2]

#: Outbox rates for a Bot API server without flood control: no waiting at all.
FAST_RATES: dict[str, str] = {
    "RATE_CHAT_INTERVAL": "0",
    "RATE_GROUP_PER_MINUTE": "100000",
    "RATE_GLOBAL_PER_SECOND": "100000",
}

#: Every setting of ``delivery.settings.Settings`` that is given a value, so a developer's
#: ``.env`` cannot change a test (environment variables take precedence over the ``.env`` file).
_DEFAULTS: dict[str, str] = {
    "DEFAULT_LOCALE": "ru",
    "LOG_LEVEL": "WARNING",
    "TURN_TIMEOUT": "60",
    "LOBBY_TTL": "900",
    "BOT_MOVE_DELAY": "0",
    "RATE_CHAT_INTERVAL": "1.0",
    "RATE_GROUP_PER_MINUTE": "20",
    "RATE_GLOBAL_PER_SECOND": "30",
    "WEBHOOK_URL": "",
    "WEBHOOK_SECRET": "",
    "WEBAPP_URL": "",
    "WEBAPP_SHORT_NAME": "",
    "TABLE_VIEW": "picture",
    "PICTURE_WORKERS": "1",
    "LOG_FORMAT": "text",
    "HEALTH_PORT": "0",
}
_KEEP = ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is the state (field 3); utime and stime are fields 14 and 15
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def proc_rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (``VmRSS`` of ``/proc/<pid>/status``)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


class BotProcess:
    """``python bot.py`` talking to ``api_url`` with ``token``, its database at ``database``.

    ``settings`` are extra environment variables (``TURN_TIMEOUT``, ``RATE_…``); values are
    converted with ``str``.  ``log_path`` receives stdout and stderr (appended across
    restarts).  ``emulator``, when given (an in-process :class:`tests.emulator.Emulator`), lets
    :meth:`wait_polling` see the bot's ``getUpdates`` calls directly: each start talks to
    the emulator under a client name of its own (``start1``, ``start2``…,
    ``Emulator.client_url``), so only a poll of the process just started counts.  ``fork``:
    fork it from the fork server (:mod:`tests.e2e.forkserver`) instead of running
    ``python bot.py``.
    """

    def __init__(self, *, api_url: str, token: str, database: Path, log_path: Path,
                 settings: Mapping[str, Any] | None = None, emulator: Any = None,
                 fork: bool = False) -> None:
        self.api_url = api_url
        self.token = token
        self.database = Path(database)
        self.log_path = Path(log_path)
        self.settings = {k: str(v) for k, v in (settings or {}).items()}
        self.emulator = emulator
        self.fork = fork
        self.proc: Any = None  # a subprocess.Popen, or a forkserver.ForkedProcess
        self.starts = 0

    # -- life cycle ----------------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        """The process environment: a few system variables, then the bot's settings."""
        env = {k: os.environ[k] for k in _KEEP if k in os.environ}
        env.update(_DEFAULTS)
        env.update({"BOT_TOKEN": self.token, "BOT_API_URL": self._api_url(),
                    "DATABASE_PATH": str(self.database), "PYTHONUNBUFFERED": "1",
                    "PYTHONDONTWRITEBYTECODE": "1"})
        env.update(self.settings)
        return env

    @property
    def client(self) -> str:
        """The emulator's client name of the current start (see :meth:`wait_polling`)."""
        return f"start{max(self.starts, 1)}"

    def _api_url(self) -> str:
        """``BOT_API_URL`` for the current start: with an in-process emulator, the base URL
        of this start's client name; else ``api_url``."""
        if self.emulator is not None and hasattr(self.emulator, "client_url"):
            return self.emulator.client_url(self.client)
        return self.api_url

    @property
    def pid(self) -> int:
        """The running process's id."""
        if self.proc is None:
            raise RuntimeError("the bot is not running")
        return self.proc.pid

    @property
    def running(self) -> bool:
        """Whether the process was started and has not exited."""
        return self.proc is not None and self.proc.poll() is None

    async def start(self, *, timeout: float = 60.0) -> None:
        """Start the process and wait until it long-polls (see :meth:`wait_polling`)."""
        if self.running:
            raise RuntimeError("the bot is already running")
        self.starts += 1
        polls = self._polls()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {self.starts} ---\n".encode())
            log.flush()
        if self.fork:
            from tests.e2e import forkserver

            self.proc = await asyncio.to_thread(forkserver.server().spawn, env=self.env(),
                                                cwd=REPO, log_path=self.log_path)
        else:
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen([sys.executable, "bot.py"], cwd=REPO,
                                             env=self.env(), stdin=subprocess.DEVNULL,
                                             stdout=log, stderr=subprocess.STDOUT)
        await self.wait_polling(after=polls, timeout=timeout)

    def _polls(self) -> int:
        """How many ``getUpdates`` the in-process emulator took up from this start's client
        name (0 without one)."""
        world = getattr(self.emulator, "world", None)
        return world.polls_by.get(self.client, 0) if world is not None else 0

    async def wait_polling(self, *, after: int = 0, timeout: float = 60.0) -> None:
        """Wait until the process of the current start has called ``getUpdates`` (more often
        than ``after`` times, as counted by the in-process emulator under this start's
        client name; without one, until it logged that it polls).  Only this process's
        calls count: a ``getUpdates`` that a process SIGKILLed a moment ago had sent may
        still be taken up by the emulator after its death, and counting it would let a test
        go on while no bot runs.  Raises ``RuntimeError`` with the log's tail if the process
        exits, ``TimeoutError`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            if not self.running:
                raise RuntimeError(f"the bot exited with {self.proc and self.proc.returncode}"
                                   f":\n{self.log_tail()}")
            if self.emulator is not None:
                if self._polls() > after:
                    return
            elif "Run polling" in self.log_tail(4000):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot did not poll within {timeout} s:\n"
                                   f"{self.log_tail()}")
            await asyncio.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL: the process dies at once, with no chance to clean up."""
        if self.running:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(10)

    async def stop(self, *, timeout: float = 10.0) -> int | None:
        """SIGTERM and wait for a clean exit (SIGKILL after ``timeout``); the exit code."""
        if self.proc is None:
            return None
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while self.running and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            if self.running:
                self.kill()
        return self.proc.wait(10)

    async def restart(self, *, timeout: float = 60.0) -> None:
        """Start again after :meth:`kill` or :meth:`stop` (same database, same settings)."""
        if self.running:
            raise RuntimeError("stop or kill the bot first")
        await self.start(timeout=timeout)

    # -- observation ---------------------------------------------------------------------------

    def log_tail(self, chars: int = 6000) -> str:
        """The last ``chars`` characters of the process's output."""
        try:
            data = self.log_path.read_bytes()
        except FileNotFoundError:
            return ""
        return data[-chars:].decode("utf-8", "replace")

    def errors(self) -> list[str]:
        """Lines of the output that report an error or a traceback."""
        try:
            text = self.log_path.read_text("utf-8", "replace")
        except FileNotFoundError:
            return []
        return [line for line in text.splitlines()
                if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")]

    def cpu_seconds(self) -> float:
        """CPU seconds the running process has used."""
        return proc_cpu_seconds(self.pid)

    def rss_kib(self) -> int:
        """Resident memory of the running process in KiB."""
        return proc_rss_kib(self.pid)
