"""Inline keyboards of every bot message.

Button labels come from ``locales/`` (plain text); callback data from :mod:`ui.callbacks`.
Every function is pure and returns an aiogram ``InlineKeyboardMarkup``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from service.views import ChatInfo

from .callbacks import (
    LangCb,
    LobbyCb,
    SettingsCb,
    SoloCb,
    StopCb,
    VariantCb,
    move_callback,
    tile_halves,
    tile_id,
)
from .i18n import SUPPORTED_LOCALES, Translator, get_translator
from .settings import SETTINGS, Setting

__all__ = [
    "MOVE_ROW",
    "move_label",
    "hand_keyboard",
    "lobby_keyboard",
    "rematch_keyboard",
    "stop_keyboard",
    "dm_keyboard",
    "deep_link",
    "lang_keyboard",
    "settings_keyboard",
    "settings_choices_keyboard",
    "variant_keyboard",
    "solo_keyboard",
]

#: Move buttons per keyboard row.
MOVE_ROW = 3
_ARROW = {"left": "←", "right": "→", None: ""}

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
    """Exactly one button per legal move (issue 4, "Hands in private"): ``moves`` have a
    ``tile`` (code ``"a-b"``) and an ``end``, normally ``HandView.legal`` of the seat to act,
    and ``version`` is the view's version.  Buttons are ordered by tile, left end
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
    ``has_bots``) (issue 4, "The lobby"); then "Another game", which opens the games to
    choose from (:func:`variant_keyboard`, RULES.md §2)."""
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
    rows.append([InlineKeyboardButton(
        text=tr.plain(locale, "btn-variant"),
        callback_data=VariantCb(action="menu", lobby=lobby_id).pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _check(label: str, on: bool) -> str:
    return "✓ " + label if on else label


def variant_keyboard(locale: str, lobby_id: int, current: str, *,
                     tr: Translator | None = None) -> InlineKeyboardMarkup:
    """The games a lobby can switch to (RULES.md §1, §2.1–§2.9), two per row, ✓ on
    ``current``, and "back" to the lobby's buttons."""
    from .variants import variant_name, variants

    tr = _tr(tr)
    buttons = [InlineKeyboardButton(
        text=_check(variant_name(tr, locale, v.name), v.name == current),
        callback_data=VariantCb(action="pick", lobby=lobby_id, variant=v.name).pack())
        for v in variants()]
    rows = _rows(buttons, 2)
    rows.append([InlineKeyboardButton(
        text=tr.plain(locale, "btn-back"),
        callback_data=VariantCb(action="back", lobby=lobby_id).pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def solo_keyboard(locale: str, variant: str, bots: int, strength: str, counts: Sequence[int],
                  *, tr: Translator | None = None) -> InlineKeyboardMarkup:
    """The set-up of a match against computer players in private: the games (two per row),
    the numbers of opponents ``counts`` the chosen game allows, the strengths, and "Play"
    (``SoloCb``; ✓ on the current choice)."""
    from service import STRENGTHS

    from .variants import variant_name, variants

    tr = _tr(tr)

    def cb(**changes: Any) -> str:
        values = {"variant": variant, "bots": bots, "strength": strength, **changes}
        return SoloCb(**values).pack()

    games = [InlineKeyboardButton(
        text=_check(variant_name(tr, locale, v.name), v.name == variant),
        callback_data=cb(variant=v.name)) for v in variants()]
    rows = _rows(games, 2)
    rows.append([InlineKeyboardButton(
        text=_check(tr.plain(locale, "opt-bots", value=n), n == bots),
        callback_data=cb(bots=n)) for n in counts])
    rows.append([InlineKeyboardButton(
        text=_check(tr.plain(locale, "opt-strength", value=s), s == strength),
        callback_data=cb(strength=s)) for s in STRENGTHS])
    rows.append([InlineKeyboardButton(text=tr.plain(locale, "btn-play"),
                                      callback_data=cb(go=True))])
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


def settings_keyboard(locale: str, chat: ChatInfo, *, tr: Translator | None = None
                      ) -> InlineKeyboardMarkup:
    """The /settings main menu: one button per setting the chat's game offers
    (:data:`ui.settings.SETTINGS`, :meth:`~ui.settings.Setting.offered`), "Label: current
    value", opening that setting's choices; then "done"."""
    tr = _tr(tr)
    rows = []
    for spec in SETTINGS:
        if not spec.offered(chat.full_rules):
            continue
        value = spec.read(chat)
        text = tr.plain(locale, "settings-item", label=tr.plain(locale, spec.label),
                        value=spec.value_label(tr, locale, value) if value else "—")
        rows.append([InlineKeyboardButton(
            text=text, callback_data=SettingsCb(key=spec.key, value="").pack())])
    rows.append([InlineKeyboardButton(text=tr.plain(locale, "btn-done"),
                                      callback_data=SettingsCb(key="done").pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def settings_choices_keyboard(locale: str, spec: Setting, current: str | None = None, *,
                              rules: Any = None, tr: Translator | None = None
                              ) -> InlineKeyboardMarkup:
    """The choices of one setting under the chat's ``rules`` (its game's limits, for one;
    :meth:`~ui.settings.Setting.choices_for`), ✓ on ``current``, and "back" to the menu."""
    tr = _tr(tr)
    buttons = []
    for value in spec.choices_for(rules or {}):
        label = spec.value_label(tr, locale, value)
        if value == current:
            label = "✓ " + label
        buttons.append(InlineKeyboardButton(
            text=label, callback_data=SettingsCb(key=spec.key, value=value).pack()))
    rows = _rows(buttons, spec.width)
    rows.append([InlineKeyboardButton(text=tr.plain(locale, "btn-back"),
                                      callback_data=SettingsCb(key="menu").pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)
