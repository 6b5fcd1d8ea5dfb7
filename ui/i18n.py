"""Localized bot texts: Fluent (``.ftl``) files under ``locales/<code>/`` and the language choice.

Every user-facing string of the bot lives in ``locales/ru``, ``locales/uk`` and ``locales/en``
(issue 4, "Settings, languages"; the game words follow RULES.md §0).  Messages are written in
Telegram's HTML parse mode, so :meth:`Translator.t` HTML-escapes every ``str`` argument
(player names, chat titles) unless it is wrapped in :class:`Markup`; :meth:`Translator.plain`
does not escape and is meant for texts that Telegram shows without parsing (callback alerts,
command descriptions, button labels).

Key naming: lower-case kebab-case with the area as the first word: ``lobby-…``, ``btn-…``,
``err-…`` (alerts), ``table-…``, ``log-…`` (action lines), ``hand-…``, ``round-…``,
``match-…``, ``notice-…``, ``help-…``, ``cmd-…`` (command descriptions), ``settings-…``,
``opt-…`` (option values), ``rules-…`` (rule summary), ``top-…``, ``stats-…``, ``lang-…``,
``variant-…`` (the games' names and short rules), ``goat-word``, ``solo-…`` (the private
set-up), plus the plural helpers ``points``, ``tiles``, ``players``, ``matches``, ``times``,
``seconds``, ``minutes``.

Nothing is read at import time: files load on the first :func:`get_translator` call or when a
:class:`Translator` is built.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast

__all__ = [
    "SUPPORTED_LOCALES",
    "DEFAULT_LOCALE",
    "LOCALES_DIR",
    "Markup",
    "MissingTranslation",
    "Translator",
    "get_translator",
    "t",
    "normalize_locale",
    "choose_locale",
]

log = logging.getLogger(__name__)

#: Locale codes the bot ships, in the order they are offered in the language menu.
SUPPORTED_LOCALES: tuple[str, ...] = ("ru", "uk", "en")
#: The locale used when nothing else decides (overridable by the ``DEFAULT_LOCALE`` setting).
DEFAULT_LOCALE = "ru"
#: ``<repo>/locales``.
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"

# Telegram ``language_code`` primary subtags that map onto a shipped locale.  Besides the exact
# codes: "ua" is a common non-standard code for Ukrainian, and Belarusian users read Russian.
_LANGUAGE_MAP = {"ru": "ru", "uk": "uk", "ua": "uk", "en": "en", "be": "ru"}


class Markup(str):
    """Text that is already valid Telegram HTML; :meth:`Translator.t` inserts it unescaped.

    Use it for fragments built from other translations or from :func:`html.escape`-d input,
    never for raw user input.
    """

    __slots__ = ()


class MissingTranslation(KeyError):
    """Raised by a strict :class:`Translator` for a key no locale defines, or a message that
    fails to format (e.g. a missing argument)."""


def _parse_locale_code(code: str | None) -> str | None:
    if not code:
        return None
    primary = code.strip().replace("_", "-").split("-", 1)[0].lower()
    return _LANGUAGE_MAP.get(primary)


def normalize_locale(code: str | None) -> str | None:
    """Map a locale or Telegram ``language_code`` (``"ru"``, ``"uk-UA"``, ``"en_GB"``) onto a
    shipped locale code, or return None when the bot has no such language.

    Only the primary subtag counts; ``"ua"`` maps to ``"uk"`` and ``"be"`` to ``"ru"``.
    """
    return _parse_locale_code(code)


def choose_locale(
    *,
    is_group: bool,
    chat_locale: str | None = None,
    user_locale: str | None = None,
    telegram_code: str | None = None,
    default: str = DEFAULT_LOCALE,
) -> str:
    """The locale for one reply (issue 4, "Settings, languages").

    - In a group (``is_group``): the chat's setting ``chat_locale``, else ``default``.
    - In private: the user's own choice ``user_locale`` (``/lang``), else the user's Telegram
      ``language_code`` (``telegram_code``) mapped by :func:`normalize_locale`, else ``default``.

    Unknown codes are skipped as if absent.  ``default`` itself is normalized and falls back to
    :data:`DEFAULT_LOCALE`.  Returns one of :data:`SUPPORTED_LOCALES`.
    """
    fallback = normalize_locale(default) or DEFAULT_LOCALE
    if is_group:
        return normalize_locale(chat_locale) or fallback
    return normalize_locale(user_locale) or normalize_locale(telegram_code) or fallback


def _escape_args(args: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in args.items():
        if isinstance(v, Markup):
            out[k] = str(v)
        elif isinstance(v, str):
            out[k] = html.escape(v, quote=False)
        else:
            out[k] = v
    return out


def _add_resource(bundle: FluentBundle, text: str, where: str) -> None:
    """Add a Fluent text to ``bundle``; ``ValueError`` (naming ``where``) for a syntax error
    or a key the bundle already has."""
    resource = FluentResource(text)
    for entry in resource.body:
        if isinstance(entry, ast.Junk):
            raise ValueError(f"{where}: syntax error near {entry.content[:60]!r}")
        if isinstance(entry, ast.Message) and bundle.has_message(entry.id.name):
            raise ValueError(f"{where}: key {entry.id.name!r} is defined twice")
    bundle.add_resource(resource)


#: Formatted texts a translator remembers before it starts afresh.
_MEMO_SIZE = 50_000


class Translator:
    """All locales' Fluent bundles, with fallback to the default locale.

    ``locales_dir/<code>/*.ftl`` are loaded for every code in ``locales`` (files in name order;
    a later file may not redefine a key).  ``strict=True`` (tests) raises
    :class:`MissingTranslation` for unknown keys and formatting errors; otherwise they are
    logged and the key itself (or the partially formatted text) is returned, so a missing
    string never crashes a handler.

    ``extra`` adds Fluent texts to locales (``{locale: text}``: a game's own texts that are
    not in ``locales/``, e.g. a game that exists only in a test); they may not redefine a
    key.

    Raises ``FileNotFoundError`` when a locale has no ``.ftl`` file and ``ValueError`` when a
    file (or an ``extra`` text) has a syntax error or redefines a key, so a broken locale
    fails at start-up rather than mid-game.  A translator never changes once made; it
    remembers formatted texts (a memo of a pure function).
    """

    def __init__(
        self,
        locales_dir: Path | str = LOCALES_DIR,
        *,
        default: str = DEFAULT_LOCALE,
        locales: Iterable[str] = SUPPORTED_LOCALES,
        strict: bool = False,
        extra: Mapping[str, str] | None = None,
    ) -> None:
        self.locales_dir = Path(locales_dir)
        self.locales: tuple[str, ...] = tuple(locales)
        if default not in self.locales:
            raise ValueError(f"default locale {default!r} is not one of {self.locales}")
        self.default = default
        self.strict = strict
        self._memo: dict[Any, str] = {}
        self._bundles: dict[str, FluentBundle] = {}
        for code in self.locales:
            self._bundles[code] = self._load(code)
        for code, text in (extra or {}).items():
            _add_resource(self._bundles[code], text, f"{code} (extra)")

    def _load(self, code: str) -> FluentBundle:
        files = sorted((self.locales_dir / code).glob("*.ftl"))
        if not files:
            raise FileNotFoundError(f"no .ftl files for locale {code!r} in {self.locales_dir}")
        bundle = FluentBundle([code], use_isolating=False)
        for path in files:
            _add_resource(bundle, path.read_text(encoding="utf-8"), str(path))
        return bundle

    def pick(self, locale: str | None, *keys: str) -> str:
        """The first of ``keys`` that ``locale`` or the default locale defines, else the last
        one: a game's own text before the generic one (``mark-table-seven``, then
        ``mark-table``; ``docs/ENGINE_API.md``, "Adding a variant")."""
        chain = (self.resolve(locale), self.default)
        for key in keys[:-1]:
            if any(self._bundles[code].has_message(key) for code in chain):
                return key
        return keys[-1]

    def resolve(self, locale: str | None) -> str:
        """``locale`` if this translator has it, else the default locale."""
        return locale if locale in self._bundles else self.default

    def has(self, locale: str, key: str) -> bool:
        """Whether ``locale`` itself (no fallback) defines message ``key``."""
        bundle = self._bundles.get(locale)
        return bundle is not None and bundle.has_message(key)

    def _format(self, locale: str | None, key: str, args: Mapping[str, Any]) -> str:
        # The table and the hands are rendered again after every move, mostly from the same
        # lines: a formatted text is remembered (Fluent formatting is pure).
        try:
            memo_key: Any = (locale, key, tuple(sorted(args.items())))
            hash(memo_key)
        except TypeError:
            memo_key = None
        if memo_key is not None:
            hit = self._memo.get(memo_key)
            if hit is not None:
                return hit
        text, ok = self._format_uncached(locale, key, args)
        if ok and memo_key is not None:
            if len(self._memo) >= _MEMO_SIZE:
                self._memo.clear()
            self._memo[memo_key] = text
        return text

    def _format_uncached(self, locale: str | None, key: str, args: Mapping[str, Any]
                         ) -> tuple[str, bool]:
        """The text and whether it was formatted without any error or fallback."""
        chain = [self.resolve(locale)]
        if self.default not in chain:
            chain.append(self.default)
        for code in chain:
            bundle = self._bundles[code]
            if not bundle.has_message(key):
                continue
            message = bundle.get_message(key)
            if message.value is None:
                break
            text, errors = bundle.format_pattern(message.value, dict(args))
            if errors:
                if self.strict:
                    raise MissingTranslation(f"{code}:{key}: {errors[0]}")
                log.warning("locale %s key %s: %s", code, key, errors[0])
            if code != chain[0]:
                log.warning("locale %s has no key %s; used %s", chain[0], key, code)
            return str(text), not errors and code == chain[0]
        if self.strict:
            raise MissingTranslation(f"{key!r} is not defined in {chain}")
        log.error("translation key %s is missing in %s", key, chain)
        return key, False

    def t(self, locale: str | None, key: str, /, **args: Any) -> str:
        """The message ``key`` in ``locale`` (fallback: the default locale) as Telegram HTML.

        ``str`` arguments are HTML-escaped (wrap trusted HTML in :class:`Markup`); numbers are
        formatted by Fluent with the locale's plural rules, e.g. ru ``points``: 1 очко /
        2 очка / 5 очков.
        """
        return self._format(locale, key, _escape_args(args))

    def plain(self, locale: str | None, key: str, /, **args: Any) -> str:
        """Like :meth:`t` but without escaping: for callback alerts, button labels and command
        descriptions, which Telegram shows as plain text."""
        return self._format(locale, key, args)

    def message_ids(self, locale: str) -> frozenset[str]:
        """The message keys ``locale`` defines (terms excluded)."""
        return frozenset(self._bundles[locale]._messages)


@lru_cache(maxsize=4)
def get_translator(default: str = DEFAULT_LOCALE) -> Translator:
    """The shared translator over :data:`LOCALES_DIR` (built once per ``default``)."""
    return Translator(default=normalize_locale(default) or DEFAULT_LOCALE)


def t(locale: str | None, key: str, /, **args: Any) -> str:
    """Shortcut for ``get_translator().t(locale, key, **args)`` (HTML-escaped arguments)."""
    return get_translator().t(locale, key, **args)
