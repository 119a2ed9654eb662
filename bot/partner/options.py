"""Every tunable number of the Partner API client, in one place.

The defaults are what a bot should use against the real service; ``[partner]`` in the config
file overrides them (see ``config.example.toml``), and tests shrink them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AuthHeaderStyle = Literal["bearer", "x-api-key"]


@dataclass(frozen=True)
class ClientOptions:
    """Timeouts, retry and back-off limits for ``PartnerClient``."""

    auth_header: AuthHeaderStyle = "bearer"
    connect_timeout: float = 5.0
    read_timeout: float = 20.0
    write_timeout: float = 20.0
    pool_timeout: float = 5.0
    # Attempts for a failure that may be retried (GETs, cancel; a create, assign or unassign
    # only when it surely never left).
    max_attempts: int = 4
    backoff_base_seconds: float = 0.5
    backoff_cap_seconds: float = 8.0
    # A 429 is waited out at most this many times, each wait at most this long; a longer
    # Retry-After is reported to the caller instead of blocking a chat for minutes. One whole
    # rate-limit window (60 s), so a Retry-After up to the window's end is waited out.
    rate_limit_retries: int = 3
    max_rate_limit_wait_seconds: float = 60.0
    capabilities_ttl_seconds: float = 300.0
    user_agent: str = "deliverybot/0.1"

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.rate_limit_retries < 0:
            raise ValueError("rate_limit_retries must not be negative")
        for name in (
            "connect_timeout",
            "read_timeout",
            "write_timeout",
            "pool_timeout",
            "backoff_base_seconds",
            "backoff_cap_seconds",
            "max_rate_limit_wait_seconds",
            "capabilities_ttl_seconds",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")
