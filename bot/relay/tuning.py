"""``RelayTuning``: the relay's batch size, back-off and give-up points, in one place."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RelayTuning:
    """How hard the relay tries before it moves on.

    * ``batch_size``: events read from the inbox per query.
    * ``retry_base_seconds`` / ``retry_cap_seconds``: after the n-th failed attempt an event
      waits ``base * 2**(n-1)`` seconds, at most ``cap`` (1, 2, 4 ... 300 s by default).
    * ``max_attempts``: an event whose messages still fail after this many attempts is given
      up (logged as an error, marked processed) so one poison message cannot hold its delivery
      for ever. The default, 30 attempts, spans about two hours of a messenger outage.
    * ``link_attempts``: an event of a delivery not linked to a chat is tried this many
      times, the wait growing as above, before the relay asks whether an open create may
      still link it (then it is held for that create: ``inbox_worker``) or relays it to
      operators only, as for deliveries ordered elsewhere (dashboard, public portal). 1 by
      default: every create the bot sends is recorded before it leaves and its record leaves
      only in the commit that links its delivery, so nothing is gained by waiting blindly;
      more only for a bot that sends creates unrecorded (an engine built without a store).
    * ``max_in_flight``: events whose messages are queued or being sent at once. Past it, new
      events wait in the inbox; a crash repeats at most the messages of these.
    * ``coalesce_chars``: the longest text a chat's backlog is gathered into (Telegram takes
      4,096 characters in one message).
    """

    batch_size: int = 100
    retry_base_seconds: float = 1.0
    retry_cap_seconds: float = 300.0
    max_attempts: int = 30
    link_attempts: int = 1
    max_in_flight: int = 1_000
    coalesce_chars: int = 4_000

    def __post_init__(self) -> None:
        if self.batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        if not 0 < self.retry_base_seconds <= self.retry_cap_seconds:
            raise ValueError("need 0 < retry_base_seconds <= retry_cap_seconds")
        if self.link_attempts < 1 or self.max_attempts < self.link_attempts:
            raise ValueError("need 1 <= link_attempts <= max_attempts")
        if self.max_in_flight < 1 or self.coalesce_chars < 1:
            raise ValueError("max_in_flight and coalesce_chars must be at least 1")

    def retry_delay(self, attempts: int) -> float:
        """Seconds to wait after ``attempts`` failed attempts."""
        exponent = min(max(attempts, 1) - 1, 32)  # 2**32 s is far past any cap
        return min(self.retry_cap_seconds, self.retry_base_seconds * 2.0**exponent)
