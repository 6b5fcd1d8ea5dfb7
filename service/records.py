"""Game records (issue 15): a played match's record as a file, and the check of a record a
user sends.

A record is the JSON of ``docs/ENGINE_API.md`` ("Game records") that ``python -m engine
replay`` reads, built by the engine from the match's seed and action log
(:func:`service.live.records.record_of`); it holds every deal, so it is given out only once the
match has ended.  Beside the keys the replay reads it carries ``"match"``: the match's id and
when it finished, so a record sent back can be compared with what the bot stored.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any

from service.live.records import check_record, is_record_of, record_of
from service.live.seats import seat_name
from service.views import ErrorCode, LeftSeat, RecordCheck, RecordFile, Status
from storage import Database
from storage import repository as repo

__all__ = ["Records", "dump_record"]


def dump_record(record: dict[str, Any]) -> bytes:
    """A record as UTF-8 JSON that reads well: each key of the top, each round's deal and
    each decision on a line of its own."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    top = [k for k in record if k != "rounds"]
    for k in top:
        lines.append(f" {one(k)}: {one(record[k])},")
    lines.append(' "rounds": [')
    rounds = record.get("rounds", [])
    for i, rnd in enumerate(rounds):
        lines.append(f'  {{"deal": {one(rnd["deal"])},')
        lines.append('   "decisions": [')
        decisions = rnd.get("decisions", [])
        for j, d in enumerate(decisions):
            lines.append(f"    {one(d)}{',' if j < len(decisions) - 1 else ''}")
        lines.append(f"   ]}}{',' if i < len(rounds) - 1 else ''}")
    lines.append(" ]")
    lines.append("}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _played(row: repo.MatchRow) -> bool:
    return row.seed is not None and row.status in (Status.FINISHED, Status.STOPPED)


def _is_player(row: repo.MatchRow, user_id: int) -> bool:
    for s in row.seats:
        left = s.get("left")
        if int(s["user_id"]) == user_id or (isinstance(left, dict)
                                            and left.get("user_id") == user_id):
            return True
    return False


class Records:
    """Records over ``db``; checks of sent records run in ``executor`` (None: the event
    loop's default thread pool), so a large record does not hold up the event loop."""

    def __init__(self, db: Database, *, executor: Executor | None = None) -> None:
        self.db = db
        self.executor = executor

    async def record(self, match_id: int, user_id: int, chat_id: int | None = None, *,
                     granted: bool = False) -> RecordFile | ErrorCode:
        """The game record of a match that has ended (finished or stopped), for ``user_id``
        asking in ``chat_id``: in the match's own chat anyone there may have it (its rounds'
        hands were shown there as they closed); elsewhere only its players (a seat they left
        included), or whoever ``granted`` says asked in its chat before.  Errors:
        ``not_found`` (no such match), ``wrong_status`` (still open, or never dealt),
        ``not_in_game`` (neither its chat nor one of its players)."""
        row, actions = await self.db.read(_load, match_id)
        if row is None:
            return ErrorCode.NOT_FOUND
        if not _played(row):
            return ErrorCode.WRONG_STATUS
        if not granted and chat_id != row.chat_id and not _is_player(row, user_id):
            return ErrorCode.NOT_IN_GAME
        record = record_of(row, actions)
        finished = row.finished_at
        record["match"] = {"id": row.id, "finished": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime(finished)) if finished else None}
        variant = str(record["rules"].get("variant", "classic"))
        return RecordFile(row.id, row.chat_id, variant, finished,
                          f"kozel-{variant}-{row.id}.json", dump_record(record))

    async def latest(self, *, chat_id: int | None = None, user_id: int | None = None
                     ) -> int | None:
        """The id of the newest finished match of a chat or of a person, or None."""
        rows = await self.db.read(lambda c: repo.history(c, chat_id=chat_id, user_id=user_id,
                                                         limit=1))
        return rows[0].match_id if rows else None

    async def check(self, data: bytes) -> RecordCheck:
        """Replay a record a user sent (:func:`service.live.records.check_record`); when it names a
        finished match of this bot, also whether it is that match (``RecordCheck.stored``):
        the same rules, deals and decisions as the bot's own record of it (tiles in either
        order), and so the same goats and rating points of every rated player (RULES.md
        §1.15–§1.16); names that differ from the bot's are listed (``renamed``), since the
        record then is not quite the match as the bot recorded it.  A seat of that match a
        person handed to a computer player is listed (``left``): the record rates the seat as
        the engine does, the person gets 0 (§1.16), as the match's end said.  Changes
        nothing."""
        loop = asyncio.get_running_loop()
        out = await loop.run_in_executor(self.executor, check_record, bytes(data))
        if not out.ok:
            return out
        try:
            meta = json.loads(data.decode("utf-8")).get("match") or {}
            match_id = int(meta["id"]) if isinstance(meta, dict) and "id" in meta else None
        except (ValueError, TypeError, AttributeError):
            match_id = None
        if match_id is None or not 0 < match_id < 2**63:
            return out
        row, actions = await self.db.read(_load, match_id)
        if row is None or row.status != Status.FINISHED or row.seed is None:
            return out
        rows = await self.db.read(repo.results_of, match_id)
        sent = json.loads(data.decode("utf-8"))
        same = await loop.run_in_executor(self.executor, is_record_of, sent, row, actions)
        same = same and out.finished and all(
            r.side < len(out.rating) and r.rating == out.rating[r.side]
            and r.goat == (r.side in out.goats) for r in rows if not r.left_match) and all(
            _same_marks(r, out) for r in rows)
        stored = [seat_name(s) for s in row.seats]
        renamed = tuple((a, b) for a, b in zip(stored, out.names, strict=False) if a != b) \
            if same else ()
        return replace(out, stored_match=match_id, stored=same, renamed=renamed,
                       left=_left_seats(row) if same else ())


def _left_seats(row: repo.MatchRow) -> tuple[LeftSeat, ...]:
    """The seats of a stored match that people handed to computer players (the seat's
    ``"left"``, :mod:`service.leaving`): they are rated 0 (RULES.md §1.16), whatever the
    engine's rating of the seat that a record replays."""
    out = []
    for k, s in enumerate(row.seats):
        left = s.get("left")
        if isinstance(left, dict):
            out.append(LeftSeat(k, str(left.get("name", "")), str(s.get("name", "")),
                                int(left.get("round", 0)) or None))
    return tuple(out)


def _same_marks(row: repo.ResultRow, out: RecordCheck) -> bool:
    """Whether a stored result row's marks (what the game counts beside points, RULES.md
    §2.8–§2.9) are the replay's for its seat or side; True for a row stored without them."""
    tallies = {t.name: t for t in out.marks}
    for m in row.marks or ():
        tally = tallies.get(str(m["name"]))
        k = row.seat if tally is not None and tally.per == "seat" else row.side
        if tally is None or k >= len(tally.counts) or tally.counts[k] != int(m["count"]):
            return False
    return True


def _load(conn: Any, match_id: int) -> tuple[Any, list]:
    row = repo.get_match(conn, match_id)
    if row is None:
        return None, []
    return row, (repo.list_actions(conn, match_id) if row.seed is not None else [])
