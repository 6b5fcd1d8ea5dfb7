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
