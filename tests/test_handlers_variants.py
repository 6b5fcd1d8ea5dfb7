"""Choosing the game through the real routers over a mocked Bot API (RULES.md §2; issues 12
and 13, "Choosing the game"): /newgame with a game's id or name in a group and in private,
the lobby's game menu and its refusals, /settings per game (only the options the game reads;
a switch drops the others), /rules per game, the private set-up buttons."""

from __future__ import annotations

import pytest

from handlers.games import unknown_variant_text
from service.live.rulebook import variant_infos
from service.views import Status
from tests.botkit import Harness, Person, Sent
from ui.callbacks import LobbyCb, SettingsCb, SoloCb, StopCb, VariantCb, parse_callback

GROUP = -100888
OLYA, PETYA, MASHA, SERG = (Person(31, "Оля"), Person(32, "Петя"), Person(33, "Маша"),
                            Person(34, "Серж"))


def seven_seats_three(real):
    """``rules_players`` as if Семёрка seated at most three (rules JSON or engine rules)."""
    def players(rules):
        variant = rules["variant"] if isinstance(rules, dict) else rules.variant
        return (2, 3) if variant == "seven" else real(rules)
    return players

def game(h: Harness, variant: str, locale: str = "ru") -> str:
    return h.app.tr.plain(locale, "variant-name", variant=variant)


def callbacks(sent) -> list:
    return [parse_callback(b.callback_data) for b in sent.buttons()]


async def open_dm(h: Harness, *people: Person) -> None:
    for p in people:
        h.tg.dm_open.add(p.id)
        await h.say(p, p.id, "/start")


@pytest.mark.parametrize(("words", "variant"), [
    ("sea_goat", "sea_goat"), ("морской", "sea_goat"), ("Морской Козёл", "sea_goat"),
    ("морський", "sea_goat"), ("осёл", "donkey"), ("осел", "donkey"), ("ччв", "chcv"),
    ("чечевэ", "chcv"), ("телефон", "telephone"), ("Muggins", "muggins"),
    ("традиционное", "traditional"), ("спорт", "sport"), ("семёрка", "seven"),
    ("сімка", "seven"), ("генерал", "general"), ("classic", "classic")])
async def test_newgame_opens_a_lobby_of_the_named_game(tmp_path, words, variant):
    async with Harness(tmp_path) as h:
        await open_dm(h, OLYA)
        await h.say(OLYA, GROUP, f"/newgame {words}")
        found = await h.app.service.store.find_open(GROUP, None)
        assert found.ok and found.lobby.rules["variant"] == variant
        lobby = h.tg.last(GROUP)
        assert f"<b>🐐 {game(h, variant)} — набор игроков</b>" in lobby.text
        lo, hi = found.lobby.min_players, found.lobby.max_players
        assert ("Играют ровно 4 игрока." if lo == hi else "Играют от 2 до 4 игроков.") in \
            lobby.text
        assert isinstance(callbacks(lobby)[-1], VariantCb)


async def test_an_unknown_game_is_answered_with_the_list_and_opens_nothing(tmp_path):
    olive = Person(OLYA.id, "Olive", language_code="en")  # a new group speaks hers
    async with Harness(tmp_path, default_locale="en") as h:
        await open_dm(h, olive)
        await h.say(olive, GROUP, "/newgame poker")
        text = h.tg.last(GROUP).text
        assert text.startswith("I do not know that game.")
        for name in variant_infos():
            assert f"({name})" in text
        assert not (await h.app.service.store.find_open(GROUP, None)).ok


async def test_the_lobby_menu_changes_the_game_and_keeps_the_seats(tmp_path):
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        await open_dm(h, OLYA, PETYA, MASHA)
        h.tg.admins[GROUP] = {SERG.id}
        await h.say(OLYA, GROUP, "/newgame")
        lobby = h.tg.last(GROUP)
        await h.press(PETYA, lobby, data=lobby.buttons()[0].callback_data)
        mid = (await h.app.service.store.find_open(GROUP, None)).match_id
        menu = f"v1:menu:{mid}:"
        # a seated player who did not open the lobby may not change its game
        text, alert, _ = await h.press(PETYA, lobby, data=menu)
        assert alert and text == tr.plain("ru", "err-only-creator-or-admin")
        assert isinstance(callbacks(h.tg.messages[(GROUP, lobby.message_id)])[0], LobbyCb)
        text, alert, _ = await h.press(OLYA, lobby, data=menu)
        assert not alert and text == tr.plain("ru", "notice-variant-choose")
        shown = h.tg.messages[(GROUP, lobby.message_id)]
        picks = [c for c in callbacks(shown) if c.action == "pick"]
        assert [c.variant for c in picks] == list(variant_infos())
        assert shown.buttons()[0].text == "✓ " + game(h, "classic")
        # back: the lobby's own buttons again
        await h.press(OLYA, shown, data=f"v1:back:{mid}:")
        assert isinstance(callbacks(h.tg.messages[(GROUP, lobby.message_id)])[0], LobbyCb)
        await h.press(OLYA, lobby, data=menu)
        text, alert, _ = await h.press(OLYA, lobby, data=f"v1:pick:{mid}:sea_goat")
        assert not alert and text == tr.plain("ru", "notice-variant-changed",
                                              game=game(h, "sea_goat"))
        now = h.tg.messages[(GROUP, lobby.message_id)]
        assert "Морской козёл — набор игроков" in now.text and "1. Оля" in now.text
        assert "2. Петя" in now.text and "Партия до 125 очков" in now.text
        assert isinstance(callbacks(now)[0], LobbyCb)  # the lobby's buttons are back
        # a chat admin who is not seated may change it too
        await h.press(SERG, now, data=f"v1:pick:{mid}:sport")
        res = await h.app.service.store.find_open(GROUP, None)
        assert res.lobby.rules["variant"] == "sport" and len(res.lobby.players) == 2
        assert "Играют ровно 4 игрока." in h.tg.messages[(GROUP, lobby.message_id)].text
        # sport domino is four players: the start is refused with the count it needs
        await h.say(OLYA, GROUP, "/startgame")
        assert h.tg.last(GROUP).text == tr.plain("ru", "err-need-players-range", need="exact",
                                                 min=4, max=4)
        # a forged game changes nothing
        version = res.version
        text, alert, _ = await h.press(OLYA, now, data=f"v1:pick:{mid}:poker")
        assert alert and text == tr.plain("ru", "err-stale-button")
        assert (await h.app.service.store.view(mid)).version == version
        # the same game again: only the buttons come back
        text, _, _ = await h.press(OLYA, now, data=f"v1:pick:{mid}:sport")
        assert (await h.app.service.store.view(mid)).version == version
        # after the start the menu is closed
        await h.press(OLYA, now, data=f"v1:pick:{mid}:classic")
        await h.press(MASHA, now, data=now.buttons()[0].callback_data)
        await h.say(OLYA, GROUP, "/startgame")
        assert (await h.app.service.store.view(mid)).status == Status.PLAYING
        text, alert, _ = await h.press(OLYA, now, data=menu)
        assert alert and text == tr.plain("ru", "err-lobby-closed")
        text, alert, _ = await h.press(OLYA, now, data=f"v1:pick:{mid}:seven")
        assert alert and (await h.app.service.store.view(mid)).table.variant == "classic"


async def test_a_game_with_fewer_seats_than_are_taken_is_refused(tmp_path, monkeypatch):
    """No game of RULES.md §2 seats fewer than four: the refusal is shown with a game that
    would seat three (the service's player count patched)."""
    import service.lobbies as lobbies

    real = lobbies.rules_players
    monkeypatch.setattr(lobbies, "rules_players", seven_seats_three(real))
    async with Harness(tmp_path) as h:
        await open_dm(h, OLYA, PETYA, MASHA, SERG)
        await h.say(OLYA, GROUP, "/newgame")
        lobby = h.tg.last(GROUP)
        for p in (PETYA, MASHA, SERG):
            await h.press(p, lobby, data=lobby.buttons()[0].callback_data)
        mid = (await h.app.service.store.find_open(GROUP, None)).match_id
        text, alert, _ = await h.press(OLYA, lobby, data=f"v1:pick:{mid}:seven")
        assert alert and text.startswith("В «Семёрка» играют не больше 4")
        res = await h.app.service.store.view(mid)
        assert res.lobby.rules["variant"] == "classic" and len(res.lobby.players) == 4


def menu_keys(sent) -> list[str]:
    return [c.key for c in callbacks(sent) if isinstance(c, SettingsCb)]


async def test_settings_offer_only_the_options_of_the_chats_game(tmp_path):
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        h.tg.admins[GROUP] = {OLYA.id}
        await h.say(OLYA, GROUP, "/settings")
        menu = h.tg.last(GROUP)
        assert menu_keys(menu) == ["variant", "teams", "match_limit", "fish_scoring",
                                   "fish_without_double", "bazar_reserve", "turn_timeout",
                                   "bot_matches", "lang", "table", "faces", "done"]
        for data in ("s2:fish_scoring:each_own", "s2:teams:1", "s2:match_limit:151"):
            await h.press(OLYA, menu, data=data)
        await h.press(OLYA, menu, data="s2:variant:")
        shown = h.tg.messages[(GROUP, menu.message_id)]
        assert [c.value for c in callbacks(shown)][:-1] == list(variant_infos())
        text, _, _ = await h.press(OLYA, shown, data="s2:variant:chcv")
        assert text.startswith(tr.plain("ru", "settings-saved")) and game(h, "chcv") in text
        info = await h.app.service.people.chat_info(GROUP)
        assert info.rules == {"variant": "chcv", "match_limit": 151}  # teams, fish dropped
        menu = h.tg.messages[(GROUP, menu.message_id)]
        assert menu_keys(menu) == ["variant", "match_limit", "fish_without_double",
                                   "bazar_reserve", "turn_timeout", "bot_matches", "lang", "table",
                                   "faces", "done"]
        assert "Игра: <b>ЧЧВ</b>" in menu.text and "Рыба:" not in menu.text
        # a button of the chat's previous game is refused and changes nothing
        for data in ("s2:fish_scoring:", "s2:fish_scoring:own_to_max", "s2:teams:0"):
            text, alert, _ = await h.press(OLYA, menu, data=data)
            assert alert and text == tr.plain("ru", "err-stale-button")
        assert (await h.app.service.people.chat_info(GROUP)).rules == info.rules
        # sport domino: deals, no limit, teams fixed
        await h.press(OLYA, menu, data="s2:variant:sport")
        menu = h.tg.messages[(GROUP, menu.message_id)]
        assert "deals" in menu_keys(menu) and "teams" not in menu_keys(menu)
        assert "match_limit" not in menu_keys(menu)
        await h.press(OLYA, menu, data="s2:deals:")
        deals = h.tg.messages[(GROUP, menu.message_id)]
        assert [b.text for b in deals.buttons()] == ["4", "✓ 8", "12", "16", "← Назад"]
        await h.press(OLYA, deals, data="s2:deals:12")
        assert (await h.app.service.people.chat_info(GROUP)).full_rules["deals"] == 12
        # Телефон: a race to 225, several doubles a move
        await h.press(OLYA, menu, data="s2:variant:telephone")
        menu = h.tg.messages[(GROUP, menu.message_id)]
        assert "multi_doubles" in menu_keys(menu)
        await h.press(OLYA, menu, data="s2:match_limit:")
        limits = [b.text for b in h.tg.messages[(GROUP, menu.message_id)].buttons()]
        assert "✓ 225" in limits and "150" in limits
        text, alert, _ = await h.press(OLYA, menu, data="s2:match_limit:125")
        assert alert  # a goat game's limit, not offered in a race
        await h.press(OLYA, menu, data="s2:match_limit:300")
        rules = (await h.app.service.people.chat_info(GROUP)).full_rules
        assert (rules["variant"], rules["match_limit"]) == ("telephone", 300)
        # the sea goat's hand of [0|0] and [6|6] (RULES.md §2.1 rule 2)
        await h.press(OLYA, menu, data="s2:variant:sea_goat")
        assert "both_doubles_value" in menu_keys(h.tg.messages[(GROUP, menu.message_id)])
        await h.press(OLYA, menu, data="s2:both_doubles_value:75")
        assert (await h.app.service.people.chat_info(GROUP)).full_rules["both_doubles_value"] == 75
        # Мексиканский поезд (RULES.md §2.10.2, §2.11): its set and the [0|0] in hand; the
        # children's pictures are offered only with the double-six set (§2.10.4)
        await h.press(OLYA, menu, data="s2:variant:mexican_train")
        keys = menu_keys(h.tg.messages[(GROUP, menu.message_id)])
        assert {"set", "double_blank_value"} <= set(keys) and "faces" not in keys
        await h.press(OLYA, menu, data="s2:set:")
        sets = [b.text for b in h.tg.messages[(GROUP, menu.message_id)].buttons()]
        assert sets[:2] == ["дубль-9", "✓ дубль-12"]
        await h.press(OLYA, menu, data="s2:set:9")
        await h.press(OLYA, menu, data="s2:double_blank_value:50")
        rules = (await h.app.service.people.chat_info(GROUP)).full_rules
        assert (rules["set"], rules["double_blank_value"]) == (9, 50)
        text, alert, _ = await h.press(OLYA, menu, data="s2:faces:pictures")
        assert alert  # not with double-9
        await h.press(OLYA, menu, data="s2:variant:sea_goat")
        await h.press(OLYA, menu, data="s2:faces:pictures")
        assert (await h.app.service.people.chat_info(GROUP)).options["faces"] == "pictures"
        await h.press(OLYA, menu, data="s2:both_doubles_value:75")
        # a new lobby plays the chat's game
        h.tg.dm_open.add(OLYA.id)
        await h.say(OLYA, GROUP, "/newgame")
        found = await h.app.service.store.find_open(GROUP, None)
        assert found.lobby.rules["variant"] == "sea_goat"
        assert found.lobby.rules["both_doubles_value"] == 75


@pytest.mark.parametrize("locale", ["ru", "uk", "en"])
async def test_rules_name_the_game_played_here_with_its_options(tmp_path, locale):
    async with Harness(tmp_path, default_locale=locale) as h:
        tr = h.app.tr
        await open_dm(h, OLYA)
        for variant in variant_infos():
            await h.app.service.people.update_chat(GROUP, variant=variant)
            await h.say(OLYA, GROUP, "/rules")
            text = h.tg.last(GROUP).text
            assert text.startswith(tr.t(locale, "rules-title", game=game(h, variant, locale)))
            assert tr.t(locale, "variant-about", variant=variant) in text
            assert tr.t(locale, "rules-here-chat") in text
            full = (await h.app.service.people.chat_info(GROUP)).full_rules
            limit = tr.t(locale, "rules-limit", limit=full.get("match_limit", 0),
                         race="yes" if variant_infos()[variant].race else "no",
                         variant=variant)
            assert (limit in text) == ("match_limit" in full)
            assert (tr.t(locale, "rules-sticks", count=3) in text) == (variant == "seven")
        # an open lobby's game is the one /rules tells
        await h.app.service.people.update_chat(GROUP, variant="classic")
        await h.say(OLYA, GROUP, "/newgame генерал")
        await h.say(OLYA, GROUP, "/rules")
        text = h.tg.last(GROUP).text
        assert game(h, "general", locale) in text and tr.t(locale, "rules-here-match") in text
        assert tr.t(locale, "rules-losses", count=2) in text
        # /rules <game> tells that game as a lobby of it opened here would play it: the
        # chat's reserve is kept, the sea goat's own limit is used (RULES.md §2.1)
        await h.app.service.people.update_chat(GROUP, rules={"bazar_reserve": 1})
        await h.say(OLYA, GROUP, "/rules морской")
        text = h.tg.last(GROUP).text
        assert text.startswith(tr.t(locale, "rules-title", game=game(h, "sea_goat", locale)))
        assert tr.t(locale, "rules-here-named", id="sea_goat") in text
        assert tr.t(locale, "rules-limit", limit=125, race="no", variant="sea_goat") in text
        assert tr.t(locale, "rules-reserve", reserve=1) in text
        await h.say(OLYA, GROUP, "/rules poker")
        assert h.tg.last(GROUP).text == unknown_variant_text(h.app, locale)
        # in private: the games against computer players, not /settings (groups only)
        await h.say(OLYA, OLYA.id, "/rules")
        text = h.tg.last(OLYA.id).text
        assert any(tr.t(loc, "rules-here-private", id="classic") in text  # the user's language
                   for loc in ("ru", "uk", "en"))
        assert "/settings" not in text


async def test_private_newgame_with_a_game_and_its_player_count(tmp_path):
    async with Harness(tmp_path) as h:
        tr = h.app.tr
        await open_dm(h, OLYA, PETYA, MASHA)
        await h.say(OLYA, OLYA.id, "/newgame 2 телефон hard")
        found = await h.app.service.store.find_open(OLYA.id, None)
        assert found.ok and found.table.variant == "telephone"
        assert [s.bot for s in found.table.seats] == [None, "hard", "hard"]
        await h.say(PETYA, PETYA.id, "/newgame 1 sport")
        assert h.tg.last(PETYA.id).text == tr.t(
            "ru", "err-solo-players", game=game(h, "sport"), need="exact", min=4, max=4,
            bots=3, variant="sport")
        assert not (await h.app.service.store.find_open(PETYA.id, None)).ok
        await h.say(PETYA, PETYA.id, "/newgame спортивное домино")  # no count: the one it needs
        found = await h.app.service.store.find_open(PETYA.id, None)
        assert found.table.variant == "sport" and len(found.table.seats) == 4
        await h.say(MASHA, MASHA.id, "/newgame 2 шахматы")
        assert h.tg.last(MASHA.id).text.startswith(tr.t("ru", "err-bad-solo"))
        assert not (await h.app.service.store.find_open(MASHA.id, None)).ok
        # a wrong count is answered with the counts the game seats, not "no such game"
        await h.say(MASHA, MASHA.id, "/newgame 4 телефон")
        assert h.tg.last(MASHA.id).text == tr.t(
            "ru", "err-solo-players", game=game(h, "telephone"), need="range", min=2, max=4,
            bots=1, variant="telephone")
        assert not (await h.app.service.store.find_open(MASHA.id, None)).ok
        # in a group, the private command's words get a hint to /addbot and open nothing
        await h.say(MASHA, GROUP, "/newgame 2 морской")
        assert h.tg.last(GROUP).text.startswith(tr.t("ru", "err-newgame-group-words"))
        assert not (await h.app.service.store.find_open(GROUP, None)).ok


async def test_private_setup_buttons_choose_the_game_the_opponents_and_their_strength(tmp_path):
    async with Harness(tmp_path, default_locale="uk") as h:
        tr = h.app.tr
        person = Person(40, "Іра", "uk")
        await open_dm(h, person)
        await h.say(person, person.id, "/newgame")
        setup = h.tg.last(person.id)
        assert setup.text.startswith(tr.t("uk", "solo-title"))
        cbs = callbacks(setup)
        assert all(isinstance(c, SoloCb) for c in cbs) and cbs[-1].go
        assert not (await h.app.service.store.find_open(person.id, None)).ok  # nothing opened yet
        await h.press(person, setup, data=SoloCb(variant="general", bots=1,
                                                 strength="normal").pack())
        shown = h.tg.messages[(person.id, setup.message_id)]
        assert "Гра: <b>Генерал</b>" in shown.text
        counts = [c.bots for c in callbacks(shown) if not c.go and c.variant == "general"
                  and c.strength == "normal"]
        assert set(counts) == {3}  # Генерал is four players (RULES.md §2.9)
        await h.press(person, shown, data=SoloCb(variant="sea_goat", bots=2,
                                                 strength="hard").pack())
        shown = h.tg.messages[(person.id, setup.message_id)]
        labels = [b.text for b in shown.buttons()]
        assert "✓ Морський козел" in labels and "✓ 2 суперники" in labels
        assert "✓ складний" in labels  # the word /newgame takes (issue 30 item 11)
        await h.press(person, shown, data=SoloCb(variant="sea_goat", bots=2, strength="hard",
                                                 go=True).pack())
        found = await h.app.service.store.find_open(person.id, None)
        assert found.ok and found.table.variant == "sea_goat"
        assert [s.bot for s in found.table.seats] == [None, "hard", "hard"]
        assert h.tg.messages[(person.id, setup.message_id)].text == tr.t(
            "uk", "solo-started", game=game(h, "sea_goat", "uk"))
        # the old set-up pressed again: a match is already open here
        text, alert, _ = await h.press(person, shown, data=SoloCb(
            variant="classic", bots=1, strength="easy", go=True).pack())
        assert alert and text == tr.plain("uk", "err-match-exists-here", id=found.match_id)
        # the set-up's buttons do nothing in a group
        text, alert, _ = await h.press(person, Sent(GROUP, 1, "x"), data=SoloCb(
            variant="classic", bots=1, strength="easy", go=True).pack())
        assert alert and text == tr.plain("uk", "err-private-only")


OTHER = -100999
EVE = Person(66, "Ева")


@pytest.mark.parametrize("data", ["v1:pick:{mid}:general", "l1:addbot:{mid}", "l1:start:{mid}",
                                  "l1:cancel:{mid}", "l1:join:{mid}", "stop"])
async def test_a_press_carrying_another_chats_lobby_changes_nothing(tmp_path, data):
    """An admin of one group (or anyone, in their private chat) forging a button with the id
    of a lobby of another group is refused: the admin check would look at the wrong chat."""
    async with Harness(tmp_path) as h:
        await open_dm(h, OLYA, PETYA, EVE)
        h.tg.admins[OTHER] = {EVE.id}
        await h.say(OLYA, GROUP, "/newgame")
        lobby = h.tg.last(GROUP)
        await h.press(PETYA, lobby, data=lobby.buttons()[0].callback_data)
        mid = (await h.app.service.store.find_open(GROUP, None)).match_id
        before = await h.app.service.store.view(mid)
        await h.say(EVE, OTHER, "/newgame")
        theirs = h.tg.last(OTHER)
        forged = StopCb(match=mid, confirm=True).pack() if data == "stop" else data.format(mid=mid)
        for where in (Sent(OTHER, theirs.message_id, theirs.text, theirs.markup),
                      Sent(EVE.id, 1, "", None)):
            text, alert, _ = await h.press(EVE, where, data=forged)
            assert alert and text == h.app.tr.plain("ru", "err-other-chat")
        after = await h.app.service.store.view(mid)
        assert after.status == Status.LOBBY and after.version == before.version
        assert after.lobby == before.lobby
