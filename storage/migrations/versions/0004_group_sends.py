"""The bot's recent sends per group, so that a restart goes on counting them.

Telegram takes about 20 messages and edits a minute from a bot in one group.  The outbox
counts them in a sliding window; before this revision the window lived in memory only, and a
bot restarted within a minute of its last sends could send 20 more at once (issue 11).  Rows
older than a minute are deleted as new ones arrive.

Revision ID: 0004
Revises: 0003
Create Date: 2025-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "group_sends",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  autoincrement=True, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("sent_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_sends")),
    )
    op.create_index(op.f("ix_group_sends_sent_at"), "group_sends", ["sent_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_group_sends_sent_at"), table_name="group_sends")
    op.drop_table("group_sends")
