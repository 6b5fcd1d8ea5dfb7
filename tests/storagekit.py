"""Storage helpers for tests and benchmarks only: queries the bot itself never makes.

The reference recount of the statistics, the raw result rows, row counts and the seats JSON of
a list of players: what tests compare the repository's own bookkeeping with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection

from storage import repository as repo
from storage.models import GLOBAL_SCOPE

__all__ = ["all_stats", "count_rows", "list_results", "recompute_stats", "seat_list"]

_RESULTS = repo.T_RESULTS
_FIELDS = ("matches", "goats", "rating", "outs", "fish", "score_sum")


def list_results(conn: Connection, match_id: int | None = None) -> list[repo.ResultRow]:
    """Result rows of one match (seat order) or of all matches."""
    stmt = select(_RESULTS)
    if match_id is not None:
        stmt = stmt.where(_RESULTS.c.match_id == match_id)
    stmt = stmt.order_by(_RESULTS.c.match_id, _RESULTS.c.seat)
    return [repo.ResultRow(**dict(r._mapping)) for r in conn.execute(stmt).all()]


def recompute_stats(conn: Connection) -> dict[tuple[int, int], dict[str, int]]:
    """Aggregate the humans' ``match_results`` rows directly, ``{(scope, user_id): {field:
    value}}`` — the reference the ``player_stats`` table must always equal."""
    goat = case((_RESULTS.c.goat, 1), else_=0)
    sums = (
        func.count().label("matches"),
        func.sum(goat).label("goats"),
        func.sum(_RESULTS.c.rating).label("rating"),
        func.sum(_RESULTS.c.outs).label("outs"),
        func.sum(_RESULTS.c.fish).label("fish"),
        func.sum(_RESULTS.c.final_score).label("score_sum"),
    )
    out: dict[tuple[int, int], dict[str, int]] = {}
    human = _RESULTS.c.bot.is_(None)
    per_chat = (select(_RESULTS.c.chat_id, _RESULTS.c.user_id, *sums).where(human)
                .group_by(_RESULTS.c.chat_id, _RESULTS.c.user_id))
    for r in conn.execute(per_chat).all():
        out[(r.chat_id, r.user_id)] = {k: int(getattr(r, k)) for k in _FIELDS}
    overall = select(_RESULTS.c.user_id, *sums).where(human).group_by(_RESULTS.c.user_id)
    for r in conn.execute(overall).all():
        out[(GLOBAL_SCOPE, r.user_id)] = {k: int(getattr(r, k)) for k in _FIELDS}
    return out


def all_stats(conn: Connection) -> dict[tuple[int, int], dict[str, int]]:
    """The ``player_stats`` table as ``{(scope, user_id): {field: value}}``."""
    rows = conn.execute(select(repo.T_STATS)).all()
    return {(r.scope, r.user_id): {k: int(getattr(r, k)) for k in _FIELDS} for r in rows}


def count_rows(conn: Connection, table: str) -> int:
    """Number of rows in a table of the schema."""
    tables = {t.name: t for t in (repo.T_CHATS, repo.T_USERS, repo.T_MATCHES, repo.T_ACTIONS,
                                  _RESULTS, repo.T_STATS, repo.T_BOT_STATS, repo.T_SENDS)}
    return int(conn.execute(select(func.count()).select_from(tables[table])).scalar())


def seat_list(seats: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    """``[(user_id, name), ...]`` → the ``matches.seats`` JSON shape."""
    return [{"user_id": int(u), "name": str(n)} for u, n in seats]
