"""Колбаса's placements without a choice, one table at a time (RULES.md §2.12 rule 6; issue
32, ``service.live.frames``): a step that made several placements carries the group's table
after each of them but the last, in order, each accounting for the 28 tiles (on the table,
in the queues, the tile turned over), its notes the round's so far; the next turn's deadline
waits for them; a game on another table has none."""

from __future__ import annotations

import random

from service.game import GameService
from service.live.frames import MAX_FRAMES
from tests.servicekit import FakeClock
from tests.variantkit import seat

PACE = 1.5


async def _match(tmp_path, variant: str, players: int, rng: random.Random, *, seed: int):
    clock = FakeClock()
    svc = await GameService.open(tmp_path / "kozel.sqlite3", clock=clock,
                                 seed_source=iter(range(seed, seed + 50)).__next__,
                                 bot_move_delay=PACE)
    res = await seat(svc, -9, players, variant=variant)
    res = await svc.lobbies.start(res.match_id, 1)
    return svc, clock, res


async def test_forced_placements_come_as_tables_one_by_one(tmp_path):
    rng = random.Random(7)
    svc, clock, res = await _match(tmp_path, "kolbasa", 2, rng, seed=300)
    seen = 0
    try:
        while res.status == "playing":
            hand = next(h for h in res.hands if h.your_turn)
            res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal),
                                     None, res.version)
            assert res.ok
            if not res.frames:
                continue
            seen += 1
            assert len(res.frames) <= MAX_FRAMES and res.frame_seconds == PACE
            assert [f.frame for f in res.frames] == list(range(1, len(res.frames) + 1)) or \
                res.frames[0].frame > 1
            notes = 0
            for f in res.frames:
                s = f.layout.sausage
                assert s.tiles + sum(s.queues) + (s.turned is not None) == 28
                assert f.version == res.version and f.summary is None
                assert f.round_no == res.table.round_no and f.deadline_at is None
                assert len(f.notes) > notes  # each table one placement further
                notes = len(f.notes)
            assert notes < len(res.table.notes)  # the table as it is comes last
            # the next turn's clock waits for the tables to be shown
            assert res.table.deadline_at >= clock() + 60 + PACE * len(res.frames) - 1e-6
        assert seen >= 3
    finally:
        await svc.close()


async def test_no_frames_on_the_trains(tmp_path):
    rng = random.Random(3)
    svc, _, res = await _match(tmp_path, "mexican_train", 3, rng, seed=10)
    try:
        for _ in range(40):
            hand = next(h for h in res.hands if h.your_turn)
            res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal),
                                     None, res.version)
            assert res.ok and res.frames == ()
    finally:
        await svc.close()
