"""The emulator's photos through a real aiogram ``Bot``: sendPhoto and editMessageMedia as
multipart uploads (``attach://``), captions in HTML up to 1024 characters, editMessageCaption,
Telegram's errors, flood control, and the images and captions tests read back."""

from __future__ import annotations

import io
import json

import aiohttp
import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)
from PIL import Image

from tests.emulator import EmulatorError

pytest_plugins = ("tests.emulator.fixtures",)

MASHA, PETYA = 11, 12


@pytest.fixture
def emulator_settings():
    return {"flood": False}


@pytest.fixture
async def group(emulator_client):
    for uid, name in ((MASHA, "Маша"), (PETYA, "Петя")):
        await emulator_client.create_user(uid, name)
    chat = await emulator_client.create_chat(members=[MASHA, PETYA])
    return chat["id"]


def png(width=1200, height=960, colour=(24, 104, 66)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buf, "PNG")
    return buf.getvalue()


def upload(data: bytes) -> BufferedInputFile:
    return BufferedInputFile(data, filename="table.png")


def kb(text="Ход", data="m:1") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=text,
                                                                       callback_data=data)]])


async def test_send_photo_uploads_the_bytes_with_an_html_caption(emulator_bot, emulator_client,
                                                                 group):
    data = png()
    sent = await emulator_bot.send_photo(group, upload(data), caption="<b>Раунд 1</b>\nБазар: 14",
                                         parse_mode="HTML", reply_markup=kb())
    biggest = sent.photo[-1]
    assert (biggest.width, biggest.height, biggest.file_size) == (1200, 960, len(data))
    assert [p.width for p in sent.photo] == [90, 320, 800, 1200]  # Telegram's smaller copies
    assert sent.caption == "Раунд 1\nБазар: 14" and sent.text is None
    assert sent.caption_entities[0].type == "bold"
    msg = await emulator_client.message(group, sent.message_id)
    assert msg.text is None and msg.shown == msg.caption == "Раунд 1\nБазар: 14"
    assert msg.caption_source == "<b>Раунд 1</b>\nБазар: 14"
    assert msg.photo == biggest.file_id and msg.photo_size == [1200, 960]
    assert msg.button_texts == ["Ход"]
    assert await emulator_client.photo(group, sent.message_id) == data
    assert await emulator_client.file(msg.photo) == data
    assert msg.shown_texts() == [("Раунд 1\nБазар: 14", kb().model_dump(exclude_none=True))]
    # the call log keeps the parameters, not the bytes
    (call,) = await emulator_client.calls(method="sendPhoto")
    assert call["ok"] and call["params"]["photo"].startswith("attach://")
    assert call["params"][call["params"]["photo"][len("attach://"):]] == "<file>"


async def test_a_photo_may_be_sent_again_by_its_file_id(emulator_bot, emulator_client, group):
    first = await emulator_bot.send_photo(group, upload(png()))
    again = await emulator_bot.send_photo(group, first.photo[-1].file_id)
    assert again.photo[-1].file_unique_id == first.photo[-1].file_unique_id
    small = await emulator_bot.send_photo(group, first.photo[0].file_id)  # a smaller copy's id
    assert small.photo[-1].file_id == first.photo[-1].file_id
    with pytest.raises(TelegramBadRequest, match="wrong file identifier"):
        await emulator_bot.send_photo(group, "AgACno-such-file")
    assert (await emulator_client.message(group, first.message_id)).caption is None


async def test_the_same_bytes_are_one_file(emulator_bot, group):
    a = await emulator_bot.send_photo(group, upload(png()))
    b = await emulator_bot.send_photo(group, upload(png()))
    c = await emulator_bot.send_photo(group, upload(png(colour=(1, 2, 3))))
    assert a.photo[-1].file_unique_id == b.photo[-1].file_unique_id != c.photo[-1].file_unique_id


async def test_caption_limits_and_html_errors(emulator_bot, group):
    await emulator_bot.send_photo(group, upload(png()), caption="я" * 1024)
    with pytest.raises(TelegramBadRequest, match="message caption is too long"):
        await emulator_bot.send_photo(group, upload(png()), caption="я" * 1025)
    # counted in UTF-16 code units after parsing: an emoji counts twice, tags not at all
    await emulator_bot.send_photo(group, upload(png()), caption="<b>" + "🐐" * 512 + "</b>",
                                  parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="message caption is too long"):
        await emulator_bot.send_photo(group, upload(png()), caption="🐐" * 512 + "!")
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await emulator_bot.send_photo(group, upload(png()), caption="<b>open", parse_mode="HTML")


async def test_what_is_not_a_photo_is_refused(emulator, emulator_bot, group):
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await emulator_bot.send_photo(group, upload(b"not an image at all"))
    with pytest.raises(TelegramBadRequest, match="PHOTO_INVALID_DIMENSIONS"):
        await emulator_bot.send_photo(group, upload(png(2000, 50)))
    async with aiohttp.ClientSession() as http:
        url = f"{emulator.url}/bot{emulator.token}/sendPhoto"
        async with http.post(url, data={"chat_id": str(group)}) as resp:
            body = await resp.json()
    assert resp.status == 400
    assert body["description"] == "Bad Request: there is no photo in the request"
    # a file field named after the parameter itself works as well as attach://
    form = aiohttp.FormData()
    form.add_field("chat_id", str(group))
    form.add_field("photo", png(), filename="t.png", content_type="image/png")
    async with aiohttp.ClientSession() as http, http.post(url, data=form) as resp:
        assert resp.status == 200 and (await resp.json())["result"]["photo"][-1]["width"] == 1200


async def test_edit_message_media_replaces_the_picture_and_keeps_the_history(
        emulator_bot, emulator_client, group):
    first, second = png(), png(colour=(200, 10, 10))
    sent = await emulator_bot.send_photo(group, upload(first), caption="Раунд 1",
                                         reply_markup=kb())
    edited = await emulator_bot.edit_message_media(
        InputMediaPhoto(media=upload(second), caption="<i>Раунд 1</i>, ход 2",
                        parse_mode="HTML"),
        chat_id=group, message_id=sent.message_id, reply_markup=kb("Ход 2", "m:2"))
    assert edited.caption == "Раунд 1, ход 2" and edited.edit_date is not None
    msg = await emulator_client.message(group, sent.message_id)
    assert msg.edits == 1 and msg.caption_entities[0]["type"] == "italic"
    assert msg.button_texts == ["Ход 2"]
    assert await emulator_client.photo(group, sent.message_id) == second
    assert await emulator_client.photos(group, sent.message_id) == [first, second]
    assert [t for t, _ in msg.shown_texts()] == ["Раунд 1", "Раунд 1, ход 2"]
    # the same picture by file id with a new caption; no reply_markup removes the keyboard
    await emulator_bot.edit_message_media(
        InputMediaPhoto(media=edited.photo[-1].file_id, caption="Раунд 1 окончен"),
        chat_id=group, message_id=sent.message_id)
    msg = await emulator_client.message(group, sent.message_id)
    assert msg.buttons == [] and msg.caption == "Раунд 1 окончен"
    assert await emulator_client.photos(group, sent.message_id) == [first, second]


async def test_an_unchanged_edit_is_not_modified(emulator_bot, group):
    data = png()
    sent = await emulator_bot.send_photo(group, upload(data), caption="x", reply_markup=kb())
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await emulator_bot.edit_message_media(InputMediaPhoto(media=upload(data), caption="x"),
                                              chat_id=group, message_id=sent.message_id,
                                              reply_markup=kb())
    await emulator_bot.edit_message_media(InputMediaPhoto(media=upload(data), caption="y"),
                                          chat_id=group, message_id=sent.message_id,
                                          reply_markup=kb())
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await emulator_bot.edit_message_caption(chat_id=group, message_id=sent.message_id,
                                                caption="y", reply_markup=kb())


async def test_a_text_message_may_become_a_photo_but_not_back(emulator_bot, emulator_client,
                                                               group):
    text = await emulator_bot.send_message(group, "Цепь: [1|1]")
    await emulator_bot.edit_message_media(InputMediaPhoto(media=upload(png()), caption="Стол"),
                                          chat_id=group, message_id=text.message_id)
    msg = await emulator_client.message(group, text.message_id)
    assert msg.text is None and msg.caption == "Стол" and msg.photo is not None
    assert [t for t, _ in msg.shown_texts()] == ["Цепь: [1|1]", "Стол"]
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await emulator_bot.edit_message_text("Цепь", chat_id=group, message_id=text.message_id)
    other = await emulator_bot.send_message(group, "текст")
    with pytest.raises(TelegramBadRequest, match="there is no caption in the message to edit"):
        await emulator_bot.edit_message_caption(chat_id=group, message_id=other.message_id,
                                                caption="x")


async def test_edit_message_media_errors(emulator, emulator_bot, emulator_client, group):
    sent = await emulator_bot.send_photo(group, upload(png()))

    async def raw(media) -> dict:
        async with aiohttp.ClientSession() as http:
            url = f"{emulator.url}/bot{emulator.token}/editMessageMedia"
            async with http.post(url, data={"chat_id": str(group),
                                            "message_id": str(sent.message_id),
                                            "media": media}) as resp:
                return await resp.json()

    assert (await raw("{not json"))["description"] == (
        "Bad Request: can't parse input media JSON object")
    assert (await raw(json.dumps({"type": "photo"})))["description"] == (
        "Bad Request: can't parse InputMedia: Media is not specified")
    assert "not supported" in (await raw(json.dumps({"type": "video",
                                                      "media": "x"})))["description"]
    assert (await raw(json.dumps({"type": "photo", "media": "attach://missing"})))[
        "description"] == "Bad Request: wrong file identifier/HTTP URL specified"
    with pytest.raises(TelegramBadRequest, match="message caption is too long"):
        await emulator_bot.edit_message_media(
            InputMediaPhoto(media=upload(png(colour=(9, 9, 9))), caption="я" * 1025),
            chat_id=group, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await emulator_bot.edit_message_media(InputMediaPhoto(media=upload(png())),
                                              chat_id=group, message_id=999)
    assert (await emulator_client.message(group, sent.message_id)).edits == 0


async def test_reply_markup_edits_keep_the_photo_and_presses_see_it(emulator_bot,
                                                                    emulator_client, group):
    sent = await emulator_bot.send_photo(group, upload(png()), caption="Стол", reply_markup=kb())
    await emulator_bot.edit_message_reply_markup(chat_id=group, message_id=sent.message_id,
                                                 reply_markup=kb("Новый", "m:3"))
    msg = await emulator_client.message(group, sent.message_id)
    assert msg.caption == "Стол" and msg.photo == sent.photo[-1].file_id
    assert msg.history[-1]["caption"] == "Стол" and msg.history[-1]["photo"] == msg.photo
    press = await emulator_client.press(PETYA, group, sent.message_id, text="Новый")
    (update,) = [u for u in await emulator_client.pending_updates()
                 if u.get("callback_query", {}).get("id") == press["query_id"]]
    shown = update["callback_query"]["message"]
    assert shown["caption"] == "Стол" and shown["photo"][-1]["width"] == 1200


@pytest.mark.parametrize("emulator_settings", [{"flood": True}])
async def test_photos_count_against_flood_control(emulator_bot, group):
    sent = await emulator_bot.send_photo(group, upload(png()))
    with pytest.raises(TelegramRetryAfter):
        await emulator_bot.send_photo(group, upload(png()))
    with pytest.raises(TelegramRetryAfter):
        await emulator_bot.edit_message_media(InputMediaPhoto(media=upload(png(colour=(5, 5, 5)))),
                                              chat_id=group, message_id=sent.message_id)


@pytest.mark.parametrize("emulator_settings", [{"flood": False, "keep_history": False}])
async def test_without_history_only_the_pictures_on_screen_are_kept(emulator, emulator_bot,
                                                                   emulator_client, group):
    sent = await emulator_bot.send_photo(group, upload(png()))
    old = sent.photo[-1].file_id
    await emulator_bot.edit_message_media(InputMediaPhoto(media=upload(png(colour=(7, 7, 7)))),
                                          chat_id=group, message_id=sent.message_id)
    msg = await emulator_client.message(group, sent.message_id)
    assert msg.photos == [msg.photo] and msg.photo != old
    assert await emulator_client.photo(group, sent.message_id) == png(colour=(7, 7, 7))
    with pytest.raises(EmulatorError) as err:
        await emulator_client.file(old)
    assert err.value.status == 404
    assert len(emulator.world.files) == 1


async def test_a_real_table_picture_uploads(emulator_bot, emulator_client, group):
    from ui.picture import render_table_png
    from ui.picture_examples import middle_round

    data = render_table_png(middle_round(), locale="ru")
    sent = await emulator_bot.send_photo(group, upload(data), caption="Раунд 4")
    assert (sent.photo[-1].width, sent.photo[-1].height) == (1200, 960)
    assert await emulator_client.photo(group, sent.message_id) == data


async def test_fail_photos_refuses_that_many_uploads(emulator_bot, emulator_client, group):
    """``configure(fail_photos=n)``: the next n uploads are refused as Telegram refuses an
    image it cannot process; the message is left as it was, and the one after goes through."""
    sent = await emulator_bot.send_photo(group, upload(png()), caption="раз")
    assert (await emulator_client.configure(fail_photos=2))["fail_photos"] == 2
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await emulator_bot.send_photo(group, upload(png(colour=(1, 2, 3))))
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await emulator_bot.edit_message_media(
            InputMediaPhoto(media=upload(png(colour=(9, 9, 9))), caption="два"),
            chat_id=group, message_id=sent.message_id)
    msg = await emulator_client.message(group, sent.message_id)
    assert msg.caption == "раз" and msg.edits == 0
    edited = await emulator_bot.edit_message_media(
        InputMediaPhoto(media=upload(png(colour=(9, 9, 9))), caption="два"),
        chat_id=group, message_id=sent.message_id)
    assert edited.caption == "два"
    assert (await emulator_client.configure())["fail_photos"] == 0
