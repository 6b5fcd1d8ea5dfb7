"""The tests' :class:`Emulator`: the local Telegram's server (:mod:`localtable.telegram.server`)
that also hands out a control API client for itself."""

from __future__ import annotations

from localtable.telegram.server import DEFAULT_TOKEN, TelegramServer, close_bot

from .client import EmulatorClient

__all__ = ["DEFAULT_TOKEN", "Emulator", "close_bot"]


class Emulator(TelegramServer):
    """A :class:`~localtable.telegram.server.TelegramServer` with :meth:`client`."""

    def client(self) -> EmulatorClient:
        """A new :class:`EmulatorClient` for this emulator (close it when done)."""
        return EmulatorClient(self.url)
