"""The service's one window on the engine: a match in memory, the steps that change it, and the
views built from it.

Every read of the engine by the service is in this module (``docs/ENGINE_API.md``: rules,
``new_match``, ``apply``, ``apply_host_move``, ``host_move``, ``legal_moves``, the events,
``hand_value`` and ``engine.ai``), so adapting the service to a new engine is a change here.
The other rooms of the service see a :class:`LiveMatch`, its :class:`Step` values and plain
views.

Replaying is deterministic: the same seed and decisions give an equal state (the engine's
promise), so a :class:`LiveMatch` can be dropped and rebuilt at any time from the database.
The action log keeps its decision format: ``{"tile": "a-b", "end": ...}`` for a person,
``{"host": true}`` for the host's move (RULES.md §1.17), ``{"tile", "end", "bot": strength}``
for a computer player.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

import engine
from engine import ai
from engine.records import MAX_RECORD_BYTES
from service.views import (
    ActionNote,
    EndReason,
    EndView,
    ErrorCode,
    HandedSeat,
    HandView,
    HoldView,
    LaidTile,
    LayoutView,
    LobbyView,
    MarkInfo,
    MarkTally,
    MarkView,
    MatchEnd,
    MoveOption,
    OptionInfo,
    PlacementOption,
    PlayerRef,
    PlayerResult,
    RecordCheck,
    RecordRound,
    Result,
    RoundSummary,
    SeatView,
    Status,
    TableView,
    VariantInfo,
)

if TYPE_CHECKING:
    from storage.repository import ActionRow, MatchRow

__all__ = [
    "MAX_RECORD_BYTES",
    "STRENGTHS",
    "VARIANT_NAMES",
    "DEFAULT_STRENGTH",
    "BadMove",
    "LiveMatch",
    "ReplayError",
    "Step",
    "check_record",
    "decide",
    "full_rules",
    "is_bot",
    "public_events",
    "record_of",
    "is_record_of",
    "result_of",
    "rules_overrides",
    "rules_players",
    "seat_name",
    "strength_of",
    "switch_variant",
    "TILE_CODES",
    "variant_infos",
]

#: The strengths a computer player can have, weakest first (``engine.ai``).
STRENGTHS: tuple[str, ...] = tuple(ai.STRENGTHS)
#: Strength of a computer player added without naming one.
DEFAULT_STRENGTH = "normal"
#: Players per match (RULES.md §1.1).
MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: Every game the engine plays (``Rules.variant``), in the order of RULES.md: classic (§1),
#: then §2.1 … §2.9.
def _section_order(name: str) -> tuple[int, ...]:
    """The place of a game in RULES.md: its section's numbers (``"§2.10"`` → ``(2, 10)``)."""
    return tuple(int(x) for x in engine.VARIANTS[name].section.lstrip("§").split("."))


VARIANT_NAMES: tuple[str, ...] = tuple(sorted(engine.VARIANTS, key=_section_order))

OPEN = (Status.LOBBY, Status.PLAYING)


def is_bot(seat: Mapping[str, Any]) -> bool:
    """True for a seat (an entry of ``matches.seats``) held by a computer player: it has the
    key ``"bot"`` or a user id <= 0 (:mod:`service.bots`)."""
    return bool(seat.get("bot")) or int(seat["user_id"]) <= 0


def strength_of(seat: Mapping[str, Any]) -> str | None:
    """The strength of a seat's computer player (one of :data:`STRENGTHS`;
    :data:`DEFAULT_STRENGTH` when the seat names none it knows), or None for a person."""
    if not is_bot(seat):
        return None
    s = seat.get("bot")
    return s if s in STRENGTHS else DEFAULT_STRENGTH


class ReplayError(RuntimeError):
    """The action log does not replay through the engine (a corrupt or foreign log)."""


class BadMove(ValueError):
    """A decision the engine refuses (malformed, or against RULES.md §1.5–§1.7): ``code`` is
    the :class:`~service.views.ErrorCode` to answer with, the message names the rule."""

    def __init__(self, message: str, code: ErrorCode = ErrorCode.BAD_MOVE) -> None:
        super().__init__(message)
        self.code = code


# -- rules ---------------------------------------------------------------------------------------


def full_rules(options: Mapping[str, Any]) -> dict[str, Any]:
    """Every rule option with its value: ``options`` (RULES.md §1 names) over the defaults.
    Raises ``ValueError`` / ``TypeError`` for an unknown option or a value out of range."""
    return engine.Rules.from_json(dict(options)).to_json()


def rules_overrides(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of ``options`` that differ from their variant's defaults (validated as
    :func:`full_rules`), as a chat stores them; a variant other than classic is kept."""
    full = full_rules(options)
    defaults = engine.Rules(variant=full["variant"]).to_json()
    return {k: v for k, v in full.items() if defaults.get(k) != v or
            (k == "variant" and v != "classic")}


_INFOS: dict[str, VariantInfo] = {}
_INFOS_OF: list[tuple] = [()]  # the registry the infos were made of


def variant_infos() -> dict[str, VariantInfo]:
    """Every game the engine plays, by name, classic first and then in the order of RULES.md
    §2.1–§2.9 (``engine.VARIANTS``): what the bot needs to offer it (its options, fixed
    options, player counts, layout, whether it is a race, its goat word)."""
    key = tuple(map(id, engine.VARIANTS.values()))
    if _INFOS_OF[0] != key:  # built once, again only if a variant was registered since
        _INFOS.clear()
        _INFOS_OF[0] = key
        for name in sorted(engine.VARIANTS, key=_section_order):
            v = engine.VARIANTS[name]
            _INFOS[name] = VariantInfo(
                name=name, section=v.section, layout=v.layout, players=tuple(v.players),
                teams=v.teams, race=bool(v.race), options=dict(v.options),
                fixed=dict(v.fixed), goat_word=v.goat_word,
                own_options={k: OptionInfo(o.default, o.allowed, o.choices, o.unit)
                             for k, o in v.own_options.items()},
                marks=tuple(MarkInfo(m.name, m.per, m.limit, m.leaves) for m in v.marks),
                scoring=v.scoring, counts_hands=bool(v.counts_hands))
    return _INFOS


def switch_variant(options: Mapping[str, Any], variant: str) -> dict[str, Any]:
    """The rule options of ``options`` (a chat's stored overrides or a lobby's full rules)
    moved to the game ``variant`` (RULES.md §2): the options chosen there (those that differ
    from their old variant's defaults) that ``variant`` reads with the same default are kept
    (so a Kozel match limit never becomes a race's target), every other one is dropped,
    and ``variant``'s defaults fill the rest when the rules are built.  Returns the
    overrides with ``"variant"`` (validated as :func:`full_rules`).  Raises ``ValueError`` for
    an unknown variant or invalid ``options``."""
    info = variant_infos().get(variant)
    if info is None:
        raise ValueError(f"rules: variant must be one of {tuple(variant_infos())}, "
                         f"got {variant!r}")
    chosen = rules_overrides(options)
    was = variant_infos().get(str(options.get("variant", "classic")))
    # an option means the same in both games only if both give it the same default: a
    # Kozel limit (whoever reaches it loses, §1.15) is not a race's target (§2.0.7)
    kept = {k: v for k, v in chosen.items() if k != "variant" and info.reads(k)
            and (was is None or was.options.get(k) == info.options.get(k))}
    return rules_overrides({"variant": variant, **kept})


def rules_players(rules: Mapping[str, Any] | Any) -> tuple[int, int]:
    """(min, max) players the rules allow (RULES.md §1.1; exactly 4 with teams, §1.14, and
    the variant's own count, e.g. 4 in sport domino §2.7); ``rules`` is the rules JSON or an
    ``engine.Rules``."""
    if isinstance(rules, Mapping):
        rules = engine.Rules.from_json(dict(rules))
    return rules.spec.players_range(rules)


# -- tiles, moves and events -----------------------------------------------------------------------

_CODES = {t: f"{t.a}-{t.b}" for t in engine.TILES}

#: The 28 tile codes (``"2-5"``, low half first) in the order of the engine's tile ids
#: (``engine.tiles.TILE_ID``, RULES.md §0): the one table of tile ids for the whole bot, e.g. the
#: compact ids in callback data.
TILE_CODES: tuple[str, ...] = tuple(_CODES[t] for t in engine.TILES)


def tile_code(tile: Any) -> str:
    """``Tile(2, 5)`` → ``"2-5"``."""
    code = _CODES.get(tile)
    return code if code is not None else f"{tile.a}-{tile.b}"


def move_of(option: MoveOption) -> Any:
    """The ``engine.Move`` of a :class:`MoveOption` (one placement, or several in
    ``option.more``, RULES.md §2.0.4).  Raises ``ValueError`` for a tile that is not a tile
    of the set or an unknown end."""
    placements = []
    for p in option.placements:
        if p.end is not None and p.end not in engine.END_NAMES:
            raise ValueError(f"unknown end {p.end!r}")
        placements.append(engine.Placement(engine.Tile.parse(p.tile), p.end, bool(p.closed),
                                           bool(p.along)))
    return engine.Move.of(placements)


def option_of(move: Any) -> MoveOption:
    """The :class:`MoveOption` of an ``engine.Move``."""
    first, *more = move
    return MoveOption(tile_code(first.tile), first.end, first.closed, first.along,
                      tuple(PlacementOption(tile_code(p.tile), p.end, p.closed, p.along)
                            for p in more))


def _decision_move(d: Mapping[str, Any]) -> Any:
    """The ``engine.Move`` of a logged decision: ``{"tile", "end"}`` (with ``closed`` /
    ``along`` where set) or ``{"tiles": [...]}`` (RULES.md §2.0.4)."""
    from engine.records import ReplayError as RecordError
    from engine.records import parse_decision

    try:
        return parse_decision({k: v for k, v in d.items() if k != "bot"})[0]
    except RecordError as exc:
        raise ValueError(str(exc)) from exc


def _decision(move: Any, **extra: Any) -> dict[str, Any]:
    """The action-log entry of a move: ``{"tile": "2-5", "end": "left"}`` for one tile (as
    before the variants; ``closed``/``along`` only where set), ``{"tiles": [...]}`` for
    several (the record form of RULES.md §2.0.4)."""
    if len(move) > 1:
        return {**move.to_dict(), **extra}
    p = move[0]
    out = {"tile": p.code(), "end": p.end}
    if p.closed:
        out["closed"] = True
    if p.along:
        out["along"] = True
    return {**out, **extra}


def _event_dict(event: Any) -> dict[str, Any]:
    to_dict = getattr(event, "to_dict", None)
    return to_dict() if callable(to_dict) else engine.to_dict(event)


def public_events(events: Iterable[Any]) -> tuple[dict[str, Any], ...]:
    """Engine events as dicts for the group: a ``drew`` event loses its ``tile`` (RULES.md
    §1.8: a drawn tile is shown to its seat alone)."""
    out = []
    for ev in events:
        d = _event_dict(ev)
        if d.get("kind") == "drew":
            d.pop("tile", None)
        out.append(d)
    return tuple(out)


def layout_view(lay: Any, count: int | None = None) -> LayoutView:
    """The :class:`LayoutView` of an engine ``LayoutState`` (RULES.md §2.0): the line, the
    spinner and its arms, the gap, every open or closed end (with what it adds to the count,
    when ``count`` is given), the count (§2.0.6) and where the last move's tiles lie."""
    def laid(tiles: Sequence[tuple[int, int, str]]) -> tuple[LaidTile, ...]:
        return tuple(LaidTile(a, b, how) for a, b, how in tiles)

    ends = []
    # what each end adds to the count, in the games that keep one (§2.0.6)
    adds = (lay.end_counts() or {}) if count is not None else {}
    for name, value in zip(engine.END_NAMES, lay.ends, strict=True):
        if value == -1:
            continue  # no such end (yet)
        ends.append(EndView(name, value if 0 <= value <= 6 else None, value == -2,
                            adds.get(name)))
    return LayoutView(
        kind="cross" if lay.cross else "line", line=laid(lay.line),
        spinner=lay.spin_at if lay.spinner >= 0 else None, up=laid(lay.up),
        down=laid(lay.down), gap=lay.gap_at if lay.gap_at >= 0 else None,
        ends=tuple(ends), count=count, last=lay.last,
        lead=lay.lead_at if lay.lead_at >= 0 else None)


def decide(obs: Any, strength: str, seed: str, samples: int) -> Any:
    """A computer player's decision (pure CPU; the entry point of the worker processes):
    ``engine.ai.decide`` on the seat's observation with a ``random.Random(seed)``; ``hard``
    plays at most ``samples`` sampled deals and at most ``engine.ai.DEFAULT_WORK`` work
    units, so its strength does not depend on how busy the machine is.  Raises
    ``ValueError`` when the seat has no decision to make."""
    return ai.decide(obs, strength, random.Random(seed), samples=samples)


# -- one change ------------------------------------------------------------------------------


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


class _Recent(NamedTuple):
    """What a seat's hand message reports about the seat itself (RULES.md §1.8, §1.17)."""

    drawn: tuple[str, ...] = ()  # since its last decision
    taken: tuple[str, ...] = ()  # handed from another seat's hand since then (§2.8 rule 5)
    taken_from: int | None = None  # that seat
    knock: tuple[str, ...] | None = None  # drawn before its last decision, a knock
    host_pending: bool = False  # the host moved for it; its tile comes next
    host_moved: bool = False  # its last tile was the host's


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
        self.recent: tuple[_Recent, ...] = ()
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
        self.recent = (_Recent(),) * n
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
        return self._made(seat, _decision(move), state, events,
                          lambda: engine.apply(self.state, seat, move, deal=False))

    def host_step(self) -> Step:
        """The host moves for the seat to act (RULES.md §1.17), logged ``{"host": true}``."""
        seat = self.state.to_act
        state, events = engine.apply_host_move(self.state)
        return self._made(seat, {"host": True}, state, events,
                          lambda: engine.apply_host_move(self.state, deal=False))

    def bot_step(self, seat: int, move: Any, strength: str) -> Step:
        """A computer player's move (from :func:`decide`, or None to play the host's choice
        for it, RULES.md §1.17, when its decision failed), logged with its strength.  Raises
        an ``engine.EngineError`` for a move the engine refuses."""
        if move is None:
            move = engine.host_move(self.state)
        state, events = engine.apply(self.state, seat, move)
        return self._made(seat, _decision(move, bot=strength), state, events,
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
            return self.bot_step(action.seat, _decision_move(d), str(d["bot"]))
        return self.step(action.seat, _decision_move(d))

    def _made(self, seat: int, decision: dict, state: Any, events: list, closing) -> Step:
        closed = None
        if state.round_no != self.state.round_no:
            closed, _ = closing()  # the round that ended, as it lay before the next deal
        result = state.result
        return Step(seat, decision, state, events, closed,
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
        notes = list(self.notes)
        history = list(self.history)
        recent = list(self.recent)
        outs, fish = list(self.outs), list(self.fish)
        scored: list[RoundSummary] = []
        round_no = self._round
        forced = 0  # tiles still to come of a draw the rules force (the note's ``draws``)
        for ev in events:
            kind = ev.kind
            if kind in ("misdeal", "dealt") and ev.round_no != round_no:
                if self.summary is not None and closed is not None:
                    self.closed = self._table(closed, tuple(notes), self.summary,
                                              version=version)
                notes, history = [], []
                recent = [_Recent()] * len(recent)
                round_no = ev.round_no
                self.summary = None
                self.lead = None
            history.append(ev)
            seat = getattr(ev, "seat", None)
            # what the seat's own hand message reports (RULES.md §1.8, §1.17)
            if kind == "drew":
                r = recent[seat]
                recent[seat] = r._replace(drawn=r.drawn + (tile_code(ev.tile),))
            elif kind == "took":  # tiles handed to the seat by a rule (§2.8 rule 5)
                r = recent[seat]
                recent[seat] = r._replace(taken=r.taken + tuple(tile_code(t) for t in ev.tiles),
                                          taken_from=ev.maker)
            elif kind in ("knocked", "passed"):
                r = recent[seat]
                recent[seat] = _Recent(knock=r.drawn, host_moved=r.host_pending)
            elif kind == "host_moved":
                recent[seat] = recent[seat]._replace(host_pending=True)
            elif kind == "went_out":
                outs[seat] += 1
            elif kind == "fish":
                fish[seat] += 1
            elif kind == "dealt":
                self.lead = tile_code(ev.lead_tile) if ev.lead_tile is not None else None
            elif kind == "round_scored":
                self.summary = self._summary(ev, closed if closed is not None else self.state,
                                             before)
                scored.append(self.summary)
            # the public log: moves, draws and the points on the count here, every other
            # event by its own note (engine.events.Note)
            if kind == "drew":
                last = notes[-1] if notes else None
                if forced:  # a draw the rules force, counted in its note
                    forced -= 1
                elif last is not None and last.kind == "drew" and last.seat == seat:
                    notes[-1] = replace(last, count=last.count + 1)
                else:
                    notes.append(ActionNote("drew", seat, round_no, count=1))
            elif kind in ("led", "played"):
                last = notes[-1] if notes else None
                if getattr(ev, "part", 0) and last is not None and last.seat == seat and \
                        last.kind in ("led", "played"):
                    # a later tile of a move of several (RULES.md §2.0.4): the same note
                    notes[-1] = replace(last, tiles=last.tiles + (
                        (tile_code(ev.tile), ev.end, ev.closed, ev.along),))
                else:
                    r = recent[seat]
                    recent[seat] = _Recent(host_moved=r.host_pending)
                    notes.append(ActionNote(kind, seat, round_no, tile=tile_code(ev.tile),
                                            end=getattr(ev, "end", None),
                                            closed=getattr(ev, "closed", False),
                                            along=getattr(ev, "along", False)))
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
                    forced = note.draws
        self.notes, self.history, self.recent = tuple(notes), tuple(history), tuple(recent)
        self.outs, self.fish = tuple(outs), tuple(fish)
        self._round = round_no
        return tuple(scored)

    def _summary(self, ev: Any, closed: Any, before: tuple[int, ...] = ()) -> RoundSummary:
        """The ``round_scored`` event as a :class:`RoundSummary` with the table it closed and
        each seat's own hand value (RULES.md §1.11–§1.14) and what the variant reports
        (RULES.md §2: points on the count, losers, the marks it counts, a general, the fast
        lead, the specials); ``before`` the sides' scores before the step that scored it
        (a side with points then and none now was reset, §2.1 rule 8)."""
        extra = ev.extra or {}
        rules = self.rules
        playing = set(rules.spec.playing_seats(closed))
        lay = ev.layout if ev.layout is not None else closed.round.layout
        scores = tuple(ev.scores)
        reset = tuple(s for s, (was, now) in enumerate(zip(before, scores, strict=True))
                      if was > 0 and now == 0) if len(before) == len(scores) else ()
        specials = tuple((str(x["rule"]), int(x["seat"])) for x in extra.get("specials", ()))
        return RoundSummary(
            round_no=ev.round_no, end=ev.end, by=ev.by,
            hands=tuple(tuple(tile_code(t) for t in h) for h in ev.hands),
            hand_values=tuple(ev.hand_values), recorded=tuple(ev.recorded),
            scores=tuple(ev.scores), remembered=tuple(ev.remembered),
            pot_won=ev.pot_won, pot=ev.pot,
            play_points=tuple(ev.play_points) if any(ev.play_points) else (),
            losers=tuple(ev.losers), marks=self._marks(closed),
            left=tuple(s for s in closed.round.seats if s not in playing),
            general=bool(extra.get("general")), fast=extra.get("fast"),
            layout=layout_view(lay, closed.round.count),
            seat_values=tuple(rules.spec.hand_value(mask, rules)
                              for mask in closed.round.hands),
            reset=reset, specials=specials, variant=rules.variant, rules=self.rules_json,
            deals=rules.spec.fixed_rounds(rules),
        )

    def _marks(self, state: Any) -> tuple[MarkTally, ...]:
        """What the variant counts beside points in ``state``, as it declares it
        (``engine.variant.Variant.marks``), with the value of each mark's limit option."""
        spec = self.rules.spec
        if not spec.marks:
            return ()
        counts = spec.mark_counts(state)
        return tuple(MarkTally(m.name, m.per, counts[m.name],
                               getattr(self.rules, m.limit) if m.limit else None)
                     for m in spec.marks)

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
        engine's ``MatchResult`` (RULES.md §1.15–§1.17, §2): the goats with the variant's
        title, the winners of a race, a draw; each player's place (by the rating gained,
        then by how close the side was to losing)."""
        r = self.row
        if r.status in OPEN or self.state is None:
            return None
        result = self.state.result
        scores = self.state.scores
        rated = r.status == Status.FINISHED and result is not None
        spec = self.rules.spec
        standing = spec.standing(self.state)
        sides = len(scores)
        order = sorted(range(sides), key=lambda side: (
            -(result.rating[side] if rated else 0), side in (result.goats if rated else ()),
            standing[side]))
        place, last = {}, None
        for k, side in enumerate(order):
            key = ((result.rating[side] if rated else 0), standing[side])
            place[side] = place[order[k - 1]] if key == last else k + 1
            last = key
        lines = []
        marks = self._marks(self.state)
        for i, p in enumerate(self.players()):
            side = self.side_of(i)
            goat = rated and side in result.goats
            left = r.seats[i].get("left")
            lines.append(PlayerResult(
                seat=i, user_id=p.user_id, name=p.name, score=scores[side],
                goat=goat, rating=int(result.rating[side]) if rated else 0,
                outs=self.outs[i], fish=self.fish[i],
                timed_out=rated and result.timed_out == i, bot=p.bot, side=side,
                place=place[side], title=result.title if goat else None,
                left=str(left["name"]) if isinstance(left, Mapping) else None,
                left_round=int(left.get("round", 0)) or None
                if isinstance(left, Mapping) else None,
                marks=_marks_of(marks, i, side),
            ))
        if rated:
            return MatchEnd(EndReason(result.reason), True, tuple(lines),
                            variant=self.rules.variant, title=result.title,
                            winners=tuple(result.winners), draw=bool(result.draw))
        return MatchEnd(EndReason(r.end_reason or EndReason.STOPPED), False, tuple(lines),
                        variant=self.rules.variant)

    def table_view(self) -> TableView:
        """The group's view of the current round (never a hand: only how many tiles)."""
        st = self.state
        summary = self.summary if st.round.end is not None else None
        return self._table(st, self.notes, summary)

    def _table(self, st: Any, notes: tuple[ActionNote, ...], summary: RoundSummary | None,
               *, version: int | None = None) -> TableView:
        """The table of ``st``; with ``version`` the closed table of a round the match went
        on from (as it was then: playing, at that version)."""
        r = self.row
        status = self.status if version is None else Status.PLAYING
        playing = status == Status.PLAYING and summary is None
        to_act = st.to_act if playing else None
        afk = st.afk
        teams = bool(self.rules.teams)
        scores, remembered = tuple(st.scores), tuple(st.remembered)
        sizes = st.hand_sizes()
        marks = self._marks(st)
        playing = set(self.rules.spec.playing_seats(st))
        seats = []
        for i, p in enumerate(self.players()):
            side = self.side_of(i)
            seats.append(SeatView(
                seat=i, user_id=p.user_id, name=p.name, tiles=sizes[i], side=side,
                score=scores[side], remembered=remembered[side], to_act=to_act == i,
                host_moves=int(afk[i]), bot=p.bot, marks=_marks_of(marks, i, side),
                left=i not in playing,
            ))
        seats = tuple(seats)
        rs = st.round
        lay = rs.layout
        return TableView(
            match_id=r.id, chat_id=r.chat_id, thread_id=r.thread_id,
            version=r.version if version is None else version,
            status=status, round_no=st.round_no, teams=teams,
            chain=tuple(lay.chain), ends=tuple(st.ends),
            drawable=st.drawable, reserve=st.reserve,
            seats=seats, scores=scores, remembered=remembered,
            pot=st.pot, to_act=to_act,
            to_act_user_id=seats[to_act].user_id if to_act is not None else None,
            deadline_at=r.deadline_at if to_act is not None else None,
            match_limit=self.rules.match_limit, notes=notes,
            final=self.final() if version is None else None,
            variant=self.rules.variant, layout=layout_view(lay, rs.count),
            deals=self.rules.spec.fixed_rounds(self.rules),
            turn_seconds=int(self.rules.turn_timeout),
            fast=rs.fast, two_tiles=rs.phase == 2, summary=summary, rules=self.rules_json,
            creator_id=r.creator_id,
        )

    def hand_views(self) -> tuple[HandView, ...]:
        """Each seat's private view, seat order."""
        st = self.state
        r = self.row
        hands = st.hands
        to_act = st.to_act if r.status == Status.PLAYING else None
        legal = ()
        if to_act is not None:
            legal = tuple(option_of(m) for m in engine.legal_moves(st))
        lead = self.lead if to_act is not None and not st.round.layout.line else None
        views = []
        for i, p in enumerate(self.players()):
            mine = to_act == i
            rec = self.recent[i]
            knocked = not rec.drawn and not mine and rec.knock is not None
            views.append(HandView(
                match_id=r.id, version=r.version, seat=i, user_id=p.user_id, name=p.name,
                tiles=tuple(map(tile_code, hands[i])), your_turn=mine,
                legal=legal if mine else (),
                drawn=rec.drawn or (rec.knock if knocked else ()),
                taken=rec.taken, taken_from=rec.taken_from,
                deadline_at=r.deadline_at if mine else None,
                knocked=knocked, host_moved=rec.host_moved,
                lead=lead if mine else None,
            ))
        return tuple(views)


def _marks_of(marks: Sequence[MarkTally], seat: int, side: int) -> tuple[MarkView, ...]:
    """The marks of one seat: its own count of each mark kept per seat, its side's of each
    kept per side."""
    return tuple(MarkView(m.name, m.counts[seat if m.per == "seat" else side], m.limit, m.per)
                 for m in marks)


def result_of(
    live: LiveMatch,
    *,
    ok: bool = True,
    error: ErrorCode | None = None,
    detail: str = "",
    events: Sequence[Any] = (),
    rounds: tuple[RoundSummary, ...] = (),
    handed: HandedSeat | None = None,
) -> Result:
    """The :class:`~service.views.Result` of ``live`` after a change whose engine events are
    ``events`` and which scored ``rounds`` (or a refusal: ``ok`` False with ``error``);
    ``handed``: the seat this change handed to a computer player."""
    started = live.state is not None
    hold = live.row.hold
    hold_view = None
    if started and isinstance(hold, Mapping) and "afk" in hold and live.status in OPEN:
        seat = int(hold["afk"])
        who = live.players()[seat]
        hold_view = HoldView(seat, who.user_id, who.name, live.row.deadline_at, live.version)
    return Result(
        ok=ok, error=error, detail=detail, match_id=live.match_id, status=live.status,
        version=live.version,
        lobby=None if started else live.lobby_view(),
        table=live.table_view() if started else None,
        hands=live.hand_views() if started else (),
        events=public_events(events) if events else (),
        rounds=rounds,
        final=live.final() if started else None,
        closed=live.closed if started else None,
        hold=hold_view,
        handed=handed,
    )


# -- game records (issue 15: "The record of a match", "Checking a record") --------------------


def seat_name(seat: Mapping[str, Any]) -> str:
    """The name a seat plays under in a game record: its holder's, or for a seat a person
    left to a computer player ``"Оля → Бот Фёдор 🤖"``."""
    left = seat.get("left")
    if isinstance(left, Mapping) and left.get("name"):
        return f"{left['name']} → {seat['name']}"
    return str(seat["name"])


def record_of(row: MatchRow, actions: Sequence[ActionRow]) -> dict[str, Any]:
    """The game record of a played match (``docs/ENGINE_API.md``, the JSON that ``python -m
    engine replay`` reads): ``engine.records.record_match`` from the match's rules, seed and
    action log, the names from its seats (:func:`seat_name`).  Every deal is in it, so give
    it out only once the match has ended.  Raises :class:`ReplayError` when the log does not
    replay (a corrupt log)."""
    from engine import records

    decisions = []
    for a in actions:
        d = a.decision
        decisions.append((None, True) if d.get("host") else (_decision_move(d), False))
    try:
        return records.record_match(engine.Rules.from_json(row.rules),
                                    [seat_name(s) for s in row.seats], row.seed, decisions)
    except (engine.EngineError, ValueError) as exc:
        raise ReplayError(f"match {row.id}: {exc}") from exc


def _canonical(value: Any) -> Any:
    """``value`` with every tile code written smaller half first (``"5-2"`` → ``"2-5"``) and
    every dealt hand in order (a hand is a set; the bazar's order is the order of drawing):
    the same game however its record spells it."""
    if isinstance(value, str) and len(value) == 3 and value[1] == "-" \
            and value[0].isdigit() and value[2].isdigit():
        a, b = sorted((value[0], value[2]))
        return f"{a}-{b}"
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, dict):
        out = {k: _canonical(v) for k, v in value.items()}
        hands = out.get("hands")
        if isinstance(hands, list) and all(isinstance(h, list) for h in hands):
            out["hands"] = [sorted(h, key=repr) for h in hands]
        return out
    return value


def is_record_of(sent: Any, row: MatchRow, actions: Sequence[ActionRow]) -> bool:
    """Whether a sent record (its parsed JSON, which replayed) is the stored match ``row``
    with its ``actions``: the same rules, number of players, deals and decisions as
    :func:`record_of` makes of it, tiles in either order (the names may differ)."""
    try:
        stored = record_of(row, actions)
        rules = engine.Rules.from_json(sent.get("rules") or {}).to_json()
    except (ReplayError, engine.EngineError, ValueError, TypeError, AttributeError):
        return False
    return (rules == engine.Rules.from_json(stored["rules"]).to_json()
            and len(sent.get("players") or ()) == len(stored["players"])
            and _canonical(sent.get("rounds")) == _canonical(stored["rounds"]))


def _rule_of(error: Any) -> str | None:
    """The rule an engine ``ReplayError`` names: its ``rule``, else a ``RULES.md §…`` in its
    message."""
    import re

    found = re.search(r"RULES\.md (§\d+(?:\.\d+)*)", error.rule or str(error.message))
    return found.group(1) if found else None


def _decision_tiles(record: Mapping[str, Any], error: Any) -> tuple[str, ...]:
    """The tiles (``"a-b"``) of the decision an engine ``ReplayError`` names in ``record``,
    as far as the record writes them; empty when it names none."""
    try:
        d = record["rounds"][error.round_no - 1]["decisions"][error.decision_no - 1]
        placements = d["tiles"] if "tiles" in d else [d]
        return tuple(tile_code(engine.Tile.parse(p["tile"]))
                     for p in placements)
    except (LookupError, TypeError, ValueError, AttributeError):
        return ()


def check_record(data: bytes) -> RecordCheck:
    """Replay a game record that a user sent (RULES.md; ``engine.records.replay_json``) and
    say what it shows: the rounds and the end of the match, or why it is refused —
    ``size`` (over ``engine.records.MAX_RECORD_BYTES``), ``json`` (not JSON, or not UTF-8),
    ``format`` (not a record: wrong types, missing keys), ``variant`` (no such game),
    ``misdeal`` (a deal RULES.md §1.3 voids), ``deal`` (a deal that does not hold the 28 tiles
    as the rules deal them), ``rounds`` (a round that stops before it ends, a round after the
    match's end), ``illegal`` (a decision the rules forbid: ``round_no``, ``decision_no``,
    ``rule``).  Pure: nothing is stored."""
    import json

    from engine import records

    if len(data) > records.MAX_RECORD_BYTES:
        return RecordCheck(False, "size", detail=str(len(data)))
    try:
        record = json.loads(data.decode("utf-8-sig"))  # a BOM from a text editor is fine
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return RecordCheck(False, "json", detail=str(exc)[:200])
    if not isinstance(record, dict):
        return RecordCheck(False, "format", detail="a record is a JSON object",
                           problem="object")
    rules = record.get("rules") or {}
    variant = rules.get("variant", "classic") if isinstance(rules, dict) else None
    if isinstance(variant, str) and variant not in engine.VARIANTS:
        return RecordCheck(False, "variant", detail=variant[:40])
    names = record.get("players")
    names = tuple(str(n) for n in names) if isinstance(names, list) else ()
    try:
        out = records.replay(record)
    except records.ReplayError as exc:
        rule = _rule_of(exc)
        message = str(exc.message)
        if exc.decision_no is not None and rule:
            kind = "illegal"
        elif exc.decision_no is not None:  # a decision that is no move at all ({"tile": "9-9"})
            kind = "format"
            message = str(exc)  # names its round and decision
        elif exc.round_no is None or exc.problem in ("round", "decisions"):
            kind = "format"
        elif rule == "§1.3":
            kind = "misdeal"
        elif exc.problem == "deal" or "deal" in message or "hand" in message:
            kind = "deal"
        else:
            kind = "rounds"
        return RecordCheck(False, kind, round_no=exc.round_no, decision_no=exc.decision_no,
                           rule=rule, detail=message[:300], names=names,
                           variant=variant if isinstance(variant, str) else "classic",
                           seat=exc.seat if kind in ("illegal", "misdeal") else None,
                           reason=exc.kind, tiles=_decision_tiles(record, exc),
                           problem=exc.problem or "other",
                           problem_args=tuple(exc.numbers.items()))
    except (RecursionError, ValueError, TypeError, AttributeError, KeyError) as exc:
        return RecordCheck(False, "format", detail=str(exc)[:200], problem="other")
    full = engine.Rules.from_json(rules)
    return RecordCheck(
        True, names=names, variant=full.variant, teams=bool(full.teams),
        rounds=tuple(RecordRound(i + 1, r["end"], int(r["by"]), tuple(r["recorded"]),
                                 tuple(r["scores"])) for i, r in enumerate(out["rounds"])),
        finished=bool(out["finished"]), goats=tuple(out["goats"]),
        rating=tuple(out["rating"]), title=out.get("title"),
        winners=tuple(out.get("winners", ())), draw=bool(out.get("draw")))
