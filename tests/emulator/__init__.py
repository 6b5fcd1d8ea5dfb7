"""The Bot API emulator of the tests: the local Telegram of :mod:`localtable.telegram` (product
code since issue 34, the local table's), plus what only tests need.

:class:`Emulator` serves the Bot API over HTTP on a loopback address (give its ``url`` to the
bot as ``BOT_API_URL``) and a control API under ``/control/``; :class:`EmulatorClient` drives
the control API; :mod:`tests.emulator.fixtures` has the pytest fixtures.  ``python -m
tests.emulator`` runs one standalone.  ``tests.emulator.world``, ``.botapi``, ``.html``,
``.webhook`` are the modules of :mod:`localtable.telegram` under their old names.
"""

from localtable.telegram import ApiError, ControlError, EmulatorConfig, FloodLimits, World

from .client import Button, ChatMessage, EmulatorClient, EmulatorError
from .server import DEFAULT_TOKEN, Emulator, close_bot

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
