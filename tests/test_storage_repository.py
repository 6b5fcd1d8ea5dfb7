"""Repository queries on a real SQLite file and a real PostgreSQL database (``store_url``):
optimistic version check, the append-only log, results and the leaderboard aggregate
(RULES.md §1.16), chat migration, deadlines."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy.exc import IntegrityError

from storage import GLOBAL_SCOPE, Database, open_database
from storage import repository as repo
from tests import storagekit as kit


@pytest.fixture
async def db(store_url):
    database = await open_database(store_url)
    yield database
    await database.dispose()


def _lobby(conn, chat_id=-100, thread_id=None, deadline_at=None, seats=((1, "A"),)):
    repo.upsert_chat(conn, chat_id, now=1.0)
    return repo.insert_match(
        conn, chat_id=chat_id, thread_id=thread_id, creator_id=seats[0][0], rules={},
        seats=kit.seat_list(seats), now=1.0, deadline_at=deadline_at,
    )


async def test_optimistic_update_applies_once_per_version(db):
    mid = await db.write(_lobby)
    assert await db.write(lambda c: repo.update_match(c, mid, 0, now=2.0, status="playing"))
    assert not await db.write(lambda c: repo.update_match(c, mid, 0, now=3.0, status="stopped"))
    m = await db.read(repo.get_match, mid)
    assert (m.version, m.status, m.updated_at) == (1, "playing", 2.0)


def async_url(store_url) -> str:
    """The same database through the engine's async driver (aiosqlite, psycopg's async
    connection)."""
    if isinstance(store_url, str):
        return store_url.replace("postgresql+psycopg://", "postgresql+psycopg_async://")
    return f"sqlite+aiosqlite:///{store_url}"


@pytest.mark.parametrize("second_url", ["same", "async"])
async def test_two_databases_on_one_store_cannot_both_apply_one_version(store_url, second_url):
    """Two handles = two processes' connections; the SQL version check decides. The second
    handle also exercises the async-driver path (AsyncConnection.run_sync)."""
    a = await open_database(store_url)
    b = Database(store_url if second_url == "same" else async_url(store_url))
    try:
        mid = await a.write(_lobby)

        def bump(conn, seq):
            if not repo.update_match(conn, mid, 0, now=2.0):
                return False
            repo.append_action(conn, mid, seq, seat=0, decision={"host": True}, at=2.0)
            return True

        for _ in range(3):  # several rounds of racing
            wins = await asyncio.gather(a.write(bump, 1), b.write(bump, 1))
            assert sorted(wins) == [False, True]
            assert len(await b.read(repo.list_actions, mid)) == 1
            assert (await a.read(repo.get_match, mid)).version == 1

            def reset(conn):
                conn.exec_driver_sql("DELETE FROM actions")
                conn.exec_driver_sql("UPDATE matches SET version = 0")

            await a.write(reset)
    finally:
        await a.dispose()
        await b.dispose()


async def test_a_failing_transaction_leaves_nothing_behind(db):
    mid = await db.write(_lobby)

    def half(conn):
        assert repo.update_match(conn, mid, 0, now=2.0, status="playing")
        repo.append_action(conn, mid, 1, seat=0, decision={"host": True}, at=2.0)
        raise RuntimeError("crash between statements")

    with pytest.raises(RuntimeError):
        await db.write(half)
    m = await db.read(repo.get_match, mid)
    assert (m.version, m.status) == (0, "lobby")
    assert await db.read(repo.list_actions, mid) == []


async def test_action_log_is_ordered_and_rejects_a_duplicate_seq(db):
    mid = await db.write(_lobby)

    def fill(conn):
        for seq, tile in ((2, "1-2"), (1, "1-1"), (3, "2-6")):
            repo.append_action(conn, mid, seq, seat=seq % 2,
                               decision={"tile": tile, "end": "left"}, at=float(seq))

    await db.write(fill)
    with pytest.raises(IntegrityError):
        await db.write(lambda c: repo.append_action(c, mid, 2, seat=0,
                                                    decision={"host": True}, at=9.0))
    log = await db.read(repo.list_actions, mid)
    assert [(a.seq, a.decision.get("tile")) for a in log] == [(1, "1-1"), (2, "1-2"),
                                                               (3, "2-6")]


async def test_one_open_match_per_chat_topic(db):
    def body(conn):
        mid = _lobby(conn, thread_id=5)
        _lobby(conn, thread_id=6)  # another forum topic is fine
        with pytest.raises(repo.ActiveMatchExists):
            _lobby(conn, thread_id=5)
        assert repo.find_open_match(conn, -100, 5).id == mid
        assert repo.update_match(conn, mid, 0, now=2.0, status="expired")
        assert repo.find_open_match(conn, -100, 5) is None
        assert _lobby(conn, thread_id=5) != mid  # the topic is free again

    await db.write(body)


async def test_due_matches_and_next_deadline(db):
    def body(conn):
        early = _lobby(conn, thread_id=1, deadline_at=10.0)
        late = _lobby(conn, thread_id=2, deadline_at=20.0)
        closed = _lobby(conn, thread_id=3, deadline_at=5.0)
        repo.update_match(conn, closed, 0, now=2.0, status="stopped")
        assert repo.next_deadline(conn) == 10.0
        assert [m.id for m in repo.due_matches(conn, 9.9)] == []
        assert [m.id for m in repo.due_matches(conn, 10.0)] == [early]
        assert [m.id for m in repo.due_matches(conn, 99.0)] == [early, late]

    await db.write(body)


def _random_results(rng, match_id, chat_id, users, *, variant="classic", at=5.0):
    goat_seat = rng.randrange(len(users))
    scores = [rng.randint(101, 140) if seat == goat_seat else rng.randint(0, 100)
              for seat in range(len(users))]
    order = sorted(range(len(users)), key=lambda seat: (seat == goat_seat, scores[seat]))
    rows = []
    for seat, user in enumerate(users):
        goat = seat == goat_seat
        score = scores[seat]
        rows.append(repo.ResultRow(
            match_id=match_id, seat=seat, user_id=user, name=f"u{user}", chat_id=chat_id,
            final_score=score, goat=goat, rating=0 if goat else max(1, (100 - score) // 10),
            outs=rng.randint(0, 5), fish=rng.randint(0, 2), timed_out=False, ended_by="limit",
            finished_at=at, bot="easy" if user < 0 else None, variant=variant, side=seat,
            place=order.index(seat) + 1,
        ))
    return rows


async def test_stats_equal_recomputation_through_chat_migration(db):
    rng = random.Random(7)
    chats = [-100, -200, -300]

    def body(conn):
        for u in range(1, 7):
            repo.upsert_user(conn, u, now=1.0, first_name=f"P{u}")
        for k in range(30):
            chat = rng.choice(chats)
            users = rng.sample([*range(1, 7), -1], rng.randint(2, 4))
            mid = _lobby(conn, chat_id=chat, thread_id=rng.randint(0, 10**9))
            repo.update_match(conn, mid, 0, now=2.0, status="finished")
            repo.record_results(conn, _random_results(
                rng, mid, chat, users, variant=rng.choice(["classic", "sea_goat"]),
                at=5.0 + k))
        assert kit.all_stats(conn) == kit.recompute_stats(conn)
        before_global = {k: v for k, v in kit.all_stats(conn).items() if k[0] == GLOBAL_SCOPE}
        # Group -200 becomes supergroup -100200; -300 migrates into an existing chat id.
        moved = repo.move_chat(conn, -200, -100200, now=3.0)
        assert moved
        repo.move_chat(conn, -300, -100, now=3.0)
        assert repo.move_chat(conn, -200, -100200, now=4.0) == []  # idempotent
        stats = kit.all_stats(conn)
        again = kit.recompute_stats(conn)
        counts = ("matches", "goats", "rating", "outs", "fish", "score_sum", "wins")
        assert {k: [v[f] for f in counts] for k, v in stats.items()} == {
            k: [v[f] for f in counts] for k, v in again.items()}
        # two chats' histories merged into -100: its skill ratings are those of one of them;
        # a chat moved to a new id keeps exactly the ratings of its history
        assert {k: v for k, v in stats.items() if k[0] != -100} == {
            k: v for k, v in again.items() if k[0] != -100}
        assert {k[0] for k in stats} == {GLOBAL_SCOPE, -100, -100200}
        assert {k: v for k, v in stats.items() if k[0] == GLOBAL_SCOPE} == before_global
        assert repo.get_chat(conn, -200) is None
        assert {repo.get_match(conn, i).chat_id for i in moved} == {-100200}

        board = repo.leaderboard(conn, GLOBAL_SCOPE, "classic", limit=100)
        keys = [(-r.skill, -r.rating, r.goats, -r.matches, r.user_id) for r in board]
        assert keys == sorted(keys) and 2 <= len(board) <= 6
        assert board[0].name == f"P{board[0].user_id}"
        assert repo.player_stats(conn, board[0].user_id, GLOBAL_SCOPE, "classic") == board[0]
        assert repo.player_stats(conn, 999) is None
        for place, row in enumerate(board, start=1):
            assert repo.board_place(conn, row.user_id, GLOBAL_SCOPE, "classic", False) == (
                place, len(board))
        assert repo.board_place(conn, 999, GLOBAL_SCOPE, "classic", False) is None

    await db.write(body)


async def test_move_chat_moves_open_lobby_and_frees_old_key(db):
    def body(conn):
        repo.upsert_chat(conn, -5, now=1.0, settings={"rules": {"teams": True}}, language="uk")
        mid = _lobby(conn, chat_id=-5, thread_id=None)
        repo.move_chat(conn, -5, -1005, now=2.0)
        assert repo.find_open_match(conn, -1005, None).id == mid
        assert repo.find_open_match(conn, -5, None) is None
        new = repo.get_chat(conn, -1005)
        assert (new.settings, new.language) == ({"rules": {"teams": True}}, "uk")

    await db.write(body)


async def test_messages_are_stored_without_a_version_bump(db):
    mid = await db.write(_lobby)
    assert await db.write(lambda c: repo.set_messages(c, mid, {"table": 42, "hands": {"1": 7}},
                                                      now=2.0))
    m = await db.read(repo.get_match, mid)
    assert (m.messages, m.version) == ({"table": 42, "hands": {"1": 7}}, 0)


async def test_upserts_keep_unspecified_fields(db):
    def body(conn):
        repo.upsert_user(conn, 1, now=1.0, first_name="Маша", username="masha")
        repo.upsert_user(conn, 1, now=2.0, dm_open=True)
        u = repo.get_user(conn, 1)
        assert (u.first_name, u.username, u.dm_open, u.display_name) == (
            "Маша", "masha", True, "Маша")
        repo.upsert_chat(conn, -1, now=1.0, title="t", language="ru")
        c = repo.upsert_chat(conn, -1, now=2.0, topic_id=9)
        assert (c.title, c.language, c.topic_id, c.active) == ("t", "ru", 9, True)

    await db.write(body)


async def test_group_commit_keeps_each_write_atomic_and_isolates_a_failure(db):
    """Concurrent writes (sharing commits on SQLite); one that raises loses only its own
    rows."""
    from sqlalchemy import event

    mid = await db.write(_lobby)
    commits = []
    event.listen(db.engine, "commit", lambda conn: commits.append(1))

    def append(conn, seq):
        repo.append_action(conn, mid, seq, seat=0, decision={"host": True}, at=float(seq))
        if seq % 7 == 0:
            raise ValueError(seq)  # after writing: its row must not survive
        return seq

    outcomes = await asyncio.gather(*(db.write(append, s) for s in range(1, 61)),
                                    return_exceptions=True)
    for seq, out in enumerate(outcomes, start=1):
        if seq % 7 == 0:
            assert isinstance(out, ValueError)
        else:
            assert out == seq
    log = await db.read(repo.list_actions, mid)
    assert [a.seq for a in log] == [s for s in range(1, 61) if s % 7]
    # Without failures the 60 writes would need far fewer than 60 commits; with them, the
    # failed batches are redone one by one -- still every write got exactly one outcome.
    assert len(commits) >= 1

    if db.is_sqlite:  # PostgreSQL: a commit per write, run side by side
        commits.clear()
        await asyncio.gather(*(db.write(append, s) for s in range(101, 141) if s % 7))
        assert 1 <= len(commits) < 20


async def test_open_matches_of_a_user_are_found_in_their_seats(db):
    first = await db.write(lambda c: _lobby(c, -100, seats=((1, "A"), (12, "B"))))
    second = await db.write(lambda c: _lobby(c, -200, seats=((12, "B"),)))
    closed = await db.write(lambda c: _lobby(c, -300, seats=((1, "A"),)))
    await db.write(lambda c: repo.update_match(c, closed, 0, now=2.0, status="stopped"))
    assert [m.id for m in await db.read(repo.list_open_matches_of, 1)] == [first]
    assert [m.id for m in await db.read(repo.list_open_matches_of, 12)] == [first, second]
    assert await db.read(repo.list_open_matches_of, 2) == []  # not a prefix match of 12
