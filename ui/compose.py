"""Moves of several placements in the private chat, built press by press (RULES.md §2.0.4;
issues 12 and 13, "Moves of two tiles", "Composing a move").

Where a variant lets a player place several doubles at once (§2.1 rule 1, §2.2 rule 2, §2.3,
§2.4), or two tiles a turn after the extraordinary lead (§2.1 rule 7), the moves are too many
for a button each.  A move of several placements is then built one placement at a time: the
keyboard offers each placement that keeps the move so far a part of some legal move, and
"play" once it is a whole legal move.  Nothing here knows a rule: every function reads the
legal moves the service gives (``HandView.legal``, :class:`~service.views.MoveOption`) and
only matches placements against them.

Matching: a legal move is a set of placements, except where its first placement matters —
when the service lists the same placements in more than one order (the first double of a
move in Телефон becomes the spinner, §2.0.2, §2.4), a move being built matches only the
order whose first placement it chose first.  Otherwise the placements may be chosen in any
order.

The texts about a move being built, and the legend of the marks on the move buttons, are in
``locales/*/compose.ftl``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from service.views import HandView, MoveOption, PlacementOption, TableView

from . import targets
from .callbacks import MAX_PLACEMENTS, tile_halves, tile_id
from .i18n import Translator, get_translator
from .render import render_hand

__all__ = [
    "MULTI_BUTTONS",
    "CLOSED_MARK",
    "ALONG_MARK",
    "SPINNER_MARK",
    "Key",
    "key_of",
    "option_key",
    "multi_moves",
    "whole_buttons",
    "first_matters",
    "is_prefix",
    "continuations",
    "completed",
    "sort_key",
    "placement_label",
    "move_text",
    "legend_lines",
    "compose_lines",
    "hand_text",
]

#: At most this many moves of several placements, each of two, are shown as a button each;
#: more (or any of three or four placements) are built press by press.
MULTI_BUTTONS = 8
#: A double placed face down, closing its end (RULES.md §2.0.3).
CLOSED_MARK = "🔒"
#: A double laid along the line, counting once (Маггинс, RULES.md §2.5 rule 3).
ALONG_MARK = "∥"
#: The first double of the move, which becomes the spinner (RULES.md §2.0.2).
SPINNER_MARK = "✳"

_ARROWS = {"left": "←", "right": "→", "up": "↑", "down": "↓", "gap": "⋯", None: ""}
_END_ORDER = {"left": 0, None: 1, "gap": 2, "right": 3, "up": 4, "down": 5}

#: A placement as a hashable value: ``(tile id, end, closed, along)``.
Key = tuple[int, str | None, bool, bool]


def key_of(p: Any) -> Key:
    """The :data:`Key` of a placement (anything with ``tile``, ``end``, ``closed``,
    ``along``; the tile as a code ``"a-b"`` or a pair).  Raises ``ValueError`` for a tile
    that is not of the set."""
    return (tile_id(p.tile), p.end, bool(p.closed), bool(p.along))


def option_key(move: MoveOption) -> tuple[Key, ...]:
    """The keys of every placement of ``move``, in its order."""
    return tuple(key_of(p) for p in move.placements)


def sort_key(p: Any) -> tuple[int, int, bool, bool]:
    """Button order of placements: by tile (RULES.md §0 order), then left, lead, the gap,
    right, up, down, face up before closed, across before along."""
    tid, end, closed, along = key_of(p)
    return (tid, _END_ORDER.get(end, 9), closed, along)


def multi_moves(legal: Iterable[MoveOption]) -> tuple[MoveOption, ...]:
    """The legal moves of several placements."""
    return tuple(m for m in legal if m.more)


def whole_buttons(legal: Iterable[MoveOption]) -> bool:
    """Whether the moves of several placements get a button each: at most
    :data:`MULTI_BUTTONS` of them, each of two placements (a sea goat's two doubles, §2.1
    rule 1, the two tiles a turn after its extraordinary lead, rule 7, two doubles of
    Телефон).  Otherwise they are built press by press."""
    multi = multi_moves(legal)
    return len(multi) <= MULTI_BUTTONS and all(len(m.more) == 1 for m in multi)


class _Index:
    """The moves of several placements of one legal list, for matching."""

    def __init__(self, legal: Iterable[MoveOption]) -> None:
        self.moves = multi_moves(legal)
        self.keys = [option_key(m) for m in self.moves]
        self.sets = [frozenset(k) for k in self.keys]
        count: dict[frozenset, int] = {}
        for s in self.sets:
            count[s] = count.get(s, 0) + 1
        #: per move: True when the same placements are listed in another order too
        self.ordered = [count[s] > 1 for s in self.sets]

    def matching(self, chosen: Sequence[Key]) -> list[int]:
        """The moves that ``chosen`` is a part of (in the order chosen)."""
        want = set(chosen)
        if len(want) != len(chosen):
            return []
        out = []
        for i, keys in enumerate(self.keys):
            if not want <= self.sets[i]:
                continue
            if self.ordered[i] and chosen and chosen[0] != keys[0]:
                continue
            out.append(i)
        return out


def first_matters(move: MoveOption, legal: Iterable[MoveOption]) -> bool:
    """Whether ``move``'s first placement makes it a different move from the same placements
    in another order (the service lists them in several orders: the first double becomes the
    spinner, RULES.md §2.0.2, §2.4)."""
    target = frozenset(option_key(move))
    return sum(1 for m in multi_moves(legal) if frozenset(option_key(m)) == target) > 1


def _keys(chosen: Iterable[Any]) -> list[Key]:
    return [key_of(p) for p in chosen]


def is_prefix(chosen: Sequence[Any], legal: Iterable[MoveOption]) -> bool:
    """Whether the placements ``chosen`` (in the order chosen; none: the start of a move
    being built) are part of some legal move of several placements, at most
    :data:`~ui.callbacks.MAX_PLACEMENTS` of them."""
    if len(chosen) > MAX_PLACEMENTS:
        return False
    try:
        keys = _keys(chosen)
    except ValueError:
        return False
    return bool(_Index(legal).matching(keys))


def continuations(chosen: Sequence[Any], legal: Iterable[MoveOption]
                  ) -> tuple[PlacementOption, ...]:
    """Every placement that may be added to ``chosen`` so that it stays part of a legal
    move, in button order (:func:`sort_key`); () when ``chosen`` is no part of any."""
    index = _Index(legal)
    keys = _keys(chosen)
    found: dict[Key, PlacementOption] = {}
    for i in index.matching(keys):
        for p in index.moves[i].placements:
            k = key_of(p)
            if k not in keys and k not in found and index.matching(keys + [k]):
                found[k] = PlacementOption(p.tile, p.end, p.closed, p.along)
    return tuple(sorted(found.values(), key=sort_key))


def completed(chosen: Sequence[Any], legal: Iterable[MoveOption]) -> MoveOption | None:
    """The legal move of several placements that ``chosen`` makes (in the order the service
    lists it), or None while it is none."""
    index = _Index(legal)
    keys = _keys(chosen)
    for i in index.matching(keys):
        if len(index.keys[i]) == len(keys):
            return index.moves[i]
    return None


# -- labels and texts -------------------------------------------------------------------------


def placement_label(p: Any) -> str:
    """A placement on a button: ``"[2|5] ←"`` (the tile written ``a <= b``, then the end's
    arrow: ← → ↑ ↓, ⋯ for the gap of RULES.md §2.1 rule 7, nothing on a lead), then
    :data:`CLOSED_MARK` for a closed double (§2.0.3) or :data:`ALONG_MARK` for one laid along
    (§2.5 rule 3)."""
    tid, end, closed, along = key_of(p)
    a, b = tile_halves(tid)
    text = f"[{a}|{b}]"
    arrow = _ARROWS.get(end, str(end))
    if arrow:
        text += " " + arrow
    if closed:
        text += CLOSED_MARK
    if along:
        text += ALONG_MARK
    return text


def move_text(placements: Sequence[Any], *, spinner: bool = False,
              spatial: bool = False) -> str:
    """Placements of one move joined with ``" + "``; ``spinner`` marks the first with
    :data:`SPINNER_MARK` (it becomes the spinner, RULES.md §2.0.2; it stays first);
    ``spatial`` writes them as they lie: left, the gap, right, up, down."""
    if spatial:
        head, rest = (list(placements[:1]), placements[1:]) if spinner else ([], placements)
        placements = head + sorted(rest, key=lambda p: _END_ORDER.get(p.end, 9))
    parts = [placement_label(p) for p in placements]
    if spinner and parts:
        parts[0] = SPINNER_MARK + parts[0]
    return " + ".join(parts)


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else get_translator()


def legend_lines(locale: str, legal: Sequence[MoveOption], *,
                 tr: Translator | None = None) -> list[str]:
    """What the marks on the move buttons mean, one line per mark that the keyboard of
    ``legal`` shows (:func:`ui.keyboards.hand_keyboard`): 🔒 closed (RULES.md §2.0.3), ∥ along
    (§2.5 rule 3), ✳ the spinner (§2.0.2), 🧩 building a move of several doubles (§2.0.4)."""
    tr = _tr(tr)
    whole = whole_buttons(legal)
    shown = [m for m in legal if not m.more or whole]
    placements = [p for m in shown for p in m.placements]
    lines = []
    if any(p.closed for p in placements):
        lines.append(tr.t(locale, "compose-legend-closed", mark=CLOSED_MARK))
    if any(p.along for p in placements):
        lines.append(tr.t(locale, "compose-legend-along", mark=ALONG_MARK))
    if whole and any(first_matters(m, legal) for m in multi_moves(legal)):
        lines.append(tr.t(locale, "compose-legend-spinner", mark=SPINNER_MARK))
    if not whole:
        lines.append(tr.t(locale, "compose-legend-build"))
    return lines


def compose_lines(locale: str, legal: Sequence[MoveOption], chosen: Sequence[Any], *,
                  tr: Translator | None = None) -> list[str]:
    """The lines of the hand message while a move of several placements is being built: what
    was chosen so far (✳ on a first double that becomes the spinner), and what to do next —
    add a double, play the move, or both.  ``chosen`` must be :func:`is_prefix` of
    ``legal``."""
    tr = _tr(tr)
    lines = [tr.t(locale, "compose-title")]
    index = _Index(legal)
    keys = _keys(chosen)
    matching = index.matching(keys)
    if chosen:
        spinner = any(index.ordered[i] for i in matching)
        lines.append(tr.t(locale, "compose-chosen",
                          move=move_text(chosen, spinner=spinner)))
    more = bool(continuations(chosen, legal))
    done = completed(chosen, legal) is not None
    if not chosen:
        lines.append(tr.t(locale, "compose-hint-first"))
    elif more and done:
        lines.append(tr.t(locale, "compose-hint-add-or-play"))
    elif done:
        lines.append(tr.t(locale, "compose-hint-play"))
    else:
        lines.append(tr.t(locale, "compose-hint-add"))
    return lines


def hand_text(locale: str, hand: HandView, table: TableView, *,
              chosen: Sequence[Any] | None = None, tr: Translator | None = None) -> str:
    """The private hand message (:func:`ui.render.render_hand`) with, on the seat's turn,
    the legend of the marks its keyboard shows, or — with ``chosen`` (a move being built,
    :func:`is_prefix` of ``hand.legal``) — the lines of :func:`compose_lines`.  Private: for
    ``hand.user_id`` only."""
    tr = _tr(tr)
    text = render_hand(locale, hand, table, tr=tr)
    if not hand.your_turn or not hand.legal:
        return text
    if targets.targeted(hand.legal):  # the trains, the sausage (RULES.md §2.11, §2.12)
        extra = (targets.choice_lines(locale, chosen[0].tile, tr=tr) if chosen
                 else targets.legend_lines(locale, hand.legal, seat=hand.seat, tr=tr))
    elif chosen is not None:
        extra = compose_lines(locale, hand.legal, chosen, tr=tr)
    else:
        extra = legend_lines(locale, hand.legal, tr=tr)
    return text + "\n\n" + "\n".join(extra) if extra else text
