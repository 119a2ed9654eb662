"""``PartnerCatalog``: the flows' ``CapabilitySource`` over the process-wide ``CapabilityCache``.

Every chat reads the same cached copy, so a busy bot asks the Partner API for capabilities,
warehouses and service locations once per TTL, not once per turn. A failure to read them is a
backend that is down, for the engine: it becomes ``ServiceUnavailable`` and the customer is told
to try again, with nothing they said lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.partner.capabilities import CapabilityCache
from bot.partner.errors import PartnerError
from bot.partner.models import Capabilities, ServiceLocation, Warehouse
from conversations.services import ServiceUnavailable

logger = logging.getLogger(__name__)

T = TypeVar("T")


class PartnerCatalog:
    """The org's allow-list and places for the flows (``conversations.CapabilitySource``)."""

    def __init__(self, cache: CapabilityCache) -> None:
        self._cache = cache

    async def capabilities(self) -> Capabilities:
        return await _read("capabilities", self._cache.get)

    async def warehouses(self) -> list[Warehouse]:
        return await _read("warehouses", self._cache.warehouses)

    async def service_locations(self) -> list[ServiceLocation]:
        return await _read("service locations", self._cache.service_locations)

    async def catalogue(self) -> tuple[Capabilities, list[Warehouse], list[ServiceLocation]]:
        """The three together; read one after the other when all are kept (a gather's tasks
        cost more than the reads), fetched at once when any must be."""
        if self._cache.all_fresh():
            return (
                await self.capabilities(),
                await self.warehouses(),
                await self.service_locations(),
            )
        caps, rows, places = await asyncio.gather(
            self.capabilities(), self.warehouses(), self.service_locations()
        )
        return caps, rows, places

    async def refresh(self) -> None:
        """Drop the shared copies; the next read of any chat fetches them again."""
        self._cache.invalidate()


async def _read(what: str, load: Callable[[], Awaitable[T]]) -> T:
    try:
        return await load()
    except PartnerError as error:
        # An auth or billing problem lands here too: the operator must see it in the log,
        # the customer can only be told to try later.
        logger.warning("could not read the org's %s: %s", what, error)
        raise ServiceUnavailable(f"the Partner API did not return the {what}") from error
