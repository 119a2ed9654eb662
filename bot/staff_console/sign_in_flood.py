"""``SignInFlood``: at most so many sign-in attempts a minute from one client address.

A sign-in token is long and random, so guessing one is hopeless; the limit keeps a script from
spending the store's time (each attempt is a write and an audit line) and the audit trail's
room. It is kept in this process's memory, owned by the console of one business: a guard
against a flood, not a count that must hold across instances.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Final

from bot.clocks import Clock

WINDOW_SECONDS: Final = 60.0
_KEPT_ADDRESSES: Final = 10_000  # beyond this many recent addresses, the quiet ones are forgotten


class SignInFlood:
    """At most ``per_minute`` attempts per client address in any 60 seconds of ``clock``."""

    def __init__(self, per_minute: int, *, clock: Clock) -> None:
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        self._per_minute = per_minute
        self._clock = clock
        self._tries: dict[str, deque[float]] = {}

    def wait_seconds(self, address: str) -> int:
        """Count one attempt from ``address``: 0 when it may go on, else how many whole
        seconds until it may try again (the attempt is then not counted)."""
        now = self._clock()
        tries = self._tries.setdefault(address, deque())
        while tries and now - tries[0] >= WINDOW_SECONDS:
            tries.popleft()
        if len(tries) >= self._per_minute:
            return max(1, math.ceil(tries[0] + WINDOW_SECONDS - now))
        tries.append(now)
        if len(self._tries) > _KEPT_ADDRESSES:
            self._forget_quiet(now)
        return 0

    def _forget_quiet(self, now: float) -> None:
        quiet = [a for a, tries in self._tries.items() if not tries or now - tries[-1] >= 60]
        for address in quiet:
            del self._tries[address]
