"""The game service's facade: one object for the handlers, over the service's rooms.

Plain values in (chat id, thread id, user id, names, tile codes, versions), plain
:class:`~service.views.Result` values out; no aiogram.  The work is done in the rooms, each
in its module:

- :mod:`service.store` — the optimistic store: cache, per-match locks, the one opening
  (lock, load, check) and the one versioned write;
- :mod:`service.live` — the match in memory and its views: the service's only engine reader;
- :mod:`service.lobbies` — open, join, leave, computer players in seats, start, stop, expire,
  rematch, solo matches;
- :mod:`service.play` — a person's, the host's and a computer player's move;
- :mod:`service.leaving` — a person's seat handed to a computer player in a running match
  (/leave, or the group's choice when their turns time out);
- :mod:`service.bots` — who computer players are, and the worker processes they think in;
- :mod:`service.deadlines` — the sweeper of lobby and turn deadlines;
- :mod:`service.people` — users and chats, cached;
- :mod:`service.stats` — boards per variant with the skill rating, personal statistics and
  the match history;
- :mod:`service.records` — a played match's game record, and the check of a record a user
  sends;
- :mod:`service.messages` — the message ids the UI stores with a match, and the log of
  recent group sends.

The facade's methods pass straight through to them (the rooms are attributes too, for tests
and tools).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from service.bots import DEFAULT_HARD_SAMPLES, DEFAULT_STRENGTH, Thinkers
from service.deadlines import Deadlines
from service.leaving import Leaving
from service.lobbies import DEFAULT_LOBBY_TTL, Lobbies
from service.messages import MessageIds, SendLog
from service.people import People
from service.play import DEFAULT_BOT_MOVE_DELAY, Play
from service.records import Records
from service.stats import Statistics
from service.store import MatchStore
from service.views import (
    BotStats,
    ChatInfo,
    ChatResult,
    EndReason,
    ErrorCode,
    HistoryPage,
    LeaderRow,
    PersonalStats,
    RecordCheck,
    RecordFile,
    Result,
    UserInfo,
)
from storage import Database, open_database
from storage import repository as repo

__all__ = ["DEFAULT_BOT_MOVE_DELAY", "DEFAULT_LOBBY_TTL", "GameService"]


class GameService:
    """The game service over one :class:`storage.Database`.

    ``clock``: returns Unix time in seconds (inject a fake one in tests); ``seed_source``:
    returns the deal seed of a new match (default: 63 random bits); ``lobby_ttl``: seconds an
    idle lobby lives; ``bot_move_delay``: seconds a computer player waits before it moves;
    ``hard_samples``: sampled deals per ``hard`` decision; ``bot_executor``: where computer
    players decide (default: ``bot_workers`` worker processes, one per CPU, started at the
    first decision); ``chat_options``: the chat options (``ChatInfo.options``) of chats that
    did not set them.  Create with :meth:`open` (migrates the database) or from a ready
    :class:`~storage.Database`; call :meth:`close` at shutdown.
    """

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        lobby_ttl: float = DEFAULT_LOBBY_TTL,
        bot_move_delay: float = DEFAULT_BOT_MOVE_DELAY,
        hard_samples: int = DEFAULT_HARD_SAMPLES,
        bot_executor: Executor | None = None,
        bot_workers: int | None = None,
        chat_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.store = MatchStore(db)
        self.people = People(db, clock, chat_options)
        self.thinkers = Thinkers(executor=bot_executor, workers=bot_workers,
                                 hard_samples=hard_samples)
        self.play = Play(self.store, clock=clock, thinkers=self.thinkers,
                         bot_move_delay=bot_move_delay,
                         close_locked=lambda live, reason: self.lobbies.close_locked(
                             live, reason))
        self.lobbies = Lobbies(self.store, self.people, clock=clock, lobby_ttl=lobby_ttl,
                               seed_source=seed_source, turn_deadline=self.play.turn_deadline,
                               armed=self.play.armed)
        self.leaving = Leaving(self.store, self.play, clock=clock,
                               close_locked=self.lobbies.close_locked)
        self.deadlines = Deadlines(db, self.lobbies, self.play, clock=clock)
        self.stats = Statistics(db)
        self.records = Records(db)
        self.messages = MessageIds(db, clock)
        self.sends = SendLog(db)

    @classmethod
    async def open(cls, path_or_url: str | Path, **kwargs: Any) -> GameService:
        """Open (create, migrate to the newest schema) the database and return a service.
        ``kwargs`` go to :class:`GameService`."""
        return cls(await open_database(path_or_url), **kwargs)

    async def close(self) -> None:
        """Stop the computer players' workers and release the database connections."""
        self.thinkers.close()
        self.store.forget()
        await self.db.dispose()

    # ------------------------------------------------------------------ users and chats

    async def register_user(self, user_id: int, first_name: str, last_name: str | None = None,
                            username: str | None = None, language: str | None = None,
                            dm_open: bool | None = None) -> None:
        """See :meth:`service.people.People.register_user`."""
        await self.people.register_user(user_id, first_name, last_name, username, language,
                                        dm_open)

    async def set_dm_open(self, user_id: int, is_open: bool) -> None:
        """See :meth:`service.people.People.set_dm_open`."""
        await self.people.set_dm_open(user_id, is_open)

    async def get_user(self, user_id: int) -> UserInfo | None:
        """See :meth:`service.people.People.get_user`."""
        return await self.people.get_user(user_id)

    async def chat_info(self, chat_id: int) -> ChatInfo:
        """See :meth:`service.people.People.chat_info`."""
        return await self.people.chat_info(chat_id)

    async def game_rules(self, chat_id: int, variant: str) -> dict[str, Any]:
        """See :meth:`service.people.People.game_rules`."""
        return await self.people.game_rules(chat_id, variant)

    async def update_chat(self, chat_id: int, **changes: Any) -> ChatResult:
        """See :meth:`service.people.People.update_chat`."""
        return await self.people.update_chat(chat_id, **changes)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> tuple[int, ...]:
        """Telegram turned a group into a supergroup (``migrate_to_chat_id``): move the chat's
        settings, lobbies, matches, results and per-chat statistics to the new id.
        Idempotent: Telegram sends the news twice (to the old group and to the new one), in
        either order.  Returns the open matches of the new chat, moved now or before."""
        moved = await self.people.move_chat(old_chat_id, new_chat_id)
        for mid in moved:
            async with self.store.lock(mid):
                self.store.forget(mid)
        rows = await self.db.read(repo.list_open_matches, new_chat_id)
        return tuple(r.id for r in rows)

    async def bot_removed(self, chat_id: int) -> list[Result]:
        """The bot was removed from (or left) the chat: every open lobby and match there
        ends as ``stopped`` with reason ``bot_removed`` and without rating; the chat is
        marked inactive until a lobby is opened there again. Returns one result per closed
        match."""
        out = []
        for row in await self.people.deactivate(chat_id):
            res = await self.lobbies.close(row.id, EndReason.BOT_REMOVED)
            if res.ok:
                out.append(res)
        return out

    # ------------------------------------------------------------------ lobbies

    async def open_lobby(self, chat_id: int, thread_id: int | None, user_id: int, name: str,
                         rules: Mapping[str, Any] | None = None, *,
                         rematch_of: int | None = None,
                         players: list[tuple[int, str]] | None = None,
                         variant: str | None = None) -> Result:
        """See :meth:`service.lobbies.Lobbies.open_lobby`."""
        return await self.lobbies.open_lobby(chat_id, thread_id, user_id, name, rules,
                                             rematch_of=rematch_of, players=players,
                                             variant=variant)

    async def change_variant(self, match_id: int, user_id: int, variant: str, *,
                             force: bool = False) -> Result:
        """See :meth:`service.lobbies.Lobbies.change_variant`."""
        return await self.lobbies.change_variant(match_id, user_id, variant, force=force)

    async def join(self, match_id: int, user_id: int, name: str) -> Result:
        """See :meth:`service.lobbies.Lobbies.join`."""
        return await self.lobbies.join(match_id, user_id, name)

    async def leave(self, match_id: int, user_id: int) -> Result:
        """See :meth:`service.lobbies.Lobbies.leave`."""
        return await self.lobbies.leave(match_id, user_id)

    async def add_bot(self, match_id: int, user_id: int, strength: str = DEFAULT_STRENGTH, *,
                      force: bool = False) -> Result:
        """See :meth:`service.lobbies.Lobbies.add_bot`."""
        return await self.lobbies.add_bot(match_id, user_id, strength, force=force)

    async def remove_bot(self, match_id: int, user_id: int, bot_id: int | None = None, *,
                         force: bool = False) -> Result:
        """See :meth:`service.lobbies.Lobbies.remove_bot`."""
        return await self.lobbies.remove_bot(match_id, user_id, bot_id, force=force)

    async def start(self, match_id: int, user_id: int, *, force: bool = False) -> Result:
        """See :meth:`service.lobbies.Lobbies.start`."""
        return await self.lobbies.start(match_id, user_id, force=force)

    async def stop(self, match_id: int, user_id: int, *, force: bool = False) -> Result:
        """See :meth:`service.lobbies.Lobbies.stop`."""
        return await self.lobbies.stop(match_id, user_id, force=force)

    async def expire_lobby(self, match_id: int, expected_version: int | None = None) -> Result:
        """See :meth:`service.lobbies.Lobbies.expire`."""
        return await self.lobbies.expire(match_id, expected_version)

    async def open_solo(self, user_id: int, name: str, bots: int = 1,
                        strength: str | Sequence[str] = "normal",
                        rules: Mapping[str, Any] | None = None,
                        variant: str | None = None) -> Result:
        """See :meth:`service.lobbies.Lobbies.open_solo` (``bots``: how many, 1..3)."""
        return await self.lobbies.open_solo(user_id, name, bots, strength, rules, variant)

    async def rematch(self, match_id: int, user_id: int) -> Result:
        """See :meth:`service.lobbies.Lobbies.rematch`."""
        return await self.lobbies.rematch(match_id, user_id)

    # ------------------------------------------------------------------ play

    async def act(self, match_id: int, user_id: int, tile: str, end: str | None,
                  expected_version: int) -> Result:
        """See :meth:`service.play.Play.act`."""
        return await self.play.act(match_id, user_id, tile, end, expected_version)

    async def host_move(self, match_id: int, expected_version: int | None = None) -> Result:
        """See :meth:`service.play.Play.host_move`."""
        return await self.play.host_move(match_id, expected_version)

    async def bot_move(self, match_id: int, expected_version: int | None = None) -> Result:
        """See :meth:`service.play.Play.bot_move`."""
        return await self.play.bot_move(match_id, expected_version)

    async def leave_match(self, match_id: int, user_id: int) -> Result:
        """See :meth:`service.leaving.Leaving.leave`."""
        return await self.leaving.leave(match_id, user_id)

    async def substitute(self, match_id: int, user_id: int, expected_version: int, *,
                         force: bool = False) -> Result:
        """See :meth:`service.leaving.Leaving.substitute`."""
        return await self.leaving.substitute(match_id, user_id, expected_version, force=force)

    async def end_by_timeout(self, match_id: int, user_id: int, expected_version: int, *,
                             force: bool = False) -> Result:
        """See :meth:`service.leaving.Leaving.end_by_timeout`."""
        return await self.leaving.end_by_timeout(match_id, user_id, expected_version,
                                                 force=force)

    # ------------------------------------------------------------------ deadlines

    async def fire_due(self, now: float | None = None) -> list[Result]:
        """See :meth:`service.deadlines.Deadlines.fire_due`."""
        return await self.deadlines.fire_due(now)

    async def next_deadline(self) -> float | None:
        """See :meth:`service.deadlines.Deadlines.next_deadline`."""
        return await self.deadlines.next_deadline()

    async def run_deadlines(self, on_result: Callable[[Result], Awaitable[None]] | None = None,
                            **kwargs: Any) -> None:
        """See :meth:`service.deadlines.Deadlines.run`."""
        await self.deadlines.run(on_result, **kwargs)

    # ------------------------------------------------------------------ reading

    async def view(self, match_id: int) -> Result:
        """See :meth:`service.store.MatchStore.view`."""
        return await self.store.view(match_id)

    async def find_open(self, chat_id: int, thread_id: int | None) -> Result:
        """See :meth:`service.store.MatchStore.find_open`."""
        return await self.store.find_open(chat_id, thread_id)

    async def open_matches(self, user_id: int | None = None) -> list[Result]:
        """See :meth:`service.store.MatchStore.open_matches`."""
        return await self.store.open_matches(user_id)

    async def recently_finished(self, within: float = 86_400.0
                                ) -> list[tuple[int, dict[str, Any]]]:
        """``(match id, stored message ids)`` of the matches that finished in the last
        ``within`` seconds (start-up looks for a match end a crash kept from being
        announced; :meth:`view` gives the views of those it picks)."""
        return await self.store.finished_since(self.clock() - within)

    # ------------------------------------------------------------------ message ids

    async def load_messages(self, match_id: int) -> dict[str, Any] | None:
        """See :meth:`service.messages.MessageIds.load`."""
        return await self.messages.load(match_id)

    async def save_messages(self, match_id: int, messages: dict[str, Any]) -> bool:
        """See :meth:`service.messages.MessageIds.save`."""
        return await self.messages.save(match_id, messages)

    # ------------------------------------------------------------------ statistics

    async def leaderboard(self, chat_id: int | None = None, *, variant: str = "classic",
                          with_bots: bool = False, limit: int = 10,
                          offset: int = 0) -> tuple[LeaderRow, ...]:
        """See :meth:`service.stats.Statistics.leaderboard`."""
        return await self.stats.leaderboard(chat_id, variant=variant, with_bots=with_bots,
                                            limit=limit, offset=offset)

    async def personal_stats(self, user_id: int, chat_id: int | None = None, *,
                             variant: str = "classic", with_bots: bool = False
                             ) -> PersonalStats:
        """See :meth:`service.stats.Statistics.personal_stats`."""
        return await self.stats.personal_stats(user_id, chat_id, variant=variant,
                                               with_bots=with_bots)

    async def player_boards(self, user_id: int) -> tuple[PersonalStats, ...]:
        """See :meth:`service.stats.Statistics.player_boards`."""
        return await self.stats.player_boards(user_id)

    async def history(self, *, chat_id: int | None = None, user_id: int | None = None,
                      page: int = 0, with_bots: bool = False) -> HistoryPage:
        """See :meth:`service.stats.Statistics.history`."""
        return await self.stats.history(chat_id=chat_id, user_id=user_id, page=page,
                                        with_bots=with_bots)

    async def bot_stats(self) -> tuple[BotStats, ...]:
        """See :meth:`service.stats.Statistics.bot_stats`."""
        return await self.stats.bot_stats()

    # ------------------------------------------------------------------ game records

    async def record(self, match_id: int, user_id: int, chat_id: int | None = None, *,
                     granted: bool = False) -> RecordFile | ErrorCode:
        """See :meth:`service.records.Records.record`."""
        return await self.records.record(match_id, user_id, chat_id, granted=granted)

    async def latest_match(self, *, chat_id: int | None = None, user_id: int | None = None
                           ) -> int | None:
        """See :meth:`service.records.Records.latest`."""
        return await self.records.latest(chat_id=chat_id, user_id=user_id)

    async def check_record(self, data: bytes) -> RecordCheck:
        """See :meth:`service.records.Records.check`."""
        return await self.records.check(data)
