"""The people of the local table, and how a browser tab says which of them it is.

A person is a user of the local Telegram (:mod:`localtable.telegram`), like anyone who writes
to the bot: the first one made creates the local group (and so adds the bot to it, as in
Telegram, and may change its settings); every one opens the private chat with the bot
(``/start``), as Telegram asks of a player.  The ids, in the order the people came, are kept
in the table's state (:mod:`localtable.state`), the names and languages in the world's users.

A tab is a person by a token the page was given when it chose (or made) that person: the id
and a signature made with the table's secret (:meth:`People.token`).  The page sends it with
every call (the ``X-Local-Tab`` header); a page of another site cannot read it, nor send the
header without the browser asking this server first, which it never allows.  What the bot
sees of a person is only the local Telegram's updates and the Mini App's ``initData`` the
local Telegram signs with the local token: the bot has no local mode to fool.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

from localtable.state import LocalState
from localtable.telegram.records import User
from localtable.telegram.world import World
from localtable.waits import until
from ui.i18n import Translator, normalize_locale

__all__ = ["FIRST_ID", "People"]

#: The first person's Telegram id (the next ones count up).
FIRST_ID = 5_000_001
#: How long a new person waits for the bot's answer to /start [seconds] (a first start of the
#: bot may still be loading its pictures' process).
START_TIMEOUT = 30.0


class People:
    """The people of ``state`` in ``world``; ``tr`` gives their default names and the group's
    title; ``on_change`` is called when someone new came (the state is saved)."""

    def __init__(self, state: LocalState, world: World, tr: Translator,
                 on_change: Callable[[], None] = lambda: None) -> None:
        self.state = state
        self.world = world
        self.tr = tr
        self.on_change = on_change

    # -- who is who ----------------------------------------------------------------------------

    def all(self) -> list[User]:
        """Every person, first come first."""
        return [self.world.users[i] for i in self.state.people if i in self.world.users]

    def get(self, user_id: int) -> User | None:
        """A person by id, or None."""
        return self.world.users.get(user_id) if user_id in self.state.people else None

    @property
    def group_id(self) -> int | None:
        """The local group (None until the first person made it)."""
        return self.state.group_id

    def token(self, user_id: int) -> str:
        """The tab token that says "this tab is ``user_id``"."""
        return f"{user_id}.{self._mac(user_id)}"

    def check(self, token: str) -> User | None:
        """The person a tab token names, or None for a token this table did not sign."""
        head, _, mac = (token or "").partition(".")
        if not head.isdigit() or not hmac.compare_digest(mac, self._mac(int(head))):
            return None
        return self.get(int(head))

    def _mac(self, user_id: int) -> str:
        key = hashlib.sha256(("tab:" + self.state.secret).encode()).digest()
        return hmac.new(key, str(user_id).encode(), hashlib.sha256).hexdigest()[:32]

    # -- someone new -------------------------------------------------------------------------

    def default_name(self, locale: str) -> str:
        """A first name for the next person, in their language (Аня, Борис, …)."""
        names = [n.strip() for n in self.tr.plain(locale, "local-names").split(",")]
        taken = {u.first_name for u in self.all()}
        for round_ in range(1, 100):
            for name in names:
                candidate = name if round_ == 1 else f"{name} {round_}"
                if candidate not in taken:
                    return candidate
        return f"{names[0]} {len(taken) + 1}"

    async def create(self, name: str | None, language: str | None) -> User:
        """A new person: a user of the local Telegram who opened the private chat with the
        bot (``/start``, waiting for its answer) and is a member of the local group (the first
        person creates it with the bot in it)."""
        locale = normalize_locale(language) or self.tr.default
        world = self.world
        user_id = max([FIRST_ID - 1, *self.state.people]) + 1
        name = (name or "").strip()[:40] or self.default_name(locale)
        world.create_user(user_id, name, language_code=locale)
        self.state.people.append(user_id)
        self.on_change()
        world.user_send(user_id, "/start")
        await until(world, lambda: _answered(world, user_id), START_TIMEOUT)
        if self.state.group_id is None:
            chat = world.create_chat(type="supergroup", title=self.tr.plain(locale,
                                                                            "local-group"),
                                     members=[user_id], creator=user_id, announce=True)
            self.state.group_id = chat["id"]
        else:
            world.set_member(self.state.group_id, user_id, "member")
        self.on_change()
        return world.users[user_id]

    def rename(self, user: User, name: str | None, language: str | None) -> None:
        """Change a person's name or Telegram language (the bot learns them from the next
        update the person sends, as from Telegram)."""
        new_name = (name or "").strip()[:40] or user.first_name
        locale = normalize_locale(language) or user.language_code
        self.world.create_user(user.id, new_name, last_name=user.last_name,
                               username=user.username, language_code=locale)
        self.on_change()


def _answered(world: World, user_id: int) -> bool:
    chat = world.chats.get(user_id)
    return chat is not None and any(m.from_id == world.bot.id for m in chat.messages.values())
