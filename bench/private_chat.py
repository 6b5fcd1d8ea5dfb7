"""How many bot messages a whole match leaves in its players' private chats (issue 30 item 13).

    .venv/bin/python bench/private_chat.py            # about a minute on 2 cores

Two matches through the real routers, service and publisher over the fake Bot API of
``tests/botkit.py`` (every message kept, a deleted one left out, as a chat shows it):

- a solo match: one person against three computer players of sport domino (RULES.md §2.7)
  with 12 deals — twelve rounds, each round's table in the private chat;
- a group match: two people play classic Kozel (RULES.md §1) to its end in a group.

It prints, per private chat, the bot's messages left at the end, how many of them hold a
hand, and how many times it was that person's turn with a new message (a notification)
against the turns edited into the message they had just pressed (no notification), so a
run on an older tree and one on this tree can be compared side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.botkit import Harness, Person  # noqa: E402

GROUP = -100555
SOLO = Person(701, "Оля")
PEOPLE = (Person(711, "Петя"), Person(712, "Маша"))


def _is_hand(text: str) -> bool:
    """A hand message (ru): it lists the player's tiles."""
    return "Ваши кости" in text or "Ваша рука" in text or "кости (раунд" in text


async def _settle(h: Harness) -> None:
    await h.app.outbox.drain() if hasattr(h.app, "outbox") else await h.outbox.drain()
    await h.app.publisher.settled()


async def _fire(h: Harness) -> bool:
    """Fire the computer players' turns as if their 1.5 s had passed (a person's turn has a
    minute, so no host moves for them); True when something happened."""
    fired = await h.app.service.deadlines.fire_due(now=time.time() + 5)
    for res in fired:
        await h.app.publisher.publish(res)
    await _settle(h)
    return bool(fired)


class Turns:
    """Per person: turns that came as a new message (a notification), and turns edited into
    the message they had just pressed (none)."""

    def __init__(self) -> None:
        self.new: dict[int, int] = {}
        self.edited: dict[int, int] = {}
        self.pressed: dict[int, int] = {}

    def seen(self, person: Person, live_id: int) -> None:
        """``person`` has a keyboard on message ``live_id`` for a turn not yet counted."""
        bucket = self.edited if self.pressed.get(person.id) == live_id else self.new
        bucket[person.id] = bucket.get(person.id, 0) + 1
        self.pressed[person.id] = live_id


async def _play(h: Harness, people, match_id: int, rng: random.Random, turns: Turns) -> int:
    """Press random moves for ``people`` (firing the computer players' turns between) until
    the match is over; returns the rounds played."""
    for _ in range(20_000):
        res = await h.app.service.store.view(match_id)
        if res.status not in ("playing", "lobby"):
            return res.table.round_no if res.table is not None else 0
        moved = False
        for p in people:
            live = h.keyboard_message(p)
            if live is None:
                continue
            turns.seen(p, live.message_id)
            button = rng.choice(live.move_buttons())
            await h.press(p, live, data=button.callback_data)
            await _settle(h)
            moved = True
            break
        if not moved and not await _fire(h):
            raise RuntimeError("nobody can move")
    raise RuntimeError("the match did not end")


def _report(name: str, h: Harness, person: Person, rounds: int, turns: Turns) -> None:
    chat = h.tg.chat(person.id)
    hands = [m for m in chat if _is_hand(m.text)]
    print(f"{name:<30} rounds {rounds:>3}  bot messages left {len(chat):>4}  "
          f"hand messages left {len(hands):>4}  turns: new message "
          f"{turns.new.get(person.id, 0):>3}, edited in place {turns.edited.get(person.id, 0):>3}")


async def solo(tmp: Path, seed: int) -> None:
    async with Harness(tmp) as h:
        h.tg.dm_open.add(SOLO.id)
        await h.say(SOLO, SOLO.id, "/start")
        await h.app.service.people.update_chat(SOLO.id, rules={"variant": "sport",
                                                               "deals": 12})
        await h.say(SOLO, SOLO.id, "/newgame 3 sport")
        found = await h.app.service.store.find_open(SOLO.id, None)
        if found is None:  # the set-up message: play with its button
            setup = h.tg.last(SOLO.id)
            await h.press(SOLO, setup, data=setup.buttons()[-1].callback_data)
            found = await h.app.service.store.find_open(SOLO.id, None)
        turns = Turns()
        rounds = await _play(h, [SOLO], found.match_id, random.Random(seed), turns)
        _report("solo sport, 3 computer players", h, SOLO, rounds, turns)


async def group(tmp: Path, seed: int) -> None:
    async with Harness(tmp) as h:
        for p in PEOPLE:
            h.tg.dm_open.add(p.id)
            await h.say(p, p.id, "/start")
        await h.say(PEOPLE[0], GROUP, "/newgame")
        lobby = h.tg.last(GROUP)
        await h.press(PEOPLE[1], lobby, data=lobby.buttons()[0].callback_data)
        await h.say(PEOPLE[0], GROUP, "/startgame")
        found = await h.app.service.store.find_open(GROUP, None)
        turns = Turns()
        rounds = await _play(h, PEOPLE, found.match_id, random.Random(seed), turns)
        for p in PEOPLE:
            _report(f"group classic, {p.first_name}", h, p, rounds, turns)


async def main(seed: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        await solo(Path(d) / "solo", seed)
    with tempfile.TemporaryDirectory() as d:
        await group(Path(d) / "group", seed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.seed))
