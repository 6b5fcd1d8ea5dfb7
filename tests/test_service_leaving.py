"""Leaving a started match (issue 15): /leave hands the seat to a computer player of normal
strength and the match goes on; the leaver is rated 0 as the timed-out player of RULES.md
§1.16; when a player's turns time out (§1.17) the group chooses a computer player for the
seat or the end by timeout, and nobody choosing ends it as the rules say."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from engine import records
from service.game import GameService
from service.views import ErrorCode, Status
from storage import GLOBAL_SCOPE
from tests import storagekit as kit
from tests.servicekit import FakeClock, InlineExecutor, start_match


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
async def svc(store_url, clock):
    service = await GameService.open(store_url, clock=clock,
                                     bot_executor=InlineExecutor(), hard_samples=2,
                                     seed_source=itertools.count(1000).__next__)
    yield service
    await service.close()


async def play_on(svc, res, rng, *, until=None):
    """Random legal moves for the people and the computer players' own moves until the match
    closes (or ``until(res)``)."""
    while res.status == Status.PLAYING and not (until and until(res)):
        to_act = res.table.to_act
        if res.table.seats[to_act].bot:
            res = await svc.play.bot_move(res.match_id, res.version)
        else:
            hand = res.hands[to_act]
            res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal), None,
                                     res.version)
        assert res.ok, (res.error, res.detail)
    return res


async def test_a_player_leaves_and_a_computer_player_finishes_the_seat(svc):
    res = await start_match(svc, -100, 3, rules={"match_limit": 51})
    rng = random.Random(4)
    res = await play_on(svc, res, rng, until=lambda r: r.table.round_no > 1)
    score_when_leaving = res.table.scores[1]
    left = await svc.leaving.leave(res.match_id, 2)
    assert left.ok and left.status == Status.PLAYING
    handed = left.handed
    assert (handed.seat, handed.user_id, handed.name, handed.why) == (1, 2, "P2", "left")
    assert left.table.seats[1].bot == "normal" and left.table.seats[1].name == handed.bot
    assert left.hand_for(2) is None  # no hand for the person any more
    assert (await svc.leaving.leave(res.match_id, 2)).error == ErrorCode.NOT_IN_GAME
    assert (await svc.leaving.leave(res.match_id, 99)).error == ErrorCode.NOT_IN_GAME
    end = await play_on(svc, left, rng)
    assert end.status == Status.FINISHED
    assert next(p for p in end.final.players if p.seat == 1).left == "P2"
    rows = await svc.db.read(kit.list_results, res.match_id)
    leaver = rows[1]
    seat = next(p for p in end.final.players if p.seat == 1)
    assert (leaver.user_id, leaver.name, leaver.rating, leaver.bot,
            leaver.left_match) == (2, "P2", 0, None, True)
    # the seat's result as the table ended it (issue 20 item 1: one story of the seat), not
    # the score when they left; their own statistics never count it as a goat
    assert (leaver.final_score, leaver.goat, leaver.place) == (seat.score, seat.goat,
                                                               seat.place)
    assert score_when_leaving <= leaver.final_score
    # the others are rated as the engine rates them; the record replays to that
    rec = await svc.records.record(res.match_id, 1, -100)
    record = json.loads(rec.data)
    assert record["players"][1] == f"P2 → {handed.bot}"
    out = records.replay(record)
    for r in rows:
        if not r.left_match:
            assert r.rating == out["rating"][r.side] and r.goat == (r.side in out["goats"])
    # no computer player held a seat from the start: the match counts on the global board,
    # the leaver there too, below the others
    board = await svc.stats.leaderboard(None)
    assert {b.user_id for b in board} == {1, 2, 3} and board[-1].user_id == 2
    assert await svc.db.read(kit.all_stats) == await svc.db.read(kit.recompute_stats)
    page = await svc.stats.history(user_id=2)
    assert page.entries[0].players[1].left and page.entries[0].players[1].skill < 0
    assert page.entries[0].players[1].user_id == 2
    assert GLOBAL_SCOPE == 0


async def test_leaving_on_ones_turn_lets_the_computer_player_move(svc, clock):
    res = await start_match(svc, -100, 2)
    third = await svc.lobbies.open_lobby(-200, None, 5, "A")
    assert (await svc.leaving.leave(third.match_id, 5)).error == ErrorCode.WRONG_STATUS
    mover = res.table.to_act_user_id
    left = await svc.leaving.leave(res.match_id, mover)
    assert left.ok and left.table.seats[left.table.to_act].bot == "normal"
    clock.advance(2)
    fired = await svc.deadlines.fire_due()
    assert fired and fired[-1].version == left.version + 1  # the computer player moved


async def test_the_last_person_leaving_stops_the_match(svc):
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=1, strength="easy")
    out = await svc.leaving.leave(res.match_id, 42)
    assert out.ok and out.status == Status.STOPPED and out.handed is None
    assert await svc.db.read(kit.list_results, res.match_id) == []


async def _timed_out_twice(svc, clock, res):
    """Let the seat to act miss two turns (afk_limit 2): one host move, then the question."""
    absent = res.table.to_act
    while True:
        clock.advance(61)
        [res] = [r for r in await svc.deadlines.fire_due() if r.match_id == res.match_id]
        if res.hold is not None or res.status != Status.PLAYING:
            return res, absent
        if res.table.to_act != absent:  # the others play on at once
            rng = random.Random(1)
            while res.table.to_act != absent and res.status == Status.PLAYING:
                hand = res.hands[res.table.to_act]
                res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal), None,
                                         res.version)


async def test_timeouts_are_put_to_the_group_who_may_hand_the_seat_over(svc, clock):
    res = await start_match(svc, -100, 3, rules={"match_limit": 51})
    asked, absent = await _timed_out_twice(svc, clock, res)
    hold = asked.hold
    assert hold is not None and hold.seat == absent and asked.status == Status.PLAYING
    assert hold.deadline_at == clock() + 60  # one turn's time
    me = asked.table.seats[absent].user_id
    other = next(s.user_id for s in asked.table.seats if s.seat != absent)
    assert (await svc.leaving.substitute(asked.match_id, me, asked.version)).error == \
        ErrorCode.NOT_IN_GAME  # not the absent player themself
    assert (await svc.leaving.substitute(asked.match_id, 99, asked.version)).error == \
        ErrorCode.NOT_IN_GAME
    assert (await svc.leaving.substitute(asked.match_id, other, asked.version - 1)).error == \
        ErrorCode.STALE
    done = await svc.leaving.substitute(asked.match_id, other, asked.version)
    assert done.ok and done.hold is None and done.handed.why == "afk"
    assert done.table.seats[absent].bot == "normal"
    assert (await svc.leaving.end_by_timeout(asked.match_id, other, done.version)).error == \
        ErrorCode.STALE  # answered
    end = await play_on(svc, done, random.Random(2))
    assert end.status == Status.FINISHED and end.final.reason == "limit"
    rows = await svc.db.read(kit.list_results, res.match_id)
    assert rows[absent].left_match and rows[absent].user_id == me and rows[absent].rating == 0


async def test_the_group_may_end_the_match_by_timeout(svc, clock):
    res = await start_match(svc, -100, 3)
    asked, absent = await _timed_out_twice(svc, clock, res)
    admin = await svc.leaving.end_by_timeout(asked.match_id, 77, asked.version, force=True)
    assert admin.ok and admin.status == Status.FINISHED and admin.final.reason == "timeout"
    assert [p.timed_out for p in admin.final.players].index(True) == absent


async def test_nobody_choosing_ends_the_match_by_timeout_and_a_return_keeps_the_seat(
        svc, clock):
    res = await start_match(svc, -100, 2)
    asked, absent = await _timed_out_twice(svc, clock, res)
    assert asked.hold is not None
    hand = asked.hands[absent]
    back = await svc.play.act(asked.match_id, hand.user_id, hand.legal[0], None, asked.version)
    assert back.ok and back.hold is None  # the absent player came back in time
    assert (await svc.lobbies.stop(back.match_id, 1)).ok
    res2 = await start_match(svc, -300, 2)
    asked2, _ = await _timed_out_twice(svc, clock, res2)
    clock.advance(61)
    [end] = [r for r in await svc.deadlines.fire_due() if r.match_id == res2.match_id]
    assert end.status == Status.FINISHED and end.final.reason == "timeout"
    assert end.hold is None


async def test_a_solo_match_is_not_put_to_anyone(svc, clock):
    res = await svc.lobbies.open_solo(42, "Masha", bots_count=1, strength="easy")
    for _ in range(20):
        clock.advance(61)
        for r in await svc.deadlines.fire_due():
            assert r.hold is None
            res = r
        if res.status != Status.PLAYING:
            break
    assert res.status == Status.FINISHED and res.final.reason == "timeout"


@pytest.mark.parametrize("why", ["left", "afk"])
async def test_the_record_check_rates_a_handed_seat_as_the_match_end_did(svc, clock, why):
    """A person who handed their seat to a computer player (by /leave, or the group's choice
    after their turns timed out, RULES.md §1.17) gets 0 rating points, as the timed-out
    player of §1.16: the match's end says «Маша → Бот Фёдор 🤖 — …, рейтинг +0».  The
    record replays the seat's rating as the engine gives it; checking it says +0 for the
    person as the match's end did, and what the record gives the seat beside it, never a
    bare «+10» beside «✅ Совпадает» (issue 30 item 3)."""
    from ui.records import render_record_check
    from ui.render import render_match_end

    for seed in range(1, 40):  # a match whose handed seat the engine rates above 0
        res = await start_match(svc, -100 - seed, 3, rules={"match_limit": 51})
        rng = random.Random(seed)
        if why == "left":
            res = await play_on(svc, res, rng, until=lambda r: r.table.round_no > 1)
            seat = 1
            handed = await svc.leaving.leave(res.match_id, res.table.seats[seat].user_id)
        else:
            asked, seat = await _timed_out_twice(svc, clock, res)
            other = next(s.user_id for s in asked.table.seats if s.seat != seat)
            handed = await svc.leaving.substitute(asked.match_id, other, asked.version)
        assert handed.ok and handed.handed.why == why
        end = await play_on(svc, handed, rng)
        side = end.final.players[seat].side
        record = await svc.records.record(res.match_id, 1, -100 - seed)
        out = records.replay(json.loads(record.data))
        if out["rating"][side] > 0:
            break
    else:
        pytest.fail("no handed seat rated above 0 by the engine")
    person, bot = handed.handed.name, handed.handed.bot
    ended = render_match_end("ru", end.final)
    assert f"{person} → {bot} — " in ended and ended.count("рейтинг +0") >= 1
    check = await svc.records.check(record.data)
    assert check.stored and check.rating[side] == out["rating"][side] > 0
    assert [(x.seat, x.name, x.bot) for x in check.left] == [(seat, person, bot)]
    said = render_record_check("ru", check, limit=10**6).splitlines()
    rating = next(line for line in said if line.startswith("Очки рейтинга: "))
    assert f"{person} → {bot} +0" in rating
    note = next(line for line in said if line.startswith("🚪"))
    assert f"этому месту +{out['rating'][side]}" in note
    assert f"{person} получает 0 очков рейтинга" in note
    assert said[-1] == f"✅ Совпадает с партией #{res.match_id}, как её записал бот."
    # the others' points are the match end's and the record's alike
    for p in end.final.players:
        if p.seat != seat:
            assert f"+{out['rating'][p.side]}" in rating and p.rating == out["rating"][p.side]
    # a record that is not that match (no id) says what the engine gives, with no note
    bare = json.loads(record.data)
    del bare["match"]
    alone = await svc.records.check(json.dumps(bare).encode())
    assert alone.left == () and alone.stored_match is None
    shown = render_record_check("ru", alone, limit=10**6)
    assert f"→ {bot} +{out['rating'][side]}" in shown and "🚪" not in shown
