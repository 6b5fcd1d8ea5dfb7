"""Every inline button's callback_data, in one small versioned module.

Telegram gives a button at most 64 bytes of callback_data (issue 4, "Hands in private").  Each
factory here is an aiogram :class:`~aiogram.filters.callback_data.CallbackData` whose prefix is
a letter and the factory's version (:data:`VERSIONS`); bumping a factory's version when its
fields or their values change makes its old buttons unparseable, so handlers answer them as
stale instead of misreading them.

Unpacking is strict: a string is accepted only in the exact canonical form that ``pack()``
produces (no ``"007"``, no ``"true"`` for a bool), and every failure -- wrong prefix, wrong
field count, out-of-range number, unknown word -- raises :class:`BadCallback`, a
``ValueError``, so aiogram's ``Factory.filter()`` simply does not match a forged press and
:func:`parse_callback` gives handlers one exception to catch.

Tiles travel as their id ``0..27`` in the order ``[0|0], [0|1], …, [0|6], [1|1], …, [6|6]``
(the same order as ``engine.TILES``); ends as ``"l"`` / ``"r"`` / ``"-"`` (the lead).  The
tiles of the double-9 and double-12 sets follow, up to id 90 (RULES.md §2.10: every set is a
prefix of the ids, ``service.TILE_CODES``).

A placement on the trains or the sausage (RULES.md §2.10.0: Мексиканский поезд §2.11,
Колбаса §2.12) travels in :class:`PlaceCb`: the tile's id and its target in a few
characters (:func:`target_code`): a seat's train ``"0"``–``"7"``, the Mexican train ``"m"``,
a line's end ``"a"``/``"b"``, a double inserted at position j ``"a<j>"``/``"b<j>"``, a cut
at k ``"c<k>"``.

A move button of the variants (RULES.md §2.0.4: ends ``up``/``down``/``gap``, closed doubles,
doubles laid along, several placements at once) and a move being built press by press carry
their placements in :class:`PlayCb`, two characters each (:func:`pack_placements`), so that a
half-built move lives in the button itself: nothing is stored, a restart loses nothing, and
the match version in it makes it void once the game has moved on.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from aiogram.filters.callback_data import CallbackData
from pydantic import Field, field_validator, model_validator

from service.live.moves import TILE_CODES
from service.views import PlacementOption

__all__ = [
    "VERSIONS",
    "MAX_CALLBACK_BYTES",
    "BadCallback",
    "MoveCb",
    "PlayCb",
    "PLAY_ACTIONS",
    "MAX_PLACEMENTS",
    "LobbyCb",
    "SettingsCb",
    "StopCb",
    "LangCb",
    "VariantCb",
    "SoloCb",
    "TopCb",
    "StatsCb",
    "HistoryCb",
    "RecordCb",
    "LeaveCb",
    "HoldCb",
    "PlaceCb",
    "target_code",
    "target_fields",
    "place_callback",
    "LOBBY_ACTIONS",
    "SETTINGS_MENU",
    "tile_id",
    "tile_halves",
    "end_code",
    "move_callback",
    "play_callback",
    "pack_placements",
    "unpack_placements",
    "parse_callback",
]

#: Each factory's version, the digits of its prefix: bumped when its fields or values change.
#: Settings are at 2 since the option that switches teams is called ``teams`` (it was
#: ``variant``, a name now kept for the variants of RULES.md §2).
VERSIONS = {"m": 1, "p": 1, "l": 1, "s": 2, "x": 1, "g": 1, "v": 1, "o": 1,
            # players' records (issue 15): boards, stats, history, records, leaving
            "t": 1, "u": 1, "h": 1, "d": 1, "q": 1, "k": 1,
            # placements on the trains and the sausage (issue 32)
            "y": 1}
#: Telegram's limit on callback_data, in bytes.
MAX_CALLBACK_BYTES = 64
_MAX_ID = 2**63 - 1  # database ids and versions are signed 64-bit integers

Id = Annotated[int, Field(ge=0, le=_MAX_ID)]

#: Lobby buttons (issue 4, "The lobby"); ``rematch`` carries the finished match's lobby id.
LOBBY_ACTIONS = ("join", "leave", "start", "cancel", "addbot", "rmbot", "rematch")
LobbyAction = Literal["join", "leave", "start", "cancel", "addbot", "rmbot", "rematch"]

#: Settings menu keys besides the settings of :func:`ui.settings.settings`: ``menu`` goes back
#: to the main menu, ``done`` closes it.
SETTINGS_MENU = ("menu", "done")

#: (low, high) halves by tile id: the service's one table of tile ids (``service.TILE_CODES``)
_TILES: tuple[tuple[int, int], ...] = tuple(
    (int(a), int(b)) for a, b in (c.split("-") for c in TILE_CODES))
_TILE_ID: dict[tuple[int, int], int] = {t: i for i, t in enumerate(_TILES)}
#: Tile ids of the double-six set (RULES.md §1.1): the games of a line or a cross.
SIX_TILES = 28
_END_CODE = {"left": "l", "right": "r", None: "-"}
_CODE = re.compile(r"\[?(1[0-2]|[0-9])[-|](1[0-2]|[0-9])\]?")
_CODE_END = {v: k for k, v in _END_CODE.items()}


class BadCallback(ValueError):
    """callback_data that no factory of this version produced (stale, forged or garbage)."""


class _Strict:
    """Canonical-form unpacking with one exception type (mixed into every factory)."""

    @classmethod
    def unpack(cls, value: str) -> Any:
        if not isinstance(value, str) or len(value.encode("utf-8")) > MAX_CALLBACK_BYTES:
            raise BadCallback(f"not a callback of this bot: {value!r}")
        try:
            obj = super().unpack(value)  # type: ignore[misc]
            canonical = obj.pack()
        except (TypeError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise BadCallback(f"cannot unpack {value!r}: {reason}") from exc
        if canonical != value:
            raise BadCallback(f"not in canonical form: {value!r}")
        return obj


class MoveCb(_Strict, CallbackData, prefix=f"m{VERSIONS['m']}"):
    """A move button in a hand message (RULES.md §1.7; issue 4, "Hands in private").

    ``game``: the match id; ``ver``: ``MatchState.version`` when the keyboard was built (a
    press with another version is stale); ``tile``: tile id 0..27; ``end``: ``"l"``, ``"r"``
    or ``"-"`` for the lead.  Packs to at most 48 bytes.
    """

    game: Id
    ver: Id
    tile: Annotated[int, Field(ge=0, le=27)]
    end: Literal["l", "r", "-"]

    @property
    def halves(self) -> tuple[int, int]:
        """The tile as ``(a, b)`` with ``a <= b``; ``engine.Tile(*cb.halves)``."""
        return _TILES[self.tile]

    @property
    def engine_end(self) -> str | None:
        """The end as the engine spells it: ``"left"``, ``"right"`` or None (lead)."""
        return _CODE_END[self.end]


#: What a :class:`PlayCb` button does: ``p`` plays its placements as one move, ``b`` shows
#: the move being built with its placements chosen so far, ``t`` goes back to the move
#: buttons (the building is cancelled).
PLAY_ACTIONS = ("p", "b", "t")
#: Most placements in one move: four doubles, one per end of the cross (RULES.md §2.0.4).
MAX_PLACEMENTS = 4
#: Ends of a placement code: the names of ``engine.END_NAMES`` in their order, then the lead.
_PLACE_ENDS: tuple[str | None, ...] = ("left", "right", "up", "down", "gap", None)
_PLACE_END_CODE = {e: i for i, e in enumerate(_PLACE_ENDS)}
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _placement_value(p: PlacementOption) -> int:
    try:
        end = _PLACE_END_CODE[p.end]
    except KeyError:
        raise ValueError(f"not an end: {p.end!r}") from None
    tid = tile_id(p.tile)
    if tid >= SIX_TILES:  # the line and the cross are played with double-six (§2.10.2)
        raise ValueError(f"not a double-six tile: {p.tile!r}")
    return tid * 24 + end * 4 + bool(p.closed) * 2 + bool(p.along)


def pack_placements(placements: Any) -> str:
    """The placements (:class:`~service.views.PlacementOption`, or anything with ``tile``,
    ``end``, ``closed`` and ``along``) as two base-36 characters each: ``tile id × 24 + end ×
    4 + closed × 2 + along``, the end numbered ``left, right, up, down, gap, lead``.  Raises
    ``ValueError`` for more than :data:`MAX_PLACEMENTS`, a tile twice, an unknown tile or
    end."""
    out = []
    seen = set()
    for p in placements:
        p = PlacementOption(p.tile, p.end, bool(p.closed), bool(p.along))
        value = _placement_value(p)
        if value // 24 in seen:
            raise ValueError(f"a tile twice in one move: {p.tile}")
        seen.add(value // 24)
        out.append(_B36[value // 36] + _B36[value % 36])
    if len(out) > MAX_PLACEMENTS:
        raise ValueError(f"more than {MAX_PLACEMENTS} placements in one move")
    return "".join(out)


def unpack_placements(code: str) -> tuple[PlacementOption, ...]:
    """The placements of :func:`pack_placements`'s ``code`` (tiles as ``"a-b"``).  Raises
    ``ValueError`` for anything :func:`pack_placements` does not produce."""
    if not isinstance(code, str) or len(code) % 2 or len(code) > 2 * MAX_PLACEMENTS:
        raise ValueError(f"not a placement code: {code!r}")
    out = []
    seen = set()
    for i in range(0, len(code), 2):
        hi, lo = _B36.find(code[i]), _B36.find(code[i + 1])
        if hi < 0 or lo < 0:
            raise ValueError(f"not a placement code: {code!r}")
        value = hi * 36 + lo
        tid, rest = divmod(value, 24)
        end, flags = divmod(rest, 4)
        if tid >= SIX_TILES or end >= len(_PLACE_ENDS) or tid in seen:
            raise ValueError(f"not a placement code: {code!r}")
        seen.add(tid)
        a, b = _TILES[tid]
        out.append(PlacementOption(f"{a}-{b}", _PLACE_ENDS[end], bool(flags & 2),
                                   bool(flags & 1)))
    return tuple(out)


class PlayCb(_Strict, CallbackData, prefix=f"p{VERSIONS['p']}"):
    """A move button of any variant, or a step of a move being built (RULES.md §2.0.4;
    issues 12 and 13, "Moves of two tiles", "Composing a move").

    ``game``: the match id; ``ver``: the match version the keyboard was built for (any other
    is stale); ``act``: one of :data:`PLAY_ACTIONS`; ``move``: the placements
    (:func:`pack_placements`) — for ``p`` the move to play (1..4 placements), for ``b`` the
    placements chosen so far (0..4), for ``t`` none.  Four placements with the largest ids
    pack to 53 bytes.  Data whose placements do not decode (an unknown tile or end, a tile
    twice, more than four) does not parse (:class:`BadCallback`).
    """

    game: Id
    ver: Id
    act: Literal["p", "b", "t"]
    move: Annotated[str, Field(pattern=r"^(?:[0-9a-z]{2}){0,4}$")] = ""

    @field_validator("move")
    @classmethod
    def _decodes(cls, value: str) -> str:
        unpack_placements(value)
        return value

    @model_validator(mode="after")
    def _fits_the_action(self) -> PlayCb:
        n = len(self.move) // 2
        if (self.act == "p" and n == 0) or (self.act == "t" and n):
            raise ValueError(f"{n} placements for action {self.act!r}")
        return self

    @property
    def placements(self) -> tuple[PlacementOption, ...]:
        """The placements the button carries, in order."""
        return unpack_placements(self.move)


class LobbyCb(_Strict, CallbackData, prefix=f"l{VERSIONS['l']}"):
    """A lobby button: ``action`` (one of :data:`LOBBY_ACTIONS`) on lobby ``lobby``."""

    action: LobbyAction
    lobby: Id


class SettingsCb(_Strict, CallbackData, prefix=f"s{VERSIONS['s']}"):
    """A settings menu button (issue 4, "Settings, languages").

    ``key`` is a setting's key (:func:`ui.settings.settings`) or one of
    :data:`SETTINGS_MENU`; ``value`` is ``""`` to open that setting's choices, else the
    chosen value as its ``Setting.choices`` spell it (lower-case letters, digits and ``_``,
    at most 16).  A key or value no setting offers parses, and the handler answers it as
    stale.
    """

    key: Annotated[str, Field(pattern=r"^[a-z_]{1,24}$")]
    value: Annotated[str, Field(pattern=r"^[a-z0-9_]{0,16}$")] = ""


class StopCb(_Strict, CallbackData, prefix=f"x{VERSIONS['x']}"):
    """The /stopgame confirmation: ``confirm`` True stops match ``match``, False keeps it."""

    match: Id
    confirm: bool


class LangCb(_Strict, CallbackData, prefix=f"g{VERSIONS['g']}"):
    """A language button of /lang: ``code`` is ``ru``, ``uk`` or ``en``."""

    code: Literal["ru", "uk", "en"]


#: A game's name as buttons carry it (``Rules.variant``; a name no game has parses, and the
#: handler answers it as stale).
VariantName = Annotated[str, Field(pattern=r"^[a-z_]{1,16}$")]


class VariantCb(_Strict, CallbackData, prefix=f"v{VERSIONS['v']}"):
    """The game of a lobby (RULES.md §2): ``action`` ``menu`` shows the games under lobby
    ``lobby``, ``pick`` plays ``variant`` there, ``back`` shows the lobby's buttons again.
    Packs to at most 44 bytes."""

    action: Literal["menu", "pick", "back"]
    lobby: Id
    variant: Annotated[str, Field(pattern=r"^[a-z_]{0,16}$")] = ""


class SoloCb(_Strict, CallbackData, prefix=f"o{VERSIONS['o']}"):
    """The set-up of a match against computer players in private: the game ``variant``,
    ``bots`` opponents (1..3) of ``strength``; ``go`` starts it, else the press changes the
    choice.  The state lives in the buttons, so the set-up survives a restart."""

    variant: VariantName
    bots: Annotated[int, Field(ge=1, le=3)]
    strength: Literal["easy", "normal", "hard"]
    go: bool = False


class TopCb(_Strict, CallbackData, prefix=f"t{VERSIONS['t']}"):
    """A button of /top (issue 12): the board of ``variant`` (a ``Rules.variant`` name; one
    no game has is answered as stale), this chat's or all chats' (``everywhere``)."""

    variant: VariantName
    everywhere: bool


class StatsCb(_Strict, CallbackData, prefix=f"u{VERSIONS['u']}"):
    """A button of /stats: the figures of user ``user`` in ``variant``."""

    user: Id
    variant: VariantName


class HistoryCb(_Strict, CallbackData, prefix=f"h{VERSIONS['h']}"):
    """A page button of /history: ``page`` 0 is the newest; the chat's history in a group,
    the presser's own in private."""

    page: Annotated[int, Field(ge=0, le=10**6)]


class RecordCb(_Strict, CallbackData, prefix=f"d{VERSIONS['d']}"):
    """"Send me the game record of match ``match``" (under a match's end, in /history)."""

    match: Id


class LeaveCb(_Strict, CallbackData, prefix=f"q{VERSIONS['q']}"):
    """Leaving the running match ``match`` (issue 15): ``action`` ``ask`` (the button in the
    player's private chat: show the confirmation), ``yes`` (leave), ``no`` (stay); only user
    ``user`` may press it."""

    match: Id
    user: Id
    action: Literal["ask", "yes", "no"]


class HoldCb(_Strict, CallbackData, prefix=f"k{VERSIONS['k']}"):
    """The group's answer to the question about a player's timeouts in match ``match`` at
    version ``ver``: ``bot`` (a computer player takes the seat) or ``end`` (the match ends
    by timeout, RULES.md §1.17)."""

    match: Id
    ver: Id
    choice: Literal["bot", "end"]


#: What a :class:`PlaceCb` button does: ``p`` plays its tile on its target, ``c`` shows the
#: targets its tile may go to (a tile that fits several trains), ``t`` goes back to the tiles.
PLACE_ACTIONS = ("p", "c", "t")
_TARGET = re.compile(r"^(?:([0-7])|(m)|([ab])(\d{1,2})?|c(\d{1,2}))$")


def target_code(p: Any) -> str:
    """The target of a placement on the trains or the sausage (anything with ``train``,
    ``line``, ``at`` and ``cut``, e.g. :class:`~service.views.PlacementOption`) in a few
    characters: ``"3"`` seat 3's train, ``"m"`` the Mexican train, ``"a"`` line a's end,
    ``"b2"`` a double inserted at position 2 of line b, ``"c4"`` a cut at 4.  Raises
    ``ValueError`` for a placement with no such target."""
    if p.train is not None:
        if p.train == "mexican":
            return "m"
        if isinstance(p.train, int) and 0 <= p.train <= 7:
            return str(p.train)
    elif p.line in ("a", "b"):
        if p.at is None:
            return p.line
        if isinstance(p.at, int) and 0 <= p.at <= 99:
            return f"{p.line}{p.at}"
    elif isinstance(p.cut, int) and 1 <= p.cut <= 99:
        return f"c{p.cut}"
    raise ValueError(f"not a target of the trains or the sausage: {p!r}")


def target_fields(code: str) -> dict[str, Any]:
    """The placement's fields (``train``, ``line``, ``at``, ``cut``) of a
    :func:`target_code`; ``ValueError`` for anything it does not produce."""
    m = _TARGET.match(code) if isinstance(code, str) else None
    if m is None or (m.group(4) is not None and str(int(m.group(4))) != m.group(4)) or \
            (m.group(5) is not None and (m.group(5).startswith("0"))):
        raise ValueError(f"not a target: {code!r}")
    seat, mexican, line, at, cut = m.groups()
    if seat is not None:
        return {"train": int(seat)}
    if mexican:
        return {"train": "mexican"}
    if line is not None:
        return {"line": line, "at": None if at is None else int(at)}
    return {"cut": int(cut)}


class PlaceCb(_Strict, CallbackData, prefix=f"y{VERSIONS['y']}"):
    """A placement button on the trains or the sausage (RULES.md §2.10.0, §2.11, §2.12):
    ``game`` the match id, ``ver`` the match version the keyboard was built for (any other is
    stale), ``act`` one of :data:`PLACE_ACTIONS`, ``tile`` the tile's id (0..90, any set),
    ``to`` its target (:func:`target_code`) for ``p``, ``""`` for ``c`` and ``t`` (``t``
    with tile 0).  Packs to at most 52 bytes."""

    game: Id
    ver: Id
    act: Literal["p", "c", "t"]
    tile: Annotated[int, Field(ge=0, le=90)]
    to: Annotated[str, Field(pattern=r"^[0-9a-z]{0,3}$")] = ""

    @model_validator(mode="after")
    def _fits_the_action(self) -> PlaceCb:
        if self.act == "p":
            target_fields(self.to)
        elif self.to or (self.act == "t" and self.tile):
            raise ValueError(f"no target for action {self.act!r}")
        return self

    @property
    def code(self) -> str:
        """The tile as a code ``"a-b"``."""
        a, b = _TILES[self.tile]
        return f"{a}-{b}"

    @property
    def placement(self) -> PlacementOption:
        """The placement a ``p`` button plays (for ``c``: the tile with no target yet)."""
        fields = target_fields(self.to) if self.to else {}
        return PlacementOption(self.code, None, **fields)


def place_callback(game_id: int, version: int, action: str, tile: Any = None,
                   target: Any = None) -> str:
    """Packed :class:`PlaceCb` data: ``action`` (:data:`PLACE_ACTIONS`) of ``tile`` (a code,
    a pair or an ``engine.Tile``) on ``target`` (anything :func:`target_code` reads) in match
    ``game_id`` at state ``version``."""
    return PlaceCb(game=game_id, ver=version, act=action,
                   tile=0 if tile is None else tile_id(tile),
                   to="" if target is None else target_code(target)).pack()


_FACTORIES: dict[str, type[CallbackData]] = {
    cls.__prefix__: cls
    for cls in (MoveCb, PlayCb, LobbyCb, SettingsCb, StopCb, LangCb, VariantCb, SoloCb, TopCb,
                StatsCb, HistoryCb, RecordCb, LeaveCb, HoldCb, PlaceCb)
}


def tile_id(tile: Any) -> int:
    """Id of a tile given as an object with ``a``/``b`` (``engine.Tile``), a pair, or a code
    ``"2-5"`` / ``"[2|5]"`` / ``"9-12"`` (the service's views), halves in either order: 0..27
    for double-six, up to 90 for double-12 (RULES.md §2.10).  Raises ``ValueError`` for
    anything that is not a tile of these sets."""
    try:
        if isinstance(tile, str):
            m = _CODE.fullmatch(tile)
            if m is None:
                raise ValueError(tile)
            a, b = int(m.group(1)), int(m.group(2))
        else:
            a, b = (tile.a, tile.b) if hasattr(tile, "a") else tuple(tile)
        return _TILE_ID[(min(a, b), max(a, b))]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a tile: {tile!r}") from exc


def tile_halves(tid: int) -> tuple[int, int]:
    """``(a, b)`` with ``a <= b`` of tile id ``tid``; ``ValueError`` outside 0..90."""
    if not isinstance(tid, int) or not 0 <= tid < len(_TILES):
        raise ValueError(f"not a tile id: {tid!r}")
    return _TILES[tid]


def end_code(end: str | None) -> str:
    """``"left"`` → ``"l"``, ``"right"`` → ``"r"``, None → ``"-"``; ``ValueError`` otherwise."""
    try:
        return _END_CODE[end]
    except KeyError:
        raise ValueError(f"not an end: {end!r}") from None


def move_callback(game_id: int, version: int, tile: Any, end: str | None) -> str:
    """Packed callback_data for playing ``tile`` at ``end`` (``"left"``/``"right"``/None) in
    match ``game_id`` at state ``version``."""
    return MoveCb(game=game_id, ver=version, tile=tile_id(tile), end=end_code(end)).pack()


def play_callback(game_id: int, version: int, action: str, placements: Any = ()) -> str:
    """Packed :class:`PlayCb` data: ``action`` (:data:`PLAY_ACTIONS`) with ``placements``
    (see :func:`pack_placements`) in match ``game_id`` at state ``version``.  Raises
    ``ValueError`` for placements that cannot travel or do not fit the action."""
    return PlayCb(game=game_id, ver=version, act=action,
                  move=pack_placements(placements)).pack()


def parse_callback(data: str | None) -> CallbackData:
    """Unpack any of this module's callback_data strings.

    Raises :class:`BadCallback` for None, an unknown prefix (including another version of a
    factory, :data:`VERSIONS`) or anything not in canonical form.
    """
    if not isinstance(data, str):
        raise BadCallback(f"no callback data: {data!r}")
    prefix = data.split(":", 1)[0]
    factory = _FACTORIES.get(prefix)
    if factory is None:
        raise BadCallback(f"unknown callback prefix {prefix!r}")
    return factory.unpack(data)
