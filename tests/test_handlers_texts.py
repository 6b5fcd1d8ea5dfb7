"""The texts around a match (issue 20 items 10 and 11), through the real routers.

Item 11: the bot added to a group greets it with how to start (a ``my_chat_member`` update
from "left" to "member"; a promotion says nothing); the private /start names solo play;
the private /help lists /rules.  Item 10: ``/record`` of a match that does not exist says
so.
"""

from __future__ import annotations

import pytest
from aiogram.types import (
    Chat,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberUpdated,
    Update,
)

from tests.botkit import BOT, Harness, Person
from ui.render import render_help

GROUP = -100778
OLYA = Person(501, "Оля")


def _bot_status(old, new) -> Update:
    return Update(update_id=4242, my_chat_member=ChatMemberUpdated(
        chat=Chat(id=GROUP, type="supergroup", title="Двор"), from_user=OLYA.user, date=0,
        old_chat_member=old, new_chat_member=new))


def _admin():
    flags = {name: False for name, field in ChatMemberAdministrator.model_fields.items()
             if field.is_required() and name != "user"}
    return ChatMemberAdministrator(user=BOT, **flags)


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
async def test_the_bot_added_to_a_group_greets_it_in_its_language(tmp_path, locale):
    async with Harness(tmp_path) as h:
        await h.app.service.people.update_chat(GROUP, language=locale)
        await h.feed(_bot_status(ChatMemberLeft(user=BOT), ChatMemberMember(user=BOT)))
        (greeting,) = h.tg.chat(GROUP)
        assert greeting.text == h.app.tr.t(locale, "greet-group")
        assert "/newgame" in greeting.text and "/rules" in greeting.text
        (button,) = greeting.buttons()
        assert button.url == "https://t.me/kozel_test_bot"
        # promoted later: nothing more is said
        await h.feed(_bot_status(ChatMemberMember(user=BOT), _admin()))
        assert len(h.tg.chat(GROUP)) == 1


@pytest.mark.parametrize("locale", ["uk", "en"])
async def test_a_new_group_speaks_the_language_of_who_added_the_bot(tmp_path, locale):
    """Issue 30 item 8: an admin whose Telegram speaks ``locale`` adds the bot to a new
    group: the greeting (which says how to change the language), /help, the lobby and the
    /settings menu are in that language, and /settings names it."""
    from ui.keyboards import settings_keyboard

    admin = Person(509, "Ann", language_code=locale)
    async with Harness(tmp_path) as h:
        added = _bot_status(ChatMemberLeft(user=BOT), ChatMemberMember(user=BOT))
        added = added.model_copy(update={"my_chat_member": added.my_chat_member.model_copy(
            update={"from_user": admin.user})})
        await h.feed(added)
        (greeting,) = h.tg.chat(GROUP)
        tr = h.app.tr
        assert greeting.text == tr.t(locale, "greet-group") and "/lang" in greeting.text
        assert (await h.app.service.people.chat_info(GROUP)).language == locale
        someone = Person(510, "Оля", language_code="ru")  # another member speaks Russian
        await h.say(someone, GROUP, "/help")
        assert h.tg.last(GROUP).text == render_help(locale, is_group=True, tr=tr)
        h.tg.dm_open.add(someone.id)
        await h.say(someone, GROUP, "/newgame")
        lobby = (await h.app.messages((await h.app.service.store.find_open(
            GROUP, None)).match_id)).id_of("lobby")
        assert tr.t(locale, "lobby-rules") in h.tg.messages[(GROUP, lobby)].text
        info = await h.app.service.people.chat_info(GROUP)
        buttons = [b.text for row in settings_keyboard(locale, info, tr=tr).inline_keyboard
                   for b in row]
        name = tr.plain(locale, "lang-name", code=locale)
        assert tr.plain(locale, "settings-item", label=tr.plain(locale, "settings-language"),
                        value=name) in buttons


async def test_a_group_the_bot_never_saw_takes_the_first_speakers_language(tmp_path):
    """Issue 30 item 8: a group the bot has no record of (added before it kept one) speaks
    the language of the first person it hears there; a group that chose one keeps it."""
    ann = Person(511, "Ann", language_code="en")
    async with Harness(tmp_path) as h:
        await h.say(ann, GROUP, "/help")
        assert h.tg.last(GROUP).text == render_help("en", is_group=True, tr=h.app.tr)
        await h.say(Person(512, "Оля", language_code="uk"), GROUP, "/help")
        assert h.tg.last(GROUP).text == render_help("en", is_group=True, tr=h.app.tr)
        await h.app.service.people.update_chat(GROUP - 1, language="ru")
        await h.say(ann, GROUP - 1, "/help")
        assert h.tg.last(GROUP - 1).text == render_help("ru", is_group=True, tr=h.app.tr)


async def test_an_open_lobby_is_shown_again_in_the_new_language(tmp_path):
    """Issue 30 item 10: an admin's /lang redraws the open lobby at once, before its next
    edit."""
    from tests.test_handlers_lifecycle import OLYA as OLYA_

    async with Harness(tmp_path) as h:
        h.tg.admins[GROUP] = {OLYA_.id}
        h.tg.dm_open.add(OLYA_.id)
        await h.say(OLYA_, GROUP, "/newgame")
        match_id = (await h.app.service.store.find_open(GROUP, None)).match_id
        lobby = (await h.app.messages(match_id)).id_of("lobby")
        tr = h.app.tr
        assert tr.t("ru", "lobby-rules") in h.tg.messages[(GROUP, lobby)].text
        await h.say(OLYA_, GROUP, "/lang")
        choose = h.tg.last(GROUP)
        await h.press(OLYA_, choose, text=tr.plain("en", "lang-name", code="en"))
        assert tr.t("en", "lobby-rules") in h.tg.messages[(GROUP, lobby)].text


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
async def test_private_start_names_solo_play_and_help_lists_rules(tmp_path, locale):
    person = Person(502, "Оля", language_code=locale)
    async with Harness(tmp_path) as h:
        h.tg.dm_open.add(person.id)
        await h.say(person, person.id, "/start")
        start = h.tg.last(person.id).text
        assert "/newgame" in start and "🤖" in start and "/rules" in start
        await h.say(person, person.id, "/help")
        assert "/rules" in h.tg.last(person.id).text


@pytest.mark.parametrize("locale", ["uk", "en"])
async def test_a_solo_match_shows_its_table_and_picture_in_the_players_language(tmp_path,
                                                                              locale):
    """Issue 20 item 8: the table's caption, its picture's labels and the computer player's
    name follow the private chat's person (Telegram's ``language_code``), not the default
    Russian of a group."""
    from tests.localekit import foreign_words
    from ui.picture import picture_labels

    person = Person(503, "Olive", language_code=locale)
    async with Harness(tmp_path) as h:
        h.tg.dm_open.add(person.id)
        await h.say(person, person.id, "/start")
        await h.say(person, person.id, "/newgame 1 easy")
        chat = h.tg.chat(person.id)
        photos = [m for m in chat if m.photo is not None]
        assert photos, "the table is a picture"
        texts = [m.text for m in chat] + [label for m in photos
                                          for label in picture_labels(m.photo)]
        bad = [(t, w) for t in texts if (w := foreign_words(t, locale, allowed=["Olive"]))]
        assert bad == []
