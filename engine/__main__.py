"""Command line: ``python -m engine replay FILE`` and ``python -m engine simulate ...``."""

from __future__ import annotations

import argparse
import json
import sys

from .records import ReplayError, replay_json
from .rules import Rules
from .simulate import simulate
from .variant import VARIANTS


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


def _simulate(args: argparse.Namespace) -> int:
    try:
        options = json.loads(args.rules) if args.rules else {}
        if not isinstance(options, dict):
            raise ValueError("--rules must be a JSON object")
        if args.variant is not None:
            options["variant"] = args.variant
        if args.teams:
            options["teams"] = True
        rules = Rules.from_json(options)
        rules.check_players(args.players)
    except (ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    totals = simulate(rules, args.players, args.matches, args.seed,
                      progress=not args.no_progress)
    sides = rules.spec.sides_count(args.players, rules)
    print(json.dumps(totals.as_dict(sides), ensure_ascii=False))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 1 illegal record, 2 bad usage)."""
    parser = argparse.ArgumentParser(prog="python -m engine",
                                     description="Kozel rules engine tools (RULES.md §1, §2)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a game record and print the result as JSON")
    p.add_argument("file", help="record file (JSON), or - for standard input")
    p.set_defaults(func=_replay)
    s = sub.add_parser("simulate", help="play random legal matches and print totals")
    s.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    s.add_argument("--variant", choices=tuple(VARIANTS),
                   help="the game of RULES.md §2 (default classic)")
    s.add_argument("--teams", action="store_true", help="team play (4 players, RULES.md §1.14)")
    s.add_argument("--matches", type=int, required=True)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules", help='rule options as JSON, e.g. \'{"fish_scoring": "each_own"}\'')
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=_simulate)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
