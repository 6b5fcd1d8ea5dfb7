"""The logs: which update, chat and match a line is about, and how lines are written
(issue 33, "Structured logs").

:func:`bind` notes the ids of the work at hand in context variables (they follow the work into
the tasks it starts); :class:`IdsFilter` puts them on every record as ``update_id``,
``chat_id`` and ``match_id`` (None when unknown).  :func:`configure` sets up the root logger:
plain text (``LOG_FORMAT=text``, the ids appended in brackets) or one JSON object a line
(``LOG_FORMAT=json``, through ``python-json-logger``), the ids as fields.  In normal operation
(INFO) nothing is logged per request or per update: aiohttp's access log and aiogram's
"update handled" lines are kept for DEBUG.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from contextvars import ContextVar

__all__ = ["IdsFilter", "bind", "bound", "configure"]

_IDS: dict[str, ContextVar[int | None]] = {
    name: ContextVar(f"kozel_{name}", default=None)
    for name in ("update_id", "chat_id", "match_id")}

#: Loggers that write a line per request or per update at INFO.
_CHATTY = ("aiohttp.access", "aiogram.event")


def bind(*, update_id: int | None = None, chat_id: int | None = None,
         match_id: int | None = None) -> None:
    """Note the ids of the work at hand for every later log line of this task (and of the
    tasks it starts); an id left None keeps its value."""
    for name, value in (("update_id", update_id), ("chat_id", chat_id),
                        ("match_id", match_id)):
        if value is not None:
            _IDS[name].set(int(value))


@contextlib.contextmanager
def bound(*, update_id: int | None = None, chat_id: int | None = None,
          match_id: int | None = None) -> Iterator[None]:
    """:func:`bind` for the ``with`` block only (the ids before it come back after)."""
    tokens = [(_IDS[name], _IDS[name].set(int(value)))
              for name, value in (("update_id", update_id), ("chat_id", chat_id),
                                  ("match_id", match_id)) if value is not None]
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


class IdsFilter(logging.Filter):
    """Puts the bound ids on each record (``record.update_id`` …, None when unbound) and,
    with ``text``, a text form of those that are bound (``record.ids``: `` [update=…
    chat=…]`` or empty)."""

    def __init__(self, *, text: bool = True) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        parts = []
        for name, var in _IDS.items():
            value = var.get()
            if getattr(record, name, None) is None:
                setattr(record, name, value)
            if getattr(record, name) is not None:
                parts.append(f"{name.removesuffix('_id')}={getattr(record, name)}")
        if self.text:
            record.ids = f" [{' '.join(parts)}]" if parts else ""
        return True


def configure(level: str = "INFO", fmt: str = "text", stream: object = None) -> None:
    """Set up the root logger: ``level`` (a logging level's name), ``fmt`` ``"text"`` or
    ``"json"``, written to ``stream`` (stderr).  Replaces the root's handlers.  Raises
    ``ValueError`` for another ``fmt``."""
    handler = logging.StreamHandler(stream or sys.stderr)
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter(
            "%(asctime)s %(levelname)s %(name)s %(message)s %(update_id)s %(chat_id)s "
            "%(match_id)s", rename_fields={"levelname": "level", "name": "logger"}))
    elif fmt == "text":
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s%(ids)s"))
    else:
        raise ValueError(f"unknown log format {fmt!r}: text or json")
    handler.addFilter(IdsFilter(text=fmt == "text"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    quiet = logging.DEBUG if root.level <= logging.DEBUG else logging.WARNING
    for name in _CHATTY:
        logging.getLogger(name).setLevel(quiet)
