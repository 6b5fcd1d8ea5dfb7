"""Storage helpers for tests and benchmarks only: queries the bot itself never makes.

The reference recount of the statistics, the raw result rows, row counts and the seats JSON of
a list of players: what tests compare the repository's own bookkeeping with.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from itertools import groupby
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from storage import repository as repo
from storage import skill
from storage.models import GLOBAL_SCOPE

__all__ = ["all_stats", "count_rows", "end_rows", "list_results", "old_match",
           "race_match_ends", "rating_chain", "recompute_stats", "seat_list"]

_RESULTS = repo.T_RESULTS
_FIELDS = ("matches", "goats", "rating", "outs", "fish", "score_sum", "wins")


def list_results(conn: Connection, match_id: int | None = None) -> list[repo.ResultRow]:
    """Result rows of one match (seat order) or of all matches."""
    stmt = select(_RESULTS)
    if match_id is not None:
        stmt = stmt.where(_RESULTS.c.match_id == match_id)
    stmt = stmt.order_by(_RESULTS.c.match_id, _RESULTS.c.seat)
    return [repo.ResultRow(**dict(r._mapping)) for r in conn.execute(stmt).all()]


def recompute_stats(conn: Connection, order: Sequence[int] | None = None
                    ) -> dict[tuple[int, str, bool, int], dict[str, Any]]:
    """Recount every board from the ``match_results`` rows alone, match by match in the order
    they finished (or in ``order``, match ids: e.g. the order two matches that finished at
    the same instant were committed in, :func:`rating_chain`), with :mod:`storage.skill` for
    the boards a match counts on and the ratings: ``{(scope, variant, with_bots, user_id):
    {field: value}}`` — the reference the ``player_stats`` table must always equal, skill
    ratings included."""
    rows = [repo.ResultRow(**dict(r._mapping)) for r in conn.execute(
        select(_RESULTS).order_by(_RESULTS.c.finished_at, _RESULTS.c.match_id,
                                  _RESULTS.c.seat)).all()]
    if order is not None:
        rank = {mid: k for k, mid in enumerate(order)}
        rows.sort(key=lambda r: (rank[r.match_id], r.seat))
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
                entry["goats"] += int(r.goat and not r.left_match)
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


def rating_chain(conn: Connection, user_id: int, scope: int = GLOBAL_SCOPE,
                 variant: str = "classic", with_bots: bool = False) -> list[int]:
    """The match ids of a person's ``rating_changes`` on one board in the order they were
    applied, found by chaining (μ, σ) before of each change to after of the one before,
    from :data:`storage.skill.INITIAL`.  Raises ``AssertionError`` when the changes do not
    form one chain: two that start from the same rating are a lost update."""
    c = repo.T_CHANGES.c
    rows = conn.execute(select(repo.T_CHANGES).join(
        _RESULTS, (_RESULTS.c.match_id == c.match_id) & (_RESULTS.c.user_id == c.user_id))
        .where(c.user_id == user_id, c.scope == scope, c.with_bots == with_bots,
               _RESULTS.c.variant == variant)).all()
    by_before: dict[tuple[float, float], list[Any]] = {}
    for r in rows:
        by_before.setdefault((r.mu_before, r.sigma_before), []).append(r)
    out: list[int] = []
    now = skill.INITIAL
    while len(out) < len(rows):
        nxt = by_before.get(now, [])
        assert len(nxt) == 1, f"after {len(out)} changes, {len(nxt)} start from {now}"
        out.append(int(nxt[0].match_id))
        now = (nxt[0].mu_after, nxt[0].sigma_after)
    return out


def end_rows(match_id: int, users: Sequence[int], places: Sequence[int], now: float,
             chat_id: int = -1) -> list[repo.ResultRow]:
    """The result rows of a free-for-all match of ``users`` (seat order) that ended with
    these ``places`` (1 best; the last place is the goat, RULES.md §1.15)."""
    last = max(places)
    return [repo.ResultRow(match_id=match_id, seat=i, user_id=u, name=f"P{u}",
                           chat_id=chat_id, final_score=10 * p, goat=p == last,
                           rating=2 if p == 1 else 0, outs=1, fish=0, timed_out=False,
                           ended_by="limit", finished_at=now, side=i, place=p)
            for i, (u, p) in enumerate(zip(users, places, strict=True))]


def _end_match(conn: Connection, match_id: int, users: Sequence[int], places: Sequence[int],
               now: float) -> None:
    if not repo.update_match(conn, match_id, 0, now=now, status="finished",
                             end_reason="limit", deadline_at=None, finished_at=now):
        raise AssertionError(f"match {match_id} was not at version 0")
    repo.record_results(conn, end_rows(match_id, users, places, now))


async def race_match_ends(first: Any, second: Any, pairs: int, *, seed: int = 1,
                          person: int = 1) -> list[tuple[int, int]]:
    """``person``'s two matches of one chat end at the same instant, ``pairs`` times: the
    two match-end transactions of a pair (the row to ``finished``, its result rows, the
    boards) are sent at once, one through each :class:`storage.Database` handle (two
    workers), the pairs one after another; the other seats are drawn from 40 people, never
    shared inside a pair. Returns the pairs' match ids."""
    rng = random.Random(seed)

    def setup(conn: Connection) -> list[list[tuple[int, list[int]]]]:
        repo.upsert_chat(conn, -1, now=0.0)
        out = []
        for k in range(pairs):
            others = rng.sample([u for u in range(2, 42) if u != person], 4)
            pair = []
            for j in (0, 1):
                users = [person, *others[2 * j:2 * j + 2]]
                mid = repo.insert_match(conn, chat_id=-1, thread_id=2 * k + j,
                                        creator_id=person, rules={}, now=0.0,
                                        seats=seat_list([(u, f"P{u}") for u in users]),
                                        deadline_at=None)
                pair.append((mid, users))
            out.append(pair)
        return out

    made = await first.write(setup)
    for k, ((m1, u1), (m2, u2)) in enumerate(made):
        at = 10.0 + k
        p1, p2 = rng.sample([1, 2, 3], 3), rng.sample([1, 2, 3], 3)
        await asyncio.gather(first.write(_end_match, m1, u1, p1, at),
                             second.write(_end_match, m2, u2, p2, at))
    return [(m1, m2) for (m1, _), (m2, _) in made]
