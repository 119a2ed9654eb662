"""The spec's transition table, move by move, through the API and the sandbox admin calls.

API calls go through the foundation's ``PartnerClient`` (answers parse into its models, refusals
land on its error classes); raw httpx is kept only for requests the client would not send."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from bot.partner import errors
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest, Rider
from bot.sandbox import ApiError, Sandbox

from .support import Connect, MakeSandbox, PartnerFor

Body = dict[str, Any]
Reach = Callable[[str], Awaitable[str]]
STATUSES = (
    "awaiting_price",
    "pending",
    "matched",
    "picked_up",
    "in_transit",
    "delivered",
    "cancelled",
)


@pytest.fixture
def box(make_sandbox: MakeSandbox, scenario_data: Body) -> Sandbox:
    """Auto-dispatch off and no pricing rules: every delivery starts at awaiting_price."""
    scenario_data["capabilities"]["publicRequest"]["autoDispatch"] = False
    scenario_data["pricing"]["rules"] = []
    return make_sandbox(scenario_data)


@pytest.fixture
def partner(box: Sandbox, partner_for: PartnerFor) -> PartnerClient:
    """The foundation's client: every call below that it can make goes through it."""
    return partner_for(box)


@pytest.fixture
def client(box: Sandbox, connect: Connect) -> httpx.AsyncClient:
    """Raw httpx, only for requests the client's own checks would refuse to send."""
    return connect(box)


@pytest.fixture
def reach(box: Sandbox, partner: PartnerClient, pickup_body: Body) -> Reach:
    """Create a delivery and walk it to ``status``; returns its id."""
    request = CreateDeliveryRequest.model_validate(pickup_body)

    async def run(status: str) -> str:
        delivery_id = (await partner.create_delivery(request)).id
        if status == "awaiting_price":
            return delivery_id
        box.set_fee(delivery_id, 2500)
        if status == "cancelled":
            await partner.cancel_delivery(delivery_id, "test")
            return delivery_id
        if status == "pending":
            return delivery_id
        await partner.assign_rider(delivery_id, "rdr_tunde")
        if status != "matched":
            box.mark_paid(delivery_id)  # the default business takes the fee before dispatch
        for step in ("picked_up", "in_transit", "delivered"):
            if box.delivery(delivery_id)["status"] == status:
                break
            box.advance_status(delivery_id, step)
        assert box.delivery(delivery_id)["status"] == status
        return delivery_id

    return run


async def riders_by_id(partner: PartnerClient) -> dict[str, Rider]:
    return {rider.id: rider for rider in await partner.list_riders()}


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code


async def refused(call: Awaitable[Any], error: type[errors.PartnerError], status: int) -> None:
    """``call`` fails with ``error``, as the sandbox answered it (not a local check)."""
    with pytest.raises(error) as caught:
        await call
    assert caught.value.status == status
    assert caught.value.code == error.default_code


# --- assign ----------------------------------------------------------------------------------


async def test_assign_needs_a_fee(partner: PartnerClient, reach: Reach) -> None:
    delivery_id = await reach("awaiting_price")
    await refused(partner.assign_rider(delivery_id, "rdr_tunde"), errors.FeeRequired, 400)


@pytest.mark.parametrize("status", ["pending", "matched"])
async def test_assign_before_pickup(partner: PartnerClient, reach: Reach, status: str) -> None:
    delivery_id = await reach(status)
    delivery = await partner.assign_rider(delivery_id, "rdr_emeka")
    assert delivery.status == "matched" and delivery.rider_assigned is True
    assert delivery.rider is not None
    assert delivery.rider.model_dump() == {
        "id": "rdr_emeka",
        "name": "Emeka Okafor",
        "vehicle_type": "motorbike",
    }


async def test_reassign_releases_the_first_rider(partner: PartnerClient, reach: Reach) -> None:
    delivery_id = await reach("matched")
    await partner.assign_rider(delivery_id, "rdr_emeka")
    riders = await riders_by_id(partner)
    assert riders["rdr_tunde"].active_delivery_count == 0
    assert riders["rdr_tunde"].presence == "available"
    assert riders["rdr_emeka"].active_delivery_count == 1


async def test_busy_rider_may_be_assigned(partner: PartnerClient, reach: Reach) -> None:
    delivery_id = await reach("pending")
    await partner.assign_rider(delivery_id, "rdr_chiamaka")
    assert (await riders_by_id(partner))["rdr_chiamaka"].active_delivery_count == 2


async def test_unavailable_rider_without_location_may_be_assigned(
    partner: PartnerClient, reach: Reach
) -> None:
    delivery_id = await reach("pending")
    delivery = await partner.assign_rider(delivery_id, "rdr_segun")
    assert delivery.rider is not None and delivery.rider.id == "rdr_segun"


async def test_assign_unknown_rider(partner: PartnerClient, reach: Reach) -> None:
    delivery_id = await reach("pending")
    await refused(partner.assign_rider(delivery_id, "rdr_nobody"), errors.RiderNotFound, 400)


async def test_assign_rider_with_pending_invite(partner: PartnerClient, reach: Reach) -> None:
    delivery_id = await reach("pending")
    await refused(partner.assign_rider(delivery_id, "rdr_aisha"), errors.RiderNotActive, 400)


@pytest.mark.parametrize("status", ["picked_up", "in_transit", "delivered", "cancelled"])
async def test_assign_after_pickup_is_not_allowed(
    partner: PartnerClient, reach: Reach, status: str
) -> None:
    delivery_id = await reach(status)
    call = partner.assign_rider(delivery_id, "rdr_emeka")
    await refused(call, errors.AssignNotAllowed, 400)


@pytest.mark.parametrize("body", [{}, {"riderId": ""}, {"riderId": 7}, {"riderId": "x", "note": 1}])
async def test_assign_body_is_validated(
    client: httpx.AsyncClient, reach: Reach, body: Body
) -> None:
    # Raw httpx: the client never sends an empty, non-text or extra-field body.
    delivery_id = await reach("pending")
    response = await client.post(f"/deliveries/{delivery_id}/assign", json=body)
    assert_error(response, 400, "validation_error")


async def test_assign_missing_or_malformed_delivery(partner: PartnerClient) -> None:
    await refused(partner.assign_rider("not-a-uuid", "rdr_tunde"), errors.InvalidFields, 400)
    unknown = "00000000-0000-4000-8000-000000000000"
    await refused(partner.assign_rider(unknown, "rdr_tunde"), errors.NotFound, 404)


# --- unassign -----------------------------------------------------------------------------------


async def test_unassign_returns_to_pending(partner: PartnerClient, reach: Reach) -> None:
    delivery_id = await reach("matched")
    delivery = await partner.unassign_rider(delivery_id)
    assert delivery.status == "pending"
    assert delivery.rider_assigned is False and delivery.rider is None
    assert (await riders_by_id(partner))["rdr_tunde"].active_delivery_count == 0


def test_unassign_without_a_fee_returns_to_awaiting_price(box: Sandbox) -> None:
    # Only reachable when a matched job loses its fee (staff cleared it in the dashboard);
    # the sandbox never does that itself, so the record is edited directly.
    from bot.sandbox.state import DeliveryRecord
    from bot.sandbox.validated_order import CreateOrder

    core = box._core
    order = CreateOrder(
        "pickup_delivery", "pickup", None, "A", "+2348012345678", None, None, None, None, "B",
        "+2348012345679", "a", 6.5, 3.3, "b", 6.45, 3.4, "box", "small", False, False, None, (),
        "cash_on_delivery", None, None, 1.0, 10.0,
    )  # fmt: skip
    record = DeliveryRecord(
        id="11111111-1111-4111-8111-111111111111", seq=1, order=order, status="matched",
        access_code="abc", created_at=0, currency="NGN", api_key_id="k", require_otp=True,
        otp_via_webhook=True, fee=None, rider_id="rdr_tunde",
    )  # fmt: skip
    core.store.add(record)
    record, events = core.lifecycle.unassign(record.id)
    assert record.status == "awaiting_price" and record.rider_id is None
    assert [e.type for e in events] == ["delivery.status_changed"]


@pytest.mark.parametrize("status", [s for s in STATUSES if s != "matched"])
async def test_unassign_only_while_matched(
    partner: PartnerClient, reach: Reach, status: str
) -> None:
    delivery_id = await reach(status)
    await refused(partner.unassign_rider(delivery_id), errors.UnassignNotAllowed, 400)


async def test_unassign_unknown_delivery(partner: PartnerClient) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    await refused(partner.unassign_rider(unknown), errors.NotFound, 404)
    await refused(partner.unassign_rider("whatever"), errors.NotFound, 404)


# --- cancel ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["awaiting_price", "pending", "matched"])
async def test_cancel_before_pickup(
    partner: PartnerClient, reach: Reach, status: str, clock: Any
) -> None:
    delivery_id = await reach(status)
    clock.advance(90)
    delivery = await partner.cancel_delivery(delivery_id, "  Customer found another way  ")
    assert delivery.status == "cancelled"
    assert delivery.cancellation_reason == "Customer found another way"
    cancelled_at = datetime(2027, 1, 15, 8, 1, 30, tzinfo=UTC)
    assert delivery.cancelled_at == delivery.updated_at == cancelled_at
    assert delivery.rider is None


async def test_the_service_trims_the_reason_too(client: httpx.AsyncClient, reach: Reach) -> None:
    # Raw httpx: the client trims the reason itself, so only a raw call shows the sandbox trim.
    delivery_id = await reach("pending")
    response = await client.post(
        f"/deliveries/{delivery_id}/cancel", json={"reason": "  Customer found another way  "}
    )
    assert response.json()["delivery"]["cancellation_reason"] == "Customer found another way"


async def test_cancel_releases_the_rider(partner: PartnerClient, reach: Reach) -> None:
    delivery_id = await reach("matched")
    await partner.cancel_delivery(delivery_id, "no longer needed")
    assert (await riders_by_id(partner))["rdr_tunde"].active_delivery_count == 0


@pytest.mark.parametrize("status", ["picked_up", "in_transit", "delivered", "cancelled"])
async def test_cancel_after_pickup_is_not_allowed(
    partner: PartnerClient, reach: Reach, status: str
) -> None:
    delivery_id = await reach(status)
    await refused(partner.cancel_delivery(delivery_id, "too late"), errors.CancelNotAllowed, 400)


@pytest.mark.parametrize("reason", ["abc", "x" * 500])
async def test_cancel_reason_bounds_are_accepted(
    partner: PartnerClient, reach: Reach, reason: str
) -> None:
    delivery_id = await reach("pending")
    assert (await partner.cancel_delivery(delivery_id, reason)).cancellation_reason == reason


@pytest.mark.parametrize(
    "body",
    [
        {"reason": "ab"},
        {"reason": "   ab  "},
        {"reason": "x" * 501},
        {},
        {"reason": 12345},
        {"reason": "fine", "force": True},
    ],
)
async def test_cancel_reason_is_validated(
    client: httpx.AsyncClient, reach: Reach, body: Body
) -> None:
    # Raw httpx: the client checks the reason's length and type before sending.
    delivery_id = await reach("pending")
    response = await client.post(f"/deliveries/{delivery_id}/cancel", json=body)
    assert_error(response, 400, "validation_error")
    assert response.json()["fieldErrors"]


async def test_cancel_missing_or_malformed_delivery(partner: PartnerClient) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    await refused(partner.cancel_delivery(unknown, "no longer needed"), errors.NotFound, 404)
    call = partner.cancel_delivery("123", "no longer needed")
    await refused(call, errors.InvalidFields, 400)


# --- moves the spec only names (sandbox admin) -----------------------------------------------


async def test_advance_walks_to_delivered(box: Sandbox, reach: Reach) -> None:
    delivery_id = await reach("matched")
    box.mark_paid(delivery_id)
    assert box.advance_status(delivery_id)["status"] == "picked_up"
    assert box.advance_status(delivery_id)["status"] == "in_transit"
    delivered = box.advance_status(delivery_id, "delivered")
    assert delivered["status"] == "delivered" and delivered["rider"]["id"] == "rdr_tunde"
    riders = {r.id: r for r in box._core.store.riders.values()}
    assert riders["rdr_tunde"].active_delivery_count == 0


@pytest.mark.parametrize(
    ("status", "target"),
    [
        ("awaiting_price", None),
        ("pending", None),
        ("matched", "in_transit"),
        ("picked_up", "delivered"),
        ("delivered", None),
        ("cancelled", None),
    ],
)
async def test_advance_refuses_other_moves(
    box: Sandbox, reach: Reach, status: str, target: str | None
) -> None:
    delivery_id = await reach(status)
    with pytest.raises(ApiError) as caught:
        box.advance_status(delivery_id, target)
    assert caught.value.code == "advance_not_allowed"


async def test_set_fee_prices_an_awaiting_delivery(box: Sandbox, reach: Reach) -> None:
    delivery_id = await reach("awaiting_price")
    delivery = box.set_fee(delivery_id, 3000)
    assert delivery["status"] == "pending" and delivery["payment"]["delivery_fee"] == 3000
    assert box.set_fee(delivery_id, 3500)["status"] == "pending"


@pytest.mark.parametrize(
    ("status", "amount", "code"),
    [
        ("pending", 0, "validation_error"),
        ("pending", -5, "validation_error"),
        ("delivered", 3000, "fee_not_allowed"),
        ("cancelled", 3000, "fee_not_allowed"),
    ],
)
async def test_set_fee_refusals(
    box: Sandbox, reach: Reach, status: str, amount: float, code: str
) -> None:
    delivery_id = await reach(status)
    with pytest.raises(ApiError) as caught:
        box.set_fee(delivery_id, amount)
    assert caught.value.code == code


async def test_fee_cannot_change_once_paid(box: Sandbox, reach: Reach) -> None:
    delivery_id = await reach("pending")
    box.mark_paid(delivery_id)
    with pytest.raises(ApiError) as caught:
        box.set_fee(delivery_id, 9000)
    assert caught.value.code == "fee_already_paid"


async def test_mark_paid_rules(box: Sandbox, reach: Reach) -> None:
    unpriced = await reach("awaiting_price")
    with pytest.raises(ApiError, match="no fee"):
        box.mark_paid(unpriced)
    priced = await reach("pending")
    assert box.mark_paid(priced)["payment"]["delivery_payment_status"] == "paid"
    with pytest.raises(ApiError, match="already"):
        box.mark_paid(priced)
    cancelled = await reach("cancelled")
    with pytest.raises(ApiError, match="cancelled"):
        box.mark_paid(cancelled)


def test_admin_calls_on_unknown_deliveries(box: Sandbox) -> None:
    with pytest.raises(ApiError) as caught:
        box.mark_paid("00000000-0000-4000-8000-000000000000")
    assert caught.value.status == 404 and caught.value.code == "not_found"
