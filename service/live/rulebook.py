"""The games the engine plays and their rule options, as the service offers them (RULES.md §1,
§2): a game's declaration (:func:`variant_infos`), a chat's stored overrides
(:func:`rules_overrides`), a lobby's switch to another game (:func:`switch_variant`) and the
number of players a game seats (:func:`rules_players`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from service.views import FlagInfo, MarkInfo, OptionInfo, VariantInfo

__all__ = ["VARIANT_NAMES", "full_rules", "rules_overrides", "rules_players",
           "switch_variant", "variant_infos"]


def _section_order(name: str) -> tuple[int, ...]:
    """The place of a game in RULES.md: its section's numbers (``"§2.10"`` → ``(2, 10)``)."""
    return tuple(int(x) for x in engine.VARIANTS[name].section.lstrip("§").split("."))


#: Every game the engine plays (``Rules.variant``), in the order of RULES.md: classic (§1),
#: then §2.1 … §2.12.
VARIANT_NAMES: tuple[str, ...] = tuple(sorted(engine.VARIANTS, key=_section_order))


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
    options, player counts, layout, whether it is a race, its goat word, its marks)."""
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
                flags=tuple(FlagInfo(f.name, f.during, f.at_end, f.names_losers)
                            for f in v.flags),
                scoring=v.scoring, counts_hands=bool(v.counts_hands),
                sets=tuple(v.sets),
                # a deal of face-down queues is one nobody sees (Колбаса, §2.12 rule 1)
                hidden_hands=v.deal_form == "queues")
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
