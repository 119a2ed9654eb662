"""``Clock`` and ``Sleep``: time as every part of the bot reads it, injected so tests drive it.

Whatever depends on time (expiries, signature timestamps, rate limits, retry delays) takes a
clock and a sleep instead of calling ``time`` and ``asyncio`` itself, so a test moves time by
hand and never waits. A part that only measures intervals defaults to ``time.monotonic``; one
that stores or compares timestamps defaults to unix time (``system_clock``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

Clock = Callable[[], float]
"""Returns the current time in seconds: unix time, or a monotonic reading for intervals."""

Sleep = Callable[[float], Awaitable[None]]
"""Waits the given number of seconds."""

system_clock: Clock = time.time
system_sleep: Sleep = asyncio.sleep


async def wake_or_sleep(wake: asyncio.Event, delay: float | None, sleep: Sleep) -> None:
    """Return once ``wake`` is set or ``delay`` seconds have passed by ``sleep`` (None: only
    the event), whichever comes first; at once when ``delay`` is not positive.

    The two waits run as tasks and are cancelled on the way out. A cancel of the caller goes on
    through: it is never taken for the end of one of those tasks, since a worker whose cancel
    was swallowed here would loop on and keep its owner's shutdown waiting for ever.
    """
    if delay is not None and delay <= 0:
        return
    waits: set[asyncio.Future[object]] = {asyncio.ensure_future(wake.wait())}
    if delay is not None:
        waits.add(asyncio.ensure_future(sleep(delay)))
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            waiting.cancel()
        # Not awaited under suppress(CancelledError): that would swallow the caller's cancel
        # arriving meanwhile. asyncio.wait raises nothing for the tasks' own cancellation.
        await asyncio.wait(waits)
