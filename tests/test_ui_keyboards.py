"""ui.keyboards and ui.commands: buttons are exactly the legal moves, labels, settings, menus."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

import engine
from service.views import ChatInfo
from ui import keyboards as kb
from ui.callbacks import LangCb, LobbyCb, MoveCb, SettingsCb, StopCb, VariantCb, parse_callback
from ui.commands import GROUP_COMMANDS, PRIVATE_COMMANDS, bot_commands
from ui.i18n import SUPPORTED_LOCALES, Translator
from ui.render import render_settings
from ui.settings import SettingsPatch, setting, settings

TR = Translator(strict=True)


def buttons(markup):
    return [b for row in markup.inline_keyboard for b in row]


def decoded_moves(markup):
    out = []
    for b in buttons(markup):
        cb = parse_callback(b.callback_data)
        assert isinstance(cb, MoveCb)
        out.append((engine.Tile.of(*cb.halves), cb.engine_end, cb.game, cb.ver))
    return out


@hypothesis_settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.integers(0, 60))
def test_hand_keyboard_buttons_are_exactly_the_legal_moves(seed, players, steps):
    state, _ = engine.new_match(engine.Rules(), players, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if state.finished:
            return
        state, _ = engine.apply(state, state.to_act, rnd.choice(engine.legal_moves(state)))
    if state.finished:
        return
    moves = engine.legal_moves(state)
    markup = kb.hand_keyboard(77, state.version, moves)
    got = decoded_moves(markup)
    assert len(got) == len(moves)
    assert {(t, e) for t, e, _, _ in got} == {(m.tile, m.end) for m in moves}
    assert all(g == 77 and v == state.version for _, _, g, v in got)
    # Every button is accepted by the engine as is.
    for t, e, _, _ in got:
        engine.apply(state, state.to_act, engine.Move(t, e))
    assert all(len(row) <= kb.MOVE_ROW for row in markup.inline_keyboard)


def test_move_labels_and_order():
    moves = [engine.Move(engine.Tile.of(2, 5), "right"), engine.Move(engine.Tile.of(2, 5), "left"),
             engine.Move(engine.Tile.of(0, 2), "left")]
    labels = [b.text for b in buttons(kb.hand_keyboard(1, 2, moves))]
    assert labels == ["[0|2] ←", "[2|5] ←", "[2|5] →"]
    assert kb.move_label(engine.Tile.of(6, 6), None) == "[6|6]"
    assert kb.move_label((5, 2), "right") == "[2|5] →"
    with pytest.raises(ValueError):
        kb.hand_keyboard(1, 2, [moves[0], moves[0]])
    assert kb.hand_keyboard(1, 2, []).inline_keyboard == []


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_lobby_keyboard(locale):
    markup = kb.lobby_keyboard(locale, 42, tr=TR)
    actions = [parse_callback(b.callback_data) for b in buttons(markup)]
    assert [a.action for a in actions] == ["join", "leave", "start", "cancel", "menu"]
    assert all(isinstance(a, LobbyCb | VariantCb) and a.lobby == 42 for a in actions)
    assert buttons(markup)[0].text == TR.plain(locale, "btn-join")
    assert buttons(markup)[-1].text == TR.plain(locale, "btn-variant")  # RULES.md §2
    bots = kb.lobby_keyboard(locale, 42, allow_bots=True, has_bots=True, tr=TR)
    assert [parse_callback(b.callback_data).action for b in buttons(bots)][-3:-1] == [
        "addbot", "rmbot"]
    rematch = buttons(kb.rematch_keyboard(locale, 9, tr=TR))
    assert parse_callback(rematch[0].callback_data) == LobbyCb(action="rematch", lobby=9)


def test_stop_and_dm_and_lang_keyboards():
    yes, no = buttons(kb.stop_keyboard("ru", 5, tr=TR))
    assert parse_callback(yes.callback_data) == StopCb(match=5, confirm=True)
    assert parse_callback(no.callback_data) == StopCb(match=5, confirm=False)
    url = kb.deep_link("@KozelBot", "j42")
    assert url == "https://t.me/KozelBot?start=j42"
    assert kb.deep_link("KozelBot") == "https://t.me/KozelBot"
    (dm,) = buttons(kb.dm_keyboard("uk", url, tr=TR))
    assert dm.url == url and dm.text == TR.plain("uk", "btn-open-dm")
    for bad in ["", "a b", "x" * 65, "a&b=c"]:
        with pytest.raises(ValueError):
            kb.deep_link("KozelBot", bad)
    with pytest.raises(ValueError):
        kb.deep_link("bad name")
    langs = buttons(kb.lang_keyboard("uk", tr=TR))
    assert [parse_callback(b.callback_data) for b in langs] == [
        LangCb(code=c) for c in SUPPORTED_LOCALES]
    assert [b.text for b in langs] == ["Русский", "✓ Українська", "English"]


def _chat(rules: dict | None = None, language: str | None = None,
          options: dict | None = None) -> ChatInfo:
    rules = dict(rules or {})
    return ChatInfo(-1, "Стол", language, False, None, rules, True,
                    engine.Rules.from_json(rules).to_json(), dict(options or {}))


def test_every_setting_choice_reads_back_and_makes_valid_rules():
    """One spec per setting: each choice patches valid rules (RULES.md §1, under a game that
    reads the option, §2) and reads back as itself; /rules has a line for every rule
    setting."""
    for spec in settings():
        for value in spec.choices:
            patch = spec.parse(value)
            if spec.key == "lang":
                assert patch.language == value and not patch.rules
                assert spec.read(_chat(language=value)) == value
                assert spec.describe is None
                continue
            if patch.options:  # a chat option, not a rule (the table view, issue 14)
                assert not patch.rules and patch.language is None and spec.describe is None
                assert spec.read(_chat(options=patch.options)) == value
                assert spec.value_label(TR, "uk", value)
                continue
            if spec.key == "variant":
                assert patch.variant == value and not patch.rules
                assert spec.read(_chat({"variant": value})) == value
                continue
            game = next(v for v, info in engine.VARIANTS.items() if spec.option in info.options)
            rules = engine.Rules.from_json({"variant": game, **patch.rules}).to_json()
            assert spec.read(_chat(rules)) == value
            assert spec.describe(TR, "en", rules)
            assert spec.value_label(TR, "uk", value)
    assert setting("teams").parse("1") == SettingsPatch(rules={"teams": True})
    assert setting("fish_without_double").parse("0").rules == {"fish_without_double": False}
    assert setting("match_limit").parse("51").rules == {"match_limit": 51}
    for key, value in [("teams", "teams"), ("match_limit", "7"), ("lang", "de"),
                       ("turn_timeout", "")]:
        with pytest.raises(ValueError):
            setting(key).parse(value)
    for key in ("menu", "done", "x"):
        with pytest.raises(KeyError):
            setting(key)


def test_settings_menu_shows_current_values_and_choices_mark_one():
    chat = _chat({"bazar_reserve": 1, "fish_scoring": "each_own", "turn_timeout": 90}, "uk")
    markup = kb.settings_keyboard("ru", chat, tr=TR)
    texts = [b.text for b in buttons(markup)]
    assert "Команды: Каждый за себя" in texts
    assert "Базар: Без одного" in texts
    assert "Рыба: Рыба на всех" in texts
    assert "Время на ход: 90 с" in texts
    assert "Язык: Українська" in texts
    assert "Партия до: 101" in texts
    cbs = [parse_callback(b.callback_data) for b in buttons(markup)]
    assert [c.key for c in cbs] == [*(spec.key for spec in settings()
                                      if spec.offered(chat.full_rules)), "done"]
    assert all(isinstance(c, SettingsCb) and c.value == "" for c in cbs)
    # a group that never chose a language speaks the bot's default, and says so (issue 30)
    assert "Язык: Русский (по умолчанию)" in [
        b.text for b in buttons(kb.settings_keyboard("ru", _chat(), tr=TR))]

    choices = kb.settings_choices_keyboard("en", setting("bazar_reserve"), "1", tr=TR)
    texts = [b.text for b in buttons(choices)]
    assert texts == ["All", "✓ All but one", "All but two", "← Back"]
    assert parse_callback(buttons(choices)[1].callback_data) == SettingsCb(
        key="bazar_reserve", value="1")
    assert parse_callback(buttons(choices)[-1].callback_data) == SettingsCb(key="menu")
    teams = kb.settings_choices_keyboard("ru", setting("teams"), "1", tr=TR)
    assert [b.text for b in buttons(teams)] == ["Каждый за себя", "✓ Командный", "← Назад"]
    text = render_settings("en", chat.full_rules, choosing="Boneyard", tr=TR)
    assert "Changes apply from the next match." in text and "<b>Boneyard</b>" in text
    assert "Every player for themselves" in text and "90 seconds" in text
    assert "Game: <b>Kozel</b>" in text


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_bot_commands_for_both_scopes(locale):
    group = bot_commands(locale, "group", tr=TR)
    private = bot_commands(locale, "private", tr=TR)
    assert [c.command for c in group] == [
        "newgame", "join", "leave", "addbot", "startgame", "stopgame", "score", "top", "stats",
        "history", "record", "rules", "settings", "lang", "help"]
    assert [c.command for c in private] == ["start", "newgame", "hand", "leave", "stopgame",
                                            "stats", "top", "history", "record", "replay",
                                            "lang", "help"]
    assert tuple(c.command for c in group) == GROUP_COMMANDS
    assert tuple(c.command for c in private) == PRIVATE_COMMANDS
    for c in group + private:
        assert 1 <= len(c.description) <= 256
    assert group[GROUP_COMMANDS.index("top")].description != private[
        PRIVATE_COMMANDS.index("top")].description
    with pytest.raises(ValueError):
        bot_commands(locale, "channel", tr=TR)


def test_hand_keyboard_takes_service_move_options_with_codes():
    from types import SimpleNamespace

    options = [SimpleNamespace(tile="2-5", end="left"), SimpleNamespace(tile="1-1", end=None)]
    markup = kb.hand_keyboard(3, 4, options)
    assert [b.text for b in buttons(markup)] == ["[1|1]", "[2|5] ←"]
    assert {(str(t), e) for t, e, _, _ in decoded_moves(markup)} == {("[2|5]", "left"),
                                                                      ("[1|1]", None)}
