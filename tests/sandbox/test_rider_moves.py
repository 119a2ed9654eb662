"""The sandbox's riders move with their delivery: along its path as the status advances, by
the admin's rider progress, with fixes as old as asked, or with no location at all."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from bot.sandbox import ApiError, Sandbox
from bot.sandbox.timestamps import iso
from tests.support.clock import FakeClock

from .support import IKOYI, YABA, CreateDelivery

Body = dict[str, Any]
TUNDE = (6.5095, 3.3711)  # where the default scenario's rider for auto-dispatch stands


@pytest.fixture
async def admin(sandbox: Sandbox) -> AsyncIterator[httpx.AsyncClient]:
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox.app),
        base_url="https://sandbox.invalid/sandbox/admin",
        headers={"Authorization": f"Bearer {sandbox.admin_token}"},
    )
    async with client:
        yield client


@pytest.fixture
async def matched(api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery) -> str:
    """A delivery from Yaba to Ikoyi that auto-dispatch gave to Tunde, its fee paid."""
    delivery = await create(api, pickup_body)
    assert delivery["rider"]["id"] == "rdr_tunde"
    return str(delivery["id"])


async def location(api: httpx.AsyncClient, rider_id: str = "rdr_tunde") -> Body | None:
    """The rider's ``location`` as ``GET /riders`` lists it."""
    riders = (await api.get("/riders")).json()["riders"]
    found: Body | None = next(r for r in riders if r["id"] == rider_id)["location"]
    return found


def at(body: Body | None) -> tuple[float, float]:
    assert body is not None
    return round(body["latitude"], 6), round(body["longitude"], 6)


def between(start: tuple[float, float], end: tuple[float, float], f: float) -> tuple[float, float]:
    """The point ``f`` of the way from ``start`` to ``end`` in degrees, as the sandbox draws it."""
    return (
        round(start[0] + (end[0] - start[0]) * f, 6),
        round(start[1] + (end[1] - start[1]) * f, 6),
    )


YABA_AT = (YABA["lat"], YABA["lng"])
IKOYI_AT = (IKOYI["lat"], IKOYI["lng"])


async def test_the_rider_travels_the_path_as_the_status_advances(
    sandbox: Sandbox,
    api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    clock: FakeClock,
) -> None:
    clock.advance(90)  # Tunde's scenario fix was 2 minutes old
    delivery_id = str((await create(api, pickup_body))["id"])
    dispatched = await location(api)
    assert at(dispatched) == TUNDE  # he stays where he is, with a fix taken as he accepts
    assert dispatched is not None and dispatched["updated_at"] == iso(clock.now)
    sandbox.mark_paid(delivery_id)  # the default scenario issues its drop-off code on payment
    seen = []
    for _ in ("picked_up", "in_transit", "delivered"):
        clock.advance(60)
        sandbox.advance_status(delivery_id)
        fix = await location(api)
        assert fix is not None and fix["updated_at"] == iso(clock.now) and fix["fresh"]
        seen.append(at(fix))
    assert seen == [YABA_AT, between(YABA_AT, IKOYI_AT, 1 / 3), IKOYI_AT]


async def test_rider_progress_moves_along_the_current_leg(
    sandbox: Sandbox, admin: httpx.AsyncClient, api: httpx.AsyncClient, matched: str
) -> None:
    halfway = await admin.post(f"/deliveries/{matched}/rider-progress", json={"fraction": 0.5})
    assert halfway.status_code == 200, halfway.text
    assert at(halfway.json()["rider"]["location"]) == between(TUNDE, YABA_AT, 0.5)
    assert at(await location(api)) == between(TUNDE, YABA_AT, 0.5)
    sandbox.mark_paid(matched)
    sandbox.advance_status(matched, "picked_up")
    # After pickup the leg is pickup -> drop-off, whatever the rider did before.
    assert at(sandbox.move_rider_along(matched, 0.75)["location"]) == between(
        YABA_AT, IKOYI_AT, 0.75
    )
    sandbox.advance_status(matched, "in_transit")
    assert at(sandbox.move_rider_along(matched, 1)["location"]) == IKOYI_AT


async def test_a_rider_assigned_without_a_fix_starts_at_the_pickup(
    manual_sandbox: Sandbox, pickup_body: Body, create: CreateDelivery, connect: Any
) -> None:
    api = connect(manual_sandbox)
    delivery_id = str((await create(api, pickup_body))["id"])
    manual_sandbox.clear_rider_location("rdr_tunde")
    assigned = await api.post(f"/deliveries/{delivery_id}/assign", json={"riderId": "rdr_tunde"})
    assert assigned.status_code == 200, assigned.text
    assert await location(api) is None  # still no location: nothing to refresh
    assert at(manual_sandbox.move_rider_along(delivery_id, 0.4)["location"]) == YABA_AT


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "validation_error"),
        ({"fraction": 1.5}, 400, "validation_error"),
        ({"fraction": -0.1}, 400, "validation_error"),
        ({"fraction": "0.5"}, 400, "validation_error"),
        ({"fraction": 0.5, "speed": 3}, 400, "validation_error"),
    ],
)
async def test_rider_progress_refuses_a_bad_fraction(
    admin: httpx.AsyncClient, matched: str, body: Body, status: int, code: str
) -> None:
    response = await admin.post(f"/deliveries/{matched}/rider-progress", json=body)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["fieldErrors"]


async def test_rider_progress_needs_a_delivery_on_its_way(
    sandbox: Sandbox,
    admin: httpx.AsyncClient,
    api: httpx.AsyncClient,
    matched: str,
    pickup_body: Body,
    create: CreateDelivery,
) -> None:
    pending = await create(api, pickup_body)
    assert pending["status"] == "pending"  # Tunde is busy: nobody else to dispatch
    refused = await admin.post(
        f"/deliveries/{pending['id']}/rider-progress", json={"fraction": 0.5}
    )
    assert (refused.status_code, refused.json()["code"]) == (400, "progress_not_allowed")
    missing = await admin.post(
        "/deliveries/00000000-0000-4000-8000-000000000000/rider-progress", json={"fraction": 0}
    )
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    sandbox.mark_paid(matched)
    for _ in range(3):
        sandbox.advance_status(matched)
    with pytest.raises(ApiError) as delivered:
        sandbox.move_rider_along(matched, 0.5)
    assert delivered.value.code == "progress_not_allowed"
    with pytest.raises(ApiError) as bad:
        sandbox.move_rider_along(matched, float("nan"))
    assert bad.value.code == "validation_error"


async def test_a_fix_can_be_as_old_as_asked(
    sandbox: Sandbox, admin: httpx.AsyncClient, api: httpx.AsyncClient, clock: FakeClock
) -> None:
    moved = await admin.post(
        "/riders/rdr_tunde/location",
        json={"latitude": 6.52, "longitude": 3.38, "age_seconds": 31 * 60},
    )
    assert moved.status_code == 200, moved.text
    stale = await location(api)
    assert stale is not None and stale["fresh"] is False
    assert stale["updated_at"] == iso(clock.now - 31 * 60)
    sandbox.move_rider("rdr_tunde", 6.52, 3.38, age_seconds=150)
    recent = await location(api)
    assert recent is not None and recent["fresh"] is True
    assert recent["updated_at"] == iso(clock.now - 150)
    for age in (-1, "60", 31 * 24 * 3600):
        refused = await admin.post(
            "/riders/rdr_tunde/location",
            json={"latitude": 6.52, "longitude": 3.38, "age_seconds": age},
        )
        assert refused.status_code == 400 and "age_seconds" in refused.json()["fieldErrors"]
    with pytest.raises(ApiError):
        sandbox.move_rider("rdr_tunde", 6.52, 3.38, age_seconds=-5)


async def test_a_rider_can_have_no_location_at_all(
    sandbox: Sandbox, admin: httpx.AsyncClient, api: httpx.AsyncClient, matched: str
) -> None:
    cleared = await admin.delete("/riders/rdr_tunde/location")
    assert cleared.status_code == 200, cleared.text
    assert cleared.json()["rider"]["location"] is None
    assert await location(api) is None
    unknown = await admin.delete("/riders/rdr_nobody/location")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "rider_not_found")
    # The rider app reports again at the next milestone: he is back on the map at the pickup.
    sandbox.mark_paid(matched)
    sandbox.advance_status(matched)
    assert at(await location(api)) == YABA_AT
