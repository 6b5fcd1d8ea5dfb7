"""Queries over the schema in :mod:`storage.models`, as plain synchronous functions.

Every function takes an open :class:`~sqlalchemy.engine.Connection` inside a transaction and
returns frozen row dataclasses, never ORM objects. Callers run them through
:meth:`storage.database.Database.read` / ``.write``, which execute a whole transaction in one
step: on the database's own threads (SQLite, PostgreSQL through psycopg) or through
``AsyncConnection.run_sync`` (an async driver). Only SQLAlchemy Core constructs that both
SQLite and PostgreSQL accept are used, so one function serves both engines:

- upserts are one ``INSERT ... ON CONFLICT`` statement of the dialect (:func:`_insert`), atomic
  when two workers meet the same new chat, user or computer player's strength at once;
- a read-then-write of shared rows (the boards of :func:`add_to_boards`) first locks the rows
  it reads, ``SELECT ... FOR UPDATE`` in key order, so two transactions of the same person
  queue instead of both starting from the same rating (on SQLite the clause compiles to
  nothing: its one writer at a time already serialises them);
- the matches a sweeper must act on are chosen in one place (:func:`due_matches`,
  :func:`next_deadline`).

Times are Unix seconds (float). Nothing here commits: the caller's transaction does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import groupby
from typing import Any

from sqlalchemy import (
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage import skill
from storage.models import (
    GLOBAL_SCOPE,
    Action,
    BotStats,
    Chat,
    GroupSend,
    Match,
    MatchResult,
    OpenSeat,
    PlayerStats,
    RatingChange,
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
T_CHANGES = RatingChange.__table__
T_SEATS = OpenSeat.__table__

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


def _insert(conn: Connection, table: Any):
    """An ``INSERT`` of the connection's dialect, with its ``on_conflict_do_update`` /
    ``on_conflict_do_nothing`` (SQLite and PostgreSQL spell them alike)."""
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


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
    telegram_language: str | None = None

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
    hold: dict[str, Any] | None = None
    stopped_by: str | None = None


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
    strength of a computer player's seat, None for a human; ``variant`` the game, ``side``
    the scoring side (RULES.md §1.14), ``place`` the side's place (1 best), ``left_match``
    a person who left the started match (rated 0, RULES.md §1.16), ``title`` a goat's title
    (RULES.md §2.1, §2.9); ``marks`` what the game counts beside points for the seat
    (``[{"name", "count", "limit", "per"}]``, RULES.md §2.8–§2.9; ``[]`` for none, None when
    the row was stored before revision 0010), ``remembered`` the side's remembered points
    at the end (§1.12)."""

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
    variant: str = "classic"
    side: int = 0
    place: int = 0
    left_match: bool = False
    title: str | None = None
    marks: list[dict[str, Any]] | None = None
    remembered: int = 0


@dataclass(frozen=True, slots=True)
class ChangeRow:
    """A ``rating_changes`` row: one match's change of one person's skill on one board
    (``scope``, ``with_bots``), as (μ, σ) before and after (:mod:`storage.skill`)."""

    match_id: int
    scope: int
    with_bots: bool
    user_id: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def delta(self) -> float:
        """The change of the conservative estimate μ − 3σ."""
        return (skill.conservative(self.mu_after, self.sigma_after)
                - skill.conservative(self.mu_before, self.sigma_before))


@dataclass(frozen=True, slots=True)
class HistoryMatch:
    """A finished match for the history: where and when it ended, its game, and every
    seat's result (seat order) with the rating changes of its people on every board;
    ``seats`` the match's seat JSON (who holds each seat, who left it and when)."""

    match_id: int
    chat_id: int
    chat_title: str | None
    variant: str
    finished_at: float
    ended_by: str
    results: tuple[ResultRow, ...]
    changes: tuple[ChangeRow, ...]
    seats: tuple[dict[str, Any], ...] = ()
    rules: dict[str, Any] = field(default_factory=dict)


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
    """A ``player_stats`` row, with the player's display name from ``users`` (``name``):
    one person on one board (``scope``, ``variant``, ``with_bots``), the sums of RULES.md
    §1.15–§1.16 and the skill rating (``mu``, ``sigma``, ``skill`` = μ − 3σ); ``username``
    their Telegram @username when known (what tells two of one name apart on a board)."""

    scope: int
    variant: str
    with_bots: bool
    user_id: int
    matches: int
    goats: int
    rating: int
    outs: int
    fish: int
    score_sum: int
    wins: int
    mu: float
    sigma: float
    skill: float
    name: str
    username: str | None = None


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
    """Create the chat or update the given fields (None: leave as it is), in one statement
    (two workers creating the same chat at once both succeed). Returns the row."""
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
    ins = _insert(conn, T_CHATS).values(id=chat_id, created_at=now, updated_at=now,
                                        **{"settings": {}, **values})
    stmt = ins.on_conflict_do_update(
        index_elements=[T_CHATS.c.id],
        set_={"updated_at": ins.excluded.updated_at, **{k: ins.excluded[k] for k in values}},
    ).returning(*T_CHATS.c)
    return _row(ChatRow, conn.execute(stmt).one()._mapping)


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
    telegram_language: str | None = None,
) -> None:
    """Create the user or update the given fields (None: leave as it is), in one statement
    (atomic on both engines).  ``language``: the /lang choice; ``telegram_language``: the
    ``language_code`` Telegram reported."""
    values = {
        k: v
        for k, v in {
            "first_name": first_name,
            "last_name": last_name,
            "username": username,
            "language": language,
            "dm_open": dm_open,
            "telegram_language": telegram_language,
        }.items()
        if v is not None
    }
    ins = _insert(conn, T_USERS).values(id=user_id, created_at=now, updated_at=now,
                                        **{"first_name": "", **values})
    conn.execute(ins.on_conflict_do_update(
        index_elements=[T_USERS.c.id],
        set_={"updated_at": ins.excluded.updated_at, **{k: ins.excluded[k] for k in values}},
    ))


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
    (the unique ``active_key``). The chat row must exist (foreign key). The seated users
    go to ``open_seats`` (:func:`list_open_matches_of`).
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
    match_id = int(res.inserted_primary_key[0])
    _seat(conn, match_id, seats, new=True)
    return match_id


def _seat(conn: Connection, match_id: int, seats: Sequence[Mapping[str, Any]] | None, *,
          new: bool = False) -> None:
    """Make ``open_seats`` hold exactly the users of ``seats`` for the match (None: no seat,
    the match closed; ``new``: the match has none yet)."""
    if not new:
        conn.execute(delete(T_SEATS).where(T_SEATS.c.match_id == match_id))
    users = sorted({int(s["user_id"]) for s in seats or () if s.get("user_id") is not None})
    if users:
        conn.execute(insert(T_SEATS), [{"user_id": u, "match_id": match_id} for u in users])


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


def list_finished_since(conn: Connection, since: float, chat_id: int | None = None
                        ) -> list[MatchRow]:
    """Matches that finished (status ``finished``) at or after ``since`` [unix seconds]
    (of one chat with ``chat_id``), oldest first."""
    stmt = (select(T_MATCHES)
            .where(T_MATCHES.c.status == "finished", T_MATCHES.c.finished_at >= since)
            .order_by(T_MATCHES.c.id))
    if chat_id is not None:
        stmt = stmt.where(T_MATCHES.c.chat_id == chat_id)
    return [_row(MatchRow, r._mapping) for r in conn.execute(stmt).all()]


def list_open_matches_of(conn: Connection, user_id: int) -> list[MatchRow]:
    """Every open match (lobby or playing) with a seat of ``user_id``, oldest first: by the
    ``open_seats`` index (revision 0006), so a user's /start reads their matches only."""
    stmt = (select(T_MATCHES)
            .join(T_SEATS, T_SEATS.c.match_id == T_MATCHES.c.id)
            .where(T_SEATS.c.user_id == user_id, T_MATCHES.c.status.in_(OPEN_STATUSES))
            .order_by(T_MATCHES.c.id))
    return [_row(MatchRow, r._mapping) for r in conn.execute(stmt).all()]


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

    Setting ``status`` to a closed status clears ``active_key`` and the match's
    ``open_seats``; new ``seats`` of an open match replace them.
    """
    closed = "status" in values and values["status"] not in OPEN_STATUSES
    if closed:
        values["active_key"] = None
    params = {"p_id": match_id, "p_version": expected_version,
              "version": expected_version + 1, "updated_at": now, **values}
    if conn.execute(_UPDATE_MATCH, params).rowcount != 1:
        return False
    if closed or "seats" in values:
        _seat(conn, match_id, None if closed else values["seats"])
    return True


def set_messages(
    conn: Connection, match_id: int, messages: dict[str, Any], *, now: float
) -> bool:
    """Replace the stored message ids (no version bump: not a game change). False if no such
    match."""
    stmt = update(T_MATCHES).where(T_MATCHES.c.id == match_id)
    return conn.execute(stmt.values(messages=messages, updated_at=now)).rowcount == 1


def due_matches(conn: Connection, now: float, limit: int = 100) -> list[MatchRow]:
    """Open matches whose deadline is at or before ``now``, earliest first.  With
    :func:`next_deadline` the one query of what is due (``matches.deadline_at``, indexed), so
    a claim of due matches among several workers has one place to go."""
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

_STAT_FIELDS = ("matches", "goats", "rating", "outs", "fish", "score_sum", "wins")


def _stat_deltas(r: Any) -> dict[str, int]:
    return {
        "matches": 1,
        # a person who left holds the seat's result but is never its goat (issue 20 item 1)
        "goats": int(bool(r.goat) and not getattr(r, "left_match", False)),
        "rating": int(r.rating),
        "outs": int(r.outs),
        "fish": int(r.fish),
        "score_sum": int(r.final_score),
        "wins": int(int(r.place) == 1 and not r.goat and not r.left_match),
    }


_BOT_FIELDS = tuple(k for k in _STAT_FIELDS if k != "wins")


def _add_bot_stats(conn: Connection, strength: str, deltas: Mapping[str, int]) -> None:
    """Add ``deltas`` to a strength's ``bot_stats`` row, creating it: one upsert."""
    ins = _insert(conn, T_BOT_STATS).values(strength=strength,
                                            **{k: int(deltas[k]) for k in _BOT_FIELDS})
    conn.execute(ins.on_conflict_do_update(
        index_elements=[T_BOT_STATS.c.strength],
        set_={k: T_BOT_STATS.c[k] + ins.excluded[k] for k in _BOT_FIELDS}))


def add_to_boards(conn: Connection, rows: Sequence[Any], *, stats: Any = T_STATS,
                  changes: Any = T_CHANGES) -> None:
    """Add the result rows of one finished match (its ``match_results`` rows, or anything
    with their fields) to every board it counts on (:func:`storage.skill.boards`): each
    person's sums (RULES.md §1.15–§1.16) and skill rating on that board, and a
    ``rating_changes`` row per person and board.  ``stats``/``changes``: the tables (revision
    0005 passes its own).  Runs in the caller's transaction.

    No lost update when one person's two matches end at once in two workers: the board rows
    are first created where missing (at :data:`storage.skill.INITIAL`, ``ON CONFLICT DO
    NOTHING``), then locked and read (``FOR UPDATE``), both in the order of (scope,
    with_bots, user_id), so the second transaction waits for the first and rates from its
    result."""
    if not rows:
        return
    first = rows[0]
    match_id, chat_id, variant = int(first.match_id), int(first.chat_id), str(first.variant)
    entries = skill.entries_of(rows)
    people = sorted((r for r in rows if r.bot is None), key=lambda r: int(r.user_id))
    if not people:
        return
    ids = [int(r.user_id) for r in people]
    boards = sorted(skill.boards(entries, chat_id, GLOBAL_SCOPE))
    ensure_, lock_, update_, change_ = _board_statements(conn, stats, changes)
    initial = {"mu": skill.INITIAL[0], "sigma": skill.INITIAL[1],
               "skill": skill.conservative(*skill.INITIAL), **dict.fromkeys(_STAT_FIELDS, 0)}
    conn.execute(ensure_, [{"scope": scope, "variant": variant, "with_bots": with_bots,
                            "user_id": uid, **initial}
                           for scope, with_bots in boards for uid in ids])
    held: dict[tuple[int, bool], dict[int, tuple[float, float]]] = {}
    for r in conn.execute(lock_, {"b_variant": variant, "b_ids": ids,
                                  "b_scopes": sorted({b[0] for b in boards})}):
        held.setdefault((int(r.scope), bool(r.with_bots)), {})[int(r.user_id)] = (
            float(r.mu), float(r.sigma))
    updates, logged = [], []
    for scope, with_bots in boards:
        old = held[(scope, with_bots)]
        new = skill.rate(entries, old, with_bots=with_bots)
        for r in people:
            uid = int(r.user_id)
            mu, sigma = new[uid]
            updates.append({"b_scope": scope, "b_variant": variant, "b_with_bots": with_bots,
                            "b_user": uid,
                            **{f"d_{k}": v for k, v in _stat_deltas(r).items()},
                            "n_mu": mu, "n_sigma": sigma,
                            "n_skill": skill.conservative(mu, sigma)})
            logged.append({"match_id": match_id, "scope": scope, "with_bots": with_bots,
                           "user_id": uid, "mu_before": old[uid][0],
                           "sigma_before": old[uid][1], "mu_after": mu, "sigma_after": sigma})
    conn.execute(update_, updates)
    conn.execute(change_, logged)


#: The prepared statements of :func:`add_to_boards`, per dialect and (stats, changes) table
#: pair: built once, so a match's end compiles nothing (the benchmark: bench/storage_bench.py).
_BOARD_STATEMENTS: dict[tuple[str, Any, Any], tuple[Any, Any, Any, Any]] = {}


def _board_statements(conn: Connection, stats: Any, changes: Any
                      ) -> tuple[Any, Any, Any, Any]:
    """(create missing board rows, lock and read the rows of the match's people, update a
    row, insert change rows); the board of a row to update is given by the bound
    ``b_scope``, ``b_variant``, ``b_with_bots``."""
    key = (conn.dialect.name, stats, changes)
    got = _BOARD_STATEMENTS.get(key)
    if got is not None:
        return got
    ensure_ = _insert(conn, stats).on_conflict_do_nothing(
        index_elements=["scope", "variant", "with_bots", "user_id"])
    lock_ = (select(stats.c.scope, stats.c.with_bots, stats.c.user_id, stats.c.mu,
                    stats.c.sigma)
             .where(stats.c.variant == bindparam("b_variant"),
                    stats.c.scope.in_(bindparam("b_scopes", expanding=True)),
                    stats.c.user_id.in_(bindparam("b_ids", expanding=True)))
             .order_by(stats.c.scope, stats.c.with_bots, stats.c.user_id)
             .with_for_update())
    board = and_(stats.c.scope == bindparam("b_scope"),
                 stats.c.variant == bindparam("b_variant"),
                 stats.c.with_bots == bindparam("b_with_bots"))
    update_ = (update(stats).where(board, stats.c.user_id == bindparam("b_user"))
               .values(**{k: stats.c[k] + bindparam(f"d_{k}") for k in _STAT_FIELDS},
                       **{k: bindparam(f"n_{k}") for k in ("mu", "sigma", "skill")}))
    got = (ensure_, lock_, update_, insert(changes))
    _BOARD_STATEMENTS[key] = got
    return got


def record_results(conn: Connection, results: Iterable[ResultRow]) -> None:
    """Insert the result rows of finished matches and add them up, in the caller's
    transaction: a computer player's row (``bot`` set) to ``bot_stats`` under its strength,
    and each match's rows to the boards it counts on (:func:`add_to_boards`: the people's
    sums and skill ratings, per variant)."""
    rows = list(results)
    if not rows:
        return
    conn.execute(
        insert(T_RESULTS), [{f.name: getattr(r, f.name) for f in fields(r)} for r in rows]
    )
    per_strength: dict[str, dict[str, int]] = {}
    for r in rows:
        if r.bot is not None:
            sums = per_strength.setdefault(r.bot, dict.fromkeys(_BOT_FIELDS, 0))
            for k, v in _stat_deltas(r).items():
                if k in sums:
                    sums[k] += v
    for strength in sorted(per_strength):  # one order of the row locks in every transaction
        _add_bot_stats(conn, strength, per_strength[strength])
    for _, group in groupby(rows, key=lambda r: r.match_id):
        add_to_boards(conn, list(group))


def bot_stats(conn: Connection) -> list[BotStatsRow]:
    """The computer players' results per strength, ordered by strength name."""
    rows = conn.execute(select(T_BOT_STATS).order_by(T_BOT_STATS.c.strength)).all()
    return [_row(BotStatsRow, r._mapping) for r in rows]


def _name_expr():
    first = func.coalesce(T_USERS.c.first_name, "")
    return func.trim(first + literal(" ") + func.coalesce(T_USERS.c.last_name, ""))


def _board(scope: int, variant: str, with_bots: bool):
    return and_(T_STATS.c.scope == scope, T_STATS.c.variant == variant,
                T_STATS.c.with_bots == with_bots)


def _stats_select():
    return (select(T_STATS, _name_expr().label("name"), T_USERS.c.username)
            .select_from(T_STATS.outerjoin(T_USERS, T_USERS.c.id == T_STATS.c.user_id)))


#: The order of a board: the conservative skill estimate, then the points of RULES.md §1.16,
#: then fewer goats, more matches, the user id.
_BOARD_ORDER = (T_STATS.c.skill.desc(), T_STATS.c.rating.desc(), T_STATS.c.goats,
                T_STATS.c.matches.desc(), T_STATS.c.user_id)


def leaderboard(
    conn: Connection, scope: int = GLOBAL_SCOPE, variant: str = "classic",
    with_bots: bool = False, *, limit: int = 10, offset: int = 0,
) -> list[StatsRow]:
    """One board: the people of a chat (``scope`` = chat id) or of all chats
    (``GLOBAL_SCOPE``) in one ``variant``, counting every match (``with_bots``) or only
    matches without computer players, ordered by the skill estimate μ − 3σ descending, then
    the rating points (RULES.md §1.16), fewer goats, more matches, the user id."""
    stmt = (_stats_select().where(_board(scope, variant, with_bots))
            .order_by(*_BOARD_ORDER).limit(limit).offset(offset))
    return [_stats_row(r._mapping) for r in (conn.execute(stmt)).all()]


def _stats_row(m: Mapping[str, Any]) -> StatsRow:
    name = m["name"] or (f"@{m['username']}" if m["username"] else str(m["user_id"]))
    return StatsRow(
        scope=m["scope"], variant=m["variant"], with_bots=bool(m["with_bots"]),
        user_id=m["user_id"], name=name, username=m["username"] or None,
        **{k: int(m[k]) for k in _STAT_FIELDS},
        mu=float(m["mu"]), sigma=float(m["sigma"]), skill=float(m["skill"]),
    )


def player_stats(
    conn: Connection, user_id: int, scope: int = GLOBAL_SCOPE, variant: str = "classic",
    with_bots: bool = False,
) -> StatsRow | None:
    """One person on one board, or None if they finished no match counted there."""
    stmt = _stats_select().where(_board(scope, variant, with_bots),
                                 T_STATS.c.user_id == user_id)
    row = (conn.execute(stmt)).first()
    return _stats_row(row._mapping) if row else None


def player_boards(conn: Connection, user_id: int) -> list[StatsRow]:
    """Every board row of a person (any scope, variant and kind), by scope, variant, kind."""
    stmt = (_stats_select().where(T_STATS.c.user_id == user_id)
            .order_by(T_STATS.c.scope, T_STATS.c.variant, T_STATS.c.with_bots))
    return [_stats_row(r._mapping) for r in conn.execute(stmt).all()]


def board_place(conn: Connection, user_id: int, scope: int, variant: str, with_bots: bool
                ) -> tuple[int, int] | None:
    """``(place, players)`` of a person on a board (1-based, in :func:`leaderboard`'s
    order), or None when they are not on it."""
    me = player_stats(conn, user_id, scope, variant, with_bots)
    if me is None:
        return None
    board = _board(scope, variant, with_bots)
    c = T_STATS.c
    # ahead of me in _BOARD_ORDER: better on the first key that differs
    keys = ((c.skill, me.skill, True), (c.rating, me.rating, True), (c.goats, me.goats, False),
            (c.matches, me.matches, True), (c.user_id, user_id, False))
    ahead = None
    for col, mine, higher in reversed(keys):
        better = col > mine if higher else col < mine
        ahead = better if ahead is None else or_(better, and_(col == mine, ahead))
    before = conn.execute(select(func.count()).select_from(T_STATS)
                          .where(board, ahead)).scalar()
    total = conn.execute(select(func.count()).select_from(T_STATS).where(board)).scalar()
    return int(before) + 1, int(total)


def mark_sums(conn: Connection, user_ids: Iterable[int], scope: int = GLOBAL_SCOPE,
              variant: str = "classic", with_bots: bool = False
              ) -> dict[int, dict[str, tuple[int, int]]]:
    """What the game counts beside points (``match_results.marks``: Семёрка's палки,
    Генерал's lost rounds, RULES.md §2.8–§2.9), added up per person over the matches one
    board counts (a chat, ``scope``, or every chat, :data:`GLOBAL_SCOPE`; only the matches
    without computer players unless ``with_bots``, :func:`storage.skill.boards`), a seat
    they left included: ``{user_id: {mark name: (sum of its counts, matches that hold
    it)}}``.  Rows stored before revision 0010 hold no marks and are not counted."""
    ids = sorted({int(u) for u in user_ids})
    if not ids:
        return {}
    r, bot = T_RESULTS.alias("r"), T_RESULTS.alias("b")
    stmt = select(r.c.user_id, r.c.marks).where(
        r.c.user_id.in_(ids), r.c.variant == variant, r.c.bot.is_(None),
        r.c.marks.is_not(None))
    if scope != GLOBAL_SCOPE:
        stmt = stmt.where(r.c.chat_id == scope)
    if scope == GLOBAL_SCOPE or not with_bots:  # the global board counts no computer players
        stmt = stmt.where(~select(bot.c.match_id).where(
            bot.c.match_id == r.c.match_id, bot.c.bot.is_not(None)).exists())
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for uid, marks in conn.execute(stmt).all():
        mine = out.setdefault(int(uid), {})
        for m in marks or ():
            total, n = mine.get(str(m["name"]), (0, 0))
            mine[str(m["name"])] = (total + int(m["count"]), n + 1)
    return out


# ----------------------------------------------------------------------------- history


def results_of(conn: Connection, match_id: int) -> list[ResultRow]:
    """The result rows of one match in seat order (none unless it ended by limit or
    timeout)."""
    stmt = (select(T_RESULTS).where(T_RESULTS.c.match_id == match_id)
            .order_by(T_RESULTS.c.seat))
    return [_row(ResultRow, r._mapping) for r in conn.execute(stmt).all()]


def _history_matches(chat_id: int | None, user_id: int | None):
    r = T_RESULTS.c
    stmt = select(r.match_id, func.max(r.finished_at).label("at"))
    if chat_id is not None:
        stmt = stmt.where(r.chat_id == chat_id)
    if user_id is not None:
        stmt = stmt.where(r.user_id == user_id)
    return stmt.group_by(r.match_id)


def bot_matches_in_groups(conn: Connection, user_id: int, variant: str) -> int:
    """How many finished matches of ``variant`` a person played in a group with a computer
    player seated from the start: they count only on that group's board of matches with
    computer players (:func:`storage.skill.boards`), never on the global board nor among the
    person's private matches against computer players."""
    mine, bot = T_RESULTS.alias("mine"), T_RESULTS.alias("bot")
    stmt = (select(func.count(func.distinct(mine.c.match_id)))
            .select_from(mine.join(bot, bot.c.match_id == mine.c.match_id))
            .where(mine.c.user_id == user_id, mine.c.variant == variant,
                   mine.c.chat_id != user_id, mine.c.bot.is_(None), bot.c.bot.is_not(None)))
    return int(conn.execute(stmt).scalar() or 0)


def history_count(conn: Connection, *, chat_id: int | None = None,
                  user_id: int | None = None) -> int:
    """How many finished matches :func:`history` can list (of a chat, of a person, or
    both)."""
    sub = _history_matches(chat_id, user_id).subquery()
    return int(conn.execute(select(func.count()).select_from(sub)).scalar())


def history(conn: Connection, *, chat_id: int | None = None, user_id: int | None = None,
            limit: int = 5, offset: int = 0) -> list[HistoryMatch]:
    """Finished matches (those with results: ended by limit or timeout) of a chat and/or
    with a person in a seat (the seat they left included), newest first (by the time they
    finished, then by id), with every seat's result and every rating change."""
    sub = _history_matches(chat_id, user_id).subquery()
    page = conn.execute(select(sub.c.match_id).order_by(sub.c.at.desc(),
                                                        sub.c.match_id.desc())
                        .limit(limit).offset(offset)).scalars().all()
    if not page:
        return []
    results = conn.execute(select(T_RESULTS).where(T_RESULTS.c.match_id.in_(page))
                           .order_by(T_RESULTS.c.match_id, T_RESULTS.c.seat)).all()
    by_match: dict[int, list[ResultRow]] = {}
    for r in results:
        by_match.setdefault(r.match_id, []).append(_row(ResultRow, r._mapping))
    changes: dict[int, list[ChangeRow]] = {}
    for c in conn.execute(select(T_CHANGES).where(T_CHANGES.c.match_id.in_(page))
                          .order_by(T_CHANGES.c.match_id, T_CHANGES.c.scope,
                                    T_CHANGES.c.with_bots, T_CHANGES.c.user_id)).all():
        changes.setdefault(c.match_id, []).append(_row(ChangeRow, c._mapping))
    chats = {r.chat_id for rows in by_match.values() for r in rows[:1]}
    titles = dict(conn.execute(select(T_CHATS.c.id, T_CHATS.c.title)
                               .where(T_CHATS.c.id.in_(chats))).all())
    stored = {r.id: r for r in conn.execute(
        select(T_MATCHES.c.id, T_MATCHES.c.seats, T_MATCHES.c.rules)
        .where(T_MATCHES.c.id.in_(page))).all()}
    out = []
    for mid in page:
        rows = by_match[mid]
        first = rows[0]
        out.append(HistoryMatch(
            match_id=mid, chat_id=first.chat_id, chat_title=titles.get(first.chat_id),
            variant=first.variant, finished_at=max(r.finished_at for r in rows),
            ended_by=first.ended_by, results=tuple(rows),
            changes=tuple(changes.get(mid, ())),
            seats=tuple(dict(s) for s in (stored[mid].seats if mid in stored else None) or ()),
            rules=dict((stored[mid].rules if mid in stored else None) or {})))
    return out


def _move_boards(conn: Connection, old_chat_id: int, new_chat_id: int) -> None:
    """The boards and rating changes of ``old_chat_id`` become ``new_chat_id``'s: sums are
    added to a row the new id already has, whose skill rating stays unless the old row has
    more matches (one upsert per row: a board row the new chat gains meanwhile in another
    worker is added to, not collided with)."""
    old_rows = conn.execute(select(T_STATS).where(T_STATS.c.scope == old_chat_id)
                            .order_by(T_STATS.c.variant, T_STATS.c.with_bots,
                                      T_STATS.c.user_id)).all()
    for r in old_rows:
        ins = _insert(conn, T_STATS).values(
            scope=new_chat_id, variant=r.variant, with_bots=r.with_bots, user_id=r.user_id,
            **{k: getattr(r, k) for k in (*_STAT_FIELDS, "mu", "sigma", "skill")})
        more = ins.excluded.matches > T_STATS.c.matches  # SET reads the row before the update
        conn.execute(ins.on_conflict_do_update(
            index_elements=[T_STATS.c.scope, T_STATS.c.variant, T_STATS.c.with_bots,
                            T_STATS.c.user_id],
            set_={**{k: T_STATS.c[k] + ins.excluded[k] for k in _STAT_FIELDS},
                  **{k: case((more, ins.excluded[k]), else_=T_STATS.c[k])
                     for k in ("mu", "sigma", "skill")}}))
    conn.execute(delete(T_STATS).where(T_STATS.c.scope == old_chat_id))
    clash = select(T_CHANGES.c.match_id, T_CHANGES.c.with_bots, T_CHANGES.c.user_id).where(
        T_CHANGES.c.scope == new_chat_id)
    conn.execute(delete(T_CHANGES).where(
        T_CHANGES.c.scope == old_chat_id,
        tuple_(T_CHANGES.c.match_id, T_CHANGES.c.with_bots, T_CHANGES.c.user_id).in_(clash)))
    conn.execute(update(T_CHANGES).where(T_CHANGES.c.scope == old_chat_id)
                 .values(scope=new_chat_id))


# ----------------------------------------------------------------------------- chat migration


def move_chat(
    conn: Connection, old_chat_id: int, new_chat_id: int, *, now: float
) -> list[int]:
    """Move everything of ``old_chat_id`` to ``new_chat_id`` (Telegram's group → supergroup
    migration): the chat's settings (unless the new chat already has its own), every match,
    every result row, the chat's boards (``player_stats``: the sums added to any the new id
    already has, the skill rating of the board row with more matches kept) and its rating
    changes.
    The old chat row is deleted, so a second call is a no-op. Returns the moved match ids.
    """
    if old_chat_id == new_chat_id:
        return []
    old = get_chat(conn, old_chat_id)
    if old is None:
        return []
    new = get_chat(conn, new_chat_id)
    if new is None:
        created = conn.execute(
            _insert(conn, T_CHATS).values(
                id=new_chat_id,
                title=old.title,
                language=old.language,
                is_forum=old.is_forum,
                topic_id=old.topic_id,
                settings=old.settings,
                active=True,
                created_at=now,
                updated_at=now,
            ).on_conflict_do_nothing(index_elements=[T_CHATS.c.id])
        ).rowcount
        if not created:  # another worker saw the new chat first
            new = get_chat(conn, new_chat_id)
    if new is not None and not new.settings and old.settings:
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
    _move_boards(conn, old_chat_id, new_chat_id)
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
    "ChangeRow",
    "ChatRow",
    "HistoryMatch",
    "MatchRow",
    "ResultRow",
    "StatsRow",
    "UserRow",
    "active_key",
    "add_to_boards",
    "append_action",
    "board_place",
    "bot_stats",
    "clear_chat_topic",
    "due_matches",
    "find_open_match",
    "get_chat",
    "get_match",
    "get_user",
    "history",
    "history_count",
    "insert_match",
    "leaderboard",
    "list_actions",
    "list_open_matches",
    "list_open_matches_of",
    "mark_sums",
    "move_chat",
    "next_deadline",
    "player_boards",
    "player_stats",
    "recent_group_sends",
    "record_group_send",
    "record_results",
    "results_of",
    "set_messages",
    "update_match",
    "upsert_chat",
    "upsert_user",
]
