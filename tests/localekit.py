"""Which words of a text belong to another locale than the chat's (issue 20 item 8).

Every word the bot may write comes from ``locales/<code>/*.ftl``; player names, chat titles
and tile codes come from people and the game.  A word of another locale's files that the
chat's own files never use is a text of the wrong language, and so is a word in a script the
chat's language does not write with: Cyrillic in an English chat, the letters only Ukrainian
has (і ї є ґ) in a Russian one, the letters only Russian has (ы э ъ ё) in a Ukrainian one.

:func:`foreign_words` is the check; the end-to-end test of every locale runs it over every
message, caption, button and picture label the bot showed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

from service.live.rulebook import variant_infos
from service.live.seats import STRENGTHS
from ui.i18n import LOCALES_DIR, SUPPORTED_LOCALES

__all__ = ["ARGUMENTS", "foreign_words", "vocabulary"]

_WORD = re.compile(r"[^\W\d_]+")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
#: Letters each Cyrillic locale writes and the other does not.
_OWN_LETTERS = {"ru": set("ыэъё"), "uk": set("іїєґ")}


def _arguments() -> frozenset[str]:
    words = list(variant_infos()) + list(STRENGTHS) + ["all"]
    return frozenset(w for x in words for w in _WORD.findall(x.lower()))


#: The words of commands' arguments, the same in every language: the games' ids
#: (``/newgame sea_goat``), the computer players' strengths, ``/top all``.
ARGUMENTS = _arguments()


class _Texts(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def visit_TextElement(self, node: ast.TextElement) -> None:
        self.texts.append(node.value)

    def visit_StringLiteral(self, node: ast.StringLiteral) -> None:
        self.texts.append(node.value)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


@cache
def vocabulary(locale: str) -> frozenset[str]:
    """Every word (letters only, lower case) of the texts of ``locales/<locale>/*.ftl``:
    values, attributes and the variants of selectors, placeables left out."""
    parser = FluentParser(with_spans=False)
    seen = _Texts()
    for path in sorted((LOCALES_DIR / locale).glob("*.ftl")):
        for entry in parser.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(entry, ast.Message | ast.Term):
                seen.visit(entry)
    return frozenset(w for t in seen.texts for w in _words(t))


def foreign_words(text: str | None, locale: str, *, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` that belong to another locale than ``locale`` (``ru``, ``uk`` or
    ``en``): words of another locale's texts that ``locale``'s texts never use, and words in
    letters ``locale`` does not write (above).  Words of ``allowed`` (player names, a chat's
    title) are skipped.  Empty when the text is all of ``locale``."""
    own = vocabulary(locale)
    others = frozenset().union(*(vocabulary(x) for x in SUPPORTED_LOCALES if x != locale))
    skip = ARGUMENTS | {w for a in allowed for w in _words(a)}
    out = []
    for word in _words(text or ""):
        if word in own or word in skip:
            continue
        if word in others:
            out.append(word)
        elif locale == "en" and _CYRILLIC.search(word):
            out.append(word)
        elif any(set(word) & letters for x, letters in _OWN_LETTERS.items() if x != locale):
            out.append(word)
    return out
