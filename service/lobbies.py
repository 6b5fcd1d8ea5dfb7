"""Lobbies: open, join, leave, computer players in seats, start, stop, expire, rematch.

Every operation returns a :class:`~service.views.Result`; a refused one changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from service import once
from service.live.match import LiveMatch
from service.live.rulebook import full_rules, rules_players, switch_variant, variant_infos
from service.live.seats import DEFAULT_STRENGTH, STRENGTHS, is_bot, new_bot_seat
from service.live.viewing import OPEN, result_of
from service.metrics import Metrics
from service.people import People, ensure_user
from service.store import MatchStore, Refused, answers, db_values, refusal, refuse
from service.views import EndReason, ErrorCode, Result, Status
from storage import repository as repo

__all__ = ["DEFAULT_LOBBY_TTL", "Lobbies"]


def variant_names() -> tuple[str, ...]:
    """The names of the games the engine plays (RULES.md §1, §2)."""
    return tuple(variant_infos())

#: Seconds a lobby waits for its start after the last join (then it expires).
DEFAULT_LOBBY_TTL = 600.0


class Lobbies:
    """The lobby operations over the match ``store``.

    ``people``: the users-and-chats room (new seats create users, a lobby re-activates its
    chat); ``clock``: Unix seconds; ``seed_source``: the deal seed of a new match;
    ``lobby_ttl``: seconds an idle lobby lives; ``turn_deadline(live, now)``: when the first
    turn of a dealt match falls due, and ``armed(live)`` is called after a commit that may
    have given a computer player the turn (both from the play room).
    """

    def __init__(self, store: MatchStore, people: People, *, clock: Callable[[], float],
                 lobby_ttl: float = DEFAULT_LOBBY_TTL,
                 seed_source: Callable[[], int] | None = None,
                 turn_deadline: Callable[[LiveMatch, float], float],
                 armed: Callable[[LiveMatch], None],
                 metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        self.people = people
        self.clock = clock
        self.lobby_ttl = float(lobby_ttl)
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.turn_deadline = turn_deadline
        self.armed = armed

    # ------------------------------------------------------------------ opening a lobby

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
        variant: str | None = None,
    ) -> Result:
        """Open a lobby in a chat topic; the opener takes seat 0 and is its creator.

        ``rules``: options on top of the chat's defaults (RULES.md §1); ``variant``: play
        that game of RULES.md §2 instead of the chat's (the chat's options it reads are kept,
        :func:`service.live.rulebook.switch_variant`); ``players`` seats several players at once,
        opener included. Errors: ``already_open`` (the topic has an open lobby or match; the
        result carries it), ``bad_rules`` (also for an unknown variant).
        """
        seats = [{"user_id": int(u), "name": str(n)} for u, n in players] \
            if players is not None else [{"user_id": int(user_id), "name": str(name)}]
        return await self._open(chat_id, thread_id, user_id, seats, rules, rematch_of,
                                variant)

    @answers
    async def _open(self, chat_id: int, thread_id: int | None, user_id: int,
                    seats: list[dict[str, Any]], rules: Mapping[str, Any] | None,
                    rematch_of: int | None, variant: str | None = None, *,
                    deal: bool = False) -> Result:
        """Insert a lobby with ``seats`` (seat JSON dicts, bots included); with ``deal``,
        also deal it in the same transaction (:meth:`open_solo`: one change, so the done
        mark of the update that asked for it covers both, :mod:`service.once`), or refuse
        it (``not_enough_players``, nothing written; the answer carries the views of the
        lobby it would have been) when it cannot start."""
        now = self.clock()
        dealt: list[tuple[LiveMatch, list[Any]]] = []

        def txn(conn: Any) -> repo.MatchRow:
            chat = repo.upsert_chat(conn, chat_id, now=now, active=True)
            try:
                base = chat.settings.get("rules", {})
                if variant is not None:
                    try:
                        base = switch_variant(base, variant)
                    except (ValueError, TypeError):
                        if variant not in variant_names():
                            raise
                        base = {"variant": variant}  # the chat's options of another version
                rules_json = full_rules({**base, **dict(rules or {})})
            except (ValueError, TypeError) as exc:
                raise Refused(refusal(ErrorCode.BAD_RULES, str(exc))) from exc
            for seat in seats:
                ensure_user(conn, int(seat["user_id"]), str(seat["name"]), now)
            mid = repo.insert_match(
                conn, chat_id=chat_id, thread_id=thread_id, creator_id=user_id,
                rules=rules_json, seats=[dict(x) for x in seats], now=now,
                deadline_at=now + self.lobby_ttl, rematch_of=rematch_of,
            )
            row = repo.get_match(conn, mid)
            if deal:
                dealt.clear()  # a try of this transaction that was rolled back left nothing
                lobby = LiveMatch.from_row(row)
                # refused, the lobby is rolled back: nothing is left behind, and the answer
                # shows the seats and the game it would have had (the counts it seats)
                self._startable(lobby)
                nxt, values, events = self._dealt(lobby, now)
                if not repo.update_match(conn, mid, lobby.version, now=now,
                                         **db_values(values)):
                    raise RuntimeError(f"match {mid} changed inside its own transaction")
                dealt.append((nxt, events))
            return row

        try:
            try:
                row = await once.write(self.store.db, txn)
            finally:  # the chat and the seated users may be new or changed
                self.people.forget(users=[int(x["user_id"]) for x in seats], chats=(chat_id,))
        except repo.ActiveMatchExists:
            existing = await self.store.find_open(chat_id, thread_id)
            return replace(existing, ok=False, error=ErrorCode.ALREADY_OPEN,
                           detail="this chat topic already has an open lobby or match")
        if dealt:
            nxt, events = dealt[0]
            self.store.keep(nxt)
            self.metrics.matches_started.labels(nxt.rules.variant).inc()
            self.armed(nxt)
            return result_of(nxt, events=events)
        live = LiveMatch.from_row(row)
        self.store.keep(live)
        return result_of(live)

    # ------------------------------------------------------------------ seats

    @answers
    async def join(self, match_id: int, user_id: int, name: str) -> Result:
        """Take the next free seat of a lobby (RULES.md §1.1: seat order = join order) and
        extend the lobby's deadline. Errors: ``not_found``, ``wrong_status`` (started or
        closed), ``already_joined``, ``lobby_full``, ``stale`` (changed by another process)."""
        async with self.store.opening(match_id, status=Status.LOBBY,
                                      closed="the lobby is closed") as live:
            if live.seat_of(user_id) is not None:
                refuse(ErrorCode.ALREADY_JOINED, "already in this lobby", live)
            self._has_room(live)
            now = self.clock()
            values = {"seats": [*live.row.seats, {"user_id": int(user_id), "name": str(name)}],
                      "deadline_at": now + self.lobby_ttl}
            try:
                nxt = await self.store.write(
                    live, live.next(now, **values), values,
                    also=lambda conn: ensure_user(conn, user_id, name, now),
                    stale="the lobby changed; try again")
            finally:
                self.people.forget(users=(user_id,))
            return result_of(nxt)

    @answers
    async def leave(self, match_id: int, user_id: int) -> Result:
        """Give up a lobby seat. The creator's role passes to the next seated player; the
        last person leaving closes the lobby (status ``stopped``; computer players alone are
        no table). A started match cannot be left (a silent player is replaced by host moves,
        RULES.md §1.17). Errors: ``not_found``, ``wrong_status``, ``not_in_game``, ``stale``."""
        async with self.store.opening(match_id, status=Status.LOBBY,
                                      closed="only a lobby can be left") as live:
            if live.seat_of(user_id) is None:
                refuse(ErrorCode.NOT_IN_GAME, "not in this lobby", live)
            now = self.clock()
            seats = [s for s in live.row.seats if s["user_id"] != user_id]
            humans = [s for s in seats if not is_bot(s)]
            values: dict[str, Any] = {"seats": seats}
            if not humans:
                values.update(status=Status.STOPPED, end_reason=EndReason.STOPPED,
                              deadline_at=None, finished_at=now)
            elif live.row.creator_id == user_id:
                values["creator_id"] = humans[0]["user_id"]
            return result_of(await self._write(live, now, values))

    @answers
    async def add_bot(self, match_id: int, user_id: int,
                      strength: str = DEFAULT_STRENGTH, *, force: bool = False) -> Result:
        """Seat a computer player of ``strength`` (``easy``, ``normal``, ``hard``) in the next
        free seat of a lobby (RULES.md §1.1) and extend the lobby's deadline; it gets the
        first free persona (:mod:`service.live.seats`).  Who may: a person seated in the lobby, or
        anyone with ``force`` (a chat admin, checked by the caller). Errors: ``not_found``,
        ``wrong_status``, ``not_in_game``, ``lobby_full``, ``bad_strength``, ``stale``."""
        if strength not in STRENGTHS:
            refuse(ErrorCode.BAD_STRENGTH,
                   f"strength must be one of {', '.join(STRENGTHS)}")
        async with self.store.opening(match_id, status=Status.LOBBY,
                                      closed="the lobby is closed") as live:
            self._may_seat_bots(live, user_id, force, "add")
            self._has_room(live)
            now = self.clock()
            values = {"seats": [*live.row.seats, new_bot_seat(live.row.seats, strength)],
                      "deadline_at": now + self.lobby_ttl}
            return result_of(await self._write(live, now, values))

    @answers
    async def remove_bot(self, match_id: int, user_id: int, bot_id: int | None = None, *,
                         force: bool = False) -> Result:
        """Free a computer player's lobby seat: the bot with user id ``bot_id``, or (None) the
        last one seated; the seats after it move up. Who may: as :meth:`add_bot`. Errors:
        ``not_found``, ``wrong_status``, ``not_in_game`` (the caller is not seated, or there
        is no such bot), ``stale``."""
        async with self.store.opening(match_id, status=Status.LOBBY,
                                      closed="the lobby is closed") as live:
            self._may_seat_bots(live, user_id, force, "remove")
            found = [i for i, x in enumerate(live.row.seats) if is_bot(x)
                     and (bot_id is None or int(x["user_id"]) == bot_id)]
            if not found:
                refuse(ErrorCode.NOT_IN_GAME, "no such computer player", live)
            values = {"seats": [x for i, x in enumerate(live.row.seats) if i != found[-1]]}
            return result_of(await self._write(live, self.clock(), values))

    @answers
    async def change_variant(self, match_id: int, user_id: int, variant: str, *,
                             force: bool = False) -> Result:
        """Play another game of RULES.md §2 in this lobby: its rules become ``variant``'s,
        keeping the options chosen for the lobby that ``variant`` reads and dropping the
        others (:func:`service.live.rulebook.switch_variant`; the engine's ``Rules`` validate them).
        The seats stay; the lobby's deadline is extended.  Who may: its creator, or anyone
        with ``force`` (a chat admin, checked by the caller).  Errors: ``not_found``,
        ``wrong_status``, ``not_creator``, ``bad_rules`` (an unknown variant),
        ``too_many_players`` (more seats taken than ``variant`` seats; the result carries the
        lobby), ``stale``."""
        async with self.store.opening(match_id, status=Status.LOBBY,
                                      closed="the lobby is closed") as live:
            if not force and live.row.creator_id != user_id:
                refuse(ErrorCode.NOT_CREATOR, "only the creator can change the game", live)
            try:
                rules_json = full_rules(switch_variant(live.row.rules, variant))
            except (ValueError, TypeError) as exc:
                refuse(ErrorCode.BAD_RULES, str(exc), live)
            hi = rules_players(rules_json)[1]
            if len(live.row.seats) > hi:
                refuse(ErrorCode.TOO_MANY_PLAYERS,
                       f"{variant} seats at most {hi} players; {len(live.row.seats)} are "
                       f"seated (RULES.md {variant_infos()[variant].section})", live)
            now = self.clock()
            values = {"rules": rules_json, "deadline_at": now + self.lobby_ttl}
            return result_of(await self._write(live, now, values))

    @staticmethod
    def _has_room(live: LiveMatch) -> None:
        if len(live.row.seats) >= rules_players(live.rules)[1]:
            refuse(ErrorCode.LOBBY_FULL, "every seat is taken", live)

    @staticmethod
    def _may_seat_bots(live: LiveMatch, user_id: int, force: bool, what: str) -> None:
        if not force and (live.seat_of(user_id) is None or user_id <= 0):
            refuse(ErrorCode.NOT_IN_GAME, f"only a seated player can {what} a bot", live)

    async def _write(self, live: LiveMatch, now: float, values: dict[str, Any]) -> LiveMatch:
        """Commit a change of the row alone (seats, status)."""
        return await self.store.write(live, live.next(now, **values), values,
                                      stale="the lobby changed; try again")

    # ------------------------------------------------------------------ start, stop, expire

    @answers
    async def start(self, match_id: int, user_id: int, *, force: bool = False) -> Result:
        """Deal the match (RULES.md §1.2–§1.5) with a fresh random seed stored in the row.

        Only the creator may start, or anyone with ``force`` (a chat admin, checked by the
        caller). Needs 2..4 players, exactly 4 with teams (§1.1, §1.14), one of them a person.
        The first turn falls due after ``rules.turn_timeout`` seconds (§1.17), or
        ``bot_move_delay`` for a computer player. Errors: ``not_found``, ``wrong_status``,
        ``not_creator``, ``not_enough_players``, ``stale``."""
        async with self.store.opening(match_id, status=Status.LOBBY,
                                      closed="already started or closed") as live:
            if not force and live.row.creator_id != user_id:
                refuse(ErrorCode.NOT_CREATOR, "only the creator can start", live)
            self._startable(live)
            nxt, values, events = self._dealt(live, self.clock())
            nxt = await self.store.write(live, nxt, values, stale="the lobby changed; try again")
            self.metrics.matches_started.labels(live.rules.variant).inc()
            self.armed(nxt)
            return result_of(nxt, events=events)

    @staticmethod
    def _startable(live: LiveMatch) -> None:
        """Refuse (``not_enough_players``) a lobby whose seats its game cannot deal: 2..4
        players, exactly 4 with teams (RULES.md §1.1, §1.14), one of them a person."""
        lo, hi = rules_players(live.rules)
        if not lo <= len(live.row.seats) <= hi:
            refuse(ErrorCode.NOT_ENOUGH_PLAYERS,
                   f"needs {lo}..{hi} players (RULES.md §1.1, §1.14)", live)
        if not live.humans():
            refuse(ErrorCode.NOT_ENOUGH_PLAYERS, "a match needs at least one person", live)

    def _dealt(self, live: LiveMatch, now: float
               ) -> tuple[LiveMatch, dict[str, Any], list[Any]]:
        """The lobby ``live`` dealt at ``now`` with a fresh seed (RULES.md §1.2–§1.5), not yet
        written: the next match, the row's values to write and the engine's events.  The
        first turn falls due after ``rules.turn_timeout`` seconds (§1.17), or
        ``bot_move_delay`` for a computer player."""
        seed = int(self.seed_source())
        values: dict[str, Any] = {"status": Status.PLAYING, "seed": seed, "started_at": now}
        nxt = live.next(now, **values)
        events = nxt.deal(seed)
        values["deadline_at"] = self.turn_deadline(nxt, now)
        nxt.set(deadline_at=values["deadline_at"])
        return nxt, values, events

    async def stop(self, match_id: int, user_id: int, *, name: str | None = None,
                   force: bool = False) -> Result:
        """Stop an open lobby or a running match (status ``stopped``, not rated, no results),
        ``name`` being the stopper's, which the views carry (``MatchEnd.stopped_by``).  Only
        the creator may, or anyone with ``force`` (a chat admin, checked by the caller).
        Errors: ``not_found``, ``wrong_status`` (already closed), ``not_creator``, ``stale``."""
        return await self.close(match_id, EndReason.STOPPED, None if force else user_id,
                                by=name)

    @answers
    async def close(self, match_id: int, reason: EndReason, creator: int | None = None, *,
                    by: str | None = None) -> Result:
        """Close an open lobby or match with ``reason`` (status ``stopped``); with ``creator``
        only if that user created it; ``by`` the name of who closed it."""
        async with self.store.opening(match_id, status=OPEN, closed="already closed") as live:
            if creator is not None and live.row.creator_id != creator:
                refuse(ErrorCode.NOT_CREATOR, "only the creator can stop", live)
            return await self.close_locked(live, reason, by=by)

    async def close_locked(self, live: LiveMatch, reason: EndReason, *, by: str | None = None
                           ) -> Result:
        """Close an open match (status ``stopped``), ``by`` the name of who closed it (None:
        nobody did, the rules or the bot's removal did); the caller holds the match's lock.
        Raises :class:`~service.store.Refused` (stale)."""
        now = self.clock()
        values = {"status": Status.STOPPED, "end_reason": reason, "deadline_at": None,
                  "finished_at": now, "stopped_by": by[:64] if by else None}
        nxt = await self.store.write(live, live.next(now, **values), values)
        if live.status == Status.PLAYING:  # a dealt match ends; a lobby only closes
            self.metrics.matches_ended.labels(live.rules.variant, str(reason)).inc()
        return result_of(nxt)

    @answers
    async def expire(self, match_id: int, expected_version: int | None = None) -> Result:
        """Close a lobby nobody started (status ``expired``). ``expected_version``: expire only
        that version (the sweeper's guard against a join that came first). Errors:
        ``not_found``, ``wrong_status``, ``stale``."""
        async with self.store.opening(match_id, status=Status.LOBBY, closed="not a lobby",
                                      version=expected_version) as live:
            now = self.clock()
            values = {"status": Status.EXPIRED, "end_reason": EndReason.EXPIRED,
                      "deadline_at": None, "finished_at": now}
            return result_of(await self.store.write(live, live.next(now, **values), values,
                                                    stale="the lobby changed"))

    # ------------------------------------------------------------------ solo and rematch

    async def open_solo(self, user_id: int, name: str, bots_count: int = 1,
                        strength: str | Sequence[str] = "normal",
                        rules: Mapping[str, Any] | None = None,
                        variant: str | None = None) -> Result:
        """Start a match in the user's private chat (chat id = ``user_id``) against
        ``bots_count`` (1..3) computer players of ``strength`` (one for all, or one per bot).
        The seats are the user (seat 0, the creator) and then the bots; the rules are the
        private chat's settings plus ``rules`` (RULES.md §1; ``teams`` needs 3 bots, §1.14).
        The match is dealt at once (§1.2–§1.5), in the transaction that inserts it (one
        change: a worker of a cluster that dies after it leaves a dealt match, never a
        lobby, :mod:`service.once`), and played like a group match.  ``variant``: the game
        of RULES.md §2 to play (as :meth:`open_lobby`).

        Errors: ``already_open`` (a lobby or match is open in that chat; the result carries
        it), ``bad_strength``, ``bad_rules``, ``not_enough_players`` (not 1..3 bots, or not 3
        with teams)."""
        strengths = [strength] * bots_count if isinstance(strength, str) else list(strength)
        if len(strengths) != bots_count or not 1 <= bots_count <= 3:
            return refusal(ErrorCode.NOT_ENOUGH_PLAYERS,
                           "a solo match has 1 to 3 computer players")
        if any(x not in STRENGTHS for x in strengths):
            return refusal(ErrorCode.BAD_STRENGTH,
                           f"strength must be one of {', '.join(STRENGTHS)}")
        seats: list[dict[str, Any]] = [{"user_id": int(user_id), "name": str(name)}]
        for x in strengths:
            seats.append(new_bot_seat(seats, x))
        return await self._open(user_id, None, user_id, seats, rules, None, variant,
                                deal=True)

    async def rematch(self, match_id: int, user_id: int) -> Result:
        """Open a new lobby in the same chat topic with the same rules and the same players
        in the same seats (computer players too); the asking player (who must have played) is
        its creator. A second press returns the lobby already opened for this rematch (ok).
        Errors: ``not_found``, ``wrong_status`` (the match was never played or is still
        open), ``not_in_game``, ``already_open`` (another lobby/match is open in the topic),
        ``chat_inactive``."""
        row, chat = await self.store.db.read(_match_and_chat, match_id)
        if row is None:
            return refusal(ErrorCode.NOT_FOUND, "no such match")
        old = LiveMatch(row, None)
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


def _match_and_chat(conn: Any, match_id: int) -> tuple[Any, Any]:
    row = repo.get_match(conn, match_id)
    return row, (repo.get_chat(conn, row.chat_id) if row else None)
