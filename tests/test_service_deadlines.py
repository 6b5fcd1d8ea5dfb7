"""Deadlines live in the database: turn timeouts get host moves (RULES.md §1.17), repeated
timeouts end the match with the timeout rating (§1.16), lobbies expire, and overdue deadlines
fire at once after a restart. The clock is injected."""

from __future__ import annotations

import asyncio
import random

import pytest

from service.game import GameService
from service.views import ErrorCode, Status
from storage import repository as repo
from tests import storagekit as kit
from tests.servicekit import FakeClock, random_move, start_match


@pytest.fixture
def clock():
    return FakeClock(1_000_000.0)


@pytest.fixture
async def svc(store_url, clock):
    service = await GameService.open(store_url, clock=clock)
    yield service
    await service.close()


async def test_turn_timeout_fires_a_host_move(svc, clock):
    res = await start_match(svc, -1, 3, rules={"turn_timeout": 30})
    t0 = clock.now
    assert res.table.deadline_at == t0 + 30
    assert await svc.deadlines.next_deadline() == t0 + 30
    clock.advance(29.9)
    assert await svc.deadlines.fire_due() == []
    clock.advance(0.1)
    fired = await svc.deadlines.fire_due()
    assert len(fired) == 1
    hm = fired[0]
    assert hm.ok and hm.version == res.version + 1
    assert hm.events[0] == {"kind": "host_moved", "seat": res.table.to_act, "in_a_row": 1}
    assert hm.table.seats[res.table.to_act].host_moves == 1
    log = await svc.db.read(repo.list_actions, res.match_id)
    assert [(a.seat, a.decision, a.user_id) for a in log] == [
        (res.table.to_act, {"host": True}, None)]
    assert hm.table.deadline_at == clock.now + 30  # re-armed for the next seat
    assert await svc.deadlines.fire_due() == []


async def test_a_move_that_beats_the_deadline_wins(svc, clock):
    res = await start_match(svc, -1, 2)
    clock.advance(60)
    user, tile, end, version = random_move(res, random.Random(0))
    moved = await svc.play.act(res.match_id, user, tile, end, version)  # pressed just in time
    assert moved.ok
    late = await svc.play.host_move(res.match_id, version)  # the sweeper saw the old version
    assert late.error == ErrorCode.STALE
    assert await svc.deadlines.fire_due() == []  # the move re-armed the deadline
    assert len(await svc.db.read(repo.list_actions, res.match_id)) == 1


async def test_repeated_timeouts_end_the_match_with_timeout_rating(svc, clock):
    res = await start_match(svc, -1, 3, rules={"afk_limit": 2})
    last = None
    for _ in range(10):
        clock.advance(60)
        fired = await svc.deadlines.fire_due()
        if fired:
            last = fired[-1]
        if last is not None and last.status != Status.PLAYING:
            break
    assert last.status == Status.FINISHED
    final = last.final
    assert final.reason == "timeout" and final.rated
    timed_out = [p for p in final.players if p.timed_out]
    assert len(timed_out) == 1 and timed_out[0].rating == 0  # RULES.md §1.16
    assert all(p.rating >= 1 for p in final.players if not p.timed_out)
    rows = await svc.db.read(kit.list_results, res.match_id)
    assert {r.ended_by for r in rows} == {"timeout"}
    assert [r.timed_out for r in rows] == [p.timed_out for p in final.players]
    assert await svc.deadlines.next_deadline() is None


async def test_lobby_expires_unless_joined(svc, clock):
    a = await svc.lobbies.open_lobby(-1, None, 1, "A")
    b = await svc.lobbies.open_lobby(-2, None, 2, "B")
    clock.advance(300)
    assert (await svc.lobbies.join(b.match_id, 3, "C")).ok  # a join extends the lobby
    clock.advance(300)
    fired = await svc.deadlines.fire_due()
    assert [r.match_id for r in fired] == [a.match_id]
    assert fired[0].status == Status.EXPIRED and fired[0].lobby is not None
    assert (await svc.lobbies.join(a.match_id, 4, "D")).error == ErrorCode.WRONG_STATUS
    assert (await svc.store.view(b.match_id)).status == Status.LOBBY
    assert (await svc.lobbies.open_lobby(-1, None, 1, "A")).ok  # the topic is free again


async def test_overdue_deadlines_fire_at_once_after_a_restart(store_url):
    path = store_url
    clock = FakeClock()
    svc = await GameService.open(path, clock=clock)
    res = await start_match(svc, -1, 2)
    lobby = await svc.lobbies.open_lobby(-2, None, 5, "E")
    await svc.close()  # the process stops; nothing kept in memory

    clock.advance(3600)  # it comes back an hour later
    svc = await GameService.open(path, clock=clock)
    try:
        got = []
        stop = asyncio.Event()

        async def on_result(r):
            got.append(r)
            if len(got) == 2:
                stop.set()

        await asyncio.wait_for(svc.deadlines.run(on_result, interval=0.01, stop=stop), 10)
        by_id = {r.match_id: r for r in got}
        assert by_id[lobby.match_id].status == Status.EXPIRED
        hm = by_id[res.match_id]
        assert hm.ok and hm.events[0]["kind"] == "host_moved"
        assert hm.table.deadline_at == clock.now + 60
    finally:
        await svc.close()


async def test_sweeper_keeps_running_through_a_failing_handler(svc, clock):
    await start_match(svc, -1, 2, rules={"turn_timeout": 10})
    calls = []
    stop = asyncio.Event()

    async def on_result(r):
        calls.append(r.version)
        if len(calls) >= 2:
            stop.set()
        raise RuntimeError("sending failed")

    task = asyncio.create_task(svc.deadlines.run(on_result, interval=0.01, stop=stop))
    for _ in range(200):
        if stop.is_set():
            break
        clock.advance(10)
        await asyncio.sleep(0.02)
    await asyncio.wait_for(task, 5)
    assert len(calls) >= 2 and calls == sorted(calls)
