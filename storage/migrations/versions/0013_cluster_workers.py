"""Coordination that costs what the active chats cost (issue 33): ``cluster_workers``, one
row per live worker whose heartbeat alone keeps all its chats' leases alive (one row written
per worker per heartbeat, whatever the number of chats it owns), and ``chat_leases`` without
a per-chat expiry: a lease lives while its owner's row is fresh and its liveness lock held;
``owner`` 0 marks a chat handed back that needs an owner (a worker stopping or rebalancing);
``since`` is when the lease last changed hands.

Leases of chats with no open match and no pending update are dropped (a chat is leased only
while it has work); the others are marked as needing an owner, so the new workers take them.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "cluster_workers",
        sa.Column("worker_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.Column("owned", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.Double(), nullable=False),
    )
    op.execute("""
        DELETE FROM chat_leases
         WHERE NOT EXISTS (SELECT 1 FROM inbox i
                            WHERE i.chat_id = chat_leases.chat_id AND i.done_at IS NULL)
           AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.chat_id = chat_leases.chat_id
                              AND m.status IN ('lobby', 'playing'))""")
    op.execute("UPDATE chat_leases SET owner = 0")
    with op.batch_alter_table("chat_leases") as batch:
        batch.add_column(sa.Column("since", sa.Double(), nullable=False,
                                   server_default="0"))
    with op.batch_alter_table("chat_leases") as batch:
        batch.alter_column("since", server_default=None)
        batch.drop_column("expires_at")


def downgrade() -> None:
    with op.batch_alter_table("chat_leases") as batch:
        batch.add_column(sa.Column("expires_at", sa.Double(), nullable=False,
                                   server_default="0"))
    with op.batch_alter_table("chat_leases") as batch:
        batch.alter_column("expires_at", server_default=None)
        batch.drop_column("since")
    op.drop_table("cluster_workers")
