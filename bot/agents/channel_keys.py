"""Who is calling: a channel's key (``Authorization: Bearer <key>``) to its channel, and each
channel's request budget.

Only SHA-256 hashes of the keys are held (``[[agents.channels]]``); a presented key is hashed
and compared with every channel's hash in constant time, so neither timing nor an error says
which part matched. ``RateLimits`` is a token bucket per channel: ``requests_per_minute``
tokens, refilled evenly; a request without a token is told how long to wait. The buckets are
the store's (``store.request_buckets``), so the processes sharing a store share each
channel's budget.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Iterable

from bot.clocks import Clock
from bot.config import key_hash
from bot.settings import AgentChannel
from bot.store.send_limits import LocalBuckets, RequestBuckets

_MINUTE = 60.0


class ChannelKeys:
    """The configured channels, found by a presented key."""

    def __init__(self, channels: Iterable[AgentChannel]) -> None:
        self._channels = tuple(channels)

    @property
    def names(self) -> list[str]:
        return [channel.name for channel in self._channels]

    def channel_for(self, presented: str) -> AgentChannel | None:
        """The channel whose key ``presented`` is, or None."""
        digest = key_hash(presented)
        found = None
        for channel in self._channels:  # every one compared: the time does not tell which
            if hmac.compare_digest(digest, channel.key_sha256):
                found = channel
        return found

    def by_name(self, name: str) -> AgentChannel | None:
        return next((channel for channel in self._channels if channel.name == name), None)


def bearer_key(header: str | None) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header value."""
    if not header:
        return None
    scheme, _, key = header.partition(" ")
    key = key.strip()
    return key if scheme.lower() == "bearer" and key else None


class RateLimits:
    """A token bucket per channel; ``take`` answers None (go on) or the seconds to wait."""

    def __init__(
        self, buckets: RequestBuckets | None = None, *, clock: Clock = time.monotonic
    ) -> None:
        # No buckets given: this process's own, on ``clock``.
        self._buckets = buckets if buckets is not None else LocalBuckets(clock)

    async def take(self, channel: AgentChannel) -> float | None:
        """Take one of ``channel``'s requests: None, or the seconds until one is there."""
        return await self._buckets.take(channel.name, channel.requests_per_minute, _MINUTE)
