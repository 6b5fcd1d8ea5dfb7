"""The double-N sets and the option ``set`` (RULES.md §2.10)."""

from __future__ import annotations

import pytest

from engine import Move, Rules, Tile, errors
from engine.moves import target_fields
from engine.tiles import (
    ALL_TILES,
    SUITS,
    TILE_ID,
    TILES,
    set_mask,
    set_size,
    set_tiles,
    tiles_of,
)
from engine.variant import VARIANTS


@pytest.mark.parametrize("top,tiles,pips", [(6, 28, 168), (9, 55, 495), (12, 91, 1092)])
def test_2_10_1_a_double_n_set(top, tiles, pips):
    """RULES.md §2.10.1: every [a|b] with 0 ≤ a ≤ b ≤ N once: (N+1)(N+2)/2 tiles, N+1
    doubles, N+1 tiles per suit, N(N+1)(N+2)/2 pips."""
    got = set_tiles(top)
    assert len(got) == set_size(top) == tiles == (top + 1) * (top + 2) // 2
    assert len(set(got)) == tiles and all(0 <= t.a <= t.b <= top for t in got)
    assert sum(t.is_double for t in got) == top + 1
    assert sum(t.pips for t in got) == pips == top * (top + 1) * (top + 2) // 2
    for n in range(top + 1):
        assert (SUITS[n] & set_mask(top)).bit_count() == top + 1
    assert set_mask(top) == sum(1 << TILE_ID[t] for t in got)


def test_2_10_1_every_set_is_a_prefix_of_the_ids_and_double_six_keeps_its_own():
    """The double-six ids are unchanged (0..27 in the order [0|0], [0|1], …, [6|6]); the
    tiles above follow, so a set is a prefix of the ids."""
    assert ALL_TILES[:28] == TILES == tuple(Tile(a, b) for a in range(7) for b in range(a, 7))
    assert [TILE_ID[t] for t in TILES] == list(range(28))
    assert ALL_TILES[28] == Tile(0, 7) and ALL_TILES[54] == Tile(9, 9)
    assert ALL_TILES[90] == Tile(12, 12)


@pytest.mark.parametrize("text,top,tile", [
    ("9-12", 12, (9, 12)), ("12-9", 12, (9, 12)), ("[9|12]", 12, (9, 12)),
    ("[10|9]", 12, (9, 10)), ("7-7", 9, (7, 7)), ("25", 12, (2, 5)), ([12, 0], 12, (0, 12)),
])
def test_2_10_3_big_tiles_are_written_in_decimal(text, top, tile):
    """RULES.md §2.10.3: [9|12], "9-12" in a record; a ≤ b compares numbers."""
    t = Tile.parse(text, top)
    assert t == Tile(*tile) and str(t) == f"[{tile[0]}|{tile[1]}]"
    assert t.code() == f"{tile[0]}-{tile[1]}"


@pytest.mark.parametrize("text,top", [("7-9", 6), ("10-12", 9), ("13-1", 12), ("912", 12),
                                      ("9-", 12)])
def test_2_10_3_a_tile_outside_the_set_is_refused(text, top):
    with pytest.raises(ValueError):
        Tile.parse(text, top)


def test_2_10_3_hands_list_tiles_by_number():
    """RULES.md §2.10.3: [9|10] before [10|10], never [10|9]."""
    mask = sum(1 << TILE_ID[Tile.of(a, b, 12)] for a, b in [(10, 10), (9, 10), (0, 12), (6, 6)])
    assert [str(t) for t in tiles_of(mask)] == ["[0|12]", "[6|6]", "[9|10]", "[10|10]"]


@pytest.mark.parametrize("game", sorted(set(VARIANTS) - {"mexican_train"}))
@pytest.mark.parametrize("value", [9, 12])
def test_2_10_2_every_other_game_refuses_a_set_other_than_6(game, value):
    """RULES.md §2.10.2: only Мексиканский поезд reads ``set``; any other game refuses a set
    other than 6 with an error naming it (and takes 6, writing no ``set`` in its rules)."""
    section = VARIANTS[game].section.replace(".", r"\.")
    with pytest.raises(ValueError, match=rf"{game}.*set.*{section}"):
        Rules(variant=game, set=value)
    rules = Rules(variant=game, set=6)
    assert rules == Rules(variant=game) and rules.set == 6
    assert "set" not in rules.to_json()


def test_2_10_2_set_is_one_of_6_9_12():
    with pytest.raises(ValueError):
        Rules(variant="mexican_train", set=15)
    with pytest.raises(ValueError):
        Rules(set="12")
    assert Rules.from_json({"variant": "mexican_train", "set": 9}).set == 9


def test_placement_targets_round_trip_through_the_record_form():
    """RULES.md §2.10.0: a placement names an end, a train, a line (with a position) or a
    cut, never two."""
    for move in (Move(Tile.of(5, 12, 12), train=0), Move(Tile.of(5, 9, 12), train="mexican"),
                 Move(Tile.of(1, 2), line="a"), Move(Tile.of(6, 6), line="b", at=3),
                 Move(Tile.of(0, 1), cut=2)):
        code = move.codes[0][1]
        assert Move(move.tile, **target_fields(code)) == move
        assert move.to_dict()["tile"] == move.tile.code()
    with pytest.raises(ValueError):
        Move(Tile.of(1, 2), "left", train=0).codes  # noqa: B018
    with pytest.raises(ValueError):
        Move(Tile.of(1, 2), train=9).codes  # noqa: B018
    assert issubclass(errors.UnknownEnd, errors.IllegalMove)
