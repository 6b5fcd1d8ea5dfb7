"""The service's metrics as Prometheus reads them (issue 33, "Health, readiness and
metrics"): each series named in ``service.metrics`` comes out of the exposition and parses
with the client library's own parser."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from service.metrics import Metrics


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
