"""Turn the service's results into Telegram messages: the lobby, the table, the hands.

Every message goes through :class:`ui.outbox.Outbox`.  The publisher is *idempotent*: given
the newest :class:`service.Result` of a match it makes the chats show that state (editing
what exists, sending what is missing) and stores the message ids with the match
(``GameService.update_messages``), so re-publishing after a crash or a restart heals a
half-sent change.  One-shot messages — a round's summary, the match end, a host-move notice —
are sent only for the change that produced them.

Message bookkeeping (the match's ``messages`` dict):

- ``lobby``: id of the lobby message in the group;
- ``table`` / ``table_round`` / ``table_chat``: id of the current round's table message, its
  round, and the chat it is in (a send to a group that just became a supergroup lands in the
  supergroup; ``lobby_chat`` likewise); ``table_closed``: the round whose table was edited
  into its closed form with the summary;
- ``hand:<user_id>``: ``[message_id, version, round_no, live]`` — the last hand message sent
  to that player in private, the match version it shows, and whether its keyboard is live.

Per accepted move this costs three Bot API calls besides the answer to the press: the table
edit, the mover's hand message losing its keyboard, and a new DM (with a notification) to the
player to act.  When the mover is to act again (everyone else knocked, or they lead the next
round, RULES.md §1.6), their pressed message is edited to the new turn in place instead of
losing its keyboard to a new DM.  A round's end edits its table into the closed table with
the round's summary (hands revealed, points recorded) and the other players' hand messages to
their new hands; the next round's table is sent with its lead, in place of that move's table
edit.  So a round's end costs what a move costs, and nothing about a closed round is lost when
a publish is repeated after a restart (:meth:`Publisher.heal`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from service import GameService, Result, Status
from ui import render
from ui.i18n import DEFAULT_LOCALE, Translator, choose_locale
from ui.keyboards import deep_link, dm_keyboard, hand_keyboard, lobby_keyboard, rematch_keyboard

__all__ = ["Publisher"]

log = logging.getLogger(__name__)


class Publisher:
    """Renders results for each audience and sends them through the outbox.

    ``service``: the :class:`service.GameService`; ``outbox``: a :class:`ui.outbox.Outbox`;
    ``tr``: the translator; ``bot_username``: for deep links (``t.me/<bot>?start=…``);
    ``user_locale(user_id)``: the language code Telegram reported for a user, if known.
    """

    def __init__(self, service: GameService, outbox: Any, tr: Translator, *,
                 bot_username: str, default_locale: str = DEFAULT_LOCALE,
                 user_locale: Callable[[int], str | None] | None = None) -> None:
        self.service = service
        self.outbox = outbox
        self.tr = tr
        self.bot_username = bot_username
        self.default_locale = default_locale
        self._user_locale = user_locale or (lambda _uid: None)
        self._locks: dict[int, asyncio.Lock] = {}
        self._published: dict[int, int] = {}
        #: Users whose DM answered 403 since they last pressed Start (set by the outbox hook).
        self.forbidden: set[int] = set()

    # -- languages -------------------------------------------------------------------------

    async def chat_locale(self, chat_id: int) -> str:
        """The group's language setting, else the default (issue 4, "Settings, languages")."""
        info = await self.service.chat_info(chat_id)
        return choose_locale(is_group=True, chat_locale=info.language,
                             default=self.default_locale)

    async def user_locale(self, user_id: int) -> str:
        """A user's own choice (/lang in private), else their Telegram language, else the
        default."""
        user = await self.service.get_user(user_id)
        return choose_locale(is_group=False, user_locale=user.language if user else None,
                             telegram_code=self._user_locale(user_id),
                             default=self.default_locale)

    def link(self, payload: str | None = None) -> str:
        """Deep link into the bot's private chat, e.g. ``link("j12")``."""
        return deep_link(self.bot_username, payload)

    # -- entry points ----------------------------------------------------------------------

    async def publish(self, result: Result, *, fresh: bool = True) -> None:
        """Show ``result`` (an accepted change, or a view when ``fresh`` is False) in the
        group and in the players' private chats.  Never raises for Telegram errors."""
        if result.match_id is None:
            return
        lock = self._locks.setdefault(result.match_id, asyncio.Lock())
        async with lock:
            try:
                await self._publish(result, fresh)
            finally:
                if result.status not in (Status.LOBBY, Status.PLAYING):
                    self._locks.pop(result.match_id, None)

    async def _publish(self, result: Result, fresh: bool) -> None:
        match_id = result.match_id
        # The result's message ids are those of when it was made: a player who pressed the
        # keyboard of the previous publish before that publish stored its ids would otherwise
        # keep that keyboard (or get a second lobby message).  Read the stored ones now.
        stored = await self.service.stored_messages(match_id)
        if stored is not None:
            result = replace(result, messages=stored)
        version = result.version or 0
        newest = self._published.get(match_id, -1)
        await self._one_shots(result, fresh)
        if version < newest:
            return  # a newer state was already shown; only the one-shots of this change count
        self._published[match_id] = version
        if result.lobby is not None and result.status in (Status.LOBBY, Status.EXPIRED,
                                                          Status.STOPPED) \
                and result.table is None:
            await self._lobby(result)
            return
        if result.table is not None and result.state is not None:
            await self._table(result)
            await self._hands(result)
        if result.status not in (Status.LOBBY, Status.PLAYING):
            self._published.pop(match_id, None)

    # -- lobby -----------------------------------------------------------------------------

    async def _lobby(self, result: Result) -> None:
        lobby = result.lobby
        locale = await self.chat_locale(lobby.chat_id)
        names = [p.name for p in lobby.players]
        if lobby.status == Status.LOBBY:
            ttl = None
            if lobby.deadline_at is not None:
                ttl = max(1, round((lobby.deadline_at - self.service.clock()) / 60))
            bots = [i for i, p in enumerate(lobby.players) if p.bot]
            text = render.render_lobby(locale, names, _rules(lobby.rules),
                                       creator=names[0] if names else None, bots=bots,
                                       max_players=lobby.max_players, expires_minutes=ttl,
                                       tr=self.tr)
            markup = lobby_keyboard(locale, lobby.match_id, allow_bots=True,
                                    has_bots=bool(bots), tr=self.tr)
        else:
            key = "lobby-expired" if lobby.status == Status.EXPIRED else "lobby-cancelled"
            text = self.tr.t(locale, key)
            markup = None
        mid = result.messages.get("lobby")
        if mid:
            self.outbox.edit_text(lobby.chat_id, mid, text, reply_markup=markup)
        elif lobby.status == Status.LOBBY:
            msg = await self.outbox.send(lobby.chat_id, text, reply_markup=markup,
                                         **_thread(lobby.thread_id))
            if msg is not None:
                await self.service.update_messages(lobby.match_id,
                                                   {"lobby": msg.message_id,
                                                    "lobby_chat": msg.chat.id})
        else:
            self.outbox.send(lobby.chat_id, text, **_thread(lobby.thread_id))

    # -- the table in the group ------------------------------------------------------------

    async def _table(self, result: Result) -> None:
        table = result.table
        state = result.state
        locale = await self.chat_locale(table.chat_id)
        names = [s.name for s in table.seats]
        messages = result.messages
        log_events = list(result.log)
        lobby_mid = messages.get("lobby")
        changes: dict[str, Any] = {}
        if lobby_mid and not messages.get("lobby_closed"):
            self.outbox.edit_text(table.chat_id, lobby_mid,
                                  self.tr.t(locale, "lobby-started"), reply_markup=None)
            changes["lobby_closed"] = 1
        mid = messages.get("table")
        shown_round = messages.get("table_round")
        if mid and shown_round is not None and shown_round != state.round_no:
            # the round on that message is over: show it closed, with its summary
            if messages.get("table_closed") != shown_round:
                self.outbox.edit_text(table.chat_id, mid, render.render_table(
                    locale, state, names, log_events, round_no=shown_round, summary=True,
                    tr=self.tr))
                changes["table_closed"] = shown_round
            if not state.chain:
                # the new round opens its table with the lead; until then the closed table
                # is the group's last word (the leader has their keyboard already)
                if changes:
                    await self.service.update_messages(table.match_id, changes)
                return
            mid = None
        text = render.render_table(locale, state, names, log_events, summary=True, tr=self.tr)
        if mid:
            self.outbox.edit_text(table.chat_id, mid, text)
        else:
            msg = await self.outbox.send(table.chat_id, text, **_thread(table.thread_id))
            if msg is not None:
                changes["table"] = msg.message_id
                changes["table_round"] = state.round_no
                changes["table_chat"] = msg.chat.id
        if changes:
            await self.service.update_messages(table.match_id, changes)

    async def _one_shots(self, result: Result, fresh: bool) -> None:
        """The match end as a new group message, once (``end_shown`` records it, so a publish
        repeated after a restart sends it if and only if it was not sent); for a ``fresh``
        change also a round summary when no table message of that round exists (normally the
        table, closed, carries it) and the notice of a stopped match."""
        table = result.table
        state = result.state
        if table is None or state is None:
            return
        locale = await self.chat_locale(table.chat_id)
        names = [s.name for s in table.seats]
        thread = _thread(table.thread_id)
        messages = result.messages
        for ev in result.engine_events if fresh else ():
            if ev.kind == "round_scored" and not (messages.get("table")
                                                  and messages.get("table_round") == ev.round_no):
                self.outbox.send(table.chat_id, render.render_round_summary(
                    locale, ev, names, state.rules, tr=self.tr), **thread)
        if state.result and result.status == Status.FINISHED and not messages.get("end_shown"):
            # recorded once sent: a crash in between shows it twice rather than never
            sent = await self.outbox.send(table.chat_id, render.render_match_end(
                locale, state.result, state.scores, names, tr=self.tr),
                reply_markup=rematch_keyboard(locale, table.match_id, tr=self.tr), **thread)
            if sent is not None:
                await self.service.update_messages(table.match_id, {"end_shown": 1})
        elif fresh and result.status == Status.STOPPED:
            self.outbox.send(table.chat_id, self.tr.t(locale, "match-stopped"), **thread)

    # -- hands in private ------------------------------------------------------------------

    async def _hands(self, result: Result) -> None:
        table = result.table
        state = result.state
        names = [s.name for s in table.seats]
        version = table.version
        changes: dict[str, Any] = {}
        this_change = list(result.engine_events)
        touched = {getattr(e, "seat", None) for e in this_change
                   if e.kind in ("drew", "knocked", "host_moved")}
        # seats that placed a tile of this change by their own press (not the host, §1.17)
        pressed = {e.seat for e in this_change if e.kind in ("led", "played")} - {
            e.seat for e in this_change if e.kind == "host_moved"}
        log_events = list(result.log)
        for seat in table.seats:
            uid = seat.user_id
            if uid <= 0:
                continue  # computer players have no private chat
            key = f"hand:{uid}"
            old = result.messages.get(key)
            mid, old_version, old_round, live = (old + [0, 0, 0, 0])[:4] if old else (0, -1,
                                                                                     0, 0)
            locale = await self.user_locale(uid)
            my_turn = result.status == Status.PLAYING and state.to_act == seat.seat
            text = render.render_hand(locale, state, seat.seat, names, log_events, tr=self.tr)
            if my_turn:
                if mid and old_version == version and live:
                    continue  # already holds the keyboard for this version
                markup = hand_keyboard(table.match_id, version, _moves(state))
                if mid and live and seat.seat in pressed:
                    # the player is looking at the message they just pressed: their next turn
                    # (everyone else knocked, or they lead the new round, §1.6) goes there
                    self.outbox.edit_text(uid, mid, text, reply_markup=markup)
                    changes[key] = [mid, version, state.round_no, 1]
                    continue
                if mid and live:
                    self.outbox.edit_markup(uid, mid, None)
                msg = await self.outbox.send(uid, text, reply_markup=markup)
                if msg is None:
                    await self._dm_closed(result, seat, locale)
                    continue
                changes[key] = [msg.message_id, version, state.round_no, 1]
            elif mid and live:
                self.outbox.edit_text(uid, mid, text, reply_markup=None)
                changes[key] = [mid, version, state.round_no, 0]
            elif not mid:
                msg = await self.outbox.send(uid, text)
                if msg is None:
                    await self._dm_closed(result, seat, locale)
                    continue
                changes[key] = [msg.message_id, version, state.round_no, 0]
            elif (old_round != state.round_no or seat.seat in touched
                  or state.result is not None):
                # a new round's hand replaces the last one in place: no notification while
                # it is not this player's turn
                self.outbox.edit_text(uid, mid, text, reply_markup=None)
                changes[key] = [mid, version, state.round_no, 0]
        if changes:
            await self.service.update_messages(table.match_id, changes)

    async def _dm_closed(self, result: Result, seat: Any, locale: str) -> None:
        """A player's DM is closed (403): tell the group, with a button that opens it."""
        table = result.table
        if result.messages.get(f"dm_notice:{seat.user_id}") == table.round_no:
            return
        group_locale = await self.chat_locale(table.chat_id)
        url = self.link(f"h{table.match_id}")
        self.outbox.send(table.chat_id,
                         self.tr.t(group_locale, "notice-dm-closed", name=seat.name),
                         reply_markup=dm_keyboard(group_locale, url, tr=self.tr),
                         **_thread(table.thread_id))
        await self.service.update_messages(table.match_id,
                                           {f"dm_notice:{seat.user_id}": table.round_no})

    async def heal(self) -> None:
        """Start-up: show every open match as it is and announce the end of any match that
        finished without its end message, so a crash between a commit and its publish heals
        itself."""
        for res in (await self.service.open_matches()
                    + await self.service.unannounced_ends()):
            await self.publish(res, fresh=False)

    async def resend_hand(self, result: Result, user_id: int) -> bool:
        """/hand or a Start pressed after a 403: a fresh hand message for ``user_id`` (with the
        keyboard when it is their turn), the old keyboard removed.  False if not seated."""
        if result.table is None or result.state is None:
            return False
        seat = next((s for s in result.table.seats if s.user_id == user_id), None)
        if seat is None:
            return False
        key = f"hand:{user_id}"
        old = result.messages.get(key)
        if old and old[3]:
            self.outbox.edit_markup(user_id, old[0], None)
        await self.service.update_messages(result.match_id, {key: None})
        fresh = await self.service.view(result.match_id)
        await self.publish(fresh, fresh=False)
        return True


def _moves(state: Any) -> tuple:
    import engine

    return engine.legal_moves(state)


def _rules(rules_json: dict) -> Any:
    import engine

    return engine.Rules.from_json(rules_json)


def _thread(thread_id: int | None) -> dict[str, Any]:
    return {"message_thread_id": thread_id} if thread_id else {}
