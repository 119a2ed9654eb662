"""GET /riders: who is listed, distances, sort order, filters and query validation."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.sandbox import Sandbox

from .support import FakeClock

YABA = {"pickup_lat": "6.5090", "pickup_lng": "3.3792"}


async def riders(api: httpx.AsyncClient, **params: str) -> list[dict[str, Any]]:
    response = await api.get("/riders", params=params)
    assert response.status_code == 200, response.text
    rows: list[dict[str, Any]] = response.json()["riders"]
    return rows


async def test_only_accepted_riders_are_listed(api: httpx.AsyncClient) -> None:
    rows = await riders(api)
    assert "rdr_aisha" not in {r["id"] for r in rows}
    assert {r["fleet_link_status"] for r in rows} == {"accepted"}


async def test_without_pickup_sorted_by_presence_then_name(api: httpx.AsyncClient) -> None:
    rows = await riders(api)
    assert [r["id"] for r in rows] == ["rdr_emeka", "rdr_tunde", "rdr_chiamaka", "rdr_segun"]
    assert all(r["distance_km"] is None for r in rows)


async def test_pickup_fills_distance_and_sorts_closer_first(api: httpx.AsyncClient) -> None:
    rows = await riders(api, **YABA)
    assert [r["id"] for r in rows] == ["rdr_tunde", "rdr_emeka", "rdr_chiamaka", "rdr_segun"]
    distances = [r["distance_km"] for r in rows]
    assert distances[:3] == sorted(distances[:3]) and distances[3] is None
    assert 0.8 < distances[0] < 1.0  # straight line, Yaba to Tunde


async def test_presence_breaks_distance_ties(sandbox: Sandbox, api: httpx.AsyncClient) -> None:
    for rider in ("rdr_tunde", "rdr_chiamaka", "rdr_emeka"):
        sandbox.move_rider(rider, 6.52, 3.38)
    sandbox.set_presence("rdr_emeka", "unavailable")
    rows = await riders(api, **YABA)
    assert [r["id"] for r in rows][:3] == ["rdr_tunde", "rdr_chiamaka", "rdr_emeka"]


async def test_radius_hides_only_riders_known_to_be_farther(api: httpx.AsyncClient) -> None:
    rows = await riders(api, radius_km="5", **YABA)
    assert [r["id"] for r in rows] == ["rdr_tunde", "rdr_emeka", "rdr_segun"]
    rows = await riders(api, radius_km="0", **YABA)
    assert [r["id"] for r in rows] == ["rdr_segun"]
    rows = await riders(api, radius_km="500", **YABA)
    assert len(rows) == 4


async def test_idle_only_hides_busy_riders(sandbox: Sandbox, api: httpx.AsyncClient) -> None:
    assert {r["id"] for r in await riders(api, idle_only="true")} == {"rdr_tunde", "rdr_emeka"}
    assert len(await riders(api, idle_only="false")) == 4
    sandbox._core.store.riders["rdr_emeka"].active_delivery_count = 1
    assert {r["id"] for r in await riders(api, idle_only="true")} == {"rdr_tunde"}


async def test_location_freshness_follows_the_clock(
    sandbox: Sandbox, api: httpx.AsyncClient, clock: FakeClock
) -> None:
    rows = {r["id"]: r for r in await riders(api)}
    assert rows["rdr_tunde"]["location"]["fresh"] is True
    assert rows["rdr_emeka"]["location"]["fresh"] is False
    assert rows["rdr_segun"]["location"] is None
    clock.advance(28 * 60)
    rows = {r["id"]: r for r in await riders(api)}
    assert rows["rdr_tunde"]["location"]["fresh"] is False
    sandbox.move_rider("rdr_tunde", 6.51, 3.37)
    rows = {r["id"]: r for r in await riders(api)}
    assert rows["rdr_tunde"]["location"]["fresh"] is True
    assert rows["rdr_tunde"]["location"]["updated_at"] == rows["rdr_tunde"]["last_active_at"]


async def test_rider_fields(api: httpx.AsyncClient) -> None:
    tunde = next(r for r in await riders(api) if r["id"] == "rdr_tunde")
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
    ("params", "field"),
    [
        ({"pickup_lat": "6.5"}, "pickup_lng"),
        ({"pickup_lng": "3.3"}, "pickup_lat"),
        ({"pickup_lat": "north", "pickup_lng": "3.3"}, "pickup_lat"),
        ({"pickup_lat": "95", "pickup_lng": "3.3"}, "pickup_lat"),
        ({"pickup_lat": "0", "pickup_lng": "0"}, "pickup_lat"),
        ({"pickup_lat": "nan", "pickup_lng": "3.3"}, "pickup_lat"),
        ({"radius_km": "5"}, "radius_km"),
        ({"radius_km": "501", **YABA}, "radius_km"),
        ({"radius_km": "-1", **YABA}, "radius_km"),
        ({"radius_km": "far", **YABA}, "radius_km"),
        ({"idle_only": "yes"}, "idle_only"),
        ({"idle_only": "True"}, "idle_only"),
        ({"near": "me"}, "near"),
    ],
)
async def test_query_is_validated(
    api: httpx.AsyncClient, params: dict[str, str], field: str
) -> None:
    response = await api.get("/riders", params=params)
    assert response.status_code == 400
    assert response.json()["code"] == "validation_error"
    assert field in response.json()["fieldErrors"]


async def test_repeated_parameter_is_refused(api: httpx.AsyncClient) -> None:
    response = await api.get("/riders?idle_only=true&idle_only=false")
    assert response.status_code == 400 and "idle_only" in response.json()["fieldErrors"]
