"""Around the match (issue 20, items 2–7): what players meet when a match ends in any way,
when the bot is removed mid-match, in a private match against computer players, with /replay
in a group, with notices that outlived their problem, and with /stats in private — through
the real routers over a mocked Bot API."""

from __future__ import annotations

import random

import pytest
from aiogram.types import Chat, ChatMemberBanned, ChatMemberMember, ChatMemberUpdated, Update

from service.views import Status
from tests.botkit import BOT, Harness, Person
from ui.names import bot_gender

GROUP = -100555
OLYA, PETYA, MASHA = Person(31, "Оля"), Person(32, "Петя"), Person(33, "Маша")
PEOPLE = (OLYA, PETYA, MASHA)


async def seated(h: Harness, people=PEOPLE) -> int:
    """Everyone opens the DM, the first opens a lobby in GROUP, the others join, it starts."""
    for p in people:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")
    await h.say(people[0], GROUP, "/newgame")
    lobby = h.tg.last(GROUP)
    for p in people[1:]:
        await h.press(p, lobby, data=lobby.buttons()[0].callback_data)
    await h.say(people[0], GROUP, "/startgame")
    return (await h.app.service.store.find_open(GROUP, None)).match_id


def hand_messages(h: Harness, person: Person, locale: str = "ru"):
    """Every hand message in ``person``'s private chat (they start with the hand's title)."""
    title = h.app.tr.t(locale, "hand-title", round=1).split("<")[0].split("(")[0]
    head = h.app.tr.t(locale, "hand-title", round=0).split("(")[0]
    return [m for m in h.tg.chat(person.id) if m.text.startswith(head) or title in m.text]


def assert_closed_hands(h: Harness, people, locale: str = "ru", *, every: bool = False
                        ) -> None:
    """The last hand message of each of ``people`` (``every``: each of them) neither says
    whose turn it is nor holds a keyboard."""
    tr = h.app.tr
    your_turn = tr.t(locale, "hand-your-turn")
    waiting = tr.t(locale, "hand-waiting", name="\x00").split("\x00")[0]
    for p in people:
        hands = hand_messages(h, p, locale)
        assert hands, f"{p.first_name} got no hand message"
        for m in hands if every else hands[-1:]:
            assert not m.move_buttons(), (p.first_name, m.text)
            assert your_turn not in m.text, (p.first_name, m.text)
            assert waiting not in m.text, (p.first_name, m.text)


async def stop(h: Harness, person: Person, chat_id: int) -> None:
    """``person`` types /stopgame in ``chat_id`` and confirms."""
    await h.say(person, chat_id, "/stopgame")
    yes = h.app.tr.plain("ru", "btn-stop-yes")
    confirm = next(m for m in reversed(h.tg.chat(chat_id)) if any(
        b.text == yes for b in m.buttons()))
    await h.press(person, confirm, text=yes)


async def play_some(h: Harness, people, moves: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        live = [(p, h.keyboard_message(p)) for p in people]
        live = [(p, m) for p, m in live if m is not None]
        if not live:
            return
        person, msg = live[0]
        await h.press(person, msg, data=rng.choice(msg.move_buttons()).callback_data)


# -- item 3: every seat's hand message closes, however the match ends ------------------------



def _restarted(h: Harness, tmp_path) -> Harness:
    """A new bot over ``h``'s database and ``h``'s Telegram, as after ``h``'s process was
    killed (nothing of its memory kept)."""
    again = Harness(tmp_path)
    again.tg = h.tg
    return again


async def _heal(h2: Harness, match_id: int | None = None, books: dict | None = None) -> int:
    """What a restart does before its first update: with ``books``, first store them as the
    match's message books (as a killed process left them); then heal every open match and
    wait until its sends are done.  Returns the index in ``h2.tg.calls`` where the restart's
    own calls begin."""
    if books is not None:
        await h2.app.service.messages.save(match_id, books)
    n = len(h2.tg.calls)
    await h2.app.publisher.heal()
    await h2.outbox.drain()
    await h2.app.publisher.settled()
    return n

async def test_stopgame_closes_every_seats_hand_message(tmp_path):
    """Issue 20 item 3: after /stopgame the players not on turn no longer read «Ходит …»:
    every hand message says the match was stopped, and none holds a keyboard."""
    async with Harness(tmp_path) as h:
        match_id = await seated(h)
        await play_some(h, PEOPLE, 4)
        await stop(h, OLYA, GROUP)
        assert (await h.app.service.store.view(match_id)).status == Status.STOPPED
        assert_closed_hands(h, PEOPLE)
        stopped = h.app.tr.t("ru", "hand-match-stopped")
        for p in PEOPLE:
            assert stopped in hand_messages(h, p)[-1].text


async def test_a_match_ended_by_timeout_closes_every_seats_hand_message(tmp_path):
    """Issue 20 item 3: the group ending the match by timeout (RULES.md §1.17) closes every
    hand message too."""
    async with Harness(tmp_path) as h:
        match_id = await seated(h)
        svc = h.app.service
        found = await svc.store.view(match_id)
        absent = found.table.to_act
        rng = random.Random(2)
        while True:  # the absent player's turns time out; the others play at once
            res = await svc.play.host_move(match_id, found.version)
            await h.app.publisher.publish(res)
            if res.hold is not None:
                break
            while res.table.to_act != absent:
                hand = res.hands[res.table.to_act]
                res = await svc.play.act(match_id, hand.user_id, rng.choice(hand.legal), None,
                                         res.version)
                await h.app.publisher.publish(res)
            found = res
        other = next(p for p in PEOPLE if p.id != res.table.seats[absent].user_id)
        out = await svc.leaving.end_by_timeout(match_id, other.id, res.version)
        assert out.ok and out.status == Status.FINISHED
        await h.app.publisher.publish(out)
        await h.outbox.drain()
        await h.app.publisher.settled()
        assert_closed_hands(h, PEOPLE)


async def test_a_stopped_solo_match_closes_the_hand_message(tmp_path):
    """Issue 20 item 3 in private: a solo match stopped by /stopgame closes its hand."""
    async with Harness(tmp_path) as h:
        h.tg.dm_open.add(OLYA.id)
        await h.say(OLYA, OLYA.id, "/newgame 2")
        await stop(h, OLYA, OLYA.id)
        assert not (await h.app.service.store.find_open(OLYA.id, None)).ok
        assert_closed_hands(h, (OLYA,))


# -- item 2: the bot removed from the group mid-match ---------------------------------------


def removed(chat_id: int) -> Update:
    upd = ChatMemberUpdated(
        chat=Chat(id=chat_id, type="supergroup", title="Домино во дворе"),
        from_user=OLYA.user, date=0, old_chat_member=ChatMemberMember(user=BOT),
        new_chat_member=ChatMemberBanned(user=BOT, until_date=0))
    return Update(update_id=4242, my_chat_member=upd)


async def test_the_bot_removed_mid_match_tells_the_players_in_private(tmp_path):
    """Issue 20 item 2: removed from the group, the bot tells every player in private that
    the match was closed without rating, closes every hand message (no live buttons), and
    answers a press on an old keyboard with the match's own text, not the lobby's."""
    async with Harness(tmp_path) as h:
        match_id = await seated(h)
        await play_some(h, PEOPLE, 3)
        mover = next(p for p in PEOPLE if h.keyboard_message(p) is not None)
        old = h.keyboard_message(mover)
        data = old.move_buttons()[0].callback_data
        group_before = len(h.tg.chat(GROUP))
        await h.feed(removed(GROUP))
        assert (await h.app.service.store.view(match_id)).status == Status.STOPPED
        assert len(h.tg.chat(GROUP)) == group_before, "nothing is sent to a group it left"
        tr = h.app.tr
        notice = tr.t("ru", "notice-bot-removed", chat="Домино во дворе", id=match_id)
        for p in PEOPLE:
            assert notice in [m.text for m in h.tg.chat(p.id)], p.first_name
        assert_closed_hands(h, PEOPLE)
        text, alert, _ = await h.press(mover, old, data=data)
        assert alert and text == tr.plain("ru", "err-match-closed")
        assert text != tr.plain("ru", "err-lobby-closed")


# -- item 5: /replay in a group ---------------------------------------------------------------


async def test_replay_in_a_group_gets_an_answer(tmp_path):
    """Issue 20 item 5: /replay in a group — as a file's caption, in reply to a file, or
    alone — is answered in the group; a file sent there without the command is left alone
    (people share files in a group)."""
    from tests.test_handlers_records import finish

    async with Harness(tmp_path) as h:
        res = await finish(h, "classic", chat=GROUP, people=PEOPLE, seed=5)
        rec = await h.app.service.records.record(res.match_id, PETYA.id, GROUP)
        tr = h.app.tr
        same = tr.t("ru", "chk-stored-same", id=res.match_id)
        await h.send_document(PETYA, GROUP, rec.data, file_name=rec.filename,
                              caption="/replay")
        answer = h.tg.last(GROUP)
        assert answer.text.startswith("✅") and same in answer.text
        count = len(h.tg.chat(GROUP))
        sent = await h.send_document(MASHA, GROUP, rec.data, file_name=rec.filename)
        assert len(h.tg.chat(GROUP)) == count, "a file without /replay gets no answer"
        await h.say(OLYA, GROUP, "/replay", reply_to=sent)
        assert h.tg.last(GROUP).text.startswith("✅") and same in h.tg.last(GROUP).text
        await h.say(OLYA, GROUP, "/replay")
        assert h.tg.last(GROUP).text == tr.t("ru", "chk-hint-group")


# -- item 4: private play against computer players ------------------------------------------


def replied_to(h: Harness, chat_id: int, text: str) -> int | None:
    """The message id the bot's last message ``text`` in ``chat_id`` quoted, if any."""
    for name, call in reversed(h.tg.calls):
        if name == "SendMessage" and call.get("chat_id") == chat_id and call["text"] == text:
            return (call.get("reply_parameters") or {}).get("message_id")
    raise AssertionError(f"no message {text!r} in {chat_id}")


async def test_stopgame_in_private_ends_a_solo_match(tmp_path):
    """Issue 20 item 4: /stopgame in private is not «only in a group» for a solo match: it
    asks, and the match stops (not rated) with its hand closed."""
    async with Harness(tmp_path) as h:
        h.tg.dm_open.add(OLYA.id)
        await h.say(OLYA, OLYA.id, "/newgame 2")
        match_id = (await h.app.service.store.find_open(OLYA.id, None)).match_id
        await stop(h, OLYA, OLYA.id)
        tr = h.app.tr
        texts = [m.text for m in h.tg.chat(OLYA.id)]
        assert tr.t("ru", "err-group-only") not in texts
        # the question was asked, and is now the word that it stopped, and by whom
        assert tr.t("ru", "match-stopped-by", name="Оля") in texts
        assert (await h.app.service.store.view(match_id)).status == Status.STOPPED
        await h.say(OLYA, OLYA.id, "/stopgame")
        assert h.tg.last(OLYA.id).text == tr.t("ru", "err-no-match-here")


async def test_leave_in_a_solo_match_says_it_ends_the_match(tmp_path):
    """Issue 20 item 4: /leave in a solo match does not promise a computer player in the
    seat: the confirmation says the match ends (nobody is left to play with), and it does."""
    async with Harness(tmp_path) as h:
        h.tg.dm_open.add(OLYA.id)
        await h.say(OLYA, OLYA.id, "/newgame 3")
        match_id = (await h.app.service.store.find_open(OLYA.id, None)).match_id
        await h.say(OLYA, OLYA.id, "/leave")
        tr = h.app.tr
        confirm = h.tg.last(OLYA.id)
        assert confirm.text == tr.t("ru", "leave-confirm-last", name=OLYA.first_name)
        await h.press(OLYA, confirm, text=tr.plain("ru", "btn-leave-yes"))
        assert (await h.app.service.store.view(match_id)).status == Status.STOPPED
        assert tr.t("ru", "match-stopped") in [m.text for m in h.tg.chat(OLYA.id)]
        assert_closed_hands(h, (OLYA,))


async def test_a_second_newgame_points_to_the_open_lobby_or_match(tmp_path):
    """Issue 20 item 4: a second /newgame is answered with where the open one is: in private
    the solo match (quoting its hand message, with /hand and /stopgame), in a group the lobby
    (quoting it) and later the running match (quoting its table)."""
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        h.tg.dm_open.add(OLYA.id)
        await h.say(OLYA, OLYA.id, "/newgame 2")
        solo = await h.app.service.store.find_open(OLYA.id, None)
        hand = (await h.app.publisher.messages(solo.match_id)).hands[OLYA.id].message
        await h.say(OLYA, OLYA.id, "/newgame 3")
        text = tr.t("ru", "err-match-exists-here", id=solo.match_id)
        assert h.tg.last(OLYA.id).text == text
        assert replied_to(h, OLYA.id, text) == hand
        for p in (PETYA, MASHA):
            h.tg.dm_open.add(p.id)
            await h.say(p, p.id, "/start")
        await h.say(PETYA, GROUP, "/newgame")
        lobby = await h.app.service.store.find_open(GROUP, None)
        await h.say(MASHA, GROUP, "/newgame морской")
        text = tr.t("ru", "err-lobby-exists", id=lobby.match_id)
        assert h.tg.last(GROUP).text == text
        books = await h.app.publisher.messages(lobby.match_id)
        assert replied_to(h, GROUP, text) == books.lobby
        await h.say(MASHA, GROUP, "/join")
        await h.say(PETYA, GROUP, "/startgame")
        await h.say(MASHA, GROUP, "/newgame")
        text = tr.t("ru", "err-match-exists", id=lobby.match_id)
        assert h.tg.last(GROUP).text == text
        assert replied_to(h, GROUP, text) == books.table



async def test_a_bare_newgame_in_private_during_a_match_points_to_it(tmp_path):
    """Issue 30 item 12: /newgame with no words in private while a match runs there answers
    as /newgame 3 does — the open match, quoting its hand message, with /hand and /stopgame —
    and shows no set-up menu whose ▶️ would only refuse; nothing else changes."""
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        h.tg.dm_open.add(OLYA.id)
        await h.say(OLYA, OLYA.id, "/newgame 2")
        solo = await h.app.service.store.find_open(OLYA.id, None)
        hand = (await h.app.publisher.messages(solo.match_id)).hands[OLYA.id].message
        before = len(h.tg.chat(OLYA.id))
        await h.say(OLYA, OLYA.id, "/newgame")
        text = tr.t("ru", "err-match-exists-here", id=solo.match_id)
        new = h.tg.chat(OLYA.id)[before:]
        assert [m.text for m in new] == [text]
        assert not any(m.buttons() for m in new)  # no ▶️ to refuse
        assert replied_to(h, OLYA.id, text) == hand
        assert (await h.app.service.store.find_open(OLYA.id, None)).version == solo.version


def test_private_help_names_every_command_of_the_private_menu():
    """Issue 30 item 12: /help in private lists /stopgame (and every other command of the
    private menu but /start and /help themselves); the group's lists the group's menu."""
    from ui.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
    from ui.i18n import get_translator
    from ui.render import render_help

    tr = get_translator()
    for locale in ("ru", "uk", "en"):
        for group, names in ((False, PRIVATE_COMMANDS), (True, GROUP_COMMANDS)):
            text = render_help(locale, is_group=group, tr=tr)
            missing = [n for n in names if n not in ("start", "help")
                       and f"/{n} " not in text and f"/{n}\n" not in text]
            assert missing == [], (locale, group, missing)

# -- item 1: one story for a seat handed to a computer player -------------------------------


def final_lines(text: str) -> list[str]:
    """The numbered lines of a match end or a /history entry («1. …»)."""
    return [line for line in text.splitlines() if line[:1].isdigit() and ". " in line[:4]]


async def test_a_seat_handed_to_a_computer_player_tells_one_story(tmp_path):
    """Issue 20 item 1: a seat a person left is told the same way at the match's end, in
    /history, in the game record and on the boards: at the seat's place, with the seat's
    final score and goat, named «person → computer player», with the round the person left
    in and their 0 rating points (RULES.md §1.16 as for a timed-out player); no place is
    skipped, nobody is dropped."""
    from tests.test_service_leaving import play_on

    async with Harness(tmp_path) as h:
        svc, tr = h.app.service, h.app.tr
        for p in PEOPLE:
            h.tg.dm_open.add(p.id)
            await svc.people.register_user(p.id, p.first_name, dm_open=True)
        res = await svc.lobbies.open_lobby(GROUP, None, OLYA.id, OLYA.first_name,
                                           {"match_limit": 51})
        for p in (PETYA, MASHA):
            res = await svc.lobbies.join(res.match_id, p.id, p.first_name)
        res = await svc.lobbies.start(res.match_id, OLYA.id)
        rng = random.Random(8)
        res = await play_on(svc, res, rng, until=lambda r: len(r.table.chain) >= 3)
        left = await svc.leaving.leave(res.match_id, PETYA.id)
        assert left.ok, left.error
        bot, when = left.handed.bot, left.table.round_no
        end = await play_on(svc, left, rng)
        assert end.status == Status.FINISHED
        await h.app.publisher.publish(end)
        await h.outbox.drain()
        await h.app.publisher.settled()
        seat = next(p for p in end.final.players if p.left == PETYA.first_name)
        label = f"{PETYA.first_name} → {bot}"
        # the match end: every seat at its place, the handed one named as it was played
        shown = next(m.text for m in reversed(h.tg.chat(GROUP)) if "🐐" in m.text)
        lines = final_lines(shown)
        assert len(lines) == 3 and [ln.split(".")[0] for ln in lines] == \
            [str(p.place) for p in sorted(end.final.players, key=lambda p: p.place)]
        mine = next(ln for ln in lines if label in ln)
        assert mine.startswith(f"{seat.place}.") and str(seat.score) in mine
        assert ("🐐" in mine) == seat.goat
        note = tr.t("ru", "match-left-note", name=PETYA.first_name, round=when, bot=bot,
                    gender=bot_gender(bot, tr))
        assert note in shown
        # /history tells the same: the same places, the same label, score and goat
        await h.say(OLYA, GROUP, "/history")
        history = h.tg.last(GROUP).text
        hist = final_lines(history)
        assert [ln.split(".")[0] for ln in hist] == [ln.split(".")[0] for ln in lines]
        hline = next(ln for ln in hist if label in ln)
        assert hline.startswith(f"{seat.place}.") and f"— {seat.score}" in hline
        assert ("🐐" in hline) == seat.goat
        assert tr.t("ru", "hist-left", round=when) in hline and "+0" in hline
        # the record names the seat the same way
        rec = await svc.records.record(end.match_id, OLYA.id, GROUP)
        import json
        assert json.loads(rec.data)["players"][seat.seat] == label
        # the boards and /stats: the person who left has the match, 0 points, no goat
        board = await svc.stats.leaderboard(None)
        row = next(b for b in board if b.user_id == PETYA.id)
        assert (row.matches, row.rating, row.goats) == (1, 0, 0)


# -- item 6: notices that outlived their problem --------------------------------------------


async def test_the_closed_dm_notice_goes_once_the_player_gets_the_tiles(tmp_path):
    """Issue 20 item 6: «Петя не получает свои кости …» leaves the group once Петя opened
    the private chat and his hand reached him."""
    async with Harness(tmp_path) as h:
        for p in (OLYA, PETYA):
            h.tg.dm_open.add(p.id)
            await h.say(p, p.id, "/start")
        await h.say(OLYA, GROUP, "/newgame")
        lobby = h.tg.last(GROUP)
        await h.press(PETYA, lobby, data=lobby.buttons()[0].callback_data)
        h.tg.dm_open.discard(PETYA.id)  # he blocked the bot meanwhile
        await h.say(OLYA, GROUP, "/startgame")
        notice_start = h.app.tr.t("ru", "notice-dm-closed", name=PETYA.first_name)
        notices = [m for m in h.tg.chat(GROUP) if m.text == notice_start]
        assert len(notices) == 1
        h.tg.dm_open.add(PETYA.id)
        await h.say(PETYA, PETYA.id, "/start")
        assert hand_messages(h, PETYA), "the hand arrived"
        assert h.tg.messages[(GROUP, notices[0].message_id)].deleted


async def test_an_old_hand_message_goes_when_a_new_one_takes_the_keyboard(tmp_path):
    """Issue 20 item 6, issue 30 item 13: when a new hand message carries the turn's keyboard
    (/hand sent it again), the old one is deleted, so the private chat keeps one hand
    message; one Telegram will not delete (older than 48 hours) no longer reads «▶️ Ваш
    ход!» with its buttons: it points to the new one."""
    from aiogram.exceptions import TelegramBadRequest

    async with Harness(tmp_path) as h:
        await seated(h, (OLYA, PETYA))
        mover = next(p for p in (OLYA, PETYA) if h.keyboard_message(p) is not None)
        old = h.keyboard_message(mover)
        await h.say(mover, mover.id, "/hand")
        new = h.keyboard_message(mover)
        assert new.message_id != old.message_id
        assert h.tg.messages[(mover.id, old.message_id)].deleted
        assert [m.message_id for m in h.tg.chat(mover.id) if m.move_buttons()] == [
            new.message_id]
        # a message Telegram keeps: it loses its keyboard and points to the newer one
        real = h.tg.answer

        def keep(method, bot):
            if type(method).__name__ == "DeleteMessage":
                raise TelegramBadRequest(method, "Bad Request: message can't be deleted")
            return real(method, bot)

        h.tg.answer = keep
        await h.say(mover, mover.id, "/hand")
        was = h.tg.messages[(mover.id, new.message_id)]
        assert not was.deleted and not was.move_buttons()
        assert h.app.tr.t("ru", "hand-your-turn") not in was.text
        assert was.text == h.app.tr.t("ru", "hand-moved-on")


# -- item 7: private /stats and a match with a computer player ------------------------------


async def test_private_stats_say_why_a_match_with_a_computer_player_is_not_counted(tmp_path):
    """Issue 20 item 7: a group match with a computer player is in the player's /history but
    on no board private /stats reads (the group's board leaves it out by default); /stats
    says so instead of only «пока ни одной доигранной партии»."""
    from tests.test_service_leaving import play_on

    async with Harness(tmp_path) as h:
        svc, tr = h.app.service, h.app.tr
        for p in (OLYA, PETYA):
            h.tg.dm_open.add(p.id)
            await svc.people.register_user(p.id, p.first_name, dm_open=True)
        res = await svc.lobbies.open_lobby(GROUP, None, OLYA.id, OLYA.first_name,
                                           {"match_limit": 51})
        await svc.lobbies.join(res.match_id, PETYA.id, PETYA.first_name)
        await svc.lobbies.add_bot(res.match_id, OLYA.id, "easy")
        res = await svc.lobbies.start(res.match_id, OLYA.id)
        end = await play_on(svc, res, random.Random(3))
        assert end.status == Status.FINISHED
        await h.say(OLYA, OLYA.id, "/history")
        assert f"#{end.match_id}" in h.tg.last(OLYA.id).text
        await h.say(OLYA, OLYA.id, "/stats")
        text = h.tg.last(OLYA.id).text
        assert tr.t("ru", "pstats-bots-elsewhere", count=1) in text
        # in the group, as before: its board leaves such matches out and says so
        await h.say(OLYA, GROUP, "/stats")
        assert tr.t("ru", "pstats-bots-left-out") in h.tg.last(GROUP).text


# -- item 15: what a SIGKILL leaves behind ----------------------------------------------------


async def test_a_keyboard_a_sigkill_kept_from_the_books_closes_when_pressed(tmp_path):
    """Issue 20 item 15: /hand sends a new hand message with the keyboard, and the process
    is SIGKILLed before its id is stored, so the restarted bot cannot know that message.  Its
    owner presses it: the move counts (it is the current version), and that message is then
    closed at once instead of keeping its old keyboard beside the next one."""
    async with Harness(tmp_path) as h:
        match_id = await seated(h, (OLYA, PETYA))
        mover = next(p for p in (OLYA, PETYA) if h.keyboard_message(p) is not None)
        first = h.keyboard_message(mover).message_id
        stored = await h.app.service.messages.load(match_id)
        await h.say(mover, mover.id, "/hand")
        orphan = h.keyboard_message(mover)
        assert orphan.message_id != first
    async with _restarted(h, tmp_path) as h2:
        await _heal(h2, match_id, stored)  # as the killed process left them
        version = (await h2.app.service.store.view(match_id)).version
        text, alert, _ = await h2.press(mover, orphan,
                                        data=orphan.move_buttons()[0].callback_data)
        assert not alert
        assert (await h2.app.service.store.view(match_id)).version == version + 1
        assert not h2.tg.messages[(mover.id, orphan.message_id)].move_buttons()
        h2.the_live_keyboard((OLYA, PETYA))  # exactly one keyboard, the other player's


async def test_a_restart_closes_a_keyboard_a_sigkill_kept_from_the_books(tmp_path):
    """Issue 20 item 15: a new hand message with the turn's keyboard is recorded before it
    is sent (the books with the newest id they know in that chat, stored first), so when the
    process is SIGKILLed after the send and before its id is stored, the restart closes that
    message before it shows the turn anew: never two live keyboards, and no orphan left."""
    async with Harness(tmp_path) as h:
        match_id = await seated(h, (OLYA, PETYA))
        mover = next(p for p in (OLYA, PETYA) if h.keyboard_message(p) is not None)
        first = h.keyboard_message(mover).message_id
        saves: list[tuple[int, dict]] = []
        real_save = h.app.service.messages.save

        async def spy(mid: int, data: dict) -> bool:
            saves.append((len(h.tg.calls), dict(data)))
            return await real_save(mid, data)

        h.app.service.messages.save = spy
        n = len(h.tg.calls)
        await h.say(mover, mover.id, "/hand")
        orphan = h.keyboard_message(mover)
        assert orphan.message_id != first
        sent_at = next(i for i, (name, call) in enumerate(h.tg.calls) if i >= n
                       and name == "SendMessage" and call.get("chat_id") == mover.id)
        # the intent, stored before the send was made: the orphan's id is not in it
        at, killed = next((at, d) for at, d in saves if f"sending:{mover.id}" in d)
        assert at <= sent_at and killed[f"sending:{mover.id}"] == first
        assert orphan.message_id not in {v.get("id") for k, v in killed.items()
                                         if k.startswith("hand:")}
        # once the id is known, the intent is gone from the books
        assert f"sending:{mover.id}" not in await h.app.service.messages.load(match_id)
    async with _restarted(h, tmp_path) as h2:
        n = await _heal(h2, match_id, killed)  # as the killed process left them
        assert not h2.tg.messages[(mover.id, orphan.message_id)].move_buttons()
        person, live = h2.the_live_keyboard((OLYA, PETYA))
        assert person == mover and live.message_id > orphan.message_id
        # the orphan lost its keyboard before the new one was sent
        names = [(name, call.get("message_id")) for name, call in h2.tg.calls[n:]
                 if call.get("chat_id") == mover.id]
        closed = names.index(("EditMessageReplyMarkup", orphan.message_id))
        assert closed < next(i for i, (name, _) in enumerate(names) if name == "SendMessage")
        assert f"sending:{mover.id}" not in await h2.app.service.messages.load(match_id)


async def test_a_restart_after_every_keyboard_arrived_probes_no_private_chat(tmp_path):
    """Issue 20 item 15: a hand message with the turn's keyboard is recorded before it is
    sent (``sending:<user>`` in the stored books), and that record goes in the same write
    that stores the message's id, even while a send to the group is slow (here the table's
    picture is held back, as a process's first picture or the group's 20 a minute hold it).
    So when the process dies at a moment when every private message had arrived, the
    restart probes no message id in any private chat: nothing there is unaccounted for.
    (Before, the books were stored only once every send of the match was done, so the
    records of every player's keyboard stayed, and each restart edited two or three ids
    in each private chat that answered «message to edit not found».)"""
    import asyncio

    from aiogram.methods import EditMessageReplyMarkup, SendPhoto

    people = (OLYA, PETYA, MASHA)
    async with Harness(tmp_path) as h:
        for p in people:
            h.tg.dm_open.add(p.id)
            await h.say(p, p.id, "/start")
        await h.say(OLYA, GROUP, "/newgame")
        lobby = h.tg.last(GROUP)
        for p in people[1:]:
            await h.press(p, lobby, data=lobby.buttons()[0].callback_data)
        release, holding = asyncio.Event(), []
        real_request = h.bot.session.make_request

        async def slow(bot, method, timeout=None):
            if isinstance(method, SendPhoto) and int(method.chat_id) == GROUP:
                holding.append(method)  # the group's table picture: held back
                await release.wait()
            return await real_request(bot, method, timeout)

        async def quiet(update) -> None:
            # the update handled and every private chat's messages out (not the group's)
            await h.dp.feed_update(h.bot, update)
            for _ in range(2000):
                if all(h.outbox.pending(p.id) == 0 for p in people) and (
                        holding or h.outbox.pending(GROUP) == 0):
                    return
                await asyncio.sleep(0.005)

        h.bot.session.make_request, real_feed, h.feed = slow, h.feed, quiet
        await h.say(OLYA, GROUP, "/startgame")
        match_id = (await h.app.service.store.find_open(GROUP, None)).match_id
        await play_some(h, people, 6)
        assert holding and not release.is_set()  # the table's picture is still on its way

        def current() -> dict[int, int]:
            return {p.id: hand_messages(h, p)[-1].message_id for p in people}

        # the killed process's books: what was stored once every private message arrived
        # (the ids are stored as they come, so this wait is short)
        for _ in range(1000):
            killed = await h.app.service.messages.load(match_id)
            if all(killed.get(f"hand:{uid}", {}).get("id") == mid
                   for uid, mid in current().items()):
                break
            await asyncio.sleep(0.01)
        release.set()
        h.feed = real_feed
    async with _restarted(h, tmp_path) as h2:
        n = await _heal(h2, match_id, killed)  # as the killed process left them
        probed = [(call["chat_id"], call["message_id"]) for name, call in h2.tg.calls[n:]
                  if name == EditMessageReplyMarkup.__name__ and call["chat_id"] > 0]
        assert probed == [], probed
        h2.the_live_keyboard(people)


async def test_a_restart_makes_a_keyboard_edit_a_sigkill_cut_short(tmp_path):
    """Issue 20 item 15: a player is to act again on the message they just pressed (everyone
    else knocked, or they lead the next round, RULES.md §1.6), so the bot edits that known
    hand message to the new turn's keyboard.  The books it stores say the message holds
    this version's keyboard, marked ``unsure`` until the edit is known to be made; here the
    edit never reaches Telegram (as when a SIGKILL cuts it off), so the message still shows
    the keyboard of the version the player pressed, which answers «outdated».  The restart
    finds the mark in the stored books and makes the edit: the player's one keyboard is the
    current one (before, the books were trusted and the turn had no working buttons)."""
    from aiogram.exceptions import TelegramBadRequest
    from aiogram.methods import EditMessageText

    from ui.callbacks import parse_callback

    rng = random.Random(3)
    pressed: dict[str, int] = {}
    cut: list[int] = []
    real_answer = None

    def answer(method, bot):
        # the edit of the pressed message to a new keyboard: cut off, as by a SIGKILL
        if isinstance(method, EditMessageText) and not cut \
                and int(method.chat_id) == pressed.get("chat") \
                and method.message_id == pressed.get("message") \
                and method.reply_markup is not None and any(
                    (b.callback_data or "").startswith(("m1:", "p1:"))
                    for row in method.reply_markup.inline_keyboard for b in row):
            cut.append(method.message_id)
            raise TelegramBadRequest(method, "Bad Request: never made")
        return real_answer(method, bot)

    def shown_version(msg) -> int:
        return int(parse_callback(msg.move_buttons()[0].callback_data).ver)

    async with Harness(tmp_path) as h:
        match_id = await seated(h, (OLYA, PETYA))
        real_answer, h.tg.answer = h.tg.answer, answer
        while not cut:
            view = await h.app.service.store.view(match_id)
            assert view.status == Status.PLAYING, "no player was to act again on a pressed message"
            person, msg = h.the_live_keyboard((OLYA, PETYA))
            pressed.update(chat=person.id, message=msg.message_id)
            await h.press(person, msg, data=rng.choice(msg.move_buttons()).callback_data)
        h.tg.answer = real_answer
        view = await h.app.service.store.view(match_id)
        mover = person
        assert view.hand_for(mover.id).your_turn  # the mover is to act again...
        stale = h.tg.messages[(mover.id, msg.message_id)]
        assert shown_version(stale) < view.version  # ...but sees the keyboard they pressed
        stored = (await h.app.service.messages.load(match_id))[f"hand:{mover.id}"]
        # the books say it holds the new keyboard, but not that the edit was made
        assert (stored["id"], stored["version"], stored.get("unsure")) == (
            msg.message_id, view.version, 1)
    async with _restarted(h, tmp_path) as h2:
        await _heal(h2)
        person, live = h2.the_live_keyboard((OLYA, PETYA))
        assert (person, live.message_id) == (mover, msg.message_id)
        assert shown_version(live) == view.version
        assert "unsure" not in (await h2.app.service.messages.load(match_id))[
            f"hand:{mover.id}"]


async def _command(h: Harness, person: Person, text: str):
    """The message of ``person`` typing the command ``text`` in their private chat."""
    import time

    from aiogram.types import Message, MessageEntity

    return Message(message_id=800000, date=int(time.time()),
                   chat=Chat(id=person.id, type="private", first_name=person.first_name),
                   from_user=person.user, text=text,
                   entities=[MessageEntity(type="bot_command", offset=0, length=len(text))])


async def test_a_players_telegram_language_survives_a_restart(tmp_path):
    """A person who never chose a language with /lang is spoken to in the language their
    Telegram reports (``language_code``).  The bot is restarted mid-match and, before she
    writes or presses anything, shows the match again: her hand message is still in English
    (the code was kept in memory only, so the restart spoke Russian to her)."""
    anna = Person(34, "Anna", language_code="en")
    english, russian = "Your tiles", "Ваши кости"
    async with Harness(tmp_path) as h:
        await seated(h, (OLYA, anna))
        assert english in h.tg.chat(anna.id)[-1].text
    async with _restarted(h, tmp_path) as h2:
        assert h2.app.languages.telegram == {}  # nothing of the killed process's memory
        assert await h2.app.languages.of_user(anna.id) == "en"
        assert await h2.app.languages.of_user(OLYA.id) == "ru"
        await _heal(h2)
        hands = [m for m in h2.tg.chat(anna.id) if english in m.text or russian in m.text]
        assert hands and all(english in m.text for m in hands), [m.text for m in hands]
        # the other player's stays Russian, as her Telegram says
        assert russian in next(m.text for m in reversed(h2.tg.chat(OLYA.id))
                               if english in m.text or russian in m.text)


# -- issue 30 item 6: a stopped match says so, and who stopped it -----------------------------


@pytest.mark.parametrize("view", ["picture", "text"])
async def test_a_stopped_match_says_it_was_stopped_by_whom_without_rating(tmp_path, view):
    """/stopgame mid-match: the table no longer reads «Партия окончена» (a played-out
    match's words) but that it was stopped, by whom, without rating — on the picture (its
    title and note) and in the text table — and the question «Остановить партию?» is
    edited into who stopped it, not left with its old words and no buttons."""
    from ui.picture import picture_labels

    async with Harness(tmp_path, table_view=view) as h:
        match_id = await seated(h, (OLYA, PETYA))
        await play_some(h, (OLYA, PETYA), 3)
        await stop(h, OLYA, GROUP)
        res = await h.app.service.store.view(match_id)
        assert res.status == Status.STOPPED and res.final.stopped_by == "Оля"
        tr = h.app.tr
        question = [m for m in h.tg.chat(GROUP) if m.text == tr.t("ru", "match-stopped-by",
                                                                   name="Оля")]
        assert len(question) == 1 and not question[0].buttons()
        assert not [m for m in h.tg.chat(GROUP) if m.text == tr.t("ru", "match-stop-confirm")]
        table = (await h.app.messages(match_id)).id_of("table")
        shown = h.tg.messages[(GROUP, table)]
        if view == "picture":
            labels = " ".join(picture_labels(shown.photo))  # (long lines wrap)
            assert tr.plain("ru", "pic-match-stopped") in labels
            assert tr.plain("ru", "pic-match-over") not in labels
            for part in tr.plain("ru", "pic-stopped-by", name="Оля").split(" · "):
                assert part in labels  # «Остановка: Оля», «без рейтинга»
        words = shown.text  # the caption, or the text table
        assert "Оля останавливает партию. Рейтинг не начислен." in words
        assert tr.t("ru", "table-match-over") not in words
