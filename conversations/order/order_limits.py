"""An order's fixed limits (the spec's Limits table), in one place for the flows, the client and
the sandbox."""

from __future__ import annotations

MAX_PACKAGE_IMAGES = 6
IDEMPOTENCY_KEY_LENGTH = (8, 120)
CANCEL_REASON_LENGTH = (3, 500)
MAX_ERRAND_LINKS = 10
PHONE_DIGITS = (7, 15)
