"""Invariant checkers: what the chats showed, held against the engine's replay of the match.

:func:`load_replay` reads a match's row and action log from the bot's SQLite file and replays
it through ``engine`` (seed + decisions reproduce a match exactly), keeping every intermediate
state; beside it, the service's own views of every version, rebuilt from the same row and log
(:class:`service.live.match.LiveMatch`), whose numbers are held against the engine's.  The checkers
then read the chats as people saw them — every text each message ever had
(``ChatMessage.history``) and every keyboard it carried — and raise ``AssertionError`` naming
the message when:

- a move keyboard offers anything but exactly the legal moves of the state its version names
  (directly, or at the end of a move built double by double: every building button is part
  of a legal move, RULES.md §2.0.4), or is shown to anyone but the seat to act, or a private
  chat ever holds two live move keyboards at once (:func:`check_keyboards`);
- a table shows anything but the table of some version of the match as the bot renders it,
  or that table does not account for all 28 tiles (the tiles on the table, in the hands and
  in the bazar, as the engine has them), or a tile that is not on the table appears in it
  before the round's summary reveals the hands; any other message shows a tile
  (:func:`check_group`);
- a tile of another hand appears in a player's private chat (:func:`check_private`);
- a round summary or the match-end message differs from the engine's records
  (:func:`check_results`), or the table does not end on the latest state
  (:func:`check_latest_table`).

Every layout is read (RULES.md §2.0: the line, the cross and its arms, closed doubles, the
gap; §2.11 the trains with their markers and open doubles, and the double-9 and double-12
sets; §2.12 the sausage, whose queues nobody is shown, their owners included — a hand
message there holds no tile of a queue, only the table's; Колбаса's tables between a step's
forced placements, ``TableView.frame``, are tables of that step too).  A solo match is
played in the player's private chat: there the tables and the hand
messages share one chat, and each checker reads its own kind of message.  Texts are read in
the bot's default language, Russian.  A photo's caption is read as a text
(``ChatMessage.shown_texts``): the table as a picture carries the title, the round's moves and
summary in its caption (:func:`ui.caption.render_caption`), and the picture shows the tiles.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

import engine
from engine.records import parse_decision
from service.live.frames import frames
from service.live.match import LiveMatch
from service.views import MatchEnd, RoundSummary, TableView
from storage import repository as repo
from tests.e2e.players import button_move, move_buttons
from tests.emulator import ChatMessage
from tests.emulator.html import parse_html
from ui import render
from ui.caption import render_caption
from ui.keyboards import move_label

__all__ = [
    "Replay",
    "check_all",
    "check_group",
    "check_keyboards",
    "check_latest_table",
    "check_private",
    "check_results",
    "load_replay",
    "match_ids",
    "tiles_in",
]

LOCALE = "ru"
_TILE = re.compile(r"\[(\d+)\|(\d+)\]")
_HAND_TITLE = re.compile(r"^(?:Ваши кости \(раунд (\d+)\):|Ваш ряд \(раунд (\d+)\): .*)$")
#: A line of the match end's table: place, goat, name, open score, the points still
#: remembered when there are any (RULES.md §1.12), the rating.
_END_LINE = re.compile(
    r"^(\d+)\. (🐐 )?(.+) — (-?\d+)(?: \(\+(\d+) запомнено\))?, рейтинг \+(\d+)$")
#: Two deadlines far apart: the lines of a table that change between them show the deadline
#: (RULES.md §1.17), which the rebuilt views cannot know; they are not compared.
_DEADLINES = (1_000_000_000.0, 1_000_040_000.0)


def tiles_in(text: str | None) -> list[tuple[int, int]]:
    """Every ``[a|b]`` written in a text, as ``(min, max)`` pairs, in order."""
    return [(min(int(a), int(b)), max(int(a), int(b))) for a, b in _TILE.findall(text or "")]


def _pair(t: Any) -> tuple[int, int]:
    a, b = (t.a, t.b) if hasattr(t, "a") else (t[0], t[1])
    return (min(a, b), max(a, b))


def _norm(tiles: Iterable[Any]) -> set[tuple[int, int]]:
    return {_pair(t) for t in tiles}


def _on_table(state: Any) -> set[tuple[int, int]]:
    """The tiles on the table of a state: the line and the arms of the cross; the engine
    double and every train (RULES.md §2.11); the sausage's head and lines (§2.12)."""
    lay = state.layout
    if lay.kind == "trains":
        out = {(lay.engine, lay.engine)} | _norm(lay.mexican)
        for train in lay.trains:
            out |= _norm(train)
        return out
    if lay.kind == "sausage":
        return (_norm([lay.head]) if lay.head is not None else set()) | _norm(lay.a) | \
            _norm(lay.b)
    return _norm(lay.line) | _norm(lay.up) | _norm(lay.down)


def _view_table(lay: Any) -> set[tuple[int, int]]:
    """The tiles on the table of a :class:`~service.views.LayoutView`, as :func:`_on_table`
    reads an engine state's."""
    out = _norm(lay.line) | _norm(lay.up) | _norm(lay.down)
    if lay.engine is not None:
        out.add((lay.engine, lay.engine))
        for train in lay.trains:
            out |= _norm(train.tiles)
    s = lay.sausage
    if s is not None:
        out |= (_norm([s.head]) if s.head is not None else set()) | _norm(s.a) | _norm(s.b)
    return out


def _public(view: TableView) -> set[tuple[int, int]]:
    """The tiles a table may name: those on it, Колбаса's tile turned over, and the tiles
    the round's log names (every placement of a move, a placed tile a cut took off the
    table, a turned-over tile sent back to its queue: everybody saw them, RULES.md §2.12
    rules 4–5)."""
    out = _view_table(view.layout)
    s = view.layout.sausage
    if s is not None and s.turned is not None:
        out.add(_pair(s.turned))
    for note in view.notes:
        if note.kind in ("led", "played") and note.tile:
            out.add(_pair(engine.Tile.parse(note.tile, 12)))
            # a move of several tiles (RULES.md §2.0.4; the sea goat's extra lead of [0|0]
            # and [6|6], §2.4) names every one of its placements
            out |= {_pair(engine.Tile.parse(more[0], 12)) for more in note.tiles or ()}
        elif note.kind == "sent_back":
            out |= set(tiles_in(str(dict(note.args).get("tile", ""))))
    return out


def _plain(html: str) -> str:
    return parse_html(html)[0]


@dataclass
class Replay:
    """A match replayed from its database row and action log.

    ``states[k]`` is the state after ``k`` actions (``states[0]`` the deal); ``events[k]``
    the engine events that led to it; the bot's match version of ``states[k]`` is
    ``base_version + k`` (every accepted action bumps it once), plus one for every change
    without an action before it (:meth:`bumped`: a question put to the group, a seat
    handed to a computer player).  ``tables[k]`` is the
    service's table view of version ``base_version + k`` (while playing), ``closed[k]`` the
    closed table of the round before it (if any), ``final_table`` the table once the match
    closed, ``summaries`` the rounds the service scored and ``end`` its match end.
    """

    row: Any
    actions: list[Any]
    rules: Any
    names: list[str]
    states: list[Any] = field(default_factory=list)
    events: list[list[Any]] = field(default_factory=list)
    base_version: int = 0
    tables: list[TableView] = field(default_factory=list)
    closed: list[TableView | None] = field(default_factory=list)
    final_table: TableView | None = None
    summaries: list[RoundSummary] = field(default_factory=list)
    end: MatchEnd | None = None
    _rendered: list | None = field(default=None, repr=False)
    bumps: list[int] = field(default_factory=list)
    frames: list[TableView] = field(default_factory=list)

    def bumped(self, after: int) -> None:
        """The bot bumped the version once without an action, after ``after`` actions."""
        self.bumps.append(after)
        self.base_version -= 1

    @property
    def match_id(self) -> int:
        """The match's id."""
        return self.row.id

    @property
    def final(self) -> Any:
        """The state after the last action."""
        return self.states[-1]

    @property
    def all_events(self) -> list[Any]:
        """Every engine event of the match, in order."""
        return [e for evs in self.events for e in evs]

    @property
    def sides(self) -> list[int]:
        """The scoring side of each seat (RULES.md §1.14)."""
        return [self.rules.spec.side_of(seat, self.rules) for seat in range(len(self.names))]

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user (also one they left to a computer player), None if not
        seated."""
        for i, s in enumerate(self.row.seats):
            if s["user_id"] == user_id or (s.get("left") or {}).get("user_id") == user_id:
                return i
        return None

    def index_of(self, version: int) -> int:
        """The number of actions behind match version ``version`` (changes without an
        action, :meth:`bumped`, keep the state they were made on)."""
        v = self.base_version
        for k in range(len(self.states)):
            v += self.bumps.count(k)
            if version <= v:
                assert version >= self.base_version, (
                    f"match {self.match_id}: version {version} before {self.base_version}")
                return k
            v += 1
        raise AssertionError(f"match {self.match_id}: version {version} after {v - 1}")

    def state_at(self, version: int) -> Any:
        """The state the bot showed as match version ``version``."""
        return self.states[self.index_of(version)]

    def scored(self) -> list[Any]:
        """The ``round_scored`` events in order."""
        return [e for e in self.all_events if e.kind == "round_scored"]

    def views(self) -> list[tuple[TableView, Any]]:
        """Every table view of the match with the engine state it shows (None for a closed
        table): each version's table, the closed tables, the final table."""
        out = [(t, self.states[k]) for k, t in enumerate(self.tables)]
        seen = set()
        for c in self.closed:
            if c is not None and c.version not in seen:
                seen.add(c.version)
                out.append((c, None))
        if self.final_table is not None:
            out.append((self.final_table, self.final))
        out += [(f, None) for f in self.frames]  # Колбаса's forced placements one by one
        return out

    def rendered(self) -> list[tuple[tuple[list[str], set[int]], TableView, Any]]:
        """:meth:`views` as the bot renders them (:func:`_rendered`), computed once."""
        if self._rendered is None:
            self._rendered = [(_rendered(v), v, st) for v, st in self.views()]
        return self._rendered


def decision_move(decision: Mapping[str, Any]) -> Any:
    """The ``engine.Move`` of a logged decision (one placement, or several with ``tiles``,
    RULES.md §2.0.4; a computer player's strength is left aside)."""
    return parse_decision({k: v for k, v in decision.items() if k != "bot"}, 12)[0]


def _engine(database: Path | str) -> Any:
    """An engine on the bot's SQLite file, or on a database URL (a cluster's PostgreSQL)."""
    text_ = str(database)
    return create_engine(text_ if "://" in text_ else f"sqlite:///{database}")


def match_ids(database: Path | str, chat_id: int | None = None) -> list[int]:
    """Ids of the started matches in the database (a SQLite file or a URL; of one chat),
    oldest first."""
    eng = _engine(database)
    try:
        with eng.connect() as conn:
            sql = "SELECT id FROM matches WHERE seed IS NOT NULL"
            params: dict[str, Any] = {}
            if chat_id is not None:
                sql += " AND chat_id = :chat"
                params["chat"] = chat_id
            return [r[0] for r in conn.execute(text(sql + " ORDER BY id"), params)]
    finally:
        eng.dispose()


def load_replay(database: Path | str, match_id: int) -> Replay:
    """Read match ``match_id`` and its actions from the bot's SQLite file (or the database
    at a URL) and replay them through the engine, and rebuild the service's views of every
    version."""
    eng = _engine(database)
    try:
        with eng.connect() as conn:
            row = repo.get_match(conn, match_id)
            actions = repo.list_actions(conn, match_id)
    finally:
        eng.dispose()
    assert row is not None and row.seed is not None, f"match {match_id} was never dealt"
    rules = engine.Rules.from_json(row.rules)
    rp = Replay(row=row, actions=actions, rules=rules, names=[s["name"] for s in row.seats])
    state, events = engine.new_match(rules, len(row.seats), row.seed)
    rp.states.append(state)
    rp.events.append(list(events))
    for a in actions:
        if a.decision.get("host"):
            assert state.to_act == a.seat, f"host move for seat {a.seat} out of turn"
            state, events = engine.apply_host_move(state)
        else:
            state, events = engine.apply(state, a.seat, decision_move(a.decision))
        rp.states.append(state)
        rp.events.append(list(events))
    rp.base_version = row.version - len(actions)
    _rebuild_views(rp)
    return rp


def _rebuild_views(rp: Replay) -> None:
    """The service's views of every version (``LiveMatch`` over the row as it was while
    playing), and the final table and match end."""
    row = rp.row
    playing = replace(row, status="playing", end_reason=None, finished_at=None,
                      version=rp.base_version)
    live = LiveMatch.from_row(playing)
    rp.tables.append(live.table_view())
    rp.closed.append(live.closed)
    for k, action in enumerate(rp.actions, start=1):
        version = rp.base_version + k
        before = copy.copy(live)
        step = live.replay_step(action)
        rp.summaries += live.take(step, version=version)
        live.set(version=version)
        rp.frames += [replace(f, version=version) for f in frames(before, live, step.events)]
        rp.tables.append(live.table_view())
        rp.closed.append(live.closed)
    if row.status != "playing":
        live.set(status=row.status, end_reason=row.end_reason)
        rp.final_table = live.table_view()
        rp.end = live.final()


def _texts(msg: ChatMessage) -> list[tuple[str, dict | None]]:
    """Every (text, keyboard) a message showed."""
    return [(t, m) for t, m in msg.shown_texts() if t is not None]


def _is_hand(text_: str) -> re.Match | None:
    lines = text_.splitlines()
    return _HAND_TITLE.match(lines[0]) if lines else None


# -- keyboards ---------------------------------------------------------------------------------


def _legal_keys(state: Any) -> tuple[list[tuple], dict[frozenset, int]]:
    """The legal moves of ``state`` as tuples of ``(tile, end, closed, along, target)``
    placements (``target``: a train, a line and its position, or a cut, RULES.md §2.10.0;
    None on the line and the cross), and how often each set of placements is listed (more
    than once: the first placement matters, RULES.md §2.0.2, §2.4)."""
    moves = []
    for m in engine.legal_moves(state):
        moves.append(tuple((_pair(p.tile), p.end, bool(p.closed), bool(p.along), _target(p))
                           for p in m))
    count: dict[frozenset, int] = {}
    for m in moves:
        count[frozenset(m)] = count.get(frozenset(m), 0) + 1
    return moves, count


def _part_of(chosen: tuple, moves: list[tuple], count: dict) -> list[tuple]:
    """The legal moves of several placements that ``chosen`` (in the order chosen) is part
    of — the checker's own reading of RULES.md §2.0.4."""
    out = []
    for m in moves:
        if len(m) < 2 or not set(chosen) <= set(m) or len(set(chosen)) != len(chosen):
            continue
        if count[frozenset(m)] > 1 and chosen and chosen[0] != m[0]:
            continue
        out.append(m)
    return out


def _target(p: Any) -> tuple | None:
    """A placement's target on the trains or the sausage, None on the line and the cross."""
    if p.train is not None:
        return ("train", p.train)
    if p.line is not None:
        return ("line", p.line, p.at)
    if p.cut is not None:
        return ("cut", p.cut)
    return None


def _key(placement: Any) -> tuple:
    return (_pair(engine.Tile.parse(placement.tile, 12)), placement.end,
            bool(placement.closed), bool(placement.along), _target(placement))


def _check_targets(buttons: list[dict], decoded: list, moves: list[tuple], where: str
                   ) -> None:
    """A keyboard of the trains or the sausage (RULES.md §2.11, §2.12; ``ui.targets``): the
    turn's buttons play a tile where it has one placement and open the choice of a tile
    with several (together: exactly the legal placements); a choice's buttons are exactly
    the placements of one tile, and "back"."""
    legal = {m[0] for m in moves}
    by_tile: dict = {}
    for p in legal:
        by_tile.setdefault(p[0], set()).add(p)
    plays = [_key(d.placements[0]) for d in decoded if d.kind == "play"]
    opens = [_key(d.placements[0])[0] for d in decoded if d.kind == "build"]
    assert len(set(plays)) == len(plays), f"{where}: duplicate buttons"
    assert set(plays) <= legal, f"{where}: {set(plays) - legal} is no legal placement"
    if any(d.kind == "cancel" for d in decoded):  # the trains one tile fits
        tiles = {p[0] for p in plays}
        assert len(tiles) == 1 and set(plays) == by_tile[tiles.pop()], \
            f"{where}: a choice of {plays}, legal {sorted(legal, key=str)}"
        return
    for tile in opens:
        assert len(by_tile.get(tile, ())) > 1, f"{where}: a choice for {tile}"
    sausage = any(p[4] and p[4][0] != "train" for p in legal)
    for p in plays:
        assert sausage or len(by_tile[p[0]]) == 1, f"{where}: {p} has a choice"
    offered = set(plays) | {p for t in opens for p in by_tile[t]}
    assert offered == legal, f"{where}: offered {sorted(offered, key=str)}, " \
                             f"legal {sorted(legal, key=str)}"


def _check_keyboard(buttons: list[dict], state: Any, where: str) -> None:
    """One keyboard against the legal moves of ``state``: the move buttons (one, or the
    placements of a move being built)."""
    moves, count = _legal_keys(state)
    legal = set(moves)
    decoded = [button_move(b["callback_data"]) for b in buttons]
    if any(m[0][4] is not None for m in moves):  # the trains, the sausage
        _check_targets(buttons, decoded, moves, where)
        return
    plays = [tuple(_key(p) for p in d.placements) for d in decoded if d.kind == "play"]
    builds = [tuple(_key(p) for p in d.placements) for d in decoded if d.kind == "build"]
    cancel = [d for d in decoded if d.kind == "cancel"]
    for b, d in zip(buttons, decoded, strict=True):
        if d.kind == "play" and len(d.placements) == 1:
            p = d.placements[0]
            want = move_label(p.tile, p.end, p.closed, p.along)
            assert b["text"] == want or b["text"] == "▶️ Сыграть", \
                f"{where}: label {b['text']!r}, not {want!r}"
        elif d.kind == "play":
            assert sorted(tiles_in(b["text"])) in ([], sorted(_pair(engine.Tile.parse(p.tile))
                                                              for p in d.placements)), \
                f"{where}: the label {b['text']!r} does not show the move's tiles"
    for m in plays:
        assert m in legal, f"{where}: a button plays {m}, which is no legal move"
    assert len(set(plays)) == len(plays), f"{where}: duplicate buttons"
    if not cancel:  # the move buttons of the turn
        offered = set(plays)
        if builds:
            assert builds == [()], f"{where}: building buttons {builds}"
            offered |= {m for m in moves if len(m) > 1}
            assert not any(len(m) > 1 for m in plays), f"{where}: both ways to several tiles"
        assert offered == legal, f"{where}: offered {sorted(offered, key=str)}, " \
                                 f"legal {sorted(legal, key=str)}"
        return
    # a move being built: the placements chosen so far, and what may follow
    chosen = builds[0][:-1] if builds else None
    for b in builds:
        assert b[:-1] == chosen, f"{where}: building buttons from different moves {builds}"
        assert _part_of(b, moves, count), f"{where}: {b} is part of no legal move"
    if chosen is None:  # nothing to add: the move is whole
        assert len(plays) == 1, f"{where}: a move being built that goes nowhere"
        return
    parts = _part_of(chosen, moves, count)
    assert parts, f"{where}: {chosen} is part of no legal move"
    nxt = {p for m in parts for p in m if p not in chosen and _part_of(chosen + (p,), moves,
                                                                       count)}
    assert {b[-1] for b in builds} == nxt, f"{where}: may add {nxt}, offered {builds}"
    whole = [m for m in parts if set(m) == set(chosen)]
    assert plays == whole, f"{where}: play {plays}, but {chosen} makes {whole}"


def check_keyboards(replays: Sequence[Replay], dms: Mapping[int, Sequence[ChatMessage]], *,
                    single_live: bool = True) -> int:
    """Every move keyboard ever shown in a private chat offers exactly the legal moves of the
    state its version names (a move being built: exactly the placements that keep it part of
    a legal move, and "play" once it is one), labelled as the bot labels moves, to the seat to
    act; and (with ``single_live``) no private chat ever held two live move keyboards.
    Returns the number of keyboards checked."""
    by_id = {r.match_id: r for r in replays}
    checked = 0
    for user_id, msgs in dms.items():
        timeline = []
        for m in msgs:
            for h in m.history:
                timeline.append((h["t"], m.message_id, bool(move_buttons(h.get("reply_markup")))))
            for text_, markup in _texts(m):
                buttons = move_buttons(markup)
                if not buttons:
                    continue
                decoded = [button_move(b["callback_data"]) for b in buttons]
                games = {d.game for d in decoded}
                versions = {d.version for d in decoded}
                assert len(games) == 1 and len(versions) == 1, f"mixed keyboard {buttons}"
                rp = by_id.get(games.pop())
                if rp is None:
                    continue
                state = rp.state_at(versions.pop())
                seat = rp.seat_of(user_id)
                where = f"user {user_id}, message {m.message_id}"
                assert state.to_act == seat, f"{where}: keyboard for seat {seat}, " \
                                             f"but seat {state.to_act} is to act"
                _check_keyboard(buttons, state, where)
                assert "Ваш ход" in text_, f"{where}: a keyboard without 'your move'"
                checked += 1
        live: set[int] = set()
        for _, mid, has in sorted(timeline) if single_live else ():
            if has:
                live.add(mid)
            else:
                live.discard(mid)
            assert len(live) <= 1, f"user {user_id}: live keyboards on messages {sorted(live)}"
    return checked


# -- tables, secrecy and conservation ---------------------------------------------------------


def _rendered(view: TableView) -> tuple[list[str], set[int]]:
    """The table as the bot renders it, as plain lines, and the lines that show the turn's
    deadline (RULES.md §1.17: they differ between two deadlines; the views rebuilt from the
    database do not know each version's deadline)."""
    if view.to_act is None:
        return _plain(render.render_table(LOCALE, view)).splitlines(), set()
    one, two = (_plain(render.render_table(LOCALE, replace(view, deadline_at=d))).splitlines()
                for d in _DEADLINES)
    if len(one) != len(two):  # pragma: no cover - a deadline that adds lines
        return one, set(range(len(one)))
    return one, {i for i, (a, b) in enumerate(zip(one, two, strict=True)) if a != b}


def _captioned(view: TableView) -> tuple[list[str], set[int]]:
    """The caption of the table's picture as plain lines (it shows no deadline)."""
    return _plain(render_caption(LOCALE, view)).splitlines(), set()


def _same_table(shown: str, expected: tuple[list[str], set[int]]) -> bool:
    lines, skip = expected
    got = shown.splitlines()
    return len(got) == len(lines) and all(
        a == b for i, (a, b) in enumerate(zip(got, lines, strict=True)) if i not in skip)


def _check_view(rp: Replay, view: TableView, state: Any, where: str) -> None:
    """A table view against the engine: the tiles on the table, in each hand (Колбаса:
    queue) and in the bazar (the whole set: 28, 55 or 91 tiles, RULES.md §1.1, §2.10.1),
    and the tiles the round placed."""
    lay = view.layout
    on_table = _view_table(lay)
    assert len(on_table) == lay.tiles, f"{where}: a tile twice on the table"
    turned = 1 if lay.sausage is not None and lay.sausage.turned is not None else 0
    total = lay.tiles + sum(s.tiles for s in view.seats) + view.drawable + view.reserve + turned
    size = (rp.rules.set + 1) * (rp.rules.set + 2) // 2
    assert total == size, f"{where}: {total} tiles, not {size}"
    if state is None:
        return
    assert on_table == _on_table(state), f"{where}: not the engine's table"
    sizes = list(state.layout.queues) if lay.sausage is not None else list(state.hand_sizes())
    assert [s.tiles for s in view.seats] == sizes, f"{where}: hands"
    assert (view.drawable, view.reserve) == (state.drawable, state.reserve), f"{where}: bazar"


def check_group(replays: Sequence[Replay], messages: Sequence[ChatMessage], *,
                hands_here: bool = False) -> dict[str, int]:
    """The chat where the tables are shown never shows a tile that is not public: every
    table it shows is the table of a version of a match, as the bot renders the service's
    view of it (the turn's deadline aside), that view holds the engine's table, hands and
    bazar (28 tiles), and the text shows no tile off the table except in the round's summary
    of the hands at the end; any other message shows no tile, except a round's summary.
    ``hands_here``: the players' hand messages are in this chat too (a solo match), and are
    left to :func:`check_private`.  Returns counts of the texts checked by kind."""
    expected = []
    for rp in replays:
        for lines, view, state in rp.rendered():
            where = f"match {rp.match_id}, version {view.version}"
            _check_view(rp, view, state, where)
            public = _public(view)
            if view.summary is not None:  # the round's end reveals the hands
                public |= {_pair(engine.Tile.parse(t, 12)) for h in view.summary.hands
                           for t in h}
            expected.append((lines, view, public))
            expected.append((_captioned(view), view, public))  # the picture's caption
    index: dict[tuple[str, int], list] = {}
    for entry in expected:
        lines = entry[0][0]
        index.setdefault((lines[0] if lines else "", len(lines)), []).append(entry)
    summaries = [_plain(render.render_round_summary(LOCALE, s, rp.names, rp.sides,
                                                    specials=specials))
                 for rp in replays for s in rp.summaries for specials in (True, False)]
    seen = {"table": 0, "summary": 0, "other": 0, "frames": 0}
    for m in messages:
        if not m.from_bot:
            continue
        for text_, _ in _texts(m):
            where = f"message {m.message_id}: {text_!r}"
            if hands_here and _is_hand(text_):
                continue
            got = text_.splitlines()
            match = next(((view, public) for lines, view, public in
                          index.get((got[0] if got else "", len(got)), ())
                          if _same_table(text_, lines)), None)
            if match is not None:
                view, public = match
                seen["table"] += 1
                seen["summary"] += view.summary is not None
                seen["frames"] += view.frame > 0
                assert set(tiles_in(text_)) <= public, f"tiles off the table: {where}"
                continue
            if any(s in text_ for s in summaries):
                seen["summary"] += 1
                continue
            assert not tiles_in(text_), f"tiles outside a table: {where}"
            seen["other"] += 1
    return seen


def check_private(replays: Sequence[Replay], user_id: int,
                  messages: Sequence[ChatMessage], *, tables_here: bool = False) -> int:
    """A player's private chat shows only their own hand (as it was at some moment of the
    match), the tiles on the table and the tiles they drew — never another hand.
    ``tables_here``: the tables are in this chat too (a solo match), and are left to
    :func:`check_group`.  Returns the number of texts with tiles checked."""
    states = []
    for rp in replays:
        seat = rp.seat_of(user_id)
        if seat is None:
            continue
        placed: set = set()
        round_no = None
        for st, evs in zip(rp.states, rp.events, strict=True):
            if st.round_no != round_no:
                placed, round_no = set(), st.round_no
            placed |= _on_table(st)
            # Колбаса: the tiles turned over in everybody's sight (RULES.md §2.12 rule 4);
            # a queue is nobody's hand (rule 1): its hand message shows none of it
            placed |= {_pair(e.tile) for e in evs if e.kind in ("played", "led", "sent_back")}
            sausage = st.layout.kind == "sausage"
            if sausage and st.layout.turned is not None:
                placed.add(_pair(st.layout.turned))
            hand = set() if sausage else _norm(st.hand(seat))
            states.append((st.round_no, hand, hand | placed))
    checked = 0
    for m in messages:
        if not m.from_bot:
            continue
        for text_, _ in _texts(m):
            shown = tiles_in(text_)
            if not shown:
                continue
            title = _is_hand(text_)
            where = f"user {user_id}, message {m.message_id}: {text_!r}"
            if title is None and tables_here:
                continue
            assert title is not None, f"tiles outside a hand message: {where}"
            lines = text_.splitlines()
            rnd = int(title.group(1) or title.group(2))
            queue = title.group(2) is not None  # Колбаса: no hand line (RULES.md §2.12)
            hand = set(tiles_in(lines[1])) if len(lines) > 1 and not queue else set()
            assert any(r == rnd and h == hand and set(shown) <= visible
                       for r, h, visible in states), f"a tile not this player's: {where}"
            checked += 1
    return checked


# -- results -----------------------------------------------------------------------------------


def check_results(replay: Replay, messages: Sequence[ChatMessage]) -> None:
    """Every round of the match has its summary in the chat, the service's summary equals
    the engine's record of the round (who, how, the hands, what was recorded, the scores, the
    pot) and its hands and the round's tiles on the table account for the 28 tiles; the
    match-end message is the service's match end, whose scores, goats, ratings and winners
    are the engine's."""
    sources = [m.source or m.caption_source or "" for m in messages if m.from_bot]
    scored = replay.scored()
    assert len(replay.summaries) == len(scored), f"match {replay.match_id}: summaries"
    for ev, summary in zip(scored, replay.summaries, strict=True):
        where = f"match {replay.match_id}, round {ev.round_no}"
        assert (summary.round_no, summary.end, summary.by) == (ev.round_no, ev.end, ev.by), where
        if summary.queues:  # Колбаса: no queue's tiles, even now (RULES.md §2.12 rule 1)
            assert not any(summary.hands), where
            assert list(summary.queues) == list(ev.extra["queue_lengths"]), where
        else:
            assert [[_pair(engine.Tile.parse(t, 12)) for t in h] for h in summary.hands] == \
                [[_pair(t) for t in h] for h in ev.hands], where
        assert (summary.recorded, summary.scores, summary.remembered, summary.pot) == (
            tuple(ev.recorded), tuple(ev.scores), tuple(ev.remembered), ev.pot), where
        # alone (with ЧЧВ's specials, §2.3 rule 4), or closing the table (whose log has them)
        expected = [render.render_round_summary(LOCALE, summary, replay.names, replay.sides,
                                                specials=specials) for specials in (True, False)]
        assert any(e in source for source in sources for e in expected), \
            f"{where}: no summary in the chat:\n{expected[0]}"
        in_hands = [_pair(engine.Tile.parse(t, 12)) for h in summary.hands for t in h]
        lay = summary.layout
        table = _view_table(lay) if lay is not None else set()
        assert len(set(in_hands) | table) == len(in_hands) + len(table), where
    final = replay.final
    if final.result is None:
        return
    end = replay.end
    assert end is not None and end.rated, f"match {replay.match_id}: no rated end"
    result = final.result
    for p in end.players:
        assert (p.score, p.goat, p.rating) == (
            final.scores[p.side], p.side in result.goats, result.rating[p.side]), p
    assert tuple(end.winners) == tuple(result.winners)
    assert end.title == result.title
    expected = render.render_match_end(LOCALE, end)
    ends = [m for m in messages if m.from_bot and m.source == expected]
    assert ends, f"match {replay.match_id}: no match-end message\n{expected}"
    if replay.rules.variant != "classic":
        return
    # classic: read the numbers back from the text, independently of the renderer
    names, rules = replay.names, replay.rules
    clean = [render.clean_name(n) for n in names]
    labels = ([f"{clean[0]} + {clean[2]}", f"{clean[1]} + {clean[3]}"] if rules.teams
              else clean)
    shown = {}
    for line in ends[-1].text.splitlines():
        if (m := _END_LINE.match(line)) is not None:
            shown[m.group(3)] = (int(m.group(4)), int(m.group(5) or 0), int(m.group(6)),
                                 bool(m.group(2)))
    expected_lines = {labels[s]: (final.scores[s], final.remembered[s], result.rating[s],
                                  s in result.goats) for s in range(len(labels))}
    assert shown == expected_lines, f"final table {shown} != engine {expected_lines}"


def shows_version(replay: Replay, text: str | None, version: int) -> bool:
    """Whether ``text`` — a table message's text, or its picture's caption — is the bot's
    rendering of match version ``version`` (what a test waits for after a move: that very
    table, not the newest message once the bot seems quiet)."""
    if not text or _is_hand(text):
        return False
    view = replay.tables[replay.index_of(version)]
    return _same_table(text, _rendered(view)) or _same_table(text, _captioned(view))


def check_latest_table(replay: Replay, messages: Sequence[ChatMessage]) -> None:
    """The newest table message of the chat shows the match's latest state: the table of
    the match rebuilt from the database, as the bot renders it (the turn's deadline
    aside)."""
    view = LiveMatch.from_row(replay.row, replay.actions).table_view()
    expected, caption = _rendered(view), _captioned(view)
    known = [lines for lines, _, _ in replay.rendered()] + [expected]
    known += [_captioned(v) for _, v, _ in replay.rendered()] + [caption]
    tables = [m for m in messages if m.from_bot and m.shown and not m.deleted
              and not _is_hand(m.shown) and any(_same_table(m.shown, lines) for lines in known)]
    assert tables, "no table message"
    latest = tables[-1]
    want = caption if latest.photo is not None else expected
    assert _same_table(latest.shown, want), (
        f"match {replay.match_id}: the table shows\n{latest.shown}\n--- expected\n"
        + "\n".join(want[0]))


def check_all(replays: Sequence[Replay], group: Sequence[ChatMessage],
              dms: Mapping[int, Sequence[ChatMessage]], *, latest: bool = True,
              single_live: bool = True) -> dict[str, int]:
    """Run every checker over one chat of tables (a group, or the private chat of a solo
    match) and its players' private chats; counts of what was checked (``keyboards``,
    ``tables``, ``summaries``, ``hands``)."""
    chat_ids = {m.chat_id for m in group}
    solo = bool(chat_ids) and chat_ids <= set(dms)
    counts = check_group(replays, group, hands_here=solo)
    out = {"keyboards": check_keyboards(replays, dms, single_live=single_live),
           "tables": counts["table"],
           "summaries": counts["summary"], "hands": 0, "frames": counts["frames"]}
    for uid, msgs in dms.items():
        out["hands"] += check_private(replays, uid, msgs, tables_here=solo)
    for rp in replays:
        check_results(rp, group)
    if latest and replays:
        check_latest_table(replays[-1], group)
    return out
