"""Meta's signature on a webhook push: ``X-Hub-Signature-256: sha256=<hex>``.

The hex is the HMAC-SHA256 of the raw body (the bytes as sent, before any parsing) keyed with
the Meta app's secret (``[whatsapp] app_secret``). ``verify`` compares in constant time;
``sign`` is the same computation, for the tests and the simulated Cloud API
(``bot.whatsapp_fake``) that push as Meta does. The secret never appears in an error.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Final

from bot.whatsapp.whatsapp_errors import WhatsAppChannelError

SIGNATURE_HEADER: Final = "X-Hub-Signature-256"
_PREFIX: Final = "sha256="
_HEX_DIGITS: Final = 64


class BadSignature(WhatsAppChannelError):
    """The push is not signed with the app's secret: its header is missing, malformed, or
    signs other bytes."""


def sign(body: bytes, app_secret: str) -> str:
    """The ``X-Hub-Signature-256`` value Meta sends with ``body``."""
    digest = hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()
    return _PREFIX + digest


def well_formed(header: str | None) -> bool:
    """Whether ``header`` reads as a signature at all (``sha256=`` and 64 hex digits), so a
    push without one is refused before its body is read."""
    if header is None or not header.startswith(_PREFIX):
        return False
    digits = header.removeprefix(_PREFIX)
    return len(digits) == _HEX_DIGITS and all(c in "0123456789abcdefABCDEF" for c in digits)


def verify(body: bytes, header: str | None, app_secret: str) -> None:
    """Raise ``BadSignature`` unless ``header`` is ``body``'s signature with ``app_secret``."""
    if header is None or not well_formed(header):
        raise BadSignature("the signature header is missing or malformed")
    expected = sign(body, app_secret).encode()
    if not hmac.compare_digest(header.lower().encode(), expected):
        raise BadSignature("the signature does not match the body")
