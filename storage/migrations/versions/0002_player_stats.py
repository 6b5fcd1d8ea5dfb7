"""Leaderboard aggregate: player_stats per chat and global, backfilled from match_results;
index match_results by user for personal statistics.

Revision 0001 computed leaderboards with GROUP BY over every result row; the aggregate keeps
a leaderboard query proportional to the number of players, not of matches.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GLOBAL_SCOPE = 0


def upgrade() -> None:
    op.create_table(
        "player_stats",
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("matches", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("goats", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("rating", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("outs", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("fish", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("score_sum", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.PrimaryKeyConstraint("scope", "user_id", name=op.f("pk_player_stats")),
    )
    op.create_index(
        op.f("ix_player_stats_scope_rating"), "player_stats", ["scope", "rating"]
    )
    op.create_index(op.f("ix_match_results_user_id"), "match_results", ["user_id"])

    results = sa.table(
        "match_results",
        sa.column("chat_id", sa.BigInteger()),
        sa.column("user_id", sa.BigInteger()),
        sa.column("goat", sa.Boolean()),
        sa.column("rating", sa.Integer()),
        sa.column("outs", sa.Integer()),
        sa.column("fish", sa.Integer()),
        sa.column("final_score", sa.Integer()),
    )
    stats = sa.table(
        "player_stats",
        *(
            sa.column(name, sa.BigInteger() if name in ("scope", "user_id") else sa.Integer())
            for name in ("scope", "user_id", "matches", "goats", "rating", "outs", "fish",
                         "score_sum")
        ),
    )
    goat_as_int = sa.case((results.c.goat, 1), else_=0)
    sums = (
        sa.func.count(),
        sa.func.sum(goat_as_int),
        sa.func.sum(results.c.rating),
        sa.func.sum(results.c.outs),
        sa.func.sum(results.c.fish),
        sa.func.sum(results.c.final_score),
    )
    per_chat = sa.select(results.c.chat_id, results.c.user_id, *sums).group_by(
        results.c.chat_id, results.c.user_id
    )
    global_ = sa.select(sa.literal(GLOBAL_SCOPE, sa.BigInteger()), results.c.user_id, *sums)
    global_ = global_.group_by(results.c.user_id)
    columns = ["scope", "user_id", "matches", "goats", "rating", "outs", "fish", "score_sum"]
    op.execute(stats.insert().from_select(columns, per_chat))
    op.execute(stats.insert().from_select(columns, global_))


def downgrade() -> None:
    op.drop_index(op.f("ix_match_results_user_id"), table_name="match_results")
    op.drop_index(op.f("ix_player_stats_scope_rating"), table_name="player_stats")
    op.drop_table("player_stats")
