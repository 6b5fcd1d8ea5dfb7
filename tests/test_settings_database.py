"""Where the data lives (issue 22): ``DATABASE_PATH`` (a SQLite file) by default,
``DATABASE_URL`` when set — a PostgreSQL URL through psycopg 3 or asyncpg, or SQLite's —
which wins; a URL of another database or no URL at all is refused at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

import delivery.settings as bot
from storage import database_url


def settings(**env) -> bot.Settings:
    return bot.Settings(bot_token="42:TEST", _env_file=None, **env)


def test_the_sqlite_file_is_the_default(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    assert settings().database == Path("data/kozel.sqlite3")
    assert settings(database_path="x/y.sqlite3", database_url="").database == Path(
        "x/y.sqlite3")


@pytest.mark.parametrize("url", [
    "postgresql+asyncpg://kozel:pw-4711@db:5432/kozel",
    "postgresql+psycopg://kozel:pw-4711@db/kozel",
    "postgresql://kozel@db/kozel",
    "sqlite:////var/lib/kozel/kozel.sqlite3",
])
def test_a_database_url_wins_over_the_path(monkeypatch, url):
    monkeypatch.setenv("DATABASE_URL", url)
    s = bot.Settings(bot_token="42:TEST", database_path="ignored.sqlite3", _env_file=None)
    assert s.database == url
    assert "pw-4711" not in repr(s)  # the URL's password stays out of logs


def test_a_bare_postgresql_url_means_the_pinned_driver():
    assert database_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("postgresql+asyncpg://u@h/d") == "postgresql+asyncpg://u@h/d"
    assert database_url("data/k.sqlite3").startswith("sqlite:////")


@pytest.mark.parametrize("url", ["mysql://u@h/d", "not a url ://", "redis://h"])
def test_another_database_is_refused(url):
    with pytest.raises(ValidationError, match="DATABASE_URL"):
        settings(database_url=url)


async def test_the_think_time_setting_reaches_the_computer_players(tmp_path, monkeypatch):
    """``BOT_THINK_SECONDS`` (issue 33): CPU seconds a hard decision may take, 1 by default,
    positive; the wired app's computer players get it and count into the service's
    metrics."""
    from tests.botkit import Harness

    assert settings().bot_think_seconds == 1.0
    monkeypatch.setenv("BOT_THINK_SECONDS", "0.25")
    assert settings().bot_think_seconds == 0.25
    with pytest.raises(ValidationError):
        settings(bot_think_seconds=0)
    async with Harness(tmp_path, settings={"bot_think_seconds": 0.5}) as h:
        thinkers = h.app.service.thinkers
        assert thinkers.think_seconds == 0.5 and thinkers.metrics is h.app.service.metrics
