"""Limits the instances of the bot keep together: Telegram's send windows and holds, of a
chat or of every chat (``SendBudget``) and each agent channel's request bucket (``RequestBuckets``).

One process keeps them in its own memory: ``UNSHARED_SEND_BUDGET`` grants every send at once
(``bot.telegram.limits.RateLimiter``'s own windows are the whole limit) and ``LocalBuckets``
is the token bucket per channel. Instances sharing a PostgreSQL database keep them in it
(``bot.store.pg_send_limits``), so together they never exceed what one may send.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.clocks import Clock


@dataclass(frozen=True)
class SpanLimit:
    """At most ``count`` sends in any ``span`` seconds."""

    count: int
    span: float


class SendBudget(Protocol):
    """Where instances share Telegram's send windows and the holds its 429 answers ask for."""

    async def try_send(
        self,
        chat_id: int,
        overall: SpanLimit,
        chat: Sequence[SpanLimit],
        keep: float,
    ) -> float:
        """0: a send to ``chat_id`` is counted now, for every instance; or the seconds to wait
        before asking again (nothing counted). ``keep``: how long any send limits another
        (the longest span of all), after which it is forgotten."""
        ...

    async def hold(self, chat_id: int, seconds: float) -> None:
        """Send nothing more to ``chat_id`` for ``seconds``, from any instance."""
        ...

    async def hold_every_chat(self, seconds: float) -> None:
        """Send nothing more to any chat for ``seconds``, from any instance (Telegram's 429
        was about the bot as a whole)."""
        ...


class RequestBuckets(Protocol):
    """A token bucket per name: ``capacity`` tokens, refilled evenly over ``refill_seconds``."""

    async def take(self, name: str, capacity: int, refill_seconds: float) -> float | None:
        """None: a token was taken (go on); or the seconds until one is there."""
        ...


class _UnsharedSendBudget:
    """No other process sends as this bot: every send is granted, nothing is recorded."""

    async def try_send(
        self, chat_id: int, overall: SpanLimit, chat: Sequence[SpanLimit], keep: float
    ) -> float:
        """Granted now."""
        return 0.0

    async def hold(self, chat_id: int, seconds: float) -> None:
        """Nobody else to hold back (the process's own limiter holds the chat)."""

    async def hold_every_chat(self, seconds: float) -> None:
        """Nobody else to hold back (the process's own limiter holds every chat)."""


UNSHARED_SEND_BUDGET: SendBudget = _UnsharedSendBudget()


@dataclass(frozen=True)
class Bucket:
    """A bucket's tokens at a moment."""

    tokens: float
    at: float


def take_token(
    bucket: Bucket | None, now: float, capacity: int, refill_seconds: float
) -> tuple[Bucket, float | None]:
    """The bucket after a take at ``now`` (a missing bucket is full), and the take's answer:
    None (a token was taken) or the seconds until one is there."""
    full = float(capacity)
    rate = full / refill_seconds
    if bucket is None:
        bucket = Bucket(full, now)
    # A clock that steps back (another instance's server clock) never refills a bucket.
    tokens = min(full, bucket.tokens + max(0.0, now - bucket.at) * rate)
    if tokens >= 1.0:
        return Bucket(tokens - 1.0, now), None
    return Bucket(tokens, now), (1.0 - tokens) / rate


class LocalBuckets:
    """The buckets in this process's memory."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._buckets: dict[str, Bucket] = {}

    async def take(self, name: str, capacity: int, refill_seconds: float) -> float | None:
        """See ``RequestBuckets.take``."""
        bucket, wait = take_token(self._buckets.get(name), self._clock(), capacity, refill_seconds)
        self._buckets[name] = bucket
        return wait
