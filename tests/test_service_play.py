"""Playing through the service on real SQLite files: views per audience, bad input changes
nothing, exactly one of concurrent presses applies, replayed state equals live state,
statistics equal a recomputation from match results (RULES.md §1.15, §1.16)."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace

import pytest

import engine
from service.game import GameService
from service.views import ErrorCode, Status
from storage import GLOBAL_SCOPE
from storage import repository as repo
from tests import storagekit as kit
from tests.servicekit import FakeClock, engine_state, play_random, random_move, start_match


@pytest.fixture
async def svc(store_url):
    service = await GameService.open(store_url, clock=FakeClock())
    yield service
    await service.close()


async def _log_len(svc, match_id):
    return len(await svc.db.read(repo.list_actions, match_id))


async def _check_views(svc, res):
    """The table never holds a hand; each hand view holds exactly its seat's tiles and
    legal moves only on its turn (RULES.md §1.7, §1.8), as the engine has them."""
    st = await engine_state(svc, res.match_id)
    table = res.table
    assert table.version == res.version
    for seat, (sv, hv) in enumerate(zip(table.seats, res.hands, strict=True)):
        assert sv.tiles == len(st.hands[seat]) == len(hv.tiles)
        assert hv.tiles == tuple(f"{t.a}-{t.b}" for t in st.hands[seat])
        if res.status == Status.PLAYING and st.to_act == seat:
            assert hv.your_turn and table.to_act == seat
            want = {(f"{m.tile.a}-{m.tile.b}", m.end) for m in engine.legal_moves(st)}
            assert {(m.tile, m.end) for m in hv.legal} == want and want
        else:
            assert not hv.your_turn and hv.legal == ()
    # Nothing meant for the group names a tile in a hand: the table's tile codes are only
    # those of the chain (notes of this round) -- earlier rounds' notes may name re-dealt tiles.
    hand_codes = {t for h in res.hands for t in h.tiles}
    chain_codes = {f"{min(a, b)}-{max(a, b)}" for a, b in table.chain}
    current = [n for n in table.notes if n.round_no == table.round_no]
    bare = replace(table, notes=tuple(current))
    assert not hand_codes & set(re.findall(r"\d-\d", repr(bare)))
    assert all(n.tile in chain_codes for n in current if n.tile)
    for ev in res.events:
        if ev["kind"] == "drew":
            assert "tile" not in ev
    for hv in res.hands:  # the seat's own recent draws, still in its hand (§1.8)
        drew_now = sum(1 for e in res.events if e["kind"] == "drew" and e["seat"] == hv.seat)
        assert len(hv.drawn) >= drew_now and set(hv.drawn) <= set(hv.tiles)
    assert table.drawable == st.drawable
    assert table.scores == tuple(st.scores) and table.pot == st.pot


async def test_a_full_match_views_and_results(svc):
    rng = random.Random(3)
    res = await start_match(svc, -100, 3)
    assert res.status == Status.PLAYING and res.table.round_no == 1
    assert {e["kind"] for e in res.events} >= {"dealt"}
    row = await svc.db.read(repo.get_match, res.match_id)
    assert row.seed is not None and row.deadline_at == svc.clock() + 60  # §1.17 turn_timeout
    actions = 0
    while res.status == Status.PLAYING:
        await _check_views(svc, res)
        user, tile, end, version = random_move(res, rng)
        res = await svc.play.act(res.match_id, user, tile, end, version)
        assert res.ok, res.detail
        actions += 1
        assert res.version == version + 1
    assert res.status == Status.FINISHED
    assert await _log_len(svc, res.match_id) == actions
    final = res.final
    assert final.rated and final.reason == "limit"
    assert any(p.goat for p in final.players)
    assert all(p.score >= 101 for p in final.players if p.goat)  # RULES.md §1.15
    assert all((p.rating == 0) == p.goat for p in final.players)  # §1.16: goat gets 0
    rows = await svc.db.read(kit.list_results, res.match_id)
    assert [(r.user_id, r.final_score, r.goat, r.rating, r.outs, r.fish) for r in rows] == [
        (p.user_id, p.score, p.goat, p.rating, p.outs, p.fish) for p in final.players]
    assert sum(r.outs for r in rows) + sum(r.fish for r in rows) >= len(res.rounds)
    row = await svc.db.read(repo.get_match, res.match_id)
    assert (row.status, row.end_reason, row.deadline_at) == ("finished", "limit", None)
    # A finished match accepts nothing more.
    again = await svc.play.act(res.match_id, 1, "0-0", None, res.version)
    assert again.error == ErrorCode.WRONG_STATUS


async def test_bad_input_changes_nothing(svc):
    res = await start_match(svc, -100, 2)
    mid, v = res.match_id, res.version
    to_act = res.table.to_act_user_id
    other = next(s.user_id for s in res.table.seats if s.user_id != to_act)
    hand = res.hand_for(to_act)
    not_in_hand = next(f"{a}-{b}" for a in range(7) for b in range(a, 7)
                       if f"{a}-{b}" not in hand.tiles)
    legal = hand.legal[0]
    cases = [
        (999, legal.tile, legal.end, v, ErrorCode.NOT_IN_GAME),
        (other, legal.tile, legal.end, v, ErrorCode.NOT_YOUR_TURN),
        (to_act, legal.tile, legal.end, v - 1, ErrorCode.STALE),
        (to_act, legal.tile, legal.end, v + 5, ErrorCode.STALE),
        (to_act, "7-9", None, v, ErrorCode.BAD_MOVE),
        (to_act, "rubbish", None, v, ErrorCode.BAD_MOVE),
        (to_act, legal.tile, "middle", v, ErrorCode.BAD_MOVE),
        (to_act, not_in_hand, None, v, ErrorCode.BAD_MOVE),
    ]
    for user, tile, end, version, code in cases:
        bad = await svc.play.act(mid, user, tile, end, version)
        assert (bad.ok, bad.error) == (False, code), (user, tile, end, version, bad.detail)
        assert bad.version == v and bad.table is not None  # fresh views to re-render
    missing = await svc.play.act(12345, to_act, legal.tile, legal.end, v)
    assert missing.error == ErrorCode.NOT_FOUND
    row = await svc.db.read(repo.get_match, mid)
    assert row.version == v and await _log_len(svc, mid) == 0
    ok = await svc.play.act(mid, to_act, legal.tile, legal.end, v)
    assert ok.ok and ok.version == v + 1



async def test_a_press_is_checked_as_its_move_would_be_and_changes_nothing(svc):
    """``Play.check_press`` refuses exactly what ``act`` refuses before it reads the move —
    a stranger, out of turn (RULES.md §1.1), another version, no such match, a match no
    longer played — with the same code and the same fresh views, and changes nothing; a
    press it lets through gets the current views, and the move is then taken."""
    res = await start_match(svc, -100, 3)
    mid, v = res.match_id, res.version
    to_act = res.table.to_act_user_id
    other = next(s.user_id for s in res.table.seats if s.user_id != to_act)
    legal = res.hand_for(to_act).legal[0]
    state = await engine_state(svc, mid)
    cases = [(999, v, ErrorCode.NOT_IN_GAME), (other, v, ErrorCode.NOT_YOUR_TURN),
             (to_act, v - 1, ErrorCode.STALE), (to_act, v + 5, ErrorCode.STALE),
             (other, v - 1, ErrorCode.STALE)]  # §1.1 after the version: act's order
    for user, version, code in cases:
        checked = await svc.play.check_press(mid, user, version)
        moved = await svc.play.act(mid, user, legal.tile, legal.end, version)
        assert (checked.ok, checked.error) == (moved.ok, moved.error) == (False, code), user
        assert checked.table == moved.table and checked.version == v
        assert checked.hands == moved.hands
    missing = await svc.play.check_press(12345, to_act, v)
    assert missing.error == ErrorCode.NOT_FOUND and missing.table is None
    fine = await svc.play.check_press(mid, to_act, v)
    assert fine.ok and fine.error is None
    assert (fine.table, fine.hands) == ((view := await svc.store.view(mid)).table, view.hands)
    assert await engine_state(svc, mid) == state and await _log_len(svc, mid) == 0
    assert (await svc.play.act(mid, to_act, legal.tile, legal.end, v)).ok
    assert (await svc.lobbies.stop(mid, res.table.seats[0].user_id)).ok
    closed = await svc.play.check_press(mid, to_act, v + 1)
    assert closed.error == ErrorCode.WRONG_STATUS
    assert closed.error == (await svc.play.act(mid, to_act, "0-0", None, v + 1)).error

async def test_double_press_applies_exactly_once(svc):
    res = await start_match(svc, -100, 4)
    for _ in range(5):
        user, tile, end, version = random_move(res, random.Random(1))
        a, b = await asyncio.gather(
            svc.play.act(res.match_id, user, tile, end, version),
            svc.play.act(res.match_id, user, tile, end, version),
        )
        assert sorted([a.ok, b.ok]) == [False, True]
        loser = a if not a.ok else b
        res = a if a.ok else b
        assert loser.error == ErrorCode.STALE and loser.version == version + 1
    assert await _log_len(svc, res.match_id) == 5


async def test_two_processes_on_one_database_one_press_wins(store_url):
    """Two service instances = two workers sharing the file; both have the match cached at
    the same version. The SQL version check lets exactly one action through."""
    path = store_url
    clock = FakeClock()
    a = await GameService.open(path, clock=clock)
    b = await GameService.open(path, clock=clock)
    try:
        res = await start_match(a, -100, 3)
        rng = random.Random(5)
        for _ in range(6):
            await b.store.view(res.match_id)  # b caches the current version too
            user, tile, end, version = random_move(res, rng)
            ra, rb = await asyncio.gather(
                a.play.act(res.match_id, user, tile, end, version),
                b.play.act(res.match_id, user, tile, end, version),
            )
            assert sorted([ra.ok, rb.ok]) == [False, True]
            assert (ra if not ra.ok else rb).error == ErrorCode.STALE
            res = ra if ra.ok else rb
        assert await _log_len(a, res.match_id) == 6
        # The loser's cache healed: both see the same state.
        va, vb = await a.store.view(res.match_id), await b.store.view(res.match_id)
        assert va.table == vb.table and va.hands == vb.hands
        assert va.version == vb.version == res.version
        # Worker a plays on; b's cache falls behind. A press carrying the newer version
        # reaches b: b reloads from the database instead of calling it stale.
        res, _ = await play_random(a, res, rng, max_actions=3)
        user, tile, end, version = random_move(res, rng)
        rb = await b.play.act(res.match_id, user, tile, end, version)
        assert rb.ok and rb.version == version + 1
        assert (await a.play.act(res.match_id, user, tile, end, version)).error == ErrorCode.STALE
    finally:
        await a.close()
        await b.close()


async def test_replayed_state_equals_live_state(store_url):
    path = store_url
    clock = FakeClock()
    svc = await GameService.open(path, clock=clock)
    rng = random.Random(11)
    live = {}
    try:
        for i, (players, rules) in enumerate([
            (2, None), (3, {"fish_scoring": "each_own"}), (4, {"teams": True}),
            (4, {"bazar_reserve": 2, "fish_scoring": "own_to_max"}), (2, {"match_limit": 31}),
        ]):
            res = await start_match(svc, -100 - i, players, rules=rules)
            res, _ = await play_random(svc, res, rng, max_actions=rng.randint(5, 400))
            if rng.random() < 0.3 and res.status == Status.PLAYING:
                clock.advance(61)
                res = await svc.play.host_move(res.match_id, res.version)
                assert res.ok
            live[res.match_id] = res
    finally:
        await svc.close()
    fresh = await GameService.open(path, clock=clock)
    try:
        for mid, res in live.items():
            again = await fresh.store.view(mid)
            assert again.closed == res.closed
            assert again.version == res.version
            assert again.table == res.table
            assert again.hands == res.hands  # incl. the tiles drawn in the last action
            assert again.final == res.final
    finally:
        await fresh.close()


async def test_statistics_equal_recomputation_from_results(store_url):
    svc = await GameService.open(store_url, clock=FakeClock())
    rng = random.Random(21)
    try:
        for i in range(6):
            players = rng.randint(2, 4)
            first = rng.randint(1, 4)
            res = await start_match(svc, -100 - (i % 2), players, first_user=first,
                                    rules={"match_limit": 41})
            res, _ = await play_random(svc, res, rng)
            assert res.status == Status.FINISHED
        rows = await svc.db.read(kit.list_results)
        assert await svc.db.read(kit.all_stats) == await svc.db.read(kit.recompute_stats)
        for chat in (None, -100, -101):
            board = await svc.stats.leaderboard(chat, limit=50)
            mine = [r for r in rows if chat is None or r.chat_id == chat]
            expect = {}
            for r in mine:
                e = expect.setdefault(r.user_id, [0, 0, 0])
                e[0] += r.rating
                e[1] += 1
                e[2] += r.goat
            assert {b.user_id: [b.rating, b.matches, b.goats] for b in board} == expect
            keys = [(-b.skill, -b.rating, b.goats, -b.matches, b.user_id) for b in board]
            assert keys == sorted(keys)
            assert [b.place for b in board] == list(range(1, len(board) + 1))
            for uid in expect:
                ps = await svc.stats.personal_stats(uid, chat)
                theirs = [r for r in mine if r.user_id == uid]
                assert ps.matches == len(theirs)
                assert ps.goats == sum(r.goat for r in theirs)
                assert ps.rating == sum(r.rating for r in theirs)
                assert ps.outs == sum(r.outs for r in theirs)
                assert ps.fish == sum(r.fish for r in theirs)
                assert ps.average_score == pytest.approx(
                    sum(r.final_score for r in theirs) / len(theirs))
        nobody = await svc.stats.personal_stats(999)
        assert (nobody.matches, nobody.average_score) == (0, 0.0)
        assert GLOBAL_SCOPE == 0
    finally:
        await svc.close()
