"""A throwaway PostgreSQL server for tests and benchmarks (docs/POSTGRESQL.md).

:func:`find_server` gives a :class:`PgServer`: the one named by ``KOZEL_TEST_POSTGRES`` (an
admin URL of a running server, e.g. ``postgresql://postgres@127.0.0.1:5432/postgres``), or a
new cluster this process starts itself: ``initdb`` into a temporary directory and
``postgres`` on a free port of 127.0.0.1 (trust authentication), stopped and deleted by
:meth:`PgServer.stop` or at exit.  The server binaries are found in ``KOZEL_PG_BINDIR``,
``pg_config --bindir``, ``/usr/lib/postgresql/<newest>/bin`` (Debian's ``postgresql``
package) or ``PATH``.  PostgreSQL refuses to run as root, so as root the cluster runs as the
``postgres`` user that Debian's package creates.

Databases: :meth:`PgServer.create_database` makes an empty one, or a copy of a template
(:meth:`PgServer.head_template`: one database migrated to the newest revision, so a test's
fresh database needs no migration); :meth:`PgServer.drop_database` removes one, closing its
connections.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

#: Environment variable: the admin URL of a running server to use instead of starting one.
SERVER_ENV = "KOZEL_TEST_POSTGRES"
#: Environment variable: where ``initdb``, ``pg_ctl`` and ``postgres`` are.
BINDIR_ENV = "KOZEL_PG_BINDIR"
#: Environment variable: when set (``1``), no PostgreSQL to test on is an error, not a skip.
REQUIRE_ENV = "KOZEL_REQUIRE_POSTGRES"

__all__ = ["BINDIR_ENV", "REQUIRE_ENV", "SERVER_ENV", "NoServer", "PgServer", "find_bindir",
           "find_server"]


class NoServer(RuntimeError):
    """No PostgreSQL server could be found or started; the message says why."""


def find_bindir() -> Path | None:
    """The directory of the PostgreSQL server binaries, or None when none is installed."""
    candidates: list[str] = []
    if os.environ.get(BINDIR_ENV):
        candidates.append(os.environ[BINDIR_ENV])
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        candidates.append(out.stdout.strip())
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                    key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                    else 0)
    candidates += reversed(debian)
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).resolve().parent))
    for c in candidates:
        if c and all((Path(c) / b).exists() for b in ("initdb", "pg_ctl", "postgres")):
            return Path(c)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """A PostgreSQL server to make databases in: ``admin_url`` (a ``postgresql://`` URL of a
    superuser's maintenance database); ``started`` True when this process started it (then
    :meth:`stop` ends it).  ``start_seconds``: how long initdb + start took."""

    def __init__(self, admin_url: str, *, started: bool = False, pg_ctl: list[str] | None = None,
                 data: Path | None = None, root: Path | None = None,
                 start_seconds: float = 0.0) -> None:
        self.admin_url = admin_url
        self.started = started
        self.start_seconds = start_seconds
        self._pg_ctl = pg_ctl
        self._data = data
        self._root = root
        self._names = itertools.count(1)
        self._template: str | None = None
        self._options: list[str] = []

    # ------------------------------------------------------------------ start, stop

    @classmethod
    def start(cls, *, fsync: bool = False, bindir: Path | None = None) -> PgServer:
        """initdb + start a new cluster on a free port of 127.0.0.1.  ``fsync`` False (tests):
        ``fsync``, ``synchronous_commit`` and ``full_page_writes`` off — a crash of the
        machine may lose the throwaway cluster, nothing else changes.  Raises
        :class:`NoServer` when there are no binaries or the server does not come up."""
        bindir = bindir or find_bindir()
        if bindir is None:
            raise NoServer("no PostgreSQL server binaries (install Debian's postgresql, or "
                           f"set {BINDIR_ENV} or {SERVER_ENV})")
        t0 = time.perf_counter()
        root = Path(tempfile.mkdtemp(prefix="kozel-pg-"))
        run_as: list[str] = []
        if os.geteuid() == 0:
            import pwd

            try:
                user = pwd.getpwnam("postgres")
            except KeyError as exc:
                shutil.rmtree(root, ignore_errors=True)
                raise NoServer("running as root and there is no 'postgres' user to run "
                               "the server as (Debian's postgresql package creates it)") from exc
            os.chown(root, user.pw_uid, user.pw_gid)
            run_as = ["runuser", "-u", "postgres", "--"]
        data = root / "data"
        init = subprocess.run(
            [*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
             "-E", "UTF8", "--locale=C", "--no-sync"], capture_output=True, text=True)
        if init.returncode:
            shutil.rmtree(root, ignore_errors=True)
            raise NoServer(f"initdb failed: {init.stderr.strip()[-500:]}")
        port = _free_port()
        options = [f"-p {port}", "-c listen_addresses=127.0.0.1", f"-k {root}",
                   "-c max_connections=200", "-c shared_buffers=64MB"]
        if not fsync:
            options += ["-c fsync=off", "-c synchronous_commit=off",
                        "-c full_page_writes=off"]
        pg_ctl = [*run_as, str(bindir / "pg_ctl"), "-D", str(data)]
        up = subprocess.run([*pg_ctl, *_start_args(root, options)], capture_output=True,
                            text=True)
        if up.returncode:
            log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
            shutil.rmtree(root, ignore_errors=True)
            raise NoServer(f"the server did not start: {up.stderr.strip()} {log[-500:]}")
        server = cls(f"postgresql://postgres@127.0.0.1:{port}/postgres", started=True,
                     pg_ctl=pg_ctl, data=data, root=root,
                     start_seconds=time.perf_counter() - t0)
        server._options = options
        atexit.register(server.stop)
        return server

    def pause(self) -> None:
        """Stop a server this process started, keeping its files (:meth:`resume` starts it
        again on the same port): the database is down meanwhile."""
        if self._pg_ctl is None or not self.started:
            raise RuntimeError("only a server this process started can be paused")
        subprocess.run([*self._pg_ctl, "-w", "-m", "fast", "stop"], capture_output=True,
                       check=True)

    def resume(self) -> None:
        """Start a :meth:`pause` d server again."""
        if self._pg_ctl is None or self._root is None:
            raise RuntimeError("only a server this process started can be resumed")
        subprocess.run([*self._pg_ctl, *_start_args(self._root, self._options)],
                       capture_output=True, check=True)

    def stop(self) -> None:
        """Stop a server this process started and delete its files; on a server it was
        given, drop the template database it made."""
        if self._pg_ctl is None:  # a server we were given
            if self._template is not None:
                self.drop_database(self._template)
                self._template = None
            return
        if not self.started:
            return
        subprocess.run([*self._pg_ctl, "-m", "immediate", "stop"], capture_output=True)
        self.started = False
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)

    # ------------------------------------------------------------------ databases

    def url(self, database: str, driver: str = "psycopg") -> str:
        """A SQLAlchemy URL of ``database`` on this server through ``driver``."""
        base = self.admin_url.rsplit("/", 1)[0].split("://", 1)[1]
        return f"postgresql+{driver}://{base}/{database}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql)

    def create_database(self, *, template: str | None = None, prefix: str = "kozel_t") -> str:
        """A new database (empty, or a copy of ``template``); returns its name."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        source = template or "template0"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{source}"')
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database, ending whatever connections are still open to it."""
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def head_template(self) -> str:
        """The name of a database migrated to the newest revision (made on first use) to
        copy with :meth:`create_database`."""
        if self._template is None:
            from alembic import command
            from sqlalchemy import create_engine

            from storage import alembic_config

            name = self.create_database(prefix="kozel_head")
            engine = create_engine(self.url(name))
            try:
                with engine.begin() as conn:
                    cfg = alembic_config()
                    cfg.attributes["connection"] = conn
                    command.upgrade(cfg, "head")
            finally:
                engine.dispose()
            self._template = name
        return self._template


def _start_args(root: Path, options: list[str]) -> list[str]:
    """``pg_ctl``'s arguments that start the cluster under ``root`` with ``options``."""
    return ["-w", "-t", "60", "-l", str(root / "log"), "-o", " ".join(options), "start"]


def find_server(*, fsync: bool = False) -> PgServer:
    """The server named by ``KOZEL_TEST_POSTGRES``, or a new one (:meth:`PgServer.start`).
    Raises :class:`NoServer` with the reason when neither works."""
    given = os.environ.get(SERVER_ENV)
    if given:
        server = PgServer(given)
        try:
            server._admin("SELECT 1")
        except Exception as exc:  # noqa: BLE001 - any failure to connect means no server
            raise NoServer(f"{SERVER_ENV}={given} does not answer: {exc}") from exc
        return server
    return PgServer.start(fsync=fsync)
