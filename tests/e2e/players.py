"""Simulated people at a table: a group, its players, the lobby, and a match played by pressing
random buttons of the keyboards the bot offers.

Everything goes through the emulator's control API (:class:`~tests.emulator.EmulatorClient`),
as a person's Telegram client would see it.  To learn quickly which keyboard is live, the
players follow the emulator's Bot API call log (:class:`CallFeed`): every move keyboard the bot
sends carries its match version in its callback data, so the newest version is the live one.
A move of several doubles is built press by press (RULES.md §2.0.4, issue 13): a building
press edits the same message to a keyboard of the same version, which the player presses in
turn until the move is played.
The full chats, with every text a message ever had, are read once at the end by the checkers
(:mod:`tests.e2e.checks`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.emulator import ChatMessage, EmulatorClient

__all__ = [
    "MOVE_PREFIX",
    "PLACE_PREFIX",
    "PLAY_PREFIX",
    "ButtonMove",
    "button_move",
    "CallFeed",
    "Keyboard",
    "MatchLog",
    "Person",
    "Press",
    "Table",
    "move_buttons",
    "parse_move_data",
]

#: callback_data of a move button starts with this (``ui.callbacks.MoveCb``: a tile on an end
#: of the line, or a lead).
MOVE_PREFIX = "m1:"
#: ... or with this (``ui.callbacks.PlayCb``: any move, or a step of a move being built).
PLAY_PREFIX = "p1:"
#: ... or with this (``ui.callbacks.PlaceCb``: a placement on the trains or the sausage, or
#: the choice of a train for a tile, RULES.md §2.11, §2.12).
PLACE_PREFIX = "y1:"
_LOBBY_PREFIX = "l1:"


def move_buttons(markup: dict | None) -> list[dict]:
    """The move buttons (``{"text", "callback_data"}``) of an inline keyboard, row by row:
    those that play a move and those that build one."""
    rows = (markup or {}).get("inline_keyboard") or []
    return [b for row in rows for b in row
            if str(b.get("callback_data", "")).startswith((MOVE_PREFIX, PLAY_PREFIX,
                                                           PLACE_PREFIX))]


def parse_move_data(data: str) -> tuple[int, int, int, str]:
    """``"m1:<match>:<version>:<tile id>:<end>"`` → ``(match, version, tile id, end)`` (a
    ``MoveCb`` button only)."""
    _, game, ver, tile, end = data.split(":")
    return int(game), int(ver), int(tile), end


@dataclass(frozen=True)
class ButtonMove:
    """What a move button does: ``kind`` ``play`` (its ``placements`` are the move),
    ``build`` (shows the move being built with these ``placements`` chosen so far) or
    ``cancel`` (back to the move buttons), in match ``game`` at ``version``."""

    game: int
    version: int
    kind: str
    placements: tuple[Any, ...] = ()


def button_move(data: str) -> ButtonMove:
    """Decode a move button's callback_data (``MoveCb`` or ``PlayCb``); ``ValueError`` for
    anything else.  Placements have ``tile`` (``"a-b"``), ``end``, ``closed``, ``along``."""
    from service.views import PlacementOption
    from ui.callbacks import MoveCb, PlaceCb, PlayCb, parse_callback

    cb = parse_callback(data)
    if isinstance(cb, PlaceCb):  # the trains, the sausage: a tile's train is a choice
        kind = {"p": "play", "c": "build", "t": "cancel"}[cb.act]
        return ButtonMove(cb.game, cb.ver, kind, (cb.placement,) if cb.act != "t" else ())
    if isinstance(cb, MoveCb):
        a, b = cb.halves
        return ButtonMove(cb.game, cb.ver, "play", (PlacementOption(f"{a}-{b}", cb.engine_end),))
    if isinstance(cb, PlayCb):
        kind = {"p": "play", "b": "build", "t": "cancel"}[cb.act]
        return ButtonMove(cb.game, cb.ver, kind, cb.placements)
    raise ValueError(f"not a move button: {data!r}")


@dataclass(frozen=True)
class Person:
    """A simulated Telegram user."""

    id: int
    name: str


@dataclass(frozen=True)
class Keyboard:
    """A move keyboard the bot sent: where, for which match version, and its buttons."""

    chat_id: int
    message_id: int
    match_id: int
    version: int
    buttons: tuple[dict, ...]
    seq: int  # the call that showed it


@dataclass(frozen=True)
class Press:
    """A press a simulated player made: the keyboard, the button's data, the query id, and
    how often the bot had edited the pressed message when it was pressed (``edits``, as the
    call log counts them): the press's own edit is the next one (:meth:`Table.next_shown`);
    ``update_id`` the emulator's update that carries it."""

    user_id: int
    keyboard: Keyboard
    data: str
    query_id: str
    edits: int = 0
    update_id: int | None = None


@dataclass
class MatchLog:
    """What one :meth:`Table.play` saw: the presses, and how the match ended (``ended``: the
    match-end message was sent; ``end_text`` its text)."""

    presses: list[Press] = field(default_factory=list)
    ended: bool = False
    end_text: str | None = None


class CallFeed:
    """Follows the emulator's Bot API call log incrementally (``calls(since=…)``), so waiting
    for the bot's next keyboard does not re-read whole chats.  One feed may serve several
    tables at once; ``since`` skips the calls up to that sequence number."""

    def __init__(self, client: EmulatorClient, *, since: int = 0) -> None:
        self.client = client
        self.calls: list[dict] = []
        self.seq = since
        self.keyboards: list[Keyboard] = []
        self._lock = asyncio.Lock()

    async def sync(self) -> None:
        """Fetch the calls made since the last sync and note the move keyboards shown."""
        async with self._lock:
            new = await self.client.calls(since=self.seq)
            for call in new:
                self.seq = max(self.seq, call["seq"])
                self.calls.append(call)
                self._note(call)

    def _note(self, call: dict) -> None:
        method = call["method"].lower()
        if not call["ok"] or method not in ("sendmessage", "editmessagetext",
                                             "editmessagereplymarkup"):
            return
        buttons = move_buttons(call["params"].get("reply_markup"))
        if not buttons:
            return
        mid = call["message_id"] if method == "sendmessage" else call["params"]["message_id"]
        first = button_move(buttons[0]["callback_data"])
        self.keyboards.append(Keyboard(int(call["chat_id"]), int(mid), first.game,
                                       first.version, tuple(buttons), call["seq"]))

    async def wait(self, predicate: Callable[[], Any], *, timeout: float = 15.0,
                   what: str = "condition") -> Any:
        """Sync until ``predicate()`` returns something truthy; that value.  ``TimeoutError``
        after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            version = (await self.client.state())["version"]
            await self.sync()
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"{what} did not happen within {timeout} s")
            await self.client.wait_change(version, min(remaining, 2.0))

    def edits(self, chat_id: int, message_id: int) -> int:
        """How many edits of one message the bot made (successful text or keyboard edits)."""
        return sum(1 for c in self.calls if c["ok"] and c["chat_id"] == chat_id
                   and c["method"].lower() in ("editmessagetext", "editmessagereplymarkup")
                   and c["params"].get("message_id") == message_id)

    def shown_on(self, chat_id: int, message_id: int) -> Keyboard | None:
        """The move keyboard one message shows after the bot's last call on it (None when
        that call left it none)."""
        last = None
        for c in self.calls:
            if not c["ok"] or c["chat_id"] != chat_id:
                continue
            method = c["method"].lower()
            mid = c["message_id"] if method == "sendmessage" else c["params"].get("message_id")
            if mid == message_id and method in ("sendmessage", "editmessagetext",
                                                "editmessagereplymarkup"):
                last = c
        if last is None or not move_buttons(last["params"].get("reply_markup")):
            return None
        return next((kb for kb in reversed(self.keyboards) if kb.seq == last["seq"]), None)

    def newest_keyboard(self, user_ids: Sequence[int], match_id: int | None = None
                        ) -> Keyboard | None:
        """The move keyboard with the highest version sent to one of ``user_ids`` (of one
        version, the last shown: a move being built edits its message)."""
        best = None
        ids = set(user_ids)
        for kb in self.keyboards:
            if kb.chat_id in ids and (match_id is None or kb.match_id == match_id) \
                    and (best is None or (kb.version, kb.seq) > (best.version, best.seq)):
                best = kb
        return best

    def sends(self, chat_id: int, since: int = 0) -> list[dict]:
        """Successful ``sendMessage`` and ``sendPhoto`` (the table as a picture) calls to
        ``chat_id`` after call ``since``."""
        return [c for c in self.calls if c["seq"] > since and c["ok"]
                and c["method"].lower() in ("sendmessage", "sendphoto")
                and c["chat_id"] == chat_id]

    def match_end(self, chat_id: int, since: int = 0) -> dict | None:
        """The match-end message sent to the group (it carries the Rematch button)."""
        for c in self.sends(chat_id, since):
            rows = (c["params"].get("reply_markup") or {}).get("inline_keyboard") or []
            if any(str(b.get("callback_data", "")).startswith(_LOBBY_PREFIX)
                   and ":rematch:" in b["callback_data"] for row in rows for b in row):
                return c
        return None


class Table:
    """One group chat with its people, driven through the control API.

    ``players`` are the people who will sit at the table, ``players[0]`` opens the lobby and
    is a chat admin (so it may change /settings); ``others`` are members who do not play.
    """

    def __init__(self, client: EmulatorClient, feed: CallFeed, chat_id: int,
                 players: Sequence[Person], others: Sequence[Person] = ()) -> None:
        self.client = client
        self.feed = feed
        self.chat_id = chat_id
        self.players = list(players)
        self.others = list(others)
        self.match_id: int | None = None
        self.lobby_message_id: int | None = None
        self.start_seq = 0
        self.former_chat_ids: list[int] = []

    @classmethod
    async def create(cls, client: EmulatorClient, feed: CallFeed, names: Sequence[str], *,
                     first_id: int, others: Sequence[str] = (), open_dm: bool | Sequence[bool]
                     = True, title: str = "Домино во дворе") -> Table:
        """Create the users (ids from ``first_id``), a group with all of them (the first is
        its creator and an admin) and, per ``open_dm``, have each player open the DM with
        /start."""
        people = [Person(first_id + i, n) for i, n in enumerate(names)]
        bystanders = [Person(first_id + len(names) + i, n) for i, n in enumerate(others)]
        for p in people + bystanders:
            await client.create_user(p.id, p.name)
        chat = await client.create_chat(title=title, members=[p.id for p in people + bystanders],
                                        admins=[people[0].id])
        flags = [open_dm] * len(people) if isinstance(open_dm, bool) else list(open_dm)
        for p, flag in zip(people, flags, strict=True):
            if flag:
                await client.start(p.id)
        table = cls(client, feed, chat["id"], people, bystanders)
        return table

    @property
    def user_ids(self) -> list[int]:
        """The players' ids in joining order."""
        return [p.id for p in self.players]

    # -- set-up through commands and buttons ----------------------------------------------------

    async def command(self, person: Person, text: str) -> dict:
        """``person`` writes a command in the group."""
        return await self.client.send(person.id, text, chat_id=self.chat_id)

    async def configure(self, **choices: str) -> None:
        """Change this chat's /settings as the admin through the menu buttons, e.g.
        ``configure(match_limit="51", fish_scoring="each_own", teams="1")``."""
        admin = self.players[0]
        sent = await self.command(admin, "/settings")
        menu = await self.client.wait_message(
            self.chat_id, lambda m: m.from_bot and m.reply_to == sent["message_id"]
            and m.buttons, timeout=10)
        for key, value in choices.items():
            await self._press_and_wait(admin, menu, f"s2:{key}:")
            menu = await self.client.message(self.chat_id, menu.message_id)
            answer = await self._press_and_wait(admin, menu, f"s2:{key}:{value}")
            assert not answer.get("show_alert"), answer
        await self._press_and_wait(admin, menu, "s2:done:")

    async def _press_and_wait(self, person: Person, msg: ChatMessage, data: str) -> dict:
        before = await self.client.message(msg.chat_id, msg.message_id)
        button = next((b for b in before.flat_buttons if b.callback_data == data), None)
        assert button is not None, f"no button {data!r} in {before.button_texts}"
        press = await self.client.press(person.id, msg.chat_id, msg.message_id,
                                        text=button.text)
        answer = await self.client.wait_answer(press["query_id"], timeout=10)
        await self.client.wait_until(
            lambda: self._edited(msg, before.edits), timeout=10, what="settings edit")
        return answer

    async def _edited(self, msg: ChatMessage, edits: int) -> bool:
        now = await self.client.message(msg.chat_id, msg.message_id)
        return now.edits > edits

    async def open_lobby(self, game: str = "") -> ChatMessage:
        """``players[0]`` types /newgame (with the name of a ``game``, RULES.md §2); the lobby
        message (its Join button names the match)."""
        await self.feed.sync()
        self.start_seq = self.feed.seq
        sent = await self.command(self.players[0], f"/newgame {game}".strip())
        lobby = await self.client.wait_message(
            self.chat_id, lambda m: m.from_bot and any(
                (b.callback_data or "").startswith("l1:join:") for b in m.flat_buttons),
            after=sent["message_id"], timeout=10)
        data = next(b.callback_data for b in lobby.flat_buttons
                    if (b.callback_data or "").startswith("l1:join:"))
        self.match_id = int(data.rsplit(":", 1)[1])
        self.lobby_message_id = lobby.message_id
        return lobby

    async def press_join(self, person: Person) -> dict:
        """``person`` presses Join under the lobby; the bot's answer to the press."""
        press = await self.client.press(person.id, self.chat_id, self.lobby_message_id,
                                        data=f"l1:join:{self.match_id}")
        return await self.client.wait_answer(press["query_id"], timeout=10)

    async def seated(self) -> list[str]:
        """The lobby's seats as the lobby message lists them (names, empty seats left out)."""
        lobby = await self.client.message(self.chat_id, self.lobby_message_id)
        seats = []
        for line in (lobby.text or "").splitlines():
            head, _, name = line.partition(". ")
            if head.isdigit() and name and name != "—":
                seats.append(name)
        return seats

    async def wait_seated(self, count: int) -> None:
        """Wait until the lobby message lists ``count`` players."""
        async def check() -> bool:
            return len(await self.seated()) >= count

        await self.client.wait_until(check, timeout=10, what=f"{count} players seated")

    async def gather(self, game: str = "") -> None:
        """Open the lobby (of ``game``), have every other player press Join, and wait until
        all are seated."""
        await self.open_lobby(game)
        for n, p in enumerate(self.players[1:], start=2):
            answer = await self.press_join(p)
            assert not answer.get("show_alert") and not answer.get("url"), answer
            await self.wait_seated(n)

    async def start(self) -> None:
        """``players[0]`` types /startgame; wait for the table message."""
        await self.command(self.players[0], "/startgame")
        await self.feed.wait(lambda: self.feed.sends(self.chat_id, self.start_seq),
                             what="the table")

    # -- play ------------------------------------------------------------------------------------

    def person(self, user_id: int) -> Person:
        """The player with this id."""
        return next(p for p in self.players if p.id == user_id)

    async def next_keyboard(self, after_version: int, *, since: int = 0,
                            timeout: float = 15.0) -> Keyboard | None:
        """Wait for a move keyboard of this match newer than ``after_version``, or for the
        match-end message (then None)."""
        return await self._next(lambda kb: kb.version > after_version, since=since,
                                timeout=timeout, what=f"a keyboard after version {after_version}")

    async def _next(self, newer: Callable[[Keyboard], bool], *, since: int, timeout: float,
                    what: str) -> Keyboard | None:
        """Wait until the newest move keyboard of this match is ``newer`` (that keyboard),
        or for the match-end message (None)."""
        def ready() -> Any:
            kb = self.feed.newest_keyboard(self.user_ids, self.match_id)
            if kb is not None and newer(kb):
                return kb
            if self.feed.match_end(self.chat_id, since):
                return "end"
            return None

        got = await self.feed.wait(ready, timeout=timeout, what=what)
        return None if got == "end" else got

    async def press(self, kb: Keyboard, rng: random.Random | None = None, *,
                    index: int | None = None) -> Press:
        """The keyboard's owner presses one of its buttons (``index``, or at random: on the
        move buttons, "several doubles" with probability ``build_bias`` when it is there; on
        a move being built, "cancel" only now and then)."""
        if index is None:
            index = self.choose(kb, rng or random)
        button = kb.buttons[index]
        await self.feed.sync()
        edits = self.feed.edits(kb.chat_id, kb.message_id)
        got = await self.client.press(kb.chat_id, kb.chat_id, kb.message_id,
                                      text=button["text"])
        return Press(kb.chat_id, kb, button["callback_data"], got["query_id"], edits,
                     got.get("update_id"))

    #: How likely a player who may build a move of several doubles starts building it.
    build_bias = 0.5
    #: How likely a player building a move cancels it (when anything else is possible).
    cancel_bias = 0.1

    def choose(self, kb: Keyboard, rng: Any) -> int:
        """The index of the button a player presses on ``kb``."""
        kinds = [button_move(b["callback_data"]).kind for b in kb.buttons]
        if "cancel" in kinds:
            others = [i for i, k in enumerate(kinds) if k != "cancel"]
            if others and rng.random() >= self.cancel_bias:
                return rng.choice(others)
            return kinds.index("cancel")
        if "build" in kinds and rng.random() < self.build_bias:
            return kinds.index("build")
        return rng.randrange(len(kb.buttons))

    async def next_shown(self, press: Press, *, since: int = 0, timeout: float = 15.0
                         ) -> Keyboard | None:
        """After a press that builds a move (or goes back to the move buttons): the keyboard
        that press made the bot show — the pressed message's next edit (its edit count past
        the count at the press, :attr:`Press.edits`) — or a keyboard of a newer version
        (the game moved on meanwhile), or None for the match end.  Never merely the newest
        keyboard shown: another message's keyboard of the same version (a hand sent again
        for /start or /hand) is not the answer to this press (issue 30 item 18)."""
        kb = press.keyboard

        def ready() -> Any:
            newest = self.feed.newest_keyboard(self.user_ids, self.match_id)
            if newest is not None and newest.version > kb.version:
                return newest
            if self.feed.match_end(self.chat_id, since):
                return "end"
            if self.feed.edits(kb.chat_id, kb.message_id) > press.edits:
                return self.feed.shown_on(kb.chat_id, kb.message_id) or newest
            return None

        got = await self.feed.wait(ready, timeout=timeout,
                                   what=f"the edit of the press on version {kb.version}")
        return None if got == "end" else got

    async def play(self, rng: random.Random, *, max_moves: int | None = None,
                   log: MatchLog | None = None, after_version: int = -1,
                   timeout: float = 15.0) -> MatchLog:
        """Press a random button of each new keyboard until the match ends (or
        ``max_moves`` moves were made), building moves of several doubles press by press;
        returns (and extends) ``log``."""
        log = log if log is not None else MatchLog()
        last = after_version
        if log.presses:
            last = max(last, log.presses[-1].keyboard.version)
        moves = 0
        while max_moves is None or moves < max_moves:
            kb = await self.next_keyboard(last, since=self.start_seq, timeout=timeout)
            while kb is not None:
                press = await self.press(kb, rng)
                log.presses.append(press)
                if button_move(press.data).kind == "play":
                    break
                kb = await self.next_shown(press, since=self.start_seq, timeout=timeout)
            if kb is None:
                end = self.feed.match_end(self.chat_id, self.start_seq)
                log.ended, log.end_text = True, end["params"]["text"]
                return log
            last = kb.version
            moves += 1
        return log

    async def wait_end(self, *, timeout: float = 15.0) -> dict:
        """Wait for the match-end message; its ``sendMessage`` call."""
        return await self.feed.wait(lambda: self.feed.match_end(self.chat_id, self.start_seq),
                                    timeout=timeout, what="the match end")

    async def rematch(self) -> None:
        """``players[0]`` presses Rematch under the match-end message: a new lobby with the
        same players in the same seats, which they then start."""
        end = await self.wait_end()
        await self.feed.sync()
        self.start_seq = self.feed.seq
        old = self.match_id
        press = await self.client.press(self.players[0].id, self.chat_id, end["message_id"],
                                        index=0)
        answer = await self.client.wait_answer(press["query_id"], timeout=10)
        assert not answer.get("show_alert"), answer
        lobby = await self.client.wait_message(
            self.chat_id, lambda m: m.from_bot and any(
                (b.callback_data or "").startswith("l1:join:")
                and b.callback_data != f"l1:join:{old}" for b in m.flat_buttons),
            after=end["message_id"], timeout=10)
        data = next(b.callback_data for b in lobby.flat_buttons
                    if (b.callback_data or "").startswith("l1:join:"))
        self.match_id = int(data.rsplit(":", 1)[1])
        self.lobby_message_id = lobby.message_id
        await self.start()

    async def chats(self) -> tuple[list[ChatMessage], dict[int, list[ChatMessage]]]:
        """What the chats show now: the group's messages (those of a group it was migrated
        from first) and each player's private chat, deleted messages included."""
        group: list[ChatMessage] = []
        for chat_id in self.former_chat_ids + [self.chat_id]:
            group += await self.client.messages(chat_id, include_deleted=True)
        dms = {p.id: await self.client.messages(p.id, include_deleted=True)
               for p in self.players}
        return group, dms

    async def migrate(self) -> int:
        """The group becomes a supergroup; the table follows it to the new chat id."""
        new_id = await self.client.migrate(self.chat_id)
        self.former_chat_ids.append(self.chat_id)
        self.chat_id = new_id
        return new_id

    async def unanswered_or_alerted(self, presses: Sequence[Press], *, timeout: float = 10.0
                                    ) -> list[tuple[Press, Any]]:
        """Presses of offered buttons that were not answered within ``timeout`` seconds of
        the call, or answered with an alert (each should have been accepted silently). Each
        answer is waited for, not looked up once the bot seems quiet."""
        bad = []
        for p in presses:
            try:
                answer = await self.client.wait_answer(p.query_id, timeout=timeout)
            except TimeoutError:
                answer = None
            if answer is None or answer.get("show_alert") or answer.get("text"):
                bad.append((p, answer))
        return bad
