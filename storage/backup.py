"""Backups of the bot's database, taken while it runs, and their restore (issue 33;
docs/OPERATIONS.md, "Backups").

    report = backup("data/kozel.sqlite3", Path("kozel-2026-12-06.sqlite3"))
    report = restore(Path("kozel-2026-12-06.sqlite3"), "data/kozel.sqlite3")
    print(report)                          # what was done, in one paragraph

- **SQLite**: sqlite3's online backup API (:meth:`sqlite3.Connection.backup`) copies every
  page in one step, inside one read transaction: the copy is the database as of one commit,
  taken beside a running bot, whose writer goes on meanwhile (WAL).  A plain copy of the
  file is not that: the last commits live in the ``-wal`` file beside it until a checkpoint
  moves them in, and a checkpoint may rewrite the main file while it is being read, so a
  copy of the two taken at different instants can match no state the database ever had.
  The backup is one self-contained file (rollback journal mode, no ``-wal``), checked with
  ``PRAGMA quick_check``, written under a temporary name and renamed into place.  A restore
  copies it back through the same API into the bot's file (in WAL mode again), so a
  ``-wal`` left beside that file by a killed bot can never be replayed over it.
- **PostgreSQL**: ``pg_dump --format=custom`` in the snapshot of a read-only REPEATABLE READ
  transaction of ours (``--snapshot``), in which the report's counts are read too; restored
  with ``pg_restore --clean --if-exists --single-transaction`` (all of it or nothing).  The
  programs are PostgreSQL's client tools (``postgresql-client``), of the server's major
  version or newer; the password goes to them in ``PGPASSWORD``, never on a command line.

A restore refuses to overwrite a database in use — a SQLite file another process holds open
(a running bot keeps its connections open; SQLite's exclusive lock cannot be taken), a
PostgreSQL database with other sessions — unless ``force`` is given.  Errors are
:class:`BackupError`, whose message says what to do.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from storage.database import database_url

__all__ = ["BackupError", "Report", "backup", "in_use", "restore"]

#: The first bytes of a SQLite database file and of a ``pg_dump`` custom-format archive.
_SQLITE_MAGIC = b"SQLite format 3\x00"
_PGDUMP_MAGIC = b"PGDMP"
#: Milliseconds our SQLite connections wait for the bot's write lock.
_BUSY_MS = 30_000


class BackupError(Exception):
    """A backup or restore that could not be done; the message says why and what to do."""


@dataclass(frozen=True)
class Report:
    """What a backup or restore did: ``action`` (``backup``/``restore``), ``engine``
    (``sqlite``/``postgresql``), ``source`` and ``target`` (a path, or a URL without its
    password), ``size`` of the backup file [bytes], ``revision`` (the schema's Alembic
    revision), ``matches`` (matches by status), ``seconds`` it took (wall time), and
    ``notes`` (what the operator should know: a replaced database, a bot to restart)."""

    action: str
    engine: str
    source: str
    target: str
    size: int
    revision: str | None
    matches: dict[str, int]
    seconds: float
    notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        counts = ", ".join(f"{n} {status}" for status, n in sorted(self.matches.items()))
        if self.action == "backup":
            done = f"backed up the {self.engine} database {self.source} to {self.target}"
        else:
            done = f"restored {self.source} into the {self.engine} database {self.target}"
        lines = [f"{done} ({self.size:,} bytes, schema {self.revision or 'unknown'}, "
                 f"matches: {counts or 'none'}) in {self.seconds:.1f} s"]
        return "\n".join([*lines, *self.notes])


def backup(database: str | Path, path: str | Path, *, bindir: Path | None = None) -> Report:
    """A consistent backup of ``database`` (``DATABASE_URL`` or ``DATABASE_PATH``: a SQLite
    file path or URL, or a PostgreSQL URL) in the file ``path`` (replaced if it exists; its
    directory must exist), taken while a bot may be using the database.  ``bindir``: where
    ``pg_dump`` is (default: ``PATH``).  Raises :class:`BackupError`: no such database, the
    path not writable, ``pg_dump`` missing or failing."""
    url = make_url(database_url(database))
    target = Path(path)
    if not target.parent.is_dir():
        raise BackupError(f"no directory {target.parent} to write the backup in")
    started = time.monotonic()
    if url.get_backend_name() == "sqlite":
        revision, matches = _sqlite_backup(_sqlite_file(url), target)
        source = str(_sqlite_file(url))
        engine = "sqlite"
    else:
        revision, matches = _pg_dump(url, target, bindir)
        source = _shown(url)
        engine = "postgresql"
    return Report("backup", engine, source, str(target), target.stat().st_size, revision,
                  matches, time.monotonic() - started)


def restore(path: str | Path, database: str | Path, *, force: bool = False,
            bindir: Path | None = None) -> Report:
    """Replace the contents of ``database`` (as :func:`backup` takes it; a SQLite file is
    created if missing) with the backup file ``path``, made by :func:`backup` for the same
    kind of database.  Refuses a database in use (:func:`in_use`) unless ``force``; after a
    forced restore the bot using it must be restarted (its caches hold the old state).  The
    bot migrates a restored older schema at its next start.  ``bindir``: where
    ``pg_restore`` is.  Raises :class:`BackupError`: the file missing or not such a backup,
    the database in use, ``pg_restore`` missing or failing."""
    url = make_url(database_url(database))
    source = Path(path)
    if not source.is_file():
        raise BackupError(f"no backup file {source}")
    sqlite = url.get_backend_name() == "sqlite"
    head = source.read_bytes()[:16] if source.stat().st_size else b""
    magic, kind = (_SQLITE_MAGIC, "SQLite") if sqlite else (_PGDUMP_MAGIC, "pg_dump")
    if not head.startswith(magic):
        raise BackupError(f"{source} is not a {kind} backup (the database to restore into is "
                          f"{'SQLite' if sqlite else 'PostgreSQL'}: DATABASE_URL or "
                          "DATABASE_PATH)")
    if not sqlite:
        _tool("pg_restore", bindir)  # before anything else: say what is missing first
    users = in_use(database)
    if users and not force:
        raise BackupError(f"the database is in use ({'; '.join(users)}): stop the bot (every "
                          "worker) first, or give --force and restart it afterwards")
    notes = [f"it was in use ({'; '.join(users)}): restart the bot now"] if users else []
    started = time.monotonic()
    if sqlite:
        file = _sqlite_file(url)
        if file.exists():
            try:
                before, old = _sqlite_summary(file)
                notes.insert(0, f"replaced the database that was there (schema {before}, "
                                f"matches: {sum(old.values())})")
            except sqlite3.DatabaseError as exc:
                raise BackupError(f"{file} is there and is not a SQLite database ({exc}): "
                                  "move it away first") from exc
        revision, matches = _sqlite_restore(source, file)
        target, engine = str(file), "sqlite"
    else:
        revision, matches = _pg_restore(source, url, bindir)
        target, engine = _shown(url), "postgresql"
    return Report("restore", engine, str(source), target, source.stat().st_size, revision,
                  matches, time.monotonic() - started, tuple(notes))


def in_use(database: str | Path) -> list[str]:
    """Who else uses ``database``, in words (empty when nobody does): for a SQLite file,
    whether another process holds it open — a running bot keeps its connections open, and a
    database in WAL mode then keeps a shared lock, so that SQLite's exclusive lock cannot be
    taken (a file in another journal mode is locked only during transactions); for
    PostgreSQL, the other sessions on the database (``pg_stat_activity``, by application
    name).  Raises :class:`BackupError` when PostgreSQL cannot be reached."""
    url = make_url(database_url(database))
    if url.get_backend_name() == "sqlite":
        file = _sqlite_file(url)
        return ["another process holds the SQLite file open"] if _sqlite_busy(file) else []
    rows = _pg_query(url, "SELECT coalesce(nullif(application_name, ''), 'a session'), "
                          "count(*) FROM pg_stat_activity WHERE datname = current_database() "
                          "AND pid <> pg_backend_pid() GROUP BY 1 ORDER BY 1")
    return [f"{n} × {name}" for name, n in rows]


# ---------------------------------------------------------------------- SQLite


def _sqlite_file(url) -> Path:
    """The file of a ``sqlite:///`` URL; raises :class:`BackupError` for an in-memory one."""
    if not url.database or url.database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up or restore")
    return Path(url.database)


def _connect(file: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(file, isolation_level=None, timeout=_BUSY_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout={_BUSY_MS}")
    return conn


def _summary(conn: sqlite3.Connection) -> tuple[str | None, dict[str, int]]:
    """The schema revision and the matches by status, as ``conn`` sees them."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    return _summary_of(conn, tables)


def _summary_of(conn: Any, tables: set[str]) -> tuple[str | None, dict[str, int]]:
    """The schema revision and the matches by status of a database holding ``tables``,
    read through ``conn`` (sqlite3 or psycopg: both ``execute`` and iterate alike)."""
    revision = None
    if "alembic_version" in tables:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = row[0] if row else None
    matches = {}
    if "matches" in tables:
        matches = dict(conn.execute("SELECT status, count(*) FROM matches GROUP BY status"))
    return revision, matches


def _sqlite_summary(file: Path) -> tuple[str | None, dict[str, int]]:
    conn = _connect(file)
    try:
        return _summary(conn)
    finally:
        conn.close()


def _sqlite_busy(file: Path) -> bool:
    """Whether another connection holds ``file`` open (see :func:`in_use`)."""
    if not file.exists():
        return False
    conn = sqlite3.connect(file, isolation_level=None, timeout=0)
    try:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return True
        raise BackupError(f"cannot open {file}: {exc}") from exc
    finally:
        conn.close()


def _checked(conn: sqlite3.Connection, what: str) -> None:
    try:
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{what} is not a sound SQLite database: {exc}") from exc
    if verdict != "ok":
        raise BackupError(f"{what} failed SQLite's quick_check: {verdict}")


def _sqlite_backup(file: Path, target: Path) -> tuple[str | None, dict[str, int]]:
    if not file.is_file():
        raise BackupError(f"no SQLite database at {file} (DATABASE_PATH or DATABASE_URL)")
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    part.unlink(missing_ok=True)
    src = _connect(file)
    try:
        dst = sqlite3.connect(part, isolation_level=None)
        try:
            src.backup(dst)  # every page in one step: one read transaction, one commit's state
            dst.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            _checked(dst, "the backup")
            summary = _summary(dst)
        finally:
            dst.close()
        _fsync(part)
        os.replace(part, target)
        _fsync(target.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"the backup of {file} failed: {exc}") from exc
    finally:
        src.close()
        part.unlink(missing_ok=True)
    return summary


def _sqlite_restore(source: Path, file: Path) -> tuple[str | None, dict[str, int]]:
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True,
                          isolation_level=None)
    try:
        _checked(src, str(source))
        revision, _ = _summary(src)
        if revision is None:
            raise BackupError(f"{source} holds no schema revision: not a backup of the bot")
        file.parent.mkdir(parents=True, exist_ok=True)
        dst = _connect(file)
        try:
            src.backup(dst)  # one write transaction on the bot's file: all of it or nothing
            dst.execute("PRAGMA journal_mode=WAL")  # as the bot keeps it
            _checked(dst, str(file))
            return _summary(dst)
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"the restore into {file} failed: {exc}") from exc
    finally:
        src.close()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------- PostgreSQL


def _shown(url) -> str:
    """A PostgreSQL URL without its password (for reports)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=True)


def _libpq(url) -> tuple[str, dict[str, str]]:
    """The URL for libpq's programs (no driver, no password) and their environment (the
    password in ``PGPASSWORD``)."""
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _tool(name: str, bindir: Path | None) -> str:
    """The path of PostgreSQL's client program ``name``; raises :class:`BackupError`."""
    if bindir is not None:
        found = str(bindir / name) if (bindir / name).is_file() else None
    else:
        found = shutil.which(name)
    if found is None:
        where = f"in {bindir}" if bindir else "on PATH"
        raise BackupError(
            f"{name} not found {where}: install PostgreSQL's client programs (Debian and "
            f"Ubuntu: apt-get install postgresql-client) of the server's major version or "
            f"newer, or name their directory with --pg-bindir")
    return found


def _pg_connect(url):
    import psycopg

    conninfo, _ = _libpq(url)
    try:
        return psycopg.connect(conninfo, password=url.password, connect_timeout=10)
    except psycopg.Error as exc:
        raise BackupError(f"cannot reach PostgreSQL at {_shown(url)}: {exc}") from exc


def _pg_query(url, sql: str) -> list[tuple]:
    with _pg_connect(url) as conn:
        return list(conn.execute(sql))


def _pg_summary(conn) -> tuple[str | None, dict[str, int]]:
    tables = {r[0] for r in conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = "
        "current_schema()")}
    return _summary_of(conn, tables)


def _run(args: list[str], env: dict[str, str], what: str) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    if done.returncode:
        detail = (done.stderr or done.stdout).strip()[-2000:]
        hint = (" (use the client programs of the server's major version or newer: "
                "--pg-bindir)" if "version mismatch" in detail else "")
        raise BackupError(f"{what} failed (exit {done.returncode}){hint}: {detail}")


def _pg_dump(url, target: Path, bindir: Path | None) -> tuple[str | None, dict[str, int]]:
    pg_dump = _tool("pg_dump", bindir)
    conninfo, env = _libpq(url)
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        with _pg_connect(url) as conn:
            # one snapshot for the counts below and the dump (held until the dump is done)
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            snapshot = conn.execute("SELECT pg_export_snapshot()").fetchone()[0]
            summary = _pg_summary(conn)
            _run([pg_dump, "--format=custom", "--no-password", f"--snapshot={snapshot}",
                  f"--file={part}", f"--dbname={conninfo}"], env, "pg_dump")
            conn.rollback()
        _fsync(part)
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
    return summary


def _pg_restore(source: Path, url, bindir: Path | None) -> tuple[str | None, dict[str, int]]:
    pg_restore = _tool("pg_restore", bindir)
    conninfo, env = _libpq(url)
    _run([pg_restore, "--list", str(source)], env, f"reading {source} with pg_restore")
    _run([pg_restore, "--clean", "--if-exists", "--no-owner", "--no-privileges",
          "--single-transaction", "--exit-on-error", "--no-password",
          f"--dbname={conninfo}", str(source)], env, "pg_restore")
    with _pg_connect(url) as conn:
        return _pg_summary(conn)
