"""The bot's settings: from the environment (or ``.env``), names in capitals (``.env.example``
lists them).  Secrets (the token, a database password) come only from there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DatabaseSettings", "Settings", "load_database_settings", "load_settings",
           "token_given"]


class DatabaseSettings(BaseSettings):
    """Where the data lives, alone: what ``python bot.py backup`` and ``restore`` need (no
    token).  The SQLite file ``database_path`` unless ``database_url`` is set (a SQLAlchemy
    URL: ``postgresql://...`` for PostgreSQL through psycopg 3, ``postgresql+asyncpg://...``
    through asyncpg when it is installed, or ``sqlite:///...``; docs/POSTGRESQL.md), which
    wins.  Raises ``pydantic.ValidationError`` for a malformed value."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore")

    database_path: Path = Path("data/kozel.sqlite3")
    # a secret: a PostgreSQL URL may carry a password
    database_url: SecretStr | None = None

    @field_validator("database_url", mode="before")
    @classmethod
    def _empty_url_is_unset(cls, v: object) -> object:
        return None if v == "" else v

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, v: SecretStr | None) -> SecretStr | None:
        if v is None:
            return v
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        text = v.get_secret_value()
        try:
            backend = make_url(text).get_backend_name()
        except ArgumentError as exc:
            raise ValueError("DATABASE_URL is not a database URL") from exc
        if backend not in {"postgres", "postgresql", "sqlite"}:
            raise ValueError("DATABASE_URL must be a postgresql:// or sqlite:/// URL")
        return v

    @property
    def database(self) -> str | Path:
        """Where the data lives: ``DATABASE_URL`` when set, else the file ``DATABASE_PATH``."""
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return self.database_path


class Settings(DatabaseSettings):
    """The bot's settings, from environment variables (or ``.env``), names in capitals.

    ``bot_token`` is required.  Times are seconds.  Where the data lives:
    :class:`DatabaseSettings`.  Raises ``pydantic.ValidationError`` for a missing token or a
    malformed value.
    """

    bot_token: SecretStr
    bot_api_url: str | None = None
    default_locale: str = Field("ru", pattern="^(ru|uk|en)$")
    log_level: str = "INFO"
    # text, or one JSON object a line with the update, chat and match ids as fields
    log_format: str = Field("text", pattern="^(text|json)$")
    # seconds a SIGTERM or SIGINT leaves the bot to finish the updates in hand, send what
    # the outbox holds and hand its chats back before it exits (keep it below the process
    # manager's own grace: Docker's default is 10 s; a second signal stops at once)
    stop_grace: float = Field(8.0, ge=1, le=600)
    # updates waiting to be processed above which a webhook answers 503 (Telegram sends
    # them again later): a single process's updates in hand, a cluster's pending inbox
    backlog_limit: int = Field(2000, ge=10)
    # /healthz, /readyz and /metrics in long-polling mode (a webhook serves them on its own
    # port, WEBHOOK_PORT); 0: none
    health_host: str = "0.0.0.0"
    health_port: int = Field(8080, ge=0, le=65535)
    turn_timeout: int = Field(60, ge=5, le=86400)
    lobby_ttl: int = Field(900, ge=30)
    bot_move_delay: float = Field(1.5, ge=0, le=30)
    # computer players: worker processes (default one per CPU), hard's sampled deals, and
    # the CPU seconds a hard decision may take in its worker (it stops at this or at its
    # work budget, whichever comes first)
    bot_workers: int | None = Field(None, ge=1, le=64)
    bot_hard_samples: int = Field(1500, ge=1, le=100_000)
    bot_think_seconds: float = Field(1.0, gt=0, le=60)
    # the group's table as a picture or as text, for chats whose admins chose neither
    table_view: str = Field("picture", pattern="^(picture|text)$")
    # the table pictures are drawn in that many processes of their own (0: a thread)
    picture_workers: int = Field(1, ge=0, le=8)
    # Telegram's limits as the outbox applies them (lower them only for a test Bot API server)
    rate_chat_interval: float = Field(1.0, ge=0)
    rate_private_burst: int = Field(3, ge=1, le=30)
    rate_group_per_minute: int = Field(20, ge=1)
    rate_global_per_second: int = Field(30, ge=1)
    # where players can read the rule book (docs/RULES.md); /rules links to it when set
    rules_url: str | None = Field(None, pattern=r'^https?://[^\s"<>]+$')
    webhook_url: str | None = None
    webhook_host: str = "0.0.0.0"
    webhook_port: int = 8080
    webhook_path: str = "/telegram"
    webhook_secret: SecretStr | None = None
    # a worker of a cluster (a webhook over PostgreSQL): seconds its chats' leases last
    # without a heartbeat, i.e. how long a frozen worker's chats wait (docs/SCALE_OUT.md)
    worker_lease: float = Field(5.0, ge=1, le=120)
    # its id in the cluster (random when unset; a taken one is replaced by a random one)
    worker_id: int | None = Field(None, ge=1, lt=2**31)
    # the table as a Telegram Mini App (issue 21, docs/WEBAPP.md): the page's public HTTPS
    # address (a reverse proxy in front of WEBAPP_PORT, or of the webhook's port), the short
    # name BotFather gave the app (for the group's direct link t.me/<bot>/<name>), and how
    # old a page's signed initData may be [seconds]; without WEBAPP_URL there is no page
    webapp_url: str | None = Field(None, pattern=r'^https?://[^\s"<>?#]+$')
    webapp_short_name: str | None = Field(None, pattern=r"^[A-Za-z0-9_]{3,30}$")
    webapp_host: str = "0.0.0.0"
    webapp_port: int = Field(8081, ge=1, le=65535)
    webapp_max_age: int = Field(86_400, ge=60)
    # while people play in pages (issue 33): seconds a person still counts as watching after
    # their page's stream ended, and seconds between two edits of the group's table while
    # every person at it plays in a page (0: every change at once)
    webapp_page_grace: float = Field(5.0, ge=0, le=600)
    webapp_table_calm: float = Field(10.0, ge=0, le=600)
    # false: the chats follow every move whatever the pages do (where a person sees their
    # chat and their page side by side, as at the local table)
    webapp_hold_chats: bool = True

    @field_validator("bot_api_url", "webhook_url", "webhook_secret", "bot_workers",
                     "rules_url", "worker_id", "webapp_url",
                     "webapp_short_name", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        return None if v == "" else v

    @field_validator("bot_token")
    @classmethod
    def _token_given(cls, v: SecretStr) -> SecretStr:
        if ":" not in v.get_secret_value():
            raise ValueError("BOT_TOKEN must look like 123456:ABC... (from @BotFather)")
        return v


class _Token(BaseSettings):
    """``BOT_TOKEN`` alone, read where :class:`Settings` reads it."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore")

    bot_token: str = ""


def token_given() -> bool:
    """Whether ``BOT_TOKEN`` is set (in the environment or ``.env``) to anything but blanks:
    a malformed one counts as given (:func:`load_settings` then says what is wrong with it).
    Only ``make run`` asks (``bot.py --local-table-without-token``, issue 34)."""
    return bool(_Token().bot_token.strip())


def load_settings() -> Settings:
    """Read the settings; on a problem print what is missing and exit with status 2."""
    try:
        return Settings()
    except ValidationError as e:
        missing = [".".join(map(str, err["loc"])).upper() for err in e.errors()]
        if "BOT_TOKEN" in missing:  # absent, empty or not a token
            print(
                "BOT_TOKEN is not set.\n"
                "Create a bot with @BotFather in Telegram (/newbot), then either\n"
                "  export BOT_TOKEN=123456:ABC...   and run again, or\n"
                "  cp .env.example .env            and put the token into .env.\n"
                "See README.md, section \"Running it\".",
                file=sys.stderr,
            )
        else:
            print(f"Invalid settings: {e}", file=sys.stderr)
        sys.exit(2)


def load_database_settings() -> DatabaseSettings:
    """Read where the data lives; on a malformed value print it and exit with status 2."""
    try:
        return DatabaseSettings()
    except ValidationError as e:
        print(f"Invalid settings: {e}", file=sys.stderr)
        sys.exit(2)
