"""The game service: lobbies, matches, moves, deadlines, statistics. No aiogram.

Plain values in (chat id, thread id, user id, names, tile codes, versions), plain
:class:`~service.views.Result` values out. Every accepted change is committed in one database
transaction — the action row, the version bump, the new deadline, and at the end of a match its
results — before the call returns, so a caller only ever sends messages about committed state.

Concurrency: one :class:`asyncio.Lock` per match serialises the calls of this process, and every
write is ``UPDATE matches ... WHERE id = ? AND version = ?``: when another process (or a stale
cache) got there first, nothing is written and the caller gets ``ErrorCode.STALE``.

State: a match is rebuilt from its seed and action log through the engine (deterministic,
``docs/ENGINE_API.md``) and cached in memory while it is open.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import secrets
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError

import engine
from engine import ai
from service import bots
from service.live import LiveMatch, parse_move, public_events, round_summaries, rules_players
from service.messages import SendLog
from service.views import (
    BotStats,
    ChatInfo,
    ChatResult,
    EndReason,
    ErrorCode,
    LeaderRow,
    PersonalStats,
    Result,
    Status,
    UserInfo,
)
from storage import GLOBAL_SCOPE, Database, open_database
from storage import repository as repo

log = logging.getLogger(__name__)

#: Seconds a lobby waits for its start after the last join (then it expires).
DEFAULT_LOBBY_TTL = 600.0
#: Seconds a computer player waits before its move, so that people can follow the table.
DEFAULT_BOT_MOVE_DELAY = 1.5
#: Seconds a user's or chat's cached settings may lag behind a change another process made
#: (changes made through this service are seen at once).
SETTINGS_TTL = 60.0
_SETTINGS_CACHED = 50_000  # entries per cache before it starts afresh

OPEN = (Status.LOBBY, Status.PLAYING)


class _Abort(Exception):
    """Roll the current transaction back and answer with ``result``."""

    def __init__(self, result: Result):
        super().__init__(result.error)
        self.result = result


class _Conflict(Exception):
    """The optimistic version check failed: somebody else changed the match first."""


class GameService:
    """The game service over one :class:`storage.Database`.

    ``clock``: returns Unix time in seconds (inject a fake one in tests); ``seed_source``:
    returns the deal seed of a new match (default: 63 random bits); ``lobby_ttl``: seconds an
    idle lobby lives. Create with :meth:`open` (migrates the database) or from a ready
    :class:`~storage.Database`; call :meth:`close` at shutdown.

    Computer players (issue 6): ``bot_move_delay`` seconds after a bot's turn began its
    deadline falls due and the sweeper (:meth:`fire_due`) makes it move; ``bot_budget`` is
    the ``hard`` strength's thinking time per move [seconds] and ``bot_samples``, when set,
    replaces it by a fixed number of sampled deals (deterministic, for tests);
    ``bot_executor`` runs the decisions off the event loop (None: the loop's default thread
    pool).
    """

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        lobby_ttl: float = DEFAULT_LOBBY_TTL,
        bot_move_delay: float = DEFAULT_BOT_MOVE_DELAY,
        bot_budget: float = ai.DEFAULT_BUDGET,
        bot_samples: int | None = None,
        bot_executor: Executor | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.lobby_ttl = float(lobby_ttl)
        self.bot_move_delay = float(bot_move_delay)
        self.bot_budget = float(bot_budget)
        self.bot_samples = bot_samples
        self._bot_executor = bot_executor
        #: Set after a commit that armed a computer player's turn: wakes the sweeper.
        self._wake = asyncio.Event()
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        #: Per-match locks and the cache of open matches (rebuilt from the database on a miss).
        self._cache: dict[int, LiveMatch] = {}
        # A lock lives as long as somebody holds or awaits it.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        #: Users and chats as last read (monotonic expiry, value); every message the bot
        #: renders asks for a language, which would otherwise be a database read each time.
        self._users: dict[int, tuple[float, UserInfo | None]] = {}
        self._chats: dict[int, tuple[float, ChatInfo]] = {}
        self._settings_gen = 0  # bumped by every change, so a read in flight is not cached
        #: The bot's recent sends per group, for the outbox's windows across restarts.
        self.sends = SendLog(db)

    @classmethod
    async def open(cls, path_or_url: str | Path, **kwargs: Any) -> GameService:
        """Open (create, migrate to the newest schema) the database and return a service.
        ``kwargs`` go to :class:`GameService`."""
        return cls(await open_database(path_or_url), **kwargs)

    async def close(self) -> None:
        """Release the database connections."""
        self._cache.clear()
        await self.db.dispose()

    # ================================================================== internals

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    async def _fetch(self, match_id: int) -> LiveMatch | None:
        """Read the row and the action log in one snapshot and replay them."""
        row, actions = await self.db.read(_load_match, match_id)
        if row is None:
            return None
        live = LiveMatch.from_row(row, actions)
        if live.status in OPEN:
            self._cache[match_id] = live
        else:
            self._cache.pop(match_id, None)
        return live

    async def _live(self, match_id: int, version: int | None = None) -> LiveMatch | None:
        """The cached match, re-read from the database when absent or when ``version`` is
        newer than the cached one (another process moved on). An older ``version`` is stale
        whatever the database says: versions only grow."""
        live = self._cache.get(match_id)
        if live is None or (version is not None and version > live.version):
            live = await self._fetch(match_id)
        return live

    def _store(self, live: LiveMatch) -> None:
        if live.status in OPEN:
            self._cache[live.match_id] = live
        else:
            self._cache.pop(live.match_id, None)

    def _result(
        self,
        live: LiveMatch,
        *,
        ok: bool = True,
        error: ErrorCode | None = None,
        detail: str = "",
        events: list[Any] | tuple = (),
    ) -> Result:
        started = live.state is not None
        hands = live.state.hands if started else None
        return Result(
            ok=ok,
            error=error,
            detail=detail,
            match_id=live.match_id,
            status=live.status,
            version=live.version,
            lobby=None if started else live.lobby_view(),
            table=live.table_view(hands) if started else None,
            hands=live.hand_views(hands) if started else (),
            events=public_events(events),
            rounds=round_summaries(events),
            final=live.final() if started else None,
            messages=dict(live.row.messages),
            state=live.state,
            log=tuple(live.log),
            engine_events=tuple(events),
        )

    @staticmethod
    def _error(error: ErrorCode, detail: str, live: LiveMatch | None = None) -> Result:
        if live is None:
            return Result(ok=False, error=error, detail=detail)
        return GameService._result_of(live, error, detail)

    @staticmethod
    def _result_of(live: LiveMatch, error: ErrorCode, detail: str) -> Result:
        started = live.state is not None
        hands = live.state.hands if started else None
        return Result(
            ok=False, error=error, detail=detail, match_id=live.match_id, status=live.status,
            version=live.version, lobby=None if started else live.lobby_view(),
            table=live.table_view(hands) if started else None,
            hands=live.hand_views(hands) if started else (),
            final=live.final() if started else None, messages=dict(live.row.messages),
            state=live.state, log=tuple(live.log),
        )

    def _next(self, live: LiveMatch, now: float, **values: Any) -> LiveMatch:
        """A copy of ``live`` whose row carries ``values`` and the next version (not yet
        committed: swap it in only after :func:`repo.update_match` succeeded)."""
        if "status" in values:
            values["status"] = str(values["status"])
        row = replace(live.row, version=live.row.version + 1, updated_at=now, **values)
        nxt = copy.copy(live)
        nxt.row = row
        nxt.outs = list(live.outs)
        nxt.fish = list(live.fish)
        nxt.notes = deque(live.notes, maxlen=live.notes.maxlen)
        nxt.drawn = dict(live.drawn)
        nxt.log = list(live.log)
        return nxt

    async def _write_row(self, live: LiveMatch, nxt: LiveMatch, now: float, **values) -> bool:
        """Commit a row change alone (lobby changes, stop, expiry). False on a version
        conflict (nothing written; the cache entry is dropped)."""
        def txn(conn):
            if not repo.update_match(conn, live.match_id, live.version, now=now, **values):
                raise _Conflict

        try:
            await self.db.write(txn)
        except _Conflict:
            self._cache.pop(live.match_id, None)
            return False
        self._store(nxt)
        return True

    def _deadline(self, live: LiveMatch, state: Any, now: float) -> float:
        """When the turn of ``state.to_act`` falls due: ``bot_move_delay`` seconds away for a
        computer player (then it moves), ``rules.turn_timeout`` for a person (then the host
        moves for them, RULES.md §1.17)."""
        seat = state.to_act
        if seat is not None and bots.is_bot(live.row.seats[seat]):
            return now + self.bot_move_delay
        return now + _turn_seconds(live)

    def _armed(self, live: LiveMatch) -> None:
        """After a commit: wake the sweeper when a computer player is to act (it may be
        asleep for longer than ``bot_move_delay``)."""
        st = live.state
        if st is not None and st.to_act is not None and live.status == Status.PLAYING \
                and bots.is_bot(live.row.seats[st.to_act]):
            self._wake.set()

    async def _stale(self, match_id: int, detail: str) -> Result:
        live = await self._fetch(match_id)
        if live is None:
            return self._error(ErrorCode.NOT_FOUND, "no such match")
        return self._error(ErrorCode.STALE, detail, live)

    def _forget(self, *, users: Sequence[int] = (), chats: Sequence[int] = ()) -> None:
        """Drop cached users and chats that a write of this service changed."""
        self._settings_gen += 1
        for uid in users:
            self._users.pop(uid, None)
        for cid in chats:
            self._chats.pop(cid, None)

    @staticmethod
    def _remember(cache: dict, key: int, value: Any) -> None:
        if len(cache) >= _SETTINGS_CACHED:
            cache.clear()
        cache[key] = (time.monotonic() + SETTINGS_TTL, value)

    @staticmethod
    def _ensure_user(conn, user_id: int, name: str, now: float) -> None:
        if user_id <= 0:
            return  # a computer player has no users row
        if repo.get_user(conn, user_id) is None:
            repo.upsert_user(conn, user_id, now=now, first_name=name)

    # ================================================================== users and chats

    async def register_user(
        self,
        user_id: int,
        first_name: str,
        last_name: str | None = None,
        username: str | None = None,
        language: str | None = None,
        dm_open: bool | None = None,
    ) -> None:
        """Create or refresh a user (names, language code, whether the bot may DM them)."""
        try:
            await self.db.write(lambda conn: repo.upsert_user(
                conn, user_id, now=self.clock(), first_name=first_name, last_name=last_name,
                username=username, language=language, dm_open=dm_open))
        finally:
            self._forget(users=(user_id,))

    async def set_dm_open(self, user_id: int, is_open: bool) -> None:
        """Record that the user started (True) or blocked (False) the bot in private."""
        now = self.clock()
        try:
            await self.db.write(lambda c: repo.upsert_user(c, user_id, now=now,
                                                           dm_open=bool(is_open)))
        finally:
            self._forget(users=(user_id,))

    async def get_user(self, user_id: int) -> UserInfo | None:
        """The stored user, or None (cached: see :data:`SETTINGS_TTL`)."""
        hit = self._users.get(user_id)
        if hit is not None and hit[0] > time.monotonic():
            return hit[1]
        gen = self._settings_gen
        u = await self.db.read(repo.get_user, user_id)
        info = None if u is None else UserInfo(u.id, u.first_name, u.last_name, u.username,
                                               u.language, u.dm_open, u.display_name)
        if gen == self._settings_gen:
            self._remember(self._users, user_id, info)
        return info

    @staticmethod
    def _chat_info(chat_id: int, c: repo.ChatRow | None) -> ChatInfo:
        if c is None:
            return ChatInfo(chat_id, None, None, False, None, {}, True)
        return ChatInfo(c.id, c.title, c.language, c.is_forum, c.topic_id,
                        dict(c.settings.get("rules", {})), c.active)

    async def chat_info(self, chat_id: int) -> ChatInfo:
        """The chat's settings (defaults for a chat never seen: no rule overrides; cached:
        see :data:`SETTINGS_TTL`)."""
        hit = self._chats.get(chat_id)
        if hit is not None and hit[0] > time.monotonic():
            return hit[1]
        gen = self._settings_gen
        info = self._chat_info(chat_id, await self.db.read(repo.get_chat, chat_id))
        if gen == self._settings_gen:
            self._remember(self._chats, chat_id, info)
        return info

    async def update_chat(
        self,
        chat_id: int,
        *,
        title: str | None = None,
        language: str | None = None,
        is_forum: bool | None = None,
        topic_id: int | None = None,
        clear_topic: bool = False,
        rules: Mapping[str, Any] | None = None,
        active: bool | None = None,
    ) -> ChatResult:
        """Create or change a chat's settings. ``rules`` replaces the chat's rule overrides
        (validated by ``engine.Rules.from_json``, RULES.md §1; ``bad_rules`` otherwise; only
        the options that differ from the defaults are stored). ``clear_topic`` forgets the
        forum topic. New lobbies use these rules; running matches keep theirs."""
        if rules is not None:
            try:
                full = engine.Rules.from_json(dict(rules)).to_json()
            except (ValueError, TypeError) as exc:
                return ChatResult(False, await self.chat_info(chat_id), ErrorCode.BAD_RULES,
                                  str(exc))
            defaults = engine.Rules().to_json()
            overrides = {k: v for k, v in full.items() if defaults.get(k) != v}
        now = self.clock()
        def txn(conn):
            settings = None
            if rules is not None:
                old = repo.get_chat(conn, chat_id)
                settings = dict(old.settings) if old else {}
                settings["rules"] = overrides
            row = repo.upsert_chat(conn, chat_id, now=now, title=title, language=language,
                                   is_forum=is_forum, topic_id=topic_id, settings=settings,
                                   active=active)
            if clear_topic:
                repo.clear_chat_topic(conn, chat_id, now=now)
                row = repo.get_chat(conn, chat_id)
            return row

        try:
            row = await self.db.write(txn)
        finally:
            self._forget(chats=(chat_id,))
        return ChatResult(True, self._chat_info(chat_id, row))

    # ================================================================== lobby

    async def open_lobby(
        self,
        chat_id: int,
        thread_id: int | None,
        user_id: int,
        name: str,
        rules: Mapping[str, Any] | None = None,
        *,
        rematch_of: int | None = None,
        players: list[tuple[int, str]] | None = None,
    ) -> Result:
        """Open a lobby in a chat topic; the opener takes seat 0 and is its creator.

        ``rules``: options on top of the chat's defaults (RULES.md §1); ``players`` (used by
        :meth:`rematch`) seats several players at once, opener included. Errors:
        ``already_open`` (the topic has an open lobby or match; the result carries it),
        ``bad_rules``.
        """
        seats = [{"user_id": int(u), "name": str(n)} for u, n in players] \
            if players is not None else [{"user_id": int(user_id), "name": str(name)}]
        return await self._open(chat_id, thread_id, user_id, seats, rules, rematch_of)

    async def _open(self, chat_id: int, thread_id: int | None, user_id: int,
                    seats: list[dict[str, Any]], rules: Mapping[str, Any] | None,
                    rematch_of: int | None) -> Result:
        """Insert a lobby with ``seats`` (seat JSON dicts, bots included)."""
        now = self.clock()

        def txn(conn):
            chat = repo.upsert_chat(conn, chat_id, now=now, active=True)
            merged = {**chat.settings.get("rules", {}), **dict(rules or {})}
            try:
                rules_obj = engine.Rules.from_json(merged)
            except (ValueError, TypeError) as exc:
                raise _Abort(self._error(ErrorCode.BAD_RULES, str(exc))) from exc
            for seat in seats:
                self._ensure_user(conn, int(seat["user_id"]), str(seat["name"]), now)
            mid = repo.insert_match(
                conn, chat_id=chat_id, thread_id=thread_id, creator_id=user_id,
                rules=rules_obj.to_json(), seats=[dict(x) for x in seats], now=now,
                deadline_at=now + self.lobby_ttl, rematch_of=rematch_of,
            )
            return repo.get_match(conn, mid)

        try:
            try:
                row = await self.db.write(txn)
            finally:  # the chat and the seated users may be new or changed
                self._forget(users=[int(x["user_id"]) for x in seats], chats=(chat_id,))
        except _Abort as abort:
            return abort.result
        except repo.ActiveMatchExists:
            existing = await self.find_open(chat_id, thread_id)
            return replace(existing, ok=False, error=ErrorCode.ALREADY_OPEN,
                           detail="this chat topic already has an open lobby or match")
        live = LiveMatch.from_row(row)
        self._store(live)
        return self._result(live)

    async def join(self, match_id: int, user_id: int, name: str) -> Result:
        """Take the next free seat of a lobby (RULES.md §1.1: seat order = join order) and
        extend the lobby's deadline. Errors: ``not_found``, ``wrong_status`` (started or
        closed), ``already_joined``, ``lobby_full``, ``stale`` (changed by another process)."""
        async with self._lock(match_id):
            live = await self._live(match_id)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.LOBBY:
                return self._error(ErrorCode.WRONG_STATUS, "the lobby is closed", live)
            if live.seat_of(user_id) is not None:
                return self._error(ErrorCode.ALREADY_JOINED, "already in this lobby", live)
            if len(live.row.seats) >= rules_players(live.rules)[1]:
                return self._error(ErrorCode.LOBBY_FULL, "every seat is taken", live)
            now = self.clock()
            seats = [*live.row.seats, {"user_id": int(user_id), "name": str(name)}]
            values = {"seats": seats, "deadline_at": now + self.lobby_ttl}
            nxt = self._next(live, now, **values)
            def txn(conn):
                self._ensure_user(conn, user_id, name, now)
                if not repo.update_match(conn, match_id, live.version, now=now, **values):
                    raise _Conflict

            try:
                await self.db.write(txn)
            except _Conflict:
                self._cache.pop(match_id, None)
                return await self._stale(match_id, "the lobby changed; try again")
            finally:
                self._forget(users=(user_id,))
            self._store(nxt)
            return self._result(nxt)

    async def leave(self, match_id: int, user_id: int) -> Result:
        """Give up a lobby seat. The creator's role passes to the next seated player; the
        last player leaving closes the lobby (status ``stopped``). A started match cannot be
        left (a silent player is replaced by host moves, RULES.md §1.17). When no person is
        left — only computer players — the lobby closes too. Errors: ``not_found``,
        ``wrong_status``, ``not_in_game``, ``stale``."""
        async with self._lock(match_id):
            live = await self._live(match_id)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.LOBBY:
                return self._error(ErrorCode.WRONG_STATUS, "only a lobby can be left", live)
            if live.seat_of(user_id) is None:
                return self._error(ErrorCode.NOT_IN_GAME, "not in this lobby", live)
            now = self.clock()
            seats = [s for s in live.row.seats if s["user_id"] != user_id]
            humans = [s for s in seats if not bots.is_bot(s)]
            values: dict[str, Any] = {"seats": seats}
            if not humans:  # issue 6: a table of computer players alone is closed
                values.update(status=Status.STOPPED, end_reason=EndReason.STOPPED,
                              deadline_at=None, finished_at=now)
            elif live.row.creator_id == user_id:
                values["creator_id"] = humans[0]["user_id"]
            nxt = self._next(live, now, **values)
            if not await self._write_row(live, nxt, now, **_db_values(values)):
                return await self._stale(match_id, "the lobby changed; try again")
            return self._result(nxt)

    async def start(self, match_id: int, user_id: int, *, force: bool = False) -> Result:
        """Deal the match (RULES.md §1.2–§1.5) with a fresh random seed stored in the row.

        Only the creator may start, or anyone with ``force`` (a chat admin, checked by the
        caller). Needs 2..4 players, exactly 4 with teams (§1.1, §1.14). The first turn's
        deadline is ``rules.turn_timeout`` seconds away (§1.17), ``bot_move_delay`` for a
        computer player. Errors: ``not_found``,
        ``wrong_status``, ``not_creator``, ``not_enough_players``, ``stale``."""
        async with self._lock(match_id):
            live = await self._live(match_id)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.LOBBY:
                return self._error(ErrorCode.WRONG_STATUS, "already started or closed", live)
            if not force and live.row.creator_id != user_id:
                return self._error(ErrorCode.NOT_CREATOR, "only the creator can start", live)
            lo, hi = rules_players(live.rules)
            if not lo <= len(live.row.seats) <= hi:
                return self._error(ErrorCode.NOT_ENOUGH_PLAYERS,
                                   f"needs {lo}..{hi} players (RULES.md §1.1, §1.14)", live)
            if not live.humans():
                return self._error(ErrorCode.NOT_ENOUGH_PLAYERS,
                                   "a match needs at least one person", live)
            now = self.clock()
            seed = int(self._seed_source())
            values = {"status": Status.PLAYING, "seed": seed, "started_at": now}
            nxt = self._next(live, now, **values)
            events = nxt.deal(seed)
            values["deadline_at"] = self._deadline(nxt, nxt.state, now)
            nxt.row = replace(nxt.row, deadline_at=values["deadline_at"])
            if not await self._write_row(live, nxt, now, **_db_values(values)):
                return await self._stale(match_id, "the lobby changed; try again")
            self._armed(nxt)
            return self._result(nxt, events=events)

    # ================================================================== computer players

    async def add_bot(self, match_id: int, user_id: int, strength: str = bots.DEFAULT_STRENGTH,
                      *, force: bool = False) -> Result:
        """Seat a computer player of ``strength`` (``easy``, ``normal``, ``hard``) in the next
        free seat of a lobby (RULES.md §1.1: seat order = join order) and extend the lobby's
        deadline. The bot gets the first free persona, e.g. user id -1 named «Бот Фёдор 🤖»
        (see :mod:`service.bots`).

        Who may: any person seated in the lobby (a bot is a guest of the table, like inviting
        a friend), or anyone with ``force`` (a chat admin, checked by the caller). Errors:
        ``not_found``, ``wrong_status``, ``not_in_game``, ``lobby_full``, ``bad_strength``,
        ``stale``."""
        if strength not in bots.STRENGTHS:
            return self._error(ErrorCode.BAD_STRENGTH,
                               f"strength must be one of {', '.join(bots.STRENGTHS)}")
        async with self._lock(match_id):
            live = await self._live(match_id)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.LOBBY:
                return self._error(ErrorCode.WRONG_STATUS, "the lobby is closed", live)
            if not force and (live.seat_of(user_id) is None or user_id <= 0):
                return self._error(ErrorCode.NOT_IN_GAME, "only a seated player can add a bot",
                                   live)
            if len(live.row.seats) >= rules_players(live.rules)[1]:
                return self._error(ErrorCode.LOBBY_FULL, "every seat is taken", live)
            now = self.clock()
            seats = [*live.row.seats, bots.new_bot_seat(live.row.seats, strength)]
            values = {"seats": seats, "deadline_at": now + self.lobby_ttl}
            nxt = self._next(live, now, **values)
            if not await self._write_row(live, nxt, now, **values):
                return await self._stale(match_id, "the lobby changed; try again")
            return self._result(nxt)

    async def remove_bot(self, match_id: int, user_id: int, bot_id: int | None = None, *,
                         force: bool = False) -> Result:
        """Free a computer player's lobby seat: the bot with user id ``bot_id``, or (None) the
        last one seated; the seats after it move up. Who may: as :meth:`add_bot`. Errors:
        ``not_found``, ``wrong_status``, ``not_in_game`` (the caller is not seated, or there
        is no such bot), ``stale``."""
        async with self._lock(match_id):
            live = await self._live(match_id)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.LOBBY:
                return self._error(ErrorCode.WRONG_STATUS, "the lobby is closed", live)
            if not force and (live.seat_of(user_id) is None or user_id <= 0):
                return self._error(ErrorCode.NOT_IN_GAME,
                                   "only a seated player can remove a bot", live)
            found = [i for i, x in enumerate(live.row.seats) if bots.is_bot(x)
                     and (bot_id is None or int(x["user_id"]) == bot_id)]
            if not found:
                return self._error(ErrorCode.NOT_IN_GAME, "no such computer player", live)
            gone = found[-1]
            now = self.clock()
            seats = [x for i, x in enumerate(live.row.seats) if i != gone]
            values = {"seats": seats}
            nxt = self._next(live, now, **values)
            if not await self._write_row(live, nxt, now, **values):
                return await self._stale(match_id, "the lobby changed; try again")
            return self._result(nxt)

    async def open_solo(self, user_id: int, name: str, bots: int = 1,
                        strength: str | Sequence[str] = "normal",
                        rules: Mapping[str, Any] | None = None) -> Result:
        """Start a match in the user's private chat (chat id = ``user_id``) against ``bots``
        (1..3) computer players of ``strength`` (one for all, or one per bot). The seats are
        the user (seat 0, the creator) and then the bots; the rules are the private chat's
        settings plus ``rules`` (RULES.md §1; ``teams`` needs 3 bots, §1.14). The match is
        dealt at once (RULES.md §1.2–§1.5) and played like a group match: the same views, the
        same action log and deadlines.

        Errors: ``already_open`` (a lobby or match is open in that chat; the result carries
        it), ``bad_strength``, ``bad_rules``, ``not_enough_players`` (``bots`` not 1..3, or
        not 3 with teams)."""
        count = bots
        strengths = [strength] * count if isinstance(strength, str) else list(strength)
        if len(strengths) != count or not 1 <= count <= 3:
            return self._error(ErrorCode.NOT_ENOUGH_PLAYERS,
                               "a solo match has 1 to 3 computer players")
        if any(x not in _STRENGTHS for x in strengths):
            return self._error(ErrorCode.BAD_STRENGTH,
                               f"strength must be one of {', '.join(_STRENGTHS)}")
        seats: list[dict[str, Any]] = [{"user_id": int(user_id), "name": str(name)}]
        for x in strengths:
            seats.append(_new_bot_seat(seats, x))
        res = await self._open(user_id, None, user_id, seats, rules, None)
        if not res.ok:
            return res
        started = await self.start(res.match_id, user_id)
        if not started.ok:  # e.g. teams with too few bots: do not leave the lobby behind
            await self._close(res.match_id, EndReason.STOPPED, None)
        return started

    async def bot_move(self, match_id: int, expected_version: int | None = None) -> Result:
        """The computer player to act makes its move (the sweeper calls this when the bot's
        deadline falls due, :meth:`fire_due`). Its decision sees only what its seat may know
        (:func:`engine.ai.observe`), runs off the event loop, and goes through the same path as
        a person's :meth:`act`: checked by the engine, logged as ``{"tile", "end", "bot"}``
        with the bot's user id, committed with the version check, the next deadline armed. A
        failing decision falls back to the host's move (RULES.md §1.17) for the bot, logged
        as the bot's own move. A running match with no person left is stopped instead.
        Errors: ``not_found``, ``wrong_status``, ``stale`` (the version moved on),
        ``not_your_turn`` (the seat to act is not a computer player)."""
        async with self._lock(match_id):
            live = await self._live(match_id, expected_version)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.PLAYING:
                return self._error(ErrorCode.WRONG_STATUS, "the match is not running", live)
            if expected_version is not None and live.version != expected_version:
                return self._error(ErrorCode.STALE, "the turn was already taken", live)
            seat = live.state.to_act
            holder = live.row.seats[seat]
            if not bots.is_bot(holder):
                return self._error(ErrorCode.NOT_YOUR_TURN, "a person is to act", live)
            if not live.humans():
                return await self._close_locked(live, EndReason.STOPPED)
            strength = bots.strength_of(holder)
            rng = random.Random(f"{live.row.seed}:{live.seq}:{seat}")
            state = live.state
            try:
                move = await asyncio.get_running_loop().run_in_executor(
                    self._bot_executor, _choose, state, seat, live.round_events(), strength,
                    rng, self.bot_budget, self.bot_samples)
                new_state, events = engine.apply(state, seat, move)
            except Exception:
                log.exception("computer player of match %s failed; the host moves for it",
                              match_id)
                move = engine.host_move(state)
                new_state, events = engine.apply(state, seat, move)
            decision = {"tile": f"{move.tile.a}-{move.tile.b}", "end": move.end,
                        "bot": strength}
            return await self._commit(live, seat, int(holder["user_id"]), decision, new_state,
                                      events)

    async def bot_stats(self) -> tuple[BotStats, ...]:
        """The computer players' results per strength over all chats (kept apart from the
        humans' :meth:`leaderboard` and :meth:`personal_stats`)."""
        rows = await self.db.read(repo.bot_stats)
        return tuple(BotStats(r.strength, r.matches, r.goats, r.rating,
                              r.score_sum / r.matches if r.matches else 0.0) for r in rows)

    async def expire_lobby(self, match_id: int, expected_version: int | None = None) -> Result:
        """Close a lobby nobody started (status ``expired``). ``expected_version``: expire only
        that version (the sweeper's guard against a join that came first). Errors:
        ``not_found``, ``wrong_status``, ``stale``."""
        async with self._lock(match_id):
            live = await self._live(match_id, expected_version)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.LOBBY:
                return self._error(ErrorCode.WRONG_STATUS, "not a lobby", live)
            if expected_version is not None and live.version != expected_version:
                return self._error(ErrorCode.STALE, "the lobby changed", live)
            now = self.clock()
            values = {"status": Status.EXPIRED, "end_reason": EndReason.EXPIRED,
                      "deadline_at": None, "finished_at": now}
            nxt = self._next(live, now, **values)
            if not await self._write_row(live, nxt, now, **_db_values(values)):
                return await self._stale(match_id, "the lobby changed")
            return self._result(nxt)

    # ================================================================== play

    async def act(
        self,
        match_id: int,
        user_id: int,
        tile: str,
        end: str | None,
        expected_version: int,
    ) -> Result:
        """Play ``tile`` (``"2-5"`` or ``"[2|5]"``) at ``end`` (``"left"``, ``"right"``, or None
        on a lead / where it fits one way) for the user's seat (RULES.md §1.5–§1.7). The engine
        then performs the forced draws and knocks (§1.8), scores a finished round (§1.11–§1.14)
        and deals the next one; a goat ends the match (§1.15) and its results are recorded in
        the same transaction.

        ``expected_version``: the version of the view the user pressed; any other → ``stale``.
        Errors (nothing changes): ``not_found``, ``wrong_status``, ``not_in_game``, ``stale``,
        ``not_your_turn``, ``bad_move`` (malformed or illegal; ``detail`` names the rule).
        """
        async with self._lock(match_id):
            live = await self._live(match_id, expected_version)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.PLAYING:
                return self._error(ErrorCode.WRONG_STATUS, "the match is not running", live)
            seat = live.seat_of(user_id)
            if seat is None:
                return self._error(ErrorCode.NOT_IN_GAME, "not a player of this match", live)
            if live.version != expected_version:
                return self._error(ErrorCode.STALE,
                                   f"version {expected_version} is not current "
                                   f"({live.version})", live)
            if live.state.to_act != seat:
                return self._error(ErrorCode.NOT_YOUR_TURN, "not your turn (RULES.md §1.1)",
                                   live)
            try:
                move = parse_move(tile, end)
                state, events = engine.apply(live.state, seat, move)
            except engine.NotYourTurn as exc:  # pragma: no cover - checked above
                return self._error(ErrorCode.NOT_YOUR_TURN, str(exc), live)
            except (engine.EngineError, ValueError, TypeError) as exc:
                return self._error(ErrorCode.BAD_MOVE, str(exc), live)
            decision = {"tile": f"{move.tile.a}-{move.tile.b}", "end": move.end}
            return await self._commit(live, seat, user_id, decision, state, events)

    async def host_move(self, match_id: int, expected_version: int | None = None) -> Result:
        """The turn timed out: the host moves for the seat to act (RULES.md §1.17: the
        playable tile with the most pips; drawing and knocking are forced). After
        ``rules.afk_limit`` host moves in a row for one seat the match ends by timeout and is
        rated with the timeout rating (§1.16). Logged as ``{"host": true}``.
        ``expected_version``: act only on that version (the sweeper passes the version whose
        deadline fired, so a move that beat the deadline wins). Errors: ``not_found``,
        ``wrong_status``, ``stale``."""
        async with self._lock(match_id):
            live = await self._live(match_id, expected_version)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status != Status.PLAYING:
                return self._error(ErrorCode.WRONG_STATUS, "the match is not running", live)
            if expected_version is not None and live.version != expected_version:
                return self._error(ErrorCode.STALE, "the turn was already taken", live)
            seat = live.state.to_act
            state, events = engine.apply_host_move(live.state)
            return await self._commit(live, seat, None, {"host": True}, state, events)

    async def _commit(self, live: LiveMatch, seat: int, user_id: int | None,
                      decision: dict[str, Any], state: Any, events: list[Any]) -> Result:
        """One transaction: bump the version (checked), append the action, set the next
        deadline; at the match's end also its status and results. Then swap the cache."""
        now = self.clock()
        result = state.result
        if result is None:
            values: dict[str, Any] = {"deadline_at": self._deadline(live, state, now)}
        else:
            values = {"status": Status.FINISHED, "end_reason": EndReason(result.reason),
                      "deadline_at": None, "finished_at": now}
        nxt = self._next(live, now, **values)
        nxt.advance(state, events)
        db_values = _db_values(values)
        results = _result_rows(nxt, now) if result is not None else None

        def txn(conn):
            if not repo.update_match(conn, live.match_id, live.version, now=now, **db_values):
                raise _Conflict
            repo.append_action(conn, live.match_id, live.seq + 1, seat=seat, decision=decision,
                               at=now, user_id=user_id)
            if results:
                repo.record_results(conn, results)

        try:
            await self.db.write(txn)
        except (_Conflict, IntegrityError):
            self._cache.pop(live.match_id, None)
            return await self._stale(live.match_id, "another action was applied first")
        self._store(nxt)
        self._armed(nxt)
        return self._result(nxt, events=events)

    async def stop(self, match_id: int, user_id: int, *, force: bool = False) -> Result:
        """Stop an open lobby or a running match (status ``stopped``, not rated, no results).
        Only the creator may, or anyone with ``force`` (a chat admin, checked by the caller).
        Errors: ``not_found``, ``wrong_status`` (already closed), ``not_creator``, ``stale``."""
        return await self._close(match_id, EndReason.STOPPED,
                                 None if force else user_id)

    async def _close(self, match_id: int, reason: EndReason, creator: int | None) -> Result:
        async with self._lock(match_id):
            live = await self._live(match_id)
            if live is None:
                return self._error(ErrorCode.NOT_FOUND, "no such match")
            if live.status not in OPEN:
                return self._error(ErrorCode.WRONG_STATUS, "already closed", live)
            if creator is not None and live.row.creator_id != creator:
                return self._error(ErrorCode.NOT_CREATOR, "only the creator can stop", live)
            return await self._close_locked(live, reason)

    async def _close_locked(self, live: LiveMatch, reason: EndReason) -> Result:
        """Close an open match (status ``stopped``); the caller holds the match's lock."""
        now = self.clock()
        values = {"status": Status.STOPPED, "end_reason": reason, "deadline_at": None,
                  "finished_at": now}
        nxt = self._next(live, now, **values)
        if not await self._write_row(live, nxt, now, **_db_values(values)):
            return await self._stale(live.match_id, "the match changed; try again")
        return self._result(nxt)

    async def rematch(self, match_id: int, user_id: int) -> Result:
        """Open a new lobby in the same chat topic with the same rules and the same players
        in the same seats (computer players too); the asking player (who must have played) is
        its creator. A second
        press returns the lobby already opened for this rematch (ok). Errors: ``not_found``,
        ``wrong_status`` (the match was never played or is still open), ``not_in_game``,
        ``already_open`` (another lobby/match is open in the topic), ``chat_inactive``."""
        row, chat = await self.db.read(_match_and_chat, match_id)
        if row is None:
            return self._error(ErrorCode.NOT_FOUND, "no such match")
        old = self._cache.get(match_id) or LiveMatch(row=row, rules=None)
        if row.status not in (Status.FINISHED, Status.STOPPED) or row.seed is None:
            return Result(ok=False, error=ErrorCode.WRONG_STATUS,
                          detail="only a played match can be replayed", match_id=match_id,
                          status=Status(row.status), version=row.version)
        if old.seat_of(user_id) is None:
            return Result(ok=False, error=ErrorCode.NOT_IN_GAME,
                          detail="only its players can ask for a rematch", match_id=match_id,
                          status=Status(row.status), version=row.version)
        if chat is not None and not chat.active:
            return Result(ok=False, error=ErrorCode.CHAT_INACTIVE, detail="bot removed",
                          match_id=match_id)
        res = await self._open(row.chat_id, row.thread_id, user_id,
                               [dict(s) for s in row.seats], row.rules, match_id)
        if res.error == ErrorCode.ALREADY_OPEN and res.lobby is not None and \
                res.lobby.rematch_of == match_id:
            return replace(res, ok=True, error=None, detail="rematch lobby already open")
        return res

    # ================================================================== chat life cycle

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> tuple[int, ...]:
        """Telegram turned a group into a supergroup (``migrate_to_chat_id``): move the chat's
        settings, lobbies, matches, results and per-chat statistics to the new id. Idempotent
        (a second call, e.g. for ``migrate_from_chat_id``, moves nothing). Returns the moved
        match ids."""
        now = self.clock()
        try:
            moved = await self.db.write(lambda c: repo.move_chat(c, old_chat_id, new_chat_id,
                                                                 now=now))
        finally:
            self._forget(chats=(old_chat_id, new_chat_id))
        for mid in moved:
            async with self._lock(mid):
                self._cache.pop(mid, None)
        return tuple(moved)

    async def bot_removed(self, chat_id: int) -> list[Result]:
        """The bot was removed from (or left) the chat: every open lobby and match there
        ends as ``stopped`` with reason ``bot_removed`` and without rating; the chat is
        marked inactive until a lobby is opened there again. Returns one result per closed
        match (the group can no longer be written to; players may be told in private)."""
        now = self.clock()

        def txn(conn):
            repo.upsert_chat(conn, chat_id, now=now, active=False)
            return repo.list_open_matches(conn, chat_id)

        try:
            rows = await self.db.write(txn)
        finally:
            self._forget(chats=(chat_id,))
        out = []
        for row in rows:
            res = await self._close(row.id, EndReason.BOT_REMOVED, None)
            if res.ok:
                out.append(res)
        return out

    # ================================================================== deadlines

    async def _bot_to_act(self, match_id: int, version: int) -> bool:
        """Whether a computer player is to act in that version of the match (the move itself
        re-checks under the match's lock)."""
        live = await self._live(match_id, version)
        if live is None or live.state is None or live.state.to_act is None:
            return False
        return bots.is_bot(live.row.seats[live.state.to_act])

    async def fire_due(self, now: float | None = None) -> list[Result]:
        """Fire every deadline at or before ``now`` (default: the clock): a lobby expires, a
        person's turn gets a host move (RULES.md §1.17), a computer player's turn (due
        ``bot_move_delay`` seconds after it began) gets the bot's move (:meth:`bot_move`).
        Deadlines live in the database, so after a restart the overdue ones fire on the first
        call. Returns the accepted results (a deadline beaten by a player's move is
        skipped)."""
        now = self.clock() if now is None else now
        out: list[Result] = []
        seen: set[tuple[int, int]] = set()
        while True:
            due = [r for r in await self.db.read(repo.due_matches, now, 100)
                   if (r.id, r.version) not in seen]
            if not due:
                return out
            for row in due:
                seen.add((row.id, row.version))
            # Matches are independent (one lock each): fire them together, so that one
            # computer player thinking does not hold up the others' deadlines.
            for res in await asyncio.gather(*(self._fire_one(row) for row in due)):
                if res is not None and res.ok:
                    out.append(res)

    async def _fire_one(self, row: repo.MatchRow) -> Result | None:
        """Fire one due deadline (see :meth:`fire_due`); None when it failed (logged)."""
        try:
            if row.status == Status.LOBBY:
                return await self.expire_lobby(row.id, row.version)
            if await self._bot_to_act(row.id, row.version):
                return await self.bot_move(row.id, row.version)
            return await self.host_move(row.id, row.version)
        except Exception:  # one broken match must not stop the sweeper
            log.exception("deadline of match %s failed", row.id)
            return None

    async def next_deadline(self) -> float | None:
        """The earliest pending deadline (Unix seconds), or None."""
        return await self.db.read(repo.next_deadline)

    async def run_deadlines(
        self,
        on_result: Callable[[Result], Awaitable[None]] | None = None,
        *,
        interval: float = 1.0,
        stop: asyncio.Event | None = None,
    ) -> None:
        """The sweeper: fire the due deadlines (at once on start) and hand each result to
        ``on_result`` (e.g. render and send), then sleep until the next deadline, at most
        ``interval`` seconds; a computer player's turn armed meanwhile wakes it early, so bot
        moves keep their ``bot_move_delay`` pace. Runs until ``stop`` is set or the task is
        cancelled. Errors in ``on_result`` are logged, not raised."""
        stop = stop or asyncio.Event()
        while not stop.is_set():
            self._wake.clear()
            try:
                results = await self.fire_due()
            except Exception:
                log.exception("deadline sweep failed")
                results = []
            for res in results:
                if on_result is not None:
                    try:
                        await on_result(res)
                    except Exception:
                        log.exception("deadline result handler failed")
            delay = interval
            try:
                nd = await self.next_deadline()
            except Exception:
                log.exception("reading the next deadline failed")
                nd = None
            if nd is not None:
                delay = min(interval, max(0.0, nd - self.clock()))
            if delay <= 0:
                await asyncio.sleep(0)
                continue
            waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(self._wake.wait())]
            try:
                await asyncio.wait(waits, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()

    # ================================================================== reading

    async def view(self, match_id: int) -> Result:
        """The current views of a match, changing nothing (``not_found`` if none)."""
        async with self._lock(match_id):
            live = await self._live(match_id)
        if live is None:
            return self._error(ErrorCode.NOT_FOUND, "no such match")
        return self._result(live)

    async def find_open(self, chat_id: int, thread_id: int | None) -> Result:
        """The open lobby or match of a chat topic (``not_found`` if none)."""
        row = await self.db.read(repo.find_open_match, chat_id, thread_id)
        if row is None:
            return self._error(ErrorCode.NOT_FOUND, "no open lobby or match here")
        return await self.view(row.id)

    async def open_matches(self, user_id: int | None = None) -> list[Result]:
        """Views of every open lobby and match, e.g. to re-render them all at start-up; with
        ``user_id`` only those where that user holds a seat (a view costs a replay when the
        match is not cached, so /start must not build the views of every match)."""
        if user_id is None:
            rows = await self.db.read(repo.list_open_matches)
        else:
            rows = await self.db.read(repo.list_open_matches_of, user_id)
        return [await self.view(r.id) for r in rows]

    async def unannounced_ends(self, within: float = 86_400.0) -> list[Result]:
        """Views of the matches that finished in the last ``within`` seconds whose stored
        messages do not record the match-end message (``end_shown``) -- a crash came between
        the commit of the last move and its publish.  Start-up shows them (issue 5)."""
        since = self.clock() - within
        rows = await self.db.read(repo.list_finished_since, since)
        return [await self.view(r.id) for r in rows
                if r.messages.get("table") and not r.messages.get("end_shown")]

    async def update_messages(self, match_id: int, changes: Mapping[str, Any]) -> dict | None:
        """Merge ``changes`` into the match's stored message ids (a key set to None is
        removed); no version bump. Returns the stored dict, None if no such match."""
        async with self._lock(match_id):
            now = self.clock()

            def txn(conn):
                row = repo.get_match(conn, match_id)
                if row is None:
                    return None
                messages = dict(row.messages)
                for k, v in changes.items():
                    if v is None:
                        messages.pop(k, None)
                    else:
                        messages[k] = v
                repo.set_messages(conn, match_id, messages, now=now)
                return messages

            messages = await self.db.write(txn)
            if messages is None:
                return None
            live = self._cache.get(match_id)
            if live is not None:
                live.row = replace(live.row, messages=messages)
            return messages

    async def stored_messages(self, match_id: int) -> dict | None:
        """The message ids stored with the match now (see :meth:`update_messages`), which may
        be newer than those of a :class:`Result` made before the last update; None if there is
        no such match."""
        live = self._cache.get(match_id)
        if live is not None:
            return dict(live.row.messages)
        row = await self.db.read(repo.get_match, match_id)
        return dict(row.messages) if row is not None else None

    # ================================================================== statistics

    async def leaderboard(
        self, chat_id: int | None = None, *, limit: int = 10, offset: int = 0
    ) -> tuple[LeaderRow, ...]:
        """Players by rating sum (RULES.md §1.16), with matches and goats; in one chat or
        (``chat_id`` None) over all chats. Ties: fewer goats, then fewer matches first.
        Only matches ended by limit or timeout count."""
        scope = GLOBAL_SCOPE if chat_id is None else chat_id
        rows = await self.db.read(lambda c: repo.leaderboard(c, scope, limit=limit,
                                                             offset=offset))
        return tuple(LeaderRow(offset + i + 1, r.user_id, r.name, r.rating, r.matches, r.goats)
                     for i, r in enumerate(rows))

    async def personal_stats(self, user_id: int, chat_id: int | None = None) -> PersonalStats:
        """A player's matches, goats, rating, outs, fish and average final score, in one chat
        or over all chats (zeros when they finished no match)."""
        scope = GLOBAL_SCOPE if chat_id is None else chat_id
        r = await self.db.read(repo.player_stats, user_id, scope)
        if r is None:
            return PersonalStats(user_id, chat_id, 0, 0, 0, 0, 0, 0.0)
        return PersonalStats(user_id, chat_id, r.matches, r.goats, r.rating, r.outs, r.fish,
                             r.score_sum / r.matches if r.matches else 0.0)


_STRENGTHS = bots.STRENGTHS
_new_bot_seat = bots.new_bot_seat


def _choose(state: Any, seat: int, history: list, strength: str, rng: random.Random,
            budget: float, samples: int | None) -> engine.Move:
    """Executor entry: a computer player's decision (pure CPU)."""
    return bots.choose_move(state, seat, history, strength, rng, budget=budget,
                            samples=samples)


def _turn_seconds(live: LiveMatch) -> float:
    """Seconds of one turn (``rules.turn_timeout``, RULES.md §1.17)."""
    return float(live.rules.turn_timeout)


def _load_match(conn, match_id: int):
    row = repo.get_match(conn, match_id)
    if row is None:
        return None, []
    return row, (repo.list_actions(conn, match_id) if row.seed is not None else [])


def _match_and_chat(conn, match_id: int):
    row = repo.get_match(conn, match_id)
    return row, (repo.get_chat(conn, row.chat_id) if row else None)


def _db_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """Enum members as their string values for the database."""
    return {k: (str(v) if isinstance(v, (Status, EndReason)) else v) for k, v in values.items()}


def _result_rows(live: LiveMatch, now: float) -> list[repo.ResultRow]:
    """The ``match_results`` rows of a match the engine just finished (RULES.md §1.15-1.17)."""
    final = live.final()
    assert final is not None and final.rated
    return [
        repo.ResultRow(
            match_id=live.match_id, seat=p.seat, user_id=p.user_id, name=p.name,
            chat_id=live.row.chat_id, final_score=p.score, goat=p.goat, rating=p.rating,
            outs=p.outs, fish=p.fish, timed_out=p.timed_out, ended_by=str(final.reason),
            finished_at=now, bot=p.bot,
        )
        for p in final.players
    ]
