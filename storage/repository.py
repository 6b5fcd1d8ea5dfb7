"""Queries over the schema in :mod:`storage.models`, as plain synchronous functions.

Every function takes an open :class:`~sqlalchemy.engine.Connection` inside a transaction and
returns frozen row dataclasses, never ORM objects. Callers run them through
:meth:`storage.database.Database.read` / ``.write``, which execute a whole transaction in one
step: on the database's own thread (SQLite) or through ``AsyncConnection.run_sync`` (an async
driver such as asyncpg). Only SQLAlchemy Core constructs that both SQLite and PostgreSQL
accept are used; upserts are "update, and insert when nothing was updated", which is safe under
the single-writer transactions of :class:`~storage.database.Database`.

Times are Unix seconds (float). Nothing here commits: the caller's transaction does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, literal, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage.models import (
    GLOBAL_SCOPE,
    Action,
    BotStats,
    Chat,
    GroupSend,
    Match,
    MatchResult,
    PlayerStats,
    User,
)

# Core tables: statements over them skip the ORM's per-call bookkeeping (hot path).
T_CHATS = Chat.__table__
T_USERS = User.__table__
T_MATCHES = Match.__table__
T_ACTIONS = Action.__table__
T_RESULTS = MatchResult.__table__
T_STATS = PlayerStats.__table__
T_BOT_STATS = BotStats.__table__

# Prebuilt statements of the per-action path: values arrive as parameters, so SQLAlchemy
# compiles each shape once and reuses it.
_GET_MATCH = select(T_MATCHES).where(T_MATCHES.c.id == bindparam("p_id"))
_UPDATE_MATCH = update(T_MATCHES).where(
    T_MATCHES.c.id == bindparam("p_id"), T_MATCHES.c.version == bindparam("p_version")
)
_INSERT_ACTION = insert(T_ACTIONS)

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
    """A ``match_results`` row (one seat of a match ended by limit or timeout). ``bot``: the
    strength of a computer player's seat, None for a human."""

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
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class BotStatsRow:
    """A ``bot_stats`` row: one strength's results over all chats."""

    strength: str
    matches: int
    goats: int
    rating: int
    outs: int
    fish: int
    score_sum: int


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


def get_chat(conn: Connection, chat_id: int) -> ChatRow | None:
    """The chat, or None."""
    row = (conn.execute(select(T_CHATS).where(T_CHATS.c.id == chat_id))).first()
    return _row(ChatRow, row._mapping) if row else None


def upsert_chat(
    conn: Connection,
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
    res = conn.execute(
        update(T_CHATS).where(T_CHATS.c.id == chat_id).values(updated_at=now, **values)
    )
    if res.rowcount == 0:
        values.setdefault("settings", {})
        conn.execute(
            insert(T_CHATS).values(id=chat_id, created_at=now, updated_at=now, **values)
        )
    chat = get_chat(conn, chat_id)
    assert chat is not None
    return chat


def clear_chat_topic(conn: Connection, chat_id: int, *, now: float) -> None:
    """Forget the chat's forum topic (play in any topic again)."""
    conn.execute(
        update(T_CHATS).where(T_CHATS.c.id == chat_id).values(topic_id=None, updated_at=now)
    )


def get_user(conn: Connection, user_id: int) -> UserRow | None:
    """The user, or None."""
    row = (conn.execute(select(T_USERS).where(T_USERS.c.id == user_id))).first()
    return _row(UserRow, row._mapping) if row else None


def upsert_user(
    conn: Connection,
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
    res = conn.execute(
        update(T_USERS).where(T_USERS.c.id == user_id).values(updated_at=now, **values)
    )
    if res.rowcount == 0:
        values.setdefault("first_name", "")
        conn.execute(
            insert(T_USERS).values(id=user_id, created_at=now, updated_at=now, **values)
        )


# ----------------------------------------------------------------------------- matches


def insert_match(
    conn: Connection,
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
    stmt = insert(T_MATCHES).values(
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
        with conn.begin_nested():
            res = conn.execute(stmt)
    except IntegrityError as exc:
        raise ActiveMatchExists(active_key(chat_id, thread_id)) from exc
    return int(res.inserted_primary_key[0])


def get_match(conn: Connection, match_id: int) -> MatchRow | None:
    """The match, or None."""
    row = conn.execute(_GET_MATCH, {"p_id": match_id}).first()
    return _row(MatchRow, row._mapping) if row else None


def find_open_match(
    conn: Connection, chat_id: int, thread_id: int | None
) -> MatchRow | None:
    """The open (lobby or playing) match of this chat topic, or None."""
    stmt = select(T_MATCHES).where(T_MATCHES.c.active_key == active_key(chat_id, thread_id))
    row = (conn.execute(stmt)).first()
    return _row(MatchRow, row._mapping) if row else None


def list_open_matches(
    conn: Connection, chat_id: int | None = None
) -> list[MatchRow]:
    """Every open match (lobby or playing), of one chat or of all, oldest first."""
    stmt = select(T_MATCHES).where(T_MATCHES.c.status.in_(OPEN_STATUSES))
    if chat_id is not None:
        stmt = stmt.where(T_MATCHES.c.chat_id == chat_id)
    rows = (conn.execute(stmt.order_by(T_MATCHES.c.id))).all()
    return [_row(MatchRow, r._mapping) for r in rows]


def list_finished_since(conn: Connection, since: float) -> list[MatchRow]:
    """Matches that finished (status ``finished``) at or after ``since`` [unix seconds],
    oldest first."""
    stmt = (select(T_MATCHES)
            .where(T_MATCHES.c.status == "finished", T_MATCHES.c.finished_at >= since)
            .order_by(T_MATCHES.c.id))
    return [_row(MatchRow, r._mapping) for r in conn.execute(stmt).all()]


def list_open_matches_of(conn: Connection, user_id: int) -> list[MatchRow]:
    """Every open match (lobby or playing) with a seat of ``user_id``, oldest first.  On
    SQLite the seats are searched inside the database (``json_each``), so a user's /start does
    not decode the rows of every match in the bot."""
    if conn.dialect.name != "sqlite":
        return [r for r in list_open_matches(conn)
                if any(s.get("user_id") == user_id for s in r.seats)]
    seat = func.json_each(T_MATCHES.c.seats).table_valued("value").alias("seat")
    seated = (select(literal(1)).select_from(seat)
              .where(func.json_extract(seat.c.value, "$.user_id") == user_id))
    stmt = (select(T_MATCHES)
            .where(T_MATCHES.c.status.in_(OPEN_STATUSES), seated.exists())
            .order_by(T_MATCHES.c.id))
    return [_row(MatchRow, r._mapping) for r in (conn.execute(stmt)).all()]


def update_match(
    conn: Connection,
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
    params = {"p_id": match_id, "p_version": expected_version,
              "version": expected_version + 1, "updated_at": now, **values}
    return conn.execute(_UPDATE_MATCH, params).rowcount == 1


def set_messages(
    conn: Connection, match_id: int, messages: dict[str, Any], *, now: float
) -> bool:
    """Replace the stored message ids (no version bump: not a game change). False if no such
    match."""
    stmt = update(T_MATCHES).where(T_MATCHES.c.id == match_id)
    return conn.execute(stmt.values(messages=messages, updated_at=now)).rowcount == 1


def due_matches(conn: Connection, now: float, limit: int = 100) -> list[MatchRow]:
    """Open matches whose deadline is at or before ``now``, earliest first."""
    stmt = (
        select(T_MATCHES)
        .where(T_MATCHES.c.deadline_at <= now, T_MATCHES.c.status.in_(OPEN_STATUSES))
        .order_by(T_MATCHES.c.deadline_at)
        .limit(limit)
    )
    return [_row(MatchRow, r._mapping) for r in (conn.execute(stmt)).all()]


def next_deadline(conn: Connection) -> float | None:
    """The earliest deadline of an open match, or None."""
    stmt = select(func.min(T_MATCHES.c.deadline_at)).where(T_MATCHES.c.status.in_(OPEN_STATUSES))
    return (conn.execute(stmt)).scalar()


# ----------------------------------------------------------------------------- action log


def append_action(
    conn: Connection,
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
    conn.execute(_INSERT_ACTION, {"match_id": match_id, "seq": seq, "seat": seat,
                                  "user_id": user_id, "decision": decision, "at": at})


def list_actions(conn: Connection, match_id: int) -> list[ActionRow]:
    """The match's action log in ``seq`` order."""
    stmt = select(T_ACTIONS).where(T_ACTIONS.c.match_id == match_id).order_by(T_ACTIONS.c.seq)
    return [_row(ActionRow, r._mapping) for r in (conn.execute(stmt)).all()]


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


def _add_stats(
    conn: Connection, scope: int, user_id: int, deltas: Mapping[str, int]
) -> None:
    values = {k: T_STATS.c[k] + int(deltas[k]) for k in _STAT_FIELDS}
    res = conn.execute(
        update(T_STATS)
        .where(T_STATS.c.scope == scope, T_STATS.c.user_id == user_id)
        .values(**values)
    )
    if res.rowcount == 0:
        conn.execute(
            insert(T_STATS).values(
                scope=scope, user_id=user_id, **{k: int(deltas[k]) for k in _STAT_FIELDS}
            )
        )


def _add_bot_stats(conn: Connection, strength: str, deltas: Mapping[str, int]) -> None:
    values = {k: T_BOT_STATS.c[k] + int(deltas[k]) for k in _STAT_FIELDS}
    res = conn.execute(
        update(T_BOT_STATS).where(T_BOT_STATS.c.strength == strength).values(**values)
    )
    if res.rowcount == 0:
        conn.execute(insert(T_BOT_STATS).values(
            strength=strength, **{k: int(deltas[k]) for k in _STAT_FIELDS}))


def record_results(conn: Connection, results: Iterable[ResultRow]) -> None:
    """Insert the result rows of a finished match and add them up, in the caller's
    transaction: a human's row to ``player_stats`` (the row's chat and
    :data:`~storage.models.GLOBAL_SCOPE`), a computer player's row (``bot`` set) to
    ``bot_stats`` under its strength only — leaderboards list humans only."""
    rows = list(results)
    if not rows:
        return
    conn.execute(
        insert(T_RESULTS), [{f.name: getattr(r, f.name) for f in fields(r)} for r in rows]
    )
    for r in rows:
        deltas = _stat_deltas(r)
        if r.bot is not None:
            _add_bot_stats(conn, r.bot, deltas)
            continue
        _add_stats(conn, r.chat_id, r.user_id, deltas)
        _add_stats(conn, GLOBAL_SCOPE, r.user_id, deltas)


def bot_stats(conn: Connection) -> list[BotStatsRow]:
    """The computer players' results per strength, ordered by strength name."""
    rows = conn.execute(select(T_BOT_STATS).order_by(T_BOT_STATS.c.strength)).all()
    return [_row(BotStatsRow, r._mapping) for r in rows]




def _name_expr():
    first = func.coalesce(T_USERS.c.first_name, "")
    return func.trim(first + literal(" ") + func.coalesce(T_USERS.c.last_name, ""))


def leaderboard(
    conn: Connection, scope: int = GLOBAL_SCOPE, *, limit: int = 10, offset: int = 0
) -> list[StatsRow]:
    """Players of a chat (``scope`` = chat id) or of all chats (``GLOBAL_SCOPE``), ordered by
    rating sum (RULES.md §1.16) descending, then fewer goats, then fewer matches, then user id.
    """
    stmt = (
        select(T_STATS, _name_expr().label("name"), T_USERS.c.username)
        .select_from(
            T_STATS.outerjoin(T_USERS, T_USERS.c.id == T_STATS.c.user_id)
        )
        .where(T_STATS.c.scope == scope)
        .order_by(
            T_STATS.c.rating.desc(),
            T_STATS.c.goats,
            T_STATS.c.matches,
            T_STATS.c.user_id,
        )
        .limit(limit)
        .offset(offset)
    )
    return [_stats_row(r._mapping) for r in (conn.execute(stmt)).all()]


def _stats_row(m: Mapping[str, Any]) -> StatsRow:
    name = m["name"] or (f"@{m['username']}" if m["username"] else str(m["user_id"]))
    return StatsRow(
        scope=m["scope"],
        user_id=m["user_id"],
        name=name,
        **{k: int(m[k]) for k in _STAT_FIELDS},
    )


def player_stats(
    conn: Connection, user_id: int, scope: int = GLOBAL_SCOPE
) -> StatsRow | None:
    """One player's aggregate in a scope, or None if they finished no match there."""
    stmt = (
        select(T_STATS, _name_expr().label("name"), T_USERS.c.username)
        .select_from(
            T_STATS.outerjoin(T_USERS, T_USERS.c.id == T_STATS.c.user_id)
        )
        .where(T_STATS.c.scope == scope, T_STATS.c.user_id == user_id)
    )
    row = (conn.execute(stmt)).first()
    return _stats_row(row._mapping) if row else None






# ----------------------------------------------------------------------------- chat migration


def move_chat(
    conn: Connection, old_chat_id: int, new_chat_id: int, *, now: float
) -> list[int]:
    """Move everything of ``old_chat_id`` to ``new_chat_id`` (Telegram's group → supergroup
    migration): the chat's settings (unless the new chat already has its own), every match,
    every result row and the per-chat ``player_stats`` (added to any the new id already has).
    The old chat row is deleted, so a second call is a no-op. Returns the moved match ids.
    """
    if old_chat_id == new_chat_id:
        return []
    old = get_chat(conn, old_chat_id)
    if old is None:
        return []
    new = get_chat(conn, new_chat_id)
    if new is None:
        conn.execute(
            insert(T_CHATS).values(
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
        conn.execute(
            update(T_CHATS)
            .where(T_CHATS.c.id == new_chat_id)
            .values(settings=old.settings, language=new.language or old.language,
                    updated_at=now)
        )
    moved = (
        conn.execute(select(T_MATCHES.c.id, T_MATCHES.c.thread_id, T_MATCHES.c.status).where(
            T_MATCHES.c.chat_id == old_chat_id))
    ).all()
    for mid, thread_id, status in moved:
        key = active_key(new_chat_id, thread_id) if status in OPEN_STATUSES else None
        stmt = update(T_MATCHES).where(T_MATCHES.c.id == mid)
        conn.execute(stmt.values(chat_id=new_chat_id, active_key=key))
    conn.execute(
        update(T_RESULTS)
        .where(T_RESULTS.c.chat_id == old_chat_id)
        .values(chat_id=new_chat_id)
    )
    old_stats = (
        conn.execute(select(T_STATS).where(T_STATS.c.scope == old_chat_id))
    ).all()
    for r in old_stats:
        _add_stats(conn, new_chat_id, r.user_id, {k: getattr(r, k) for k in _STAT_FIELDS})
    conn.execute(delete(T_STATS).where(T_STATS.c.scope == old_chat_id))
    conn.execute(delete(T_CHATS).where(T_CHATS.c.id == old_chat_id))
    return [mid for mid, _, _ in moved]






# ----------------------------------------------------------------------------- group sends

T_SENDS = GroupSend.__table__
_INSERT_SEND = insert(T_SENDS)


def record_group_send(conn: Connection, chat_id: int, at: float, *,
                      forget_before: float | None = None) -> None:
    """Record that the bot sent a message or an edit to group ``chat_id`` at ``at`` (Unix
    seconds); with ``forget_before``, delete the records older than that."""
    conn.execute(_INSERT_SEND, {"chat_id": chat_id, "sent_at": at})
    if forget_before is not None:
        conn.execute(delete(T_SENDS).where(T_SENDS.c.sent_at < forget_before))


def recent_group_sends(conn: Connection, since: float) -> list[tuple[int, float]]:
    """``(chat_id, sent_at)`` of every group send at or after ``since``, oldest first."""
    stmt = (select(T_SENDS.c.chat_id, T_SENDS.c.sent_at)
            .where(T_SENDS.c.sent_at >= since).order_by(T_SENDS.c.sent_at))
    return [(int(r.chat_id), float(r.sent_at)) for r in conn.execute(stmt).all()]


__all__ = [
    "OPEN_STATUSES",
    "STATUSES",
    "ActionRow",
    "ActiveMatchExists",
    "BotStatsRow",
    "ChatRow",
    "MatchRow",
    "ResultRow",
    "StatsRow",
    "UserRow",
    "active_key",
    "append_action",
    "bot_stats",
    "clear_chat_topic",
    "due_matches",
    "find_open_match",
    "get_chat",
    "get_match",
    "get_user",
    "insert_match",
    "leaderboard",
    "list_actions",
    "list_open_matches",
    "list_open_matches_of",
    "move_chat",
    "next_deadline",
    "player_stats",
    "recent_group_sends",
    "record_group_send",
    "record_results",
    "set_messages",
    "update_match",
    "upsert_chat",
    "upsert_user",
]
