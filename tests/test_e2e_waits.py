"""How the end-to-end tests wait (issue 30 item 18): for the change they expect — a match
version, the edit a press made — never for "the newest thing shown".

Two runs of ``.ci/run`` on a loaded machine failed the move built press by press: after
pressing 🧩, the helper read the newest keyboard shown, which was the hand the bot sent
again for the player's /start, not the edit of the pressed message (``assert 'build' ==
'cancel'``).  Here the emulator's call log is scripted, so that very order happens every
time; and the end-to-end files are read, so that no wait of that kind comes back.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from service.views import PlacementOption
from tests.e2e.players import CallFeed, Person, Table, button_move
from ui.callbacks import PlayCb, pack_placements

ROOT = Path(__file__).resolve().parent
USER, GAME, VERSION = 9090, 7, 12


def _markup(*buttons: tuple[str, str]) -> dict:
    return {"inline_keyboard": [[{"text": t, "callback_data": d}] for t, d in buttons]}


def _moves() -> dict:
    """The move buttons of version VERSION: a move, and 🧩 (build a move of doubles)."""
    one = pack_placements([PlacementOption("2-2", "left")])
    return _markup(("[2|2] ←", PlayCb(game=GAME, ver=VERSION, act="p", move=one).pack()),
                   ("🧩", PlayCb(game=GAME, ver=VERSION, act="b").pack()))


def _building() -> dict:
    """What 🧩 shows: a double to add, and "back" last."""
    first = pack_placements([PlacementOption("2-2", "left")])
    return _markup(("+ [2|2] ←", PlayCb(game=GAME, ver=VERSION, act="b", move=first).pack()),
                   ("↩️", PlayCb(game=GAME, ver=VERSION, act="t").pack()))


class ScriptedEmulator:
    """The few calls of :class:`tests.emulator.EmulatorClient` a :class:`Table` makes, over a
    call log the test writes; ``later`` are calls that land one by one, each when the feed
    waits for a change."""

    def __init__(self, calls: list[dict], later: list[dict]) -> None:
        self.log, self.later, self.version = list(calls), list(later), 0

    async def calls(self, *, since: int = 0, **_: object) -> list[dict]:
        return [c for c in self.log if c["seq"] > since]

    async def state(self) -> dict:
        return {"version": self.version}

    async def wait_change(self, since: int, timeout: float = 10.0) -> int:
        await asyncio.sleep(0)
        if self.later:
            self.log.append(self.later.pop(0))
            self.version += 1
        return self.version

    async def press(self, user_id: int, chat_id: int, message_id: int, **_: object) -> dict:
        return {"query_id": "q1", "update_id": 1}


def _call(seq: int, method: str, message_id: int, markup: dict | None) -> dict:
    params = {"reply_markup": markup} if markup else {}
    if method != "sendMessage":
        params["message_id"] = message_id
    return {"seq": seq, "method": method, "chat_id": USER, "ok": True, "t": float(seq),
            "params": params, "message_id": message_id if method == "sendMessage" else None}


async def test_after_a_press_the_wait_is_for_that_press_edit_not_the_newest_keyboard():
    """The hand (message 3) is pressed on 🧩; before the bot's edit of message 3 lands, the
    hand is sent again as message 4 for a /start (the same version, its own 🧩 last). The
    keyboard the press made is message 3's edit, with "back" last."""
    emulator = ScriptedEmulator(
        [_call(1, "sendMessage", 3, _moves())],
        [_call(2, "sendMessage", 4, _moves()),
         _call(3, "editMessageReplyMarkup", 3, _building())])
    feed = CallFeed(emulator)  # type: ignore[arg-type]
    table = Table(emulator, feed, USER, [Person(USER, "Вася")])  # type: ignore[arg-type]
    table.match_id = GAME
    await feed.sync()
    (kb,) = feed.keyboards
    press = await table.press(kb, index=1)
    assert press.edits == 0 and button_move(press.data).kind == "build"
    shown = await table.next_shown(press, timeout=5)
    assert (shown.message_id, shown.seq) == (3, 3)
    assert button_move(shown.buttons[-1]["callback_data"]).kind == "cancel"


def test_the_end_to_end_tests_wait_for_changes_not_for_quiet_or_the_newest():
    """In the end-to-end files a quiet spell (``wait_idle``) only proves an absence — that
    nothing follows — and says so; what a test expects is waited for itself. The newest
    keyboard is looked up only by the players' helpers, under a version they wait for."""
    files = [*(p for p in ROOT.glob("test_e2e_*.py") if p.name != Path(__file__).name),
             *(ROOT / "e2e").glob("*.py"), ROOT / "test_webapp_browser.py"]
    quiet, newest = [], []
    for path in files:
        lines = path.read_text("utf-8").splitlines()
        for n, line in enumerate(lines):
            if "wait_idle(" in line and "def wait_idle" not in line:
                said = " ".join(lines[max(0, n - 3):n + 1]).lower()
                if not re.search(r"absence|nothing (may )?follow|no observable", said):
                    quiet.append(f"{path.name}:{n + 1}")
            if ".newest_keyboard(" in line and path.name != "players.py":
                newest.append(f"{path.name}:{n + 1}")
    assert quiet == [] and newest == [], (quiet, newest)
