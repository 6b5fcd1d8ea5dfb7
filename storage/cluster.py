"""The queries of several workers over one database (issue 22, "Workers"): the inbox of
updates, the chats' leases, the shared token buckets.

Plain functions over a SQLAlchemy :class:`~sqlalchemy.engine.Connection`, run through
:meth:`storage.Database.read` / ``write`` like :mod:`storage.repository`.  The inbox and the
buckets run on both engines; :func:`take_leases` asks PostgreSQL whether an owner still holds
its liveness lock (``pg_locks``), which SQLite has not (there a lease ends only by expiry).

- **Liveness**: every worker holds a session advisory lock ``(LOCK_CLASS, worker id)`` on a
  connection of its own for as long as it lives.  A killed worker's connection closes, and
  PostgreSQL frees its lock within milliseconds: its chats can be taken at once.
- **Leases**: ``chat_leases`` says which worker owns a chat until ``expires_at``; the owner's
  heartbeat (:func:`renew_leases`) pushes that forward.  A frozen worker (SIGSTOP) keeps its
  lock but stops renewing, so its chats are taken once the lease has expired.
- **Inbox**: :func:`inbox_put` stores an update once (``ON CONFLICT DO NOTHING`` on
  ``update_id``); the owner takes its chats' pending updates in order (``seq``: Telegram's
  in ``update_id`` order, a Mini App action after those that came before it)
  (:func:`inbox_claim`, ``FOR UPDATE SKIP LOCKED``) and marks each done: in the transaction
  of the game change it makes (:func:`inbox_apply`), else after its handler
  (:func:`inbox_done`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, case, delete, func, select, text, update
from sqlalchemy.engine import Connection

from storage.models import ChatLease, InboxUpdate, Match, RateBucket
from storage.repository import OPEN_STATUSES, MatchRow, _insert, _row

__all__ = [
    "GLOBAL_BUCKET", "LOCK_CLASS", "InboxRow", "application_name", "due_owned", "inbox_apply",
    "inbox_backlog",
    "inbox_claim", "inbox_done", "inbox_outcome", "match_versions",
    "inbox_pending", "inbox_purge", "inbox_put", "lease_owner", "match_chat", "owned_chats",
    "renew_leases", "take_leases", "take_token",
]

T_INBOX = InboxUpdate.__table__
T_LEASES = ChatLease.__table__
T_BUCKETS = RateBucket.__table__
T_MATCHES = Match.__table__

#: The first key of every worker's liveness lock (``pg_advisory_lock(LOCK_CLASS, id)``);
#: "KZ" in ASCII, so other users of advisory locks in the same database are not confused.
LOCK_CLASS = 0x4B5A
#: Seconds after its end in which a match's chat is still taken from a dead owner, so that
#: the new owner announces an end the dead one committed but never showed.
RECENT_END = 3600.0
#: ``rate_buckets.key`` of the bot's global bucket (Telegram never uses chat id 0).
GLOBAL_BUCKET = 0


@dataclass(frozen=True, slots=True)
class InboxRow:
    """A pending update: its ``update_id``, route ``chat_id``, JSON ``payload`` and when it
    was stored (``received_at``, the cluster's clock in seconds)."""

    update_id: int
    chat_id: int
    payload: dict[str, Any]
    received_at: float = 0.0


# ----------------------------------------------------------------------------- inbox


def _lazy_commit(conn: Connection) -> None:
    """Let this transaction's commit return before its WAL reaches the disk (PostgreSQL's
    ``synchronous_commit = off`` for this transaction only): for marks whose loss in a
    crash of the server is harmless -- a claim lost is made again, an update that changed
    no game run again is only answered again (one that changed a game is marked with its
    change: :func:`inbox_apply`), a token lost only makes a worker wait.  Nothing on
    SQLite."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SET LOCAL synchronous_commit TO OFF"))


def inbox_put(conn: Connection, update_id: int, chat_id: int, payload: Mapping[str, Any],
              now: float) -> bool:
    """Store an update unless one with its ``update_id`` is stored already (Telegram resends
    an update it got no 2xx for).  True when it was new.  Its place in the chat's order
    (``seq``): a Telegram update's ``update_id`` (Telegram numbers them in the order they
    happened); a Mini App action's (negative ``update_id``) the largest place among the
    chat's pending rows now, so it is processed after every update of the chat that came
    before it and before every one that comes after (:func:`inbox_claim`)."""
    if update_id > 0:
        seq: Any = update_id
    else:
        seq = (select(func.coalesce(func.max(T_INBOX.c.seq), 0))
               .where(T_INBOX.c.done_at.is_(None), T_INBOX.c.chat_id == chat_id)
               .scalar_subquery())
    stmt = _insert(conn, T_INBOX).values(
        update_id=update_id, chat_id=chat_id, payload=dict(payload), received_at=now, seq=seq
    ).on_conflict_do_nothing(index_elements=[T_INBOX.c.update_id]).returning(
        T_INBOX.c.update_id)
    return conn.execute(stmt).first() is not None


def inbox_pending(conn: Connection, limit: int = 1000) -> list[int]:
    """The chats with updates not yet done (at most ``limit``)."""
    stmt = (select(T_INBOX.c.chat_id).where(T_INBOX.c.done_at.is_(None))
            .group_by(T_INBOX.c.chat_id).limit(limit))
    return [r[0] for r in conn.execute(stmt)]


def inbox_claim(conn: Connection, owner: int, now: float, limit: int = 200) -> list[InboxRow]:
    """The pending updates of the chats ``owner`` holds an unexpired lease on, oldest first
    per chat (by ``seq``: the Telegram updates in ``update_id`` order, a Mini App action
    after the updates that came before it, then the actions of one place as received),
    marked ``claimed_by`` = ``owner``.  Rows another transaction is claiming are skipped
    (``FOR UPDATE SKIP LOCKED``; nothing on SQLite)."""
    mine = (select(T_LEASES.c.chat_id)
            .where(T_LEASES.c.owner == owner, T_LEASES.c.expires_at >= now))
    stmt = (select(T_INBOX.c.update_id, T_INBOX.c.chat_id, T_INBOX.c.payload,
                   T_INBOX.c.received_at)
            .where(T_INBOX.c.done_at.is_(None), T_INBOX.c.chat_id.in_(mine))
            .order_by(T_INBOX.c.chat_id, T_INBOX.c.seq,
                      case((T_INBOX.c.update_id < 0, 1), else_=0), T_INBOX.c.received_at)
            .limit(limit)
            .with_for_update(skip_locked=True, of=T_INBOX))
    rows = [InboxRow(int(r[0]), int(r[1]), r[2], float(r[3] or 0.0))
            for r in conn.execute(stmt)]
    if rows:
        _lazy_commit(conn)
        conn.execute(update(T_INBOX).where(T_INBOX.c.update_id.in_([r.update_id for r in rows]))
                     .values(claimed_by=owner))
    return rows


def inbox_apply(conn: Connection, update_id: int, owner: int, now: float) -> bool:
    """Mark an update done inside the transaction of the game change it makes, so that the
    change and the mark commit together or not at all (exactly once).  Only for the worker
    that claimed it last (``claimed_by`` = ``owner``) and only once: False -- and nothing
    written -- when it is done already (a previous try committed its change) or another
    worker has claimed it since (this one was frozen and its chat moved); the caller must
    then roll the change back.  A plain commit (the change itself must be durable)."""
    stmt = (update(T_INBOX)
            .where(T_INBOX.c.update_id == update_id, T_INBOX.c.done_at.is_(None),
                   T_INBOX.c.claimed_by == owner)
            .values(done_at=now))
    return conn.execute(stmt).rowcount == 1


def inbox_done(conn: Connection, update_id: int, owner: int, now: float,
               payload: Mapping[str, Any] | None = None) -> bool:
    """Mark an update processed by ``owner`` after its handler returned (a lazy commit: the
    mark of an update that made no game change -- a reply, a refusal -- only saves running
    it again).  An update already marked by :func:`inbox_apply` keeps its time; one another
    worker has claimed since is left to it.  ``payload``, when given, replaces the stored
    one (a Mini App action stores its outcome there for the worker that answers the page:
    :func:`inbox_outcome`).  True when the update is ``owner``'s (marked now or before),
    False when another worker has claimed it since."""
    _lazy_commit(conn)
    values: dict[str, Any] = {"done_at": func.coalesce(T_INBOX.c.done_at, now)}
    if payload is not None:
        values["payload"] = dict(payload)
    return conn.execute(update(T_INBOX).where(T_INBOX.c.update_id == update_id,
                                              T_INBOX.c.claimed_by == owner)
                        .values(**values)).rowcount == 1


def inbox_outcome(conn: Connection, update_id: int) -> tuple[bool, dict[str, Any]] | None:
    """``(done, payload)`` of a stored update, None when there is none."""
    row = conn.execute(select(T_INBOX.c.done_at, T_INBOX.c.payload)
                       .where(T_INBOX.c.update_id == update_id)).first()
    return None if row is None else (row[0] is not None, dict(row[1]))


def inbox_backlog(conn: Connection) -> int:
    """How many stored updates are not yet done, in the whole cluster (a webhook's
    backpressure)."""
    return int(conn.execute(select(func.count()).select_from(T_INBOX)
                            .where(T_INBOX.c.done_at.is_(None))).scalar_one())


def inbox_purge(conn: Connection, before: float) -> int:
    """Forget the updates done before ``before`` (Unix seconds; Telegram resends an update
    for at most a day).  Returns how many."""
    return conn.execute(delete(T_INBOX).where(T_INBOX.c.done_at < before)).rowcount


def match_chat(conn: Connection, match_id: int) -> int | None:
    """The chat a match is played in, or None (the route of a press on a hand message)."""
    return conn.execute(select(T_MATCHES.c.chat_id).where(T_MATCHES.c.id == match_id)).scalar()


def match_versions(conn: Connection, match_ids: list[int]) -> dict[int, int]:
    """``{match id: version}`` of the given matches that exist (the Mini App's streams on a
    worker that does not own their chats follow them by version)."""
    if not match_ids:
        return {}
    stmt = select(T_MATCHES.c.id, T_MATCHES.c.version).where(T_MATCHES.c.id.in_(match_ids))
    return {int(r[0]): int(r[1]) for r in conn.execute(stmt)}


# ----------------------------------------------------------------------------- leases

_TAKE_PG = text("""
INSERT INTO chat_leases (chat_id, owner, epoch, expires_at)
SELECT c, :owner, 1, :expires FROM unnest(CAST(:chats AS bigint[])) AS c
ON CONFLICT (chat_id) DO UPDATE
   SET owner = excluded.owner, epoch = chat_leases.epoch + 1, expires_at = excluded.expires_at
 WHERE chat_leases.owner <> excluded.owner
   AND (chat_leases.expires_at < :now OR NOT EXISTS (
        SELECT 1 FROM pg_locks l
         WHERE l.locktype = 'advisory' AND l.classid = :cls AND l.objsubid = 2
           AND l.granted AND l.objid::bigint = chat_leases.owner))
RETURNING chat_id
""")

#: Chats that need an owner: pending updates, a deadline within ``:soon``, or an open match
#: (or one finished since ``:recent``, whose end may not have been announced) whose owner is
#: gone (killed: its liveness lock is free; frozen: its lease expired) -- the
#: players of such a chat may wait for a message the dead owner never sent -- and no live one.
_CANDIDATES_PG = text("""
WITH live AS (
    SELECT objid::bigint AS owner FROM pg_locks
     WHERE locktype = 'advisory' AND classid = :cls AND objsubid = 2 AND granted
)
SELECT w.chat_id, cl.owner,
       (cl.owner IS NOT NULL AND cl.owner IN (SELECT owner FROM live)) AS frozen
  FROM (
    SELECT chat_id FROM inbox WHERE done_at IS NULL
    UNION
    SELECT chat_id FROM matches WHERE status IN :open AND deadline_at <= :soon
    UNION
    SELECT o.chat_id FROM chat_leases o
     WHERE (o.expires_at < :now OR o.owner NOT IN (SELECT owner FROM live))
       AND EXISTS (SELECT 1 FROM matches m WHERE m.chat_id = o.chat_id
                     AND (m.status IN :open OR m.finished_at >= :recent))
) AS w
LEFT JOIN chat_leases AS cl ON cl.chat_id = w.chat_id
WHERE cl.chat_id IS NULL
   OR (cl.owner <> :owner
       AND (cl.expires_at < :now OR cl.owner NOT IN (SELECT owner FROM live)))
ORDER BY random()
LIMIT :limit
""").bindparams(bindparam("open", expanding=True))


def take_leases(conn: Connection, owner: int, now: float, ttl: float, soon: float,
                limit: int = 4) -> list[int]:
    """Take up to ``limit`` chats that need an owner (updates pending, a deadline at or
    before ``soon``, or an open match of an owner that is gone) and have none alive: no
    lease, an expired one, or one whose owner no longer holds its liveness lock.  Each
    taken lease has its ``epoch`` raised and expires at ``now + ttl``.  Returns the chats
    taken (random among the candidates, so that workers share them).  PostgreSQL only (it
    reads ``pg_locks``)."""
    rows = conn.execute(_CANDIDATES_PG, {
        "open": list(OPEN_STATUSES), "soon": soon, "owner": owner, "now": now,
        "cls": LOCK_CLASS, "limit": limit, "recent": now - RECENT_END}).all()
    if not rows:
        return []
    cands = [r[0] for r in rows]
    # A frozen owner (lease expired, lock still held) may be stopped inside a transaction
    # that holds its lease rows and its matches' rows: end its sessions first, so that its
    # locks go and it can never commit afterwards (it exits when it wakes: fencing).
    for frozen in sorted({int(r[1]) for r in rows if r[2]}):
        conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name = :name AND pid <> pg_backend_pid()"),
                     {"name": application_name(frozen)})
    return [r[0] for r in conn.execute(_TAKE_PG, {
        "owner": owner, "expires": now + ttl, "chats": cands, "now": now, "cls": LOCK_CLASS})]


def application_name(worker_id: int) -> str:
    """The ``application_name`` of every database session of worker ``worker_id``, so that
    the sessions of a frozen worker can be ended (:func:`take_leases`)."""
    return f"kozel-w{worker_id}"


def renew_leases(conn: Connection, owner: int, now: float, ttl: float) -> list[int]:
    """The heartbeat: push every lease ``owner`` still holds to ``now + ttl``.  Returns the
    chats it holds (a lease taken by another worker is no longer among them)."""
    stmt = (update(T_LEASES).where(T_LEASES.c.owner == owner)
            .values(expires_at=now + ttl).returning(T_LEASES.c.chat_id))
    return [r[0] for r in conn.execute(stmt)]


def owned_chats(conn: Connection, owner: int, now: float) -> list[int]:
    """The chats ``owner`` holds an unexpired lease on."""
    stmt = select(T_LEASES.c.chat_id).where(T_LEASES.c.owner == owner,
                                            T_LEASES.c.expires_at >= now)
    return [r[0] for r in conn.execute(stmt)]


def lease_owner(conn: Connection, chat_id: int) -> tuple[int, int, float] | None:
    """``(owner, epoch, expires_at)`` of a chat's lease, or None."""
    row = conn.execute(select(T_LEASES.c.owner, T_LEASES.c.epoch, T_LEASES.c.expires_at)
                       .where(T_LEASES.c.chat_id == chat_id)).first()
    return None if row is None else (int(row[0]), int(row[1]), float(row[2]))


def due_owned(conn: Connection, owner: int, now: float, limit: int = 100) -> list[MatchRow]:
    """:func:`storage.repository.due_matches` of the chats ``owner`` holds an unexpired lease
    on: the deadlines only the owner fires, so each is fired, and each computer player's
    decision computed, by one worker."""
    mine = (select(T_LEASES.c.chat_id)
            .where(T_LEASES.c.owner == owner, T_LEASES.c.expires_at >= now))
    stmt = (select(T_MATCHES)
            .where(T_MATCHES.c.deadline_at <= now, T_MATCHES.c.status.in_(OPEN_STATUSES),
                   T_MATCHES.c.chat_id.in_(mine))
            .order_by(T_MATCHES.c.deadline_at).limit(limit))
    return [_row(MatchRow, r._mapping) for r in conn.execute(stmt)]


# ----------------------------------------------------------------------------- buckets


def take_token(conn: Connection, key: int, now: float, *, capacity: float,
               per_second: float) -> float:
    """Take one token of the shared bucket ``key`` (a private chat's id, or
    :data:`GLOBAL_BUCKET`): full at ``capacity``, refilled at ``per_second``.  One statement
    (``INSERT … ON CONFLICT DO UPDATE … WHERE tokens >= 1``), so workers taking at once never
    overdraw it.  Returns 0.0 when taken, else the seconds until a token is due."""
    _lazy_commit(conn)
    least = "LEAST" if conn.dialect.name == "postgresql" else "MIN"
    refill = f"{least}(:cap, rate_buckets.tokens + (:now - rate_buckets.at) * :rate)"
    got = conn.execute(text(f"""
        INSERT INTO rate_buckets (key, tokens, at) VALUES (:key, :cap - 1, :now)
        ON CONFLICT (key) DO UPDATE SET tokens = {refill} - 1, at = :now
        WHERE {refill} >= 1
        RETURNING tokens"""), {"key": key, "cap": capacity, "now": now,
                               "rate": per_second}).first()
    if got is not None:
        return 0.0
    row = conn.execute(select(T_BUCKETS.c.tokens, T_BUCKETS.c.at)
                       .where(T_BUCKETS.c.key == key)).first()
    if row is None:
        return 0.0
    have = min(capacity, row[0] + (now - row[1]) * per_second)
    return max(0.0, (1.0 - have) / per_second) if per_second > 0 else 1.0
