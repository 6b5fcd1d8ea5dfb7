"""Boards per variant with the skill rating (issue 15 "A skill rating", "Fair boards"; issue 12
"Statistics per variant"): revision 0005 from a database with finished matches, the boards a
match counts on, a player who left, and the history's pages."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from storage import GLOBAL_SCOPE, Database, open_database, skill
from storage import repository as repo
from tests import storagekit as kit


def _row(mid, seat, user, chat, *, score, goat, rating, place=None, side=None, bot=None,
         variant="classic", at=10.0, left=False):
    return repo.ResultRow(
        match_id=mid, seat=seat, user_id=user, name=f"u{user}", chat_id=chat,
        final_score=score, goat=goat, rating=rating, outs=1, fish=0, timed_out=False,
        ended_by="limit", finished_at=at, bot=bot, variant=variant,
        side=seat if side is None else side, place=place or 1, left_match=left)


def _match(conn, chat, seats, *, rules=None, thread=None, old=False):
    """A finished match (``old``: written as before revision 0006)."""
    repo.upsert_chat(conn, chat, now=1.0, title=f"chat {chat}")
    if old:
        return kit.old_match(conn, chat_id=chat, thread_id=thread, creator_id=seats[0][0],
                             rules=rules, seats=seats, status="finished")
    mid = repo.insert_match(conn, chat_id=chat, thread_id=thread, creator_id=seats[0][0],
                            rules=rules or {}, seats=kit.seat_list(seats), now=1.0,
                            deadline_at=None)
    repo.update_match(conn, mid, 0, now=2.0, status="finished")
    return mid


@pytest.fixture
async def db(store_url):
    database = await open_database(store_url)
    yield database
    await database.dispose()


async def test_revision_0005_rates_the_stored_history(tmp_path):
    """A database of revision 0004 with finished matches: the new columns are filled from
    each match, and the skill ratings equal a recomputation from the history, match by match
    in the order they finished; matches with computer players stay off the global board."""
    path = tmp_path / "old.sqlite3"
    db = Database(path)
    await db.migrate("0004")
    insert = text(
        "INSERT INTO match_results (match_id, seat, user_id, name, chat_id, final_score, goat, "
        "rating, outs, fish, timed_out, ended_by, finished_at, bot) VALUES "
        "(:m, :s, :u, 'n', :c, :score, :g, :r, 0, 0, 0, 'limit', :at, :bot)")

    def fill(conn):
        out = {}
        specs = [  # (chat, rules, [(user, score, goat, rating, bot)], finished_at)
            (-100, {}, [(1, 30, 0, 7, None), (2, 110, 1, 0, None), (3, 50, 0, 5, None)], 30.0),
            (-100, {"teams": True}, [(1, 40, 0, 6, None), (2, 120, 1, 0, None),
                                     (3, 40, 0, 6, None), (4, 120, 1, 0, None)], 20.0),
            (-100, {"variant": "sea_goat"}, [(2, 10, 0, 12, None), (1, 130, 1, 0, None)], 25.0),
            (-200, {}, [(1, 101, 1, 0, None), (-1, 20, 0, 8, "easy")], 40.0),
            (-200, {}, [(3, 60, 0, 4, None), (4, 60, 0, 4, None), (1, 101, 1, 0, None)], 10.0),
        ]
        for k, (chat, rules, seats, at) in enumerate(specs):
            mid = _match(conn, chat, [(u, f"u{u}") for u, *_ in seats], rules=rules, thread=k,
                         old=True)
            for seat, (user, score, goat, rating, bot) in enumerate(seats):
                conn.execute(insert, dict(m=mid, s=seat, u=user, c=chat, score=score, g=goat,
                                          r=rating, at=at, bot=bot))
            out[k] = mid
        return out

    mids = await db.write(fill)
    await db.dispose()
    db = await open_database(path)
    try:
        rows = {(r.match_id, r.seat): r for r in await db.read(kit.list_results)}
        # places by the rating points gained, goats last, ties shared; sides of a team game
        assert [rows[(mids[0], s)].place for s in range(3)] == [1, 3, 2]
        assert [rows[(mids[1], s)].side for s in range(4)] == [0, 1, 0, 1]
        assert [rows[(mids[1], s)].place for s in range(4)] == [1, 2, 1, 2]
        assert [rows[(mids[4], s)].place for s in range(3)] == [1, 1, 3]
        assert rows[(mids[2], 0)].variant == "sea_goat"
        stats = await db.read(kit.all_stats)
        assert stats == await db.read(kit.recompute_stats)
        # the match against a computer player counts on chat -200's board of every match only
        assert (GLOBAL_SCOPE, "classic", False, 1) in stats
        assert stats[(GLOBAL_SCOPE, "classic", False, 1)]["matches"] == 3
        assert stats[(-200, "classic", True, 1)]["matches"] == 2
        assert stats[(-200, "classic", False, 1)]["matches"] == 1
        # the order of finishing: match 4 (t=10) was rated before match 1 (t=20)
        changes = await db.read(lambda c: c.exec_driver_sql(
            "SELECT match_id FROM rating_changes WHERE scope = 0 AND user_id = 1 "
            "ORDER BY rowid").scalars().all())
        assert changes == [mids[4], mids[1], mids[2], mids[0]][:len(changes)]
        assert sorted(changes) == sorted([mids[4], mids[1], mids[2], mids[0]])
        # the winner of the three-player match is ahead of its goat
        board = await db.read(repo.leaderboard, -100, "classic", False)
        assert [r.user_id for r in board][0] in (1, 3) and board[-1].user_id == 2
        assert all(r.skill == pytest.approx(r.mu - 3 * r.sigma) for r in board)
    finally:
        await db.dispose()


async def test_a_match_with_computer_players_counts_on_the_chats_full_board_only(db):
    def body(conn):
        repo.upsert_user(conn, 1, now=1.0, first_name="Оля", username="olya_k")
        mid = _match(conn, -5, [(1, "Оля"), (-1, "Бот")])
        repo.record_results(conn, [
            _row(mid, 0, 1, -5, score=20, goat=False, rating=8, place=1),
            _row(mid, 1, -1, -5, score=101, goat=True, rating=0, place=2, bot="easy")])
        assert repo.leaderboard(conn, GLOBAL_SCOPE, "classic", False) == []
        assert repo.leaderboard(conn, -5, "classic", False) == []
        [me] = repo.leaderboard(conn, -5, "classic", True)
        # beating a computer player at the initial rating raises the person's estimate
        assert (me.user_id, me.matches, me.wins, me.name) == (1, 1, 1, "Оля")
        assert me.username == "olya_k"  # what tells two «Оля» apart (issue 30 item 7)
        assert me.skill > 0
        assert [b.strength for b in repo.bot_stats(conn)] == ["easy"]

    await db.write(body)


async def test_a_player_who_left_is_rated_last_and_the_match_stays_fair(db):
    """Seats 0 and 2 play on; seat 1 left (a computer player finished it, RULES.md §1.16):
    the match counts on the global board, the leaver ranks below every side."""
    def body(conn):
        mid = _match(conn, -7, [(1, "A"), (-1, "Бот"), (3, "C")])
        repo.record_results(conn, [
            _row(mid, 0, 1, -7, score=110, goat=True, rating=0, place=3),
            _row(mid, 1, 2, -7, score=10, goat=False, rating=0, place=1, left=True),
            _row(mid, 2, 3, -7, score=50, goat=False, rating=5, place=2)])
        board = repo.leaderboard(conn, GLOBAL_SCOPE, "classic", False)
        assert [r.user_id for r in board] == [3, 1, 2]
        assert [r.wins for r in board] == [0, 0, 0]
        changes = [c for m in repo.history(conn, chat_id=-7) for c in m.changes
                   if c.scope == GLOBAL_SCOPE]
        assert {c.user_id for c in changes} == {1, 2, 3}
        assert next(c for c in changes if c.user_id == 2).delta < 0

    await db.write(body)


def test_ranked_teams_put_teams_together_and_leavers_last():
    entries = [skill.Entry(1, 0, 2), skill.Entry(2, 1, 1), skill.Entry(3, 0, 2),
               skill.Entry(4, 1, 1, left=True)]
    teams = skill.ranked_teams(entries, with_bots=False)
    assert [(rank, [e.user_id for e in team]) for rank, team in teams] == [
        (2, [1, 3]), (1, [2]), (3, [4])]
    new = skill.rate(entries, {}, with_bots=False)
    assert new[2][0] > skill.INITIAL[0] > new[4][0] and new[1] == new[3]
    assert new[1][0] < skill.INITIAL[0]
    # one team alone: nothing to compare, nobody changes
    assert skill.rate([skill.Entry(1, 0, 1)], {1: (30.0, 2.0)}, with_bots=False) == {
        1: (30.0, 2.0)}


async def test_history_pages_newest_first_for_a_chat_and_for_a_person(db):
    def body(conn):
        mids = []
        for k in range(7):
            chat = -1 if k % 2 else -2
            mid = _match(conn, chat, [(1, "A"), (2 + k % 2, "B")], thread=k)
            repo.record_results(conn, [
                _row(mid, 0, 1, chat, score=30, goat=False, rating=7, place=1, at=100.0 + k),
                _row(mid, 1, 2 + k % 2, chat, score=105, goat=True, rating=0, place=2,
                     at=100.0 + k)])
            mids.append(mid)
        assert repo.history_count(conn, user_id=1) == 7
        assert repo.history_count(conn, chat_id=-1) == 3
        assert repo.history_count(conn, user_id=3) == 3
        first = repo.history(conn, user_id=1, limit=5)
        second = repo.history(conn, user_id=1, limit=5, offset=5)
        assert [m.match_id for m in first + second] == mids[::-1]
        assert repo.history(conn, user_id=1, limit=5, offset=10) == []
        chat = repo.history(conn, chat_id=-1, limit=2)
        assert [m.match_id for m in chat] == [mids[5], mids[3]]
        top = chat[0]
        assert (top.chat_title, top.variant, top.ended_by) == ("chat -1", "classic", "limit")
        assert [r.user_id for r in top.results] == [1, 3]
        assert {(c.scope, c.with_bots) for c in top.changes} == {
            (-1, True), (-1, False), (GLOBAL_SCOPE, False)}

    await db.write(body)
