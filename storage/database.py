"""Database handle: engine set-up, SQLite pragmas, one-step transactions, start-up migration.

A transaction is a plain function ``fn(conn, *args)`` over a synchronous SQLAlchemy
:class:`~sqlalchemy.engine.Connection` (the queries in :mod:`storage.repository`), and
``await db.write(fn, *args)`` runs it whole and commits before returning:

- SQLite (a file path or ``sqlite:///...``): on a dedicated writer thread that keeps one
  connection (every write transaction is ``BEGIN IMMEDIATE``: the write lock first, so a
  read-then-write never fails on a snapshot another process has moved past), and reads on a
  small pool of reader threads (WAL lets them run beside the writer). One thread hop per
  transaction: the SQLAlchemy aiosqlite adapter needs about three hops per statement, which
  caps a four-statement transaction at a few hundred per second on a 2-core machine (see
  ``bench/storage_bench.py --compare``).

  Group commit: write functions that arrive while the writer is busy are run together, in
  order, in the next transaction, so one COMMIT serves many matches. Each function's writes
  stay atomic (all of a batch commits or none); if any function of a batch raises, the batch
  is rolled back and its functions are re-run one transaction each, so a failing function
  never takes the others with it and sees exactly the state it would have seen alone.
- PostgreSQL through psycopg 3 (``postgresql+psycopg://...``; a bare ``postgresql://`` or
  ``postgres://`` address means that driver): every transaction on a pool of writer or reader
  threads, each thread with its own connection, one thread hop per transaction as on SQLite.
  Writes run side by side in their own transactions (``READ COMMITTED``; PostgreSQL itself
  shares one WAL flush among concurrent commits), reads in ``REPEATABLE READ, READ ONLY`` (a
  consistent snapshot). A write that loses a deadlock or a serialization check (SQLSTATE
  40P01, 40001) is run again, a few times, in a new transaction. psycopg 3 on threads was
  chosen by measurement over asyncpg through ``run_sync`` (see ``docs/POSTGRESQL.md``).
- An async URL (``postgresql+asyncpg://...``, or ``sqlite+aiosqlite://...``): through
  :meth:`AsyncConnection.run_sync` on an :class:`AsyncEngine`; same functions, same schema,
  the same retries on PostgreSQL (writes of one process are serialised on SQLite only).

Durability choice for SQLite: WAL journal with ``synchronous=NORMAL``. A commit survives a
crash of the process (SIGKILL included): its WAL frames are in the operating system's cache
when COMMIT returns. Only a power loss or kernel crash can lose the last transactions — never
corrupt the file. ``synchronous=FULL`` adds an fsync per commit.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

T = TypeVar("T")

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

#: Connection execution option that makes the SQLite ``BEGIN`` take the write lock at once.
_WRITE_OPTION = "kozel_write"
#: Most write functions committed together by one transaction (group commit).
_MAX_BATCH = 256
#: Execution options of a PostgreSQL read transaction: one snapshot for all its statements.
_PG_READ = {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}


#: The PostgreSQL driver pinned in pyproject.toml, for addresses that name none.
POSTGRES_DRIVER = "psycopg"
#: SQLSTATEs after which a PostgreSQL write is run again: serialization failure, deadlock.
RETRY_SQLSTATES = frozenset({"40001", "40P01"})
#: How many times a write is tried in all when it keeps losing to another transaction.
_WRITE_TRIES = 6


def database_url(path_or_url: str | Path) -> str:
    """Turn a ``DATABASE_URL`` or ``DATABASE_PATH`` into a SQLAlchemy URL.

    A value that contains ``://`` is a URL: ``postgres://`` and ``postgresql://`` (the form
    hosting providers hand out) become ``postgresql+psycopg://`` (:data:`POSTGRES_DRIVER`),
    anything else is returned as it is (``postgresql+asyncpg://...``,
    ``sqlite:///...``). Anything else is a SQLite file path (absolute afterwards).
    """
    text = str(path_or_url)
    if "://" in text:
        scheme, rest = text.split("://", 1)
        if scheme in {"postgres", "postgresql"}:
            return f"postgresql+{POSTGRES_DRIVER}://{rest}"
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def retryable(exc: BaseException) -> bool:
    """True when ``exc`` (a SQLAlchemy or driver error) is a PostgreSQL deadlock or
    serialization failure: the transaction was rolled back and may simply be run again."""
    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    return code in RETRY_SQLSTATES


def alembic_config(url: str | None = None) -> Config:
    """An Alembic :class:`Config` whose scripts are inside this package (works from any cwd).

    ``url`` is used only when Alembic runs from the command line; the start-up path hands
    Alembic an open connection instead (see :meth:`Database.migrate`).
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    """The newest schema revision the migrations know (what :meth:`Database.migrate`
    upgrades to)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _locked(exc: BaseException) -> bool:
    """True for SQLite's ``database is locked`` / ``database is busy`` (SQLITE_BUSY)."""
    text = str(exc).lower()
    return "database is locked" in text or "database is busy" in text


def sqlite_pragma(cur: Any, sql: str, busy_timeout_ms: int,
                  sleep: Callable[[float], None] = time.sleep) -> None:
    """Run one SQLite ``PRAGMA`` on ``cur``, again and again while it answers SQLITE_BUSY,
    for up to ``busy_timeout_ms`` milliseconds in all (then the last error is raised).

    The busy handler does not cover every case: when several processes open a fresh file
    together, ``journal_mode=WAL`` needs the exclusive lock, and two connections that both
    hold the shared lock and both want it would deadlock, so SQLite answers one of them
    SQLITE_BUSY at once instead of waiting. Waiting a little and asking again is then right:
    the other connection finishes the switch and the pragma finds WAL already on.
    Raises the driver's ``OperationalError`` for anything else, or when the time is up."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    pause = 0.005
    while True:
        try:
            cur.execute(sql)
            return
        except Exception as exc:  # sqlite3.OperationalError; the driver is not imported here
            if not _locked(exc) or time.monotonic() + pause > deadline:
                raise
        sleep(pause + random.uniform(0, pause))
        pause = min(pause * 2, 0.2)


def _install_sqlite_hooks(engine: Engine, synchronous: str, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:
        # Take transaction control from the driver so BEGIN is emitted exactly where
        # SQLAlchemy begins a transaction (consistent reads, transactional DDL, savepoints).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        # The busy timeout first, so that everything after it waits for other processes.
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        sqlite_pragma(cur, "PRAGMA journal_mode=WAL", busy_timeout_ms)
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(_WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


class Database:
    """One database and the way transactions reach it.

    ``url_or_path``: a SQLite file path, a ``sqlite:///`` URL, a PostgreSQL URL
    (:func:`database_url`) or an async SQLAlchemy URL.
    SQLite connections get ``journal_mode=WAL``, ``synchronous`` (default ``NORMAL``, see the
    module doc), ``foreign_keys=ON`` and ``busy_timeout`` (milliseconds a writer waits for
    another process's write lock before ``OperationalError: database is locked``).
    ``readers``: reader threads; ``writers``: writer threads on PostgreSQL (SQLite has one);
    each thread keeps one connection. ``pool_size``: connections of an async engine.
    """

    def __init__(
        self,
        url_or_path: str | Path,
        *,
        synchronous: str = "NORMAL",
        busy_timeout_ms: int = 10_000,
        readers: int = 2,
        writers: int = 8,
        pool_size: int = 10,
        echo: bool = False,
    ) -> None:
        self.url = database_url(url_or_path)
        url = make_url(self.url)
        self.is_sqlite = url.get_backend_name() == "sqlite"
        self.is_postgres = url.get_backend_name() == "postgresql"
        self.synchronous = synchronous.upper()
        if self.synchronous not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"bad synchronous setting: {synchronous!r}")
        self.is_async = url.get_dialect().is_async
        self.async_engine: AsyncEngine | None = None
        self._async_writer: AsyncEngine | None = None
        self._async_reader: AsyncEngine | None = None
        self.engine: Engine
        writers = 1 if self.is_sqlite else max(1, writers)
        readers = max(1, readers)
        if self.is_async:
            self.async_engine = create_async_engine(
                self.url, echo=echo,
                **({} if self.is_sqlite else {"pool_size": pool_size, "max_overflow": 0}))
            self._async_writer = self.async_engine.execution_options(**{_WRITE_OPTION: True})
            self._async_reader = (self.async_engine.execution_options(**_PG_READ)
                                  if self.is_postgres else self.async_engine)
            self.engine = self.async_engine.sync_engine
        else:
            connect_args = {"check_same_thread": False} if self.is_sqlite else {}
            self.engine = create_engine(
                self.url, echo=echo, connect_args=connect_args,
                pool_size=readers + writers, max_overflow=0,
            )
        if self.is_sqlite:
            if url.database:
                Path(url.database).parent.mkdir(parents=True, exist_ok=True)
            _install_sqlite_hooks(self.engine, self.synchronous, busy_timeout_ms)
        self._writer = ThreadPoolExecutor(writers, thread_name_prefix="db-write")
        self._readers = ThreadPoolExecutor(readers, thread_name_prefix="db-read")
        self._local = threading.local()
        self._open: list[Connection] = []
        self._open_lock = threading.Lock()
        self._closed = False
        self._async_write_lock = asyncio.Lock()
        self._pending: list[tuple[Callable[..., Any], tuple, asyncio.Future]] = []
        self._batch_running = False

    # ------------------------------------------------------------------ thread mode

    def _thread_conn(self, write: bool) -> Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.invalidated:
            conn = self.engine.connect()
            if write:
                conn.execution_options(**{_WRITE_OPTION: True})
            elif self.is_postgres:
                conn.execution_options(**_PG_READ)
            self._local.conn = conn
            with self._open_lock:
                self._open.append(conn)
        return conn

    def _run_in_thread(self, write: bool, fn: Callable[..., T], args: tuple) -> T:
        conn = self._thread_conn(write)
        try:
            with conn.begin():
                return fn(conn, *args)
        except BaseException:
            if conn.invalidated:
                self._local.conn = None
            raise

    def _write_in_thread(self, fn: Callable[..., T], args: tuple) -> T:
        """Writer thread (PostgreSQL): one transaction, run again when it lost a deadlock or
        a serialization check."""
        for attempt in range(_WRITE_TRIES):
            try:
                return self._run_in_thread(True, fn, args)
            except DBAPIError as exc:
                if not retryable(exc) or attempt == _WRITE_TRIES - 1:
                    raise
            time.sleep(random.uniform(0.001, 0.005) * (attempt + 1))
        raise AssertionError("unreachable")

    def _run_batch(self, batch: list) -> list[tuple[bool, Any]]:
        """Writer thread: run a batch in one transaction, or one by one if any fails."""
        if len(batch) > 1:
            conn = self._thread_conn(True)
            try:
                with conn.begin():
                    values = [fn(conn, *args) for fn, args, _ in batch]
                return [(True, v) for v in values]
            except Exception:
                if conn.invalidated:
                    self._local.conn = None
        out: list[tuple[bool, Any]] = []
        for fn, args, _ in batch:
            try:
                out.append((True, self._run_in_thread(True, fn, args)))
            except Exception as exc:
                out.append((False, exc))
        return out

    def _start_batch(self, loop: asyncio.AbstractEventLoop) -> None:
        batch, self._pending = self._pending[:_MAX_BATCH], self._pending[_MAX_BATCH:]
        self._batch_running = True
        job = self._writer.submit(self._run_batch, batch)

        def done(job) -> None:
            try:
                loop.call_soon_threadsafe(self._batch_done, loop, batch, job)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass

        job.add_done_callback(done)

    def _batch_done(self, loop: asyncio.AbstractEventLoop, batch: list, job) -> None:
        self._batch_running = False
        try:
            outcomes = job.result()
        except BaseException as exc:  # the writer itself failed (e.g. shut down)
            outcomes = [(False, exc)] * len(batch)
        for (_, _, fut), (ok, value) in zip(batch, outcomes, strict=True):
            if fut.done():
                continue
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(value)
        if self._pending:
            self._start_batch(loop)

    async def _write_batched(self, fn: Callable[..., T], args: tuple) -> T:
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._pending.append((fn, args, fut))
        if not self._batch_running:
            self._start_batch(loop)
        return await fut

    async def _run(self, write: bool, fn: Callable[..., T], args: tuple) -> T:
        if self._closed:
            raise RuntimeError("database is closed")
        if self.async_engine is not None:
            if not write:
                async with self._async_reader.begin() as conn:
                    return await conn.run_sync(fn, *args)
            if self.is_sqlite:
                async with self._async_write_lock, self._async_writer.begin() as conn:
                    return await conn.run_sync(fn, *args)
            for attempt in range(_WRITE_TRIES):
                try:
                    async with self._async_writer.begin() as conn:
                        return await conn.run_sync(fn, *args)
                except DBAPIError as exc:
                    if not retryable(exc) or attempt == _WRITE_TRIES - 1:
                        raise
                await asyncio.sleep(random.uniform(0.001, 0.005) * (attempt + 1))
        loop = asyncio.get_running_loop()
        if write and self.is_sqlite:
            return await self._write_batched(fn, args)
        if write:
            return await loop.run_in_executor(self._writer, self._write_in_thread, fn, args)
        return await loop.run_in_executor(self._readers, self._run_in_thread, False, fn, args)

    # ------------------------------------------------------------------ public

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` in one read transaction (a consistent snapshot) and return
        its value. Do not write in it."""
        return await self._run(False, fn, args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` in a write transaction, committed before this returns.
        An exception from ``fn`` rolls its writes back and is re-raised. On SQLite the writes
        of one process are serialised (one writer thread) and may share a commit (group
        commit, see the module doc); on PostgreSQL they run side by side and one that lost a
        deadlock is run again; so ``fn`` may run twice: it must touch nothing but ``conn``."""
        return await self._run(True, fn, args)

    async def migrate(self, revision: str = "head") -> None:
        """Upgrade the schema to ``revision`` (default: the newest) with Alembic, in one
        transaction. Safe on every start-up: an up-to-date database is left as it is.
        Raises :class:`alembic.util.CommandError` for an unknown revision."""
        await self.write(_alembic, "upgrade", revision)

    async def downgrade(self, revision: str) -> None:
        """Downgrade the schema to ``revision`` (``"base"``: empty). For tests and operators."""
        await self.write(_alembic, "downgrade", revision)

    async def current_revision(self) -> str | None:
        """The Alembic revision the database is at, or None for an empty database."""
        from alembic.runtime.migration import MigrationContext

        return await self.read(lambda c: MigrationContext.configure(c).get_current_revision())

    async def dispose(self) -> None:
        """Close every connection and stop the database threads."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        for pool in (self._writer, self._readers):
            await loop.run_in_executor(None, pool.shutdown, True)
        with self._open_lock:
            conns, self._open = self._open, []
        for conn in conns:
            conn.close()
        if self.async_engine is not None:
            await self.async_engine.dispose()
        else:
            self.engine.dispose()


def _alembic(conn: Connection, action: str, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    getattr(command, action)(cfg, revision)


async def open_database(url_or_path: str | Path, *, migrate: bool = True, **kwargs) -> Database:
    """Create a :class:`Database` (a SQLite file's directory is created if missing) and, by
    default, migrate it to the newest schema. ``kwargs`` go to :class:`Database`."""
    db = Database(url_or_path, **kwargs)
    if migrate:
        try:
            await db.migrate()
        except BaseException:
            await db.dispose()
            raise
    return db
