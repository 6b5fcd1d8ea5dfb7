"""A game that exists only in this test — «Шишки» (``toy_bumps``): classic Kozel's play
(RULES.md §1.2–§1.10) with no points; after every round the players with the most pips in hand
(§1.11) get a bump, and ``bump_limit`` bumps make the goat; a round led with a double is
«bumpy», which the table says while it is played, as the sea goat's fast lead (§2.1 rule 6).
It has its own counter with a limit, its own event, its own flag, its own names in three
languages and no points, like Семёрка (§2.8), and it is opened by its name with /newgame
through the bot's routers, played through the service, and drawn as text, caption, picture
and the Mini App's page with nothing in the product knowing it: its module is this file, its
registry line the ``register`` below, its texts the Fluent texts given to the translator here
(issue 19, "Declared marks"; issue 31, "Variant words declared").
"""

from __future__ import annotations

import io
import random
from dataclasses import replace
from typing import Any, NamedTuple

import pytest
from PIL import Image

from engine.events import Note
from engine.rules import VARIANTS, Option
from engine.table import Table
from engine.variant import Flag, Mark, MatchResult, RoundEnd, Variant, register
from service.game import GameService
from service.live.rulebook import variant_infos
from service.views import Status
from tests.botkit import Harness, Person
from tests.servicekit import FakeClock, engine_state, start_match
from ui import render
from ui.caption import MAX_CAPTION, caption_length, render_caption
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.picture import HEIGHT, WIDTH, picture_labels, render_table_png
from ui.webapp_view import page_state

NAME = "toy_bumps"
GROUP = -100777
OLYA = Person(501, "Оля")


class Bumps(NamedTuple):
    """The toy's own match value: bumps per seat."""

    bumps: tuple[int, ...] = ()


class Bumped(NamedTuple):
    """``seat`` had the most pips in hand and got a bump, now holding ``bumps``."""

    seat: int
    bumps: int
    kind = "bumped"

    def note(self) -> Note:
        return Note(self.kind, self.seat, (("bumps", self.bumps),))


class Toy(Variant):
    """Classic play, no points; the most pips in hand (§1.11) get a bump each round."""

    name = NAME
    section = "§9"
    teams = "never"
    options = {
        "fish_without_double": True,
        "turn_timeout": 60,
        "afk_limit": 2,
        "bump_limit": Option(2, (1, 9), choices=("1", "2", "3")),
    }
    marks = (Mark("bumps", per="seat", limit="bump_limit"),)
    flags = (Flag("bumpy"),)
    scoring = "marks"

    def round_flags(self, rs: Any) -> tuple[tuple[str, str], ...]:
        """A round led with a double is bumpy while it is played."""
        lay = rs.layout
        if lay.line and lay.lead_at >= 0:
            a, b, _how = lay.line[lay.lead_at]
            if a == b:
                return (("bumpy", "double"),)
        return ()

    def start(self, rules: Any, players: int) -> dict[str, Any]:
        out = super().start(rules, players)
        out["own"] = Bumps((0,) * players)
        return out

    def score_round(self, state: Any, t: Table) -> RoundEnd:
        values = self.side_values(state, t)
        top = max(values)
        losers = tuple(s for s, v in enumerate(values) if v == top)
        bumps = list(state.own.bumps)
        for s in losers:
            bumps[s] += 1
        scored = self.scored_event(state, t, values, (0,) * len(values), state.scores,
                                   state.remembered, 0, state.pot, losers)
        return RoundEnd(state.scores, state.remembered, state.pot, scored,
                        own=Bumps(tuple(bumps)),
                        events=tuple(Bumped(s, bumps[s]) for s in losers))

    def result(self, state: Any, end: RoundEnd) -> MatchResult | None:
        goats = tuple(s for s, n in enumerate(end.own.bumps) if n >= state.rules.bump_limit)
        if not goats:
            return None
        return MatchResult("limit", goats, tuple(0 if s in goats else 1
                                                 for s in range(state.players)), None)

    def standing(self, state: Any) -> list[float]:
        return [float(n) for n in state.own.bumps]


#: The toy's texts, as a variant's own keys of ``locales/*/variants.ftl`` would give them.
TEXTS = {
    "ru": """
variant-name-toy_bumps = Шишки
variant-aliases-toy_bumps = шишечки, игра в шишки
variant-about-toy_bumps = Как козёл, но без очков: у кого больше всех на руке — шишка.
flag-bumpy = { $value ->
   *[double] 🌰🌰 Заход дублем: раунд с шишками.
}
pic-flag-bumpy = Раунд с шишками
table-goal-toy_bumps = 🎯 У кого больше всех на руке — шишка; { $bump_limit } шишки — козёл.
mark-table-toy_bumps = шишки: { $count } из { $limit }
mark-round-title-toy_bumps = <b>Шишки:</b>
log-bumped = 🌰 { $name } получает шишку ({ $bumps }).
settings-bump-limit = Шишек до козла
rules-bump-limit = 🌰 Шишек до козла: { $count }
""",
    "uk": """
variant-name-toy_bumps = Шишки
variant-aliases-toy_bumps = шишечки, гра в шишки
variant-about-toy_bumps = Як козел, але без очок: у кого на руці найбільше — шишка.
flag-bumpy = { $value ->
   *[double] 🌰🌰 Перший хід дублем: раунд із шишками.
}
pic-flag-bumpy = Раунд із шишками
table-goal-toy_bumps = 🎯 У кого на руці найбільше — шишка; { $bump_limit } шишки — козел.
mark-table-toy_bumps = шишки: { $count } з { $limit }
mark-round-title-toy_bumps = <b>Шишки:</b>
log-bumped = 🌰 { $name } отримує шишку ({ $bumps }).
settings-bump-limit = Шишок до козла
rules-bump-limit = 🌰 Шишок до козла: { $count }
""",
    "en": """
variant-name-toy_bumps = Bumps
variant-aliases-toy_bumps = bumpy, game of bumps
variant-about-toy_bumps = Like Kozel with no points: the most pips in hand get a bump.
flag-bumpy = { $value ->
   *[double] 🌰🌰 Led with a double: a bumpy round.
}
pic-flag-bumpy = A bumpy round
table-goal-toy_bumps = 🎯 The most pips in hand get a bump; { $bump_limit } bumps make the goat.
mark-table-toy_bumps = bumps: { $count } of { $limit }
mark-round-title-toy_bumps = <b>Bumps:</b>
log-bumped = 🌰 { $name } gets a bump ({ $bumps }).
settings-bump-limit = Bumps to the goat
rules-bump-limit = 🌰 Bumps to the goat: { $count }
""",
}


@pytest.fixture
def toy():
    """The toy registered for one test, and gone after it."""
    assert NAME not in VARIANTS
    register(Toy)
    try:
        yield VARIANTS[NAME]
    finally:
        del VARIANTS[NAME]
    assert NAME not in variant_infos()


@pytest.fixture
def tr():
    out = Translator(strict=True, extra=TEXTS)
    return out


@pytest.fixture
async def svc(tmp_path):
    service = await GameService.open(tmp_path / "kozel.sqlite3", clock=FakeClock(),
                                     seed_source=iter(range(7000, 9000)).__next__)
    yield service
    await service.close()


def test_the_toy_declares_its_option_and_mark_and_the_service_offers_them(toy):
    info = variant_infos()[NAME]
    assert info.scoring == "marks" and info.options["bump_limit"] == 2
    assert info.own_options["bump_limit"].choices == ("1", "2", "3")
    assert [(m.name, m.per, m.limit) for m in info.marks] == [("bumps", "seat", "bump_limit")]
    from engine import Rules

    assert Rules(variant=NAME, bump_limit=3).bump_limit == 3
    with pytest.raises(ValueError, match="bump_limit"):
        Rules(variant=NAME, bump_limit=10)
    with pytest.raises(ValueError, match="does not use bump_limit"):
        Rules(bump_limit=2)


def _led_with_a_double(table) -> bool:
    lay = table.layout
    return bool(lay.line) and lay.lead is not None and \
        lay.line[lay.lead].a == lay.line[lay.lead].b


def _flag_drawn(tr, res, table) -> bool:
    """Whether the toy's flag is in every drawing of ``table`` — the text, the caption, the
    picture and the page — in every locale (and asserts it is in all or in none)."""
    seen = set()
    for locale in SUPPORTED_LOCALES:
        words = tr.t(locale, "flag-bumpy", value="double")
        page = page_state(replace(res, table=table), table.seats[0].user_id, locale, tr,
                          now=0.0)
        png = render_table_png(table, locale=locale, tr=tr)
        seen |= {words in render.render_table(locale, table, tr=tr),
                 words in render_caption(locale, table, tr=tr),
                 tr.plain(locale, "pic-flag-bumpy") in picture_labels(png),
                 tr.plain(locale, "flag-bumpy", value="double") in page["table"]["flags"]}
    assert len(seen) == 1, seen
    return seen.pop()


async def test_a_whole_match_of_the_toy_through_the_service_drawn_four_ways(toy, tr, svc):
    """The toy is played to its end through the service; every table and closed table along
    the way is drawn as text, caption, picture and page in every locale, and says the bumps;
    a round led with a double says it is bumpy (the toy's flag) everywhere while it is
    played, and no other round does."""
    rng = random.Random(4)
    res = await start_match(svc, -500, 3, rules={"variant": NAME})
    assert res.table.variant == NAME and res.table.rules["bump_limit"] == 2
    seen_closed = 0
    bumpy = plain = 0
    before = [0, 0, 0]
    while res.status == Status.PLAYING:
        hand = next(h for h in res.hands if h.your_turn)
        move = rng.choice(hand.legal)
        res = await svc.play.act(res.match_id, hand.user_id, move.tile, move.end, res.version)
        assert res.ok, (res.error, res.detail)
        table = res.table
        if table.summary is None and table.layout.line:
            flagged = _flag_drawn(tr, res, table)
            assert flagged == _led_with_a_double(table)
            assert [f.name for f in table.flags] == (["bumpy"] if flagged else [])
            bumpy, plain = bumpy + flagged, plain + (not flagged)
        bumps = [m.count for s in table.seats for m in s.marks]
        assert len(bumps) == 3 and all(m.limit == 2 for s in table.seats for m in s.marks)
        text = render.render_table("ru", table, tr=tr)
        assert all(f"шишки: {n} из 2" in text for n in bumps)
        assert "счёт" not in text and "Шишки · раунд" in text
        assert "🎯 У кого больше всех на руке — шишка; 2 шишки — козёл." in text
        if res.rounds:  # a round was scored: its closed table (the match's last: the table)
            seen_closed += 1
            closed = res.table if res.table.summary is not None else res.closed
            assert closed.summary.round_no == res.rounds[-1].round_no
            for locale in SUPPORTED_LOCALES:
                words = render.render_table(locale, closed, tr=tr)
                caption = render_caption(locale, closed, tr=tr)
                assert "🌰" in words and "🌰" in caption  # the toy's own event, in the log
                assert tr.t(locale, "mark-round-title-toy_bumps") in words
                assert caption_length(caption) <= MAX_CAPTION
            summary = closed.summary
            assert [t.name for t in summary.marks] == ["bumps"]
            after = summary.marks[0].counts
            assert [m.count for s in closed.seats for m in s.marks] == list(after)
            assert [n - b for n, b in zip(after, before, strict=True)] == [
                int(seat in summary.losers) for seat in range(3)]  # a bump per loser
        before = bumps
    assert res.status == Status.FINISHED and seen_closed >= 1
    assert bumpy and plain  # both kinds of round were drawn
    state = await engine_state(svc, res.match_id)
    final = res.final
    goats = [p for p in final.players if p.goat]
    assert goats and all(p.marks[0].count >= 2 for p in goats)
    assert [p.marks[0].count for p in final.players] == list(state.own.bumps)
    end = render.render_match_end("en", final, tr=tr)
    assert "bumps: " in end  # the generic mark-score words: the toy gave none of its own
    for locale in SUPPORTED_LOCALES:
        table = res.table
        text = render.render_table(locale, table, tr=tr)
        caption = render_caption(locale, table, tr=tr)
        assert tr.plain(locale, "variant-name-toy_bumps") in text
        assert tr.plain(locale, "variant-name-toy_bumps") in caption
        png = render_table_png(table, locale=locale, tr=tr, summary=table.summary)
        assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


def test_the_picture_draws_the_toys_bumps_and_name(toy, tr):
    """The toy's bumps are on the picture (a table with bumps differs from one without), and
    its name comes from its own key, not from another game's."""
    from dataclasses import replace

    from ui.picture_examples import line_layout, make_table

    layout = line_layout([(1, 2), (2, 5), (5, 5)])
    plain = make_table(["Оля", "Петя", "Маша"], [5, 6, 7], layout, variant=NAME)
    bumped = make_table(["Оля", "Петя", "Маша"], [5, 6, 7], layout, variant=NAME,
                        marks={"bumps": [1, 0, 1]})
    for locale in SUPPORTED_LOCALES:
        assert render_table_png(plain, locale=locale, tr=tr) != render_table_png(
            bumped, locale=locale, tr=tr)
        classic = replace(plain, variant="classic")
        assert render_table_png(plain, locale=locale, tr=tr) != render_table_png(
            classic, locale=locale, tr=tr)


@pytest.mark.parametrize("words", ["Шишки", "шишечки", "гра в шишки", "game of bumps",
                                   "toy_bumps"])
async def test_newgame_finds_the_toy_by_its_own_names_in_any_language(toy, tr, tmp_path,
                                                                     words):
    """/newgame takes a game's name or another name in any of the bot's languages from the
    game's own texts (``variant-name-…``, ``variant-aliases-…``): the lobby is the toy's,
    in the group's language, with the toy's own name."""
    async with Harness(tmp_path, translator=tr) as h:
        await h.say(OLYA, GROUP, f"/newgame {words}")
        found = await h.app.service.store.find_open(GROUP, None)
        assert found is not None and found.lobby.rules["variant"] == NAME
        lobby = (await h.app.messages(found.match_id)).id_of("lobby")
        assert "Шишки" in h.tg.messages[(GROUP, lobby)].text
        await h.say(OLYA, GROUP, "/rules шишечки")
        rules = h.tg.last(GROUP).text
        assert "Правила: Шишки" in rules and "без очков: у кого больше всех" in rules
        assert "🌰 Шишек до козла: 2" in rules
