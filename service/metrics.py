"""What a running bot counts, for Prometheus (issue 33, "Health, readiness and metrics").

One :class:`Metrics` per :class:`service.game.GameService`, on a registry of its own (so that
two services in one test process count apart); every room that counts gets it from the
service.  ``handlers.run`` serves it as ``/metrics`` beside ``/healthz`` and ``/readyz``
(docs/OPERATIONS.md lists each series and what to alert on).  Counting is the standard client
library's (``prometheus_client``): nothing here but names, help texts and labels.

Labels stay few and bounded: a chat kind (``group``/``private``), a Bot API method and an
outcome, a computer player's strength, a game's name.  Never a chat, user or match id (those
go to the logs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

#: Buckets of short durations [seconds]: an inbox's lag, a heartbeat's round trip.
_FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Buckets of a computer player's decision [seconds of CPU].
_THINK = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)


class _Outboxes:
    """A collector that asks, at each scrape, how deep the outbox is and how old its oldest
    message is, per chat kind (``read()`` → ``{kind: (depth, oldest age in seconds)}``)."""

    def __init__(self) -> None:
        self.read: Callable[[], dict[str, tuple[int, float]]] | None = None

    def collect(self) -> Iterable[Any]:
        depth = GaugeMetricFamily("kozel_outbox_depth",
                                  "Messages and edits waiting in the outbox", labels=["kind"])
        oldest = GaugeMetricFamily("kozel_outbox_oldest_seconds",
                                   "Age of the oldest message waiting in the outbox",
                                   labels=["kind"])
        for kind, (n, age) in sorted((self.read() if self.read else {}).items()):
            depth.add_metric([kind], n)
            oldest.add_metric([kind], age)
        yield depth
        yield oldest

    def describe(self) -> Iterable[Any]:
        return []


class Metrics:
    """The series of one service (``registry``: a new :class:`prometheus_client.
    CollectorRegistry` by default).  Attributes are the client library's metrics, counted
    where the thing happens:

    - ``updates_received{source}`` (``webhook``, ``polling``, ``page``), ``updates_applied
      {outcome}`` (``done``, ``failed``, ``duplicate``), ``updates_refused{why}`` (``secret``,
      ``malformed``, ``busy``), ``inbox_lag`` (seconds from storing an update to its
      processing), ``inbox_pending`` (a worker's queued updates);
    - ``botapi_calls{method, outcome}`` (``ok``, ``retry_after`` -- a 429 --, ``forbidden``,
      ``error``), and the outbox's depth and oldest message per chat kind (:meth:`watch_outbox`);
    - ``moves{source}`` (``person``, ``computer``, ``host``), ``matches_started{game}``,
      ``matches_ended{game, reason}``;
    - a worker's ``takeovers``, ``chats_owned``, ``leases_released``, ``lease_renewal``
      (seconds);
    - ``decision_seconds{strength}`` (a computer player's CPU time), ``decision_time_stops
      {strength}`` (decisions the time budget ended before the work budget).
    """

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = r = registry or CollectorRegistry()
        self.updates_received = Counter("kozel_updates_received", "Updates received",
                                        ["source"], registry=r)
        self.updates_applied = Counter("kozel_updates_applied",
                                       "Updates processed, by outcome", ["outcome"], registry=r)
        self.updates_refused = Counter("kozel_updates_refused",
                                       "Webhook requests refused, by why", ["why"], registry=r)
        self.inbox_lag = Histogram("kozel_inbox_lag_seconds",
                                   "Seconds from storing an update to processing it",
                                   buckets=_FAST, registry=r)
        self.inbox_pending = Gauge("kozel_inbox_pending",
                                   "Updates claimed by this worker and not yet processed",
                                   registry=r)
        self.botapi_calls = Counter("kozel_botapi_calls", "Bot API requests, by outcome",
                                    ["method", "outcome"], registry=r)
        self.moves = Counter("kozel_moves", "Moves made, by who made them", ["source"],
                             registry=r)
        self.matches_started = Counter("kozel_matches_started", "Matches dealt", ["game"],
                                       registry=r)
        self.matches_ended = Counter("kozel_matches_ended", "Matches ended",
                                     ["game", "reason"], registry=r)
        self.takeovers = Counter("kozel_takeovers", "Chats this worker took over",
                                 registry=r)
        self.leases_released = Counter("kozel_leases_released",
                                       "Chats this worker gave back (idle, handed over, stop)",
                                       registry=r)
        self.chats_owned = Gauge("kozel_chats_owned", "Chats this worker owns", registry=r)
        self.lease_renewal = Histogram("kozel_lease_renewal_seconds",
                                       "Seconds a heartbeat (the leases' renewal) took",
                                       buckets=_FAST, registry=r)
        self.decision_seconds = Histogram("kozel_decision_seconds",
                                          "CPU seconds of a computer player's decision",
                                          ["strength"], buckets=_THINK, registry=r)
        self.decision_time_stops = Counter(
            "kozel_decision_time_stops",
            "Decisions the time budget stopped before the work budget", ["strength"],
            registry=r)
        self._outboxes = _Outboxes()
        r.register(self._outboxes)

    def watch_outbox(self, read: Callable[[], dict[str, tuple[int, float]]]) -> None:
        """Report ``read()`` -- ``{chat kind: (waiting, oldest age in seconds)}`` -- as the
        outbox's depth and oldest age at each scrape."""
        self._outboxes.read = read

    def exposition(self) -> bytes:
        """Every series in Prometheus' text format (``CONTENT_TYPE_LATEST``)."""
        return generate_latest(self.registry)
