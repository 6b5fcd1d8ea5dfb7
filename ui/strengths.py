"""The computer players' strengths as players name them (issue 30 item 11): one set of words
per language, the same on the private set-up's buttons, in the texts and in the commands.

``/addbot hard``, ``/addbot сложный``, ``/newgame 3 морской складний``: :func:`parse_strength`
reads a strength from the word a player types — its id (``easy``, ``normal``, ``hard``,
:data:`service.STRENGTHS`) or its word in any of the bot's languages (``strength-word`` of
``locales/*/variants.ftl``), whatever the chat's language is; :func:`strength_word` is the
word a reader sees.
"""

from __future__ import annotations

from service import STRENGTHS

from .i18n import SUPPORTED_LOCALES, Translator, get_translator
from .variants import normalize

__all__ = ["parse_strength", "strength_word"]

_INDEX: dict[str, str] = {}


def strength_word(tr: Translator, locale: str, strength: str) -> str:
    """The word of ``strength`` in ``locale`` (plain text): ``сложный``, ``hard``."""
    return tr.plain(locale, "strength-word", value=strength)


def parse_strength(word: str, tr: Translator | None = None) -> str | None:
    """The strength ``word`` names, or None: an id or the word of any locale, in any case,
    ``ё``/``е`` alike (``Лёгкий``, ``легкий``)."""
    if not _INDEX:
        tr = tr if tr is not None else get_translator()
        for strength in STRENGTHS:
            _INDEX[normalize(strength)] = strength
            for locale in SUPPORTED_LOCALES:
                _INDEX[normalize(strength_word(tr, locale, strength))] = strength
    return _INDEX.get(normalize(word))
