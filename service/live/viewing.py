"""The views of a match in memory, one per audience (RULES.md §1.8: a hand is shown to its
seat alone): the group's :class:`~service.views.TableView` (only how many tiles each seat
holds), each seat's :class:`~service.views.HandView` with its legal moves, a round's
:class:`~service.views.RoundSummary`, the :class:`~service.views.MatchEnd`, the
:class:`~service.views.LobbyView`, and the :class:`~service.views.Result` that carries them.

The functions read a match through :class:`Match`, the face of
:class:`service.live.match.LiveMatch` they need, and the engine's state values; nothing they
return holds an engine value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import engine
from service.live.moves import layout_view, option_of, public_events, tile_code
from service.live.rulebook import rules_players, variant_infos
from service.views import (
    ActionNote,
    EndReason,
    ErrorCode,
    FlagView,
    HandedSeat,
    HandView,
    HoldView,
    LobbyView,
    MarkTally,
    MarkView,
    MatchEnd,
    PlayerRef,
    PlayerResult,
    Result,
    RoundSummary,
    SeatView,
    Status,
    TableView,
)

if TYPE_CHECKING:
    from storage.repository import MatchRow

__all__ = ["OPEN", "Match", "final_view", "hand_views", "lobby_view", "mark_tallies",
           "result_of", "round_summary", "seat_marks", "table_view"]

#: A match still being played or gathered.
OPEN = (Status.LOBBY, Status.PLAYING)


class Match(Protocol):
    """What the views read of a match in memory (:class:`service.live.match.LiveMatch`):
    its row and rules, the engine state, and this round's notes, summary, closed table and
    each seat's recent draws (``recent``: ``drawn``, ``taken``, ``taken_from``, ``knock``,
    ``host_moved``), the forced lead, and each seat's outs and fish over the match."""

    row: MatchRow
    rules: Any
    state: Any
    notes: tuple[ActionNote, ...]
    recent: tuple[Any, ...]
    lead: str | None
    summary: RoundSummary | None
    closed: TableView | None
    outs: tuple[int, ...]
    fish: tuple[int, ...]

    @property
    def rules_json(self) -> dict[str, Any]: ...
    @property
    def status(self) -> Status: ...
    @property
    def version(self) -> int: ...
    @property
    def match_id(self) -> int: ...
    def players(self) -> tuple[PlayerRef, ...]: ...
    def side_of(self, seat: int) -> int: ...


def mark_tallies(rules: Any, state: Any) -> tuple[MarkTally, ...]:
    """What the variant counts beside points in ``state``, as it declares it
    (``engine.variant.Variant.marks``), with the value of each mark's limit option."""
    spec = rules.spec
    if not spec.marks:
        return ()
    counts = spec.mark_counts(state)
    return tuple(MarkTally(m.name, m.per, counts[m.name],
                           getattr(rules, m.limit) if m.limit else None)
                 for m in spec.marks)


def seat_marks(marks: Sequence[MarkTally], seat: int, side: int) -> tuple[MarkView, ...]:
    """The marks of one seat: its own count of each mark kept per seat, its side's of each
    kept per side."""
    return tuple(MarkView(m.name, m.counts[seat if m.per == "seat" else side], m.limit, m.per)
                 for m in marks)


def round_summary(live: Match, ev: Any, closed: Any, before: tuple[int, ...] = ()
                  ) -> RoundSummary:
    """The ``round_scored`` event ``ev`` as a :class:`RoundSummary` with the table it closed
    (``closed``: the engine state of that round) and each seat's own hand value (RULES.md
    §1.11–§1.14) and what the variant reports (RULES.md §2: points on the count, losers, the
    marks it counts, a general, the fast lead, the specials); ``before`` the sides' scores
    before the step that scored it (a side with points then and none now was reset, §2.1
    rule 8)."""
    extra = ev.extra or {}
    rules = live.rules
    playing = set(rules.spec.playing_seats(closed))
    lay = ev.layout if ev.layout is not None else closed.round.layout
    scores = tuple(ev.scores)
    reset = tuple(s for s, (was, now) in enumerate(zip(before, scores, strict=True))
                  if was > 0 and now == 0) if len(before) == len(scores) else ()
    specials = tuple((str(x["rule"]), int(x["seat"])) for x in extra.get("specials", ()))
    hidden = variant_infos()[rules.variant].hidden_hands  # Колбаса's queues (§2.12 rule 1)
    return RoundSummary(
        round_no=ev.round_no, end=ev.end, by=ev.by,
        hands=tuple(() if hidden else tuple(tile_code(t) for t in h) for h in ev.hands),
        hand_values=tuple(ev.hand_values), recorded=tuple(ev.recorded),
        scores=tuple(ev.scores), remembered=tuple(ev.remembered),
        pot_won=ev.pot_won, pot=ev.pot,
        play_points=tuple(ev.play_points) if any(ev.play_points) else (),
        losers=tuple(ev.losers), marks=mark_tallies(rules, closed),
        left=tuple(s for s in closed.round.seats if s not in playing),
        flags=tuple(FlagView(n, v) for n, v in rules.spec.end_flags(ev)),
        layout=layout_view(lay, closed.round.count, rules.set),
        seat_values=tuple(rules.spec.hand_value(mask, rules)
                          for mask in closed.round.hands),
        reset=reset, specials=specials, variant=rules.variant, rules=live.rules_json,
        deals=rules.spec.fixed_rounds(rules),
        queues=tuple(int(n) for n in extra.get("queue_lengths", ())),
    )


def lobby_view(live: Match) -> LobbyView:
    """The group's view of a lobby: who sits, the rules, how many players the game seats."""
    lo, hi = rules_players(live.rules)
    r = live.row
    return LobbyView(
        match_id=r.id, chat_id=r.chat_id, thread_id=r.thread_id, version=r.version,
        status=live.status, creator_id=r.creator_id, players=live.players(),
        rules=live.rules.to_json(), min_players=lo, max_players=hi,
        deadline_at=r.deadline_at, rematch_of=r.rematch_of,
    )


def _places(live: Match, rated: bool) -> dict[int, int]:
    """Each side's place at the match's end: by the rating gained, then by how close the
    side was to losing (``Variant.standing``); equal sides share a place."""
    result, scores = live.state.result, live.state.scores
    standing = live.rules.spec.standing(live.state)
    order = sorted(range(len(scores)), key=lambda side: (
        -(result.rating[side] if rated else 0), side in (result.goats if rated else ()),
        standing[side]))
    place, last = {}, None
    for k, side in enumerate(order):
        key = ((result.rating[side] if rated else 0), standing[side])
        place[side] = place[order[k - 1]] if key == last else k + 1
        last = key
    return place


def final_view(live: Match) -> MatchEnd | None:
    """The closing lines once the match closed, else None. Rated results come from the
    engine's ``MatchResult`` (RULES.md §1.15–§1.17, §2): the goats with the variant's
    title, the winners of a race, a draw; each player's place (by the rating gained,
    then by how close the side was to losing)."""
    r = live.row
    if r.status in OPEN or live.state is None:
        return None
    result = live.state.result
    scores = live.state.scores
    rated = r.status == Status.FINISHED and result is not None
    place = _places(live, rated)
    lines = []
    marks = mark_tallies(live.rules, live.state)
    for i, p in enumerate(live.players()):
        side = live.side_of(i)
        goat = rated and side in result.goats
        left = r.seats[i].get("left")
        lines.append(PlayerResult(
            seat=i, user_id=p.user_id, name=p.name, score=scores[side],
            goat=goat, rating=int(result.rating[side]) if rated else 0,
            outs=live.outs[i], fish=live.fish[i],
            timed_out=rated and result.timed_out == i, bot=p.bot, side=side,
            place=place[side], title=result.title if goat else None,
            left=str(left["name"]) if isinstance(left, Mapping) else None,
            left_round=int(left.get("round", 0)) or None
            if isinstance(left, Mapping) else None,
            marks=seat_marks(marks, i, side),
            remembered=int(live.state.remembered[side]),
        ))
    rounds = {"round_no": int(live.state.round_no),
              "deals": live.rules.spec.fixed_rounds(live.rules)}
    if rated:
        return MatchEnd(EndReason(result.reason), True, tuple(lines),
                        variant=live.rules.variant, title=result.title,
                        winners=tuple(result.winners), draw=bool(result.draw), **rounds)
    return MatchEnd(EndReason(r.end_reason or EndReason.STOPPED), False, tuple(lines),
                    variant=live.rules.variant, stopped_by=r.stopped_by, **rounds)


def table_view(live: Match, st: Any, notes: tuple[ActionNote, ...],
               summary: RoundSummary | None, *, version: int | None = None) -> TableView:
    """The group's table of the engine state ``st`` (never a hand: only how many tiles);
    with ``version`` the closed table of a round the match went on from (as it was then:
    playing, at that version)."""
    r = live.row
    rules = live.rules
    status = live.status if version is None else Status.PLAYING
    playing = status == Status.PLAYING and summary is None
    to_act = st.to_act if playing else None
    afk = st.afk
    scores, remembered = tuple(st.scores), tuple(st.remembered)
    rs = st.round
    lay = rs.layout
    # Колбаса: a queue's length, the tile turned over that waits being in none (§2.12)
    sizes = tuple(lay.queues) if lay.kind == "sausage" else st.hand_sizes()
    marks = mark_tallies(rules, st)
    in_play = set(rules.spec.playing_seats(st))
    seats = []
    for i, p in enumerate(live.players()):
        side = live.side_of(i)
        seats.append(SeatView(
            seat=i, user_id=p.user_id, name=p.name, tiles=sizes[i], side=side,
            score=scores[side], remembered=remembered[side], to_act=to_act == i,
            host_moves=int(afk[i]), bot=p.bot, marks=seat_marks(marks, i, side),
            left=i not in in_play,
        ))
    seats = tuple(seats)
    return TableView(
        match_id=r.id, chat_id=r.chat_id, thread_id=r.thread_id,
        version=r.version if version is None else version,
        status=status, round_no=st.round_no, teams=bool(rules.teams),
        chain=tuple(st.chain), ends=tuple(st.ends),
        drawable=st.drawable, reserve=st.reserve,
        seats=seats, scores=scores, remembered=remembered,
        pot=st.pot, to_act=to_act,
        to_act_user_id=seats[to_act].user_id if to_act is not None else None,
        deadline_at=r.deadline_at if to_act is not None else None,
        match_limit=rules.match_limit, notes=notes,
        final=final_view(live) if version is None else None,
        variant=rules.variant, layout=layout_view(lay, rs.count, rules.set),
        deals=rules.spec.fixed_rounds(rules),
        turn_seconds=int(rules.turn_timeout),
        flags=tuple(FlagView(n, v) for n, v in rules.spec.round_flags(rs)),
        summary=summary, rules=live.rules_json,
        creator_id=r.creator_id,
    )


def hand_views(live: Match) -> tuple[HandView, ...]:
    """Each seat's private view, in seat order: its tiles, and on its turn its legal moves
    (RULES.md §1.5–§1.8, §2.0.4), what it drew, took or knocked since its last decision, and
    whether the host moved for it (§1.17)."""
    st = live.state
    r = live.row
    to_act = st.to_act if r.status == Status.PLAYING else None
    legal = ()
    if to_act is not None:
        legal = tuple(option_of(m) for m in engine.legal_moves(st))
    lay = st.round.layout
    lead = live.lead if to_act is not None and lay.kind in ("line", "cross") \
        and not lay.line else None
    spec = live.rules.spec
    # Колбаса: nobody sees a queue, its owner included (§2.12 rule 1): only its length
    queues = tuple(lay.queues) if lay.kind == "sausage" else None
    again = to_act is not None and spec.turn_goes_on(st.round)  # §2.11 rules 7–8
    views = []
    for i, p in enumerate(live.players()):
        mine = to_act == i
        rec = live.recent[i]
        knocked = not rec.drawn and not mine and rec.knock is not None
        views.append(HandView(
            match_id=r.id, version=r.version, seat=i, user_id=p.user_id, name=p.name,
            tiles=() if queues is not None else tuple(map(tile_code, st.hands[i])),
            your_turn=mine,
            legal=legal if mine else (),
            drawn=rec.drawn or (rec.knock if knocked else ()),
            taken=rec.taken, taken_from=rec.taken_from,
            deadline_at=r.deadline_at if mine else None,
            knocked=knocked, host_moved=rec.host_moved,
            lead=lead if mine else None,
            queue=queues[i] if queues is not None else None,
            again=again and mine,
        ))
    return tuple(views)


def result_of(
    live: Match,
    *,
    ok: bool = True,
    error: ErrorCode | None = None,
    detail: str = "",
    events: Sequence[Any] = (),
    rounds: tuple[RoundSummary, ...] = (),
    handed: HandedSeat | None = None,
    frames: tuple[TableView, ...] = (),
    frame_seconds: float = 0.0,
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
        lobby=None if started else lobby_view(live),
        table=table_view(live, live.state, live.notes,
                         live.summary if live.state.round.end is not None else None)
        if started else None,
        hands=hand_views(live) if started else (),
        events=public_events(events) if events else (),
        rounds=rounds,
        final=final_view(live) if started else None,
        closed=live.closed if started else None,
        hold=hold_view,
        handed=handed,
        frames=frames,
        frame_seconds=frame_seconds if frames else 0.0,
    )
