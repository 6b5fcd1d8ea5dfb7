"""Choosing the game (RULES.md §2): the lobby's "Another game" menu and the set-up of a match
against computer players in private, and the parsing of ``/newgame [1-3] [game] [strength]``.

Issue 12/13, "Choosing the game": the creator of a lobby (or a chat admin) switches its game
before the start; the seats stay, the service keeps the options the new game reads and checks
the player counts (``Lobbies.change_variant``).  In private, ``/newgame`` without words
shows a set-up message whose buttons carry the whole choice (``SoloCb``), so it survives a
restart; "Play" opens the match.  Handlers compute no rule: what a game allows (its player
counts) comes from :func:`service.live.rulebook.variant_infos`.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Message

from delivery.app import App
from handlers.admins import AdminCheck
from handlers.common import SameChatGuard, alert, display_name, query_chat, register
from service.views import ErrorCode, Result, Status, VariantInfo
from ui.callbacks import SoloCb, VariantCb
from ui.i18n import Translator
from ui.keyboards import lobby_keyboard, solo_keyboard, variant_keyboard
from ui.render import variant_text
from ui.strengths import parse_strength
from ui.variants import parse_variant, variant_name, variants

__all__ = ["SoloChoice", "create_router", "parse_solo", "solo_counts", "unknown_variant_text"]


def _infos() -> dict[str, VariantInfo]:
    return {v.name: v for v in variants()}


def unknown_variant_text(app: App, locale: str) -> str:
    """The answer to a game nobody knows: every game's name with its id."""
    games = ", ".join(f"{variant_name(app.tr, locale, v.name)} ({v.name})" for v in variants())
    return app.tr.t(locale, "err-unknown-variant", variants=games)


# -- private matches against computer players -----------------------------------------------------


def solo_counts(info: VariantInfo) -> tuple[int, ...]:
    """How many computer players (1..3) may sit with one person in a game (RULES.md §1.1 and
    the game's own count: exactly 4 in sport domino §2.7 and Генерал §2.9)."""
    lo, hi = info.players
    return tuple(n for n in (1, 2, 3) if lo <= n + 1 <= hi)


@dataclass(frozen=True, slots=True)
class SoloChoice:
    """What ``/newgame`` in private asks for: the game, the opponents and their strength;
    ``count_given`` False when the words named no count (then the game's smallest count is
    taken)."""

    variant: str
    bots: int
    strength: str
    count_given: bool


def parse_solo(words: list[str], tr: Translator, default_variant: str = "classic"
               ) -> SoloChoice | None:
    """Read ``/newgame [1-3] [game] [strength]`` in any order (the game's name may be
    several words, ``морской козёл``, in any locale of ``tr``; the strength its id or its
    word in any language, ``hard``, ``сложный``: :func:`ui.strengths.parse_strength`); None
    when a word is neither.  A count outside 1–3 is kept as given, for :func:`solo_refusal`
    to answer with the counts the game seats."""
    bots, strength, rest = None, "normal", []
    for word in words:
        low = word.lower()
        if low.isdigit() and len(low) <= 2 and bots is None:
            bots = int(low)  # 0 or 4+ too: the refusal says the counts the game seats
        elif parse_strength(low, tr) is not None:
            strength = parse_strength(low, tr)
        else:
            rest.append(word)
    variant = default_variant
    if rest:
        variant = parse_variant(rest, tr)
        if variant is None:
            return None
    info = _infos()[variant]
    counts = solo_counts(info)
    chosen = bots if bots is not None else (counts[0] if counts else 1)
    return SoloChoice(variant, chosen, strength, bots is not None)


def _solo_text(app: App, locale: str, variant: str, bots: int, strength: str) -> str:
    tr = app.tr
    return "\n".join([
        tr.t(locale, "solo-title"),
        tr.t(locale, "solo-choice", game=variant_name(tr, locale, variant),
             bots=tr.plain(locale, "opt-bots", value=bots),
             strength=tr.plain(locale, "strength-word", value=strength)),
        "", variant_text(tr, locale, variant, "variant-about"), "",
        tr.t(locale, "solo-hint")])


def send_solo_setup(app: App, message: Message, locale: str, variant: str) -> None:
    """The set-up message of a match against computer players, ``variant`` chosen."""
    counts = solo_counts(_infos()[variant]) or (1,)
    app.say(
        message.chat.id, _solo_text(app, locale, variant, counts[0], "normal"),
        reply_markup=solo_keyboard(locale, variant, counts[0], "normal", counts, tr=app.tr))


def solo_refusal(app: App, locale: str, choice: SoloChoice) -> str | None:
    """Why ``choice`` cannot be played (a count the game does not seat), or None."""
    info = _infos()[choice.variant]
    counts = solo_counts(info)
    if choice.bots in counts:
        return None
    lo, hi = info.players
    return app.tr.t(locale, "err-solo-players", game=variant_name(app.tr, locale, info.name),
                    need="exact" if lo == hi else "range", min=lo, max=hi,
                    bots=counts[0] if counts else 1, variant=info.name)


async def open_solo(app: App, user, choice: SoloChoice) -> Result:
    """Open and deal the match of ``choice`` for ``user`` in their private chat."""
    return await app.service.lobbies.open_solo(user.id, display_name(user), bots_count=choice.bots,
                                               strength=choice.strength, variant=choice.variant)


async def on_solo(query: CallbackQuery, callback_data: SoloCb, app: App, locale: str) -> None:
    """A button of the set-up message: change the choice (the message shows it), or play."""
    if query.message is None or query.message.chat.type != ChatType.PRIVATE:
        await alert(query, app.tr.plain(locale, "err-private-only"))
        return
    info = _infos().get(callback_data.variant)
    if info is None:
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    counts = solo_counts(info) or (1,)
    bots = callback_data.bots if callback_data.bots in counts else min(
        counts, key=lambda n: abs(n - callback_data.bots))
    choice = SoloChoice(info.name, bots, callback_data.strength, True)
    chat_id, message_id = query.message.chat.id, query.message.message_id
    if not callback_data.go:
        await query.answer()
        app.edit(chat_id, message_id, _solo_text(app, locale, info.name, bots, choice.strength),
                 reply_markup=solo_keyboard(locale, info.name, bots, choice.strength, counts,
                                            tr=app.tr))
        return
    user = query.from_user
    await register(app, user, dm_open=True)
    res = await open_solo(app, user, choice)
    if res.error == ErrorCode.ALREADY_OPEN and res.match_id is not None:
        key = "err-lobby-exists" if res.status == Status.LOBBY else "err-match-exists-here"
        await alert(query, app.tr.plain(locale, key, id=res.match_id))
        return
    if not res.ok:
        await alert(query, app.error_text(locale, res))
        return
    await query.answer()
    app.edit(chat_id, message_id, app.tr.t(
        locale, "solo-started", game=variant_name(app.tr, locale, info.name)),
        reply_markup=None)
    await app.publish(res)


# -- the lobby's game --------------------------------------------------------------------------


async def _lobby_of(query: CallbackQuery, app: App, is_admin: AdminCheck, locale: str,
                    lobby_id: int) -> tuple[Result, bool] | None:
    """The lobby, if it is open and the presser is its creator or a chat admin (the admin
    flag with it); None after answering why not."""
    res = await app.service.store.view(lobby_id)
    if not res.ok or res.status != Status.LOBBY or res.lobby is None:
        await alert(query, app.tr.plain(locale, "err-lobby-closed"))
        return None
    if res.lobby.creator_id == query.from_user.id:
        return res, False
    if await is_admin():
        return res, True
    await alert(query, app.tr.plain(locale, "err-only-creator-or-admin"))
    return None


def _lobby_buttons(app: App, query: CallbackQuery, locale: str, res: Result) -> None:
    lobby = res.lobby
    app.edit_markup(
        query_chat(query), query.message.message_id,
        lobby_keyboard(locale, lobby.match_id, allow_bots=True,
                       has_bots=any(p.bot for p in lobby.players), tr=app.tr))


async def on_variant_menu(query: CallbackQuery, callback_data: VariantCb, app: App,
                          is_admin: AdminCheck, locale: str) -> None:
    """"Another game" under a lobby: its buttons become the games (creator or admin)."""
    found = await _lobby_of(query, app, is_admin, locale, callback_data.lobby)
    if found is None or query.message is None:
        return
    res, _ = found
    await query.answer(app.tr.plain(locale, "notice-variant-choose"))
    app.edit_markup(
        query_chat(query), query.message.message_id,
        variant_keyboard(locale, res.match_id, str(res.lobby.rules["variant"]), tr=app.tr))


async def on_variant_back(query: CallbackQuery, callback_data: VariantCb, app: App,
                          is_admin: AdminCheck, locale: str) -> None:
    """"Back" in the games: the lobby's own buttons again."""
    found = await _lobby_of(query, app, is_admin, locale, callback_data.lobby)
    if found is None or query.message is None:
        return
    await query.answer()
    _lobby_buttons(app, query, locale, found[0])


async def on_variant_pick(query: CallbackQuery, callback_data: VariantCb, app: App,
                          is_admin: AdminCheck, locale: str) -> None:
    """A game in the menu: the lobby plays it (the service keeps the seats, refuses a game
    that seats fewer than are seated)."""
    info = _infos().get(callback_data.variant)
    if info is None:
        await alert(query, app.tr.plain(locale, "err-stale-button"))
        return
    found = await _lobby_of(query, app, is_admin, locale, callback_data.lobby)
    if found is None or query.message is None:
        return
    res, admin = found
    game = variant_name(app.tr, locale, info.name)
    if res.lobby.rules.get("variant") == info.name:
        await query.answer(app.tr.plain(locale, "notice-variant-changed", game=game))
        _lobby_buttons(app, query, locale, res)
        return
    changed = await app.service.lobbies.change_variant(res.match_id, query.from_user.id, info.name,
                                                       force=admin)
    if not changed.ok:
        if changed.error == ErrorCode.TOO_MANY_PLAYERS:
            await alert(query, app.tr.plain(locale, "err-too-many-players", game=game,
                                            max=info.players[1]))
        else:
            await alert(query, app.error_text(locale, changed))
        return
    await query.answer(app.tr.plain(locale, "notice-variant-changed", game=game))
    await app.publish(changed)


def create_router() -> Router:
    """The games router: the lobby's game menu and the private set-up's buttons."""
    router = Router(name="games")
    router.callback_query.middleware(SameChatGuard())
    router.callback_query.register(on_variant_menu, VariantCb.filter(F.action == "menu"))
    router.callback_query.register(on_variant_back, VariantCb.filter(F.action == "back"))
    router.callback_query.register(on_variant_pick, VariantCb.filter(F.action == "pick"))
    router.callback_query.register(on_solo, SoloCb.filter())
    return router

