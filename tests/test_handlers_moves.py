"""The move buttons of every variant through the real routers over a mocked Bot API (issues 12
and 13, "Moves of two tiles", "Composing a move"; RULES.md §2.0.4).

A match of a variant is dealt from a chosen seed and brought, through the service, to a turn
where the person to act has moves of several doubles; then that person presses buttons:
building a move double by double edits the hand message and changes nothing in the game,
"play" makes it one move in the engine (one action with ``tiles``), "cancel" goes back, a
half-built move survives a restart of the bot and is void once the game has moved on, and
stale, foreign, out-of-turn and forged presses get an alert and change nothing.  Also random
matches of the variants pressed button by button, every keyboard checked against the engine.
"""

from __future__ import annotations

import random
import re

import pytest

import engine
from service.live.moves import option_of
from service.views import MoveOption
from tests.botkit import Harness, Person, Sent
from tests.servicekit import engine_state
from ui import compose
from ui.callbacks import MoveCb, PlayCb, parse_callback, play_callback
from ui.keyboards import hand_keyboard

GROUP = -100888
PEOPLE = (Person(31, "Оля"), Person(32, "Петя"), Person(33, "Маша"), Person(34, "Серж"))
TILE = re.compile(r"\[(\d)\|(\d)\]")


def _engine_path(variant: str, players: int, want, seeds=range(400)):
    """The first seed and decisions of random matches of ``variant`` that reach a state
    whose legal moves satisfy ``want``: ``(seed, [(seat, MoveOption)], state)``."""
    rules = engine.Rules(variant=variant)
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = engine.new_match(rules, players, seed)
        path = []
        for _ in range(300):
            if state.finished:
                break
            moves = engine.legal_moves(state)
            if want(tuple(option_of(m) for m in moves)):
                return seed, path, state
            multi = [m for m in moves if len(m) > 1]
            move = rng.choice(multi if multi and rng.random() < 0.6 else moves)
            path.append((state.to_act, option_of(move)))
            state, _ = engine.apply(state, state.to_act, move)
    raise AssertionError("no such state")


async def _seated(h: Harness, variant: str, people, seed: int) -> int:
    """Every person opens the DM; a match of ``variant`` is gathered in the group through
    the service and dealt from ``seed``, and its start is shown (the lobby's own texts are
    not what these tests are about)."""
    svc = h.app.service
    for p in people:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")
    svc.lobbies.seed_source = lambda: seed
    res = await svc.lobbies.open_lobby(GROUP, None, people[0].id, people[0].first_name,
                                       {"variant": variant})
    for p in people[1:]:
        assert (await svc.lobbies.join(res.match_id, p.id, p.first_name)).ok
    res = await svc.lobbies.start(res.match_id, people[0].id)
    assert res.ok, res
    await h.app.publisher.publish(res)
    await h.outbox.drain()
    await h.app.publisher.settled()
    return res.match_id


async def _bring(h: Harness, match_id: int, path, people) -> None:
    """Play ``path`` through the service and show the result (as the bot would have)."""
    svc = h.app.service
    res = await svc.store.view(match_id)
    for seat, option in path:
        res = await svc.play.act(match_id, people[seat].id, option, None, res.version)
        assert res.ok, res
    await h.app.publisher.publish(res, fresh=False)
    await h.outbox.drain()
    await h.app.publisher.settled()


def _builds(variant: str = "donkey"):
    """A donkey turn whose moves of several doubles are built press by press, with closed
    doubles among them (RULES.md §2.2 rule 2)."""
    return _engine_path(variant, 4, lambda legal: not compose.whole_buttons(legal)
                        and any(p.closed for m in legal for p in m.placements))


async def _at_a_build(h: Harness, people=PEOPLE):
    """A donkey match shown at the turn of :func:`_builds`: ``(match id, engine state)``."""
    seed, path, state = _builds()
    match_id = await _seated(h, "donkey", people, seed)
    await _bring(h, match_id, path, people)
    return match_id, state


def _button(msg: Sent, act: str, n: int | None = None):
    """The first PlayCb button of ``msg`` with action ``act`` (and ``n`` placements)."""
    for b in msg.buttons():
        cb = parse_callback(b.callback_data)
        if isinstance(cb, PlayCb) and cb.act == act and (n is None or len(cb.placements) == n):
            return b
    return None


async def _actions(h: Harness, match_id: int) -> list:
    from storage import repository as repo

    return await h.app.service.db.read(repo.list_actions, match_id)


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_a_move_of_several_doubles_built_press_by_press_is_one_move(tmp_path, lang):
    """RULES.md §2.0.4, §2.2 rule 2: 🧩 opens the building; each "+" adds a double and edits
    the message (the game does not change); "play" plays the whole move as one decision, in
    the presser's language."""
    people = tuple(Person(p.id, p.first_name, lang) for p in PEOPLE)
    async with Harness(tmp_path) as h:
        match_id, state = await _at_a_build(h, people)
        person = people[state.to_act]
        msg = h.keyboard_message(person)
        tr = h.app.tr
        assert msg.text.endswith(tr.t(lang, "compose-legend-build"))
        before = await h.app.service.store.view(match_id)
        start = _button(msg, "b", 0)
        assert start.text == tr.plain(lang, "btn-compose")
        text, alert, _ = await h.press(person, msg, data=start.callback_data)
        assert not alert and text is None
        msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        assert tr.t(lang, "compose-title") in msg.text
        assert tr.t(lang, "compose-hint-first") in msg.text
        assert msg.buttons()[-1].text == tr.plain(lang, "btn-compose-cancel")
        added = 0
        while _button(msg, "p") is None:
            add = _button(msg, "b", added + 1)
            await h.press(person, msg, data=add.callback_data)
            added += 1
            msg = h.tg.messages[(msg.chat_id, msg.message_id)]
            chosen = parse_callback(add.callback_data).placements
            assert tr.t(lang, "compose-chosen", move=compose.move_text(chosen)) in msg.text
            now = await h.app.service.store.view(match_id)
            assert now.version == before.version and now.table == before.table
        assert added >= 2
        play = _button(msg, "p")
        assert play.text == tr.plain(lang, "btn-compose-play")
        move = parse_callback(play.callback_data).placements
        text, alert, _ = await h.press(person, msg, data=play.callback_data)
        assert not alert
        after = await h.app.service.store.view(match_id)
        assert after.version == before.version + 1
        last = (await _actions(h, match_id))[-1]
        assert last.seat == state.to_act and len(last.decision["tiles"]) == len(move) >= 2
        assert [d["tile"] for d in last.decision["tiles"]] == [p.tile for p in move]
        # the engine took it as that one move
        assert await engine_state(h.app.service, match_id) == engine.apply(
            state, state.to_act, engine.Move.of([engine.Placement(
                engine.Tile.parse(p.tile), p.end, p.closed, p.along) for p in move]))[0]
        # the pressed message lost its keyboard (or holds the next turn of the same player)
        msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        assert not msg.buttons() or tr.t(lang, "compose-title") not in msg.text


async def test_cancel_goes_back_and_a_half_built_move_survives_a_restart(tmp_path):
    """A move being built lives in its buttons: "cancel" shows the move buttons again, and
    after a restart of the bot (a new service, publisher and outbox over the same database)
    the half-built move goes on from where it was."""
    async with Harness(tmp_path) as h:
        match_id, state = await _at_a_build(h)
        person = PEOPLE[state.to_act]
        msg = h.keyboard_message(person)
        top_text, top_buttons = msg.text, [b.callback_data for b in msg.buttons()]
        await h.press(person, msg, data=_button(msg, "b", 0).callback_data)
        msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        await h.press(person, msg, data=_button(msg, "b", 1).callback_data)
        msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        await h.press(person, msg, data=_button(msg, "t").callback_data)
        msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        assert (msg.text, [b.callback_data for b in msg.buttons()]) == (top_text, top_buttons)
        await h.press(person, msg, data=_button(msg, "b", 0).callback_data)
        msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        await h.press(person, msg, data=_button(msg, "b", 1).callback_data)
        half = h.tg.messages[(msg.chat_id, msg.message_id)]
        half_text = half.text
        version = (await h.app.service.store.view(match_id)).version
    again = Harness(tmp_path)
    again.tg = h.tg
    async with again as h2:
        await h2.app.publisher.heal()
        await h2.outbox.drain()
        msg = h2.tg.messages[(half.chat_id, half.message_id)]
        assert msg.text == half_text  # the start-up left the half-built move as it was
        while _button(msg, "p") is None:
            await h2.press(person, msg, data=_button(msg, "b").callback_data)
            msg = h2.tg.messages[(msg.chat_id, msg.message_id)]
        text, alert, _ = await h2.press(person, msg, data=_button(msg, "p").callback_data)
        assert not alert
        assert (await h2.app.service.store.view(match_id)).version == version + 1
        assert "tiles" in (await _actions(h2, match_id))[-1].decision


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_stale_foreign_and_forged_building_presses_change_nothing(tmp_path, lang):
    """Issue 13: a press on a half-built move after the game moved on, by a non-player, by
    a player out of turn, or with forged placements gets an alert in the presser's language;
    neither the game nor the message changes (an outdated keyboard is taken away)."""
    people = tuple(Person(p.id, p.first_name, lang) for p in PEOPLE)
    stranger = Person(39, "Гость", lang)
    async with Harness(tmp_path) as h:
        match_id, state = await _at_a_build(h, people)
        mover, other = people[state.to_act], people[(state.to_act + 1) % 4]
        tr = h.app.tr
        msg = h.keyboard_message(mover)
        await h.press(mover, msg, data=_button(msg, "b", 0).callback_data)
        msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        add = _button(msg, "b", 1).callback_data
        cb = parse_callback(add)
        before = await h.app.service.store.view(match_id)
        shown = (msg.text, [b.callback_data for b in msg.buttons()])

        async def refused(person, data, key):
            text, alert, _ = await h.press(person, msg, data=data)
            assert alert and text == tr.plain(lang, key), (data, text)
            now = await h.app.service.store.view(match_id)
            assert now.version == before.version and now.table == before.table

        await refused(stranger, add, "err-not-in-game")
        await refused(other, add, "err-not-your-turn")
        # forged placements: well formed, but no part of a legal move
        legal = before.hand_for(mover.id).legal
        tiles = {p.tile for m in legal for p in m.placements}
        stray = next(f"{a}-{b}" for a in range(7) for b in range(a, 7)
                     if f"{a}-{b}" not in tiles)
        bad = [[MoveOption(stray, "left")], list(cb.placements) * 1 + [MoveOption(stray, "up")],
               [p for m in legal if not m.more for p in m.placements][:1]]
        for placements in bad:
            data = play_callback(match_id, before.version, "b", placements)
            if compose.is_prefix(parse_callback(data).placements, legal):
                continue
            await refused(mover, data, "err-compose-bad")
        # a move no rule allows, pressed to play
        data = play_callback(match_id, before.version, "p", [MoveOption(stray, "left")])
        await refused(mover, data, "err-stale-button")
        # garbage in the move field, another match, a version from the future
        for forged in (f"p1:{match_id}:{before.version}:b:zz", f"p1:{match_id + 1000}:1:b:",
                       f"p1:{match_id}:{before.version + 5}:b:"):
            text, alert, _ = await h.press(mover, msg, data=forged)
            assert alert
        assert h.tg.messages[(msg.chat_id, msg.message_id)].text == shown[0]
        # the game moves on (the host moves for the mover): the half-built move is void
        res = await h.app.service.play.host_move(match_id, before.version)
        assert res.ok
        await h.app.publisher.publish(res)
        await h.outbox.drain()
        text, alert, _ = await h.press(mover, msg, data=add)
        assert alert and text == tr.plain(lang, "err-stale-button")
        assert (await h.app.service.store.view(match_id)).version == before.version + 1
        now = h.tg.messages[(msg.chat_id, msg.message_id)]
        assert not any(isinstance(parse_callback(b.callback_data), PlayCb)
                       and parse_callback(b.callback_data).ver == before.version
                       for b in now.buttons())


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_a_move_press_and_a_building_press_are_refused_alike(tmp_path, lang):
    """One check for a press (``Play.check_press``, the same as a move's): a press by a
    non-player, out of turn, or on a keyboard of an older version gets the same alert in
    the presser's language whether it plays a move (``MoveCb``) or builds one (``PlayCb``
    ``b``/``t``), and leaves the game and the live keyboard exactly as they were."""
    people = tuple(Person(p.id, p.first_name, lang) for p in PEOPLE[:3])
    stranger = Person(39, "Гость", lang)
    tr_keys = {"stranger": "err-not-in-game", "other": "err-not-your-turn",
               "stale": "err-stale-button"}
    async with Harness(tmp_path) as h:
        match_id = await _seated(h, "classic", people, 5)
        mover, msg = h.the_live_keyboard(people)
        other = next(p for p in people if p is not mover)
        before = await h.app.service.store.view(match_id)
        state = await engine_state(h.app.service, match_id)
        move = parse_callback(msg.move_buttons()[0].callback_data)
        old = MoveCb(game=match_id, ver=before.version - 1, tile=move.tile, end=move.end)
        here = {"other": h.tg.last(other.id)}  # the other player presses in their own chat
        presses = {
            "stranger": (stranger, [move.pack(), play_callback(match_id, before.version, "t"),
                                    play_callback(match_id, before.version, "b")]),
            "other": (other, [move.pack(), play_callback(match_id, before.version, "t")]),
            "stale": (mover, [old.pack(), play_callback(match_id, before.version - 1, "t"),
                              play_callback(match_id, before.version - 1, "b")]),
        }
        shown = (msg.text, [b.callback_data for b in msg.buttons()])
        for why, (person, datas) in presses.items():
            for data in datas:
                text, alert, _ = await h.press(person, here.get(why, msg), data=data)
                assert alert and text == h.app.tr.plain(lang, tr_keys[why]), (why, data, text)
        now = h.tg.messages[(msg.chat_id, msg.message_id)]
        assert (now.text, [b.callback_data for b in now.buttons()]) == shown
        after = await h.app.service.store.view(match_id)
        assert (after.version, after.table, after.hands) == (before.version, before.table,
                                                            before.hands)
        assert await engine_state(h.app.service, match_id) == state

@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_sea_goat_two_doubles_button_stale_and_forged(tmp_path, lang):
    """RULES.md §2.1 rule 1: the two doubles are one button, which plays both; pressed again
    (stale) or forged with another tile it changes nothing and gets an alert in the
    presser's language."""
    seed, path, state = _engine_path("sea_goat", 2, lambda legal: any(m.more for m in legal))
    people = tuple(Person(p.id, p.first_name, lang) for p in PEOPLE[:2])
    mover = people[state.to_act]
    async with Harness(tmp_path) as h:
        match_id = await _seated(h, "sea_goat", people, seed)
        await _bring(h, match_id, path, people)
        msg = h.keyboard_message(mover)
        two = _button(msg, "p", 2)
        assert two is not None and " + " in two.text and len(TILE.findall(two.text)) == 2
        before = await h.app.service.store.view(match_id)
        cb = parse_callback(two.callback_data)
        forged = play_callback(match_id, before.version, "p",
                               [cb.placements[0], MoveOption("0-1", cb.placements[1].end)])
        text, alert, _ = await h.press(mover, msg, data=forged)
        assert alert and text == h.app.tr.plain(lang, "err-stale-button")
        assert (await h.app.service.store.view(match_id)).version == before.version
        text, alert, _ = await h.press(mover, msg, data=two.callback_data)
        assert not alert
        decision = (await _actions(h, match_id))[-1].decision
        assert [d["tile"] for d in decision["tiles"]] == [p.tile for p in cb.placements]
        text, alert, _ = await h.press(mover, msg, data=two.callback_data)
        assert alert and text == h.app.tr.plain(lang, "err-stale-button")
        assert (await h.app.service.store.view(match_id)).version == before.version + 1


def _playable(msg: Sent) -> list:
    return [b for b in msg.buttons()
            if isinstance(parse_callback(b.callback_data), MoveCb | PlayCb)]


@pytest.mark.parametrize("variant,players", [("donkey", 3), ("telephone", 4),
                                             ("sea_goat", 3), ("muggins", 2), ("seven", 3)])
async def test_random_presses_of_a_variant_follow_the_engine(tmp_path, variant, players):
    """Random presses, building moves too: exactly one live keyboard, on the seat to act;
    its buttons reach exactly the legal moves; the group never shows a tile of a hand."""
    people = PEOPLE[:players]
    rng = random.Random(players)
    built = 0
    async with Harness(tmp_path) as h:
        match_id = await _seated(h, variant, people, 11)
        for _ in range(120):
            state = await engine_state(h.app.service, match_id)
            if state.finished:
                break
            person, msg = h.the_live_keyboard(people)
            assert people.index(person) == state.to_act
            legal = tuple(option_of(m) for m in engine.legal_moves(state))
            top = {b.callback_data for b in msg.move_buttons()}  # not "leave the match"
            want = {b.callback_data for row in hand_keyboard(
                match_id, (await h.app.service.store.view(match_id)).version, legal,
                tr=h.app.tr).inline_keyboard for b in row}
            assert top == want
            hidden = set()
            for i, hand in enumerate(state.hands):
                if i != state.to_act:
                    hidden |= {(t.a, t.b) for t in hand}
            group = h.tg.messages[(GROUP, (await h.app.publisher.messages(match_id)).table)]
            shown = {(min(int(a), int(b)), max(int(a), int(b)))
                     for a, b in TILE.findall(group.text.split("\n\n")[0])}
            if "окончен" not in group.text:
                assert not shown & hidden
            # press until a move is played, building moves of several doubles on the way
            while True:
                buttons = [b for b in _playable(msg)
                           if not (parse_callback(b.callback_data).act == "t"
                                   if isinstance(parse_callback(b.callback_data), PlayCb)
                                   else False) or rng.random() < 0.1]
                b = rng.choice(buttons or _playable(msg))
                cb = parse_callback(b.callback_data)
                text, alert, _ = await h.press(person, msg, data=b.callback_data)
                assert not alert, (b, text)
                if isinstance(cb, MoveCb) or cb.act == "p":
                    built += isinstance(cb, PlayCb) and len(cb.placements) > 1
                    break
                msg = h.tg.messages[(msg.chat_id, msg.message_id)]
    if variant in ("donkey", "telephone", "sea_goat"):
        assert built, "no move of several tiles was played"


async def test_building_on_a_hand_sent_again_keeps_one_live_keyboard(tmp_path):
    """The hand was sent again (/hand: the older message deleted, issue 30 item 13) while the
    player pressed the older message: the move is built on the newer one, which keeps the
    one live keyboard."""
    async with Harness(tmp_path) as h:
        match_id, state = await _at_a_build(h)
        person = PEOPLE[state.to_act]
        old = h.keyboard_message(person)
        start = _button(old, "b", 0).callback_data
        await h.say(person, person.id, "/hand")
        new = h.keyboard_message(person)
        assert new.message_id != old.message_id
        assert h.tg.messages[(person.id, old.message_id)].deleted
        text, alert, _ = await h.press(person, old, data=start)
        assert not alert
        live = [m for m in h.tg.chat(person.id) if m.buttons()]
        assert [m.message_id for m in live] == [new.message_id]
        assert h.app.tr.t("ru", "compose-title") in live[0].text
        stored = (await h.app.publisher.messages(match_id)).hands[person.id]
        assert stored.message == new.message_id and stored.live
        # the move goes on from there
        msg = live[0]
        while _button(msg, "p") is None:
            await h.press(person, msg, data=_button(msg, "b").callback_data)
            msg = h.tg.messages[(msg.chat_id, msg.message_id)]
        text, alert, _ = await h.press(person, msg, data=_button(msg, "p").callback_data)
        assert not alert and "tiles" in (await _actions(h, match_id))[-1].decision
