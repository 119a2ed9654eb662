"""``FakeClock``: the one hand-moved clock every test folder shares (and ``WaitingClock``,
the same clock for a test that must see a part waiting).

The bot takes its time as a ``Clock`` (a callable returning seconds) and a ``Sleep`` (an async
callable), see ``bot.clocks``. A ``FakeClock`` is both at once, and also offers them as
``clock`` and ``sleep`` for the parts that take one object with the two (the send limiter, the
conversation's album window). Time moves only when a test says so: ``advance``, or a ``sleep``,
which moves the clock by what was asked and returns at once, so nobody waits for real.
A ``WaitingClock``'s sleeps wait instead, until ``advance`` reaches their moment.
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


class WaitingClock(FakeClock):
    """A ``FakeClock`` whose sleeps wait, until ``advance`` brings the clock to their moment.

    For a test that must see a part waiting (a rate limiter holding a send, an album's quiet
    window): ``sleepers`` returns once that many sleeps are pending, so the test waits for the
    event instead of sleeping itself, then moves time on by hand.
    """

    def __init__(self, now: float = 1000.0) -> None:
        super().__init__(now)
        self._waiting: list[tuple[float, asyncio.Future[None]]] = []
        self._changed = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        """Waits until the clock reaches now + ``seconds`` (moved by ``advance`` only)."""
        self.slept.append(seconds)
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((self.now + seconds, wake))
        self._changed.set()
        await wake

    def advance(self, seconds: float) -> None:
        """Moves the clock on and wakes every sleep whose moment it reached (a sleeper that
        was cancelled meanwhile is only forgotten)."""
        super().advance(seconds)
        for moment, wake in list(self._waiting):
            if moment <= self.now + 1e-9:
                self._waiting.remove((moment, wake))
                if not wake.done():
                    wake.set_result(None)

    async def sleepers(self, count: int, *, timeout: float = 5.0) -> None:
        """Returns once ``count`` sleeps are pending (bounded: a bug fails, not hangs)."""
        async with asyncio.timeout(timeout):
            while len([wake for _, wake in self._waiting if not wake.done()]) < count:
                self._changed.clear()
                await self._changed.wait()
