"""Time for the sandbox: one injectable clock and sleep, and the wire format of timestamps.

Everything that depends on time (rate-limit windows, GPS freshness, webhook retries, signature
timestamps, latency faults) reads the clock and sleeps through these two callables, so a test can
drive time by hand and never waits.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

Clock = Callable[[], float]
"""Returns the current time in unix seconds."""

Sleep = Callable[[float], Awaitable[None]]
"""Waits the given number of seconds."""

system_clock: Clock = time.time
system_sleep: Sleep = asyncio.sleep


def iso(timestamp: float) -> str:
    """An ISO 8601 UTC timestamp with milliseconds, as the API writes ``created_at``."""
    moment = datetime.fromtimestamp(timestamp, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
