"""Computer players' names in the reader's language (issue 20 item 10).

A computer player's seat stores the name it sat down under, «Бот Фёдор 🤖»
(:func:`service.bot_name` of one of :data:`service.PERSONAS`), and so do the views and the
game records.  Before a view is rendered for a chat, :func:`localized` gives the same view with
every such name in that chat's language: ``bot-name`` with the persona's ``bot-persona-<k>``
from ``locales/<code>/common.ftl`` («Бот Федір 🤖», «Bot Fyodor 🤖»).  Only names of seats
that are computer players (``bot`` set) are changed, and the computer player's name inside
«Оля → Бот Фёдор 🤖» (a seat a person left, as a record names it); a person who calls
themselves «Бот Фёдор 🤖» keeps the name.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any, TypeVar

from service.live.seats import PERSONA_GENDERS, PERSONAS, bot_name

from .i18n import SUPPORTED_LOCALES, Translator, get_translator

__all__ = ["bot_gender", "bot_names", "localize_name", "localized"]

T = TypeVar("T")

_STORED = re.compile("|".join(re.escape(bot_name(p)) for p in PERSONAS))
#: View fields that hold a computer player's name whatever the view (``HandedSeat.bot``).
_BOT_NAME_FIELDS = {"HandedSeat": ("bot",), "LeftSeat": ("bot",)}
#: View fields that hold names of any seat, a computer player's among them (a record's).
_NAMES_FIELDS = {"RecordCheck": ("names",)}


def bot_names(locale: str, tr: Translator | None = None) -> dict[str, str]:
    """``{stored name: the name in locale}`` for every persona (RULES.md says nothing of
    names; the personas are the bot's own)."""
    tr = tr if tr is not None else get_translator()
    return {bot_name(p): tr.plain(locale, "bot-name", persona=tr.plain(
        locale, f"bot-persona-{k + 1}")) for k, p in enumerate(PERSONAS)}


def bot_gender(name: str, tr: Translator | None = None) -> str:
    """The grammatical gender of the computer player called ``name`` — as stored, or in any
    locale's words (a view is put in the reader's language before it is rendered) — for a
    text's ``$gender`` selector: ``feminine`` or ``masculine`` (:data:`service.PERSONA_GENDERS`;
    ``masculine`` for a name that is no persona's)."""
    tr = tr if tr is not None else get_translator()
    for k, persona in enumerate(PERSONAS):
        names = {bot_name(persona)} | {
            tr.plain(loc, "bot-name", persona=tr.plain(loc, f"bot-persona-{k + 1}"))
            for loc in SUPPORTED_LOCALES}
        if name in names:
            return PERSONA_GENDERS[k]
    return "masculine"


def localize_name(name: str, locale: str, tr: Translator | None = None) -> str:
    """``name`` with every stored computer player's name in it put in ``locale``."""
    names = bot_names(locale, tr)
    return _STORED.sub(lambda m: names[m.group(0)], name)


def localized(view: T, locale: str, tr: Translator | None = None) -> T:
    """``view`` (any view of :mod:`service.views`, or a tuple or list of them, nested in
    any way) with the computer players' names in ``locale``; the same object when nothing
    changes (Russian, or no computer player)."""
    names = bot_names(locale, tr)
    if all(k == v for k, v in names.items()):
        return view

    def name(text: str) -> str:
        return _STORED.sub(lambda m: names[m.group(0)], text)

    def walk(value: Any) -> Any:
        if isinstance(value, tuple | list):
            items = [walk(v) for v in value]
            if all(a is b for a, b in zip(items, value, strict=True)):
                return value
            return type(value)(items)
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            return value
        changes: dict[str, Any] = {}
        kind = type(value).__name__
        for f in dataclasses.fields(value):
            old = getattr(value, f.name)
            if f.name == "name" and isinstance(old, str) and getattr(value, "bot", None):
                new: Any = name(old)
            elif f.name in _BOT_NAME_FIELDS.get(kind, ()) and isinstance(old, str):
                new = name(old)
            elif f.name in _NAMES_FIELDS.get(kind, ()) and isinstance(old, Sequence):
                new = type(old)(name(n) for n in old)
            elif isinstance(old, tuple | list) or dataclasses.is_dataclass(old):
                new = walk(old)
                if new is not old:
                    changes[f.name] = new
                continue
            else:
                continue
            if new != old:
                changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value

    return walk(view)
