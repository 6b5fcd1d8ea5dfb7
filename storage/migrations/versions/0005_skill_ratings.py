"""Players' records: boards per variant with a skill rating, its history, the seat a player
left, and the group's question when a player's turns time out (issue 15, issue 12).

- ``match_results`` gains ``variant``, ``side``, ``place``, ``left_match`` and the goat's
  ``title``.  Rows written
  before this revision get them from their match: the variant from ``matches.rules``, the
  side from the seat (with ``teams``, seats 0+2 and 1+3, RULES.md §1.14), and the place of
  each side by the rating points it gained (§1.16; more is better, a goat after every other
  side with as many points, equal points tie) — the order ``PlayerResult.place`` gives from
  now on, which also reads how close each side was to losing.
- ``player_stats`` is built anew per (scope, variant, with_bots, user_id), with the skill
  rating (``mu``, ``sigma``, ``skill`` = μ − 3σ) and the count of first places, and
  ``rating_changes`` keeps each match's change of each rating.  Both are computed here from
  the stored history: every match's results, in the order the matches finished, through the
  same function that rates a match when it ends (``storage.repository.add_to_boards``), so a
  recomputation from ``match_results`` always gives the stored ratings.
- ``matches.hold``: a question the match waits on instead of a turn (``{"afk": seat}``).

The old ``player_stats`` (one row per scope and person over every variant) is dropped; a
downgrade rebuilds it from ``match_results`` as revision 0002 did.

Revision ID: 0005
Revises: 0004
Create Date: 2025-12-05
"""

from collections.abc import Sequence
from itertools import groupby
from types import SimpleNamespace

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GLOBAL_SCOPE = 0

_RESULTS = sa.table(
    "match_results",
    *(sa.column(n, sa.BigInteger()) for n in ("match_id", "user_id", "chat_id")),
    *(sa.column(n, sa.Integer()) for n in ("seat", "final_score", "rating", "outs", "fish",
                                          "side", "place")),
    *(sa.column(n, sa.Boolean()) for n in ("goat", "timed_out", "left_match")),
    sa.column("finished_at", sa.Double()), sa.column("bot", sa.String()),
    sa.column("variant", sa.String()), sa.column("name", sa.String()),
    sa.column("ended_by", sa.String()),
)
_MATCHES = sa.table("matches", sa.column("id", sa.BigInteger()), sa.column("rules", sa.JSON()))
_STATS = sa.table(
    "player_stats",
    *(sa.column(n, sa.BigInteger()) for n in ("scope", "user_id")),
    sa.column("variant", sa.String()), sa.column("with_bots", sa.Boolean()),
    *(sa.column(n, sa.Integer()) for n in ("matches", "goats", "rating", "outs", "fish",
                                          "score_sum", "wins")),
    *(sa.column(n, sa.Double()) for n in ("mu", "sigma", "skill")),
)
_CHANGES = sa.table(
    "rating_changes",
    *(sa.column(n, sa.BigInteger()) for n in ("match_id", "scope", "user_id")),
    sa.column("with_bots", sa.Boolean()),
    *(sa.column(n, sa.Double()) for n in ("mu_before", "sigma_before", "mu_after",
                                          "sigma_after")),
)


def _places(rows: list) -> dict[int, int]:
    """Place per side of one match's rows: by rating points (more first), goats after the
    others with as many points; equal keys share a place."""
    key = {}
    for r in rows:
        key[r.side] = (-int(r.rating), bool(r.goat))
    order = sorted(key, key=lambda side: (key[side], side))
    place: dict[int, int] = {}
    for k, side in enumerate(order):
        place[side] = place[order[k - 1]] if k and key[side] == key[order[k - 1]] else k + 1
    return place


def _backfill(conn) -> None:
    rules = {r.id: (r.rules or {}) for r in conn.execute(sa.select(_MATCHES))}
    rows = conn.execute(sa.select(_RESULTS.c.match_id, _RESULTS.c.seat, _RESULTS.c.rating,
                                  _RESULTS.c.goat)
                        .order_by(_RESULTS.c.match_id, _RESULTS.c.seat)).all()
    for match_id, group in groupby(rows, key=lambda r: r.match_id):
        group = list(group)
        r = rules.get(match_id, {})
        variant = str(r.get("variant") or "classic")
        teams = bool(r.get("teams"))
        seated = [SimpleNamespace(seat=g.seat, side=(g.seat % 2 if teams else g.seat),
                                  rating=g.rating, goat=g.goat) for g in group]
        place = _places(seated)
        for s in seated:
            conn.execute(_RESULTS.update()
                         .where(_RESULTS.c.match_id == match_id, _RESULTS.c.seat == s.seat)
                         .values(variant=variant, side=s.side, place=place[s.side]))


def _rate_history(conn) -> None:
    from storage import repository

    rows = conn.execute(sa.select(_RESULTS).order_by(
        _RESULTS.c.finished_at, _RESULTS.c.match_id, _RESULTS.c.seat)).all()
    for _, group in groupby(rows, key=lambda r: r.match_id):
        repository.add_to_boards(conn, list(group), stats=_STATS, changes=_CHANGES)


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("hold", sa.JSON(), nullable=True))
    with op.batch_alter_table("match_results") as batch:
        batch.add_column(sa.Column("variant", sa.String(length=16), server_default="classic",
                                   nullable=False))
        batch.add_column(sa.Column("side", sa.Integer(), server_default=sa.text("0"),
                                   nullable=False))
        batch.add_column(sa.Column("place", sa.Integer(), server_default=sa.text("0"),
                                   nullable=False))
        batch.add_column(sa.Column("left_match", sa.Boolean(), server_default=sa.false(),
                                   nullable=False))
        batch.add_column(sa.Column("title", sa.String(length=16), nullable=True))
        batch.drop_index("ix_match_results_user_id")
        batch.drop_index("ix_match_results_chat_id")
        batch.create_index("ix_match_results_user_id_finished_at", ["user_id", "finished_at"])
        batch.create_index("ix_match_results_chat_id_finished_at", ["chat_id", "finished_at"])
    op.drop_index("ix_player_stats_scope_rating", table_name="player_stats")
    op.drop_table("player_stats")
    op.create_table(
        "player_stats",
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("with_bots", sa.Boolean(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        *(sa.Column(name, sa.Integer(), server_default=sa.text("0"), nullable=False)
          for name in ("matches", "goats", "rating", "outs", "fish", "score_sum", "wins")),
        *(sa.Column(name, sa.Double(), nullable=False) for name in ("mu", "sigma", "skill")),
        sa.PrimaryKeyConstraint("scope", "variant", "with_bots", "user_id",
                                name=op.f("pk_player_stats")),
    )
    op.create_index(op.f("ix_player_stats_scope_variant_with_bots_skill"), "player_stats",
                    ["scope", "variant", "with_bots", "skill"])
    op.create_index(op.f("ix_player_stats_user_id"), "player_stats", ["user_id"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("with_bots", sa.Boolean(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        *(sa.Column(name, sa.Double(), nullable=False)
          for name in ("mu_before", "sigma_before", "mu_after", "sigma_after")),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_changes_match_id_matches")),
        sa.PrimaryKeyConstraint("match_id", "scope", "with_bots", "user_id",
                                name=op.f("pk_rating_changes")),
    )
    conn = op.get_bind()
    _backfill(conn)
    _rate_history(conn)


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_index(op.f("ix_player_stats_user_id"), table_name="player_stats")
    op.drop_index(op.f("ix_player_stats_scope_variant_with_bots_skill"),
                  table_name="player_stats")
    op.drop_table("player_stats")
    op.create_table(
        "player_stats",
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        *(sa.Column(name, sa.Integer(), server_default=sa.text("0"), nullable=False)
          for name in ("matches", "goats", "rating", "outs", "fish", "score_sum")),
        sa.PrimaryKeyConstraint("scope", "user_id", name=op.f("pk_player_stats")),
    )
    op.create_index(op.f("ix_player_stats_scope_rating"), "player_stats", ["scope", "rating"])
    with op.batch_alter_table("match_results") as batch:
        batch.drop_index("ix_match_results_chat_id_finished_at")
        batch.drop_index("ix_match_results_user_id_finished_at")
        batch.create_index("ix_match_results_chat_id", ["chat_id"])
        batch.create_index("ix_match_results_user_id", ["user_id"])
        for name in ("title", "left_match", "place", "side", "variant"):
            batch.drop_column(name)
    if op.get_bind().dialect.name == "sqlite":
        # not batch mode: re-creating ``matches`` would cascade-delete its actions and results
        op.execute("ALTER TABLE matches DROP COLUMN hold")
    else:
        op.drop_column("matches", "hold")
    human = _RESULTS.c.bot.is_(None)
    goat = sa.case((_RESULTS.c.goat, 1), else_=0)
    sums = (sa.func.count(), sa.func.sum(goat), sa.func.sum(_RESULTS.c.rating),
            sa.func.sum(_RESULTS.c.outs), sa.func.sum(_RESULTS.c.fish),
            sa.func.sum(_RESULTS.c.final_score))
    stats = sa.table("player_stats", *(sa.column(n) for n in (
        "scope", "user_id", "matches", "goats", "rating", "outs", "fish", "score_sum")))
    columns = ["scope", "user_id", "matches", "goats", "rating", "outs", "fish", "score_sum"]
    per_chat = (sa.select(_RESULTS.c.chat_id, _RESULTS.c.user_id, *sums).where(human)
                .group_by(_RESULTS.c.chat_id, _RESULTS.c.user_id))
    overall = (sa.select(sa.literal(GLOBAL_SCOPE, sa.BigInteger()), _RESULTS.c.user_id, *sums)
               .where(human).group_by(_RESULTS.c.user_id))
    op.execute(stats.insert().from_select(columns, per_chat))
    op.execute(stats.insert().from_select(columns, overall))
