"""Users and chats: who the bot may write to, in which language, and each chat's settings.

Every message the bot renders asks for a language, so users and chats are cached for
:data:`SETTINGS_TTL` seconds (changes made through this service are seen at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from service.live.rulebook import full_rules, rules_overrides, switch_variant
from service.views import ChatInfo, ChatResult, ErrorCode, UserInfo
from storage import Database
from storage import repository as repo

__all__ = ["SETTINGS_TTL", "People", "ensure_user"]

#: Seconds a user's or chat's cached settings may lag behind a change another process made.
SETTINGS_TTL = 60.0
_CACHED = 50_000  # entries per cache before it starts afresh


def ensure_user(conn: Any, user_id: int, name: str, now: float) -> None:
    """Inside a transaction: create the users row of a person seen for the first time
    (computer players, ``user_id <= 0``, have none)."""
    if user_id > 0 and repo.get_user(conn, user_id) is None:
        repo.upsert_user(conn, user_id, now=now, first_name=name)


class People:
    """Users and chats over ``db``; ``clock`` gives Unix seconds; ``option_defaults`` the
    values of chat options (``ChatInfo.options``) for chats that did not set them (e.g. the
    bot-wide ``{"table": "text"}``)."""

    def __init__(self, db: Database, clock: Callable[[], float],
                 option_defaults: Mapping[str, Any] | None = None) -> None:
        self.db = db
        self.clock = clock
        self.option_defaults = dict(option_defaults or {})
        #: (monotonic expiry, value) per id
        self._users: dict[int, tuple[float, UserInfo | None]] = {}
        self._chats: dict[int, tuple[float, ChatInfo]] = {}
        self._generation = 0  # bumped by every change, so a read in flight is not cached

    # ------------------------------------------------------------------ the caches

    def forget(self, *, users: Sequence[int] = (), chats: Sequence[int] = ()) -> None:
        """Drop cached users and chats that a write changed."""
        self._generation += 1
        for uid in users:
            self._users.pop(uid, None)
        for cid in chats:
            self._chats.pop(cid, None)

    def clear(self) -> None:
        """Forget every cached user and chat."""
        self._generation += 1
        self._users.clear()
        self._chats.clear()

    @staticmethod
    def _remember(cache: dict, key: int, value: Any) -> None:
        if len(cache) >= _CACHED:
            cache.clear()
        cache[key] = (time.monotonic() + SETTINGS_TTL, value)

    # ------------------------------------------------------------------ users

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
        now = self.clock()
        try:
            await self.db.write(lambda conn: repo.upsert_user(
                conn, user_id, now=now, first_name=first_name, last_name=last_name,
                username=username, language=language, dm_open=dm_open))
        finally:
            self.forget(users=(user_id,))

    async def remember_telegram_language(self, user_id: int, code: str,
                                         first_name: str = "") -> bool:
        """Keep the ``language_code`` Telegram reports for a person (``"en"``, ``"uk-UA"``),
        so a restarted bot still speaks it where they chose no language with /lang.  Writes
        only when it differs from the stored one (a person met for the first time is stored
        with ``first_name``); True when it wrote.  An empty ``code`` changes nothing."""
        if not code or user_id <= 0:
            return False
        known = await self.get_user(user_id)
        if known is not None and known.telegram_language == code:
            return False
        now = self.clock()
        name = None if known is not None else first_name
        try:
            await self.db.write(lambda c: repo.upsert_user(
                c, user_id, now=now, first_name=name, telegram_language=code))
        finally:
            self.forget(users=(user_id,))
        return True

    async def set_dm_open(self, user_id: int, is_open: bool) -> None:
        """Record that the user started (True) or blocked (False) the bot in private."""
        now = self.clock()
        try:
            await self.db.write(lambda c: repo.upsert_user(c, user_id, now=now,
                                                           dm_open=bool(is_open)))
        finally:
            self.forget(users=(user_id,))

    async def get_user(self, user_id: int) -> UserInfo | None:
        """The stored user, or None (cached: see :data:`SETTINGS_TTL`)."""
        hit = self._users.get(user_id)
        if hit is not None and hit[0] > time.monotonic():
            return hit[1]
        generation = self._generation
        u = await self.db.read(repo.get_user, user_id)
        info = None if u is None else UserInfo(u.id, u.first_name, u.last_name, u.username,
                                               u.language, u.dm_open, u.display_name,
                                               u.telegram_language)
        if generation == self._generation:
            self._remember(self._users, user_id, info)
        return info

    # ------------------------------------------------------------------ chats

    def _chat_info(self, chat_id: int, c: repo.ChatRow | None) -> ChatInfo:
        if c is None:
            return ChatInfo(chat_id, None, None, False, None, {}, True, full_rules({}),
                            dict(self.option_defaults), known=False)
        rules = dict(c.settings.get("rules", {}))
        try:
            full = full_rules(rules)
        except (ValueError, TypeError):  # options of another version of the bot
            full = full_rules({})
        return ChatInfo(c.id, c.title, c.language, c.is_forum, c.topic_id, rules, c.active,
                        full, {**self.option_defaults, **c.settings.get("options", {})})

    async def chat_info(self, chat_id: int) -> ChatInfo:
        """The chat's settings (defaults for a chat never seen: no rule overrides; cached:
        see :data:`SETTINGS_TTL`)."""
        hit = self._chats.get(chat_id)
        if hit is not None and hit[0] > time.monotonic():
            return hit[1]
        generation = self._generation
        info = self._chat_info(chat_id, await self.db.read(repo.get_chat, chat_id))
        if generation == self._generation:
            self._remember(self._chats, chat_id, info)
        return info

    async def game_rules(self, chat_id: int, variant: str) -> dict[str, Any]:
        """Every rule option of a lobby of ``variant`` opened in this chat now: the chat's
        chosen options that game keeps (:func:`service.live.rulebook.switch_variant`) over its
        defaults (RULES.md §2).  Raises ``ValueError`` for an unknown variant."""
        info = await self.chat_info(chat_id)
        return full_rules(switch_variant(info.rules, variant))

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
        options: Mapping[str, Any] | None = None,
        active: bool | None = None,
        variant: str | None = None,
    ) -> ChatResult:
        """Create or change a chat's settings. ``rules`` replaces the chat's rule options
        (validated as RULES.md §1 says, ``bad_rules`` otherwise; only the options that differ
        from the defaults are stored); ``variant`` switches the chat's game (RULES.md §2): the
        chat's chosen options that game reads are kept, the others dropped
        (:func:`service.live.rulebook.switch_variant`; ``bad_rules`` for an unknown game), and
        ``rules`` may not be given with it; ``options`` are merged into the chat's other
        settings (a key set to None is removed). ``clear_topic`` forgets the forum topic. New
        lobbies use these rules; running matches keep theirs."""
        overrides = None
        try:
            if variant is not None:
                if rules is not None:
                    raise ValueError("rules: give either rules or a variant")
                switch_variant({}, variant)  # an unknown game is refused before the write
            elif rules is not None:
                overrides = rules_overrides(rules)
        except (ValueError, TypeError) as exc:
            return ChatResult(False, await self.chat_info(chat_id), ErrorCode.BAD_RULES,
                              str(exc))
        now = self.clock()

        def txn(conn: Any) -> repo.ChatRow:
            settings = None
            if overrides is not None or options or variant is not None:
                old = repo.get_chat(conn, chat_id)
                settings = dict(old.settings) if old else {}
                if variant is not None:
                    try:
                        new = switch_variant(settings.get("rules", {}), variant)
                    except (ValueError, TypeError):  # the options of another version
                        new = switch_variant({}, variant)
                    settings["rules"] = new
                if overrides is not None:
                    settings["rules"] = overrides
                if options:
                    merged = {**settings.get("options", {}), **options}
                    settings["options"] = {k: v for k, v in merged.items() if v is not None}
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
            self.forget(chats=(chat_id,))
        return ChatResult(True, self._chat_info(chat_id, row))

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> tuple[int, ...]:
        """Telegram turned a group into a supergroup: move the chat's settings, lobbies,
        matches, results and per-chat statistics to the new id (idempotent). Returns the moved
        match ids (the caller drops them from the match cache)."""
        now = self.clock()
        try:
            moved = await self.db.write(lambda c: repo.move_chat(c, old_chat_id, new_chat_id,
                                                                 now=now))
        finally:
            self.forget(chats=(old_chat_id, new_chat_id))
        return tuple(moved)

    async def deactivate(self, chat_id: int) -> list[repo.MatchRow]:
        """Mark the chat inactive (the bot was removed); returns its open matches."""
        now = self.clock()

        def txn(conn: Any) -> list[repo.MatchRow]:
            repo.upsert_chat(conn, chat_id, now=now, active=False)
            return repo.list_open_matches(conn, chat_id)

        try:
            return await self.db.write(txn)
        finally:
            self.forget(chats=(chat_id,))
