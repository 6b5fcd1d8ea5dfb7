"""What a readiness probe asks of the database (issue 33, "Health, readiness and metrics").

:func:`database_checks` answers for the storage, so that the delivery room's
:class:`delivery.lifecycle.Lifecycle` and the handlers' probe routes need not reach it.
"""

from __future__ import annotations

import asyncio

from storage import Database, head_revision

__all__ = ["DB_PROBE_TIMEOUT", "database_checks"]

#: Seconds a readiness probe waits for the database before it says "not ready".
DB_PROBE_TIMEOUT = 2.0


async def database_checks(db: Database, *, timeout: float = DB_PROBE_TIMEOUT
                          ) -> dict[str, str]:
    """``{"database": …, "schema": …}``, each ``"ok"`` or why not: the database answers
    within ``timeout`` seconds, and its Alembic revision is the newest this code knows
    (:func:`storage.head_revision`).  Never raises: an unreachable database is an answer."""
    head = head_revision()
    try:
        revision = await asyncio.wait_for(db.current_revision(), timeout)
    except Exception as exc:  # unreachable, refused, timed out
        return {"database": f"unreachable: {type(exc).__name__}", "schema": "unknown"}
    return {"database": "ok",
            "schema": "ok" if revision == head else f"at {revision}, not {head}"}
