"""The game service between the Telegram handlers and the engine (no aiogram).

    from service import GameService, ErrorCode
    svc = await GameService.open("data/kozel.sqlite3")
    res = await svc.open_lobby(chat_id, thread_id, user_id, "Masha")
    res = await svc.join(res.match_id, other_id, "Alex")
    res = await svc.start(res.match_id, user_id)
    res = await svc.act(res.match_id, user_id, "1-1", None, res.version)
    if not res.ok and res.error is ErrorCode.STALE: ...   # an old keyboard; res has fresh views

See :mod:`service.views` for the result and view types.
"""

from service.game import DEFAULT_LOBBY_TTL, GameService
from service.live import ReplayError
from service.views import (
    ActionNote,
    ChatInfo,
    ChatResult,
    EndReason,
    ErrorCode,
    HandView,
    LeaderRow,
    LobbyView,
    MatchEnd,
    MoveOption,
    PersonalStats,
    PlayerRef,
    PlayerResult,
    Result,
    RoundSummary,
    SeatView,
    Status,
    TableView,
    UserInfo,
)

__all__ = [
    "DEFAULT_LOBBY_TTL",
    "ActionNote",
    "ChatInfo",
    "ChatResult",
    "EndReason",
    "ErrorCode",
    "GameService",
    "HandView",
    "LeaderRow",
    "LobbyView",
    "MatchEnd",
    "MoveOption",
    "PersonalStats",
    "PlayerRef",
    "PlayerResult",
    "ReplayError",
    "Result",
    "RoundSummary",
    "SeatView",
    "Status",
    "TableView",
    "UserInfo",
]
