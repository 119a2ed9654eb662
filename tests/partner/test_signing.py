"""Webhook signatures as a table of vectors: each header either verifies or names its flaw."""

from __future__ import annotations

import pytest

from bot.partner.signing import SignatureError, sign, verify

SECRET = "whsec_test_secret"
OLD_SECRET = "whsec_previous_secret"
BODY = b'{"id":"evt_1"}'
T = 1_700_000_000
# Computed once, independently, with hmac over b'1700000000.{"id":"evt_1"}'.
KNOWN_DIGEST = "248a374f50f943a28b0f6ab50faf9a7e7e29b710fa26df9fb1618b9bf8ea9c9a"


def v1(secret: str = SECRET, body: bytes = BODY, timestamp: int = T) -> str:
    return sign(body, secret, timestamp).split(",v1=")[1]


def test_sign_matches_the_known_answer():
    assert sign(BODY, SECRET, T) == f"t={T},v1={KNOWN_DIGEST}"


# (name, raw body, header, seconds between signing and checking, reason or None when valid)
VECTORS = [
    ("valid", BODY, f"t={T},v1={KNOWN_DIGEST}", 0, None),
    ("valid at the edge of the past", BODY, f"t={T},v1={KNOWN_DIGEST}", 300, None),
    ("valid at the edge of the future", BODY, f"t={T},v1={KNOWN_DIGEST}", -300, None),
    (
        "rotation: the second v1 is right",
        BODY,
        f"t={T},v1={v1(OLD_SECRET)},v1={KNOWN_DIGEST}",
        0,
        None,
    ),
    ("rotation: the first v1 is right", BODY, f"t={T},v1={KNOWN_DIGEST},v1={'0' * 64}", 0, None),
    ("spaces after commas", BODY, f"t={T}, v1={KNOWN_DIGEST}", 0, None),
    ("spaces around the header", BODY, f"  t={T},v1={KNOWN_DIGEST}  ", 0, None),
    ("upper-case hex", BODY, f"t={T},v1={KNOWN_DIGEST.upper()}", 0, None),
    ("v1 before t", BODY, f"v1={KNOWN_DIGEST},t={T}", 0, None),
    ("other schemes ignored", BODY, f"t={T},v0=abc,v1={KNOWN_DIGEST}", 0, None),
    ("missing header", BODY, "", 0, "missing signature header"),
    ("blank header", BODY, "   ", 0, "missing signature header"),
    ("malformed", BODY, "garbage", 0, "malformed signature header"),
    ("no timestamp", BODY, f"v1={KNOWN_DIGEST}", 0, "no timestamp"),
    ("timestamp not a number", BODY, f"t=yesterday,v1={KNOWN_DIGEST}", 0, "malformed timestamp"),
    ("negative timestamp", BODY, f"t=-{T},v1={KNOWN_DIGEST}", 0, "malformed timestamp"),
    ("two timestamps", BODY, f"t={T},t={T},v1={KNOWN_DIGEST}", 0, "malformed timestamp"),
    ("no v1", BODY, f"t={T},v0={KNOWN_DIGEST}", 0, "no v1 signature"),
    ("too old", BODY, f"t={T},v1={KNOWN_DIGEST}", 301, "too old"),
    ("too far in the future", BODY, f"t={T},v1={KNOWN_DIGEST}", -301, "in the future"),
    ("wrong secret", BODY, f"t={T},v1={v1('whsec_wrong')}", 0, "no signature matches"),
    (
        "body altered by one byte",
        b'{"id":"evt_2"}',
        f"t={T},v1={KNOWN_DIGEST}",
        0,
        "no signature matches",
    ),
    (
        "body with added whitespace",
        b'{"id": "evt_1"}',
        f"t={T},v1={KNOWN_DIGEST}",
        0,
        "no signature matches",
    ),
    (
        "trailing newline in body",
        BODY + b"\n",
        f"t={T},v1={KNOWN_DIGEST}",
        0,
        "no signature matches",
    ),
    ("timestamp changed", BODY, f"t={T + 1},v1={KNOWN_DIGEST}", 0, "no signature matches"),
    ("truncated digest", BODY, f"t={T},v1={KNOWN_DIGEST[:-1]}", 0, "no signature matches"),
    ("empty v1", BODY, f"t={T},v1=", 0, "no signature matches"),
]


@pytest.mark.parametrize(
    ("body", "header", "age", "reason"), [v[1:] for v in VECTORS], ids=[v[0] for v in VECTORS]
)
def test_signature_vectors(body, header, age, reason):
    if reason is None:
        verify(body, header, SECRET, now=T + age)
        return
    with pytest.raises(SignatureError) as caught:
        verify(body, header, SECRET, now=T + age)
    assert reason in caught.value.reason
    for text in (str(caught.value), repr(caught.value), caught.value.reason):
        assert SECRET not in text
        assert KNOWN_DIGEST not in text


def test_a_missing_header_given_as_none():
    with pytest.raises(SignatureError, match="missing"):
        verify(BODY, None, SECRET, now=T)


def test_a_custom_tolerance():
    header = sign(BODY, SECRET, T)
    verify(BODY, header, SECRET, now=T + 30, tolerance=30)
    with pytest.raises(SignatureError, match="too old"):
        verify(BODY, header, SECRET, now=T + 31, tolerance=30)


def test_a_wrong_secret_never_shows_either_digest():
    header = sign(BODY, "whsec_wrong", T)
    with pytest.raises(SignatureError) as caught:
        verify(BODY, header, SECRET, now=T)
    assert header.split("v1=")[1] not in str(caught.value)
    assert KNOWN_DIGEST not in str(caught.value)
