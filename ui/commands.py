"""Command menus for ``set_my_commands``: names are fixed (issue 4, "Commands"), descriptions
come from ``locales/`` (``cmd-<name>``)."""

from __future__ import annotations

from aiogram.types import BotCommand

from .i18n import Translator, get_translator

__all__ = ["GROUP_COMMANDS", "PRIVATE_COMMANDS", "bot_commands"]

#: Commands offered in groups, in menu order.
GROUP_COMMANDS: tuple[str, ...] = (
    "newgame", "join", "leave", "addbot", "startgame", "stopgame", "score", "top", "stats",
    "history", "record", "rules", "settings", "lang", "help",
)
#: Commands offered in the private chat, in menu order.
PRIVATE_COMMANDS: tuple[str, ...] = ("start", "newgame", "hand", "leave", "stopgame", "stats",
                                     "top", "history", "record", "replay", "lang", "help")
# Private descriptions that differ from the group's (there /top means the global board).
_PRIVATE_KEY = {"top": "cmd-top-private", "stats": "cmd-stats-private",
                "newgame": "cmd-newgame-private", "leave": "cmd-leave-private"}


def bot_commands(locale: str, scope: str, *, tr: Translator | None = None) -> list[BotCommand]:
    """The ``BotCommand`` list for ``scope`` ``"group"`` or ``"private"`` in ``locale``.

    Register with ``bot.set_my_commands(cmds, scope=BotCommandScopeAllGroupChats() |
    BotCommandScopeAllPrivateChats(), language_code=locale)`` for each shipped locale, plus
    once without ``language_code`` for the default.  Raises ``ValueError`` for another scope.
    """
    tr = tr if tr is not None else get_translator()
    if scope == "group":
        names, special = GROUP_COMMANDS, {}
    elif scope == "private":
        names, special = PRIVATE_COMMANDS, _PRIVATE_KEY
    else:
        raise ValueError(f"scope must be 'group' or 'private', not {scope!r}")
    return [
        BotCommand(command=name, description=tr.plain(locale, special.get(name, f"cmd-{name}")))
        for name in names
    ]
