"""Initial schema: chats, users, matches (lobbies), the action log and match results.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AutoId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "chats",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("title", sa.String(length=255), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("is_forum", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("topic_id", sa.BigInteger(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chats")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("first_name", sa.String(length=255), server_default="", nullable=False),
        sa.Column("last_name", sa.String(length=255), nullable=True),
        sa.Column("username", sa.String(length=64), nullable=True),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("dm_open", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
    )
    op.create_table(
        "matches",
        sa.Column("id", AutoId, autoincrement=True, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("end_reason", sa.String(length=16), nullable=True),
        sa.Column("active_key", sa.String(length=64), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("version", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("messages", sa.JSON(), nullable=False),
        sa.Column("deadline_at", sa.Double(), nullable=True),
        sa.Column("creator_id", sa.BigInteger(), nullable=False),
        sa.Column("rematch_of", AutoId, nullable=True),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.Column("started_at", sa.Double(), nullable=True),
        sa.Column("finished_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_matches_chat_id_chats")
        ),
        sa.ForeignKeyConstraint(
            ["rematch_of"], ["matches.id"], name=op.f("fk_matches_rematch_of_matches")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint("active_key", name=op.f("uq_matches_active_key")),
    )
    op.create_index(op.f("ix_matches_deadline_at"), "matches", ["deadline_at"])
    op.create_index(op.f("ix_matches_chat_id_status"), "matches", ["chat_id", "status"])
    op.create_table(
        "actions",
        sa.Column("match_id", AutoId, nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("decision", sa.JSON(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_actions_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "seq", name=op.f("pk_actions")),
    )
    op.create_table(
        "match_results",
        sa.Column("match_id", AutoId, nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=255), server_default="", nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("final_score", sa.Integer(), nullable=False),
        sa.Column("goat", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("outs", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("fish", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("timed_out", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("ended_by", sa.String(length=16), nullable=False),
        sa.Column("finished_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_match_results_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_results")),
    )
    op.create_index(op.f("ix_match_results_chat_id"), "match_results", ["chat_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_match_results_chat_id"), table_name="match_results")
    op.drop_table("match_results")
    op.drop_table("actions")
    op.drop_index(op.f("ix_matches_chat_id_status"), table_name="matches")
    op.drop_index(op.f("ix_matches_deadline_at"), table_name="matches")
    op.drop_table("matches")
    op.drop_table("users")
    op.drop_table("chats")
