"""Plain result and view types returned by :class:`service.game.GameService`.

Everything here is a frozen dataclass or a string enum, built from ints, strings, tuples and
dicts only — no engine objects, no aiogram — so handlers, the UI and tests read the same thing.

Tile notation (RULES.md §0): a tile in a hand, a legal move, a drawn tile or an action is the
*code* ``"a-b"`` with ``a <= b`` (the form of callback data and of the action log); the chain is
a tuple of oriented ``(a, b)`` pairs, left to right, so that touching halves match.

Audiences: :class:`TableView` and :class:`LobbyView` may be shown to the whole group; a
:class:`HandView` belongs to one seat only. The table never contains a hand (RULES.md §1.8:
even drawn tiles are private; the table shows only how many were drawn).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """Life cycle of a match row: ``lobby`` → ``playing`` → ``finished`` (limit or timeout,
    rated), or ``stopped`` (stopped by its creator / an admin, or the bot was removed; not
    rated), or ``lobby`` → ``expired`` (nobody started it in time) / ``stopped``."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    STOPPED = "stopped"
    EXPIRED = "expired"


class ErrorCode(StrEnum):
    """Why an operation changed nothing. Every error result leaves the database as it was."""

    NOT_FOUND = "not_found"              # no such match / no open match in this chat topic
    ALREADY_OPEN = "already_open"        # the chat topic already has an open lobby or match
    WRONG_STATUS = "wrong_status"        # e.g. join a running match, act in a lobby
    ALREADY_JOINED = "already_joined"
    LOBBY_FULL = "lobby_full"            # 4 seats taken (RULES.md §1.1)
    NOT_ENOUGH_PLAYERS = "not_enough_players"  # 2..4, exactly 4 for teams (§1.1, §1.14)
    NOT_CREATOR = "not_creator"          # only the creator (or an admin) may start / stop
    NOT_IN_GAME = "not_in_game"          # the user holds no seat in this match
    NOT_YOUR_TURN = "not_your_turn"      # RULES.md §1.1
    STALE = "stale"                      # the version pressed is not the current one
    BAD_MOVE = "bad_move"                # malformed tile/end, or not a legal move (§1.5-§1.7)
    BAD_RULES = "bad_rules"              # rule options out of range (RULES.md §1)
    CHAT_INACTIVE = "chat_inactive"      # the bot was removed from the chat
    BAD_STRENGTH = "bad_strength"        # a computer player's strength not easy/normal/hard
    TOO_MANY_PLAYERS = "too_many_players"  # more seats than the chosen variant seats (§2)


class EndReason(StrEnum):
    """How a closed match ended (``matches.end_reason``)."""

    LIMIT = "limit"              # a goat reached the match limit (RULES.md §1.15); rated
    TIMEOUT = "timeout"          # afk_limit host moves in a row (RULES.md §1.17); rated (§1.16)
    STOPPED = "stopped"          # stopped by the creator or an admin; not rated
    BOT_REMOVED = "bot_removed"  # the bot left / was removed from the chat; not rated
    EXPIRED = "expired"          # a lobby that was never started


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A seat holder: Telegram user id and the display name captured when they joined.
    ``bot``: the strength (``easy``/``normal``/``hard``) of a computer player, whose
    ``user_id`` is negative; None for a human (issue 6)."""

    user_id: int
    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class LobbyView:
    """A lobby (status ``lobby``), or a lobby that just closed (``expired`` / ``stopped``).

    ``players`` in seat order (seat 0 first, RULES.md §1.1); ``rules`` the options the match
    will be played with (``engine.Rules.to_json()``); ``deadline_at`` when it expires (Unix
    seconds) or None; ``min_players``/``max_players`` what start needs (4/4 with teams).
    """

    match_id: int
    chat_id: int
    thread_id: int | None
    version: int
    status: Status
    creator_id: int
    players: tuple[PlayerRef, ...]
    rules: dict[str, Any]
    min_players: int
    max_players: int
    deadline_at: float | None
    rematch_of: int | None


@dataclass(frozen=True, slots=True)
class LaidTile:
    """A tile on the table, oriented (RULES.md §0, §2.0.2): on the line ``a`` is its left half
    and ``b`` its right half; on an ``up``/``down`` arm ``a`` touches the spinner side and ``b``
    faces outward.  ``lay``: ``""`` for a non-double or a double in line with the chain,
    ``"across"`` for a double laid across (classic doubles, the spinner, Телефон's doubles,
    Маггинс's across doubles), ``"along"`` (Маггинс, RULES.md §2.5 rule 3) or ``"closed"`` (a
    double face down, RULES.md §2.0.3)."""

    a: int
    b: int
    lay: str = ""

    @property
    def pair(self) -> tuple[int, int]:
        """``(a, b)``."""
        return (self.a, self.b)

    @property
    def is_double(self) -> bool:
        return self.a == self.b


@dataclass(frozen=True, slots=True)
class EndView:
    """One end of the layout (RULES.md §2.0.1–§2.0.3): ``name`` is ``left``, ``right``, ``up``,
    ``down`` or ``gap`` (the extraordinary lead's gap, RULES.md §2.1 rule 7); ``number`` the
    number it shows (None for a closed end or the gap, which only [0|6] fits); ``closed`` True
    once a closed double shut it; ``counts`` in the games with a count (RULES.md §2.0.6,
    ``LayoutView.count`` set) what the end adds to it [pips] — twice its number under a
    double across, the spinner's two halves at the end of a spinner with an empty side —
    or None where it adds nothing now (an empty arm; the other side of such a spinner):
    the ends' values add up to the count (engine ``Layout.end_counts``)."""

    name: str
    number: int | None
    closed: bool = False
    counts: int | None = None


@dataclass(frozen=True, slots=True)
class TrainView:
    """One train of Мексиканский поезд (RULES.md §2.11 rules 4–7): ``owner`` the seat whose
    personal train it is, None for the Mexican train; ``tiles`` outward from the engine
    (``a`` touching what precedes it: the first tile's ``a`` is the engine number); ``end``
    the number its open end shows (the engine number while it is empty); ``public`` its
    owner's marker is on it (anyone may play there, rule 5; the Mexican train is always
    public and carries no marker: False); ``open`` the place of its last tile among the open
    doubles (0 the oldest, the one everybody must satisfy first, rule 7), None when its
    last tile is no open double."""

    owner: int | None
    tiles: tuple[LaidTile, ...] = ()
    end: int = 0
    public: bool = False
    open: int | None = None

    @property
    def mexican(self) -> bool:
        """Whether it is the Mexican train."""
        return self.owner is None

    @property
    def key(self) -> int | str:
        """The train as a move names it: its owner's seat, or ``"mexican"``."""
        return "mexican" if self.owner is None else self.owner


@dataclass(frozen=True, slots=True)
class SausageView:
    """The sausage of Колбаса (RULES.md §2.12): ``head`` the head's halves ``(x, y)``, ``x``
    starting line ``a`` and ``y`` line ``b`` (None before the lead); ``a`` and ``b`` each
    line's tiles outward from the head as ``(inner, outer)``; ``turned`` the tile turned over
    that waits for its player's choice (rule 6), None while none waits; ``queues`` each
    seat's queue length — nobody, its owner included, is shown a queue's tiles (rule 1)."""

    head: tuple[int, int] | None
    a: tuple[LaidTile, ...] = ()
    b: tuple[LaidTile, ...] = ()
    turned: tuple[int, int] | None = None
    queues: tuple[int, ...] = ()

    def line(self, name: str) -> tuple[LaidTile, ...]:
        """The tiles of line ``"a"`` or ``"b"``."""
        return self.a if name == "a" else self.b

    def numbers(self, name: str) -> tuple[int, ...]:
        """The numbers of line ``name`` at positions 0 (the head's half), 1, …, its length
        (rule 3); () before the lead."""
        if self.head is None:
            return ()
        start = self.head[0 if name == "a" else 1]
        return (start,) + tuple(t.b for t in self.line(name))

    @property
    def ends(self) -> tuple[int, int] | tuple[()]:
        """The numbers at the ends of lines ``a`` and ``b``; () before the lead."""
        if self.head is None:
            return ()
        return (self.numbers("a")[-1], self.numbers("b")[-1])

    @property
    def tiles(self) -> int:
        """How many tiles lie on the table."""
        return (self.head is not None) + len(self.a) + len(self.b)


@dataclass(frozen=True, slots=True)
class LayoutView:
    """The tiles on the table, for every layout (RULES.md §2.0).

    - ``kind``: ``"line"`` or ``"cross"`` (RULES.md §2.0.1–§2.0.2), ``"trains"``
      (§2.11: ``engine`` and ``trains``) or ``"sausage"`` (§2.12: ``sausage``); a renderer
      draws the view its kind declares.
    - ``line``: the line left to right (the spinner included, when there is one).
    - ``spinner``: index of the spinner in ``line``, None while there is none (RULES.md §2.0.2).
    - ``up``/``down``: the arms above and below the spinner, outward from it.
    - ``gap``: the index in ``line`` before which the extraordinary lead's gap lies, None
      otherwise (RULES.md §2.1 rule 7).
    - ``ends``: every open or closed end in the order left, right, up, down, gap; empty before
      the lead.
    - ``count``: the count after the last move in the fives games (RULES.md §2.0.6), else None.
    - ``last``: positions of the last move's tiles, as ``(arm, index)`` with arm ``line``,
      ``up`` or ``down`` (to highlight it).
    - ``lead``: the index in ``line`` of the round's lead (its first tile, RULES.md §1.5–§1.6),
      None when not known. The picture grows a line too long for one row out of its lead, so
      that a move adds a tile at an end and moves none of the others (``ui.picture_layout``).
      On the trains an arm is ``"t<seat>"`` or ``"mexican"``, on the sausage ``"a"``, ``"b"``
      or ``"head"``.
    - ``engine``: on the trains, the number of the engine double in the middle (§2.11 rule
      1); ``trains``: every seat's personal train in seat order, then the Mexican train
      (:class:`TrainView`).
    - ``sausage``: on the sausage, its head, lines, turned tile and queue lengths
      (:class:`SausageView`).
    - ``top``: the highest number of the set (6, 9 or 12, §2.10): pictures write the halves
      above 9 as numerals.
    """

    kind: str = "line"
    line: tuple[LaidTile, ...] = ()
    spinner: int | None = None
    up: tuple[LaidTile, ...] = ()
    down: tuple[LaidTile, ...] = ()
    gap: int | None = None
    ends: tuple[EndView, ...] = ()
    count: int | None = None
    last: tuple[tuple[str, int], ...] = ()
    lead: int | None = None
    engine: int | None = None
    trains: tuple[TrainView, ...] = ()
    sausage: SausageView | None = None
    top: int = 6

    @property
    def chain(self) -> tuple[tuple[int, int], ...]:
        """The line as oriented ``(a, b)`` pairs, left to right (RULES.md §0)."""
        return tuple((t.a, t.b) for t in self.line)

    @property
    def open_ends(self) -> tuple[EndView, ...]:
        """The ends a tile may still be placed on."""
        return tuple(e for e in self.ends if not e.closed)

    @property
    def tiles(self) -> int:
        """How many tiles lie on the table (the engine double of the trains included)."""
        n = len(self.line) + len(self.up) + len(self.down)
        if self.engine is not None:
            n += 1 + sum(len(t.tiles) for t in self.trains)
        if self.sausage is not None:
            n += self.sausage.tiles
        return n

    @property
    def started(self) -> bool:
        """Whether the round's table holds a tile (the lead, the engine, the head): a new
        round's table is shown from then on."""
        return self.tiles > 0

    def train(self, key: int | str) -> TrainView | None:
        """The train of seat ``key``, or the Mexican train (``"mexican"``); None without."""
        for t in self.trains:
            if t.key == key:
                return t
        return None

    @property
    def open_trains(self) -> tuple[TrainView, ...]:
        """The trains whose last tile is an open double, the oldest first (§2.11 rule 7)."""
        return tuple(sorted((t for t in self.trains if t.open is not None),
                            key=lambda t: t.open))


@dataclass(frozen=True, slots=True)
class MarkView:
    """A count that a game keeps beside points, as its variant declares it (RULES.md §2;
    :class:`MarkInfo`): ``name`` (the mark's name: its texts are the locale's ``mark-…``
    keys), ``count`` the count of a seat or of its side, ``limit`` the count that ends it
    (the value of its limit option), None without one; ``per`` ``"seat"`` or ``"side"``."""

    name: str
    count: int
    limit: int | None = None
    per: str = "seat"


@dataclass(frozen=True, slots=True)
class MarkTally:
    """A mark's counts after a round (:class:`MarkView` for every seat or side): ``name``,
    ``per`` ``"seat"`` or ``"side"``, ``counts`` per seat or per side, ``limit``."""

    name: str
    per: str
    counts: tuple[int, ...]
    limit: int | None = None


@dataclass(frozen=True, slots=True)
class MarkMean:
    """A mark a game counts beside points (:class:`MarkView`), averaged over a person's
    matches on a board (/stats, /top): ``name``, ``mean`` its count per match, ``matches``
    the matches it was known for (RULES.md §2.8–§2.9: палки, проигрыши)."""

    name: str
    mean: float
    matches: int


@dataclass(frozen=True, slots=True)
class FlagView:
    """Something a game says of a round beside its marks, as its variant declares it
    (RULES.md §2; :class:`FlagInfo`): ``name`` (its texts are the locale's ``flag-<name>``
    and ``pic-flag-<name>`` keys) and ``value``, a short word those texts may select on
    (the sea goat's fast lead: ``six``, ``zero`` or ``extra``, §2.1 rules 6–7; ``on`` where
    there is nothing to select)."""

    name: str
    value: str = "on"


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the group sees it: never the tiles, only how many (RULES.md §1.8).

    ``side`` is the scoring side (the seat, or the team 0/1 with ``teams``, RULES.md §1.14);
    ``score``/``remembered`` are that side's open score and remembered points (§1.12);
    ``host_moves`` the seat's consecutive host moves so far (§1.17); ``bot`` the strength of a
    computer player (negative ``user_id``), None for a human.

    Variant fields (RULES.md §2; defaults for classic): ``marks`` what the game counts beside
    points for this seat (its own marks and its side's, :class:`MarkView`); ``left`` True once
    the seat left the match (it is dealt no more, RULES.md §2.8 rule 8).
    """

    seat: int
    user_id: int
    name: str
    tiles: int
    side: int
    score: int
    remembered: int
    to_act: bool
    host_moves: int
    bot: str | None = None
    marks: tuple[MarkView, ...] = ()
    left: bool = False


@dataclass(frozen=True, slots=True)
class ActionNote:
    """A line of the table's recent history, oldest first.

    ``kind``: ``led`` / ``played`` (``tile``, ``end``), ``drew`` (``count`` tiles, never
    which), and every other kind an engine event's own note (``engine.events.Note``: its
    ``kind``, e.g. ``knocked``, ``host_moved`` (RULES.md §1.17), ``went_out`` (§1.9),
    ``fish`` (§1.10), ``dealt`` (a new round; seat = leader), ``misdeal`` (§1.3), a
    variant's own kinds), written ``log-<kind>`` in the locales with ``args`` (``(name,
    value)`` pairs: numbers and words) and ``names`` (``(name, seat)`` pairs: the other seats
    the line names).

    A move of several tiles (RULES.md §2.0.4) is one ``played`` note whose ``tiles`` lists
    every placement after the first (``(tile, end, closed, along)``); ``closed``/``along``
    describe the first; ``points`` the points the move scored on the count (§2.0.6) and
    ``total`` the count.

    On the trains and the sausage a placement names its target instead of an ``end``
    (RULES.md §2.10.0): ``train`` (a seat or ``"mexican"``, §2.11), ``line`` with ``at`` (a
    double inserted at that position, None at the line's end) or ``cut`` (§2.12); ``forced``
    a placement the rules made with no choice (Колбаса §2.12 rule 6).
    """

    kind: str
    seat: int
    round_no: int
    tile: str | None = None
    end: str | None = None
    count: int = 0
    closed: bool = False
    along: bool = False
    tiles: tuple[tuple[str, str | None, bool, bool], ...] = ()
    points: int = 0
    total: int | None = None
    args: tuple[tuple[str, Any], ...] = ()
    names: tuple[tuple[str, int], ...] = ()
    train: int | str | None = None
    line: str | None = None
    at: int | None = None
    cut: int | None = None
    forced: bool = False


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's line of a closed match. ``score`` is the side's open score (§1.12);
    ``goat`` (§1.15); ``rating`` the rating gain (§1.16; 0 when not rated); ``outs`` rounds
    this player went out (§1.9); ``fish`` fish they made as fisher (§1.10); ``timed_out``:
    their timeouts interrupted the match (§1.17); ``bot``: a computer player's strength, None
    for a human; ``side``: the scoring side, the seat or its team (§1.14), whose ``score``,
    ``goat`` and ``rating`` these are; ``place`` 1 for the best side (ties share it);
    ``title`` the goat's title (RULES.md §2.1, §2.9).  Variants: ``marks`` what the game
    counts beside points for the player and its side (:class:`MarkView`, RULES.md §2).
    ``left``: the name of the person who left the match and whose seat this computer player
    finished (that person is rated 0, §1.16), ``left_round`` the round they left in: the
    seat's place, score and goat are still the seat's (issue 20 item 1).  ``remembered``
    the side's points still remembered when the match ended (§1.12: they count towards
    nothing, but the last round's summary said them; issue 30 item 4)."""

    seat: int
    user_id: int
    name: str
    score: int
    goat: bool
    rating: int
    outs: int
    fish: int
    timed_out: bool
    bot: str | None = None
    place: int = 0
    title: str | None = None
    side: int = 0
    marks: tuple[MarkView, ...] = ()
    left: str | None = None
    left_round: int | None = None
    remembered: int = 0


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """How a match closed. ``rated`` is True for ``limit`` and ``timeout`` only.

    Variant fields (RULES.md §2): ``variant`` names the game (its goat word comes from the
    locale); ``title`` the goat's title when the variant gives one (``sea``, ``snotty``,
    ``admiral``, ``extraordinary``, ``hanging`` in Морской козёл §2.1, ``general`` in Генерал
    §2.9), also per player in ``PlayerResult.title``; ``winners`` the winning sides of a race
    (§2.0.7) or the last player left in Семёрка (§2.8), empty in goat variants; ``draw`` True
    when a match ended with no goat (sport's equal scores, §2.7).  ``stopped_by``: the name
    of the person who stopped it (/stopgame: its creator or a chat admin), None otherwise.
    ``round_no`` the round it ended in and ``deals`` the rounds the game fixes (sport's
    deals, Мексиканский поезд's N+1 rounds, §2.11 rule 1), else None.
    """

    reason: EndReason
    rated: bool
    players: tuple[PlayerResult, ...]
    variant: str = "classic"
    title: str | None = None
    winners: tuple[int, ...] = ()
    draw: bool = False
    stopped_by: str | None = None
    round_no: int = 0
    deals: int | None = None


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A scored round (RULES.md §1.11–§1.14), for the group.

    ``end``: ``"out"`` or ``"fish"``; ``by``: the seat that went out / the fisher;
    ``hands``: every hand at the round's end, per seat, as tile codes (revealed for counting);
    ``hand_values``, ``recorded`` (points written this round, pot included), ``scores``,
    ``remembered``: per side; ``pot_won`` the pot paid out, ``pot`` the pot after the round;
    ``seat_values`` the value of each seat's own hand (RULES.md §1.11), seat order.

    Variant fields (RULES.md §2): ``end`` may also be ``"void"`` (dealt again, §2.1 rule 6,
    §2.9 rule 2) or ``"limit"`` (a race ended mid-round, §2.0.7); ``play_points`` per side
    scored on the count during the round (§2.0.6); ``losers`` the sides that lost the round
    (Морской козёл's recorder, Семёрка's stick holders, Генерал's losing team); ``marks``
    the counts of what the game counts beside points after the round (:class:`MarkTally`)
    and ``left`` the seats that left the match with it (§2.8 rule 8); ``flags`` what the game
    says of the round at its end (:class:`FlagView`: the sea goat's fast lead, §2.1 rules
    6–7; Генерал's general, §2.9 rule 3); ``layout`` the table as the round
    ended (for the closed table); ``reset`` the sides whose open score the round set back to 0
    (the [6|6] finish of §2.1 rule 8); ``specials`` the special rules that fired at the
    round's end as ``(rule, seat)`` (ЧЧВ's ``out_0-0``, ``out_6-6``, ``held_0-0``,
    ``held_6-6``, §2.3 rule 4); ``variant`` and ``rules`` the match's game and its rule
    options (``engine.Rules.to_json()``: the limits the texts name); ``deals`` the number of
    rounds the match lasts where the game fixes it (sport domino's deals, §2.7, Мексиканский
    поезд's rounds, §2.11 rule 1), else None.

    Колбаса (§2.12): nobody is ever shown a queue's tiles, so ``hands`` holds none (each
    seat's is empty) and ``queues`` the length of each seat's queue at the round's end;
    ``seat_values`` are the points of what was left in them (rule 8).
    """

    round_no: int
    end: str
    by: int
    hands: tuple[tuple[str, ...], ...]
    hand_values: tuple[int, ...]
    recorded: tuple[int, ...]
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot_won: int
    pot: int
    play_points: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    marks: tuple[MarkTally, ...] = ()
    left: tuple[int, ...] = ()
    flags: tuple[FlagView, ...] = ()
    layout: LayoutView | None = None
    seat_values: tuple[int, ...] = ()
    reset: tuple[int, ...] = ()
    specials: tuple[tuple[str, int], ...] = ()
    variant: str = "classic"
    rules: Mapping[str, Any] = field(default_factory=dict)
    deals: int | None = None
    queues: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TableView:
    """The group's view of a started match (status ``playing``, ``finished`` or ``stopped``).

    - ``version``: pass it back as ``expected_version`` to :meth:`service.play.Play.act`.
    - ``chain``: oriented ``(a, b)`` pairs; ``ends``: ``()`` before the lead, else (left,
      right) open-end numbers (RULES.md §1.7).
    - ``drawable``: bazar tiles that may be drawn; ``reserve``: bazar tiles that may not
      (RULES.md §1.4, §1.8).
    - ``scores``/``remembered``: per side (player, or team with ``teams``), points; ``pot``
      points carried by a tied fish (§1.13).
    - ``to_act``: the seat whose turn it is, None when the match is closed; ``deadline_at``:
      when that turn times out (Unix seconds, §1.17).
    - ``notes``: the :class:`ActionNote` of this round, oldest first (its deal first); ``final``:
      set once the match closed.

    Variant fields (RULES.md §2; filled for classic too): ``variant``; ``layout`` the table
    (:class:`LayoutView`: line or cross, closed ends, the count; ``chain``/``ends`` above are
    its line and its left/right numbers); ``deals`` the number of rounds the match lasts where
    the game fixes it (sport domino's deals, §2.7; ``round_no`` is the deal), else None;
    ``turn_seconds`` the time per turn (§1.17); ``flags`` what the game says of the round
    while it is played (:class:`FlagView`: the sea goat's fast lead and its two tiles a turn,
    §2.1 rules 6–7); ``summary`` the round's summary once it is scored
    (the closed table); ``rules`` every rule option of the match (``engine.Rules.to_json()``,
    for /rules and what the game is played for); ``creator_id`` who opened the match (may
    stop it, as a chat admin may); ``frame`` 0 for the table as it is, k > 0 for the k-th
    table of Колбаса's forced placements a step carries (``Result.frames``), shown before
    it.
    """

    match_id: int
    chat_id: int
    thread_id: int | None
    version: int
    status: Status
    round_no: int
    teams: bool
    chain: tuple[tuple[int, int], ...]
    ends: tuple[int, ...]
    drawable: int
    reserve: int
    seats: tuple[SeatView, ...]
    scores: tuple[int, ...]
    remembered: tuple[int, ...]
    pot: int
    to_act: int | None
    to_act_user_id: int | None
    deadline_at: float | None
    match_limit: int
    notes: tuple[ActionNote, ...]
    final: MatchEnd | None
    variant: str = "classic"
    layout: LayoutView = field(default_factory=LayoutView)
    deals: int | None = None
    turn_seconds: int | None = None
    flags: tuple[FlagView, ...] = ()
    summary: RoundSummary | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    creator_id: int | None = None
    frame: int = 0


@dataclass(frozen=True, slots=True)
class PlacementOption:
    """One placement of a move (RULES.md §2.0.4): ``tile`` (code ``"a-b"``) on ``end``
    (``left``/``right``/``up``/``down``/``gap``, or None on a lead), ``closed`` face down
    (§2.0.3), ``along`` (Маггинс, §2.5 rule 3).  On the trains and the sausage the target
    is ``train`` (a seat, or ``"mexican"``, §2.11), ``line`` (``"a"``/``"b"``) with ``at``
    (a double inserted at that position; None: the line's end) or ``cut`` (the position of
    a cut, §2.12), and ``end`` is None."""

    tile: str
    end: str | None
    closed: bool = False
    along: bool = False
    train: int | str | None = None
    line: str | None = None
    at: int | None = None
    cut: int | None = None

    @property
    def target(self) -> tuple[Any, ...]:
        """Where it goes, as one hashable value: ``("end", end)``, ``("train", key)``,
        ``("line", line, at)`` or ``("cut", k)``."""
        if self.train is not None:
            return ("train", self.train)
        if self.line is not None:
            return ("line", self.line, self.at)
        if self.cut is not None:
            return ("cut", self.cut)
        return ("end", self.end)


@dataclass(frozen=True, slots=True)
class MoveOption:
    """A legal move: play ``tile`` (code ``"a-b"``) at ``end`` (``"left"``/``"right"``, or
    None on a lead or where only one placement exists) (RULES.md §1.5–§1.7).

    A move of several tiles (RULES.md §2.0.4: several doubles at once, the extraordinary
    lead's pairs) has its first placement in ``tile``/``end``/``closed``/``along`` and the
    others in ``more`` (empty for one tile); :attr:`placements` lists them all.
    """

    tile: str
    end: str | None
    closed: bool = False
    along: bool = False
    more: tuple[PlacementOption, ...] = ()
    train: int | str | None = None
    line: str | None = None
    at: int | None = None
    cut: int | None = None

    @property
    def first(self) -> PlacementOption:
        """The first placement (the only one on the trains and the sausage)."""
        return PlacementOption(self.tile, self.end, self.closed, self.along, self.train,
                               self.line, self.at, self.cut)

    @property
    def placements(self) -> tuple[PlacementOption, ...]:
        """Every placement of the move, the first included."""
        return (self.first,) + self.more

    @property
    def targeted(self) -> bool:
        """Whether it is a placement on the trains or the sausage (RULES.md §2.10.0)."""
        return self.train is not None or self.line is not None or self.cut is not None

    @classmethod
    def of(cls, p: PlacementOption, more: tuple[PlacementOption, ...] = ()) -> MoveOption:
        """The move whose first placement is ``p``."""
        return cls(p.tile, p.end, p.closed, p.along, more, p.train, p.line, p.at, p.cut)


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat's private view: their hand as tile codes (sorted), the legal moves when it is
    their turn (else empty), and what happened to the seat itself since its last decision.
    Show it to ``user_id`` only; the table it lies on is the match's :class:`TableView`.

    - ``drawn``: the tiles the seat drew from the bazar since its last decision; while it is
      not its turn and its last decision was a knock, those it drew before that knock
      (RULES.md §1.8).
    - ``taken``: the tiles taken blindly from the hand of seat ``taken_from`` since its last
      decision (Семёрка, RULES.md §2.8 rule 5), which came from no bazar.
    - ``knocked``: its last decision was a knock and its turn has not come again (§1.8).
    - ``host_moved``: the host placed its last tile, its turn having timed out (§1.17).
    - ``lead``: on its turn before the round's first tile, the tile it must lead (the first
      lead of a match, §1.5), None when it may lead any tile.
    - ``queue``: in Колбаса (RULES.md §2.12 rule 1), the length of the seat's face-down
      queue; ``tiles`` is then always empty, since nobody — its owner included — is shown a
      queue's tiles (the tile turned over that waits is on the table,
      ``SausageView.turned``).  None in the other games.
    - ``again``: on the trains, the seat is to place again in the same turn after its
      double (RULES.md §2.11 rules 7–8).
    """

    match_id: int
    version: int
    seat: int
    user_id: int
    name: str
    tiles: tuple[str, ...]
    your_turn: bool
    legal: tuple[MoveOption, ...]
    drawn: tuple[str, ...]
    deadline_at: float | None
    knocked: bool = False
    host_moved: bool = False
    lead: str | None = None
    taken: tuple[str, ...] = ()
    taken_from: int | None = None
    queue: int | None = None
    again: bool = False


@dataclass(frozen=True, slots=True)
class HoldView:
    """The group's question while a match waits (issue 15, "Leaving a started match"): the
    turns of ``name`` (seat ``seat``, ``user_id``) timed out so often that the next host move
    would end the match by timeout (RULES.md §1.17); its other players (or the chat's admins)
    choose until ``deadline_at`` (Unix seconds) whether a computer player takes the seat or
    the match ends by timeout as the rules say, which is what happens when nobody chooses.
    The absent player's own move in the meantime keeps the seat.  ``version``: pass it back
    with the choice."""

    seat: int
    user_id: int
    name: str
    deadline_at: float | None
    version: int


@dataclass(frozen=True, slots=True)
class HandedSeat:
    """A person's seat was handed to a computer player: ``name`` (``user_id``) left the
    match at seat ``seat`` by their own choice (``why`` ``"left"``) or by the group's after
    their turns timed out (``"afk"``); ``bot`` the computer player's name.  The person is
    rated 0 at the match's end, as the timed-out player of RULES.md §1.16."""

    seat: int
    user_id: int
    name: str
    bot: str
    why: str


@dataclass(frozen=True, slots=True)
class Result:
    """What every game operation returns.

    ``ok`` False: ``error`` says why and nothing changed; the views, when present, show the
    current state so the caller can refresh an outdated message or keyboard.
    ``ok`` True: the change is already committed to the database; send the views.

    - ``lobby`` while the match is (or just stopped being) a lobby; ``table`` and ``hands``
      (one per seat, seat order) once it started.
    - ``events``: the engine events of this change as JSON dicts (drawn tiles removed; the
      drawing seat finds them in its ``HandView.drawn``).
    - ``rounds``: the rounds scored by this change; ``final``: set when this change (or an
      earlier one) closed the match.
    - ``closed``: the table of the previous round as it closed (its ``summary`` set), while
      the match is in a later round; None in round 1 (and when the match was rebuilt after
      that round's table could no longer be known).
    - ``hold``: the question the match waits on instead of a turn (:class:`HoldView`);
      ``handed``: set by the change that handed a person's seat to a computer player
      (:class:`HandedSeat`).
    - ``frames``: the group's tables after each placement the rules made without a choice
      in this change (Колбаса, RULES.md §2.12 rule 6), oldest first, to be shown
      ``frame_seconds`` apart before ``table`` (``service.live.frames``).

    Nothing here holds more than its audience may see: the group's views never hold a hand
    before the round's summary, and each :class:`HandView` belongs to one seat.
    """

    ok: bool
    error: ErrorCode | None = None
    detail: str = ""
    match_id: int | None = None
    status: Status | None = None
    version: int | None = None
    lobby: LobbyView | None = None
    table: TableView | None = None
    hands: tuple[HandView, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    rounds: tuple[RoundSummary, ...] = ()
    final: MatchEnd | None = None
    closed: TableView | None = None
    hold: HoldView | None = None
    handed: HandedSeat | None = None
    frames: tuple[TableView, ...] = ()
    frame_seconds: float = 0.0

    def hand_for(self, user_id: int) -> HandView | None:
        """The hand view of ``user_id``, or None if they hold no seat."""
        for h in self.hands:
            if h.user_id == user_id:
                return h
        return None


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """A leaderboard line: rating sum (RULES.md §1.16), finished matches, goats (§1.15);
    ``skill`` the conservative estimate μ − 3σ of the skill rating the board is ordered by
    (``mu``, ``sigma``: ``storage.skill``), ``wins`` first places; ``username`` the
    person's Telegram @username when known (without the @); ``marks`` in a game whose marks
    are its result (Семёрка, Генерал, RULES.md §2.8–§2.9) each mark per match
    (:class:`MarkMean`)."""

    place: int
    user_id: int
    name: str
    rating: int
    matches: int
    goats: int
    skill: float = 0.0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    wins: int = 0
    username: str | None = None
    marks: tuple[MarkMean, ...] = ()


@dataclass(frozen=True, slots=True)
class PersonalStats:
    """A player's statistics over matches that ended by limit or timeout on one board: in
    one chat or in all chats (``chat_id`` None), in one ``variant``, counting matches with
    computer players (``with_bots``) or not. ``average_score``: mean final score (0.0
    without matches); ``skill`` μ − 3σ of the skill rating (``mu``, ``sigma``); ``wins``
    first places; ``place`` of ``players`` on that board (None when not on it); ``marks``
    what the game counts beside points, per match (:class:`MarkMean`: Семёрка's палки,
    Генерал's lost rounds, RULES.md §2.8–§2.9), in the games that count any."""

    user_id: int
    chat_id: int | None
    matches: int
    goats: int
    rating: int
    outs: int
    fish: int
    average_score: float
    variant: str = "classic"
    with_bots: bool = False
    wins: int = 0
    skill: float = 0.0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    place: int | None = None
    players: int = 0
    marks: tuple[MarkMean, ...] = ()


@dataclass(frozen=True, slots=True)
class BotStats:
    """Computer players' results per strength over all chats, kept apart from the humans'
    leaderboards (issue 6): finished matches (seats), goats (RULES.md §1.15), rating sum
    (§1.16), mean final score (0.0 without matches)."""

    strength: str
    matches: int
    goats: int
    rating: int
    average_score: float


@dataclass(frozen=True, slots=True)
class ChatInfo:
    """A chat's settings: ``rules`` the rule options its admins chose for new lobbies (only
    those that differ from the defaults, RULES.md §1), ``language`` (None: the users' own),
    ``topic_id`` the forum topic to play in (None: any), ``active`` False after the bot was
    removed; ``full_rules`` every rule option with its value (the defaults filled in), and
    ``options`` the chat's other settings (``People.update_chat(options=...)``); ``known``
    False for a chat the bot has no record of yet (its defaults)."""

    chat_id: int
    title: str | None
    language: str | None
    is_forum: bool
    topic_id: int | None
    rules: dict[str, Any]
    active: bool
    full_rules: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    known: bool = True


@dataclass(frozen=True, slots=True)
class ChatResult:
    """Result of a settings change: ``ok`` False with ``error`` (e.g. ``bad_rules``) changes
    nothing; ``chat`` is the settings after the call."""

    ok: bool
    chat: ChatInfo | None
    error: ErrorCode | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class UserInfo:
    """A user as stored: ``dm_open`` True once they started the bot in a private chat;
    ``language`` their /lang choice, ``telegram_language`` the ``language_code`` Telegram
    last reported for them (kept across restarts)."""

    user_id: int
    first_name: str
    last_name: str | None
    username: str | None
    language: str | None
    dm_open: bool
    name: str
    telegram_language: str | None = None


@dataclass(frozen=True, slots=True)
class HistoryPlayer:
    """One seat of a finished match in the history (seat order): ``name`` as it sat,
    ``side`` its scoring side (RULES.md §1.14), ``place`` the side's place (1 best), the
    side's final ``score``, ``goat`` (§1.15) with the variant's ``title`` (§2.1, §2.9),
    ``rating`` the points of §1.16, ``timed_out`` (§1.17), ``left`` a person who left and
    whose seat a computer player finished (``played_by`` its name, from ``left_round``; the
    seat's place, score and goat stay the seat's, the person's points are 0, issue 20 item
    1), ``bot`` a computer player's strength; ``skill`` the
    change of the skill estimate μ − 3σ on the board the history reads, None when the match
    does not count there.  ``marks`` what the game counts beside points as the match ended it
    (:class:`MarkView`: the result of Семёрка and Генерал, which keep no points, RULES.md
    §2.8–§2.9), None for a match stored before the bot kept them; ``remembered`` the side's
    points still remembered at the end (§1.12)."""

    seat: int
    user_id: int
    name: str
    side: int
    place: int
    score: int
    goat: bool
    rating: int
    title: str | None = None
    timed_out: bool = False
    left: bool = False
    bot: str | None = None
    played_by: str | None = None
    left_round: int | None = None
    skill: float | None = None
    marks: tuple[MarkView, ...] | None = ()
    remembered: int = 0


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A finished match in the history: its id, where (``chat_id``, ``chat_title``; a
    private chat's id is its user's), the game (``variant``), when it ended (``finished_at``,
    Unix seconds) and how (``ended_by``: ``limit`` or ``timeout``), every seat, and
    ``with_bots`` True when a computer player held a seat from the start; ``rules`` the
    match's rule options (``engine.Rules.to_json()``: the set and the limit its game is
    told by)."""

    match_id: int
    chat_id: int
    chat_title: str | None
    variant: str
    finished_at: float
    ended_by: str
    players: tuple[HistoryPlayer, ...]
    with_bots: bool = False
    rules: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of the history, newest first: ``page`` (0-based) of ``pages``, ``total``
    matches in all."""

    entries: tuple[HistoryEntry, ...]
    page: int
    pages: int
    total: int


@dataclass(frozen=True, slots=True)
class RecordRound:
    """A scored round of a checked game record: ``end`` (``out``, ``fish``, ``void``,
    ``limit``), ``by`` the seat that ended it, per side what was ``recorded`` and the
    ``scores`` after it (RULES.md §1.11–§1.14, §2); ``marks`` the counts of what the game
    counts beside points after it (:class:`MarkTally`: Семёрка's палки, Генерал's lost
    rounds, §2.8–§2.9), empty in a game that counts none."""

    round_no: int
    end: str
    by: int
    recorded: tuple[int, ...]
    scores: tuple[int, ...]
    marks: tuple[MarkTally, ...] = ()


@dataclass(frozen=True, slots=True)
class LeftSeat:
    """A seat of a stored match that a person handed to a computer player (by /leave, or
    the group's choice after their turns timed out): ``seat``, the person's ``name``, the
    computer player's ``bot`` name, ``round_no`` the round they left in (None: not known).
    The record replays the seat's rating as the engine gives it; the person gets 0, as the
    timed-out player of RULES.md §1.16 (issue 20 item 1, issue 30 item 3)."""

    seat: int
    name: str
    bot: str
    round_no: int | None = None


@dataclass(frozen=True, slots=True)
class RecordCheck:
    """What a game record a user sent shows (``service.live.check_record``).

    ``ok`` True: it replays; ``names`` (seat order), ``variant``, ``teams``, its ``rounds``,
    and once ``finished`` the ``goats`` (sides), ``rating`` per side (RULES.md §1.16),
    ``title``, ``winners`` (races, §2.0.7), ``draw`` (§2.7), and ``marks`` what the game
    counts beside points as the record leaves it (:class:`MarkTally`; the result of Семёрка
    and Генерал, §2.8–§2.9), ``scores`` and ``remembered`` per side (§1.12).  ``ok`` False:
    ``error`` says
    why — ``size``, ``json``, ``format``, ``variant``, ``misdeal``, ``deal``, ``rounds`` or
    ``illegal`` (``round_no`` and ``decision_no``, 1-based, and the ``rule``, e.g. ``§1.7``);
    ``detail`` the engine's words (English); ``seat`` (0-based) whose decision or hand it
    is, ``reason`` what is wrong with it (the engine's error class for ``illegal``:
    ``TileNotInHand``, ``TileDoesNotFit``, ``WrongLead``, …; for ``misdeal`` ``doubles`` or
    ``suit``) and ``tiles`` the tiles of that decision.  ``stored_match``: the id of the
    match of this bot the record names and whose stored result it equals (``stored`` True)
    or not (False); None when it names none.  ``renamed``: the same match with other names,
    ``(stored name, the record's name)`` per seat whose name differs; ``left`` the seats of
    that stored match whose people handed them to computer players (:class:`LeftSeat`: rated
    0 whatever the record gives the seat).  ``problem``: for a
    ``format`` error, what is malformed (``engine.records.ReplayError.problem``: ``object``,
    ``rules``, ``players``, ``player_count``, ``rounds``, ``start``, ``round``,
    ``decisions``, ``decision``; ``other`` for anything else), with ``problem_args``
    (``(name, number)`` pairs), so that the reader is told in their language, never in the
    engine's English ``detail``."""

    ok: bool
    error: str | None = None
    round_no: int | None = None
    decision_no: int | None = None
    rule: str | None = None
    detail: str = ""
    names: tuple[str, ...] = ()
    variant: str = "classic"
    teams: bool = False
    rounds: tuple[RecordRound, ...] = ()
    finished: bool = False
    goats: tuple[int, ...] = ()
    rating: tuple[int, ...] = ()
    title: str | None = None
    winners: tuple[int, ...] = ()
    draw: bool = False
    stored_match: int | None = None
    stored: bool | None = None
    seat: int | None = None
    reason: str | None = None
    tiles: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    problem: str | None = None
    problem_args: tuple[tuple[str, int], ...] = ()
    marks: tuple[MarkTally, ...] = ()
    scores: tuple[int, ...] = ()
    remembered: tuple[int, ...] = ()
    left: tuple[LeftSeat, ...] = ()


@dataclass(frozen=True, slots=True)
class RecordFile:
    """A match's game record as a file: ``data`` the JSON (UTF-8) that ``python -m engine
    replay`` reads, ``filename``; the match's id, chat, ``variant`` and when it finished
    (Unix seconds)."""

    match_id: int
    chat_id: int
    variant: str
    finished_at: float | None
    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """An option that only one game reads, as its variant declares it (RULES.md §2):
    ``default``; ``allowed`` its values (``(lo, hi)`` for integers, ``bool``, or a tuple);
    ``choices`` the values a chat is offered (strings, as buttons carry them; None for an
    on/off option); ``unit`` what its number counts (``"points"``), else None."""

    default: Any
    allowed: Any
    choices: tuple[str, ...] | None = None
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class MarkInfo:
    """What a game counts beside points, as its variant declares it (RULES.md §2;
    ``engine.variant.Mark``): ``name``; ``per`` ``"seat"`` or ``"side"``; ``limit`` the rule
    option that holds the count that ends it, None without one; ``leaves`` True when a seat
    that reaches it leaves the match."""

    name: str
    per: str = "seat"
    limit: str | None = None
    leaves: bool = False


@dataclass(frozen=True, slots=True)
class FlagInfo:
    """Something a game says of a round beside its marks, as its variant declares it
    (RULES.md §2; ``engine.variant.Flag``): ``name``; ``during`` shown while the round is
    played; ``at_end`` said by the round's summary; ``names_losers`` its words name the
    round's losers in place of the summary's usual line of them."""

    name: str
    during: bool = True
    at_end: bool = False
    names_losers: bool = False


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """A game of the Kozel family as the bot offers it (RULES.md §1, §2.1–§2.9).

    ``name`` its ``Rules.variant`` (``classic``, ``sea_goat``, …); ``section`` its rule
    section (``"§2.1"``); ``layout`` ``"line"`` (§2.0.1) or ``"cross"`` (§2.0.2);
    ``players`` the (fewest, most) players without teams; ``teams`` ``"optional"``,
    ``"never"`` or ``"always"`` (§1.14); ``race`` True where the first side to the limit wins
    (§2.0.7); ``options`` the rule options it reads with its defaults; ``fixed`` the options
    whose value it forces (a setting of theirs is not offered); ``goat_word`` the locale's word
    for its loser (``goat``, ``sea_goat``, ``donkey``); ``own_options`` the options of
    ``options`` that only this game reads, as it declares them (:class:`OptionInfo`);
    ``marks`` what it counts beside points (:class:`MarkInfo`); ``flags`` what it says of a
    round beside them (:class:`FlagInfo`); ``scoring`` ``"points"``
    where the match is played for points, ``"marks"`` where only its marks decide it
    (Семёрка §2.8, Генерал §2.9); ``counts_hands`` False where the hand values at a round's
    end are only shown (Генерал, §2.9 rule 4); ``sets`` the double-N sets it is played with
    (§2.10.2: 9 and 12 for Мексиканский поезд, the option ``set``; 6 for every other game);
    ``hidden_hands`` True where nobody, a hand's owner included, is shown its tiles
    (Колбаса's queues, §2.12 rule 1)."""

    name: str
    section: str
    layout: str
    players: tuple[int, int]
    teams: str
    race: bool
    options: Mapping[str, Any]
    fixed: Mapping[str, Any]
    goat_word: str
    own_options: Mapping[str, OptionInfo] = field(default_factory=dict)
    marks: tuple[MarkInfo, ...] = ()
    flags: tuple[FlagInfo, ...] = ()
    scoring: str = "points"
    counts_hands: bool = True
    sets: tuple[int, ...] = (6,)
    hidden_hands: bool = False

    def reads(self, option: str) -> bool:
        """Whether the game reads ``option`` and lets a chat choose its value."""
        return option in self.options and option not in self.fixed
