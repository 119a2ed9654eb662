from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.sandbox.coverage import covers
from bot.sandbox.scenario_parts import CoverageSettings

from .support import Connect, MakeSandbox

EPE = {"lng": 3.9800, "lat": 6.5800}  # about 67 km from central Lagos
IKORODU = {"lng": 3.5105, "lat": 6.6194}  # about 18 km


def test_radius_from_hub() -> None:
    area = CoverageSettings(
        mode="radius_from_hub", hub={"lat": 6.5244, "lng": 3.3792}, radius_km=40
    )
    assert covers(area, IKORODU["lat"], IKORODU["lng"])
    assert not covers(area, EPE["lat"], EPE["lng"])


def test_selected_regions() -> None:
    area = CoverageSettings(
        mode="selected_regions",
        regions=[
            {"name": "Island", "min_lat": 6.40, "max_lat": 6.47, "min_lng": 3.38, "max_lng": 3.60},
            {"name": "Yaba", "min_lat": 6.49, "max_lat": 6.53, "min_lng": 3.36, "max_lng": 3.40},
        ],
    )
    assert covers(area, 6.45, 3.43) and covers(area, 6.51, 3.38)
    assert not covers(area, 6.60, 3.35)


def test_worldwide() -> None:
    assert covers(CoverageSettings(), -33.9, 18.4)


async def test_create_outside_coverage_is_403(
    api: httpx.AsyncClient, pickup_body: dict[str, Any]
) -> None:
    pickup_body["deliveryCoords"] = EPE
    response = await api.post("/deliveries", json=pickup_body)
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "outside_coverage"
    assert set(body["fieldErrors"]) == {"deliveryCoords"}


async def test_create_inside_coverage_is_accepted(
    api: httpx.AsyncClient, pickup_body: dict[str, Any]
) -> None:
    pickup_body["deliveryCoords"] = IKORODU
    assert (await api.post("/deliveries", json=pickup_body)).status_code == 201


@pytest.mark.parametrize(
    ("policy", "outside_end", "status"),
    [
        ("pickup_and_dropoff", "pickupCoords", 403),
        ("pickup_and_dropoff", "deliveryCoords", 403),
        ("pickup", "pickupCoords", 403),
        ("pickup", "deliveryCoords", 201),
        ("dropoff", "pickupCoords", 201),
        ("dropoff", "deliveryCoords", 403),
    ],
)
async def test_job_scope_policy(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: dict[str, Any],
    pickup_body: dict[str, Any],
    policy: str,
    outside_end: str,
    status: int,
) -> None:
    scenario_data["coverage"]["job_scope_policy"] = policy
    api = connect(make_sandbox(scenario_data))
    assert (await api.get("/capabilities")).json()["capabilities"]["coverage"] == {
        "mode": "radius_from_hub",
        "jobScopePolicy": policy,
        "radiusKm": 40.0,
        "regionCount": 0,
    }
    pickup_body[outside_end] = EPE
    assert (await api.post("/deliveries", json=pickup_body)).status_code == status


async def test_selected_regions_reported_and_enforced(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: dict[str, Any],
    pickup_body: dict[str, Any],
) -> None:
    scenario_data["coverage"] = {
        "mode": "selected_regions",
        "regions": [
            {"name": "Lagos", "min_lat": 6.35, "max_lat": 6.70, "min_lng": 3.10, "max_lng": 3.70}
        ],
    }
    api = connect(make_sandbox(scenario_data))
    coverage = (await api.get("/capabilities")).json()["capabilities"]["coverage"]
    assert coverage["mode"] == "selected_regions" and coverage["regionCount"] == 1
    assert coverage["radiusKm"] is None
    assert (await api.post("/deliveries", json=dict(pickup_body))).status_code == 201
    pickup_body["deliveryCoords"] = EPE
    assert (await api.post("/deliveries", json=pickup_body)).status_code == 403
