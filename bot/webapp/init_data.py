"""Telegram's ``initData``: who opened the Mini App, proved by the bot token.

Telegram hands the page a query string (``query_id``, ``user``, ``auth_date``, ``hash`` ...)
and the page sends it with every request. Following Telegram's documentation
(https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app), the
data-check string is every field but ``hash``, sorted by key, as ``key=value`` lines; the key is
HMAC-SHA256 of the bot token keyed with ``"WebAppData"``; ``hash`` is the hex HMAC-SHA256 of the
string under that key. It is compared in constant time, and ``auth_date`` must be recent.

``sign_init_data`` is the same computation from the other side, for tests and the screenshot.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl, urlencode

from bot.webapp.webapp_errors import WebAppError

MAX_INIT_DATA_CHARS: Final = 8192  # real ones are well under 1 KB; anything larger is refused
_KEY_SALT: Final = b"WebAppData"
_CLOCK_SKEW_SECONDS: Final = 60  # an auth_date this far in the future is still taken


class InitDataRefused(WebAppError):
    """The ``initData`` is missing, malformed, forged, signed for another bot, or stale.

    The reason is for logs; the page is told only 401.
    """


@dataclass(frozen=True)
class WebAppUser:
    """The Telegram user the ``initData`` was issued to."""

    id: int
    language_code: str | None
    auth_date: int


def _secret_key(bot_token: str) -> bytes:
    return hmac.new(_KEY_SALT, bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> bytes:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields)).encode()


def verify_init_data(raw: str, *, bot_token: str, now: float, max_age: float) -> WebAppUser:
    """The user behind ``raw`` when Telegram signed it for ``bot_token`` no more than
    ``max_age`` seconds before ``now``; ``InitDataRefused`` otherwise."""
    if not raw:
        raise InitDataRefused("no initData")
    if len(raw) > MAX_INIT_DATA_CHARS:
        raise InitDataRefused("initData too long")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise InitDataRefused("initData is not a query string") from exc
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataRefused("a field is repeated")
    given = fields.pop("hash", "")
    expected = hmac.new(_secret_key(bot_token), _check_string(fields), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise InitDataRefused("hash does not match")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = user["id"]
    except (KeyError, ValueError, TypeError) as exc:
        raise InitDataRefused("auth_date or user missing or malformed") from exc
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        raise InitDataRefused("user.id is not a number")
    if auth_date > now + _CLOCK_SKEW_SECONDS or now - auth_date > max_age:
        raise InitDataRefused("initData is stale")
    language = user.get("language_code")
    return WebAppUser(
        id=user_id,
        language_code=language if isinstance(language, str) else None,
        auth_date=auth_date,
    )


def sign_init_data(fields: dict[str, str], *, bot_token: str) -> str:
    """``fields`` as Telegram would hand them to the page: with their ``hash``, url-encoded."""
    signed = dict(fields)
    signed["hash"] = hmac.new(
        _secret_key(bot_token), _check_string(fields), hashlib.sha256
    ).hexdigest()
    return urlencode(signed)


def user_fields(user_id: int, *, auth_date: int, language_code: str = "en") -> dict[str, str]:
    """The fields of an ``initData`` for ``user_id`` (before signing)."""
    user = {"id": user_id, "first_name": "Ada", "language_code": language_code}
    return {
        "query_id": "AAH-test",
        "user": json.dumps(user, separators=(",", ":")),
        "auth_date": str(auth_date),
    }
