"""Entry point: settings → logging (``LOG_FORMAT``: text or JSON) → the app wired once
(database migrated, service, delivery) → Bot + Dispatcher → run until a signal stops it.

``python bot.py`` (or ``make run``).  Settings come from the environment or ``.env``
(:class:`delivery.settings.Settings`; see ``.env.example``).  Nothing happens at import time.
"""

from __future__ import annotations

import asyncio

from delivery.settings import load_settings


def main() -> None:
    """Run the bot until a signal stops it (SIGTERM or SIGINT: a graceful stop, exit status
    0; a second signal: at once; ``handlers.run``)."""
    settings = load_settings()
    from service.logs import configure

    configure(settings.log_level, settings.log_format)
    from handlers.run import run

    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:  # before the signal handlers were installed
        pass


if __name__ == "__main__":
    main()
