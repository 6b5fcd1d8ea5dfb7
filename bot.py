"""Entry point: settings → logging (``LOG_FORMAT``: text or JSON) → the app wired once
(database migrated, service, delivery) → Bot + Dispatcher → run until a signal stops it.

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

from delivery.settings import load_settings, token_given

#: The flag of ``make run``: no token means the local table, not an error.
LOCAL_FLAG = "--local-table-without-token"


def main(argv: list[str] | None = None) -> None:
    """Run the bot until a signal stops it (SIGTERM or SIGINT: a graceful stop, exit status
    0; a second signal: at once; ``handlers.run``) -- or, with :data:`LOCAL_FLAG` and no
    token, the local table."""
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
    from service.logs import configure

    configure(settings.log_level, settings.log_format)
    from handlers.run import run

    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:  # before the signal handlers were installed
        pass


if __name__ == "__main__":
    main()
