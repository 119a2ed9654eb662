"""The foundation's PartnerClient against the sandbox: the models parse what the sandbox sends,
and the sandbox's errors land on the right classes of the error tree."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest
from bot.sandbox import Sandbox

from .support import FakeClock

Body = dict[str, Any]


def client_for(box: Sandbox, clock: FakeClock, key: str | None = None) -> PartnerClient:
    return PartnerClient(
        box.base_url,
        key or box.api_key,
        transport=httpx.ASGITransport(app=box.app),
        clock=clock,
        sleep=clock.sleep,
    )


@pytest.fixture
async def partner(manual_sandbox: Sandbox, clock: FakeClock) -> AsyncIterator[PartnerClient]:
    async with client_for(manual_sandbox, clock) as client:
        yield client


async def test_catalogue_parses_into_the_models(partner: PartnerClient) -> None:
    caps = await partner.get_capabilities()
    assert caps.allows_kind("errand") and caps.errand_modes == ["at_place", "link", "photo"]
    assert caps.collection_methods == ["cash_on_delivery", "online_checkout"]
    assert caps.rateLimits.requestsPerMinute == 180
    warehouses = await partner.list_warehouses()
    assert all(w.coords is not None for w in warehouses)
    locations = {loc.id: loc for loc in await partner.list_service_locations()}
    moremi = locations["loc_moremi_hall"].unit.choices()
    assert moremi[:3] == ["Warden's office", "A001", "A002"] and len(moremi) == 81


async def test_a_delivery_through_the_client(
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body
) -> None:
    request = CreateDeliveryRequest.model_validate(pickup_body)
    delivery = await partner.create_delivery(request)
    assert delivery.status == "pending" and delivery.tracking_url
    riders = await partner.list_riders(pickup_lat=6.509, pickup_lng=3.3792, radius_km=5)
    assert riders[0].id == "rdr_tunde" and riders[0].location and riders[0].location.fresh
    matched = await partner.assign_rider(delivery.id, riders[0].id)
    assert matched.status == "matched" and matched.rider and matched.rider.id == "rdr_tunde"
    pending = await partner.unassign_rider(delivery.id)
    assert pending.status == "pending" and not pending.rider_assigned
    cancelled = await partner.cancel_delivery(delivery.id, "Customer cancelled the order")
    assert cancelled.status == "cancelled" and cancelled.cancelled_at is not None
    listed = [d.id async for d in partner.iter_deliveries(status="cancelled")]
    assert listed == [delivery.id]


async def test_errors_map_to_the_tree(
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body, clock: FakeClock
) -> None:
    far = CreateDeliveryRequest.model_validate(
        {**pickup_body, "deliveryCoords": {"lng": 3.98, "lat": 6.58}}
    )
    with pytest.raises(errors.CreateRejected) as outside:
        await partner.create_delivery(far)
    assert outside.value.code == "outside_coverage" and outside.value.invalidates_capabilities
    foreign = CreateDeliveryRequest.model_validate(
        {**pickup_body, "packageImages": ["https://elsewhere.example/a.jpg"]}
    )
    with pytest.raises(errors.ImageHostRejected):
        await partner.create_delivery(foreign)
    pos = CreateDeliveryRequest.model_validate(
        {**pickup_body, "customerCollectionMethod": "online_checkout"}
    )
    delivery = await partner.create_delivery(pos)
    with pytest.raises(errors.RiderNotActive):
        await partner.assign_rider(delivery.id, "rdr_aisha")
    with pytest.raises(errors.RiderNotFound):
        await partner.assign_rider(delivery.id, "rdr_nobody")
    with pytest.raises(errors.NotFound):
        await partner.get_delivery("00000000-0000-4000-8000-000000000000")
    with pytest.raises(errors.UnassignNotAllowed):
        await partner.unassign_rider(delivery.id)
    await partner.assign_rider(delivery.id, "rdr_tunde")
    manual_sandbox.advance_status(delivery.id)
    with pytest.raises(errors.CancelNotAllowed):
        await partner.cancel_delivery(delivery.id, "too late now")
    with pytest.raises(errors.AssignNotAllowed):
        await partner.assign_rider(delivery.id, "rdr_emeka")
    async with client_for(manual_sandbox, clock, key="sk_live_" + "9" * 30) as stranger:
        with pytest.raises(errors.InvalidApiKey):
            await stranger.get_capabilities()


async def test_fee_required_and_service_disabled(
    make_sandbox: Any, scenario_data: Body, pickup_body: Body, errand_body: Body, clock: FakeClock
) -> None:
    scenario_data["pricing"]["rules"] = []
    scenario_data["capabilities"]["enabledServiceKinds"] = ["pickup_delivery"]
    box = make_sandbox(scenario_data)
    async with client_for(box, clock) as partner:
        delivery = await partner.create_delivery(CreateDeliveryRequest.model_validate(pickup_body))
        assert delivery.status == "awaiting_price"
        with pytest.raises(errors.FeeRequired):
            await partner.assign_rider(delivery.id, "rdr_tunde")
        with pytest.raises(errors.ServiceDisabled):
            await partner.create_delivery(CreateDeliveryRequest.model_validate(errand_body))


async def test_client_retries_a_failed_create_with_one_idempotency_key(
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body
) -> None:
    manual_sandbox.inject_fault("create_delivery", "status", count=1)
    delivery = await partner.create_delivery(CreateDeliveryRequest.model_validate(pickup_body))
    assert manual_sandbox.call_counts()["create_delivery"] == 2
    assert [d.id async for d in partner.iter_deliveries()] == [delivery.id]


async def test_client_survives_a_dropped_connection_on_a_read(
    manual_sandbox: Sandbox, partner: PartnerClient
) -> None:
    manual_sandbox.inject_fault("get_capabilities", "drop", count=1)
    caps = await partner.get_capabilities()
    assert caps.organization.slug == "swift-lagos"
    assert manual_sandbox.call_counts()["get_capabilities"] == 2
