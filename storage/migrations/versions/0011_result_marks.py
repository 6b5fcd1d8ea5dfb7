"""What a seat's result holds beside its open score (issue 30 items 1 and 4).

``match_results.marks``: what the game counts beside points, as the match ended it for the
seat — a JSON list of ``{"name", "count", "limit", "per"}`` (Семёрка's палки, RULES.md
§2.8; Генерал's lost rounds, §2.9), ``[]`` for a game that counts none.  Those games keep no
points, so their results were stored as a score of 0 and told as «0» in /history, /stats and
the check of a record; their marks are their result.  The rows stored before are left NULL:
their marks are not known (the history says so, /stats averages the rows that hold them).

``match_results.remembered``: the side's points still remembered at the end (§1.12), which
the match's end shows beside the open score; 0 for the rows stored before.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_results") as batch:
        batch.add_column(sa.Column("marks", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("remembered", sa.Integer(), nullable=False,
                                   server_default=sa.text("0")))


def downgrade() -> None:
    with op.batch_alter_table("match_results") as batch:
        batch.drop_column("remembered")
        batch.drop_column("marks")
