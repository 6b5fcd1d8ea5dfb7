"""Lobby life cycle, stop, rematch, chat migration, bot removal and chat settings through the
service, on real SQLite files (RULES.md §1.1 seats, §1.14 teams)."""

from __future__ import annotations

import asyncio
import random

import pytest

from service.game import GameService
from service.views import EndReason, ErrorCode, Status
from storage import repository as repo
from tests import storagekit as kit
from tests.servicekit import FakeClock, play_random, start_match


@pytest.fixture
async def svc(store_url):
    service = await GameService.open(store_url, clock=FakeClock(),
                                     seed_source=iter(range(1000, 2000)).__next__)
    yield service
    await service.close()


async def test_lobby_join_leave_start(svc):
    res = await svc.lobbies.open_lobby(-100, 7, 1, "Masha")
    assert res.ok and res.status == Status.LOBBY and res.table is None
    lobby = res.lobby
    assert (lobby.creator_id, lobby.thread_id, lobby.min_players, lobby.max_players) == (
        1, 7, 2, 4)
    assert lobby.rules["match_limit"] == 101 and lobby.deadline_at == svc.clock() + 600
    mid = res.match_id

    assert (await svc.lobbies.start(mid, 1)).error == ErrorCode.NOT_ENOUGH_PLAYERS
    assert (await svc.lobbies.join(mid, 1, "Masha")).error == ErrorCode.ALREADY_JOINED
    for uid in (2, 3, 4):
        assert (await svc.lobbies.join(mid, uid, f"P{uid}")).ok
    full = await svc.lobbies.join(mid, 5, "Late")
    assert full.error == ErrorCode.LOBBY_FULL and len(full.lobby.players) == 4
    assert (await svc.lobbies.leave(mid, 5)).error == ErrorCode.NOT_IN_GAME
    left = await svc.lobbies.leave(mid, 1)  # the creator leaves: seat order kept, creator passes on
    assert left.ok and [p.user_id for p in left.lobby.players] == [2, 3, 4]
    assert left.lobby.creator_id == 2
    assert (await svc.lobbies.start(mid, 3)).error == ErrorCode.NOT_CREATOR
    started = await svc.lobbies.start(mid, 3, force=True)  # e.g. a chat admin
    assert started.ok and started.status == Status.PLAYING
    assert [s.user_id for s in started.table.seats] == [2, 3, 4]
    assert (await svc.lobbies.join(mid, 9, "X")).error == ErrorCode.WRONG_STATUS
    assert (await svc.lobbies.leave(mid, 2)).error == ErrorCode.WRONG_STATUS
    assert (await svc.lobbies.start(mid, 2)).error == ErrorCode.WRONG_STATUS
    row = await svc.db.read(repo.get_match, mid)
    assert row.seed == 1000 and row.status == "playing"  # the seed is stored


async def test_one_open_lobby_per_topic_and_last_leaver_closes(svc):
    first = await svc.lobbies.open_lobby(-100, None, 1, "A")
    dup = await svc.lobbies.open_lobby(-100, None, 2, "B")
    assert dup.error == ErrorCode.ALREADY_OPEN and dup.match_id == first.match_id
    assert (await svc.lobbies.open_lobby(-100, 5, 2, "B")).ok  # another forum topic
    assert (await svc.store.find_open(-100, None)).match_id == first.match_id
    closed = await svc.lobbies.leave(first.match_id, 1)
    assert closed.ok and closed.status == Status.STOPPED
    assert (await svc.store.find_open(-100, None)).error == ErrorCode.NOT_FOUND
    assert (await svc.lobbies.open_lobby(-100, None, 2, "B")).ok


async def test_teams_need_four_and_bad_rules_are_refused(svc):
    assert (await svc.lobbies.open_lobby(-1, None, 1, "A", {"match_limit": -5})).error == \
        ErrorCode.BAD_RULES
    assert (await svc.lobbies.open_lobby(-1, None, 1, "A", {"no_such_rule": 1})).error == \
        ErrorCode.BAD_RULES
    assert (await svc.store.find_open(-1, None)).error == ErrorCode.NOT_FOUND  # nothing written
    res = await svc.lobbies.open_lobby(-1, None, 1, "A", {"teams": True})
    assert res.lobby.min_players == 4
    for uid in (2, 3):
        await svc.lobbies.join(res.match_id, uid, f"P{uid}")
    assert (await svc.lobbies.start(res.match_id, 1)).error == ErrorCode.NOT_ENOUGH_PLAYERS
    await svc.lobbies.join(res.match_id, 4, "P4")
    started = await svc.lobbies.start(res.match_id, 1)
    assert started.ok and started.table.teams and len(started.table.scores) == 2
    assert [s.side for s in started.table.seats] == [0, 1, 0, 1]  # RULES.md §1.14


async def test_chat_rules_are_the_lobby_defaults(svc):
    bad = await svc.people.update_chat(-1, rules={"fish_scoring": "nobody"})
    assert not bad.ok and bad.error == ErrorCode.BAD_RULES
    ok = await svc.people.update_chat(-1, rules={"fish_scoring": "each_own", "match_limit": 101},
                                      language="uk", topic_id=3)
    assert ok.ok and ok.chat.rules == {"fish_scoring": "each_own"}  # defaults not stored
    assert (ok.chat.language, ok.chat.topic_id) == ("uk", 3)
    res = await svc.lobbies.open_lobby(-1, 3, 1, "A", {"bazar_reserve": 1})
    assert res.lobby.rules["fish_scoring"] == "each_own"
    assert res.lobby.rules["bazar_reserve"] == 1
    cleared = await svc.people.update_chat(-1, clear_topic=True)
    assert cleared.chat.topic_id is None and cleared.chat.language == "uk"


async def test_concurrent_joins_from_two_processes_lose_no_seat(store_url):
    """Without the SQL version check one of two simultaneous joins would overwrite the
    other's seat; with it, one join is told ``stale`` and a retry succeeds."""
    path = store_url
    a = await GameService.open(path, clock=FakeClock())
    b = await GameService.open(path, clock=FakeClock())
    try:
        res = await a.lobbies.open_lobby(-1, None, 1, "A")
        await b.store.view(res.match_id)  # both caches at version 0
        ra, rb = await asyncio.gather(a.lobbies.join(res.match_id, 2, "B"),
                                      b.lobbies.join(res.match_id, 3, "C"))
        assert sorted([ra.ok, rb.ok]) == [False, True]
        loser, user = (ra, 2) if not ra.ok else (rb, 3)
        assert loser.error == ErrorCode.STALE
        retry = await (a if user == 2 else b).lobbies.join(res.match_id, user, "X")
        assert retry.ok
        seats = [p.user_id for p in retry.lobby.players]
        assert sorted(seats) == [1, 2, 3]
        row = await a.db.read(repo.get_match, res.match_id)
        assert sorted(s["user_id"] for s in row.seats) == [1, 2, 3]
    finally:
        await a.close()
        await b.close()


async def test_two_workers_opening_a_lobby_in_a_new_chat_at_once_get_one_lobby(store_url):
    """The chat and both users are new to the database and two workers open a lobby in the
    same topic at once: one lobby opens, the other worker is told it is already open and
    shown that lobby — never a failed transaction (issue 22: on PostgreSQL the chat's
    update-then-insert failed on its primary key)."""
    a = await GameService.open(store_url, clock=FakeClock())
    b = await GameService.open(store_url, clock=FakeClock())
    try:
        for k in range(1, 21):
            chat = -1000 - k
            ra, rb = await asyncio.gather(a.lobbies.open_lobby(chat, None, 10 * k, "A"),
                                          b.lobbies.open_lobby(chat, None, 10 * k + 1, "B"))
            assert sorted([ra.ok, rb.ok]) == [False, True], (ra.error, rb.error)
            won, lost = (ra, rb) if ra.ok else (rb, ra)
            assert lost.error == ErrorCode.ALREADY_OPEN and lost.match_id == won.match_id
        assert await a.db.read(kit.count_rows, "chats") == 20
        assert await a.db.read(kit.count_rows, "matches") == 20
    finally:
        await a.close()
        await b.close()


async def test_stop_and_rematch(svc):
    res = await start_match(svc, -100, 3)
    mid = res.match_id
    assert (await svc.lobbies.stop(mid, 2)).error == ErrorCode.NOT_CREATOR
    assert (await svc.lobbies.rematch(mid, 1)).error == ErrorCode.WRONG_STATUS  # still running
    stopped = await svc.lobbies.stop(mid, 1)
    assert stopped.ok and stopped.status == Status.STOPPED
    assert stopped.final.reason == EndReason.STOPPED and not stopped.final.rated
    assert await svc.db.read(kit.list_results, mid) == []  # not rated
    assert (await svc.lobbies.stop(mid, 1)).error == ErrorCode.WRONG_STATUS
    assert (await svc.lobbies.rematch(mid, 77)).error == ErrorCode.NOT_IN_GAME
    again = await svc.lobbies.rematch(mid, 2)
    assert again.ok and again.status == Status.LOBBY
    assert again.lobby.rematch_of == mid and again.lobby.creator_id == 2
    assert [p.user_id for p in again.lobby.players] == [1, 2, 3]
    twice = await svc.lobbies.rematch(mid, 3)  # the other player's press finds the same lobby
    assert twice.ok and twice.match_id == again.match_id
    assert (await svc.lobbies.start(again.match_id, 2)).ok


async def test_chat_migration_moves_lobby_match_and_stats(svc):
    rng = random.Random(2)
    await svc.people.update_chat(-5, rules={"match_limit": 31}, title="group")
    done = await start_match(svc, -5, 2, thread_id=None)
    done, _ = await play_random(svc, done, rng)
    assert done.status == Status.FINISHED
    running = await start_match(svc, -5, 2, thread_id=None)
    running, _ = await play_random(svc, running, rng, max_actions=3)
    before = await svc.stats.leaderboard(-5)
    assert await svc.migrate_chat(-5, -1005) == (running.match_id,)  # its open matches
    # the second service message, in either order, moves nothing and names the same
    assert await svc.migrate_chat(-5, -1005) == (running.match_id,)
    assert await svc.db.read(repo.get_match, done.match_id) is not None
    assert (await svc.store.view(done.match_id)).table.chat_id == -1005  # finished ones move too
    assert await svc.stats.leaderboard(-5) == ()
    assert await svc.stats.leaderboard(-1005) == before
    view = await svc.store.find_open(-1005, None)
    assert view.match_id == running.match_id and view.table.chat_id == -1005
    user, tile, end = (view.table.to_act_user_id,
                       *(lambda m: (m.tile, m.end))(
                           view.hand_for(view.table.to_act_user_id).legal[0]))
    assert (await svc.play.act(running.match_id, user, tile, end, view.version)).ok
    assert (await svc.people.chat_info(-1005)).rules == {"match_limit": 31}


async def test_bot_removed_ends_open_matches_without_rating(svc):
    playing = await start_match(svc, -9, 2, thread_id=1)
    lobby = await svc.lobbies.open_lobby(-9, 2, 5, "E")
    elsewhere = await svc.lobbies.open_lobby(-10, None, 6, "F")
    results = await svc.bot_removed(-9)
    assert {r.match_id for r in results} == {playing.match_id, lobby.match_id}
    for r in results:
        assert r.status == Status.STOPPED
    assert results[0].final is None or not results[0].final.rated
    row = await svc.db.read(repo.get_match, playing.match_id)
    assert (row.status, row.end_reason, row.deadline_at) == ("stopped", "bot_removed", None)
    assert await svc.db.read(kit.list_results, playing.match_id) == []
    assert not (await svc.people.chat_info(-9)).active
    assert (await svc.store.view(elsewhere.match_id)).status == Status.LOBBY
    assert (await svc.lobbies.open_lobby(-9, None, 1, "A")).ok  # re-added: usable again
    assert (await svc.people.chat_info(-9)).active


async def test_users_and_messages(svc):
    await svc.people.register_user(1, "Маша", "Петрова", "masha", "ru")
    await svc.people.set_dm_open(1, True)
    user = await svc.people.get_user(1)
    assert (user.name, user.dm_open, user.language) == ("Маша Петрова", True, "ru")
    assert await svc.people.get_user(2) is None
    res = await svc.lobbies.open_lobby(-1, None, 1, "Маша")
    assert await svc.messages.load(res.match_id) == {}
    assert await svc.messages.save(res.match_id, {"lobby": 10, "table": 11})
    assert await svc.messages.save(res.match_id, {"table": 11})
    assert await svc.messages.load(res.match_id) == {"table": 11}
    assert (await svc.store.view(res.match_id)).version == res.version  # no version bump
    assert not await svc.messages.save(999, {"x": 1})
    assert await svc.messages.load(999) is None


async def test_open_matches_of_one_user(svc):
    """/start and /hand look only at the matches where the user holds a seat."""
    a = await svc.lobbies.open_lobby(-100, None, 1, "A")
    b = await svc.lobbies.open_lobby(-200, None, 2, "B")
    await svc.lobbies.join(b.match_id, 1, "A")
    await svc.lobbies.open_lobby(-300, None, 3, "C")
    assert [r.match_id for r in await svc.store.open_matches(1)] == [a.match_id, b.match_id]
    assert [r.match_id for r in await svc.store.open_matches(3)] != []
    assert await svc.store.open_matches(4) == []
    assert len(await svc.store.open_matches()) == 3


async def test_users_and_chats_are_cached_and_changes_are_seen(svc, store_url, monkeypatch):
    """Every rendered message asks for a language: the service answers from memory, sees its
    own changes at once and another process's within SETTINGS_TTL seconds."""
    import service.people as people

    reads = []
    real_read = svc.db.read

    async def counting_read(fn, *args):
        reads.append(fn.__name__)
        return await real_read(fn, *args)

    monkeypatch.setattr(svc.db, "read", counting_read)
    assert await svc.people.get_user(7) is None
    assert await svc.people.get_user(7) is None
    assert (await svc.people.chat_info(-700)).language is None
    assert (await svc.people.chat_info(-700)).language is None
    assert reads == ["get_user", "get_chat"]
    await svc.people.register_user(7, "Оля", language="uk")
    assert (await svc.people.get_user(7)).language == "uk"
    await svc.people.set_dm_open(7, True)
    assert (await svc.people.get_user(7)).dm_open is True
    await svc.people.update_chat(-700, language="en")
    assert (await svc.people.chat_info(-700)).language == "en"
    opened = await svc.lobbies.open_lobby(-700, None, 8, "Петя")  # creates user 8
    assert (await svc.people.get_user(8)).first_name == "Петя"
    await svc.lobbies.join(opened.match_id, 9, "Маша")
    assert (await svc.people.get_user(9)).first_name == "Маша"
    # another process changes the language: seen once the cached entry expires
    other = await GameService.open(store_url)
    try:
        await other.people.register_user(7, "Оля", language="ru")
        assert (await svc.people.get_user(7)).language == "uk"
        monkeypatch.setattr(people, "SETTINGS_TTL", 0.0)
        svc.people.clear()
        assert (await svc.people.get_user(7)).language == "ru"
        await other.people.update_chat(-700, language="uk")
        assert (await svc.people.chat_info(-700)).language == "uk"
    finally:
        await other.close()
