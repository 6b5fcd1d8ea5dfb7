"""Entry point: settings → logging (``LOG_FORMAT``: text or JSON) → the app wired once
(database migrated, service, delivery) → Bot + Dispatcher → run until a signal stops it.

``python bot.py`` (what Docker and production run): the bot; without ``BOT_TOKEN`` it says
what is missing and exits with status 2.  Settings come from the environment or ``.env``
(:class:`delivery.settings.Settings`; see ``.env.example``).  Nothing happens at import time.

``make run`` adds ``--local-table-without-token``: with a token the same bot; without one the
local table instead (issue 34, :mod:`localtable`): the bot against a Telegram of its own on
127.0.0.1 and a page in the browser to play it, until Ctrl-C.  Nothing else switches it on.

Two commands work on its database, from the same settings, while it runs or not
(docs/OPERATIONS.md, "Backups"; :mod:`storage.backup`):

- ``python bot.py backup PATH``: a consistent backup of the database in the file ``PATH``;
- ``python bot.py restore PATH [--force]``: the database replaced by that backup, refused
  while a bot uses it unless ``--force``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from delivery.settings import load_settings, token_given

#: The flag of ``make run``: no token means the local table, not an error.
LOCAL_FLAG = "--local-table-without-token"


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bot.py", description="The Kozel domino bot for Telegram: run it (no command), "
        "or back up or restore its database (DATABASE_URL or DATABASE_PATH).")
    parser.add_argument(LOCAL_FLAG, dest="local", action="store_true",
                        help="without BOT_TOKEN, open the local table in the browser instead "
                             "of stopping (what `make run` does)")
    commands = parser.add_subparsers(dest="command", metavar="{backup,restore}")
    taken = commands.add_parser(
        "backup", help="a consistent backup of the database, also while the bot runs",
        description="Write a consistent backup of the bot's database to PATH (SQLite: its "
        "online backup, one file; PostgreSQL: pg_dump's custom format), also while the bot "
        "runs.")
    taken.add_argument("path", type=Path, metavar="PATH", help="the backup file to write")
    back = commands.add_parser(
        "restore", help="replace the database with a backup",
        description="Replace the contents of the bot's database with the backup in PATH. "
        "Refused while a bot uses the database unless --force.")
    back.add_argument("path", type=Path, metavar="PATH", help="a file `backup` wrote")
    back.add_argument("--force", action="store_true",
                      help="restore even while a bot uses the database (restart it then)")
    for sub in (taken, back):
        sub.add_argument("--pg-bindir", type=Path, default=None, metavar="DIR",
                         help="where pg_dump and pg_restore are (default: PATH)")
    return parser.parse_args(argv)


def _database_command(args: argparse.Namespace) -> int:
    """``backup`` or ``restore``: what it did on standard output, exit status 0; why it could
    not on standard error, exit status 1."""
    from delivery.settings import load_database_settings
    from storage.backup import BackupError, backup, restore

    database = load_database_settings().database
    try:
        if args.command == "backup":
            report = backup(database, args.path, bindir=args.pg_bindir)
        else:
            report = restore(args.path, database, force=args.force, bindir=args.pg_bindir)
    except BackupError as exc:
        print(f"{args.command}: {exc}", file=sys.stderr)
        return 1
    print(report)
    return 0


def main(argv: list[str] | None = None) -> None:
    """Run the bot until a signal stops it (SIGTERM or SIGINT: a graceful stop, exit status
    0; a second signal: at once; ``handlers.run``) -- or, with :data:`LOCAL_FLAG` and no
    token, the local table -- or run a database command (``argv``, default the command
    line's)."""
    args = _arguments(argv)
    if args.command is not None:
        sys.exit(_database_command(args))
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
