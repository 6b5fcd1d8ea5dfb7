"""The options of the rule book as one validated, immutable value (RULES.md §1, §2).

Which options exist, and which one a variant reads with which default, is said by the
variant (:mod:`engine.variant`): ``Rules(variant="sea_goat")`` has ``match_limit`` 125 and
``open_threshold`` 25 (RULES.md §2.1).  The options of §1 are fields of :class:`Rules`; an
option that only a variant reads (Телефон's several doubles, Семёрка's limit, …) is
declared by that variant as an :class:`Option` with its default and its values, and read as
an attribute of the rules all the same (``rules.multi_doubles``); it is None where the game
does not read it.  An option the variant does not read is refused with an error that names
the variant, unless it holds its §1 default (RULES.md §2).

The variants register themselves in :data:`VARIANTS` (:func:`engine.variant.register`); this
module imports no variant.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, NamedTuple

__all__ = ["Rules", "Option", "VARIANTS", "FISH_SCORINGS", "CLASSIC_DEFAULTS",
           "OPTION_RANGES", "SET_DEFAULT", "declared_options"]

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

#: What each option of §1 may hold: ``(lo, hi)`` for integers, ``bool``, or a tuple of words.
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
}


#: RULES.md §2.10.2: the option ``set`` (the double-N set a game is played with), §1's
#: default.  It is a field of :class:`Rules` beside §1's options, but not among
#: :data:`CLASSIC_DEFAULTS`: a variant reads it only where it declares it in its ``options``
#: (``mexican_train``, §2.11), with the values of its :attr:`engine.variant.Variant.sets`.
SET_DEFAULT = 6
#: What ``set`` may hold anywhere (RULES.md §2.10.2).
SET_RANGE = (6, 9, 12)


class Option(NamedTuple):
    """An option that only a variant reads, as the variant declares it in its ``options``
    (RULES.md §2): ``default``; ``allowed`` what it may hold (``(lo, hi)`` for integers,
    ``bool``, or a tuple of values); ``choices`` the values a chat is offered in its settings,
    as the buttons carry them (strings; None: the on/off pair of a ``bool``); ``unit`` what
    its number counts where the settings name the unit (``"points"``), else None.
    Its texts are ``settings-<name>`` and ``rules-<name>`` (``_`` written ``-``)."""

    default: Any
    allowed: Any
    choices: tuple[str, ...] | None = None
    unit: str | None = None


#: The registry: ``Rules.variant`` name → the variant object (:class:`engine.variant.Variant`),
#: filled by :func:`engine.variant.register`.
VARIANTS: dict[str, Any] = {}

_DECLARED: dict[str, Option] = {}
_DECLARED_FOR: list[tuple] = [()]


def declared_options() -> dict[str, Option]:
    """Every option that a registered variant declares (:class:`Option`), by name, the first
    declaration of a name first."""
    key = tuple(map(id, VARIANTS.values()))
    if _DECLARED_FOR[0] != key:
        _DECLARED.clear()
        for v in VARIANTS.values():
            for name, spec in v.own_options.items():
                _DECLARED.setdefault(name, spec)
        _DECLARED_FOR[0] = key
    return _DECLARED


@dataclass(frozen=True, slots=True, init=False)
class Rules:
    """Every option of RULES.md, resolved for one variant.

    Fields (units in brackets); None means "the variant's default" on input and "not read
    by this variant" after construction:

    - ``variant``: a name of :data:`VARIANTS` (RULES.md §1, §2.1–§2.9).
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
    - ``set``: the double-N set, 6, 9 or 12 (§2.10.2): 6 for every game but the one that
      reads it (``mexican_train``, 9 or 12, default 12; :attr:`engine.variant.Variant.sets`).
    - ``own``: the options the variant declares itself (:class:`Option`), as ``(name, value)``
      pairs in its order; each is also an attribute (``rules.deals``), None for a game that
      does not read it.

    Built as ``Rules(variant=..., **options)``.  Raises ``ValueError`` when an option is out
    of range, of the wrong type, or set for a variant that does not read it (the message
    names the variant and its rule section); ``TypeError`` for a name no game has.
    """

    variant: str
    bazar_reserve: int | None
    fish_without_double: bool | None
    lone_zero_double_value: int | None
    open_threshold: int | None
    fish_scoring: str | None
    teams: bool | None
    match_limit: int | None
    turn_timeout: int | None
    afk_limit: int | None
    set: int
    own: tuple[tuple[str, Any], ...]

    def __init__(self, variant: str = "classic", **options: Any) -> None:
        if variant not in VARIANTS:
            raise ValueError(
                f"rules: variant must be one of {tuple(VARIANTS)}, got {variant!r}")
        v = VARIANTS[variant]
        declared = declared_options()
        unknown = [k for k in options
                   if k not in CLASSIC_DEFAULTS and k not in declared and k != "set"]
        if unknown:
            raise TypeError(f"Rules() got an unexpected option {unknown[0]!r}")
        reads = v.options
        own = v.own_options
        set_ = object.__setattr__
        set_(self, "variant", variant)
        for name in CLASSIC_DEFAULTS:
            value = options.get(name)
            if name in reads:
                if value is None:
                    value = reads[name]
                _check(name, value, OPTION_RANGES[name])
                value = v.fixed.get(name, value)
            elif value is None:
                value = CLASSIC_DEFAULTS[name]
            else:
                _check(name, value, OPTION_RANGES[name])
                if value != CLASSIC_DEFAULTS[name]:
                    raise ValueError(_not_read(variant, name, v.section))
            set_(self, name, value)
        set_(self, "set", _set_of(v, options.get("set")))
        mine = []
        for name, spec in own.items():
            value = options.get(name)
            if value is None:
                value = spec.default
            _check(name, value, spec.allowed)
            mine.append((name, v.fixed.get(name, value)))
        for name, value in options.items():
            if name not in CLASSIC_DEFAULTS and name not in own and name != "set" \
                    and value is not None:
                _check(name, value, declared[name].allowed)
                raise ValueError(_not_read(variant, name, v.section))
        set_(self, "own", tuple(mine))

    def __getattr__(self, name: str) -> Any:
        # only called for a name that is not a field: the variant's own options
        if name.startswith("_") or name == "own":
            raise AttributeError(name)
        for key, value in self.own:
            if key == name:
                return value
        if name in declared_options():
            return None
        raise AttributeError(f"Rules has no option {name!r}")

    @property
    def spec(self):
        """The :class:`engine.variant.Variant` these rules play."""
        return VARIANTS[self.variant]

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
            with_set = f" with the double-{self.set} set" if self.set != SET_DEFAULT else ""
            raise ValueError(
                f"{self.variant} is played by {lo} to {hi} players{with_set}, not {players!r} "
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
        known = {f.name for f in fields(cls)} - {"own"} | set(declared_options())
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"rules: unknown option(s) {', '.join(unknown)}")
        return cls(**data)


def _set_of(v: Any, value: Any) -> int:
    """The ``set`` of rules for variant ``v`` (RULES.md §2.10.2): the variant's default when
    None; refused when it is not one of the variant's :attr:`~engine.variant.Variant.sets`,
    with the error of an option the variant does not read where it reads none."""
    reads = "set" in v.options
    if value is None:
        return v.options["set"] if reads else SET_DEFAULT
    _check("set", value, SET_RANGE)
    if value in v.sets:
        return value
    if not reads:
        raise ValueError(_not_read(v.name, "set", v.section))
    allowed = " or ".join(str(n) for n in v.sets)
    raise ValueError(f"rules: the variant {v.name} is played with set {allowed}, not "
                     f"{value} (RULES.md {v.section})")


def _not_read(variant: str, name: str, section: str) -> str:
    return (f"rules: the variant {variant} does not use {name} (RULES.md {section}); "
            "leave it out")


def _check(name: str, value: Any, spec: Any) -> None:
    if spec is bool:
        if type(value) is not bool:
            raise ValueError(f"rules: {name} must be true or false")
    elif isinstance(spec, tuple) and len(spec) == 2 and all(type(x) is int for x in spec):
        lo, hi = spec
        if type(value) is not int or not lo <= value <= hi:
            raise ValueError(f"rules: {name} must be an integer in {lo}..{hi}, got {value!r}")
    elif value not in spec or type(value) is bool:
        raise ValueError(f"rules: {name} must be one of {spec}, got {value!r}")
