"""The game service between the Telegram handlers and the engine (no aiogram).

    from service import GameService, ErrorCode
    svc = await GameService.open("data/kozel.sqlite3")      # migrates; WAL SQLite
    res = await svc.lobbies.open_lobby(chat_id, thread_id, user_id, "Masha")
    res = await svc.lobbies.join(res.match_id, other_id, "Alex")
    res = await svc.lobbies.start(res.match_id, user_id)     # deals (RULES.md §1.2-§1.5)
    res = await svc.play.act(res.match_id, user_id, "1-1", None, res.version)
    if not res.ok and res.error is ErrorCode.STALE: ...      # old keyboard; res has fresh views
    asyncio.create_task(svc.deadlines.run(send_result))      # host moves (§1.17), expiry

Every operation returns a :class:`Result` (``ok``/``error``/``detail`` plus the views after
the change: ``lobby`` or ``table`` for the group, ``hands`` one per seat for private chats,
``events``, ``rounds``, ``final``, ``closed``); an accepted change is committed before it is
returned. No engine value leaves the service: renderers get the views only.
:class:`GameService` builds the rooms and holds them as attributes; callers use the rooms:
``lobbies`` (``open_lobby``, ``join``, ``leave``, ``add_bot``, ``remove_bot``,
``change_variant``, ``start``, ``stop``, ``expire``, ``rematch``, ``open_solo``), ``play``
(``act``, ``host_move``, ``bot_move``), ``leaving`` (``leave``, ``substitute``,
``end_by_timeout``), ``deadlines`` (``fire_due``, ``next_deadline``, ``run``), ``store``
(``view``, ``find_open``, ``open_matches``, ``finished_since``), ``people``
(``register_user``, ``set_dm_open``, ``get_user``, ``chat_info``, ``game_rules``,
``update_chat``), ``messages`` (``load``, ``save``), ``stats`` (issues 12, 15:
``leaderboard`` and ``personal_stats`` per variant and board, people only, the skill rating
beside the points; ``player_boards``, ``history``, ``bot_stats``) and ``records``
(``record``, ``latest``, ``check``).  What spans rooms is the service's own:
``migrate_chat``, ``bot_removed``.  Games (RULES.md §2): ``open_lobby(..., variant=)``,
``open_solo(..., variant=)``, ``change_variant`` in a lobby, ``update_chat(variant=)`` for
a chat's default; :func:`variant_infos` says what each game reads (:class:`VariantInfo`).

Computer players (issue 6, :mod:`service.bots`): ``add_bot``/``remove_bot`` in a lobby,
``open_solo`` for a match in a private chat, ``bot_move`` (called by ``fire_due`` when a
bot's turn, ``bot_move_delay`` seconds long, falls due). A bot seat has a negative user id
and its strength in ``PlayerRef.bot`` / ``SeatView.bot`` / ``PlayerResult.bot``.
See :mod:`service.views` for the result and view types.
"""

# The names are loaded from their modules on first use (PEP 562), so a process that needs
# only the views (a worker drawing table pictures or deciding a computer player's move)
# does not import the rooms, the storage and SQLAlchemy with them: a second less to start.
_WHERE: dict[str, str] = {
    "DEFAULT_HARD_SAMPLES": "service.bots",
    "PERSONAS": "service.bots",
    "PERSONA_GENDERS": "service.bots",
    "STRENGTHS": "service.bots",
    "bot_name": "service.bots",
    "is_bot": "service.bots",
    "DEFAULT_BOT_MOVE_DELAY": "service.game",
    "DEFAULT_LOBBY_TTL": "service.game",
    "GameService": "service.game",
    "TILE_CODES": "service.live",
    "ReplayError": "service.live",
    "variant_infos": "service.live",
    "ActionNote": "service.views",
    "BotStats": "service.views",
    "ChatInfo": "service.views",
    "ChatResult": "service.views",
    "EndReason": "service.views",
    "EndView": "service.views",
    "ErrorCode": "service.views",
    "HandView": "service.views",
    "LaidTile": "service.views",
    "LayoutView": "service.views",
    "LeaderRow": "service.views",
    "LobbyView": "service.views",
    "MatchEnd": "service.views",
    "MoveOption": "service.views",
    "PersonalStats": "service.views",
    "PlacementOption": "service.views",
    "PlayerRef": "service.views",
    "PlayerResult": "service.views",
    "Result": "service.views",
    "RoundSummary": "service.views",
    "SeatView": "service.views",
    "Status": "service.views",
    "TableView": "service.views",
    "UserInfo": "service.views",
    "VariantInfo": "service.views",
}


__all__ = [
    "DEFAULT_BOT_MOVE_DELAY",
    "DEFAULT_HARD_SAMPLES",
    "DEFAULT_LOBBY_TTL",
    "TILE_CODES",
    "PERSONAS",
    "PERSONA_GENDERS",
    "STRENGTHS",
    "ActionNote",
    "BotStats",
    "ChatInfo",
    "ChatResult",
    "EndReason",
    "EndView",
    "ErrorCode",
    "GameService",
    "HandView",
    "LaidTile",
    "LayoutView",
    "LeaderRow",
    "LobbyView",
    "MatchEnd",
    "MoveOption",
    "PersonalStats",
    "PlacementOption",
    "PlayerRef",
    "PlayerResult",
    "ReplayError",
    "Result",
    "RoundSummary",
    "SeatView",
    "Status",
    "TableView",
    "UserInfo",
    "VariantInfo",
    "bot_name",
    "is_bot",
    "variant_infos",
]


def __getattr__(name: str) -> object:
    """``service.GameService`` and the rest of :data:`__all__`, imported when first asked
    for; ``AttributeError`` for any other name."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'service' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
