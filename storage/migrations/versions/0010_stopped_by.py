"""Who stopped a match (issue 30 item 6): ``matches.stopped_by``, the name of the person who
stopped it with /stopgame (its creator or a chat admin), so the table, the picture and the
notice say who did, as a stopped match is not rated.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("stopped_by", sa.String(64), nullable=True))


def downgrade() -> None:
    # not batch mode: re-creating ``matches`` would cascade-delete its actions and results
    op.execute("ALTER TABLE matches DROP COLUMN stopped_by")
