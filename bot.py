"""Entry point: settings → logging → the app wired once (database migrated, service, delivery)
→ Bot + Dispatcher → run.

``python bot.py`` (or ``make run``).  Settings come from the environment or ``.env``
(:class:`delivery.settings.Settings`; see ``.env.example``).  Nothing happens at import time.
"""

from __future__ import annotations

import asyncio
import logging

from delivery.settings import load_settings

log = logging.getLogger("kozel")


def main() -> None:
    """Run the bot until interrupted."""
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from handlers.run import run

    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
