"""Choosing the game through the service (RULES.md §2): a lobby or a solo match of a variant,
a lobby's variant changed before the start, a chat's default variant, what moves with a
switch (the options the new game reads) and what is dropped, and the variant fields of the
views (resets, specials, sticks, lost rounds) against the engine, on real SQLite files."""

from __future__ import annotations

import random

import pytest

import engine
from service.game import GameService
from service.live.rulebook import full_rules, switch_variant, variant_infos
from service.views import ErrorCode, Status
from storage import repository as repo
from tests.servicekit import FakeClock
from tests.variantkit import play_to_end, seat


def seven_seats_three(real):
    """``rules_players`` as if Семёрка seated at most three (rules JSON or engine rules)."""
    def players(rules):
        variant = rules["variant"] if isinstance(rules, dict) else rules.variant
        return (2, 3) if variant == "seven" else real(rules)
    return players

@pytest.fixture
async def svc(store_url):
    service = await GameService.open(store_url, clock=FakeClock(),
                                     seed_source=iter(range(1000, 5000)).__next__)
    yield service
    await service.close()


def test_the_catalogue_names_every_game_of_the_engine():
    infos = variant_infos()
    assert list(infos)[0] == "classic" and set(infos) == set(engine.VARIANTS)
    for name, info in infos.items():
        spec = engine.VARIANTS[name]
        assert (info.section, info.layout, info.players, info.race) == (
            spec.section, spec.layout, tuple(spec.players), bool(spec.race))
        assert dict(info.options) == dict(spec.options)
    assert infos["sport"].fixed == {"teams": True} and not infos["sport"].reads("teams")
    assert infos["telephone"].reads("multi_doubles") and infos["telephone"].race
    assert not infos["chcv"].reads("fish_scoring")  # RULES.md §2.3 reads no fish scoring


def test_switching_keeps_the_chosen_options_the_new_game_reads_and_drops_the_rest():
    """RULES.md §2: an option a variant does not read is refused unless at its §1 default,
    so a switch must drop it; the options it reads with the same default keep the chat's
    choice, and the
    variant's own defaults fill the rest (the sea goat's 25 to open, §2.1 rule 4)."""
    chosen = {"match_limit": 151, "fish_scoring": "each_own", "teams": True,
              "bazar_reserve": 1, "turn_timeout": 30}
    sea = switch_variant(chosen, "sea_goat")
    # a limit is kept only between games that agree on its default (classic and ЧЧВ, 101):
    # the sea goat plays to its own 125 (§2.1), a race has a target, not a goat's limit
    assert sea == {"variant": "sea_goat", "teams": True, "bazar_reserve": 1,
                   "turn_timeout": 30}
    assert full_rules(sea)["match_limit"] == 125
    assert switch_variant({"variant": "telephone", "match_limit": 300}, "classic") == {}
    assert switch_variant({"match_limit": 51}, "telephone") == {"variant": "telephone"}
    assert switch_variant({"variant": "telephone", "match_limit": 300}, "muggins") == {
        "variant": "muggins"}
    assert full_rules(sea)["open_threshold"] == 25
    assert switch_variant(chosen, "chcv") == {"variant": "chcv", "match_limit": 151,
                                              "bazar_reserve": 1, "turn_timeout": 30}
    sport = switch_variant(chosen, "sport")  # teams fixed, no limit (§2.7)
    assert sport == {"variant": "sport", "fish_scoring": "each_own", "bazar_reserve": 1,
                     "turn_timeout": 30}
    assert full_rules(sport)["teams"] is True
    # a variant's default is no choice: the donkey's each_own does not follow to classic
    assert switch_variant(full_rules({"variant": "donkey"}), "classic") == {}
    assert switch_variant({"variant": "seven", "sticks": 5}, "general") == {
        "variant": "general"}
    with pytest.raises(ValueError, match="variant"):
        switch_variant({}, "domino_poker")
    for a in variant_infos():
        for b in variant_infos():  # every switch gives rules the engine accepts
            assert full_rules(switch_variant(full_rules({"variant": a}), b))["variant"] == b


async def test_a_lobby_of_a_variant_keeps_the_chats_options_it_reads(svc):
    await svc.people.update_chat(-5, rules={"fish_scoring": "each_own", "match_limit": 151})
    res = await svc.lobbies.open_lobby(-5, None, 1, "A", variant="chcv")
    assert res.ok and res.lobby.rules["variant"] == "chcv"
    assert res.lobby.rules["match_limit"] == 151 and "fish_scoring" not in res.lobby.rules
    other = await svc.lobbies.open_lobby(-5, 9, 1, "A", variant="sport")
    assert (other.lobby.min_players, other.lobby.max_players) == (4, 4)
    assert other.lobby.rules["fish_scoring"] == "each_own"
    bad = await svc.lobbies.open_lobby(-5, 10, 1, "A", variant="poker")
    assert bad.error == ErrorCode.BAD_RULES
    assert (await svc.store.find_open(-5, 10)).error == ErrorCode.NOT_FOUND


async def test_the_creator_changes_the_lobbys_variant_and_the_seats_stay(svc, store_url):
    res = await seat(svc, -7, 3, rules={"match_limit": 51, "bazar_reserve": 2})
    mid, version = res.match_id, res.version
    svc.clock.advance(100)
    assert (await svc.lobbies.change_variant(mid, 2, "sea_goat")).error == ErrorCode.NOT_CREATOR
    assert (await svc.lobbies.change_variant(mid, 1, "bridge")).error == ErrorCode.BAD_RULES
    changed = await svc.lobbies.change_variant(mid, 1, "sea_goat")
    assert changed.ok and changed.version == version + 1
    rules = changed.lobby.rules
    assert (rules["variant"], rules["match_limit"], rules["bazar_reserve"]) == (
        "sea_goat", 125, 2)  # the reserve is kept; the sea goat plays to its own limit
    assert [p.user_id for p in changed.lobby.players] == [1, 2, 3]
    assert changed.lobby.deadline_at == svc.clock() + 600  # the lobby lives on
    admin = await svc.lobbies.change_variant(mid, 3, "seven", force=True)  # a chat admin
    assert admin.ok and admin.lobby.rules == full_rules({"variant": "seven"})
    sport = await svc.lobbies.change_variant(mid, 1, "sport")
    assert (sport.lobby.min_players, sport.lobby.max_players) == (4, 4)
    assert (await svc.lobbies.start(mid, 1)).error == ErrorCode.NOT_ENOUGH_PLAYERS
    await svc.lobbies.join(mid, 4, "P4")
    # the stored rules are the lobby's: a fresh service deals a sport match
    other = await GameService.open(store_url, clock=FakeClock(),
                                   seed_source=lambda: 77)
    try:
        started = await other.lobbies.start(mid, 1)
        assert started.ok and started.table.variant == "sport"
        assert started.table.deals == 8 and started.table.teams
    finally:
        await other.close()
    assert (await svc.lobbies.change_variant(mid, 1, "classic")).error in (ErrorCode.WRONG_STATUS,
                                                                  ErrorCode.STALE)


async def test_a_change_to_a_game_with_fewer_seats_is_refused(svc, monkeypatch):
    """No game of RULES.md §2 seats fewer than four, so the refusal is shown with a variant
    that would seat three: the lobby stays as it was."""
    import service.lobbies as lobbies

    res = await seat(svc, -8, 4)
    real = lobbies.rules_players
    monkeypatch.setattr(lobbies, "rules_players", seven_seats_three(real))
    refused = await svc.lobbies.change_variant(res.match_id, 1, "seven")
    assert refused.error == ErrorCode.TOO_MANY_PLAYERS and "3" in refused.detail
    assert refused.lobby.rules["variant"] == "classic" and len(refused.lobby.players) == 4
    row = await svc.db.read(repo.get_match, res.match_id)
    assert row.version == res.version and row.rules["variant"] == "classic"


async def test_the_chats_default_variant(svc):
    await svc.people.update_chat(-9, rules={"teams": True, "fish_scoring": "own_to_max",
                                            "turn_timeout": 90})
    sea = await svc.people.update_chat(-9, variant="sea_goat")
    assert sea.ok and sea.chat.rules == {"variant": "sea_goat", "teams": True,
                                         "turn_timeout": 90}
    assert sea.chat.full_rules["match_limit"] == 125
    back = await svc.people.update_chat(-9, variant="classic")
    assert back.ok and back.chat.rules == {"teams": True, "turn_timeout": 90}
    assert back.chat.full_rules["fish_scoring"] == "all_to_max"  # dropped on the way
    bad = await svc.people.update_chat(-9, variant="whist")
    assert bad.error == ErrorCode.BAD_RULES and bad.chat.rules == back.chat.rules
    both = await svc.people.update_chat(-9, variant="donkey", rules={"teams": False})
    assert both.error == ErrorCode.BAD_RULES
    res = await svc.lobbies.open_lobby(-9, None, 1, "A")
    assert res.lobby.rules["variant"] == "classic" and res.lobby.min_players == 4


async def test_solo_matches_of_a_variant_check_the_player_count(svc):
    refused = await svc.lobbies.open_solo(50, "Оля", bots_count=1, variant="general")
    assert refused.error == ErrorCode.NOT_ENOUGH_PLAYERS
    assert (await svc.store.find_open(50, None)).error == ErrorCode.NOT_FOUND  # nothing left open
    res = await svc.lobbies.open_solo(50, "Оля", bots_count=3, variant="general")
    assert res.ok and res.table.variant == "general" and res.table.teams
    other = await svc.lobbies.open_solo(51, "Петя", bots_count=2, strength="easy",
                                        variant="telephone")
    assert other.ok and other.table.layout.kind == "cross" and other.table.match_limit == 225


async def test_variant_fields_of_the_views_follow_the_engine(svc):
    """Whole matches of every game through the service: each round's summary and the match
    end carry the variant's fields as the engine's state says (sticks §2.8, lost rounds
    §2.9, ЧЧВ's specials §2.3 rule 4, a reset only where a score fell to 0)."""
    rng = random.Random(11)
    chat = -20
    for name, info in variant_infos().items():
        players = max(info.players[0], min(3, info.players[1]))  # Колбаса seats 2
        chat -= 1
        res = await seat(svc, chat, players, variant=name)
        res = await svc.lobbies.start(res.match_id, 1)
        assert res.ok and res.table.variant == name and res.table.rules["variant"] == name
        end, seen = await play_to_end(svc, res, rng)
        assert end.status == Status.FINISHED and end.final.variant == name
        state = await engine_state_of(svc, end.match_id)
        counts = state.rules.spec.mark_counts(state)
        for p in end.final.players:
            # every mark the game declares, each with its own count (the seat's or the side's)
            assert [(m.name, m.count, m.limit) for m in p.marks] == [
                (m.name, counts[m.name][p.seat if m.per == "seat" else p.side],
                 getattr(state.rules, m.limit)) for m in state.rules.spec.marks]
            assert [m.name for m in p.marks] == [m.name for m in info.marks]
        assert ("sticks" in counts, "losses" in counts) == (name == "seven", name == "general")
        previous = res.table.scores
        for r in seen:
            for summary in r.rounds:
                assert summary.variant == name and summary.rules["variant"] == name
                assert set(summary.reset) == {s for s, (a, b) in enumerate(
                    zip(previous, summary.scores, strict=True)) if a > 0 and b == 0} or info.race
                if name != "chcv":
                    assert summary.specials == ()
            if r.table is not None and r.rounds:
                previous = r.rounds[-1].scores


async def engine_state_of(svc: GameService, match_id: int):
    """The engine's state of a stored match, moves of several tiles included."""
    def read(conn):
        return repo.get_match(conn, match_id), repo.list_actions(conn, match_id)

    row, actions = await svc.db.read(read)
    from engine.records import parse_decision

    state, _ = engine.new_match(engine.Rules.from_json(row.rules), len(row.seats), row.seed)
    for a in actions:
        d = {k: v for k, v in a.decision.items() if k != "bot"}
        if d.get("host"):
            state, _ = engine.apply_host_move(state)
        else:
            state, _ = engine.apply(state, a.seat, parse_decision(d, state.rules.set)[0])
    return state


async def test_chcv_specials_reach_the_summary(svc):
    """RULES.md §2.3 rule 4: the specials that fired at a round's end are in its summary,
    as the engine's ``special`` events name them, in the same order."""
    rng = random.Random(5)
    found = 0
    for k in range(40):
        res = await seat(svc, -300 - k, 3, variant="chcv")
        res = await svc.lobbies.start(res.match_id, 1)
        _, seen = await play_to_end(svc, res, rng)
        for r in seen:
            fired = tuple((e["rule"], e["seat"]) for e in r.events if e["kind"] == "special")
            for summary in r.rounds:
                assert summary.specials == fired
                found += bool(fired)
        if found >= 2:
            break
    assert found >= 2
