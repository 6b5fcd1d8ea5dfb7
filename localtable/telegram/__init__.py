"""The local Telegram: a Bot API server on a loopback address, with the people and chats on
the other side of it, kept in memory (and in a file, :mod:`localtable.state`, for the local
table).

The bot cannot tell it from Telegram: :class:`TelegramServer` serves the Bot API over HTTP
(give its ``url`` to the bot as ``BOT_API_URL``) as Telegram answers it, with its checks, its
errors and its limits, and keeps every message, photo and keyboard in a :class:`World`.  People
act through the world (``user_send``, ``user_press``, ``follow_link``…): in the same process,
as the local table's page does (:mod:`localtable.page`), or through the control API under
``/control/`` over HTTP, as the tests do (``tests/emulator/``, whose ``EmulatorClient`` drives
it).  ``python -m localtable.telegram`` runs one alone.
"""

from .records import ApiError, ControlError, EmulatorConfig, FloodLimits
from .server import DEFAULT_TOKEN, TelegramServer, close_bot
from .world import World

__all__ = [
    "DEFAULT_TOKEN",
    "ApiError",
    "ControlError",
    "EmulatorConfig",
    "FloodLimits",
    "TelegramServer",
    "World",
    "close_bot",
]
