"""Helpers for tests and benchmarks of the service: a settable clock, an executor that runs
computer players' decisions in place, a random player, and the engine state of a match
rebuilt from the database (so that tests check the service's views against the engine itself,
not against the service's own cache).
"""

from __future__ import annotations

import random
from concurrent.futures import Executor, Future
from typing import Any

import engine
from engine.records import parse_decision
from service.game import GameService
from service.views import Result, Status
from storage import repository as repo


class FakeClock:
    """A clock for :class:`GameService` that moves only when told. ``now`` in Unix seconds."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = float(now)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds``; returns the new time."""
        self.now += seconds
        return self.now


class InlineExecutor(Executor):
    """Runs each submitted call at once, in the caller's thread (computer players' decisions
    with a few samples, without worker processes)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting caller
            future.set_exception(exc)
        return future


async def start_match(
    svc: GameService,
    chat_id: int,
    players: int,
    *,
    thread_id: int | None = None,
    first_user: int = 1,
    rules: dict | None = None,
) -> Result:
    """Open a lobby, seat ``players`` users (ids ``first_user``, ``first_user + 1``, ...,
    names ``P<id>``) and start it. Raises ``AssertionError`` if any step fails."""
    res = await svc.lobbies.open_lobby(chat_id, thread_id, first_user, f"P{first_user}", rules)
    assert res.ok, res
    for uid in range(first_user + 1, first_user + players):
        res = await svc.lobbies.join(res.match_id, uid, f"P{uid}")
        assert res.ok, res
    res = await svc.lobbies.start(res.match_id, first_user)
    assert res.ok, res
    return res


def random_move(res: Result, rng: random.Random) -> tuple[int, str, str | None, int]:
    """``(user_id, tile, end, version)`` of a random legal move of the seat to act."""
    hand = next(h for h in res.hands if h.your_turn)
    move = rng.choice(hand.legal)
    return hand.user_id, move.tile, move.end, res.version


async def play_random(
    svc: GameService, res: Result, rng: random.Random, max_actions: int | None = None
) -> tuple[Result, int]:
    """Play random legal moves until the match closes or ``max_actions`` were accepted.
    Returns the last result and the number of accepted actions."""
    n = 0
    while res.status == Status.PLAYING and (max_actions is None or n < max_actions):
        user, tile, end, version = random_move(res, rng)
        res = await svc.play.act(res.match_id, user, tile, end, version)
        assert res.ok, (res.error, res.detail)
        n += 1
    return res, n


def replay(row: repo.MatchRow, actions: list[repo.ActionRow]) -> Any:
    """The ``engine.MatchState`` of a stored match: its seed and action log through the
    engine (None before the deal); a logged move is read as a game record writes it (one
    placement, or several with ``tiles``, RULES.md §2.0.4)."""
    if row.seed is None:
        return None
    state, _ = engine.new_match(engine.Rules.from_json(row.rules), len(row.seats), row.seed)
    for a in actions:
        d = a.decision
        if d.get("host"):
            state, _ = engine.apply_host_move(state)
        else:
            state, _ = engine.apply(state, a.seat, parse_decision(
                {k: v for k, v in d.items() if k != "bot"}, state.rules.set)[0])
    return state


async def engine_state(svc: GameService, match_id: int) -> Any:
    """The engine state of match ``match_id`` as the database holds it (see :func:`replay`)."""

    def read(conn: Any) -> tuple[Any, list]:
        row = repo.get_match(conn, match_id)
        return row, repo.list_actions(conn, match_id) if row is not None else []

    row, actions = await svc.db.read(read)
    assert row is not None, f"no match {match_id}"
    return replay(row, actions)
