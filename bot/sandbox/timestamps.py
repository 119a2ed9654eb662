"""The wire format of the sandbox's timestamps.

The sandbox reads time through the injected ``Clock`` and ``Sleep`` of ``bot.clocks``, so a
test can drive time by hand and never waits: rate-limit windows, GPS freshness, webhook
retries, signature timestamps and latency faults all do.
"""

from __future__ import annotations

from datetime import UTC, datetime


def iso(timestamp: float) -> str:
    """An ISO 8601 UTC timestamp with milliseconds, as the API writes ``created_at``."""
    moment = datetime.fromtimestamp(timestamp, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
