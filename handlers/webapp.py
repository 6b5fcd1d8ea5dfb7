"""The Mini App's HTTP side (issue 21): the page, its state, its moves and its stream.

An aiohttp application served in the bot's process (:func:`create_webapp`; ``handlers.run``
mounts it at ``/webapp/``, on the webhook's server or on a runner of its own in polling mode).
It is as thin as the routers: who calls is proven here, the move goes to the same service
call as a button press, and the result to the same publisher.

- ``GET /webapp/`` (and ``app.js``, ``app.css``): the page (``ui/webapp_static/``).
- ``GET /webapp/api/state?m=<match>``: the page's state (``ui.webapp_view.page_state``: the
  table, plus the caller's own hand when seated) and a stream token.
- ``POST /webapp/api/action`` ``{"m", "version", "placements": [{tile, end, closed,
  along}, …]}``: a move. ``Play.act`` with ``expected_version`` exactly as a press of a
  button in the private chat (``handlers.play``): the same refusals (stale, not your turn,
  not a player, an illegal move), answered 409 with the same localized words
  (``App.error_text``) and the current state; an accepted move is published to the group,
  the private chats and every open page (``Publisher.publish``).
- ``GET /webapp/api/stream?token=…&since=<version>``: server-sent events, one ``state``
  event per newer version, the current state first when the page's ``since`` is not it
  (the page re-syncs by version when it comes back from the background); ``Last-Event-ID``
  counts as ``since``.  The page falls back to polling the state when the stream fails.
  A page whose stream is open counts as watching the match (``delivery.pages``): its
  person's hand message waits for the page to close (issue 33); the stream notices a page
  that went away within :data:`PROBE` seconds.

On a worker of a cluster (docs/SCALE_OUT.md) the page may reach any worker: a move is stored
in the inbox and made by the owner of the match's chat, like an update (:func:`_via_owner`,
:func:`perform`); the state and the stream read the match as the database has it, and a
stream's newer states are read from the database every quarter second (:func:`follow`)
besides those this worker's publisher pushes.

Every call but the stream proves its caller with Telegram's signed ``initData`` in the
``Authorization: tma <initData>`` header (``delivery.initdata.verify_init_data``: the bot
token's signature and a maximum age, ``WEBAPP_MAX_AGE``); the stream, which a browser's
``EventSource`` opens without headers, with the short-lived token the state call minted.
The match comes from the signed ``start_param`` (``m<id>``, the group's direct link);
without one (the private chat's ``web_app`` button, whose ``initData`` carries none) from the
``m`` parameter, and then only for a player of that match.  A spectator sees the table and
never a hand; a player only their own.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp import web

from delivery.app import App
from delivery.initdata import (
    InitDataError,
    WebAppCaller,
    check_stream_token,
    mint_stream_token,
    verify_init_data,
)
from delivery.pages import Pages
from service.views import ErrorCode, MoveOption, PlacementOption, Result
from ui.callbacks import target_code, target_fields

log = logging.getLogger(__name__)

__all__ = ["STATIC", "STREAM_TTL", "KEEP_ALIVE", "PROBE", "WEBAPP_ACTION", "action_id",
           "create_webapp", "follow", "perform"]

#: The page's files.
STATIC = Path(__file__).resolve().parents[1] / "ui" / "webapp_static"
#: How long a stream token lets a page (re)connect its stream [seconds].
STREAM_TTL = 300.0
#: A comment line on a quiet stream this often, so proxies keep it open [seconds].
KEEP_ALIVE = 15.0
#: How often a quiet stream looks whether its page went away [seconds]: a closed page's
#: private chat is brought up to date once it has gone (``delivery.pages``, issue 33).
PROBE = 1.0
#: The key of a Mini App action in an inbox row's payload (a worker of a cluster).
WEBAPP_ACTION = "webapp_action"
_ENDS = {None, "left", "right", "up", "down", "gap"}
#: The ``m`` parameter: a match id in ASCII digits, ``m`` before them allowed.
_MATCH = re.compile(r"m?([0-9]{1,512})")
#: The largest id a match may have (the database's signed 64-bit integers).
MAX_ID = 2**63 - 1
_FILES = {"": ("index.html", "text/html"), "app.js": ("app.js", "application/javascript"),
          "app.css": ("app.css", "text/css")}

APP_KEY = web.AppKey("kozel_app", App)
PAGES_KEY = web.AppKey("kozel_pages", Pages)
TOKEN_KEY = web.AppKey("kozel_token", str)
AGE_KEY = web.AppKey("kozel_max_age", float)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status,
                             dumps=lambda d: json.dumps(d, ensure_ascii=False),
                             headers={"Cache-Control": "no-store"})


def _caller(request: web.Request) -> WebAppCaller:
    """The caller of ``request`` from its ``Authorization: tma <initData>`` header; raises
    ``web.HTTPUnauthorized`` (JSON body) for missing, forged, tampered or expired data."""
    header = request.headers.get("Authorization", "")
    scheme, _, init_data = header.partition(" ")
    if scheme.lower() != "tma" or not init_data:
        raise web.HTTPUnauthorized(text='{"error": "auth", "reason": "no initData"}',
                                   content_type="application/json")
    try:
        caller = verify_init_data(init_data, request.app[TOKEN_KEY],
                                  max_age_s=request.app[AGE_KEY])
    except InitDataError as exc:
        raise web.HTTPUnauthorized(
            text=json.dumps({"error": "auth", "reason": str(exc)}),
            content_type="application/json") from exc
    return caller


def _match_of(caller: WebAppCaller, given: Any) -> tuple[int, bool]:
    """``(match id, signed)``: the signed ``start_param``'s match, else ``given`` (the ``m``
    parameter, unsigned: ASCII digits, ``m`` before them allowed). Raises
    ``web.HTTPBadRequest`` when there is neither, ``web.HTTPNotFound`` for an id no match can
    have (the database holds signed 64-bit integers)."""
    if caller.match_id is not None:
        match_id, signed = caller.match_id, True
    else:
        text = given if isinstance(given, str | int) and not isinstance(given, bool) else ""
        match = _MATCH.fullmatch(str(text))
        if match is None:
            raise web.HTTPBadRequest(text='{"error": "no_match"}',
                                     content_type="application/json")
        match_id, signed = int(match.group(1)), False
    if not 0 < match_id <= MAX_ID:  # no match has it, and the database could not hold it
        raise web.HTTPNotFound(text='{"error": "not_found"}', content_type="application/json")
    return match_id, signed


async def _locale(app: App, caller: WebAppCaller) -> str:
    """The caller's language as in the private chat: their /lang choice, else Telegram's."""
    await app.languages.remember_code(caller.user_id, caller.language_code)
    return await app.languages.of_user(caller.user_id)


async def _view(request: web.Request, caller: WebAppCaller, given: Any
                ) -> tuple[int, Result]:
    """The match the caller may look at and its current views; 404 for no started match,
    403 for an unsigned match id of a match the caller does not play in."""
    app = request.app[APP_KEY]
    match_id, signed = _match_of(caller, given)
    res = await app.service.store.view(match_id, fresh=app.cluster is not None)
    if not res.ok or res.table is None:
        raise web.HTTPNotFound(text='{"error": "not_found"}', content_type="application/json")
    if not signed and res.hand_for(caller.user_id) is None:
        raise web.HTTPForbidden(text='{"error": "not_in_game"}', content_type="application/json")
    return match_id, res


async def page(request: web.Request) -> web.StreamResponse:
    """The page's files (no secret in them: the page asks for its state itself)."""
    name, kind = _FILES[request.match_info.get("name", "")]
    return web.FileResponse(STATIC / name, headers={"Content-Type": kind,
                                                    "Cache-Control": "no-cache"})


async def state(request: web.Request) -> web.Response:
    """``GET api/state?m=``: ``{"state": page_state, "token": stream token}``."""
    app = request.app[APP_KEY]
    caller = _caller(request)
    match_id, res = await _view(request, caller, request.query.get("m"))
    locale = await _locale(app, caller)
    pages = request.app[PAGES_KEY]
    token = mint_stream_token(caller.user_id, match_id, request.app[TOKEN_KEY], ttl_s=STREAM_TTL)
    return _json({"state": pages.state_for(res, caller.user_id, locale), "token": token})


def _placements(body: dict[str, Any]) -> MoveOption | None:
    """The move of an action's body, or None when it is malformed (not 1–4 placements of a
    tile code and a known end)."""
    given = body.get("placements")
    if not isinstance(given, list) or not 1 <= len(given) <= 4:
        return None
    out = []
    for p in given:
        if not isinstance(p, dict) or not isinstance(p.get("tile"), str) \
                or p.get("end") not in _ENDS or len(p["tile"]) > 8:
            return None
        target: dict[str, Any] = {}
        if p.get("to") is not None:  # on the trains or the sausage (RULES.md §2.10.0)
            try:
                target = target_fields(p["to"])
            except ValueError:
                return None
        out.append(PlacementOption(p["tile"], p.get("end"), bool(p.get("closed")),
                                   bool(p.get("along")), **target))
    if len(out) > 1 and any(p.train is not None or p.line is not None or p.cut is not None
                            for p in out):
        return None  # one placement a decision there
    first, *more = out
    return MoveOption.of(first, tuple(more))


def _refused(app: App, pages: Pages, locale: str, user_id: int, signed: bool,
             res: Result) -> web.Response:
    """The answer to a move the service refused, with the state the refusal carries: 404
    for no started match, 403 for a caller who named the match themselves (an unsigned
    ``m``) and plays no seat in it, else 409 with the same words as a button's alert."""
    if res.table is None:
        raise web.HTTPNotFound(text='{"error": "not_found"}', content_type="application/json")
    if not signed and res.hand_for(user_id) is None:
        raise web.HTTPForbidden(text='{"error": "not_in_game"}', content_type="application/json")
    return _json({"ok": False, "error": str(res.error), "reason": app.error_text(locale, res),
                  "state": pages.state_for(res, user_id, locale)}, status=409)


async def action(request: web.Request) -> web.Response:
    """``POST api/action``: a move, through ``Play.act`` as a button press, which reads the
    match once. 200 ``{"ok": true, "state"}``; 409 ``{"ok": false, "error", "reason",
    "state"}`` for a refusal (nothing changed; 404 and 403 as for the state); 400 for a
    malformed body.  On a worker of a cluster the move goes the way of an update, to the
    owner of the match's chat (:func:`_via_owner`)."""
    app = request.app[APP_KEY]
    caller = _caller(request)
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past any use
        body = None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text='{"error": "bad_body"}', content_type="application/json")
    match_id, signed = _match_of(caller, body.get("m"))
    locale = await _locale(app, caller)
    pages = request.app[PAGES_KEY]
    version = body.get("version")
    move = _placements(body)
    if move is None or not isinstance(version, int) or isinstance(version, bool):
        return _json({"ok": False, "error": str(ErrorCode.BAD_MOVE),
                      "reason": app.error_text(locale, Result(False, ErrorCode.BAD_MOVE))},
                     status=400)
    app.service.metrics.updates_received.labels("page").inc()
    if app.cluster is not None:
        return await _via_owner(app, pages, locale, caller.user_id, match_id, version, move,
                                signed)
    res = await app.service.play.act(match_id, caller.user_id, move, None, version)
    if not res.ok:
        return _refused(app, pages, locale, caller.user_id, signed, res)
    await app.publish(res)
    return _json({"ok": True, "state": pages.state_for(res, caller.user_id, locale)})


def _placement_dicts(move: MoveOption) -> list[dict[str, Any]]:
    return [{"tile": p.tile, "end": p.end, "closed": p.closed, "along": p.along,
             **({"to": target_code(p)} if move.targeted else {})}
            for p in move.placements]


def action_id(user_id: int, match_id: int, version: int, placements: list[dict[str, Any]]
              ) -> int:
    """The inbox key of a Mini App action: negative (Telegram's ``update_id`` are
    positive), 62 bits of a hash of who moves what at which version.  A page that sends the
    same move again (a retry after a lost answer) gets the same key, so the move is stored
    and made once, and the retry is answered with the first one's outcome."""
    text = json.dumps([user_id, match_id, version, placements], sort_keys=True)
    return -(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2) - 1


async def _via_owner(app: App, pages: Pages, locale: str, user_id: int, match_id: int,
                     version: int, move: MoveOption, signed: bool) -> web.Response:
    """A move from a page on a worker of a cluster: stored in the inbox, routed to the
    match's chat (:meth:`service.cluster.Cluster.submit`), made by that chat's owner
    (:func:`perform`, in order with the chat's updates, its change committed with its done
    mark), and answered here from its outcome with the state the database has now (the one
    read of the match here).  503 ``{"ok": false, "error": "busy"}`` when no owner made it
    within the lease and 5 s (the page may send it again: it is stored once)."""
    cluster = app.cluster
    chat_id = await cluster.match_chat(match_id)
    if chat_id is None:
        raise web.HTTPNotFound(text='{"error": "not_found"}', content_type="application/json")
    placements = _placement_dicts(move)
    key = action_id(user_id, match_id, version, placements)
    payload = {"update_id": key, WEBAPP_ACTION: {
        "m": match_id, "user": user_id, "version": version, "placements": placements}}
    outcome = await cluster.submit(key, int(chat_id), payload, timeout=cluster.lease + 5.0)
    now = await app.service.store.view(match_id, fresh=True)
    if outcome is None:
        state = pages.state_for(now, user_id, locale) if now.table is not None else None
        return _json({"ok": False, "error": "busy", "state": state,
                      "reason": app.error_text(locale, Result(False, None))}, status=503)
    if outcome.get("ok", True):
        return _json({"ok": True, "state": pages.state_for(now, user_id, locale)})
    try:
        error = ErrorCode(outcome.get("error"))
    except ValueError:
        error = None
    return _refused(app, pages, locale, user_id, signed, replace(now, ok=False, error=error))


async def perform(app: App, action: dict[str, Any]) -> dict[str, Any]:
    """The owner of a match's chat makes a Mini App move stored by :func:`_via_owner`
    (``handlers.cluster.feeder``): ``Play.act`` as a button press, published when
    accepted.  Returns the outcome stored with it: ``{"ok": True}`` or ``{"ok": False,
    "error": code}``."""
    move = _placements(action)
    if move is None:
        return {"ok": False, "error": str(ErrorCode.BAD_MOVE)}
    res = await app.service.play.act(int(action["m"]), int(action["user"]), move, None,
                                     int(action["version"]))
    if not res.ok:
        return {"ok": False, "error": str(res.error)}
    await app.publish(res)
    return {"ok": True}


async def follow(app: App, pages: Pages, *, every: float = 0.25) -> None:
    """On a worker of a cluster, until cancelled: every ``every`` seconds read the versions
    of the matches open pages follow here, and push the newer ones to them (the owner of a
    match's chat may be another worker, whose publisher alone sees its moves)."""
    while True:
        await asyncio.sleep(every)
        wanted = pages.following()
        if not wanted:
            continue
        try:
            for match_id, version in (await app.cluster.versions(list(wanted))).items():
                if version > wanted[match_id]:
                    pages.push(await app.service.store.view(match_id, fresh=True))
        except Exception:
            log.exception("following the pages' matches failed")


async def _following(web_app: web.Application):
    """The aiohttp cleanup context that runs :func:`follow` beside the Mini App."""
    task = asyncio.create_task(follow(web_app[APP_KEY], web_app[PAGES_KEY]))
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def _event(state: dict[str, Any]) -> bytes:
    data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
    return f"id: {state['version']}\nevent: state\ndata: {data}\n\n".encode()


async def stream(request: web.Request) -> web.StreamResponse:
    """``GET api/stream?token=&since=``: server-sent events of this caller's states."""
    app = request.app[APP_KEY]
    try:
        user_id, match_id = check_stream_token(request.query.get("token", ""),
                                               request.app[TOKEN_KEY])
    except InitDataError as exc:
        raise web.HTTPUnauthorized(text=json.dumps({"error": "auth", "reason": str(exc)}),
                                   content_type="application/json") from exc
    since_text = request.headers.get("Last-Event-ID") or request.query.get("since", "-1")
    try:
        since = int(since_text)
    except ValueError:
        since = -1
    locale = await app.languages.of_user(user_id)
    pages = request.app[PAGES_KEY]
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
    await response.prepare(request)
    page_ = pages.open(match_id, user_id, locale, since)
    try:
        res = await app.service.store.view(match_id, fresh=app.cluster is not None)
        if res.ok and res.table is not None and res.table.version != since:
            page_.version = -1
            page_.offer(pages.state_for(res, user_id, locale))
        await response.write(b"retry: 1000\n\n")
        quiet = 0.0
        while True:
            state_ = await page_.next(PROBE)
            if state_ is not None:
                await response.write(_event(state_))
                quiet = 0.0
                continue
            if request.transport is None or request.transport.is_closing():
                break  # the page went away
            quiet += PROBE
            if quiet >= KEEP_ALIVE:
                await response.write(b": keep-alive\n\n")
                quiet = 0.0
    except (ConnectionResetError, RuntimeError):  # the page went away
        pass
    finally:
        pages.close(page_)
    return response


def _reason(exc: web.HTTPException) -> str:
    """What a refusal says (its JSON ``error`` and ``reason``), for the log."""
    try:
        body = json.loads(exc.text or "{}")
    except ValueError:
        return exc.reason
    if not isinstance(body, dict):
        return exc.reason
    return " ".join(str(body[k]) for k in ("error", "reason") if body.get(k)) or exc.reason


@web.middleware
async def _one_line(request: web.Request, handler) -> web.StreamResponse:
    """Every request the page's server refuses, or fails on, is answered — 4xx for what the
    caller sent, 500 for a fault of ours, never a traceback — and leaves one line in the log
    (issue 30 item 14): aiohttp's access line (method, path, status) at INFO; why a request
    was refused only at DEBUG, so as not to make it two; a fault of ours one ERROR line with
    where it happened instead of a traceback.  Never the ``initData`` nor a token."""
    where = f"{request.method} {request.path}"
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        if exc.status >= 400:
            log.debug("webapp %s: %s %s", where, exc.status, _reason(exc))
        raise
    except (asyncio.CancelledError, ConnectionResetError):
        raise
    except Exception as exc:  # a fault of ours: one line with where it happened
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        log.error("webapp %s: 500 %s: %s (%s:%s)", where, type(exc).__name__,
                  str(exc)[:200], Path(frame.filename).name, frame.lineno)
        return _json({"error": "server"}, status=500)
    if response.status >= 400 and not response.prepared:
        log.debug("webapp %s: %s", where, response.status)
    return response


def create_webapp(app: App, pages: Pages, bot_token: str, *, max_age_s: float = 86_400
                  ) -> web.Application:
    """The Mini App's aiohttp application for the bot's ``app`` (mount it at ``/webapp/``);
    ``pages`` must be among ``app.publisher.listeners`` (``Pages.push``)."""
    web_app = web.Application(middlewares=[_one_line])
    web_app[APP_KEY] = app
    web_app[PAGES_KEY] = pages
    web_app[TOKEN_KEY] = bot_token
    web_app[AGE_KEY] = float(max_age_s)
    r = web_app.router
    r.add_get("/", page)
    r.add_get("/{name:app\\.(?:js|css)}", page)
    r.add_get("/api/state", state)
    r.add_post("/api/action", action)
    r.add_get("/api/stream", stream)
    if app.cluster is not None:
        web_app.cleanup_ctx.append(_following)
    return web_app

