"""Each customer's budget of address searches from the page: the geocoder behind it is shared
(and Nominatim's public server allows one request a second for the whole bot), so one customer
typing fast, or a script holding their ``initData``, must not spend it for everyone.

The budget is kept in this process's memory: it guards a shared service against one page, not
a billing limit, and a customer's page talks to whichever process of the bot answers it.
"""

from __future__ import annotations

from collections import deque

from bot.clocks import Clock

WINDOW_SECONDS = 60.0
_KEPT_USERS = 10_000  # beyond this many recent searchers, the quietest are forgotten


class SearchBudget:
    """At most ``per_minute`` searches per user in any 60 seconds of ``clock``."""

    def __init__(self, per_minute: int, *, clock: Clock) -> None:
        self._per_minute = per_minute
        self._clock = clock
        self._spent: dict[int, deque[float]] = {}

    def take(self, user_id: int) -> bool:
        """Spend one search of ``user_id``'s budget; False (nothing spent) when it is empty."""
        now = self._clock()
        spent = self._spent.setdefault(user_id, deque())
        while spent and now - spent[0] >= WINDOW_SECONDS:
            spent.popleft()
        if len(spent) >= self._per_minute:
            return False
        spent.append(now)
        if len(self._spent) > _KEPT_USERS:
            self._forget_idle(now)
        return True

    def _forget_idle(self, now: float) -> None:
        idle = [
            user
            for user, spent in self._spent.items()
            if not spent or now - spent[-1] >= WINDOW_SECONDS
        ]
        for user in idle:
            del self._spent[user]
