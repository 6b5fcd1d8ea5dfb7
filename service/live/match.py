"""A match in memory: its row, the engine state rebuilt from seed and action log, the steps
that change it, and what its views need of the current round.

Replaying is deterministic: the same seed and decisions give an equal state (the engine's
promise), so a :class:`LiveMatch` can be dropped and rebuilt at any time from the database.
A step (:class:`Step`) is worked out on the current state without changing it, and taken
into a copy of the match (:meth:`LiveMatch.next`, :meth:`LiveMatch.take`) only once the
change it reflects was committed.  The views are :mod:`service.live.viewing`'s.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

import engine
from engine import ai
from service.live.moves import decision, decision_move, move_of, tile_code
from service.live.seats import strength_of
from service.live.viewing import (
    final_view,
    hand_views,
    lobby_view,
    round_summary,
    table_view,
)
from service.views import (
    ActionNote,
    EndReason,
    ErrorCode,
    HandView,
    LobbyView,
    MatchEnd,
    MoveOption,
    PlayerRef,
    RoundSummary,
    Status,
    TableView,
)

if TYPE_CHECKING:
    from storage.repository import ActionRow, MatchRow

__all__ = ["BadMove", "LiveMatch", "ReplayError", "Step"]


class ReplayError(RuntimeError):
    """The action log does not replay through the engine (a corrupt or foreign log)."""


class BadMove(ValueError):
    """A decision the engine refuses (malformed, or against RULES.md §1.5–§1.7): ``code`` is
    the :class:`~service.views.ErrorCode` to answer with, the message names the rule."""

    def __init__(self, message: str, code: ErrorCode = ErrorCode.BAD_MOVE) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Step:
    """One accepted decision, worked out by the engine but not yet taken into a match.

    ``decision`` is the action-log entry; ``state``/``events`` what the engine returned;
    ``closed`` the state of a round this step finished when the engine went on to deal the
    next one (the finished round's table), else None; ``ended`` how the match ended by this
    step (``limit`` or ``timeout``), else None.
    """

    seat: int
    decision: dict[str, Any]
    state: Any
    events: list[Any]
    closed: Any = None
    ended: EndReason | None = None


class Recent(NamedTuple):
    """What a seat's hand message reports about the seat itself (RULES.md §1.8, §1.17)."""

    drawn: tuple[str, ...] = ()  # since its last decision
    taken: tuple[str, ...] = ()  # handed from another seat's hand since then (§2.8 rule 5)
    taken_from: int | None = None  # that seat
    knock: tuple[str, ...] | None = None  # drawn before its last decision, a knock
    host_pending: bool = False  # the host moved for it; its tile comes next
    host_moved: bool = False  # its last tile was the host's


def _recent_after(recent: list[Recent], ev: Any) -> None:
    """Fold one engine event into the seats' :class:`Recent` (what each hand message reports
    of its seat: draws, tiles taken, a knock, the host's move)."""
    kind, seat = ev.kind, getattr(ev, "seat", None)
    if kind == "drew":
        r = recent[seat]
        recent[seat] = r._replace(drawn=r.drawn + (tile_code(ev.tile),))
    elif kind == "took":  # tiles handed to the seat by a rule (§2.8 rule 5)
        r = recent[seat]
        recent[seat] = r._replace(taken=r.taken + tuple(tile_code(t) for t in ev.tiles),
                                  taken_from=ev.maker)
    elif kind in ("knocked", "passed"):
        r = recent[seat]
        recent[seat] = Recent(knock=r.drawn, host_moved=r.host_pending)
    elif kind == "host_moved":
        recent[seat] = recent[seat]._replace(host_pending=True)


def _note_after(notes: list[ActionNote], recent: list[Recent], ev: Any, round_no: int,
                forced: int) -> int:
    """Fold one engine event into the round's public log: moves, draws and the points on
    the count here, every other event by its own note (``engine.events.Note``).  Returns the
    tiles still to come of a draw the rules force (a note's ``draws``), given ``forced``."""
    kind, seat = ev.kind, getattr(ev, "seat", None)
    last = notes[-1] if notes else None
    if kind == "drew":
        if forced:  # a draw the rules force, counted in its note
            return forced - 1
        if last is not None and last.kind == "drew" and last.seat == seat:
            notes[-1] = replace(last, count=last.count + 1)
        else:
            notes.append(ActionNote("drew", seat, round_no, count=1))
    elif kind in ("led", "played"):
        if getattr(ev, "part", 0) and last is not None and last.seat == seat and \
                last.kind in ("led", "played"):
            # a later tile of a move of several (RULES.md §2.0.4): the same note
            notes[-1] = replace(last, tiles=last.tiles + (
                (tile_code(ev.tile), ev.end, ev.closed, ev.along),))
        else:
            recent[seat] = Recent(host_moved=recent[seat].host_pending)
            notes.append(ActionNote(kind, seat, round_no, tile=tile_code(ev.tile),
                                    end=getattr(ev, "end", None),
                                    closed=getattr(ev, "closed", False),
                                    along=getattr(ev, "along", False),
                                    train=getattr(ev, "train", None),
                                    line=getattr(ev, "line", None),
                                    at=getattr(ev, "at", None), cut=getattr(ev, "cut", None),
                                    forced=bool(getattr(ev, "forced", False))))
    elif kind == "scored":  # points on the count, for the move just made (§2.0.6)
        for k in range(len(notes) - 1, -1, -1):
            if notes[k].kind in ("led", "played") and notes[k].seat == seat:
                notes[k] = replace(notes[k], points=ev.points, total=ev.count)
                break
    else:
        note = ev.note()
        if note is not None:
            notes.append(ActionNote(note.kind, note.seat, round_no, args=note.args,
                                    names=note.names))
            return note.draws
    return forced


class LiveMatch:
    """The cached state of one match: its row, the engine state rebuilt from seed + action
    log, and what the views need of the current round (its notes, each seat's recent draws
    and knocks, the closed table of the previous round).  Changed only through
    :meth:`take` on a copy made by :meth:`next`, and swapped into the cache only after the
    change it reflects was committed."""

    def __init__(self, row: MatchRow, rules: Any) -> None:
        self.row = row
        self.rules = rules
        self._rules_json: dict[str, Any] | None = None
        self.state: Any = None
        self.seq = 0  # actions applied (= the last action's seq)
        self.outs: tuple[int, ...] = ()
        self.fish: tuple[int, ...] = ()
        self.notes: tuple[ActionNote, ...] = ()  # this round's
        self.recent: tuple[Recent, ...] = ()
        self.history: tuple[Any, ...] = ()  # this round's engine events, from its deal on
        self.lead: str | None = None  # this round's forced lead (RULES.md §1.5)
        self.summary: RoundSummary | None = None  # this round's, once scored
        self.closed: TableView | None = None  # the previous round's closed table
        self._round = 0  # the round the notes belong to
        self._players: tuple[Any, tuple[PlayerRef, ...]] | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_row(cls, row: MatchRow, actions: Sequence[ActionRow] = ()) -> LiveMatch:
        """Rebuild from the row and its action log. Raises :class:`ReplayError` when the log
        does not apply; ``ValueError`` when the stored rules are invalid."""
        live = cls(row, engine.Rules.from_json(row.rules))
        if row.seed is not None:
            live.deal(row.seed)
            for action in actions:
                if action.seq != live.seq + 1:
                    raise ReplayError(f"match {row.id}: action seq {action.seq} after {live.seq}")
                try:
                    # every action bumped the version by one
                    live.take(live.replay_step(action),
                              version=row.version - (len(actions) - action.seq))
                except (engine.EngineError, BadMove, ValueError) as exc:
                    raise ReplayError(f"match {row.id}, action {action.seq}: {exc}") from exc
        return live

    def deal(self, seed: int) -> list[Any]:
        """Deal round 1 from ``seed`` (RULES.md §1.2–§1.5). Returns the engine events."""
        state, events = engine.new_match(self.rules, len(self.row.seats), seed)
        n = len(self.row.seats)
        self.state = state
        self.seq = 0
        self.outs = (0,) * n
        self.fish = (0,) * n
        self.notes, self.history, self.summary, self.closed = (), (), None, None
        self.recent = (Recent(),) * n
        self._round = 0
        self._absorb(events, None)
        return events

    def next(self, now: float, **values: Any) -> LiveMatch:
        """A copy whose row has the next version, ``updated_at = now`` and ``values`` (not
        yet committed: swap it in only after the write succeeded)."""
        nxt = copy.copy(self)
        nxt.set(version=self.row.version + 1, updated_at=now, **values)
        return nxt

    def set(self, **values: Any) -> None:
        """Change fields of the row (``status`` as its string value; ``rules``, the rules JSON
        of a lobby, also changes the rules it will be dealt with).  Raises ``ValueError`` for
        invalid rules."""
        if "status" in values:
            values["status"] = str(values["status"])
        if "end_reason" in values and values["end_reason"] is not None:
            values["end_reason"] = str(values["end_reason"])
        if "rules" in values:
            self.rules = engine.Rules.from_json(dict(values["rules"]))
            self._rules_json = None
        self.row = replace(self.row, **values)

    @property
    def rules_json(self) -> dict[str, Any]:
        """The match's rules as JSON (``engine.Rules.to_json()``), built once; read-only."""
        if self._rules_json is None:
            self._rules_json = self.rules.to_json()
        return self._rules_json

    # ------------------------------------------------------------------ steps

    def step(self, seat: int, option: MoveOption | str | Any, end: str | None = None) -> Step:
        """A person's move for ``seat``: a :class:`MoveOption` (one placement, or several,
        RULES.md §1.5–§1.7, §2.0.4), a tile code such as ``"2-5"`` placed at ``end``
        (``"left"``, ``"right"``, ``"up"``, ``"down"``, ``"gap"`` or None), or an
        ``engine.Move``.  Raises :class:`BadMove`."""
        try:
            if isinstance(option, str):
                option = MoveOption(option, end)
            move = option if isinstance(option, engine.Move) else move_of(option)
            state, events = engine.apply(self.state, seat, move)
        except engine.NotYourTurn as exc:
            raise BadMove(str(exc), ErrorCode.NOT_YOUR_TURN) from exc
        except (engine.EngineError, ValueError, TypeError) as exc:
            raise BadMove(str(exc)) from exc
        return self._made(seat, decision(move), state, events,
                          lambda: engine.apply(self.state, seat, move, deal=False))

    def host_step(self) -> Step:
        """The host moves for the seat to act (RULES.md §1.17), logged ``{"host": true}``."""
        seat = self.state.to_act
        state, events = engine.apply_host_move(self.state)
        return self._made(seat, {"host": True}, state, events,
                          lambda: engine.apply_host_move(self.state, deal=False))

    def bot_step(self, seat: int, move: Any, strength: str) -> Step:
        """A computer player's move (from :func:`service.live.thinking.decide`, or None to
        play the host's choice for it, RULES.md §1.17, when its decision failed), logged with
        its strength.  Raises an ``engine.EngineError`` for a move the engine refuses."""
        if move is None:
            move = engine.host_move(self.state)
        state, events = engine.apply(self.state, seat, move)
        return self._made(seat, decision(move, bot=strength), state, events,
                          lambda: engine.apply(self.state, seat, move, deal=False))

    def replay_step(self, action: ActionRow) -> Step:
        """The step of one logged decision (raises ``engine.EngineError`` /
        :class:`ReplayError` / :class:`BadMove`)."""
        d = action.decision
        if d.get("host"):
            if self.state.to_act != action.seat:
                raise ReplayError(f"host move logged for seat {action.seat}, "
                                  f"but seat {self.state.to_act} was to act")
            return self.host_step()
        if d.get("bot"):
            return self.bot_step(action.seat, decision_move(d), str(d["bot"]))
        return self.step(action.seat, decision_move(d))

    def _made(self, seat: int, logged: dict, state: Any, events: list, closing) -> Step:
        closed = None
        if state.round_no != self.state.round_no:
            closed, _ = closing()  # the round that ended, as it lay before the next deal
        result = state.result
        return Step(seat, logged, state, events, closed,
                    EndReason(result.reason) if result is not None else None)

    def observation(self, seat: int) -> Any:
        """What ``seat`` may know now (``engine.ai.observe``): its hand, the table, the counts
        and the public history of the round — no other hand, no bazar order. Picklable."""
        return ai.observe(self.state, seat, self.history)

    # ------------------------------------------------------------------ taking a step

    def take(self, step: Step, *, version: int | None = None) -> tuple[RoundSummary, ...]:
        """Take ``step`` (made on this match's current state) into the match, the version it
        gets being ``version`` (default: the row's); returns the summaries of the rounds it
        scored."""
        before = tuple(self.state.scores) if self.state is not None else ()
        self.state = step.state
        self.seq += 1
        return self._absorb(step.events, step.closed,
                            self.row.version if version is None else version, before)

    def _absorb(self, events: Iterable[Any], closed: Any,
                version: int = 0, before: tuple[int, ...] = ()) -> tuple[RoundSummary, ...]:
        """Fold engine events into the counters, the notes, the seats' recent draws and the
        closed table; ``closed`` is the state of a round these events finished before the
        next deal (else the round, if scored, is in the current state); ``version`` the
        match's version after them; ``before`` the sides' scores before them."""
        notes, history, recent = list(self.notes), list(self.history), list(self.recent)
        outs, fish = list(self.outs), list(self.fish)
        scored: list[RoundSummary] = []
        round_no = self._round
        forced = 0  # tiles still to come of a draw the rules force (the note's ``draws``)
        for ev in events:
            kind = ev.kind
            if kind in ("misdeal", "dealt") and ev.round_no != round_no:
                if self.summary is not None and closed is not None:
                    self.closed = table_view(self, closed, tuple(notes), self.summary,
                                             version=version)
                notes, history = [], []
                recent = [Recent()] * len(recent)
                round_no = ev.round_no
                self.summary = None
                self.lead = None
            history.append(ev)
            _recent_after(recent, ev)
            if kind == "went_out":
                outs[ev.seat] += 1
            elif kind == "fish":
                fish[ev.seat] += 1
            elif kind == "dealt":
                self.lead = tile_code(ev.lead_tile) if ev.lead_tile is not None else None
            elif kind == "round_scored":
                self.summary = round_summary(
                    self, ev, closed if closed is not None else self.state, before)
                scored.append(self.summary)
            forced = _note_after(notes, recent, ev, round_no, forced)
        self.notes, self.history, self.recent = tuple(notes), tuple(history), tuple(recent)
        self.outs, self.fish = tuple(outs), tuple(fish)
        self._round = round_no
        return tuple(scored)

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

    @property
    def started(self) -> bool:
        """Whether the match was dealt."""
        return self.state is not None

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited, None before the deal and after the end."""
        return None if self.state is None else self.state.to_act

    @property
    def round_no(self) -> int:
        """The round being played (RULES.md §2: every dealt round counts), 0 before the deal."""
        return 0 if self.state is None else int(self.state.round_no)

    def timeout_ends(self, seat: int) -> bool:
        """Whether the host's next move for ``seat`` would end the match by timeout: it would
        be the ``afk_limit``-th host move in a row for that seat (RULES.md §1.17)."""
        return self.state is not None and \
            int(self.state.afk[seat]) + 1 >= int(self.rules.afk_limit)

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
        cached = self._players
        if cached is None or cached[0] is not seats:
            cached = (seats, tuple(PlayerRef(int(s["user_id"]), str(s["name"]), strength_of(s))
                                   for s in seats))
            self._players = cached
        return cached[1]

    def side_of(self, seat: int) -> int:
        """Scoring side of a seat (RULES.md §1.14: seats 0+2 vs 1+3 with teams)."""
        return self.rules.spec.side_of(seat, self.rules)

    # ------------------------------------------------------------------ views

    def lobby_view(self) -> LobbyView:
        """The lobby's view (:func:`service.live.viewing.lobby_view`)."""
        return lobby_view(self)

    def final(self) -> MatchEnd | None:
        """The match end once it closed (:func:`service.live.viewing.final_view`)."""
        return final_view(self)

    def table_view(self) -> TableView:
        """The group's view of the current round (never a hand: only how many tiles)."""
        st = self.state
        return table_view(self, st, self.notes,
                          self.summary if st.round.end is not None else None)

    def hand_views(self) -> tuple[HandView, ...]:
        """Each seat's private view, seat order (:func:`service.live.viewing.hand_views`)."""
        return hand_views(self)
