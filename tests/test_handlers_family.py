"""The keyboards of Мексиканский поезд and Колбаса through the real routers over a mocked Bot
API (RULES.md §2.11, §2.12; issue 32): a tile that fits several trains is pressed, then its
train (the game changes only at the second press); a tile that fits one train plays at once;
«back» returns to the tiles; Колбаса's keyboard comes only to the seat whose turned-over
tile has a choice, and nobody's hand message ever shows a tile of a queue; a stale, foreign,
out-of-turn or forged press gets an alert and changes nothing; every keyboard of random
matches offers exactly the legal placements and fits Telegram's 64 bytes."""

from __future__ import annotations

import random
import re

import engine
from service.live.moves import option_of
from tests.botkit import Harness, Person, Sent
from tests.servicekit import engine_state
from ui.callbacks import MAX_CALLBACK_BYTES, PlaceCb, parse_callback, place_callback, tile_id

GROUP = -100777
PEOPLE = (Person(41, "Оля"), Person(42, "Петя"), Person(43, "Маша"))
TILE = re.compile(r"\[(\d+)\|(\d+)\]")


def _path(rules: engine.Rules, players: int, want, seeds=range(300)):
    """The first seed and decisions of random matches that reach a state ``want`` likes:
    ``(seed, [(seat, MoveOption)], state)``."""
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = engine.new_match(rules, players, seed)
        path = []
        for _ in range(400):
            if state.finished:
                break
            if want(state):
                return seed, path, state
            move = rng.choice(engine.legal_moves(state))
            path.append((state.to_act, option_of(move)))
            state, _ = engine.apply(state, state.to_act, move)
    raise AssertionError("no such state")


async def _seated(h: Harness, rules: dict, people, seed: int, path) -> int:
    """A match of ``rules`` gathered in the group through the service, dealt from ``seed``,
    played along ``path`` and shown as the bot would show it."""
    svc = h.app.service
    for p in people:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")
    svc.lobbies.seed_source = lambda: seed
    res = await svc.lobbies.open_lobby(GROUP, None, people[0].id, people[0].first_name, rules)
    for p in people[1:]:
        assert (await svc.lobbies.join(res.match_id, p.id, p.first_name)).ok
    res = await svc.lobbies.start(res.match_id, people[0].id)
    assert res.ok, res
    for seat, option in path:
        res = await svc.play.act(res.match_id, people[seat].id, option, None, res.version)
        assert res.ok, res
    await h.app.publisher.publish(res, fresh=False)
    await h.outbox.drain()
    await h.app.publisher.settled()
    return res.match_id


def _place_buttons(msg: Sent) -> list[tuple[object, PlaceCb]]:
    return [(b, cb) for b in msg.buttons() if b.callback_data
            and isinstance(cb := parse_callback(b.callback_data), PlaceCb)]


def _several_trains(state) -> bool:
    """A turn where one tile fits two trains or more, and another tile fits one."""
    if state.to_act is None:
        return False
    by_tile: dict = {}
    for m in engine.legal_moves(state):
        by_tile.setdefault(m.tile, []).append(m)
    return any(len(v) > 1 for v in by_tile.values()) and any(len(v) == 1
                                                               for v in by_tile.values())


async def test_a_tile_that_fits_several_trains_is_pressed_then_its_train(tmp_path):
    """RULES.md §2.11 rules 4–6: the tile's button shows the trains it fits (the game is
    unchanged: the same version, no action), «back» shows the tiles again, a train's button
    places the tile there (one action with its ``train``); a tile that fits one train plays
    with one press."""
    rules = {"variant": "mexican_train", "set": 9}
    seed, path, state = _path(engine.Rules.from_json(rules), 3, _several_trains)
    async with Harness(tmp_path) as h:
        match_id = await _seated(h, rules, PEOPLE, seed, path)
        person = PEOPLE[state.to_act]
        msg = h.keyboard_message(person)
        buttons = _place_buttons(msg)
        assert all(len(b.callback_data.encode()) <= MAX_CALLBACK_BYTES for b, _ in buttons)
        choose = next(b for b, cb in buttons if cb.act == "c")
        before = await h.app.service.store.view(match_id)
        text, alert, _ = await h.press(person, msg, data=choose.callback_data)
        assert not alert
        shown = h.tg.messages[(person.id, msg.message_id)]
        targets = [cb for _, cb in _place_buttons(shown)]
        assert targets[-1].act == "t" and all(cb.act == "p" for cb in targets[:-1])
        assert len({cb.tile for cb in targets[:-1]}) == 1 and len(targets) >= 3
        after = await h.app.service.store.view(match_id)
        assert after.version == before.version  # choosing a tile changes nothing
        assert "Выберите поезд" in shown.text
        await h.press(person, shown, data=place_callback(match_id, before.version, "t"))
        back = h.tg.messages[(person.id, msg.message_id)]
        assert [cb.act for _, cb in _place_buttons(back)] == [cb.act for _, cb in buttons]
        # a train's button places the tile there
        shown = h.tg.messages[(person.id, msg.message_id)]
        await h.press(person, shown, data=choose.callback_data)
        shown = h.tg.messages[(person.id, msg.message_id)]
        pick = _place_buttons(shown)[0][1]
        text, alert, _ = await h.press(person, shown, data=_place_buttons(shown)[0][0]
                                       .callback_data)
        assert not alert
        st = await engine_state(h.app.service, match_id)
        assert st.version == state.version + 1
        train = pick.placement.train
        laid = st.layout.mexican if train == "mexican" else st.layout.trains[train]
        a, b = map(int, pick.placement.tile.split("-"))
        assert any({x, y} == {a, b} for x, y in laid)


async def test_stale_foreign_out_of_turn_and_forged_presses_change_nothing(tmp_path):
    """A press on an old keyboard, by another player, out of turn, of a tile that is not
    playable, or forged data: an alert, and the match's version stays."""
    rules = {"variant": "mexican_train", "set": 9}
    seed, path, state = _path(engine.Rules.from_json(rules), 3, _several_trains)
    async with Harness(tmp_path) as h:
        match_id = await _seated(h, rules, PEOPLE, seed, path)
        person = PEOPLE[state.to_act]
        other = PEOPLE[(state.to_act + 1) % 3]
        msg = h.keyboard_message(person)
        version = (await h.app.service.store.view(match_id)).version
        play = next(b for b, cb in _place_buttons(msg) if cb.act == "p")
        stale = play.callback_data.replace(f":{version}:", f":{version - 1}:", 1)
        unplayable = next(t for t in state.hand(state.to_act)
                          if t not in {m.tile for m in engine.legal_moves(state)})
        for who, data in [(person, stale), (other, play.callback_data),
                          (person, place_callback(match_id, version, "p", unplayable,
                                                  type("P", (), {"train": "mexican",
                                                                 "line": None, "at": None,
                                                                 "cut": None})())),
                          (person, place_callback(match_id, version, "c", unplayable)),
                          (person, f"y1:{match_id}:{version}:p:91:m")]:
            text, alert, _ = await h.press(who, msg, data=data)
            assert alert and text, (who, data)
            assert (await h.app.service.store.view(match_id)).version == version


async def test_kolbasa_keyboard_only_on_a_choice_and_no_queue_is_shown(tmp_path):
    """RULES.md §2.12 rules 1, 6: only the seat whose turned-over tile has two placements or
    more has a keyboard, a button per placement; its hand message names the queue's length,
    never a tile of it (the tiles it shows are on the table, or turned over)."""
    seed, path, state = _path(engine.Rules(variant="kolbasa"), 2,
                              lambda st: st.to_act is not None and st.round.layout.a
                              and st.round.layout.b)
    async with Harness(tmp_path) as h:
        match_id = await _seated(h, {"variant": "kolbasa"}, PEOPLE[:2], seed, path)
        person = PEOPLE[state.to_act]
        msg = h.keyboard_message(person)
        buttons = _place_buttons(msg)
        assert len(buttons) == len(engine.legal_moves(state)) >= 2
        assert {cb.tile for _, cb in buttons} == {tile_id(state.layout.turned)}
        assert h.keyboard_message(PEOPLE[1 - state.to_act]) is None
        lay = state.layout
        public = {tuple(sorted(t)) for t in (*lay.a, *lay.b, lay.head, lay.turned)}
        for p in PEOPLE[:2]:
            for m in h.tg.chat(p.id):
                if "ряд" in m.text:
                    shown = {tuple(sorted(map(int, t))) for t in TILE.findall(m.text)}
                    assert shown <= public, m.text
        text, alert, _ = await h.press(person, msg, data=buttons[0][0].callback_data)
        assert not alert
        st = await engine_state(h.app.service, match_id)
        assert st.version > state.version
