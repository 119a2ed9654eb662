"""``FakeClock``: the one hand-moved clock every test folder shares.

The bot takes its time as a ``Clock`` (a callable returning seconds) and a ``Sleep`` (an async
callable), see ``bot.clocks``. A ``FakeClock`` is both at once, and also offers them as
``clock`` and ``sleep`` for the parts that take one object with the two (the send limiter, the
conversation's album window). Time moves only when a test says so: ``advance``, or a ``sleep``,
which moves the clock by what was asked and returns at once, so nobody waits for real.
"""

from __future__ import annotations

import asyncio

START = 1_800_000_000.0
"""Unix seconds in 2027, a multiple of 60 (so per-minute rate windows start on it)."""


class FakeClock:
    """Unix (or monotonic) seconds that move only by ``advance`` or ``sleep``.

    ``slept`` keeps every duration a ``sleep`` was asked for, in order, as asked (a negative
    one too, though it moves the clock by nothing, as ``asyncio.sleep`` waits for nothing).
    """

    def __init__(self, now: float = START) -> None:
        self.now = now
        self.slept: list[float] = []

    def __call__(self) -> float:
        """The time now: a ``FakeClock`` is a ``bot.clocks.Clock``."""
        return self.now

    def clock(self) -> float:
        """The time now, for a part that takes an object with ``clock`` and ``sleep``."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Moves the clock on by ``seconds``."""
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        """A ``bot.clocks.Sleep`` that moves the clock instead of waiting. It still yields to
        the event loop once, as a real sleep would, so other tasks get their turn."""
        self.slept.append(seconds)
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)
