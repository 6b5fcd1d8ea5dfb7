"""The computer players' strengths as players name them (issue 30 item 11): one set of words
per language, the same on the private set-up's buttons, in the texts and in the commands.

``/addbot hard``, ``/addbot сложный``, ``/newgame 3 морской складний``: :func:`parse_strength`
reads a strength from the word a player types — its id (``easy``, ``normal``, ``hard``,
:data:`service.live.seats.STRENGTHS`) or its word in any of the translator's languages
(``strength-word`` of ``locales/*/variants.ftl``), whatever the chat's language is;
:func:`strength_word` is the word a reader sees.  Nothing is kept between calls.
"""

from __future__ import annotations

from service.live.seats import STRENGTHS

from .i18n import Translator
from .variants import normalize

__all__ = ["parse_strength", "strength_word"]


def strength_word(tr: Translator, locale: str, strength: str) -> str:
    """The word of ``strength`` in ``locale`` (plain text): ``сложный``, ``hard``."""
    return tr.plain(locale, "strength-word", value=strength)


def parse_strength(word: str, tr: Translator) -> str | None:
    """The strength ``word`` names, or None: an id or its word in any locale of ``tr``, in
    any case, ``ё``/``е`` alike (``Лёгкий``, ``легкий``)."""
    wanted = normalize(word)
    for strength in STRENGTHS:
        if wanted == normalize(strength) or any(
                wanted == normalize(strength_word(tr, locale, strength))
                for locale in tr.locales):
            return strength
    return None
