"""The optimistic store of matches: the cache of open matches, one lock per match, and the
one way every operation opens a match (lock, load, check) and writes it (version check).

Concurrency: one :class:`asyncio.Lock` per match serialises the calls of this process, and
every write is ``UPDATE matches ... WHERE id = ? AND version = ?``: when another process (or a
stale cache) got there first, nothing is written and the caller gets ``ErrorCode.STALE``.

A refusal is raised as :class:`Refused` (see :func:`refuse`) from anywhere inside an operation
and turned into its :class:`~service.views.Result` by the :func:`answers` decorator, so an
operation reads as its checks and its change, nothing else::

    @answers
    async def join(self, match_id, user_id, name):
        async with self.store.opening(match_id, status=Status.LOBBY,
                                      closed="the lobby is closed") as live:
            if live.seat_of(user_id) is not None:
                refuse(ErrorCode.ALREADY_JOINED, "already in this lobby", live)
            nxt = live.next(now, seats=[...])
            await self.store.write(live, nxt, values)
            return result_of(nxt)
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, NoReturn

from sqlalchemy.exc import IntegrityError

from service import once
from service.live.match import LiveMatch
from service.live.viewing import OPEN, result_of
from service.logs import bound
from service.views import EndReason, ErrorCode, Result, Status
from storage import Database
from storage import repository as repo

__all__ = ["MatchStore", "Refused", "answers", "db_values", "refuse"]


class Refused(Exception):
    """An operation changed nothing: ``result`` is the answer (``ok`` False)."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.error)
        self.result = result


def refusal(error: ErrorCode, detail: str, live: LiveMatch | None = None) -> Result:
    """The answer to a refused operation: ``error`` and ``detail``, with the views of ``live``
    (the current state) when there is a match to show."""
    if live is None:
        return Result(ok=False, error=error, detail=detail)
    return result_of(live, ok=False, error=error, detail=detail)


def refuse(error: ErrorCode, detail: str, live: LiveMatch | None = None) -> NoReturn:
    """Stop the operation with the answer :func:`refusal` gives (raises :class:`Refused`)."""
    raise Refused(refusal(error, detail, live))


def answers(method: Callable[..., Awaitable[Result]]) -> Callable[..., Awaitable[Result]]:
    """Decorate an async operation: a :class:`Refused` raised inside becomes its result."""

    @functools.wraps(method)
    async def run(*args: Any, **kwargs: Any) -> Result:
        try:
            return await method(*args, **kwargs)
        except Refused as refused:
            return refused.result

    return run


class _Conflict(Exception):
    """The optimistic version check failed: somebody else changed the match first."""


def db_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """Enum members as their string values for the database."""
    return {k: (str(v) if isinstance(v, (Status, EndReason)) else v) for k, v in values.items()}


class MatchStore:
    """Open matches over one :class:`storage.Database`: read, cached, locked, written with the
    version check.  A match is rebuilt from its seed and action log through the engine
    (:class:`~service.live.match.LiveMatch`) on a cache miss."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[int, LiveMatch] = {}
        # a lock lives as long as somebody holds or awaits it
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    # ------------------------------------------------------------------ the cache

    def lock(self, match_id: int) -> asyncio.Lock:
        """The lock of a match (created on first use)."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def cached(self, match_id: int) -> LiveMatch | None:
        """The cached match, if any (no database read)."""
        return self._cache.get(match_id)

    def keep(self, live: LiveMatch) -> None:
        """Cache an open match; forget a closed one."""
        if live.status in OPEN:
            self._cache[live.match_id] = live
        else:
            self._cache.pop(live.match_id, None)

    def forget(self, match_id: int | None = None) -> None:
        """Drop one match from the cache (or all with None): the next use reads it anew."""
        if match_id is None:
            self._cache.clear()
        else:
            self._cache.pop(match_id, None)

    async def fetch(self, match_id: int) -> LiveMatch | None:
        """Read the row and the action log in one snapshot and replay them."""
        row, actions = await self.db.read(_load_match, match_id)
        if row is None:
            return None
        live = LiveMatch.from_row(row, actions)
        self.keep(live)
        return live

    async def live(self, match_id: int, version: int | None = None) -> LiveMatch | None:
        """The cached match, re-read from the database when absent or when ``version`` is
        newer than the cached one (another process moved on). An older ``version`` is stale
        whatever the database says: versions only grow."""
        live = self._cache.get(match_id)
        if live is None or (version is not None and version > live.version):
            live = await self.fetch(match_id)
        return live

    # ------------------------------------------------------------------ opening and writing

    @asynccontextmanager
    async def opening(
        self,
        match_id: int,
        *,
        status: Status | tuple[Status, ...] | None = None,
        closed: str = "the match is not running",
        version: int | None = None,
        seen: int | None = None,
    ) -> AsyncIterator[LiveMatch]:
        """Hold the match's lock and yield it, after the checks every operation starts with:
        it exists (``not_found``), its status is ``status`` (``wrong_status`` with ``closed``),
        and, when ``version`` is given, it is at that version (``stale``).  ``seen``: a
        version the caller saw, only to re-read a cache that is older (the caller checks it
        itself, after checks of its own).  The log lines meanwhile carry ``match_id``
        (:mod:`service.logs`).  Raises :class:`Refused`."""
        with bound(match_id=match_id):
            async with self.lock(match_id):
                live = await self.live(match_id, version if version is not None else seen)
                if live is None:
                    refuse(ErrorCode.NOT_FOUND, "no such match")
                allowed = (status,) if isinstance(status, Status) else status
                if allowed is not None and live.status not in allowed:
                    refuse(ErrorCode.WRONG_STATUS, closed, live)
                if version is not None and live.version != version:
                    refuse(ErrorCode.STALE, "the turn was already taken", live)
                yield live

    async def write(
        self,
        live: LiveMatch,
        nxt: LiveMatch,
        values: Mapping[str, Any],
        *,
        also: Callable[[Any], None] | None = None,
        stale: str = "the match changed; try again",
    ) -> LiveMatch:
        """Commit ``nxt`` (made by ``live.next``, carrying ``values``) in one transaction: the
        row's ``values`` and version bump, checked against ``live.version``, and ``also(conn)``
        in the same transaction (the action, the results), and the done mark of the update
        being processed, if any (:func:`service.once.write`).  Then cache ``nxt`` and return
        it.
        On a version conflict nothing is written, the cache entry is dropped and the
        operation is refused as ``stale`` (raises :class:`Refused`); an update applied
        already raises :class:`service.once.AlreadyApplied` (nothing written)."""
        row_values = db_values(values)
        now = nxt.row.updated_at
        match_id = live.match_id

        def txn(conn: Any) -> None:
            if not repo.update_match(conn, match_id, live.version, now=now, **row_values):
                raise _Conflict
            if also is not None:
                also(conn)

        try:
            await once.write(self.db, txn)
        except (_Conflict, IntegrityError):
            self._cache.pop(match_id, None)
            fresh = await self.fetch(match_id)
            if fresh is None:
                refuse(ErrorCode.NOT_FOUND, "no such match")
            refuse(ErrorCode.STALE, stale, fresh)
        self.keep(nxt)
        return nxt

    # ------------------------------------------------------------------ reading

    async def view(self, match_id: int, *, fresh: bool = False) -> Result:
        """The current views of a match, changing nothing (``not_found`` if none).  With
        ``fresh``, as the database has it now, not as this process last saw it: the row's
        version is read first and a cached match older than it is read anew (a worker of a
        cluster showing a match another worker owns: ``handlers.webapp``)."""
        seen = None
        if fresh:
            row = await self.db.read(repo.get_match, match_id)
            if row is None:
                return refusal(ErrorCode.NOT_FOUND, "no such match")
            seen = row.version
        async with self.lock(match_id):
            live = await self.live(match_id, seen)
        if live is None:
            return refusal(ErrorCode.NOT_FOUND, "no such match")
        return result_of(live)

    async def find_open(self, chat_id: int, thread_id: int | None) -> Result:
        """The open lobby or match of a chat topic (``not_found`` if none)."""
        row = await self.db.read(repo.find_open_match, chat_id, thread_id)
        if row is None:
            return refusal(ErrorCode.NOT_FOUND, "no open lobby or match here")
        return await self.view(row.id)

    async def open_matches(self, user_id: int | None = None, *,
                           chat_id: int | None = None) -> list[Result]:
        """Views of every open lobby and match, e.g. to re-render them all at start-up; with
        ``user_id`` only those where that user holds a seat (a view costs a replay when the
        match is not cached, so /start must not build the views of every match); with
        ``chat_id`` only that chat's."""
        if chat_id is not None:
            rows = await self.db.read(repo.list_open_matches, chat_id)
        elif user_id is None:
            rows = await self.db.read(repo.list_open_matches)
        else:
            rows = await self.db.read(repo.list_open_matches_of, user_id)
        return [await self.view(r.id) for r in rows]

    async def finished_since(self, since: float, *, chat_id: int | None = None
                             ) -> list[tuple[int, dict[str, Any]]]:
        """``(match id, stored message ids)`` of the matches that finished at or after
        ``since`` (Unix seconds; of one chat with ``chat_id``), without building their
        views."""
        rows = await self.db.read(repo.list_finished_since, since, chat_id)
        return [(r.id, dict(r.messages)) for r in rows]


def _load_match(conn: Any, match_id: int) -> tuple[Any, list]:
    row = repo.get_match(conn, match_id)
    if row is None:
        return None, []
    return row, (repo.list_actions(conn, match_id) if row.seed is not None else [])
