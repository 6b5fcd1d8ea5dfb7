"""Who is calling the Mini App: Telegram's signed ``initData`` checked with the bot token, a
maximum age on ``auth_date`` and the match id from the signed ``start_param`` (issue 21).

aiogram's ``safe_parse_webapp_init_data`` checks the signature but not the age, so data dated
1970 passes there; here it does not. The stream (server-sent events) cannot send headers from
the browser's ``EventSource``, so it gets a short-lived token of its own, minted from a checked
``initData``. Stdlib only: ``hmac``/``hashlib`` per https://core.telegram.org/bots/webapps.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

START_PREFIX = "m"  # start_param "m<match id>": Telegram allows [A-Za-z0-9_-]{0,512}
#: A match id as text: ASCII digits only (``str.isdigit`` also takes «²», which ``int``
#: refuses), at most 512 of them as the ``start_param`` is; whether such a match can exist
#: is the caller's question (``handlers.webapp``).
_DIGITS = re.compile(r"[0-9]{1,512}")


class InitDataError(ValueError):
    """``initData`` that is unsigned, forged, tampered, too old or names no match; the
    message is a short reason for logs, never shown with any secret."""


@dataclass(frozen=True, slots=True)
class WebAppCaller:
    """A proven caller: Telegram ``user_id``, their ``language_code`` (may be ``""``), the
    ``match_id`` from the signed ``start_param`` (``None`` when absent) and ``auth_date``
    (Unix seconds)."""

    user_id: int
    language_code: str
    match_id: int | None
    auth_date: int


def _secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """The query string Telegram would hand the page for ``fields`` (values already strings,
    ``user`` a JSON object), with its ``hash``; used by the test Bot API server and tests."""
    digest = hmac.new(_secret(bot_token), _check_string(fields).encode(), hashlib.sha256)
    return urlencode({**fields, "hash": digest.hexdigest()})


def start_param_for(match_id: int) -> str:
    """The ``startapp`` value that opens ``match_id``: ``"m<id>"``."""
    return f"{START_PREFIX}{int(match_id)}"


def verify_init_data(init_data: str, bot_token: str, *, max_age_s: float = 86_400,
                     now: float | None = None) -> WebAppCaller:
    """Check ``init_data`` (the raw query string) and return the caller.

    Raises ``InitDataError`` when the hash is missing or wrong (constant-time compare), when
    ``auth_date`` is missing, in the future by more than a minute or older than ``max_age_s``
    seconds, when ``user`` is missing or has no integer id, or when ``start_param`` is present
    but is not ``m<digits>``.
    """
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError as exc:
        raise InitDataError("malformed") from exc
    given = fields.get("hash", "")
    want = hmac.new(_secret(bot_token), _check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not given or not hmac.compare_digest(given, want):
        raise InitDataError("bad signature")
    now = time.time() if now is None else now
    try:
        auth_date = int(fields["auth_date"])
    except (KeyError, ValueError) as exc:
        raise InitDataError("no auth_date") from exc
    if auth_date > now + 60 or now - auth_date > max_age_s:
        raise InitDataError("expired")
    try:
        user = json.loads(fields["user"])
        user_id = user["id"]
    except (KeyError, ValueError, TypeError, RecursionError) as exc:
        raise InitDataError("no user") from exc
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        raise InitDataError("no user")
    match_id = None
    start = fields.get("start_param")
    if start:
        digits = start[len(START_PREFIX):]
        if not start.startswith(START_PREFIX) or not _DIGITS.fullmatch(digits):
            raise InitDataError("bad start_param")
        match_id = int(digits)
    return WebAppCaller(user_id, str(user.get("language_code") or ""), match_id, auth_date)


def _token_key(bot_token: str) -> bytes:
    return hmac.new(b"KozelStream", bot_token.encode(), hashlib.sha256).digest()


def mint_stream_token(user_id: int, match_id: int, bot_token: str, *, ttl_s: float = 300,
                      now: float | None = None) -> str:
    """A token ``"<user>.<match>.<expiry>.<mac>"`` letting ``user_id`` follow ``match_id``'s
    stream until ``now + ttl_s`` (Unix seconds)."""
    expiry = int((time.time() if now is None else now) + ttl_s)
    body = f"{int(user_id)}.{int(match_id)}.{expiry}"
    mac = hmac.new(_token_key(bot_token), body.encode(), hashlib.sha256).hexdigest()[:32]
    return f"{body}.{mac}"


def check_stream_token(token: str, bot_token: str, *, now: float | None = None
                       ) -> tuple[int, int]:
    """``(user_id, match_id)`` of a token from ``mint_stream_token``; ``InitDataError`` when it
    is malformed, forged or past its expiry."""
    try:
        user, match, expiry, mac = token.split(".")
        body = f"{int(user)}.{int(match)}.{int(expiry)}"
    except ValueError as exc:
        raise InitDataError("malformed token") from exc
    want = hmac.new(_token_key(bot_token), body.encode(), hashlib.sha256).hexdigest()[:32]
    if not hmac.compare_digest(mac, want):
        raise InitDataError("bad token")
    if (time.time() if now is None else now) > int(expiry):
        raise InitDataError("token expired")
    return int(user), int(match)
