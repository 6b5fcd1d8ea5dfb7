"""Leaving a started match (issue 15): a person's seat handed to a computer player, by their
own choice (/leave, after a confirmation) or by the group's when their turns time out.

The match goes on: a computer player of normal strength takes the seat with its hand, its
score and its place in the turn order; the seat's JSON keeps who left
(``{"user_id": -1, "name": "Бот Фёдор 🤖", "bot": "normal", "left": {"user_id": 42, "name":
"Оля", "outs": 1, "fish": 0, "round": 3}}``), and at the match's end that person gets the
seat's result row — the seat's place, score and goat as the table ended, one story of the
seat everywhere (issue 20 item 1) — rated 0 as the timed-out player of RULES.md §1.16
(``match_results.left_match``; ``storage.skill`` ranks them below every side; their
statistics never count the seat's goat), while the others are rated as usual.  The engine
is not told: a seat is a seat, and the computer player's moves are logged as any computer
player's, so the match and its game record replay as before.

When the last person leaves, nobody is left to play with: the match is stopped (not rated),
as /stopgame would.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from service.live.match import LiveMatch
from service.live.seats import is_bot, new_bot_seat
from service.live.viewing import result_of
from service.play import Play
from service.store import MatchStore, answers, refuse
from service.views import EndReason, ErrorCode, HandedSeat, Result, Status

__all__ = ["Leaving"]

#: The strength of the computer player that takes a seat a person left.
SUBSTITUTE = "normal"


class Leaving:
    """Seats handed to computer players, over the match ``store`` and the ``play`` room (its
    deadlines and its end by timeout); ``close_locked(live, reason)`` stops a match whose
    last person leaves; ``clock`` gives Unix seconds."""

    def __init__(self, store: MatchStore, play: Play, *, clock: Callable[[], float],
                 close_locked: Callable[[LiveMatch, EndReason], Any]) -> None:
        self.store = store
        self.play = play
        self.clock = clock
        self.close_locked = close_locked

    @answers
    async def leave(self, match_id: int, user_id: int) -> Result:
        """``user_id`` leaves the running match: a computer player of normal strength takes
        their seat and the match goes on (``Result.handed``); the last person leaving stops
        the match instead (not rated).  If it was their turn, the computer player moves after
        its delay; a question about their timeouts (``Result.hold``) is answered by this.
        Errors: ``not_found``, ``wrong_status`` (not running), ``not_in_game``, ``stale``."""
        async with self.store.opening(match_id, status=Status.PLAYING,
                                      closed="the match is not running") as live:
            seat = live.seat_of(user_id)
            if seat is None or user_id <= 0:
                refuse(ErrorCode.NOT_IN_GAME, "not a player of this match", live)
            if not any(not is_bot(s) for i, s in enumerate(live.row.seats) if i != seat):
                return await self.close_locked(live, EndReason.STOPPED)
            return await self._hand(live, seat, "left")

    @answers
    async def substitute(self, match_id: int, user_id: int, expected_version: int, *,
                         force: bool = False) -> Result:
        """The group's answer "go on with a computer player" to the question about a
        player's timeouts (``Result.hold``): the seat goes to a computer player of normal
        strength, who moves at once.  Who may answer: another person seated in the match, or
        anyone with ``force`` (a chat admin, checked by the caller).  Errors: ``not_found``,
        ``wrong_status``, ``stale`` (the question is gone or was answered),
        ``not_in_game``."""
        async with self._question(match_id, user_id, expected_version, force) as (live, seat):
            return await self._hand(live, seat, "afk")

    @answers
    async def end_by_timeout(self, match_id: int, user_id: int, expected_version: int, *,
                             force: bool = False) -> Result:
        """The group's answer "end the match" to the question about a player's timeouts: the
        host makes the move that ends the match by timeout (RULES.md §1.17; rated by §1.16),
        as when nobody answers.  Who may answer and errors: as :meth:`substitute`."""
        async with self._question(match_id, user_id, expected_version, force) as (live, _):
            return await self.play.commit(live, live.host_step(), None)

    @asynccontextmanager
    async def _question(self, match_id: int, user_id: int, expected_version: int,
                        force: bool) -> AsyncIterator[tuple[LiveMatch, int]]:
        """Open the match for an answer to its question: it waits on one, at the version the
        question was put, and ``user_id`` may answer it.  Yields ``(live, absent seat)``."""
        async with self.store.opening(match_id, status=Status.PLAYING,
                                      closed="the match is not running",
                                      seen=expected_version) as live:
            hold = live.row.hold
            if not isinstance(hold, dict) or "afk" not in hold \
                    or live.version != expected_version:
                refuse(ErrorCode.STALE, "the question was answered", live)
            seat = int(hold["afk"])
            mine = live.seat_of(user_id)
            if not force and (mine is None or mine == seat or user_id <= 0):
                refuse(ErrorCode.NOT_IN_GAME, "only the other players or an admin choose", live)
            yield live, seat

    async def _hand(self, live: LiveMatch, seat: int, why: str) -> Result:
        """Commit the seat's change to a computer player (the caller holds the lock)."""
        now = self.clock()
        person = live.row.seats[seat]
        bot = new_bot_seat(live.row.seats, SUBSTITUTE)
        bot["left"] = {"user_id": int(person["user_id"]), "name": str(person["name"]),
                       "outs": live.outs[seat], "fish": live.fish[seat],
                       "round": live.round_no,
                       # the side's score when the person left: theirs in the statistics
                       "score": int(live.state.scores[live.side_of(seat)])}
        seats = [dict(s) for s in live.row.seats]
        seats[seat] = bot
        values: dict[str, Any] = {"seats": seats}
        hold = live.row.hold
        if isinstance(hold, dict) and int(hold.get("afk", -1)) == seat:
            values["hold"] = None
        nxt = live.next(now, **values)
        if live.to_act == seat:
            values["deadline_at"] = self.play.turn_deadline(nxt, now)
            nxt.set(deadline_at=values["deadline_at"])
        nxt = await self.store.write(live, nxt, values, stale="the match changed; try again")
        self.play.armed(nxt)
        return result_of(nxt, handed=HandedSeat(seat, int(person["user_id"]),
                                                str(person["name"]), bot["name"], why))
