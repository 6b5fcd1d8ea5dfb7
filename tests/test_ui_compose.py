"""The private move keyboard of every variant and a move built press by press (ui.compose,
ui.keyboards.hand_keyboard / compose_keyboard; issues 12 and 13, "Moves of two tiles",
"Composing a move"; RULES.md §2.0.4).

The central property: from the move keyboard of any state of any variant, the buttons that
play (directly, or at the end of a move built press by press) reach exactly the legal moves
of the engine, each by data that the engine accepts as that move, and nothing else; every
building button leads somewhere.  Then the particular cases the issues name: the sea goat's
two doubles as one button (RULES.md §2.1 rule 1), its extraordinary lead (rule 7) and the
two-tile turns after it, closed doubles (§2.0.3), doubles along (§2.5 rule 3), the spinner
chosen by the first double (§2.0.2, §2.4), and the texts in every locale.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Move, Placement, Tile
from service.live.moves import option_of
from service.views import MoveOption, PlacementOption
from tests.test_variant_sea_goat import BOTH, after_round, laid, match, position
from tests.test_variant_sea_goat import dealt as sea_dealt
from ui import compose
from ui import keyboards as kb
from ui.callbacks import MAX_CALLBACK_BYTES, MoveCb, PlayCb, parse_callback
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.render import MAX_TEXT, text_length

TR = Translator(strict=True)
VARIANTS = ("classic", "sea_goat", "donkey", "chcv", "telephone", "muggins", "traditional",
            "sport", "seven", "general")
P = PlacementOption


def buttons(markup):
    return [b for row in markup.inline_keyboard for b in row]


def legal_of(state) -> tuple[MoveOption, ...]:
    """The legal moves as the service gives them (``HandView.legal``)."""
    return tuple(option_of(m) for m in engine.legal_moves(state))


def engine_move(placements) -> Move:
    """The engine move of placements as a button carries them."""
    return Move.of([Placement(Tile.parse(p.tile), p.end, p.closed, p.along)
                    for p in placements])


def key(placements) -> tuple:
    return tuple(compose.key_of(p) for p in placements)


def reachable(legal, game: int = 7, version: int = 9):
    """Every move a player can play from the move keyboard of ``legal``, as placement keys,
    exploring each move being built; also every keyboard seen."""
    played, keyboards = [], []
    todo, seen = [None], set()
    while todo:
        chosen = todo.pop()
        markup = (kb.hand_keyboard(game, version, legal, locale="en", tr=TR) if chosen is None
                  else kb.compose_keyboard(game, version, legal, chosen, locale="en", tr=TR))
        keyboards.append((chosen, markup))
        for b in buttons(markup):
            assert len(b.callback_data.encode()) <= MAX_CALLBACK_BYTES
            cb = parse_callback(b.callback_data)
            assert (cb.game, cb.ver) == (game, version)
            if isinstance(cb, MoveCb):
                a, c = cb.halves
                played.append(((P(f"{a}-{c}", cb.engine_end),), b.text))
            elif cb.act == "p":
                played.append((cb.placements, b.text))
            elif cb.act == "b":
                k = key(cb.placements)
                if k not in seen:
                    seen.add(k)
                    todo.append(list(cb.placements))
    return played, keyboards


def random_states(variant: str, seed: int, players: int = 4, steps: int = 400,
                  played: list | None = None):
    """States of a random match of ``variant`` (moves of several tiles preferred, so that
    they happen); ``played`` collects the ``(seat, move)`` made before each state."""
    rules = engine.Rules(variant=variant)
    state, _ = engine.new_match(rules, players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.finished:
            return
        yield state
        moves = engine.legal_moves(state)
        multi = [m for m in moves if len(m) > 1]
        move = rng.choice(multi if multi and rng.random() < 0.6 else moves)
        if played is not None:
            played.append((state.to_act, move))
        state, _ = engine.apply(state, state.to_act, move)


def check_keyboard(state) -> list:
    """The central property for one state (see the module doc); the keyboards seen."""
    legal = legal_of(state)
    played, keyboards = reachable(legal)
    want = {key(m.placements) for m in legal}
    got = [key(p) for p, _ in played]
    assert set(got) == want
    for placements, _ in played:  # the engine accepts each as the legal move it names
        assert engine_move(placements) in set(engine.legal_moves(state))
    for chosen, markup in keyboards:
        labels = [b.text for b in buttons(markup)]
        assert len(labels) == len(set(labels)), labels
        if chosen is None:
            continue
        # a move being built: no dead end, and "cancel" always there
        data = [parse_callback(b.callback_data) for b in buttons(markup)]
        assert any(isinstance(d, PlayCb) and d.act in "pb" for d in data)
        assert isinstance(data[-1], PlayCb) and data[-1].act == "t"
    return keyboards


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_state_offers_exactly_the_legal_moves(variant):
    builds = 0
    for seed in range(12):
        for state in random_states(variant, seed):
            builds += len(check_keyboard(state)) - 1
    if variant in ("donkey", "telephone"):
        assert builds, "no move was built press by press"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(("donkey", "chcv", "telephone")), st.integers(0, 10**6),
       st.integers(2, 4))
def test_cross_variants_offer_exactly_the_legal_moves(variant, seed, players):
    for state in random_states(variant, seed, players, steps=150):
        check_keyboard(state)


def test_line_moves_keep_their_old_buttons():
    """A plain tile on the line or a lead is still a ``MoveCb`` button (old keyboards stay
    valid); anything else is a ``PlayCb``."""
    for state in random_states("classic", 3, steps=60):
        for b in buttons(kb.hand_keyboard(1, 2, legal_of(state))):
            assert isinstance(parse_callback(b.callback_data), MoveCb)
    legal = (MoveOption("3-3", "up"), MoveOption("3-3", "up", closed=True),
             MoveOption("4-4", "left", along=True), MoveOption("0-6", "gap"),
             MoveOption("2-3", "left"))
    got = {b.text: parse_callback(b.callback_data) for b in buttons(kb.hand_keyboard(1, 2, legal))}
    assert list(got) == ["[0|6] ⋯", "[2|3] ←", "[3|3] ↑", "[3|3] ↑🔒", "[4|4] ←∥"]
    assert isinstance(got["[2|3] ←"], MoveCb)
    assert got["[3|3] ↑🔒"].act == "p"
    assert got["[3|3] ↑🔒"].placements == (P("3-3", "up", True, False),)
    assert got["[4|4] ←∥"].placements == (P("4-4", "left", False, True),)


# -- the sea goat (RULES.md §2.1) -----------------------------------------------------------


def test_sea_goat_two_doubles_are_one_button_showing_both():
    """RULES.md §2.1 rule 1: two doubles, one on each end, are one move and one button."""
    rs = position(["2-2 5-5 1-3", "0-1", "4-6"], laid("2-5"), to_act=0)
    state = match(rs)
    legal = legal_of(state)
    markup = kb.hand_keyboard(5, 6, legal)
    texts = [b.text for b in buttons(markup)]
    assert texts == ["[2|2] ←", "[5|5] →", "[2|2] ← + [5|5] →"]
    cb = parse_callback(buttons(markup)[-1].callback_data)
    assert cb.act == "p" and engine_move(cb.placements) in engine.legal_moves(state)
    after, _ = engine.apply(state, 0, engine_move(cb.placements), deal=False)
    assert after.chain == ((2, 2), (2, 5), (5, 5))


def test_sea_goat_extraordinary_lead_is_offered_when_allowed():
    """RULES.md §2.1 rule 7: the leader entitled to a fast lead who holds [0|0] and [6|6] is
    offered both at once; one who is not entitled is not."""
    allowed = sea_dealt(after_round(scores=(30, 0, 40), last=1), BOTH)
    texts = [b.text for b in buttons(kb.hand_keyboard(1, 1, legal_of(allowed)))]
    assert "[0|0] ← + [6|6] →" in texts
    refused = sea_dealt(after_round(scores=(30, 0, 0), last=1), BOTH)
    texts = [b.text for b in buttons(kb.hand_keyboard(1, 1, legal_of(refused)))]
    assert not any("+" in t for t in texts)


def test_sea_goat_two_tile_turns_after_the_extraordinary_lead():
    """RULES.md §2.1 rule 7: each later turn places two tiles; every pair is a button (the
    gap ⋯ among them) and no single tile is offered."""
    rs = position(["1-1", "0-2 0-6 5-6 1-2", "3-4"], laid("extra"), to_act=1, leader=0,
                  fast="extra", phase=2)
    state = match(rs)
    texts = [b.text for b in buttons(kb.hand_keyboard(1, 1, legal_of(state)))]
    assert sorted(texts) == sorted([
        "[0|2] ← + [0|6] →", "[0|2] ← + [5|6] →", "[0|6] ← + [5|6] →",
        "[0|2] ← + [0|6] ⋯", "[0|6] ⋯ + [5|6] →"])
    check_keyboard(state)


# -- the cross (RULES.md §2.2–§2.5) -----------------------------------------------------------


def _first(variant: str, want, players: int = 4, *, live: bool = False):
    """The first state of random matches of ``variant`` whose legal moves satisfy ``want``;
    with ``live`` the service's :class:`~service.live.match.LiveMatch` at that state."""
    for seed in range(300):
        played: list = []
        for state in random_states(variant, seed, players, played=played):
            if want(legal_of(state)):
                return _live(variant, players, seed, played) if live else state
    raise AssertionError("no such state")


def _live(variant: str, players: int, seed: int, played: list):
    from service.live.match import LiveMatch
    from storage.repository import MatchRow

    row = MatchRow(id=1, chat_id=-100, thread_id=None, status="playing", end_reason=None,
                   rules=engine.Rules(variant=variant).to_json(),
                   seats=[{"user_id": i + 1, "name": f"P{i}"} for i in range(players)],
                   seed=seed, version=0, messages={}, deadline_at=None, creator_id=1,
                   rematch_of=None, created_at=0.0, updated_at=0.0, started_at=0.0,
                   finished_at=None)
    live = LiveMatch.from_row(row)
    for seat, move in played:
        live.take(live.step(seat, move))
    return live


def test_a_move_of_several_doubles_is_built_one_double_at_a_time():
    """RULES.md §2.0.4, §2.2 rule 2: with many moves of several doubles, one 🧩 button; each
    press adds a double on a free end it fits (face up or 🔒 closed), "play" plays the move
    as the service lists it, "cancel" goes back."""
    state = _first("donkey", lambda legal: not compose.whole_buttons(legal)
                   and any(p.closed for m in legal for p in m.placements))
    legal = legal_of(state)
    top = buttons(kb.hand_keyboard(3, 4, legal, locale="ru", tr=TR))
    assert top[-1].text == TR.plain("ru", "btn-compose")
    assert parse_callback(top[-1].callback_data) == PlayCb(game=3, ver=4, act="b", move="")
    assert not any("+" in b.text for b in top)  # the moves of several doubles hide behind it
    chosen: list = []
    while True:
        markup = kb.compose_keyboard(3, 4, legal, chosen, locale="ru", tr=TR)
        data = [parse_callback(b.callback_data) for b in buttons(markup)]
        adds = [d for d in data if d.act == "b"]
        assert all(b.text.startswith("+ ") for b in buttons(markup)[:len(adds)])
        for d in adds:  # each adds exactly one placement to what was chosen
            assert list(d.placements[:-1]) == chosen
            assert compose.is_prefix(d.placements, legal)
        plays = [d for d in data if d.act == "p"]
        if plays:
            (play,) = plays
            move = engine_move(play.placements)
            assert move in engine.legal_moves(state)
            assert set(key(play.placements)) == set(key(chosen))
            break
        chosen = list(adds[0].placements)
    assert len(chosen) >= 2


def test_telephone_the_first_double_chosen_becomes_the_spinner():
    """RULES.md §2.0.2, §2.4: without a spinner the two orders of a pair are two moves; the
    buttons mark the spinner ✳, and a move being built keeps the order chosen."""
    state = _first("telephone", lambda legal: any(compose.first_matters(m, legal)
                                                  for m in compose.multi_moves(legal)))
    legal = legal_of(state)
    multi = [m for m in legal if m.more and compose.first_matters(m, legal)]
    for m in multi:
        chosen = [m.placements[0]]
        for p in m.placements[1:]:
            assert compose.key_of(p) in {compose.key_of(c) for c in
                                         compose.continuations(chosen, legal)}
            chosen.append(p)
        assert compose.completed(chosen, legal) == m
        lines = compose.compose_lines("en", legal, chosen, tr=TR)
        assert compose.SPINNER_MARK + compose.placement_label(m.placements[0]) in lines[1]
    if compose.whole_buttons(legal):
        texts = [b.text for b in buttons(kb.hand_keyboard(1, 1, legal))]
        assert all(compose.SPINNER_MARK in t for t in texts if "+" in t)


def test_muggins_doubles_across_and_along():
    """RULES.md §2.5 rule 3: a double other than the spinner is offered across and along
    (∥) on each end it fits."""
    state = _first("muggins", lambda legal: any(m.along for m in legal))
    legal = legal_of(state)
    texts = {b.text for b in buttons(kb.hand_keyboard(1, 1, legal))}
    for m in legal:
        if m.along:
            across = kb.move_label(m.tile, m.end)
            assert across in texts and across + compose.ALONG_MARK in texts


def test_prefix_checks():
    legal = (MoveOption("2-2", "left", more=(P("5-5", "right"),)),
             MoveOption("5-5", "right", more=(P("2-2", "left"),)),
             MoveOption("3-3", "up", more=(P("4-4", "down", True),)),
             MoveOption("2-2", "left"))
    assert compose.is_prefix([], legal)
    assert compose.is_prefix([P("2-2", "left")], legal)
    assert compose.is_prefix([P("4-4", "down", True)], legal)  # any order where none matters
    assert compose.completed([P("4-4", "down", True), P("3-3", "up")], legal) == legal[2]
    assert not compose.is_prefix([P("4-4", "down")], legal)  # closed, not face up
    assert not compose.is_prefix([P("2-2", "left"), P("2-2", "left")], legal)
    assert not compose.is_prefix([P("2-2", "left"), P("4-4", "down", True)], legal)
    assert not compose.is_prefix([P("6-6", "up")], legal)
    assert not compose.is_prefix([P("2-2", "left")] * 5, legal)
    assert not compose.is_prefix([P("9-9", "left")], legal)
    assert compose.completed([P("5-5", "right"), P("2-2", "left")], legal) == legal[1]
    assert compose.completed([P("2-2", "left")], legal) is None  # a single is no build
    assert not compose.is_prefix([], legal[3:])  # nothing to build
    with pytest.raises(ValueError):
        kb.compose_keyboard(1, 1, legal, [P("6-6", "up")])
    with pytest.raises(ValueError):
        kb.hand_keyboard(1, 1, [legal[0], legal[0]])


# -- texts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_texts_of_the_marks_and_of_a_move_being_built(locale):
    state = _first("donkey", lambda legal: not compose.whole_buttons(legal)
                   and any(p.closed for m in legal for p in m.placements))
    legal = legal_of(state)
    legend = compose.legend_lines(locale, legal, tr=TR)
    assert legend == [TR.t(locale, "compose-legend-closed", mark="🔒"),
                      TR.t(locale, "compose-legend-build")]
    chosen: list = []
    seen = set()
    while True:
        lines = compose.compose_lines(locale, legal, chosen, tr=TR)
        assert lines[0] == TR.t(locale, "compose-title")
        seen.add(lines[-1])
        nxt = compose.continuations(chosen, legal)
        if not nxt:
            break
        chosen.append(nxt[0])
    assert TR.t(locale, "compose-hint-first") in seen
    assert TR.t(locale, "compose-hint-play") in seen
    for name in ("btn-compose", "btn-compose-play", "btn-compose-cancel", "err-compose-bad"):
        assert TR.plain(locale, name)


def test_the_hand_message_of_a_move_being_built():
    """The seat's hand message (the service's views) with the marks' legend, then with a
    move being built; within Telegram's limit, and only the seat's own tiles."""
    live = _first("donkey", lambda legal: not compose.whole_buttons(legal), live=True)
    table = live.table_view()
    hand = next(h for h in live.hand_views() if h.your_turn)
    for locale in SUPPORTED_LOCALES:
        text = compose.hand_text(locale, hand, table, tr=TR)
        assert text.endswith(TR.t(locale, "compose-legend-build"))
        chosen: list = []
        while True:
            text = compose.hand_text(locale, hand, table, chosen=chosen, tr=TR)
            assert text_length(text) <= MAX_TEXT
            assert TR.t(locale, "compose-title") in text
            assert text.startswith(compose.render_hand(locale, hand, table, tr=TR))
            nxt = compose.continuations(chosen, hand.legal)
            if not nxt:
                break
            chosen.append(nxt[-1])
        assert TR.t(locale, "compose-chosen", move=compose.move_text(chosen)) in text
    other = next(h for h in live.hand_views() if not h.your_turn)
    assert compose.hand_text("ru", other, table, tr=TR) == compose.render_hand("ru", other,
                                                                              table, tr=TR)


def test_the_largest_button_fits_64_bytes():
    big = 2**63 - 1
    four = [P("6-6", "gap", True, True), P("5-5", "down", True, True),
            P("4-4", "up", True, True), P("3-3", None, True, True)]
    legal = [MoveOption(four[0].tile, four[0].end, True, True, tuple(four[1:]))]
    for markup in (kb.compose_keyboard(big, big, legal, four, locale="uk", tr=TR),
                   kb.hand_keyboard(big, big, legal, locale="uk", tr=TR)):
        for b in buttons(markup):
            assert len(b.callback_data.encode()) <= MAX_CALLBACK_BYTES
