"""Invariant checkers: what the chats showed, held against the engine's replay of the match.

:func:`load_replay` reads a match's row and action log from the bot's SQLite file and replays
it through ``engine`` (seed + decisions reproduce a match exactly), keeping every intermediate
state.  The checkers then read the chats as people saw them — every text each message ever had
(``ChatMessage.history``) and every keyboard it carried — and raise ``AssertionError`` naming
the message when:

- a move keyboard offers anything but exactly the legal moves of the state its version names,
  or is shown to anyone but the seat to act (:func:`check_keyboards`);
- a private chat ever holds two live move keyboards at once (:func:`check_keyboards`);
- a tile that is not public appears in the group, or a tile of another hand appears in a
  player's private chat, before the round's summary reveals the hands
  (:func:`check_group`, :func:`check_private`);
- a table does not account for all 28 tiles, or shows a chain the round never had
  (:func:`check_group`);
- a round summary or the match-end message differs from the engine's records
  (:func:`check_results`), or the table does not end on the latest state
  (:func:`check_latest_table`).

Texts are read in the group's language, Russian (the bot's default).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

import engine
from service.live import LiveMatch, layout_view
from service.views import EndReason, MatchEnd, PlayerResult, RoundSummary
from storage import repository as repo
from tests.e2e.players import move_buttons, parse_move_data
from tests.emulator import ChatMessage
from ui import render
from ui.callbacks import tile_halves, tile_id
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
_TILE = re.compile(r"\[(\d)\|(\d)\]")
_TABLE_TITLE = re.compile(r"^Раунд (\d+)$")
_SUMMARY_TITLE = re.compile(r"^Раунд (\d+) окончен$")
_HAND_TITLE = re.compile(r"^Ваши кости \(раунд (\d+)\):$")
_SEAT_LINE = re.compile(r"^(?:▶️|▫️) (.+) — (\d+) (?:кость|кости|костей), счёт (.+)$")
_BAZAR = re.compile(r"^Базар: (\d+)(?: \(\+(\d+) в резерве\))?$")
_END_LINE = re.compile(r"^(\d+)\. (🐐 )?(.+) — (-?\d+), рейтинг \+(\d+)$")
_CODE_END = {"l": "left", "r": "right", "-": None}


def tiles_in(text: str | None) -> list[tuple[int, int]]:
    """Every ``[a|b]`` written in a text, as ``(min, max)`` pairs, in order."""
    return [(min(int(a), int(b)), max(int(a), int(b))) for a, b in _TILE.findall(text or "")]


def _norm(tiles: Iterable[Any]) -> set[tuple[int, int]]:
    out = set()
    for t in tiles:
        a, b = (t.a, t.b) if hasattr(t, "a") else t
        out.add((min(a, b), max(a, b)))
    return out


@dataclass
class Replay:
    """A match replayed from its database row and action log.

    ``states[k]`` is the state after ``k`` actions (``states[0]`` the deal); ``events[k]``
    the engine events that led to it; the bot's match version of ``states[k]`` is
    ``base_version + k`` (every accepted action bumps it once), plus one for every change
    without an action before it (:meth:`bumped`: a question put to the group, a seat
    handed to a computer player).
    """

    row: Any
    actions: list[Any]
    rules: Any
    names: list[str]
    states: list[Any] = field(default_factory=list)
    events: list[list[Any]] = field(default_factory=list)
    base_version: int = 0
    bumps: list[int] = field(default_factory=list)

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

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user (also one they left to a computer player), None if not
        seated."""
        for i, s in enumerate(self.row.seats):
            if s["user_id"] == user_id or (s.get("left") or {}).get("user_id") == user_id:
                return i
        return None

    def state_at(self, version: int) -> Any:
        """The state the bot showed as match version ``version``."""
        v = self.base_version
        for k in range(len(self.states)):
            v += self.bumps.count(k)
            if version <= v:
                assert version >= self.base_version, (
                    f"match {self.match_id}: version {version} before {self.base_version}")
                return self.states[k]
            v += 1
        raise AssertionError(f"match {self.match_id}: version {version} after {v - 1}")

    def rounds(self) -> dict[int, list[Any]]:
        """The events of each round."""
        return events_by_round(self.all_events)

    def chains(self, round_no: int) -> list[tuple[tuple[int, int], ...]]:
        """Every chain round ``round_no`` showed, from empty to its last tile."""
        evs = self.rounds().get(round_no, [])
        out = [()]
        for i, e in enumerate(evs):
            if e.kind in ("led", "played"):
                out.append(tuple(chain_from_events(evs[:i + 1])))
        return out

    def scored(self) -> list[Any]:
        """The ``round_scored`` events in order."""
        return [e for e in self.all_events if e.kind == "round_scored"]


def events_by_round(events: Iterable[Any]) -> dict[int, list[Any]]:
    """A match's event stream split by round: a round's events run from its ``misdeal``/
    ``dealt`` events to its ``round_scored`` (and ``match_ended``)."""
    out: dict[int, list[Any]] = {}
    current = 1
    for ev in events:
        if ev.kind in ("misdeal", "dealt", "round_scored"):
            current = ev.round_no
        out.setdefault(current, []).append(ev)
    return out


def chain_from_events(events: Iterable[Any]) -> list[tuple[int, int]]:
    """A round's chain (oriented pairs, left to right) rebuilt from its ``led`` and ``played``
    events -- the checker's own reading of RULES.md §0 and §1.7, apart from the bot's."""
    chain: list[tuple[int, int]] = []
    for ev in events:
        if ev.kind == "led":
            chain = [(ev.tile.a, ev.tile.b)]
        elif ev.kind == "played" and chain:
            a, b = ev.tile.a, ev.tile.b
            if ev.end == "left":
                left = chain[0][0]
                chain.insert(0, (b if a == left else a, left))
            else:
                right = chain[-1][1]
                chain.append((right, b if a == right else a))
    return chain


def _hand_value(hand: Sequence[Any], rules: Any) -> int:
    """RULES.md §1.11: the pips; the lone [0|0] counts ``lone_zero_double_value``."""
    if [(t.a, t.b) for t in hand] == [(0, 0)]:
        return rules.lone_zero_double_value
    return sum(t.a + t.b for t in hand)


def summary_of(ev: Any, rules: Any) -> RoundSummary:
    """The group's summary of a ``round_scored`` event, as the engine scored it (with the
    table it closed, whose last move names the tiles that went out)."""
    extra = ev.extra or {}
    return RoundSummary(
        round_no=ev.round_no, end=ev.end, by=ev.by,
        hands=tuple(tuple(f"{t.a}-{t.b}" for t in h) for h in ev.hands),
        hand_values=tuple(ev.hand_values), recorded=tuple(ev.recorded), scores=tuple(ev.scores),
        remembered=tuple(ev.remembered), pot_won=ev.pot_won, pot=ev.pot,
        seat_values=tuple(_hand_value(h, rules) for h in ev.hands),
        play_points=tuple(ev.play_points) if any(ev.play_points) else (),
        losers=tuple(ev.losers), sticks=tuple(extra.get("sticks", ())),
        left=tuple(extra.get("left", ())), losses=tuple(extra.get("losses", ())),
        general=bool(extra.get("general")), fast=extra.get("fast"),
        layout=layout_view(ev.layout), variant=rules.variant, rules=rules.to_json())


def end_of(replay: Replay) -> MatchEnd:
    """The match end of a finished replay, as the engine rated it (RULES.md §1.15–§1.16)."""
    final = replay.final
    result = final.result
    standing = replay.rules.spec.standing(final)
    # a side's place: 1 + the sides ahead of it by rating, then by standing (ties share)
    key = [(-result.rating[s], standing[s]) for s in range(len(final.scores))]
    lines = []
    for seat, name in enumerate(replay.names):
        side = seat % 2 if replay.rules.teams else seat
        goat = side in result.goats
        lines.append(PlayerResult(seat=seat, user_id=0, name=name, score=final.scores[side],
                                  goat=goat, rating=result.rating[side],
                                  outs=0, fish=0, timed_out=result.timed_out == seat,
                                  side=side, place=1 + sum(k < key[side] for k in key),
                                  title=result.title if goat else None))
    return MatchEnd(EndReason(result.reason), True, tuple(lines), variant=replay.rules.variant,
                    title=result.title, winners=tuple(result.winners), draw=bool(result.draw))


def match_ids(database: Path, chat_id: int | None = None) -> list[int]:
    """Ids of the started matches in the database (of one chat), oldest first."""
    eng = create_engine(f"sqlite:///{database}")
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


def load_replay(database: Path, match_id: int) -> Replay:
    """Read match ``match_id`` and its actions from the bot's SQLite file and replay them."""
    eng = create_engine(f"sqlite:///{database}")
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
            move = engine.Move(engine.Tile.parse(a.decision["tile"]), a.decision.get("end"))
            state, events = engine.apply(state, a.seat, move)
        rp.states.append(state)
        rp.events.append(list(events))
    rp.base_version = row.version - len(actions)
    return rp


def _texts(msg: ChatMessage) -> list[tuple[str, dict | None]]:
    """Every (text, keyboard) a message showed."""
    if msg.history:
        return [(h["text"], h.get("reply_markup")) for h in msg.history]
    return [(msg.text, None)] if msg.text is not None else []


# -- keyboards ---------------------------------------------------------------------------------


def check_keyboards(replays: Sequence[Replay], dms: Mapping[int, Sequence[ChatMessage]], *,
                    single_live: bool = True) -> int:
    """Every move keyboard ever shown in a private chat offers exactly the legal moves of the
    state its version names, labelled as the bot labels moves, to the seat to act; and (with
    ``single_live``) no private chat ever held two live move keyboards.  Returns the number of
    keyboards checked."""
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
                parsed = [parse_move_data(b["callback_data"]) for b in buttons]
                games = {p[0] for p in parsed}
                versions = {p[1] for p in parsed}
                assert len(games) == 1 and len(versions) == 1, f"mixed keyboard {buttons}"
                rp = by_id.get(games.pop())
                if rp is None:
                    continue
                state = rp.state_at(versions.pop())
                seat = rp.seat_of(user_id)
                where = f"user {user_id}, message {m.message_id}"
                assert state.to_act == seat, f"{where}: keyboard for seat {seat}, " \
                                             f"but seat {state.to_act} is to act"
                offered = {(tile_halves(t), _CODE_END[e]) for _, _, t, e in parsed}
                legal = {(tile_halves(tile_id(mv.tile)), mv.end)
                         for mv in engine.legal_moves(state)}
                assert offered == legal, f"{where}: offered {sorted(offered, key=str)}, " \
                                         f"legal {sorted(legal, key=str)}"
                assert len(offered) == len(buttons), f"{where}: duplicate buttons"
                for b, (_, _, t, e) in zip(buttons, parsed, strict=True):
                    label = move_label(tile_halves(t), _CODE_END[e])
                    assert b["text"] == label, f"{where}: label {b}, not {label!r}"
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


# -- secrecy and conservation ------------------------------------------------------------------


def _parse_table(text_: str) -> dict | None:
    lines = text_.splitlines()
    m = _TABLE_TITLE.match(lines[0]) if lines else None
    if m is None:
        return None
    out: dict[str, Any] = {"round": int(m.group(1)), "chain": None, "elided": False,
                           "counts": [], "scores": [], "bazar": None}
    for line in lines[1:]:
        if line.startswith("Цепь: "):
            out["chain"] = [tuple(map(int, p)) for p in _TILE.findall(line)]
            out["elided"] = "…" in line
        elif line.startswith("Цепь пуста"):
            out["chain"] = []
        elif (b := _BAZAR.match(line)) is not None:
            out["bazar"] = int(b.group(1)) + int(b.group(2) or 0)
        elif (s := _SEAT_LINE.match(line)) is not None:
            out["counts"].append(int(s.group(2)))
            out["scores"].append(s.group(3))
    return out


def check_group(replays: Sequence[Replay], messages: Sequence[ChatMessage]) -> dict[str, int]:
    """The group never shows a tile that is not public: a table shows a chain its round had
    and no other tile, and accounts for the 28 tiles (chain + tiles in hands + bazar); only a
    round summary shows hands; any other message shows no tile at all.  Returns counts of
    the texts checked by kind."""
    chains: dict[int, set[tuple]] = {}
    for rp in replays:
        for rnd in rp.rounds():
            chains.setdefault(rnd, set()).update(rp.chains(rnd))
    seen = {"table": 0, "summary": 0, "other": 0}
    for m in messages:
        if not m.from_bot:
            continue
        for text_, _ in _texts(m):
            where = f"group message {m.message_id}: {text_!r}"
            lines = text_.splitlines() if text_ else []
            cut = next((i for i, line in enumerate(lines) if _SUMMARY_TITLE.match(line)), None)
            if cut is not None:
                seen["summary"] += 1  # the round is over: its hands are revealed (checked in
                if cut == 0:          # results); a closed table carries its summary at the end
                    continue
                text_ = "\n".join(lines[:cut])
            table = _parse_table(text_)
            if table is None:
                assert not tiles_in(text_), f"tiles outside a table: {where}"
                seen["other"] += 1
                continue
            seen["table"] += 1
            chain = table["chain"]
            assert chain is not None and table["bazar"] is not None, f"unparsed table: {where}"
            shown = set(tiles_in(text_))
            assert shown <= _norm(chain), f"tiles off the chain: {where}"
            if not table["elided"]:
                assert tuple(chain) in chains.get(table["round"], set()), \
                    f"a chain round {table['round']} never had: {where}"
                assert len(_norm(chain)) == len(chain), f"a tile twice: {where}"
                total = len(chain) + sum(table["counts"]) + table["bazar"]
                assert total == 28, f"{total} tiles, not 28: {where}"
    return seen


def check_private(replays: Sequence[Replay], user_id: int,
                  messages: Sequence[ChatMessage]) -> int:
    """A player's private chat shows only their own hand (as it was at some moment of the
    match), the chain and the tiles they drew — never another hand.  Returns the number of
    texts with tiles checked."""
    states = []
    for rp in replays:
        seat = rp.seat_of(user_id)
        if seat is None:
            continue
        for st in rp.states:
            hand = _norm(st.hand(seat))
            states.append((st.round_no, hand, hand | _norm(st.chain)))
    checked = 0
    for m in messages:
        if not m.from_bot:
            continue
        for text_, _ in _texts(m):
            shown = tiles_in(text_)
            if not shown:
                continue
            lines = text_.splitlines()
            title = _HAND_TITLE.match(lines[0]) if lines else None
            where = f"user {user_id}, message {m.message_id}: {text_!r}"
            assert title is not None, f"tiles outside a hand message: {where}"
            rnd = int(title.group(1))
            hand = set(tiles_in(lines[1])) if len(lines) > 1 else set()
            assert any(r == rnd and h == hand and set(shown) <= visible
                       for r, h, visible in states), f"a tile not this player's: {where}"
            checked += 1
    return checked


# -- results -----------------------------------------------------------------------------------


def check_results(replay: Replay, messages: Sequence[ChatMessage]) -> None:
    """Every round of the match has its summary in the group, exactly as the engine scored
    it (hands, values, records, pot), the summary's hands and the closed table's chain account
    for the 28 tiles, and the match-end message shows the engine's goats, final scores and
    rating."""
    sources = [m.source or "" for m in messages if m.from_bot]
    rules, names = replay.rules, replay.names
    sides = [seat % 2 if rules.teams else seat for seat in range(len(names))]  # §1.14
    for ev in replay.scored():
        expected = render.render_round_summary(LOCALE, summary_of(ev, rules), names, sides)
        assert any(expected in source for source in sources), \
            f"match {replay.match_id}: no summary of round {ev.round_no}:\n{expected}"
        in_hands = [t for h in ev.hands for t in _norm(h)]
        chain = chain_from_events(replay.rounds()[ev.round_no])
        assert len(set(in_hands) | _norm(chain)) == len(in_hands) + len(chain)
    final = replay.final
    if final.result is None:
        return
    expected = render.render_match_end(LOCALE, end_of(replay))
    ends = [m for m in messages if m.from_bot and m.source == expected]
    assert ends, f"match {replay.match_id}: no match-end message\n{expected}\n" \
                 f"group showed: {[m.text for m in messages if m.text and '🐐' in m.text]}"
    # read the numbers back from the text, independently of the renderer
    clean = [render.clean_name(n) for n in names]
    labels = ([f"{clean[0]} + {clean[2]}", f"{clean[1]} + {clean[3]}"] if rules.teams
              else clean)
    shown = {}
    for line in ends[-1].text.splitlines():
        if (m := _END_LINE.match(line)) is not None:
            shown[m.group(3)] = (int(m.group(4)), int(m.group(5)), bool(m.group(2)))
    expected_lines = {labels[s]: (final.scores[s], final.result.rating[s],
                                  s in final.result.goats) for s in range(len(labels))}
    assert shown == expected_lines, f"final table {shown} != engine {expected_lines}"


def check_latest_table(replay: Replay, messages: Sequence[ChatMessage]) -> None:
    """The newest table message of the group shows the match's latest state: the table of
    the match rebuilt from the database, as the bot renders it."""
    expected = render.render_table(LOCALE, LiveMatch.from_row(replay.row,
                                                              replay.actions).table_view())
    tables = [m for m in messages if m.from_bot and m.text
              and _TABLE_TITLE.match(m.text.splitlines()[0])]
    assert tables, "no table message"
    assert tables[-1].source == expected, (
        f"match {replay.match_id}: the table shows\n{tables[-1].text}\n--- expected\n"
        f"{expected}")


def check_all(replays: Sequence[Replay], group: Sequence[ChatMessage],
              dms: Mapping[int, Sequence[ChatMessage]], *, latest: bool = True,
              single_live: bool = True) -> dict[str, int]:
    """Run every checker over one group and its players' private chats; counts of what was
    checked (``keyboards``, ``tables``, ``summaries``, ``hands``)."""
    counts = check_group(replays, group)
    out = {"keyboards": check_keyboards(replays, dms, single_live=single_live),
           "tables": counts["table"],
           "summaries": counts["summary"], "hands": 0}
    for uid, msgs in dms.items():
        out["hands"] += check_private(replays, uid, msgs)
    for rp in replays:
        check_results(rp, group)
    if latest and replays:
        check_latest_table(replays[-1], group)
    return out
