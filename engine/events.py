"""Events: what happened, in order, as the result of one engine call.

Every event is an immutable named tuple with a class attribute ``kind`` and :func:`to_dict`.
Seats are 0-based.  Only :class:`Drew` carries private information: its ``tile`` may be shown
to ``seat`` alone (RULES.md §1.8); everyone else learns only that a tile was drawn.

Every event also says, in one place, what it adds to the public log of a table: its
``note()``, a :class:`Note` (its kind and the arguments of its text, ``log-<kind>`` in the
locales), or None for an event the log shows otherwise (a move, a draw, the count, the end
of the round or the match).  A variant's own events are defined in its module the same way
(Семёрка's, :mod:`engine.variants.seven`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .tiles import Tile

__all__ = [
    "Event",
    "Dealt",
    "Misdeal",
    "Led",
    "Played",
    "HostMoved",
    "Drew",
    "Knocked",
    "WentOut",
    "Fish",
    "RoundScored",
    "MatchEnded",
    "Scored",
    "Took",
    "Void",
    "Passed",
    "Special",
    "Note",
    "to_dict",
]


class Note(NamedTuple):
    """What an event adds to the public log of a table: ``kind`` (its text is ``log-<kind>``,
    ``_`` written ``-``), ``seat`` (the player the text names first), ``args`` the numbers and
    words of the text as ``(name, value)`` pairs, ``names`` the other seats it names as
    ``(name, seat)`` pairs, ``draws`` the ``drew`` events of ``seat`` right after it that
    belong to it (a draw the rules force, not a stuck draw, RULES.md §1.8).  Never a tile that
    is private."""

    kind: str
    seat: int
    args: tuple[tuple[str, Any], ...] = ()
    names: tuple[tuple[str, int], ...] = ()
    draws: int = 0


def seat_note(event: Any) -> Note:
    """The :class:`Note` of an event that names its seat and nothing else."""
    return Note(event.kind, event.seat)


def no_note(event: Any) -> None:
    """The ``note()`` of an event that the log shows otherwise (None)."""
    return None


class Dealt(NamedTuple):
    """A round was dealt (RULES.md §1.2); ``leader`` leads it (§1.5, §1.6).

    ``lead_tile`` is the tile the leader must lead in the first round (§1.5), else None.
    ``drawable`` and ``reserve`` count the bazar's tiles (§1.4).
    """

    round_no: int
    leader: int
    lead_tile: Tile | None
    drawable: int
    reserve: int
    kind = "dealt"

    def note(self) -> Note:
        """A new round: its leader (RULES.md §1.5, §1.6)."""
        return Note(self.kind, self.leader)


class Misdeal(NamedTuple):
    """A deal was void and is dealt again (RULES.md §1.3).

    ``reason`` is ``"doubles"`` (``count`` doubles in one hand) or ``"suit"`` (``count`` tiles
    showing ``number``).
    """

    round_no: int
    seat: int
    reason: str
    count: int
    number: int | None
    kind = "misdeal"

    def note(self) -> Note:
        """The voided deal and why (RULES.md §1.3)."""
        return Note(self.kind, self.seat, (("reason", self.reason),))


class Led(NamedTuple):
    """``seat`` placed the first tile of the round (RULES.md §1.5, §1.6).

    ``flip``: the lead lies high half left (RULES.md §0: ``"6-5"``).  The extraordinary lead
    (RULES.md §2.1 rule 7) is a ``led`` of [0|0] (end ``left``) and a ``played`` of [6|6]
    (end ``right``, ``part`` 1).  ``forced``: the rules placed it without a decision (the
    head of Колбаса, RULES.md §2.12 rules 2 and 6).
    """

    seat: int
    tile: Tile
    flip: bool = False
    forced: bool = False
    kind = "led"
    optional = frozenset({"forced"})
    note = no_note


class Played(NamedTuple):
    """``seat`` placed ``tile`` at ``end`` (``"left"``, ``"right"``, ``"up"``, ``"down"`` or
    ``"gap"``) (RULES.md §1.7, §2.0.2, §2.1 rule 7); ``closed`` face down (§2.0.3), ``along``
    (§2.5 rule 3).  ``part`` is the placement's index within its move: a move of several tiles
    (§2.0.4) is one ``played`` event per tile, the later ones with ``part`` 1, 2, …

    On the trains and the sausage (RULES.md §2.10.0) ``end`` is None and the target is
    ``train`` (a seat, or ``"mexican"``, §2.11), ``line`` with ``at`` (the position where a
    double went, None at the end, §2.12 rule 5 a–b) or ``cut`` (the position, rule 5 c), as
    in :class:`engine.moves.Placement`.  ``forced``: the rules placed it without a decision
    (a Колбаса turn with one placement, §2.12 rule 6)."""

    seat: int
    tile: Tile
    end: str | None
    closed: bool = False
    along: bool = False
    part: int = 0
    train: int | str | None = None
    line: str | None = None
    at: int | None = None
    cut: int | None = None
    forced: bool = False
    kind = "played"
    optional = frozenset({"train", "line", "at", "cut", "forced"})
    note = no_note


class Scored(NamedTuple):
    """The move of ``seat`` made the count ``count`` (RULES.md §2.0.6), a positive multiple of
    5: its side ``side`` scores ``points`` (Телефон §2.4 rule 2, Маггинс §2.5 rule 4)."""

    seat: int
    side: int
    points: int
    count: int
    kind = "scored"
    note = no_note


class Took(NamedTuple):
    """``tiles`` went blindly from the hand of ``maker`` to ``seat`` (Семёрка, RULES.md §2.8
    rule 5; a record writes ``{"take": [...]}``).  The tiles are private to the two seats."""

    seat: int
    maker: int
    tiles: tuple[Tile, ...]
    kind = "took"
    note = no_note


class Passed(NamedTuple):
    """``seat`` drew one tile that does not fit and the turn passes (Семёрка, RULES.md §2.8
    rule 6)."""

    seat: int
    kind = "passed"
    note = seat_note


class Special(NamedTuple):
    """A variant's special rule fired for ``seat``; ``rule`` names it (e.g. ЧЧВ's ``"out_0-0"``,
    RULES.md §2.3 rule 4; the donkey's ``"double_closure"``, §2.2 rule 3).  The variant's
    module doc lists its rule names; ``simulate`` counts the events by ``rule``."""

    seat: int
    rule: str
    kind = "special"

    def note(self) -> Note:
        """The special rule by its name (``rule``)."""
        return Note(self.kind, self.seat, (("rule", self.rule),))


class Void(NamedTuple):
    """The round is void and dealt again (RULES.md §2.1 rule 6, §2.9 rule 2): ``seat`` made
    the last move; ``cause`` as in :class:`Fish`."""

    seat: int
    cause: str
    kind = "void"
    note = seat_note


class HostMoved(NamedTuple):
    """The turn timed out and the host moved for ``seat`` (RULES.md §1.17).

    ``in_a_row`` counts this seat's consecutive host moves.
    """

    seat: int
    in_a_row: int
    kind = "host_moved"
    note = seat_note


class Drew(NamedTuple):
    """``seat`` drew ``tile`` from the bazar (RULES.md §1.8).  The tile is private to ``seat``."""

    seat: int
    tile: Tile
    kind = "drew"
    note = no_note


class Knocked(NamedTuple):
    """``seat`` could neither play nor draw and knocked (RULES.md §1.8)."""

    seat: int
    kind = "knocked"
    note = seat_note


class WentOut(NamedTuple):
    """``seat`` placed their last tile (RULES.md §1.9)."""

    seat: int
    kind = "went_out"
    note = seat_note


class Fish(NamedTuple):
    """The round is blocked (RULES.md §1.10); ``seat`` is the fisher.

    ``cause`` is ``"blocked"`` for §1.10 (a) and ``"no_double"`` for §1.10 (b).
    """

    seat: int
    cause: str
    kind = "fish"
    note = seat_note


class RoundScored(NamedTuple):
    """A round was recorded (RULES.md §1.11–§1.14).

    ``end`` is ``"out"`` or ``"fish"`` (or, in the variants of RULES.md §2, ``"void"``: dealt
    again, and ``"limit"``: a race won mid-round, §2.0.7), ``by`` the seat that went out,
    fished or made the last move.  ``hands`` reveals every hand at the round's end (tuple
    per seat).  ``hand_values``, ``recorded``, ``scores`` and ``remembered`` are tuples per
    player, or per team when ``rules.teams`` (§1.14); ``recorded`` are the round points
    written this round, pot included; ``pot_won`` the pot paid out and ``pot`` the pot after
    the round [points].

    Variant fields: ``play_points`` per side scored on the count during the round (§2.0.6);
    ``losers`` the sides that lost it (the recorder of Морской козёл, Семёрка's stick
    holders, Генерал's losing team); ``extra`` a dict of what else the variant reports
    (``docs/ENGINE_API.md``); ``layout`` the table at the round's end
    (:class:`engine.layout.LayoutState`).
    """

    round_no: int
    end: str
    by: int
    hands: tuple[tuple[Tile, ...], ...]
    hand_values: tuple[int, ...]
    recorded: tuple[int, ...]
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot_won: int
    pot: int
    play_points: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    extra: Any = None
    layout: Any = None
    kind = "round_scored"
    note = no_note


class MatchEnded(NamedTuple):
    """The match is over (RULES.md §1.15, §1.16, §1.17).

    ``reason`` is ``"limit"`` (the match reached its end by the rules: a goat, a race's
    winner, the last deal, …) or ``"timeout"``.  ``goats`` lists goat players (or teams, with
    ``rules.teams``); ``rating`` the rating points each player (team) gains; ``timed_out`` the
    seat interrupted by timeout, else None.  ``title`` names a goat's title where the variant
    gives one (RULES.md §2.1 rules 7–9, §2.9); ``winners`` the winning sides where the variant
    has them (races §2.0.7, the last player of Семёрка §2.8).
    """

    reason: str
    goats: tuple[int, ...]
    rating: tuple[int, ...]
    timed_out: int | None
    scores: tuple[int, ...]
    title: str | None = None
    winners: tuple[int, ...] = ()
    kind = "match_ended"
    note = no_note


Event = (
    Dealt | Misdeal | Led | Played | HostMoved | Drew | Knocked | WentOut | Fish | RoundScored
    | MatchEnded | Scored | Took | Void | Passed | Special
)


def _plain(value: Any) -> Any:
    if isinstance(value, Tile):
        return value.code()
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def to_dict(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict with its ``kind``; tiles are written ``"a-b"``.  The
    fields an event lists as ``optional`` (the targets of the trains and the sausage, §2.10.0)
    are left out while they hold their default (None, False)."""
    d = {"kind": event.kind}
    optional = getattr(event, "optional", ())
    for k, v in zip(event._fields, event, strict=True):
        if k in optional and (v is None or v is False):
            continue
        d[k] = _plain(v)
    return d
