"""Inline keyboards of every bot message.

Button labels come from ``locales/`` (plain text); callback data from :mod:`ui.callbacks`.
Every function is pure and returns an aiogram ``InlineKeyboardMarkup``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from service.views import ChatInfo, MoveOption, PlacementOption

from . import compose, targets
from .callbacks import (
    LangCb,
    LobbyCb,
    SettingsCb,
    SoloCb,
    StopCb,
    VariantCb,
    move_callback,
    play_callback,
    tile_halves,
    tile_id,
)
from .i18n import DEFAULT_LOCALE, SUPPORTED_LOCALES, Translator, get_translator
from .settings import Setting, settings

__all__ = [
    "MOVE_ROW",
    "move_label",
    "hand_keyboard",
    "compose_keyboard",
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
#: Buttons of moves of two placements per keyboard row (their labels are longer).
MULTI_ROW = 2
#: Ends a :class:`~ui.callbacks.MoveCb` button carries; any other placement travels in a
#: :class:`~ui.callbacks.PlayCb`.
_MOVE_CB_ENDS = ("left", "right", None)

_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_USERNAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{3,31}$")


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else get_translator()


def _rows(buttons: Sequence[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i:i + width]) for i in range(0, len(buttons), width)]


def move_label(tile: Any, end: str | None, closed: bool = False, along: bool = False) -> str:
    """Button label of a one-tile move: ``"[2|5] ←"`` (left end), ``"[2|5] →"`` (right
    end), ``"[2|5]"`` (lead), ``↑``/``↓`` on the cross's arms, ``⋯`` the gap (RULES.md §2.1
    rule 7), with 🔒 for a closed double (§2.0.3) and ∥ for one laid along (§2.5 rule 3); the
    tile written with ``a <= b`` as in the hand (RULES.md §0)."""
    return compose.placement_label(MoveOption(_code(tile), end, closed, along))


def _code(tile: Any) -> str:
    """``"a-b"`` (``a <= b``) of a tile given as a code, a pair or an ``engine.Tile``."""
    a, b = tile_halves(tile_id(tile))
    return f"{a}-{b}"


def _options(moves: Iterable[Any]) -> list[MoveOption]:
    """``moves`` as :class:`MoveOption` (engine moves are accepted too, for tests)."""
    out = []
    for m in moves:
        if isinstance(m, MoveOption):
            out.append(m)
            continue
        first, *more = m if isinstance(m, tuple) else (m,)
        out.append(MoveOption(_code(first.tile), first.end, bool(getattr(first, "closed", 0)),
                              bool(getattr(first, "along", 0)),
                              tuple(PlacementOption(_code(p.tile), p.end, bool(p.closed),
                                                    bool(p.along)) for p in more)))
    return out


def _single_button(game_id: int, version: int, m: MoveOption) -> InlineKeyboardButton:
    label = move_label(m.tile, m.end, m.closed, m.along)
    if m.end in _MOVE_CB_ENDS and not m.closed and not m.along:
        data = move_callback(game_id, version, m.tile, m.end)
    else:
        data = play_callback(game_id, version, "p", m.placements)
    return InlineKeyboardButton(text=label, callback_data=data)


def hand_keyboard(game_id: int, version: int, moves: Iterable[Any], *,
                  locale: str | None = None, tr: Translator | None = None,
                  seat: int | None = None, names: Sequence[str] = (),
                  oldest: int | str | None = None) -> InlineKeyboardMarkup:
    """The move keyboard of the seat to act: ``moves`` are its legal moves (``HandView.legal``,
    :class:`~service.views.MoveOption`), ``version`` the view's version (issue 4, "Hands in
    private"; issues 12 and 13).

    - a button per move of one placement (:func:`move_label`), ordered by tile, left end
      first, :data:`MOVE_ROW` per row; a plain tile on the line's ends or a lead carries
      :class:`~ui.callbacks.MoveCb`, any other placement (an arm of the cross, the gap, a
      closed double, a double along) :class:`~ui.callbacks.PlayCb` (RULES.md §2.0.4);
    - the moves of several placements (RULES.md §2.0.4): a button each, showing every tile
      (:func:`ui.compose.move_text`, ✳ on a double that becomes the spinner), when
      :func:`ui.compose.whole_buttons` says so; else one 🧩 button that starts building one
      press by press (:func:`compose_keyboard`).

    Every button plays or builds a legal move and every legal move is reachable.  Raises
    ``ValueError`` for a duplicate move.

    Placements on the trains and the sausage (RULES.md §2.11, §2.12) get their own keyboard
    (:func:`ui.targets.targets_keyboard`, with the ``seat`` to act, the seats' ``names`` and
    the train of the ``oldest`` open double)."""
    moves = list(moves)
    if targets.targeted(moves):
        return targets.targets_keyboard(game_id, version, moves, seat=seat, names=names,
                                        oldest=oldest, locale=locale, tr=tr)
    options = _options(moves)
    seen = set()
    for m in options:
        key = compose.option_key(m)
        if key in seen:
            raise ValueError(f"duplicate move {m!r}")
        seen.add(key)
    singles = sorted((m for m in options if not m.more), key=compose.sort_key)
    rows = _rows([_single_button(game_id, version, m) for m in singles], MOVE_ROW)
    multi = compose.multi_moves(options)
    if not multi:
        return InlineKeyboardMarkup(inline_keyboard=rows)
    if compose.whole_buttons(options):
        ordered = sorted(multi, key=lambda m: [compose.sort_key(p) for p in m.placements])
        buttons = [InlineKeyboardButton(
            text=compose.move_text(m.placements, spinner=compose.first_matters(m, options),
                                   spatial=True),
            callback_data=play_callback(game_id, version, "p", m.placements))
            for m in ordered]
        rows += _rows(buttons, MULTI_ROW)
    else:
        tr = _tr(tr)
        rows.append([InlineKeyboardButton(
            text=tr.plain(locale or DEFAULT_LOCALE, "btn-compose"),
            callback_data=play_callback(game_id, version, "b"))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def compose_keyboard(game_id: int, version: int, moves: Iterable[Any], chosen: Sequence[Any],
                     *, locale: str | None = None, tr: Translator | None = None,
                     seat: int | None = None, names: Sequence[str] = (),
                     oldest: int | str | None = None) -> InlineKeyboardMarkup:
    """The keyboard of a move of several placements being built (issue 13, "Composing a
    move"; RULES.md §2.0.4): ``chosen`` the placements chosen so far (a
    :func:`ui.compose.is_prefix` of ``moves``, the legal moves).  A "+" button per placement
    that may be added (:func:`ui.compose.continuations`: each double on a free end it fits,
    face up or closed where allowed), "play" once ``chosen`` is a whole legal move (it plays
    the move as the service lists it), and "cancel" back to :func:`hand_keyboard`.  Every
    button carries the placements so far (:class:`~ui.callbacks.PlayCb`), so the state
    lives in the keyboard alone.  Raises ``ValueError`` when ``chosen`` is no part of a legal
    move.

    On the trains ``chosen`` is one tile without a target: the trains it fits
    (:func:`ui.targets.choice_keyboard`)."""
    tr = _tr(tr)
    locale = locale or DEFAULT_LOCALE
    moves = list(moves)
    if targets.targeted(moves):
        if len(chosen) != 1:
            raise ValueError(f"one tile is chosen on the trains, not {chosen!r}")
        return targets.choice_keyboard(game_id, version, moves, chosen[0].tile, seat=seat,
                                       names=names, oldest=oldest, locale=locale, tr=tr)
    options = _options(moves)
    chosen = list(chosen)
    if not compose.is_prefix(chosen, options):
        raise ValueError(f"no legal move starts with {chosen!r}")
    adds = [InlineKeyboardButton(
        text="+ " + compose.placement_label(p),
        callback_data=play_callback(game_id, version, "b", chosen + [p]))
        for p in compose.continuations(chosen, options)]
    rows = _rows(adds, MOVE_ROW)
    done = compose.completed(chosen, options)
    if done is not None:
        rows.append([InlineKeyboardButton(
            text=tr.plain(locale, "btn-compose-play"),
            callback_data=play_callback(game_id, version, "p", done.placements))])
    rows.append([InlineKeyboardButton(text=tr.plain(locale, "btn-compose-cancel"),
                                      callback_data=play_callback(game_id, version, "t"))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


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
    from service.live.seats import STRENGTHS

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
        text=_check(tr.plain(locale, "strength-word", value=s), s == strength),
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


def webapp_link(bot_username: str, short_name: str, match_id: int) -> str:
    """The direct link that opens the Mini App on ``match_id`` (issue 21):
    ``https://t.me/<bot>/<short name>?startapp=m<id>``; the page gets ``m<id>`` as the
    signed ``start_param`` of its ``initData``. Raises ``ValueError`` for a malformed
    username."""
    name = bot_username.lstrip("@")
    if not _USERNAME.match(name):
        raise ValueError(f"not a bot username: {bot_username!r}")
    return f"https://t.me/{name}/{short_name}?startapp=m{int(match_id)}"


def webapp_page(base_url: str, match_id: int) -> str:
    """The page's own address for a ``web_app`` button (private chats only: Telegram refuses
    one in a group with ``BUTTON_TYPE_INVALID``): ``<WEBAPP_URL>?m=<id>``."""
    return f"{base_url}?m={int(match_id)}"


def webapp_button(locale: str, *, link: str | None = None, page: str | None = None,
                  tr: Translator | None = None) -> InlineKeyboardButton:
    """The button "open the table": a URL button to a :func:`webapp_link` (``link``, for a
    group) or a ``web_app`` button to a :func:`webapp_page` (``page``, private chats)."""
    tr = _tr(tr)
    text = tr.plain(locale, "webapp-open")
    if page is not None:
        return InlineKeyboardButton(text=text, web_app=WebAppInfo(url=page))
    return InlineKeyboardButton(text=text, url=link)


def webapp_keyboard(locale: str, *, link: str | None = None, page: str | None = None,
                    tr: Translator | None = None) -> InlineKeyboardMarkup:
    """A keyboard of one :func:`webapp_button`."""
    return InlineKeyboardMarkup(inline_keyboard=[[webapp_button(locale, link=link, page=page,
                                                                tr=tr)]])


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
    (:func:`ui.settings.settings`, :meth:`~ui.settings.Setting.offered`), "Label: current
    value", opening that setting's choices; then "done"."""
    tr = _tr(tr)
    rows = []
    for spec in settings():
        if not spec.offered(chat.full_rules):
            continue
        text = tr.plain(locale, "settings-item", label=tr.plain(locale, spec.label),
                        value=spec.shown(tr, locale, chat))
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
