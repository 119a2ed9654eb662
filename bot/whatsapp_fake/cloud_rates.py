"""The Cloud API's two send rates, as token buckets on the fake's clock.

* Throughput, per business number: 80 messages a second by default (Meta's "Throughput"
  page); over it Meta answers 130429 "Rate limit hit".
* The pair rate, per (business number, customer): one message every 6 seconds, after a burst
  that borrows against it; Meta's page describes bursts of up to 45 messages in 6 seconds to
  one user. Over it Meta answers 131056 "(Business Account, Consumer Account) pair rate limit
  hit".

Both are buckets that hold ``burst`` tokens and refill at ``per_second``; a send takes one.
Meta's exact algorithm is not published: a bucket is the fake's one choice, and tests set a
small burst to see the refusal and the recovery on a hand-moved clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.clocks import Clock
from bot.whatsapp_fake.graph_errors import PAIR_RATE_LIMIT, RATE_LIMIT_HIT, ErrorCode

THROUGHPUT_PER_SECOND: Final = 80.0
"""A business number's default throughput (messages a second)."""
PAIR_BURST: Final = 45
"""Messages to one customer at once before the pair rate holds."""
PAIR_INTERVAL: Final = 6.0
"""Seconds per message to one customer, beyond the burst."""


@dataclass
class TokenBucket:
    """``burst`` tokens at most, refilled at ``per_second``; full at first."""

    burst: float
    per_second: float
    tokens: float
    updated: float

    def take(self, now: float) -> bool:
        """Take one token at ``now``; False (nothing taken) when there is none."""
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.per_second)
        self.updated = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class SendRates:
    """The number's throughput and each customer's pair rate (see the module docstring)."""

    def __init__(
        self,
        clock: Clock,
        *,
        throughput: float = THROUGHPUT_PER_SECOND,
        pair_burst: int = PAIR_BURST,
        pair_interval: float = PAIR_INTERVAL,
    ) -> None:
        self._clock = clock
        self._pair_burst = float(pair_burst)
        self._pair_rate = 1.0 / pair_interval
        self._number = TokenBucket(throughput, throughput, throughput, clock())
        self._pairs: dict[str, TokenBucket] = {}

    def refusal(self, wa_id: str) -> ErrorCode | None:
        """Take a send to ``wa_id`` from both rates; the error Meta answers when one is spent
        (the number's first: a send it refuses counts against no customer)."""
        now = self._clock()
        if not self._number.take(now):
            return RATE_LIMIT_HIT
        pair = self._pairs.get(wa_id)
        if pair is None:
            pair = self._pairs[wa_id] = TokenBucket(
                self._pair_burst, self._pair_rate, self._pair_burst, now
            )
        if not pair.take(now):
            return PAIR_RATE_LIMIT
        return None
