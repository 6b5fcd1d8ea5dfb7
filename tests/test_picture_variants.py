"""The group's table picture and its caption over real matches of every game of RULES.md §2
through the service (issue 14): every view of the group renders a PNG of the picture's size
within its byte limit, a move changes the picture, a running round's picture holds no tile of
any hand (it is drawn from the group's view, and its seat cards hold backs only), the closing
picture reveals the hands, and the caption stays within Telegram's 1024 characters in every
locale with long names."""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import replace

import pytest
from PIL import Image

from delivery.pictures import TablePictures
from service.live.rulebook import variant_infos
from service.views import Status
from tests.emulator.html import parse_html, strip_text, utf16_len
from tests.variantkit import play_every_game
from ui import render
from ui.caption import MAX_CAPTION, render_caption
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.picture import CARD_H, CARD_W, FELT, HEIGHT, MAX_PNG_BYTES, WIDTH, render_table_image
from ui.picture_trains import card_boxes

TR = Translator(strict=True)
LONG = ["Оля «<b>»", "Петя &amp; " + "Ж" * 60, "🐐" * 40, "Олександра-Вікторія Іваненко"]
#: Every how many views of a match the pixels of the seat cards are read (each costs a
#: drawing; the PNG of every view is drawn anyway).
PIXEL_EVERY = 8


@pytest.fixture(scope="module")
def matches(tmp_path_factory) -> dict[str, list]:
    """A whole match of every game through the service (long names): every result."""

    path = tmp_path_factory.mktemp("pictures") / "kozel.sqlite3"
    return asyncio.run(play_every_game(path, LONG, seeds=range(4100, 6000), rng_seed=14,
                                       chat=-700))


def card(seat: int, players: int) -> tuple[int, int, int, int]:
    """The box of a seat's card: bottom left, top left, top right, bottom right."""
    slots = {2: ("bl", "tr"), 3: ("bl", "tl", "tr"), 4: ("bl", "tl", "tr", "br")}[players]
    slot = slots[seat]
    x = 26 if slot[1] == "l" else WIDTH - 26 - CARD_W
    y = 26 if slot[0] == "t" else HEIGHT - 26 - CARD_H
    return (x, y, x + CARD_W, y + CARD_H)


def colours(im: Image.Image, box) -> set:
    return {c for _, c in im.crop(box).getcolors(maxcolors=1 << 20)}


def shown_length(caption: str) -> int:
    """The caption's length as Telegram counts it (the emulator's HTML parser)."""
    text, entities = parse_html(caption)
    return utf16_len(strip_text(text, entities)[0])


@pytest.mark.parametrize("variant", list(variant_infos()))
def test_every_group_view_of_a_real_match_draws_and_fits(matches, variant):
    """Each result's group table as the publisher draws it (:class:`delivery.pictures.
    TablePictures`): a PNG of 1200 × 960 within ``MAX_PNG_BYTES``, different after each move
    of a round; the closed table's picture differs from the running one."""
    results = matches[variant]
    assert results[-1].status == Status.FINISHED
    pictures = TablePictures(TR)

    async def draw() -> None:
        previous = None
        locale = SUPPORTED_LOCALES[list(variant_infos()).index(variant) % 3]
        for n, res in enumerate(results):
            table = res.table
            data = await pictures.png(table, locale)
            im = Image.open(io.BytesIO(data))
            assert im.format == "PNG" and im.size == (WIDTH, HEIGHT)
            assert len(data) <= MAX_PNG_BYTES
            if previous is not None and previous[0].round_no == table.round_no \
                    and previous[0].summary is None and table.summary is None:
                assert previous[1] != data, f"move {n} left the picture as it was"
            closed = res.closed
            if closed is not None and closed.summary is not None and any(closed.summary.hands):
                closing = await pictures.png(closed, locale)
                assert closing != await pictures.png(replace(closed, summary=None), locale)
            previous = (table, data)

    try:
        asyncio.run(draw())
    finally:
        pictures.close()


@pytest.mark.parametrize("variant", list(variant_infos()))
def test_a_running_round_shows_no_tile_of_a_hand(matches, variant):
    """RULES.md §1.8: the seat cards of a running round's picture hold backs only (no pip
    anywhere in them); at the round's end the closing picture shows the hands' pips.  The
    trains' cards (RULES.md §2.11) hold backs only at any time (the closing picture says
    what each seat recorded), and Колбаса's queues are never shown (§2.12 rule 1)."""
    results = matches[variant]
    running = revealed = 0
    trains = results[0].table.layout.kind == "trains"
    for n, res in enumerate(results):
        players = len(res.table.seats)
        if n % PIXEL_EVERY == 0 and running < 40 and (res.table.summary is None or trains):
            im = render_table_image(res.table, locale="ru", tr=TR,
                                    summary=res.table.summary).convert("RGB")
            boxes = card_boxes(players + 1)[:players] if trains else \
                [card(s, players) for s in range(players)]
            for s, box in enumerate(boxes):
                assert FELT.pip not in colours(im, box), (n, s)
            running += 1
        closed = res.closed
        if not trains and closed is not None and closed.summary is not None \
                and revealed < 4 and any(t != "0-0" for hand in closed.summary.hands
                                         for t in hand):
            im = render_table_image(closed, locale="ru", tr=TR,
                                    summary=closed.summary).convert("RGB")
            # a hand of [0|0] alone has no pip to show
            holders = [s for s, hand in enumerate(closed.summary.hands)
                       if any(t != "0-0" for t in hand)]
            assert any(FELT.pip in colours(im, card(s, players)) for s in holders), (
                closed.summary, closed.seats)
            revealed += 1
    shown = not trains and not variant_infos()[variant].hidden_hands
    assert running and bool(revealed) == shown


@pytest.mark.parametrize("variant", list(variant_infos()))
def test_the_caption_fits_in_every_locale_and_names_only_public_tiles(matches, variant):
    """Every caption of the match, running and closed, in ru, uk and en: at most 1024
    characters as Telegram counts them, the text table's title first and its goal, only tiles on the
    table in a running round's caption, and the whole round summary when it fits."""
    results = matches[variant]
    for n, res in enumerate(results):
        for locale in SUPPORTED_LOCALES if n % 5 == 0 or res.closed is not None else ("ru",):
            for table in (res.table, res.closed):
                if table is None:
                    continue
                caption = render_caption(locale, table, tr=TR)
                assert shown_length(caption) <= MAX_CAPTION
                text = render.render_table(locale, table, tr=TR)
                lines = caption.split("\n")
                assert lines[0] == text.split("\n")[0]
                # what the game is played for, which the picture does not say (RULES.md §2)
                assert [line for line in text.split("\n") if line.startswith("🎯")] == [
                    line for line in lines if line.startswith("🎯")] != []
                if table.summary is None:
                    lay = table.layout
                    on_table = lay.line + lay.up + lay.down + tuple(
                        t for train in lay.trains for t in train.tiles)
                    if lay.sausage is not None:
                        on_table += lay.sausage.a + lay.sausage.b
                    laid = {(min(t.a, t.b), max(t.a, t.b)) for t in on_table}
                    if lay.engine is not None:
                        laid.add((lay.engine, lay.engine))
                    if lay.sausage is not None:
                        for t in (lay.sausage.head, lay.sausage.turned):
                            if t is not None:
                                laid.add((min(t), max(t)))
                    # Колбаса: a tile turned over is seen by both before it goes back to
                    # its queue (RULES.md §2.12 rule 4); the log says which
                    laid |= {(min(int(a), int(b)), max(int(a), int(b))) for note in table.notes
                             if note.kind == "sent_back"
                             for a, b in _tiles(str(dict(note.args)["tile"]))}
                    # and a tile placed this round that a cut took off the table (§2.12 5 c)
                    laid |= {tuple(sorted(map(int, note.tile.split("-"))))
                             for note in table.notes if note.kind in ("led", "played")}
                    shown = {(min(int(a), int(b)), max(int(a), int(b)))
                             for a, b in _tiles(caption)}
                    assert shown <= laid | _rule_tiles(locale, caption), caption


def _tiles(text: str) -> list[tuple[str, str]]:
    return re.findall(r"\[(\d+)\|(\d+)\]", text)


def _rule_tiles(locale: str, caption: str) -> set[tuple[int, int]]:
    """Tiles named by the rules' words (the fast leads of the sea goat), not by a hand."""
    rules = {TR.t(locale, "flag-fast", value=f) for f in ("six", "zero", "extra")}
    rules.add(TR.t(locale, "flag-two_tiles"))
    return {(min(int(a), int(b)), max(int(a), int(b)))
            for line in caption.split("\n") if line in rules for a, b in _tiles(line)}
