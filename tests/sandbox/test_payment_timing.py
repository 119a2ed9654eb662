"""The rider follows the business's settings: a ``before_dispatch`` fee is paid before the
pickup, and a delivery that needs a drop-off code gets it before it is delivered; the other
payment timings let the job run unpaid. Through the Python admin calls and the admin HTTP API."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.sandbox import ApiError, Sandbox
from bot.sandbox.admin import ADMIN_PREFIX

from .support import Connect, CreateDelivery, MakeSandbox, Receiver

Body = dict[str, Any]


def business(
    make_sandbox: MakeSandbox,
    data: Body,
    *,
    timing: str,
    require_otp: bool = True,
    otp_via_webhook: bool = True,
) -> Sandbox:
    """The default scenario (auto-dispatch on: a create is ``matched`` at once), edited."""
    data["capabilities"]["paymentTiming"] = timing
    data["capabilities"]["requireDeliveryOtp"] = require_otp
    data["organization"]["otp_via_webhook"] = otp_via_webhook
    return make_sandbox(data)


async def matched(box: Sandbox, connect: Connect, create: CreateDelivery, body: Body) -> str:
    delivery = await create(connect(box), body)
    assert delivery["status"] == "matched"
    return str(delivery["id"])


def refusal(box: Sandbox, delivery_id: str) -> str:
    with pytest.raises(ApiError) as caught:
        box.advance_status(delivery_id)
    return caught.value.code


async def test_before_dispatch_the_rider_waits_for_the_fee(
    make_sandbox: MakeSandbox,
    scenario_data: Body,
    connect: Connect,
    create: CreateDelivery,
    pickup_body: Body,
) -> None:
    box = business(make_sandbox, scenario_data, timing="before_dispatch")
    delivery_id = await matched(box, connect, create, pickup_body)
    assert refusal(box, delivery_id) == "fee_not_paid"
    assert box.delivery(delivery_id)["status"] == "matched"
    box.mark_paid(delivery_id)
    assert box.otp_code(delivery_id)  # issued with the payment
    statuses = [str(box.advance_status(delivery_id)["status"]) for _ in range(3)]
    assert statuses == ["picked_up", "in_transit", "delivered"]


async def test_the_admin_api_refuses_the_same_pickup(
    make_sandbox: MakeSandbox,
    scenario_data: Body,
    connect: Connect,
    create: CreateDelivery,
    pickup_body: Body,
) -> None:
    box = business(make_sandbox, scenario_data, timing="before_dispatch")
    delivery_id = await matched(box, connect, create, pickup_body)
    admin = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=box.app),
        base_url=f"https://sandbox.invalid{ADMIN_PREFIX}",
        headers={"authorization": f"Bearer {box.admin_token}"},
    )
    async with admin:
        refused = await admin.post(f"/deliveries/{delivery_id}/advance")
        assert refused.status_code == 400
        assert refused.json()["code"] == "fee_not_paid"
        assert (await admin.post(f"/deliveries/{delivery_id}/mark-paid")).status_code == 200
        moved = await admin.post(f"/deliveries/{delivery_id}/advance")
        assert moved.json()["delivery"]["status"] == "picked_up"


@pytest.mark.parametrize("timing", ["after_delivery", "off_platform"])
async def test_other_timings_set_off_unpaid_and_wait_for_the_code_at_the_door(
    make_sandbox: MakeSandbox,
    scenario_data: Body,
    connect: Connect,
    create: CreateDelivery,
    pickup_body: Body,
    timing: str,
) -> None:
    box = business(make_sandbox, scenario_data, timing=timing)
    delivery_id = await matched(box, connect, create, pickup_body)
    assert box.advance_status(delivery_id)["status"] == "picked_up"
    assert box.advance_status(delivery_id)["status"] == "in_transit"
    # The code comes with the payment (the spec ties it to nothing else): none yet, no drop-off.
    assert refusal(box, delivery_id) == "otp_not_issued"
    box.mark_paid(delivery_id)
    assert box.advance_status(delivery_id)["status"] == "delivered"


@pytest.mark.parametrize("timing", ["after_delivery", "off_platform"])
async def test_photo_proof_needs_no_code(
    make_sandbox: MakeSandbox,
    scenario_data: Body,
    connect: Connect,
    create: CreateDelivery,
    pickup_body: Body,
    timing: str,
) -> None:
    box = business(make_sandbox, scenario_data, timing=timing, require_otp=False)
    delivery_id = await matched(box, connect, create, pickup_body)
    for _ in range(3):
        box.advance_status(delivery_id)
    assert box.delivery(delivery_id)["status"] == "delivered"
    assert box.otp_code(delivery_id) is None


async def test_a_texted_code_is_issued_at_payment_without_an_event(
    make_sandbox: MakeSandbox,
    scenario_data: Body,
    connect: Connect,
    create: CreateDelivery,
    pickup_body: Body,
    receiver: Receiver,
) -> None:
    box = business(make_sandbox, scenario_data, timing="before_dispatch", otp_via_webhook=False)
    delivery_id = await matched(box, connect, create, pickup_body)
    box.mark_paid(delivery_id)
    await box.drain_webhooks()
    assert box.otp_code(delivery_id)  # the service texts it to the receiver
    kinds = [request.headers.get("service-event") for request in receiver.requests]
    assert "delivery.otp_issued" not in kinds
    for _ in range(3):
        box.advance_status(delivery_id)
    assert box.delivery(delivery_id)["status"] == "delivered"
