"""The page's "new game": every game with the options its group settings offer, the
opponents, and what choosing them does.

The form is the group's ``/settings`` laid out at once (:func:`ui.settings.settings`, for each
game the options it reads, with their values and words), plus how many computer players and
how strong.  Choosing does what a person does in a Telegram group, in the local group, as the
tab's person: the options are stored as the settings' buttons store them
(``People.update_chat``), then ``/newgame <game>``, ``/addbot <strength>`` for each computer
player and, unless seats wait for people of other tabs, ``/startgame`` are written in the
group, each after the bot has answered the one before (the group shows them as it would).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from delivery.app import App
from localtable.telegram.world import World
from localtable.waits import until
from service.views import Result, Status
from ui.settings import setting, settings
from ui.strengths import STRENGTHS, strength_word
from ui.variants import variant_name, variants

__all__ = ["Choice", "games", "play"]

#: How long the bot may take to answer one command [seconds].
STEP_TIMEOUT = 30.0


async def games(app: App, chat_id: int, locale: str) -> dict[str, Any]:
    """The form: ``games`` (id, name, one line, rules in short, players, options with their
    choices and current values), ``chosen`` (the group's game) and ``strengths``."""
    tr = app.tr
    people = app.service.people
    info = await people.chat_info(chat_id)
    out = []
    for game in variants():
        rules = await people.game_rules(chat_id, game.name)
        chat = replace(info, full_rules=rules)
        options = []
        for spec in settings():
            if spec.key == "variant" or not spec.offered(rules):
                continue
            value = spec.read(chat)
            choices = [{"value": c, "label": spec.value_label(tr, locale, c)}
                       for c in spec.choices_for(rules)]
            if value == "":
                choices.insert(0, {"value": "", "label": spec.shown(tr, locale, chat)})
            options.append({"key": spec.key, "label": tr.plain(locale, spec.label),
                            "value": value, "choices": choices})
        out.append({"id": game.name, "name": variant_name(tr, locale, game.name),
                    "line": tr.plain(locale, "local-game-line", variant=game.name),
                    "about": tr.plain(locale, "variant-about", variant=game.name),
                    "players": list(game.players), "options": options,
                    "seats": tr.plain(locale, "local-players", min=game.players[0],
                                      max=game.players[1])})
    return {"games": out, "chosen": str(info.full_rules.get("variant", "classic")),
            "strengths": [{"id": s, "label": strength_word(tr, locale, s)} for s in STRENGTHS]}


@dataclass(frozen=True, slots=True)
class Choice:
    """What the form asks for: the ``game``, its ``options`` (setting key → value, as the
    settings' buttons carry them), ``bots`` computer players of ``strength``, and whether
    to deal at once (``start``) or leave the free seats to people of other tabs."""

    game: str
    options: dict[str, str]
    bots: int
    strength: str
    start: bool

    @classmethod
    def parse(cls, body: Any) -> Choice | None:
        """The choice of a request's JSON body, or None when it is not one."""
        if not isinstance(body, dict):
            return None
        game, options = body.get("game"), body.get("options") or {}
        bots, strength = body.get("bots"), body.get("strength", "normal")
        if game not in {v.name for v in variants()} or strength not in STRENGTHS \
                or not isinstance(options, dict) or type(bots) is not int \
                or not 0 <= bots <= 3:
            return None
        clean = {str(k): str(v) for k, v in options.items()
                 if isinstance(v, str | int) and not isinstance(v, bool)}
        return cls(game, clean, bots, strength, bool(body.get("start", True)))

    def players_fit(self) -> bool:
        """Whether the game seats the tab's person and the computer players (and, dealing at
        once, whether they are enough)."""
        lo, hi = next(v.players for v in variants() if v.name == self.game)
        return 1 + self.bots <= hi and (not self.start or 1 + self.bots >= lo)


async def store_options(app: App, chat_id: int, choice: Choice) -> bool:
    """The group's settings as the form chose them (the game, then its options), as the
    settings' buttons store them; False when an option is not one the game offers."""
    people = app.service.people
    res = await people.update_chat(chat_id, variant=choice.game)
    if not res.ok:
        return False
    info = await people.chat_info(chat_id)
    rules: dict[str, Any] = {}
    options: dict[str, Any] = {}
    language = None
    for key, value in choice.options.items():
        if value == "":
            continue
        try:
            patch = setting(key).parse(value, info.full_rules)
        except (KeyError, ValueError):
            return False
        rules.update(patch.rules)
        options.update(patch.options)
        language = patch.language or language
    if rules or options or language:
        res = await people.update_chat(
            chat_id, rules={**info.full_rules, **rules} if rules else None,
            options=options or None, language=language)
    return res.ok


async def play(app: App, world: World, chat_id: int, user_id: int, choice: Choice
               ) -> Result | str:
    """Open the lobby of ``choice`` in the group as ``user_id`` would in Telegram; the open
    lobby or match (``Result``), or the page's text key of why not."""
    store = app.service.store
    if (await store.find_open(chat_id, None)).ok:
        return "local-err-open"
    if not choice.players_fit():
        return "local-err-players"
    if not await store_options(app, chat_id, choice):
        return "local-err-options"
    state: dict[str, Result] = {}

    async def lobby(seats: int, status: Status = Status.LOBBY) -> bool:
        found = await store.find_open(chat_id, None)
        state["res"] = found
        if not found.ok or found.status != status:
            return False
        return status != Status.LOBBY or len(found.lobby.players) >= seats

    steps = [(f"/newgame {choice.game}", 1)]
    steps += [(f"/addbot {choice.strength}", 2 + n) for n in range(choice.bots)]
    for text, seats in steps:
        world.user_send(user_id, text, chat_id=chat_id)
        if not await until(world, lambda s=seats: lobby(s), STEP_TIMEOUT):
            return "local-err-bot"
    if choice.start:
        world.user_send(user_id, "/startgame", chat_id=chat_id)
        if not await until(world, lambda: lobby(0, Status.PLAYING), STEP_TIMEOUT):
            return "local-err-bot"
    return state["res"]
