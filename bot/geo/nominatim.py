"""Typed addresses to map points, and shared pins to addresses, through OpenStreetMap's
Nominatim, politely.

Nominatim's usage policy asks for an identifying User-Agent, at most one request per second
and caching of repeated queries; all three are kept here. Results with no usable pin (a zero
or out-of-range point) are dropped: the flows must never receive an invented location.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import httpx
from geopy.exc import GeopyError
from geopy.geocoders import Nominatim

from bot.clocks import Clock, Sleep
from bot.geo.httpx_adapter import HttpxAdapter
from conversations.services import GeocodedPlace, ServiceUnavailable

_CACHE_SIZE = 512
_MAX_RESULTS = 5


class NominatimGeocoder:
    """The ``conversations.services.Geocoder`` protocol over geopy's Nominatim geocoder."""

    def __init__(
        self,
        user_agent: str,
        *,
        domain: str = "nominatim.openstreetmap.org",
        scheme: str = "https",
        country_codes: Sequence[str] = (),
        timeout: float = 10.0,
        min_delay_seconds: float = 1.0,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._geocoder = Nominatim(
            user_agent=user_agent,
            domain=domain,
            scheme=scheme,
            timeout=timeout,
            adapter_factory=HttpxAdapter.factory(transport),
        )
        self._country_codes = [code.lower() for code in country_codes]
        self._min_delay = min_delay_seconds
        self._clock = clock
        self._sleep = sleep
        self._turn = asyncio.Lock()
        self._last_request: float | None = None
        self._cache: OrderedDict[str, list[GeocodedPlace]] = OrderedDict()
        self._named: OrderedDict[tuple[float, float], GeocodedPlace | None] = OrderedDict()

    async def geocode(self, query: str) -> list[GeocodedPlace]:
        """Places matching ``query``, best first; an empty list when nothing matched."""
        key = " ".join(query.split()).casefold()
        if not key:
            return []
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        found = await self._ask(
            lambda: self._geocoder.geocode(
                key,
                exactly_one=False,
                limit=_MAX_RESULTS,
                country_codes=self._country_codes or None,
            )
        )
        places = [place for place in map(_to_place, found or []) if place is not None]
        self._cache[key] = places
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return places

    async def reverse(self, lat: float, lng: float) -> GeocodedPlace | None:
        """What Nominatim names at this pin (the nearest address, at building level), or
        None; pins a few metres apart share one answer (cached by 5 decimals, about 1 m)."""
        key = (round(lat, 5), round(lng, 5))
        if key in self._named:
            self._named.move_to_end(key)
            return self._named[key]
        found = await self._ask(lambda: self._geocoder.reverse(key, exactly_one=True, zoom=18))
        place = _to_place(found) if found is not None else None
        self._named[key] = place
        if len(self._named) > _CACHE_SIZE:
            self._named.popitem(last=False)
        return place

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._geocoder.adapter.aclose()

    async def _ask(self, request: Callable[[], Awaitable[Any]]) -> Any:
        # One request at a time, spaced by min_delay, whatever the number of chats asking.
        async with self._turn:
            if self._last_request is not None:
                wait = self._last_request + self._min_delay - self._clock()
                if wait > 0:
                    await self._sleep(wait)
            self._last_request = self._clock()
            try:
                return await request()
            except GeopyError as exc:
                raise ServiceUnavailable("the address search is not available now") from exc


def _to_place(location: Any) -> GeocodedPlace | None:
    try:
        lat, lng = float(location.latitude), float(location.longitude)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(lat) and math.isfinite(lng)):
        return None
    if not (-90 <= lat <= 90 and -180 <= lng <= 180) or (lat == 0 and lng == 0):
        return None
    return GeocodedPlace(address=str(location.address), lat=lat, lng=lng)
