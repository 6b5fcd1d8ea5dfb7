"""Transcripts of real rounds for the README (a development tool, not part of the bot): a match
of a game (RULES.md §1, §2) played through the service on a temporary database, and the texts
the bot showed of one round.

``python -m tools.transcript sea_goat --players 3 --seed 11 --want multi`` plays matches with
random legal moves (seeded, so the same command prints the same transcript) until a round has
what ``--want`` asks for (``multi``: a move of several tiles; ``fast``: a fast lead;
``points``: points scored on the count, §2.0.6; ``any``), and that ends with an out that records
points while the match goes on; it prints the group's table in the middle of that round
(after ``--at`` of its moves) and the same message closed with the round's summary, as
Telegram shows them (the HTML tags taken away).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import tempfile
from pathlib import Path

from service.game import GameService
from service.live.rulebook import variant_infos
from service.views import Result, Status, TableView
from ui import render
from ui.i18n import get_translator

__all__ = ["transcript", "main"]

_TAG = re.compile(r"<[^>]+>")
NAMES = ("Оля", "Петя", "Маша", "Коля")


def shown(text: str) -> str:
    """A message as Telegram shows it: tags taken away, entities unescaped."""
    return html.unescape(_TAG.sub("", text))


def _wanted(table: TableView, want: str) -> bool:
    notes = table.notes
    if want == "multi":
        return any(n.tiles for n in notes if n.kind in ("led", "played"))
    if want == "fast":
        return any(f.name == "fast" for f in table.flags)
    if want == "points":
        return sum(1 for n in notes if n.points) >= 2
    return True


async def transcript(variant: str, *, players: int = 3, seed: int = 1, want: str = "any",
                     at: int = 12, locale: str = "ru", tries: int = 200) -> tuple[str, str]:
    """The table after ``at`` moves of the first round that has ``want``, and the same round
    closed; played through :class:`service.game.GameService` with random legal moves of
    ``random.Random(seed)``.  Raises ``LookupError`` when ``tries`` matches give no such
    round, ``ValueError`` for a game unknown or not played by ``players``."""
    info = variant_infos().get(variant)
    if info is None:
        raise ValueError(f"unknown game {variant!r}; games: {', '.join(variant_infos())}")
    low, high = info.players
    if not low <= players <= high:
        count = str(low) if low == high else f"{low}–{high}"
        raise ValueError(f"{variant} is played by {count} players, not {players}")
    tr = get_translator()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        seeds = iter(range(seed * 1000, seed * 1000 + tries))
        svc = await GameService.open(Path(tmp) / "kozel.sqlite3", clock=lambda: 1_000_000.0,
                                     seed_source=seeds.__next__)
        try:
            for attempt in range(tries):
                chat = -1 - attempt
                res = await svc.lobbies.open_lobby(chat, None, 1, NAMES[0], variant=variant)
                for uid in range(2, players + 1):
                    res = await svc.lobbies.join(res.match_id, uid, NAMES[uid - 1])
                res = await svc.lobbies.start(res.match_id, 1)
                middle: str | None = None
                while res.status == Status.PLAYING:
                    hand = next(h for h in res.hands if h.your_turn)
                    res = await svc.play.act(res.match_id, hand.user_id, rng.choice(hand.legal),
                                             None, res.version)
                    table = res.table
                    moves = sum(1 for n in table.notes if n.kind in ("led", "played"))
                    if middle is None and table.summary is None and moves == at:
                        middle = render.render_table(locale, table, tr=tr)
                    closed = _closed(res)
                    if closed is not None:
                        if middle is not None and _wanted(closed, want) and \
                                closed.summary.end == "out" and _counts(closed) \
                                and closed.final is None:
                            return shown(middle), shown(render.render_table(
                                locale, closed, tr=tr))
                        middle = None
        finally:
            await svc.close()
    raise LookupError(f"no round of {variant} with {want} in {tries} matches")


def _counts(table: TableView) -> bool:
    """Whether the closed round changed the standing: points recorded, or a loser (the
    marks of Семёрка §2.8 and Генерал §2.9, which record no points)."""
    summary = table.summary
    return any(summary.recorded) or bool(summary.marks)


def _closed(res: Result) -> TableView | None:
    """The table of the round this result closed, if it closed one."""
    if not res.rounds:
        return None
    if res.table.summary is not None:
        return res.table
    return res.closed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.transcript",
                                     description="Print a real round of a game as the group "
                                                 "sees it, for the README.")
    parser.add_argument("variant")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--want", choices=("any", "multi", "fast", "points"), default="any")
    parser.add_argument("--at", type=int, default=12, help="moves before the middle table")
    parser.add_argument("--locale", default="ru")
    args = parser.parse_args(argv)
    try:
        middle, closed = asyncio.run(transcript(args.variant, players=args.players,
                                                seed=args.seed, want=args.want, at=args.at,
                                                locale=args.locale))
    except (ValueError, LookupError) as exc:
        parser.exit(2, f"{parser.prog}: {exc}\n")
    print(middle)
    print("\n-----\n")
    print(closed)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
