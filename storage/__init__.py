"""Persistence for the Kozel bot: SQLAlchemy 2 (async) schema, Alembic migrations that run at
start-up, and the queries the game service needs.

    from storage import open_database, repository as repo
    db = await open_database("data/kozel.sqlite3")      # creates, migrates (WAL)
    async with db.write() as conn:                       # one transaction, committed on exit
        await repo.upsert_chat(conn, chat_id, now=time.time())
"""

from storage import repository
from storage.database import (
    Database,
    alembic_config,
    database_url,
    head_revision,
    open_database,
)
from storage.models import GLOBAL_SCOPE, Base

__all__ = [
    "GLOBAL_SCOPE",
    "Base",
    "Database",
    "alembic_config",
    "database_url",
    "head_revision",
    "open_database",
    "repository",
]
