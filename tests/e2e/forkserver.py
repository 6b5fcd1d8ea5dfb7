"""Start ``bot.py`` processes by forking a process that has imported the bot's modules once.

A fresh ``python bot.py`` spends most of its start-up importing aiogram, whose pydantic models
are built at import: about 6 s of CPU on the 2-core test machine, for every bot an end-to-end
test starts.  :class:`ForkServer` is one process (``python -m tests.e2e.forkserver``) that
imports what ``bot.py`` imports and then waits; each :meth:`ForkServer.spawn` forks it, and the
child, with the environment, working directory and output it is given, runs ``bot.py`` as
``__main__`` (:func:`runpy.run_path`), exactly the code ``python bot.py`` runs: its settings
are read from that environment, it seeds :mod:`random` afresh, and the processes it starts
itself (pictures, computer players) are spawned from ``bot.py`` as usual.

:class:`ForkedProcess` is what :class:`tests.e2e.botproc.BotProcess` keeps instead of a
``subprocess.Popen`` (``pid``, ``poll``, ``returncode``, ``send_signal``, ``wait``); the fork
server is its parent and reaps it when asked.  The server exits with the test session (its
parent).  Linux only (``os.fork``).
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["ForkServer", "ForkedProcess", "server"]

REPO = Path(__file__).resolve().parents[2]

#: What the server imports before it forks: everything ``bot.py`` imports on its way to
#: polling, a webhook or a worker of a cluster, so a child imports (almost) nothing.
PRELOAD = ("bot", "handlers.run", "handlers.cluster", "handlers.webapp", "service.cluster",
           "aiogram.webhook.aiohttp_server", "aiohttp.web", "aiosqlite", "psycopg",
           "sqlalchemy.dialects.sqlite.aiosqlite", "sqlalchemy.dialects.postgresql.psycopg",
           "alembic.command", "alembic.config", "alembic.runtime.migration",
           "ui.picture", "delivery.pictures", "service.thinkers")


class ForkedProcess:
    """A child of the fork server, with the part of ``subprocess.Popen``'s interface that
    :class:`tests.e2e.botproc.BotProcess` uses.  ``returncode`` is None while it runs, else
    its exit status (``-N`` for signal N, as ``Popen`` has it)."""

    def __init__(self, owner: ForkServer, pid: int) -> None:
        self._owner = owner
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit status if the process has ended (reaped by the server), else None."""
        if self.returncode is None:
            self.returncode = self._owner.request({"op": "poll", "pid": self.pid})["code"]
        return self.returncode

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` unless the process has already ended."""
        if self.poll() is None:
            os.kill(self.pid, sig)

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the end; ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(["bot.py"], timeout)
            time.sleep(0.01)
        return self.returncode


class ForkServer:
    """The server process, started by :meth:`launch` or the first :meth:`spawn` (it takes a
    few seconds to import) and stopped at exit."""

    def __init__(self) -> None:
        self._dir = tempfile.mkdtemp(prefix="kozel-fork-")
        self.address = os.path.join(self._dir, "sock")
        self._proc: subprocess.Popen | None = None
        self._ready = False
        self._lock = threading.Lock()

    def launch(self) -> None:
        """Start the server process unless it runs; it imports in the background, and the
        first request waits until it is ready."""
        if self._proc is not None and self._proc.poll() is None:
            return
        env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "TMPDIR")
               if k in os.environ}
        env.update({"PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"})
        self._proc = subprocess.Popen([sys.executable, "-m", "tests.e2e.forkserver",
                                       self.address], cwd=REPO, env=env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
        self._ready = False
        atexit.register(self.close)

    def _ensure(self) -> None:
        self.launch()
        if not self._ready:
            line = self._proc.stdout.readline()
            if line.strip() != b"ready":
                raise RuntimeError(f"the fork server did not start: {line!r}")
            self._ready = True

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """One request to the server and its answer (JSON objects)."""
        with self._lock:
            self._ensure()
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(self.address)
                s.sendall(json.dumps(message).encode() + b"\n")
                answer = s.makefile("rb").readline()
        if not answer:
            raise RuntimeError("the fork server closed the connection")
        reply = json.loads(answer)
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return reply

    def spawn(self, *, env: dict[str, str], cwd: Path, log_path: Path) -> ForkedProcess:
        """A new ``bot.py`` process with ``env`` (the whole environment), in ``cwd``, its
        stdout and stderr appended to ``log_path``."""
        reply = self.request({"op": "start", "env": env, "cwd": str(cwd),
                              "log": str(log_path)})
        return ForkedProcess(self, reply["pid"])

    def close(self) -> None:
        """Stop the server (its children, if any still run, are not touched)."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            self._proc.wait(10)


_server: ForkServer | None = None


def server() -> ForkServer:
    """The fork server of this process (one, created and launched when first asked for)."""
    global _server
    if _server is None:
        _server = ForkServer()
        _server.launch()
    return _server


# -- the server side ------------------------------------------------------------------------


def _child(request: dict[str, Any]) -> None:
    """In the forked child: become ``python bot.py`` and never return."""
    import io
    import random
    import runpy

    code = 1
    try:
        for sig in (signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      write_through=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", write_through=True)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        random.seed()
        sys.argv = ["bot.py"]
        sys.path[0] = str(REPO)
        runpy.run_path(str(Path(request["cwd"]) / "bot.py"), run_name="__main__")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _serve(address: str) -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    parent = os.getppid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(16)
    listener.settimeout(1.0)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while os.getppid() == parent:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        with conn:
            conn.settimeout(None)
            try:
                request = json.loads(conn.makefile("rb").readline())
                if request["op"] == "start":
                    pid = os.fork()
                    if pid == 0:
                        listener.close()
                        conn.close()
                        _child(request)
                    reply: dict[str, Any] = {"pid": pid}
                else:
                    try:
                        done, status = os.waitpid(request["pid"], os.WNOHANG)
                    except ChildProcessError:
                        reply = {"error": f"no child {request['pid']}"}
                    else:
                        reply = {"code": os.waitstatus_to_exitcode(status) if done else None}
            except Exception as exc:  # a bad request is answered, the server goes on
                reply = {"error": repr(exc)}
            conn.sendall(json.dumps(reply).encode() + b"\n")


if __name__ == "__main__":
    _serve(sys.argv[1])
