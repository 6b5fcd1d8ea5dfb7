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

The games of RULES.md §2: every text reads what a game needs from the views' own fields (the
layout, ``fast``, ``two_tiles``, ``deals``, the marks a game counts, points on the count, the
rules JSON the views carry) and words it in the locales (per-game words are selectors on
``$variant``); nothing here decides a rule.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from service.live.rulebook import variant_infos
from service.views import (
    ActionNote,
    FlagView,
    HandView,
    LaidTile,
    LayoutView,
    LobbyView,
    MatchEnd,
    RoundSummary,
    TableView,
)

from . import tables
from .i18n import Markup, Translator, get_translator
from .names import bot_gender, localized
from .variants import variant_name, variants

__all__ = [
    "stopped_text",
    "variant_text",
    "MAX_TEXT",
    "NAME_LIMIT",
    "LOG_LINES",
    "clean_name",
    "text_length",
    "format_tile",
    "format_tiles",
    "format_chain",
    "format_score",
    "goat_mark",
    "keeps_points",
    "mark_mean_words",
    "mark_words",
    "side_names",
    "action_log",
    "layout_lines",
    "render_rules",
    "render_game_rules",
    "render_lobby",
    "render_table",
    "render_score",
    "render_hand",
    "render_round_summary",
    "render_match_end",
    "result_words",
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
        # imported here: the table pictures' drawing process, which needs none of aiogram,
        # then starts without it (ui.picture imports this module)
        from .callbacks import tile_halves, tile_id

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
        limit = NAME_LIMIT * 2 + 3 if " → " in str(name) else NAME_LIMIT  # a handed seat
        labels.setdefault(side, []).append(clean_name(name, limit))
    return [" + ".join(labels[side]) for side in sorted(labels)]


def seat_label(name: str, left: str | None) -> str:
    """How a seat is named in a closed match's results: its holder, or for a seat a person
    left to a computer player «Оля → Бот Фёдор 🤖», as the game record names it (issue 20
    item 1: one story of the seat at the match end, in /history and in the record).  Raw
    text, each name fit for a line."""
    if not left:
        return str(name)
    return f"{clean_name(left)} → {clean_name(name)}"


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None or seat < 0:
        return "?"
    return clean_name(names[seat]) if seat < len(names) else f"#{seat + 1}"


# -- the action log ----------------------------------------------------------------------------


def _placement(tr: Translator, locale: str, tile: str, end: str | None, closed: bool,
               along: bool, *, lead: bool = False) -> str:
    """One placement in words (RULES.md §2.0.4): ``[3|3] слева``, ``[5|5]🔒 вверх``,
    ``[4|4] вниз, вдоль``; a lead's tile alone."""
    text = format_tile(tile)
    if lead or (end is None and not closed and not along):
        return text
    how = "closed" if closed else "along" if along else "plain"
    return tr.t(locale, "log-place", tile=Markup(text), end=end or "none", how=how).strip()


def move_words(tr: Translator, locale: str, note: ActionNote,
               names: Sequence[str] = ()) -> str:
    """A move of one or several tiles as one action (RULES.md §2.0.4): ``[3|3] слева и
    [5|5] справа``, with the points it scored on the count (``· +15``, §2.0.6); on the
    trains and the sausage the tile and its target (``[5|12] → на свой поезд``,
    :func:`ui.tables.target_words`), marked where the rules placed it with no choice
    (Колбаса, §2.12 rule 6)."""
    if note.train is not None or note.line is not None or note.cut is not None:
        text = format_tile(str(note.tile)) + " → " + tables.target_words(
            tr, locale, note, [clean_name(n) for n in names])
        return text + tr.t(locale, "log-forced") if note.forced else text
    lead = note.kind == "led"
    parts = [_placement(tr, locale, str(note.tile), note.end, note.closed, note.along,
                        lead=lead)]
    parts += [_placement(tr, locale, t, e, c, a, lead=lead) for t, e, c, a in note.tiles]
    text = parts[0] if len(parts) == 1 else (
        ", ".join(parts[:-1]) + tr.t(locale, "log-and") + parts[-1])
    if note.points:
        text += " · " + tr.t(locale, "log-points", points=note.points)
    return text


def action_log(notes: Iterable[ActionNote], names: Sequence[str], locale: str, *,
               tr: Translator | None = None, variant: str | None = None) -> list[str]:
    """The public moves of ``notes`` (a round's :class:`~service.views.ActionNote`) as lines
    of words, oldest first (HTML).

    Draws are counted, never shown: a seat's draws merge with what that seat does next where
    the locale words the two as one (``log-drew-<kind>``: «Петя берёт 3 из базара и стучит»,
    RULES.md §1.8), else they get their own line at the end.  A move of one or several tiles
    is one line (§2.0.4, :func:`move_words`).  Every other note is ``log-<kind>`` with its
    ``args`` and the names of its seats — a host move (§1.17), a void round, a variant's own
    events — whatever the game, in the game's own words where the locale has them
    (``log-<kind>-<variant>``: a fish with no fisher on the trains, §2.11 rule 10).
    """
    tr = _tr(tr)
    lines: list[str] = []
    pending: dict[int, int] = {}
    for note in notes:
        kind = note.kind
        name = _name(names, note.seat)
        if kind == "drew":
            pending[note.seat] = pending.get(note.seat, 0) + note.count
            continue
        words = kind.replace("_", "-")
        args: dict[str, Any] = dict(note.args)
        args.update((key, _name(names, seat)) for key, seat in note.names)
        if kind in ("led", "played"):
            args["move"] = Markup(move_words(tr, locale, note, names))
        drawn = pending.get(note.seat, 0) if kind != "led" else 0
        if drawn and tr.has(tr.resolve(locale), f"log-drew-{words}"):
            del pending[note.seat]
            lines.append(tr.t(locale, f"log-drew-{words}", name=name, count=drawn, **args))
        else:
            key = tr.pick(locale, f"log-{words}-{variant}", f"log-{words}") if variant \
                else f"log-{words}"
            lines.append(tr.t(locale, key, name=name, **args))
    for seat, n in pending.items():
        lines.append(tr.t(locale, "log-drew", name=_name(names, seat), count=n))
    return lines


# -- the layout ------------------------------------------------------------------------------------


def _end_text(end: Any) -> str:
    if end.name == "gap":
        return _ARROWS["gap"] + "[0|6]"
    value = CLOSED if end.closed or end.number is None else f"<b>{end.number}</b>"
    return _ARROWS.get(end.name, end.name) + value


def _end_value(end: Any) -> str:
    if end is None:
        return "—"
    return CLOSED if end.closed or end.number is None else f"<b>{end.number}</b>"


def _arm_figure(tr: Translator, locale: str, end: Any, counting: bool) -> str:
    """An arm's figure: the number its end shows (🔒 when shut, §2.0.3); in a game with a
    count (RULES.md §2.0.6, ``counting``) also what the end adds to it where that is not the
    number — both halves of a double across, the spinner's two halves at the end of a
    spinner with an empty side, nothing for an empty arm — so the arms' figures add up to
    the count (``EndView.counts``)."""
    value = _end_value(end)
    if not counting or end is None or end.closed or end.number is None:
        return value
    adds = end.counts or 0
    if adds == end.number:
        return value
    return f"{value} {tr.t(locale, 'table-end-counts', counts=adds)}"


def _arms(layout: LayoutView) -> dict[str, tuple[LaidTile, ...]]:
    """The four arms of a cross, each read outward from the spinner (RULES.md §2.0.2): the
    line's tiles left of the spinner turned round, those right of it, and the up and down
    arms (already outward)."""
    s = layout.spinner
    left = tuple(LaidTile(t.b, t.a, t.lay) for t in reversed(layout.line[:s]))
    return {"left": left, "right": layout.line[s + 1:], "up": layout.up, "down": layout.down}


def layout_lines(locale: str, layout: LayoutView, *, max_tiles: int | None = None,
                 hand: bool = False, tr: Translator | None = None,
                 names: Sequence[str] = (), seat: int | None = None) -> list[str]:
    """The tiles on the table as lines (RULES.md §2.0).

    A line is one row of tiles and its open ends (the extraordinary lead's gap, §2.1 rule 7,
    shown as ⋯ and said to take only [0|6]; closed ends 🔒, §2.0.3).  A cross (§2.0.2) is the
    spinner ✳ and then each arm on its own line, read outward from the spinner, with its
    open end (a number, 🔒 when closed, §2.0.3): left, right, up, down; in a game with a
    count (§2.0.6) an end that adds to it something other than its number says what, so the
    arms add up to the count («· 6 (в сумме 12)» under [6|6] across).  ``hand``: the private
    hand message's wording of a line.  Nothing but tiles on the table.  The trains (§2.11)
    and the sausage (§2.12) are :func:`ui.tables.layout_lines`' (``names`` of the seats,
    ``seat`` the reader of a hand message)."""
    tr = _tr(tr)
    if layout.kind in ("trains", "sausage"):
        return tables.layout_lines(tr, locale, layout, [clean_name(n) for n in names],
                                   max_tiles=max_tiles, hand=hand, seat=seat)
    prefix = "hand" if hand else "table"
    if not layout.line:
        return [] if hand else [tr.t(locale, "table-chain-empty")]
    by_name = {e.name: e for e in layout.ends}
    if layout.kind == "cross" and layout.spinner is not None:
        lines = [tr.t(locale, "table-spinner",
                      tile=Markup(format_tile(layout.line[layout.spinner])))]
        counting = layout.count is not None
        for arm, tiles in _arms(layout).items():
            if arm not in by_name and not tiles:
                continue
            chain = format_chain(tiles, max_tiles) if tiles else "—"
            figure = _arm_figure(tr, locale, by_name.get(arm), counting)
            lines.append(tr.t(locale, "table-arm", arm=arm, chain=Markup(chain),
                              end=Markup(figure)))
        return lines
    row = format_chain(layout.line, max_tiles, gap=layout.gap)
    lines = [tr.t(locale, f"{prefix}-chain", chain=Markup(row))]
    closed = any(e.closed for e in layout.ends)
    if "left" in by_name and "right" in by_name and not closed:
        if "gap" in by_name:
            lines.append(tr.t(locale, "table-ends-gap", left=by_name["left"].number,
                              right=by_name["right"].number))
        else:
            lines.append(tr.t(locale, f"{prefix}-ends", left=by_name["left"].number,
                              right=by_name["right"].number))
    elif layout.ends:
        lines.append(tr.t(locale, "table-ends-all",
                          ends=Markup(" ".join(_end_text(e) for e in layout.ends))))
    return lines


# -- rules and lobby ---------------------------------------------------------------------------


def _info(variant: str | None) -> Any:
    """The service's word on a game (:class:`~service.views.VariantInfo`), None if unknown."""
    return variant_infos().get(str(variant or "classic"))


def _need(lo: int, hi: int) -> dict[str, Any]:
    return {"need": "exact" if lo == hi else "range", "min": lo, "max": hi}


def render_rules(locale: str, rules: Mapping[str, Any], *, tr: Translator | None = None) -> str:
    """The rule options as lines, one per setting whose option the game reads
    (:func:`ui.settings.settings`: teams RULES.md §1.14, the limit §1.15 or the race's
    §2.0.7, the options a game declares, fish scoring §1.13, fish without a
    double §1.10 b, the reserve §1.4, several doubles §2.4, the [0|0]+[6|6] hand §2.1, the
    turn time §1.17).  ``rules``: every option by its RULES.md name (``ChatInfo.full_rules``,
    ``LobbyView.rules``, ``TableView.rules``)."""
    from .settings import settings

    tr = _tr(tr)
    return "\n".join(s.describe(tr, locale, rules) for s in settings() if s.described(rules))


def render_game_rules(locale: str, rules: Mapping[str, Any], *, playing: bool = False,
                      where: str | None = None, rules_url: str | None = None,
                      tr: Translator | None = None) -> str:
    """/rules: the game's name, in short what it changes against classic Kozel (RULES.md §2:
    ``variant-about``), its options' current values (:func:`render_rules`), whose they are
    (``where``: ``"match"`` a running match's, ``"chat"`` the group's for new matches,
    ``"named"`` a lobby's of the game named in ``/rules <game>``, ``"private"`` a match
    against computer players; default ``"match"`` if ``playing`` else ``"chat"``), every
    game with its id for /newgame, and, given ``rules_url`` (where the rule book
    ``docs/RULES.md`` can be read, the ``RULES_URL`` setting), a link to it with the game's
    section there."""
    tr = _tr(tr)
    where = where or ("match" if playing else "chat")
    variant = str(rules.get("variant", "classic"))
    games = ", ".join(f"{variant_name(tr, locale, v.name)} ({v.name})" for v in variants())
    lines = [
        tr.t(locale, "rules-title", game=variant_name(tr, locale, variant)),
        variant_text(tr, locale, variant, "variant-about"), "",
        render_rules(locale, rules, tr=tr), "",
        tr.t(locale, f"rules-here-{where}", id=variant),
        tr.t(locale, "rules-games", games=games)]
    if rules_url:
        section = next((v.section for v in variants() if v.name == variant), "§1")
        lines.append(tr.t(locale, "rules-book", url=rules_url, section=section))
    return "\n".join(lines)


def render_lobby(locale: str, lobby: LobbyView, *, expires_minutes: int | None = None,
                 tr: Translator | None = None) -> str:
    """The lobby message: the game (RULES.md §2) and how many play it, seats
    1..``max_players`` with the seated players in order (computer players marked), who opened
    it, the rules (:func:`render_rules`) and the hint; ``expires_minutes`` adds when it
    closes."""
    tr = _tr(tr)
    players = lobby.players
    game = variant_name(tr, locale, str(lobby.rules.get("variant", "classic")))
    lines = [tr.t(locale, "lobby-title", game=game),
             tr.t(locale, "lobby-need", **_need(lobby.min_players, lobby.max_players)), "",
             tr.t(locale, "lobby-players", count=len(players), max=lobby.max_players)]
    for i in range(lobby.max_players):
        if i < len(players):
            # a computer player is marked 🤖, once: its name may carry the mark already
            key = "lobby-seat-bot" if players[i].bot and "🤖" not in players[i].name \
                else "lobby-seat"
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


def keeps_points(variant: str | None) -> bool:
    """Whether the game keeps points (``VariantInfo.scoring``; a game whose marks alone
    decide the match keeps none, RULES.md §2.8, §2.9)."""
    info = _info(variant)
    return info is None or info.scoring == "points"


_points = keeps_points


def variant_text(tr: Translator, locale: str, variant: str | None, key: str, /,
                 **args: Any) -> str:
    """The text ``key`` as the game words it: ``<key>-<variant>`` where the locale has one
    (a game's own words, ``locales/*/variants.ftl``), else ``key`` itself (HTML)."""
    return tr.t(locale, tr.pick(locale, f"{key}-{variant}", key), variant=variant, **args)


def goat_mark(locale: str, variant: str | None, *, tr: Translator | None = None) -> str:
    """The mark of a game's loser beside a name, plain text: «🐐» (RULES.md §1.15), Осёл's
    «🫏» (§2.2) — the game's own ``goat-mark-<variant>`` where the locale has one, else
    ``goat-mark``."""
    tr = _tr(tr)
    return tr.plain(locale, tr.pick(locale, f"goat-mark-{variant}", "goat-mark"))


def _mark_text(tr: Translator, locale: str, variant: str | None, key: str, mark: Any,
               count: int | None = None) -> str:
    """One mark (:class:`~service.views.MarkView` or ``MarkTally``) in words, ``key`` being
    ``mark-table``, ``mark-left``, ``mark-score`` or ``mark-round-title``: the game's own
    text (``<key>-<variant>``) or the generic one, with ``mark``, ``count`` and ``limit``
    (0 without one)."""
    count = mark.count if count is None else count
    return variant_text(tr, locale, variant, key, mark=mark.name, count=count,
                        limit=mark.limit or 0)


def mark_words(locale: str, variant: str | None, mark: Any, *,
               tr: Translator | None = None) -> str:
    """One seat's mark as the text table words it («палки: 1 из 3», HTML)."""
    return _mark_text(_tr(tr), locale, variant, "mark-table", mark)


def mark_mean_words(locale: str, variant: str | None, mean: Any, *,
                    tr: Translator | None = None) -> str:
    """A mark per match over a person's matches (:class:`~service.views.MarkMean`), as
    /stats and the boards word it («палок за партию в среднем: 1,7»): the game's own
    ``mark-mean-<variant>`` or the generic ``mark-mean`` (HTML)."""
    return variant_text(_tr(tr), locale, variant, "mark-mean", mark=mean.name,
                        mean=float(mean.mean))


def _marks_line(tr: Translator, locale: str, variant: str | None, key: str,
                marks: Iterable[Any], line: str) -> str:
    """``line`` with the marks after it («Оля — 4 кости, палки: 1 из 3»), or as it is."""
    words = [_mark_text(tr, locale, variant, key, m) for m in marks]
    if not words:
        return line
    return tr.t(locale, "table-marked", line=Markup(line), marks=Markup(", ".join(words)))


def _title(tr: Translator, locale: str, table: TableView) -> str:
    """The table's first line: the round (classic), the game and its round, or the deal k
    of N in sport domino (RULES.md §2.7)."""
    game = variant_name(tr, locale, table.variant)
    if table.deals:
        e = table.layout.engine
        return variant_text(tr, locale, table.variant, "table-title-deal", game=game,
                            round=table.round_no, deals=table.deals,
                            hub=e if e is not None else "")
    return variant_text(tr, locale, table.variant, "table-title", game=game, round=table.round_no)


def _goal(tr: Translator, locale: str, variant: str, rules: Mapping[str, Any]) -> str | None:
    """What the game is played for, from its rules (RULES.md §1.15, §2.0.7, §2.1 rules 3–4,
    and each game's own, ``table-goal-<variant>``): ``limit``, ``threshold``, ``race`` and
    every number among the game's options by its name; None for a view without rules."""
    if not rules:
        return None
    info = _info(variant)
    numbers = {k: v for k, v in rules.items() if type(v) is int}
    numbers.update(limit=rules.get("match_limit", 0), threshold=rules.get("open_threshold", 0))
    return variant_text(tr, locale, variant, "table-goal",
               race="yes" if info and info.race else "no", **numbers)


def flag_text(tr: Translator, locale: str, variant: str, flag: FlagView, *,
              names: str = "", picture: bool = False) -> str:
    """The words of one of a game's flags (RULES.md §2: what its variant says of a round,
    e.g. the sea goat's fast lead, §2.1 rules 6–7): ``flag-<variant>-<name>`` where the
    locale has the game's own, else ``flag-<name>`` (``pic-flag-…`` for the picture, plain
    text), with the flag's ``value`` to select on and ``names`` (the round's losers, for a
    flag that names them)."""
    prefix = "pic-flag" if picture else "flag"
    key = tr.pick(locale, f"{prefix}-{variant}-{flag.name}", f"{prefix}-{flag.name}")
    say = tr.plain if picture else tr.t
    return say(locale, key, value=flag.value, names=names)


def table_notices(tr: Translator, locale: str, table: TableView) -> list[str]:
    """What the round stakes beyond its layout, under the table's title in the text table
    and in the picture's caption alike: the game's flags of the round (the sea goat's fast
    or extraordinary lead and its two tiles a turn, RULES.md §2.1 rules 6–7)."""
    return [flag_text(tr, locale, table.variant, f) for f in table.flags]


def _seat_lines(tr: Translator, locale: str, table: TableView) -> list[str]:
    """A line per seat (tiles left; the score, ``+N`` remembered §1.12, where the game keeps
    points; the seat's marks, RULES.md §2), then the teams' lines (§1.14: scores, their
    marks)."""
    names = _names(table)
    variant = table.variant
    points = _points(variant)
    teams = len(table.scores) != len(table.seats)
    lines = []
    for s in table.seats:
        marker = "▶️ " if s.to_act else "▫️ "
        name = _name(names, s.seat)
        shown = [m for m in s.marks if m.per == "seat" or not teams]
        if s.left:
            line = _marks_line(tr, locale, variant, "mark-left", shown,
                               tr.t(locale, "table-player-left", name=name))
        else:
            line = (tr.t(locale, "table-player", name=name, count=s.tiles,
                         score=format_score(s.score, s.remembered)) if points
                    else tr.t(locale, "table-player-tiles", name=name, count=s.tiles))
            line = _marks_line(tr, locale, variant, "mark-table", shown, line)
        lines.append(marker + line)
    if teams:
        by_side = {s.side: s for s in table.seats}
        for side, label in enumerate(side_names(names, [s.side for s in table.seats])):
            marks = [m for m in by_side[side].marks if m.per == "side"]
            if marks:
                words = ", ".join(_mark_text(tr, locale, variant, "mark-table", m)
                                  for m in marks)
                lines.append(tr.t(locale, "table-team-marks", team=side + 1, names=label,
                                  marks=Markup(words)))
            elif points:
                lines.append(tr.t(locale, "table-team", team=side + 1, names=label,
                                  score=format_score(table.scores[side],
                                                     table.remembered[side])))
    return lines


def _count_line(tr: Translator, locale: str, table: TableView) -> str | None:
    """The count after the last move in the fives games and what that move scored (RULES.md
    §2.0.6; Телефон §2.4 rule 2, Маггинс §2.5 rule 4)."""
    count = table.layout.count
    if count is None:
        return None
    last = next((n for n in reversed(table.notes) if n.kind in ("led", "played")), None)
    if last is not None and last.points:
        return tr.t(locale, "table-count-scored", count=count, points=last.points,
                    name=_name(_names(table), last.seat))
    return tr.t(locale, "table-count", count=count)


def _turn_line(tr: Translator, locale: str, table: TableView) -> str:
    """Whose turn it is and the time a turn has (RULES.md §1.17).  Telegram shows no
    countdown and an edited message would show a stale one, and a clock time needs the
    readers' time zone, which the bot does not know: so the seconds per turn, which stay
    true until the next move (a computer player's turn shows no time)."""
    seat = table.seats[table.to_act]
    name = _name(_names(table), table.to_act)
    if table.turn_seconds and seat.bot is None:
        return tr.t(locale, "table-turn-time", name=name, seconds=table.turn_seconds)
    return tr.t(locale, "table-turn", name=name)


def render_table(locale: str, table: TableView, *, log_lines: int = LOG_LINES,
                 tr: Translator | None = None) -> str:
    """The group's table message for one round: the game and the round (sport domino's deal
    k of N, RULES.md §2.7), the sea goat's fast or extraordinary lead and its two tiles a
    turn (§2.1 rules 6–7), the layout (:func:`layout_lines`: a line, or a cross arm by arm),
    the bazar as drawable (+ reserve) (§1.4), each seat's name, tiles left and score (``+N``
    = remembered, §1.12; teams §1.14; the marks a game counts, RULES.md §2),
    the pot (§1.13), what the game is played for, the count and what the last move scored
    (§2.0.6), whose turn it is with the time per turn (§1.17) and the round's last
    ``log_lines`` actions in words.

    A closed table (``table.summary`` set: the round was scored) ends with the round's
    summary (:func:`render_round_summary`: the hands revealed, what was recorded), and once
    the match finished with "the match is over".  At most ``MAX_TEXT`` characters: the
    oldest log lines go first, then the middle of the rows of tiles.
    """
    tr = _tr(tr)
    names = _names(table)
    tail = (render_round_summary(locale, table.summary, names, [s.side for s in table.seats],
                                 specials=False, tr=tr)
            if table.summary is not None else None)
    log = action_log(table.notes, names, locale, tr=tr, variant=table.variant)
    hidden = max(0, len(log) - log_lines)
    log = log[hidden:]
    layout = table.layout
    finished = table.final is not None and table.final.rated
    goal = _goal(tr, locale, table.variant, table.rules)
    count = _count_line(tr, locale, table)
    notices = table_notices(tr, locale, table)

    def build(log_part: list[str], max_tiles: int | None) -> str:
        lines = [_title(tr, locale, table), *notices]
        lines += layout_lines(locale, layout, max_tiles=max_tiles, tr=tr, names=names)
        if count is not None:
            lines.append(count)
        if table.reserve:
            lines.append(tr.t(locale, "table-bazar-reserve", drawable=table.drawable,
                              reserve=table.reserve))
        elif layout.kind != "sausage":  # Колбаса has no bazar (RULES.md §2.12)
            lines.append(tr.t(locale, "table-bazar", drawable=table.drawable))
        lines.append("")
        lines += _seat_lines(tr, locale, table)
        if table.pot:
            lines.append(tr.t(locale, "table-pot", count=table.pot))
        if goal is not None:
            lines.append(goal)
        if table.to_act is not None:
            lines.append(_turn_line(tr, locale, table))
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
        elif table.final is not None:
            lines += ["", stopped_text(tr, locale, table.final)]
        return "\n".join(lines)

    return _fit(build, log, max(layout.tiles, len(layout.line)))


def stopped_text(tr: Translator, locale: str, final: MatchEnd) -> str:
    """A match that closed without rating: who stopped it (/stopgame), or that it was
    stopped."""
    name = clean_name(final.stopped_by) if final.stopped_by else ""
    return tr.t(locale, "table-match-stopped", known="yes" if name else "no", name=name)


def render_score(locale: str, table: TableView, *, tr: Translator | None = None) -> str:
    """/score: the match table now -- each side's score (``+N`` remembered, RULES.md §1.12;
    the marks a game counts, RULES.md §2), the pot (§1.13), the round (sport's
    deal k of N, §2.7) and what the game is played for (§1.15, §2.0.7).  No hands."""
    tr = _tr(tr)
    table = localized(table, locale, tr)
    rules = table.rules
    names = _names(table)
    lines = [tr.t(locale, "match-score-title"), _title(tr, locale, table)]
    labels = side_names(names, [s.side for s in table.seats])
    by_side = {s.side: s for s in table.seats}
    for side, label in enumerate(labels):
        score = _score_words(tr, locale, table.variant, by_side[side].marks,
                             format_score(table.scores[side], table.remembered[side]))
        lines.append(tr.t(locale, "score-line", name=label, score=Markup(score)))
    if table.pot:
        lines.append(tr.t(locale, "table-pot", count=table.pot))
    goal = _goal(tr, locale, table.variant, rules)
    lines.append(goal if goal is not None else tr.t(
        locale, "rules-limit", limit=table.match_limit, race="no", variant=table.variant))
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
    if hand.queue is not None:  # Колбаса: a queue nobody sees, its owner included (§2.12)
        lines[0] = tr.t(locale, "hand-queue", round=table.round_no, count=hand.queue)
    else:
        lines.append(format_tiles(hand.tiles) if hand.tiles else tr.t(locale, "hand-empty"))
    lines += layout_lines(locale, table.layout, max_tiles=HAND_CHAIN_TILES, hand=True, tr=tr,
                          names=_names(table), seat=hand.seat)
    if hand.host_moved:
        lines.append(tr.t(locale, "hand-host-moved"))
    if hand.drawn:
        lines.append(tr.t(locale, "hand-drew", tiles=format_tiles(hand.drawn)))
    if hand.taken:  # from another hand, not the bazar (RULES.md §2.8 rule 5)
        lines.append(tr.t(locale, "hand-took", tiles=format_tiles(hand.taken),
                          name=_name(_names(table), hand.taken_from)))
    if hand.knocked:
        lines.append(tr.t(locale, "hand-knocked"))
    lines.append("")
    here = table.chat_id > 0  # a match against computer players, in this private chat
    if table.final is not None:
        lines.append(tr.t(locale, _closed_hand_key(table.final.reason, here)))
    elif hand.your_turn:
        if hand.queue is not None:
            lines.append(tr.t(locale, "hand-choose-place"))
        elif hand.again:
            lines.append(tr.t(locale, "hand-again"))
        if table.layout.kind in ("line", "cross") and not table.layout.line:
            if hand.lead is not None:
                lines.append(tr.t(locale, "hand-lead-forced", tile=format_tile(hand.lead)))
            else:
                lines.append(tr.t(locale, "hand-lead-any"))
        if hand.queue is None:
            lines.append(tr.t(locale, "hand-your-turn"))
    elif table.to_act is not None:
        lines.append(tr.t(locale, "hand-waiting", name=_name(_names(table), table.to_act)))
        if hand.queue is not None:
            lines.append(tr.t(locale, "hand-forced-turns"))
    else:
        lines.append(tr.t(locale, "hand-round-over-here" if here else "hand-round-over"))
    return "\n".join(lines)


def _closed_hand_key(reason: str, here: bool) -> str:
    """The last line of a hand message once its match closed (issue 20 item 3): played to
    its end, stopped, or closed because the bot was removed from the group."""
    if reason == "stopped":
        return "hand-match-stopped"
    if reason == "bot_removed":
        return "hand-match-removed"
    return "hand-match-over-here" if here else "hand-match-over"


# -- round and match end -----------------------------------------------------------------------


def _last_tiles(layout: LayoutView | None) -> list[LaidTile]:
    """The tiles of the last move, as they lie (``LayoutView.last``)."""
    if layout is None:
        return []
    arms = {"line": layout.line, "up": layout.up, "down": layout.down}
    out = []
    for arm, index in layout.last:
        tiles = arms.get(arm, ())
        if 0 <= index < len(tiles):
            out.append(tiles[index])
    return out


def _end_line(tr: Translator, locale: str, summary: RoundSummary, names: Sequence[str]) -> str:
    """How the round ended: an out with the tiles of the going-out move (they decide the sea
    goat's rule 8, ЧЧВ's rule 4, Генерал's rule 3), a fish, a void round dealt again
    (RULES.md §2.1 rule 6, §2.9 rule 2) or a race won in the middle of it (§2.0.7)."""
    name = _name(names, summary.by)
    if summary.end == "fish":
        return variant_text(tr, locale, summary.variant, "round-fish", name=name)
    if summary.end == "void":
        return tr.t(locale, "round-void", name=name, variant=summary.variant)
    if summary.end == "limit":
        return tr.t(locale, "round-limit", name=name,
                    limit=summary.rules.get("match_limit", 0))
    tiles = _last_tiles(summary.layout)
    if tiles:
        return tr.t(locale, "round-out-tiles", name=name, tiles=format_tiles(tiles))
    return tr.t(locale, "round-out", name=name)


def _records(tr: Translator, locale: str, summary: RoundSummary, labels: Sequence[str]
             ) -> list[str]:
    """What each side recorded or remembered (RULES.md §1.12–§1.14; the race's round-end
    points §2.0.7; points a closed score loses in the sea goat, §2.1 rule 4), scores set
    back to 0 (§2.1 rule 8) and the pot (§1.13, §2.1 rule 3)."""
    lines = ["", tr.t(locale, "round-records-title")]
    threshold = summary.rules.get("open_threshold", 0)
    for side in range(len(summary.scores)):
        rec = summary.recorded[side]
        score, rem = summary.scores[side], summary.remembered[side]
        if rec and score > 0:
            lines.append(tr.t(locale, "round-side-score", name=labels[side], recorded=rec,
                              score=score))
        elif rec and rem:
            lines.append(tr.t(locale, "round-side-remembered", name=labels[side], recorded=rec,
                              remembered=rem))
        elif rec:
            lines.append(tr.t(locale, "round-side-lost", name=labels[side], recorded=rec,
                              threshold=threshold))
        else:
            lines.append(tr.t(locale, "round-side-nothing", name=labels[side],
                              total=format_score(score, rem)))
    for side in summary.reset:
        lines.append(tr.t(locale, "round-reset", name=labels[side]))
    if summary.pot_won:
        winner = summary.recorded.index(max(summary.recorded))
        lines.append(tr.t(locale, "round-pot-won", name=labels[winner], count=summary.pot_won))
    if summary.pot:
        lines.append(tr.t(locale, "round-pot", count=summary.pot))
    return lines


def render_round_summary(locale: str, summary: RoundSummary, names: Sequence[str],
                         sides: Sequence[int], *, specials: bool = True,
                         tr: Translator | None = None) -> str:
    """The end of a round: how it ended (an out with its tiles, a fish 🐟, a void round
    dealt again, a race won mid-round) and by whom, the sea goat's fast lead (RULES.md §2.1
    rules 6–7), ЧЧВ's specials (§2.3 rule 4; ``specials`` False leaves them to the table's
    log), a general (§2.9 rule 3), every hand revealed with its value (§1.11 and each game's
    own), the points scored on the count (§2.0.6), who lost the round (the sea goat's
    recorder §2.1 rule 3, Семёрка's stick holders §2.8, Генерал's team §2.9), what each side
    recorded or remembered (§1.12–§1.14) and the pot (§1.13), the game's marks and who leaves
    (§2.8 rules 7–8) and the lost rounds (§2.9 rule 4).  ``names`` and ``sides``
    (``SeatView.side``) of the players in seat order."""
    tr = _tr(tr)
    variant = summary.variant
    info = _info(variant)
    points = _points(variant)
    labels = side_names(names, sides)
    if summary.deals:
        lines = [variant_text(tr, locale, variant, "round-title-deal", round=summary.round_no,
                              deals=summary.deals)]
    else:
        lines = [tr.t(locale, "round-title", round=summary.round_no)]
    lines.append(_end_line(tr, locale, summary, names))
    naming = {f.name for f in info.flags if f.names_losers} if info else set()
    losers = " + ".join(labels[s] for s in summary.losers if s < len(labels))
    lines += [flag_text(tr, locale, variant, f) for f in summary.flags
              if f.name not in naming]
    if specials:
        lines += [tr.t(locale, "log-special", name=_name(names, seat), rule=rule)
                  for rule, seat in summary.specials]
    named = [f for f in summary.flags if f.name in naming]
    if named and summary.losers:
        lines += [flag_text(tr, locale, variant, f, names=losers) for f in named]
    lines += ["", tr.t(locale, "round-hands-title")]
    valued = info is None or info.counts_hands  # some games only show the hands
    if summary.queues:  # Колбаса: nobody sees a queue, even now (§2.12 rules 1, 8)
        lines[-1] = tr.t(locale, "round-queues-title")
        lines += [tr.t(locale, "round-queue", name=_name(names, seat), count=n,
                       points=summary.seat_values[seat] if seat < len(summary.seat_values)
                       else 0) for seat, n in enumerate(summary.queues)]
    for seat, hand in enumerate(() if summary.queues else summary.hands):
        if hand and not valued:
            lines.append(tr.t(locale, "round-hand-tiles", name=_name(names, seat),
                              tiles=format_tiles(hand)))
        elif hand:
            value = summary.seat_values[seat] if seat < len(summary.seat_values) else 0
            lines.append(tr.t(locale, "round-hand", name=_name(names, seat),
                              tiles=format_tiles(hand), count=value))
        else:
            lines.append(tr.t(locale, "round-hand-empty", name=_name(names, seat)))
    if summary.play_points:
        scored = " · ".join(f"{html.escape(labels[side])} +{p}"
                            for side, p in enumerate(summary.play_points) if p)
        if scored:
            lines += ["", tr.t(locale, "round-play-points", points=Markup(scored))]
    if summary.losers and summary.end != "void" and not named:
        losers = [labels[s] for s in summary.losers if s < len(labels)]
        lines += ["", tr.t(locale, "round-losers", variant=variant,
                           count=_players_of(sides, summary.losers), names=", ".join(losers))]
    if summary.end == "limit":
        lines += ["", tr.t(locale, "round-scores-title")]
        lines += [tr.t(locale, "score-line", name=labels[side], score=str(score))
                  for side, score in enumerate(summary.scores)]
    elif summary.end != "void" and points:
        lines += _records(tr, locale, summary, labels)
    teams = len(summary.scores) != len(names)
    for mark in summary.marks:  # what the game counts beside points (RULES.md §2)
        lines += ["", _mark_text(tr, locale, variant, "mark-round-title", mark, 0)]
        for k, n in enumerate(mark.counts):
            if mark.per == "side" and teams:
                lines.append(tr.t(locale, "round-mark-team", team=k + 1, names=labels[k],
                                  count=n, limit=mark.limit or 0))
            else:
                who = _name(names, k) if mark.per == "seat" else labels[k]
                lines.append(tr.t(locale, "round-mark", name=who, count=n,
                                  limit=mark.limit or 0))
    if summary.left:
        lines.append(tr.t(locale, "round-left", count=len(summary.left),
                          names=", ".join(_name(names, s) for s in summary.left)))
    return "\n".join(lines)


def _players_of(sides: Sequence[int], chosen: Iterable[int]) -> int:
    """How many players the sides ``chosen`` hold (a team of two is two goats: plural)."""
    chosen = set(chosen)
    return sum(1 for side in sides if side in chosen) or len(chosen)


def _score_words(tr: Translator, locale: str, variant: str | None, marks: Sequence[Any],
                 score: str) -> str:
    """A side's score in a table of the match (/score, the final table): its marks in words
    where the game counts them (``mark-score``, RULES.md §2), and ``score`` where it keeps
    points."""
    words = [_mark_text(tr, locale, variant, "mark-score", m) for m in marks]
    if _points(variant):
        words.insert(0, score)
    return ", ".join(words) if words else score


def result_words(locale: str, variant: str | None, score: int, remembered: int = 0,
                 marks: Sequence[Any] = (), *, tr: Translator | None = None) -> str:
    """A side's result once the match is over, as its final table, /history and the check of
    its record word it (HTML): the open score (RULES.md §1.12) with the points still
    remembered beside it («0 (+8 запомнено)»: they never count towards the limit nor the
    rating of §1.16, but the round's summary said them), and the game's marks (``mark-score``:
    «3 палки», «проиграно 1», RULES.md §2.8, §2.9) — only the marks where the game keeps no
    points."""
    tr = _tr(tr)
    shown = str(score)
    if remembered:
        shown = tr.t(locale, "score-remembered", score=score, remembered=remembered)
    return _score_words(tr, locale, variant, marks, shown)


def render_match_end(locale: str, end: MatchEnd, *, rematch_hint: bool = True,
                     tr: Translator | None = None) -> str:
    """The match-end message: the goat(s) with the game's word, mark and title (RULES.md
    §1.15 «козёл» 🐐; §2.1 «морской», «подвесной», «внеочередной», «сопливый козёл»,
    «адмирал»; §2.2 «осёл» 🫏; §2.8 the first to leave; §2.9 «генерал»), plural for several
    goats or a team; the winners of a race (§2.0.7) or the last player of Семёрка (§2.8); a draw
    (§2.7); the timed-out player (§1.17); the final table ordered by place, each side's
    result (:func:`result_words`: the open score and the points still remembered, §1.12, or
    the game's marks) and its rating gain (§1.16).  ``end``: the match's
    :class:`~service.views.MatchEnd`."""
    tr = _tr(tr)
    names = [seat_label(p.name, p.left) for p in end.players]
    player_sides = [p.side for p in end.players]
    sides: dict[int, Any] = {}
    for p in end.players:
        sides.setdefault(p.side, p)
    labels = side_names(names, player_sides)
    goats = sorted(s for s, p in sides.items() if p.goat)
    info = _info(end.variant)
    lines = [tr.t(locale, "match-title")]
    timed_out = next((p for p in end.players if p.timed_out), None)
    if end.reason == "timeout" and timed_out is not None:
        lines.append(tr.t(locale, "match-timeout", name=_name(names, timed_out.seat)))
    mark = goat_mark(locale, end.variant, tr=tr)
    if goats:
        lines.append(tr.t(locale, "match-goat", count=_players_of(player_sides, goats),
                          names=", ".join(labels[s] for s in goats), variant=end.variant,
                          title=end.title or "none", mark=mark))
    if end.winners:
        lines.append(tr.t(locale, "match-winners", variant=end.variant,
                          count=_players_of(player_sides, end.winners),
                          names=", ".join(labels[s] for s in end.winners if s < len(labels))))
    elif end.rated and end.reason == "limit" and info is not None and \
            any(m.leaves for m in info.marks):  # everyone left: nobody is the last (§2.8)
        lines.append(tr.t(locale, "match-no-winner"))
    if end.draw:
        lines.append(tr.t(locale, "match-draw"))
    lines += ["", variant_text(tr, locale, end.variant, "match-final-title",
                               rounds=end.round_no, deals=end.deals or 0,
                               timeout="yes" if end.reason == "timeout" else "no")]
    order = sorted(sides, key=lambda s: (sides[s].place or 99, s in goats, s))
    if not any(p.place for p in sides.values()):  # views made before places were known
        order = sorted(sides, key=lambda s: (s in goats, sides[s].score, s))
    # a side of nobody but seats people left earns its person nothing (RULES.md §1.16)
    gone = {s for s in sides if all(p.left for p in end.players if p.side == s)}
    for place, side in enumerate(order, start=1):
        key = "match-line-goat" if side in goats else "match-line"
        lines.append(tr.t(locale, key, place=sides[side].place or place, name=labels[side],
                          mark=mark,
                          score=Markup(result_words(locale, end.variant,
                                                    sides[side].score,
                                                    sides[side].remembered,
                                                    sides[side].marks, tr=tr)),
                          gain=0 if side in gone else sides[side].rating))
    for p in end.players:
        if p.left:
            lines.append(tr.t(locale, "match-left-note", name=clean_name(p.left),
                              round=p.left_round or 1, bot=clean_name(p.name),
                              gender=bot_gender(p.name, tr)))
    if rematch_hint:
        lines += ["", tr.t(locale, "match-rematch")]
    return "\n".join(lines)


# -- settings and help -----------------------------------------------------------------------


def render_settings(locale: str, rules: Mapping[str, Any], *, choosing: str | None = None,
                    tr: Translator | None = None) -> str:
    """/settings text: title, "changes apply from the next match", the chat's game (RULES.md
    §2) and its current rules (:func:`render_rules`); with ``choosing`` (a settings label,
    plain text) the prompt to pick its value.  The buttons come from
    :func:`ui.keyboards.settings_keyboard`."""
    tr = _tr(tr)
    game = variant_name(tr, locale, str(rules.get("variant", "classic")))
    lines = [tr.t(locale, "settings-title"), tr.t(locale, "settings-hint"), "",
             tr.t(locale, "lobby-game", game=game), render_rules(locale, rules, tr=tr)]
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
