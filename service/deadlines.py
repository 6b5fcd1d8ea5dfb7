"""Deadlines: every lobby and every turn has one in the database; one sweeper fires them.

A lobby that nobody started expires, a person's turn that timed out gets the host's move
(RULES.md §1.17), and a computer player's turn falls due ``bot_move_delay`` seconds after it
began, when the computer player moves.  Deadlines live in the database, so after a restart
the overdue ones fire on the first sweep, and no timer lives in memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from service.lobbies import Lobbies
from service.play import Play
from service.views import Result, Status
from storage import Database
from storage import repository as repo

__all__ = ["Deadlines"]

log = logging.getLogger(__name__)


class Deadlines:
    """The sweeper over ``db``, firing through the ``lobbies`` and ``play`` rooms."""

    def __init__(self, db: Database, lobbies: Lobbies, play: Play, *,
                 clock: Callable[[], float],
                 due: Callable[..., list[repo.MatchRow]] | None = None) -> None:
        self.db = db
        #: The query of what is due, ``due(conn, now, limit) -> [MatchRow]``: every open
        #: match's (``repository.due_matches``), or in a cluster only the chats this worker
        #: owns (:meth:`service.cluster.Cluster.due`).
        self.due: Callable[..., list[repo.MatchRow]] = due or repo.due_matches
        self.lobbies = lobbies
        self.play = play
        self.clock = clock
        #: The deadlines being fired by :meth:`run`, by match id.
        self._firing: dict[int, asyncio.Task] = {}

    async def fire_due(self, now: float | None = None) -> list[Result]:
        """Fire every deadline at or before ``now`` (default: the clock). Returns the
        accepted results (a deadline beaten by a player's move is skipped)."""
        now = self.clock() if now is None else now
        out: list[Result] = []
        seen: set[tuple[int, int]] = set()
        while True:
            due = [r for r in await self.db.read(self.due, now, 100)
                   if (r.id, r.version) not in seen]
            if not due:
                return out
            for row in due:
                seen.add((row.id, row.version))
            # Matches are independent (one lock each): fire them together, so that one
            # computer player thinking does not hold up the others' deadlines.
            for res in await asyncio.gather(*(self._fire_one(row) for row in due)):
                if res is not None and res.ok:
                    out.append(res)

    async def _fire_one(self, row: repo.MatchRow) -> Result | None:
        """Fire one due deadline; None when it failed (logged)."""
        try:
            if row.status == Status.LOBBY:
                return await self.lobbies.expire(row.id, row.version)
            if await self.play.bot_to_act(row.id, row.version):
                return await self.play.bot_move(row.id, row.version)
            return await self.play.host_move(row.id, row.version)
        except Exception:  # one broken match must not stop the sweeper
            log.exception("deadline of match %s failed", row.id)
            return None

    async def next_deadline(self) -> float | None:
        """The earliest pending deadline (Unix seconds), or None."""
        return await self.db.read(repo.next_deadline)

    async def run(
        self,
        on_result: Callable[[Result], Awaitable[None]] | None = None,
        *,
        interval: float = 1.0,
        stop: asyncio.Event | None = None,
    ) -> None:
        """The sweeper: fire the due deadlines (at once on start) and hand each result to
        ``on_result`` (e.g. render and send), then sleep until the next deadline, at most
        ``interval`` seconds; a computer player's turn armed meanwhile wakes it early, so bot
        moves keep their ``bot_move_delay`` pace. Runs until ``stop`` is set or the task is
        cancelled. Errors in ``on_result`` are logged, not raised."""
        stop = stop or asyncio.Event()
        wake = self.play.wake
        try:
            while not stop.is_set():
                wake.clear()
                now = self.clock()
                try:
                    # what falls due within the interval, earliest first
                    soon = await self.db.read(self.due, now + interval,
                                              100 + len(self._firing))
                except Exception:
                    log.exception("deadline sweep failed")
                    soon = []
                delay = interval
                for row in soon:
                    if row.id in self._firing:
                        continue  # its end wakes the sweeper
                    if row.deadline_at > now:
                        delay = min(delay, row.deadline_at - now)
                        break
                    self._firing[row.id] = asyncio.create_task(
                        self._fire_and_hand(row, on_result))
                waits = [asyncio.ensure_future(stop.wait()),
                         asyncio.ensure_future(wake.wait())]
                try:
                    await asyncio.wait(waits, timeout=delay,
                                       return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for w in waits:
                        w.cancel()
        finally:
            await asyncio.gather(*self._firing.values(), return_exceptions=True)

    async def _fire_and_hand(self, row: repo.MatchRow,
                             on_result: Callable[[Result], Awaitable[None]] | None) -> None:
        """Fire one deadline and hand its result on as soon as it is committed (one computer
        player thinking holds up no other match)."""
        res = None
        try:
            res = await self._fire_one(row)
            if res is not None and res.ok and on_result is not None:
                try:
                    await on_result(res)
                except Exception:
                    log.exception("deadline result handler failed")
        finally:
            self._firing.pop(row.id, None)
            if res is not None and res.ok:
                self.play.wake.set()  # its next deadline may be due at once
