"""Storage helpers for tests and benchmarks only: queries the bot itself never makes.

The reference recount of the statistics, the raw result rows, row counts and the seats JSON of
a list of players: what tests compare the repository's own bookkeeping with.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from storage import repository as repo
from storage import skill
from storage.models import GLOBAL_SCOPE

__all__ = ["all_stats", "count_rows", "list_results", "old_match", "recompute_stats",
           "seat_list"]

_RESULTS = repo.T_RESULTS
_FIELDS = ("matches", "goats", "rating", "outs", "fish", "score_sum", "wins")


def list_results(conn: Connection, match_id: int | None = None) -> list[repo.ResultRow]:
    """Result rows of one match (seat order) or of all matches."""
    stmt = select(_RESULTS)
    if match_id is not None:
        stmt = stmt.where(_RESULTS.c.match_id == match_id)
    stmt = stmt.order_by(_RESULTS.c.match_id, _RESULTS.c.seat)
    return [repo.ResultRow(**dict(r._mapping)) for r in conn.execute(stmt).all()]


def recompute_stats(conn: Connection) -> dict[tuple[int, str, bool, int], dict[str, Any]]:
    """Recount every board from the ``match_results`` rows alone, match by match in the order
    they finished (:mod:`storage.skill` for the boards a match counts on and the ratings):
    ``{(scope, variant, with_bots, user_id): {field: value}}`` — the reference the
    ``player_stats`` table must always equal, skill ratings included."""
    rows = [repo.ResultRow(**dict(r._mapping)) for r in conn.execute(
        select(_RESULTS).order_by(_RESULTS.c.finished_at, _RESULTS.c.match_id,
                                  _RESULTS.c.seat)).all()]
    out: dict[tuple[int, str, bool, int], dict[str, Any]] = {}
    for _, group in groupby(rows, key=lambda r: r.match_id):
        group = list(group)
        entries = skill.entries_of(group)
        first = group[0]
        for scope, with_bots in skill.boards(entries, first.chat_id, GLOBAL_SCOPE):
            old = {r.user_id: (out[k]["mu"], out[k]["sigma"]) for r in group
                   if (k := (scope, first.variant, with_bots, r.user_id)) in out}
            new = skill.rate(entries, old, with_bots=with_bots)
            for r in group:
                if r.bot is not None:
                    continue
                entry = out.setdefault((scope, first.variant, with_bots, r.user_id),
                                       dict.fromkeys(_FIELDS, 0))
                entry["matches"] += 1
                entry["goats"] += int(r.goat)
                entry["rating"] += r.rating
                entry["outs"] += r.outs
                entry["fish"] += r.fish
                entry["score_sum"] += r.final_score
                entry["wins"] += int(r.place == 1 and not r.goat and not r.left_match)
                entry["mu"], entry["sigma"] = new[r.user_id]
                entry["skill"] = skill.conservative(*new[r.user_id])
    return out


def all_stats(conn: Connection) -> dict[tuple[int, str, bool, int], dict[str, Any]]:
    """The ``player_stats`` table as ``{(scope, variant, with_bots, user_id): {field:
    value}}``."""
    rows = conn.execute(select(repo.T_STATS)).all()
    return {(r.scope, r.variant, bool(r.with_bots), r.user_id):
            {k: (int(getattr(r, k)) if k in _FIELDS else float(getattr(r, k)))
             for k in (*_FIELDS, "mu", "sigma", "skill")} for r in rows}


def count_rows(conn: Connection, table: str) -> int:
    """Number of rows in a table of the schema."""
    tables = {t.name: t for t in (repo.T_CHATS, repo.T_USERS, repo.T_MATCHES, repo.T_ACTIONS,
                                  _RESULTS, repo.T_STATS, repo.T_BOT_STATS, repo.T_SENDS,
                                  repo.T_CHANGES, repo.T_SEATS)}
    return int(conn.execute(select(func.count()).select_from(tables[table])).scalar())


def seat_list(seats: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    """``[(user_id, name), ...]`` → the ``matches.seats`` JSON shape."""
    return [{"user_id": int(u), "name": str(n)} for u, n in seats]


def old_match(conn: Connection, *, chat_id: int, thread_id: int | None, creator_id: int,
              seats: Sequence[tuple[int, str]], rules: dict[str, Any] | None = None,
              status: str = "lobby", now: float = 1.0) -> int:
    """Insert a match row as the code of a revision before 0006 wrote it (no ``open_seats``
    rows; only columns of revision 0001), for tests that fill an old schema."""
    open_ = status in repo.OPEN_STATUSES
    res = conn.execute(insert(repo.T_MATCHES).values(
        chat_id=chat_id, thread_id=thread_id, status=status,
        active_key=repo.active_key(chat_id, thread_id) if open_ else None,
        rules=rules or {}, seats=seat_list(seats), version=0, messages={},
        creator_id=creator_id, created_at=now, updated_at=now))
    return int(res.inserted_primary_key[0])
