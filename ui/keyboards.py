"""Inline keyboards of every bot message, and the settings options they edit.

Button labels come from ``locales/`` (plain text); callback data from :mod:`ui.callbacks`.
Every function is pure and returns an aiogram ``InlineKeyboardMarkup``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from .callbacks import (
    LangCb,
    LobbyCb,
    SettingsCb,
    StopCb,
    move_callback,
    tile_halves,
    tile_id,
)
from .i18n import SUPPORTED_LOCALES, Translator, get_translator

__all__ = [
    "MOVE_ROW",
    "SETTINGS_CHOICES",
    "SETTINGS_ORDER",
    "move_label",
    "hand_keyboard",
    "lobby_keyboard",
    "rematch_keyboard",
    "stop_keyboard",
    "dm_keyboard",
    "deep_link",
    "lang_keyboard",
    "settings_value",
    "settings_label",
    "settings_keyboard",
    "settings_choices_keyboard",
    "rules_patch",
]

#: Move buttons per keyboard row.
MOVE_ROW = 3
_ARROW = {"left": "←", "right": "→", None: ""}

#: The values each settings entry offers, as carried in ``SettingsCb.value`` (RULES.md §1.4,
#: §1.10 b, §1.13, §1.14, §1.15, §1.17; ``lang``: the chat language).
SETTINGS_CHOICES: dict[str, tuple[str, ...]] = {
    "variant": ("classic", "teams"),
    "fish_scoring": ("all_to_max", "each_own", "own_to_max"),
    "fish_without_double": ("1", "0"),
    "bazar_reserve": ("0", "1", "2"),
    "match_limit": ("51", "101", "125", "151", "201"),
    "turn_timeout": ("30", "60", "90", "120", "300"),
    "lang": SUPPORTED_LOCALES,
}
#: Menu order of the settings entries.
SETTINGS_ORDER: tuple[str, ...] = tuple(SETTINGS_CHOICES)
_SETTINGS_LABEL_KEY = {
    "variant": "settings-variant",
    "fish_scoring": "settings-fish-scoring",
    "fish_without_double": "settings-fish-without-double",
    "bazar_reserve": "settings-bazar-reserve",
    "match_limit": "settings-match-limit",
    "turn_timeout": "settings-turn-timeout",
    "lang": "settings-language",
}
_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_USERNAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{3,31}$")


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else get_translator()


def _rows(buttons: Sequence[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i:i + width]) for i in range(0, len(buttons), width)]


def move_label(tile: Any, end: str | None) -> str:
    """Button label of a move: ``"[2|5] ←"`` (left end), ``"[2|5] →"`` (right end) or
    ``"[2|5]"`` (lead), the tile written with ``a <= b`` as in the hand (RULES.md §0)."""
    a, b = tile_halves(tile_id(tile))
    arrow = _ARROW[end]
    return f"[{a}|{b}] {arrow}" if arrow else f"[{a}|{b}]"


def hand_keyboard(game_id: int, version: int, moves: Iterable[Any]) -> InlineKeyboardMarkup:
    """Exactly one button per legal move (issue 4, "Hands in private"): ``moves`` are
    ``engine.Move``-like (``tile``, ``end``), normally ``engine.legal_moves(state)`` for the
    seat to act, and ``version`` is ``state.version``.  Buttons are ordered by tile, left end
    first, :data:`MOVE_ROW` per row.  Raises ``ValueError`` for a duplicate move."""
    items = []
    seen = set()
    for move in moves:
        tile, end = move.tile, move.end
        key = (tile_id(tile), end)
        if key in seen:
            raise ValueError(f"duplicate move {move!r}")
        seen.add(key)
        items.append((key[0], {"left": 0, None: 1, "right": 2}[end], tile, end))
    items.sort(key=lambda x: (x[0], x[1]))
    buttons = [
        InlineKeyboardButton(text=move_label(tile, end),
                             callback_data=move_callback(game_id, version, tile, end))
        for _, _, tile, end in items
    ]
    return InlineKeyboardMarkup(inline_keyboard=_rows(buttons, MOVE_ROW))


def lobby_keyboard(
    locale: str,
    lobby_id: int,
    *,
    allow_bots: bool = False,
    has_bots: bool = False,
    tr: Translator | None = None,
) -> InlineKeyboardMarkup:
    """Join / Leave, Start / Cancel; with ``allow_bots`` also Add bot (and Remove bot when
    ``has_bots``) (issue 4, "The lobby")."""
    tr = _tr(tr)

    def b(action: str, key: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=tr.plain(locale, key),
                                    callback_data=LobbyCb(action=action, lobby=lobby_id).pack())

    rows = [[b("join", "btn-join"), b("leave", "btn-leave")],
            [b("start", "btn-start"), b("cancel", "btn-cancel")]]
    if allow_bots:
        row = [b("addbot", "btn-addbot")]
        if has_bots:
            row.append(b("rmbot", "btn-rmbot"))
        rows.append(row)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def rematch_keyboard(locale: str, lobby_id: int, *, tr: Translator | None = None
                     ) -> InlineKeyboardMarkup:
    """The Rematch button under a match-end message; ``lobby_id`` names the finished match's
    lobby, whose players the new lobby seats."""
    tr = _tr(tr)
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text=tr.plain(locale, "btn-rematch"),
        callback_data=LobbyCb(action="rematch", lobby=lobby_id).pack())]])


def stop_keyboard(locale: str, match_id: int, *, tr: Translator | None = None
                  ) -> InlineKeyboardMarkup:
    """/stopgame confirmation: "yes, stop" and "no, keep playing"."""
    tr = _tr(tr)
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=tr.plain(locale, "btn-stop-yes"),
                             callback_data=StopCb(match=match_id, confirm=True).pack()),
        InlineKeyboardButton(text=tr.plain(locale, "btn-stop-no"),
                             callback_data=StopCb(match=match_id, confirm=False).pack()),
    ]])


def deep_link(bot_username: str, payload: str | None = None) -> str:
    """``https://t.me/<bot>?start=<payload>`` (or without ``?start``): one tap opens the DM
    and ``/start <payload>`` arrives there.  Raises ``ValueError`` for a payload Telegram
    would refuse (1..64 of ``A-Z a-z 0-9 _ -``) or a malformed username."""
    name = bot_username.lstrip("@")
    if not _USERNAME.match(name):
        raise ValueError(f"not a bot username: {bot_username!r}")
    if payload is None:
        return f"https://t.me/{name}"
    if not _PAYLOAD.match(payload):
        raise ValueError(f"deep-link payload must be 1..64 of [A-Za-z0-9_-]: {payload!r}")
    return f"https://t.me/{name}?start={payload}"


def dm_keyboard(locale: str, url: str, *, tr: Translator | None = None) -> InlineKeyboardMarkup:
    """One URL button "open a chat with the bot" (a :func:`deep_link`), for the group notice
    when a player's DM is closed (issue 4, "Timeouts, absence, failures")."""
    tr = _tr(tr)
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=tr.plain(locale, "btn-open-dm"), url=url)]])


def lang_keyboard(current: str | None = None, *, tr: Translator | None = None
                  ) -> InlineKeyboardMarkup:
    """/lang: one button per shipped language, each in its own language; ✓ marks
    ``current``."""
    tr = _tr(tr)
    buttons = []
    for code in SUPPORTED_LOCALES:
        label = tr.plain(code, "lang-name", code=code)
        if code == current:
            label = "✓ " + label
        buttons.append(InlineKeyboardButton(text=label, callback_data=LangCb(code=code).pack()))
    return InlineKeyboardMarkup(inline_keyboard=[buttons])


def settings_value(rules: Any, key: str, chat_locale: str | None = None) -> str:
    """The current value of settings entry ``key`` in :data:`SETTINGS_CHOICES` spelling,
    read from an ``engine.Rules`` (``lang`` from ``chat_locale``).  ``KeyError`` for an
    unknown key."""
    if key == "variant":
        return "teams" if rules.teams else "classic"
    if key == "fish_scoring":
        return str(rules.fish_scoring)
    if key == "fish_without_double":
        return "1" if rules.fish_without_double else "0"
    if key == "bazar_reserve":
        return str(rules.bazar_reserve)
    if key == "match_limit":
        return str(rules.match_limit)
    if key == "turn_timeout":
        return str(rules.turn_timeout)
    if key == "lang":
        return chat_locale or ""
    raise KeyError(key)


def settings_label(locale: str, key: str, value: str, *, tr: Translator | None = None) -> str:
    """Plain-text label of one value of settings entry ``key`` (e.g. ``"Без одного"``)."""
    tr = _tr(tr)
    if key == "variant":
        return tr.plain(locale, "opt-variant", value=value)
    if key == "fish_scoring":
        return tr.plain(locale, "opt-fish-scoring", value=value)
    if key == "fish_without_double":
        return tr.plain(locale, "opt-yes-no", value="yes" if value == "1" else "no")
    if key == "bazar_reserve":
        return tr.plain(locale, "opt-bazar-reserve", value=int(value))
    if key == "turn_timeout":
        return tr.plain(locale, "opt-seconds", value=int(value))
    if key == "lang":
        return tr.plain(value if value in SUPPORTED_LOCALES else locale, "lang-name",
                        code=value)
    return value


def settings_keyboard(
    locale: str, rules: Any, chat_locale: str | None = None, *, tr: Translator | None = None
) -> InlineKeyboardMarkup:
    """The /settings main menu: one button per entry, "Label: current value", opening that
    entry's choices; then "done"."""
    tr = _tr(tr)
    rows = []
    for key in SETTINGS_ORDER:
        value = settings_value(rules, key, chat_locale)
        text = tr.plain(locale, "settings-item", label=tr.plain(locale, _SETTINGS_LABEL_KEY[key]),
                        value=settings_label(locale, key, value, tr=tr) if value else "—")
        rows.append([InlineKeyboardButton(text=text,
                                          callback_data=SettingsCb(key=key, value="").pack())])
    rows.append([InlineKeyboardButton(text=tr.plain(locale, "btn-done"),
                                      callback_data=SettingsCb(key="done").pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def settings_choices_keyboard(
    locale: str, key: str, current: str | None = None, *, tr: Translator | None = None
) -> InlineKeyboardMarkup:
    """The choices of one settings entry (✓ on ``current``) and "back" to the menu.
    ``KeyError`` for an unknown key."""
    tr = _tr(tr)
    buttons = []
    for value in SETTINGS_CHOICES[key]:
        label = settings_label(locale, key, value, tr=tr)
        if value == current:
            label = "✓ " + label
        buttons.append(InlineKeyboardButton(
            text=label, callback_data=SettingsCb(key=key, value=value).pack()))
    rows = _rows(buttons, 1 if key == "fish_scoring" else 3)
    rows.append([InlineKeyboardButton(text=tr.plain(locale, "btn-back"),
                                      callback_data=SettingsCb(key="menu").pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def rules_patch(key: str, value: str) -> dict[str, Any]:
    """The ``engine.Rules.from_json`` fields that a chosen settings value sets, e.g.
    ``rules_patch("variant", "teams") == {"teams": True}``; ``{}`` for ``lang`` (a chat
    setting, not a rule).  Raises ``ValueError`` for a key or value not in
    :data:`SETTINGS_CHOICES` (a forged button)."""
    if key not in SETTINGS_CHOICES or value not in SETTINGS_CHOICES[key]:
        raise ValueError(f"not a settings choice: {key}={value!r}")
    if key == "variant":
        return {"teams": value == "teams"}
    if key == "fish_scoring":
        return {"fish_scoring": value}
    if key == "fish_without_double":
        return {"fish_without_double": value == "1"}
    if key in ("bazar_reserve", "match_limit", "turn_timeout"):
        return {key: int(value)}
    return {}
