"""Repository queries on a real SQLite file: optimistic version check, the append-only log,
results and the leaderboard aggregate (RULES.md §1.16), chat migration, deadlines."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy.exc import IntegrityError

from storage import GLOBAL_SCOPE, Database, open_database
from storage import repository as repo


@pytest.fixture
async def db(tmp_path):
    database = await open_database(tmp_path / "kozel.sqlite3")
    yield database
    await database.dispose()


async def _lobby(conn, chat_id=-100, thread_id=None, deadline_at=None, seats=((1, "A"),)):
    await repo.upsert_chat(conn, chat_id, now=1.0)
    return await repo.insert_match(
        conn, chat_id=chat_id, thread_id=thread_id, creator_id=seats[0][0], rules={},
        seats=repo.seat_list(seats), now=1.0, deadline_at=deadline_at,
    )


async def test_optimistic_update_applies_once_per_version(db):
    async with db.write() as conn:
        mid = await _lobby(conn)
    async with db.write() as conn:
        assert await repo.update_match(conn, mid, 0, now=2.0, status="playing")
    async with db.write() as conn:
        assert not await repo.update_match(conn, mid, 0, now=3.0, status="stopped")
    async with db.read() as conn:
        m = await repo.get_match(conn, mid)
    assert (m.version, m.status, m.updated_at) == (1, "playing", 2.0)


async def test_two_databases_on_one_file_cannot_both_apply_one_version(tmp_path):
    """Two handles = two processes' connection pools; the SQL version check decides."""
    path = tmp_path / "shared.sqlite3"
    a = await open_database(path)
    b = Database(path)
    try:
        async with a.write() as conn:
            mid = await _lobby(conn)

        async def bump(db, seq):
            async with db.write() as conn:
                if not await repo.update_match(conn, mid, 0, now=2.0):
                    return False
                await repo.append_action(conn, mid, seq, seat=0, decision={"host": True},
                                         at=2.0)
                return True

        wins = await asyncio.gather(bump(a, 1), bump(b, 1))
        assert sorted(wins) == [False, True]
        async with b.read() as conn:
            assert len(await repo.list_actions(conn, mid)) == 1
            assert (await repo.get_match(conn, mid)).version == 1
    finally:
        await a.dispose()
        await b.dispose()


async def test_action_log_is_ordered_and_rejects_a_duplicate_seq(db):
    async with db.write() as conn:
        mid = await _lobby(conn)
        for seq, tile in ((2, "1-2"), (1, "1-1"), (3, "2-6")):
            await repo.append_action(conn, mid, seq, seat=seq % 2,
                                     decision={"tile": tile, "end": "left"}, at=float(seq))
    with pytest.raises(IntegrityError):
        async with db.write() as conn:
            await repo.append_action(conn, mid, 2, seat=0, decision={"host": True}, at=9.0)
    async with db.read() as conn:
        log = await repo.list_actions(conn, mid)
    assert [(a.seq, a.decision.get("tile")) for a in log] == [(1, "1-1"), (2, "1-2"),
                                                               (3, "2-6")]


async def test_one_open_match_per_chat_topic(db):
    async with db.write() as conn:
        mid = await _lobby(conn, thread_id=5)
        await _lobby(conn, thread_id=6)  # another forum topic is fine
        with pytest.raises(repo.ActiveMatchExists):
            await _lobby(conn, thread_id=5)
        assert (await repo.find_open_match(conn, -100, 5)).id == mid
        assert await repo.update_match(conn, mid, 0, now=2.0, status="expired")
        assert await repo.find_open_match(conn, -100, 5) is None
        assert await _lobby(conn, thread_id=5) != mid  # the topic is free again


async def test_due_matches_and_next_deadline(db):
    async with db.write() as conn:
        early = await _lobby(conn, thread_id=1, deadline_at=10.0)
        late = await _lobby(conn, thread_id=2, deadline_at=20.0)
        closed = await _lobby(conn, thread_id=3, deadline_at=5.0)
        await repo.update_match(conn, closed, 0, now=2.0, status="stopped")
        assert await repo.next_deadline(conn) == 10.0
        assert [m.id for m in await repo.due_matches(conn, 9.9)] == []
        assert [m.id for m in await repo.due_matches(conn, 10.0)] == [early]
        assert [m.id for m in await repo.due_matches(conn, 99.0)] == [early, late]


def _random_results(rng, match_id, chat_id, users):
    goat_seat = rng.randrange(len(users))
    rows = []
    for seat, user in enumerate(users):
        goat = seat == goat_seat
        score = rng.randint(101, 140) if goat else rng.randint(0, 100)
        rows.append(repo.ResultRow(
            match_id=match_id, seat=seat, user_id=user, name=f"u{user}", chat_id=chat_id,
            final_score=score, goat=goat, rating=0 if goat else max(1, (100 - score) // 10),
            outs=rng.randint(0, 5), fish=rng.randint(0, 2), timed_out=False, ended_by="limit",
            finished_at=5.0,
        ))
    return rows


async def test_stats_equal_recomputation_through_chat_migration(db):
    rng = random.Random(7)
    chats = [-100, -200, -300]
    async with db.write() as conn:
        for u in range(1, 7):
            await repo.upsert_user(conn, u, now=1.0, first_name=f"P{u}")
        for _ in range(30):
            chat = rng.choice(chats)
            users = rng.sample(range(1, 7), rng.randint(2, 4))
            mid = await _lobby(conn, chat_id=chat, thread_id=rng.randint(0, 10**9))
            await repo.update_match(conn, mid, 0, now=2.0, status="finished")
            await repo.record_results(conn, _random_results(rng, mid, chat, users))
        assert await repo.all_stats(conn) == await repo.recompute_stats(conn)
        before_global = {k: v for k, v in (await repo.all_stats(conn)).items()
                         if k[0] == GLOBAL_SCOPE}
        # Group -200 becomes supergroup -100200; -300 migrates into an existing chat id.
        moved = await repo.move_chat(conn, -200, -100200, now=3.0)
        assert moved
        await repo.move_chat(conn, -300, -100, now=3.0)
        assert await repo.move_chat(conn, -200, -100200, now=4.0) == []  # idempotent
        stats = await repo.all_stats(conn)
        assert stats == await repo.recompute_stats(conn)
        assert {k[0] for k in stats} == {GLOBAL_SCOPE, -100, -100200}
        assert {k: v for k, v in stats.items() if k[0] == GLOBAL_SCOPE} == before_global
        assert await repo.get_chat(conn, -200) is None
        assert {m.chat_id for m in [await repo.get_match(conn, i) for i in moved]} == {-100200}

        board = await repo.leaderboard(conn, GLOBAL_SCOPE, limit=100)
        keys = [(-r.rating, r.goats, r.matches, r.user_id) for r in board]
        assert keys == sorted(keys) and len(board) == 6
        assert board[0].name == f"P{board[0].user_id}"
        top = await repo.player_stats(conn, board[0].user_id)
        assert top == board[0]
        assert await repo.player_stats(conn, 999) is None


async def test_move_chat_moves_open_lobby_and_frees_old_key(db):
    async with db.write() as conn:
        await repo.upsert_chat(conn, -5, now=1.0, settings={"rules": {"teams": True}},
                               language="uk")
        mid = await _lobby(conn, chat_id=-5, thread_id=None)
        await repo.move_chat(conn, -5, -1005, now=2.0)
        assert (await repo.find_open_match(conn, -1005, None)).id == mid
        assert await repo.find_open_match(conn, -5, None) is None
        new = await repo.get_chat(conn, -1005)
        assert (new.settings, new.language) == ({"rules": {"teams": True}}, "uk")


async def test_messages_are_stored_without_a_version_bump(db):
    async with db.write() as conn:
        mid = await _lobby(conn)
        assert await repo.set_messages(conn, mid, {"table": 42, "hands": {"1": 7}}, now=2.0)
        m = await repo.get_match(conn, mid)
    assert (m.messages, m.version) == ({"table": 42, "hands": {"1": 7}}, 0)


async def test_upserts_keep_unspecified_fields(db):
    async with db.write() as conn:
        await repo.upsert_user(conn, 1, now=1.0, first_name="Маша", username="masha")
        await repo.upsert_user(conn, 1, now=2.0, dm_open=True)
        u = await repo.get_user(conn, 1)
        assert (u.first_name, u.username, u.dm_open, u.display_name) == (
            "Маша", "masha", True, "Маша")
        await repo.upsert_chat(conn, -1, now=1.0, title="t", language="ru")
        c = await repo.upsert_chat(conn, -1, now=2.0, topic_id=9)
        assert (c.title, c.language, c.topic_id, c.active) == ("t", "ru", 9, True)
