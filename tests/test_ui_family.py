"""The renderers of the trains and the sausage (RULES.md §2.11, §2.12; issue 32), from the views
of real matches: the keyboards offer exactly the legal placements in 64-byte buttons, the
text, the picture and the page draw every tile on the table and no tile of a hand (nobody's
queue in Колбаса), the children's set draws pictures with a legend and keeps numbers in the
texts (§2.10.4)."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image

from service.game import GameService
from tests.servicekit import FakeClock
from tests.variantkit import seat
from ui import render
from ui.callbacks import MAX_CALLBACK_BYTES, PlaceCb, parse_callback
from ui.i18n import get_translator
from ui.keyboards import compose_keyboard, hand_keyboard
from ui.picture import HEIGHT, MAX_PNG_BYTES, WIDTH, picture_labels, render_table_png
from ui.targets import tile_targets
from ui.webapp_view import page_state

TR = get_translator()
NAMES = ["Оля", "Петя", "Маша", "Серж", "Аня", "Боря", "Вика", "Гена"]


async def _results(tmp, variant: str, players: int, moves: int, rules=None):
    svc = await GameService.open(tmp / f"{variant}.sqlite3", clock=FakeClock(),
                                 seed_source=iter(range(40, 90)).__next__)
    try:
        res = await seat(svc, -3, players, names=NAMES[:players], variant=variant,
                         **({"rules": rules} if rules else {}))
        res = await svc.lobbies.start(res.match_id, 1)
        rng, out = random.Random(4), [res]
        for _ in range(moves):
            if res.status != "playing":
                break
            hand = next(h for h in res.hands if h.your_turn)
            res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal),
                                     None, res.version)
            out.append(res)
        return out
    finally:
        await svc.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("family")
    return {"trains": asyncio.run(_results(tmp, "mexican_train", 8, 120)),
            "sausage": asyncio.run(_results(tmp, "kolbasa", 2, 40))}


def _laid(layout) -> set:
    tiles = [t for train in layout.trains for t in train.tiles]
    out = {(min(t.a, t.b), max(t.a, t.b)) for t in tiles}
    if layout.engine is not None:
        out.add((layout.engine, layout.engine))
    s = layout.sausage
    if s is not None:
        out |= {(min(t.a, t.b), max(t.a, t.b)) for t in s.a + s.b}
        out |= {(min(t), max(t)) for t in (s.head, s.turned) if t is not None}
    return out


@pytest.mark.parametrize("kind", ["trains", "sausage"])
def test_every_keyboard_offers_exactly_the_legal_placements(played, kind):
    for res in played[kind]:
        hand = next((h for h in res.hands if h.your_turn), None)
        if hand is None:
            continue
        names = [s.name for s in res.table.seats]
        kb = hand_keyboard(res.match_id, res.version, hand.legal, seat=hand.seat, names=names)
        cbs = [parse_callback(b.callback_data) for row in kb.inline_keyboard for b in row]
        assert all(isinstance(c, PlaceCb) and c.ver == res.version for c in cbs)
        assert all(len(b.callback_data.encode()) <= MAX_CALLBACK_BYTES
                   for row in kb.inline_keyboard for b in row)
        offered = {c.placement.target + (c.placement.tile,) for c in cbs if c.act == "p"}
        for c in cbs:
            if c.act == "c":  # a tile with several trains: its choice
                choice = compose_keyboard(res.match_id, res.version, hand.legal,
                                          [c.placement], seat=hand.seat, names=names)
                more = [parse_callback(b.callback_data) for row in choice.inline_keyboard
                        for b in row]
                assert more[-1].act == "t" and len(more) >= 3
                offered |= {m.placement.target + (m.placement.tile,) for m in more[:-1]}
        legal = {m.first.target + (m.tile,) for m in hand.legal}
        assert offered == legal
        assert set(tile_targets(hand.legal)) == {m.tile for m in hand.legal}


@pytest.mark.parametrize("kind", ["trains", "sausage"])
def test_text_picture_and_page_show_the_table_and_no_hand(played, kind):
    for n, res in enumerate(played[kind]):
        table = res.table
        if table.summary is not None:
            continue
        text = render.render_table("ru", table, tr=TR)
        assert render.text_length(text) <= render.MAX_TEXT
        if n % 10 == 0:
            png = render_table_png(table, locale="ru", tr=TR)
            assert len(png) <= MAX_PNG_BYTES
            assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
        state = page_state(res, 2, "ru", TR, now=0)
        drawn = {(min(t["a"], t["b"]), max(t["a"], t["b"]))
                 for t in state["table"]["layout"]["tiles"]}
        assert drawn <= _laid(table.layout)
        hand = res.hand_for(2)
        if kind == "sausage":  # nobody sees a queue, its owner included (§2.12 rule 1)
            assert state["hand"]["tiles"] == [] and hand.tiles == ()
            assert state["hand"]["queue"] == table.seats[1].tiles
        else:
            assert state["hand"]["tiles"] == list(hand.tiles)


def test_the_childrens_set_draws_pictures_and_keeps_numbers_in_words(played):
    """RULES.md §2.10.4: with ``faces`` ``pictures`` the picture draws the seven pictures
    and their legend; the text keeps ``[a|b]``; the page gets its pictures and legend; a
    double-12 table is drawn with numerals whatever the setting."""
    res = played["sausage"][3]
    png = render_table_png(res.table, locale="ru", tr=TR, faces="pictures")
    assert TR.plain("ru", "pic-legend") in picture_labels(png)
    assert png != render_table_png(res.table, locale="ru", tr=TR)
    state = page_state(res, 1, "ru", TR, now=0, faces="pictures")
    assert state["table"]["layout"]["style"] == "pictures"
    assert len(state["table"]["layout"]["legend"]) == 7
    trains = played["trains"][5]
    state = page_state(trains, 1, "ru", TR, now=0, faces="pictures")
    assert state["table"]["layout"]["style"] == "numerals"
    assert state["table"]["layout"]["legend"] is None
    assert render_table_png(trains.table, locale="ru", tr=TR, faces="pictures") == \
        render_table_png(trains.table, locale="ru", tr=TR)
