"""The per-key request limit: fixed 60-second windows aligned to the clock.

Windows start at multiples of 60 s of unix time, so ``RateLimit-Reset`` is a round unix time and
every key's window ends together. A refused request does not count against the window, so a
client that backs off as told is served as soon as the window turns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.clocks import Clock
from bot.sandbox.error_envelope import ApiError

WINDOW_SECONDS = 60


@dataclass(frozen=True)
class RateWindow:
    """Where a key stands in the current window after one request."""

    limit: int
    remaining: int
    reset: int
    retry_after: int
    allowed: bool

    def headers(self) -> dict[str, str]:
        headers = {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset),
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.retry_after)
        return headers


class RateLimiter:
    """Counts requests per key id; ``limit`` None means no per-key cap (a custom plan)."""

    def __init__(self, limit: int | None, clock: Clock) -> None:
        self.limit = limit
        self._clock = clock
        self._counts: dict[tuple[str, int], int] = {}

    def hit(self, key_id: str) -> RateWindow | None:
        """Record one request; None when there is no cap. Check ``allowed`` on the result."""
        if self.limit is None:
            return None
        now = self._clock()
        start = int(now // WINDOW_SECONDS) * WINDOW_SECONDS
        reset = start + WINDOW_SECONDS
        used = self._counts.get((key_id, start), 0)
        # Old windows are dropped as time moves on so the table stays small.
        self._counts = {k: v for k, v in self._counts.items() if k[1] >= start}
        retry_after = max(1, math.ceil(reset - now))
        if used >= self.limit:
            return RateWindow(self.limit, 0, reset, retry_after, allowed=False)
        self._counts[(key_id, start)] = used + 1
        return RateWindow(self.limit, self.limit - used - 1, reset, retry_after, allowed=True)


def rate_limited(window: RateWindow) -> ApiError:
    return ApiError(
        429,
        "rate_limited",
        f"Too many requests for this API key: {window.limit} per {WINDOW_SECONDS} s. "
        f"Retry after {window.retry_after} s.",
        retry_after=window.retry_after,
        headers=window.headers(),
    )
