"""A match in memory: its row, the engine state rebuilt from seed + action log, and the
per-audience views built from it.

Only the engine API of ``docs/ENGINE_API.md`` is used. Replaying is deterministic: the same
seed and decisions give an equal state (the engine's promise), so a :class:`LiveMatch` can be
dropped and rebuilt at any time from the database.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from service.bots import strength_of
from service.views import (
    ActionNote,
    EndReason,
    EndView,
    HandView,
    LaidTile,
    LayoutView,
    LobbyView,
    MatchEnd,
    MoveOption,
    PlayerRef,
    PlayerResult,
    RoundSummary,
    SeatView,
    Status,
    TableView,
)
from storage.repository import ActionRow, MatchRow

#: How many recent actions the table shows.
NOTES_KEPT = 8
#: Players per match (RULES.md §1.1).
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class ReplayError(RuntimeError):
    """The action log does not replay through the engine (a corrupt or foreign log)."""


def event_dict(event: Any) -> dict[str, Any]:
    """An engine event as a JSON-ready dict with ``kind`` (tiles as ``"a-b"`` codes)."""
    to_dict = getattr(event, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return engine.to_dict(event)


_CODES = {t: f"{t.a}-{t.b}" for t in engine.TILES}


def tile_code(tile: Any) -> str:
    """``Tile(2, 5)`` → ``"2-5"``."""
    code = _CODES.get(tile)
    return code if code is not None else f"{tile.a}-{tile.b}"


def decision_of(move: Any) -> dict[str, Any]:
    """The action-log form of a player's move: ``{"tile": "2-5", "end": "left"}`` (``end`` may
    be None on a lead or where the tile fits one way only)."""
    return {"tile": tile_code(move.tile), "end": move.end}


def parse_move(tile: Any, end: Any) -> Any:
    """Build an ``engine.Move`` from user input. Raises ``ValueError`` when ``tile`` is not a
    tile of the double-six set or ``end`` is not ``"left"``, ``"right"`` or None."""
    if end not in (None, "left", "right"):
        raise ValueError(f"unknown end {end!r}")
    return engine.Move(engine.Tile.parse(tile), end)


def rules_players(rules: Any) -> tuple[int, int]:
    """(min, max) players allowed by the rules (RULES.md §1.1, §1.14)."""
    return (4, 4) if rules.teams else (MIN_PLAYERS, MAX_PLAYERS)


@dataclass
class LiveMatch:
    """The cached state of one match. Mutated only under the service's per-match lock, and
    only after the change it reflects was committed."""

    row: MatchRow
    rules: Any  # engine.Rules
    state: Any = None  # engine.MatchState once started
    seq: int = 0  # actions applied (= the last action's seq)
    outs: list[int] = field(default_factory=list)
    fish: list[int] = field(default_factory=list)
    notes: deque = field(default_factory=lambda: deque(maxlen=NOTES_KEPT))
    drawn: dict[int, tuple[str, ...]] = field(default_factory=dict)
    log: list = field(default_factory=list)  # engine events of the previous + current round
    log_round: int = 0
    log_cut: int = 0  # index in ``log`` where the current round starts

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_row(cls, row: MatchRow, actions: Sequence[ActionRow] = ()) -> LiveMatch:
        """Rebuild from the row and its action log. Raises :class:`ReplayError` when the log
        does not apply; ``ValueError`` when the stored rules are invalid."""
        live = cls(row=row, rules=engine.Rules.from_json(row.rules))
        if row.seed is not None:
            live.deal(row.seed)
            for action in actions:
                if action.seq != live.seq + 1:
                    raise ReplayError(f"match {row.id}: action seq {action.seq} after {live.seq}")
                try:
                    live.replay(action)
                except engine.EngineError as exc:
                    raise ReplayError(f"match {row.id}, action {action.seq}: {exc}") from exc
        return live

    def deal(self, seed: int) -> list[Any]:
        """Deal round 1 from ``seed`` (RULES.md §1.2–§1.5). Returns the engine events."""
        state, events = engine.new_match(self.rules, len(self.row.seats), seed)
        self.state = state
        self.seq = 0
        self.outs = [0] * len(self.row.seats)
        self.fish = [0] * len(self.row.seats)
        self.notes.clear()
        self.drawn = {}
        self.log = []
        self.log_round = 0
        self.log_cut = 0
        self.absorb(events, 1)
        return events

    def replay(self, action: ActionRow) -> None:
        """Re-apply one logged decision (raises ``engine.EngineError`` / :class:`ReplayError`)."""
        if action.decision.get("host"):
            if self.state.to_act != action.seat:
                raise ReplayError(f"host move logged for seat {action.seat}, "
                                  f"but seat {self.state.to_act} was to act")
            state, events = engine.apply_host_move(self.state)
        else:
            move = parse_move(action.decision.get("tile"), action.decision.get("end"))
            state, events = engine.apply(self.state, action.seat, move)
        self.advance(state, events)

    # ------------------------------------------------------------------ updates

    def advance(self, state: Any, events: list[Any]) -> None:
        """Take a new engine state after one accepted decision and its events."""
        round_no = self.state.round_no
        self.state = state
        self.seq += 1
        self.drawn = {}
        self.absorb(events, round_no)

    def absorb(self, events: Iterable[Any], round_no: int) -> None:
        """Fold engine events into the counters, the notes and the drawn tiles; ``round_no`` is
        the round the first event belongs to (a ``dealt`` event moves on to its round)."""
        for ev in events:
            kind = ev.kind
            if kind in ("misdeal", "dealt") and ev.round_no != self.log_round:
                self.log = self.log[self.log_cut:]
                self.log_cut = len(self.log)
                self.log_round = ev.round_no
            self.log.append(ev)
            if kind == "drew":
                code = tile_code(ev.tile)
                self.drawn[ev.seat] = self.drawn.get(ev.seat, ()) + (code,)
                last = self.notes[-1] if self.notes else None
                if last is not None and last.kind == "drew" and last.seat == ev.seat:
                    self.notes[-1] = ActionNote("drew", ev.seat, last.round_no,
                                                count=last.count + 1)
                else:
                    self.notes.append(ActionNote("drew", ev.seat, round_no, count=1))
            elif kind in ("led", "played"):
                self.notes.append(ActionNote(kind, ev.seat, round_no, tile=tile_code(ev.tile),
                                             end=getattr(ev, "end", None)))
            elif kind in ("knocked", "host_moved"):
                self.notes.append(ActionNote(kind, ev.seat, round_no))
            elif kind == "went_out":
                self.outs[ev.seat] += 1
                self.notes.append(ActionNote(kind, ev.seat, round_no))
            elif kind == "fish":
                self.fish[ev.seat] += 1
                self.notes.append(ActionNote(kind, ev.seat, round_no))
            elif kind == "dealt":
                round_no = ev.round_no
                self.notes.append(ActionNote("dealt", ev.leader, ev.round_no))

    # ------------------------------------------------------------------ reading

    @property
    def match_id(self) -> int:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def status(self) -> Status:
        return Status(self.row.status)

    def round_events(self) -> list[Any]:
        """The engine events of the current round (from its ``dealt`` on): the public history
        a computer player observes (``engine.ai.observe`` drops what is private)."""
        return self.log[self.log_cut:]

    def humans(self) -> int:
        """How many seats are held by people (not computer players)."""
        return sum(1 for p in self.players() if p.bot is None)

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, or None."""
        for i, s in enumerate(self.row.seats):
            if s["user_id"] == user_id:
                return i
        return None

    def players(self) -> tuple[PlayerRef, ...]:
        """The seat holders in seat order (cached per ``row.seats`` value)."""
        seats = self.row.seats
        cached = self.__dict__.get("_players")
        if cached is None or cached[0] is not seats:
            cached = (seats, tuple(PlayerRef(int(s["user_id"]), str(s["name"]), strength_of(s))
                                   for s in seats))
            self.__dict__["_players"] = cached
        return cached[1]

    def side_of(self, seat: int) -> int:
        """Scoring side of a seat (RULES.md §1.14: seats 0+2 vs 1+3 with teams)."""
        return seat % 2 if self.rules.teams else seat

    def lobby_view(self) -> LobbyView:
        lo, hi = rules_players(self.rules)
        r = self.row
        return LobbyView(
            match_id=r.id, chat_id=r.chat_id, thread_id=r.thread_id, version=r.version,
            status=self.status, creator_id=r.creator_id, players=self.players(),
            rules=self.rules.to_json(), min_players=lo, max_players=hi,
            deadline_at=r.deadline_at, rematch_of=r.rematch_of,
        )

    def final(self) -> MatchEnd | None:
        """The closing lines once the match closed, else None. Rated results come from the
        engine's ``MatchResult`` (RULES.md §1.15–§1.17)."""
        r = self.row
        if r.status in (Status.LOBBY, Status.PLAYING) or self.state is None:
            return None
        result = self.state.result
        players = self.players()
        if r.status == Status.FINISHED and result is not None:
            lines = tuple(
                PlayerResult(
                    seat=i, user_id=p.user_id, name=p.name,
                    score=self.state.scores[self.side_of(i)],
                    goat=self.side_of(i) in result.goats,
                    rating=int(result.rating[self.side_of(i)]),
                    outs=self.outs[i], fish=self.fish[i],
                    timed_out=result.timed_out == i, bot=p.bot,
                )
                for i, p in enumerate(players)
            )
            return MatchEnd(EndReason(result.reason), True, lines)
        lines = tuple(
            PlayerResult(seat=i, user_id=p.user_id, name=p.name,
                         score=self.state.scores[self.side_of(i)], goat=False, rating=0,
                         outs=self.outs[i], fish=self.fish[i], timed_out=False, bot=p.bot)
            for i, p in enumerate(players)
        )
        return MatchEnd(EndReason(r.end_reason or EndReason.STOPPED), False, lines)

    def table_view(self, hands: Sequence[Sequence[Any]] | None = None) -> TableView:
        """The group's view (never a hand; ``hands`` = ``state.hands`` if already computed,
        used for the tile counts only)."""
        st = self.state
        r = self.row
        hands = st.hands if hands is None else hands
        playing = r.status == Status.PLAYING
        to_act = st.to_act if playing else None
        afk = getattr(st, "afk", None) or (0,) * st.players
        teams = bool(self.rules.teams)
        scores, remembered = tuple(st.scores), tuple(st.remembered)
        seats = tuple(
            SeatView(
                seat=i, user_id=p.user_id, name=p.name, tiles=len(hands[i]),
                side=i % 2 if teams else i, score=scores[i % 2 if teams else i],
                remembered=remembered[i % 2 if teams else i], to_act=to_act == i,
                host_moves=int(afk[i]), bot=p.bot,
            )
            for i, p in enumerate(self.players())
        )
        drawable = st.drawable
        reserve = getattr(st, "reserve", None)
        if reserve is None:
            reserve = max(0, len(st.bazar) - drawable)
        return TableView(
            match_id=r.id, chat_id=r.chat_id, thread_id=r.thread_id, version=r.version,
            status=self.status, round_no=st.round_no, teams=teams,
            chain=tuple(st.chain), ends=tuple(st.ends),
            drawable=drawable, reserve=reserve,
            seats=seats, scores=scores, remembered=remembered,
            pot=st.pot, to_act=to_act,
            to_act_user_id=seats[to_act].user_id if to_act is not None else None,
            deadline_at=r.deadline_at if playing else None,
            match_limit=self.rules.match_limit, notes=tuple(self.notes), final=self.final(),
            variant=self.rules.variant, layout=line_layout(st.chain, st.ends),
            turn_seconds=int(self.rules.turn_timeout),
        )

    def hand_views(self, hands: Sequence[Sequence[Any]] | None = None) -> tuple[HandView, ...]:
        """Each seat's private view, seat order (``hands`` = ``state.hands`` if computed)."""
        st = self.state
        r = self.row
        hands = st.hands if hands is None else hands
        playing = r.status == Status.PLAYING
        to_act = st.to_act if playing else None
        legal = ()
        if to_act is not None:
            legal = tuple(MoveOption(tile_code(m.tile), m.end) for m in engine.legal_moves(st))
        return tuple(
            HandView(
                match_id=r.id, version=r.version, seat=i, user_id=p.user_id, name=p.name,
                tiles=tuple(map(tile_code, hands[i])), your_turn=to_act == i,
                legal=legal if to_act == i else (), drawn=self.drawn.get(i, ()),
                deadline_at=r.deadline_at if to_act == i else None,
            )
            for i, p in enumerate(self.players())
        )


def line_layout(chain: Sequence[tuple[int, int]], ends: Sequence[int]) -> LayoutView:
    """The :class:`LayoutView` of a line (RULES.md §2.0.1): doubles lie across."""
    line = tuple(LaidTile(a, b, "across" if a == b else "") for a, b in chain)
    return LayoutView("line", line, ends=tuple(
        EndView(name, n) for name, n in zip(("left", "right"), ends, strict=False)))


def round_summaries(events: Iterable[Any]) -> tuple[RoundSummary, ...]:
    """The ``round_scored`` events as :class:`RoundSummary` (RULES.md §1.11–§1.14)."""
    out = []
    for ev in events:
        if ev.kind != "round_scored":
            continue
        out.append(RoundSummary(
            round_no=ev.round_no, end=ev.end, by=ev.by,
            hands=tuple(tuple(tile_code(t) for t in h) for h in ev.hands),
            hand_values=tuple(ev.hand_values), recorded=tuple(ev.recorded),
            scores=tuple(ev.scores), remembered=tuple(ev.remembered),
            pot_won=ev.pot_won, pot=ev.pot,
        ))
    return tuple(out)


def public_events(events: Iterable[Any]) -> tuple[dict[str, Any], ...]:
    """Engine events as dicts for the group: a ``drew`` event loses its ``tile`` (RULES.md
    §1.8: a drawn tile is shown to its seat alone)."""
    out = []
    for ev in events:
        d = event_dict(ev)
        if d.get("kind") == "drew":
            d.pop("tile", None)
        out.append(d)
    return tuple(out)
