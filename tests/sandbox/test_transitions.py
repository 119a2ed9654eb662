"""The spec's transition table, move by move, through the API and the sandbox admin calls."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from bot.sandbox import ApiError, Sandbox

from .support import Connect, CreateDelivery, MakeSandbox

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
def client(box: Sandbox, connect: Connect) -> httpx.AsyncClient:
    return connect(box)


@pytest.fixture
def reach(
    box: Sandbox, client: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> Reach:
    """Create a delivery and walk it to ``status``; returns its id."""

    async def run(status: str) -> str:
        delivery_id: str = (await create(client, pickup_body))["id"]
        if status == "awaiting_price":
            return delivery_id
        box.set_fee(delivery_id, 2500)
        if status == "cancelled":
            await client.post(f"/deliveries/{delivery_id}/cancel", json={"reason": "test"})
            return delivery_id
        if status == "pending":
            return delivery_id
        assert (await assign(client, delivery_id, "rdr_tunde")).status_code == 200
        for step in ("picked_up", "in_transit", "delivered"):
            if box.delivery(delivery_id)["status"] == status:
                break
            box.advance_status(delivery_id, step)
        assert box.delivery(delivery_id)["status"] == status
        return delivery_id

    return run


async def assign(client: httpx.AsyncClient, delivery_id: str, rider_id: str) -> httpx.Response:
    return await client.post(f"/deliveries/{delivery_id}/assign", json={"riderId": rider_id})


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code


# --- assign ----------------------------------------------------------------------------------


async def test_assign_needs_a_fee(client: httpx.AsyncClient, reach: Reach) -> None:
    delivery_id = await reach("awaiting_price")
    assert_error(await assign(client, delivery_id, "rdr_tunde"), 400, "fee_required")


@pytest.mark.parametrize("status", ["pending", "matched"])
async def test_assign_before_pickup(
    box: Sandbox, client: httpx.AsyncClient, reach: Reach, status: str
) -> None:
    delivery_id = await reach(status)
    response = await assign(client, delivery_id, "rdr_emeka")
    assert response.status_code == 200
    delivery = response.json()["delivery"]
    assert delivery["status"] == "matched" and delivery["rider_assigned"] is True
    assert delivery["rider"] == {
        "id": "rdr_emeka",
        "name": "Emeka Okafor",
        "vehicle_type": "motorbike",
    }


async def test_reassign_releases_the_first_rider(client: httpx.AsyncClient, reach: Reach) -> None:
    delivery_id = await reach("matched")
    await assign(client, delivery_id, "rdr_emeka")
    riders = {r["id"]: r for r in (await client.get("/riders")).json()["riders"]}
    assert riders["rdr_tunde"]["active_delivery_count"] == 0
    assert riders["rdr_tunde"]["presence"] == "available"
    assert riders["rdr_emeka"]["active_delivery_count"] == 1


async def test_busy_rider_may_be_assigned(client: httpx.AsyncClient, reach: Reach) -> None:
    delivery_id = await reach("pending")
    response = await assign(client, delivery_id, "rdr_chiamaka")
    assert response.status_code == 200
    riders = {r["id"]: r for r in (await client.get("/riders")).json()["riders"]}
    assert riders["rdr_chiamaka"]["active_delivery_count"] == 2


async def test_unavailable_rider_without_location_may_be_assigned(
    client: httpx.AsyncClient, reach: Reach
) -> None:
    delivery_id = await reach("pending")
    assert (await assign(client, delivery_id, "rdr_segun")).status_code == 200


async def test_assign_unknown_rider(client: httpx.AsyncClient, reach: Reach) -> None:
    delivery_id = await reach("pending")
    assert_error(await assign(client, delivery_id, "rdr_nobody"), 400, "rider_not_found")


async def test_assign_rider_with_pending_invite(client: httpx.AsyncClient, reach: Reach) -> None:
    delivery_id = await reach("pending")
    assert_error(await assign(client, delivery_id, "rdr_aisha"), 400, "rider_not_active")


@pytest.mark.parametrize("status", ["picked_up", "in_transit", "delivered", "cancelled"])
async def test_assign_after_pickup_is_not_allowed(
    client: httpx.AsyncClient, reach: Reach, status: str
) -> None:
    delivery_id = await reach(status)
    assert_error(await assign(client, delivery_id, "rdr_emeka"), 400, "assign_not_allowed")


@pytest.mark.parametrize("body", [{}, {"riderId": ""}, {"riderId": 7}, {"riderId": "x", "note": 1}])
async def test_assign_body_is_validated(
    client: httpx.AsyncClient, reach: Reach, body: Body
) -> None:
    delivery_id = await reach("pending")
    response = await client.post(f"/deliveries/{delivery_id}/assign", json=body)
    assert_error(response, 400, "validation_error")


async def test_assign_missing_or_malformed_delivery(client: httpx.AsyncClient) -> None:
    assert_error(await assign(client, "not-a-uuid", "rdr_tunde"), 400, "validation_error")
    unknown = "00000000-0000-4000-8000-000000000000"
    assert_error(await assign(client, unknown, "rdr_tunde"), 404, "not_found")


# --- unassign -----------------------------------------------------------------------------------


async def test_unassign_returns_to_pending(client: httpx.AsyncClient, reach: Reach) -> None:
    delivery_id = await reach("matched")
    response = await client.post(f"/deliveries/{delivery_id}/unassign")
    assert response.status_code == 200
    delivery = response.json()["delivery"]
    assert delivery["status"] == "pending"
    assert delivery["rider_assigned"] is False and delivery["rider"] is None
    riders = {r["id"]: r for r in (await client.get("/riders")).json()["riders"]}
    assert riders["rdr_tunde"]["active_delivery_count"] == 0


def test_unassign_without_a_fee_returns_to_awaiting_price(box: Sandbox) -> None:
    # Only reachable when a matched job loses its fee (staff cleared it in the dashboard);
    # the sandbox never does that itself, so the record is edited directly.
    from bot.sandbox.order import CreateOrder
    from bot.sandbox.state import DeliveryRecord

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
    client: httpx.AsyncClient, reach: Reach, status: str
) -> None:
    delivery_id = await reach(status)
    response = await client.post(f"/deliveries/{delivery_id}/unassign")
    assert_error(response, 400, "unassign_not_allowed")


async def test_unassign_unknown_delivery(client: httpx.AsyncClient) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    assert_error(await client.post(f"/deliveries/{unknown}/unassign"), 404, "not_found")
    assert_error(await client.post("/deliveries/whatever/unassign"), 404, "not_found")


# --- cancel ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["awaiting_price", "pending", "matched"])
async def test_cancel_before_pickup(
    client: httpx.AsyncClient, reach: Reach, status: str, clock: Any
) -> None:
    delivery_id = await reach(status)
    clock.advance(90)
    response = await client.post(
        f"/deliveries/{delivery_id}/cancel", json={"reason": "  Customer found another way  "}
    )
    assert response.status_code == 200
    delivery = response.json()["delivery"]
    assert delivery["status"] == "cancelled"
    assert delivery["cancellation_reason"] == "Customer found another way"
    assert delivery["cancelled_at"] == delivery["updated_at"] == "2027-01-15T08:01:30.000Z"
    assert delivery["rider"] is None


async def test_cancel_releases_the_rider(client: httpx.AsyncClient, reach: Reach) -> None:
    delivery_id = await reach("matched")
    await client.post(f"/deliveries/{delivery_id}/cancel", json={"reason": "no longer needed"})
    riders = {r["id"]: r for r in (await client.get("/riders")).json()["riders"]}
    assert riders["rdr_tunde"]["active_delivery_count"] == 0


@pytest.mark.parametrize("status", ["picked_up", "in_transit", "delivered", "cancelled"])
async def test_cancel_after_pickup_is_not_allowed(
    client: httpx.AsyncClient, reach: Reach, status: str
) -> None:
    delivery_id = await reach(status)
    response = await client.post(f"/deliveries/{delivery_id}/cancel", json={"reason": "too late"})
    assert_error(response, 400, "cancel_not_allowed")


@pytest.mark.parametrize(
    ("body", "ok"),
    [
        ({"reason": "abc"}, True),
        ({"reason": "x" * 500}, True),
        ({"reason": "ab"}, False),
        ({"reason": "   ab  "}, False),
        ({"reason": "x" * 501}, False),
        ({}, False),
        ({"reason": 12345}, False),
        ({"reason": "fine", "force": True}, False),
    ],
)
async def test_cancel_reason_is_validated(
    client: httpx.AsyncClient, reach: Reach, body: Body, ok: bool
) -> None:
    delivery_id = await reach("pending")
    response = await client.post(f"/deliveries/{delivery_id}/cancel", json=body)
    if ok:
        assert response.status_code == 200
    else:
        assert_error(response, 400, "validation_error")
        assert response.json()["fieldErrors"]


async def test_cancel_missing_or_malformed_delivery(client: httpx.AsyncClient) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    body = {"reason": "no longer needed"}
    assert_error(await client.post(f"/deliveries/{unknown}/cancel", json=body), 404, "not_found")
    response = await client.post("/deliveries/123/cancel", json=body)
    assert_error(response, 400, "validation_error")


# --- moves the spec only names (sandbox admin) -----------------------------------------------


async def test_advance_walks_to_delivered(box: Sandbox, reach: Reach) -> None:
    delivery_id = await reach("matched")
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
