"""Who administers a group, through the real routers over a mocked Bot API
(:mod:`handlers.admins`).

Telegram is asked (``getChatMember``) only when a handler needs the answer: never for what a
lobby's own player may do, never in a private chat.  The answer is remembered for a short
time, so an admin's burst of presses costs one question; a ``chat_member`` update (Telegram
sends those where the bot is an administrator) replaces it at once, a change of the bot's own
status forgets the group's answers, and a question Telegram did not answer is asked again.
"""

from __future__ import annotations

from aiogram.types import (
    Chat,
    ChatMemberAdministrator,
    ChatMemberMember,
    ChatMemberUpdated,
    Update,
    User,
)

from delivery.admins import ADMIN_TTL
from tests.botkit import BOT, Harness, Person
from ui.callbacks import LobbyCb, SettingsCb, VariantCb

GROUP = -100555
OLYA, PETYA, MASHA = Person(51, "Оля"), Person(52, "Петя"), Person(53, "Маша")


def asked(h: Harness, user: Person | None = None) -> list[tuple[int, int]]:
    """``(chat id, user id)`` of every ``getChatMember`` call so far (of ``user`` only)."""
    return [(int(p["chat_id"]), p["user_id"]) for name, p in h.tg.calls
            if name == "GetChatMember" and (user is None or p["user_id"] == user.id)]


async def lobby(h: Harness, *people: Person):
    """Everyone opens the DM; the first opens a lobby in the group, the others join it.
    Returns the lobby's message."""
    for p in people:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")
    await h.say(people[0], GROUP, "/newgame")
    msg = h.tg.last(GROUP)
    for p in people[1:]:
        await h.press(p, msg, data=LobbyCb(action="join", lobby=_lobby_id(msg)).pack())
    return h.tg.messages[(GROUP, msg.message_id)]


def _lobby_id(msg) -> int:
    data = next(b.callback_data for b in msg.buttons() if b.callback_data.startswith("l1:join"))
    return int(data.rsplit(":", 1)[1])


def _admin(user: User) -> ChatMemberAdministrator:
    """An administrator's membership with no particular rights."""
    flags = {name: False for name, field in ChatMemberAdministrator.model_fields.items()
             if field.is_required() and name != "user"}
    return ChatMemberAdministrator(user=user, **flags)


async def member_update(h: Harness, person: Person, *, admin: bool, update_id: int) -> None:
    """Telegram tells the bot (an administrator of the group) that ``person`` was promoted
    (``admin``) or demoted by Olya."""
    old, new = ChatMemberMember(user=person.user), _admin(person.user)
    if not admin:
        old, new = new, old
    upd = ChatMemberUpdated(chat=Chat(id=GROUP, type="supergroup", title="Двор"),
                            from_user=OLYA.user, date=0, old_chat_member=old,
                            new_chat_member=new)
    await h.feed(Update(update_id=update_id, chat_member=upd))


async def test_what_a_lobbys_own_players_may_do_asks_telegram_nothing(tmp_path):
    """The creator starts, stops, seats and unseats computer players and opens the game menu;
    a seated player adds a computer player; /lang and /history in private: no
    ``getChatMember`` call.  Only a press the service refuses for want of the right (a
    seated player's Start) asks, and then the refusal stands for a member."""
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        msg = await lobby(h, OLYA, PETYA)
        mid = _lobby_id(msg)
        for action in ("addbot", "rmbot"):
            _, alert, _ = await h.press(OLYA, msg, data=LobbyCb(action=action, lobby=mid).pack())
            assert not alert
        await h.say(OLYA, GROUP, "/addbot easy")
        await h.press(PETYA, msg, data=LobbyCb(action="addbot", lobby=mid).pack())
        assert len((await h.app.service.store.view(mid)).lobby.players) == 4
        await h.press(OLYA, msg, data=VariantCb(action="menu", lobby=mid).pack())
        await h.press(OLYA, msg, data=VariantCb(action="back", lobby=mid).pack())
        await h.say(OLYA, GROUP, "/stopgame")
        assert h.tg.last(GROUP).text == tr.t("ru", "lobby-stop-confirm")
        await h.say(PETYA, PETYA.id, "/lang")
        await h.say(PETYA, PETYA.id, "/history")
        assert asked(h) == []
        text, alert, _ = await h.press(PETYA, msg, data=LobbyCb(action="start", lobby=mid).pack())
        assert alert and text == tr.plain("ru", "err-only-creator-or-admin")
        assert asked(h) == [(GROUP, PETYA.id)]
        await h.say(OLYA, GROUP, "/startgame")
        assert (await h.app.service.store.view(mid)).status == "playing"
        assert asked(h) == [(GROUP, PETYA.id)]


async def test_an_admins_presses_ask_telegram_once_for_a_while(tmp_path):
    """A chat admin who is not seated adds and removes computer players, opens /settings and
    starts the lobby: one ``getChatMember`` call; after ``ADMIN_TTL`` seconds the next
    press asks again."""
    async with Harness(tmp_path) as h:
        now = [1000.0]
        h.app.admins.clock = lambda: now[0]
        h.tg.admins[GROUP] = {MASHA.id}
        msg = await lobby(h, OLYA, PETYA)
        mid = _lobby_id(msg)
        for action in ("addbot", "rmbot", "addbot"):
            _, alert, _ = await h.press(MASHA, msg, data=LobbyCb(action=action, lobby=mid).pack())
            assert not alert
        await h.say(MASHA, GROUP, "/settings")
        assert h.tg.last(GROUP).buttons()
        assert asked(h) == [(GROUP, MASHA.id)]
        now[0] += ADMIN_TTL - 1
        await h.press(MASHA, msg, data=LobbyCb(action="rmbot", lobby=mid).pack())
        assert asked(h) == [(GROUP, MASHA.id)]
        now[0] += 2
        _, alert, _ = await h.press(MASHA, msg, data=LobbyCb(action="start", lobby=mid).pack())
        assert not alert and (await h.app.service.store.view(mid)).status == "playing"
        assert asked(h) == [(GROUP, MASHA.id)] * 2


async def test_a_chat_member_update_changes_the_answer_at_once(tmp_path):
    """Petya is no admin (Telegram says so once); promoted, his /settings opens the menu at
    once, without asking Telegram again (which would still call him a member here: only the
    update says otherwise); demoted, he is refused again, still without a question.  The bot
    asks Telegram for those updates."""
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        assert "chat_member" in h.dp.resolve_used_update_types()
        await h.say(PETYA, GROUP, "/settings")
        assert h.tg.last(GROUP).text == tr.t("ru", "err-only-admin")
        assert asked(h) == [(GROUP, PETYA.id)]
        await member_update(h, PETYA, admin=True, update_id=9001)
        await h.say(PETYA, GROUP, "/settings")
        menu = h.tg.last(GROUP)
        assert menu.buttons() and menu.text != tr.t("ru", "err-only-admin")
        text, alert, _ = await h.press(PETYA, menu,
                                       data=SettingsCb(key="fish_scoring").pack())
        assert not alert
        await member_update(h, PETYA, admin=False, update_id=9002)
        text, alert, _ = await h.press(PETYA, menu, data=SettingsCb(key="done").pack())
        assert alert and text == tr.plain("ru", "err-only-admin")
        assert asked(h) == [(GROUP, PETYA.id)]


async def test_the_bots_own_status_forgets_and_a_failed_question_is_asked_again(tmp_path):
    """A change of the bot's status in the group (here: promoted) forgets what was known
    there; a ``getChatMember`` that failed counts as no admin and is not remembered."""
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        h.tg.admins[GROUP] = {MASHA.id}
        h.tg.fail_members = 1
        await h.say(MASHA, GROUP, "/settings")
        assert h.tg.last(GROUP).text == tr.t("ru", "err-only-admin")
        await h.say(MASHA, GROUP, "/settings")
        assert h.tg.last(GROUP).buttons()
        assert asked(h) == [(GROUP, MASHA.id)] * 2
        await h.say(MASHA, GROUP, "/lang")
        assert h.tg.last(GROUP).text == tr.t("ru", "lang-choose")
        assert len(asked(h)) == 2
        promoted = ChatMemberUpdated(
            chat=Chat(id=GROUP, type="supergroup", title="Двор"), from_user=MASHA.user, date=0,
            old_chat_member=ChatMemberMember(user=BOT), new_chat_member=_admin(BOT))
        await h.feed(Update(update_id=9003, my_chat_member=promoted))
        await h.say(MASHA, GROUP, "/lang")
        assert h.tg.last(GROUP).text == tr.t("ru", "lang-choose")
        assert asked(h) == [(GROUP, MASHA.id)] * 3
