"""Database handle: the async engine, SQLite pragmas, transactions and start-up migration.

Durability choice for SQLite: WAL journal with ``synchronous=NORMAL``. A commit is durable
against a crash of the process (SIGKILL included): the WAL frames are in the operating
system's cache the moment COMMIT returns. Only a power loss or kernel crash can lose the last
few transactions — never corrupt the file. ``synchronous=FULL`` would add an fsync per commit.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

#: Connection execution option that makes the SQLite ``BEGIN`` take the write lock at once.
_WRITE_OPTION = "kozel_write"


def database_url(path_or_url: str | Path) -> str:
    """Turn a ``DATABASE_PATH`` (a file path) into an async SQLAlchemy URL.

    A value that already contains ``://`` is returned as it is (e.g.
    ``postgresql+asyncpg://...``); anything else is a SQLite file path.
    """
    text = str(path_or_url)
    if "://" in text:
        return text
    return f"sqlite+aiosqlite:///{Path(text).expanduser().resolve()}"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic :class:`Config` whose scripts are inside this package (works from any cwd).

    ``url``: the async SQLAlchemy URL, used only when Alembic runs from the command line; the
    start-up path hands Alembic an open connection instead (see :meth:`Database.migrate`).
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


class Database:
    """One database: an :class:`AsyncEngine` plus the transaction helpers the repositories use.

    ``url_or_path``: a SQLite file path or a full async SQLAlchemy URL. On SQLite every
    connection gets ``journal_mode=WAL``, ``synchronous`` (default ``NORMAL``, see the module
    doc), ``foreign_keys=ON`` and ``busy_timeout`` (milliseconds; how long a writer waits for
    another process's write lock before ``OperationalError: database is locked``).

    Writes inside one process are serialised by an :class:`asyncio.Lock` (SQLite admits one
    writer at a time anyway; queueing in asyncio avoids the busy handler's sleep-and-retry).
    """

    def __init__(
        self,
        url_or_path: str | Path,
        *,
        synchronous: str = "NORMAL",
        busy_timeout_ms: int = 10_000,
        echo: bool = False,
    ) -> None:
        self.url = database_url(url_or_path)
        self.is_sqlite = make_url(self.url).get_backend_name() == "sqlite"
        self.synchronous = synchronous.upper()
        if self.synchronous not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"bad synchronous setting: {synchronous!r}")
        self.engine: AsyncEngine = create_async_engine(self.url, echo=echo)
        if self.is_sqlite:
            self._install_sqlite_hooks(busy_timeout_ms)
        self._writer = self.engine.execution_options(**{_WRITE_OPTION: True})
        self._write_lock = asyncio.Lock()

    def _install_sqlite_hooks(self, busy_timeout_ms: int) -> None:
        sync_engine = self.engine.sync_engine
        synchronous = self.synchronous

        @event.listens_for(sync_engine, "connect")
        def _on_connect(dbapi_conn, _record) -> None:  # pragma: no cover - exercised by all
            # Take transaction control from the driver so BEGIN is emitted exactly where
            # SQLAlchemy begins a transaction (consistent reads, transactional DDL).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cur.close()

        @event.listens_for(sync_engine, "begin")
        def _on_begin(conn: Connection) -> None:
            if conn.get_execution_options().get(_WRITE_OPTION):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.exec_driver_sql("BEGIN")

    async def migrate(self, revision: str = "head") -> None:
        """Upgrade the schema to ``revision`` (default: the newest) with Alembic.

        Safe to call on every start-up: an up-to-date database is left as it is. Raises
        :class:`alembic.util.CommandError` for an unknown revision.
        """

        def _upgrade(sync_conn: Connection) -> None:
            cfg = alembic_config()
            cfg.attributes["connection"] = sync_conn
            command.upgrade(cfg, revision)

        async with self._write_lock, self._writer.begin() as conn:
            await conn.run_sync(_upgrade)

    async def current_revision(self) -> str | None:
        """The Alembic revision the database is at, or None for an empty database."""
        from alembic.runtime.migration import MigrationContext

        async with self.engine.connect() as conn:
            return await conn.run_sync(
                lambda c: MigrationContext.configure(c).get_current_revision()
            )

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """A read transaction (one consistent snapshot); rolled back on exit."""
        async with self.engine.connect() as conn:
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction: committed when the block exits normally, rolled back on an
        exception. On SQLite it starts with ``BEGIN IMMEDIATE`` (write lock first, so a
        read-then-write never fails on a snapshot another process has moved past)."""
        async with self._write_lock, self._writer.begin() as conn:
            yield conn

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()


async def open_database(url_or_path: str | Path, *, migrate: bool = True, **kwargs) -> Database:
    """Create a :class:`Database` and (by default) migrate it to the newest schema.

    The parent directory of a SQLite file is created if missing. ``kwargs`` go to
    :class:`Database`.
    """
    db = Database(url_or_path, **kwargs)
    if db.is_sqlite:
        path = make_url(db.url).database
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    if migrate:
        await db.migrate()
    return db
