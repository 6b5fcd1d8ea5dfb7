"""The games of the Kozel family as players name them: ids, names and aliases (RULES.md §1,
§2.1–§2.9).

``/newgame морской`` in a group, ``/newgame 2 телефон hard`` in private: :func:`parse_variant`
reads a game from the words players type, in any of the bot's languages, whatever the chat's
language is.  What a game is and what it reads comes from the service
(:func:`service.live.rulebook.variant_infos`); its name in the reader's language from the locales
(``variant-name``).  Nothing here knows a rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from service.live.rulebook import variant_infos
from service.views import VariantInfo

from .i18n import Translator

__all__ = ["ALIASES", "parse_variant", "variant_name", "variants", "normalize"]

#: Words that name each game (besides its id), in Russian, Ukrainian and English: the names
#: of RULES.md §2 and of the seeds' pages, written as :func:`normalize` leaves them.
ALIASES: dict[str, tuple[str, ...]] = {
    "classic": ("kozel", "goat", "classic kozel", "козел", "классика", "классический",
                "классический козел", "класика", "класичний", "класичний козел", "коза"),
    "sea_goat": ("sea", "seagoat", "sea goat", "морской", "морской козёл", "морський",
                 "морський козел"),
    "donkey": ("osel", "осел", "ослик", "закрывашки", "віслюк", "закривашки"),
    "chcv": ("chchv", "chechev", "ччв", "чечевэ", "чечеве", "человек человеку волк",
             "ллв", "людина людині вовк"),
    "telephone": ("phone", "телефон", "домики", "будиночки"),
    "muggins": ("маггинс", "магинс", "маггінс", "магінс", "маґінс"),
    "traditional": ("trad", "traditional domino", "традиционное", "традиционное домино",
                    "традиционный", "традиційне", "традиційне доміно"),
    "sport": ("sports", "sport domino", "спорт", "спортивное", "спортивное домино",
              "спортивне", "спортивне доміно"),
    "seven": ("sevens", "semerka", "семёрка", "сімка"),
    "general": ("генерал",),
}

_SPACES = re.compile(r"[\s_\-]+")
_QUOTES = re.compile(r"[«»\"'“”„’]")


def normalize(words: str) -> str:
    """Lower case, ``ё`` as ``е``, ``ґ`` as ``г``, quotes dropped, runs of spaces, ``_`` and
    ``-`` as one space: ``"Морской_Козёл"`` → ``"морской козел"``."""
    text = _QUOTES.sub("", words.casefold()).replace("ё", "е").replace("ґ", "г")
    return _SPACES.sub(" ", text).strip()


def _index() -> dict[str, str]:
    index: dict[str, str] = {}
    for name in variant_infos():
        for word in (name, *ALIASES.get(name, ())):
            index[normalize(word)] = name
    return index


_INDEX: dict[str, str] = {}


def parse_variant(words: str | Iterable[str]) -> str | None:
    """The game named by ``words`` (a string or the words of a command), or None when they
    name none: its id (``sea_goat``), or a name or alias in ru, uk or en (``морской``,
    ``осёл``, ``ччв``, ``Sport``), in any case, ``ё``/``е`` alike."""
    if not _INDEX:
        _INDEX.update(_index())
    text = words if isinstance(words, str) else " ".join(words)
    return _INDEX.get(normalize(text))


def variants() -> tuple[VariantInfo, ...]:
    """Every game the bot offers, in menu order (classic first, then RULES.md §2)."""
    return tuple(variant_infos().values())


def variant_name(tr: Translator, locale: str, variant: str) -> str:
    """The game's name in ``locale`` as plain text (``Морской козёл``, ``Sport domino``):
    ``variant-name-<variant>`` where the locale has it (a game's own key), else the
    ``variant-name`` selector."""
    return tr.plain(locale, tr.pick(locale, f"variant-name-{variant}", "variant-name"),
                    variant=variant)
