"""The chat settings admins change with /settings: one spec per setting.

A :class:`Setting` says everything about one option: its values as the buttons carry them,
how the current value is read from a chat's settings, what choosing a value changes, how a
value and the option itself are written in the reader's language, and its line in /rules.
The /settings keyboard (:func:`ui.keyboards.settings_keyboard`), the settings handler
(``handlers.settings``) and /rules (:func:`ui.render.render_rules`) all read
:data:`SETTINGS`, so a new setting is one entry here (and its texts in ``locales/``).

Rule options are the names of RULES.md §1 (``ChatInfo.full_rules``); the language is a chat
setting of its own; other chat settings go to ``ChatInfo.options`` through
``SettingsPatch.options``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from service.views import ChatInfo

from .i18n import SUPPORTED_LOCALES, Translator

__all__ = ["SETTINGS", "Setting", "SettingsPatch", "setting"]


@dataclass(frozen=True, slots=True)
class SettingsPatch:
    """What choosing a value changes: ``rules`` options (RULES.md names) on top of the chat's
    rules, the chat's ``language``, or other chat ``options``."""

    rules: dict[str, Any] = field(default_factory=dict)
    language: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Setting:
    """One settings option.

    - ``key``: its name in the buttons' callback data (``SettingsCb.key``);
    - ``label``: the Fluent key of its name in the menu;
    - ``choices``: its values as the buttons carry them (``SettingsCb.value``);
    - ``read(chat)``: the current value of a :class:`~service.views.ChatInfo`, one of
      ``choices`` (or ``""`` when unset);
    - ``patch(value)``: what choosing ``value`` changes;
    - ``value_label(tr, locale, value)``: a value as plain text for a button;
    - ``describe(tr, locale, rules)``: its line in /rules and the lobby (HTML), from the
      rules JSON; None for settings that are not rules;
    - ``width``: buttons per row of its choices.
    """

    key: str
    label: str
    choices: tuple[str, ...]
    read: Callable[[ChatInfo], str]
    patch: Callable[[str], SettingsPatch]
    value_label: Callable[[Translator, str, str], str]
    describe: Callable[[Translator, str, Mapping[str, Any]], str] | None = None
    width: int = 3

    def parse(self, value: str) -> SettingsPatch:
        """The patch of a pressed value; ``ValueError`` for a value not offered (a forged
        or outdated button)."""
        if value not in self.choices:
            raise ValueError(f"not a choice of {self.key}: {value!r}")
        return self.patch(value)


def _rule(name: str, convert: Callable[[str], Any] = str) -> Callable[[str], SettingsPatch]:
    return lambda value: SettingsPatch(rules={name: convert(value)})


def _flag(value: bool) -> str:
    return "1" if value else "0"


SETTINGS: tuple[Setting, ...] = (
    Setting(  # RULES.md §1.14
        key="teams", label="settings-teams", choices=("0", "1"),
        read=lambda chat: _flag(chat.full_rules["teams"]),
        patch=_rule("teams", lambda v: v == "1"),
        value_label=lambda tr, loc, v: tr.plain(loc, "opt-teams",
                                                value="yes" if v == "1" else "no"),
        describe=lambda tr, loc, r: tr.t(loc, "rules-teams",
                                         enabled="yes" if r["teams"] else "no"),
        width=2),
    Setting(  # RULES.md §1.15
        key="match_limit", label="settings-match-limit",
        choices=("51", "101", "125", "151", "201"),
        read=lambda chat: str(chat.full_rules["match_limit"]),
        patch=_rule("match_limit", int),
        value_label=lambda tr, loc, v: v,
        describe=lambda tr, loc, r: tr.t(loc, "rules-limit", limit=r["match_limit"])),
    Setting(  # RULES.md §1.13
        key="fish_scoring", label="settings-fish-scoring",
        choices=("all_to_max", "each_own", "own_to_max"),
        read=lambda chat: str(chat.full_rules["fish_scoring"]),
        patch=_rule("fish_scoring"),
        value_label=lambda tr, loc, v: tr.plain(loc, "opt-fish-scoring", value=v),
        describe=lambda tr, loc, r: tr.t(loc, "rules-fish-scoring", mode=r["fish_scoring"]),
        width=1),
    Setting(  # RULES.md §1.10 (b)
        key="fish_without_double", label="settings-fish-without-double", choices=("1", "0"),
        read=lambda chat: _flag(chat.full_rules["fish_without_double"]),
        patch=_rule("fish_without_double", lambda v: v == "1"),
        value_label=lambda tr, loc, v: tr.plain(loc, "opt-yes-no",
                                                value="yes" if v == "1" else "no"),
        describe=lambda tr, loc, r: tr.t(loc, "rules-fish-without-double",
                                         enabled="yes" if r["fish_without_double"] else "no")),
    Setting(  # RULES.md §1.4
        key="bazar_reserve", label="settings-bazar-reserve", choices=("0", "1", "2"),
        read=lambda chat: str(chat.full_rules["bazar_reserve"]),
        patch=_rule("bazar_reserve", int),
        value_label=lambda tr, loc, v: tr.plain(loc, "opt-bazar-reserve", value=int(v)),
        describe=lambda tr, loc, r: tr.t(loc, "rules-reserve", reserve=r["bazar_reserve"])),
    Setting(  # RULES.md §1.17
        key="turn_timeout", label="settings-turn-timeout",
        choices=("30", "60", "90", "120", "300"),
        read=lambda chat: str(chat.full_rules["turn_timeout"]),
        patch=_rule("turn_timeout", int),
        value_label=lambda tr, loc, v: tr.plain(loc, "opt-seconds", value=int(v)),
        describe=lambda tr, loc, r: tr.t(loc, "rules-timeout", count=r["turn_timeout"])),
    Setting(  # issue 15, "Fair boards": the chat's board counts matches with computer players
        key="bot_matches", label="settings-bot-matches", choices=("0", "1"),
        read=lambda chat: _flag(bool(chat.options.get("bot_matches"))),
        patch=lambda v: SettingsPatch(options={"bot_matches": v == "1"}),
        value_label=lambda tr, loc, v: tr.plain(loc, "opt-bot-matches",
                                                value="yes" if v == "1" else "no"),
        width=2),
    Setting(  # the chat's language
        key="lang", label="settings-language", choices=SUPPORTED_LOCALES,
        read=lambda chat: chat.language or "",
        patch=lambda v: SettingsPatch(language=v),
        value_label=lambda tr, loc, v: tr.plain(v if v in SUPPORTED_LOCALES else loc,
                                                "lang-name", code=v)),
)

_BY_KEY = {s.key: s for s in SETTINGS}


def setting(key: str) -> Setting:
    """The setting named ``key``; ``KeyError`` for none (a forged or outdated button)."""
    return _BY_KEY[key]
