"""The local table's page: ``http://127.0.0.1:<port>/``, an aiohttp application beside the bot.

What a tab shows: the local group's and the person's private chat's messages as Telegram
shows them (:mod:`localtable.chats`), pressable and writable; the Mini App's page in the
middle (the bot's own, ``handlers.webapp``, mounted at ``/webapp/``, opened with ``initData``
the local Telegram signs for the tab's person); and, while no match is open, the new game's
form (:mod:`localtable.choose`).

- ``GET /``, ``/static/…``: the page (``localtable/static/``); ``GET /files/<id>``: a photo or
  a file a message shows.
- ``GET /api/hello``: the people, to choose who the tab is; ``POST /api/tab``
  ``{"person": id}`` or ``{"new": true, "name", "language"}``: the tab's token
  (:mod:`localtable.people`), sent from then on as ``X-Local-Tab``.
- ``GET /api/view?since=<etag>``: what the tab shows, when it differs from ``since``
  (a long poll: it answers at a change of the local Telegram, or after :data:`POLL` seconds).
- ``POST /api/send`` ``{"chat": "group"|"private", "text"}``, ``/api/press`` ``{"chat",
  "message", "row", "column"}`` (the bot's answer to the press comes back),
  ``/api/link`` ``{"url"}`` (a ``t.me`` start link), ``/api/me`` ``{"name", "language"}``.
- ``GET /api/games``, ``POST /api/newgame``: the form and its choice.
- ``GET /api/miniapp?m=<match>`` (or ``start=m<match>``): the Mini App's address for the tab.

It listens on 127.0.0.1 only and answers only requests addressed to it by that name (or
``localhost``), so no other site can reach it through a name of its own; a request that
changes something must come from the page itself (its ``Origin``, and the tab's token in a
header no other site can send).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Any

from aiohttp import web

from delivery.app import App
from handlers.webapp import STATIC as MINI_APP_STATIC
from localtable.chats import chat_view
from localtable.choose import Choice, games, play
from localtable.people import People
from localtable.telegram.records import ControlError, User
from localtable.telegram.world import World
from localtable.waits import until
from service.views import Result, Status
from ui.i18n import SUPPORTED_LOCALES, normalize_locale

__all__ = ["POLL", "STATIC", "LocalTable", "create_page"]

log = logging.getLogger(__name__)

#: The page's files.
STATIC = Path(__file__).resolve().parent / "static"
#: How long a view waits for a change before it answers unchanged [seconds].
POLL = 25.0
#: How long a press waits for the bot's answer [seconds].
ANSWER_TIMEOUT = 10.0
#: The page's words (``local-<name>`` in ``locales/*/local.ftl``).
LABELS = ("title", "badge", "banner", "you", "new-person", "new-tab", "who", "group-tab",
          "private-tab", "table-tab", "write", "send", "commands", "edited", "new-game",
          "game", "options", "opponents", "computers", "strength", "wait-people", "deal",
          "open-lobby", "lobby-open", "rules", "file", "ok", "bot", "private-match",
          "no-match", "name", "language", "offline", "spectating", "miniapp")
_FILES = {"local.js": "application/javascript", "local.css": "text/css",
          "telegram-web-app.js": "application/javascript", "favicon.svg": "image/svg+xml"}
_TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"

class LocalTable:
    """What the page works with: the bot's ``app``, the local Telegram's ``world``, the
    ``people`` and the ``port`` the page is served on."""

    def __init__(self, app: App, world: World, people: People, port: int) -> None:
        self.app = app
        self.world = world
        self.people = people
        self.port = port
        self.closing = False

    @property
    def origins(self) -> tuple[str, ...]:
        return (f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}")

    def locale_of(self, user: User | None, request: web.Request | None = None) -> str:
        """The page's language for a person (their Telegram language), or for a tab that is
        nobody yet (the browser's)."""
        if user is not None:
            return normalize_locale(user.language_code) or self.app.default_locale
        for part in (request.headers.get("Accept-Language", "") if request else "").split(","):
            found = normalize_locale(part.split(";")[0].strip())
            if found:
                return found
        return self.app.default_locale

    def labels(self, locale: str) -> dict[str, str]:
        tr = self.app.tr
        return {k: tr.plain(locale, f"local-{k}") for k in LABELS}

    async def match_of(self, user: User) -> Result | None:
        """The match the tab follows: the group's open lobby or match, else the person's
        own open match in private."""
        store = self.app.service.store
        if self.people.group_id is not None:
            found = await store.find_open(self.people.group_id, None)
            if found.ok:
                return found
        for res in await store.open_matches(user.id):
            if res.ok and (res.table or res.lobby) and \
                    (res.table or res.lobby).chat_id == user.id:
                return res
        return None

    async def view(self, user: User) -> dict[str, Any]:
        """Everything the tab of ``user`` shows."""
        world, locale = self.world, self.locale_of(user)
        res = await self.match_of(user)
        match = None
        if res is not None:
            where = (res.table or res.lobby).chat_id
            match = {"id": res.match_id, "status": str(res.status),
                     "where": "private" if where == user.id else "group",
                     "seated": res.hand_for(user.id) is not None or (
                         res.lobby is not None and
                         any(p.user_id == user.id for p in res.lobby.players))}
        group = chat_view(world, self.people.group_id)
        group["subtitle"] = self.app.tr.plain(locale, "local-members", count=group["members"])
        return {
            "me": {"id": user.id, "name": user.first_name, "language": locale},
            "people": [{"id": u.id, "name": u.first_name} for u in self.people.all()],
            "labels": self.labels(locale),
            "locales": list(SUPPORTED_LOCALES),
            "bot": {"name": world.bot.first_name, "username": world.bot.username},
            "group": group,
            "private": chat_view(world, user.id),
            "commands": {"group": self._commands("all_group_chats", locale),
                         "private": self._commands("all_private_chats", locale)},
            "match": match,
        }

    def _commands(self, scope: str, locale: str) -> list[dict[str, str]]:
        key = json.dumps({"type": scope}, sort_keys=True)
        found = self.world.commands.get((key, locale)) or self.world.commands.get((key, ""))
        return list(found or [])


TABLE_KEY = web.AppKey("local_table", LocalTable)


# -- the checks --------------------------------------------------------------------------------


@web.middleware
async def _only_here(request: web.Request, handler) -> web.StreamResponse:
    """Only requests addressed to this server by its own name; a change only from its own
    pages."""
    table: LocalTable = request.app[TABLE_KEY]
    hosts = {o.split("//", 1)[1] for o in table.origins}
    if request.host not in hosts:
        return web.Response(status=421, text="this server answers 127.0.0.1 only")
    origin = request.headers.get("Origin")
    if request.method not in ("GET", "HEAD") and origin is not None \
            and origin not in table.origins:
        return web.Response(status=403, text="not from this page")
    return await handler(request)


def _person(request: web.Request) -> User:
    table: LocalTable = request.app[TABLE_KEY]
    user = table.people.check(request.headers.get("X-Local-Tab", ""))
    if user is None:
        raise web.HTTPUnauthorized(text='{"error": "tab"}', content_type="application/json")
    return user


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text='{"error": "body"}', content_type="application/json")
    return body


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"},
                             dumps=lambda d: json.dumps(d, ensure_ascii=False))


# -- the page and its files --------------------------------------------------------------------


async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name not in _FILES:
        raise web.HTTPNotFound()
    return web.FileResponse(STATIC / name, headers={"Content-Type": _FILES[name],
                                                    "Cache-Control": "no-cache"})


async def favicon(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "favicon.svg", headers={"Content-Type": "image/svg+xml"})


async def mini_app_page(request: web.Request) -> web.Response:
    """The Mini App's page as the bot serves it, with the local stand-in for Telegram's
    script (the local table has no network, and a tab is no Telegram client)."""
    html = (MINI_APP_STATIC / "index.html").read_text("utf-8")
    html = html.replace(_TELEGRAM_JS, "/static/telegram-web-app.js")
    return web.Response(text=html, content_type="text/html",
                        headers={"Cache-Control": "no-cache"})


async def file(request: web.Request) -> web.Response:
    """A photo or a file the local Telegram keeps (by its id, as a message shows it)."""
    world = request.app[TABLE_KEY].world
    file_id = request.match_info["file_id"]
    try:
        data = world.file_data(file_id)
    except ControlError as exc:
        raise web.HTTPNotFound() from exc
    doc = world.documents.get(file_id)
    headers = {"Cache-Control": "max-age=3600"}
    if doc is not None:
        safe = re.sub(r"[^\w.-]", "_", doc.file_name) or "file"
        headers["Content-Disposition"] = f'attachment; filename="{safe}"'
        return web.Response(body=data, content_type=doc.mime_type, headers=headers)
    kind = "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"
    return web.Response(body=data, content_type=kind, headers=headers)


# -- who the tab is ----------------------------------------------------------------------------


async def hello(request: web.Request) -> web.Response:
    table: LocalTable = request.app[TABLE_KEY]
    locale = table.locale_of(None, request)
    return _json({"people": [{"id": u.id, "name": u.first_name} for u in table.people.all()],
                  "labels": table.labels(locale), "language": locale})


async def tab(request: web.Request) -> web.Response:
    """The tab becomes a person: one of the people, or a new one."""
    table: LocalTable = request.app[TABLE_KEY]
    body = await _body(request)
    if body.get("new"):
        language = body.get("language") if isinstance(body.get("language"), str) else None
        name = body.get("name") if isinstance(body.get("name"), str) else None
        user = await table.people.create(name, language or table.locale_of(None, request))
    else:
        person = body.get("person")
        user = table.people.get(person) if type(person) is int else None
        if user is None:
            raise web.HTTPNotFound(text='{"error": "person"}', content_type="application/json")
    return _json({"token": table.people.token(user.id), "person": user.id})


async def me(request: web.Request) -> web.Response:
    table: LocalTable = request.app[TABLE_KEY]
    user = _person(request)
    body = await _body(request)
    name, language = body.get("name"), body.get("language")
    table.people.rename(user, name if isinstance(name, str) else None,
                        language if isinstance(language, str) else None)
    return _json({"ok": True})


# -- what the tab shows ------------------------------------------------------------------------


async def view(request: web.Request) -> web.Response:
    """The tab's view once it differs from ``since`` (or after :data:`POLL` seconds)."""
    table: LocalTable = request.app[TABLE_KEY]
    user = _person(request)
    since = request.query.get("since", "")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + POLL
    while True:
        seen = table.world.version
        data = await table.view(user)
        etag = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:20]
        left = deadline - loop.time()
        if etag != since or left <= 0 or table.closing:
            return _json({"etag": etag, **data})
        await table.world.wait_change(seen, left)
        await asyncio.sleep(0.02)  # a burst of changes (a move: its edits) as one answer


# -- what the person does ----------------------------------------------------------------------


def _chat_id(table: LocalTable, user: User, which: Any) -> int:
    if which == "private":
        return user.id
    if which == "group" and table.people.group_id is not None:
        return table.people.group_id
    raise web.HTTPBadRequest(text='{"error": "chat"}', content_type="application/json")


async def send(request: web.Request) -> web.Response:
    """The person writes in the group or in the private chat."""
    table: LocalTable = request.app[TABLE_KEY]
    user = _person(request)
    body = await _body(request)
    text = body.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > 4096:
        raise web.HTTPBadRequest(text='{"error": "text"}', content_type="application/json")
    try:
        table.world.user_send(user.id, text.strip(), chat_id=_chat_id(table, user,
                                                                       body.get("chat")))
    except ControlError as exc:
        return _json({"ok": False, "reason": str(exc)}, status=409)
    return _json({"ok": True})


async def press(request: web.Request) -> web.Response:
    """The person presses a button; the bot's answer (its text, alert or link) comes back
    once the bot gave it."""
    table: LocalTable = request.app[TABLE_KEY]
    world = table.world
    user = _person(request)
    body = await _body(request)
    row, column, message = body.get("row"), body.get("column"), body.get("message")
    if not all(type(v) is int for v in (row, column, message)):
        raise web.HTTPBadRequest(text='{"error": "button"}', content_type="application/json")
    try:
        pressed = world.user_press(user.id, _chat_id(table, user, body.get("chat")), message,
                                   index=[row, column])
    except ControlError as exc:
        return _json({"ok": False, "reason": str(exc)}, status=409)
    query = world.queries.get(pressed.get("query_id") or "")
    if query is None:
        return _json({"ok": True, "url": pressed.get("url")})
    await until(world, lambda: query.answer is not None, ANSWER_TIMEOUT)
    answer = query.answer or {}
    url = answer.get("url")
    if url:
        world.follow_link(user.id, url)
    return _json({"ok": True, "text": answer.get("text"),
                  "alert": bool(answer.get("show_alert")), "url": url})


async def link(request: web.Request) -> web.Response:
    """A ``t.me`` start link of the bot, opened: ``/start <payload>`` in private."""
    table: LocalTable = request.app[TABLE_KEY]
    user = _person(request)
    url = (await _body(request)).get("url")
    try:
        table.world.follow_link(user.id, str(url))
    except ControlError as exc:
        return _json({"ok": False, "reason": str(exc)}, status=409)
    return _json({"ok": True})


# -- a new game and the Mini App ---------------------------------------------------------------


async def game_form(request: web.Request) -> web.Response:
    table: LocalTable = request.app[TABLE_KEY]
    user = _person(request)
    if table.people.group_id is None:
        raise web.HTTPConflict(text='{"error": "no group"}', content_type="application/json")
    return _json(await games(table.app, table.people.group_id, table.locale_of(user)))


async def new_game(request: web.Request) -> web.Response:
    table: LocalTable = request.app[TABLE_KEY]
    user = _person(request)
    choice = Choice.parse(await _body(request))
    if choice is None or table.people.group_id is None:
        raise web.HTTPBadRequest(text='{"error": "choice"}', content_type="application/json")
    res = await play(table.app, table.world, table.people.group_id, user.id, choice)
    if isinstance(res, str):
        return _json({"ok": False, "reason": table.app.tr.plain(table.locale_of(user), res)},
                     status=409)
    return _json({"ok": True, "match": res.match_id, "status": str(res.status)})


async def mini_app(request: web.Request) -> web.Response:
    """The Mini App's address for the tab's person and a match: as the private chat's button
    opens it for a player of the match (``?m=``), as the group's link opens it for anyone
    else (the match in the signed ``start_param``)."""
    table: LocalTable = request.app[TABLE_KEY]
    user = _person(request)
    given = request.query.get("m") or request.query.get("start", "").removeprefix("m")
    if not given.isdigit() or len(given) > 18:
        raise web.HTTPBadRequest(text='{"error": "match"}', content_type="application/json")
    res = await table.app.service.store.view(int(given))
    if not res.ok or res.table is None:
        raise web.HTTPNotFound(text='{"error": "match"}', content_type="application/json")
    seated = res.hand_for(user.id) is not None
    signed = table.world.webapp_init_data(user.id, start_param=None if seated
                                          else f"m{res.match_id}")
    return _json({"match": res.match_id, "query": f"?m={res.match_id}" if seated else "",
                  "init_data": signed["init_data"], "seated": seated,
                  "finished": res.status not in (Status.LOBBY, Status.PLAYING)})


def create_page(table: LocalTable, mini: web.Application | None) -> web.Application:
    """The page's aiohttp application (the Mini App's ``mini`` mounted at ``/webapp/``)."""
    root = web.Application(middlewares=[_only_here])
    root[TABLE_KEY] = table
    r = root.router
    r.add_get("/", index)
    r.add_get("/static/{name}", static)
    r.add_get("/favicon.svg", favicon)
    r.add_get("/favicon.ico", favicon)
    r.add_get("/files/{file_id}", file)
    r.add_get("/api/hello", hello)
    r.add_post("/api/tab", tab)
    r.add_post("/api/me", me)
    r.add_get("/api/view", view)
    r.add_post("/api/send", send)
    r.add_post("/api/press", press)
    r.add_post("/api/link", link)
    r.add_get("/api/games", game_form)
    r.add_post("/api/newgame", new_game)
    r.add_get("/api/miniapp", mini_app)
    if mini is not None:
        r.add_get("/webapp/", mini_app_page)
        root.add_subapp("/webapp/", mini)
    return root

