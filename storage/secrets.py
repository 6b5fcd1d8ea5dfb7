"""The secrets the bot makes for itself (``bot_secrets``, revision 0012): made once, shared by
every worker, kept across restarts.  A plain function over a SQLAlchemy connection, run
through :meth:`storage.Database.write`."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.engine import Connection

from storage.models import BotSecret
from storage.repository import _insert

__all__ = ["kept_secret"]

T_SECRETS = BotSecret.__table__


def kept_secret(conn: Connection, name: str, fresh: str, now: float) -> str:
    """The stored secret ``name``; when there is none yet, ``fresh`` is stored and returned.
    Two workers starting at once agree: the second's insert does nothing and it reads the
    first's (``ON CONFLICT DO NOTHING``)."""
    conn.execute(_insert(conn, T_SECRETS).values(name=name, value=fresh, created_at=now)
                 .on_conflict_do_nothing(index_elements=[T_SECRETS.c.name]))
    return conn.execute(select(T_SECRETS.c.value).where(T_SECRETS.c.name == name)).scalar_one()
