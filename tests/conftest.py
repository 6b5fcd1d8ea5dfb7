"""Fixtures shared by the storage and service suites: the database each test runs on.

``store_url`` is parametrised: ``sqlite`` (a file in the test's directory) and
``postgresql`` (a fresh database, already migrated, on one PostgreSQL server per test
session: :mod:`tests.pgkit`).  Without a PostgreSQL server (none named by
``KOZEL_TEST_POSTGRES``, no server binaries to start one) the ``postgresql`` cases are
skipped with the reason; with ``KOZEL_REQUIRE_POSTGRES=1`` (``.ci/run`` sets it) they fail
instead.  docs/POSTGRESQL.md says how to run them.
"""

from __future__ import annotations

import os

import pytest

from tests import pgkit

#: The engines of ``store_url``.
ENGINES = ("sqlite", "postgresql")

# The tests never reach the operator's database: a DATABASE_URL exported for running the bot
# would otherwise win over the files the harnesses and the bot processes they start are given.
os.environ.pop("DATABASE_URL", None)


@pytest.fixture(scope="session")
def pg_server():
    """The PostgreSQL server of this test session (:func:`tests.pgkit.find_server`)."""
    try:
        server = pgkit.find_server()
    except pgkit.NoServer as exc:
        if os.environ.get(pgkit.REQUIRE_ENV):
            pytest.fail(f"{pgkit.REQUIRE_ENV} is set but there is no PostgreSQL: {exc}",
                        pytrace=False)
        pytest.skip(f"no PostgreSQL server: {exc}")
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """A SQLAlchemy URL of a new, empty PostgreSQL database (dropped afterwards)."""
    name = pg_server.create_database()
    yield pg_server.url(name)
    pg_server.drop_database(name)


@pytest.fixture(params=ENGINES)
def store_url(request, tmp_path):
    """Where a test's database lives: a SQLite file path, or the URL of a new PostgreSQL
    database at the newest revision (dropped afterwards)."""
    if request.param == "sqlite":
        yield tmp_path / "kozel.sqlite3"
        return
    server = request.getfixturevalue("pg_server")
    name = server.create_database(template=server.head_template())
    yield server.url(name)
    server.drop_database(name)
