"""Alembic environment for the Kozel database.

Two ways in:
- start-up (:meth:`storage.database.Database.migrate`) passes an open synchronous connection in
  ``config.attributes["connection"]``; we migrate on it inside the caller's transaction;
- the ``alembic`` command line (``alembic.ini`` at the repository root) gives a URL in
  ``sqlalchemy.url`` or the ``DATABASE_URL`` / ``DATABASE_PATH`` environment variable; we
  open a :class:`storage.database.Database` on it and migrate in one of its write
  transactions.

On PostgreSQL the migration transaction first takes the advisory lock :data:`MIGRATION_LOCK`
(``pg_advisory_xact_lock``, freed at commit or rollback): when several workers start
together on a fresh database one migrates and the others wait, then find the schema at head
(PostgreSQL's DDL is transactional, so nobody sees half of it). On SQLite the write
transaction's ``BEGIN IMMEDIATE`` already lets one process in at a time.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from storage.models import Base

config = context.config
target_metadata = Base.metadata

#: The advisory lock key of a PostgreSQL migration (any constant every worker shares).
MIGRATION_LOCK = 0x6B6F7A656C  # "kozel"


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def _run(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
    _configure(connection)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    """Emit SQL to stdout (``alembic upgrade head --sql``)."""
    context.configure(
        url=_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    from storage.database import database_url

    url = (config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
           or os.environ.get("DATABASE_PATH"))
    if not url:
        raise RuntimeError("set sqlalchemy.url (alembic -x), DATABASE_URL or DATABASE_PATH")
    return database_url(url)


async def _run_async() -> None:
    from storage.database import Database

    db = Database(_url())
    try:
        await db.write(_run)
    finally:
        await db.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
