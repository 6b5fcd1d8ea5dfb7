"""Command line: ``python -m engine replay FILE`` (the check of a game record; random matches
are ``python -m tools.simulate``, a development tool)."""

from __future__ import annotations

import argparse
import json
import sys

from .records import ReplayError, replay_json


def _replay(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as e:
        print(f"error: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        result = replay_json(text)
    except ReplayError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(result, ensure_ascii=False))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 1 illegal record, 2 bad usage)."""
    parser = argparse.ArgumentParser(prog="python -m engine",
                                     description="Kozel rules engine tools (RULES.md §1, §2)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a game record and print the result as JSON")
    p.add_argument("file", help="record file (JSON), or - for standard input")
    p.set_defaults(func=_replay)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
