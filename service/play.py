"""Play: a person's move, the host's move on a timeout, a computer player's move.

Every accepted decision is committed in one transaction — the action row, the version bump,
the next deadline, and at the end of a match its results — before the call returns, so a
caller only ever sends messages about committed state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from service.live.frames import frames
from service.live.match import BadMove, LiveMatch, Step
from service.live.seats import is_bot, strength_of
from service.live.viewing import result_of
from service.metrics import Metrics
from service.store import MatchStore, answers, refuse
from service.thinkers import Thinkers
from service.views import EndReason, ErrorCode, MoveOption, Result, Status
from storage import repository as repo

__all__ = ["DEFAULT_BOT_MOVE_DELAY", "Play"]

log = logging.getLogger(__name__)

#: Seconds a computer player waits before its move, so that people can follow the table.
DEFAULT_BOT_MOVE_DELAY = 1.5


class Play:
    """Moves over the match ``store``: ``clock`` gives Unix seconds; ``bot_move_delay``
    seconds after a computer player's turn began its deadline falls due (then it moves, see
    :meth:`bot_move`), and as far apart the tables of Колбаса's forced placements are shown
    (``Result.frames``, :mod:`service.live.frames`); ``thinkers`` make its decisions.
    ``close_locked(live, reason)`` closes a match whose last person is gone (the lobby
    room's)."""

    def __init__(self, store: MatchStore, *, clock: Callable[[], float],
                 thinkers: Thinkers, bot_move_delay: float = DEFAULT_BOT_MOVE_DELAY,
                 close_locked: Callable[[LiveMatch, EndReason], Any],
                 metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        self.clock = clock
        self.thinkers = thinkers
        self.bot_move_delay = float(bot_move_delay)
        self.close_locked = close_locked
        #: Set after a commit that gave a computer player the turn: wakes the sweeper.
        self.wake = asyncio.Event()

    # ------------------------------------------------------------------ deadlines of turns

    def turn_deadline(self, live: LiveMatch, now: float) -> float:
        """When the turn of the seat to act falls due: ``bot_move_delay`` seconds away for a
        computer player (then it moves), ``rules.turn_timeout`` for a person (then the host
        moves for them, RULES.md §1.17)."""
        seat = live.to_act
        if seat is not None and is_bot(live.row.seats[seat]):
            return now + self.bot_move_delay
        return now + float(live.rules.turn_timeout)

    def armed(self, live: LiveMatch) -> None:
        """After a commit: wake the sweeper when a computer player is to act (it may be
        asleep for longer than ``bot_move_delay``)."""
        seat = live.to_act
        if seat is not None and live.status == Status.PLAYING \
                and is_bot(live.row.seats[seat]):
            self.wake.set()

    # ------------------------------------------------------------------ the moves

    @answers
    async def act(self, match_id: int, user_id: int, tile: str | MoveOption,
                  end: str | None, expected_version: int) -> Result:
        """Play ``tile`` (``"2-5"`` or ``"[2|5]"``) at ``end`` (``"left"``, ``"right"``,
        ``"up"``, ``"down"``, ``"gap"``, or None on a lead / where it fits one way) for the
        user's seat (RULES.md §1.5–§1.7) — or, with a :class:`~service.views.MoveOption` as
        ``tile`` (``end`` ignored), a move of one or several placements, closed or laid along
        where the variant allows (RULES.md §2.0.4). The engine then performs the forced
        steps (draws and knocks §1.8, the variant's effects), scores a finished round and
        deals the next one; the match's end (§1.15, §2) and its results are recorded in the
        same transaction.

        ``expected_version``: the version of the view the user pressed; any other → ``stale``.
        Errors (nothing changes): ``not_found``, ``wrong_status``, ``not_in_game``, ``stale``,
        ``not_your_turn``, ``bad_move`` (malformed or illegal; ``detail`` names the rule).
        """
        async with self.store.opening(match_id, status=Status.PLAYING,
                                      seen=expected_version) as live:
            seat = self._pressing(live, user_id, expected_version)
            option = tile if isinstance(tile, MoveOption) else MoveOption(str(tile), end)
            try:
                step = live.step(seat, option)
            except BadMove as exc:
                refuse(exc.code, str(exc), live)
            return await self._commit(live, step, user_id)

    @answers
    async def check_press(self, match_id: int, user_id: int, expected_version: int) -> Result:
        """Whether a press of ``user_id`` on a button of the match shown at
        ``expected_version`` is one :meth:`act` would take up, changing nothing: the current
        views (``ok``), or the refusal :meth:`act` would give before it reads the move —
        ``not_found``, ``wrong_status`` (not running), ``not_in_game``, ``stale`` (another
        version), ``not_your_turn`` (RULES.md §1.1) — with the current views.  A move of
        several placements built press by press (RULES.md §2.0.4) asks this at each press."""
        async with self.store.opening(match_id, status=Status.PLAYING,
                                      seen=expected_version) as live:
            self._pressing(live, user_id, expected_version)
        return result_of(live)

    @staticmethod
    def _pressing(live: LiveMatch, user_id: int, expected_version: int) -> int:
        """The seat of ``user_id``, after the checks of a press: a player of the match, at the
        version shown, whose turn it is.  Raises ``Refused``."""
        seat = live.seat_of(user_id)
        if seat is None:
            refuse(ErrorCode.NOT_IN_GAME, "not a player of this match", live)
        if live.version != expected_version:
            refuse(ErrorCode.STALE,
                   f"version {expected_version} is not current ({live.version})", live)
        if live.to_act != seat:
            refuse(ErrorCode.NOT_YOUR_TURN, "not your turn (RULES.md §1.1)", live)
        return seat

    def choice_time(self, live: LiveMatch) -> float:
        """Seconds the group has to answer the question of :meth:`host_move`: one turn's
        time (``rules.turn_timeout``, RULES.md §1.17)."""
        return float(live.rules.turn_timeout)

    def asks_group(self, live: LiveMatch) -> bool:
        """Whether a timeout of the seat to act is put to the group instead of the host's
        move: that move would end the match by timeout (RULES.md §1.17), the seat is a
        person's, another person plays at the table, and the match is not already waiting
        for the group."""
        seat = live.to_act
        if seat is None or live.row.hold is not None or not live.timeout_ends(seat):
            return False
        seats = live.row.seats
        return not is_bot(seats[seat]) and any(
            not is_bot(s) for i, s in enumerate(seats) if i != seat)

    @answers
    async def host_move(self, match_id: int, expected_version: int | None = None) -> Result:
        """The turn timed out: the host moves for the seat to act (RULES.md §1.17: the
        playable tile with the most pips; drawing and knocking are forced). After
        ``rules.afk_limit`` host moves in a row for one seat the match ends by timeout and is
        rated with the timeout rating (§1.16). Logged as ``{"host": true}``.

        The host move that would end the match is first put to the group when another
        person plays at the table (:meth:`asks_group`): the match waits (``matches.hold``
        ``{"afk": seat}``, ``Result.hold``) for :meth:`choice_time` seconds, while the other
        players choose a computer player for the seat (``service.leaving``) or the end by
        timeout; when that deadline falls due, this makes the host move and the match ends
        by timeout as the rules say.  The absent player's own move meanwhile keeps the seat.

        ``expected_version``: act only on that version (the sweeper passes the version whose
        deadline fired, so a move that beat the deadline wins). Errors: ``not_found``,
        ``wrong_status``, ``stale``."""
        async with self.store.opening(match_id, status=Status.PLAYING,
                                      version=expected_version) as live:
            if self.asks_group(live):
                now = self.clock()
                values = {"hold": {"afk": live.to_act},
                          "deadline_at": now + self.choice_time(live)}
                nxt = await self.store.write(live, live.next(now, **values), values,
                                             stale="another action was applied first")
                return result_of(nxt)
            return await self._commit(live, live.host_step(), None, source="host")

    @answers
    async def bot_move(self, match_id: int, expected_version: int | None = None) -> Result:
        """The computer player to act makes its move (the sweeper calls this when the bot's
        deadline falls due). Its decision sees only what its seat may know
        (``LiveMatch.observation``), runs in :class:`~service.thinkers.Thinkers` off the event
        loop, and goes through the same path as a person's :meth:`act`: checked by the
        engine, logged as ``{"tile", "end", "bot"}``, committed with the version check, the
        next deadline armed. A failing decision falls back to the host's move (RULES.md
        §1.17) for the bot, logged as the bot's own move. A running match with no person left
        is stopped instead. Errors: ``not_found``, ``wrong_status``, ``stale`` (the version
        moved on), ``not_your_turn`` (the seat to act is not a computer player)."""
        async with self.store.opening(match_id, status=Status.PLAYING,
                                      version=expected_version) as live:
            seat = live.to_act
            holder = live.row.seats[seat]
            if not is_bot(holder):
                refuse(ErrorCode.NOT_YOUR_TURN, "a person is to act", live)
            if not live.humans():
                return await self.close_locked(live, EndReason.STOPPED)
            strength = strength_of(holder)
            seed = f"{live.row.seed}:{live.seq}:{seat}"
            try:
                move = await self.thinkers.decide(live.observation(seat), strength, seed)
                step = live.bot_step(seat, move, strength)
            except Exception:
                log.exception("computer player of match %s failed; the host moves for it",
                              match_id)
                step = live.bot_step(seat, None, strength)
            return await self._commit(live, step, int(holder["user_id"]), source="computer")

    async def bot_to_act(self, match_id: int, version: int) -> bool:
        """Whether a computer player is to act in that version of the match (the move itself
        re-checks under the match's lock)."""
        live = await self.store.live(match_id, version)
        if live is None or live.to_act is None:
            return False
        return is_bot(live.row.seats[live.to_act])

    async def commit(self, live: LiveMatch, step: Step, user_id: int | None, *,
                     source: str = "host") -> Result:
        """Commit ``step`` (made on ``live``, whose lock the caller holds) as :meth:`act`
        does: the action, the version, the next deadline, at the match's end its results;
        ``user_id`` who pressed (None for the host), ``source`` who made the move
        (``metrics.moves``).  Raises ``Refused`` (stale)."""
        return await self._commit(live, step, user_id, source=source)

    async def _commit(self, live: LiveMatch, step: Step, user_id: int | None, *,
                      source: str = "person") -> Result:
        """One transaction: bump the version (checked), append the action, set the next
        deadline; at the match's end also its status and results. Then swap the cache.
        Counted once committed: a move of ``source`` (``person``, ``computer``, ``host``)
        and, at the end, the match's end with its reason."""
        now = self.clock()
        nxt = live.next(now)
        rounds = nxt.take(step)
        # Колбаса's forced placements, one by one, at a computer player's pace (§2.12)
        pace = self.bot_move_delay
        shown = frames(live, nxt, step.events) if pace > 0 else ()
        if step.ended is None:
            # the next turn's clock starts once the table has shown them
            values: dict[str, Any] = {
                "deadline_at": self.turn_deadline(nxt, now) + pace * len(shown)}
        else:
            values = {"status": Status.FINISHED, "end_reason": step.ended,
                      "deadline_at": None, "finished_at": now}
        if live.row.hold is not None:
            values["hold"] = None  # the question is answered by this move
        nxt.set(**values)
        results = _result_rows(nxt, now) if step.ended is not None else None

        def also(conn: Any) -> None:
            repo.append_action(conn, live.match_id, live.seq + 1, seat=step.seat,
                               decision=step.decision, at=now, user_id=user_id)
            if results:
                repo.record_results(conn, results)

        nxt = await self.store.write(live, nxt, values, also=also,
                                     stale="another action was applied first")
        self.metrics.moves.labels(source).inc()
        if step.ended is not None:
            self.metrics.matches_ended.labels(live.rules.variant, str(step.ended)).inc()
        self.armed(nxt)
        return result_of(nxt, events=step.events, rounds=rounds, frames=shown,
                         frame_seconds=pace)


def _result_rows(live: LiveMatch, now: float) -> list[repo.ResultRow]:
    """The ``match_results`` rows of a match the engine just finished (RULES.md §1.15-1.17),
    with what the game counts beside points (its marks: the result of Семёрка and Генерал,
    which keep no points, §2.8–§2.9) and the remembered points (§1.12) as the match's end
    shows them (issue 30 items 1 and 4).
    A seat a person left to a computer player is the person's row (``left_match``): the
    seat's result as the table ended it (place, final score, goat and title: one story of the
    seat everywhere, issue 20 item 1), rated 0 as the timed-out player of §1.16, with the
    outs and fish they made before they left; their statistics count the match, never as
    a goat or a win (:func:`storage.repository.add_to_boards`)."""
    final = live.final()
    assert final is not None and final.rated
    rows = []
    for p in final.players:
        row = repo.ResultRow(
            match_id=live.match_id, seat=p.seat, user_id=p.user_id, name=p.name,
            chat_id=live.row.chat_id, final_score=p.score, goat=p.goat, rating=p.rating,
            outs=p.outs, fish=p.fish, timed_out=p.timed_out, ended_by=str(final.reason),
            finished_at=now, bot=p.bot, variant=final.variant, side=p.side, place=p.place,
            title=p.title, remembered=p.remembered,
            marks=[{"name": m.name, "count": m.count, "limit": m.limit, "per": m.per}
                   for m in p.marks],
        )
        left = live.row.seats[p.seat].get("left")
        if isinstance(left, dict):
            row = replace(row, user_id=int(left["user_id"]), name=str(left["name"]),
                          rating=0, outs=int(left.get("outs", 0)),
                          fish=int(left.get("fish", 0)), timed_out=False, bot=None,
                          left_match=True)
        rows.append(row)
    return rows
