"""``LaterClock``: the demo's clock, which ``:later`` moves on by hours at once.

WhatsApp's customer-service window closes 24 hours after the customer's last message; the
demo shows what the bot does then (news as the approved template) without waiting a day. The
whole demo reads this one clock (the sandbox, the store, the bot, the simulated Cloud API), so
the day passes for everyone alike, and a test's fake clock still moves it too. A replayed
WhatsApp transcript sleeps with ``skip``, which moves the clock instead of waiting: WhatsApp's
pacing (one message every 6 s to a person) would make a whole order's replay take minutes.
"""

from __future__ import annotations

import asyncio

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

    async def skip(self, seconds: float) -> None:
        """A ``bot.clocks.Sleep`` that moves the clock on by ``seconds`` instead of waiting
        (it still lets the other tasks run once, as a sleep would)."""
        self.later(seconds)
        await asyncio.sleep(0)
