"""The chat settings admins change with /settings: one spec per setting.

A :class:`Setting` says everything about one option: its values as the buttons carry them,
how the current value is read from a chat's settings, what choosing a value changes, how a
value and the option itself are written in the reader's language, and its line in /rules.
The /settings keyboard (:func:`ui.keyboards.settings_keyboard`), the settings handler
(``handlers.settings``) and /rules (:func:`ui.render.render_rules`) all read
:func:`settings`, so a new setting is one entry here (and its texts in ``locales/``).

Rule options are the names of RULES.md §1–§2 (``ChatInfo.full_rules``); the language is a
chat setting of its own; other chat settings go to ``ChatInfo.options`` through
``SettingsPatch.options``.  The game (``variant``, RULES.md §2) decides which rule settings
exist: a setting is offered only where the chat's game reads its option and lets a chat
choose it (:meth:`Setting.offered`; sport domino's teams are fixed, §2.7), and /rules names
only the options the game reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from service.live.rulebook import variant_infos
from service.views import ChatInfo

from .i18n import SUPPORTED_LOCALES, Translator
from .variants import variant_name

__all__ = ["DEFAULT_TABLE_VIEW", "FACES", "settings", "TABLE_VIEWS", "Setting",
           "SettingsPatch", "faces", "setting", "table_view"]

#: How a group is shown its table (issue 14): ``picture``, the table drawn as a photo
#: (:mod:`ui.picture`) with a caption (:mod:`ui.caption`), or ``text`` (``ui.render``).
TABLE_VIEWS: tuple[str, ...] = ("picture", "text")
#: The table view of a chat whose admins chose none (``TABLE_VIEW`` changes it bot-wide,
#: through the service's chat option defaults).
DEFAULT_TABLE_VIEW = "picture"


#: How the tiles are drawn (RULES.md §2.10.4): ``pips``, or ``pictures`` — the children's set,
#: seven pictures for the numbers 0–6, a display setting of the chat offered only with the
#: double-six set; texts and records keep the numbers.
FACES: tuple[str, ...] = ("pips", "pictures")


def faces(chat: ChatInfo | None) -> str:
    """The chat's faces of the tiles, one of :data:`FACES` (``chat.options["faces"]``, else
    ``pips``)."""
    value = chat.options.get("faces") if chat is not None else None
    return value if value in FACES else FACES[0]


def _double_six(rules: Mapping[str, Any]) -> bool:
    """Whether the game of ``rules`` is played with the double-six set (RULES.md §2.10.4: the
    children's pictures are offered only there)."""
    return int(rules.get("set", 6)) == 6


def _sets(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """The sets the game of ``rules`` is played with (RULES.md §2.10.2)."""
    info = variant_infos().get(str(rules.get("variant", "classic")))
    return tuple(str(n) for n in (info.sets if info is not None else (6,)))


def table_view(chat: ChatInfo) -> str:
    """The chat's table view, one of :data:`TABLE_VIEWS`: ``chat.options["table"]``, else
    :data:`DEFAULT_TABLE_VIEW`."""
    value = chat.options.get("table")
    return value if value in TABLE_VIEWS else DEFAULT_TABLE_VIEW


@dataclass(frozen=True, slots=True)
class SettingsPatch:
    """What choosing a value changes: ``rules`` options (RULES.md names) on top of the chat's
    rules, the chat's game (``variant``, which keeps the chat's options that game reads and
    drops the others, ``People.update_chat(variant=)``), the chat's ``language``, or
    other chat ``options``."""

    rules: dict[str, Any] = field(default_factory=dict)
    language: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    variant: str | None = None


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
    - ``width``: buttons per row of its choices;
    - ``option``: the rule option it sets (RULES.md name), None for the game and the
      language; the setting exists where the game reads that option;
    - ``choices_of(rules)``: its values where they depend on the game (the limits of a race
      are not those of a goat game), else ``choices``;
    - ``when(rules)``: for a setting that is no rule, whether the chat's game lets it be
      chosen (the children's pictures only with the double-six set, RULES.md §2.10.4);
    - ``unset(tr, locale)``: what a button shows while nothing is chosen (None: «—»).
    """

    key: str
    label: str
    choices: tuple[str, ...]
    read: Callable[[ChatInfo], str]
    patch: Callable[[str], SettingsPatch]
    value_label: Callable[[Translator, str, str], str]
    describe: Callable[[Translator, str, Mapping[str, Any]], str] | None = None
    width: int = 3
    option: str | None = None
    choices_of: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None
    when: Callable[[Mapping[str, Any]], bool] | None = None
    unset: Callable[[Translator, str], str] | None = None

    def shown(self, tr: Translator, locale: str, chat: ChatInfo) -> str:
        """The current value of the chat as a button shows it (plain text)."""
        value = self.read(chat)
        if value:
            return self.value_label(tr, locale, value)
        return self.unset(tr, locale) if self.unset is not None else "—"

    def choices_for(self, rules: Mapping[str, Any]) -> tuple[str, ...]:
        """The values offered under ``rules`` (every option by name, ``full_rules``)."""
        return self.choices_of(rules) if self.choices_of is not None else self.choices

    def offered(self, rules: Mapping[str, Any]) -> bool:
        """Whether /settings offers it under ``rules``: the game reads its option and lets a
        chat choose it (RULES.md §2)."""
        if self.option is None:
            return self.when is None or not rules or self.when(rules)
        info = variant_infos().get(str(rules.get("variant", "classic")))
        return info is not None and self.option in rules and info.reads(self.option)

    def described(self, rules: Mapping[str, Any]) -> bool:
        """Whether /rules has a line for it under ``rules``: the game reads its option."""
        return self.describe is not None and (self.option is None or self.option in rules)

    def parse(self, value: str, rules: Mapping[str, Any] | None = None) -> SettingsPatch:
        """The patch of a pressed value under the chat's ``rules``; ``ValueError`` for a
        value not offered there, or a setting the game does not offer (a forged or outdated
        button)."""
        rules = rules if rules is not None else {}
        if rules and not self.offered(rules):
            raise ValueError(f"{self.key} is not a setting of {rules.get('variant')}")
        if value not in (self.choices_for(rules) if rules else self.choices):
            raise ValueError(f"not a choice of {self.key}: {value!r}")
        return self.patch(value)


def _rule(name: str, convert: Callable[[str], Any] = str) -> Callable[[str], SettingsPatch]:
    return lambda value: SettingsPatch(rules={name: convert(value)})


def _flag(value: bool) -> str:
    return "1" if value else "0"


def _yes(value: Any) -> str:
    return "yes" if value else "no"


def _yes_no(key: str, label: str, describe: str, *, opt: str = "opt-yes-no",
            choices: tuple[str, str] = ("1", "0"), width: int = 3) -> Setting:
    """The spec of a rule option that is on or off: shown as yes/no (``opt``), written to
    the rules as a bool, described by ``describe`` with ``enabled`` yes/no."""
    return Setting(
        key=key, label=label, choices=choices,
        read=lambda chat: _flag(chat.full_rules[key]),
        patch=_rule(key, lambda v: v == "1"),
        value_label=lambda tr, loc, v: tr.plain(loc, opt, value=_yes(v == "1")),
        describe=lambda tr, loc, r: tr.t(loc, describe, enabled=_yes(r[key])),
        width=width, option=key)


def _race(rules: Mapping[str, Any]) -> bool:
    info = variant_infos().get(str(rules.get("variant", "classic")))
    return bool(info and info.race)


#: Limits offered for a goat limit (RULES.md §1.15) and for a race (§2.0.7).
GOAT_LIMITS = ("51", "101", "125", "151", "201")
RACE_LIMITS = ("50", "100", "150", "200", "225", "300")


def _limits(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """The match limits offered under ``rules``: the race's or the goat's, with the game's
    default (RULES.md §2: 225 for Телефон, 200 for Маггинс, …) and the current value."""
    info = variant_infos().get(str(rules.get("variant", "classic")))
    values = set(RACE_LIMITS if info is not None and info.race else GOAT_LIMITS)
    if info is not None and "match_limit" in info.options:
        values.add(str(info.options["match_limit"]))
    if "match_limit" in rules:
        values.add(str(rules["match_limit"]))
    return tuple(sorted(values, key=int))


def _own_setting(name: str, spec: Any) -> Setting:
    """The setting of an option that only a game reads (``VariantInfo.own_options``: its
    default, the values a chat is offered, its unit): texts ``settings-<name>`` (the label)
    and ``rules-<name>`` (its line in /rules, with ``count``, or ``enabled`` yes/no for an
    on/off option), ``_`` written ``-``."""
    words = name.replace("_", "-")
    if spec.allowed is bool:
        return _yes_no(name, f"settings-{words}", f"rules-{words}")
    choices = tuple(spec.choices or (str(spec.default),))
    if spec.unit is not None:
        def value_label(tr: Translator, loc: str, v: str) -> str:
            return tr.plain(loc, f"opt-{spec.unit}", value=int(v))
    else:
        def value_label(tr: Translator, loc: str, v: str) -> str:
            return v
    return Setting(
        key=name, label=f"settings-{words}", choices=choices,
        read=lambda chat: str(chat.full_rules[name]),
        patch=_rule(name, int), value_label=value_label,
        describe=lambda tr, loc, r: tr.t(loc, f"rules-{words}", count=r[name]),
        width=min(4, len(choices)), option=name)


def _own_settings() -> tuple[Setting, ...]:
    """A setting per option that only a game reads, in the order of the games (RULES.md §2):
    the variants declare them (``engine.rules.Option``), not this module."""
    seen: dict[str, Setting] = {}
    for info in variant_infos().values():
        for name, spec in info.own_options.items():
            if name not in seen:
                seen[name] = _own_setting(name, spec)
    return tuple(seen.values())


def settings() -> tuple[Setting, ...]:
    """Every setting a chat's admins may choose, in menu order: the game, the rules of §1
    it reads, the options only a game reads (as the games registered now declare them, so
    a game registered later is offered too), then what is not a rule.  Made anew each call
    (nothing is kept)."""
    return (
        Setting(  # RULES.md §2: the game itself
            key="variant", label="settings-variant", choices=tuple(variant_infos()),
            read=lambda chat: str(chat.full_rules.get("variant", "classic")),
            patch=lambda v: SettingsPatch(variant=v),
            value_label=variant_name, width=2),
        # RULES.md §1.14
        _yes_no("teams", "settings-teams", "rules-teams", opt="opt-teams", choices=("0", "1"),
                width=2),
        Setting(  # RULES.md §1.15, §2.0.7
            key="match_limit", label="settings-match-limit", choices=GOAT_LIMITS,
            read=lambda chat: str(chat.full_rules["match_limit"]),
            patch=_rule("match_limit", int),
            value_label=lambda tr, loc, v: v,
            describe=lambda tr, loc, r: tr.t(loc, "rules-limit", limit=r["match_limit"],
                                             race=_yes(_race(r)), variant=r.get("variant")),
            option="match_limit", choices_of=_limits),
        Setting(  # RULES.md §2.10.2: the double-N set, where the game offers several
            key="set", label="settings-set", choices=tuple(sorted(
                {str(n) for i in variant_infos().values() if "set" in i.options
                 for n in i.sets}, key=int)),
            read=lambda chat: str(chat.full_rules.get("set", 6)),
            patch=_rule("set", int),
            value_label=lambda tr, loc, v: tr.plain(loc, "opt-set", value=int(v)),
            describe=lambda tr, loc, r: tr.t(loc, "rules-set", set=r["set"]),
            option="set", choices_of=_sets, width=2),
        # the options only a game reads, as its variant declares them (RULES.md §2)
        *_own_settings(),
        Setting(  # RULES.md §1.13
            key="fish_scoring", label="settings-fish-scoring",
            choices=("all_to_max", "each_own", "own_to_max"),
            read=lambda chat: str(chat.full_rules["fish_scoring"]),
            patch=_rule("fish_scoring"),
            value_label=lambda tr, loc, v: tr.plain(loc, "opt-fish-scoring", value=v),
            describe=lambda tr, loc, r: tr.t(loc, "rules-fish-scoring", mode=r["fish_scoring"]),
            width=1, option="fish_scoring"),
        # RULES.md §1.10 (b), §2.0.5 (b)
        _yes_no("fish_without_double", "settings-fish-without-double", "rules-fish-without-double"),
        Setting(  # RULES.md §1.4
            key="bazar_reserve", label="settings-bazar-reserve", choices=("0", "1", "2"),
            read=lambda chat: str(chat.full_rules["bazar_reserve"]),
            patch=_rule("bazar_reserve", int),
            value_label=lambda tr, loc, v: tr.plain(loc, "opt-bazar-reserve", value=int(v)),
            describe=lambda tr, loc, r: tr.t(loc, "rules-reserve", reserve=r["bazar_reserve"]),
            option="bazar_reserve"),
        Setting(  # RULES.md §1.17
            key="turn_timeout", label="settings-turn-timeout",
            choices=("30", "60", "90", "120", "300"),
            read=lambda chat: str(chat.full_rules["turn_timeout"]),
            patch=_rule("turn_timeout", int),
            value_label=lambda tr, loc, v: tr.plain(loc, "opt-seconds", value=int(v)),
            describe=lambda tr, loc, r: tr.t(loc, "rules-timeout", count=r["turn_timeout"]),
            option="turn_timeout"),
        *_chat_settings(),
    )


def _chat_settings() -> tuple[Setting, ...]:
    """The settings of a chat that are no rule: its board, its language, how its table and
    its tiles are drawn."""
    return (
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
                                                    "lang-name", code=v),
            # a group that never chose one speaks the bot's default
            unset=lambda tr, loc: tr.plain(loc, "lang-default", name=tr.plain(
                tr.default, "lang-name", code=tr.default))),
        Setting(  # the group's table as a picture or as text (issue 14); not a rule
            key="table", label="settings-table", choices=TABLE_VIEWS, read=table_view,
            patch=lambda v: SettingsPatch(options={"table": v}),
            value_label=lambda tr, loc, v: tr.plain(loc, "opt-table", value=v), width=2),
        Setting(  # RULES.md §2.10.4: the children's set, a display setting; not a rule
            key="faces", label="settings-faces", choices=FACES, read=faces,
            patch=lambda v: SettingsPatch(options={"faces": v}),
            value_label=lambda tr, loc, v: tr.plain(loc, "opt-faces", value=v), width=2,
            when=_double_six),
    )

def setting(key: str) -> Setting:
    """The setting named ``key``; ``KeyError`` for none (a forged or outdated button)."""
    for spec in settings():
        if spec.key == key:
            return spec
    raise KeyError(key)
