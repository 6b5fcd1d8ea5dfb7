"""The table picture (ui/picture.py): every layout and seating renders a valid PNG of the
picture's size under 100 KB, a move changes it, hands appear only in a round's closing
picture, every locale and awkward names render, and pictures are cached per state."""

from __future__ import annotations

import dataclasses
import inspect
import io
import typing

import pytest
from PIL import Image, ImageDraw, ImageFont, features

from service.views import (
    ActionNote,
    EndView,
    LaidTile,
    LayoutView,
    MatchEnd,
    PlayerResult,
    RoundSummary,
    SeatView,
    TableView,
)
from ui import picture
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.picture import (
    CARD_H,
    CARD_W,
    FELT,
    HEIGHT,
    MAX_PNG_BYTES,
    WIDTH,
    ZONE,
    display_text,
    render_table_image,
    render_table_png,
)
from ui.picture_examples import CHAIN_27, make_table

TR = Translator(strict=True)
NAMES = ["Оля", "Петя", "Маша", "Сергій"]


def laid(pairs, doubles="across"):
    return tuple(LaidTile(a, b, doubles if a == b else "") for a, b in pairs)


def line(pairs, *, lead=None, last=()):
    return LayoutView("line", laid(pairs), ends=(EndView("left", pairs[0][0]),
                                                 EndView("right", pairs[-1][1])),
                      last=tuple(("line", i) for i in last), lead=lead)


def table(layout=None, players=2, **kw):
    layout = layout if layout is not None else line(CHAIN_27[4:9], lead=2, last=[4])
    kw.setdefault("drawable", 14 if players == 2 else 7 if players == 3 else 0)
    return make_table(NAMES[:players], kw.pop("tiles", [5, 6, 4, 7][:players]), layout, **kw)


CROSS_LINE = [(2, 1), (1, 6), (6, 4), (4, 3), (3, 5), (5, 5), (5, 0), (0, 0), (0, 2)]


def cross_layout(up=(), down=(), **kw):
    ends = (EndView("left", 2), EndView("right", 2), EndView("up", up[-1][1] if up else 5),
            EndView("down", down[-1][1] if down else 5))
    return LayoutView("cross", laid(CROSS_LINE), spinner=5, up=laid(up), down=laid(down),
                      ends=ends, **kw)


LAYOUTS = {
    "empty": LayoutView(),
    "lead only": line([(3, 5)]),
    "line short": line(CHAIN_27[4:9], lead=2, last=[4]),
    "line long": line(CHAIN_27[:16], lead=5, last=[0]),
    "line 27": line(CHAIN_27, lead=13, last=[26]),
    "line 27, lead unknown": line(CHAIN_27),
    "cross, spinner led": LayoutView("cross", laid([(5, 5)]), spinner=0, ends=tuple(
        EndView(n, 5) for n in ("left", "right", "up", "down")), count=10),
    "cross, spinner later on the right": LayoutView(
        "cross", laid([(1, 2), (2, 4), (4, 4)]), spinner=2,
        ends=(EndView("left", 1), EndView("right", 4), EndView("up", 4), EndView("down", 4)),
        count=9, last=(("line", 2),)),
    "cross, arms that turn": cross_layout(
        up=[(5, 6), (6, 2), (2, 4), (4, 0), (0, 1), (1, 3), (3, 6), (6, 0)],
        down=[(5, 2), (2, 2), (2, 3), (3, 1), (1, 1), (1, 4)], count=7, last=(("up", 7),)),
    "closed ends": LayoutView(
        "cross", (LaidTile(3, 3, "closed"), LaidTile(3, 5), LaidTile(5, 5, "across"),
                  LaidTile(5, 4), LaidTile(4, 4, "closed")), spinner=2,
        up=(LaidTile(5, 1),), ends=(EndView("left", None, True), EndView("right", None, True),
                                    EndView("up", 1), EndView("down", 5)),
        last=(("line", 4),)),
    "extraordinary lead's gap": LayoutView(
        "line", laid([(3, 0), (0, 0), (6, 6), (6, 1)]), gap=2,
        ends=(EndView("left", 3), EndView("right", 1), EndView("gap", None)),
        last=(("line", 0), ("line", 3))),
}


def png_image(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.verify()  # a valid PNG: chunks and checksums
    return Image.open(io.BytesIO(data))


def rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def colours(im: Image.Image, box) -> set:
    return {c for _, c in im.crop(box).getcolors(maxcolors=1 << 20)}


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_every_layout_renders_a_png_of_the_pictures_size(name):
    data = render_table_png(table(LAYOUTS[name]), locale="ru", tr=TR)
    im = png_image(data)
    assert im.format == "PNG" and im.size == (WIDTH, HEIGHT)
    assert len(data) <= MAX_PNG_BYTES


@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, False), (4, True)])
def test_every_seating_renders(players, teams):
    t = table(players=players, teams=teams, to_act=players - 1)
    data = render_table_png(t, locale="ru", tr=TR)
    assert png_image(data).size == (WIDTH, HEIGHT) and len(data) <= MAX_PNG_BYTES
    im = rgb(data)
    # The seat to play is ringed in the turn colour; the others are not.
    assert FELT.turn in colours(im, _card(players - 1, players))
    assert FELT.turn not in colours(im, _card(0, players))
    # Teams get their two colours, one per side.
    team_colours = {FELT.team_a, FELT.team_b}
    for seat in range(players):
        found = colours(im, _card(seat, players)) & team_colours
        assert found == ({FELT.team_a if seat % 2 == 0 else FELT.team_b} if teams else set())


def _card(seat: int, players: int):
    """The box of a seat's card: bottom left, top left, top right, bottom right."""
    slots = {2: ("bl", "tr"), 3: ("bl", "tl", "tr"), 4: ("bl", "tl", "tr", "br")}[players]
    slot = slots[seat]
    x = 26 if slot[1] == "l" else WIDTH - 26 - CARD_W
    y = 26 if slot[0] == "t" else HEIGHT - 26 - CARD_H
    return (x, y, x + CARD_W, y + CARD_H)


def test_a_move_changes_the_picture_and_the_same_state_gives_the_same_bytes():
    before = table(line(CHAIN_27[4:9], lead=2, last=[4]), version=7, tiles=[5, 6])
    after = table(line(CHAIN_27[4:10], lead=2, last=[5]), version=8, tiles=[5, 5], to_act=1)
    a, b = render_table_png(before, locale="ru", tr=TR), render_table_png(after, locale="ru",
                                                                           tr=TR)
    assert a != b
    assert render_table_png(before, locale="ru", tr=TR) == a
    # the change is on the table itself, not only in the cards
    assert rgb(a).crop(ZONE).tobytes() != rgb(b).crop(ZONE).tobytes()


def test_the_last_move_is_ringed_and_closed_doubles_lie_face_down():
    plain = rgb(render_table_png(table(line(CHAIN_27[4:9], lead=2)), locale="ru", tr=TR))
    ringed = rgb(render_table_png(table(line(CHAIN_27[4:9], lead=2, last=[4])), locale="ru",
                                  tr=TR))
    assert FELT.last not in colours(plain, ZONE)
    assert FELT.last in colours(ringed, ZONE) and FELT.face_last in colours(ringed, ZONE)
    closed = rgb(render_table_png(table(LAYOUTS["closed ends"]), locale="ru", tr=TR))
    assert FELT.back not in colours(plain, ZONE)
    assert FELT.back in colours(closed, ZONE)  # the face-down doubles
    assert FELT.closed in colours(closed, ZONE)  # and the marks of the closed ends


# -- hidden information ------------------------------------------------------------------------


def test_the_group_picture_takes_no_hand():
    """RULES.md §1.8: the picture's inputs are the group's views; a hand enters only with a
    round summary."""
    params = inspect.signature(render_table_png).parameters
    assert list(params) == ["table", "locale", "tr", "summary", "theme", "faces"]
    assert typing.get_type_hints(render_table_png)["summary"] == RoundSummary | None
    assert typing.get_type_hints(render_table_png)["faces"] is str  # a chat's display choice

    def field_names(cls, seen=()):
        out = set()
        for f in dataclasses.fields(cls):
            out.add(f.name)
            hint = typing.get_type_hints(cls)[f.name]
            for arg in [hint, *typing.get_args(hint)]:
                for inner in [arg, *typing.get_args(arg)]:
                    if dataclasses.is_dataclass(inner) and inner not in seen + (cls,) \
                            and inner is not RoundSummary:
                        out |= field_names(inner, seen + (cls,))
        return out

    names = field_names(TableView)
    assert "hands" not in names and "hand" not in names
    assert typing.get_type_hints(SeatView)["tiles"] is int  # how many, never which


def summary_for(t: TableView) -> RoundSummary:
    return RoundSummary(round_no=t.round_no, end="out", by=1,
                        hands=(("0-1", "2-6", "3-3"), ()), hand_values=(15, 0),
                        recorded=(15, 0), scores=(15, 0), remembered=(0, 0), pot_won=0, pot=0,
                        layout=t.layout)


def test_hands_appear_only_in_the_closing_picture():
    t = table(tiles=[3, 0], to_act=None)
    s = summary_for(t)
    group = render_table_png(t, locale="ru", tr=TR)
    # The table's own summary field does not reveal anything: only the argument does.
    assert render_table_png(dataclasses.replace(t, summary=s), locale="ru", tr=TR) == group
    closing = render_table_png(t, locale="ru", tr=TR, summary=s)
    assert closing != group
    # In the group picture the cards hold backs only: no pip anywhere in them.
    for seat in range(2):
        assert FELT.pip not in colours(rgb(group), _card(seat, 2))
    assert FELT.back in colours(rgb(group), _card(0, 2))
    assert FELT.pip in colours(rgb(closing), _card(0, 2))  # Оля's three tiles revealed
    assert FELT.back not in colours(rgb(closing), _card(0, 2))
    assert FELT.pip not in colours(rgb(closing), _card(1, 2))  # Петя went out: empty hand


def test_the_closing_picture_shows_the_round_as_it_ended():
    t = table(line(CHAIN_27[:3]), version=9, round_no=3)
    ended = line(CHAIN_27[:12], last=[11])
    s = dataclasses.replace(summary_for(t), round_no=2, layout=ended)
    closing = rgb(render_table_png(t, locale="ru", tr=TR, summary=s))
    same_layout = rgb(render_table_png(dataclasses.replace(t, layout=ended), locale="ru",
                                       tr=TR, summary=s))
    assert closing.crop(ZONE).tobytes() == same_layout.crop(ZONE).tobytes()


# -- texts and names ---------------------------------------------------------------------------


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_locale_renders_in_its_own_words(locale):
    t = table(pot=12, players=3, remembered=[0, 5, 0])
    data = render_table_png(t, locale=locale, tr=TR)
    assert png_image(data).size == (WIDTH, HEIGHT)
    others = {render_table_png(t, locale=other, tr=TR) for other in SUPPORTED_LOCALES}
    assert len(others) == len(SUPPORTED_LOCALES)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_variant_name_and_mark_has_a_text(locale):
    for variant in ("classic", "sea_goat", "donkey", "chcv", "telephone", "muggins",
                    "traditional", "sport", "seven", "general"):
        TR.plain(locale, "pic-variant", variant=variant)
    base = render_table_png(table(players=4, to_act=0, variant="seven"), locale=locale, tr=TR)
    marks = [
        dict(marks={"sticks": [1, 0, 2, 0]}), dict(left=[1]), dict(flags={"fast": "six"}),
        dict(flags={"two_tiles": "on"}), dict(pot=25), dict(deals=8),
        dict(variant="general", teams=True, marks={"losses": [1, 0]}),
        dict(notes=(ActionNote("played", 0, 1, tile="4-5", end="right", points=15,
                               total=15),),
             variant="telephone"),
    ]
    for extra in marks:
        t = table(players=4, to_act=0, **{"variant": "seven", **extra})
        if "notes" in extra:
            t = dataclasses.replace(t, layout=dataclasses.replace(t.layout, count=15))
        assert render_table_png(t, locale=locale, tr=TR) != base, extra


def test_names_in_cyrillic_and_ukrainian_letters_keep_every_letter():
    for name in ("Їжак Ґалаґан", "Євгенія", "Олексій Іванович", "Ёлка Щукина"):
        assert display_text(name, bold=True) == name


@pytest.mark.parametrize("name", ["Петя 🐐", "🐐 Петя 🎲🔥", "Петя\u200d", "Петя\ufe0f"])
def test_emoji_the_font_cannot_draw_are_left_out_not_drawn_as_boxes(name):
    assert display_text(name, bold=True) == "Петя"
    plain = render_table_png(table(), locale="ru", tr=TR)
    names = list(NAMES)
    names[1] = name
    t = table()
    t = dataclasses.replace(t, seats=tuple(dataclasses.replace(s, name=names[s.seat])
                                           for s in t.seats))
    assert render_table_png(t, locale="ru", tr=TR) == plain


def test_a_name_of_emoji_only_becomes_the_seat_number():
    t = table()
    t = dataclasses.replace(t, seats=(t.seats[0], dataclasses.replace(t.seats[1], name="🐐🐐")))
    expected = dataclasses.replace(t, seats=(t.seats[0], dataclasses.replace(
        t.seats[1], name=TR.plain("ru", "pic-seat", seat=2))))
    assert render_table_png(t, locale="ru", tr=TR) == render_table_png(expected, locale="ru",
                                                                        tr=TR)


def test_right_to_left_names_are_put_in_visual_order_without_complex_layout():
    from ui.picture import _visual_order

    assert _visual_order("שלום 12") == "12 םולש"
    assert _visual_order("Bob שלום") == "Bob םולש"
    assert _visual_order("abc") == "abc"
    expected = "12 םולש" if not picture.COMPLEX_TEXT else "שלום 12"
    assert display_text("שלום 12") == expected  # libraqm orders the letters itself


def ink_blobs(im: Image.Image, dark: bool = False, threshold: int = 128) -> list[int]:
    """The sizes of the connected patches of ink in ``im`` [pixels], 8-connected: light ink
    on a dark ground (``dark`` False) or dark ink on a light one."""
    g = im.convert("L")
    w, h = g.size
    px = g.load()
    ink = {(x, y) for y in range(h) for x in range(w)
           if (px[x, y] < threshold) == dark}
    sizes = []
    while ink:
        stack = [ink.pop()]
        n = 0
        while stack:
            x, y = stack.pop()
            n += 1
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    q = (x + dx, y + dy)
                    if q in ink:
                        ink.remove(q)
                        stack.append(q)
        sizes.append(n)
    return sizes


@pytest.mark.skipif(not features.check("raqm"), reason="Pillow without libraqm here")
def test_arabic_names_are_drawn_with_joined_letters_where_libraqm_is_there():
    """Issue 20 item 14: «محمد» is one joined word, not four isolated letters."""
    assert picture.COMPLEX_TEXT
    name = "محمد"
    shown = display_text(name, bold=True, size=36)
    sprite, _ = picture._painter(FELT).label(shown, 36, True, FELT.text, FELT.card)
    blobs = [n for n in ink_blobs(sprite.convert("RGB")) if n > 4]
    assert len(blobs) == 1, blobs
    # the basic layout draws the same letters apart
    basic = ImageFont.truetype(str(picture.FONTS_DIR / "DejaVuSans-Bold.ttf"), 36,
                               layout_engine=ImageFont.Layout.BASIC)
    im = Image.new("L", (200, 60))
    ImageDraw.Draw(im).text((4, 4), picture._visual_order(name), font=basic, fill=255)
    assert len([n for n in ink_blobs(im) if n > 4]) == 4
    # and a table with the name renders it
    t = table()
    t = dataclasses.replace(t, seats=(dataclasses.replace(t.seats[0], name=name),
                                      t.seats[1]))
    assert render_table_png(t, locale="ru", tr=TR) != render_table_png(table(), locale="ru",
                                                                        tr=TR)


def test_long_names_are_cut_to_fit():
    from ui.picture import _font

    long = "Александра-Виктория Константинопольская-Щедрина"
    cut = display_text(long, bold=True, size=36, max_width=300)
    assert cut.endswith("…") and long.startswith(cut[:-1])
    assert _font(True, 36).getlength(cut) <= 300
    # and the picture still renders with every awkward name at once
    t = table(players=4)
    awkward = [long * 3, "שלום עליכם 123", "👩‍👩‍👧‍👦 Мама", "مرحبا"]
    t = dataclasses.replace(t, seats=tuple(dataclasses.replace(s, name=awkward[s.seat])
                                           for s in t.seats))
    assert png_image(render_table_png(t, locale="uk", tr=TR)).size == (WIDTH, HEIGHT)


# -- themes, the end of a match, caching ----------------------------------------------------------


def _luminance(c) -> float:
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(x) for x in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("chat_background", [(255, 255, 255), (14, 22, 33), (24, 34, 45)])
def test_the_frame_stands_out_on_light_and_dark_chat_backgrounds(chat_background):
    """Telegram's light theme, and its dark themes: the opaque picture's edge (the outer line
    or the wood) contrasts at least 3:1 with the chat behind it."""
    im = rgb(render_table_png(table(), locale="ru", tr=TR))
    edge = colours(im, (0, 0, WIDTH, 14)) | colours(im, (0, 0, 14, HEIGHT))
    assert max(_contrast(c, chat_background) for c in edge) >= 3.0
    # and the felt is opaque: no transparency to show the chat through
    assert im.mode == "RGB" and Image.open(io.BytesIO(render_table_png(
        table(), locale="ru", tr=TR))).info.get("transparency") is None


def test_the_end_of_a_match_marks_the_goat():
    t = table(to_act=None)
    players = tuple(PlayerResult(seat=i, user_id=100 + i, name=NAMES[i], score=[104, 40][i],
                                 goat=i == 0, rating=[0, 6][i], outs=0, fish=0,
                                 timed_out=False) for i in range(2))
    final = dataclasses.replace(t, final=MatchEnd(reason="limit", rated=True, players=players))
    a = rgb(render_table_png(final, locale="ru", tr=TR))
    assert FELT.closed in colours(a, _card(0, 2))  # the goat's tag
    assert FELT.closed not in colours(a, _card(1, 2))


def test_pictures_are_cached_per_match_and_version():
    from delivery.pictures import PictureCache

    cache = PictureCache(maxsize=2)
    t1 = table(version=1)
    first = cache.table_png(t1, locale="ru", tr=TR)
    assert cache.table_png(t1, locale="ru", tr=TR) is first
    assert (cache.hits, cache.misses) == (1, 1)
    assert cache.table_png(t1, locale="en", tr=TR) != first  # another language
    cache.table_png(dataclasses.replace(t1, version=2), locale="ru", tr=TR)
    assert (cache.hits, cache.misses, len(cache)) == (1, 3, 2)
    cache.table_png(t1, locale="ru", tr=TR)  # evicted: drawn again
    assert cache.misses == 4
    s = summary_for(t1)
    assert cache.table_png(t1, locale="ru", tr=TR, summary=s) != first


def test_sprites_are_drawn_once():
    from ui.picture import _painter

    render_table_image(table(LAYOUTS["line 27"]), locale="ru", tr=TR)
    painter = _painter(FELT)
    sprites, labels = len(painter._sprites), len(painter._labels)
    render_table_image(table(LAYOUTS["line 27"]), locale="ru", tr=TR)
    assert (len(painter._sprites), len(painter._labels)) == (sprites, labels)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_font_draws_every_letter_of_the_pictures_texts(locale):
    keys = sorted(k for k in TR.message_ids(locale) if k.startswith("pic-"))
    assert len(keys) > 20
    for key in keys:
        text = TR.plain(locale, key, round=3, deals=8, variant="classic", count=4, reserve=1,
                        points=12, score="12 (+3)", team=1, seat=2, name="Оля",
                        mark="палки", value="extra")
        assert display_text(text) == text, (key, text)
        assert display_text(text, bold=True) == text, (key, text)


def test_texts_never_paint_over_the_ring_of_the_seat_to_play():
    t = table(players=4, to_act=0, scores=[41, 7, 0, 12], remembered=[4, 0, 9, 0],
              marks={"sticks": [1, 2, 0, 0]}, variant="classic")
    im = rgb(render_table_png(t, locale="ru", tr=TR))
    x0, y0, x1, y1 = _card(0, 4)
    # the ring is 5 pixels wide; its outermost pixels blend into the felt
    for y in (*range(y0 + 1, y0 + 5), *range(y1 - 5, y1 - 1)):  # corners aside
        assert colours(im, (x0 + 24, y, x1 - 24, y + 1)) == {FELT.turn}, y
    for x in (*range(x0 + 1, x0 + 5), *range(x1 - 5, x1 - 1)):
        assert colours(im, (x, y0 + 24, x + 1, y1 - 24)) == {FELT.turn}, x


# -- issue 20 items 12–13: readable on a phone, doubles across, marks that add up -------------

PHONE = 400  # how wide a phone shows the picture [pixels]


def _pips_at_phone_width(t: TableView) -> tuple[int, list[int]]:
    """The picture of ``t`` scaled to :data:`PHONE` pixels wide as a phone shows it: how many
    tile halves show a number of dark patches other than their pips, and the smaller side
    of every patch found [pixels]."""
    from ui.picture_layout import plan_table

    im = png_image(render_table_png(t, locale="ru", tr=TR)).convert("RGB")
    k = PHONE / im.width
    small = im.resize((PHONE, round(im.height * k)), Image.Resampling.LANCZOS)
    plan = plan_table(t.layout, ZONE)
    wrong, sizes = 0, []
    for p in plan.tiles:
        if p.face != "up":
            continue
        x0, y0, x1, y1 = p.box
        halves = ([(x0, y0, x1, (y0 + y1) / 2), (x0, (y0 + y1) / 2, x1, y1)] if p.vertical
                  else [(x0, y0, (x0 + x1) / 2, y1), ((x0 + x1) / 2, y0, x1, y1)])
        m = plan.unit * 0.08  # the tile's edge and the line between the halves stay out
        for (a, b, c, d), pips in zip(halves, (p.first, p.second), strict=True):
            crop = small.crop((round((a + m) * k), round((b + m) * k), round((c - m) * k),
                               round((d - m) * k)))
            patches = [s for s in ink_patches(crop, threshold=100) if s[0] >= 2]
            wrong += len(patches) != pips
            sizes += [min(w, h) for _, w, h in patches]
    return wrong, sizes


def ink_patches(im: Image.Image, threshold: int) -> list[tuple[int, int, int]]:
    """The dark patches of ``im`` (8-connected, darker than ``threshold``) as (pixels,
    width, height)."""
    g = im.convert("L")
    w, h = g.size
    px = g.load()
    ink = {(x, y) for y in range(h) for x in range(w) if px[x, y] < threshold}
    out = []
    while ink:
        stack, pts = [ink.pop()], []
        while stack:
            x, y = stack.pop()
            pts.append((x, y))
            for q in ((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                if q in ink:
                    ink.remove(q)
                    stack.append(q)
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        out.append((len(pts), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1))
    return out


@pytest.mark.parametrize("example", ["long_round", "cross_table", "middle_round",
                                     "muggins_table"])
def test_pips_read_apart_on_a_phone(example):
    """Issue 20 item 12: scaled to 400 px wide, every half shows its own number of pips
    (a 4, a 5 and a 6 told apart), each pip at least 4 px across — a chain of 27 tiles too."""
    from ui import picture_examples

    wrong, sizes = _pips_at_phone_width(getattr(picture_examples, example)())
    assert wrong == 0
    assert sizes and min(sizes) >= 4, sorted(sizes)[:5]


def test_tiles_scale_to_the_chain():
    """Issue 20 item 12: five tiles are drawn larger than 27, and 27 still read."""
    from ui.picture_examples import long_round, short_round
    from ui.picture_layout import ROW_UNIT, plan_table

    short, long = (plan_table(f().layout, ZONE) for f in (short_round, long_round))
    assert short.unit > long.unit >= ROW_UNIT
    # the short chain takes a good part of the table's width
    left = min(p.box[0] for p in short.tiles)
    right = max(p.box[2] for p in short.tiles)
    assert right - left > (ZONE[2] - ZONE[0]) * 0.6


def _disc_texts(t: TableView, monkeypatch) -> tuple[list[str], list[str]]:
    """The texts drawn on the end marks of ``t``'s picture: (on solid discs, on rings)."""
    drawn: list[tuple[str, tuple, tuple]] = []
    real_text, real_mark = picture._Canvas.text, picture._draw_mark
    in_mark = []

    def text(self, text, x, y, **kw):
        if in_mark:
            drawn.append((text, kw.get("bg"), kw.get("fg")))
        return real_text(self, text, x, y, **kw)

    def mark(*args, **kw):
        in_mark.append(1)
        try:
            return real_mark(*args, **kw)
        finally:
            in_mark.pop()

    monkeypatch.setattr(picture._Canvas, "text", text)
    monkeypatch.setattr(picture, "_draw_mark", mark)
    render_table_png(t, locale="ru", tr=TR)
    monkeypatch.undo()
    solid = [s for s, bg, _ in drawn if bg == FELT.mark]
    rings = [s for s, bg, fg in drawn if bg == FELT.felt and fg == FELT.mark]
    return solid, rings


def _played_cross(moves):
    """An engine cross (Телефон's layout) after ``moves`` (tile, end), as the service's
    view of it."""
    from engine.layout import Layout
    from engine.moves import END_CODE
    from engine.tiles import TILE_ID
    from service.live.moves import layout_view

    lay = Layout(cross=True)
    (a, b), _ = moves[0]
    lay.lay(((TILE_ID[engine_tile(a, b)], -1, False, False, False),))
    for (a, b), end in moves[1:]:
        lay.place(TILE_ID[engine_tile(a, b)], END_CODE[end])
    state = lay.state()
    return layout_view(state, state.count())


def engine_tile(a, b):
    from engine import Tile

    return Tile.of(a, b)


@pytest.mark.parametrize("moves", [
    [((5, 5), None)],  # a lone spinner: 10, not 5 + 5 + 5 + 5
    [((6, 6), None), ((6, 2), "right")],  # the spinner's empty side counts 12
    [((2, 3), None), ((3, 3), "right"), ((3, 5), "right"), ((3, 6), "up"), ((2, 2), "left")],
    [((5, 5), None), ((5, 1), "left"), ((1, 1), "left")],  # an across [1|1] end counts 2
])
def test_the_end_marks_add_up_to_the_printed_count(moves, monkeypatch):
    """Issue 20 item 13, RULES.md §2.0.6: in a game with a count the marks show what each end
    adds (from the view, ``EndView.counts``), so their numbers add up to «Сумма концов»; an
    end that adds nothing now is a ring round the number it shows."""
    layout = _played_cross(moves)
    t = table(layout=layout, variant="telephone")
    solid, rings = _disc_texts(t, monkeypatch)
    assert sum(int(s) for s in solid) == layout.count
    assert len(solid) + len(rings) == len(layout.open_ends)
    if len(moves) == 1:
        assert solid == ["10"] and rings == ["5", "5", "5"]
    if moves[-1] == ((1, 1), "left"):
        assert sorted(solid) == ["10", "2"] and "1" not in rings
    # a game without a count shows the numbers the ends show, all on solid discs
    classic = table(layout=dataclasses.replace(layout, count=None))
    solid, rings = _disc_texts(classic, monkeypatch)
    assert sorted(solid) == sorted(str(e.number) for e in layout.open_ends) and not rings


def test_doubles_lie_across_on_vertical_arms_and_at_corners():
    """Issue 20 item 13, RULES.md §2.0: a double across lies across the run that reaches it,
    wherever it is — on the up and down arms, at the end of a row before a turn: the tile
    it is laid against touches its long side, not its end."""
    from ui.picture_examples import cross_table, muggins_table
    from ui.picture_layout import plan_table

    checked = 0
    for t in (cross_table(), muggins_table(), table(layout=line(CHAIN_27, lead=13))):
        layout = t.layout
        centre = layout.spinner if layout.spinner is not None else layout.lead
        plan = plan_table(layout, ZONE)
        by_pos = {p.pos: p for p in plan.tiles}
        for (arm, i), p in by_pos.items():
            laid_tile = getattr(layout, arm)[i]
            if laid_tile.a != laid_tile.b or laid_tile.lay != "across" or \
                    (arm, i) == ("line", centre):
                continue
            if arm == "line":
                inward = by_pos[("line", i - 1 if i > centre else i + 1)]
            else:
                inward = by_pos[(arm, i - 1)] if i else by_pos[("line", centre)]
            w, h = p.box[2] - p.box[0], p.box[3] - p.box[1]
            dx = abs((inward.box[0] + inward.box[2]) - (p.box[0] + p.box[2])) / 2
            dy = abs((inward.box[1] + inward.box[3]) - (p.box[1] + p.box[3])) / 2
            assert (dx > dy) == (h > w), (arm, i, p, inward)
            checked += 1
    assert checked >= 8


def test_a_short_revealed_hand_lies_flat_and_larger():
    """Issue 20 item 12: the closing picture's hands (a few tiles) lie flat between the name
    and the score, at least 40 px high, instead of standing at 30 px; a long hand stands."""
    c = picture._Canvas(picture._painter(FELT))
    width = CARD_W - 34 - 20 - 90
    hand = [(1, 4), (2, 6), (5, 5)]
    right = picture._tiles_row(c, 100, 300, width, hand, FELT.card, unit=30,
                               lying=picture.HAND_LYING)
    unit = (right - 100 + 2) // (2 * len(hand))  # three lying tiles and two gaps
    assert 40 <= unit <= picture.HAND_LYING
    seven = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 1)]
    right = picture._tiles_row(c, 100, 300, width, seven, FELT.card, unit=30,
                               lying=picture.HAND_LYING)
    assert right - 100 <= width


# -- issue 30 item 16: what a phone shows 400 pixels wide can be read -------------------------


def _phone_cases():
    """Tables whose labels are long: a closed sport round of two teams with the points of
    the moves and a long name, a sea goat's extraordinary lead by two tiles a turn, a void
    round with the pot, Семёрка's sticks beside a computer player, and the README's own."""
    from ui.picture_examples import EXAMPLES

    layout = line(CHAIN_27[5:20], lead=7, last=[14])
    long_name = ["Олександра Петренко-Водкіна", "Богдан", "Віра", "Гліб"]
    sport = make_table(long_name, [0, 2, 3, 1], layout, round_no=12, to_act=None, teams=True,
                       scores=[85, 120], variant="sport", deals=16)
    closed = RoundSummary(round_no=12, end="out", by=0,
                          hands=((), ("0-1", "3-6"), ("0-2", "5-6", "4-4"), ("1-1",)),
                          hand_values=(23, 13), recorded=(23, 0), scores=(108, 120),
                          remembered=(0, 0), pot_won=0, pot=0, layout=layout,
                          play_points=(20, 0))
    yield "sport", sport, closed
    yield "sport running", dataclasses.replace(sport, to_act=1), None
    sea = make_table(NAMES, [6, 7, 7, 7], line(CHAIN_27[0:1], lead=0, last=[0]), round_no=2,
                     to_act=1, teams=True, scores=[30, 40], variant="sea_goat",
                     flags={"fast": "extra", "two_tiles": "on"}, drawable=0, bots=[2, 3])
    yield "sea", sea, None
    void = RoundSummary(round_no=15, end="void", by=2, hands=(("0-1",), ("3-6",), ("0-2",),
                                                                ("1-1",)),
                        hand_values=(1, 9, 2, 2), recorded=(0, 0, 0, 0),
                        scores=(10, 20, 30, 40), remembered=(0, 0, 0, 0), pot_won=0, pot=25,
                        layout=layout)
    yield "void", make_table(NAMES, [1, 1, 1, 1], layout, round_no=15, to_act=None,
                             scores=[10, 20, 30, 40], pot=25, drawable=3), void
    yield "seven", make_table(["Оля", "Бот Фёдор 🤖", "Маша"], [3, 4, 2], layout, round_no=4,
                              to_act=2, variant="seven", marks={"sticks": [1, 2, 0]},
                              bots=[1], drawable=5), None
    for name, (made, summary) in EXAMPLES.items():
        yield name, made(), summary() if summary else None


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_label_reads_at_a_phones_400_pixels(locale):
    """Issue 30 item 16: at 400 pixels wide «went out» read «want out», «За ходи: +20» read
    «120» and the subtitle was cut («Спортивное домино · ко…»). No label is drawn smaller
    than MIN_TEXT (10 pixels on the phone; only the numbers in the end discs follow the
    tiles), and none is cut but inside a player's name; the game's name wraps or gives way
    instead."""
    for case, view, summary in _phone_cases():
        im = render_table_image(view, locale=locale, tr=TR, summary=summary)
        names = [s.name for s in view.seats]
        discs = {str(n) for n in range(61)} | {"×"}
        for shown, size, _ in im.info["label_sizes"]:
            if shown in discs:
                continue
            assert size >= picture.MIN_TEXT, (case, shown, size)
            if shown.endswith("…"):
                stem = shown[:-1]
                assert any(stem.endswith(n[:k]) for n in names for k in range(1, len(n))), \
                    (case, shown)
        assert picture.MIN_TEXT * picture.PHONE_WIDTH / WIDTH >= 10
