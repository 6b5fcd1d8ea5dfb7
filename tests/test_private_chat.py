"""A tidy private chat (issue 30 item 13): one hand message per player, whatever the match.

In a group's match a turn still comes as a new message (Telegram notifies only on new
messages), and the hand messages it replaced are deleted together at the round's end; in a
match against computer players in the person's own chat the turn is edited into the hand
message while it is the chat's newest, so the chat holds the rounds' tables, one hand message
and the match's end.  ``bench/private_chat.py`` prints the counts beside an older tree's.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from delivery.books import Books, MatchMessages
from delivery.publisher import Publisher
from tests.botkit import Harness, Person

GROUP = -100444
SOLO = Person(601, "Оля")
PEOPLE = (Person(611, "Петя"), Person(612, "Маша"))


def _hands(h: Harness, person: Person) -> list:
    return [m for m in h.tg.chat(person.id) if "Ваши кости" in m.text]


async def _settle(h: Harness) -> None:
    await h.app.outbox.drain()
    await h.app.publisher.settled()


async def _bots(h: Harness) -> bool:
    """The computer players' turns, as if their 1.5 s had passed (a person's minute has
    not); True when one moved."""
    fired = await h.app.service.deadlines.fire_due(now=time.time() + 5)
    for res in fired:
        await h.app.publish(res)
    await _settle(h)
    return bool(fired)


async def _play(h: Harness, people, match_id: int, rng: random.Random, *, until=None
                ) -> tuple[int, int]:
    """Random moves of ``people`` (the computer players' between) until the match is over or
    ``until(h)``; returns (rounds, turns that came as a new message)."""
    new, last = 0, {}
    for _ in range(20_000):
        res = await h.app.service.store.view(match_id)
        if str(res.status) not in ("playing", "lobby") or (until and until(h)):
            return res.table.round_no, new
        live = [(p, h.keyboard_message(p)) for p in people]
        live = [(p, m) for p, m in live if m is not None]
        if not live:
            assert await _bots(h), "nobody can move"
            continue
        p, msg = live[0]
        new += last.get(p.id) != msg.message_id
        last[p.id] = msg.message_id
        await h.press(p, msg, data=rng.choice(msg.move_buttons()).callback_data)
        await _settle(h)
    raise AssertionError("the match did not end")


async def _group_match(h: Harness):
    """The two people open their private chats, one opens a lobby in the group, the other
    joins, the first deals; the match's view."""
    for p in PEOPLE:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")
    await h.say(PEOPLE[0], GROUP, "/newgame")
    lobby = h.tg.last(GROUP)
    await h.press(PEOPLE[1], lobby, data=lobby.buttons()[0].callback_data)
    await h.say(PEOPLE[0], GROUP, "/startgame")
    return await h.app.service.store.find_open(GROUP, None)


async def test_a_solo_match_of_twelve_rounds_leaves_its_tables_one_hand_and_its_end(tmp_path):
    """One person against three computer players, 12 deals of sport domino (RULES.md §2.7):
    the private chat keeps each round's table, one hand message and the match's end — the
    turns edited into the hand message, a new one only when a round's table came after it
    (12 of them, a notification a round)."""
    async with Harness(tmp_path) as h:
        h.tg.dm_open.add(SOLO.id)
        await h.say(SOLO, SOLO.id, "/start")
        await h.app.service.people.update_chat(SOLO.id, rules={"variant": "sport", "deals": 12})
        await h.say(SOLO, SOLO.id, "/newgame 3 sport")
        found = await h.app.service.store.find_open(SOLO.id, None)
        rounds, new = await _play(h, [SOLO], found.match_id, random.Random(3))
        chat = h.tg.chat(SOLO.id)
        tables = [m for m in chat if m.photo is not None]
        print(f"solo: {rounds} rounds, {len(chat)} bot messages left, {new} new turn messages")
        assert rounds == 12 and len(tables) == 12
        assert len(_hands(h, SOLO)) == 1
        assert len(chat) <= rounds + 3  # the greeting, the hand, the match's end
        assert new <= rounds + 1


async def test_a_group_match_keeps_one_hand_message_a_player_and_every_turn_notifies(tmp_path):
    """Two people in a group: every turn but the mover's own next one comes as a new
    message (as many notifications as before), and at the match's end each private chat
    holds one hand message; during a round at most the round's turns' worth."""
    async with Harness(tmp_path) as h:
        found = await _group_match(h)
        rounds, new = await _play(h, PEOPLE, found.match_id, random.Random(8))
        actions = len([a for a in h.tg.calls if a[0] == "AnswerCallbackQuery"])
        print(f"group: {rounds} rounds, {new} new turn messages of {actions} presses")
        for p in PEOPLE:
            assert len(_hands(h, p)) == 1, p
        assert new >= actions - 3 * rounds  # only a mover's own next turns were edited


async def test_the_hand_messages_to_delete_survive_a_restart(tmp_path):
    """The hand messages a newer one replaced are stored with the match (``spent``) until
    they are deleted: a restart mid-round deletes them (issue 20 item 15's books)."""
    async with Harness(tmp_path) as h:
        found = await _group_match(h)
        await _play(h, PEOPLE, found.match_id, random.Random(8),
                    until=lambda h: any(len(_hands(h, p)) >= 3 for p in PEOPLE))
        kept = MatchMessages.from_json(await h.app.service.messages.load(found.match_id))
        assert any(kept.spent.values())
        old = h.app.publisher
        books = Books(h.app.service.messages)
        h.app.books = books
        h.app.publisher = Publisher(old.service, replace(old.post, books=books), old.pictures)
        await h.app.publisher.heal()
        await _settle(h)
        for p in PEOPLE:
            assert len(_hands(h, p)) == 1, p
