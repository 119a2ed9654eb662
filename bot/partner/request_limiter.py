"""Keep the whole process under the API key's request limit, instead of discovering it by 429s.

The service counts requests per key over a 60-second window (capabilities ``rateLimits``). The
limiter keeps a sliding log of the last *N* request starts and lets a new request start only
when fewer than *N* started in the last window. That bounds every 60-second span, so however
the service aligns its windows, it never sees more than *N* from this process.

Every start is counted, also while no cap is known: the first request (the capabilities that
tell the cap) goes out before the cap is set, and starts made then count against it once it
is, so the first window admits *N*, not *N* + 1.

One limiter exists per API key; the ``PartnerClient`` holds it and every call goes through it.
Waiters are served first come, first served (an ``asyncio.Lock`` queues them in order), and any
chat can ask ``wait_time()`` first to say "one moment" instead of going quiet. That answer is a
forecast: requests asked for at the same moment elsewhere (other instances) are not in it. So a
task may also arm ``when_held_back``: its next request calls back if it is still waiting for
its start after a few seconds, whatever the forecast said.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from bot.clocks import Clock, Sleep

DEFAULT_WINDOW_SECONDS = 60.0
# Starts remembered while no cap is known: more than any plan's published cap (Growth: 180),
# few enough that a process without a cap holds a few kB, however long it runs.
UNCAPPED_MEMORY = 256

# (seconds, callback) armed by ``when_held_back`` for the current task's next request.
_held_back: contextvars.ContextVar[tuple[float, Callable[[], Coroutine[Any, Any, None]]] | None] = (
    contextvars.ContextVar("held_back", default=None)
)


def when_held_back(after_seconds: float, callback: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Arm ``callback`` for the next request the current task makes: it runs (once, beside
    the request, which goes on regardless) if that request still waits for its start
    ``after_seconds`` after asking. Timed on the event loop's clock."""
    _held_back.set((after_seconds, callback))


class RequestLimiter:
    """At most ``requests_per_minute`` request starts in any window; ``None`` means no cap.

    ``clock`` and ``sleep`` are injectable so tests run on a fake clock without sleeping.
    """

    def __init__(
        self,
        requests_per_minute: int | None = None,
        *,
        window_seconds: float = DEFAULT_WINDOW_SECONDS,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._lock = asyncio.Lock()
        self._limit: int | None = None
        self._window = DEFAULT_WINDOW_SECONDS
        self._starts: deque[float] = deque()
        self._blocked_until = -math.inf
        self._in_line = 0
        self._callbacks: set[asyncio.Task[None]] = set()  # ``when_held_back`` ones running
        self.set_rate(requests_per_minute, window_seconds=window_seconds)

    def __repr__(self) -> str:
        return f"RequestLimiter(requests_per_minute={self._limit!r}, window={self._window!r})"

    @property
    def requests_per_minute(self) -> int | None:
        return self._limit

    def set_rate(
        self, requests_per_minute: int | None, *, window_seconds: float | None = None
    ) -> None:
        """Change the cap (e.g. after capabilities load); waiters pick it up on their next look."""
        if requests_per_minute is not None and requests_per_minute < 1:
            raise ValueError("requests_per_minute must be at least 1, or None for no cap")
        if window_seconds is not None:
            if not math.isfinite(window_seconds) or window_seconds <= 0:
                raise ValueError("window_seconds must be a positive number")
            self._window = float(window_seconds)
        self._limit = requests_per_minute
        # Only the last N starts can hold a new one back. With no cap the last few hundred of
        # the last window are kept (``acquire`` drops older ones), so a cap set later counts them.
        self._starts = deque(self._starts, maxlen=requests_per_minute or UNCAPPED_MEMORY)

    def block_for(self, seconds: float) -> None:
        """Hold every request back for ``seconds`` (the service answered 429 and asked so)."""
        if math.isfinite(seconds) and seconds > 0:
            self._blocked_until = max(self._blocked_until, self._clock() + seconds)

    def wait_time(self) -> float:
        """Seconds a request asking now would wait, counting everyone already in line."""
        now = self._clock()
        return max(self._start_time(self._in_line, now) - now, 0.0)

    async def expected_wait(self) -> float:
        """``wait_time()``, where a limiter shared by several instances also asks what the
        others have used (``SharedRequestLimiter``)."""
        return self.wait_time()

    async def acquire(self) -> None:
        """Wait for a free slot, in arrival order, and record this request's start."""
        self._in_line += 1
        watch = self._watch_held_back()
        try:
            async with self._lock:
                while True:
                    now = self._clock()
                    wait = self._start_time(0, now) - now
                    if wait <= 0:
                        break
                    # Re-checked after the sleep: set_rate or block_for may have moved the goal.
                    await self._sleep(wait)
                await self._wait_for_shared_start()
                # Read again: the shared budget may have held this request back a while.
                now = self._clock()
                if self._limit is None:
                    while self._starts and self._starts[0] <= now - self._window:
                        self._starts.popleft()
                self._starts.append(now)
        finally:
            self._in_line -= 1
            if watch is not None:
                watch.cancel()

    def _watch_held_back(self) -> asyncio.TimerHandle | None:
        armed = _held_back.get()
        if armed is None:
            return None
        _held_back.set(None)  # for this request only
        after_seconds, callback = armed
        loop = asyncio.get_running_loop()

        def call_back() -> None:
            task = loop.create_task(callback())
            self._callbacks.add(task)
            task.add_done_callback(self._callbacks.discard)

        return loop.call_later(after_seconds, call_back)

    async def _wait_for_shared_start(self) -> None:
        """Wait, in this process's turn, for a start granted by a budget shared with other
        processes (``SharedRequestLimiter``); none here."""

    def _start_time(self, ahead: int, now: float) -> float:
        """When the request with ``ahead`` others in front of it may start."""
        start = max(now, self._blocked_until)
        if self._limit is None:
            return start
        starts = list(self._starts)
        for _ in range(ahead + 1):
            if len(starts) >= self._limit:
                start = max(start, starts[-self._limit] + self._window)
            starts.append(start)
        return start
