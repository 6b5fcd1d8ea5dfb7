"""The service's metrics as Prometheus reads them (issue 33, "Health, readiness and
metrics"): each series named in ``service.metrics`` comes out of the exposition and parses
with the client library's own parser."""

from __future__ import annotations

import random

from prometheus_client.parser import text_string_to_metric_families

from service.game import GameService
from service.metrics import Metrics
from service.views import Status
from tests.servicekit import FakeClock, InlineExecutor, play_random, random_move, start_match


def _samples(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(metrics.exposition().decode()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_counts_come_out_parsed_and_apart_per_service() -> None:
    a, b = Metrics(), Metrics()
    a.botapi_calls.labels("sendMessage", "ok").inc(3)
    a.botapi_calls.labels("editMessageText", "retry_after").inc()
    a.decision_seconds.labels("hard").observe(0.4)
    got = _samples(a)
    assert got[("kozel_botapi_calls_total", (("method", "sendMessage"), ("outcome", "ok")))] == 3
    assert got[("kozel_botapi_calls_total",
                (("method", "editMessageText"), ("outcome", "retry_after")))] == 1
    assert got[("kozel_decision_seconds_count", (("strength", "hard"),))] == 1
    # another service's registry is its own
    assert ("kozel_botapi_calls_total", (("method", "sendMessage"), ("outcome", "ok"))) \
        not in _samples(b)


def test_the_outbox_is_read_at_each_scrape() -> None:
    m = Metrics()
    assert ("kozel_outbox_depth", (("kind", "group"),)) not in _samples(m)
    state = {"group": (4, 1.5), "private": (0, 0.0)}
    m.watch_outbox(lambda: state)
    got = _samples(m)
    assert got[("kozel_outbox_depth", (("kind", "group"),))] == 4
    assert got[("kozel_outbox_oldest_seconds", (("kind", "group"),))] == 1.5
    state["group"] = (1, 0.25)
    assert _samples(m)[("kozel_outbox_depth", (("kind", "group"),))] == 1


async def test_moves_and_matches_are_counted_where_they_are_committed(tmp_path) -> None:
    """A person's moves, a host move after a timeout (RULES.md §1.17) and a stopped match
    come out as ``moves{source}``, ``matches_started{game}`` and ``matches_ended{game,
    reason}``; a refused move counts nothing; a lobby closed before its deal is no match
    ended."""
    svc = await GameService.open(tmp_path / "kozel.sqlite3", clock=FakeClock())
    try:
        rng = random.Random(7)
        res = await start_match(svc, -100, 2)
        user, tile, end, version = random_move(res, rng)
        refused = await svc.play.act(res.match_id, user, tile, end, version - 1)
        assert not refused.ok
        res, made = await play_random(svc, res, rng, max_actions=3)
        host = await svc.play.host_move(res.match_id, res.version)
        assert host.ok, host
        lobby = await svc.lobbies.open_lobby(-200, None, 5, "P5", None)
        assert (await svc.lobbies.stop(lobby.match_id, 5)).ok
        assert (await svc.lobbies.stop(res.match_id, 1)).ok
        got = _samples(svc.metrics)
        assert got[("kozel_moves_total", (("source", "person"),))] == made == 3
        assert got[("kozel_moves_total", (("source", "host"),))] == 1
        assert got[("kozel_matches_started_total", (("game", "classic"),))] == 1
        assert got[("kozel_matches_ended_total",
                    (("game", "classic"), ("reason", "stopped")))] == 1
        assert sum(v for (name, _), v in got.items()
                   if name == "kozel_matches_ended_total") == 1
    finally:
        await svc.close()


async def _bot_moves(svc: GameService, clock: FakeClock, user: int, bot_moves: int
                     ) -> tuple[int, int]:
    """Play a solo match of ``user`` (random moves) until its computer players made
    ``bot_moves`` moves; returns (their moves, those with more than one legal move)."""
    res = await svc.lobbies.open_solo(user, "Masha", bots_count=3, strength="hard")
    rng = random.Random(8)
    made = choices = 0
    while made < bot_moves and res.status == Status.PLAYING:
        if res.table.to_act_user_id == user:
            _, tile, end, version = random_move(res, rng)
            res = await svc.play.act(res.match_id, user, tile, end, version)
            continue
        live = await svc.store.live(res.match_id)
        choices += len(live.observation(live.to_act).legal) > 1
        clock.advance(1.0)
        res = await svc.play.bot_move(res.match_id, res.version)
        assert res.ok, res
        made += 1
    assert made == bot_moves
    return made, choices


async def test_a_computer_players_think_time_and_the_time_budgets_stops_are_counted(
        tmp_path) -> None:
    """Issue 33: every decision's CPU seconds come out as ``decision_seconds{strength}``, and
    a decision the time budget ended as ``decision_time_stops{strength}``.  A budget of a
    microsecond of CPU ends every hard search that has moves to weigh after its first deal
    (a decision with one legal move has nothing to weigh and is no time stop); the other
    strengths' series are there from the start, at 0."""
    clock = FakeClock()
    svc = await GameService.open(tmp_path / "kozel.sqlite3", clock=clock, hard_samples=500,
                                 think_seconds=1e-6, bot_executor=InlineExecutor())
    try:
        made, choices = await _bot_moves(svc, clock, 42, 8)
        got = _samples(svc.metrics)
        assert got[("kozel_decision_seconds_count", (("strength", "hard"),))] == made
        assert got[("kozel_decision_seconds_sum", (("strength", "hard"),))] > 0
        assert choices and got[("kozel_decision_time_stops_total",
                                (("strength", "hard"),))] == choices
        for strength in ("easy", "normal"):
            assert got[("kozel_decision_time_stops_total", (("strength", strength),))] == 0
    finally:
        await svc.close()


async def test_work_still_stops_hard_when_time_is_ample(tmp_path) -> None:
    """With the bot's time budget (1 s of CPU) and a small number of deals, the deals stop
    every search: no time stop is counted, and the moves are the ones the same seeds give
    with no time budget at all (deterministic)."""
    from service.live.thinking import decide

    clock = FakeClock()
    svc = await GameService.open(tmp_path / "kozel.sqlite3", clock=clock, hard_samples=3,
                                 bot_executor=InlineExecutor())
    seen = []
    real = svc.thinkers.decide

    async def spy(observation, strength, seed):
        move = await real(observation, strength, seed)
        seen.append(move == decide(observation, strength, seed, 3, None))
        return move

    svc.thinkers.decide = spy
    try:
        assert svc.thinkers.think_seconds == 1.0
        made, _ = await _bot_moves(svc, clock, 43, 6)
        got = _samples(svc.metrics)
        assert got[("kozel_decision_seconds_count", (("strength", "hard"),))] == made
        assert got[("kozel_decision_time_stops_total", (("strength", "hard"),))] == 0
        assert seen == [True] * made
    finally:
        await svc.close()
