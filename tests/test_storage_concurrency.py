"""Two workers on one database (issue 22): the upserts racing from two handles never fail,
one person's two matches ending at the same instant lose no rating update (the ratings equal
a serial recomputation, RULES.md §1.16 and the skill rating of storage.skill), and a match's
seats are found by the open-seats index.  Every test runs on SQLite and on PostgreSQL; two
:class:`storage.Database` handles are two workers' connection pools."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace

import pytest

from storage import Database, open_database
from storage import repository as repo
from tests import storagekit as kit


@pytest.fixture
async def two(store_url):
    """Two handles on one database, as two workers have."""
    a = await open_database(store_url)
    b = Database(store_url)
    yield a, b
    await a.dispose()
    await b.dispose()


async def test_upserts_of_the_same_new_rows_from_two_workers_never_fail(two):
    """Every new user, chat and computer player's strength is created by both workers at
    once (update-then-insert failed here on PostgreSQL's primary key); each ends up once,
    with the fields of one of the two writes and the bot sums of both."""
    a, b = two
    ids = range(1, 121)

    def user(conn, uid, name):
        repo.upsert_user(conn, uid, now=1.0, first_name=name, language="uk")
        return repo.upsert_chat(conn, -uid, now=1.0, title=name).title

    titles = await asyncio.gather(*(db.write(user, uid, f"{tag}{uid}")
                                    for uid in ids for db, tag in ((a, "a"), (b, "b"))))
    assert all(t[0] in "ab" for t in titles)
    assert await a.read(kit.count_rows, "users") == len(ids)
    assert await a.read(kit.count_rows, "chats") == len(ids)
    for uid in (1, 60, 120):
        u = await b.read(repo.get_user, uid)
        assert u.first_name in (f"a{uid}", f"b{uid}") and u.language == "uk"

    def bot_result(conn, k):
        mid = repo.insert_match(conn, chat_id=-1, thread_id=k, creator_id=1, rules={},
                                seats=kit.seat_list([(-1, "Бот"), (-2, "Бот")]), now=1.0,
                                deadline_at=None)
        rows = kit.end_rows(mid, [-1, -2], [1, 2], 2.0)
        repo.record_results(conn, [replace(r, bot=s)
                                   for r, s in zip(rows, ("easy", "hard"), strict=True)])

    await asyncio.gather(*((a, b)[k % 2].write(bot_result, k) for k in range(40)))
    stats = {s.strength: s for s in await a.read(repo.bot_stats)}
    assert {k: (v.matches, v.goats) for k, v in stats.items()} == {
        "easy": (40, 0), "hard": (40, 40)}


async def test_two_matches_of_one_person_ending_at_once_lose_no_rating_update(two):
    """40 times, person 1's two matches end at the same instant, one in each worker: the
    rating changes form one chain per board (no two start from the same rating) and every
    board equals a recomputation from the results in that order (the 1,000-pair run:
    bench/storage_bench.py --race)."""
    a, b = two
    pairs = await kit.race_match_ends(a, b, 40, seed=3)
    order = await a.read(kit.rating_chain, 1)
    assert len(order) == 80 and {frozenset(p) for p in pairs} == {
        frozenset(order[2 * k:2 * k + 2]) for k in range(40)}
    for with_bots in (False, True):
        assert await a.read(kit.rating_chain, 1, -1, "classic", with_bots) == order
    assert await a.read(kit.all_stats) == await a.read(kit.recompute_stats, order)
    mine = await a.read(repo.player_stats, 1)
    assert mine.matches == 80


async def test_the_open_seats_follow_the_seats_and_the_end_of_a_match(two):
    a, _ = two

    def body(conn):
        repo.upsert_chat(conn, -5, now=1.0)
        mid = repo.insert_match(conn, chat_id=-5, thread_id=None, creator_id=1, rules={},
                                seats=kit.seat_list([(1, "A"), (2, "B")]), now=1.0,
                                deadline_at=None)
        other = repo.insert_match(conn, chat_id=-5, thread_id=3,
                                  creator_id=2, rules={}, now=1.0, deadline_at=None,
                                  seats=kit.seat_list([(2, "B")]))
        mine = lambda uid: [m.id for m in repo.list_open_matches_of(conn, uid)]  # noqa: E731
        assert (mine(1), mine(2), mine(3)) == ([mid], [mid, other], [])
        # a stale update changes nothing, the seats included
        assert not repo.update_match(conn, mid, 5, now=2.0,
                                     seats=kit.seat_list([(3, "C")]))
        assert mine(3) == []
        # a computer player takes seat 0; a third person joins
        assert repo.update_match(conn, mid, 0, now=2.0, seats=kit.seat_list(
            [(-1, "Бот"), (2, "B"), (3, "C")]))
        assert (mine(1), mine(2), mine(3), mine(-1)) == ([], [mid, other], [mid], [mid])
        assert repo.update_match(conn, mid, 1, now=3.0, status="playing")
        assert mine(3) == [mid]
        assert repo.update_match(conn, mid, 2, now=4.0, status="finished")
        assert (mine(2), mine(3)) == ([other], [])
        assert kit.count_rows(conn, "open_seats") == 1

    await a.write(body)


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
async def test_a_write_that_loses_a_deadlock_is_run_again(two):
    """Two workers' transactions take two rows in opposite orders: PostgreSQL aborts one
    (SQLSTATE 40P01) and Database.write runs it again, so both commit."""
    a, b = two
    await a.write(lambda c: [repo.upsert_user(c, u, now=1.0, first_name="-") for u in (1, 2)])
    meet = threading.Barrier(2)
    tries = []

    def cross(conn, first, second, name):
        tries.append(name)
        repo.upsert_user(conn, first, now=2.0, last_name=name)
        if tries.count(name) == 1:  # both hold their first row before taking the second
            meet.wait(timeout=10)
        repo.upsert_user(conn, second, now=2.0, last_name=name)
        return name

    assert await asyncio.gather(a.write(cross, 1, 2, "x"), b.write(cross, 2, 1, "y")) == [
        "x", "y"]
    # one of the two ran again (under load PostgreSQL may pick a victim twice: 4 tries)
    assert len(tries) >= 3 and set(tries) == {"x", "y"}
    last = {(await a.read(repo.get_user, u)).last_name for u in (1, 2)}
    assert len(last) == 1 and last <= {"x", "y"}  # the one that ran again wrote both last
