"""The tables of several workers over one PostgreSQL database (issue 22, "Workers").

``inbox``: every update a worker receives, stored before the webhook is answered, once per
``update_id``; ``chat_leases``: which worker owns a chat; ``rate_buckets``: the private
chats' and the bot's global token buckets shared by the workers.  A single process over
SQLite never writes them.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "inbox",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("received_at", sa.Double(), nullable=False),
        sa.Column("claimed_by", sa.BigInteger(), nullable=True),
        sa.Column("done_at", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("update_id", name=op.f("pk_inbox")),
    )
    op.create_index(op.f("ix_inbox_done_at_chat_id_update_id"), "inbox",
                    ["done_at", "chat_id", "update_id"])
    op.create_table(
        "chat_leases",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("owner", sa.BigInteger(), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_chat_leases")),
    )
    op.create_index(op.f("ix_chat_leases_owner"), "chat_leases", ["owner"])
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("tokens", sa.Double(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_rate_buckets")),
    )


def downgrade() -> None:
    op.drop_table("rate_buckets")
    op.drop_index(op.f("ix_chat_leases_owner"), table_name="chat_leases")
    op.drop_table("chat_leases")
    op.drop_index(op.f("ix_inbox_done_at_chat_id_update_id"), table_name="inbox")
    op.drop_table("inbox")
