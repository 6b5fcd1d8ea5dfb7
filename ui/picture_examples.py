"""Example tables for the picture: the README's pictures and the benchmark's cases.

Hand-built views (no engine): a classic round in the middle, the same kind of round closed with
its hands revealed, a cross with a spinner and four arms, a Маггинс cross with doubles across
on its vertical arms, and the benchmark's short chain and
chain of 27 tiles. Every chain is a legal chain of the double-six set (RULES.md §0: touching
halves match; each tile once).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from service.live.rulebook import variant_infos
from service.views import (
    ActionNote,
    EndView,
    FlagView,
    LaidTile,
    LayoutView,
    MarkView,
    RoundSummary,
    SeatView,
    Status,
    TableView,
)

__all__ = ["EXAMPLES", "CHAIN_27", "line_layout", "make_table", "cross_table", "closed_round",
           "middle_round", "muggins_table", "short_round", "long_round"]

#: A chain of 27 tiles (all but [0|0]), oriented left to right.
CHAIN_27: tuple[tuple[int, int], ...] = (
    (4, 1), (1, 3), (3, 3), (3, 5), (5, 5), (5, 1), (1, 1), (1, 6), (6, 3), (3, 2), (2, 5),
    (5, 6), (6, 6), (6, 2), (2, 1), (1, 0), (0, 3), (3, 4), (4, 5), (5, 0), (0, 6), (6, 4),
    (4, 2), (2, 2), (2, 0), (0, 4), (4, 4),
)


def line_layout(chain: Sequence[tuple[int, int]], *, lead: int | None = None,
                last: Sequence[int] = ()) -> LayoutView:
    """A line (RULES.md §2.0.1) with doubles across, as classic lays it; ``last`` the line
    indexes of the last move."""
    line = tuple(LaidTile(a, b, "across" if a == b else "") for a, b in chain)
    ends = (EndView("left", chain[0][0]), EndView("right", chain[-1][1])) if chain else ()
    return LayoutView("line", line, ends=ends, last=tuple(("line", i) for i in last),
                      lead=lead)


def make_table(names: Sequence[str], tiles: Sequence[int], layout: LayoutView, *,
               round_no: int = 1, to_act: int | None = 0, scores: Sequence[int] | None = None,
               remembered: Sequence[int] | None = None, teams: bool = False,
               drawable: int = 0, reserve: int = 0, pot: int = 0, variant: str = "classic",
               version: int = 1, match_id: int = 1, bots: Sequence[int] = (),
               marks: Mapping[str, Sequence[int]] | None = None, left: Sequence[int] = (),
               notes: Sequence[ActionNote] = (),
               deals: int | None = None,
               flags: Mapping[str, str] | None = None) -> TableView:
    """A :class:`TableView` of a running round from plain values: ``names`` and ``tiles``
    (hand sizes) per seat, scores per side (players, or two teams with ``teams``), ``marks``
    the counts of what the game counts beside points by the mark's name, per seat or per
    side as the game declares the mark (``VariantInfo.marks``; per seat if it declares
    none), ``flags`` what the game says of the round by the flag's name and value
    (``VariantInfo.flags``: ``{"fast": "six"}``)."""
    n = len(names)
    sides = 2 if teams else n
    info = variant_infos().get(variant)
    declared = {m.name: m for m in info.marks} if info is not None else {}

    def seat_marks(i: int) -> tuple[MarkView, ...]:
        out = []
        for name, counts in (marks or {}).items():
            per = declared[name].per if name in declared else "seat"
            k = i if per == "seat" else i % sides
            if k < len(counts):
                out.append(MarkView(name, counts[k], None, per))
        return tuple(out)

    scores = tuple(scores) if scores is not None else (0,) * sides
    remembered = tuple(remembered) if remembered is not None else (0,) * sides
    seats = tuple(
        SeatView(seat=i, user_id=100 + i if i not in bots else -1 - i, name=names[i],
                 tiles=tiles[i], side=i % sides, score=scores[i % sides],
                 remembered=remembered[i % sides], to_act=to_act == i, host_moves=0,
                 bot="normal" if i in bots else None,
                 marks=seat_marks(i), left=i in left)
        for i in range(n))
    ends = tuple(e.number for e in layout.ends if e.name in ("left", "right")
                 and e.number is not None)
    return TableView(
        match_id=match_id, chat_id=-100, thread_id=None, version=version,
        status=Status.PLAYING, round_no=round_no, teams=teams, chain=layout.chain, ends=ends,
        drawable=drawable, reserve=reserve, seats=seats, scores=scores, remembered=remembered,
        pot=pot, to_act=to_act, to_act_user_id=seats[to_act].user_id if to_act is not None
        else None, deadline_at=None, match_limit=101, notes=tuple(notes), final=None,
        variant=variant, layout=layout, deals=deals,
        flags=tuple(FlagView(k, v) for k, v in (flags or {}).items()))


def middle_round() -> TableView:
    """Classic, three players, round 4: a chain of 14 tiles snaking out of its lead, the bazar,
    the pot, remembered points, the last move on the right end."""
    chain = CHAIN_27[3:17]
    return make_table(["Оля", "Петя Іваненко", "Маша 🐐"], [3, 5, 4],
                      line_layout(chain, lead=4, last=[13]), round_no=4, to_act=1,
                      scores=[23, 0, 41], remembered=[0, 9, 4], drawable=2, pot=12)


def closed_round() -> tuple[TableView, RoundSummary]:
    """Classic, four players in teams, round 2 closed by Петя going out: every hand revealed,
    the points recorded, the scores after the round."""
    chain = CHAIN_27[5:26]
    layout = line_layout(chain, lead=9, last=[20])
    table = make_table(["Оля", "Петя", "Маша", "Сергій"], [2, 0, 3, 2], layout, round_no=2,
                       to_act=None, teams=True, scores=[31, 0], remembered=[0, 7])
    # Петя's team went out: it records 0 and forgets its +7; the other team records both of
    # its hands, 3 + 20 (RULES.md §1.12, §1.14; [0|0] beside other tiles counts 0, §1.11).
    summary = RoundSummary(
        round_no=2, end="out", by=1, hands=(("0-0", "1-2"), (), ("0-1", "3-6", "4-6"),
                                            ("0-2", "5-6")),
        hand_values=(23, 13), recorded=(23, 0), scores=(54, 0), remembered=(0, 0),
        pot_won=0, pot=0, layout=layout)
    return table, summary


def cross_table(*, long_arms: bool = True) -> TableView:
    """Телефон, two teams: the spinner [5|5] in the line, four arms (the up arm turning when
    ``long_arms``), the count and the points of the last move (RULES.md §2.0.6, §2.4)."""
    def laid(pairs: Sequence[tuple[int, int]]) -> tuple[LaidTile, ...]:
        return tuple(LaidTile(a, b, "across" if a == b else "") for a, b in pairs)

    line = laid([(2, 1), (1, 6), (6, 4), (4, 3), (3, 5), (5, 5), (5, 0), (0, 0), (0, 2)])
    up = laid([(5, 6), (6, 6), (6, 2), (2, 4), (4, 4), (4, 1), (1, 1), (1, 3)] if long_arms
              else [(5, 6), (6, 6)])
    down = laid([(5, 2), (2, 2), (2, 3)])
    layout = LayoutView(
        "cross", line, spinner=5, up=up, down=down,
        ends=(EndView("left", 2, counts=2), EndView("right", 2, counts=2),
              EndView("up", 3 if long_arms else 6, counts=3 if long_arms else 12),
              EndView("down", 3, counts=3)),
        count=10 if long_arms else 19, last=(("up", len(up) - 1),))
    notes = (ActionNote("played", 3, 3, tile="1-3", end="up", points=10, total=10),)
    return make_table(["Анна", "Богдан", "Віра", "Гліб"], [2, 3, 3, 3], layout, round_no=3,
                      to_act=0, teams=True, scores=[85, 120], drawable=4, variant="telephone",
                      notes=notes)


def muggins_table() -> TableView:
    """Маггинс, three players: the spinner [3|3] with four arms, doubles across on the
    vertical arms and at the left end ([1|1] there counts 2), a double laid along on the
    right arm (it counts once), and the end marks adding up to the count (RULES.md §2.0.6,
    §2.5 rule 3)."""
    line = (LaidTile(1, 1, "across"), LaidTile(1, 2), LaidTile(2, 3),
            LaidTile(3, 3, "across"), LaidTile(3, 6), LaidTile(6, 6, "along"), LaidTile(6, 4))
    up = (LaidTile(3, 0), LaidTile(0, 0, "across"), LaidTile(0, 4))
    down = (LaidTile(3, 4), LaidTile(4, 4, "across"), LaidTile(4, 5))
    layout = LayoutView(
        "cross", line, spinner=3, up=up, down=down,
        ends=(EndView("left", 1, counts=2), EndView("right", 4, counts=4),
              EndView("up", 4, counts=4), EndView("down", 5, counts=5)),
        count=15, last=(("up", 2),))
    notes = (ActionNote("played", 2, 3, tile="0-4", end="up", points=15, total=15),)
    return make_table(["Даша", "Егор", "Зоя"], [2, 3, 1], layout, round_no=2, to_act=0,
                      scores=[60, 45, 95], drawable=5, variant="muggins", notes=notes)


def short_round() -> TableView:
    """Classic, two players, round 1 after five tiles (the benchmark's short chain)."""
    return make_table(["Оля", "Петя"], [4, 5], line_layout(CHAIN_27[4:9], lead=2, last=[4]),
                      to_act=0, drawable=10)


def long_round() -> TableView:
    """Classic, two players, a chain of 27 tiles (the benchmark's long chain)."""
    return make_table(["Оля", "Петя"], [1, 0], line_layout(CHAIN_27, lead=13, last=[26]),
                      to_act=0, drawable=0, scores=[64, 88])


#: The README's pictures: name → (table, summary or None).
EXAMPLES: dict[str, tuple[Callable[[], TableView], Callable[[], RoundSummary] | None]] = {
    "classic-round": (middle_round, None),
    "closed-round": (lambda: closed_round()[0], lambda: closed_round()[1]),
    "cross": (cross_table, None),
    "muggins": (muggins_table, None),
}
