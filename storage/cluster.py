"""The queries of several workers over one database (issue 22, "Workers"; issue 33): the
inbox of updates, the chats' leases, the workers' heartbeats, the private chats' token
buckets, and the notifications that wake the workers.

Plain functions over a SQLAlchemy :class:`~sqlalchemy.engine.Connection`, run through
:meth:`storage.Database.read` / ``write`` like :mod:`storage.repository`.  The inbox and the
buckets run on both engines; the leases ask PostgreSQL whether an owner still holds its
liveness lock (``pg_locks``), which SQLite has not.

- **Liveness**: every worker holds a session advisory lock ``(LOCK_CLASS, worker id)`` on a
  connection of its own for as long as it lives, and keeps its ``cluster_workers`` row fresh
  (:func:`heartbeat`: one row per worker, whatever the number of its chats).  A killed
  worker's connection closes, and PostgreSQL frees its lock within milliseconds; a frozen
  one (SIGSTOP) keeps the lock, but its row expires.
- **Leases**: ``chat_leases`` says which worker owns a chat; a lease lives as long as its
  owner does.  Only chats with work are leased (:func:`take_leases`); the owner gives a chat
  back when it falls idle (:func:`release_idle`), and marks the chats it sheds or leaves
  behind as needing an owner (:func:`hand_back`, ``owner`` 0).
- **Inbox**: :func:`inbox_put` stores an update once (``ON CONFLICT DO NOTHING`` on
  ``update_id``) and, on PostgreSQL, notifies the workers (``NOTIFY`` on :data:`CHANNEL`,
  delivered at commit: :func:`notifications`) with the chat and its owner; the owner takes
  its chats' pending updates in order (``seq``: Telegram's in ``update_id`` order, a Mini App
  action after those that came before it) (:func:`inbox_claim`, ``FOR UPDATE SKIP LOCKED``)
  and marks each done: in the transaction of the game change it makes (:func:`inbox_apply`),
  else after its handler (:func:`inbox_done`).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, case, delete, func, select, text, update
from sqlalchemy.engine import Connection

from storage.models import ChatLease, InboxUpdate, Match, RateBucket
from storage.repository import OPEN_STATUSES, MatchRow, _insert, _row

__all__ = [
    "CHANNEL", "GLOBAL_BUCKET", "LOCK_CLASS", "Beat", "InboxRow", "application_name",
    "due_owned", "hand_back", "heartbeat", "inbox_apply", "inbox_backlog", "inbox_claim",
    "inbox_done", "inbox_outcome", "inbox_pending", "inbox_purge", "inbox_put", "lease_owner",
    "leave", "match_chat", "match_versions", "notifications", "owned_chats", "release_idle",
    "take_leases", "take_token",
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
#: ``rate_buckets.key`` of the bot's global bucket (Telegram never uses chat id 0); since
#: issue 33 the workers share the global rate without a row (``service.cluster``).
GLOBAL_BUCKET = 0
#: The channel of the workers' notifications: ``u:<chat>:<owner>`` an update stored for a
#: chat (owner 0: none), ``f:<worker>`` chats handed back by that worker.
CHANNEL = "kozel_cluster"


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
    ).on_conflict_do_nothing(index_elements=[T_INBOX.c.update_id])
    if conn.dialect.name != "postgresql":
        return conn.execute(stmt.returning(T_INBOX.c.update_id)).first() is not None
    # the owner (0: none) told at commit, in the same statement
    ins = stmt.returning(T_INBOX.c.chat_id).cte("ins")
    owner = (select(T_LEASES.c.owner).where(T_LEASES.c.chat_id == ins.c.chat_id)
             .scalar_subquery())
    note = func.pg_notify(CHANNEL, func.concat("u:", ins.c.chat_id, ":",
                                                func.coalesce(owner, 0)))
    return conn.execute(select(note).select_from(ins)).first() is not None


def inbox_pending(conn: Connection, limit: int = 1000) -> list[int]:
    """The chats with updates not yet done (at most ``limit``)."""
    stmt = (select(T_INBOX.c.chat_id).where(T_INBOX.c.done_at.is_(None))
            .group_by(T_INBOX.c.chat_id).limit(limit))
    return [r[0] for r in conn.execute(stmt)]


def inbox_claim(conn: Connection, owner: int, now: float, limit: int = 200) -> list[InboxRow]:
    """The pending updates of the chats ``owner`` holds a lease on, oldest first
    per chat (by ``seq``: the Telegram updates in ``update_id`` order, a Mini App action
    after the updates that came before it, then the actions of one place as received),
    marked ``claimed_by`` = ``owner``.  Rows another transaction is claiming are skipped
    (``FOR UPDATE SKIP LOCKED``; nothing on SQLite)."""
    mine = select(T_LEASES.c.chat_id).where(T_LEASES.c.owner == owner)
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

#: Who is alive: a worker whose row is fresh and who holds its liveness lock.
_LOCKED = """SELECT objid::bigint FROM pg_locks
               WHERE locktype = 'advisory' AND classid = :cls AND objsubid = 2 AND granted"""
_LIVE = f"""SELECT w.worker_id FROM cluster_workers w
             WHERE w.expires_at >= :now AND w.worker_id IN ({_LOCKED})"""
#: Workers that are gone: killed (lock free) or frozen (row expired, lock held: ``locked``).
_DEAD = f"""SELECT w.worker_id, (w.worker_id IN ({_LOCKED})) AS locked
              FROM cluster_workers w
             WHERE w.worker_id <> :owner
               AND NOT (w.expires_at >= :now AND w.worker_id IN ({_LOCKED}))"""


@dataclass(frozen=True, slots=True)
class Beat:
    """What a heartbeat learnt (:func:`heartbeat`): ``live`` workers (this one included),
    the chats they own together (``owned``, as of their last heartbeats), whether a chat
    needs an owner (``orphans``: updates or a deadline with no live owner, a chat handed
    back, a dead worker's chats) and whether this worker's chats have pending updates it has
    not claimed (``unclaimed``: a notification it missed)."""

    live: int
    owned: int
    orphans: bool
    unclaimed: bool


_BEAT_PG = text(f"""
WITH beat AS (
    INSERT INTO cluster_workers (worker_id, expires_at, owned, joined_at)
    VALUES (:owner, :expires, :held, :now)
    ON CONFLICT (worker_id) DO UPDATE
       SET expires_at = excluded.expires_at, owned = excluded.owned
    RETURNING worker_id
), others AS (
    SELECT w.worker_id, w.owned FROM cluster_workers w
     WHERE w.worker_id <> :owner AND w.expires_at >= :now AND w.worker_id IN ({_LOCKED})
)
SELECT (SELECT count(*) FROM others) + 1,
       (SELECT coalesce(sum(owned), 0) FROM others) + :held,
       EXISTS (SELECT 1 FROM chat_leases WHERE owner = 0)
    OR EXISTS (SELECT 1 FROM ({_DEAD}) AS d)
    OR EXISTS (SELECT 1 FROM inbox i WHERE i.done_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM chat_leases l WHERE l.chat_id = i.chat_id))
    OR EXISTS (SELECT 1 FROM matches m WHERE m.deadline_at <= :soon AND m.status IN :open
                  AND NOT EXISTS (SELECT 1 FROM chat_leases l WHERE l.chat_id = m.chat_id)),
       EXISTS (SELECT 1 FROM inbox i JOIN chat_leases l ON l.chat_id = i.chat_id
                WHERE i.done_at IS NULL AND l.owner = :owner
                  AND i.claimed_by IS DISTINCT FROM :owner)
  FROM beat
""").bindparams(bindparam("open", expanding=True))


def heartbeat(conn: Connection, owner: int, now: float, ttl: float, held: int,
              soon: float) -> Beat:
    """The heartbeat of worker ``owner``, one statement whatever the number of chats: its
    ``cluster_workers`` row pushed to ``now + ttl`` (which keeps all its leases alive) with
    the number of chats it holds (``held``), and a look for work it was not told of (a
    deadline at or before ``soon`` counts).  PostgreSQL only (``pg_locks``)."""
    row = conn.execute(_BEAT_PG, {"owner": owner, "expires": now + ttl, "held": held,
                                  "now": now, "soon": soon, "cls": LOCK_CLASS,
                                  "open": list(OPEN_STATUSES)}).one()
    return Beat(int(row[0]), int(row[1]), bool(row[2]), bool(row[3]))


def leave(conn: Connection, owner: int) -> None:
    """Worker ``owner`` leaves the cluster: its row goes (after it handed its chats back)."""
    conn.execute(text("DELETE FROM cluster_workers WHERE worker_id = :owner"),
                 {"owner": owner})


#: Chats that need an owner: pending updates or a deadline within ``:soon`` whose chat has
#: no lease (``kind`` 0), the chats of a dead owner (0; a frozen one's with ``frozen``;
#: ``needed`` when an update is pending or a match is open or ended since ``:recent``, whose
#: end the dead owner may not have shown), and chats handed back (``kind`` 1, with the time
#: they were handed back).
_CANDIDATES_PG = text(f"""
WITH dead AS ({_DEAD}),
work AS (
    SELECT chat_id FROM inbox WHERE done_at IS NULL
    UNION
    SELECT chat_id FROM matches WHERE status IN :open AND deadline_at <= :soon
)
SELECT w.chat_id, 0 AS kind, NULL AS owner, false AS frozen, 0.0 AS since, true AS needed
  FROM work w
 WHERE NOT EXISTS (SELECT 1 FROM chat_leases l WHERE l.chat_id = w.chat_id)
UNION ALL
SELECT l.chat_id, 0, l.owner, d.locked, l.since,
       EXISTS (SELECT 1 FROM inbox i WHERE i.chat_id = l.chat_id AND i.done_at IS NULL)
    OR EXISTS (SELECT 1 FROM matches m WHERE m.chat_id = l.chat_id
                  AND (m.status IN :open OR m.finished_at >= :recent))
  FROM chat_leases l JOIN dead d ON d.worker_id = l.owner
UNION ALL
SELECT l.chat_id, 1, 0, false, l.since, true FROM chat_leases l WHERE l.owner = 0
""").bindparams(bindparam("open", expanding=True))

_TAKE_PG = text(f"""
INSERT INTO chat_leases (chat_id, owner, epoch, since)
SELECT c, :owner, 1, :now FROM unnest(CAST(:chats AS bigint[])) AS c
ON CONFLICT (chat_id) DO UPDATE
   SET owner = excluded.owner, epoch = chat_leases.epoch + 1, since = excluded.since
 WHERE chat_leases.owner = 0 OR chat_leases.owner IN (SELECT worker_id FROM ({_DEAD}) AS d)
RETURNING chat_id
""")

_SHARE_PG = text(f"""
SELECT (SELECT count(*) FROM ({_LIVE}) AS l), (SELECT count(*) FROM chat_leases),
       (SELECT count(*) FROM chat_leases WHERE owner = :owner)
""")


def take_leases(conn: Connection, owner: int, now: float, soon: float, limit: int = 4,
                free_after: float = 1.0) -> list[int]:
    """Take up to ``limit`` chats that need an owner and have none alive: updates pending or
    a deadline at or before ``soon`` with no lease; a dead owner's (killed: its liveness lock
    is free; frozen: its row expired) with an update pending or a match open or ended within
    :data:`RECENT_END` (its other leases go); a chat handed back (``owner`` 0) -- of those only this
    worker's share (all leased chats over the live workers, less what it holds) unless one
    has waited ``free_after`` seconds, so that a worker that joins or has fewer chats gets
    them.  Each taken lease has its ``epoch`` raised.  Returns the chats taken (random among
    the candidates, so that workers share them); the rows of dead workers left with no chat
    go.  PostgreSQL only (``pg_locks``)."""
    params = {"owner": owner, "now": now, "cls": LOCK_CLASS}
    rows = conn.execute(_CANDIDATES_PG, {**params, "open": list(OPEN_STATUSES),
                                         "soon": soon, "recent": now - RECENT_END}).all()
    if not rows:
        return []
    random.shuffle(rows)
    idle = [r[0] for r in rows if not r[5]]  # a dead owner's chats with nothing to do
    if idle:
        conn.execute(text(f"""DELETE FROM chat_leases WHERE chat_id = ANY(CAST(:chats AS bigint[]))
                                AND owner IN (SELECT worker_id FROM ({_DEAD}) AS d)"""),
                     {**params, "chats": idle})
    cands = [r[0] for r in rows if r[1] == 0 and r[5]][:limit]
    free = [r for r in rows if r[1] == 1]
    if free and len(cands) < limit:
        live, leased, mine = conn.execute(_SHARE_PG, params).one()
        share = -(-int(leased) // max(1, int(live))) - int(mine)
        stale = [r[0] for r in free if now - float(r[4]) >= free_after]
        fresh = [r[0] for r in free if now - float(r[4]) < free_after]
        cands += (fresh[:max(0, share)] + stale)[:limit - len(cands)]
    # A frozen owner (row expired, lock still held) may be stopped inside a transaction
    # that holds its lease rows and its matches' rows: end its sessions first, so that its
    # locks go and it can never commit afterwards (it exits when it wakes: fencing).
    for frozen in sorted({int(r[2]) for r in rows if r[3] and r[0] in cands}):
        conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name = :name AND pid <> pg_backend_pid()"),
                     {"name": application_name(frozen)})
    taken = [r[0] for r in conn.execute(_TAKE_PG, {**params, "chats": cands})] \
        if cands else []
    if any(r[2] for r in rows):
        conn.execute(text(f"""DELETE FROM cluster_workers w
                                WHERE w.worker_id IN (SELECT worker_id FROM ({_DEAD}) AS d)
                                  AND NOT EXISTS (SELECT 1 FROM chat_leases l
                                                   WHERE l.owner = w.worker_id)"""), params)
    return taken


def application_name(worker_id: int) -> str:
    """The ``application_name`` of every database session of worker ``worker_id``, so that
    the sessions of a frozen worker can be ended (:func:`take_leases`)."""
    return f"kozel-w{worker_id}"


_IDLE = """NOT EXISTS (SELECT 1 FROM inbox i WHERE i.chat_id = chat_leases.chat_id
                                             AND i.done_at IS NULL)
       AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.chat_id = chat_leases.chat_id
                                                 AND m.status IN :open)"""


def release_idle(conn: Connection, owner: int, chats: list[int]) -> list[int]:
    """Give back the leases ``owner`` holds on those of ``chats`` that fell idle: no update
    pending, no open lobby or match.  Returns the chats given back (the others are busy)."""
    if not chats:
        return []
    stmt = text(f"""DELETE FROM chat_leases WHERE owner = :owner
                       AND chat_id = ANY(CAST(:chats AS bigint[])) AND {_IDLE}
                    RETURNING chat_id""").bindparams(bindparam("open", expanding=True))
    return [r[0] for r in conn.execute(stmt, {"owner": owner, "chats": list(chats),
                                              "open": list(OPEN_STATUSES)})]


def hand_back(conn: Connection, owner: int, chats: list[int] | None, now: float) -> list[int]:
    """Hand back the chats ``owner`` holds (only ``chats`` when given; all when None): the
    idle ones are given back (:func:`release_idle`), the others marked as needing an owner
    (``owner`` 0) and every worker told at commit (``NOTIFY``), so that one takes them at
    once.  Returns every chat that left ``owner``."""
    only = "" if chats is None else "AND chat_id = ANY(CAST(:chats AS bigint[]))"
    params = {"owner": owner, "chats": list(chats or ()), "now": now,
              "open": list(OPEN_STATUSES)}
    gone = [r[0] for r in conn.execute(text(
        f"DELETE FROM chat_leases WHERE owner = :owner {only} AND {_IDLE} RETURNING chat_id"
    ).bindparams(bindparam("open", expanding=True)), params)]
    handed = [r[0] for r in conn.execute(text(
        f"UPDATE chat_leases SET owner = 0, since = :now WHERE owner = :owner {only} "
        "RETURNING chat_id"), params)]
    if handed:
        conn.execute(text("SELECT pg_notify(:ch, :msg)"),
                     {"ch": CHANNEL, "msg": f"f:{owner}"})
    return gone + handed


def owned_chats(conn: Connection, owner: int) -> list[int]:
    """The chats ``owner`` holds a lease on."""
    stmt = select(T_LEASES.c.chat_id).where(T_LEASES.c.owner == owner)
    return [r[0] for r in conn.execute(stmt)]


def lease_owner(conn: Connection, chat_id: int) -> tuple[int, int] | None:
    """``(owner, epoch)`` of a chat's lease (owner 0: handed back), or None (no lease)."""
    row = conn.execute(select(T_LEASES.c.owner, T_LEASES.c.epoch)
                       .where(T_LEASES.c.chat_id == chat_id)).first()
    return None if row is None else (int(row[0]), int(row[1]))


def due_owned(conn: Connection, owner: int, now: float, limit: int = 100) -> list[MatchRow]:
    """:func:`storage.repository.due_matches` of the chats ``owner`` holds a lease on: the
    deadlines only the owner fires, so each is fired, and each computer player's
    decision computed, by one worker."""
    mine = select(T_LEASES.c.chat_id).where(T_LEASES.c.owner == owner)
    stmt = (select(T_MATCHES)
            .where(T_MATCHES.c.deadline_at <= now, T_MATCHES.c.status.in_(OPEN_STATUSES),
                   T_MATCHES.c.chat_id.in_(mine))
            .order_by(T_MATCHES.c.deadline_at).limit(limit))
    return [_row(MatchRow, r._mapping) for r in conn.execute(stmt)]


# ----------------------------------------------------------------------------- notifications


async def notifications(url: str) -> AsyncIterator[str]:
    """The payloads of :data:`CHANNEL`'s notifications, as they come, on a connection of
    their own to ``url`` (a PostgreSQL SQLAlchemy URL) that listens from the first one asked
    for; the connection closes when the iteration ends.  Errors of the connection are
    raised (the caller listens again)."""
    import psycopg
    from sqlalchemy.engine import make_url

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(f"LISTEN {CHANNEL}")
        yield ""  # listening now: what was stored before may not have been told
        async for note in conn.notifies():
            yield note.payload


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
