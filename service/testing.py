"""Helpers for tests and benchmarks of the service: a settable clock and a random player.

Not used by the bot itself.
"""

from __future__ import annotations

import random

from service.game import GameService
from service.views import Result, Status


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
    res = await svc.open_lobby(chat_id, thread_id, first_user, f"P{first_user}", rules)
    assert res.ok, res
    for uid in range(first_user + 1, first_user + players):
        res = await svc.join(res.match_id, uid, f"P{uid}")
        assert res.ok, res
    res = await svc.start(res.match_id, first_user)
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
        res = await svc.act(res.match_id, user, tile, end, version)
        assert res.ok, (res.error, res.detail)
        n += 1
    return res, n
