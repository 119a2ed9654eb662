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
