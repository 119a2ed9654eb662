"""NominatimGeocoder through geopy over an httpx.MockTransport speaking Nominatim's JSON."""

from __future__ import annotations

import json

import httpx
import pytest

from bot.geo.nominatim import NominatimGeocoder
from conversations.services import ServiceUnavailable
from tests.support.clock import FakeClock

YABA = {
    "place_id": 1,
    "lat": "6.5095",
    "lon": "3.3711",
    "display_name": "Yaba, Lagos Mainland, Lagos State, Nigeria",
}
ZERO_PIN = {"place_id": 2, "lat": "0", "lon": "0", "display_name": "Null Island"}


def nominatim(
    payload: object, requests: list[httpx.Request], status: int = 200
) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(status, content=json.dumps(payload).encode())

    return httpx.MockTransport(handle)


def make(transport: httpx.MockTransport, clock: FakeClock, **kwargs: object) -> NominatimGeocoder:
    return NominatimGeocoder(
        "deliverybot-tests/1.0 (ops@example.com)",
        transport=transport,
        clock=clock,
        sleep=clock.sleep,
        **kwargs,  # type: ignore[arg-type]
    )


async def test_found_places_keep_real_pins_and_drop_zero_pins() -> None:
    requests: list[httpx.Request] = []
    geocoder = make(nominatim([YABA, ZERO_PIN], requests), FakeClock(100.0), country_codes=["NG"])
    places = await geocoder.geocode("  Yaba   Lagos ")
    await geocoder.aclose()
    assert [(p.address, p.lat, p.lng) for p in places] == [(YABA["display_name"], 6.5095, 3.3711)]
    sent = requests[0]
    assert sent.url.host == "nominatim.openstreetmap.org"
    assert sent.url.params["q"] == "yaba lagos"
    assert sent.url.params["countrycodes"] == "ng"
    assert sent.headers["user-agent"].startswith("deliverybot-tests/1.0")


async def test_repeated_query_is_served_from_cache() -> None:
    requests: list[httpx.Request] = []
    geocoder = make(nominatim([YABA], requests), FakeClock(100.0))
    first = await geocoder.geocode("Yaba")
    second = await geocoder.geocode("yaba")
    await geocoder.aclose()
    assert first == second
    assert len(requests) == 1


async def test_requests_are_spaced_by_the_minimum_delay() -> None:
    requests: list[httpx.Request] = []
    clock = FakeClock(100.0)
    geocoder = make(nominatim([YABA], requests), clock, min_delay_seconds=1.0)
    await geocoder.geocode("first")
    clock.now += 0.25
    await geocoder.geocode("second")
    await geocoder.aclose()
    assert clock.slept == [pytest.approx(0.75)]
    assert len(requests) == 2


async def test_nothing_found_is_an_empty_list_and_blank_query_asks_nothing() -> None:
    requests: list[httpx.Request] = []
    geocoder = make(nominatim([], requests), FakeClock(100.0))
    assert await geocoder.geocode("nowhere at all") == []
    assert await geocoder.geocode("   ") == []
    await geocoder.aclose()
    assert len(requests) == 1


@pytest.mark.parametrize("status", [500, 503, 429])
async def test_service_failure_becomes_service_unavailable(status: int) -> None:
    requests: list[httpx.Request] = []
    geocoder = make(nominatim({"error": "down"}, requests, status=status), FakeClock(100.0))
    with pytest.raises(ServiceUnavailable):
        await geocoder.geocode("Yaba")
    await geocoder.aclose()


async def test_unreachable_server_becomes_service_unavailable() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    geocoder = make(httpx.MockTransport(refuse), FakeClock(100.0))
    with pytest.raises(ServiceUnavailable):
        await geocoder.geocode("Yaba")
    await geocoder.aclose()


async def test_a_pin_is_named_by_a_reverse_look_up_cached_per_metre() -> None:
    requests: list[httpx.Request] = []
    house = {"place_id": 3, "lat": "6.50951", "lon": "3.37112", "display_name": "12, Herbert"}
    geocoder = make(nominatim(house, requests), FakeClock(100.0))
    first = await geocoder.reverse(6.509500, 3.371100)
    again = await geocoder.reverse(6.509501, 3.371101)  # the same metre: not asked again
    await geocoder.aclose()
    assert first == again
    assert first is not None and (first.address, first.lat, first.lng) == (
        "12, Herbert",
        6.50951,
        3.37112,
    )
    assert len(requests) == 1
    assert requests[0].url.path == "/reverse"
    assert requests[0].url.params["lat"] == "6.5095"


async def test_a_pin_named_nothing_is_none() -> None:
    requests: list[httpx.Request] = []
    geocoder = make(nominatim({"error": "Unable to geocode"}, requests), FakeClock(100.0))
    assert await geocoder.reverse(6.5, 3.4) is None
    await geocoder.aclose()
