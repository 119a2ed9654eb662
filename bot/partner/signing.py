"""Webhook signatures: ``sign`` for senders (the sandbox, tests), ``verify`` for the bot.

The header is ``Service-Signature: t=<unix>,v1=<hex>``, where ``<hex>`` is HMAC-SHA256 over
``<t>.<raw body>`` keyed by the signing secret. ``verify`` works on the raw request bytes (a
re-serialised body would not match), accepts several ``v1`` values so a secret can be rotated,
and compares in constant time. Every failure is one ``SignatureError`` whose reason never
names the secret or the expected digest.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time

from bot.partner.errors import PartnerError
from bot.partner.models import WEBHOOK_TOLERANCE_SECONDS

SIGNATURE_HEADER = "Service-Signature"
EVENT_HEADER = "Service-Event"
_HEX_DIGEST = re.compile("[0-9a-f]{64}")  # a lower-case SHA-256 hex digest


class SignatureError(PartnerError):
    """The webhook signature is missing, malformed, out of date or does not match.

    No HTTP call is involved (``status`` 0, no ``code``): it reads as its ``reason`` alone.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)

    def __str__(self) -> str:
        return self.reason


def _digest(raw_body: bytes, secret: str, timestamp_text: str) -> str:
    signed = timestamp_text.encode("ascii") + b"." + raw_body
    return hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()


def sign(raw_body: bytes, secret: str, timestamp: int) -> str:
    """The ``Service-Signature`` header value for ``raw_body`` sent at ``timestamp``."""
    text = str(timestamp)
    return f"t={text},v1={_digest(raw_body, secret, text)}"


def _is_ascii_digits(text: str) -> bool:
    # str.isdigit alone accepts "²" and "٣", which int() then refuses or reads differently.
    return text.isascii() and text.isdigit()


def _is_hex_digest(text: str) -> bool:
    # One C call for the 64 characters (a per-character check was 8 µs of every webhook).
    return _HEX_DIGEST.fullmatch(text) is not None


def _parse(header: str) -> tuple[str, list[str]]:
    """The header's ``t`` text and its well-formed ``v1`` values.

    A ``v1`` that is not 64 hex digits cannot match and is dropped here, so the constant-time
    comparison only ever sees ASCII of the digest's length.
    """
    timestamp: str | None = None
    candidates: list[str] = []
    saw_v1 = False
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            raise SignatureError("malformed signature header")
        if key == "t":
            if timestamp is not None or not _is_ascii_digits(value) or len(value) > 12:
                raise SignatureError("malformed timestamp in signature header")
            timestamp = value
        elif key == "v1":
            saw_v1 = True
            candidate = value.strip().lower()
            if _is_hex_digest(candidate):
                candidates.append(candidate)
        # Other schemes (v0, future v2 ...) are ignored, as a receiver must.
    if timestamp is None:
        raise SignatureError("signature header has no timestamp")
    if not saw_v1:
        raise SignatureError("signature header has no v1 signature")
    return timestamp, candidates


def verify(
    raw_body: bytes,
    header: str | None,
    secret: str,
    *,
    now: float | None = None,
    tolerance: int = WEBHOOK_TOLERANCE_SECONDS,
) -> None:
    """Raise ``SignatureError`` unless ``header`` signs ``raw_body`` with ``secret`` in time.

    A timestamp older than ``tolerance`` seconds, or further than that in the future, is
    refused, which bounds how long a captured request can be replayed. The HMAC covers the
    header's own ``t`` text, byte for byte. Whatever the header holds, ``SignatureError`` is
    the only exception this raises.
    """
    if not isinstance(header, str) or not header.strip():
        raise SignatureError("missing signature header")
    timestamp_text, candidates = _parse(header)
    timestamp = int(timestamp_text)
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise SignatureError("signature timestamp is too old")
    if timestamp > current + tolerance:
        raise SignatureError("signature timestamp is in the future")
    expected = _digest(raw_body, secret, timestamp_text)
    # Check every candidate so the time taken does not tell which one matched.
    matched = False
    for candidate in candidates:
        matched |= hmac.compare_digest(expected, candidate)
    if not matched:
        raise SignatureError("no signature matches")
