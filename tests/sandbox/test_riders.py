"""GET /riders: who is listed, distances, sort order, filters and query validation."""

from __future__ import annotations

import httpx
import pytest

from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import Rider, RiderLocation
from bot.sandbox import Sandbox
from tests.support.clock import FakeClock

YABA = {"pickup_lat": "6.5090", "pickup_lng": "3.3792"}
NEAR_YABA = {"pickup_lat": 6.5090, "pickup_lng": 3.3792}


def ids(riders: list[Rider]) -> list[str]:
    return [rider.id for rider in riders]


async def test_only_accepted_riders_are_listed(partner: PartnerClient) -> None:
    riders = await partner.list_riders()
    assert "rdr_aisha" not in ids(riders)
    assert {r.fleet_link_status for r in riders} == {"accepted"}


async def test_without_pickup_sorted_by_presence_then_name(partner: PartnerClient) -> None:
    riders = await partner.list_riders()
    assert ids(riders) == ["rdr_emeka", "rdr_tunde", "rdr_chiamaka", "rdr_segun"]
    assert all(r.distance_km is None for r in riders)


async def test_pickup_fills_distance_and_sorts_closer_first(partner: PartnerClient) -> None:
    riders = await partner.list_riders(**NEAR_YABA)
    assert ids(riders) == ["rdr_tunde", "rdr_emeka", "rdr_chiamaka", "rdr_segun"]
    distances = [r.distance_km for r in riders]
    known = [d for d in distances if d is not None]
    assert known == sorted(known) and len(known) == 3 and distances[3] is None
    assert 0.8 < known[0] < 1.0  # straight line, Yaba to Tunde


async def test_presence_breaks_distance_ties(sandbox: Sandbox, partner: PartnerClient) -> None:
    for rider in ("rdr_tunde", "rdr_chiamaka", "rdr_emeka"):
        sandbox.move_rider(rider, 6.52, 3.38)
    sandbox.set_presence("rdr_emeka", "unavailable")
    riders = await partner.list_riders(**NEAR_YABA)
    assert ids(riders)[:3] == ["rdr_tunde", "rdr_chiamaka", "rdr_emeka"]


async def test_radius_hides_only_riders_known_to_be_farther(partner: PartnerClient) -> None:
    riders = await partner.list_riders(radius_km=5, **NEAR_YABA)
    assert ids(riders) == ["rdr_tunde", "rdr_emeka", "rdr_segun"]
    riders = await partner.list_riders(radius_km=0, **NEAR_YABA)
    assert ids(riders) == ["rdr_segun"]
    riders = await partner.list_riders(radius_km=500, **NEAR_YABA)
    assert len(riders) == 4


async def test_idle_only_hides_busy_riders(sandbox: Sandbox, partner: PartnerClient) -> None:
    assert set(ids(await partner.list_riders(idle_only=True))) == {"rdr_tunde", "rdr_emeka"}
    assert len(await partner.list_riders(idle_only=False)) == 4
    sandbox._core.store.riders["rdr_emeka"].active_delivery_count = 1
    assert ids(await partner.list_riders(idle_only=True)) == ["rdr_tunde"]


async def test_location_freshness_follows_the_clock(
    sandbox: Sandbox, partner: PartnerClient, clock: FakeClock
) -> None:
    def locations(riders: list[Rider]) -> dict[str, RiderLocation | None]:
        return {rider.id: rider.location for rider in riders}

    now = locations(await partner.list_riders())
    assert now["rdr_tunde"] is not None and now["rdr_tunde"].fresh is True
    assert now["rdr_emeka"] is not None and now["rdr_emeka"].fresh is False
    assert now["rdr_segun"] is None
    clock.advance(28 * 60)
    later = locations(await partner.list_riders())
    assert later["rdr_tunde"] is not None and later["rdr_tunde"].fresh is False
    sandbox.move_rider("rdr_tunde", 6.51, 3.37)
    (tunde,) = [r for r in await partner.list_riders() if r.id == "rdr_tunde"]
    assert tunde.location is not None and tunde.location.fresh is True
    assert tunde.location.updated_at == tunde.last_active_at


async def test_a_zero_pin_pickup_is_refused(partner: PartnerClient) -> None:
    # The client checks ranges but leaves the zero-pin rule to the service.
    with pytest.raises(errors.InvalidFields) as caught:
        await partner.list_riders(pickup_lat=0, pickup_lng=0)
    assert caught.value.status == 400
    assert set(caught.value.field_errors) == {"pickup_lat", "pickup_lng"}


async def test_rider_fields(api: httpx.AsyncClient) -> None:
    # Raw httpx on purpose: this checks the wire shape itself (timestamps as sent, nulls).
    response = await api.get("/riders")
    tunde = next(r for r in response.json()["riders"] if r["id"] == "rdr_tunde")
    assert tunde == {
        "id": "rdr_tunde",
        "name": "Tunde Bakare",
        "vehicle_type": "motorbike",
        "fleet_link_status": "accepted",
        "presence": "available",
        "presence_updated_at": "2027-01-15T08:00:00.000Z",
        "active_delivery_count": 0,
        "last_active_at": "2027-01-15T07:59:00.000Z",
        "location": {
            "latitude": 6.5095,
            "longitude": 3.3711,
            "updated_at": "2027-01-15T07:58:00.000Z",
            "fresh": True,
        },
        "distance_km": None,
        "average_rating": 4.8,
        "total_deliveries": 312,
    }


@pytest.mark.parametrize(
    ("params", "fields"),
    [
        ({"pickup_lat": "6.5"}, {"pickup_lng"}),
        ({"pickup_lng": "3.3"}, {"pickup_lat"}),
        ({"pickup_lat": "north", "pickup_lng": "3.3"}, {"pickup_lat"}),
        ({"pickup_lat": "6.5", "pickup_lng": "east"}, {"pickup_lng"}),
        ({"pickup_lat": "north", "pickup_lng": "east"}, {"pickup_lat", "pickup_lng"}),
        ({"pickup_lat": "95", "pickup_lng": "3.3"}, {"pickup_lat"}),
        ({"pickup_lat": "6.5", "pickup_lng": "200"}, {"pickup_lng"}),
        ({"pickup_lat": "6.5", "pickup_lng": "-180.5"}, {"pickup_lng"}),
        ({"pickup_lat": "-91", "pickup_lng": "181"}, {"pickup_lat", "pickup_lng"}),
        ({"pickup_lat": "0", "pickup_lng": "0"}, {"pickup_lat", "pickup_lng"}),
        ({"pickup_lat": "nan", "pickup_lng": "3.3"}, {"pickup_lat"}),
        ({"pickup_lat": "6.5", "pickup_lng": "inf"}, {"pickup_lng"}),
        ({"radius_km": "5"}, {"radius_km"}),
        ({"radius_km": "501", **YABA}, {"radius_km"}),
        ({"radius_km": "-1", **YABA}, {"radius_km"}),
        ({"radius_km": "far", **YABA}, {"radius_km"}),
        ({"idle_only": "yes"}, {"idle_only"}),
        ({"idle_only": "True"}, {"idle_only"}),
        ({"near": "me"}, {"near"}),
    ],
)
async def test_query_is_validated(
    api: httpx.AsyncClient, params: dict[str, str], fields: set[str]
) -> None:
    # Raw httpx on purpose: the client's own checks would stop these before sending.
    response = await api.get("/riders", params=params)
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    assert set(response.json()["fieldErrors"]) == fields


async def test_repeated_parameter_is_refused(api: httpx.AsyncClient) -> None:
    response = await api.get("/riders?idle_only=true&idle_only=false")
    assert response.status_code == 400 and "idle_only" in response.json()["fieldErrors"]
