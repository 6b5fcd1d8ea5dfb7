"""Message texts: pure functions from the service's views to Telegram HTML.

Nothing here sends, awaits, reads a database or knows the engine: every function takes views
of :mod:`service.views` (or plain values), the reader's ``locale`` and an optional
:class:`ui.i18n.Translator` (``tr``; default :func:`ui.i18n.get_translator`), and returns text
for ``parse_mode="HTML"`` of at most :data:`MAX_TEXT` characters.

Player names are user input: they are cleaned by :func:`clean_name` (one line, at most
:data:`NAME_LIMIT` characters) and HTML-escaped by the translator.

Hidden information (RULES.md §1.8): the group's texts (:func:`render_table`,
:func:`render_score`) are drawn from a :class:`~service.views.TableView`, which holds no hand
-- only how many tiles each seat has; the hands appear in the group only in a round's
:class:`~service.views.RoundSummary`, after the round.  :func:`render_hand` is for the seat's
own private chat and is the only text that receives a :class:`~service.views.HandView`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from service.views import (
    ActionNote,
    HandView,
    LaidTile,
    LayoutView,
    LobbyView,
    MatchEnd,
    RoundSummary,
    TableView,
)

from .callbacks import tile_halves, tile_id
from .i18n import Markup, Translator, get_translator

__all__ = [
    "MAX_TEXT",
    "NAME_LIMIT",
    "LOG_LINES",
    "clean_name",
    "text_length",
    "format_tile",
    "format_tiles",
    "format_chain",
    "format_score",
    "side_names",
    "action_log",
    "layout_lines",
    "render_rules",
    "render_lobby",
    "render_table",
    "render_score",
    "render_hand",
    "render_round_summary",
    "render_match_end",
    "render_top",
    "render_stats",
    "render_settings",
    "render_help",
]

#: Telegram's limit for one message text [characters, counted in UTF-16 code units].
MAX_TEXT = 4096
#: Longest display name kept [characters]; longer names end with "…".
NAME_LIMIT = 32
#: Action-log lines shown on the table by default.
LOG_LINES = 10
#: Tiles of the line shown in a private hand message (both ends stay visible).
HAND_CHAIN_TILES = 16

#: Marks of the text table (RULES.md §2.0.2–§2.0.3): the spinner, a closed end or double.
SPINNER = "✳"
CLOSED = "🔒"
_ARROWS = {"left": "←", "right": "→", "up": "↑", "down": "↓", "gap": "⋯"}

_WS = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else get_translator()


def text_length(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units), so emoji count twice."""
    return len(text.encode("utf-16-le")) // 2


def clean_name(name: object, limit: int = NAME_LIMIT) -> str:
    """A display name fit for one line: control and bidi characters removed, whitespace
    collapsed, cut to ``limit`` characters with "…"; ``"?"`` when nothing is left.

    The result is still raw text: the translator escapes it for HTML.
    """
    text = _WS.sub(" ", _CONTROL.sub("", _WS.sub(" ", str(name or "")))).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text or "?"


def _pair(tile: Any) -> tuple[int, int]:
    """``(a, b)`` as given: a code ``"a-b"``, a :class:`~service.views.LaidTile` or a pair."""
    if isinstance(tile, str):
        return tile_halves(tile_id(tile))
    if isinstance(tile, LaidTile):
        return tile.a, tile.b
    a, b = tile
    return int(a), int(b)


def format_tile(tile: Any) -> str:
    """``[a|b]`` as given (RULES.md §0): a code ``"a-b"`` (written ``a <= b``), an oriented
    ``(a, b)`` pair or a :class:`~service.views.LaidTile`."""
    a, b = _pair(tile)
    return f"[{a}|{b}]"


def format_tiles(tiles: Iterable[Any], sep: str = " ") -> str:
    """Tiles of a hand, sorted with ``a <= b`` in each tile (RULES.md §0): ``[0|3] [2|5]``."""
    norm = sorted((min(p), max(p)) for p in map(_pair, tiles))
    return sep.join(format_tile(p) for p in norm)


def _laid(tile: Any, spinner: bool = False) -> str:
    text = format_tile(tile)
    if isinstance(tile, LaidTile) and tile.lay == "closed":
        text += CLOSED
    return SPINNER + text if spinner else text


def format_chain(chain: Sequence[Any], max_tiles: int | None = None, *,
                 spinner: int | None = None, gap: int | None = None) -> str:
    """Tiles on the table as oriented ``[a|b]`` pairs in a row, e.g. ``[1|1][1|5][5|3]``
    (RULES.md §0); ``spinner`` marks the tile at that index with :data:`SPINNER` (§2.0.2), a
    closed double is followed by :data:`CLOSED` (§2.0.3), ``gap`` shows the extraordinary
    lead's gap before that index (§2.1).  With ``max_tiles`` a longer row keeps its first
    and last tiles around "…", so both ends stay visible."""
    parts = [_laid(t, i == spinner) for i, t in enumerate(chain)]
    if gap is not None and 0 <= gap <= len(parts):
        parts.insert(gap, " " + _ARROWS["gap"] + " ")
    if max_tiles is not None and len(parts) > max_tiles:
        head = max(1, max_tiles // 2)
        tail = max(1, max_tiles - head)
        parts = parts[:head] + ["…"] + parts[-tail:]
    return "".join(parts)


def format_score(score: int, remembered: int) -> str:
    """A side's score as shown on the table (RULES.md §1.12): the open score, ``+N`` for
    remembered points while the score is closed, ``0`` when there is neither."""
    if score > 0:
        return f"{score} (+{remembered})" if remembered else str(score)
    return f"+{remembered}" if remembered else "0"


def side_names(names: Sequence[str], sides: Sequence[int]) -> list[str]:
    """Display name of each scoring side, side 0 first: the player, or ``"A + C"`` for a
    team (RULES.md §1.14).  ``names`` and ``sides`` per seat (``SeatView.side``,
    ``PlayerResult.side``)."""
    labels: dict[int, list[str]] = {}
    for name, side in zip(names, sides, strict=True):
        labels.setdefault(side, []).append(clean_name(name))
    return [" + ".join(labels[side]) for side in sorted(labels)]


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None or seat < 0:
        return "?"
    return clean_name(names[seat]) if seat < len(names) else f"#{seat + 1}"


# -- the action log ----------------------------------------------------------------------------


def action_log(notes: Iterable[ActionNote], names: Sequence[str], locale: str, *,
               tr: Translator | None = None) -> list[str]:
    """The public moves of ``notes`` (a round's :class:`~service.views.ActionNote`) as lines
    of words, oldest first (HTML).

    Draws are counted, never shown: a seat's draws merge with what that seat does next
    («Петя взял 3 из базара и постучал», RULES.md §1.8).  A host move (§1.17) gets its own
    line.
    """
    tr = _tr(tr)
    lines: list[str] = []
    pending: dict[int, int] = {}
    for note in notes:
        kind = note.kind
        name = _name(names, note.seat)
        if kind == "drew":
            pending[note.seat] = pending.get(note.seat, 0) + note.count
        elif kind == "dealt":
            lines.append(tr.t(locale, "log-dealt", name=name))
        elif kind == "misdeal":
            lines.append(tr.t(locale, "log-misdeal", name=name, reason=str(note.reason)))
        elif kind == "led":
            lines.append(tr.t(locale, "log-led", name=name, tile=format_tile(note.tile)))
        elif kind == "played":
            n = pending.pop(note.seat, 0)
            args = {"name": name, "tile": format_tile(note.tile), "end": str(note.end)}
            lines.append(tr.t(locale, "log-drew-played", count=n, **args) if n
                         else tr.t(locale, "log-played", **args))
        elif kind == "knocked":
            n = pending.pop(note.seat, 0)
            lines.append(tr.t(locale, "log-drew-knocked", name=name, count=n) if n
                         else tr.t(locale, "log-knocked", name=name))
        elif kind == "host_moved":
            lines.append(tr.t(locale, "log-host-moved", name=name))
        elif kind == "went_out":
            lines.append(tr.t(locale, "log-went-out", name=name))
        elif kind == "fish":
            lines.append(tr.t(locale, "log-fish", name=name))
    for seat, n in pending.items():
        lines.append(tr.t(locale, "log-drew", name=_name(names, seat), count=n))
    return lines


# -- the layout ------------------------------------------------------------------------------------


def _end_text(end: Any) -> str:
    value = CLOSED if end.closed or end.number is None else f"<b>{end.number}</b>"
    return _ARROWS.get(end.name, end.name) + value


def layout_lines(locale: str, layout: LayoutView, *, max_tiles: int | None = None,
                 hand: bool = False, tr: Translator | None = None) -> list[str]:
    """The tiles on the table as lines (RULES.md §2.0): a line is one row of tiles and its two
    open ends; a cross is its line (the spinner marked :data:`SPINNER`) and each arm, up and
    down, on a line of its own, then every end with its number or :data:`CLOSED`.  ``hand``:
    the private hand message's wording.  Nothing but tiles on the table."""
    tr = _tr(tr)
    prefix = "hand" if hand else "table"
    if not layout.line:
        return [] if hand else [tr.t(locale, "table-chain-empty")]
    row = format_chain(layout.line, max_tiles, spinner=layout.spinner, gap=layout.gap)
    lines = [tr.t(locale, f"{prefix}-chain", chain=Markup(row))]
    if layout.kind == "cross":
        for arm in ("up", "down"):
            tiles = getattr(layout, arm)
            if tiles:
                lines.append(tr.t(locale, f"table-arm-{arm}",
                                  chain=Markup(format_chain(tiles, max_tiles))))
        ends = " ".join(_end_text(e) for e in layout.ends)
        lines.append(tr.t(locale, "table-ends-all", ends=Markup(ends)))
        return lines
    by_name = {e.name: e for e in layout.ends}
    if "left" in by_name and "right" in by_name and not any(e.closed for e in layout.ends):
        lines.append(tr.t(locale, f"{prefix}-ends", left=by_name["left"].number,
                          right=by_name["right"].number))
    elif layout.ends:
        lines.append(tr.t(locale, "table-ends-all",
                          ends=Markup(" ".join(_end_text(e) for e in layout.ends))))
    return lines


# -- rules and lobby ---------------------------------------------------------------------------


def render_rules(locale: str, rules: Mapping[str, Any], *, tr: Translator | None = None) -> str:
    """The rule options as lines, one per setting (:data:`ui.settings.SETTINGS`: teams
    RULES.md §1.14, match limit §1.15, fish scoring §1.13, fish without a double §1.10 b, the
    reserve §1.4, the turn time §1.17).  ``rules``: every option by its RULES.md name
    (``ChatInfo.full_rules``, ``LobbyView.rules``)."""
    from .settings import SETTINGS

    tr = _tr(tr)
    return "\n".join(s.describe(tr, locale, rules) for s in SETTINGS if s.describe)


def render_lobby(locale: str, lobby: LobbyView, *, expires_minutes: int | None = None,
                 tr: Translator | None = None) -> str:
    """The lobby message: seats 1..``max_players`` with the seated players in order
    (computer players marked), who opened it, the rules (:func:`render_rules`) and the hint;
    ``expires_minutes`` adds when it closes."""
    tr = _tr(tr)
    players = lobby.players
    lines = [tr.t(locale, "lobby-title"), "",
             tr.t(locale, "lobby-players", count=len(players), max=lobby.max_players)]
    for i in range(lobby.max_players):
        if i < len(players):
            key = "lobby-seat-bot" if players[i].bot else "lobby-seat"
            lines.append(tr.t(locale, key, seat=i + 1, name=clean_name(players[i].name)))
        else:
            lines.append(tr.t(locale, "lobby-seat-empty", seat=i + 1))
    if players:
        creator = next((p for p in players if p.user_id == lobby.creator_id), players[0])
        lines.append(tr.t(locale, "lobby-creator", name=clean_name(creator.name)))
    lines += ["", tr.t(locale, "lobby-rules"), render_rules(locale, lobby.rules, tr=tr), "",
              tr.t(locale, "lobby-hint")]
    if expires_minutes:
        lines.append(tr.t(locale, "lobby-expires", minutes=expires_minutes))
    return "\n".join(lines)


# -- the table -------------------------------------------------------------------------------


def _fit(build: Callable[[list[str], int | None], str], log: list[str], tiles: int) -> str:
    """Build the text with as much of the log (newest kept) as fits in MAX_TEXT; if even an
    empty log does not fit, shorten the rows of tiles around their middle."""
    keep = len(log)
    text = build(log, None)
    while text_length(text) > MAX_TEXT and keep > 0:
        keep = keep // 2 if keep > 4 else keep - 1
        text = build(log[len(log) - keep:] if keep else [], None)
    max_tiles = tiles
    while text_length(text) > MAX_TEXT and max_tiles > 2:
        max_tiles //= 2
        text = build([], max_tiles)
    if text_length(text) > MAX_TEXT:  # pragma: no cover - only with absurd inputs
        text = text[: MAX_TEXT - 1] + "…"
    return text


def _names(table: TableView) -> list[str]:
    return [s.name for s in table.seats]


def _seat_lines(tr: Translator, locale: str, table: TableView) -> list[str]:
    names = _names(table)
    lines = []
    for s in table.seats:
        marker = "▶️ " if s.to_act else "▫️ "
        lines.append(marker + tr.t(locale, "table-player", name=_name(names, s.seat),
                                   count=s.tiles, score=format_score(s.score, s.remembered)))
    if len(table.scores) != len(table.seats):
        for side, label in enumerate(side_names(names, [s.side for s in table.seats])):
            lines.append(tr.t(locale, "table-team", team=side + 1, names=label,
                              score=format_score(table.scores[side], table.remembered[side])))
    return lines


def render_table(locale: str, table: TableView, *, log_lines: int = LOG_LINES,
                 tr: Translator | None = None) -> str:
    """The group's table message for one round: the layout (:func:`layout_lines`), the bazar
    as drawable (+ reserve) (RULES.md §1.4), each seat's name, tiles left and score (``+N`` =
    remembered, §1.12; teams §1.14), whose turn, the pot (§1.13) and the round's last
    ``log_lines`` actions in words.

    A closed table (``table.summary`` set: the round was scored) ends with the round's
    summary (:func:`render_round_summary`: the hands revealed, what was recorded), and once
    the match finished with "the match is over".  At most ``MAX_TEXT`` characters: the
    oldest log lines go first, then the middle of the rows of tiles.
    """
    tr = _tr(tr)
    names = _names(table)
    tail = (render_round_summary(locale, table.summary, names, [s.side for s in table.seats],
                                 tr=tr) if table.summary is not None else None)
    log = action_log(table.notes, names, locale, tr=tr)
    hidden = max(0, len(log) - log_lines)
    log = log[hidden:]
    layout = table.layout
    finished = table.final is not None and table.final.rated

    def build(log_part: list[str], max_tiles: int | None) -> str:
        lines = [tr.t(locale, "table-title", round=table.round_no)]
        lines += layout_lines(locale, layout, max_tiles=max_tiles, tr=tr)
        if table.reserve:
            lines.append(tr.t(locale, "table-bazar-reserve", drawable=table.drawable,
                              reserve=table.reserve))
        else:
            lines.append(tr.t(locale, "table-bazar", drawable=table.drawable))
        lines.append("")
        lines += _seat_lines(tr, locale, table)
        if table.pot:
            lines.append(tr.t(locale, "table-pot", count=table.pot))
        if table.to_act is not None:
            lines.append(tr.t(locale, "table-turn", name=_name(names, table.to_act)))
        if log_part:
            lines += ["", tr.t(locale, "table-log-title")]
            dropped = hidden + (len(log) - len(log_part))
            if dropped:
                lines.append(tr.t(locale, "table-log-more", count=dropped))
            lines += log_part
        if tail is not None:
            lines += ["", tail]
        if finished:
            lines += ["", tr.t(locale, "table-match-over")]
        return "\n".join(lines)

    return _fit(build, log, max(layout.tiles, len(layout.line)))


def render_score(locale: str, table: TableView, *, tr: Translator | None = None) -> str:
    """/score: the match table now -- each side's score (``+N`` remembered, RULES.md §1.12),
    the pot (§1.13), the round number and the match limit (§1.15).  No hands."""
    tr = _tr(tr)
    lines = [tr.t(locale, "match-score-title"), tr.t(locale, "table-title", round=table.round_no)]
    labels = side_names(_names(table), [s.side for s in table.seats])
    for side, label in enumerate(labels):
        lines.append(tr.t(locale, "score-line", name=label,
                          score=format_score(table.scores[side], table.remembered[side])))
    if table.pot:
        lines.append(tr.t(locale, "table-pot", count=table.pot))
    lines.append(tr.t(locale, "rules-limit", limit=table.match_limit))
    return "\n".join(lines)


# -- the hand --------------------------------------------------------------------------------


def render_hand(locale: str, hand: HandView, table: TableView, *,
                tr: Translator | None = None) -> str:
    """The private hand message of ``hand``'s seat on ``table`` (its match's table).

    Shows the hand sorted in ``[a|b]`` notation, the tiles on the table with the open ends,
    the tiles the seat drew since its last decision (RULES.md §1.8), its last knock (until its
    next turn), "the host moved for you" when its last tile was a host move (§1.17), and
    either "your move" (the keyboard comes from :func:`ui.keyboards.hand_keyboard`), whose
    turn it is, or that the round or the match is over.  Private: send to ``hand.user_id``
    only.
    """
    tr = _tr(tr)
    lines = [tr.t(locale, "hand-title", round=table.round_no)]
    lines.append(format_tiles(hand.tiles) if hand.tiles else tr.t(locale, "hand-empty"))
    lines += layout_lines(locale, table.layout, max_tiles=HAND_CHAIN_TILES, hand=True, tr=tr)
    if hand.host_moved:
        lines.append(tr.t(locale, "hand-host-moved"))
    if hand.drawn:
        lines.append(tr.t(locale, "hand-drew", tiles=format_tiles(hand.drawn)))
    if hand.knocked:
        lines.append(tr.t(locale, "hand-knocked"))
    lines.append("")
    if table.final is not None:
        lines.append(tr.t(locale, "hand-match-over"))
    elif hand.your_turn:
        if not table.layout.line:
            if hand.lead is not None:
                lines.append(tr.t(locale, "hand-lead-forced", tile=format_tile(hand.lead)))
            else:
                lines.append(tr.t(locale, "hand-lead-any"))
        lines.append(tr.t(locale, "hand-your-turn"))
    elif table.to_act is not None:
        lines.append(tr.t(locale, "hand-waiting", name=_name(_names(table), table.to_act)))
    else:
        lines.append(tr.t(locale, "hand-round-over"))
    return "\n".join(lines)


# -- round and match end -----------------------------------------------------------------------


def render_round_summary(locale: str, summary: RoundSummary, names: Sequence[str],
                         sides: Sequence[int], *, tr: Translator | None = None) -> str:
    """The end of a round: out or fish 🐟 and by whom, every hand revealed with its value
    (RULES.md §1.11), what each side recorded or remembered (§1.12–§1.14) and the pot
    (§1.13).  ``names`` and ``sides`` (``SeatView.side``) of the players in seat order."""
    tr = _tr(tr)
    sides_count = len(summary.scores)
    labels = side_names(names, sides)
    lines = [tr.t(locale, "round-title", round=summary.round_no)]
    key = "round-fish" if summary.end == "fish" else "round-out"
    lines.append(tr.t(locale, key, name=_name(names, summary.by)))
    lines += ["", tr.t(locale, "round-hands-title")]
    for seat, hand in enumerate(summary.hands):
        if hand:
            lines.append(tr.t(locale, "round-hand", name=_name(names, seat),
                              tiles=format_tiles(hand), count=summary.seat_values[seat]))
        else:
            lines.append(tr.t(locale, "round-hand-empty", name=_name(names, seat)))
    lines += ["", tr.t(locale, "round-records-title")]
    for side in range(sides_count):
        rec = summary.recorded[side]
        score, rem = summary.scores[side], summary.remembered[side]
        if rec and score > 0:
            lines.append(tr.t(locale, "round-side-score", name=labels[side], recorded=rec,
                              score=score))
        elif rec:
            lines.append(tr.t(locale, "round-side-remembered", name=labels[side], recorded=rec,
                              remembered=rem))
        else:
            lines.append(tr.t(locale, "round-side-nothing", name=labels[side],
                              total=format_score(score, rem)))
    if summary.pot_won:
        winner = summary.recorded.index(max(summary.recorded))
        lines.append(tr.t(locale, "round-pot-won", name=labels[winner], count=summary.pot_won))
    if summary.pot:
        lines.append(tr.t(locale, "round-pot", count=summary.pot))
    return "\n".join(lines)


def render_match_end(locale: str, end: MatchEnd, *, rematch_hint: bool = True,
                     tr: Translator | None = None) -> str:
    """The match-end message: the goat(s) 🐐 «козёл» (RULES.md §1.15) or the timed-out
    player (§1.17), the final table ordered best first, and each side's rating gain (§1.16).
    ``end``: the match's :class:`~service.views.MatchEnd`."""
    tr = _tr(tr)
    names = [p.name for p in end.players]
    sides: dict[int, Any] = {}
    for p in end.players:
        sides.setdefault(p.side, p)
    labels = side_names(names, [p.side for p in end.players])
    goats = sorted(s for s, p in sides.items() if p.goat)
    lines = [tr.t(locale, "match-title")]
    timed_out = next((p for p in end.players if p.timed_out), None)
    if end.reason == "timeout" and timed_out is not None:
        lines.append(tr.t(locale, "match-timeout", name=_name(names, timed_out.seat)))
    if goats:
        lines.append(tr.t(locale, "match-goat", count=len(goats),
                          names=", ".join(labels[s] for s in goats)))
    lines += ["", tr.t(locale, "match-final-title")]
    order = sorted(sides, key=lambda s: (s in goats, sides[s].score, s))
    for place, side in enumerate(order, start=1):
        key = "match-line-goat" if side in goats else "match-line"
        lines.append(tr.t(locale, key, place=place, name=labels[side], score=sides[side].score,
                          gain=sides[side].rating))
    if rematch_hint:
        lines += ["", tr.t(locale, "match-rematch")]
    return "\n".join(lines)


# -- leaderboards and statistics --------------------------------------------------------------


def render_top(
    locale: str,
    rows: Sequence[tuple[str, int, int, int]],
    *,
    global_: bool = False,
    tr: Translator | None = None,
) -> str:
    """/top (this chat) or /top all (``global_``): ``rows`` of ``(name, rating points,
    matches played, times a goat)`` already ordered best first (RULES.md §1.16).  Rows are
    dropped from the end if the text would exceed :data:`MAX_TEXT`."""
    tr = _tr(tr)
    title = tr.t(locale, "top-title-global" if global_ else "top-title-chat")
    if not rows:
        return title + "\n" + tr.t(locale, "top-empty")
    lines = [title]
    for place, (name, rating, matches, goats) in enumerate(rows, start=1):
        line = tr.t(locale, "top-line", place=place, name=clean_name(name), rating=rating,
                    matches=matches, goats=goats)
        if text_length("\n".join(lines + [line])) > MAX_TEXT:
            break
        lines.append(line)
    return "\n".join(lines)


def render_stats(
    locale: str,
    name: str,
    *,
    matches: int,
    goats: int,
    rating: int,
    outs: int,
    fish: int,
    average: float | None,
    tr: Translator | None = None,
) -> str:
    """/stats of one player: matches, times a goat, rating points (RULES.md §1.16), rounds
    gone out (§1.9), fish made as the fisher (§1.10) and the average final score [points]."""
    tr = _tr(tr)
    name = clean_name(name)
    if not matches:
        return tr.t(locale, "stats-empty", name=name)
    lines = [
        tr.t(locale, "stats-title", name=name),
        tr.t(locale, "stats-matches", count=matches),
        tr.t(locale, "stats-goats", count=goats),
        tr.t(locale, "stats-rating", count=rating),
        tr.t(locale, "stats-outs", count=outs),
        tr.t(locale, "stats-fish", count=fish),
    ]
    if average is not None:
        lines.append(tr.t(locale, "stats-average", average=float(average)))
    return "\n".join(lines)


# -- settings and help -----------------------------------------------------------------------


def render_settings(locale: str, rules: Mapping[str, Any], *, choosing: str | None = None,
                    tr: Translator | None = None) -> str:
    """/settings text: title, "changes apply from the next match", the current rules
    (:func:`render_rules`); with ``choosing`` (a settings label, plain text) the prompt to
    pick its value.  The buttons come from :func:`ui.keyboards.settings_keyboard`."""
    tr = _tr(tr)
    lines = [tr.t(locale, "settings-title"), tr.t(locale, "settings-hint"), "",
             render_rules(locale, rules, tr=tr)]
    if choosing is not None:
        lines += ["", tr.t(locale, "settings-choose", option=choosing)]
    return "\n".join(lines)


def render_help(locale: str, *, is_group: bool, tr: Translator | None = None) -> str:
    """/help: the group's command list or the private one, with the computer-player
    commands (issue 6)."""
    tr = _tr(tr)
    if is_group:
        return "\n".join(tr.t(locale, k) for k in ("help-group", "help-group-bots",
                                                    "help-group-records"))
    return "\n".join(tr.t(locale, k) for k in ("help-private", "help-private-bots",
                                                "help-private-records"))
