"""ui.render: texts from real engine matches -- hidden information, length, words, escaping."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.events import (
    Dealt,
    Drew,
    Fish,
    HostMoved,
    Knocked,
    Led,
    MatchEnded,
    Played,
    RoundScored,
    WentOut,
)
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
        a, b = (t.a, t.b) if hasattr(t, "a") else t
        out.add((min(a, b), max(a, b)))
    return out


def play_match(players=3, seed=1, rules=None, host_every=0, max_steps=5000):
    """Yield (state_before, state_after, events_of_step, all_events) through a whole match."""
    rules = rules or engine.Rules()
    state, events = engine.new_match(rules, players, seed)
    history = list(events)
    rnd = random.Random(seed)
    yield None, state, list(events), list(history)
    for step in range(max_steps):
        if state.finished:
            return
        before = state
        if host_every and step % host_every == host_every - 1:
            state, events = engine.apply_host_move(state)
        else:
            state, events = engine.apply(state, state.to_act, rnd.choice(engine.legal_moves(state)))
        history += events
        yield before, state, list(events), list(history)


MATCHES = [
    dict(players=2, seed=3, rules=engine.Rules(bazar_reserve=2)),
    dict(players=3, seed=5, rules=engine.Rules(fish_scoring="each_own")),
    dict(players=4, seed=8, rules=engine.Rules(teams=True)),
    dict(players=4, seed=13, rules=engine.Rules(fish_scoring="own_to_max", bazar_reserve=1)),
]


@pytest.mark.parametrize("match", MATCHES)
def test_group_table_never_shows_a_hand_or_the_bazar(match):
    """Issue 4: no hand (nor a drawn tile) in a group text before the round ends."""
    names = EVIL[: match["players"]]
    checked = 0
    for before, state, step_events, history in play_match(**match):
        locale = SUPPORTED_LOCALES[checked % 3]
        if not state.finished:
            text = render.render_table(locale, state, names, history, tr=TR)
            shown = tiles_in(text)
            assert shown <= norm(state.chain), (shown - norm(state.chain), text)
            score = render.render_score(locale, state, names, tr=TR)
            assert tiles_in(score) == set()
        if before is not None and any(e.kind == "round_scored" for e in step_events):
            # The closed table of the round that just ended: only that round's chain.
            text = render.render_table(locale, state, names, history,
                                       round_no=before.round_no, tr=TR)
            round_chain = render.chain_from_events(
                render.events_by_round(history)[before.round_no])
            assert tiles_in(text) <= norm(round_chain)
            assert TR.t(locale, "table-round-over") in text or TR.t(
                locale, "table-match-over") in text
        checked += 1
    assert checked > 20


def test_closed_table_rebuilds_the_chain_that_was_on_the_table():
    for before, state, step_events, history in play_match(players=2, seed=21):
        if before is None:
            continue
        scored = [e for e in step_events if e.kind == "round_scored"]
        rounds = render.events_by_round(history)
        if not scored:
            # Mid-round: rebuilding from events gives exactly the engine's chain.
            assert render.chain_from_events(rounds[state.round_no]) == list(state.chain)


def test_tables_stay_within_telegram_limit_in_a_long_match_with_long_names():
    names = ["&<>" * 40, "<i>" * 40, "Ж" * 300, "🐐" * 100]
    longest = 0
    for _before, state, _ev, history in play_match(players=4, seed=99, host_every=7):
        if state.finished:
            break
        for locale in SUPPORTED_LOCALES:
            # Ask for the whole log: the renderer must cut it to fit.
            text = render.render_table(locale, state, names, history, log_lines=10_000, tr=TR)
            assert render.text_length(text) <= render.MAX_TEXT
            longest = max(longest, render.text_length(text))
    assert longest > 1500


def test_closed_table_with_summary_carries_the_round_summary_and_stays_within_the_limit():
    """Issue 5: a round's table, closed, ends with that round's summary (RULES.md §1.11–§1.12)
    in place of "see the summary below"; a live table is the same with or without
    ``summary``; the match's last table also says the match is over; long names still fit."""
    names = ["&<>" * 40, "<i>" * 40, "Ж" * 300, "🐐" * 100]
    closed = 0
    for _before, state, step_events, history in play_match(players=4, seed=99, host_every=7):
        for ev in step_events:
            if ev.kind != "round_scored":
                continue
            for locale in SUPPORTED_LOCALES:
                text = render.render_table(locale, state, names, history, round_no=ev.round_no,
                                           log_lines=10_000, summary=True, tr=TR)
                assert render.text_length(text) <= render.MAX_TEXT
                summary = render.render_round_summary(locale, ev, names, state.rules, tr=TR)
                assert text.split(summary)[0].endswith("\n\n")  # after the closed table
                assert TR.t(locale, "table-round-over") not in text
                assert text.endswith(summary) != state.finished
                if state.finished:
                    assert text.endswith(TR.t(locale, "table-match-over"))
                plain = render.render_table(locale, state, names, history,
                                            round_no=ev.round_no, log_lines=10_000, tr=TR)
                assert summary not in plain and TR.t(locale, "table-round-over" if not
                                                     state.finished else "table-match-over") \
                    in plain
            closed += 1
        if not state.finished and state.round.end is None:
            assert render.render_table("ru", state, names, history, summary=True, tr=TR) == \
                render.render_table("ru", state, names, history, tr=TR)
    assert closed >= 2


def test_overlong_log_keeps_the_newest_lines_and_says_how_many_were_cut():
    state, _ = engine.new_match(engine.Rules(), 2, seed=1)
    seat_names = ["&" * 32, "B"]
    led = Led(state.to_act, state.hand(state.to_act)[0])
    filler = [HostMoved(0, 1), Knocked(1)] * 400
    events = [Dealt(1, 0, None, 14, 0), led, *filler, Knocked(0)]
    text = render.render_table("ru", state, seat_names, events, log_lines=10_000, tr=TR)
    assert render.text_length(text) <= render.MAX_TEXT
    assert text.rstrip().endswith(TR.t("ru", "log-knocked", name="&" * 32))
    assert "… и ещё" in text


def test_action_log_words():
    names = ["Оля", "Петя", "Маша"]
    t25, t13, t66 = engine.Tile.of(2, 5), engine.Tile.of(1, 3), engine.Tile.of(6, 6)
    events = [
        Dealt(2, 0, None, 7, 0),
        Led(0, t66),
        Played(0, t25, "right"),
        Drew(1, t13), Drew(1, t25), Drew(1, t66), Knocked(1),
        Drew(2, t13), Played(2, t13, "left"),
        HostMoved(0, 1), Played(0, t25, "left"),
        Drew(1, t13), Drew(1, t66),
    ]
    assert render.action_log(events, names, "ru", tr=TR) == [
        "Раздача, заходит Оля.",
        "Оля: заход [6|6]",
        "Оля: [2|5] справа",
        "Петя взял 3 из базара и постучал",
        "Маша взял 1 из базара и сыграл [1|3] слева",
        "⏱ Оля не успел — за него походил бот.",
        "Оля: [2|5] слева",
        "Петя взял 2 из базара",
    ]
    uk = render.action_log(events, names, "uk", tr=TR)
    assert uk[3] == "Петя витягнув 3 з базару і постукав"
    en = render.action_log([Played(0, t25, "left"), Fish(1, "blocked"), WentOut(2)], names,
                           "en", tr=TR)
    assert en == ["Оля: [2|5] on the left", "🐟 Fish! The fisher is Петя.", "🏁 Маша went out!"]


def test_drawn_tiles_are_never_named_in_the_group_log():
    drawn = engine.Tile.of(4, 6)
    lines = render.action_log([Drew(1, drawn), Drew(1, drawn), Knocked(1)], ["A", "B"], "ru",
                              tr=TR)
    assert tiles_in("\n".join(lines)) == set()


def test_names_are_escaped_and_cleaned():
    state, events = engine.new_match(engine.Rules(), 2, seed=4)
    text = render.render_table("ru", state, ["<b>x</b>", "a&b\nc"], events, tr=TR)
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text
    assert "a&amp;b c" in text
    assert render.clean_name("  a \n\t b  ") == "a b"
    assert render.clean_name("x" * 50) == "x" * 31 + "…"
    assert render.clean_name("\u202e\u200b") == "?"
    assert render.clean_name(None) == "?"


def test_table_content():
    rules = engine.Rules(bazar_reserve=1)
    state, events = engine.new_match(rules, 2, seed=7)
    names = ["Оля", "Петя"]
    first = state.to_act
    state2, ev2 = engine.apply(state, first, engine.legal_moves(state)[0])
    text = render.render_table("ru", state2, names, events + ev2, tr=TR)
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
    state, events = engine.new_match(engine.Rules(), 3, seed=2)
    state = state._replace(scores=(0, 20, 0), remembered=(7, 0, 0), pot=12)
    text = render.render_table("ru", state, ["A", "B", "C"], events, tr=TR)
    assert "A — 7 костей, счёт +7" in text
    assert "B — 7 костей, счёт 20" in text
    assert "🥚 Яйца: 12 очков" in text
    score = render.render_score("uk", state, ["A", "B", "C"], tr=TR)
    assert "A: +7" in score and "B: 20" in score and "У яйцях" not in score
    assert "🥚 Яйця: 12 очок" in score


def test_team_table_lists_team_scores():
    state, events = engine.new_match(engine.Rules(teams=True), 4, seed=5)
    state = state._replace(scores=(30, 0), remembered=(0, 5))
    text = render.render_table("en", state, ["A", "B", "C", "D"], events, tr=TR)
    assert "Team 1 (A + C): score 30" in text
    assert "Team 2 (B + D): score +5" in text
    assert "B — 7 tiles, score +5" in text


def test_hand_message_shows_own_sorted_hand_and_just_drawn_tiles():
    names = ["Оля", "Петя"]
    seen_draw = False
    for _before, state, step_events, _history in play_match(players=2, seed=17):
        if state.finished:
            break
        seat = state.to_act
        text = render.render_hand("ru", state, seat, names, step_events, tr=TR)
        hand = state.hand(seat)
        assert render.format_tiles(hand) in text
        # Nothing of the other seat or the bazar.
        assert tiles_in(text) <= norm(hand) | norm(state.chain)
        assert "Ваш ход!" in text
        drawn = [e.tile for e in step_events if e.kind == "drew" and e.seat == seat]
        if drawn:
            seen_draw = True
            assert TR.t("ru", "hand-drew", tiles=render.format_tiles(drawn)) in text
        other = render.render_hand("ru", state, 1 - seat, names, step_events, tr=TR)
        assert f"Ходит {names[seat]}." in other
        assert "Из базара" not in other or any(
            e.kind == "drew" and e.seat == 1 - seat for e in step_events)
    assert seen_draw


def test_hand_message_for_the_forced_first_lead_and_a_knock():
    state, events = engine.new_match(engine.Rules(), 4, seed=3)
    seat = state.to_act
    text = render.render_hand("en", state, seat, ["A", "B", "C", "D"], events, tr=TR)
    assert "Your lead: [1|1] — the match's first lead." in text
    knock = render.render_hand("ru", state, (seat + 1) % 4, ["A", "B", "C", "D"],
                               [Drew((seat + 1) % 4, engine.Tile.of(0, 0)),
                                Knocked((seat + 1) % 4)], tr=TR)
    assert "Из базара: [0|0]" in knock and "вы постучали" in knock


def test_round_summary_reveals_hands_values_and_records():
    scored = RoundScored(
        round_no=4, end="fish", by=1,
        hands=((engine.Tile.of(0, 0),), (engine.Tile.of(2, 5), engine.Tile.of(6, 6)),
               (engine.Tile.of(0, 1),)),
        hand_values=(10, 19, 1), recorded=(0, 42, 0), scores=(0, 42, 15),
        remembered=(0, 0, 0), pot_won=12, pot=0,
    )
    text = render.render_round_summary("ru", scored, ["Оля", "Петя", "Маша"],
                                       engine.Rules(), tr=TR)
    assert "<b>Раунд 4 окончен</b>" in text
    assert "🐟 Рыба! Рыбак — Петя." in text
    assert "Оля: [0|0] = 10 очков" in text          # RULES.md §1.11 lone [0|0]
    assert "Петя: [2|5] [6|6] = 19 очков" in text
    assert "Маша: [0|1] = 1 очко" in text
    assert "Петя: +42 → счёт <b>42</b>" in text
    assert "Маша: ничего → 15" in text
    assert "🥚 Петя забирает яйца: 12 очков." in text

    out = scored._replace(end="out", by=0, hands=((),) + scored.hands[1:],
                          recorded=(0, 7, 1), scores=(0, 0, 15), remembered=(0, 7, 0),
                          pot_won=0, pot=3)
    text = render.render_round_summary("uk", out, ["Оля", "Петя", "Маша"], engine.Rules(), tr=TR)
    assert "🏁 Вийшов Оля." in text
    assert "Оля: порожньо" in text
    assert "Петя: +7 запам'ятовано → <b>+7</b>" in text
    assert "🥚 У яйцях: 3 очки." in text


def test_round_summary_of_every_round_in_a_team_match():
    names = ["A", "B", "C", "D"]
    rounds = 0
    for _b, state, step_events, _h in play_match(players=4, seed=31,
                                                 rules=engine.Rules(teams=True)):
        for e in step_events:
            if e.kind == "round_scored":
                rounds += 1
                text = render.render_round_summary("en", e, names, state.rules, tr=TR)
                assert norm(t for h in e.hands for t in h) == tiles_in(text)
                assert "A + C:" in text and "B + D:" in text
    assert rounds >= 2


def test_match_end_goat_table_and_rating():
    result = MatchEnded("limit", (2,), (8, 1, 0), None, (25, 95, 104))
    text = render.render_match_end("ru", result, result.scores, ["Оля", "Петя", "Маша"], tr=TR)
    assert "🐐 Козёл: <b>Маша</b>" in text
    lines = text.splitlines()
    i = lines.index("<b>Итоговый счёт:</b>")
    assert lines[i + 1:i + 4] == [
        "1. Оля — 25, рейтинг +8",
        "2. Петя — 95, рейтинг +1",
        "3. 🐐 Маша — 104, рейтинг +0",
    ]
    two = MatchEnded("limit", (0, 1), (0, 0, 5), None, (110, 101, 40))
    uk = render.render_match_end("uk", two, two.scores, ["A", "B", "C"], tr=TR)
    assert "🐐 Козли: <b>A, B</b>" in uk
    timeout = MatchEnded("timeout", (), (0, 2), 0, (32, 13))
    en = render.render_match_end("en", timeout, timeout.scores, ["A", "B"], rematch_hint=False,
                                 tr=TR)
    assert "stopped by timeout: A" in en and "goat" not in en.lower()
    assert "Rematch" not in en


def test_match_end_from_a_real_match():
    *_, (_b, state, _e, _h) = play_match(players=3, seed=12)
    assert state.finished
    text = render.render_match_end("ru", state.result, state.scores, ["A", "B", "C"], tr=TR)
    for side, gain in enumerate(state.result.rating):
        assert f"{'ABC'[side]} — {state.scores[side]}, рейтинг +{gain}" in text


def test_lobby_text():
    text = render.render_lobby("ru", ["Оля", "<Бот>"], engine.Rules(teams=True), creator="Оля",
                               bots=[1], expires_minutes=2, tr=TR)
    assert "Игроки (2 из 4):" in text
    assert "1. Оля" in text and "2. 🤖 &lt;Бот&gt;" in text
    assert "3. —" in text and "4. —" in text
    assert "Командный козёл" in text and "Партия до 101 очка" in text
    assert "через 2 минуты" in text
    en = render.render_lobby("en", [], engine.Rules(bazar_reserve=2, turn_timeout=1 * 30),
                             tr=TR)
    assert "last two tiles kept back" in en and "30 seconds" in en and "opened by" not in en


def test_top_and_stats():
    rows = [("Оля", 21, 3, 0), ("<Петя>", 1, 1, 1)]
    text = render.render_top("ru", rows, tr=TR)
    assert "1. Оля — <b>21</b> очко · 3 партии · 🐐 0" in text
    assert "2. &lt;Петя&gt; — <b>1</b> очко · 1 партия · 🐐 1" in text
    assert "Общий" in render.render_top("ru", rows, global_=True, tr=TR)
    assert "ни одной" in render.render_top("ru", [], tr=TR)
    many = [("N" * 32, 100, 10, 1)] * 500
    assert render.text_length(render.render_top("en", many, tr=TR)) <= render.MAX_TEXT
    stats = render.render_stats("uk", "Оля", matches=5, goats=2, rating=14, outs=9, fish=1,
                                average=37.25, tr=TR)
    assert "Партій: 5" in stats and "Був козлом: 2 рази" in stats
    assert "Рейтинг: 14 очок" in stats and "37,2" in stats
    assert "ще не дограв" in render.render_stats("uk", "Оля", matches=0, goats=0, rating=0,
                                                 outs=0, fish=0, average=None, tr=TR)


def test_events_by_round_splits_at_deals():
    history = []
    for _b, _s, _e, h in play_match(players=2, seed=40):
        history = h
    rounds = render.events_by_round(history)
    assert sorted(rounds) == list(range(1, len(rounds) + 1))
    for no, evs in rounds.items():
        assert evs[0].kind in ("dealt", "misdeal")
        scored = [e for e in evs if e.kind == "round_scored"]
        assert len(scored) <= 1 and all(e.round_no == no for e in scored)


def test_events_of_a_single_apply_are_put_in_the_right_round():
    t = engine.Tile.of(2, 5)
    mid = [Played(0, t, "left"), Drew(1, t), Knocked(1)]
    assert render.events_by_round(mid, 6) == {6: mid}
    scored = RoundScored(5, "out", 0, ((), (t,)), (0, 7), (0, 7), (0, 0), (0, 7), 0, 0)
    end = [Played(0, t, "left"), WentOut(0), scored, Dealt(6, 0, None, 14, 0)]
    assert render.events_by_round(end, 6) == {5: end[:3], 6: end[3:]}


def test_table_from_only_the_latest_events_mid_match():
    for before, state, step_events, _history in play_match(players=2, seed=23):
        if before is not None and state.round_no >= 2 and not any(
                e.kind in ("dealt", "round_scored") for e in step_events):
            text = render.render_table("ru", state, ["A", "B"], step_events, tr=TR)
            assert f"<b>Раунд {state.round_no}</b>" in text
            assert render.action_log(step_events, ["A", "B"], "ru", tr=TR)[-1] in text
            return
    raise AssertionError("match ended before round 2")


def test_service_views_with_tile_codes_render_the_same():
    """The service's RoundSummary carries hands as "a-b" codes; the text must not change."""
    tiles = ((engine.Tile.of(0, 0),), (engine.Tile.of(2, 5), engine.Tile.of(6, 6)))
    scored = RoundScored(3, "out", 0, tiles, (10, 19), (0, 19), (0, 19), (0, 0), 0, 0)
    as_codes = scored._replace(hands=tuple(tuple(t.code() for t in h) for h in tiles))
    names = ["A", "B"]
    assert render.render_round_summary("ru", as_codes, names, engine.Rules(), tr=TR) == \
        render.render_round_summary("ru", scored, names, engine.Rules(), tr=TR)
    assert render.format_tile("5-2") == "[2|5]" and render.format_tiles(["6-6", "1-0"]) == \
        "[0|1] [6|6]"


def test_hand_notices_are_about_the_seats_latest_decision_only():
    state, _ = engine.new_match(engine.Rules(), 2, seed=3)
    seat = state.to_act
    other = 1 - seat
    t = engine.Tile.of(0, 0)
    knock = [Drew(seat, t), Drew(seat, t), Knocked(seat)]
    waiting = render.render_hand("ru", state, other, ["A", "B"], [
        Drew(other, t), Knocked(other)], tr=TR)
    assert "вы постучали" in waiting and "Из базара: [0|0]" in waiting
    # The same knock in the log is not repeated once the seat's next turn has come.
    again = render.render_hand("ru", state, seat, ["A", "B"], knock, tr=TR)
    assert "постучали" not in again and "Из базара" not in again
    # Draws for the current turn are shown, older ones are not.
    now = render.render_hand("ru", state, seat, ["A", "B"],
                             [*knock, Drew(seat, engine.Tile.of(1, 6))], tr=TR)
    assert "Из базара: [1|6]" in now and "[0|0]" not in now.split("Из базара")[1]
    # A host move is reported until the seat places a tile itself.
    host = [HostMoved(seat, 1), Played(seat, t, "left")]
    assert "походил бот" in render.render_hand("ru", state, seat, ["A", "B"], host, tr=TR)
    own = [*host, Played(seat, t, "right")]
    assert "походил бот" not in render.render_hand("ru", state, seat, ["A", "B"], own, tr=TR)
