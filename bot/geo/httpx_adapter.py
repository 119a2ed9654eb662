"""A geopy adapter that speaks HTTP through httpx, so geocoders run on the bot's event loop.

geopy ships asyncio support only over aiohttp; the bot already depends on httpx, and an httpx
transport can be swapped in tests, so no geocoding test ever leaves the process.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

import httpx
from geopy.adapters import AdapterHTTPError, BaseAsyncAdapter
from geopy.exc import (
    GeocoderParseError,
    GeocoderServiceError,
    GeocoderTimedOut,
    GeocoderUnavailable,
)


class HttpxAdapter(BaseAsyncAdapter):  # type: ignore[misc]  # geopy ships no type hints
    """geopy ``BaseAsyncAdapter`` over one ``httpx.AsyncClient``.

    geopy builds adapters itself through ``adapter_factory``; use ``factory(transport)`` to
    bind a transport (tests pass ``httpx.MockTransport``).
    """

    def __init__(
        self,
        *,
        proxies: Any = None,
        ssl_context: Any = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__(proxies=proxies, ssl_context=ssl_context)
        self._client = httpx.AsyncClient(transport=transport, follow_redirects=True)

    @classmethod
    def factory(cls, transport: httpx.AsyncBaseTransport | None = None) -> Any:
        """An ``adapter_factory`` for geopy geocoders that uses ``transport``."""

        def build(*, proxies: Any, ssl_context: Any) -> HttpxAdapter:
            return cls(proxies=proxies, ssl_context=ssl_context, transport=transport)

        return build

    async def __aenter__(self) -> HttpxAdapter:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._client.aclose()

    async def get_text(self, url: str, *, timeout: float, headers: dict[str, str]) -> str:
        response = await self._request(url, timeout=timeout, headers=headers)
        return response.text

    async def get_json(self, url: str, *, timeout: float, headers: dict[str, str]) -> Any:
        response = await self._request(url, timeout=timeout, headers=headers)
        try:
            return json.loads(response.text)
        except ValueError as exc:
            raise GeocoderParseError("the geocoder answered with invalid JSON") from exc

    async def _request(
        self, url: str, *, timeout: float, headers: dict[str, str]
    ) -> httpx.Response:
        try:
            response = await self._client.get(url, timeout=timeout, headers=headers)
        except httpx.TimeoutException as exc:
            raise GeocoderTimedOut("the geocoder did not answer in time") from exc
        except httpx.TransportError as exc:
            raise GeocoderUnavailable("the geocoder could not be reached") from exc
        except httpx.HTTPError as exc:
            raise GeocoderServiceError("the geocoder request failed") from exc
        if response.status_code >= 400:
            raise AdapterHTTPError(
                f"the geocoder answered HTTP {response.status_code}",
                status_code=response.status_code,
                headers=response.headers,
                text=response.text,
            )
        return response
