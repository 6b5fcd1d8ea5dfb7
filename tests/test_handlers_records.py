"""Players' records through the real routers (issue 15, issue 12): /history and its pages,
/top and /stats per game with their buttons, the record button under every variant's match
end and its round trip, records sent back (good and bad), /leave during a match and the
group's answer when a player's turns time out — in ru, uk and en."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import records as engine_records
from service.views import Status
from tests.botkit import Harness, Person, Sent
from tests.test_service_records import SHORT, snapshot

GROUP = -100777
OLYA = Person(11, "Оля")
PETYA = Person(12, "Петя")
MASHA = Person(13, "Маша")
_OLYA, _PETYA, _MASHA = OLYA, PETYA, MASHA
ANN = Person(14, "Ann", "en")


async def finish(h: Harness, variant: str = "classic", *, chat: int = GROUP,
                 people=(OLYA, PETYA, MASHA), seed: int = 1, publish: bool = True):
    """A match of ``variant`` in ``chat`` played to its end through the service with random
    legal moves; its last result is published (the match end with its buttons)."""
    svc = h.app.service
    rules = {"variant": variant, **SHORT.get(variant, {})}
    full = engine.Rules.from_json(rules)
    if full.spec.players_range(full)[0] == 4 and len(people) < 4:
        people = (OLYA, PETYA, MASHA, ANN)
    for p in people:
        h.tg.dm_open.add(p.id)
        await svc.people.register_user(p.id, p.first_name, dm_open=True)
    res = await svc.lobbies.open_lobby(chat, None, people[0].id, people[0].first_name, rules)
    for p in people[1:]:
        res = await svc.lobbies.join(res.match_id, p.id, p.first_name)
    res = await svc.lobbies.start(res.match_id, people[0].id)
    rng = random.Random(seed)
    while res.status == Status.PLAYING:
        hand = next(x for x in res.hands if x.your_turn)
        res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal), None,
                                 res.version)
        assert res.ok, res.detail
    if publish:
        await h.app.publisher.publish(res)
        await h.outbox.drain()
        await h.app.publisher.settled()
    return res


def _end_message(h: Harness, chat: int = GROUP):
    return next(m for m in reversed(h.tg.chat(chat)) if "🐐" in m.text or "🏁" in m.text
                and m.buttons())


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
async def test_the_record_button_under_every_variants_end_round_trips(tmp_path, variant):
    async with Harness(tmp_path) as h:
        res = await finish(h, variant, seed=len(variant))
        end = _end_message(h)
        label = h.app.tr.plain("ru", "btn-record")
        assert label in [b.text for b in end.buttons()]
        text, alert, _ = await h.press(PETYA, end, text=label)
        assert not alert and f"#{res.match_id}" in text
        doc = h.tg.last(PETYA.id)
        assert doc.filename == f"kozel-{variant}-{res.match_id}.json"
        assert f"#{res.match_id}" in doc.text  # the caption
        out = engine_records.replay(json.loads(doc.document))
        rows = [p for p in res.final.players]
        for p in rows:
            assert p.rating == out["rating"][p.side] and p.goat == (p.side in out["goats"])
        # the round trip: the downloaded record sent back in private replays to the stored
        # result
        await h.send_document(PETYA, PETYA.id, doc.document, file_name=doc.filename)
        check = h.tg.last(PETYA.id).text
        assert check.startswith("✅") and f"#{res.match_id}" in check
        assert h.app.tr.t("ru", "chk-stored-same", id=res.match_id) in check


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_history_pages_and_records_in_each_language(tmp_path, lang):
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        await h.app.service.people.update_chat(GROUP, title="Двор", language=lang)
        for p in (OLYA, PETYA, MASHA):
            await h.app.service.people.register_user(p.id, p.first_name, language=lang)
        for seed in range(7):
            await finish(h, seed=seed, publish=False)
        await h.say(OLYA, GROUP, "/history")
        first = h.tg.last(GROUP)
        assert first.text.startswith(tr.t(lang, "hist-title-chat", total=7))
        assert tr.t(lang, "hist-page", page=1, pages=2) in first.text
        labels = [b.text for b in first.buttons()]
        assert labels[:5] == [tr.plain(lang, "btn-record-n", id=i) for i in (7, 6, 5, 4, 3)]
        assert labels[5:] == [tr.plain(lang, "btn-older")]
        await h.press(PETYA, first, text=tr.plain(lang, "btn-older"))
        second = h.tg.messages[(GROUP, first.message_id)]
        assert tr.t(lang, "hist-page", page=2, pages=2) in second.text
        assert [b.text for b in second.buttons()] == [
            tr.plain(lang, "btn-record-n", id=i) for i in (2, 1)] + [tr.plain(lang,
                                                                            "btn-newer")]
        await h.press(MASHA, second, text=tr.plain(lang, "btn-record-n", id=1))
        assert h.tg.last(MASHA.id).filename == "kozel-classic-1.json"
        # the person's own history in private names the chat
        await h.say(OLYA, OLYA.id, "/history")
        mine = h.tg.last(OLYA.id)
        assert mine.text.startswith(tr.t(lang, "hist-title-user", total=7))
        assert tr.t(lang, "hist-where-chat", chat="Двор") in mine.text
        # /record: the newest, a number, a number of another chat, garbage
        await h.say(OLYA, GROUP, "/record")
        assert h.tg.last(OLYA.id).filename == "kozel-classic-7.json"
        assert h.tg.last(GROUP).text == tr.t(lang, "rec-sent", id=7)
        await h.say(OLYA, GROUP, "/record #3")
        assert h.tg.last(OLYA.id).filename == "kozel-classic-3.json"
        await h.say(ANN, -5, "/record 3")
        # -5, a group the bot never saw, speaks Ann's language (issue 30 item 8)
        assert h.tg.last(-5).text == tr.t(ANN.language_code, "err-record-foreign")
        await h.say(OLYA, GROUP, "/record abc")
        assert h.tg.last(GROUP).text == tr.t(lang, "err-record-usage")
        await h.say(OLYA, GROUP, "/record 999")  # no such match: said so (issue 20 item 10)
        assert h.tg.last(GROUP).text == tr.t(lang, "err-record-none", id=999)
        assert "999" in h.tg.last(GROUP).text


async def test_a_record_for_someone_whose_dm_is_closed_opens_it_first(tmp_path):
    async with Harness(tmp_path) as h:
        res = await finish(h)
        stranger = Person(40, "Гость")
        end = _end_message(h)
        _, _, url = await h.press(stranger, end, text=h.app.tr.plain("ru", "btn-record"))
        payload = url.split("?start=")[1]
        assert payload.startswith(f"r{res.match_id}_") and len(payload) <= 64
        assert not h.tg.chat(stranger.id)
        h.tg.dm_open.add(stranger.id)
        await h.say(stranger, stranger.id, f"/start {payload}")
        assert h.tg.last(stranger.id).filename == f"kozel-classic-{res.match_id}.json"


async def test_a_record_link_granted_before_a_restart_works_after_it(tmp_path):
    """Issue 20 item 15: the link a stranger got in the match's chat (their DM closed) still
    sends the record after the bot restarted; the same link forged for another person, or
    without its signature, does not."""
    async with Harness(tmp_path) as h:
        res = await finish(h)
        stranger = Person(40, "Гость")
        end = _end_message(h)
        _, _, url = await h.press(stranger, end, text=h.app.tr.plain("ru", "btn-record"))
    payload = url.split("?start=")[1]
    async with Harness(tmp_path) as h:  # the same database, a new process
        tr = h.app.tr
        other = Person(41, "Чужой")
        for p in (stranger, other):
            h.tg.dm_open.add(p.id)
        await h.say(other, other.id, f"/start {payload}")
        assert h.tg.last(other.id).text == tr.t("ru", "err-record-foreign", id=res.match_id)
        await h.say(stranger, stranger.id, f"/start r{res.match_id}")
        assert h.tg.last(stranger.id).text == tr.t("ru", "err-record-foreign",
                                                    id=res.match_id)
        await h.say(stranger, stranger.id, f"/start {payload}")
        assert h.tg.last(stranger.id).filename == f"kozel-classic-{res.match_id}.json"


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_bad_record_files_get_an_answer_and_change_nothing(tmp_path, lang):
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        user = Person(21, "Олег", lang)
        h.tg.dm_open.add(user.id)
        await h.say(user, user.id, "/start")
        await finish(h, publish=False)
        good = json.loads((await h.app.service.records.record(1, OLYA.id, GROUP)).data)
        bad_move = json.loads(json.dumps(good))
        rnd = bad_move["rounds"][0]
        rnd["decisions"][1] = {"tile": rnd["deal"]["hands"][rnd["decisions"][1].get(
            "seat", 0)][0], "end": "left"}
        before = await snapshot(h.app.service)
        calls = len(h.tg.calls)
        await h.send_document(user, user.id, b"x" * 10, file_size=10 * 1024 * 1024)
        assert h.tg.last(user.id).text == tr.t(lang, "chk-err-size", size=10 * 1024 * 1024,
                                               limit=engine_records.MAX_RECORD_BYTES)
        assert "GetFile" not in {name for name, _ in h.tg.calls[calls:]}  # not downloaded
        await h.send_document(user, user.id, b"{nope")
        assert h.tg.last(user.id).text == tr.t(lang, "chk-err-json")
        await h.send_document(user, user.id, json.dumps({**good, "players": 3}).encode())
        assert h.tg.last(user.id).text.startswith(tr.t(lang, "chk-err-format"))
        await h.send_document(user, user.id, json.dumps(
            {**good, "rules": {"variant": "burro"}}).encode())
        assert h.tg.last(user.id).text == tr.t(lang, "chk-err-variant", variant="burro")
        await h.send_document(user, user.id, json.dumps(bad_move).encode())
        text = h.tg.last(user.id).text
        assert text.startswith("❌") and "§1.7" in text
        # /replay in reply to a file, and without one
        sent = await h.send_document(user, user.id, json.dumps(good).encode(),
                                     caption="какой-то файл")
        await h.say(user, user.id, "/replay", reply_to=sent)
        assert h.tg.last(user.id).text.startswith("✅")
        await h.say(user, user.id, "/replay")
        assert h.tg.last(user.id).text == tr.t(lang, "chk-hint")
        assert await snapshot(h.app.service) == before


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_top_and_stats_per_game_with_buttons(tmp_path, lang):
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        await h.app.service.people.update_chat(GROUP, language=lang)
        await finish(h, publish=False)
        await finish(h, "sea_goat", publish=False)
        game = tr.plain(lang, "variant-name", variant="classic")
        await h.say(OLYA, GROUP, "/top")
        board = h.tg.last(GROUP)
        assert board.text.startswith(tr.t(lang, "board-title-chat", variant=game))
        assert tr.t(lang, "board-counts-fair") in board.text
        for p in (OLYA, PETYA, MASHA):
            assert p.first_name in board.text
        sea = tr.plain(lang, "variant-name", variant="sea_goat")
        await h.press(PETYA, board, text=sea)
        shown = h.tg.messages[(GROUP, board.message_id)].text
        assert shown.startswith(tr.t(lang, "board-title-chat", variant=sea))
        await h.say(OLYA, GROUP, "/top all sea_goat")
        assert h.tg.last(GROUP).text.startswith(tr.t(lang, "board-title-global", variant=sea))
        # a game by any of its names, every chat's board by a word of the reader's language
        for words in ("все Морской козёл", "всі морський", "all Sea_Goat"):
            await h.say(OLYA, GROUP, f"/top {words}")
            assert h.tg.last(GROUP).text.startswith(
                tr.t(lang, "board-title-global", variant=sea)), words
        await h.say(OLYA, GROUP, "/stats морской")
        assert h.tg.last(GROUP).text.startswith(
            tr.t(lang, "pstats-title", name="Оля", variant=sea))
        await h.say(OLYA, GROUP, "/top burro")
        assert h.tg.last(GROUP).text.startswith(tr.t(lang, "err-bad-variant", list="")[:8])
        assert sea in h.tg.last(GROUP).text  # the games by their names in the reader's words
        await h.say(OLYA, GROUP, "/stats")
        stats = h.tg.last(GROUP)
        assert stats.text.startswith(tr.t(lang, "pstats-title", name="Оля", variant=game))
        assert sea in stats.text  # the other game played
        await h.press(OLYA, stats, text=sea)
        assert h.tg.messages[(GROUP, stats.message_id)].text.startswith(
            tr.t(lang, "pstats-title", name="Оля", variant=sea))


async def test_the_chats_board_counts_bot_matches_when_its_admins_allow_it(tmp_path):
    async with Harness(tmp_path) as h:
        svc = h.app.service
        h.tg.dm_open.add(OLYA.id)
        res = await svc.lobbies.open_lobby(GROUP, None, OLYA.id, "Оля", {"match_limit": 51})
        await svc.lobbies.add_bot(res.match_id, OLYA.id, "easy")
        res = await svc.lobbies.start(res.match_id, OLYA.id)
        rng = random.Random(1)
        while res.status == Status.PLAYING:
            if res.table.seats[res.table.to_act].bot:
                res = await svc.play.bot_move(res.match_id, res.version)
            else:
                hand = res.hands[res.table.to_act]
                res = await svc.play.act(res.match_id, OLYA.id, rng.choice(hand.legal), None,
                                         res.version)
        await h.say(OLYA, GROUP, "/top")
        assert "Оля" not in h.tg.last(GROUP).text
        # /stats says why her only match is not counted here
        await h.say(OLYA, GROUP, "/stats")
        assert h.tg.last(GROUP).text.endswith(h.app.tr.t("ru", "pstats-bots-left-out"))
        h.tg.admins[GROUP] = {OLYA.id}
        await h.say(OLYA, GROUP, "/settings")
        menu = h.tg.last(GROUP)
        label = h.app.tr.plain("ru", "settings-bot-matches")
        button = next(b for b in menu.buttons() if b.text.startswith(label))
        await h.press(OLYA, menu, data=button.callback_data)
        choices = h.tg.messages[(GROUP, menu.message_id)]
        await h.press(OLYA, choices, text=h.app.tr.plain("ru", "opt-bot-matches", value="yes"))
        await h.say(OLYA, GROUP, "/top")
        top = h.tg.last(GROUP).text
        assert "Оля" in top and h.app.tr.t("ru", "board-counts-bots") in top
        await h.say(OLYA, GROUP, "/top all")
        assert "Оля" not in h.tg.last(GROUP).text  # never on the global board


async def _started(h: Harness, lang: str, people) -> None:
    """A match of ``people`` started through the group's commands, in a chat speaking
    ``lang``; everyone's private chat is open."""
    await h.app.service.people.update_chat(GROUP, language=lang)
    for p in people:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")
    await h.say(people[0], GROUP, "/newgame")
    for p in people[1:]:
        await h.say(p, GROUP, "/join")
    await h.say(people[0], GROUP, "/startgame")


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_leave_during_a_match_after_a_confirmation(tmp_path, lang):
    OLYA, PETYA, MASHA = (Person(p.id, p.first_name, lang) for p in (_OLYA, _PETYA, _MASHA))
    async with Harness(tmp_path) as h:
        svc = h.app.service
        await _started(h, lang, (OLYA, PETYA, MASHA))
        await h.say(Person(50, "Зритель", lang), GROUP, "/leave")
        assert h.tg.last(GROUP).text == h.app.tr.t(lang, "err-not-joined")
        await h.say(PETYA, GROUP, "/leave")
        confirm = h.tg.last(GROUP)
        assert confirm.text == h.app.tr.t(lang, "leave-confirm", name="Петя")
        text, alert, _ = await h.press(OLYA, confirm, text=h.app.tr.plain(lang,
                                                                           "btn-leave-yes"))
        assert alert and text == h.app.tr.plain(lang, "err-not-your-leave")
        await h.press(PETYA, confirm, text=h.app.tr.plain(lang, "btn-leave-yes"))
        notice = h.tg.last(GROUP).text
        assert notice.startswith("🚪 Петя") and "🤖" in notice
        found = await svc.store.find_open(GROUP, None)
        assert found.table.seats[1].bot == "normal" and found.hand_for(PETYA.id) is None
        # the button of the private keyboard: the player to act now (after the computer
        # player's move, if it is to act; the harness runs no deadline sweeper)
        while not any(h.keyboard_message(p) for p in (OLYA, MASHA)):
            found = await svc.play.bot_move(found.match_id, found.version)
            await h.app.publisher.publish(found)
            await h.outbox.drain()
            await h.app.publisher.settled()
        mover = next(p for p in (OLYA, MASHA) if h.keyboard_message(p) is not None)
        msg = h.keyboard_message(mover)
        leave = h.app.tr.plain(lang, "btn-leave-match")
        assert leave in [b.text for b in msg.buttons()]
        await h.press(mover, msg, text=leave)
        ask = h.tg.last(mover.id)
        assert ask.text.startswith(h.app.tr.t(lang, "leave-confirm", name=mover.first_name))
        await h.press(mover, ask, text=h.app.tr.plain(lang, "btn-leave-no"))
        assert h.tg.messages[(mover.id, ask.message_id)].text == h.app.tr.t(lang, "leave-kept")
        await h.say(mover, mover.id, "/leave")
        await h.press(mover, h.tg.last(mover.id), text=h.app.tr.plain(lang, "btn-leave-yes"))
        found = await svc.store.find_open(GROUP, None)
        assert found.hand_for(mover.id) is None and found.status == Status.PLAYING
        # the last person leaving stops the match
        last_one = next(p for p in (OLYA, MASHA) if p != mover)
        await h.say(last_one, GROUP, "/leave")
        await h.press(last_one, h.tg.last(GROUP), text=h.app.tr.plain(lang, "btn-leave-yes"))
        assert (await svc.store.find_open(GROUP, None)).ok is False
        last = h.tg.chat(GROUP)[-1].text
        assert last == h.app.tr.t(lang, "match-stopped")


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
async def test_the_group_answers_when_a_players_turns_time_out(tmp_path, lang):
    OLYA, PETYA, MASHA = (Person(p.id, p.first_name, lang) for p in (_OLYA, _PETYA, _MASHA))
    async with Harness(tmp_path) as h:
        svc = h.app.service
        await _started(h, lang, (OLYA, PETYA, MASHA))
        found = await svc.store.find_open(GROUP, None)
        absent = found.table.to_act
        while True:  # the absent player's turns time out; the others play at once
            res = await svc.play.host_move(found.match_id, found.version)
            await h.app.publisher.publish(res)
            if res.hold is not None:
                break
            rng = random.Random(2)
            while res.table.to_act != absent:
                hand = res.hands[res.table.to_act]
                res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal), None,
                                         res.version)
                await h.app.publisher.publish(res)
            found = res
        await h.outbox.drain()
        await h.app.publisher.settled()
        who = res.table.seats[absent]
        question = h.tg.last(GROUP)
        assert question.text.startswith("⏱ " + who.name)
        me = next(p for p in (OLYA, PETYA, MASHA) if p.id == who.user_id)
        other = next(p for p in (OLYA, PETYA, MASHA) if p.id != who.user_id)
        bot_button = h.app.tr.plain(lang, "btn-hold-bot")
        text, alert, _ = await h.press(me, question, text=bot_button)
        assert alert and text == h.app.tr.plain(lang, "err-hold-not-yours")
        # an admin of another group pressing the same button there changes nothing
        eve = Person(77, "Ева", lang)
        h.tg.admins[-100999] = {eve.id}
        forged = next(b.callback_data for b in question.buttons() if b.text == bot_button)
        before = await svc.store.view(found.match_id)
        for data in (forged, forged.replace(":bot", ":end")):
            text, alert, _ = await h.press(eve, Sent(-100999, 1, "", None), data=data)
            # that chat's: a group the bot never saw speaks Eve's language (issue 30 item 8)
            assert alert and text == h.app.tr.plain(lang, "err-other-chat")
        assert (await svc.store.view(found.match_id)).version == before.version
        await h.press(other, question, text=bot_button)
        answered = h.tg.messages[(GROUP, question.message_id)]
        assert answered.text == h.app.tr.t(lang, "hold-bot", name=who.name)
        assert not answered.buttons()
        # the group chose: nobody is told the absent player left by their own choice
        leave_notice = h.app.tr.t(lang, "leave-notice", name=who.name, bot="")[:20]
        assert not any(m.text.startswith(leave_notice) for m in h.tg.chat(GROUP))
        now = await svc.store.find_open(GROUP, None)
        assert now.table.seats[absent].bot == "normal" and now.hold is None
        text, alert, _ = await h.press(other, question, data=question.buttons()[0].callback_data
                                       if question.buttons() else
                                       f"k1:{now.match_id}:{res.version}:end")
        assert alert  # answered already: stale
