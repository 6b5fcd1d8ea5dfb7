"""Game records (issue 15, "The record of a match", "Checking a record"): the record of a
finished match of every variant replays to the stored result; records are given out only
after the end, in the match's chat or to its players; bad records get an answer and change
nothing."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

import engine
from engine import records
from service.game import GameService
from service.records import dump_record
from service.views import ErrorCode, RecordFile, Status
from storage.models import Base
from tests import storagekit as kit
from tests.servicekit import FakeClock

#: Short matches of every variant (options the variant reads, RULES.md §1, §2).
SHORT = {"classic": {"match_limit": 51}, "donkey": {"match_limit": 51},
         "chcv": {"match_limit": 51}, "telephone": {"match_limit": 100},
         "muggins": {"match_limit": 100}, "traditional": {"match_limit": 50},
         "sport": {"deals": 4}, "seven": {"sticks": 1}}


@pytest.fixture
async def svc(store_url):
    service = await GameService.open(store_url, clock=FakeClock(),
                                     seed_source=itertools.count(1000).__next__)
    yield service
    await service.close()


async def finished_match(svc: GameService, variant: str, chat_id: int, seed: int,
                         rules: dict | None = None):
    """A match of ``variant`` played to its end with random legal moves (every move a
    ``MoveOption``, several tiles included); the last result.  ``rules``: options of the
    game (default :data:`SHORT`'s)."""
    rules = {"variant": variant, **(SHORT.get(variant, {}) if rules is None else rules)}
    full = engine.Rules.from_json(rules)
    players = 4 if full.spec.players_range(full)[0] == 4 else 3
    res = await svc.lobbies.open_lobby(chat_id, None, 1, "Оля", rules)
    for uid in range(2, players + 1):
        res = await svc.lobbies.join(res.match_id, uid, f"Игрок {uid}")
    res = await svc.lobbies.start(res.match_id, 1)
    rng = random.Random(seed)
    while res.status == Status.PLAYING:
        hand = next(h for h in res.hands if h.your_turn)
        res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal), None,
                                 res.version)
        assert res.ok, res.detail
    assert res.status == Status.FINISHED
    return res


async def snapshot(svc: GameService) -> dict[str, list]:
    """Every row of every table (what "nothing changes" compares)."""
    def read(conn):
        return {t.name: sorted(map(tuple, conn.exec_driver_sql(f"SELECT * FROM {t.name}")),
                               key=repr) for t in Base.metadata.sorted_tables}
    return await svc.db.read(read)


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
async def test_the_record_of_a_finished_match_replays_to_the_stored_result(svc, variant):
    res = await finished_match(svc, variant, -100, seed=len(variant))
    rec = await svc.records.record(res.match_id, 2, -100)
    assert isinstance(rec, RecordFile)
    assert rec.filename == f"kozel-{variant}-{res.match_id}.json"
    record = json.loads(rec.data)
    assert record["players"][0] == "Оля" and record["match"]["id"] == res.match_id
    out = records.replay(record)
    rows = await svc.db.read(kit.list_results, res.match_id)
    assert out["finished"] and rows
    last = out["rounds"][-1]["scores"]
    for r in rows:
        assert r.rating == out["rating"][r.side]
        assert r.goat == (r.side in out["goats"])
        assert r.final_score == last[r.side]
        assert r.variant == variant
    assert out.get("title") == next((r.title for r in rows if r.title), None)
    check = await svc.records.check(rec.data)
    assert check.ok and check.finished and check.stored_match == res.match_id and check.stored
    assert check.variant == variant and check.names == tuple(record["players"])
    assert len(check.rounds) == len(out["rounds"])


async def test_a_record_only_after_the_end_and_only_for_its_chat_or_its_players(svc):
    res = await svc.lobbies.open_lobby(-100, None, 1, "Оля", {"match_limit": 51})
    assert await svc.records.record(res.match_id, 1, -100) == ErrorCode.WRONG_STATUS  # a lobby
    await svc.lobbies.join(res.match_id, 2, "Петя")
    res = await svc.lobbies.start(res.match_id, 1)
    assert await svc.records.record(res.match_id, 1, -100) == ErrorCode.WRONG_STATUS  # playing
    await svc.lobbies.stop(res.match_id, 1)
    assert isinstance(await svc.records.record(res.match_id, 1, 1), RecordFile)  # stopped: ended
    done = await finished_match(svc, "classic", -200, seed=5)
    assert isinstance(await svc.records.record(done.match_id, 99, -200), RecordFile)  # in its chat
    assert isinstance(await svc.records.record(done.match_id, 2, 2), RecordFile)  # a player, in DM
    assert await svc.records.record(done.match_id, 99, 99) == ErrorCode.NOT_IN_GAME
    assert await svc.records.record(done.match_id, 99, -300) == ErrorCode.NOT_IN_GAME
    assert await svc.records.record(10**9, 1, -200) == ErrorCode.NOT_FOUND
    assert await svc.records.latest(chat_id=-200) == done.match_id
    assert await svc.records.latest(user_id=1) == done.match_id
    assert await svc.records.latest(user_id=99) is None


async def test_a_record_that_names_a_match_but_differs_from_it_says_so(svc):
    first = await finished_match(svc, "classic", -100, seed=1)
    second = await finished_match(svc, "classic", -200, seed=2)
    rec = await svc.records.record(first.match_id, 1, -100)
    record = json.loads(rec.data)
    record["match"]["id"] = second.match_id
    check = await svc.records.check(dump_record(record))
    assert check.ok and check.stored_match == second.match_id and check.stored is False


async def test_a_record_is_its_match_however_it_spells_tiles_and_names_but_not_if_redealt(
        svc):
    done = await finished_match(svc, "classic", -100, seed=11)
    record = json.loads((await svc.records.record(done.match_id, 1, -100)).data)
    spelled = json.loads(json.dumps(record))
    spelled["players"] = ["A", "B", "C"]
    deal = spelled["rounds"][0]["deal"]
    deal["hands"][0] = ["-".join(reversed(t.split("-"))) for t in reversed(deal["hands"][0])]
    check = await svc.records.check(json.dumps(spelled).encode())
    assert check.ok and check.stored_match == done.match_id and check.stored is True
    # the last round dealt again: the same bazar in another order draws other tiles, so the
    # record replays (or not) to another game, which is never "the stored match"
    redealt = json.loads(json.dumps(record))
    last = redealt["rounds"][-1]
    last["deal"]["bazar"] = list(reversed(last["deal"]["bazar"]))
    check = await svc.records.check(json.dumps(redealt).encode())
    assert check.stored is not True


def _illegal_in_round_3(record: dict) -> dict:
    """The record with its round 3's second decision replaced by a tile of another hand."""
    rnd = record["rounds"][2]
    playing = rnd["decisions"][1]
    hands = rnd["deal"]["hands"]
    seat = next(i for i, h in enumerate(hands) if playing["tile"] in h)
    other = next(t for i, h in enumerate(hands) if i != seat for t in h)
    rnd["decisions"][1] = {"tile": other, "end": "left"}
    return record


async def test_bad_record_files_get_an_answer_and_change_nothing(svc):
    done = await finished_match(svc, "classic", -100, seed=11)
    good = json.loads((await svc.records.record(done.match_id, 1, -100)).data)
    assert len(good["rounds"]) >= 3

    def variant(record, **changes):
        return json.dumps({**record, **changes}).encode()

    twice = json.loads(json.dumps(good))
    hands = twice["rounds"][0]["deal"]["hands"]
    hands[1][0] = hands[0][0]  # one tile in two hands
    short = json.loads(json.dumps(good))
    short["rounds"][0]["deal"]["bazar"].pop()  # a tile missing from the deal
    misdeal = json.loads(json.dumps(good))
    deal = misdeal["rounds"][0]["deal"]
    everything = [t for h in deal["hands"] for t in h] + deal["bazar"]
    doubles = [f"{n}-{n}" for n in range(7)]
    rest = [t for t in everything if t not in doubles]
    deal["hands"] = [doubles[:5] + rest[:2]] + [rest[2 + 7 * i: 9 + 7 * i]
                                                 for i in range(len(deal["hands"]) - 1)]
    used = {t for h in deal["hands"] for t in h}
    deal["bazar"] = [t for t in everything if t not in used]
    cut = json.loads(json.dumps(good))
    cut["rounds"][0]["decisions"] = cut["rounds"][0]["decisions"][:3]
    no_tile = json.loads(json.dumps(good))
    no_tile["rounds"][0]["decisions"][0] = {"tile": "9-9"}
    cases = {
        "malformed JSON": (b'{"players": ["A", "B"], "rounds": [', "json"),
        "not UTF-8": (b'\xff\xfe{"players": []}', "json"),
        "deep nesting": (b"[" * 100_000 + b"]" * 100_000, "json"),
        "wrong types": (variant(good, players="Оля"), "format"),
        "rounds not a list": (variant(good, rounds={"1": []}), "format"),
        "a JSON array": (b"[1, 2, 3]", "format"),
        "10 MB": (b" " * (10 * 1024 * 1024) + json.dumps(good).encode(), "size"),
        "unknown variant": (variant(good, rules={"variant": "burro"}), "variant"),
        "a tile twice": (json.dumps(twice).encode(), "deal"),
        "an incomplete deal": (json.dumps(short).encode(), "deal"),
        "a misdeal": (json.dumps(misdeal).encode(), "misdeal"),
        "a round that stops": (json.dumps(cut).encode(), "rounds"),
        "a decision that is no move": (json.dumps(no_tile).encode(), "format"),
        "an illegal move in round 3": (json.dumps(_illegal_in_round_3(
            json.loads(json.dumps(good)))).encode(), "illegal"),
    }
    before = await snapshot(svc)
    for name, (data, kind) in cases.items():
        check = await svc.records.check(data)
        assert not check.ok and check.error == kind, (name, check)
    illegal = await svc.records.check(cases["an illegal move in round 3"][0])
    assert (illegal.round_no, illegal.decision_no, illegal.rule) == (3, 2, "§1.7")
    misdealt = await svc.records.check(cases["a misdeal"][0])
    assert (misdealt.round_no, misdealt.rule) == (1, "§1.3")
    assert (await svc.records.check(cases["10 MB"][0])).detail == str(len(cases["10 MB"][0]))
    nomove = await svc.records.check(cases["a decision that is no move"][0])
    assert "round 1, decision 1" in nomove.detail
    # a record saved by a text editor with a byte-order mark reads as the record
    assert (await svc.records.check(b"\xef\xbb\xbf" + json.dumps(good).encode())).ok
    assert await snapshot(svc) == before


@pytest.mark.parametrize(("variant", "rules", "mark", "words"), [
    ("seven", {"sticks": 2}, "sticks", ("палк", "Палки:")),
    ("general", {"losses": 2}, "losses", ("проиграно", "Проигрыши:")),
])
async def test_a_games_marks_are_its_stored_result_everywhere(svc, variant, rules, mark, words):
    """Семёрка and Генерал keep no points: their marks are the result (RULES.md §2.8 rules
    7–8: sticks; §2.9 rule 4: lost rounds).  The match's end says them; so do the stored
    result, /history, /stats, the board and the check of the match's record — never a score
    of 0 (issue 30 item 1)."""
    from ui import records as texts
    from ui.render import render_match_end

    res = await finished_match(svc, variant, -100, seed=3, rules=rules)
    final = res.final
    seen = {p.seat: [(m.name, m.count) for m in p.marks] for p in final.players}
    assert all(counts and counts[0][0] == mark for counts in seen.values())
    assert any(c for counts in seen.values() for _, c in counts)  # somebody has some
    # the stored result holds them, seat by seat (a side's for a mark kept per side)
    rows = await svc.db.read(kit.list_results, res.match_id)
    assert {r.seat: [(m["name"], m["count"]) for m in r.marks] for r in rows} == seen
    # /history tells them as the match's end does
    page = await svc.stats.history(chat_id=-100)
    assert {p.seat: [(m.name, m.count) for m in p.marks]
            for p in page.entries[0].players} == seen
    ended = render_match_end("ru", final)
    told = texts.render_history("ru", page, mine=False)
    for p in final.players:
        said = next(line for line in ended.splitlines()
                    if line[:1].isdigit() and p.name in line)
        result = said.split(" — ", 1)[1].rsplit(", рейтинг", 1)[0]
        assert words[0] in result
        assert any(f"{p.name}" in line and f" — {result}" in line
                   for line in told.splitlines()), (result, told)
    assert not re.search(r" — 0( ·|,)", told), told  # a score of 0 is not their result
    # /stats and the board: the marks per match
    person = final.players[0]
    sticks = dict(seen[0])[mark]
    stats = await svc.stats.personal_stats(person.user_id, -100, variant=variant)
    assert [(m.name, m.mean, m.matches) for m in stats.marks] == [(mark, sticks, 1)]
    shown = texts.render_personal("ru", person.name, variant, here=stats, overall=stats)
    assert "средний итоговый счёт" not in shown and "за партию в среднем: " in shown
    board = await svc.stats.leaderboard(-100, variant=variant)
    assert {r.user_id: [(m.name, m.mean) for m in r.marks] for r in board} == {
        p.user_id: [(mark, float(dict(seen[p.seat])[mark]))] for p in final.players}
    assert "за партию в среднем" in texts.render_board("ru", board, variant=variant,
                                                       everywhere=False, with_bots=False)
    # the record check: the marks after each round and at the end, not points of 0
    rec = await svc.records.record(res.match_id, 1, -100)
    check = await svc.records.check(rec.data)
    assert check.stored and [t.name for t in check.marks] == [mark]
    tally = check.marks[0]
    for p in final.players:
        assert tally.counts[p.seat if tally.per == "seat" else p.side] == dict(seen[p.seat])[
            mark]
    assert all(r.marks and r.marks[0].name == mark for r in check.rounds)
    assert check.rounds[-1].marks[0].counts == tally.counts
    said = texts.render_record_check("ru", check, limit=10**6)
    assert "очки раунда" not in said and words[1] in said
    final_line = next(line for line in said.splitlines() if "Итоговый счёт" in line)
    assert words[0] in final_line
