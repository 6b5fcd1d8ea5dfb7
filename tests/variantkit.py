"""Helpers for tests of the games of RULES.md §2 through the service: seat a lobby of any
game and play random legal moves (moves of several tiles too) to the end of the match."""

from __future__ import annotations

import random
from pathlib import Path

from service.game import GameService
from service.live.rulebook import variant_infos
from service.views import MoveOption, Result, Status
from tests.servicekit import FakeClock


async def seat(svc: GameService, chat: int, players: int, *, names: list[str] | None = None,
               **open_kwargs) -> Result:
    """A lobby in ``chat`` opened by user 1 with ``players`` seated (ids 1.., names ``P<id>``
    or ``names``); ``open_kwargs`` go to ``open_lobby`` (``variant=``, ``rules=``)."""
    names = names or [f"P{uid}" for uid in range(1, players + 1)]
    res = await svc.lobbies.open_lobby(chat, None, 1, names[0], **open_kwargs)
    assert res.ok, res
    for uid in range(2, players + 1):
        res = await svc.lobbies.join(res.match_id, uid, names[uid - 1])
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
        res = await svc.play.act(res.match_id, hand.user_id, move, None, res.version)
        assert res.ok, (res.error, res.detail)
        seen.append(res)
    return res, seen


async def play_every_game(path: Path, names: list[str], *, seeds: range, rng_seed: int,
                          chat: int) -> dict[str, list[Result]]:
    """A whole match of every game of RULES.md §2 through a service over the database
    ``path``: four players where the game seats four, else two, three and four in turn (as
    far as the game seats them: Колбаса two), named
    ``names``, in chats ``chat``, ``chat - 1``, …; deals from ``seeds``, moves from a random
    generator seeded ``rng_seed``.  Per game, the start's result and every result after it."""
    svc = await GameService.open(path, clock=FakeClock(), seed_source=iter(seeds).__next__)
    rng = random.Random(rng_seed)
    out = {}
    try:
        for k, (name, info) in enumerate(variant_infos().items()):
            lo, hi = info.players
            players = 4 if lo == 4 else max(lo, min(hi, 2 + k % 3))
            res = await seat(svc, chat - k, players, names=names[:players], variant=name)
            res = await svc.lobbies.start(res.match_id, 1)
            assert res.ok, res
            _end, seen = await play_to_end(svc, res, rng)
            out[name] = [res, *seen]
    finally:
        await svc.close()
    return out
