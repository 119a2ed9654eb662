"""``initData`` vectors: only data Telegram signed for this bot, recently, for this user passes."""

from __future__ import annotations

import json

import pytest

from bot.webapp.init_data import (
    MAX_INIT_DATA_CHARS,
    InitDataRefused,
    sign_init_data,
    user_fields,
    verify_init_data,
)

TOKEN = "123456:AAE-the-bot-token-of-these-tests-0123456"
OTHER_TOKEN = "654321:AAE-another-bot-entirely-0123456789ab"
NOW = 1_800_000_000
HOUR = 3600


def _verify(raw: str, *, now: float = NOW) -> int:
    return verify_init_data(raw, bot_token=TOKEN, now=now, max_age=HOUR).id


def test_telegram_documented_shape_passes() -> None:
    raw = sign_init_data(user_fields(42, auth_date=NOW - 10, language_code="fr"), bot_token=TOKEN)
    user = verify_init_data(raw, bot_token=TOKEN, now=NOW, max_age=HOUR)
    assert (user.id, user.language_code, user.auth_date) == (42, "fr", NOW - 10)


def test_a_known_vector_computed_by_hand() -> None:
    # The documented algorithm spelt out independently: key = HMAC("WebAppData", token),
    # hash = HMAC(key, sorted "k=v" lines without hash).
    import hashlib
    import hmac
    from urllib.parse import urlencode

    fields = {"auth_date": str(NOW), "query_id": "Q", "user": json.dumps({"id": 7})}
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    digest = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    assert _verify(urlencode({**fields, "hash": digest})) == 7


def _tampered() -> str:
    fields = user_fields(42, auth_date=NOW)
    raw = sign_init_data(fields, bot_token=TOKEN)
    return raw.replace("%22id%22%3A42", "%22id%22%3A43")


def _hash_flipped() -> str:
    raw = sign_init_data(user_fields(42, auth_date=NOW), bot_token=TOKEN)
    last = raw[-1]
    return raw[:-1] + ("0" if last != "0" else "1")


def _missing(field: str) -> str:
    fields = user_fields(42, auth_date=NOW)
    del fields[field]
    return sign_init_data(fields, bot_token=TOKEN)


REFUSED = {
    "empty": "",
    "tampered user": _tampered(),
    "tampered hash": _hash_flipped(),
    "wrong bot token": sign_init_data(user_fields(42, auth_date=NOW), bot_token=OTHER_TOKEN),
    "stale": sign_init_data(user_fields(42, auth_date=NOW - HOUR - 1), bot_token=TOKEN),
    "from the future": sign_init_data(user_fields(42, auth_date=NOW + 3600), bot_token=TOKEN),
    "no hash": "&".join(
        part
        for part in sign_init_data(user_fields(42, auth_date=NOW), bot_token=TOKEN).split("&")
        if not part.startswith("hash=")
    ),
    "no user": _missing("user"),
    "no auth_date": _missing("auth_date"),
    "user without id": sign_init_data(
        {"user": json.dumps({"first_name": "X"}), "auth_date": str(NOW)}, bot_token=TOKEN
    ),
    "user id not a number": sign_init_data(
        {"user": json.dumps({"id": "42"}), "auth_date": str(NOW)}, bot_token=TOKEN
    ),
    "not a query string": "just some text",
    "huge": sign_init_data(
        {**user_fields(42, auth_date=NOW), "padding": "x" * MAX_INIT_DATA_CHARS}, bot_token=TOKEN
    ),
    "repeated field": sign_init_data(user_fields(42, auth_date=NOW), bot_token=TOKEN)
    + "&auth_date=1",
}


@pytest.mark.parametrize("raw", REFUSED.values(), ids=REFUSED.keys())
def test_anything_else_is_refused(raw: str) -> None:
    with pytest.raises(InitDataRefused):
        _verify(raw)


def test_an_hour_old_is_still_taken_a_second_more_is_not() -> None:
    raw = sign_init_data(user_fields(42, auth_date=NOW - HOUR), bot_token=TOKEN)
    assert _verify(raw) == 42
    with pytest.raises(InitDataRefused):
        _verify(raw, now=NOW + 1)
