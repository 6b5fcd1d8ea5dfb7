"""The webhook's secret (issue 33, "Webhooks always carry a secret"): the one configured
(``WEBHOOK_SECRET``), else one the bot made and keeps in its database, so that every worker
and every restart register and check the same."""

from __future__ import annotations

import secrets
import time

from storage import Database
from storage.secrets import kept_secret

__all__ = ["webhook_secret"]

#: Random bytes of a made secret (43 characters of ``A-Za-z0-9_-``, as Telegram allows).
_SECRET_BYTES = 32


async def webhook_secret(db: Database, configured: str | None = None) -> str:
    """``configured`` when given, else the database's kept webhook secret (made now when
    there is none: :func:`storage.secrets.kept_secret`)."""
    if configured:
        return configured
    return await db.write(kept_secret, "webhook", secrets.token_urlsafe(_SECRET_BYTES),
                          time.time())
