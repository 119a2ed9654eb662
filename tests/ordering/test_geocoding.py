"""geocoder_from_config: none means no typed addresses; nominatim is the geopy geocoder."""

from __future__ import annotations

import httpx

from bot.config import GeocodingConfig
from bot.geo.nominatim import NominatimGeocoder
from bot.ordering import geocoder_from_config
from conversations import GeocodedPlace


def test_no_provider_means_no_geocoder() -> None:
    assert geocoder_from_config(GeocodingConfig.model_validate({"provider": "none"})) is None


async def test_nominatim_is_configured_from_the_section() -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            200, json=[{"lat": "6.5095", "lon": "3.3760", "display_name": "Ozone Cinema, Yaba"}]
        )

    config = GeocodingConfig.model_validate(
        {
            "provider": "nominatim",
            "nominatim": {
                "user_agent": "acme-deliverybot/1.0 (ops@acme.example)",
                "domain": "geo.acme.example",
                "country_codes": ["NG"],
                "min_delay_seconds": 0,
            },
        }
    )
    geocoder = geocoder_from_config(config, transport=httpx.MockTransport(answer))
    assert isinstance(geocoder, NominatimGeocoder)
    try:
        found = await geocoder.geocode("ozone cinema")
    finally:
        await geocoder.aclose()
    assert found == [GeocodedPlace(address="Ozone Cinema, Yaba", lat=6.5095, lng=3.376)]
    request = seen[0]
    assert request.url.host == "geo.acme.example"
    assert request.url.params["countrycodes"] == "ng"
    assert request.headers["user-agent"] == "acme-deliverybot/1.0 (ops@acme.example)"
