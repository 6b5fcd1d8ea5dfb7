"""Load benchmark: N groups playing whole matches at once through ONE bot process.

    .venv/bin/python bench/e2e_load.py                   # about 7 minutes on 2 cores
    .venv/bin/python bench/e2e_load.py --n 100 --paced --seconds 20
    .venv/bin/python bench/e2e_load.py --n --paced 20:5 --telegram-limits
    .venv/bin/python bench/e2e_load.py --n --paced 50:3 --bots hard:2 --bot-move-delay 1.5
    .venv/bin/python bench/e2e_load.py --n 10 100 --paced --tables picture text

The real ``bot.py`` runs as a child process against the Bot API emulator of ``tests/emulator``,
which runs in this process together with the simulated players.  Each of N groups has two
players; as soon as the bot sends a player the keyboard of their turn, the player presses a
random button of it, so the load is as high as the bot allows (N = 10, 100, 1000).  That is a
closed loop: with N matches always waiting, a press waits for about N / throughput, so the
latency of these runs says how long the queue is.  A paced run (``--paced 1000:20``, the
default extra run) lets every player think an exponential 20 s on average before each move,
which measures the latency of 1000 matches at a load the bot can carry.  A match that ends is
followed at once by a Rematch and /startgame, so N matches stay active.  The groups are set
up (players /start, /newgame, Join, /startgame) before anybody plays; after a short warm-up a
window of ``--seconds`` is measured:

- actions/s: move presses per second;
- latency: from a press to the last Bot API call it causes, on the emulator's clock.  The calls
  a press causes are those in the chats of its match (the group and both private chats, and
  the answer to the press) until the next press of that match; p50 and p99 over the window;
- Bot API calls per action: every call the bot made from the start of play until it fell quiet
  after the last press (round ends, match ends and rematches included), divided by the
  players' actions in that time (move presses, and the Rematch and Join presses and
  /startgame commands that start the next match); also per move press.  Counting the whole
  run, rather than the window, leaves out no call of a counted press and no press of a
  counted call;
- bot CPU seconds per 1000 actions (``/proc/<pid>/stat``), and this process's CPU over the same
  window (the emulator and the players), to see which side is the bottleneck;
- memory per active match: the bot's resident memory at the end of the window minus that of
  the bot before the N groups existed, divided by N.  That baseline is taken after one extra
  group played 100 moves, so what the bot allocates once (caches, connections) is not
  charged to the matches;
- press → keyboard: from a press to the first keyboard of the next turn it leads to (the
  next player's new message, or the pressed message edited into the mover's next turn),
  p50 and p99 — what a person waits for after the other one pressed;
- press → own update: from a press to both its answer and the edit of the pressed message
  (the keyboard taken away, or the next turn in place) — the press's own work, which does
  not include a computer player's thinking, so it compares runs with and without them.

``--bots hard:2`` seats that many computer players of that strength beside the two people of
every group (``/addbot``), so half the seats of a 4-seat table think with ``engine.ai``; their
moves come ``--bot-move-delay`` seconds after their turn began, as in production (1.5 s).  The
bot's CPU then includes its computer players' worker processes.

``--tables picture text`` (the default) runs every scenario twice, once with the group's table
as a picture (``TABLE_VIEW=picture``, the bot's default: a PNG drawn and uploaded with
``editMessageMedia`` after every move, issue 14) and once as text (``TABLE_VIEW=text``), and
prints the bot's CPU per move of both side by side, so the cost of the pictures is visible;
``--tables text`` measures one of them alone; ``--picture-workers 0`` draws the pictures in a
thread of the bot's process instead of a process of their own.

Each run gets a fresh emulator, bot process and database.  By default the emulator's flood
control is off and the bot's own rates are relaxed (``RATE_CHAT_INTERVAL=0`` …), so the bot's
own cost is measured; ``--telegram-limits`` keeps Telegram's limits on both sides instead
(one message a second per chat, 20 a minute per group, 30 a second in all), which caps the
throughput whatever the CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.botproc import FAST_RATES, BotProcess, proc_cpu_seconds  # noqa: E402
from tests.e2e.players import move_buttons  # noqa: E402
from tests.emulator import Emulator  # noqa: E402

_COUNTED = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup",
                      "deleteMessage", "answerCallbackQuery", "getChatMember", "sendPhoto",
                      "editMessageMedia"})


@dataclass
class Group:
    """One group: its chat, its two players and what its match is doing."""

    chat_id: int
    players: tuple[int, int]
    match_id: int | None = None
    rematching: bool = False
    started: bool = False
    warm_up: bool = False  # plays without thinking before the others, then rests
    parked: bool = False
    presses: int = 0
    press_t: float | None = None  # the open press (emulator clock), None between matches
    last_t: float = 0.0  # the last call it caused so far
    calls: int = 0
    bots: int = 0  # computer players still to seat in the lobby
    asked: int = 0  # /addbot commands sent
    pressed: tuple[int, int] | None = None  # (chat, message) of the open press
    kb_t: float | None = None  # the open press's next keyboard
    answer_t: float | None = None  # the open press's answer
    own_t: float | None = None  # the open press's pressed message edited


@dataclass
class Stats:
    """Counters of the measured window."""

    moves: int = 0
    others: int = 0  # the other actions: Join and Rematch presses, /startgame
    calls: int = 0
    # the whole run, from the start of play until the bot is quiet after the last press, so
    # that every counted action's calls are counted, and no call of an uncounted one
    run_moves: int = 0
    run_others: int = 0
    run_calls: int = 0
    move_calls: int = 0
    latencies: list[float] = field(default_factory=list)
    keyboard: list[float] = field(default_factory=list)  # press → the next keyboard
    own: list[float] = field(default_factory=list)  # press → its answer and its message edited
    errors: int = 0
    matches_ended: int = 0


class Load:
    """The simulated players of N groups, driven by the emulator's Bot API calls."""

    def __init__(self, emu: Emulator, n: int, *, think: float, seed: int,
                 bots: tuple[str, int] = ("hard", 0), setup_delay: float = 0.0) -> None:
        self.emu = emu
        #: seconds between the players' /start and the lobby's /newgame: over a cluster the
        #: private chats and the group have different owners, and nothing orders them
        self.setup_delay = setup_delay
        self.bot_strength, self.bot_count = bots
        self.world = emu.world
        self.n = n
        self.think = think
        self.rng = random.Random(seed)
        self.loop = asyncio.get_running_loop()
        self.groups: dict[int, Group] = {}
        self.by_chat: dict[int, Group] = {}
        self.queries: dict[str, tuple[Group, str]] = {}
        self.stats = Stats()
        self.measuring = False
        self.counting = False
        self.window_start = 0.0
        self.window_end = float("inf")
        self.running = True
        self.hold = True
        self.held: list[tuple] = []
        self._log_call = self.world.log_call
        self.world.log_call = self._on_call  # see every Bot API call as it happens

    # -- set-up ------------------------------------------------------------------------------

    def create(self, count: int) -> list[Group]:
        """Create ``count`` more groups and their players; each player opens the private
        chat, the first opens a lobby."""
        w = self.world
        made = []
        for i in range(len(self.groups), len(self.groups) + count):
            a, b = 10_000 + 2 * i, 10_001 + 2 * i
            w.create_user(a, f"Игрок {a}")
            w.create_user(b, f"Игрок {b}")
            chat = w.create_chat(title=f"Стол {i}", members=[a, b])
            g = Group(chat["id"], (a, b), bots=self.bot_count)
            self.groups[g.chat_id] = g
            for key in (g.chat_id, a, b):
                self.by_chat[key] = g
            w.user_send(a, "/start")
            w.user_send(b, "/start")
            if self.setup_delay:
                self.loop.call_later(self.setup_delay,
                                     lambda a=a, g=g: w.user_send(a, "/newgame", chat_id=g.chat_id))
            else:
                w.user_send(a, "/newgame", chat_id=g.chat_id)
            made.append(g)
        return made

    # -- the players react to the bot -----------------------------------------------------------

    def _on_call(self, method: str, params: dict, t0: float, result: Any, error: Any, *,
                 client: str | None = None) -> None:
        self._log_call(method, params, t0, result, error, client=client)
        if method not in _COUNTED:
            return
        t1 = self.world.clock()
        if method == "answerCallbackQuery":
            g, kind = self.queries.pop(str(params.get("callback_query_id")), (None, None))
            if kind == "join":  # seated (the answer comes after the commit): deal
                if g.bots:
                    self._later(self._command, g, f"/addbot {self.bot_strength}")
                else:
                    self._later(self._command, g, "/startgame")
            elif kind == "move" and g.press_t is not None and g.answer_t is None:
                g.answer_t = t1
        else:
            g = self.by_chat.get(_int(params.get("chat_id")))
        if self.measuring:
            self.stats.calls += 1
            if error is not None:
                self.stats.errors += 1
        if self.counting:
            self.stats.run_calls += 1
        if g is None:
            return
        if g.press_t is not None:
            g.last_t = t1
            g.calls += 1
        chat_id = _int(params.get("chat_id"))
        if error is None and g.press_t is not None and g.own_t is None \
                and method in ("editMessageText", "editMessageReplyMarkup") \
                and (chat_id, _int(params.get("message_id"))) == g.pressed:
            g.own_t = t1
        if error is not None or method not in ("sendMessage", "editMessageText"):
            return
        markup = params.get("reply_markup") or {}
        rows = markup.get("inline_keyboard") or []
        datas = [str(b.get("callback_data", "")) for row in rows for b in row]
        if chat_id == g.chat_id and method == "editMessageText" and g.bots and any(
                d.startswith("l1:start:") for d in datas):
            seated = str(params.get("text", "")).count("🤖")
            if seated >= self.bot_count:
                g.bots = 0
                self._later(self._command, g, "/startgame")
            elif seated == g.asked:
                self._later(self._command, g, f"/addbot {self.bot_strength}")
            return
        moves = {id(b) for b in move_buttons(markup)}
        if chat_id in g.players and moves:
            # a keyboard for the next turn: a new message, or the pressed one edited in place;
            # the players press its moves, never its "leave the match" button
            mid = result["message_id"] if method == "sendMessage" else _int(params["message_id"])
            playable = tuple(i for i, b in enumerate(b for row in rows for b in row)
                             if id(b) in moves)
            if g.press_t is not None and g.kb_t is None:
                g.kb_t = t1
            g.started = True
            if self.hold:  # set-up: nobody plays until every group is dealt
                self.held.append((g, chat_id, mid, playable))
            else:
                self._later(self._press_move, g, chat_id, mid, playable,
                            think=not g.warm_up)
            return
        if method != "sendMessage":
            return
        if chat_id == g.chat_id and any(d.startswith("l1:join:") for d in datas):
            g.match_id = int(next(d for d in datas if d.startswith("l1:join:")).split(":")[2])
            if g.rematching:  # the same players are seated already
                self._later(self._command, g, "/startgame")
            else:
                self._later(self._press_join, g, result["message_id"])
        elif chat_id == g.chat_id and any(":rematch:" in d for d in datas):
            self._close(g)
            if self.measuring:
                self.stats.matches_ended += 1
            if self.running and not g.parked:
                self._later(self._press_rematch, g, result["message_id"])

    def _later(self, fn: Any, *args: Any, think: bool = False) -> None:
        """Call ``fn(*args)`` soon: at once, or after a thinking pause for a move."""
        if not self.running:
            return
        if think and self.think > 0:
            self.loop.call_later(self.rng.expovariate(1 / self.think), fn, *args)
        else:
            self.loop.call_soon(fn, *args)

    def _close(self, g: Group) -> None:
        """End the open press of a group: its latency is known once the next one comes (or
        once the bot went quiet after the run)."""
        if g.press_t is not None and self.window_start <= g.press_t < self.window_end:
            self.stats.latencies.append(g.last_t - g.press_t)
            self.stats.move_calls += g.calls
            if g.kb_t is not None:
                self.stats.keyboard.append(g.kb_t - g.press_t)
            if g.answer_t is not None and g.own_t is not None:
                self.stats.own.append(max(g.answer_t, g.own_t) - g.press_t)
        g.press_t = None
        g.kb_t = g.answer_t = g.own_t = None

    def finish(self) -> None:
        """Close every open press (call when the bot is quiet after :meth:`stop`)."""
        for g in self.groups.values():
            self._close(g)

    def _press(self, g: Group, user: int, chat: int, message_id: int, index: int,
               kind: str) -> None:
        try:
            got = self.world.user_press(user, chat, message_id, index=index)
        except Exception as exc:  # the keyboard went away meanwhile (it should not)
            print(f"press failed in group {g.chat_id}: {exc}", file=sys.stderr)
            return
        self.queries[got["query_id"]] = (g, kind)

    def _press_move(self, g: Group, user: int, message_id: int,
                    buttons: tuple[int, ...]) -> None:
        """Press one of ``buttons`` (indices of the message's buttons, its moves) at random."""
        if g.parked:
            return
        g.presses += 1
        self._close(g)
        g.press_t = g.last_t = self.world.clock()
        g.calls = 0
        g.pressed = (user, message_id)
        if self.measuring:
            self.stats.moves += 1
        if self.counting:
            self.stats.run_moves += 1
        self._press(g, user, user, message_id, self.rng.choice(buttons), "move")

    def _press_join(self, g: Group, message_id: int) -> None:
        self._other()
        self._press(g, g.players[1], g.chat_id, message_id, 0, "join")

    def _press_rematch(self, g: Group, message_id: int) -> None:
        self._other()
        g.rematching = True
        self._press(g, g.players[0], g.chat_id, message_id, 0, "rematch")

    def _command(self, g: Group, text: str) -> None:
        if text.startswith("/addbot"):
            g.asked += 1
        self._other()
        self.world.user_send(g.players[0], text, chat_id=g.chat_id)

    def _other(self) -> None:
        if self.measuring:
            self.stats.others += 1
        if self.counting:
            self.stats.run_others += 1

    def release(self) -> None:
        """Every group is dealt: the players start pressing."""
        self.hold = False
        held, self.held = self.held, []
        for args in held:
            self._later(self._press_move, *args, think=not args[0].warm_up)

    def stop(self) -> None:
        """No more presses."""
        self.running = False


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class _Workers:
    """The workers of a local cluster seen as one bot: CPU, memory and errors summed."""

    def __init__(self, cluster: Any) -> None:
        self.cluster = cluster
        self.pid = cluster.workers[0].pid

    def rss_kib(self) -> int:
        return sum(w.rss_kib() for w in self.cluster.workers)

    def cpu(self) -> float:
        return sum(_tree_cpu(w.pid) for w in self.cluster.workers)

    def errors(self) -> list[str]:
        return self.cluster.errors()

    def kill(self) -> None:
        for w in self.cluster.workers:
            w.kill()


#: The PostgreSQL server of ``--workers`` runs (started once per bench process).
_PG: list[Any] = []


async def run_one(n: int, *, seconds: float, think: float, telegram_limits: bool,
                  seed: int, bots: tuple[str, int] = ("hard", 0),
                  bot_move_delay: float = 0.0, table: str = "picture",
                  picture_workers: int = 1, workers: int = 0) -> dict:
    """Measure one N with the group's tables as ``table`` (``picture`` or ``text``); a dict
    of the results.  ``workers`` 0: the single bot process over SQLite (long polling);
    k > 0: a cluster of k workers over PostgreSQL behind the emulator's webhook delivery
    (tests/e2e/cluster.py), CPU and memory summed over them."""
    emu = Emulator()
    emu.world.configure(flood=telegram_limits, keep_history=False, log_calls=False,
                        callback_ttl=3600.0)
    await emu.start()
    settings = {} if telegram_limits else dict(FAST_RATES)
    settings.update({"TURN_TIMEOUT": 86400, "LOBBY_TTL": 86400, "LOG_LEVEL": "WARNING",
                     "BOT_MOVE_DELAY": bot_move_delay, "TABLE_VIEW": table,
                     "PICTURE_WORKERS": picture_workers})
    with tempfile.TemporaryDirectory(prefix="kozel-load-") as tmp:
        cluster = None
        if workers:
            from tests import pgkit
            from tests.e2e.cluster import LocalCluster

            if not _PG:  # the server's defaults: fsync on, as in production
                _PG.append(await asyncio.to_thread(pgkit.PgServer.start, fsync=True))
            cluster = LocalCluster(emu, workers, settings=settings, directory=Path(tmp),
                                   server=_PG[0])
            await cluster.start()
            bot = _Workers(cluster)
        else:
            bot = BotProcess(api_url=emu.url, token=emu.token,
                             database=Path(tmp) / "load.sqlite3",
                             log_path=Path(tmp) / "bot.log", settings=settings, emulator=emu)
            await bot.start(timeout=60)
        print(f"N={n} workers={workers}: bot pid {bot.pid}", file=sys.stderr, flush=True)
        cpu_of = bot.cpu if workers else (lambda: _tree_cpu(bot.pid))
        try:
            await asyncio.sleep(1.0)
            load = Load(emu, n, think=think, seed=seed, bots=bots,
                        setup_delay=2.0 if workers else 0.0)
            # one group plays 100 moves first, so that what any bot allocates once (caches,
            # connections, lazily built objects) is not counted as the matches' memory
            (warm,) = load.create(1)
            warm.warm_up = True
            load.release()
            # under Telegram's limits a group makes about one move in two seconds, and with
            # computer players at the table a person's turn comes every few seconds
            warm_moves = 30 if telegram_limits or bots[1] else 100
            await _until(lambda: warm.presses >= warm_moves, 300, "the warm-up group's moves")
            warm.parked = True
            await _quiet(emu, timeout=30)
            rss_idle = bot.rss_kib()
            load.hold = True
            t0 = time.monotonic()
            groups = load.create(n)
            # set up until every group has been dealt, then let them all play
            await _until(lambda: all(g.started for g in groups), 300, f"{n} groups dealt")
            setup = time.monotonic() - t0
            load.counting = True
            load.release()
            print(f"N={n}: all groups play after {setup:.0f} s", file=sys.stderr, flush=True)
            await asyncio.sleep(min(3.0, seconds / 5))
            cpu0, own0 = cpu_of(), _own_cpu()
            load.window_start = emu.world.clock()
            load.measuring = True
            w0 = time.monotonic()
            await asyncio.sleep(seconds)
            load.measuring = False
            load.window_end = emu.world.clock()
            elapsed = time.monotonic() - w0
            cpu1, own1 = cpu_of(), _own_cpu()
            rss = bot.rss_kib()
            load.stop()
            await _quiet(emu, timeout=max(60.0, seconds))
            load.counting = False
            load.finish()
            errors = bot.errors()
        finally:
            bot.kill()
            if cluster is not None:
                await cluster.stop()
            await emu.stop()
    s = load.stats
    moves = max(s.moves, 1)
    return {
        "n": n, "setup_s": setup, "seconds": elapsed, "moves": s.moves,
        "actions_per_s": s.moves / elapsed,
        "p50_ms": 1000 * _pct(s.latencies, 0.50), "p99_ms": 1000 * _pct(s.latencies, 0.99),
        "kb_p50_ms": 1000 * _pct(s.keyboard, 0.50), "kb_p99_ms": 1000 * _pct(s.keyboard, 0.99),
        "own_p50_ms": 1000 * _pct(s.own, 0.50), "own_p99_ms": 1000 * _pct(s.own, 0.99),
        "bots": f"{bots[1]} {bots[0]}" if bots[1] else "0", "table": table,
        "workers": workers,
        "calls_per_action": s.run_calls / max(s.run_moves + s.run_others, 1),
        "calls_per_move": s.run_calls / max(s.run_moves, 1),
        "window_calls_per_action": s.calls / max(s.moves + s.others, 1),
        "move_calls_per_action":
            s.move_calls / max(len(s.latencies), 1),
        "bot_cpu_per_1000": 1000 * (cpu1 - cpu0) / moves,
        "bot_cpu_share": (cpu1 - cpu0) / elapsed, "driver_cpu_share": (own1 - own0) / elapsed,
        "kib_per_match": (rss - rss_idle) / n, "rss_mib": rss / 1024,
        "api_errors": s.errors, "matches_ended": s.matches_ended,
        "bot_log_errors": len(errors),
    }


async def _until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout} s")
        await asyncio.sleep(0.1)


async def _quiet(emu: Emulator, *, timeout: float, quiet: float = 1.0) -> None:
    """Wait until the bot has fetched every update and made no call for ``quiet`` s."""
    w = emu.world
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        last = w.last_call_t if w.last_call_t is not None else 0.0
        if not w.updates and w.clock() - last >= quiet:
            return
        await asyncio.sleep(0.1)


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a process and of its living children (the computer players' worker
    processes)."""
    total = proc_cpu_seconds(pid)
    for child in _children(pid):
        try:
            total += proc_cpu_seconds(child)
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def _children(pid: int) -> list[int]:
    out = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                out += [int(x) for x in f.read().split()]
        except FileNotFoundError:
            pass
    return out


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def print_table(rows: list[dict]) -> None:
    """The results as a Markdown table (details per run on standard error)."""
    print("| N | think s | computer players | table | moves/s | p50 ms | p99 ms "
          "| press→keyboard p50/p99 ms | press→own update p50/p99 ms "
          "| Bot API calls/action | calls/move "
          "| bot CPU s/1000 moves | bot CPU | emulator+players CPU | memory/match KiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['n']:,} | {r['think']:g} | {r['bots']} | {r['table']} "
              f"| {r['actions_per_s']:,.0f} "
              f"| {r['p50_ms']:,.0f} | {r['p99_ms']:,.0f} "
              f"| {r['kb_p50_ms']:,.0f} / {r['kb_p99_ms']:,.0f} "
              f"| {r['own_p50_ms']:,.0f} / {r['own_p99_ms']:,.0f} "
              f"| {r['calls_per_action']:.3f} | {r['calls_per_move']:.3f} | "
              f"{r['bot_cpu_per_1000']:.2f} | {100 * r['bot_cpu_share']:.0f}% | "
              f"{100 * r['driver_cpu_share']:.0f}% | {r['kib_per_match']:,.0f} |")
    closed = sorted((r for r in rows if not r["think"] and r["table"] == rows[0]["table"]
                     and r["bots"] == rows[0]["bots"]), key=lambda r: r["n"])
    for a, b in zip(closed, closed[1:], strict=False):
        if a["n"] == b["n"]:
            continue  # the same size twice (another scenario): no slope to take
        slope = (b["rss_mib"] - a["rss_mib"]) * 1024 / (b["n"] - a["n"])
        print(f"Memory per match from N={a['n']} to N={b['n']}: {slope:,.0f} KiB "
              f"(bot RSS {a['rss_mib']:.0f} -> {b['rss_mib']:.0f} MiB)")
    for r in rows:
        print(f"N={r['n']} think={r['think']:g}: set-up {r['setup_s']:.0f} s, {r['moves']} "
              f"presses in {r['seconds']:.0f} s, {r['matches_ended']} matches ended, calls "
              f"per press in its own window {r['move_calls_per_action']:.2f}, calls per action "
              f"in the measured window {r['window_calls_per_action']:.3f}, bot RSS "
              f"{r['rss_mib']:.0f} MiB, failed calls {r['api_errors']}, errors in the bot's "
              f"log {r['bot_log_errors']}", file=sys.stderr)


def print_workers(rows: list[dict]) -> None:
    """The runs of ``--workers`` side by side: the store, the workers, moves/s, CPU per move
    summed over the workers [ms], press → own update (its answer and the pressed message's
    edit) and press → next keyboard, p50/p99 [ms]."""
    print("| N | think s | table | store | workers | moves/s | CPU ms/move "
          "| press→answer+edit p50/p99 ms | press→keyboard p50/p99 ms | errors |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        store = "PostgreSQL" if r["workers"] else "SQLite"
        print(f"| {r['n']:,} | {r['think']:g} | {r['table']} | {store} | {r['workers'] or 1} "
              f"| {r['actions_per_s']:,.0f} | {r['bot_cpu_per_1000']:.2f} "
              f"| {r['own_p50_ms']:,.0f} / {r['own_p99_ms']:,.0f} "
              f"| {r['kb_p50_ms']:,.0f} / {r['kb_p99_ms']:,.0f} "
              f"| {r['api_errors']} / {r['bot_log_errors']} |")


def print_pictures(rows: list[dict]) -> None:
    """The bot's CPU per move with the group's tables as pictures and as text, side by side
    (rows in pairs: picture, then text, of the same scenario) [ms of CPU per move press]."""
    print()
    print("| N | think s | computer players | bot CPU ms/move, pictures | text | pictures "
          "cost | moves/s pictures / text | press→own update p99 ms pictures / text |")
    print("|---|---|---|---|---|---|---|---|")
    for pic, txt in zip(rows[::2], rows[1::2], strict=True):
        # CPU s per 1000 moves is ms per move
        extra = pic["bot_cpu_per_1000"] - txt["bot_cpu_per_1000"]
        ratio = pic["bot_cpu_per_1000"] / max(txt["bot_cpu_per_1000"], 1e-9)
        print(f"| {pic['n']:,} | {pic['think']:g} | {pic['bots']} "
              f"| {pic['bot_cpu_per_1000']:.2f} | {txt['bot_cpu_per_1000']:.2f} "
              f"| {extra:+.2f} ms ({ratio:.2f}×) "
              f"| {pic['actions_per_s']:,.0f} / {txt['actions_per_s']:,.0f} "
              f"| {pic['own_p99_ms']:,.0f} / {txt['own_p99_ms']:,.0f} |")


def _bots(text: str) -> tuple[str, int]:
    strength, _, count = text.partition(":")
    return strength, int(count or 1)


def _scenario(text: str) -> tuple[int, float]:
    n, _, think = text.partition(":")
    return int(n), float(think or 0)


def main() -> None:
    """Parse the command line, run each scenario, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="*", default=[10, 100, 1000],
                        help="groups per run, players pressing as fast as the bot allows")
    parser.add_argument("--paced", type=_scenario, nargs="*", default=[(1000, 20.0)],
                        metavar="N:THINK", help="more runs whose players think THINK s on "
                        "average before a move (default 1000:20)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="measured seconds per run (default 20, 30, 40 for N up to "
                             "10, 100, more)")
    parser.add_argument("--telegram-limits", action="store_true",
                        help="flood control on in the emulator and the bot's default rates")
    parser.add_argument("--bots", type=_bots, default=("hard", 0), metavar="STRENGTH:COUNT",
                        help="computer players per group beside the two people, e.g. hard:2")
    parser.add_argument("--bot-move-delay", type=float, default=0.0,
                        help="seconds a computer player waits before it moves (BOT_MOVE_DELAY)")
    parser.add_argument("--compare-bots", action="store_true",
                        help="run every scenario once more without computer players, and "
                             "print the ratio of the people's press→own update p99")
    parser.add_argument("--tables", nargs="+", choices=("picture", "text"),
                        default=["picture", "text"],
                        help="the group's table as a picture, as text, or both side by side "
                             "(default both)")
    parser.add_argument("--picture-workers", type=int, default=1,
                        help="processes that draw the pictures (PICTURE_WORKERS; 0: a thread "
                             "of the bot's process)")
    parser.add_argument("--workers", type=int, nargs="+", default=[0],
                        help="0: the single process over SQLite; k: k workers over "
                             "PostgreSQL behind one webhook (docs/SCALE_OUT.md), e.g. "
                             "--workers 0 1 2 3 runs each scenario on all four")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs = [(n, 0.0) for n in args.n] + list(args.paced)
    lineups = [args.bots] + ([("hard", 0)] if args.compare_bots and args.bots[1] else [])
    tables = list(dict.fromkeys(args.tables))
    rows = []
    for n, think in runs:
        for bots in lineups:
            for table in tables:
                for workers in args.workers:
                    secs = args.seconds or (20.0 if n <= 10 else 30.0 if n <= 100 else 40.0)
                    print(f"N={n} think={think:g} bots={bots[1]} table={table} "
                          f"workers={workers}: measuring {secs:.0f} s …", file=sys.stderr,
                          flush=True)
                    row = asyncio.run(run_one(n, seconds=secs, think=think,
                                              telegram_limits=args.telegram_limits,
                                              seed=args.seed, bots=bots,
                                              bot_move_delay=args.bot_move_delay, table=table,
                                              picture_workers=args.picture_workers,
                                              workers=workers))
                    row["think"] = think
                    rows.append(row)
    print(f"{os.cpu_count()} CPUs; flood control {'on' if args.telegram_limits else 'off'}")
    if args.workers != [0]:
        print_workers(rows)
        return
    print_table(rows)
    if len(tables) == 2:
        print_pictures(rows)
    if len(lineups) == 2:
        first = [r for r in rows if r["table"] == tables[0]]
        for with_bots, without in zip(first[::2], first[1::2], strict=True):
            print(f"N={with_bots['n']} think={with_bots['think']:g}: people's press→own update "
                  f"p99 with {with_bots['bots']} computer players {with_bots['own_p99_ms']:,.0f} "
                  f"ms, without {without['own_p99_ms']:,.0f} ms: "
                  f"{with_bots['own_p99_ms'] / without['own_p99_ms']:.2f}×")


if __name__ == "__main__":
    main()
