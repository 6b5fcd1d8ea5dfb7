"""Run the local Telegram alone: ``python -m localtable.telegram [--port 8081] [--no-flood]``
(``python -m tests.emulator`` is the same).

Prints the URL to use as ``BOT_API_URL`` and serves until interrupted.
"""

from __future__ import annotations

import argparse
import asyncio

from .server import DEFAULT_TOKEN, TelegramServer
from .world import EmulatorConfig, FloodLimits


async def _serve(args: argparse.Namespace) -> None:
    config = EmulatorConfig(flood=FloodLimits(enabled=not args.no_flood),
                            privacy_mode=not args.no_privacy, latency=args.latency)
    emu = TelegramServer(token=args.token, host=args.host, port=args.port,
                   bot_username=args.username, config=config)
    url = await emu.start()
    print(f"Bot API emulator at {url}  (BOT_API_URL={url} BOT_TOKEN={emu.token})", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await emu.stop()


def main() -> None:
    """Parse the command line and serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m localtable.telegram", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    parser.add_argument("--username", default="kozel_test_bot", help="the bot's username")
    parser.add_argument("--no-flood", action="store_true", help="switch flood control off")
    parser.add_argument("--no-privacy", action="store_true",
                        help="deliver every group message, not only commands")
    parser.add_argument("--latency", type=float, default=0.0,
                        help="seconds added to every Bot API answer")
    args = parser.parse_args()
    try:
        asyncio.run(_serve(args))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
