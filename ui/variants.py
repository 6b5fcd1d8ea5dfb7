"""The games of the Kozel family as players name them: ids, names and other names (RULES.md §1,
§2.1–§2.9).

``/newgame морской`` in a group, ``/newgame 2 телефон hard`` in private: :func:`parse_variant`
reads a game from the words players type, in any of the bot's languages, whatever the chat's
language is.  What a game is and what it reads comes from the service
(:func:`service.live.rulebook.variant_infos`); every word that names it from the locales: its
name (``variant-name-<variant>``, or the ``variant-name`` selector) and its other names
(``variant-aliases-<variant>``, comma-separated) in every locale, so a new game is found by
its names as soon as its texts exist.  Nothing here knows a rule, and nothing is kept between
calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from service.live.rulebook import variant_infos
from service.views import VariantInfo

from .i18n import Translator

__all__ = ["names_of", "normalize", "parse_variant", "variant_name", "variants"]

_SPACES = re.compile(r"[\s_\-]+")
_QUOTES = re.compile(r"[«»\"'“”„’]")


def normalize(words: str) -> str:
    """Lower case, ``ё`` as ``е``, ``ґ`` as ``г``, quotes dropped, runs of spaces, ``_`` and
    ``-`` as one space: ``"Морской_Козёл"`` → ``"морской козел"``."""
    text = _QUOTES.sub("", words.casefold()).replace("ё", "е").replace("ґ", "г")
    return _SPACES.sub(" ", text).strip()


def names_of(tr: Translator, variant: str) -> tuple[str, ...]:
    """Every word that names ``variant`` (normalized, :func:`normalize`): its id, and in every
    locale of ``tr`` its name and its other names (``variant-aliases-<variant>``)."""
    words = [variant]
    for locale in tr.locales:
        words.append(variant_name(tr, locale, variant))
        if tr.has(locale, f"variant-aliases-{variant}"):
            words += tr.plain(locale, f"variant-aliases-{variant}").split(",")
    return tuple(dict.fromkeys(normalize(w) for w in words if w.strip()))


def parse_variant(words: str | Iterable[str], tr: Translator) -> str | None:
    """The game named by ``words`` (a string or the words of a command), or None when they
    name none: its id (``sea_goat``), or a name or another name in any locale of ``tr``
    (``морской``, ``осёл``, ``ччв``, ``Sport``), in any case, ``ё``/``е`` alike."""
    text = normalize(words if isinstance(words, str) else " ".join(words))
    if not text:
        return None
    for name in variant_infos():
        if text in names_of(tr, name):
            return name
    return None


def variants() -> tuple[VariantInfo, ...]:
    """Every game the bot offers, in menu order (classic first, then RULES.md §2)."""
    return tuple(variant_infos().values())


def variant_name(tr: Translator, locale: str, variant: str) -> str:
    """The game's name in ``locale`` as plain text (``Морской козёл``, ``Sport domino``):
    ``variant-name-<variant>`` where the locale has it (a game's own key), else the
    ``variant-name`` selector."""
    return tr.plain(locale, tr.pick(locale, f"variant-name-{variant}", "variant-name"),
                    variant=variant)
