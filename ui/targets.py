"""The move keyboards of the trains and the sausage (RULES.md §2.10.0: Мексиканский поезд
§2.11, Колбаса §2.12; issue 32).

A placement there names a target, not an end: a train (a seat's own, another seat's public
one, the Mexican train) or a line of the sausage (its end, a double inserted at a junction,
a cut).  Nothing here knows a rule: every function reads the legal placements the service
gives (``HandView.legal``: each a :class:`~service.views.MoveOption` with its ``train``,
``line``/``at`` or ``cut``) and turns them into buttons.

- Мексиканский поезд: a button per tile that has a legal placement; a tile that goes to one
  train only plays there at once (the button says which: «[5|12] → мой»), a tile that fits
  several shows the trains it fits (the oldest open double's first, then one's own, the
  Mexican train, the others' public trains in seat order after the player's), and "back".
  The placements after a double come one press at a time, each its own keyboard (§2.11
  rule 8).
- Колбаса: the keyboard comes only when the tile turned over has a choice (§2.12 rule 6), a
  button per placement: a line's end, a double inserted at a junction, a cut (with how many
  tiles it sends to the opponent).

Every button is a :class:`~ui.callbacks.PlaceCb` carrying the match's version: a press on an
old keyboard is stale, and a forged one does not parse.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from service.views import MoveOption, PlacementOption

from .callbacks import place_callback, tile_halves, tile_id
from .i18n import DEFAULT_LOCALE, Translator, get_translator

__all__ = ["TILE_ROW", "TARGET_ROW", "targeted", "tile_targets", "target_label",
           "target_order", "targets_keyboard", "choice_keyboard", "choice_lines",
           "legend_lines"]

#: Tile buttons of the trains per row (a tile alone, or with the train it goes to).
TILE_ROW = 3
#: Target buttons per row (a train's name, a place on the sausage).
TARGET_ROW = 2
#: The marks of the trains: one's own, the Mexican train, another seat's public train, a
#: tile that fits several trains, a cut of the sausage.
OWN_MARK = "🚂"
MEXICAN_MARK = "🇲🇽"
OTHER_MARK = "🚃"
MORE_MARK = "…"
CUT_MARK = "✂"


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else get_translator()


def targeted(legal: Iterable[Any]) -> bool:
    """Whether ``legal`` are placements on the trains or the sausage."""
    return any(getattr(m, "train", None) is not None or getattr(m, "line", None) is not None
               or getattr(m, "cut", None) is not None for m in legal)


def _halves(tile: str) -> tuple[int, int]:
    return tile_halves(tile_id(tile))


def _tile_text(tile: str) -> str:
    a, b = _halves(tile)
    return f"[{a}|{b}]"


def target_order(p: Any, seat: int | None, players: int = 8,
                 oldest: int | str | None = None) -> tuple[int, int]:
    """The order of a placement's target on the buttons: on the trains the oldest open
    double's train, the player's own, the Mexican train, then the other trains in seat order
    after the player's (RULES.md §2.11 rule 14's order); on the sausage line ``a``'s end,
    ``b``'s, the junctions by position (``a`` first), the cuts by position."""
    if p.train is not None:
        if oldest is not None and p.train == oldest:
            return (0, 0)
        if p.train == seat:
            return (1, 0)
        if p.train == "mexican":
            return (2, 0)
        base = seat if seat is not None else -1
        return (3, (int(p.train) - base) % max(players, 1))
    if p.cut is not None:
        return (6, p.cut)
    if p.at is None:
        return (4, 0 if p.line == "a" else 1)
    return (5, 2 * p.at + (0 if p.line == "a" else 1))


def tile_targets(legal: Iterable[MoveOption]) -> dict[str, list[PlacementOption]]:
    """The legal placements by tile, tiles in hand order (``[a|b]``, a ≤ b)."""
    out: dict[str, list[PlacementOption]] = {}
    for m in sorted(legal, key=lambda m: _halves(m.tile)):
        out.setdefault(m.tile, []).append(m.first)
    return out


def target_label(tr: Translator, locale: str, p: Any, *, seat: int | None,
                 names: Sequence[str] = ()) -> str:
    """Where a placement goes, in words for a button (plain text): «🚂 мой», «🇲🇽
    мексиканский», «🚃 Оля»; «A: в конец», «B: между 2 и 3», «✂ на 3 (7 костей)»."""
    if p.train is not None:
        if p.train == "mexican":
            return f"{MEXICAN_MARK} " + tr.plain(locale, "target-mexican")
        if p.train == seat:
            return f"{OWN_MARK} " + tr.plain(locale, "target-own")
        name = names[p.train] if isinstance(p.train, int) and p.train < len(names) \
            else f"#{int(p.train) + 1}"
        return f"{OTHER_MARK} " + tr.plain(locale, "target-train", name=name)
    if p.cut is not None:
        return f"{CUT_MARK} " + tr.plain(locale, "target-cut", at=p.cut, count=2 * p.cut + 1)
    line = str(p.line).upper()
    if p.at is None:
        return tr.plain(locale, "target-line-end", line=line)
    return tr.plain(locale, "target-line-at", line=line, at=p.at, next=p.at + 1)


def _button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


def targets_keyboard(game_id: int, version: int, legal: Sequence[MoveOption], *,
                     seat: int | None = None, names: Sequence[str] = (),
                     oldest: int | str | None = None, locale: str | None = None,
                     tr: Translator | None = None) -> InlineKeyboardMarkup:
    """The move keyboard of the seat to act on the trains or the sausage.  On the trains a
    button per tile (:data:`TILE_ROW` a row): it plays the tile where it fits one train only,
    else it shows the trains it fits (:func:`choice_keyboard`).  On the sausage (one tile
    turned over, several placements) a button per placement.  ``names`` of the seats (for
    the others' trains), ``oldest`` the train of the oldest open double."""
    tr = _tr(tr)
    locale = locale or DEFAULT_LOCALE
    by_tile = tile_targets(legal)
    players = max(len(names), 1)
    rows: list[list[InlineKeyboardButton]] = []
    if len(by_tile) == 1 and any(m.train is None for m in legal):  # the sausage
        (tile, targets), = by_tile.items()
        ordered = sorted(targets, key=lambda p: target_order(p, seat, players, oldest))
        buttons = [_button(target_label(tr, locale, p, seat=seat, names=names),
                           place_callback(game_id, version, "p", tile, p)) for p in ordered]
        return InlineKeyboardMarkup(inline_keyboard=_rows(buttons, TARGET_ROW))
    buttons = []
    for tile, targets in by_tile.items():
        if len(targets) == 1:
            p = targets[0]
            text = f"{_tile_text(tile)} → " + _short(tr, locale, p, seat, names)
            buttons.append(_button(text, place_callback(game_id, version, "p", tile, p)))
        else:
            buttons.append(_button(f"{_tile_text(tile)} {MORE_MARK}",
                                   place_callback(game_id, version, "c", tile)))
    rows = _rows(buttons, TILE_ROW if all(len(t) > 1 for t in by_tile.values())
                 else TARGET_ROW)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _short(tr: Translator, locale: str, p: Any, seat: int | None, names: Sequence[str]
           ) -> str:
    """A train's mark alone where the button is short of room: 🚂, 🇲🇽, or 🚃 and the
    owner's name."""
    if p.train == seat:
        return OWN_MARK
    if p.train == "mexican":
        return MEXICAN_MARK
    return target_label(tr, locale, p, seat=seat, names=names)


def _rows(buttons: Sequence[InlineKeyboardButton], width: int
          ) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i:i + width]) for i in range(0, len(buttons), width)]


def choice_keyboard(game_id: int, version: int, legal: Sequence[MoveOption], tile: str, *,
                    seat: int | None = None, names: Sequence[str] = (),
                    oldest: int | str | None = None, locale: str | None = None,
                    tr: Translator | None = None) -> InlineKeyboardMarkup:
    """The trains ``tile`` may go to (a button each, in :func:`target_order`) and "back" to
    the tiles.  Raises ``ValueError`` when ``tile`` has no legal placement."""
    tr = _tr(tr)
    locale = locale or DEFAULT_LOCALE
    targets = tile_targets(legal).get(_code(tile))
    if not targets:
        raise ValueError(f"no legal placement of {tile!r}")
    players = max(len(names), 1)
    ordered = sorted(targets, key=lambda p: target_order(p, seat, players, oldest))
    buttons = [_button(target_label(tr, locale, p, seat=seat, names=names),
                       place_callback(game_id, version, "p", _code(tile), p))
               for p in ordered]
    rows = _rows(buttons, TARGET_ROW)
    rows.append([_button(tr.plain(locale, "btn-back"),
                         place_callback(game_id, version, "t"))])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _code(tile: Any) -> str:
    a, b = tile_halves(tile_id(tile))
    return f"{a}-{b}"


def choice_lines(locale: str, tile: str, *, tr: Translator | None = None) -> list[str]:
    """The hand message's lines while the player picks the train for ``tile``."""
    return [_tr(tr).t(locale, "target-choose", tile=_tile_text(tile))]


def legend_lines(locale: str, legal: Sequence[MoveOption], *, seat: int | None = None,
                 tr: Translator | None = None) -> list[str]:
    """What the marks on the buttons of the trains mean, for the marks the keyboard shows
    (🚂 one's own train, 🇲🇽 the Mexican train, … a tile that fits several trains)."""
    tr = _tr(tr)
    by_tile = tile_targets(legal)
    if not by_tile or not any(m.train is not None for m in legal):
        return []
    single = [ts[0] for ts in by_tile.values() if len(ts) == 1]
    marks = []
    if any(p.train == seat for p in single):
        marks.append(tr.plain(locale, "target-legend-own", mark=OWN_MARK))
    if any(p.train == "mexican" for p in single):
        marks.append(tr.plain(locale, "target-legend-mexican", mark=MEXICAN_MARK))
    if any(len(ts) > 1 for ts in by_tile.values()):
        marks.append(tr.plain(locale, "target-legend-more", mark=MORE_MARK))
    return [tr.t(locale, "target-legend", marks=" · ".join(marks))] if marks else []
