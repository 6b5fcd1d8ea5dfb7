"""ui.render for every game of RULES.md §2: a real match of each through the service, every
view rendered in every locale (within Telegram's limits with long names, no hand in a group
text, the variant's own lines present), and hand-built views for the rare cases (the
extraordinary lead's gap, void rounds, a race won mid-round, resets, specials, generals,
draws, every title and plural)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from service.live.rulebook import variant_infos
from service.views import (
    ActionNote,
    EndReason,
    EndView,
    FlagView,
    LaidTile,
    LayoutView,
    MarkTally,
    MarkView,
    MatchEnd,
    PlayerResult,
    RoundSummary,
    SeatView,
    Status,
    TableView,
)
from tests.variantkit import play_every_game
from ui import render
from ui.i18n import SUPPORTED_LOCALES, Translator

TR = Translator(strict=True)
TILE_RE = re.compile(r"\[(\d+)\|(\d+)\]")
LONG = ["Оля «<b>»", "Петя &amp; " + "Ж" * 60, "🐐" * 40, "A" * 200]


def tiles_in(text: str) -> set[tuple[int, int]]:
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in TILE_RE.findall(text)}


def laid(layout: LayoutView, notes=()) -> set[tuple[int, int]]:
    """The tiles on the table (the line, the cross's arms; the trains and their engine; the
    sausage's head, lines and the tile turned over, RULES.md §2.11, §2.12), and those the
    round's public log named: a placed tile a cut took off the table, a turned-over tile
    that went back to its queue (§2.12 rules 4–5), all seen by everybody."""
    tiles = layout.line + layout.up + layout.down + tuple(
        t for train in layout.trains for t in train.tiles)
    out = {(min(t.a, t.b), max(t.a, t.b)) for t in tiles}
    if layout.engine is not None:
        out.add((layout.engine, layout.engine))
    s = layout.sausage
    if s is not None:
        out |= {(min(t.a, t.b), max(t.a, t.b)) for t in s.a + s.b}
        out |= {(min(t), max(t)) for t in (s.head, s.turned) if t is not None}
    for note in notes:
        if note.kind in ("led", "played"):
            out.add(tuple(sorted(map(int, note.tile.split("-")))))
        elif note.kind == "sent_back":
            out |= tiles_in(str(dict(note.args)["tile"]))
    return out


def rule_lines(locale: str) -> set[str]:
    """Lines whose tiles are the rules' words, not anybody's tiles (the fast leads, the
    extraordinary lead's gap): they may name [0|0], [6|6] and [0|6] whatever lies on the
    table."""
    out = {TR.t(locale, "flag-two_tiles")}
    out |= {TR.t(locale, "flag-fast", value=f) for f in ("six", "zero", "extra")}
    out |= {TR.t(locale, "table-ends-gap", left=a, right=b) for a in range(7) for b in range(7)}
    return out


def public_tiles(locale: str, text: str) -> set[tuple[int, int]]:
    """The tiles a group text shows, the rules' words (and the specials', which name the
    doubles they are about) left out."""
    rules = rule_lines(locale)
    return tiles_in("\n".join(line for line in text.splitlines() if line not in rules
                              and not line.startswith(("💥", "🔒🔒"))))


@pytest.fixture(scope="module")
def matches(tmp_path_factory) -> dict[str, list]:
    """A whole match of every game through the service (long names), every result."""
    import asyncio

    path = tmp_path_factory.mktemp("variants") / "kozel.sqlite3"
    return asyncio.run(play_every_game(path, LONG, seeds=range(7000, 9000), rng_seed=2024,
                                       chat=-500))


@pytest.mark.parametrize("variant", list(variant_infos()))
def test_every_view_of_a_real_match_renders_within_limits_and_shows_no_hand(matches, variant):
    results = matches[variant]
    assert results[-1].status == Status.FINISHED
    rounds = 0
    for n, res in enumerate(results):
        locale = SUPPORTED_LOCALES[n % 3]
        table = res.table
        text = render.render_table(locale, table, tr=TR)
        assert render.text_length(text) <= render.MAX_TEXT
        if table.summary is None:  # a running round: nothing but the table's tiles
            assert public_tiles(locale, text) <= laid(table.layout, table.notes), text
        score = render.render_score(locale, table, tr=TR)
        assert render.text_length(score) <= render.MAX_TEXT and not tiles_in(score)
        if res.closed is not None:
            closed = render.render_table(locale, res.closed, tr=TR)
            assert render.text_length(closed) <= render.MAX_TEXT
            hands = {(min(map(int, t.split("-"))), max(map(int, t.split("-"))))
                     for h in res.closed.summary.hands for t in h}
            assert public_tiles(locale, closed) <= laid(res.closed.layout,
                                                        res.closed.notes) | hands
        for summary in res.rounds:
            rounds += 1
            names = [s.name for s in table.seats]
            sides = [s.side for s in table.seats]
            for loc in SUPPORTED_LOCALES:
                words = render.render_round_summary(loc, summary, names, sides, tr=TR)
                assert render.text_length(words) <= render.MAX_TEXT
        if res.final is not None:
            for loc in SUPPORTED_LOCALES:
                end = render.render_match_end(loc, res.final, tr=TR)
                assert render.text_length(end) <= render.MAX_TEXT
    assert rounds >= 1


def _hand_tiles(res) -> set[tuple[int, int]]:
    return {(min(map(int, t.split("-"))), max(map(int, t.split("-")))) for h in res.hands
            for t in h.tiles}


@pytest.mark.parametrize("variant", list(variant_infos()))
def test_the_games_own_lines_are_on_the_table(matches, variant):
    """What each game needs is shown (RULES.md §2): its name, its goal, the cross arm by
    arm with the spinner, the count after the last move, Семёрка's sticks, Генерал's lost
    rounds, sport domino's deal k of N, the time per turn."""
    info = variant_infos()[variant]
    results = matches[variant]
    name = TR.plain("ru", "variant-name", variant=variant)
    seen_cross = seen_count = 0
    for res in results:
        table = res.table
        text = render.render_table("ru", table, tr=TR)
        lines = text.splitlines()
        if variant == "classic":
            assert lines[0] == TR.t("ru", "table-title-classic", round=table.round_no)
        elif variant == "mexican_train":  # the round of N+1 and its hub (§2.11 rule 1)
            assert lines[0] == (f"<b>{name} · раунд {table.round_no} из {table.deals}</b> · "
                                f"станция {table.layout.engine}")
        elif table.deals:
            assert lines[0] == f"<b>{name} · раздача {table.round_no} из {table.deals}</b>"
        else:
            assert lines[0] == f"<b>{name} · раунд {table.round_no}</b>"
        assert any(line.startswith("🎯") for line in lines)
        if table.to_act is not None and table.seats[table.to_act].bot is None:
            assert f"⏱ {table.turn_seconds} с на ход" in text
        if table.layout.spinner is not None:
            seen_cross += 1
            assert "✳ Дом: " in text
            assert sum(line.startswith(("← Влево", "→ Вправо", "↑ Вверх", "↓ Вниз"))
                       for line in lines) == len([e for e in table.layout.ends
                                                  if e.name in ("left", "right", "up", "down")])
        if table.layout.kind == "trains":  # a line per train and the Mexican one
            e = table.layout.engine
            assert f"🚉 Станция: [{e}|{e}]" in lines
            assert sum(line.startswith(("🚂 ", "🇲🇽 ")) for line in lines) == \
                len(table.seats) + 1
        if table.layout.kind == "sausage" and table.layout.sausage.head is not None:
            x, y = table.layout.sausage.head
            assert f"🌭 Голова: [{x}|{y}]" in lines
            assert sum(line.startswith(("A: ", "B: ")) for line in lines) == 2
        if table.layout.count is not None:
            seen_count += 1
            assert f"Σ Сумма концов: <b>{table.layout.count}</b>" in text
        if "sticks" in info.options:
            assert sum("палки:" in line or "вне игры" in line for line in lines) == len(
                table.seats)
        if "losses" in info.options:
            assert sum(line.startswith("Команда") and "проиграно" in line
                       for line in lines) == 2
        if info.scoring == "marks":
            assert "счёт" not in text  # Семёрка and Генерал keep no points
    if info.layout == "cross":
        assert seen_cross
    if variant in ("telephone", "muggins"):
        assert seen_count


ARM_RE = re.compile(r"^[←→↑↓] .*: .* · (?:<b>(\d)</b>|🔒)(?: \(в сумме (\d+)\))?$")


def arm_figures(text: str) -> list[int]:
    """What each arm line of a Russian text table says its end adds to the count: the
    number in «(в сумме N)», else the number the end shows (0 for a shut end)."""
    out = []
    for line in text.splitlines():
        if line.startswith(("← ", "→ ", "↑ ", "↓ ")):
            found = ARM_RE.match(line)
            assert found, line
            shown, counted = found.groups()
            out.append(int(counted) if counted is not None else int(shown or 0))
    return out


@pytest.mark.parametrize("variant", ["telephone", "muggins"])
def test_the_arms_figures_add_up_to_the_count(matches, variant):
    """RULES.md §2.0.6: a double across counts both halves, the spinner with an empty side
    both of its halves, an empty arm nothing — and the text table's arm figures say so, so
    that they add up to the printed Σ (issue 30 item 5)."""
    seen = 0
    for res in matches[variant]:
        for table in (res.table, res.closed):
            layout = table.layout if table is not None else None
            if layout is None or layout.spinner is None or layout.count is None:
                continue
            text = render.render_table("ru", table, tr=TR)
            assert sum(arm_figures(text)) == layout.count, text
            seen += any(e.counts != e.number for e in layout.ends if not e.closed)
    assert seen  # the doubles across and the spinner's empty sides were met


def test_a_double_across_at_an_arms_tip_counts_both_halves_in_its_figure():
    """The tester's table: [0|6][6|6] to the right is 12 of the count, not 6 (§2.0.6)."""
    layout = LayoutView(
        kind="cross",
        line=(LaidTile(2, 4), LaidTile(4, 4, "across"), LaidTile(4, 0), LaidTile(0, 6),
              LaidTile(6, 6, "across")),
        spinner=1, up=(LaidTile(4, 3),),
        ends=(EndView("left", 2, counts=2), EndView("right", 6, counts=12),
              EndView("up", 3, counts=3), EndView("down", 4)),
        count=17)
    table = _table(layout=layout, variant="telephone", rules={"variant": "telephone"})
    text = render.render_table("ru", table, tr=TR)
    assert "→ Вправо: [4|0][0|6][6|6] · <b>6</b> (в сумме 12)" in text
    assert "↓ Вниз: — · <b>4</b> (в сумме 0)" in text
    assert "← Влево: [4|2] · <b>2</b>" in text.splitlines()
    assert sum(arm_figures(text)) == 17 and "Σ Сумма концов: <b>17</b>" in text
    for locale in SUPPORTED_LOCALES:  # every locale says what the double adds
        right = render.render_table(locale, table, tr=TR).splitlines()[3]
        assert right.startswith("→ ") and right.endswith("12)"), right
    # a game without a count shows the numbers alone
    plain = render.render_table("ru", _table(layout=replace(layout, count=None),
                                             variant="donkey"), tr=TR)
    assert "в сумме" not in plain


def test_the_match_ends_with_the_games_word(matches):
    for variant, results in matches.items():
        final = results[-1].final
        for locale in SUPPORTED_LOCALES:
            text = render.render_match_end(locale, final, tr=TR)
            goats = [p for p in final.players if p.goat]
            if goats:
                word = TR.plain(locale, "goat-word", variant=variant, title=final.title or "none",
                                count=len(goats))
                assert word in text, (variant, text)
            if final.winners:
                assert "🏆" in text
            if final.draw:
                assert TR.t(locale, "match-draw") in text


# -- hand-built views ------------------------------------------------------------------------


def _seats(n: int = 3, **changes) -> tuple[SeatView, ...]:
    names = ["Оля", "Петя", "Маша", "Коля"]
    return tuple(SeatView(seat=i, user_id=i + 1, name=names[i], tiles=5, side=i, score=0,
                          remembered=0, to_act=i == 0, host_moves=0, **changes)
                 for i in range(n))


def _table(**changes) -> TableView:
    base = TableView(
        match_id=1, chat_id=-1, thread_id=None, version=3, status=Status.PLAYING, round_no=2,
        teams=False, chain=(), ends=(), drawable=7, reserve=0, seats=_seats(), scores=(0,) * 3,
        remembered=(0,) * 3, pot=0, to_act=0, to_act_user_id=1, deadline_at=None,
        match_limit=125, notes=(), final=None, variant="sea_goat", turn_seconds=60,
        rules={"variant": "sea_goat", "match_limit": 125, "open_threshold": 25})
    return replace(base, **changes)


def test_the_extraordinary_lead_shows_its_gap_and_two_tiles_a_turn():
    """RULES.md §2.1 rule 7: [0|0] and [6|6] with a gap only [0|6] fits; two tiles a turn."""
    layout = LayoutView(line=(LaidTile(0, 0, "across"), LaidTile(6, 6, "across")), gap=1,
                        ends=(EndView("left", 0), EndView("right", 6), EndView("gap", None)))
    notes = (ActionNote("dealt", 0, 2), ActionNote("led", 0, 2, tile="0-0", end="left",
                                                     tiles=(("6-6", "right", False, False),)))
    table = _table(layout=layout, flags=(FlagView("fast", "extra"), FlagView("two_tiles")),
                   notes=notes)
    text = render.render_table("ru", table, tr=TR)
    assert "Цепь: [0|0] ⋯ [6|6]" in text
    assert "Концы: <b>0</b> и <b>6</b>, в промежуток — только [0|6]" in text
    assert TR.t("ru", "flag-fast", value="extra") in text and "станет внеочередным козлом" in text
    assert TR.t("ru", "flag-two_tiles") in text
    assert "Оля: заход [0|0] и [6|6]" in text
    assert "⚡ Быстрый заход [0|0]: проигравший запишет 75" in render.render_table(
        "ru", replace(table, flags=(FlagView("fast", "zero"),)), tr=TR)
    en = render.render_table("en", table, tr=TR)
    assert "only [0|6] fits the gap" in en and "Two tiles a turn" in en


def test_a_move_of_several_tiles_reads_as_one_action():
    """RULES.md §2.0.4: «Оля: [3|3] слева и [5|5] справа», closed 🔒 and along, points."""
    notes = (
        ActionNote("played", 0, 1, tile="3-3", end="left", tiles=(("5-5", "right", False,
                                                                    False),)),
        ActionNote("played", 1, 1, tile="2-2", end="up", closed=True,
                   tiles=(("4-4", "down", False, False), ("6-6", "right", True, False))),
        ActionNote("played", 2, 1, tile="1-1", end="down", along=True, points=15, total=15),
        ActionNote("drew", 0, 1, count=2),
        ActionNote("played", 0, 1, tile="0-5", end="gap"),
    )
    lines = render.action_log(notes, ["Оля", "Петя", "Маша"], "ru", tr=TR)
    assert lines == ["Оля: [3|3] слева и [5|5] справа",
                     "Петя: [2|2]🔒 вверх, [4|4] вниз и [6|6]🔒 справа",
                     "Маша: [1|1] вниз, вдоль · +15",
                     "Оля берёт 2 из базара и ходит [0|5] в промежуток"]
    en = render.action_log(notes[:1], ["Olya"], "en", tr=TR)
    assert en == ["Olya: [3|3] on the left and [5|5] on the right"]
    uk = render.action_log(notes[:1], ["Оля"], "uk", tr=TR)
    assert uk == ["Оля: [3|3] зліва і [5|5] справа"]


def test_semerka_log_and_sticks():
    """RULES.md §2.8 rules 4–6: another turn on 6, draw two on 7 (taken blindly when the
    market runs short), a drawn tile that does not fit; sticks and leaving."""
    notes = (ActionNote("played", 0, 1, tile="2-4", end="right"), ActionNote("again", 0, 1),
             ActionNote("played", 0, 1, tile="3-4", end="left"),
             ActionNote("draw_two", 1, 1, args=(("count", 2), ("taken", 1)),
                        names=(("maker", 0),)),
             ActionNote("drew", 2, 1, count=1), ActionNote("passed", 2, 1),
             ActionNote("stick", 1, 1), ActionNote("left_match", 1, 1))
    lines = render.action_log(notes, ["Оля", "Петя", "Маша"], "ru", tr=TR)
    assert lines[1] == "➕ Сумма концов 6 — Оля ходит ещё раз"
    assert lines[3] == ("7️⃣ Сумма концов 7 — Петя берёт 2 кости (из них 1 вслепую из руки "
                        "игрока Оля) и пропускает ход")
    assert lines[4] == "Маша берёт 1 из базара — не подошла, ход дальше"
    assert lines[5:] == ["🪵 Петя получает палку.", "🚪 Петя выбывает из партии."]
    seats = tuple(replace(s, marks=(MarkView("sticks", k, 3),), left=k == 3,
                          tiles=0 if k == 3 else 4)
                  for s, k in zip(_seats(), (1, 3, 0), strict=True))
    table = _table(variant="seven", seats=seats, rules={"variant": "seven", "sticks": 3})
    text = render.render_table("uk", table, tr=TR)
    assert "Оля — 4 кістки, палиці: 1 з 3" in text and "Петя — поза грою, палиць: 3" in text
    assert "рахунок" not in text and "3 палиці — і вибуває" in text


def _summary(**changes) -> RoundSummary:
    base = RoundSummary(
        round_no=3, end="out", by=0, hands=((), ("2-5", "6-6"), ("0-1",)),
        hand_values=(0, 19, 1), recorded=(0, 19, 0), scores=(0, 44, 30), remembered=(0,) * 3,
        pot_won=0, pot=0, seat_values=(0, 19, 1), variant="sea_goat",
        rules={"variant": "sea_goat", "match_limit": 125, "open_threshold": 25},
        layout=LayoutView(line=(LaidTile(1, 6), LaidTile(6, 6, "across")), last=(("line", 1),)),
        losers=(1,))
    return replace(base, **changes)


NAMES = ["Оля", "Петя", "Маша"]


def test_sea_goat_round_ends():
    """RULES.md §2.1: the loser records alone; points below 25 are lost while closed; a tie
    feeds the pot; a [6|6] out resets the finisher; a blocked fast round is void."""
    text = render.render_round_summary("ru", _summary(), NAMES, [0, 1, 2], tr=TR)
    assert "🏁 Оля выходит: [6|6]." in text and "Проигравший раунда: <b>Петя</b>" in text
    assert "Петя: +19 → счёт <b>44</b>" in text
    lost = _summary(scores=(0, 0, 30))
    assert "Петя: +19 — счёт не открыт (нужно 25), очки сгорают" in render.render_round_summary(
        "ru", lost, NAMES, [0, 1, 2], tr=TR)
    tie = _summary(losers=(1, 2), recorded=(0, 0, 0), pot=38)
    text = render.render_round_summary("ru", tie, NAMES, [0, 1, 2], tr=TR)
    assert "Поровну: Петя, Маша — никто не записывает, очки в яйца." in text
    assert "🥚 В яйцах: 38 очков." in text
    reset = _summary(reset=(0,), recorded=(0, 100, 0), scores=(0, 100, 30),
                     flags=(FlagView("fast", "six"),))
    text = render.render_round_summary("en", reset, NAMES, [0, 1, 2], tr=TR)
    assert "🔄 Оля: the score goes back → <b>0</b>" in text and "Fast lead of [6|6]" in text
    void = _summary(end="void", by=2, recorded=(0, 0, 0), losers=(),
                    flags=(FlagView("fast", "zero"),))
    text = render.render_round_summary("ru", void, NAMES, [0, 1, 2], tr=TR)
    assert "пересдача: Маша снова заходит тем же" in text and "Запись" not in text


def test_race_round_won_in_the_middle_and_play_points():
    """RULES.md §2.0.6–§2.0.7: points scored on the count, a race won mid-round."""
    rules = {"variant": "telephone", "match_limit": 225}
    limit = _summary(end="limit", by=1, variant="telephone", rules=rules, recorded=(0, 0, 0),
                     scores=(120, 230, 75), play_points=(10, 45, 0), losers=())
    text = render.render_round_summary("ru", limit, NAMES, [0, 1, 2], tr=TR)
    assert "🏆 Петя набирает 225 — партия окончена посреди раунда." in text
    assert "За ходы: Оля +10 · Петя +45" in text and "Петя: 230" in text
    out = replace(limit, end="out", recorded=(15, 0, 0), scores=(135, 185, 75))
    text = render.render_round_summary("en", out, NAMES, [0, 1, 2], tr=TR)
    assert "Оля: +15 → score <b>135</b>" in text


def test_chcv_specials_and_general():
    chcv = _summary(variant="chcv", rules={"variant": "chcv", "match_limit": 101}, losers=(),
                    specials=(("out_6-6", 0), ("held_0-0", 2)))
    text = render.render_round_summary("ru", chcv, NAMES, [0, 1, 2], tr=TR)
    assert "💥 Оля выходит с [6|6] — всем остальным по 50." in text
    assert "💥 Маша: на руке остался [0|0] — козёл!" in text
    assert "💥" not in render.render_round_summary("ru", chcv, NAMES, [0, 1, 2],
                                                   specials=False, tr=TR)
    names = ["Оля", "Петя", "Маша", "Коля"]
    general = _summary(variant="general", rules={"variant": "general", "losses": 2},
                       hands=((), ("0-1",), ("2-2",), ("3-3",)), seat_values=(0, 1, 4, 6),
                       recorded=(0, 0), scores=(0, 0), remembered=(0, 0), hand_values=(4, 7),
                       losers=(1,), marks=(MarkTally("losses", "side", (0, 2), 2),),
                       flags=(FlagView("general"),))
    text = render.render_round_summary("uk", general, names, [0, 1, 0, 1], tr=TR)
    assert "🎖 Генерал! Команда <b>Петя + Коля</b> програє партію одразу." in text
    assert "Петя: [0|1]" in text and "очк" not in text  # Генерал counts no points
    assert "Команда 2 (Петя + Коля): 2 з 2" in text


def _end(variant, lines, *, title=None, winners=(), draw=False) -> MatchEnd:
    players = tuple(PlayerResult(seat=i, user_id=i + 1, name=n, score=s, goat=g, rating=r,
                                 outs=0, fish=0, timed_out=False, side=side, place=place,
                                 title=title if g else None,
                                 marks=(MarkView("sticks", sticks, 3),) if variant == "seven"
                                 else ())
                    for i, (n, s, g, r, side, place, sticks) in enumerate(lines))
    return MatchEnd(EndReason.LIMIT, True, players, variant=variant, title=title,
                    winners=winners, draw=draw)


@pytest.mark.parametrize(("title", "one", "two"), [
    ("sea", "Морской козёл", "Морские козлы"), ("hanging", "Подвесной козёл", "Подвесные козлы"),
    ("extraordinary", "Внеочередной козёл", "Внеочередные козлы"),
    ("snotty", "Сопливый козёл", "Сопливые козлы"), ("admiral", "Адмирал", "Адмиралы")])
def test_sea_goat_titles_singular_and_plural(title, one, two):
    single = _end("sea_goat", [("Оля", 30, False, 10, 0, 1, 0), ("Петя", 125, True, 0, 1, 2, 0)],
                  title=title)
    assert f"🐐 {one}: <b>Петя</b>" in render.render_match_end("ru", single, tr=TR)
    double = _end("sea_goat", [("Оля", 30, False, 10, 0, 1, 0), ("Петя", 0, True, 0, 1, 2, 0),
                               ("Маша", 0, True, 0, 2, 2, 0)], title=title)
    assert f"🐐 {two}: <b>Петя, Маша</b>" in render.render_match_end("ru", double, tr=TR)
    for locale in ("uk", "en"):
        assert render.render_match_end(locale, double, tr=TR)


def test_match_ends_of_the_other_games():
    donkey = _end("donkey", [("Оля", 30, False, 7, 0, 1, 0), ("Петя", 104, True, 0, 1, 2, 0)])
    assert "🫏 Осёл: <b>Петя</b>" in render.render_match_end("ru", donkey, tr=TR)
    assert "🫏 Осел: <b>Петя</b>" in render.render_match_end("uk", donkey, tr=TR)
    team = _end("classic", [("Оля", 104, True, 0, 0, 2, 0), ("Петя", 20, False, 8, 1, 1, 0),
                            ("Маша", 104, True, 0, 0, 2, 0), ("Коля", 20, False, 8, 1, 1, 0)])
    text = render.render_match_end("ru", team, tr=TR)
    assert "🐐 Козлы: <b>Оля + Маша</b>" in text  # a team is two goats
    assert text.index("1. Петя + Коля") < text.index("2. 🐐 Оля + Маша")
    race = _end("telephone", [("Оля", 230, False, 6, 0, 1, 0), ("Петя", 85, True, 0, 1, 3, 0),
                              ("Маша", 175, False, 4, 2, 2, 0)], winners=(0,))
    text = render.render_match_end("en", race, tr=TR)
    assert "🏆 The winner: <b>Оля</b>" in text and "🐐 The goat: <b>Петя</b>" in text
    assert text.index("1. Оля — 230") < text.index("2. Маша — 175") < text.index("3. 🐐 Петя")
    seven = _end("seven", [("Оля", 0, False, 2, 0, 1, 1), ("Петя", 0, True, 0, 1, 3, 3),
                           ("Маша", 0, False, 1, 2, 2, 3)], winners=(0,))
    text = render.render_match_end("ru", seven, tr=TR)
    assert "🐐 Козёл (вне игры раньше всех): <b>Петя</b>" in text
    assert "🏆 Остался последним: <b>Оля</b>" in text and "1. Оля — 1 палка" in text
    nobody = replace(seven, winners=(), players=tuple(replace(p, goat=True) for p in
                                                      seven.players[1:]) + seven.players[:1])
    assert TR.t("ru", "match-no-winner") in render.render_match_end("ru", nobody, tr=TR)
    draw = _end("sport", [("Оля", 60, False, 1, 0, 1, 0), ("Петя", 60, False, 1, 1, 1, 0),
                          ("Маша", 60, False, 1, 0, 1, 0), ("Коля", 60, False, 1, 1, 1, 0)],
                draw=True)
    text = render.render_match_end("uk", draw, tr=TR)
    assert "🤝 Нічия: рахунок рівний, козлів немає." in text and "🐐" not in text
    general = _end("general", [("Оля", 0, True, 0, 0, 2, 0), ("Петя", 0, False, 2, 1, 1, 0),
                               ("Маша", 0, True, 0, 0, 2, 0), ("Коля", 0, False, 2, 1, 1, 0)],
                   title="general")
    assert "🎖 Генералы: <b>Оля + Маша</b>" in render.render_match_end("ru", general, tr=TR)


def test_chcvs_end_table_shows_the_points_the_last_round_remembered():
    """The tester's ЧЧВ match (issue 30 item 4): the last round's summary said «Оля: +8
    запомнено → +8»; the final table says those points too, beside her open score of 0
    (RULES.md §1.12: they count towards nothing — her rating is that of a score of 0,
    §1.16)."""
    end = _end("chcv", [("Оля", 0, False, 10, 0, 1, 0), ("Петя", 60, False, 4, 1, 2, 0),
                        ("Маша", 104, True, 0, 2, 3, 0)])
    end = replace(end, players=(replace(end.players[0], remembered=8), *end.players[1:]))
    expected = {"ru": "1. Оля — 0 (+8 запомнено), рейтинг +10",
                "uk": "1. Оля — 0 (+8 запам'ятовано), рейтинг +10",
                "en": "1. Оля — 0 (+8 remembered), rating +10"}
    for locale, line in expected.items():
        lines = render.render_match_end(locale, end, tr=TR).splitlines()
        assert line in lines
        rating = line.rsplit(", ", 1)[1].split(" ")[0]
        assert f"2. Петя — 60, {rating} +4" in lines  # nothing remembered: nothing said
    # a game without points shows its marks alone, whatever it remembers
    seven = _end("seven", [("Оля", 0, False, 2, 0, 1, 1), ("Петя", 0, True, 0, 1, 2, 3)])
    seven = replace(seven, players=(replace(seven.players[0], remembered=5),
                                    seven.players[1]))
    assert "1. Оля — 1 палка, рейтинг +2" in render.render_match_end("ru", seven, tr=TR)


async def test_a_finished_matchs_end_table_agrees_with_its_last_round(tmp_path):
    """Through the service: a side left with remembered points by the match's last round
    (RULES.md §1.12) has them at the match's end (``PlayerResult.remembered``), and the end
    table shows them as the round's summary and the table did (issue 30 item 4)."""
    from service.game import GameService
    from tests.servicekit import FakeClock
    from tests.variantkit import play_to_end, seat

    svc = await GameService.open(tmp_path / "k.sqlite3", clock=FakeClock(),
                                 seed_source=iter(range(100, 10_000)).__next__)
    rng = random.Random(1)
    try:
        for k in range(30):
            res = await seat(svc, -100 - k, 3, variant="classic", rules={"match_limit": 51})
            end, seen = await play_to_end(svc, await svc.lobbies.start(res.match_id, 1), rng)
            last = [r for step in seen for r in step.rounds][-1]
            if any(last.remembered):
                break
        else:
            pytest.fail("no match ended with remembered points")
    finally:
        await svc.close()
    names = [s.name for s in end.table.seats]
    summary = render.render_round_summary("ru", last, names, list(range(3)), tr=TR)
    text = render.render_match_end("ru", end.final, tr=TR)
    for p in end.final.players:
        assert p.remembered == last.remembered[p.side] == end.table.remembered[p.side]
        assert p.score == last.scores[p.side]
        if p.remembered:
            assert f"→ <b>+{p.remembered}</b>" in summary or f"→ +{p.remembered}" in summary
            assert f"{p.name} — {p.score} (+{p.remembered} запомнено), рейтинг" in text


def test_a_long_cross_with_long_names_fits_in_every_locale():
    """A cross of 27 tiles, a long log and long names: within 4096 characters, the newest
    lines kept (RULES.md §2.0.2)."""
    import itertools

    tiles = list(itertools.islice(itertools.cycle(
        [LaidTile(1, 2), LaidTile(2, 3), LaidTile(3, 1)]), 27))
    layout = LayoutView(kind="cross", line=(*tiles[:8], LaidTile(5, 5, "across"), *tiles[8:15]),
                        spinner=8, up=tuple(tiles[15:21]), down=tuple(tiles[21:27]),
                        ends=(EndView("left", 1), EndView("right", 3),
                              EndView("up", None, True), EndView("down", 2)), count=20)
    names = ["Ж" * 200, "🐐" * 100, "&<>" * 60, "Q" * 300]
    notes = tuple(ActionNote("played", k % 4, 5, tile="2-5", end="up", points=20, total=20,
                             tiles=(("3-3", "down", True, False),)) for k in range(400))
    seats = tuple(replace(s, name=names[s.seat]) for s in _seats(4))
    table = _table(variant="telephone", layout=layout, seats=seats, notes=notes,
                   scores=(200,) * 4, remembered=(0,) * 4,
                   rules={"variant": "telephone", "match_limit": 225})
    for locale in SUPPORTED_LOCALES:
        text = render.render_table(locale, table, tr=TR)
        assert render.text_length(text) <= render.MAX_TEXT
        assert "✳" in text and "+20" in text


def test_a_computer_players_turn_shows_no_time():
    seats = tuple(replace(s, bot="normal") if s.seat == 0 else s for s in _seats())
    text = render.render_table("ru", _table(seats=seats), tr=TR)
    assert "Ходит: <b>Оля</b>" in text and "⏱" not in text
    assert "⏱ 60 с на ход" in render.render_table("ru", _table(), tr=TR)
