"""The service's metrics as Prometheus reads them (issue 33, "Health, readiness and
metrics"): each series named in ``service.metrics`` comes out of the exposition and parses
with the client library's own parser."""

from __future__ import annotations

import random

from prometheus_client.parser import text_string_to_metric_families

from service.game import GameService
from service.metrics import Metrics
from tests.servicekit import FakeClock, play_random, random_move, start_match


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
