"""ui.callbacks: 64-byte limit, round trips, and clean rejection of forged data."""

from __future__ import annotations

import asyncio

import pytest
from aiogram.types import CallbackQuery, User
from hypothesis import given
from hypothesis import strategies as st

import engine
from service.views import PlacementOption
from ui.callbacks import (
    LOBBY_ACTIONS,
    MAX_CALLBACK_BYTES,
    MAX_PLACEMENTS,
    SETTINGS_MENU,
    VERSIONS,
    BadCallback,
    HistoryCb,
    HoldCb,
    LangCb,
    LeaveCb,
    LobbyCb,
    MoveCb,
    PlaceCb,
    PlayCb,
    RecordCb,
    SettingsCb,
    SoloCb,
    StatsCb,
    StopCb,
    TopCb,
    VariantCb,
    end_code,
    move_callback,
    pack_placements,
    parse_callback,
    place_callback,
    play_callback,
    target_code,
    target_fields,
    tile_halves,
    tile_id,
    unpack_placements,
)
from ui.settings import settings

SETTINGS_KEYS = tuple(s.key for s in settings()) + SETTINGS_MENU

ids = st.integers(min_value=0, max_value=2**63 - 1)
variants = st.from_regex(r"[a-z_]{1,16}", fullmatch=True)

placement = st.builds(PlacementOption, st.sampled_from([f"{a}-{b}" for a in range(7)
                                                        for b in range(a, 7)]),
                      st.sampled_from(["left", "right", "up", "down", "gap", None]),
                      st.booleans(), st.booleans())
moves = st.lists(placement, max_size=MAX_PLACEMENTS, unique_by=lambda p: p.tile)


def play_cb(game, ver, act, placements):
    if act == "t":
        placements = []
    elif act == "p" and not placements:
        placements = [PlacementOption("0-0", "left")]
    return PlayCb(game=game, ver=ver, act=act, move=pack_placements(placements))


callbacks = st.one_of(
    st.builds(MoveCb, game=ids, ver=ids, tile=st.integers(0, 27),
              end=st.sampled_from(["l", "r", "-"])),
    st.builds(play_cb, ids, ids, st.sampled_from(["p", "b", "t"]), moves),
    st.builds(LobbyCb, action=st.sampled_from(LOBBY_ACTIONS), lobby=ids),
    st.builds(SettingsCb, key=st.sampled_from(SETTINGS_KEYS),
              value=st.from_regex(r"[a-z0-9_]{0,16}", fullmatch=True)),
    st.builds(StopCb, match=ids, confirm=st.booleans()),
    st.builds(LangCb, code=st.sampled_from(["ru", "uk", "en"])),
    # players' records (issues 12, 15)
    st.builds(TopCb, variant=variants, everywhere=st.booleans()),
    st.builds(StatsCb, user=ids, variant=variants),
    st.builds(HistoryCb, page=st.integers(0, 10**6)),
    st.builds(RecordCb, match=ids),
    st.builds(LeaveCb, match=ids, user=ids, action=st.sampled_from(["ask", "yes", "no"])),
    st.builds(HoldCb, match=ids, ver=ids, choice=st.sampled_from(["bot", "end"])),
)


@given(callbacks)
def test_every_packed_callback_fits_64_bytes_and_round_trips(cb):
    data = cb.pack()
    assert len(data.encode("utf-8")) <= MAX_CALLBACK_BYTES
    back = parse_callback(data)
    assert type(back) is type(cb)
    assert back == cb
    assert type(cb).unpack(data) == cb


@given(st.text(max_size=80))
def test_garbage_is_rejected_cleanly_or_is_canonical(text):
    try:
        cb = parse_callback(text)
    except BadCallback:
        return
    # Anything accepted is exactly what some button would carry.
    assert cb.pack() == text


@given(callbacks, st.integers(0, 63), st.text(min_size=1, max_size=3))
def test_forged_variants_of_valid_data_never_escape_as_other_errors(cb, pos, junk):
    data = cb.pack()
    pos = min(pos, len(data))
    forged = data[:pos] + junk + data[pos + 1:]
    try:
        back = parse_callback(forged)
    except BadCallback:
        return
    assert back.pack() == forged


@pytest.mark.parametrize(
    "data",
    [
        None, "", "m1", "m1:1:2:3", "m1:1:2:3:l:extra", "m1:1:2:28:l", "m1:1:2:3:x",
        "m1:01:2:3:l", "m1:+1:2:3:l", "m1: 1:2:3:l", "m1:1:2:-1:l", "m1:1:2:3:left",
        "m1:9223372036854775808:1:1:l", "m1:1_0:2:3:l", "m0:1:2:3:l", "m2:1:2:3:l",
        "l1:join:-5", "l1:JOIN:5", "l1:steal:5", "x1:5:true", "x1:5:yes", "x1:5:2",
        "s1:bogus:", "s2:lang:RU", "s2:lang:a:b", "s2:BOGUS:", "g1:de", "m1:１:2:3:l", "x" * 65,
        # moves of the variants and moves being built (issues 12, 13)
        "p1:1:2:p:", "p1:1:2:t:00", "p1:1:2:b:zz", "p1:1:2:b:0", "p1:1:2:b:0A", "p1:1:2:b:0000",
        "p1:1:2:b:0000000000", "p1:1:2:x:00", "p1:1:2:b", "p1:1:2:b:00:", "p0:1:2:b:",
        "p2:1:2:b:", "p1:01:2:b:", "p1:1:2:b:io", "p1:1:2:b:00 ", "p1:-1:2:b:",
    ],
)
def test_known_forgeries_raise_bad_callback(data):
    with pytest.raises(BadCallback):
        parse_callback(data)


def test_bad_callback_is_a_value_error_so_aiogram_filters_skip_it():
    assert issubclass(BadCallback, ValueError)
    query = CallbackQuery(
        id="1", chat_instance="c", data="m1:01:2:3:l",
        from_user=User(id=1, is_bot=False, first_name="A"),
    )
    assert asyncio.run(MoveCb.filter()(query)) is False
    good = query.model_copy(update={"data": "m1:1:2:3:l"})
    assert asyncio.run(MoveCb.filter()(good)) == {
        "callback_data": MoveCb(game=1, ver=2, tile=3, end="l")
    }


def test_prefixes_carry_each_factorys_version():
    factories = (MoveCb, PlayCb, LobbyCb, SettingsCb, StopCb, LangCb, VariantCb, SoloCb,
                 TopCb, StatsCb, HistoryCb, RecordCb, LeaveCb, HoldCb, PlaceCb)
    for cls in factories:
        letter = cls.__prefix__[0]
        assert cls.__prefix__ == f"{letter}{VERSIONS[letter]}"
    assert len({cls.__prefix__[0] for cls in factories}) == len(VERSIONS) == 15


@pytest.mark.parametrize("data", [
    "t1:Sea:1", "t1::0", "t1:sea_goat:maybe", "u1:-1:classic", "h1:-1", "h1:1000001",
    "d1:abc", "q1:1:2:leave", "q1:1:2", "k1:1:2:both", "k1:1:-2:bot",
])
def test_forged_records_buttons_raise_bad_callback(data):
    with pytest.raises(BadCallback):
        parse_callback(data)


def test_settings_buttons_of_before_the_teams_option_are_stale():
    """The option that switches teams was called ``variant`` (its values ``classic`` and
    ``teams``); it is ``teams`` now, so the settings factory's version went up and an old
    button parses as nothing (the handlers answer it as outdated)."""
    assert SettingsCb.__prefix__ == "s2"
    for old in ("s1:variant:teams", "s1:variant:", "s1:menu:", "s1:done:"):
        with pytest.raises(BadCallback):
            parse_callback(old)
    assert parse_callback("s2:teams:1") == SettingsCb(key="teams", value="1")


def test_tile_ids_match_the_engine_order():
    for tile in engine.TILES:
        assert tile_id(tile) == tile.id
        assert tile_halves(tile.id) == (tile.a, tile.b)
    assert tile_id((5, 2)) == tile_id((2, 5)) == engine.Tile.of(2, 5).id
    assert tile_id("2-5") == tile_id("[5|2]") == tile_id((2, 5))
    for bad in [(13, 1), (-1, 0), "25", "13-1", "2-5x", None, 3]:
        with pytest.raises(ValueError):
            tile_id(bad)
    for bad in [-1, 91, "3"]:
        with pytest.raises(ValueError):
            tile_halves(bad)


def test_move_callback_maps_engine_moves_and_back():
    data = move_callback(7, 42, engine.Tile.of(2, 5), "left")
    cb = parse_callback(data)
    assert isinstance(cb, MoveCb)
    assert (cb.game, cb.ver, cb.halves, cb.engine_end) == (7, 42, (2, 5), "left")
    assert parse_callback(move_callback(7, 42, (6, 6), None)).engine_end is None
    assert parse_callback(move_callback(7, 42, (6, 6), "right")).engine_end == "right"
    with pytest.raises(ValueError):
        end_code("middle")


def test_every_placement_travels_in_two_characters_and_back():
    """RULES.md §2.0.4: a placement is (tile, end, closed, along); each of the 28 × 6 × 4
    has its own two characters."""
    codes = set()
    for a in range(7):
        for b in range(a, 7):
            for end in ("left", "right", "up", "down", "gap", None):
                for closed in (False, True):
                    for along in (False, True):
                        p = PlacementOption(f"{a}-{b}", end, closed, along)
                        code = pack_placements([p])
                        assert len(code) == 2 and unpack_placements(code) == (p,)
                        codes.add(code)
    assert len(codes) == 28 * 6 * 4
    with pytest.raises(ValueError):
        pack_placements([PlacementOption("1-1", "left")] * 2)  # a tile twice
    with pytest.raises(ValueError):
        pack_placements([PlacementOption(f"{d}-{d}", "left") for d in range(5)])
    with pytest.raises(ValueError):
        pack_placements([PlacementOption("1-1", "middle")])


def test_the_largest_play_button_fits_64_bytes():
    """Four placements with the largest codes and the largest ids."""
    four = [PlacementOption(f"{d}-{d}", None, True, True) for d in range(3, 7)]
    data = play_callback(2**63 - 1, 2**63 - 1, "b", four)
    assert len(data.encode()) <= MAX_CALLBACK_BYTES
    cb = parse_callback(data)
    assert isinstance(cb, PlayCb) and cb.placements == tuple(four) and cb.act == "b"
    assert parse_callback(play_callback(1, 2, "t")) == PlayCb(game=1, ver=2, act="t")
    with pytest.raises(ValueError):
        play_callback(1, 2, "p", [])
    with pytest.raises(ValueError):
        play_callback(1, 2, "t", four[:1])


def test_tile_ids_in_buttons_are_the_engines():
    """One table of tile ids (RULES.md §0): a button's compact id is the engine's id."""
    from engine.tiles import TILE_ID
    from ui.callbacks import tile_halves, tile_id
    for tile, tid in TILE_ID.items():
        assert tile_id(f"{tile.a}-{tile.b}") == tid and tile_halves(tid) == (tile.a, tile.b)


# -- placements on the trains and the sausage (issue 32) ----------------------------------------

targets = st.one_of(
    st.builds(PlacementOption, st.just("5-12"), st.none(), train=st.integers(0, 7)),
    st.builds(PlacementOption, st.just("5-12"), st.none(), train=st.just("mexican")),
    st.builds(PlacementOption, st.just("1-2"), st.none(), line=st.sampled_from("ab"),
              at=st.one_of(st.none(), st.integers(0, 27))),
    st.builds(PlacementOption, st.just("1-2"), st.none(), cut=st.integers(1, 14)))


@given(ids, ids, st.integers(0, 90), targets)
def test_a_placement_button_fits_64_bytes_and_round_trips(game, ver, tid, p):
    """RULES.md §2.10.0: a tile of any set (ids 0..90) on any target of the trains and the
    sausage travels in at most 64 bytes, and reads back as it was."""
    a, b = tile_halves(tid)
    data = place_callback(game, ver, "p", f"{a}-{b}", p)
    assert len(data.encode()) <= MAX_CALLBACK_BYTES
    cb = parse_callback(data)
    assert isinstance(cb, PlaceCb) and (cb.game, cb.ver, cb.tile) == (game, ver, tid)
    got = cb.placement
    assert (got.tile, got.train, got.line, got.at, got.cut) == (
        f"{a}-{b}", p.train, p.line, p.at, p.cut)
    fields = target_fields(target_code(p))
    assert {k: fields.get(k) for k in ("train", "line", "at", "cut")} == {
        "train": p.train, "line": p.line, "at": p.at, "cut": p.cut}


def test_every_tile_of_double_twelve_has_an_id():
    """RULES.md §2.10.1: the 91 tiles of double-12, each with its id, [9|12] written both
    ways."""
    assert len({tile_id((a, b)) for a in range(13) for b in range(a, 13)}) == 91
    assert tile_id("9-12") == tile_id("[12|9]") == tile_id((12, 9))
    with pytest.raises(ValueError):
        pack_placements([PlacementOption("7-9", "left")])  # the line is double-six only


@pytest.mark.parametrize("data", [
    "y1:1:2:p:5:", "y1:1:2:p:91:m", "y1:1:2:p:5:8", "y1:1:2:p:5:c0", "y1:1:2:p:5:a07",
    "y1:1:2:c:5:m", "y1:1:2:t:5:", "y1:1:2:x:5:m", "y1:1:2:p:5:mx", "y1:1:2:p:5:c01",
])
def test_forged_placement_buttons_raise_bad_callback(data):
    with pytest.raises(BadCallback):
        parse_callback(data)
