"""The group's table as a picture through the real routers and publisher (issue 14): a photo
with its caption, edited in place after every move, closed with the hands at the round's end;
drawn from the group's views only, off the event loop, once per state; the per-chat setting;
and when a picture fails, the text table in its place with nothing lost."""

from __future__ import annotations

import random
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import engine
from delivery import pictures as table_photo
from tests.botkit import Harness, Sent
from tests.test_handlers import GROUP, OLYA, PETYA, books, current, restarted, seated
from ui import render
from ui.callbacks import SettingsCb
from ui.caption import render_caption
from ui.picture import render_table_png

PEOPLE = (OLYA, PETYA)


def is_png(data: bytes | None) -> bool:
    return data is not None and data.startswith(b"\x89PNG\r\n\x1a\n")


async def table_message(h: Harness, match_id: int) -> Sent:
    stored = await books(h, match_id)
    return h.tg.messages[(GROUP, stored.table)]


async def press(h: Harness, match_id: int, rng: random.Random) -> tuple:
    """The seat to act presses a random move button (not "leave"); (state before, after)."""
    before = await current(h, match_id)
    person = PEOPLE[before.to_act]
    msg = h.keyboard_message(person)
    await h.press(person, msg, data=rng.choice(msg.move_buttons()).callback_data)
    return before, await current(h, match_id)


async def to_the_next_round(h: Harness, match_id: int, rng: random.Random,
                            each: Callable[[Any], Awaitable[None]]) -> Any:
    """Press until the next round's table opens with its lead; ``await each(result)`` after
    every move that left the round going.  The last result (skips the test if the match
    ended in its first round)."""
    round_no = (await current(h, match_id)).round_no
    while True:
        _before, after = await press(h, match_id, rng)
        if after.finished:
            pytest.skip("the match ended in its first round")
        res = await h.app.service.store.view(match_id)
        if res.table.round_no != round_no and res.table.layout.line:
            return res
        if after.round_no == round_no:
            await each(res)


def picture_of(view) -> bytes:
    """The group's picture of a table view, as the bot draws it (the closing picture when
    the round is scored)."""
    return render_table_png(view, locale="ru", summary=view.summary)


async def test_the_table_is_a_photo_edited_in_place_and_closed_with_the_hands(tmp_path):
    rng = random.Random(11)
    async with Harness(tmp_path) as h:
        match_id = await seated(h, PEOPLE)
        first = await table_message(h, match_id)
        res = await h.app.service.store.view(match_id)
        assert is_png(first.photo) and first.photo == picture_of(res.table)
        assert first.text == render_caption("ru", res.table)
        seen = [first.photo]
        while True:
            before, after = await press(h, match_id, rng)
            res = await h.app.service.store.view(match_id)
            if after.round_no != before.round_no or after.finished:
                break
            msg = h.tg.messages[(GROUP, first.message_id)]
            # the same message, a new picture of the group's view after every move
            assert msg.photo == picture_of(res.table) and msg.photo != seen[-1]
            assert msg.text == render_caption("ru", res.table)
            seen.append(msg.photo)
        closed = res.closed if res.table.round_no != before.round_no else res.table
        assert closed.summary is not None and closed.round_no == before.round_no
        msg = h.tg.messages[(GROUP, first.message_id)]
        # the closing picture: the hands revealed from the round's summary, and the summary
        # in the caption
        assert msg.photo == picture_of(closed) != render_table_png(closed, locale="ru")
        assert msg.text == render_caption("ru", closed)
        assert render.render_round_summary("ru", closed.summary,
                                           [s.name for s in closed.seats],
                                           [s.side for s in closed.seats]) in msg.text
        assert (await books(h, match_id)).table_photo


async def test_pictures_are_drawn_in_their_thread_once_per_state(tmp_path, monkeypatch):
    rng = random.Random(4)
    async with Harness(tmp_path) as h:
        cache = h.app.publisher.pictures.cache
        drawn: list[tuple[int, str]] = []
        draw = table_photo._draw

        def recording(table, *args, **kw):
            drawn.append((table.version, threading.current_thread().name))
            return draw(table, *args, **kw)

        monkeypatch.setattr(table_photo, "_draw", recording)
        match_id = await seated(h, PEOPLE)
        for _ in range(6):
            await press(h, match_id, rng)
        await h.app.publisher.publish(await h.app.service.store.view(match_id), fresh=False)
        await h.outbox.drain()
        uploads = [c for c, _ in h.tg.calls if c in ("SendPhoto", "EditMessageMedia")]
        assert all(name.startswith("table-picture") for _, name in drawn)
        assert threading.current_thread().name not in {name for _, name in drawn}
        # each state drawn once; the re-publish of an unchanged state drew nothing new
        # (PictureCache), its upload took the cached picture
        assert len(drawn) == len({v for v, _ in drawn}) == len(cache) >= 7
        assert len(uploads) == len(drawn) + 1 and cache.hits >= 1


async def test_a_refused_first_upload_shows_the_text_table_and_the_next_round_a_picture(
        tmp_path):
    rng = random.Random(7)
    async with Harness(tmp_path) as h:
        h.tg.fail_photos = 1
        match_id = await seated(h, PEOPLE)
        table = await table_message(h, match_id)
        res = await h.app.service.store.view(match_id)
        assert table.photo is None and table.text == render.render_table("ru", res.table)
        assert not (await books(h, match_id)).table_photo
        assert not any(m.photo for m in h.tg.chat(GROUP))

        async def as_text(res) -> None:  # the round goes on as text
            msg = h.tg.messages[(GROUP, table.message_id)]
            assert msg.photo is None and msg.text == render.render_table("ru", res.table)

        res = await to_the_next_round(h, match_id, rng, as_text)
        assert h.tg.messages[(GROUP, table.message_id)].text == render.render_table(
            "ru", res.closed)  # closed with its summary, as text
        new = await table_message(h, match_id)
        assert new.message_id != table.message_id and is_png(new.photo)
        assert new.photo == picture_of(res.table)


async def test_a_refused_edit_replaces_the_photo_by_the_text_table(tmp_path):
    rng = random.Random(3)
    async with Harness(tmp_path) as h:
        match_id = await seated(h, PEOPLE)
        photo = await table_message(h, match_id)
        for _ in range(2):
            await press(h, match_id, rng)
        h.tg.fail_photos = 1
        before, after = await press(h, match_id, rng)
        if after.round_no != before.round_no or after.finished:
            pytest.skip("the round ended at once")
        res = await h.app.service.store.view(match_id)
        assert h.tg.messages[(GROUP, photo.message_id)].deleted
        text = await table_message(h, match_id)
        assert text.photo is None and text.text == render.render_table("ru", res.table)
        assert h.tg.chat(GROUP)[-1] is text  # in the photo's place, at the bottom
        stored = await books(h, match_id)
        assert stored.table_round == res.table.round_no and not stored.table_photo
        # later moves of the round edit that text; a restart keeps it a text
        before, after = await press(h, match_id, rng)
        if after.round_no == before.round_no and not after.finished:
            res = await h.app.service.store.view(match_id)
            assert h.tg.messages[(GROUP, text.message_id)].text == render.render_table(
                "ru", res.table)
            restarted(h)
            await h.app.publisher.publish(res, fresh=False)
            await h.outbox.drain()
            assert (await table_message(h, match_id)).message_id == text.message_id
            assert "EditMessageMedia" not in [c for c, _ in h.tg.calls[-3:]]


async def test_a_refused_closing_picture_becomes_the_closed_text_table(tmp_path):
    """The move that ends the round: its closing picture is refused, so the round's table
    closes as text, with the hands and the records (nothing of the round is lost), and the
    next round's table is a picture again."""
    rng = random.Random(9)
    async with Harness(tmp_path) as h:
        match_id = await seated(h, PEOPLE)
        for _ in range(400):
            state = await current(h, match_id)
            if state.finished:
                pytest.skip("no round ended by going out")
            photo = await table_message(h, match_id)
            # the seat to act holds one tile it can play: this press ends the round
            ending = len(state.hand(state.to_act)) == 1 and any(
                m.tile is not None for m in engine.legal_moves(state))
            if ending:
                h.tg.fail_photos = 1
                person = PEOPLE[state.to_act]
                msg = h.keyboard_message(person)
                await h.press(person, msg, data=msg.buttons()[0].callback_data)
                after = await current(h, match_id)
                if after.round_no != state.round_no:
                    break
                h.tg.fail_photos = 0
                continue
            await press(h, match_id, rng)
        else:
            pytest.fail("no round ended")
        res = await h.app.service.store.view(match_id)
        closed = res.closed if res.closed is not None else res.table
        assert h.tg.messages[(GROUP, photo.message_id)].deleted
        text = await table_message(h, match_id)
        assert text.photo is None and text.text == render.render_table("ru", closed)
        assert render.render_round_summary("ru", closed.summary, [s.name for s in closed.seats],
                                           [s.side for s in closed.seats]) in text.text
        if after.finished:
            return
        await press(h, match_id, rng)  # the lead opens the next round's table: a picture
        nxt = await table_message(h, match_id)
        assert nxt.message_id != text.message_id and is_png(nxt.photo)


async def test_a_restarted_bot_edits_the_photo_it_sent(tmp_path):
    rng = random.Random(2)
    async with Harness(tmp_path) as h:
        match_id = await seated(h, PEOPLE)
        photo = await table_message(h, match_id)
        before, after = await press(h, match_id, rng)
        await h.app.publisher.settled()
        restarted(h)  # knows only what was stored with the match
        assert (await books(h, match_id)).table_photo
        n = len(h.tg.calls)
        before, after = await press(h, match_id, rng)
        calls = [c for c, _ in h.tg.calls[n:]]
        if after.round_no == before.round_no:
            assert "EditMessageMedia" in calls and "SendPhoto" not in calls
            res = await h.app.service.store.view(match_id)
            assert h.tg.messages[(GROUP, photo.message_id)].photo == picture_of(res.table)


async def test_admins_choose_text_or_picture_for_the_next_rounds(tmp_path):
    rng = random.Random(5)
    async with Harness(tmp_path) as h:
        h.tg.admins[GROUP] = {OLYA.id}
        match_id = await seated(h, PEOPLE)
        photo = await table_message(h, match_id)
        assert is_png(photo.photo)
        await h.say(OLYA, GROUP, "/settings")
        menu = h.tg.last(GROUP)
        labels = [b.text for b in menu.buttons()]
        assert "Вид стола: Картинка" in labels
        await h.press(OLYA, menu, data=SettingsCb(key="table").pack())
        choices = h.tg.messages[(GROUP, menu.message_id)]
        assert [b.text for b in choices.buttons()] == ["✓ Картинка", "Текст", "← Назад"]
        text, alert, _ = await h.press(PETYA, choices,
                                       data=SettingsCb(key="table", value="text").pack())
        info = await h.app.service.people.chat_info(GROUP)
        assert alert and info.options == {"table": "picture"}
        await h.press(OLYA, choices, data=SettingsCb(key="table", value="text").pack())
        assert (await h.app.service.people.chat_info(GROUP)).options == {"table": "text"}
        assert "Вид стола: Текст" in [b.text for b in h.tg.messages[
            (GROUP, menu.message_id)].buttons()]
        # the round on the table stays a picture; the next round's table is a text

        async def same_photo(_res) -> None:
            assert (await table_message(h, match_id)).message_id == photo.message_id

        res = await to_the_next_round(h, match_id, rng, same_photo)
        table = await table_message(h, match_id)
        assert table.photo is None and table.text == render.render_table("ru", res.table)


async def test_the_bot_wide_default_is_text_when_table_view_says_so(tmp_path):
    async with Harness(tmp_path, table_view="text") as h:
        match_id = await seated(h, PEOPLE)
        assert (await table_message(h, match_id)).photo is None
        assert (await h.app.service.people.chat_info(GROUP)).options == {"table": "text"}
        await h.app.service.people.update_chat(GROUP, options={"table": "picture"})
        info = await h.app.service.people.chat_info(GROUP)
        assert info.options == {"table": "picture"}
        # back to the default
        await h.app.service.people.update_chat(GROUP, options={"table": None})
        assert (await h.app.service.people.chat_info(GROUP)).options == {"table": "text"}


async def test_the_match_end_comes_after_the_closing_picture_of_the_last_round(tmp_path):
    """The last round's summary is in the closing picture's caption, queued before the match
    end (RULES.md §1.15): when the group reads the end, the table above it shows how the
    last round went, whatever the time the picture takes to draw."""
    rng = random.Random(5)
    async with Harness(tmp_path) as h:
        match_id = await seated(h, PEOPLE, rules={"match_limit": 1})
        table_id = (await table_message(h, match_id)).message_id
        while not (await current(h, match_id)).finished:
            await press(h, match_id, rng)
        await h.outbox.drain()
        res = await h.app.service.store.view(match_id)
        summary = render.render_round_summary("ru", res.table.summary,
                                              [s.name for s in res.table.seats],
                                              [s.side for s in res.table.seats],
                                              specials=False)
        group = [(name, p) for name, p in h.tg.calls if p.get("chat_id") == GROUP]
        # the last round's table (a remembered score may have played more than one round,
        # each with its own table message)
        closing = [i for i, (name, p) in enumerate(group) if name == "EditMessageMedia"
                   and summary in p["media"]["caption"]]
        end = render.render_match_end("ru", res.final)
        ends = [i for i, (name, p) in enumerate(group)
                if name == "SendMessage" and p["text"] == end]
        assert closing and len(ends) == 1
        assert closing[-1] < ends[0]
        assert ends[0] == len(group) - 1  # the end is the group's last word
        last_table = group[closing[-1]][1]["message_id"]
        assert last_table >= table_id
        assert summary in h.tg.messages[(GROUP, last_table)].text
