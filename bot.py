"""Entry point: settings → logging → the app wired once (database migrated, service, delivery)
→ Bot + Dispatcher → run.

``python bot.py`` (what Docker and production run): the bot; without ``BOT_TOKEN`` it says
what is missing and exits with status 2.  Settings come from the environment or ``.env``
(:class:`delivery.settings.Settings`; see ``.env.example``).  Nothing happens at import time.

``make run`` adds ``--local-table-without-token``: with a token the same bot; without one the
local table instead (issue 34, :mod:`localtable`): the bot against a Telegram of its own on
127.0.0.1 and a page in the browser to play it, until Ctrl-C.  Nothing else switches it on.
"""

from __future__ import annotations

import argparse
import asyncio
import logging

from delivery.settings import load_settings, token_given

log = logging.getLogger("kozel")

#: The flag of ``make run``: no token means the local table, not an error.
LOCAL_FLAG = "--local-table-without-token"


def main(argv: list[str] | None = None) -> None:
    """Run the bot until interrupted (or, with :data:`LOCAL_FLAG` and no token, the local
    table)."""
    parser = argparse.ArgumentParser(prog="bot.py", description="Run the Kozel bot.")
    parser.add_argument(LOCAL_FLAG, dest="local", action="store_true",
                        help="without BOT_TOKEN, open the local table in the browser instead "
                             "of stopping (what `make run` does)")
    args = parser.parse_args(argv)
    if args.local and not token_given():
        from localtable.run import main as local_table

        local_table([])
        return
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
