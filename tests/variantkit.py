"""Helpers for tests of the games of RULES.md §2 through the service: seat a lobby of any
game and play random legal moves (moves of several tiles too) to the end of the match."""

from __future__ import annotations

import random

from service import GameService, Status
from service.views import MoveOption, Result


async def seat(svc: GameService, chat: int, players: int, *, names: list[str] | None = None,
               **open_kwargs) -> Result:
    """A lobby in ``chat`` opened by user 1 with ``players`` seated (ids 1.., names ``P<id>``
    or ``names``); ``open_kwargs`` go to ``open_lobby`` (``variant=``, ``rules=``)."""
    names = names or [f"P{uid}" for uid in range(1, players + 1)]
    res = await svc.open_lobby(chat, None, 1, names[0], **open_kwargs)
    assert res.ok, res
    for uid in range(2, players + 1):
        res = await svc.join(res.match_id, uid, names[uid - 1])
        assert res.ok, res
    return res


async def play_to_end(svc: GameService, res: Result, rng: random.Random,
                      max_actions: int = 20_000) -> tuple[Result, list[Result]]:
    """Random legal moves until the match closes; the last result and every result on the
    way (each after one accepted move)."""
    seen = []
    for _ in range(max_actions):
        if res.status != Status.PLAYING:
            break
        hand = next(h for h in res.hands if h.your_turn)
        move: MoveOption = rng.choice(hand.legal)
        res = await svc.act(res.match_id, hand.user_id, move, None, res.version)
        assert res.ok, (res.error, res.detail)
        seen.append(res)
    return res, seen
