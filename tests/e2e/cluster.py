"""A local cluster: a real PostgreSQL server, N bot workers and the test Bot API server
delivering webhooks to them (issue 22, "Running it").

    .venv/bin/python -m tests.e2e.cluster --workers 3      # or: make cluster WORKERS=3

starts PostgreSQL in a temporary directory (:mod:`tests.pgkit`), the emulator
(:mod:`tests.emulator`) on 127.0.0.1, and N ``bot.py`` processes, each a worker of one
cluster (``DATABASE_URL`` on that server, a webhook on a port of its own); the emulator
stands for Telegram and for the load balancer in front of the workers: it POSTs every update
to one of them (round robin; a failed or unanswered POST goes to the next one), a chat's next
update only after a 2xx.  Prints the addresses and serves until interrupted.

:class:`LocalCluster` is the same for tests (``async with LocalCluster(emu, 3) as c``): its
:attr:`workers` are :class:`WorkerProcess` es that can be killed (``kill``), frozen
(``freeze``) and thawed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

from tests import pgkit
from tests.e2e.botproc import BotProcess

__all__ = ["LocalCluster", "WorkerProcess"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class WorkerProcess(BotProcess):
    """``bot.py`` as a worker of a cluster: ``DATABASE_URL`` = ``url``, its webhook on
    ``port`` (127.0.0.1), the webhook URL it registers ``https://bot.test``."""

    def __init__(self, *, url: str, port: int, **kwargs: Any) -> None:
        settings = dict(kwargs.pop("settings", None) or {})
        settings.update({"DATABASE_URL": url, "WEBHOOK_URL": "https://bot.test",
                         "WEBHOOK_HOST": "127.0.0.1", "WEBHOOK_PORT": port,
                         "WEBHOOK_PATH": "/telegram"})
        super().__init__(settings=settings, **kwargs)
        self.port = port
        self.frozen = False

    @property
    def hook(self) -> str:
        """The address the load balancer POSTs updates to."""
        return f"http://127.0.0.1:{self.port}/telegram"

    async def wait_polling(self, *, after: int = 0, timeout: float = 30.0) -> None:
        """Wait until the worker's webhook listens (a worker never polls)."""
        deadline = time.monotonic() + timeout
        while not _listening(self.port):
            if not self.running:
                raise RuntimeError(f"the worker exited with {self.proc.returncode}:\n"
                                   f"{self.log_tail()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the worker did not listen within {timeout} s:\n"
                                   f"{self.log_tail()}")
            await asyncio.sleep(0.05)

    def freeze(self) -> None:
        """SIGSTOP: the process stops where it is, its connections stay open."""
        os.kill(self.pid, signal.SIGSTOP)
        self.frozen = True

    def thaw(self) -> None:
        """SIGCONT (a thawed worker finds it was fenced out and exits)."""
        os.kill(self.pid, signal.SIGCONT)
        self.frozen = False

    def kill(self) -> None:
        """SIGKILL (a frozen process too)."""
        if self.running and self.frozen:
            os.kill(self.pid, signal.SIGKILL)
            self.frozen = False
        super().kill()

    async def stop(self, *, timeout: float = 10.0) -> int | None:
        if self.frozen and self.running:
            self.thaw()
        return await super().stop(timeout=timeout)


class LocalCluster:
    """PostgreSQL + ``n`` workers behind the in-process emulator ``emu``.

    ``settings``: extra environment of every worker; ``directory``: where logs go (a
    temporary one by default); ``server``: a :class:`tests.pgkit.PgServer` to use (one is
    started, and stopped at the end, when None); ``fork``: fork the workers from the fork
    server (:mod:`tests.e2e.forkserver`) rather than start fresh interpreters.  :attr:`url`
    is the database's URL.
    """

    def __init__(self, emu: Any, n: int, *, settings: dict[str, Any] | None = None,
                 directory: Path | None = None, server: Any = None, fork: bool = False) -> None:
        self.emu = emu
        self.fork = fork
        self.n = n
        self.settings = dict(settings or {})
        self._tmp = None
        if directory is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="kozel-cluster-")
            directory = Path(self._tmp.name)
        self.directory = Path(directory)
        self._own_server = server is None
        self.server = server
        self.url = ""
        self.workers: list[WorkerProcess] = []

    async def __aenter__(self) -> LocalCluster:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Start the server (unless given), create the database, start the workers all at
        once (they migrate the fresh database together) and point the emulator at them."""
        if self.server is None:
            self.server = await asyncio.to_thread(pgkit.PgServer.start)
        name = await asyncio.to_thread(self.server.create_database, prefix="kozel_cluster")
        self.url = self.server.url(name)
        self.workers = [
            WorkerProcess(url=self.url, port=_free_port(), api_url=self.emu.url,
                          token=self.emu.token, database=self.directory / "unused.sqlite3",
                          log_path=self.directory / f"worker{k + 1}.log",
                          settings={**self.settings, "WORKER_ID": k + 1}, emulator=self.emu,
                          fork=self.fork)
            for k in range(self.n)]
        await asyncio.gather(*(w.start(timeout=120.0) for w in self.workers))
        self.emu.world.configure(webhook_targets=[w.hook for w in self.workers])

    async def stop(self) -> None:
        """Stop the workers (SIGTERM), then the server if this cluster started it."""
        await asyncio.gather(*(w.stop() for w in self.workers), return_exceptions=True)
        if self._own_server and self.server is not None:
            await asyncio.to_thread(self.server.stop)
        if self._tmp is not None:
            self._tmp.cleanup()

    def errors(self) -> list[str]:
        """Error lines of every worker's log."""
        return [f"worker{k + 1}: {line}" for k, w in enumerate(self.workers)
                for line in w.errors()]


async def _serve(args: argparse.Namespace) -> None:
    from tests.emulator import Emulator
    from tests.emulator.world import EmulatorConfig, FloodLimits

    config = EmulatorConfig(flood=FloodLimits(enabled=not args.no_flood))
    async with Emulator(port=args.port, config=config) as emu:
        async with LocalCluster(emu, args.workers,
                                directory=Path(args.logs) if args.logs else None) as cluster:
            print(f"PostgreSQL: {cluster.url}", flush=True)
            print(f"Bot API emulator: {emu.url} (token {emu.token})", flush=True)
            for k, w in enumerate(cluster.workers, start=1):
                print(f"worker {k}: pid {w.pid}, webhook {w.hook}, log {w.log_path}",
                      flush=True)
            await asyncio.Event().wait()


def main() -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.cluster",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--port", type=int, default=8081, help="the emulator's port")
    parser.add_argument("--logs", default=None, help="a directory for the workers' logs")
    parser.add_argument("--no-flood", action="store_true", help="switch flood control off")
    try:
        asyncio.run(_serve(parser.parse_args()))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
