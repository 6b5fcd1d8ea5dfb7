"""The secrets the bot makes for itself (issue 33, "Webhooks always carry a secret"):
``bot_secrets``, one row per name; ``"webhook"`` is the ``secret_token`` registered with the
webhook when ``WEBHOOK_SECRET`` is not set, shared by every worker and kept across restarts.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_secrets")
