"""Eight seats of Мексиканский поезд under Telegram's limits (issue 32, RULES.md §2.11).

    .venv/bin/python bench/trains_table.py                       # about 5 minutes
    .venv/bin/python bench/trains_table.py --groups 2 --think 0 4 --seconds 120

The real ``bot.py`` runs as a child process against the Bot API emulator of ``tests/emulator``
with Telegram's limits on both sides: the emulator answers 429 past one message a second per
chat (a private chat takes a burst of three), 20 a minute per group and 30 a second in all, and
the bot runs with its default rates.  Each of ``--groups`` groups seats eight people at one
Mexican Train on the double-12 set (``/newgame поезд``; the group's table is a picture, the
bot's default).  Whoever gets the keyboard of their turn thinks an exponential ``--think``
seconds on average and presses a random tile; where the tile fits several trains the message
turns into the trains' keyboard and they press a random train at once.  So ``--think 0`` is a
table of eight people pressing the instant their turn comes (far more than 20 placements a
minute: what the group's limit does to the table), and ``--think 4`` a quick kitchen table.

Measured over a window of ``--seconds`` after a short start (every time on the emulator's
clock):

- placements a minute per group (presses that place a tile: a tile that fits one train, or
  the train's press);
- Bot API calls per placement, over the whole run until the bot is quiet (round ends and
  their new hands included), and split: answers to presses, calls in the group, calls in the
  private chats;
- the group's own calls in any 60 s (the most of them in a sliding minute, which Telegram
  caps at 20) and the number of 429 answers the bot got anywhere;
- press → next keyboard, p50/p99: from the press that placed a tile to the next decision's
  keyboard (the next player's new message, or the same player's turn again after a double);
- tile → trains' keyboard, p50/p99: from a tile's press to its trains' keyboard;
- press → table, p50/p99: from a placement's press to the first call in the group that
  starts after the press was answered (the answer follows the commit, so that call draws the
  placement).  A table edit already under way when the answer arrived is not counted, so this
  is an upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.e2e_load import _int, _pct, _quiet, _until  # noqa: E402
from tests.e2e.botproc import BotProcess  # noqa: E402
from tests.emulator import Emulator  # noqa: E402

SEATS = 8
_COUNTED = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup",
                      "deleteMessage", "answerCallbackQuery", "getChatMember", "sendPhoto",
                      "editMessageMedia", "editMessageCaption"})
_PLACE = "y1:"


@dataclass
class Group:
    """One group of eight people and its match."""

    chat_id: int
    players: tuple[int, ...]
    joined: int = 0
    started: bool = False
    ended: bool = False
    seen: int = -1  # the newest match version whose decision keyboard was taken up
    choosing: tuple[int, int] | None = None  # (chat, message) of a tile's trains to come
    choose_t: float | None = None
    press_t: float | None = None  # the open placement's press
    press_ver: int = -1
    query: str | None = None
    kb_t: float | None = None
    waiting: list[float] = field(default_factory=list)  # answered placements' press times
    group_calls: list[float] = field(default_factory=list)  # the group's calls' start times


@dataclass
class Stats:
    placements: int = 0  # in the measured window
    run_placements: int = 0  # from the start of play until the bot is quiet
    calls: int = 0
    answers: int = 0
    group: int = 0
    private: int = 0
    flood: int = 0  # 429 answers, anywhere, the whole run
    flooded: dict[str, int] = field(default_factory=dict)  # 429s by method and chat kind
    keyboard: list[float] = field(default_factory=list)
    trains: list[float] = field(default_factory=list)
    table: list[float] = field(default_factory=list)


class Tables:
    """The eight people of every group, driven by the emulator's Bot API calls."""

    def __init__(self, emu: Emulator, *, think: float, seed: int) -> None:
        self.emu = emu
        self.world = emu.world
        self.think = think
        self.rng = random.Random(seed)
        self.loop = asyncio.get_running_loop()
        self.groups: dict[int, Group] = {}
        self.by_chat: dict[int, Group] = {}
        self.queries: dict[str, tuple[Group, str]] = {}
        self.stats = Stats()
        self.window = (float("inf"), float("inf"))
        self.counting = False
        self.running = True
        self._log_call = self.world.log_call
        self.world.log_call = self._on_call

    def create(self, count: int) -> None:
        w = self.world
        for i in range(count):
            ids = tuple(20_000 + SEATS * i + k for k in range(SEATS))
            for k, uid in enumerate(ids):
                w.create_user(uid, f"Игрок {k + 1}")
            chat = w.create_chat(title=f"Поезд {i}", members=list(ids))
            g = Group(chat["id"], ids)
            self.groups[g.chat_id] = g
            for key in (g.chat_id, *ids):
                self.by_chat[key] = g
            for uid in ids:
                w.user_send(uid, "/start")
            w.user_send(ids[0], "/newgame поезд", chat_id=g.chat_id)

    def _in_window(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]

    # -- the bot's calls -----------------------------------------------------------------------

    def _on_call(self, method: str, params: dict, t0: float, result: Any, error: Any, *,
                 client: str | None = None) -> None:
        self._log_call(method, params, t0, result, error, client=client)
        if method not in _COUNTED:
            return
        t1 = self.world.clock()
        s = self.stats
        chat_id = _int(params.get("chat_id"))
        if error is not None and getattr(error, "code", None) == 429:
            s.flood += 1
            where = f"{method} in a {'group' if (chat_id or 0) < 0 else 'private chat'}"
            s.flooded[where] = s.flooded.get(where, 0) + 1
        if method == "answerCallbackQuery":
            g, kind = self.queries.pop(str(params.get("callback_query_id")), (None, None))
            if self.counting:
                s.calls += 1
                s.answers += 1
            if g is None:
                return
            if kind == "join":
                g.joined += 1
                if g.joined == SEATS - 1:
                    self.world.user_send(g.players[0], "/startgame", chat_id=g.chat_id)
            elif kind == "place" and g.press_t is not None:
                g.waiting.append(g.press_t)
            return
        g = self.by_chat.get(chat_id)
        if g is None:
            return
        if self.counting:
            s.calls += 1
            if chat_id == g.chat_id:
                s.group += 1
            else:
                s.private += 1
        if chat_id == g.chat_id and error is None:
            g.group_calls.append(t0)
            for pressed in g.waiting:
                if self._in_window(pressed):
                    s.table.append(t0 - pressed)
            g.waiting.clear()
        if error is not None or method not in ("sendMessage", "editMessageText"):
            return
        rows = (params.get("reply_markup") or {}).get("inline_keyboard") or []
        flat = [str(b.get("callback_data", "")) for row in rows for b in row]
        if chat_id == g.chat_id:
            if any(d.startswith("l1:join:") for d in flat) and method == "sendMessage":
                mid = result["message_id"]
                for uid in g.players[1:]:
                    self._press(g, uid, g.chat_id, mid, flat.index(
                        next(d for d in flat if d.startswith("l1:join:"))), "join")
            elif any(":rematch:" in d for d in flat):
                g.ended = True
            return
        places = [(i, d.split(":")) for i, d in enumerate(flat) if d.startswith(_PLACE)]
        if not places:
            return
        mid = result["message_id"] if method == "sendMessage" else _int(params["message_id"])
        version = int(places[0][1][2])
        if g.choosing == (chat_id, mid) and version == g.press_ver:  # the tile's trains
            if self._in_window(g.choose_t or -1.0):
                s.trains.append(t1 - (g.choose_t or t1))
            g.choosing = None
            trains = [i for i, p in places if p[3] == "p"]
            self.loop.call_soon(self._place, g, chat_id, mid, self.rng.choice(trains), version)
            return
        if version <= g.seen:
            return
        g.seen = version
        g.started = True
        if g.press_t is not None and g.kb_t is None:
            g.kb_t = t1
            if self._in_window(g.press_t):
                s.keyboard.append(t1 - g.press_t)
        buttons = [(i, p[3]) for i, p in places if p[3] in ("p", "c")]
        i, act = self.rng.choice(buttons)
        pause = self.rng.expovariate(1 / self.think) if self.think > 0 else 0.0
        if act == "c":
            self.loop.call_later(pause, self._tile, g, chat_id, mid, i, version)
        else:
            self.loop.call_later(pause, self._place, g, chat_id, mid, i, version)

    # -- the people's presses ------------------------------------------------------------------

    def _press(self, g: Group, user: int, chat: int, message_id: int, index: int,
               kind: str) -> bool:
        try:
            got = self.world.user_press(user, chat, message_id, index=index)
        except Exception as exc:  # the keyboard went away meanwhile (it should not)
            print(f"press failed in group {g.chat_id}: {exc}", file=sys.stderr)
            return False
        self.queries[got["query_id"]] = (g, kind)
        return True

    def _tile(self, g: Group, chat: int, mid: int, index: int, version: int) -> None:
        if not self.running or g.ended:
            return
        g.choosing, g.choose_t, g.press_ver = (chat, mid), self.world.clock(), version
        self._press(g, chat, chat, mid, index, "tile")

    def _place(self, g: Group, chat: int, mid: int, index: int, version: int) -> None:
        if not self.running or g.ended:
            return
        now = self.world.clock()
        g.press_t, g.press_ver, g.kb_t = now, version, None
        if self._press(g, chat, chat, mid, index, "place"):
            if self._in_window(now):
                self.stats.placements += 1
            if self.counting:
                self.stats.run_placements += 1

    def busiest_minute(self) -> int:
        """The most calls any group got in a sliding 60 s."""
        most = 0
        for g in self.groups.values():
            ts = sorted(g.group_calls)
            for k, t in enumerate(ts):
                most = max(most, bisect.bisect_left(ts, t + 60.0) - k)
        return most


async def run_one(groups: int, *, think: float, seconds: float, seed: int) -> dict:
    emu = Emulator()
    emu.world.configure(flood=True, keep_history=False, log_calls=False, callback_ttl=3600.0)
    await emu.start()
    settings = {"TURN_TIMEOUT": 86400, "LOBBY_TTL": 86400, "LOG_LEVEL": "WARNING"}
    with tempfile.TemporaryDirectory(prefix="kozel-trains-") as tmp:
        bot = BotProcess(api_url=emu.url, token=emu.token, database=Path(tmp) / "b.sqlite3",
                         log_path=Path(tmp) / "bot.log", settings=settings, emulator=emu)
        await bot.start(timeout=60)
        try:
            tables = Tables(emu, think=think, seed=seed)
            tables.create(groups)
            await _until(lambda: all(g.started for g in tables.groups.values()), 300,
                         "every group dealt")
            tables.counting = True
            await asyncio.sleep(min(5.0, seconds / 5))
            start = emu.world.clock()
            tables.window = (start, float("inf"))
            w0 = time.monotonic()
            await asyncio.sleep(seconds)
            tables.window = (start, emu.world.clock())
            elapsed = time.monotonic() - w0
            tables.running = False
            await _quiet(emu, timeout=120.0, quiet=3.0)
            tables.counting = False
            errors = bot.errors()
        finally:
            bot.kill()
            await emu.stop()
    s = tables.stats
    per = max(s.run_placements, 1)
    return {
        "groups": groups, "think": think, "seconds": elapsed,
        "per_minute": 60 * s.placements / elapsed / groups,
        "calls": s.calls / per, "answers": s.answers / per, "group": s.group / per,
        "private": s.private / per, "busiest": tables.busiest_minute(), "flood": s.flood,
        "kb50": 1000 * _pct(s.keyboard, 0.5), "kb99": 1000 * _pct(s.keyboard, 0.99),
        "tr50": 1000 * _pct(s.trains, 0.5), "tr99": 1000 * _pct(s.trains, 0.99),
        "tb50": _pct(s.table, 0.5), "tb99": _pct(s.table, 0.99),
        "placements": s.placements, "ended": sum(g.ended for g in tables.groups.values()),
        "errors": len(errors), "flooded": s.flooded,
    }


def print_rows(rows: list[dict]) -> None:
    print("| groups × 8 seats | think s | placements/min a group | Bot API calls/placement "
          "(answers + group + private) | group's calls in its busiest minute | 429s "
          "| press→next keyboard p50/p99 ms | tile→trains p50/p99 ms "
          "| press→table p50/p99 s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['groups']} | {r['think']:g} | {r['per_minute']:.1f} "
              f"| {r['calls']:.2f} ({r['answers']:.2f} + {r['group']:.2f} + "
              f"{r['private']:.2f}) | {r['busiest']} | {r['flood']} "
              f"| {r['kb50']:,.0f} / {r['kb99']:,.0f} | {r['tr50']:,.0f} / {r['tr99']:,.0f} "
              f"| {r['tb50']:.1f} / {r['tb99']:.1f} |")
    for r in rows:
        print(f"think {r['think']:g}: {r['placements']} placements in {r['seconds']:.0f} s, "
              f"{r['ended']} matches ended, errors in the bot's log {r['errors']}, "
              f"429s {r['flooded']}",
              file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=2)
    parser.add_argument("--think", type=float, nargs="+", default=[0.0, 4.0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = [asyncio.run(run_one(args.groups, think=t, seconds=args.seconds, seed=args.seed))
            for t in args.think]
    print_rows(rows)


if __name__ == "__main__":
    main()
