"""ui.render: texts from the service's views of real engine matches -- hidden information,
length, words, escaping -- and from hand-built views (the cross of RULES.md §2.0.2).

The views come from the service's view builder (:class:`service.live.match.LiveMatch`) stepped
through whole matches; what the texts may show is checked against the engine's own state."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

import engine
from service.live.match import LiveMatch
from service.live.viewing import result_of
from service.views import (
    ActionNote,
    EndReason,
    EndView,
    HandView,
    LaidTile,
    LayoutView,
    LobbyView,
    MatchEnd,
    PlayerRef,
    PlayerResult,
    RoundSummary,
    SeatView,
    Status,
    TableView,
)
from storage.repository import MatchRow
from ui import render
from ui.i18n import SUPPORTED_LOCALES, Translator

TR = Translator(strict=True)
TILE_RE = re.compile(r"\[(\d)\|(\d)\]")
EVIL = ["Оля", "<b>Петя</b> & co", "Маша\n\u202eevil", "A" * 200]


def tiles_in(text: str) -> set[tuple[int, int]]:
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in TILE_RE.findall(text)}


def norm(tiles) -> set[tuple[int, int]]:
    out = set()
    for t in tiles:
        a, b = (t.a, t.b) if hasattr(t, "a") else (map(int, t.split("-")) if isinstance(t, str)
                                                  else t)
        out.add((min(a, b), max(a, b)))
    return out


def new_live(players: int, seed: int, rules: engine.Rules | None = None,
             names: list[str] | None = None) -> LiveMatch:
    names = names or [f"P{i}" for i in range(players)]
    row = MatchRow(id=1, chat_id=-100, thread_id=None, status="playing", end_reason=None,
                   rules=(rules or engine.Rules()).to_json(),
                   seats=[{"user_id": i + 1, "name": names[i]} for i in range(players)],
                   seed=seed, version=0, messages={}, deadline_at=None, creator_id=1,
                   rematch_of=None, created_at=0.0, updated_at=0.0, started_at=0.0,
                   finished_at=None)
    return LiveMatch.from_row(row)


def play_match(players=3, seed=1, rules=None, host_every=0, names=None, max_steps=5000):
    """Yield ``(result, step)`` through a whole match: the service's views after each
    decision (random legal moves, every ``host_every``-th a host move) and the engine's step
    (None for the deal)."""
    live = new_live(players, seed, rules, names)
    yield result_of(live), None
    rnd = random.Random(seed)
    for n in range(max_steps):
        if live.status != Status.PLAYING:
            return
        if host_every and n % host_every == host_every - 1:
            step = live.host_step()
        else:
            hand = next(h for h in live.hand_views() if h.your_turn)
            move = rnd.choice(hand.legal)
            step = live.step(hand.seat, move.tile, move.end)
        nxt = live.next(float(n))
        rounds = nxt.take(step)
        if step.ended is not None:
            nxt.set(status=Status.FINISHED, end_reason=step.ended)
        live = nxt
        yield result_of(live, events=step.events, rounds=rounds), step


MATCHES = [
    dict(players=2, seed=3, rules=engine.Rules(bazar_reserve=2)),
    dict(players=3, seed=5, rules=engine.Rules(fish_scoring="each_own")),
    dict(players=4, seed=8, rules=engine.Rules(teams=True)),
    dict(players=4, seed=13, rules=engine.Rules(fish_scoring="own_to_max", bazar_reserve=1)),
]


@pytest.mark.parametrize("match", MATCHES)
def test_group_table_never_shows_a_hand_or_the_bazar(match):
    """No hand (nor a drawn tile) in a group text before the round ends: the table shows
    the engine's chain and nothing else; the closed table of a round shows that round's
    chain and, in its summary, the hands as they were at its end."""
    names = EVIL[: match["players"]]
    checked = closed = 0
    for res, step in play_match(**match, names=names):
        locale = SUPPORTED_LOCALES[checked % 3]
        state = step.state if step is not None else None
        text = render.render_table(locale, res.table, tr=TR)
        if res.table.summary is None:
            chain = norm(res.table.layout.chain)
            if state is not None:
                assert chain == norm(state.chain)
            assert tiles_in(text) <= chain, (tiles_in(text) - chain, text)
            assert tiles_in(render.render_score(locale, res.table, tr=TR)) == set()
        if step is not None and step.closed is not None:
            # the closed table of the round that just ended: its chain and its hands
            table = res.closed
            assert table.round_no == step.closed.round_no and table.summary is not None
            hands = {t for h in step.closed.hands for t in h}
            shown = tiles_in(render.render_table(locale, table, tr=TR))
            assert shown <= norm(step.closed.chain) | norm(hands)
            assert norm(table.layout.chain) == norm(step.closed.chain)
            closed += 1
        checked += 1
    assert checked > 20 and closed >= 1


def test_tables_stay_within_telegram_limit_in_a_long_match_with_long_names():
    names = ["&<>" * 40, "<i>" * 40, "Ж" * 300, "🐐" * 100]
    longest = 0
    for res, _step in play_match(players=4, seed=99, host_every=7, names=names):
        for locale in SUPPORTED_LOCALES:
            # Ask for the whole log: the renderer must cut it to fit.
            text = render.render_table(locale, res.table, log_lines=10_000, tr=TR)
            assert render.text_length(text) <= render.MAX_TEXT
            longest = max(longest, render.text_length(text))
            for hand in res.hands:
                assert render.text_length(render.render_hand(locale, hand, res.table,
                                                             tr=TR)) <= render.MAX_TEXT
    assert longest > 1500


def test_closed_table_carries_the_round_summary_and_stays_within_the_limit():
    """Issue 5: a round's table, closed, ends with that round's summary (RULES.md
    §1.11–§1.12); the match's last table also says the match is over; long names fit."""
    names = ["&<>" * 40, "<i>" * 40, "Ж" * 300, "🐐" * 100]
    closed = 0
    for res, step in play_match(players=4, seed=99, host_every=7, names=names):
        tables = [t for t in (res.closed if step and step.closed is not None else None,
                              res.table if res.table.summary else None) if t is not None]
        for table in tables:
            for locale in SUPPORTED_LOCALES:
                text = render.render_table(locale, table, log_lines=10_000, tr=TR)
                assert render.text_length(text) <= render.MAX_TEXT
                summary = render.render_round_summary(
                    locale, table.summary, [s.name for s in table.seats],
                    [s.side for s in table.seats], tr=TR)
                assert text.split(summary)[0].endswith("\n\n")  # after the closed table
                over = TR.t(locale, "table-match-over")
                if table.final is not None:
                    assert text.endswith(summary + "\n\n" + over)
                else:
                    assert text.endswith(summary) and over not in text
            closed += 1
    assert closed >= 2


def _table(**changes) -> TableView:
    """A table view to draw, by hand: two seats, nothing played."""
    seats = (SeatView(0, 1, "Оля", 7, 0, 0, 0, True, 0), SeatView(1, 2, "Петя", 7, 1, 0, 0,
                                                                  False, 0))
    base = TableView(match_id=1, chat_id=-1, thread_id=None, version=3,
                     status=Status.PLAYING, round_no=1, teams=False, chain=(), ends=(),
                     drawable=14, reserve=0, seats=seats, scores=(0, 0), remembered=(0, 0),
                     pot=0, to_act=0, to_act_user_id=1, deadline_at=None, match_limit=101,
                     notes=(), final=None)
    return replace(base, **changes)


def test_overlong_log_keeps_the_newest_lines_and_says_how_many_were_cut():
    seats = (SeatView(0, 1, "&" * 32, 7, 0, 0, 0, True, 0),
             SeatView(1, 2, "B", 7, 1, 0, 0, False, 0))
    notes = [ActionNote("dealt", 0, 1), ActionNote("led", 0, 1, tile="1-1")]
    notes += [ActionNote("host_moved", 0, 1), ActionNote("knocked", 1, 1)] * 400
    notes.append(ActionNote("knocked", 0, 1))
    text = render.render_table("ru", _table(seats=seats, notes=tuple(notes)),
                               log_lines=10_000, tr=TR)
    assert render.text_length(text) <= render.MAX_TEXT
    assert text.rstrip().endswith(TR.t("ru", "log-knocked", name="&" * 32))
    assert "… и ещё" in text


def test_action_log_words():
    names = ["Оля", "Петя", "Маша"]
    notes = [
        ActionNote("dealt", 0, 2),
        ActionNote("led", 0, 2, tile="6-6"),
        ActionNote("played", 0, 2, tile="2-5", end="right"),
        ActionNote("drew", 1, 2, count=3), ActionNote("knocked", 1, 2),
        ActionNote("drew", 2, 2, count=1), ActionNote("played", 2, 2, tile="1-3", end="left"),
        ActionNote("host_moved", 0, 2), ActionNote("played", 0, 2, tile="2-5", end="left"),
        ActionNote("drew", 1, 2, count=2),
    ]
    assert render.action_log(notes, names, "ru", tr=TR) == [
        "Раздача, заходит Оля.",
        "Оля: заход [6|6]",
        "Оля: [2|5] справа",
        "Петя берёт 3 из базара и стучит",
        "Маша берёт 1 из базара и ходит [1|3] слева",
        "⏱ Оля: время вышло — ход сделал бот.",
        "Оля: [2|5] слева",
        "Петя берёт 2 из базара",
    ]
    uk = render.action_log(notes, names, "uk", tr=TR)
    assert uk[3] == "Петя бере 3 з базару і стукає"
    en = render.action_log([ActionNote("played", 0, 1, tile="2-5", end="left"),
                            ActionNote("fish", 1, 1), ActionNote("went_out", 2, 1)],
                           names, "en", tr=TR)
    assert en == ["Оля: [2|5] on the left", "🐟 Fish! The fisher is Петя.", "🏁 Маша went out!"]
    misdeal = render.action_log([ActionNote("misdeal", 1, 3, args=(("reason", "doubles"),))],
                                names, "ru", tr=TR)
    assert misdeal == ["Пересдача: Петя — слишком много дублей."]  # no «у Петя» (issue 30)


def test_the_service_notes_of_a_real_round_read_as_the_moves_were_made():
    """The notes the service keeps for the table are the round's decisions in order: every
    tile of the chain appears once in the log, draws only as counts."""
    for res, step in play_match(players=2, seed=17):
        if step is None or step.closed is not None or res.table.summary is not None:
            continue
        log = "\n".join(render.action_log(res.table.notes, ["A", "B"], "ru", tr=TR))
        assert tiles_in(log) == norm(res.table.layout.chain)
        assert log.count("[") == len(res.table.layout.line)


def test_names_are_escaped_and_cleaned():
    seats = (SeatView(0, 1, "<b>x</b>", 7, 0, 0, 0, True, 0),
             SeatView(1, 2, "a&b\nc", 7, 1, 0, 0, False, 0))
    text = render.render_table("ru", _table(seats=seats), tr=TR)
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text
    assert "a&amp;b c" in text
    assert render.clean_name("  a \n\t b  ") == "a b"
    assert render.clean_name("x" * 50) == "x" * 31 + "…"
    assert render.clean_name("\u202e\u200b") == "?"
    assert render.clean_name(None) == "?"


def test_table_content():
    live = new_live(2, 7, engine.Rules(bazar_reserve=1), ["Оля", "Петя"])
    first = live.to_act
    hand = live.hand_views()[first]
    step = live.step(first, hand.legal[0].tile, hand.legal[0].end)
    live.take(step)
    text = render.render_table("ru", live.table_view(), tr=TR)
    names = ["Оля", "Петя"]
    assert "<b>Раунд 1</b>" in text
    assert "Цепь: [1|1]" in text
    assert "Концы: <b>1</b> и <b>1</b>" in text
    assert "Базар: 13 (+1 в резерве)" in text
    assert f"▶️ {names[1 - first]} — 7 костей, счёт 0" in text
    assert f"▫️ {names[first]} — 6 костей, счёт 0" in text
    assert f"Ходит: <b>{names[1 - first]}</b>" in text
    assert f"{names[first]}: заход [1|1]" in text


def test_scores_show_remembered_points_and_the_pot():
    assert render.format_score(0, 7) == "+7"
    assert render.format_score(20, 0) == "20"
    assert render.format_score(0, 0) == "0"
    seats = tuple(SeatView(i, i + 1, n, 7, i, s, r, i == 0, 0)
                  for i, (n, s, r) in enumerate([("A", 0, 7), ("B", 20, 0), ("C", 0, 0)]))
    table = _table(seats=seats, scores=(0, 20, 0), remembered=(7, 0, 0), pot=12)
    text = render.render_table("ru", table, tr=TR)
    assert "A — 7 костей, счёт +7" in text
    assert "B — 7 костей, счёт 20" in text
    assert "🥚 Яйца: 12 очков" in text
    score = render.render_score("uk", table, tr=TR)
    assert "A: +7" in score and "B: 20" in score and "У яйцях" not in score
    assert "🥚 Яйця: 12 очок" in score


def test_team_table_lists_team_scores():
    seats = tuple(SeatView(i, i + 1, n, 7, i % 2, (30, 0)[i % 2], (0, 5)[i % 2], i == 0, 0)
                  for i, n in enumerate("ABCD"))
    table = _table(seats=seats, teams=True, scores=(30, 0), remembered=(0, 5))
    text = render.render_table("en", table, tr=TR)
    assert "Team 1 (A + C): score 30" in text
    assert "Team 2 (B + D): score +5" in text
    assert "B — 7 tiles, score +5" in text


def test_a_cross_is_drawn_arm_by_arm_with_the_spinner_and_closed_ends():
    """RULES.md §2.0.2–§2.0.3 as text: the spinner, then each arm on a line of its own,
    read outward from the spinner, with its open end (a number, 🔒 when closed) -- from a
    hand-built view (real crosses: tests/test_ui_render_variants.py)."""
    layout = LayoutView(
        kind="cross",
        line=(LaidTile(1, 5), LaidTile(5, 5, "across"), LaidTile(5, 2)),
        spinner=1,
        up=(LaidTile(5, 3), LaidTile(3, 3, "closed")),
        down=(LaidTile(5, 0),),
        ends=(EndView("left", 1), EndView("right", 2), EndView("up", None, closed=True),
              EndView("down", 0)),
    )
    text = render.render_table("ru", _table(layout=layout, chain=layout.chain, ends=(1, 2)),
                               tr=TR)
    lines = text.splitlines()
    assert lines[1:6] == ["✳ Дом: [5|5]", "← Влево: [5|1] · <b>1</b>",
                          "→ Вправо: [5|2] · <b>2</b>", "↑ Вверх: [5|3][3|3]🔒 · 🔒",
                          "↓ Вниз: [5|0] · <b>0</b>"]
    assert tiles_in(text) == {(1, 5), (5, 5), (2, 5), (3, 5), (3, 3), (0, 5)}
    hand = HandView(1, 3, 0, 1, "Оля", ("0-6", "4-4"), True, (), (), None)
    private = render.render_hand("en", hand, _table(layout=layout), tr=TR)
    assert "↑ Up: [5|3][3|3]🔒 · 🔒" in private and "← Left: [5|1] · <b>1</b>" in private
    # a line with a closed end lists its ends the same way
    line = LayoutView("line", (LaidTile(2, 2, "closed"), LaidTile(2, 6)),
                      ends=(EndView("left", None, closed=True), EndView("right", 6)))
    assert "Концы: ←🔒 →<b>6</b>" in render.render_table("ru", _table(layout=line), tr=TR)
    for locale in SUPPORTED_LOCALES:
        for table in (_table(layout=layout), _table(layout=line)):
            assert render.render_table(locale, table, tr=TR)


def test_hand_message_shows_own_sorted_hand_and_just_drawn_tiles():
    seen_draw = 0
    for res, step in play_match(players=2, seed=17, names=["Оля", "Петя"]):
        if res.status != Status.PLAYING:
            break
        seat = res.table.to_act
        hand = res.hands[seat]
        text = render.render_hand("ru", hand, res.table, tr=TR)
        state = step.state if step else None
        if state is not None:
            assert norm(hand.tiles) == norm(state.hand(seat))
        assert render.format_tiles(hand.tiles) in text
        # Nothing of the other seat or the bazar.
        assert tiles_in(text) <= norm(hand.tiles) | norm(res.table.layout.chain)
        assert "Ваш ход!" in text
        drawn = [e for e in (step.events if step else []) if e.kind == "drew"
                 and e.seat == seat]
        if drawn:
            seen_draw += 1
            assert TR.t("ru", "hand-drew", tiles=render.format_tiles(
                [f"{e.tile.a}-{e.tile.b}" for e in drawn])) in text
        other = render.render_hand("ru", res.hands[1 - seat], res.table, tr=TR)
        assert f"Ходит {res.table.seats[seat].name}." in other
    assert seen_draw


def test_hand_message_for_the_forced_first_lead_and_a_knock():
    live = new_live(4, 3, names=list("ABCD"))
    res = result_of(live)
    seat = res.table.to_act
    text = render.render_hand("en", res.hands[seat], res.table, tr=TR)
    assert "Your lead: [1|1] — the match's first lead." in text
    knocked = replace(res.hands[(seat + 1) % 4], drawn=("0-0",), knocked=True)
    knock = render.render_hand("ru", knocked, res.table, tr=TR)
    assert "Из базара: [0|0]" in knock and "вы постучали" in knock
    host = render.render_hand("ru", replace(res.hands[seat], host_moved=True), res.table,
                              tr=TR)
    assert "походил бот" in host


def test_hand_notices_follow_the_seats_own_decisions_through_a_match():
    """A knock (with the tiles drawn before it) is reported until the seat's next turn, draws
    for the current turn are shown, and a host move is reported until the seat places a tile
    itself (RULES.md §1.8, §1.17) -- as the service's views record them."""
    knocks = draws = hosts = 0
    for res, step in (x for players, seed in ((2, 29), (3, 4), (4, 6))
                      for x in play_match(players=players, seed=seed, host_every=5)):
        if step is None or res.status != Status.PLAYING or step.closed is not None:
            continue  # (a new round starts with nothing to report)
        for hand in res.hands:
            text = render.render_hand("ru", hand, res.table, tr=TR)
            mine = [e for e in step.events if getattr(e, "seat", None) == hand.seat]
            if any(e.kind == "knocked" for e in mine) and not hand.your_turn:
                knocks += 1
                assert hand.knocked and "вы постучали" in text
                drew = [e for e in mine if e.kind == "drew"]
                assert len(hand.drawn) == len(drew)
            if hand.your_turn:
                assert not hand.knocked and "постучали" not in text
                drew = [e for e in mine if e.kind == "drew"]
                if drew:
                    draws += 1
                    assert len(hand.drawn) == len(drew)
            if any(e.kind == "host_moved" for e in mine):
                hosts += 1
                assert hand.host_moved and "походил бот" in text
            placed = [e for e in mine if e.kind in ("led", "played")]
            if placed and not any(e.kind == "host_moved" for e in mine):
                assert not hand.host_moved
    assert knocks and draws and hosts


def _summary(**changes) -> RoundSummary:
    base = RoundSummary(
        round_no=4, end="fish", by=1, hands=(("0-0",), ("2-5", "6-6"), ("0-1",)),
        hand_values=(10, 19, 1), recorded=(0, 42, 0), scores=(0, 42, 15),
        remembered=(0, 0, 0), pot_won=12, pot=0, seat_values=(10, 19, 1))
    return replace(base, **changes)


def test_round_summary_reveals_hands_values_and_records():
    names = ["Оля", "Петя", "Маша"]
    text = render.render_round_summary("ru", _summary(), names, [0, 1, 2], tr=TR)
    assert "<b>Раунд 4 окончен</b>" in text
    assert "🐟 Рыба! Рыбак — Петя." in text
    assert "Оля: [0|0] = 10 очков" in text          # RULES.md §1.11 lone [0|0]
    assert "Петя: [2|5] [6|6] = 19 очков" in text
    assert "Маша: [0|1] = 1 очко" in text
    assert "Петя: +42 → счёт <b>42</b>" in text
    assert "Маша: ничего → 15" in text
    assert "🥚 Петя забирает яйца: 12 очков." in text

    out = _summary(end="out", by=0, hands=((), ("2-5", "6-6"), ("0-1",)), recorded=(0, 7, 1),
                   scores=(0, 0, 15), remembered=(0, 7, 0), pot_won=0, pot=3,
                   seat_values=(0, 19, 1))
    text = render.render_round_summary("uk", out, names, [0, 1, 2], tr=TR)
    assert "🏁 Оля виходить." in text
    assert "Оля: порожньо" in text
    assert "Петя: +7 запам'ятовано → <b>+7</b>" in text
    assert "🥚 У яйцях: 3 очки." in text


def test_round_summaries_of_a_team_match_show_each_seats_own_hand_value():
    """RULES.md §1.11, §1.14: the hand values are the engine's, per seat; the records are the
    teams'."""
    names = ["A", "B", "C", "D"]
    rounds = 0
    for res, step in play_match(players=4, seed=31, rules=engine.Rules(teams=True)):
        for summary in res.rounds:
            rounds += 1
            text = render.render_round_summary("en", summary, names,
                                               [s.side for s in res.table.seats], tr=TR)
            scored = next(e for e in step.events if e.kind == "round_scored")
            last = {t.pair for t in render._last_tiles(summary.layout)} if \
                summary.end == "out" else set()  # the going-out move's tiles
            assert norm(t for h in scored.hands for t in h) | norm(last) == tiles_in(text)
            assert "A + C:" in text and "B + D:" in text
            for seat, hand in enumerate(scored.hands):
                value = sum(t.a + t.b for t in hand)
                if [(t.a, t.b) for t in hand] == [(0, 0)]:
                    value = 10
                assert summary.seat_values[seat] == value
            assert [summary.seat_values[0] + summary.seat_values[2],
                    summary.seat_values[1] + summary.seat_values[3]] == list(
                        summary.hand_values)
    assert rounds >= 2


def _end(reason, lines, rated=True) -> MatchEnd:
    players = tuple(PlayerResult(seat=i, user_id=i + 1, name=n, score=s, goat=g, rating=r,
                                 outs=0, fish=0, timed_out=t, side=side)
                    for i, (n, s, g, r, t, side) in enumerate(lines))
    return MatchEnd(EndReason(reason), rated, players)


def test_match_end_goat_table_and_rating():
    end = _end("limit", [("Оля", 25, False, 8, False, 0), ("Петя", 95, False, 1, False, 1),
                         ("Маша", 104, True, 0, False, 2)])
    text = render.render_match_end("ru", end, tr=TR)
    assert "🐐 Козёл: <b>Маша</b>" in text
    lines = text.splitlines()
    i = lines.index("<b>Итоговый счёт:</b>")
    assert lines[i + 1:i + 4] == [
        "1. Оля — 25, рейтинг +8",
        "2. Петя — 95, рейтинг +1",
        "3. 🐐 Маша — 104, рейтинг +0",
    ]
    two = _end("limit", [("A", 110, True, 0, False, 0), ("B", 101, True, 0, False, 1),
                         ("C", 40, False, 5, False, 2)])
    assert "🐐 Козли: <b>A, B</b>" in render.render_match_end("uk", two, tr=TR)
    timeout = _end("timeout", [("A", 32, False, 0, True, 0), ("B", 13, False, 2, False, 1)])
    en = render.render_match_end("en", timeout, rematch_hint=False, tr=TR)
    assert "stopped by timeout: A" in en and "goat" not in en.lower()
    assert "Rematch" not in en
    teams = _end("limit", [("A", 104, True, 0, False, 0), ("B", 60, False, 4, False, 1),
                           ("C", 104, True, 0, False, 0), ("D", 60, False, 4, False, 1)])
    text = render.render_match_end("en", teams, tr=TR)
    assert "A + C" in text and "1. B + D — 60, rating +4" in text


def test_match_end_from_a_real_match():
    *_, (res, step) = play_match(players=3, seed=12, names=["A", "B", "C"])
    assert step.state.finished and res.final.rated
    text = render.render_match_end("ru", res.final, tr=TR)
    for side, gain in enumerate(step.state.result.rating):
        assert f"{'ABC'[side]} — {step.state.scores[side]}, рейтинг +{gain}" in text


def test_lobby_text():
    lobby = LobbyView(match_id=1, chat_id=-1, thread_id=None, version=0, status=Status.LOBBY,
                      creator_id=1, players=(PlayerRef(1, "Оля"), PlayerRef(-1, "<Бот>",
                                                                            "normal")),
                      rules=engine.Rules(teams=True).to_json(), min_players=4, max_players=4,
                      deadline_at=None, rematch_of=None)
    text = render.render_lobby("ru", lobby, expires_minutes=2, tr=TR)
    assert "Игроки (2 из 4):" in text
    assert "1. Оля" in text and "2. 🤖 &lt;Бот&gt;" in text
    assert "3. —" in text and "4. —" in text
    assert "<b>🐐 Козёл — набор игроков</b>" in text and "Играют ровно 4 игрока." in text
    assert "Команды: места 1 и 3 против 2 и 4" in text and "Партия до 101 очка" in text
    assert "Набор собирает: Оля" in text and "через 2 минуты" in text
    empty = replace(lobby, players=(), max_players=4,
                    rules=engine.Rules(bazar_reserve=2, turn_timeout=30).to_json())
    en = render.render_lobby("en", empty, tr=TR)
    assert "last two tiles kept back" in en and "30 seconds" in en and "opened by" not in en


def test_tile_notation():
    assert render.format_tile("5-2") == "[2|5]"
    assert render.format_tile((5, 2)) == "[5|2]"  # oriented as laid
    assert render.format_tile(LaidTile(6, 3)) == "[6|3]"
    assert render.format_tiles(["6-6", "1-0"]) == "[0|1] [6|6]"
    assert render.format_chain([(1, 1), (1, 5), (5, 3)]) == "[1|1][1|5][5|3]"
    assert render.format_chain([(i, i) for i in range(7)], 4) == "[0|0][1|1]…[5|5][6|6]"


def test_the_hand_says_where_the_summary_is():
    """A group match's summary is in the group; a match against computer players has no group:
    its summary is in the same private chat."""
    hand = HandView(1, 3, 0, 1, "Оля", ("0-6",), False, (), (), None)
    final = MatchEnd(EndReason.LIMIT, True, ())
    for chat_id, here in ((-100, False), (1, True)):
        for table, key in ((_table(chat_id=chat_id, to_act=None, to_act_user_id=None),
                            "hand-round-over"),
                           (_table(chat_id=chat_id, to_act=None, to_act_user_id=None,
                                   final=final), "hand-match-over")):
            text = render.render_hand("ru", hand, table, tr=TR)
            assert text.endswith(TR.t("ru", key + ("-here" if here else "")))
