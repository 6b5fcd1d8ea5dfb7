"""Where the picture lays the tiles (ui/picture_layout.py): every layout of RULES.md §2.0 fits
its zone, no two tiles overlap, every tile appears once, touching halves show the same number,
and long arms turn like a snake instead of leaving the picture."""

from __future__ import annotations

import itertools

import pytest

from service.views import EndView, LaidTile, LayoutView
from ui.picture_layout import ROW_UNIT, UNITS, Placed, plan_table

ZONE = (26, 196, 1174, 764)

# A chain of 27 tiles of the double-six set, left to right (all but [0|0]).
CHAIN_27 = ((4, 1), (1, 3), (3, 3), (3, 5), (5, 5), (5, 1), (1, 1), (1, 6), (6, 3), (3, 2),
            (2, 5), (5, 6), (6, 6), (6, 2), (2, 1), (1, 0), (0, 3), (3, 4), (4, 5), (5, 0),
            (0, 6), (6, 4), (4, 2), (2, 2), (2, 0), (0, 4), (4, 4))


def laid(pairs, lay_doubles="across"):
    return tuple(LaidTile(a, b, lay_doubles if a == b else "") for a, b in pairs)


def line(pairs, **kw):
    tiles = laid(pairs)
    return LayoutView("line", tiles, ends=(EndView("left", pairs[0][0]),
                                           EndView("right", pairs[-1][1])), **kw)


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def halves(p: Placed):
    """The two half boxes of a placed tile with their pips (a double: its whole box, since
    both halves show its number and a tile may touch it anywhere along its side)."""
    x0, y0, x1, y1 = p.box
    if p.first == p.second:
        return [(p.box, p.first)]
    if p.vertical:
        my = (y0 + y1) // 2
        return [((x0, y0, x1, my), p.first), ((x0, my, x1, y1), p.second)]
    mx = (x0 + x1) // 2
    return [((x0, y0, mx, y1), p.first), ((mx, y0, x1, y1), p.second)]


def centres(a, b) -> float:
    """Distance between the centres of two boxes [pixels]."""
    return (((a[0] + a[2]) - (b[0] + b[2])) ** 2 + ((a[1] + a[3]) - (b[1] + b[3])) ** 2) ** 0.5 / 2


def distance(a, b) -> float:
    """Distance between the edges of two boxes (0 when they touch) [pixels]."""
    dx = max(0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
    return (dx * dx + dy * dy) ** 0.5


def check_plan(layout: LayoutView, plan) -> dict:
    """The invariants every plan keeps; returns the placed tiles by position."""
    assert plan.fits
    z = ZONE
    for p in plan.tiles:
        assert z[0] <= p.box[0] < p.box[2] <= z[2] and z[1] <= p.box[1] < p.box[3] <= z[3], p
        w, h = p.box[2] - p.box[0], p.box[3] - p.box[1]
        assert sorted((w, h)) == [plan.unit, 2 * plan.unit], p
        assert (h > w) == p.vertical
    for a, b in itertools.combinations([p.box for p in plan.tiles] +
                                       [m.box for m in plan.marks], 2):
        assert not overlap(a, b), (a, b)
    for m in plan.marks:
        assert z[0] <= m.box[0] and m.box[2] <= z[2] and z[1] <= m.box[1] and m.box[3] <= z[3]
    by_pos = {p.pos: p for p in plan.tiles if p.pos is not None}
    expected = ([("line", i) for i in range(len(layout.line))]
                + [("up", i) for i in range(len(layout.up))]
                + [("down", i) for i in range(len(layout.down))])
    assert sorted(by_pos) == sorted(expected)
    # Every tile shows its own pips (the halves in some order) and its face.
    for (arm, i), p in by_pos.items():
        t = getattr(layout, arm)[i]
        assert sorted((p.first, p.second)) == sorted((t.a, t.b))
        assert p.face == ("down" if t.lay == "closed" else "up")
    # Touching tiles: the nearest halves show the same number and lie a gap apart.
    gap = max(2, plan.unit // 10)
    arms = _arms(layout)
    for arm in arms:
        for u, v in itertools.pairwise(arm):
            pu, pv = by_pos[u] if u != "gap" else None, by_pos[v]
            if pu is None:
                continue
            _, d, nu, nv = min((centres(hu, hv), distance(hu, hv), nu, nv)
                               for hu, nu in halves(pu) for hv, nv in halves(pv))
            assert nu == nv, (u, v, pu, pv)
            assert d <= gap + 1, (u, v, d)
    return by_pos


def _arms(layout: LayoutView):
    """Position sequences outward from the centre, as the plan grows them."""
    n = len(layout.line)
    if layout.kind == "cross" and layout.spinner is not None:
        c = layout.spinner
        return [[("line", i) for i in range(c, n)], [("line", i) for i in range(c, -1, -1)],
                [("line", c)] + [("up", i) for i in range(len(layout.up))],
                [("line", c)] + [("down", i) for i in range(len(layout.down))]]
    if layout.gap is not None:
        g = layout.gap
        return [[("line", i) for i in range(g, n)], [("line", i) for i in range(g - 1, -1, -1)]]
    return [[("line", i) for i in range(n)]]


def rows(plan) -> set[int]:
    return {(p.box[1] + p.box[3]) // 2 for p in plan.tiles if not p.vertical}


@pytest.mark.parametrize("n", [1, 2, 5, 10])
def test_a_short_line_is_one_straight_centred_row(n):
    layout = line(CHAIN_27[:n])
    plan = plan_table(layout, ZONE)
    check_plan(layout, plan)
    centres = {(p.box[1] + p.box[3]) // 2 for p in plan.tiles}
    assert len(centres) == 1
    left, right = min(p.box[0] for p in plan.tiles), max(p.box[2] for p in plan.tiles)
    assert abs((left + right) / 2 - (ZONE[0] + ZONE[2]) / 2) <= plan.unit
    assert [m.name for m in plan.marks] == ["left", "right"]
    assert plan.marks[0].box[2] <= left and plan.marks[1].box[0] >= right


def test_doubles_lie_across_and_in_line_as_told():
    across = line([(1, 2), (2, 2), (2, 3)])
    plan = plan_table(across, ZONE)
    by_pos = check_plan(across, plan)
    assert by_pos[("line", 1)].vertical and not by_pos[("line", 0)].vertical
    in_line = LayoutView("line", laid([(1, 2), (2, 2), (2, 3)], lay_doubles="along"),
                         ends=across.ends)
    assert not check_plan(in_line, plan_table(in_line, ZONE))[("line", 1)].vertical


@pytest.mark.parametrize("lead", [None, 0, 13, 26])
def test_a_chain_of_27_tiles_snakes_and_fits(lead):
    layout = line(CHAIN_27, lead=lead)
    plan = plan_table(layout, ZONE)
    check_plan(layout, plan)
    assert len(rows(plan)) >= 2  # it turned
    assert plan.unit >= 40  # and stays large enough to read


def test_a_long_line_grows_out_of_its_lead_without_moving_the_laid_tiles():
    before = line(CHAIN_27[2:22], lead=8)
    right = line(CHAIN_27[2:23], lead=8)  # a tile played on the right end
    left = line(CHAIN_27[1:22], lead=9)  # a tile played on the left end
    p0, p1, p2 = (plan_table(x, ZONE) for x in (before, right, left))
    assert p0.unit == p1.unit == p2.unit
    old = [p.box for p in p0.tiles]
    assert [p.box for p in p1.tiles if p.pos != ("line", 20)] == old
    assert sorted(p.box for p in p2.tiles if p.pos != ("line", 0)) == sorted(old)


def test_the_line_turns_to_its_own_half():
    layout = line(CHAIN_27, lead=13)
    plan = plan_table(layout, ZONE)
    by_pos = check_plan(layout, plan)
    cy = (by_pos[("line", 13)].box[1] + by_pos[("line", 13)].box[3]) / 2
    for i in range(14, 27):  # the right arm turns down
        assert by_pos[("line", i)].box[3] > cy - plan.unit
    for i in range(13):  # the left arm turns up
        assert by_pos[("line", i)].box[1] < cy + plan.unit


def cross(up=(), down=(), **kw):
    line_pairs = [(2, 1), (1, 6), (6, 4), (4, 3), (3, 5), (5, 5), (5, 0), (0, 0), (0, 2)]
    ends = [EndView("left", 2), EndView("right", 2),
            EndView("up", up[-1][1] if up else 5), EndView("down", down[-1][1] if down else 5)]
    return LayoutView("cross", laid(line_pairs), spinner=5, up=laid(up), down=laid(down),
                      ends=tuple(ends), **kw)


def test_a_cross_with_the_spinner_as_lead_has_four_arms_and_four_marks():
    layout = LayoutView("cross", laid([(5, 5)]), spinner=0,
                        ends=tuple(EndView(n, 5) for n in ("left", "right", "up", "down")))
    plan = plan_table(layout, ZONE)
    check_plan(layout, plan)
    (spinner,) = plan.tiles
    assert spinner.vertical  # the spinner stands across the line
    assert sorted(m.name for m in plan.marks) == ["down", "left", "right", "up"]
    sx, sy = (spinner.box[0] + spinner.box[2]) / 2, (spinner.box[1] + spinner.box[3]) / 2
    where = {m.name: ((m.box[0] + m.box[2]) / 2 - sx, (m.box[1] + m.box[3]) / 2 - sy)
             for m in plan.marks}
    assert where["left"][0] < 0 and where["right"][0] > 0
    assert where["up"][1] < 0 and where["down"][1] > 0


def test_a_spinner_placed_later_on_the_right_opens_up_and_down():
    layout = LayoutView("cross", laid([(1, 2), (2, 4), (4, 4)]), spinner=2,
                        ends=(EndView("left", 1), EndView("right", 4), EndView("up", 4),
                              EndView("down", 4)))
    plan = plan_table(layout, ZONE)
    by_pos = check_plan(layout, plan)
    s = by_pos[("line", 2)].box
    marks = {m.name: m.box for m in plan.marks}
    assert marks["up"][3] <= s[1] and marks["down"][1] >= s[3]  # right above and below
    assert marks["right"][0] >= s[2]


def test_long_arms_of_a_cross_turn_clockwise_each_in_its_quarter():
    up = [(5, 6), (6, 2), (2, 4), (4, 0), (0, 1), (1, 3), (3, 6), (6, 0)]
    down = [(5, 2), (2, 2), (2, 3), (3, 1), (1, 1), (1, 4)]
    layout = cross(up=up, down=down, last=(("up", 7),))
    plan = plan_table(layout, ZONE)
    by_pos = check_plan(layout, plan)
    s = by_pos[("line", 5)].box
    sx, sy = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
    u = plan.unit

    def centre(p):
        return (p.box[0] + p.box[2]) / 2, (p.box[1] + p.box[3]) / 2

    ups = [centre(by_pos[("up", i)]) for i in range(len(up))]
    downs = [centre(by_pos[("down", i)]) for i in range(len(down))]
    assert all(y < sy - u for _, y in ups)  # above the line
    assert any(x > sx + u for x, _ in ups)  # the up arm turned right
    assert all(y > sy + u for _, y in downs)
    assert any(x < sx - u for x, _ in downs)  # the down arm turned left


def test_closed_ends_and_closed_doubles():
    tiles = laid([(1, 1), (1, 2), (2, 2)])
    tiles = (LaidTile(1, 1, "closed"), tiles[1], LaidTile(2, 2, "closed"))
    layout = LayoutView("line", tiles, ends=(EndView("left", None, True),
                                             EndView("right", None, True)))
    plan = plan_table(layout, ZONE)
    by_pos = check_plan(layout, plan)
    assert by_pos[("line", 0)].face == by_pos[("line", 2)].face == "down"
    assert [(m.name, m.number, m.closed) for m in plan.marks] == [
        ("left", None, True), ("right", None, True)]


@pytest.mark.parametrize(("left", "right"), [
    ([(0, 0)], [(6, 6)]),  # the lead itself
    ([(4, 2), (2, 1), (1, 3), (3, 0), (0, 0)],
     [(6, 6), (6, 1), (1, 4), (4, 5), (5, 3), (3, 2), (2, 0)]),  # both arms long enough to turn
])
def test_the_extraordinary_leads_gap_is_an_empty_tile_between_the_doubles(left, right):
    pairs = left + right
    layout = LayoutView("line", laid(pairs), gap=len(left),
                        ends=(EndView("left", pairs[0][0]), EndView("right", pairs[-1][1]),
                              EndView("gap", None)))
    plan = plan_table(layout, ZONE)
    check_plan(layout, plan)
    (ghost,) = [p for p in plan.tiles if p.face == "ghost"]
    assert sorted((ghost.first, ghost.second)) == [0, 6] and ghost.pos is None
    zero = next(p for p in plan.tiles if p.pos == ("line", len(left) - 1))
    six = next(p for p in plan.tiles if p.pos == ("line", len(left)))
    assert zero.box[2] <= ghost.box[0] and ghost.box[2] <= six.box[0]


def test_an_empty_table_has_no_tiles_and_bad_indexes_raise():
    assert plan_table(LayoutView(), ZONE).tiles == ()
    with pytest.raises(ValueError, match="spinner"):
        plan_table(LayoutView("cross", laid([(1, 2)]), spinner=3), ZONE)
    with pytest.raises(ValueError, match="gap"):
        plan_table(LayoutView("line", laid([(1, 2)]), gap=5), ZONE)


def test_a_zone_too_small_for_the_chain_says_it_does_not_fit():
    plan = plan_table(line(CHAIN_27), (0, 0, 300, 120))
    assert not plan.fits and plan.unit == UNITS[-1]
    assert len(plan.tiles) == 27


@pytest.mark.parametrize("lead", [0, 3, 6, 20, 23, 26])
def test_a_chain_led_near_one_end_still_reads(lead):
    """Issue 20 item 12: a long arm does not squeeze into half the table while the other half
    stays empty: 27 tiles led near one end still get tiles of the readable size."""
    layout = line(CHAIN_27, lead=lead)
    plan = plan_table(layout, ZONE)
    check_plan(layout, plan)
    assert plan.unit >= ROW_UNIT


def test_tiles_grow_as_the_chain_shrinks():
    """Issue 20 item 12: a short chain is drawn with large tiles, a long one with smaller
    ones that still read; a straight row is kept while its tiles read."""
    unit = {n: plan_table(line(CHAIN_27[:n], lead=n // 2), ZONE).unit for n in (2, 5, 9, 27)}
    assert unit[2] == unit[5] == UNITS[0] > unit[27] >= ROW_UNIT
    assert ROW_UNIT <= unit[9] < unit[5]
    assert len(rows(plan_table(line(CHAIN_27[:9]), ZONE))) == 1


@pytest.mark.parametrize("variant", ["telephone", "muggins", "chcv", "sea_goat", "classic"])
def test_every_table_of_played_rounds_is_laid_out_whole(variant):
    """Random rounds of the engine, every state as the service shows it: every tile once, no
    overlaps, touching halves matching, inside the zone, and with tiles that read on a phone
    (RULES.md §2.0; issue 20 items 12–13); in the games with a count the ends' values add up
    to it (§2.0.6)."""
    import random

    from engine import Rules, apply, legal_moves, new_match
    from service.live.moves import layout_view

    small = 0
    states = 0
    for seed in range(3):
        rng = random.Random(seed)
        state, _ = new_match(Rules(variant=variant), 2 + seed % 3, seed)
        for _ in range(90):
            if state.finished:
                break
            lay = state.round.layout
            if lay.line:
                count = lay.count() if variant in ("telephone", "muggins") else None
                view = layout_view(lay, count)
                plan = plan_table(view, ZONE)
                check_plan(view, plan)
                small += plan.unit < ROW_UNIT
                states += 1
                if count is not None:
                    assert sum(e.counts or 0 for e in view.ends) == count
            state, _ = apply(state, state.to_act, rng.choice(legal_moves(state)))
    assert states > 50 and small <= states // 50
