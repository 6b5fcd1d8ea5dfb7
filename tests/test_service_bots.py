"""Computer players in the service (issue 6): bots in lobby seats, solo matches in private,
the deadline-driven bot runner, stats kept apart. Real SQLite files, an injected clock.

RULES.md §1.1 (seats), §1.15 (goats), §1.16 (rating), §1.17 (timeouts and host moves).
"""

from __future__ import annotations

import asyncio
import random

import pytest

from service.game import GameService
from service.live.seats import is_bot
from service.views import ErrorCode, Status
from storage import repository as repo
from tests import storagekit as kit
from tests.servicekit import FakeClock, InlineExecutor, engine_state, random_move

DELAY = 1.5


@pytest.fixture
def clock():
    return FakeClock(1_000_000.0)


@pytest.fixture
async def svc(store_url, clock):
    service = await GameService.open(store_url, clock=clock,
                                     seed_source=iter(range(500, 900)).__next__,
                                     bot_move_delay=DELAY, hard_samples=2,
                                     bot_executor=InlineExecutor())
    yield service
    await service.close()


async def finish_solo(svc: GameService, clock: FakeClock, res, user: int,
                      rng: random.Random, limit: int = 3000):
    """Play a solo match to its end: the person plays random legal moves, the bots move
    when their deadlines fall due. Returns the last result."""
    for _ in range(limit):
        if res.status != Status.PLAYING:
            return res
        if res.table.to_act_user_id == user:
            _, tile, end, version = random_move(res, rng)
            res = await svc.play.act(res.match_id, user, tile, end, version)
            assert res.ok, res
        else:
            clock.advance(DELAY)
            fired = await svc.deadlines.fire_due()
            assert fired, "a bot's deadline must fall due after the delay"
            res = fired[-1]
    raise AssertionError("the match did not end")


async def test_add_and_remove_bots_in_a_lobby(svc):
    res = await svc.lobbies.open_lobby(-100, None, 1, "Masha")
    mid = res.match_id
    assert (await svc.lobbies.add_bot(mid, 99, "easy")).error == ErrorCode.NOT_IN_GAME  # not seated
    assert (await svc.lobbies.add_bot(mid, 1, "genius")).error == ErrorCode.BAD_STRENGTH
    a = await svc.lobbies.add_bot(mid, 1, "easy")
    b = await svc.lobbies.add_bot(mid, 1)  # default: normal
    assert a.ok and b.ok and b.version == a.version + 1
    players = b.lobby.players
    assert [(p.user_id, p.name, p.bot) for p in players] == [
        (1, "Masha", None), (-1, "Бот Фёдор 🤖", "easy"), (-2, "Бот Зина 🤖", "normal")]
    assert (await svc.lobbies.join(mid, 2, "Alex")).ok
    assert (await svc.lobbies.add_bot(mid, 2, "hard")).error == ErrorCode.LOBBY_FULL  # RULES §1.1
    freed = await svc.lobbies.remove_bot(mid, 2, -1)  # anyone seated may; later seats move up
    assert [p.user_id for p in freed.lobby.players] == [1, -2, 2]
    assert (await svc.lobbies.remove_bot(mid, 2, -1)).error == ErrorCode.NOT_IN_GAME  # gone
    assert (await svc.lobbies.remove_bot(mid, 1, 2)).error == ErrorCode.NOT_IN_GAME  # a person
    assert (await svc.lobbies.remove_bot(mid, 77)).error == ErrorCode.NOT_IN_GAME
    again = await svc.lobbies.add_bot(mid, 1, "hard")  # the free persona is taken again
    assert [(p.user_id, p.bot) for p in again.lobby.players][-1] == (-1, "hard")
    last = await svc.lobbies.remove_bot(mid, 1)  # None: the last bot seated
    assert [p.user_id for p in last.lobby.players] == [1, -2, 2]
    assert (await svc.people.get_user(-2)) is None  # bots get no users row
    started = await svc.lobbies.start(mid, 1)
    assert started.ok
    assert [(s.user_id, s.bot) for s in started.table.seats] == [
        (1, None), (-2, "normal"), (2, None)]
    assert (await svc.lobbies.add_bot(mid, 1)).error == ErrorCode.WRONG_STATUS
    assert (await svc.lobbies.remove_bot(mid, 1)).error == ErrorCode.WRONG_STATUS


async def test_a_lobby_left_to_bots_closes_and_the_creator_passes_to_a_person(svc):
    res = await svc.lobbies.open_lobby(-100, None, 1, "Masha")
    mid = res.match_id
    await svc.lobbies.add_bot(mid, 1)
    await svc.lobbies.join(mid, 2, "Alex")
    left = await svc.lobbies.leave(mid, 1)
    assert left.ok and left.lobby.creator_id == 2  # not the bot in seat 0 now
    closed = await svc.lobbies.leave(mid, 2)
    assert closed.ok and closed.status == Status.STOPPED
    assert [p.user_id for p in closed.lobby.players] == [-1]


async def test_solo_match_in_private_against_three_bots(svc, clock):
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=3,
                                      strength=["easy", "normal", "hard"])
    assert res.ok and res.status == Status.PLAYING
    assert (res.table.chat_id, res.table.thread_id) == (42, None)
    assert [(s.user_id, s.bot) for s in res.table.seats] == [
        (42, None), (-1, "easy"), (-2, "normal"), (-3, "hard")]
    again = await svc.lobbies.open_solo(42, "Masha")
    assert again.error == ErrorCode.ALREADY_OPEN and again.match_id == res.match_id
    for count in (0, 4):
        refused = await svc.lobbies.open_solo(43, "X", bots_count=count)
        assert refused.error == ErrorCode.NOT_ENOUGH_PLAYERS
    assert (await svc.lobbies.open_solo(43, "X", strength="x")).error == ErrorCode.BAD_STRENGTH
    teams = await svc.lobbies.open_solo(44, "Y", bots_count=1, rules={"teams": True})
    assert teams.error == ErrorCode.NOT_ENOUGH_PLAYERS  # RULES.md §1.14
    assert (await svc.store.find_open(44, None)).error == ErrorCode.NOT_FOUND  # nothing left open


async def test_bot_moves_after_the_delay_through_the_logged_path(svc, clock):
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=2, strength="normal")
    rng = random.Random(1)
    while res.table.to_act_user_id == 42:  # until a bot is to act
        _, tile, end, version = random_move(res, rng)
        res = await svc.play.act(res.match_id, 42, tile, end, version)
    seat = res.table.to_act
    assert res.table.seats[seat].bot == "normal"
    assert res.table.deadline_at == clock.now + DELAY  # bot_move_delay, not turn_timeout
    clock.advance(DELAY - 0.1)
    assert await svc.deadlines.fire_due() == []
    log_before = await svc.db.read(repo.list_actions, res.match_id)
    clock.advance(0.1)
    fired = await svc.deadlines.fire_due()
    assert fired and fired[0].version == res.version + 1
    log = await svc.db.read(repo.list_actions, res.match_id)
    bot_action = log[len(log_before)]
    assert bot_action.seat == seat and bot_action.user_id == res.table.seats[seat].user_id
    assert bot_action.decision["bot"] == "normal" and "tile" in bot_action.decision
    assert fired[0].table.seats[seat].host_moves == 0  # a bot's move is not a host move
    # A stale sweep of the old version changes nothing (the version check).
    assert (await svc.play.bot_move(res.match_id, res.version)).error == ErrorCode.STALE


async def test_bot_move_refuses_a_persons_turn(svc):
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=1, strength="easy")
    while res.table.to_act_user_id != 42:
        res = await svc.play.bot_move(res.match_id, res.version)
    assert (await svc.play.bot_move(res.match_id, res.version)).error == ErrorCode.NOT_YOUR_TURN


async def test_solo_match_to_the_end_keeps_bots_off_the_fair_boards(svc, clock):
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=3, strength="easy")
    res = await finish_solo(svc, clock, res, 42, random.Random(3))
    assert res.status == Status.FINISHED and res.final.rated
    assert [p.bot for p in res.final.players] == [None, "easy", "easy", "easy"]
    rows = await svc.db.read(kit.list_results, res.match_id)
    assert [(r.user_id, r.bot) for r in rows] == [(42, None), (-1, "easy"), (-2, "easy"),
                                                  (-3, "easy")]
    # fair boards (issue 15): a match against computer players is on no global board and on
    # the chat's board of every match only; the board lists people only
    assert await svc.stats.leaderboard() == ()
    assert await svc.stats.leaderboard(42) == ()
    assert [r.user_id for r in await svc.stats.leaderboard(42, with_bots=True)] == [42]
    assert (await svc.stats.personal_stats(-1, 42, with_bots=True)).matches == 0
    assert (await svc.stats.personal_stats(42)).matches == 0
    assert (await svc.stats.personal_stats(42, 42, with_bots=True)).matches == 1
    [easy] = await svc.stats.bot_stats()
    assert (easy.strength, easy.matches) == ("easy", 3)
    assert easy.goats == sum(r.goat for r in rows if r.bot)
    assert await svc.db.read(kit.all_stats) == await svc.db.read(kit.recompute_stats)
    rematch = await svc.lobbies.rematch(res.match_id, 42)
    assert rematch.ok and [p.bot for p in rematch.lobby.players] == [None, "easy", "easy",
                                                                     "easy"]


async def test_a_bot_deadline_survives_a_restart(store_url, clock):
    path = store_url
    svc = await GameService.open(path, clock=clock, bot_move_delay=DELAY, hard_samples=2,
                                     bot_executor=InlineExecutor())
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=1, strength="hard")
    rng = random.Random(2)
    while res.table.to_act_user_id == 42:
        _, tile, end, version = random_move(res, rng)
        res = await svc.play.act(res.match_id, 42, tile, end, version)
    logged = len(await svc.db.read(repo.list_actions, res.match_id))
    await svc.close()  # the process dies with a bot to act
    clock.advance(60)
    svc = await GameService.open(path, clock=clock, bot_move_delay=DELAY, hard_samples=2,
                                     bot_executor=InlineExecutor())
    try:
        fired = await svc.deadlines.fire_due()
        assert fired and fired[0].ok and fired[0].version == res.version + 1
        log = await svc.db.read(repo.list_actions, res.match_id)
        assert log[logged].decision.get("bot") == "hard" and log[logged].user_id == -1
    finally:
        await svc.close()


async def test_a_failing_decision_falls_back_to_the_host_move(svc, clock, monkeypatch):
    import engine
    import service.thinkers

    def broken(*args, **kwargs):
        raise RuntimeError("no idea")

    monkeypatch.setattr(service.thinkers, "think", broken)
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=1, strength="normal")
    rng = random.Random(5)
    while res.table.to_act_user_id == 42:
        _, tile, end, version = random_move(res, rng)
        res = await svc.play.act(res.match_id, 42, tile, end, version)
    expected = engine.host_move(await engine_state(svc, res.match_id))  # §1.17: most pips
    moved = await svc.play.bot_move(res.match_id, res.version)
    assert moved.ok
    last = (await svc.db.read(repo.list_actions, res.match_id))[-1]
    assert last.decision == {"tile": expected.tile.code(), "end": expected.end, "bot": "normal"}
    assert moved.table.seats[1].host_moves == 0  # still the bot's own move, no timeout count


async def test_a_running_match_with_only_bots_left_ends(svc, clock):
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=1, strength="easy")

    def only_bots(conn):  # seats as if the person had gone (no such operation exists yet)
        row = repo.get_match(conn, res.match_id)
        seats = [{"user_id": -9, "name": "Бот 🤖", "bot": "easy"}, *row.seats[1:]]
        repo.update_match(conn, res.match_id, row.version, now=clock.now, seats=seats,
                          deadline_at=clock.now)
    await svc.db.write(only_bots)
    svc.store.forget()
    fired = []
    for _ in range(5):
        clock.advance(DELAY)
        fired += await svc.deadlines.fire_due()
        if fired and fired[-1].status != Status.PLAYING:
            break
    assert fired[-1].status == Status.STOPPED
    assert all(is_bot(s) for s in (await svc.db.read(repo.get_match, res.match_id)).seats)


async def test_the_sweeper_wakes_for_a_bot_before_its_interval(tmp_path):
    """run_deadlines sleeps until the next deadline; a bot turn armed meanwhile wakes it, so
    bots keep their short pace even with a long sweep interval."""
    svc = await GameService.open(tmp_path / "w.sqlite3", bot_move_delay=0.01,
                                 hard_samples=2, bot_executor=InlineExecutor())
    results = []
    stop = asyncio.Event()

    async def on_result(res):
        results.append(res)

    sweeper = asyncio.create_task(svc.deadlines.run(on_result, interval=30, stop=stop))
    try:
        await asyncio.sleep(0.05)  # the sweeper is asleep for 30 s now
        res = await svc.lobbies.open_solo(7, "Solo", bots_count=3, strength="easy")
        rng = random.Random(4)
        for _ in range(6):
            if res.table.to_act_user_id == 7:
                _, tile, end, version = random_move(res, rng)
                res = await svc.play.act(res.match_id, 7, tile, end, version)
                continue
            for _ in range(200):
                await asyncio.sleep(0.01)
                current = await svc.store.view(res.match_id)
                if current.version != res.version:
                    break
            assert current.version > res.version, "the bot did not move within 2 s"
            res = current
        assert results and all(r.ok for r in results)
    finally:
        stop.set()
        await sweeper
        await svc.close()


async def test_computer_players_think_in_worker_processes_by_a_count_of_samples(tmp_path,
                                                                               clock):
    """Issue 11: by default decisions run in a pool of worker processes, off the event
    loop's interpreter; what crosses is the seat's observation, and the hard strength plays a
    fixed number of sampled deals, so its move is the same however busy the machine is: the
    pool's move equals the same decision made here (its time budget never binds at 40
    deals)."""
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    from service.live.thinking import decide

    svc = await GameService.open(tmp_path / "pool.sqlite3", clock=clock, bot_move_delay=DELAY,
                                 hard_samples=40, bot_workers=1)
    try:
        assert svc.thinkers.workers == 1
        res = await svc.lobbies.open_solo(42, "Masha", bots_count=3, strength="hard")
        rng = random.Random(8)
        moves = 0
        while moves < 3 and res.status == Status.PLAYING:
            if res.table.to_act_user_id == 42:
                _, tile, end, version = random_move(res, rng)
                res = await svc.play.act(res.match_id, 42, tile, end, version)
                continue
            live = await svc.store.live(res.match_id)
            seat = live.to_act
            obs = live.observation(seat)
            assert pickle.loads(pickle.dumps(obs)) == obs
            here = decide(obs, "hard", f"{live.row.seed}:{live.seq}:{seat}", 40)
            res = await svc.play.bot_move(res.match_id, res.version)
            assert res.ok
            last = (await svc.db.read(repo.list_actions, res.match_id))[-1]
            assert last.decision == {"tile": here.tile.code(), "end": here.end, "bot": "hard"}
            moves += 1
        pool = svc.thinkers.executor()
        assert isinstance(pool, ProcessPoolExecutor) and moves == 3
        # each decision's CPU time was measured in the worker and counted here (issue 33)
        from prometheus_client.parser import text_string_to_metric_families

        got = {(s.name, s.labels.get("strength")): s.value
               for f in text_string_to_metric_families(svc.metrics.exposition().decode())
               for s in f.samples}
        assert got[("kozel_decision_seconds_count", "hard")] == 3
        assert got[("kozel_decision_seconds_sum", "hard")] > 0
        assert got[("kozel_decision_time_stops_total", "hard")] == 0
        import os

        assert pool._processes and os.getpid() not in pool._processes
    finally:
        await svc.close()


def test_the_worker_pool_is_sized_to_the_machine():
    import os

    from service.thinkers import Thinkers, default_workers

    assert default_workers() == max(1, os.cpu_count() or 1)
    assert Thinkers().workers == default_workers() and Thinkers(workers=3).workers == 3
    with pytest.raises(ValueError):
        Thinkers(workers=0)


def test_worker_processes_end_with_the_bot_even_when_it_is_killed(tmp_path):
    """A bot killed with SIGKILL cannot stop its worker processes; they notice and end."""
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    code = (
        "import asyncio, os, signal\n"
        "from service.thinkers import Thinkers\n"
        "async def main():\n"
        "    t = Thinkers(workers=2)\n"
        "    loop = asyncio.get_running_loop()\n"
        "    pids = {await loop.run_in_executor(t.executor(), os.getpid) for _ in range(8)}\n"
        "    print(' '.join(map(str, pids)), flush=True)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "asyncio.run(main())\n"
    )
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(root)})
    pids = [int(p) for p in proc.stdout.split()]
    assert proc.returncode == -9 and pids

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    deadline = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in pids)
