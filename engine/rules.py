"""The options of the rule book as one validated, immutable value (RULES.md §1, §2).

Which options exist, and which one a variant reads with which default, is said by the
variant (:mod:`engine.variant`): ``Rules(variant="sea_goat")`` has ``match_limit`` 125 and
``open_threshold`` 25 (RULES.md §2.1).  An option the variant does not read is refused with an
error that names the variant, unless it holds its §1 default (RULES.md §2); options that
exist only in variants (``multi_doubles``, ``both_doubles_value``, ``deals``, ``sticks``,
``losses``) are None where they are not read.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

__all__ = ["Rules", "FISH_SCORINGS", "CLASSIC_DEFAULTS", "OPTION_RANGES"]

#: RULES.md §1.13: the three ways of scoring a fish.
FISH_SCORINGS = ("all_to_max", "each_own", "own_to_max")

#: The §1 default of every option of classic Kozel (RULES.md §1).
CLASSIC_DEFAULTS: dict[str, Any] = {
    "bazar_reserve": 0,
    "fish_without_double": True,
    "lone_zero_double_value": 10,
    "open_threshold": 13,
    "fish_scoring": "all_to_max",
    "teams": False,
    "match_limit": 101,
    "turn_timeout": 60,
    "afk_limit": 2,
}

#: What each option may hold: ``(lo, hi)`` for integers, ``bool``, or a tuple of words.
OPTION_RANGES: dict[str, Any] = {
    "bazar_reserve": (0, 2),
    "fish_without_double": bool,
    "lone_zero_double_value": (0, 100),
    "open_threshold": (0, 1000),
    "fish_scoring": FISH_SCORINGS,
    "teams": bool,
    "match_limit": (1, 10000),
    "turn_timeout": (5, 86400),
    "afk_limit": (1, 100),
    "multi_doubles": bool,
    "both_doubles_value": (0, 1000),
    "deals": (4, 8, 12, 16),
    "sticks": (1, 20),
    "losses": (1, 20),
}


_REGISTRY: dict[str, Any] = {}


def _variants() -> dict[str, Any]:
    """The variant registry (:data:`engine.variant.VARIANTS`), imported on first use."""
    global _REGISTRY
    if not _REGISTRY:
        from .variant import VARIANTS as registry

        _REGISTRY = registry
    return _REGISTRY


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of RULES.md, resolved for one variant.

    Fields (units in brackets); None means "the variant's default" on input and "not read
    by this variant" after construction (variant-only options):

    - ``variant``: a name of :data:`engine.variant.VARIANTS` (RULES.md §1, §2.1–§2.9).
    - ``bazar_reserve``: 0, 1 or 2 tiles at the end of the bazar that may never be drawn (§1.4).
    - ``fish_without_double``: fish when all open ends show *n* and the six non-doubles of *n*
      are on the table (§1.10 b, §2.0.5 b).
    - ``lone_zero_double_value``: points of a hand that is the single tile [0|0] (§1.11).
    - ``open_threshold``: round points that open a score (§1.12, §2.1 rule 4) [points].
    - ``fish_scoring``: ``"all_to_max"``, ``"each_own"`` or ``"own_to_max"`` (§1.13).
    - ``teams``: seats 1+3 against 2+4; needs 4 players (§1.14).
    - ``match_limit``: the score that makes a goat, or wins a race (§1.15, §2.0.7) [points].
    - ``turn_timeout``: time for one turn (§1.17) [seconds].
    - ``afk_limit``: consecutive host moves that interrupt the match (§1.17).
    - ``multi_doubles``: several doubles in one move (Телефон, §2.4).
    - ``both_doubles_value``: a hand of only [0|0] and [6|6] (Морской козёл, §2.1 rule 2)
      [points].
    - ``deals``: the number of rounds of sport domino (§2.7): 4, 8, 12 or 16.
    - ``sticks``: sticks that send a player out of Семёрка (§2.8 rule 8).
    - ``losses``: lost rounds that make a team the goat of Генерал (§2.9 rule 4).

    Raises ``ValueError`` on construction when an option is out of range, of the wrong type,
    or set for a variant that does not read it (the message names the variant and its rule
    section).
    """

    variant: str = "classic"
    bazar_reserve: int | None = None
    fish_without_double: bool | None = None
    lone_zero_double_value: int | None = None
    open_threshold: int | None = None
    fish_scoring: str | None = None
    teams: bool | None = None
    match_limit: int | None = None
    turn_timeout: int | None = None
    afk_limit: int | None = None
    multi_doubles: bool | None = None
    both_doubles_value: int | None = None
    deals: int | None = None
    sticks: int | None = None
    losses: int | None = None

    def __post_init__(self) -> None:
        registry = _variants()
        if self.variant not in registry:
            raise ValueError(
                f"rules: variant must be one of {tuple(registry)}, got {self.variant!r}")
        v = registry[self.variant]
        reads = v.options
        for f in fields(self):
            name = f.name
            if name == "variant":
                continue
            value = getattr(self, name)
            if name in reads:
                if value is None:
                    value = reads[name]
                _check(name, value)
                value = v.fixed.get(name, value)
            elif value is None:
                value = CLASSIC_DEFAULTS.get(name)
            else:
                _check(name, value)
                if name not in CLASSIC_DEFAULTS or value != CLASSIC_DEFAULTS[name]:
                    raise ValueError(
                        f"rules: the variant {self.variant} does not use {name} "
                        f"(RULES.md {v.section}); leave it out")
            object.__setattr__(self, name, value)

    @property
    def spec(self):
        """The :class:`engine.variant.Variant` these rules play."""
        return (_REGISTRY or _variants())[self.variant]

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` unless ``players`` may play under these rules (§1.1, §1.14,
        and the variant's own count, e.g. exactly 4 in sport domino §2.7)."""
        lo, hi = self.spec.players_range(self)
        if type(players) is not int or not lo <= players <= hi:
            if self.teams and lo == hi == 4:
                raise ValueError("team play needs exactly 4 players (RULES.md §1.14)")
            if self.variant == "classic":
                raise ValueError(
                    f"Kozel is played by 2 to 4 players, not {players!r} (RULES.md §1.1)")
            raise ValueError(
                f"{self.variant} is played by {lo} to {hi} players, not {players!r} "
                f"(RULES.md {self.spec.section})")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: the variant and every option it reads; :meth:`from_json`
        restores an equal value."""
        out: dict[str, Any] = {"variant": self.variant}
        for name in self.spec.options:
            out[name] = getattr(self, name)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Rules:
        """Build rules from a dict; missing options take the variant's defaults.

        Raises ``ValueError`` on unknown keys or invalid values.
        """
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"rules: unknown option(s) {', '.join(unknown)}")
        return cls(**data)


def _check(name: str, value: Any) -> None:
    spec = OPTION_RANGES[name]
    if spec is bool:
        if type(value) is not bool:
            raise ValueError(f"rules: {name} must be true or false")
    elif isinstance(spec, tuple) and len(spec) == 2 and all(type(x) is int for x in spec):
        lo, hi = spec
        if type(value) is not int or not lo <= value <= hi:
            raise ValueError(f"rules: {name} must be an integer in {lo}..{hi}, got {value!r}")
    elif value not in spec or type(value) is bool:
        raise ValueError(f"rules: {name} must be one of {spec}, got {value!r}")
