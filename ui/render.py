"""Message texts: pure functions from engine values, display names and events to Telegram HTML.

Nothing here sends, awaits or reads a database.  Every function takes the reader's ``locale``
and an optional :class:`ui.i18n.Translator` (``tr``; default :func:`ui.i18n.get_translator`),
and returns text for ``parse_mode="HTML"`` of at most :data:`MAX_TEXT` characters.

Player names are user input: they are cleaned by :func:`clean_name` (one line, at most
:data:`NAME_LIMIT` characters) and HTML-escaped by the translator.  ``names`` is always a
sequence of display names in seat order (seat 0 first).

Hidden information (RULES.md §1.8 and issue 4): the group texts (:func:`render_table`,
:func:`render_score`) never contain a hand or a drawn tile -- only counts; hands appear in the
group only in :func:`render_round_summary`, after the round.  :func:`render_hand` is for the
seat's own private chat.

Events are the engine's (``engine.events``): ``dealt``, ``misdeal``, ``led``, ``played``,
``host_moved``, ``drew``, ``knocked``, ``went_out``, ``fish``, ``round_scored``,
``match_ended``; any object with a ``kind`` and the engine's field names works.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

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
    "events_by_round",
    "chain_from_events",
    "action_log",
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
    """``(a, b)`` as given from an ``engine.Tile``, a pair or a code ``"a-b"``."""
    if hasattr(tile, "a"):
        return int(tile.a), int(tile.b)
    if isinstance(tile, str):
        return tile_halves(tile_id(tile))
    a, b = tile
    return int(a), int(b)


def format_tile(tile: Any) -> str:
    """``[a|b]`` as given (RULES.md §0): an ``engine.Tile``, an oriented ``(a, b)`` pair or a
    code ``"a-b"``."""
    a, b = _pair(tile)
    return f"[{a}|{b}]"


def format_tiles(tiles: Iterable[Any], sep: str = " ") -> str:
    """Tiles of a hand, sorted with ``a <= b`` in each tile (RULES.md §0): ``[0|3] [2|5]``."""
    norm = sorted((min(p), max(p)) for p in map(_pair, tiles))
    return sep.join(format_tile(p) for p in norm)


def format_chain(chain: Sequence[Any], max_tiles: int | None = None) -> str:
    """The chain as oriented ``[a|b]`` pairs left to right, e.g. ``[1|1][1|5][5|3]``
    (RULES.md §0).  With ``max_tiles`` a longer chain keeps its first and last tiles around
    "…", so both open ends stay visible."""
    parts = [format_tile(p) for p in chain]
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


def side_names(names: Sequence[str], sides: int, players: int) -> list[str]:
    """Display name of each scoring side: the player, or ``"A + C"`` for a team of seats
    ``s`` and ``s + 2`` (RULES.md §1.14)."""
    if sides == players:
        return [clean_name(n) for n in names[:players]]
    return [
        " + ".join(clean_name(names[s]) for s in range(players) if s % sides == side)
        for side in range(sides)
    ]


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None or seat < 0:
        return "?"
    return clean_name(names[seat]) if seat < len(names) else f"#{seat + 1}"


# -- events ----------------------------------------------------------------------------------


def events_by_round(events: Iterable[Any], default_round: int = 1) -> dict[int, list[Any]]:
    """Split a stretch of a match's event stream by round number.

    A round's events start with its ``misdeal``/``dealt`` events and run to its
    ``round_scored`` (and ``match_ended``).  Events before the first such marker belong to the
    marker's round (``round_scored``) or the one before it (``misdeal``/``dealt``); with no
    marker at all, to ``default_round`` -- so the events of a single ``apply`` can be passed.
    """
    events = list(events)
    first = next((e for e in events if e.kind in ("misdeal", "dealt", "round_scored")), None)
    if first is None:
        current = default_round
    elif first.kind == "round_scored":
        current = first.round_no
    else:
        current = first.round_no - 1
    out: dict[int, list[Any]] = {}
    closed = False
    for ev in events:
        kind = ev.kind
        if kind in ("misdeal", "dealt"):
            current = ev.round_no
            closed = False
        elif kind == "round_scored":
            current = ev.round_no
            closed = True
        elif closed and kind != "match_ended":
            # Stray events after a round was scored belong to the next one.
            current += 1
            closed = False
        out.setdefault(current, []).append(ev)
    return out


def chain_from_events(events: Iterable[Any]) -> list[tuple[int, int]]:
    """Rebuild a round's chain (oriented pairs, left to right) from its ``led`` and ``played``
    events, the way the engine lays tiles (RULES.md §0, §1.7)."""
    chain: list[tuple[int, int]] = []
    for ev in events:
        if ev.kind == "led":
            chain = [_pair(ev.tile)]
        elif ev.kind == "played" and chain:
            a, b = _pair(ev.tile)
            if ev.end == "left":
                left = chain[0][0]
                chain.insert(0, (b if a == left else a, left))
            else:
                right = chain[-1][1]
                chain.append((right, b if a == right else a))
    return chain


def action_log(
    events: Iterable[Any], names: Sequence[str], locale: str, *, tr: Translator | None = None
) -> list[str]:
    """The public moves of ``events`` as lines of words, oldest first (HTML).

    Draws are counted, never shown: consecutive ``drew`` events of one seat merge with what
    that seat does next («Петя взял 3 из базара и постучал», RULES.md §1.8).  A host move
    (§1.17) gets its own line.  ``round_scored``/``match_ended`` are summarised elsewhere.
    """
    tr = _tr(tr)
    lines: list[str] = []
    pending: dict[int, int] = {}
    for ev in events:
        kind = ev.kind
        if kind == "drew":
            pending[ev.seat] = pending.get(ev.seat, 0) + 1
            continue
        if kind == "dealt":
            lines.append(tr.t(locale, "log-dealt", name=_name(names, ev.leader)))
        elif kind == "misdeal":
            lines.append(tr.t(locale, "log-misdeal", name=_name(names, ev.seat),
                              reason=str(ev.reason)))
        elif kind == "led":
            lines.append(tr.t(locale, "log-led", name=_name(names, ev.seat),
                              tile=format_tile(ev.tile)))
        elif kind == "played":
            n = pending.pop(ev.seat, 0)
            args = {"name": _name(names, ev.seat), "tile": format_tile(ev.tile),
                    "end": str(ev.end)}
            if n:
                lines.append(tr.t(locale, "log-drew-played", count=n, **args))
            else:
                lines.append(tr.t(locale, "log-played", **args))
        elif kind == "knocked":
            n = pending.pop(ev.seat, 0)
            if n:
                lines.append(tr.t(locale, "log-drew-knocked", name=_name(names, ev.seat),
                                  count=n))
            else:
                lines.append(tr.t(locale, "log-knocked", name=_name(names, ev.seat)))
        elif kind == "host_moved":
            lines.append(tr.t(locale, "log-host-moved", name=_name(names, ev.seat)))
        elif kind == "went_out":
            lines.append(tr.t(locale, "log-went-out", name=_name(names, ev.seat)))
        elif kind == "fish":
            lines.append(tr.t(locale, "log-fish", name=_name(names, ev.seat)))
    for seat, n in pending.items():
        lines.append(tr.t(locale, "log-drew", name=_name(names, seat), count=n))
    return lines


# -- rules and lobby ---------------------------------------------------------------------------


def render_rules(locale: str, rules: Any, *, tr: Translator | None = None) -> str:
    """The chat's rule options as lines (RULES.md §1.4, §1.10 b, §1.13–§1.15, §1.17).

    ``rules`` is an ``engine.Rules`` (fields ``teams``, ``match_limit``, ``fish_scoring``,
    ``fish_without_double``, ``bazar_reserve``, ``turn_timeout``).
    """
    tr = _tr(tr)
    return "\n".join([
        tr.t(locale, "rules-variant", variant="teams" if rules.teams else "classic"),
        tr.t(locale, "rules-limit", limit=rules.match_limit),
        tr.t(locale, "rules-fish-scoring", mode=rules.fish_scoring),
        tr.t(locale, "rules-fish-without-double",
             enabled="yes" if rules.fish_without_double else "no"),
        tr.t(locale, "rules-reserve", reserve=rules.bazar_reserve),
        tr.t(locale, "rules-timeout", count=rules.turn_timeout),
    ])


def render_lobby(
    locale: str,
    players: Sequence[str],
    rules: Any,
    *,
    creator: str | None = None,
    bots: Iterable[int] = (),
    max_players: int = 4,
    expires_minutes: int | None = None,
    tr: Translator | None = None,
) -> str:
    """The lobby message (issue 4, "The lobby"): seats 1..``max_players`` with the seated
    ``players`` in order (indexes in ``bots`` marked as bots), who opened it, the rule summary
    (:func:`render_rules`) and the hint; ``expires_minutes`` adds when it closes."""
    tr = _tr(tr)
    bot_seats = set(bots)
    lines = [tr.t(locale, "lobby-title"), "",
             tr.t(locale, "lobby-players", count=len(players), max=max_players)]
    for i in range(max_players):
        if i < len(players):
            key = "lobby-seat-bot" if i in bot_seats else "lobby-seat"
            lines.append(tr.t(locale, key, seat=i + 1, name=clean_name(players[i])))
        else:
            lines.append(tr.t(locale, "lobby-seat-empty", seat=i + 1))
    if creator is not None:
        lines.append(tr.t(locale, "lobby-creator", name=clean_name(creator)))
    lines += ["", tr.t(locale, "lobby-rules"), render_rules(locale, rules, tr=tr), "",
              tr.t(locale, "lobby-hint")]
    if expires_minutes:
        lines.append(tr.t(locale, "lobby-expires", minutes=expires_minutes))
    return "\n".join(lines)


# -- the table -------------------------------------------------------------------------------


def _fit(build, log: list[str], chain_len: int) -> str:
    """Build the text with as much of the log (newest kept) as fits in MAX_TEXT; if even an
    empty log does not fit, shorten the chain around its middle."""
    keep = len(log)
    text = build(log, None)
    while text_length(text) > MAX_TEXT and keep > 0:
        keep = keep // 2 if keep > 4 else keep - 1
        text = build(log[len(log) - keep:] if keep else [], None)
    max_tiles = chain_len
    while text_length(text) > MAX_TEXT and max_tiles > 2:
        max_tiles //= 2
        text = build([], max_tiles)
    if text_length(text) > MAX_TEXT:  # pragma: no cover - only with absurd inputs
        text = text[: MAX_TEXT - 1] + "…"
    return text


def _side_lines(tr, locale, names, sizes, scores, remembered, players, marker_seat):
    lines = []
    sides = len(scores)
    for seat in range(players):
        marker = "▶️ " if seat == marker_seat else "▫️ "
        if sides == players:
            score = format_score(scores[seat], remembered[seat])
        else:
            score = format_score(scores[seat % sides], remembered[seat % sides])
        lines.append(marker + tr.t(locale, "table-player", name=_name(names, seat),
                                   count=sizes[seat], score=score))
    if sides != players:
        for side, label in enumerate(side_names(names, sides, players)):
            lines.append(tr.t(locale, "table-team", team=side + 1, names=label,
                              score=format_score(scores[side], remembered[side])))
    return lines


def render_table(
    locale: str,
    state: Any,
    names: Sequence[str],
    events: Iterable[Any] = (),
    *,
    round_no: int | None = None,
    log_lines: int = LOG_LINES,
    summary: bool = False,
    tr: Translator | None = None,
) -> str:
    """The group's table message for one round (issue 4, "The table in the group").

    ``state`` is an ``engine.MatchState``; ``events`` any stretch of the match's events that
    includes this round's (others are ignored).  The text shows the chain in ``[a|b]``
    notation with its open ends, the bazar as drawable (+ reserve) (RULES.md §1.4), each
    seat's name, tiles left and score (``+N`` = remembered, §1.12; teams §1.14), whose turn,
    the pot (§1.13) and the last ``log_lines`` actions in words.

    ``round_no`` defaults to ``state.round_no``.  For an earlier round -- or one whose
    ``round_scored`` is among the events, e.g. right after the ``apply`` that ended it and
    dealt the next -- the closed table of that round is rendered from its events (chain
    rebuilt by :func:`chain_from_events`, scores from ``round_scored``), ending with
    "the round is over".  With ``summary`` a scored round's table ends with its
    :func:`render_round_summary` instead (so one message, edited, closes the round: the hands
    are revealed only then, RULES.md §1.11).  Otherwise never contains a hand or a drawn tile.
    At most ``MAX_TEXT`` characters: the oldest log lines go first, then the chain's middle.
    """
    tr = _tr(tr)
    rnd = state.round_no if round_no is None else round_no
    round_events = events_by_round(events, rnd).get(rnd, [])
    scored = next((e for e in round_events if e.kind == "round_scored"), None)
    ended = next((e for e in round_events if e.kind == "match_ended"), None)
    players = state.players
    live = scored is None and rnd == state.round_no and getattr(state.round, "end", None) is None

    if live:
        chain = list(state.chain)
        ends = tuple(state.ends)
        sizes = state.hand_sizes()
        scores, remembered, pot = state.scores, state.remembered, state.pot
        drawable, reserve = state.drawable, state.reserve
        to_act = state.to_act
    else:
        if round_events:
            chain = chain_from_events(round_events)
        else:
            chain = list(state.chain) if rnd == state.round_no else []
        ends = (chain[0][0], chain[-1][1]) if chain else ()
        if scored is not None:
            sizes = tuple(len(h) for h in scored.hands)
            scores, remembered, pot = scored.scores, scored.remembered, scored.pot
        else:
            sizes = state.hand_sizes()
            scores, remembered, pot = state.scores, state.remembered, state.pot
        drawable, reserve = _bazar_after(round_events, state)
        to_act = None

    tail = (render_round_summary(locale, scored, names, state.rules, tr=tr)
            if summary and scored is not None else None)
    log = action_log(round_events, names, locale, tr=tr)
    hidden = max(0, len(log) - log_lines)
    log = log[hidden:]

    def build(log_part: list[str], max_tiles: int | None) -> str:
        lines = [tr.t(locale, "table-title", round=rnd)]
        if chain:
            lines.append(tr.t(locale, "table-chain",
                              chain=Markup(format_chain(chain, max_tiles))))
            lines.append(tr.t(locale, "table-ends", left=ends[0], right=ends[1]))
        else:
            lines.append(tr.t(locale, "table-chain-empty"))
        if reserve:
            lines.append(tr.t(locale, "table-bazar-reserve", drawable=drawable, reserve=reserve))
        else:
            lines.append(tr.t(locale, "table-bazar", drawable=drawable))
        lines.append("")
        lines += _side_lines(tr, locale, names, sizes, scores, remembered, players, to_act)
        if pot:
            lines.append(tr.t(locale, "table-pot", count=pot))
        if to_act is not None:
            lines.append(tr.t(locale, "table-turn", name=_name(names, to_act)))
        if log_part:
            lines += ["", tr.t(locale, "table-log-title")]
            dropped = hidden + (len(log) - len(log_part))
            if dropped:
                lines.append(tr.t(locale, "table-log-more", count=dropped))
            lines += log_part
        if tail is not None:
            lines += ["", tail]
            if ended:
                lines += ["", tr.t(locale, "table-match-over")]
        elif not live:
            lines += ["", tr.t(locale, "table-match-over" if ended else "table-round-over")]
        return "\n".join(lines)

    return _fit(build, log, len(chain))


def _bazar_after(round_events: Sequence[Any], state: Any) -> tuple[int, int]:
    """Drawable and reserve bazar counts at the end of a past round, from its events."""
    dealt = next((e for e in round_events if e.kind == "dealt"), None)
    if dealt is None:
        return state.drawable, state.reserve
    drawn = sum(1 for e in round_events if e.kind == "drew")
    return max(0, dealt.drawable - drawn), dealt.reserve


def render_score(
    locale: str, state: Any, names: Sequence[str], *, tr: Translator | None = None
) -> str:
    """/score: the match table now -- each side's score (``+N`` remembered, RULES.md §1.12),
    the pot (§1.13), the round number and the match limit (§1.15).  No hands."""
    tr = _tr(tr)
    lines = [tr.t(locale, "match-score-title"), tr.t(locale, "table-title", round=state.round_no)]
    labels = side_names(names, len(state.scores), state.players)
    for side, label in enumerate(labels):
        lines.append(tr.t(locale, "score-line", name=label,
                          score=format_score(state.scores[side], state.remembered[side])))
    if state.pot:
        lines.append(tr.t(locale, "table-pot", count=state.pot))
    lines.append(tr.t(locale, "rules-limit", limit=state.rules.match_limit))
    return "\n".join(lines)


# -- the hand --------------------------------------------------------------------------------


def _recent_for_seat(events: Sequence[Any], seat: int, to_act: bool) -> tuple[list, bool]:
    """What the hand message should report about ``seat``'s own recent events.

    Returns ``(events, host_moved)``: the seat's draws since its last decision (a tile or a
    knock); if there are none and the seat is not to act, the draws and the knock of its last
    knock (RULES.md §1.8).  ``host_moved``: its last tile was placed by the host (§1.17).
    A stale knock is not repeated on the seat's next turn.
    """
    current: list[Any] = []
    knock: list[Any] = []
    host_pending = False
    host_moved = False
    for ev in events:
        if getattr(ev, "seat", None) != seat:
            continue
        if ev.kind in ("led", "played"):
            current, knock = [], []
            host_moved, host_pending = host_pending, False
        elif ev.kind == "knocked":
            knock, current = current + [ev], []
            host_moved, host_pending = host_pending, False
        elif ev.kind == "host_moved":
            host_pending = True
        else:
            current.append(ev)
    if current:
        return current, host_moved
    return (knock if not to_act else []), host_moved


def render_hand(
    locale: str,
    state: Any,
    seat: int,
    names: Sequence[str],
    events: Iterable[Any] = (),
    *,
    tr: Translator | None = None,
) -> str:
    """The private hand message of ``seat`` (issue 4, "Hands in private").

    Shows the hand sorted in ``[a|b]`` notation, the chain and its open ends, the tiles this
    seat drew since its last decision (RULES.md §1.8), its last knock (not once its next turn
    has come), "the bot moved for you" when its last tile was a host move (§1.17), and either
    "your move" (when ``state.to_act == seat``; the keyboard comes from
    :func:`ui.keyboards.hand_keyboard`) or who is to move.  ``events`` may be this change's
    events or the whole round's log.  Private: send to ``seat`` only.
    """
    tr = _tr(tr)
    evs = [e for e in events if getattr(e, "kind", None) not in ("round_scored", "match_ended")]
    # Only the current round's events concern the hand on the table.
    evs = events_by_round(evs, state.round_no).get(state.round_no, [])
    mine, host_moved = _recent_for_seat(evs, seat, state.to_act == seat)
    hand = state.hand(seat)
    lines = [tr.t(locale, "hand-title", round=state.round_no)]
    lines.append(format_tiles(hand) if hand else tr.t(locale, "hand-empty"))
    if state.chain:
        lines.append(tr.t(locale, "hand-chain", chain=Markup(format_chain(state.chain, 16))))
        left, right = state.ends
        lines.append(tr.t(locale, "hand-ends", left=left, right=right))
    drawn = [e.tile for e in mine if e.kind == "drew"]
    if host_moved:
        lines.append(tr.t(locale, "hand-host-moved"))
    if drawn:
        lines.append(tr.t(locale, "hand-drew", tiles=format_tiles(drawn)))
    if any(e.kind == "knocked" for e in mine):
        lines.append(tr.t(locale, "hand-knocked"))
    lines.append("")
    if state.finished:
        lines.append(tr.t(locale, "hand-match-over"))
    elif state.to_act is None:
        lines.append(tr.t(locale, "hand-round-over"))
    elif state.to_act == seat:
        if not state.chain:
            lead = next((e.lead_tile for e in evs if e.kind == "dealt"), None)
            lead_id = getattr(getattr(state, "round", None), "lead_id", -1)
            if lead is None and lead_id is not None and lead_id >= 0:
                lead = tile_halves(lead_id)
            if lead is not None:
                lines.append(tr.t(locale, "hand-lead-forced", tile=format_tile(lead)))
            else:
                lines.append(tr.t(locale, "hand-lead-any"))
        lines.append(tr.t(locale, "hand-your-turn"))
    else:
        lines.append(tr.t(locale, "hand-waiting", name=_name(names, state.to_act)))
    return "\n".join(lines)


# -- round and match end -----------------------------------------------------------------------


def _seat_value(hand: Sequence[Any], rules: Any) -> int:
    """RULES.md §1.11: pips; the lone [0|0] counts ``rules.lone_zero_double_value``."""
    pairs = [_pair(t) for t in hand]
    if pairs == [(0, 0)]:
        return int(getattr(rules, "lone_zero_double_value", 10))
    return sum(a + b for a, b in pairs)


def render_round_summary(
    locale: str,
    scored: Any,
    names: Sequence[str],
    rules: Any,
    *,
    tr: Translator | None = None,
) -> str:
    """The round-end message (issue 4): out or fish 🐟 and by whom, every hand revealed with
    its value (RULES.md §1.11), what each side recorded or remembered (§1.12–§1.14) and the
    pot (§1.13).

    ``scored`` is the ``round_scored`` event; ``rules`` the match's ``engine.Rules``.
    """
    tr = _tr(tr)
    players = len(scored.hands)
    sides = len(scored.scores)
    labels = side_names(names, sides, players)
    lines = [tr.t(locale, "round-title", round=scored.round_no)]
    key = "round-fish" if scored.end == "fish" else "round-out"
    lines.append(tr.t(locale, key, name=_name(names, scored.by)))
    lines += ["", tr.t(locale, "round-hands-title")]
    for seat, hand in enumerate(scored.hands):
        if hand:
            lines.append(tr.t(locale, "round-hand", name=_name(names, seat),
                              tiles=format_tiles(hand),
                              count=_seat_value(hand, rules)))
        else:
            lines.append(tr.t(locale, "round-hand-empty", name=_name(names, seat)))
    lines += ["", tr.t(locale, "round-records-title")]
    for side in range(sides):
        rec = scored.recorded[side]
        score, rem = scored.scores[side], scored.remembered[side]
        if rec and score > 0:
            lines.append(tr.t(locale, "round-side-score", name=labels[side], recorded=rec,
                              score=score))
        elif rec:
            lines.append(tr.t(locale, "round-side-remembered", name=labels[side], recorded=rec,
                              remembered=rem))
        else:
            lines.append(tr.t(locale, "round-side-nothing", name=labels[side],
                              total=format_score(score, rem)))
    if scored.pot_won:
        top = max(scored.recorded)
        winner = scored.recorded.index(top)
        lines.append(tr.t(locale, "round-pot-won", name=labels[winner], count=scored.pot_won))
    if scored.pot:
        lines.append(tr.t(locale, "round-pot", count=scored.pot))
    return "\n".join(lines)


def render_match_end(
    locale: str,
    result: Any,
    scores: Sequence[int],
    names: Sequence[str],
    *,
    players: int | None = None,
    rematch_hint: bool = True,
    tr: Translator | None = None,
) -> str:
    """The match-end message: the goat(s) 🐐 «козёл» (RULES.md §1.15) or the timed-out
    player (§1.17), the final table ordered best first, and each side's rating gain (§1.16).

    ``result`` is ``MatchState.result`` or the ``match_ended`` event (fields ``reason``,
    ``goats``, ``rating``, ``timed_out``); ``scores`` the final open scores per side;
    ``players`` defaults to ``len(names)``.
    """
    tr = _tr(tr)
    players = len(names) if players is None else players
    sides = len(scores)
    labels = side_names(names, sides, players)
    goats = set(result.goats)
    lines = [tr.t(locale, "match-title")]
    if result.reason == "timeout" and result.timed_out is not None:
        lines.append(tr.t(locale, "match-timeout", name=_name(names, result.timed_out)))
    if goats:
        lines.append(tr.t(locale, "match-goat", count=len(goats),
                          names=", ".join(labels[s] for s in sorted(goats))))
    lines += ["", tr.t(locale, "match-final-title")]
    order = sorted(range(sides), key=lambda s: (s in goats, scores[s], s))
    for place, side in enumerate(order, start=1):
        key = "match-line-goat" if side in goats else "match-line"
        lines.append(tr.t(locale, key, place=place, name=labels[side], score=scores[side],
                          gain=result.rating[side]))
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


def render_settings(
    locale: str, rules: Any, *, choosing: str | None = None, tr: Translator | None = None
) -> str:
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
        return tr.t(locale, "help-group") + "\n" + tr.t(locale, "help-group-bots")
    return tr.t(locale, "help-private") + "\n" + tr.t(locale, "help-private-bots")
