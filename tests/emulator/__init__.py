"""A local stand-in for the Telegram Bot API, for end-to-end tests and load benchmarks.

Not shipped with the bot.  :class:`Emulator` serves the Bot API over HTTP on a loopback
address (give its ``url`` to the bot as ``BOT_API_URL``) and a control API under
``/control/``; :class:`EmulatorClient` drives the control API; :mod:`tests.emulator.fixtures`
has the pytest fixtures.  ``python -m tests.emulator`` runs one standalone.
"""

from .client import Button, ChatMessage, EmulatorClient, EmulatorError
from .server import DEFAULT_TOKEN, Emulator, close_bot
from .world import ApiError, ControlError, EmulatorConfig, FloodLimits, World

__all__ = [
    "DEFAULT_TOKEN",
    "ApiError",
    "Button",
    "ChatMessage",
    "ControlError",
    "Emulator",
    "EmulatorClient",
    "EmulatorConfig",
    "EmulatorError",
    "FloodLimits",
    "World",
    "close_bot",
]
