"""End to end: every message follows its chat's language (issue 20 item 8, issue 30 item 8,
"Must show").

Per locale (ru, uk, en), through the real bot process and the Bot API emulator: a person whose
Telegram speaks that language plays a solo match in private against a computer player, and an
admin whose Telegram speaks it adds the bot to a new group (nobody sets the group's language),
where two people and a computer player play a match; then
each chat asks /help, /rules, /stats, /history, /top and /record (the group also /settings,
/lang and /score), and the record is sent back to be checked, once renamed.  Every text the bot ever
showed there — messages, every edit of them, captions, buttons, the answers to presses, and
every label the table pictures drew (``ui.picture.picture_labels``) — must hold no word of
another locale (:func:`tests.localekit.foreign_words`: a word only another locale's texts
use, or letters the language does not write).  The matches go to 21 points (RULES.md §1.15,
a chat's match limit) with two seats, so each locale takes a few seconds.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from service.game import GameService
from tests.e2e.botproc import FAST_RATES
from tests.e2e.fixtures import Shared, running_bot
from tests.e2e.players import Person, Table
from tests.emulator import ChatMessage, Emulator, FloodLimits
from tests.localekit import foreign_words
from ui.picture import picture_labels

pytest_plugins = ("tests.e2e.fixtures",)
pytestmark = pytest.mark.asyncio(loop_scope="module")

LOCALES = ("ru", "uk", "en")
#: The people of each locale: the solo player, then the group's two players.
NAMES = {"ru": ("Оля", "Петя", "Вася"), "uk": ("Оксана", "Тарас", "Богдан"),
         "en": ("Olive", "Peter", "Basil")}
TITLES = {"ru": "Домино во дворе", "uk": "Доміно у дворі", "en": "Yard dominoes"}
FIRST_ID = {"ru": 9500, "uk": 9510, "en": 9520}
GROUP_ID = {"ru": -9500, "uk": -9510, "en": -9520}
RULES = {"match_limit": 21}
COMMANDS = ("/help", "/rules", "/stats", "/history", "/top", "/record")
#: What the group's admin asks beside: the settings and language menus.
GROUP_COMMANDS = COMMANDS + ("/settings", "/lang", "/score")


async def _prepare(database) -> None:
    """The chats' settings before the bot starts: every chat plays to :data:`RULES` (the
    groups choose no language: the admin who adds the bot gives theirs)."""
    svc = await GameService.open(database)
    try:
        for loc in LOCALES:
            await svc.people.update_chat(GROUP_ID[loc], title=TITLES[loc], rules=RULES)
            await svc.people.update_chat(FIRST_ID[loc], rules=RULES)
    finally:
        await svc.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def locales_bot(tmp_path_factory) -> AsyncIterator[Shared]:
    """One emulator and one bot for the module, over a database with the chats' settings."""
    emu = Emulator(flood=FloodLimits(enabled=False))
    await emu.start()
    client = emu.client()
    directory = tmp_path_factory.mktemp("locales")
    try:
        await _prepare(directory / "kozel.sqlite3")
        settings = {**FAST_RATES, "BOT_MOVE_DELAY": "0", "BOT_WORKERS": "1",
                    "PICTURE_WORKERS": "0"}
        async with running_bot(emu, directory, settings) as proc:
            yield Shared(emu, client, proc)
    finally:
        await client.close()
        await emu.stop()


async def _ask(client, person: Person, chat_id: int, commands=COMMANDS) -> None:
    """``person`` sends each command in ``chat_id`` and waits for the bot's answer to it —
    its first message there after the command (a reply quoting it, or in private the
    /record's file) — not for a quiet spell."""
    for text in commands:
        sent = await client.send(person.id, text,
                                 chat_id=None if chat_id == person.id else chat_id)
        await client.wait_message(chat_id, lambda m: m.from_bot, after=sent["message_id"],
                                  timeout=15)


async def _check_records(client, person: Person) -> None:
    """``person`` sends back the record file the bot sent them, once as it is and once with
    the first player renamed: the check's answers (item 9) are read with the rest."""
    doc = await client.wait_message(person.id, lambda m: m.from_bot and m.document,
                                    timeout=10)
    data = await client.file(doc.document["file_id"])
    record = json.loads(data)
    record["players"][0] = record["players"][0] + "2"
    for sent in (data, json.dumps(record).encode()):
        msg = await client.send_document(person.id, sent, file_name="record.json")
        answer = await client.wait_message(person.id, lambda m: m.from_bot and m.text,
                                           after=msg["message_id"], timeout=10)
        assert answer.text.startswith("✅"), answer.text


async def _shown(client, messages: list[ChatMessage]) -> list[tuple[str, str]]:
    """Every text the bot showed in these messages: (where, text) for each text or caption
    it ever had, each button, and each label of each picture."""
    out: list[tuple[str, str]] = []
    for m in messages:
        if not m.from_bot:
            continue
        where = f"chat {m.chat_id} message {m.message_id}"
        for text, markup in m.shown_texts():
            out.append((where, text or ""))
            for row in (markup or {}).get("inline_keyboard") or []:
                out += [(f"{where} button", b.get("text", "")) for b in row]
        for file_id in m.photos:
            out += [(f"{where} picture", label)
                    for label in picture_labels(await client.file(file_id))]
    return out


def _check(shown: list[tuple[str, str]], locale: str, allowed: tuple[str, ...]) -> int:
    bad = [(where, text, words) for where, text in shown
           if (words := foreign_words(text, locale, allowed=allowed))]
    assert not bad, "\n".join(f"{w}: {ws} in {t!r}" for w, t, ws in bad[:10])
    return len(shown)


async def _answers(client, presses) -> list[tuple[str, str]]:
    out = []
    for p in presses:
        answer = await client.wait_answer(p.query_id, timeout=10)
        if answer.get("text"):
            out.append((f"answer to {p.data}", answer["text"]))
    return out


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_solo_match_speaks_the_players_language(locales_bot, locale):
    """A private chat follows the person's Telegram language: the hands, the table (its
    caption and its picture), the match end, the records, the help."""
    client = locales_bot.client
    uid = FIRST_ID[locale]
    person = Person(uid, NAMES[locale][0])
    await client.create_user(uid, person.name, language_code=locale)
    feed = await locales_bot.feed()
    await client.start(uid)
    await client.wait_message(uid, lambda m: m.from_bot, timeout=10)
    table = Table(client, feed, uid, [person])
    await feed.sync()
    table.start_seq = feed.seq
    await client.send(uid, "/newgame 1 easy")
    log = await table.play(random.Random(uid), timeout=30)
    assert log.ended
    await _ask(client, person, uid)
    await _check_records(client, person)
    shown = await _shown(client, await client.messages(uid, include_deleted=True))
    shown += await _answers(client, log.presses)
    assert any(w.endswith("picture") for w, _ in shown)
    assert _check(shown, locale, (person.name,)) > len(log.presses)
    assert locales_bot.bot.errors() == []


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_group_match_speaks_the_groups_language(locales_bot, locale):
    """An admin whose Telegram speaks ``locale`` adds the bot to a new group: its greeting,
    the lobby, the table, the match end and the records in the group, and the players' hands
    in their private chats (in their own language, the same here), all in it."""
    client = locales_bot.client
    feed = await locales_bot.feed()
    first = FIRST_ID[locale] + 1
    names = NAMES[locale][1:]
    for i, name in enumerate(names):
        await client.create_user(first + i, name, language_code=locale)
    ids = [first + i for i in range(len(names))]
    await client.create_chat(title=TITLES[locale], id=GROUP_ID[locale], members=ids,
                             admins=ids[:1], announce=True)
    people = [Person(uid, name) for uid, name in zip(ids, names, strict=True)]
    for p in people:
        await client.start(p.id)
        await client.wait_message(p.id, lambda m: m.from_bot, timeout=10)
    table = Table(client, feed, GROUP_ID[locale], people)
    await table.gather()
    await table.command(people[0], "/addbot easy")
    await table.wait_seated(3)
    await table.start()
    log = await table.play(random.Random(first), timeout=30)
    assert log.ended
    await _ask(client, people[0], table.chat_id, GROUP_COMMANDS)
    await _check_records(client, people[0])
    await _ask(client, people[1], people[1].id, ("/history", "/stats"))
    group, dms = await table.chats()
    greeting = [m for m in group if m.from_bot and "/lang" in (m.text or "")]
    assert greeting, "the bot greets the new group and says how to change its language"
    shown = await _shown(client, group)
    for messages in dms.values():
        shown += await _shown(client, messages)
    shown += await _answers(client, log.presses)
    assert any(w.endswith("picture") for w, _ in shown)
    assert _check(shown, locale, names + (TITLES[locale],)) > len(log.presses)
    assert locales_bot.bot.errors() == []
