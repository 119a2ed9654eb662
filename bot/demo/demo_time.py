"""``LaterClock``: the demo's clock, which ``:later`` moves on by hours at once.

WhatsApp's customer-service window closes 24 hours after the customer's last message; the
demo shows what the bot does then (news as the approved template) without waiting a day. The
whole demo reads this one clock (the sandbox, the store, the bot, the simulated Cloud API), so
the day passes for everyone alike, and a replay's fake clock still moves it too.
"""

from __future__ import annotations

from bot.clocks import Clock


class LaterClock:
    """``clock``'s time, plus every stretch ``later`` added."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._added = 0.0

    def __call__(self) -> float:
        """The demo's time now (Unix seconds): a ``bot.clocks.Clock``."""
        return self._clock() + self._added

    def later(self, seconds: float) -> None:
        """Move the demo's time on by ``seconds`` (not back)."""
        self._added += max(seconds, 0.0)
