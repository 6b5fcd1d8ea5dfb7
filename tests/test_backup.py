"""Backups of a running bot's database and their restore (issue 33, "Backups";
``storage.backup``, ``python bot.py backup|restore``): on SQLite and on PostgreSQL
(``store_url``; the PostgreSQL cases need a server and its ``pg_dump``/``pg_restore``, found as
:mod:`tests.pgkit` finds them).  The end-to-end case, a real bot process, is in
``tests/test_e2e_backup.py``."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path

import pytest

from service.game import GameService
from service.views import Status
from storage.backup import BackupError, backup, in_use, restore
from tests import pgkit
from tests.servicekit import FakeClock, engine_state, play_random, start_match


def _postgres(url) -> bool:
    return str(url).startswith("postgresql")


@pytest.fixture
def bindir(store_url) -> Path | None:
    """Where ``pg_dump`` and ``pg_restore`` are, for a PostgreSQL ``store_url``."""
    if not _postgres(store_url):
        return None
    found = pgkit.find_bindir()
    if found is None or not (found / "pg_dump").exists() or not (found / "pg_restore").exists():
        pytest.skip("no pg_dump/pg_restore")
    return found


@pytest.fixture
def elsewhere(store_url, tmp_path, request):
    """Another, empty database of the same kind to restore into."""
    if not _postgres(store_url):
        yield tmp_path / "restored" / "kozel.sqlite3"
        return
    server = request.getfixturevalue("pg_server")
    name = server.create_database()
    yield server.url(name)
    server.drop_database(name)


async def test_a_backup_taken_while_matches_are_played_restores_into_matches_that_finish(
        store_url, bindir, elsewhere, tmp_path):
    """Three matches go on being played while the backup is taken (on a thread, as the
    command would run beside the bot); the backup is one moment of them: every match's
    stored version is its action log's length, each at least where it was when the backup
    began.  Restored into another database, a service on it finishes every match by the
    rules (the engine replays each log).  The database in use is refused as a restore's
    target unless forced."""
    svc = await GameService.open(store_url, clock=FakeClock())
    rng = random.Random(3)
    path = tmp_path / "kozel.backup"
    try:
        games = [await start_match(svc, -100 - i, 3, first_user=10 * i + 1) for i in range(3)]
        games = [(await play_random(svc, g, rng, max_actions=4))[0] for g in games]
        begun = {g.match_id: g.version for g in games}
        done = threading.Event()

        async def keep_playing() -> int:
            moves = 0
            while not done.is_set():
                for k, g in enumerate(games):
                    games[k], n = await play_random(svc, g, rng, max_actions=1)
                    moves += n
                await asyncio.sleep(0)
            return moves

        player = asyncio.create_task(keep_playing())
        try:
            report = await asyncio.to_thread(backup, store_url, path, bindir=bindir)
        finally:
            done.set()
        assert await player > 0  # matches moved on while the backup was being taken
        assert report.action == "backup" and report.size == path.stat().st_size > 0
        assert report.matches.get("playing", 0) + report.matches.get("finished", 0) == 3
        assert in_use(store_url)
        with pytest.raises(BackupError, match="--force"):
            restore(path, store_url, bindir=bindir)
    finally:
        await svc.close()
    assert restore(path, elsewhere, bindir=bindir).action == "restore"
    again = await GameService.open(elsewhere, clock=FakeClock())
    try:
        for mid, version in begun.items():
            res = await again.store.view(mid)
            assert res.version >= version
            assert await engine_state(again, mid) is not None  # the log replays
            if res.status == Status.PLAYING:
                res, _ = await play_random(again, res, rng)
            assert res.status == Status.FINISHED, res.status
    finally:
        await again.close()


def test_a_sqlite_backup_is_one_commit_while_a_writer_goes_on(tmp_path):
    """Each backup taken while another connection commits without pause holds one commit
    exactly: the two rows every transaction writes always agree, and nothing sits beside
    the backup file (no ``-wal``)."""
    db = tmp_path / "busy.sqlite3"
    writer = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE moves (n INTEGER)")
    writer.execute("CREATE TABLE total (n INTEGER)")
    writer.execute("INSERT INTO total VALUES (0)")
    stop = threading.Event()
    committed = threading.Condition()
    commits = [0]

    def write() -> None:
        i = 0
        while not stop.is_set():
            i += 1
            writer.execute("BEGIN IMMEDIATE")
            writer.execute("INSERT INTO moves VALUES (?)", (i,))
            writer.execute("UPDATE total SET n = n + 1")
            writer.execute("COMMIT")
            with committed:
                commits[0] = i
                committed.notify_all()

    def after(n: int) -> None:
        """Wait until the writer committed more than ``n`` (a busy machine may not have run
        it yet)."""
        with committed:
            assert committed.wait_for(lambda: commits[0] > n, timeout=60), "no commit"

    thread = threading.Thread(target=write)
    thread.start()
    seen = []
    try:
        for k in range(5):
            after(seen[-1] if seen else 0)  # each backup comes after more commits
            path = tmp_path / f"copy{k}.sqlite3"
            backup(db, path)
            copy = sqlite3.connect(path)
            rows, total = copy.execute(
                "SELECT (SELECT count(*) FROM moves), (SELECT n FROM total)").fetchone()
            assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            copy.close()
            assert rows == total
            seen.append(total)
    finally:
        stop.set()
        thread.join()
        writer.close()
    assert seen[-1] > seen[0]  # the writer went on between the backups
    assert not list(tmp_path.glob("copy*-wal")) and not list(tmp_path.glob(".copy*"))


async def test_a_restore_says_what_it_replaced_and_refuses_what_is_no_backup(tmp_path):
    """Restoring over a database nobody uses replaces it and says so; a forced restore over
    one in use says to restart the bot; a file that is not a SQLite database, or a SQLite
    file that is not the bot's, is refused and the database left as it was."""
    target = tmp_path / "kozel.sqlite3"
    svc = await GameService.open(target, clock=FakeClock())
    await start_match(svc, -100, 2)
    await svc.close()
    backup(target, tmp_path / "one.sqlite3")
    svc = await GameService.open(target, clock=FakeClock())
    await start_match(svc, -200, 2)
    try:
        forced = restore(tmp_path / "one.sqlite3", target, force=True)
        assert "restart the bot" in str(forced)
    finally:
        await svc.close()
    assert in_use(target) == []
    report = restore(tmp_path / "one.sqlite3", target)
    assert "replaced the database that was there" in str(report)
    assert report.matches == {"playing": 1}
    (tmp_path / "text.sqlite3").write_text("not a database")
    with pytest.raises(BackupError, match="not a SQLite backup"):
        restore(tmp_path / "text.sqlite3", target)
    other = sqlite3.connect(tmp_path / "other.sqlite3")
    other.execute("CREATE TABLE t (x)")
    other.close()
    with pytest.raises(BackupError, match="no schema revision"):
        restore(tmp_path / "other.sqlite3", target)
    assert restore(tmp_path / "one.sqlite3", target).matches == {"playing": 1}
    with pytest.raises(BackupError, match="no backup file"):
        restore(tmp_path / "missing.sqlite3", target)
    with pytest.raises(BackupError, match="no SQLite database"):
        backup(tmp_path / "missing.sqlite3", tmp_path / "b.sqlite3")
    with pytest.raises(BackupError, match="no directory"):
        backup(target, tmp_path / "nowhere" / "b.sqlite3")


def test_without_pg_dump_the_message_says_what_to_install(tmp_path):
    """PostgreSQL's client programs missing (here: an empty directory named as theirs): the
    command says which program and what to install, before it touches the database."""
    url = "postgresql://kozel@127.0.0.1:1/kozel"
    with pytest.raises(BackupError, match=r"pg_dump not found .*postgresql-client"):
        backup(url, tmp_path / "kozel.dump", bindir=tmp_path)
    with pytest.raises(BackupError, match="not a pg_dump backup"):
        restore(_text(tmp_path / "text"), url, bindir=tmp_path)
    dump = tmp_path / "kozel.dump"
    dump.write_bytes(b"PGDMP" + b"\0" * 64)
    with pytest.raises(BackupError, match=r"pg_restore not found .*postgresql-client"):
        restore(dump, url, bindir=tmp_path)


def _text(path: Path) -> Path:
    path.write_text("not a dump")
    return path


def test_the_commands_of_bot_py(tmp_path, monkeypatch, capsys):
    """``python bot.py backup PATH`` and ``restore PATH``: from the database settings alone
    (no token needed), what was done on standard output and exit status 0; why not on
    standard error and exit status 1."""
    import bot

    monkeypatch.delenv("BOT_TOKEN", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env of the repository
    db = tmp_path / "kozel.sqlite3"
    asyncio.run(_one_lobby(db))
    monkeypatch.setenv("DATABASE_PATH", str(db))
    with pytest.raises(SystemExit) as exit_:
        bot.main(["backup", str(tmp_path / "b.sqlite3")])
    assert exit_.value.code == 0 and "matches: 1 lobby" in capsys.readouterr().out
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "new" / "kozel.sqlite3"))
    with pytest.raises(SystemExit) as exit_:
        bot.main(["restore", str(tmp_path / "b.sqlite3")])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and out.startswith("restored ") and "1 lobby" in out
    with pytest.raises(SystemExit) as exit_:
        bot.main(["restore", str(tmp_path / "nothing.sqlite3")])
    assert exit_.value.code == 1
    assert capsys.readouterr().err.startswith("restore: no backup file")


async def _one_lobby(path: Path) -> None:
    svc = await GameService.open(path, clock=FakeClock())
    await svc.lobbies.open_lobby(-100, None, 1, "P1")
    await svc.close()
