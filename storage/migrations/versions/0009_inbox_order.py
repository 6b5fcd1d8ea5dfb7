"""The inbox's order per chat with the Mini App's actions among the updates (issue 22,
"Workers": every game change in order per chat).

``inbox.seq``: the position of a stored row in its chat's order.  A Telegram update's is its
``update_id`` (Telegram numbers them in the order they happened, and sends a chat's next one
only after a 2xx for the previous one); a Mini App action's, whose key is negative, is the
largest position among its chat's pending rows when it was stored, so it goes after every
update of the chat that came before it and before every one that comes after (ties: the
update first, then the actions as received).  A chat's owner processed its rows in
``update_id`` order, which put an action before every pending update of the chat, even one
that came first.  The rows stored before are given their positions so; the index of the
owner's claim becomes ``(done_at, chat_id, seq)``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("inbox", sa.Column("seq", sa.BigInteger(), nullable=True))
    op.execute("UPDATE inbox SET seq = update_id WHERE update_id > 0")
    # an action goes after the pending updates of its chat received before it (the inner
    # query reads pending rows only: by the index, however many done rows the day kept)
    op.execute("""
        UPDATE inbox SET seq = (
            SELECT COALESCE(MAX(o.update_id), 0) FROM inbox AS o
             WHERE o.done_at IS NULL AND o.chat_id = inbox.chat_id AND o.update_id > 0
               AND o.received_at <= inbox.received_at)
         WHERE update_id < 0""")
    with op.batch_alter_table("inbox") as batch:
        batch.alter_column("seq", existing_type=sa.BigInteger(), nullable=False)
        batch.drop_index("ix_inbox_done_at_chat_id_update_id")
        batch.create_index("ix_inbox_done_at_chat_id_seq", ["done_at", "chat_id", "seq"])


def downgrade() -> None:
    with op.batch_alter_table("inbox") as batch:
        batch.drop_index("ix_inbox_done_at_chat_id_seq")
        batch.create_index("ix_inbox_done_at_chat_id_update_id",
                           ["done_at", "chat_id", "update_id"])
        batch.drop_column("seq")
