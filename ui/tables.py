"""The trains and the sausage in words (RULES.md §2.11 Мексиканский поезд, §2.12 Колбаса;
issue 32): the lines of the group's text table and of the private hand message, and a
placement's target in the action log.

Pure functions from :class:`~service.views.LayoutView` (``kind`` ``"trains"`` or
``"sausage"``) to Telegram HTML, words from ``locales/*/tables.ftl``; :mod:`ui.render`
calls them where a layout's kind is one of these.  Nothing here decides a rule, and nothing
here ever holds a hand: the group's layout has none, and a Колбаса queue is shown to nobody
(§2.12 rule 1), only its length.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.views import LaidTile, LayoutView, TrainView

from .i18n import Markup, Translator

__all__ = ["TRAIN_TILES", "ENGINE_MARK", "MEXICAN_MARK", "MARKER", "OPEN_MARK",
           "SAUSAGE_MARK", "train_name", "layout_lines", "target_words", "numbers_block"]

#: Tiles of a train shown in the text (its last ones: only the end matters for play).
TRAIN_TILES = 8
#: The engine double in the middle of the trains (§2.11 rule 1), a train, the Mexican
#: train, the marker on a public train (rule 5), an open double (rule 7), the sausage.
ENGINE_MARK = "🚉"
TRAIN_MARK = "🚂"
MEXICAN_MARK = "🇲🇽"
MARKER = "🚩"
OPEN_MARK = "⚠️"
SAUSAGE_MARK = "🌭"


def _tile(t: Any) -> str:
    a, b = (t.a, t.b) if isinstance(t, LaidTile) else t
    return f"[{a}|{b}]"


def _row(tiles: Sequence[Any], max_tiles: int | None) -> str:
    """Tiles in a row, oriented; only the last ``max_tiles`` of a longer one after "…"."""
    parts = [_tile(t) for t in tiles]
    if max_tiles is not None and len(parts) > max_tiles:
        parts = ["…"] + parts[-max_tiles:]
    return "".join(parts)


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?" if seat is None else f"#{seat + 1}"
    return str(names[seat])


def train_name(tr: Translator, locale: str, train: TrainView | Any, names: Sequence[str], *,
               seat: int | None = None) -> str:
    """A train's name as plain text: «мексиканский», a seat's «Оля», the reader's own
    «мой» (``seat``)."""
    key = train.key if isinstance(train, TrainView) else train
    if key == "mexican":
        return tr.plain(locale, "trains-mexican")
    if seat is not None and key == seat:
        return tr.plain(locale, "trains-own")
    return _name(names, int(key))


def target_words(tr: Translator, locale: str, note: Any, names: Sequence[str]) -> str:
    """Where a placement of the log went (plain words, HTML-safe by the translator): on a
    train (the mover's own, another seat's, the Mexican one), at a line's end, inserted at a
    junction, or a cut."""
    if note.train is not None:
        if note.train == "mexican":
            return tr.t(locale, "log-target-mexican")
        if note.train == note.seat:
            return tr.t(locale, "log-target-own")
        return tr.t(locale, "log-target-train", owner=_name(names, int(note.train)))
    if note.cut is not None:
        return tr.t(locale, "log-target-cut", at=note.cut)
    line = str(note.line).upper()
    if note.at is None:
        return tr.t(locale, "log-target-line", line=line)
    return tr.t(locale, "log-target-at", line=line, at=note.at)


def layout_lines(tr: Translator, locale: str, layout: LayoutView, names: Sequence[str], *,
                 max_tiles: int | None = None, hand: bool = False,
                 seat: int | None = None) -> list[str]:
    """The trains (§2.11) or the sausage (§2.12) as lines of the text table (``hand``: the
    private hand message's shorter words, ``seat`` the reader)."""
    if layout.kind == "trains":
        return _train_lines(tr, locale, layout, names, max_tiles, hand, seat)
    return _sausage_lines(tr, locale, layout, names, hand)


def _train_lines(tr: Translator, locale: str, layout: LayoutView, names: Sequence[str],
                 max_tiles: int | None, hand: bool, seat: int | None) -> list[str]:
    """The engine in the middle, then a line per train: its owner (🚩 when public), its last
    tiles and the number its end shows; then the oldest open double everybody must cover."""
    e = layout.engine
    lines = [tr.t(locale, "trains-engine", tile=f"[{e}|{e}]")]
    keep = TRAIN_TILES if max_tiles is None else max(1, min(TRAIN_TILES, max_tiles))
    if hand:
        keep = 3
    for t in layout.trains:
        mark = MEXICAN_MARK if t.mexican else TRAIN_MARK
        name = train_name(tr, locale, t, names, seat=seat)
        flags = (f" {MARKER}" if t.public else "") + (f" {OPEN_MARK}" if t.open is not None
                                                        else "")
        row = _row(t.tiles, keep) if t.tiles else "—"
        lines.append(tr.t(locale, "trains-train", mark=mark, name=name, flags=flags,
                          tiles=Markup(row), end=t.end))
    oldest = next(iter(layout.open_trains), None)
    if oldest is not None:
        double = oldest.tiles[-1].a if oldest.tiles else layout.engine
        lines.append(tr.t(locale, "trains-open", tile=f"[{double}|{double}]",
                          name=train_name(tr, locale, oldest, names, seat=seat)))
    return lines


def numbers_block(layout: LayoutView) -> str:
    """The numbers of the sausage's two lines by position (§2.12 rule 3), one above the
    other in a monospaced block, so that a cut's pair reads off one column: ``k``, then
    ``A`` and ``B``; the shorter line's missing positions blank."""
    s = layout.sausage
    na, nb = s.numbers("a"), s.numbers("b")
    width = max(len(na), len(nb))
    cells = max(2, max((len(str(n)) for n in na + nb), default=1) + 1)

    def row(label: str, values: Sequence[Any]) -> str:
        return label + "".join(str(v).rjust(cells) for v in values)

    return "\n".join([row("k", range(width)), row("A", na), row("B", nb)])


def _sausage_lines(tr: Translator, locale: str, layout: LayoutView, names: Sequence[str],
                   hand: bool) -> list[str]:
    """The head, lines A and B with their ends, their numbers by position, the tile turned
    over that waits for a choice, and each queue's length."""
    s = layout.sausage
    if s is None or s.head is None:
        return [] if hand else [tr.t(locale, "sausage-empty")]
    lines = [tr.t(locale, "sausage-head", mark=SAUSAGE_MARK, tile=_tile(s.head))]
    ends = s.ends
    for k, name in enumerate(("a", "b")):
        tiles = s.line(name)
        lines.append(tr.t(locale, "sausage-line", line=name.upper(),
                          tiles=Markup(_row(tiles, None) if tiles else "—"), end=ends[k]))
    lines.append("<pre>" + numbers_block(layout) + "</pre>")
    if s.turned is not None:
        lines.append(tr.t(locale, "sausage-turned", tile=_tile(s.turned)))
    if not hand:
        queues = " · ".join(tr.plain(locale, "sausage-queue", name=_name(names, i), count=n)
                            for i, n in enumerate(s.queues))
        lines.append(tr.t(locale, "sausage-queues", queues=queues))
    return lines
