"""The foundation's PartnerClient against the sandbox: the models parse what the sandbox sends,
the sandbox's errors land on the right classes of the error tree, the request model refuses
exactly what the sandbox refuses, and the client's answers to a lost response (a create not
repeated but finished by its key, re-reads) hold when the sandbox applies a call and then loses
its answer."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import ERRAND_FIELDS, CreateDeliveryRequest
from bot.sandbox import Sandbox

from .support import WAREHOUSE_IKEJA, MakeSandbox, PartnerFor

Body = dict[str, Any]


@pytest.fixture
def partner(manual_partner: PartnerClient) -> PartnerClient:
    """Here the client talks to the sandbox with auto-dispatch off."""
    return manual_partner


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
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body, partner_for: PartnerFor
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
    manual_sandbox.mark_paid(delivery.id)  # paid before dispatch, as the business asks
    manual_sandbox.advance_status(delivery.id)
    with pytest.raises(errors.CancelNotAllowed):
        await partner.cancel_delivery(delivery.id, "too late now")
    with pytest.raises(errors.AssignNotAllowed):
        await partner.assign_rider(delivery.id, "rdr_emeka")
    stranger = partner_for(manual_sandbox, key="sk_live_" + "9" * 30)
    with pytest.raises(errors.InvalidApiKey):
        await stranger.get_capabilities()


async def test_fee_required_and_service_disabled(
    make_sandbox: MakeSandbox,
    partner_for: PartnerFor,
    scenario_data: Body,
    pickup_body: Body,
    errand_body: Body,
) -> None:
    scenario_data["pricing"]["rules"] = []
    scenario_data["capabilities"]["enabledServiceKinds"] = ["pickup_delivery"]
    partner = partner_for(make_sandbox(scenario_data))
    delivery = await partner.create_delivery(CreateDeliveryRequest.model_validate(pickup_body))
    assert delivery.status == "awaiting_price"
    with pytest.raises(errors.FeeRequired):
        await partner.assign_rider(delivery.id, "rdr_tunde")
    with pytest.raises(errors.ServiceDisabled):
        await partner.create_delivery(CreateDeliveryRequest.model_validate(errand_body))


async def test_a_create_the_service_failed_is_not_repeated_and_its_key_finishes_it(
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body
) -> None:
    # A 503 may come after the delivery was made: the client does not guess, the caller (the
    # follow-up worker) reads back and sends the same request with the same key.
    request = CreateDeliveryRequest.model_validate({**pickup_body, "idempotencyKey": "order-0007"})
    manual_sandbox.inject_fault("create_delivery", "status", count=1)
    with pytest.raises(errors.CreateFailed):
        await partner.create_delivery(request)
    assert manual_sandbox.call_counts()["create_delivery"] == 1
    assert [d.id async for d in partner.iter_deliveries()] == []
    delivery = await partner.create_delivery(request)
    assert [d.id async for d in partner.iter_deliveries()] == [delivery.id]


async def test_a_rate_limited_create_is_waited_out_with_one_idempotency_key(
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body
) -> None:
    # A 429 is refused before anything is done: the one failure a create is re-sent after.
    manual_sandbox.inject_fault("create_delivery", "status", status=429, code="rate_limited")
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


# --- a call that was applied, but whose answer was lost -------------------------------------------


@pytest.mark.parametrize(
    ("kind", "raised"), [("status", errors.CreateFailed), ("drop", errors.ConnectionFailed)]
)
async def test_a_create_whose_answer_was_lost_is_not_made_twice(
    manual_sandbox: Sandbox,
    partner: PartnerClient,
    pickup_body: Body,
    kind: str,
    raised: type[errors.PartnerError],
) -> None:
    request = CreateDeliveryRequest.model_validate({**pickup_body, "idempotencyKey": "order-0008"})
    manual_sandbox.inject_fault("create_delivery", kind, when="after")
    with pytest.raises(raised):
        await partner.create_delivery(request)
    # Not repeated by the client: on a service that does not deduplicate keys that would be a
    # second delivery. The one the lost answer made is there to be read back.
    assert manual_sandbox.call_counts()["create_delivery"] == 1
    (made,) = [d async for d in partner.iter_deliveries()]
    assert made.status == "pending"
    # Sent again with the same key (the follow-up's retry): this service returns that delivery.
    again = await partner.create_delivery(request)
    assert again.id == made.id
    assert [d.id async for d in partner.iter_deliveries()] == [made.id]


@pytest.mark.parametrize(("kind", "status"), [("status", 503), ("drop", None)])
async def test_a_cancel_whose_answer_was_lost_is_read_back(
    manual_sandbox: Sandbox,
    partner: PartnerClient,
    pickup_body: Body,
    kind: str,
    status: int | None,
) -> None:
    delivery = await partner.create_delivery(CreateDeliveryRequest.model_validate(pickup_body))
    manual_sandbox.inject_fault("cancel_delivery", kind, status=status, when="after")
    cancelled = await partner.cancel_delivery(delivery.id, "Customer changed their mind")
    assert cancelled.status == "cancelled"
    assert cancelled.cancellation_reason == "Customer changed their mind"
    # The retry was refused (already cancelled), so the client read the delivery back.
    assert manual_sandbox.call_counts()["cancel_delivery"] == 2
    assert manual_sandbox.call_counts()["get_delivery"] == 1


@pytest.mark.parametrize(("kind", "status"), [("status", 503), ("drop", None)])
async def test_an_assign_whose_answer_was_lost_is_read_back(
    manual_sandbox: Sandbox,
    partner: PartnerClient,
    pickup_body: Body,
    kind: str,
    status: int | None,
) -> None:
    delivery = await partner.create_delivery(CreateDeliveryRequest.model_validate(pickup_body))
    manual_sandbox.inject_fault("assign_rider", kind, status=status, when="after")
    matched = await partner.assign_rider(delivery.id, "rdr_tunde")
    assert matched.status == "matched" and matched.rider and matched.rider.id == "rdr_tunde"
    assert manual_sandbox.call_counts()["assign_rider"] == 1  # never re-sent, only re-read
    assert manual_sandbox.call_counts()["get_delivery"] == 1


async def test_an_unassign_whose_answer_was_lost_is_read_back(
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body
) -> None:
    delivery = await partner.create_delivery(CreateDeliveryRequest.model_validate(pickup_body))
    await partner.assign_rider(delivery.id, "rdr_tunde")
    manual_sandbox.inject_fault("unassign_rider", "drop", when="after")
    pending = await partner.unassign_rider(delivery.id)
    assert pending.status == "pending" and not pending.rider_assigned
    assert manual_sandbox.call_counts()["unassign_rider"] == 1


async def test_an_assign_lost_before_it_was_applied_is_reported(
    manual_sandbox: Sandbox, partner: PartnerClient, pickup_body: Body
) -> None:
    delivery = await partner.create_delivery(CreateDeliveryRequest.model_validate(pickup_body))
    manual_sandbox.inject_fault("assign_rider", "drop", when="before")
    with pytest.raises(errors.ConnectionFailed):
        await partner.assign_rider(delivery.id, "rdr_tunde")
    assert manual_sandbox.delivery(delivery.id)["status"] == "pending"  # the re-read saw that


# --- the request model refuses what the sandbox refuses -------------------------------------------

PICKUP_REFUSALS = [
    ("POD without an amount", {"isPODEnabled": True}, {"podAmount"}),
    ("amount without POD", {"podAmount": 500.0}, {"podAmount"}),
    ("sender phone of 5 digits", {"senderPhone": "12345"}, {"senderPhone"}),
    ("receiver phone in words", {"receiverPhone": "call me"}, {"receiverPhone"}),
    ("pickup contact phone", {"pickupContactPhone": "+1 (555) 12"}, {"pickupContactPhone"}),
    ("warehouseId in pickup mode", {"warehouseId": WAREHOUSE_IKEJA}, {"warehouseId"}),
    ("shop phone on a pickup_delivery", {"shopPhone": ""}, {"shopPhone"}),
    ("empty idempotency key", {"idempotencyKey": ""}, {"idempotencyKey"}),
]
ERRAND_REFUSALS = [
    ("errand in warehouse mode",
     {"deliveryMode": "warehouse", "warehouseId": WAREHOUSE_IKEJA}, {"deliveryMode"}),
    ("link errand without links", {"errandMode": "link"}, {"errandLinks"}),
    ("shop phone of 3 digits", {"shopPhone": "123"}, {"shopPhone"}),
    ("budget in words", {"errandBudgetNgn": "a lot"}, {"errandBudgetNgn"}),
    *[(f"no {name}", {name: None}, {name}) for name in ERRAND_FIELDS],
]  # fmt: skip


async def refused_by_both(
    partner: PartnerClient, api: httpx.AsyncClient, base: Body, changes: Body
) -> tuple[set[str], set[str]]:
    """The fields the client's own check and the sandbox name for ``base`` + ``changes``."""
    request = CreateDeliveryRequest.model_validate(base)
    for name, value in changes.items():
        setattr(request, name, value)  # request models do not validate assignment
    with pytest.raises(errors.InvalidFields) as local:
        await partner.create_delivery(request)
    assert local.value.status == 0  # refused before sending
    body = {name: value for name, value in {**base, **changes}.items() if value is not None}
    response = await api.post("/deliveries", json=body)
    assert response.status_code == 400, response.text
    return set(local.value.field_errors), set(response.json()["fieldErrors"])


@pytest.mark.parametrize(
    ("changes", "fields"), [r[1:] for r in PICKUP_REFUSALS], ids=[r[0] for r in PICKUP_REFUSALS]
)
async def test_the_model_and_the_sandbox_refuse_the_same_pickup_deliveries(
    partner: PartnerClient,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    changes: Body,
    fields: set[str],
) -> None:
    assert await refused_by_both(partner, manual_api, pickup_body, changes) == (fields, fields)


@pytest.mark.parametrize(
    ("changes", "fields"), [r[1:] for r in ERRAND_REFUSALS], ids=[r[0] for r in ERRAND_REFUSALS]
)
async def test_the_model_and_the_sandbox_refuse_the_same_errands(
    partner: PartnerClient,
    manual_api: httpx.AsyncClient,
    errand_body: Body,
    changes: Body,
    fields: set[str],
) -> None:
    assert await refused_by_both(partner, manual_api, errand_body, changes) == (fields, fields)


@pytest.mark.parametrize(
    "changes",
    [
        {"shopPhone": "", "errandBudgetNgn": "", "errandLinks": []},
        {"shopPhone": "+234 801 234 5678", "errandBudgetNgn": "8,000.50"},
        {"idempotencyKey": " " * 8},
    ],
    ids=["empty extras", "filled extras", "blank key of 8"],
)
async def test_the_model_and_the_sandbox_accept_the_same_errands(
    manual_sandbox: Sandbox, partner: PartnerClient, errand_body: Body, changes: Body
) -> None:
    request = CreateDeliveryRequest.model_validate({**errand_body, **changes})
    delivery = await partner.create_delivery(request)
    assert manual_sandbox.delivery(delivery.id)["service_kind"] == "errand"
