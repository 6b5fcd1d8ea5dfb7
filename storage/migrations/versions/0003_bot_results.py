"""Computer players: mark their result rows and keep their statistics apart.

``match_results.bot`` holds the strength (``easy``/``normal``/``hard``) of a seat played by
the computer, NULL for a human. Humans' leaderboards (``player_stats``) never count bot rows;
bots are summed per strength in the new ``bot_stats`` table (issue 6: "Leaderboards list
humans only; bots' results are kept apart"). No bot played before this revision, so there is
nothing to backfill.

Revision ID: 0003
Revises: 0002
Create Date: 2025-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_results") as batch:
        batch.add_column(sa.Column("bot", sa.String(length=16), nullable=True))
    op.create_table(
        "bot_stats",
        sa.Column("strength", sa.String(length=16), nullable=False),
        sa.Column("matches", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("goats", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("rating", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("outs", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("fish", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("score_sum", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.PrimaryKeyConstraint("strength", name=op.f("pk_bot_stats")),
    )


def downgrade() -> None:
    op.drop_table("bot_stats")
    with op.batch_alter_table("match_results") as batch:
        batch.drop_column("bot")
