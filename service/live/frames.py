"""Колбаса's turns without a choice, one table at a time (RULES.md §2.12 rule 6; issue 32).

The engine plays every turn whose tile has at most one placement inside the decision that
leads to it (``engine.apply``: a waiting state always has two placements or more), so one
press may carry a dozen placements, a cut or two and the tiles sent back.  So that a table
sees them at a readable pace, :func:`frames` rebuilds the group's table after each
placement of a step (the person's choice and every forced placement after it, in the round
the match is now in): a :class:`~service.views.TableView` per placement, the newest last,
with the notes of the round up to it and the seat whose tile it was to play.  The delivery
room shows them one after the other, a computer player's pause apart (``bot_move_delay``),
before the table as it now is; the service gives the next turn that much more time, so
nobody's clock runs while they watch.

Nothing here changes a match: the frames are views, built from the engine's events and the
table before the step (``engine.sausage.Sausage``, laid again placement by placement), and
nothing in them is hidden information — the tiles were turned over in everybody's sight;
the queues are lengths.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.moves import Placement, target_code
from engine.sausage import Sausage
from engine.tiles import TILE_ID
from service.live.match import LiveMatch, Recent, _note_after
from service.live.viewing import table_view
from service.views import ActionNote, TableView

__all__ = ["MAX_FRAMES", "frames"]

#: At most this many tables of one step (its last placements): a step that places more
#: shows their words in the log, its last tables one by one.
MAX_FRAMES = 6


def _placed(lay: Sausage, ev: Any) -> None:
    """Lay the placement of a ``led``/``played`` event again on ``lay``."""
    tid = TILE_ID[ev.tile]
    if ev.kind == "led":
        lay.lead(tid)
        return
    lay.turned = -1
    lay.place(tid, target_code(Placement(ev.tile, line=ev.line, at=ev.at, cut=ev.cut)))


def frames(before: LiveMatch, after: LiveMatch, events: Sequence[Any]) -> tuple[TableView, ...]:
    """The group's tables after each placement of ``events`` (a step taken from ``before``
    into ``after``) on the sausage, but the last (the table as it now is shows that one):
    at most :data:`MAX_FRAMES`, the latest.  () where the match is not on a sausage, the
    step placed one tile, or it ended a round (the closed table tells that)."""
    st = after.state
    if st is None or st.round.layout.kind != "sausage" or st.round.end is not None:
        return ()
    start = max((i + 1 for i, ev in enumerate(events) if ev.kind == "dealt"), default=0)
    if start:  # a new round: from its empty table and full queues
        lay = Sausage(st.players)
        lay.queues = [st.rules.spec.deal_size(st.rules, st.players)] * st.players
        notes: list[ActionNote] = []
        round_events = events[start - 1:]
    elif before.state is not None and before.state.round.layout.kind == "sausage":
        lay = before.state.round.layout.to_layout()
        notes = list(before.notes)
        round_events = events
    else:
        return ()
    recent = [Recent()] * st.players
    shown: list[TableView] = []
    forced = 0
    for k, ev in enumerate(round_events):
        kind = ev.kind
        if kind in ("led", "played"):
            if kind == "led" or ev.forced:
                lay.queues[ev.seat] -= 1  # turned over from its queue
            _placed(lay, ev)
        elif kind == "cut":
            lay.queues[ev.to] += len(ev.tiles)
        forced = _note_after(notes, recent, ev, st.round_no, forced)
        nxt = round_events[k + 1] if k + 1 < len(round_events) else None
        if kind in ("led", "played", "cut") and nxt is not None and nxt.kind != "cut":
            shown.append(_frame(after, lay, getattr(ev, "seat", None), notes, len(shown)))
    return tuple(shown[:-1][-MAX_FRAMES:]) if len(shown) > 1 else ()


def _frame(live: LiveMatch, lay: Sausage, seat: int | None, notes: list[ActionNote],
           index: int) -> TableView:
    """The group's table of ``live`` with the sausage ``lay`` and the round's ``notes`` so
    far, ``seat`` having just played."""
    st = live.state
    rs = st.round._replace(layout=lay.state(), to_act=-1)  # (the log says who played)
    view = table_view(live, st._replace(round=rs), tuple(notes), None)
    return replace(view, frame=index + 1, deadline_at=None)
