"""Keep the whole process under the API key's request limit, instead of discovering it by 429s.

The service counts requests per key over a 60-second window (capabilities ``rateLimits``),
counting each when it arrives. The limiter keeps a sliding log of request slots and lets a new
request start only while fewer than *N* slots were in use in the last window. A slot is in use
from its request's start until its answer is back: the service saw the request somewhere in
between, and only the answer's time is surely after it. So a slot frees one window after its
answer, never after its start; counting from the start, a request slowed on its way (a burst of
60 on a busy machine takes seconds to arrive) and its slot's next request, let go one window
after the first one's start, could land in the same service window, and the service would
refuse the 61st. That bounds every 60-second span of arrivals, so however the service aligns
its windows, it never sees more than *N* from this process.

Every start is counted, also while no cap is known: the first request (the capabilities that
tell the cap) goes out before the cap is set, and starts made then count against it once it
is, so the first window admits *N*, not *N* + 1.

One limiter exists per API key; the ``PartnerClient`` holds it and every call goes through it:
``acquire()`` for a slot before sending, ``release(slot)`` once the answer (or the failure) is in.
Waiters are served first come, first served (an ``asyncio.Lock`` queues them in order), and any
chat can ask ``wait_time()`` first to say "one moment" instead of going quiet. That answer is a
forecast: requests asked for at the same moment elsewhere (other processes) are not in it. So a
request may also come with a ``HeldBack`` watch: it calls back if the request is still waiting
for its start after a few seconds, whatever the forecast said.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.clocks import Clock, Sleep
from bot.metrics.business_metrics import NO_METRICS, Metrics

DEFAULT_WINDOW_SECONDS = 60.0
# Starts remembered while no cap is known: more than any plan's published cap (Growth: 180),
# few enough that a process without a cap holds a few kB, however long it runs.
UNCAPPED_MEMORY = 256

# How long a slot not released counts as in use: longer than a request lives under the
# client's timeouts (``bot.partner.options``: 5 s connect, 20 s write, 20 s read, 5 s pool).
# Past it the slot counts as answered then, so a request that never ends (a server dripping its
# answer a byte at a time) cannot hold the key's budget for ever.
IN_USE_LIMIT_SECONDS = 120.0


@dataclass(frozen=True)
class HeldBack:
    """A watch on one request: ``callback`` runs (once, beside the request, which goes on
    regardless) if the request still waits for its start ``after_seconds`` after asking.
    Timed on the event loop's clock.

    Made by whoever wants to hear of an unforeseen wait (``bot.ordering.create_wait``, just
    before a create); handed down with that request (``PartnerClient.create_delivery``'s
    ``held_back``) to ``acquire``, which reads it for that request only."""

    after_seconds: float
    callback: Callable[[], Coroutine[Any, Any, None]]


@dataclass(eq=False)
class RequestSlot:
    """One request's place in the log: in use (counted as "now") until released, then counted
    at the time its answer came back."""

    at: float
    released: bool = False
    # What a budget shared with other processes knows this start by (``SharedRequestLimiter``).
    ticket: float | None = None

    def counted_at(self, now: float) -> float:
        """When this slot was last in use, as the window counts it."""
        return self.at if self.released else min(now, self.at + IN_USE_LIMIT_SECONDS)


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
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self._clock = clock
        self._sleep = sleep
        self._metrics = metrics  # the business's: counts the waits of its own
        self._lock = asyncio.Lock()
        self._limit: int | None = None
        self._window = DEFAULT_WINDOW_SECONDS
        self._slots: deque[RequestSlot] = deque()
        # Resolved when a slot is released, for the request waiting on slots still in use.
        self._a_release: asyncio.Future[None] | None = None
        self._blocked_until = -math.inf
        self._in_line = 0
        self._callbacks: set[asyncio.Task[None]] = set()  # ``HeldBack`` callbacks running
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

    def block_for(self, seconds: float) -> None:
        """Hold every request back for ``seconds`` (the service answered 429 and asked so)."""
        if math.isfinite(seconds) and seconds > 0:
            self._blocked_until = max(self._blocked_until, self._clock() + seconds)

    def wait_time(self, *, ahead: int = 0) -> float:
        """Seconds a request asking now would wait, counting everyone already in line, and
        ``ahead`` more starts left to others first."""
        now = self._clock()
        return max(self._start_time(self._in_line + ahead, now) - now, 0.0)

    async def expected_wait(self, *, ahead: int = 0) -> float:
        """``wait_time()``, where a limiter shared by several processes also asks what the
        others have used (``SharedRequestLimiter``). ``ahead``: starts to leave to others
        first, beyond those already in line (background work keeping room for customers)."""
        return self.wait_time(ahead=ahead)

    async def acquire(self, held_back: HeldBack | None = None) -> RequestSlot:
        """Wait for a free slot, in arrival order, and take it; ``release`` it once the
        request's answer (or failure) is in. ``held_back``: called back should the wait
        outlast it."""
        self._in_line += 1
        watch = None if held_back is None else self._watch(held_back)
        try:
            async with self._lock:
                while True:
                    now = self._clock()
                    wait = self._start_time(0, now) - now
                    if wait <= 0:
                        break
                    # Re-checked after the sleep: set_rate or block_for may have moved the goal.
                    self._metrics.count_partner_rate_limited("own_limit")
                    await self._sleep_or_until_a_release(wait)
                ticket = await self._wait_for_shared_start()
                # Read again: the shared budget may have held this request back a while.
                slot = RequestSlot(self._clock(), ticket=ticket)
                self._forget_old(slot.at)
                self._slots.append(slot)
                return slot
        finally:
            self._in_line -= 1
            if watch is not None:
                watch.cancel()

    def release(self, slot: RequestSlot) -> None:
        """The slot's request has its answer (or failed, or was given up): its slot now counts
        from this moment, for one window."""
        if slot.released:
            return
        slot.at = max(slot.at, self._clock())
        slot.released = True
        if self._a_release is not None and not self._a_release.done():
            self._a_release.set_result(None)

    async def settle(self) -> None:
        """Wait for the work this limiter started beside the requests (a ``HeldBack``
        callback running), before what it uses closes."""
        await asyncio.gather(*self._callbacks, return_exceptions=True)

    @asynccontextmanager
    async def request(self, held_back: HeldBack | None = None) -> AsyncIterator[RequestSlot]:
        """``acquire`` a slot for the ``async with`` body, released when the body ends."""
        slot = await self.acquire(held_back)
        try:
            yield slot
        finally:
            self.release(slot)

    async def _sleep_or_until_a_release(self, seconds: float) -> None:
        """Sleep ``seconds``, or less if a slot in use is released meanwhile (the wait was
        counted from now for it, and its answer may free the slot much sooner)."""
        if all(slot.released for slot in self._slots):
            await self._sleep(seconds)
            return
        loop = asyncio.get_running_loop()
        self._a_release = loop.create_future()
        sleeping: asyncio.Future[None] = asyncio.ensure_future(self._sleep(seconds))
        try:
            await asyncio.wait((sleeping, self._a_release), return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            self._a_release = None
        if sleeping.done() and not sleeping.cancelled():
            sleeping.result()  # a failing sleep fails the acquire, as when awaited directly

    def _forget_old(self, now: float) -> None:
        """Drop the released slots older than a window: from the front of the log, where they
        usually are, or from anywhere once a slot still in use (a request that takes long)
        holds the front. With no cap, at most the last few hundred are kept, so a cap set later
        counts them and a long uncapped run does not pile them up."""
        horizon = now - self._window
        slots = self._slots
        while slots and slots[0].released and slots[0].at <= horizon:
            slots.popleft()
        if slots and not slots[0].released and len(slots) > (self._limit or UNCAPPED_MEMORY):
            self._slots = slots = deque(s for s in slots if not s.released or s.at > horizon)
        if self._limit is None:
            while len(slots) >= UNCAPPED_MEMORY:
                slots.popleft()

    def _watch(self, held_back: HeldBack) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        callback = held_back.callback

        def call_back() -> None:
            task = loop.create_task(callback())
            self._callbacks.add(task)
            task.add_done_callback(self._callbacks.discard)

        return loop.call_later(held_back.after_seconds, call_back)

    async def _wait_for_shared_start(self) -> float | None:
        """Wait, in this process's turn, for a start granted by a budget shared with other
        processes (``SharedRequestLimiter``), and return its ticket; none here."""
        return None

    def _start_time(self, ahead: int, now: float) -> float:
        """When the request with ``ahead`` others in front of it may start."""
        start = max(now, self._blocked_until)
        if self._limit is None:
            return start
        # Every slot's time is at most now, so each start appended stays the latest.
        counted = sorted(slot.counted_at(now) for slot in self._slots)
        for _ in range(ahead + 1):
            if len(counted) >= self._limit:
                start = max(start, counted[-self._limit] + self._window)
            counted.append(start)
        return start
