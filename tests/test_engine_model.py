"""Tiles and the Rules value (RULES.md §0, §1.1, option table of §1)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import TILES, Rules, Tile


def test_double_six_set_has_28_tiles_and_7_doubles():
    """RULES.md §1.1."""
    assert len(TILES) == 28 and len(set(TILES)) == 28
    assert sum(t.is_double for t in TILES) == 7
    assert all(t.a <= t.b for t in TILES)


@pytest.mark.parametrize("text", ["2-5", "5-2", "[2|5]", "[5|2]", "25", [5, 2]])
def test_tile_notations_parse_to_one_tile(text):
    """RULES.md §0: ``[a|b]`` with a <= b in a hand."""
    t = Tile.parse(text)
    assert t == Tile(2, 5) and str(t) == "[2|5]" and t.code() == "2-5" and t.pips == 7


@pytest.mark.parametrize("text", ["7-1", "", "2-", "[2|5|6]", None, 25, [1, 9]])
def test_bad_tiles_raise_value_error(text):
    with pytest.raises(ValueError):
        Tile.parse(text)


def test_rules_defaults_follow_the_rule_book():
    r = Rules()
    assert (r.bazar_reserve, r.fish_without_double, r.lone_zero_double_value) == (0, True, 10)
    assert (r.open_threshold, r.fish_scoring, r.teams, r.match_limit) == (13, "all_to_max",
                                                                            False, 101)
    assert r.afk_limit == 2


@given(st.builds(Rules, bazar_reserve=st.integers(0, 2), fish_without_double=st.booleans(),
                 fish_scoring=st.sampled_from(["all_to_max", "each_own", "own_to_max"]),
                 teams=st.booleans(), match_limit=st.integers(1, 500),
                 turn_timeout=st.integers(5, 600), afk_limit=st.integers(1, 9)))
def test_rules_round_trip_through_json(rules):
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


@pytest.mark.parametrize("bad", [
    {"bazar_reserve": 3}, {"fish_scoring": "max"}, {"teams": "yes"}, {"match_limit": 0},
    {"variant": "burro"}, {"colour": "red"}, {"turn_timeout": 1.5},
])
def test_invalid_rules_are_refused(bad):
    with pytest.raises(ValueError):
        Rules.from_json(bad)


def test_rules_are_immutable_and_check_the_players():
    r = Rules(teams=True)
    with pytest.raises(AttributeError):
        r.teams = False  # type: ignore[misc]
    r.check_players(4)
    for n in (2, 3, 5):
        with pytest.raises(ValueError):
            r.check_players(n)
    with pytest.raises(ValueError):
        Rules().check_players(1)


def test_engine_is_pure():
    """ARCHITECTURE: engine/ imports no bot, storage, asyncio or network code."""
    import ast
    import pathlib

    forbidden = {"aiogram", "asyncio", "aiosqlite", "sqlalchemy", "storage", "service",
                 "handlers", "ui", "socket", "aiohttp", "sqlite3"}
    for path in pathlib.Path(__file__).resolve().parents[1].joinpath("engine").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for n in names:
                assert n.split(".")[0] not in forbidden, f"{path.name} imports {n}"
