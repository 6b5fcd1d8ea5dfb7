"""Queries over the schema in :mod:`storage.models`, as plain async functions.

Every function takes an open :class:`~sqlalchemy.ext.asyncio.AsyncConnection` (inside a
transaction from :meth:`storage.database.Database.read` or ``.write``) and returns frozen row
dataclasses, never ORM objects. Only SQLAlchemy Core constructs that both SQLite and PostgreSQL
accept are used; upserts are "update, and insert when nothing was updated", which is safe under
the single-writer transactions of :class:`~storage.database.Database`.

Times are Unix seconds (float). Nothing here commits: the caller's transaction does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import case, delete, func, insert, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.models import (
    GLOBAL_SCOPE,
    Action,
    Chat,
    Match,
    MatchResult,
    PlayerStats,
    User,
)

#: Match statuses in which the match is open (has an ``active_key`` and maybe a deadline).
OPEN_STATUSES = ("lobby", "playing")
#: All match statuses.
STATUSES = ("lobby", "playing", "finished", "stopped", "expired")


class ActiveMatchExists(Exception):
    """Raised by :func:`insert_match` when the chat topic already has an open lobby/match."""


def active_key(chat_id: int, thread_id: int | None) -> str:
    """The ``matches.active_key`` of an open match in this chat topic: ``"chat:thread"``."""
    return f"{chat_id}:{thread_id or 0}"


def _row(cls, mapping: Mapping[str, Any]):
    return cls(**{f.name: mapping[f.name] for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class ChatRow:
    """A ``chats`` row. ``settings`` is a JSON object (``{"rules": {...}}``)."""

    id: int
    title: str | None
    language: str | None
    is_forum: bool
    topic_id: int | None
    settings: dict[str, Any]
    active: bool


@dataclass(frozen=True, slots=True)
class UserRow:
    """A ``users`` row."""

    id: int
    first_name: str
    last_name: str | None
    username: str | None
    language: str | None
    dm_open: bool

    @property
    def display_name(self) -> str:
        """First and last name, or ``@username``, or the id."""
        name = " ".join(p for p in (self.first_name, self.last_name) if p).strip()
        return name or (f"@{self.username}" if self.username else str(self.id))


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A ``matches`` row; see :class:`storage.models.Match` for the meaning of each field.
    ``seats`` is a list of ``{"user_id": int, "name": str}`` in seat order."""

    id: int
    chat_id: int
    thread_id: int | None
    status: str
    end_reason: str | None
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int | None
    version: int
    messages: dict[str, Any]
    deadline_at: float | None
    creator_id: int
    rematch_of: int | None
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """An ``actions`` row: ``decision`` is ``{"tile": "a-b", "end": ...}`` or ``{"host": true}``."""

    match_id: int
    seq: int
    seat: int
    user_id: int | None
    decision: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A ``match_results`` row (one seat of a match ended by limit or timeout)."""

    match_id: int
    seat: int
    user_id: int
    name: str
    chat_id: int
    final_score: int
    goat: bool
    rating: int
    outs: int
    fish: int
    timed_out: bool
    ended_by: str
    finished_at: float


@dataclass(frozen=True, slots=True)
class StatsRow:
    """A ``player_stats`` row, with the player's display name from ``users`` (``name``)."""

    scope: int
    user_id: int
    matches: int
    goats: int
    rating: int
    outs: int
    fish: int
    score_sum: int
    name: str


# ----------------------------------------------------------------------------- chats, users


async def get_chat(conn: AsyncConnection, chat_id: int) -> ChatRow | None:
    """The chat, or None."""
    row = (await conn.execute(select(Chat.__table__).where(Chat.id == chat_id))).first()
    return _row(ChatRow, row._mapping) if row else None


async def upsert_chat(
    conn: AsyncConnection,
    chat_id: int,
    *,
    now: float,
    title: str | None = None,
    language: str | None = None,
    is_forum: bool | None = None,
    topic_id: int | None = None,
    settings: dict[str, Any] | None = None,
    active: bool | None = None,
) -> ChatRow:
    """Create the chat or update the given fields (None: leave as it is). Returns the row."""
    values: dict[str, Any] = {
        k: v
        for k, v in {
            "title": title,
            "language": language,
            "is_forum": is_forum,
            "topic_id": topic_id,
            "settings": settings,
            "active": active,
        }.items()
        if v is not None
    }
    res = await conn.execute(
        update(Chat).where(Chat.id == chat_id).values(updated_at=now, **values)
    )
    if res.rowcount == 0:
        values.setdefault("settings", {})
        await conn.execute(
            insert(Chat).values(id=chat_id, created_at=now, updated_at=now, **values)
        )
    chat = await get_chat(conn, chat_id)
    assert chat is not None
    return chat


async def clear_chat_topic(conn: AsyncConnection, chat_id: int, *, now: float) -> None:
    """Forget the chat's forum topic (play in any topic again)."""
    await conn.execute(
        update(Chat).where(Chat.id == chat_id).values(topic_id=None, updated_at=now)
    )


async def get_user(conn: AsyncConnection, user_id: int) -> UserRow | None:
    """The user, or None."""
    row = (await conn.execute(select(User.__table__).where(User.id == user_id))).first()
    return _row(UserRow, row._mapping) if row else None


async def upsert_user(
    conn: AsyncConnection,
    user_id: int,
    *,
    now: float,
    first_name: str | None = None,
    last_name: str | None = None,
    username: str | None = None,
    language: str | None = None,
    dm_open: bool | None = None,
) -> None:
    """Create the user or update the given fields (None: leave as it is)."""
    values = {
        k: v
        for k, v in {
            "first_name": first_name,
            "last_name": last_name,
            "username": username,
            "language": language,
            "dm_open": dm_open,
        }.items()
        if v is not None
    }
    res = await conn.execute(
        update(User).where(User.id == user_id).values(updated_at=now, **values)
    )
    if res.rowcount == 0:
        values.setdefault("first_name", "")
        await conn.execute(
            insert(User).values(id=user_id, created_at=now, updated_at=now, **values)
        )


# ----------------------------------------------------------------------------- matches


async def insert_match(
    conn: AsyncConnection,
    *,
    chat_id: int,
    thread_id: int | None,
    creator_id: int,
    rules: dict[str, Any],
    seats: list[dict[str, Any]],
    now: float,
    deadline_at: float | None,
    rematch_of: int | None = None,
) -> int:
    """Insert a lobby (status ``lobby``, version 0) and return its id.

    Raises :class:`ActiveMatchExists` when the chat topic already has an open lobby or match
    (the unique ``active_key``). The chat row must exist (foreign key).
    """
    stmt = insert(Match).values(
        chat_id=chat_id,
        thread_id=thread_id,
        status="lobby",
        active_key=active_key(chat_id, thread_id),
        rules=rules,
        seats=seats,
        version=0,
        messages={},
        deadline_at=deadline_at,
        creator_id=creator_id,
        rematch_of=rematch_of,
        created_at=now,
        updated_at=now,
    )
    try:
        async with conn.begin_nested():
            res = await conn.execute(stmt)
    except IntegrityError as exc:
        raise ActiveMatchExists(active_key(chat_id, thread_id)) from exc
    return int(res.inserted_primary_key[0])


async def get_match(conn: AsyncConnection, match_id: int) -> MatchRow | None:
    """The match, or None."""
    row = (await conn.execute(select(Match.__table__).where(Match.id == match_id))).first()
    return _row(MatchRow, row._mapping) if row else None


async def find_open_match(
    conn: AsyncConnection, chat_id: int, thread_id: int | None
) -> MatchRow | None:
    """The open (lobby or playing) match of this chat topic, or None."""
    stmt = select(Match.__table__).where(Match.active_key == active_key(chat_id, thread_id))
    row = (await conn.execute(stmt)).first()
    return _row(MatchRow, row._mapping) if row else None


async def list_open_matches(
    conn: AsyncConnection, chat_id: int | None = None
) -> list[MatchRow]:
    """Every open match (lobby or playing), of one chat or of all, oldest first."""
    stmt = select(Match.__table__).where(Match.status.in_(OPEN_STATUSES))
    if chat_id is not None:
        stmt = stmt.where(Match.chat_id == chat_id)
    rows = (await conn.execute(stmt.order_by(Match.id))).all()
    return [_row(MatchRow, r._mapping) for r in rows]


async def update_match(
    conn: AsyncConnection,
    match_id: int,
    expected_version: int,
    *,
    now: float,
    **values: Any,
) -> bool:
    """Optimistic update: set ``values`` and ``version = expected_version + 1`` only if the
    row is still at ``expected_version``. Returns False (and changes nothing) otherwise.

    Setting ``status`` to a closed status clears ``active_key``; to an open one sets it.
    """
    if "status" in values and values["status"] not in OPEN_STATUSES:
        values["active_key"] = None
    stmt = (
        update(Match)
        .where(Match.id == match_id, Match.version == expected_version)
        .values(version=expected_version + 1, updated_at=now, **values)
    )
    res = await conn.execute(stmt)
    return res.rowcount == 1


async def set_messages(
    conn: AsyncConnection, match_id: int, messages: dict[str, Any], *, now: float
) -> bool:
    """Replace the stored message ids (no version bump: not a game change). False if no such
    match."""
    res = await conn.execute(
        update(Match).where(Match.id == match_id).values(messages=messages, updated_at=now)
    )
    return res.rowcount == 1


async def due_matches(conn: AsyncConnection, now: float, limit: int = 100) -> list[MatchRow]:
    """Open matches whose deadline is at or before ``now``, earliest first."""
    stmt = (
        select(Match.__table__)
        .where(Match.deadline_at <= now, Match.status.in_(OPEN_STATUSES))
        .order_by(Match.deadline_at)
        .limit(limit)
    )
    return [_row(MatchRow, r._mapping) for r in (await conn.execute(stmt)).all()]


async def next_deadline(conn: AsyncConnection) -> float | None:
    """The earliest deadline of an open match, or None."""
    stmt = select(func.min(Match.deadline_at)).where(Match.status.in_(OPEN_STATUSES))
    return (await conn.execute(stmt)).scalar()


# ----------------------------------------------------------------------------- action log


async def append_action(
    conn: AsyncConnection,
    match_id: int,
    seq: int,
    *,
    seat: int,
    decision: dict[str, Any],
    at: float,
    user_id: int | None = None,
) -> None:
    """Append one decision to the log. ``(match_id, seq)`` is the primary key, so a second
    writer of the same ``seq`` fails with :class:`IntegrityError`."""
    await conn.execute(
        insert(Action).values(
            match_id=match_id, seq=seq, seat=seat, user_id=user_id, decision=decision, at=at
        )
    )


async def list_actions(conn: AsyncConnection, match_id: int) -> list[ActionRow]:
    """The match's action log in ``seq`` order."""
    stmt = select(Action.__table__).where(Action.match_id == match_id).order_by(Action.seq)
    return [_row(ActionRow, r._mapping) for r in (await conn.execute(stmt)).all()]


# ----------------------------------------------------------------------------- results, stats

_STAT_FIELDS = ("matches", "goats", "rating", "outs", "fish", "score_sum")


def _stat_deltas(r: ResultRow) -> dict[str, int]:
    return {
        "matches": 1,
        "goats": int(r.goat),
        "rating": r.rating,
        "outs": r.outs,
        "fish": r.fish,
        "score_sum": r.final_score,
    }


async def _add_stats(
    conn: AsyncConnection, scope: int, user_id: int, deltas: Mapping[str, int]
) -> None:
    values = {k: getattr(PlayerStats, k) + int(deltas[k]) for k in _STAT_FIELDS}
    res = await conn.execute(
        update(PlayerStats)
        .where(PlayerStats.scope == scope, PlayerStats.user_id == user_id)
        .values(**values)
    )
    if res.rowcount == 0:
        await conn.execute(
            insert(PlayerStats).values(
                scope=scope, user_id=user_id, **{k: int(deltas[k]) for k in _STAT_FIELDS}
            )
        )


async def record_results(conn: AsyncConnection, results: Iterable[ResultRow]) -> None:
    """Insert the result rows of a finished match and add them to ``player_stats`` (the row's
    chat and :data:`~storage.models.GLOBAL_SCOPE`), in the caller's transaction."""
    rows = list(results)
    if not rows:
        return
    await conn.execute(
        insert(MatchResult), [{f.name: getattr(r, f.name) for f in fields(r)} for r in rows]
    )
    for r in rows:
        deltas = _stat_deltas(r)
        await _add_stats(conn, r.chat_id, r.user_id, deltas)
        await _add_stats(conn, GLOBAL_SCOPE, r.user_id, deltas)


async def list_results(conn: AsyncConnection, match_id: int | None = None) -> list[ResultRow]:
    """Result rows of one match (seat order) or of all matches."""
    stmt = select(MatchResult.__table__)
    if match_id is not None:
        stmt = stmt.where(MatchResult.match_id == match_id)
    stmt = stmt.order_by(MatchResult.match_id, MatchResult.seat)
    return [_row(ResultRow, r._mapping) for r in (await conn.execute(stmt)).all()]


def _name_expr():
    first = func.coalesce(User.first_name, "")
    return func.trim(first + literal(" ") + func.coalesce(User.last_name, ""))


async def leaderboard(
    conn: AsyncConnection, scope: int = GLOBAL_SCOPE, *, limit: int = 10, offset: int = 0
) -> list[StatsRow]:
    """Players of a chat (``scope`` = chat id) or of all chats (``GLOBAL_SCOPE``), ordered by
    rating sum (RULES.md §1.16) descending, then fewer goats, then fewer matches, then user id.
    """
    stmt = (
        select(PlayerStats.__table__, _name_expr().label("name"), User.username)
        .select_from(
            PlayerStats.__table__.outerjoin(User, User.id == PlayerStats.user_id)
        )
        .where(PlayerStats.scope == scope)
        .order_by(
            PlayerStats.rating.desc(),
            PlayerStats.goats,
            PlayerStats.matches,
            PlayerStats.user_id,
        )
        .limit(limit)
        .offset(offset)
    )
    return [_stats_row(r._mapping) for r in (await conn.execute(stmt)).all()]


def _stats_row(m: Mapping[str, Any]) -> StatsRow:
    name = m["name"] or (f"@{m['username']}" if m["username"] else str(m["user_id"]))
    return StatsRow(
        scope=m["scope"],
        user_id=m["user_id"],
        name=name,
        **{k: int(m[k]) for k in _STAT_FIELDS},
    )


async def player_stats(
    conn: AsyncConnection, user_id: int, scope: int = GLOBAL_SCOPE
) -> StatsRow | None:
    """One player's aggregate in a scope, or None if they finished no match there."""
    stmt = (
        select(PlayerStats.__table__, _name_expr().label("name"), User.username)
        .select_from(
            PlayerStats.__table__.outerjoin(User, User.id == PlayerStats.user_id)
        )
        .where(PlayerStats.scope == scope, PlayerStats.user_id == user_id)
    )
    row = (await conn.execute(stmt)).first()
    return _stats_row(row._mapping) if row else None


async def recompute_stats(conn: AsyncConnection) -> dict[tuple[int, int], dict[str, int]]:
    """Aggregate ``match_results`` directly, ``{(scope, user_id): {field: value}}`` — the
    reference the ``player_stats`` table must always equal."""
    goat = case((MatchResult.goat, 1), else_=0)
    sums = (
        func.count().label("matches"),
        func.sum(goat).label("goats"),
        func.sum(MatchResult.rating).label("rating"),
        func.sum(MatchResult.outs).label("outs"),
        func.sum(MatchResult.fish).label("fish"),
        func.sum(MatchResult.final_score).label("score_sum"),
    )
    out: dict[tuple[int, int], dict[str, int]] = {}
    per_chat = select(MatchResult.chat_id, MatchResult.user_id, *sums).group_by(
        MatchResult.chat_id, MatchResult.user_id
    )
    for r in (await conn.execute(per_chat)).all():
        out[(r.chat_id, r.user_id)] = {k: int(getattr(r, k)) for k in _STAT_FIELDS}
    overall = select(MatchResult.user_id, *sums).group_by(MatchResult.user_id)
    for r in (await conn.execute(overall)).all():
        out[(GLOBAL_SCOPE, r.user_id)] = {k: int(getattr(r, k)) for k in _STAT_FIELDS}
    return out


async def all_stats(conn: AsyncConnection) -> dict[tuple[int, int], dict[str, int]]:
    """The ``player_stats`` table as ``{(scope, user_id): {field: value}}``."""
    rows = (await conn.execute(select(PlayerStats.__table__))).all()
    return {
        (r.scope, r.user_id): {k: int(getattr(r, k)) for k in _STAT_FIELDS} for r in rows
    }


# ----------------------------------------------------------------------------- chat migration


async def move_chat(
    conn: AsyncConnection, old_chat_id: int, new_chat_id: int, *, now: float
) -> list[int]:
    """Move everything of ``old_chat_id`` to ``new_chat_id`` (Telegram's group → supergroup
    migration): the chat's settings (unless the new chat already has its own), every match,
    every result row and the per-chat ``player_stats`` (added to any the new id already has).
    The old chat row is deleted, so a second call is a no-op. Returns the moved match ids.
    """
    if old_chat_id == new_chat_id:
        return []
    old = await get_chat(conn, old_chat_id)
    if old is None:
        return []
    new = await get_chat(conn, new_chat_id)
    if new is None:
        await conn.execute(
            insert(Chat).values(
                id=new_chat_id,
                title=old.title,
                language=old.language,
                is_forum=old.is_forum,
                topic_id=old.topic_id,
                settings=old.settings,
                active=True,
                created_at=now,
                updated_at=now,
            )
        )
    elif not new.settings and old.settings:
        await conn.execute(
            update(Chat)
            .where(Chat.id == new_chat_id)
            .values(settings=old.settings, language=new.language or old.language,
                    updated_at=now)
        )
    moved = (
        await conn.execute(select(Match.id, Match.thread_id, Match.status).where(
            Match.chat_id == old_chat_id))
    ).all()
    for mid, thread_id, status in moved:
        key = active_key(new_chat_id, thread_id) if status in OPEN_STATUSES else None
        await conn.execute(
            update(Match).where(Match.id == mid).values(chat_id=new_chat_id, active_key=key)
        )
    await conn.execute(
        update(MatchResult)
        .where(MatchResult.chat_id == old_chat_id)
        .values(chat_id=new_chat_id)
    )
    old_stats = (
        await conn.execute(select(PlayerStats.__table__).where(PlayerStats.scope == old_chat_id))
    ).all()
    for r in old_stats:
        await _add_stats(conn, new_chat_id, r.user_id, {k: getattr(r, k) for k in _STAT_FIELDS})
    await conn.execute(delete(PlayerStats).where(PlayerStats.scope == old_chat_id))
    await conn.execute(delete(Chat).where(Chat.id == old_chat_id))
    return [mid for mid, _, _ in moved]


async def count_rows(conn: AsyncConnection, table: str) -> int:
    """Number of rows in a table of this schema (for tests and the benchmark)."""
    tables = {t.name: t for t in (Chat.__table__, User.__table__, Match.__table__,
                                  Action.__table__, MatchResult.__table__,
                                  PlayerStats.__table__)}
    return int((await conn.execute(select(func.count()).select_from(tables[table]))).scalar())


def seat_list(seats: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    """``[(user_id, name), ...]`` → the ``matches.seats`` JSON shape."""
    return [{"user_id": int(u), "name": str(n)} for u, n in seats]


__all__ = [
    "OPEN_STATUSES",
    "STATUSES",
    "ActionRow",
    "ActiveMatchExists",
    "ChatRow",
    "MatchRow",
    "ResultRow",
    "StatsRow",
    "UserRow",
    "active_key",
    "all_stats",
    "append_action",
    "clear_chat_topic",
    "count_rows",
    "due_matches",
    "find_open_match",
    "get_chat",
    "get_match",
    "get_user",
    "insert_match",
    "leaderboard",
    "list_actions",
    "list_open_matches",
    "list_results",
    "move_chat",
    "next_deadline",
    "player_stats",
    "recompute_stats",
    "record_results",
    "seat_list",
    "set_messages",
    "update_match",
    "upsert_chat",
    "upsert_user",
]
