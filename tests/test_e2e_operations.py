"""Running the bot for many groups (issue 33): the webhook's secret, the probes and metrics,
and the graceful stop, through the real ``bot.py`` process against the test Bot API server.

- A webhook POST without the secret, or with a wrong one, gets 401 and changes nothing --
  in a single process and in a worker of a cluster, with no ``WEBHOOK_SECRET`` configured:
  the bot made one at start-up, registered it with ``setWebhook`` and kept it in the
  database, so that a restart registers the same one.
- ``/metrics`` parses with the Prometheus client's own parser and counts what happened;
  ``/readyz`` fails while PostgreSQL is down and recovers after, while ``/healthz`` answers.
- SIGTERM: the process stops taking updates, sends what its outbox holds and exits 0
  within ``STOP_GRACE``; a second signal ends it at once (128 + 15).  A worker gives its
  chats' leases back.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text

from tests import pgkit
from tests.e2e.botproc import BotProcess
from tests.e2e.cluster import WorkerProcess, _free_port

pytest_plugins = ("tests.emulator.fixtures",)

USER = 501
#: Seconds a test waits for something the bot does at once on any machine.
WAIT = 30.0
#: Seconds a stop is given before the harness kills the process: STOP_GRACE's default (8 s)
#: and a busy machine's slack (a worker's stop also waits for its process pools' start).
STOP_WAIT = 30.0


@pytest.fixture
def emulator_settings() -> dict:
    return {"flood": False}


def _message(update_id: int, user_id: int, command: str) -> dict[str, Any]:
    """A Telegram update: ``command`` typed by ``user_id`` in their private chat."""
    person = {"id": user_id, "is_bot": False, "first_name": "Ann"}
    return {"update_id": update_id, "message": {
        "message_id": update_id, "date": int(time.time()), "text": command, "from": person,
        "chat": {"id": user_id, "type": "private", "first_name": "Ann"},
        "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}]}}


async def _post(url: str, body: dict, secret: str | None) -> int:
    headers = {} if secret is None else {"X-Telegram-Bot-Api-Secret-Token": secret}
    async with aiohttp.ClientSession() as http, http.post(url, json=body,
                                                          headers=headers) as r:
        return r.status


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as r:
        return r.status, await r.text()


async def _samples(base: str) -> dict[tuple[str, tuple], float]:
    """``/metrics`` of the process at ``base``, parsed by the client library's parser."""
    status, body = await _get(f"{base}/metrics")
    assert status == 200
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body) for s in family.samples}


async def _replies(emulator_client, chat_id: int, method: str = "sendMessage") -> list[dict]:
    return [c for c in await emulator_client.calls(method=method, chat_id=chat_id) if c["ok"]]


async def _until(what: str, check, timeout: float = WAIT) -> Any:
    """Wait until ``await check()`` is truthy (its value), or fail saying ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        got = await check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.05)


def _single_webhook(emulator, tmp_path: Path, **settings: Any) -> WorkerProcess:
    """``bot.py`` alone on SQLite with a webhook on a port of its own (no secret given)."""
    return WorkerProcess(url=f"sqlite:///{tmp_path / 'bot.sqlite3'}", port=_free_port(),
                         api_url=emulator.url, token=emulator.token,
                         database=tmp_path / "unused.sqlite3", log_path=tmp_path / "bot.log",
                         settings=settings, emulator=emulator)


async def _refuses_without_its_secret(proc: WorkerProcess, emulator, emulator_client,
                                      source: str) -> str:
    """The checks of a webhook with a made secret (see the module doc); the secret.  The
    refused POSTs go straight to the bot's port; the good update comes from the emulator,
    as Telegram delivers it (with the secret the bot registered)."""
    secret = await _registered(emulator, emulator_client)
    await emulator_client.create_user(USER, "Ann")
    base = proc.hook.rsplit("/", 1)[0]
    for given in (None, "", "wrong", secret[:-1]):
        assert await _post(proc.hook, _message(10**6, USER, "/start"), given) == 401
    emulator.world.configure(webhook_targets=[proc.hook])
    await emulator_client.send(USER, "/help")
    await _until("the answer to /help", lambda: _replies(emulator_client, USER))
    got = await _samples(base)
    # the refused /start was never taken: one update received, one answer sent
    assert got[("kozel_updates_refused_total", (("why", "secret"),))] == 4
    assert got[("kozel_updates_received_total", (("source", source),))] == 1
    assert len(await emulator_client.calls(method="sendMessage", chat_id=USER)) == 1
    return secret


async def _registered(emulator, emulator_client, n: int = 1) -> str:
    """The secret of the ``n``-th ``setWebhook`` the bot made (after it listens)."""
    await _until(f"setWebhook #{n}", lambda: _count(emulator_client.calls(
        method="setWebhook"), n))
    secret = emulator.world.webhook_secret
    assert len(secret) >= 32, "the bot registered no secret of its own"
    return secret


async def test_a_single_webhook_refuses_a_post_without_its_secret(emulator, emulator_client,
                                                                  tmp_path):
    proc = _single_webhook(emulator, tmp_path)
    await proc.start(timeout=120.0)
    try:
        secret = await _refuses_without_its_secret(proc, emulator, emulator_client, "webhook")
        assert await proc.stop(timeout=STOP_WAIT) == 0
        await proc.restart(timeout=120.0)
        # kept in the database: a restart registers the same secret
        assert await _registered(emulator, emulator_client, 2) == secret
        assert await _post(proc.hook, _message(10**6, USER, "/start"), "wrong") == 401
    finally:
        await proc.stop()
    assert not proc.errors(), proc.log_tail()


async def test_a_worker_refuses_a_post_without_its_secret(emulator, emulator_client,
                                                          pg_server, tmp_path):
    name = pg_server.create_database()
    url = pg_server.url(name)
    proc = WorkerProcess(url=url, port=_free_port(), api_url=emulator.url,
                         token=emulator.token, database=tmp_path / "unused.sqlite3",
                         log_path=tmp_path / "worker.log", settings={"WORKER_ID": 1},
                         emulator=emulator)
    await proc.start(timeout=120.0)
    try:
        await _refuses_without_its_secret(proc, emulator, emulator_client, "webhook")
        # nothing of the refused update was stored
        stored = _sql(url, "SELECT update_id FROM inbox")
        assert len(stored) == 1 and stored[0][0] != 10**6, stored
        assert await proc.stop(timeout=STOP_WAIT) == 0
        # the stop gave the chat's lease back: it expired when the worker left
        leases = _sql(url, "SELECT owner, expires_at FROM chat_leases")
        assert leases and all(expires <= time.time() + 1 for _, expires in leases), leases
    finally:
        await proc.stop()
        pg_server.drop_database(name)
    assert not proc.errors(), proc.log_tail()


async def _count(calls, n: int) -> bool:
    return len(await calls) >= n


def _sql(url: str, sql: str) -> list:
    eng = create_engine(url)
    try:
        with eng.begin() as conn:
            return list(conn.execute(text(sql)))
    finally:
        eng.dispose()


async def test_readiness_follows_the_database_and_metrics_parse(emulator, emulator_client,
                                                                tmp_path):
    """A worker on a PostgreSQL server of its own: ready; the server stopped -- not ready
    (the database unreachable), alive; started again -- ready again, and the metrics name
    the worker's series.  The lease is longer than the outage, so the worker keeps its
    chats (a longer outage fences it out: docs/SCALE_OUT.md)."""
    try:
        server = await asyncio.to_thread(pgkit.PgServer.start)
    except pgkit.NoServer as exc:
        pytest.skip(f"no PostgreSQL: {exc}")
    try:
        url = server.url(server.create_database())
        proc = WorkerProcess(url=url, port=_free_port(), api_url=emulator.url,
                             token=emulator.token, database=tmp_path / "unused.sqlite3",
                             log_path=tmp_path / "worker.log",
                             settings={"WORKER_ID": 1, "WORKER_LEASE": 60}, emulator=emulator)
        await proc.start(timeout=120.0)
        base = proc.hook.rsplit("/", 1)[0]
        try:
            status, body = await _get(f"{base}/readyz")
            assert status == 200, body
            got = await _samples(base)
            assert ("kozel_chats_owned", ()) in got
            assert ("kozel_lease_renewal_seconds_count", ()) in got
            assert got[("kozel_botapi_calls_total",
                        (("method", "setWebhook"), ("outcome", "ok")))] == 1
            await asyncio.to_thread(server.pause)
            status, body = await _until("readiness failing",
                                        lambda: _failing(f"{base}/readyz"))
            assert '"database": "unreachable' in body, body
            assert (await _get(f"{base}/healthz"))[0] == 200
            await asyncio.to_thread(server.resume)
            await _until("readiness again", lambda: _ready(f"{base}/readyz"))
            assert proc.running
        finally:
            await proc.stop()
    finally:
        await asyncio.to_thread(server.stop)


async def _failing(url: str) -> tuple[int, str] | None:
    status, body = await _get(url)
    return (status, body) if status == 503 else None


async def _ready(url: str) -> bool:
    return (await _get(url))[0] == 200


# -- the stop ------------------------------------------------------------------------------


async def _queued_answers(proc: BotProcess, emulator_client, n: int) -> int:
    """Send ``n`` commands to the bot and wait until it took them all (its answers are
    queued at one a second in a private chat); the answers sent so far."""
    await emulator_client.create_user(USER, "Ann")
    for _ in range(n):
        await emulator_client.send(USER, "/help")

    async def taken() -> bool:
        events = await emulator_client.events()
        return len(events) == n and all(e.get("delivered_t") for e in events)

    await _until("the bot taking the commands", taken)
    return len(await _replies(emulator_client, USER))


async def _exit_code(proc: BotProcess, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while proc.running and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return None if proc.running else proc.proc.wait(1)


async def test_sigterm_sends_what_the_outbox_holds_and_exits_0(emulator, emulator_client,
                                                               tmp_path):
    """Long polling: four answers queued at a private chat's one a second; SIGTERM; all
    four are sent and the process exits 0 within ``STOP_GRACE``.  Its logs, asked for in
    JSON at INFO, are one JSON object a line and hold no line per update."""
    grace = 12.0
    proc = BotProcess(api_url=emulator.url, token=emulator.token,
                      database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                      settings={"STOP_GRACE": grace, "LOG_FORMAT": "json",
                                "LOG_LEVEL": "INFO"}, emulator=emulator)
    await proc.start(timeout=120.0)
    try:
        sent = await _queued_answers(proc, emulator_client, 4)
        assert sent < 4, "nothing was left in the outbox to send at the stop"
        t0 = time.monotonic()
        proc.proc.send_signal(signal.SIGTERM)
        code = await _exit_code(proc, grace + 5)
        took = time.monotonic() - t0
        assert code == 0, proc.log_tail()
        assert took <= grace + 1, took
        assert len(await _replies(emulator_client, USER)) == 4
    finally:
        await proc.stop()
    lines = [json.loads(line) for line in proc.log_path.read_text().splitlines()
             if not line.startswith("--- start")]
    messages = [x["message"] for x in lines]
    assert any(m.startswith("SIGTERM: stopping within") for m in messages), messages
    assert not any("is handled" in m for m in messages), messages
    assert all(x["level"] in ("INFO", "WARNING") for x in lines), lines


async def test_a_second_signal_stops_at_once(emulator, emulator_client, tmp_path):
    """A stop that would wait for a slow outbox (one message per 5 s): the second SIGTERM
    ends the process at once with 128 + 15."""
    proc = BotProcess(api_url=emulator.url, token=emulator.token,
                      database=tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log",
                      settings={"STOP_GRACE": 120, "RATE_CHAT_INTERVAL": 5,
                                "LOG_LEVEL": "INFO"}, emulator=emulator)
    await proc.start(timeout=120.0)
    try:
        await _queued_answers(proc, emulator_client, 4)
        proc.proc.send_signal(signal.SIGTERM)

        async def stopping() -> bool:
            return "SIGTERM: stopping within" in proc.log_tail()

        await _until("the stop beginning", stopping)
        t0 = time.monotonic()
        proc.proc.send_signal(signal.SIGTERM)
        code = await _exit_code(proc, 10.0)
        assert code == 128 + signal.SIGTERM, proc.log_tail()
        assert time.monotonic() - t0 < 10.0
        assert len(await _replies(emulator_client, USER)) < 4
    finally:
        await proc.stop()


async def test_a_single_webhook_stops_taking_updates_and_exits_0(emulator, emulator_client,
                                                                 tmp_path):
    """A webhook's SIGTERM: answers queued are sent, the port closes (Telegram delivers
    later), exit 0 within the grace."""
    grace = 12.0
    proc = _single_webhook(emulator, tmp_path, STOP_GRACE=grace)
    await proc.start(timeout=120.0)
    try:
        secret = await _registered(emulator, emulator_client)
        emulator.world.configure(webhook_targets=[proc.hook])
        await _queued_answers(proc, emulator_client, 3)
        t0 = time.monotonic()
        proc.proc.send_signal(signal.SIGTERM)
        code = await _exit_code(proc, grace + 5)
        assert code == 0, proc.log_tail()
        assert time.monotonic() - t0 <= grace + 1
        assert len(await _replies(emulator_client, USER)) == 3
        with pytest.raises(aiohttp.ClientConnectionError):
            await _post(proc.hook, _message(30, USER, "/help"), secret)
    finally:
        await proc.stop()
    assert not proc.errors(), proc.log_tail()
