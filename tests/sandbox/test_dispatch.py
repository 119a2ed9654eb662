"""Auto-dispatch on create: every condition, each met and not met."""

from __future__ import annotations

from typing import Any

import httpx

from bot.sandbox import Sandbox
from tests.support.clock import FakeClock

from .support import Connect, CreateDelivery, MakeSandbox

Body = dict[str, Any]


async def test_nearby_fresh_available_rider_is_assigned(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    delivery = await create(api, pickup_body)
    assert delivery["status"] == "matched" and delivery["rider_assigned"] is True
    assert delivery["rider"] == {
        "id": "rdr_tunde",
        "name": "Tunde Bakare",
        "vehicle_type": "motorbike",
    }
    riders = {r["id"]: r for r in (await api.get("/riders")).json()["riders"]}
    assert riders["rdr_tunde"]["presence"] == "on_delivery"
    assert riders["rdr_tunde"]["active_delivery_count"] == 1


async def test_second_create_finds_no_free_rider(
    api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    await create(api, pickup_body)
    # Emeka is available and near, but his GPS fix is 95 minutes old; Chiamaka is busy.
    second = await create(api, pickup_body)
    assert second["status"] == "pending" and second["rider"] is None


async def test_stale_location_is_not_dispatched_until_it_is_fresh(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    sandbox.set_presence("rdr_tunde", "unavailable")
    assert (await create(api, pickup_body))["status"] == "pending"
    sandbox.move_rider("rdr_emeka", 6.5000, 3.3580)
    delivery = await create(api, pickup_body)
    assert delivery["rider"]["id"] == "rdr_emeka"


async def test_location_goes_stale_with_time(
    api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery, clock: FakeClock
) -> None:
    clock.advance(28 * 60)  # Tunde's fix was 2 minutes old: now 30 minutes
    assert (await create(api, pickup_body))["status"] == "pending"


async def test_rider_too_far_from_pickup(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    sandbox.move_rider("rdr_tunde", 6.6018, 3.3515)  # Ikeja, about 11 km from Yaba
    assert (await create(api, pickup_body))["status"] == "pending"
    sandbox.move_rider("rdr_tunde", 6.55, 3.37)  # about 4.5 km
    assert (await create(api, pickup_body))["status"] == "matched"


async def test_nearest_rider_wins(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    sandbox.move_rider("rdr_emeka", 6.5091, 3.3793)  # right at the pickup
    assert (await create(api, pickup_body))["rider"]["id"] == "rdr_emeka"


async def test_pending_invite_is_never_dispatched(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    sandbox.set_presence("rdr_tunde", "unavailable")
    sandbox.set_presence("rdr_aisha", "available")
    sandbox.move_rider("rdr_aisha", 6.5090, 3.3792)
    assert (await create(api, pickup_body))["status"] == "pending"


async def test_not_when_auto_dispatch_is_off(
    manual_api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    assert (await create(manual_api, pickup_body))["status"] == "pending"


async def test_not_when_approval_is_required(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
) -> None:
    scenario_data["capabilities"]["publicRequest"]["requireApproval"] = True
    delivery = await create(connect(make_sandbox(scenario_data)), pickup_body)
    assert delivery["status"] == "awaiting_price" and delivery["rider_assigned"] is False


async def test_not_when_the_fee_is_unknown(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
) -> None:
    scenario_data["pricing"]["rules"] = []
    delivery = await create(connect(make_sandbox(scenario_data)), pickup_body)
    assert delivery["status"] == "awaiting_price" and delivery["rider"] is None
