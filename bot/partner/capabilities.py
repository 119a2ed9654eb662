"""One copy of the org's capabilities, warehouses and service locations for every chat.

Each of the three is fetched at most once per TTL (``ClientOptions.capabilities_ttl_seconds``),
and single-flight: however many chats ask while a fetch is running, they all await that one
request, and share its result or its error (a failure is not cached; the next ask tries again).

The copies are dropped by ``invalidate()``, and by ``refresh_after(error)`` when the spec says a
create error means they are stale (``service_disabled``, coverage or payment rejections:
``PartnerError.invalidates_capabilities``). Each time capabilities load, the shared
``RequestLimiter`` takes the key's ``rateLimits``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from bot.clocks import Clock
from bot.partner.errors import PartnerError
from bot.partner.models import Capabilities, ServiceLocation, Warehouse
from bot.partner.request_limiter import RequestLimiter

if TYPE_CHECKING:
    from bot.partner.client import PartnerClient

logger = logging.getLogger(__name__)

T = TypeVar("T")


class CatalogSource(Protocol):
    """What the cache reads from (``PartnerClient`` is one)."""

    async def get_capabilities(self) -> Capabilities: ...

    async def list_warehouses(self) -> list[Warehouse]: ...

    async def list_service_locations(self) -> list[ServiceLocation]: ...


class _SharedValue(Generic[T]):
    """A value loaded at most once per TTL, with concurrent askers joined to one load."""

    def __init__(self, load: Callable[[], Awaitable[T]], ttl: float, clock: Clock) -> None:
        self._load = load
        self._ttl = ttl
        self._clock = clock
        self._kept: tuple[T, float] | None = None  # (value, expiry time)
        self._flight: asyncio.Future[T] | None = None
        # Bumped by invalidate(), so a load that started before it is not kept as fresh.
        self._generation = 0

    def fresh(self) -> bool:
        """True when a kept value is still within its TTL (``get`` returns it at once)."""
        return self._kept is not None and self._clock() < self._kept[1]

    async def get(self) -> T:
        if self._kept is not None and self._clock() < self._kept[1]:
            return self._kept[0]
        if self._flight is None:
            flight = asyncio.ensure_future(self._load_and_keep(self._generation))
            # Marks the error as seen even when every asker was cancelled meanwhile.
            flight.add_done_callback(lambda done: done.cancelled() or done.exception())
            self._flight = flight
        # Shielded: one asker giving up must not cancel the load the others are waiting for.
        return await asyncio.shield(self._flight)

    def invalidate(self) -> None:
        self._generation += 1
        self._flight = None
        self._kept = None

    async def _load_and_keep(self, generation: int) -> T:
        try:
            value = await self._load()
        finally:
            if generation == self._generation:
                self._flight = None
        if generation == self._generation:
            self._kept = (value, self._clock() + self._ttl)
        return value


class CapabilityCache:
    """Capabilities, warehouses and service locations, shared by all chats of one API key.

    ``clock`` is monotonic seconds (injectable for tests). When ``limiter`` is given, it is set
    from ``capabilities.rateLimits`` whenever capabilities load.
    """

    def __init__(
        self,
        source: CatalogSource,
        *,
        ttl_seconds: float,
        limiter: RequestLimiter | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        if not math.isfinite(ttl_seconds) or ttl_seconds < 0:
            raise ValueError("ttl_seconds must be a finite number, zero or more")
        self._source = source
        self._limiter = limiter
        self._capabilities = _SharedValue(self._load_capabilities, ttl_seconds, clock)
        self._warehouses = _SharedValue(source.list_warehouses, ttl_seconds, clock)
        self._locations = _SharedValue(source.list_service_locations, ttl_seconds, clock)

    @classmethod
    def for_client(cls, client: PartnerClient, *, clock: Clock = time.monotonic) -> CapabilityCache:
        """A cache over ``client`` with the client's TTL option and its shared limiter."""
        return cls(
            client,
            ttl_seconds=client.options.capabilities_ttl_seconds,
            limiter=client.limiter,
            clock=clock,
        )

    async def get(self) -> Capabilities:
        """The org's capabilities, fetched when missing or older than the TTL."""
        return await self._capabilities.get()

    async def warehouses(self) -> list[Warehouse]:
        """The active warehouses (a copy: callers may change the list freely)."""
        return list(await self._warehouses.get())

    async def service_locations(self) -> list[ServiceLocation]:
        """The org's service locations (a copy)."""
        return list(await self._locations.get())

    def all_fresh(self) -> bool:
        """True when all three are kept and within their TTL: reading them waits for nothing."""
        return all(
            value.fresh() for value in (self._capabilities, self._warehouses, self._locations)
        )

    def invalidate(self) -> None:
        """Forget all three; the next ask fetches again."""
        self._capabilities.invalidate()
        self._warehouses.invalidate()
        self._locations.invalidate()

    def refresh_after(self, error: PartnerError) -> bool:
        """Invalidate when ``error`` means our copy may be stale; True when it did.

        Call it with every create (or other) error: ``service_disabled``, coverage, money and
        trust rejections, and validation errors naming a capability-bound field qualify.
        """
        if not error.invalidates_capabilities:
            return False
        logger.info("capabilities invalidated after %s", error.code or type(error).__name__)
        self.invalidate()
        return True

    async def _load_capabilities(self) -> Capabilities:
        capabilities = await self._source.get_capabilities()
        if self._limiter is not None:
            limits = capabilities.rateLimits
            per_minute = limits.requestsPerMinute
            # null means a custom plan with no per-key cap; a non-positive number is nonsense.
            self._limiter.set_rate(
                per_minute if per_minute is not None and per_minute > 0 else None,
                window_seconds=float(limits.windowSeconds) if limits.windowSeconds > 0 else None,
            )
        return capabilities
