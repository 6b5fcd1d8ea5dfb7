"""The game service: one object that builds the service's rooms over one database, keeps
them for its lifetime, and does the few operations that span rooms.

Plain values in (chat id, thread id, user id, names, tile codes, versions), plain
:class:`~service.views.Result` values out; no aiogram.  Callers (the handlers, the publisher,
the tools and the tests) call the rooms directly, each an attribute of :class:`GameService`:

- ``store`` (:mod:`service.store`) — the open matches: the cache, per-match locks, the one
  opening (lock, load, check) and the one versioned write; ``view``, ``find_open``,
  ``open_matches``, ``finished_since``;
- ``lobbies`` (:mod:`service.lobbies`) — open, join, leave, computer players in seats, the
  lobby's game, start, stop, expire, rematch, solo matches;
- ``play`` (:mod:`service.play`) — a person's, the host's and a computer player's move, and
  the check of a press;
- ``leaving`` (:mod:`service.leaving`) — a person's seat handed to a computer player in a
  running match (/leave, or the group's choice when their turns time out);
- ``thinkers`` (:mod:`service.thinkers`) — the worker processes computer players think in;
- ``deadlines`` (:mod:`service.deadlines`) — the sweeper of lobby and turn deadlines;
- ``people`` (:mod:`service.people`) — users and chats, cached;
- ``stats`` (:mod:`service.stats`) — boards per variant with the skill rating, personal
  statistics and the match history;
- ``records`` (:mod:`service.records`) — a played match's game record, and the check of a
  record a user sends;
- ``messages`` and ``sends`` (:mod:`service.messages`) — the message ids the UI stores with a
  match, and the log of recent group sends.

:mod:`service.live` is the match in memory and its views, the service's only engine reader;
the rooms use it, callers see its views only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from service.cluster import Cluster, WorkerOptions, new_worker_id, worker_url
from service.deadlines import Deadlines
from service.leaving import Leaving
from service.lobbies import DEFAULT_LOBBY_TTL, Lobbies
from service.messages import MessageIds, SendLog
from service.metrics import Metrics
from service.people import People
from service.play import DEFAULT_BOT_MOVE_DELAY, Play
from service.records import Records
from service.stats import Statistics
from service.store import MatchStore
from service.thinkers import DEFAULT_HARD_SAMPLES, DEFAULT_THINK_SECONDS, Thinkers
from service.views import EndReason, Result
from storage import Database, open_database
from storage import repository as repo

__all__ = ["DEFAULT_BOT_MOVE_DELAY", "DEFAULT_LOBBY_TTL", "GameService"]


class GameService:
    """The game service over one :class:`storage.Database`.

    ``clock``: returns Unix time in seconds (inject a fake one in tests); ``seed_source``:
    returns the deal seed of a new match (default: 63 random bits); ``lobby_ttl``: seconds an
    idle lobby lives; ``bot_move_delay``: seconds a computer player waits before it moves;
    ``hard_samples``: sampled deals per ``hard`` decision; ``think_seconds``: CPU seconds a
    ``hard`` decision may take (:class:`service.thinkers.Thinkers`); ``bot_executor``: where
    computer players decide (default: ``bot_workers`` worker processes, one per CPU, started
    at the first decision); ``chat_options``: the chat options (``ChatInfo.options``) of chats that
    did not set them; ``due``: the query of the deadlines this process fires (default every
    open match's; a worker of a cluster: its own chats', ``service.cluster.Cluster.due``);
    ``metrics``: where it counts (:class:`service.metrics.Metrics`; a new one by default).
    Create with :meth:`open` (migrates the database) or from a ready
    :class:`~storage.Database`; call :meth:`close` at shutdown.

    The rooms are its attributes (``store``, ``lobbies``, ``play``, ``leaving``,
    ``deadlines``, ``people``, ``stats``, ``records``, ``messages``, ``sends``,
    ``thinkers``; see the module's docstring); ``db`` and ``clock`` are the ones they share.
    Of its own it has only what spans rooms: :meth:`migrate_chat` and :meth:`bot_removed`.
    """

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        lobby_ttl: float = DEFAULT_LOBBY_TTL,
        bot_move_delay: float = DEFAULT_BOT_MOVE_DELAY,
        hard_samples: int = DEFAULT_HARD_SAMPLES,
        think_seconds: float = DEFAULT_THINK_SECONDS,
        bot_executor: Executor | None = None,
        bot_workers: int | None = None,
        chat_options: Mapping[str, Any] | None = None,
        due: Callable[..., list[Any]] | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        #: What this service counts (``/metrics``, :mod:`service.metrics`).
        self.metrics = metrics or Metrics()
        #: This worker's membership of a cluster (:meth:`open` with ``worker``), else None.
        self.cluster: Cluster | None = None
        self.store = MatchStore(db)
        self.people = People(db, clock, chat_options)
        self.thinkers = Thinkers(executor=bot_executor, workers=bot_workers,
                                 hard_samples=hard_samples, think_seconds=think_seconds,
                                 metrics=self.metrics)
        self.play = Play(self.store, clock=clock, thinkers=self.thinkers,
                         bot_move_delay=bot_move_delay,
                         close_locked=lambda live, reason: self.lobbies.close_locked(
                             live, reason), metrics=self.metrics)
        self.lobbies = Lobbies(self.store, self.people, clock=clock, lobby_ttl=lobby_ttl,
                               seed_source=seed_source, turn_deadline=self.play.turn_deadline,
                               armed=self.play.armed, metrics=self.metrics)
        self.leaving = Leaving(self.store, self.play, clock=clock,
                               close_locked=self.lobbies.close_locked)
        self.deadlines = Deadlines(db, self.lobbies, self.play, clock=clock, due=due)
        self.stats = Statistics(db)
        self.records = Records(db)
        self.messages = MessageIds(db, clock)
        self.sends = SendLog(db)

    @classmethod
    async def open(cls, path_or_url: str | Path, *, worker: WorkerOptions | None = None,
                   **kwargs: Any) -> GameService:
        """Open (create, migrate to the newest schema) the database and return a service.
        ``worker``: this process is a worker of a cluster over PostgreSQL (docs/SCALE_OUT.md):
        its database sessions carry its name, and :attr:`cluster` is its membership, whose
        chats' deadlines alone it fires; None (a single process) makes no cluster at all.
        ``kwargs`` go to :class:`GameService`."""
        if worker is None:
            return cls(await open_database(path_or_url), **kwargs)
        worker_id = worker.worker_id or new_worker_id()
        db = await open_database(worker_url(str(path_or_url), worker_id))
        metrics = kwargs.pop("metrics", None) or Metrics()
        member = Cluster(db, worker_id=worker_id, lease=worker.lease, metrics=metrics,
                         private_burst=worker.private_burst,
                         chat_interval=worker.chat_interval,
                         global_per_second=worker.global_per_second)
        service = cls(db, due=member.due, metrics=metrics, **kwargs)
        service.cluster = member
        return service

    async def close(self) -> None:
        """Stop the computer players' workers and release the database connections."""
        self.thinkers.close()
        self.store.forget()
        await self.db.dispose()

    # ------------------------------------------------------------------ across rooms

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> tuple[int, ...]:
        """Telegram turned a group into a supergroup (``migrate_to_chat_id``): move the chat's
        settings, lobbies, matches, results and per-chat statistics to the new id.
        Idempotent: Telegram sends the news twice (to the old group and to the new one), in
        either order.  Returns the open matches of the new chat, moved now or before."""
        moved = await self.people.move_chat(old_chat_id, new_chat_id)
        for mid in moved:
            async with self.store.lock(mid):
                self.store.forget(mid)
        rows = await self.db.read(repo.list_open_matches, new_chat_id)
        return tuple(r.id for r in rows)

    async def bot_removed(self, chat_id: int) -> list[Result]:
        """The bot was removed from (or left) the chat: every open lobby and match there
        ends as ``stopped`` with reason ``bot_removed`` and without rating; the chat is
        marked inactive until a lobby is opened there again. Returns one result per closed
        match."""
        out = []
        for row in await self.people.deactivate(chat_id):
            res = await self.lobbies.close(row.id, EndReason.BOT_REMOVED)
            if res.ok:
                out.append(res)
        return out
