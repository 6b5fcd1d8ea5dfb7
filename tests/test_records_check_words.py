"""The answer to a record a person sends, in their words (issue 20 item 9): an illegal
decision names the player (not a 0-based seat), the tile and what is wrong with it, and cites
the rule by its section and name in the rule book (a link with ``RULES_URL``) with no
English engine text; a misdeal names whose hand it is; a record of a stored match whose
players are named otherwise says which names differ instead of «Совпадает с партией #…»."""

from __future__ import annotations

import json

import pytest

from tests.localekit import foreign_words
from tests.test_service_records import _illegal_in_round_3, finished_match, svc  # noqa: F401
from ui import records
from ui.i18n import get_translator

TR = get_translator()
LOCALES = ("ru", "uk", "en")
URL = "https://example.org/kozel/RULES.md"


async def _record(svc, seed: int) -> tuple[int, dict]:  # noqa: F811
    done = await finished_match(svc, "classic", -100 - seed, seed=seed)
    return done.match_id, json.loads((await svc.records.record(done.match_id, 1,
                                                                -100 - seed)).data)


async def test_an_illegal_move_names_the_player_the_tile_and_the_rule(svc):  # noqa: F811
    _, good = await _record(svc, 11)
    bad = _illegal_in_round_3(json.loads(json.dumps(good)))
    rnd = bad["rounds"][2]
    tile = rnd["decisions"][1]["tile"]
    check = await svc.records.check(json.dumps(bad).encode())
    assert check.error == "illegal" and check.reason == "TileNotInHand"
    assert check.tiles == (tile,)
    holder = next(i for i, h in enumerate(rnd["deal"]["hands"]) if tile in h)
    assert check.seat is not None and check.seat != holder
    name = good["players"][check.seat]
    a, b = tile.split("-")
    for locale in LOCALES:
        text = records.render_record_check(locale, check, limit=1_000_000, tr=TR)
        assert name in text and f"[{a}|{b}]" in text
        # the section by its number and name in the rule book; players have no RULES.md
        # (tests/test_docs.py), so the file is named only as the RULES_URL link
        assert "§1.7" in text and TR.t(locale, "chk-book") in text and "seat" not in text
        assert "RULES.md" not in text
        assert foreign_words(text, locale, allowed=good["players"]) == [], text
        linked = records.render_record_check(locale, check, limit=1_000_000,
                                             rules_url=URL, tr=TR)
        assert f'<a href="{URL}">' in linked and "§1.7" in linked


async def test_a_misdeal_names_whose_hand_it_is(svc):  # noqa: F811
    _, good = await _record(svc, 12)
    deal = good["rounds"][0]["deal"]
    everything = [t for h in deal["hands"] for t in h] + deal["bazar"]
    doubles = [f"{n}-{n}" for n in range(7)]
    rest = [t for t in everything if t not in doubles]
    n = len(deal["hands"])
    deal["hands"] = [rest[:7], doubles[:5] + rest[7:9]] + [
        rest[9 + 7 * i: 16 + 7 * i] for i in range(n - 2)]
    used = {t for h in deal["hands"] for t in h}
    deal["bazar"] = [t for t in everything if t not in used]
    check = await svc.records.check(json.dumps(good).encode())
    assert check.error == "misdeal" and check.seat == 1
    for locale in LOCALES:
        text = records.render_record_check(locale, check, limit=1_000_000, tr=TR)
        assert good["players"][1] in text and "§1.3" in text and "hand 1" not in text
        assert foreign_words(text, locale, allowed=good["players"]) == [], text


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_renamed_player_is_not_the_same_record(svc, locale):  # noqa: F811
    match_id, good = await _record(svc, 13)
    renamed = json.loads(json.dumps(good))
    renamed["players"][1] = "Маша"
    check = await svc.records.check(json.dumps(renamed).encode())
    assert check.stored is True and check.renamed == ((good["players"][1], "Маша"),)
    text = records.render_record_check(locale, check, limit=1_000_000, tr=TR)
    assert TR.t(locale, "chk-stored-same", id=match_id) not in text
    assert f"{good['players'][1]} → Маша" in text and f"#{match_id}" in text
    # the record as the bot gave it: the same match, nothing renamed
    same = await svc.records.check(json.dumps(good).encode())
    assert same.stored is True and same.renamed == ()
    assert TR.t(locale, "chk-stored-same", id=match_id) in records.render_record_check(
        locale, same, limit=1_000_000, tr=TR)


def _malformed(good: dict) -> dict[str, dict | list]:
    """Records malformed in each way the check names (issue 30 item 9), by what it is."""
    def edited(change) -> dict:
        record = json.loads(json.dumps(good))
        change(record)
        return record

    return {
        "object": [good],
        "rules": edited(lambda r: r["rules"].update(match_limit="many")),
        "players": edited(lambda r: r.update(players="Оля и Петя")),
        "player_count": edited(lambda r: r.update(players=r["players"] * 3)),
        "rounds": edited(lambda r: r.update(rounds="all of them")),
        "start": edited(lambda r: r.update(start=[0, 0])),
        "round": edited(lambda r: r["rounds"].insert(0, 7)),
        "decisions": edited(lambda r: r["rounds"][0].update(decisions="played")),
        "decision": edited(lambda r: r["rounds"][0]["decisions"].__setitem__(1, {"x": 1})),
    }


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_malformed_record_is_explained_in_the_readers_words(svc, locale):  # noqa: F811
    """Issue 30 item 9: what is malformed in a file that is no record is said in the chat's
    language — no English engine words in a Russian or Ukrainian chat («Подробно: a record
    is a JSON object») — and says where (the round and the move) when it is a move."""
    _, good = await _record(svc, 14)
    told = set()
    for problem, record in _malformed(good).items():
        check = await svc.records.check(json.dumps(record).encode())
        assert not check.ok and check.error == "format", (problem, check)
        assert check.problem == problem, (problem, check)
        text = records.render_record_check(locale, check, limit=1_000_000, tr=TR)
        assert foreign_words(text, locale, allowed=good["players"]) == [], (problem, text)
        assert check.detail[:20] not in text, (problem, text)
        if problem == "decision":
            assert "1" in text and "2" in text
        told.add(text.splitlines()[-1])
    assert len(told) == len(_malformed(good))  # each problem in words of its own
