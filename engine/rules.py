"""The options of the rule book as one validated, immutable value (RULES.md §1)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = ["Rules", "FISH_SCORINGS", "VARIANTS"]

#: RULES.md §1.13: the three ways of scoring a fish.
FISH_SCORINGS = ("all_to_max", "each_own", "own_to_max")
#: RULES.md §1, §2: variants this engine plays.
VARIANTS = ("classic",)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of RULES.md with its default.

    Fields (units in brackets):

    - ``variant``: ``"classic"`` (RULES.md §1).
    - ``bazar_reserve``: 0, 1 or 2 tiles at the end of the bazar that may never be drawn (§1.4).
    - ``fish_without_double``: fish when both open ends show *n* and the six non-doubles of *n*
      are in the chain (§1.10 b).
    - ``lone_zero_double_value``: points of a hand that is the single tile [0|0] (§1.11).
    - ``open_threshold``: round points that open a score (§1.12) [points].
    - ``fish_scoring``: ``"all_to_max"`` (default), ``"each_own"`` or ``"own_to_max"`` (§1.13).
    - ``teams``: seats 1+3 against 2+4; needs 4 players (§1.14).
    - ``match_limit``: open score that makes a goat (§1.15) [points].
    - ``turn_timeout``: time for one turn (§1.17) [seconds].
    - ``afk_limit``: consecutive host moves that interrupt the match (§1.17).

    Raises ``ValueError`` on construction when an option is out of range or of the wrong type.
    """

    variant: str = "classic"
    bazar_reserve: int = 0
    fish_without_double: bool = True
    lone_zero_double_value: int = 10
    open_threshold: int = 13
    fish_scoring: str = "all_to_max"
    teams: bool = False
    match_limit: int = 101
    turn_timeout: int = 60
    afk_limit: int = 2

    def __post_init__(self) -> None:
        def _int(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if type(v) is not int or not lo <= v <= hi:
                raise ValueError(f"rules: {name} must be an integer in {lo}..{hi}, got {v!r}")

        def _bool(name: str) -> None:
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"rules: {name} must be true or false")

        if self.variant not in VARIANTS:
            raise ValueError(f"rules: variant must be one of {VARIANTS}, got {self.variant!r}")
        if self.fish_scoring not in FISH_SCORINGS:
            raise ValueError(
                f"rules: fish_scoring must be one of {FISH_SCORINGS}, got {self.fish_scoring!r}"
            )
        _int("bazar_reserve", 0, 2)
        _int("lone_zero_double_value", 0, 100)
        _int("open_threshold", 0, 1000)
        _int("match_limit", 1, 10000)
        _int("turn_timeout", 5, 86400)
        _int("afk_limit", 1, 100)
        _bool("fish_without_double")
        _bool("teams")

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` unless ``players`` may play under these rules (§1.1, §1.14)."""
        if type(players) is not int or not 2 <= players <= 4:
            raise ValueError(f"Kozel is played by 2 to 4 players, not {players!r} (RULES.md §1.1)")
        if self.teams and players != 4:
            raise ValueError("team play needs exactly 4 players (RULES.md §1.14)")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every option; :meth:`from_json` restores an equal value."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Rules:
        """Build rules from a dict; missing options take their defaults.

        Raises ``ValueError`` on unknown keys or invalid values.
        """
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"rules: unknown option(s) {', '.join(unknown)}")
        return cls(**data)
