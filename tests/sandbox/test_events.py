"""Which move raises which event, and what the event says (summary, hint, notes, OTP)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bot.partner.models import WebhookEvent
from bot.sandbox import ApiError, Sandbox

from .support import Connect, CreateDelivery, MakeSandbox, Receiver

Body = dict[str, Any]


async def events(box: Sandbox, receiver: Receiver) -> list[Body]:
    await box.drain_webhooks()
    bodies = receiver.bodies()
    for body in bodies:
        WebhookEvent.model_validate(body)
        assert body["docs_url"].endswith("#" + body["type"])
    receiver.requests.clear()
    return bodies


def notes(event: Body) -> str:
    return " | ".join(event["agent_notes"])


# --- create ------------------------------------------------------------------------------------


async def test_created_with_auto_dispatch(
    sandbox: Sandbox,
    api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    delivery = await create(api, pickup_body)
    created, assigned = await events(sandbox, receiver)
    ref = delivery["id"].split("-")[0].upper()
    assert created["type"] == "delivery.created" and created["data"]["previous_status"] is None
    assert created["data"]["object"] == delivery
    assert created["summary"] == (
        f"New delivery {ref} from 12 Herbert Macaulay Way, Yaba, Lagos to 5 Awolowo Road, "
        "Ikoyi, Lagos was created through the API; it is assigned to a rider."
    )
    assert created["customer_message_hint"] == (
        "We have received your delivery request. The delivery fee is NGN 2,400. "
        f"You can follow it here: {delivery['tracking']['url']}"
    )
    text = notes(created)
    assert "share the tracking link with the customer" in text
    assert "Payment is due before dispatch" in text
    assert "A rider was assigned automatically" in text
    assert "The drop-off code comes by webhook once the fee is paid" in text
    assert assigned["type"] == "delivery.status_changed"
    assert assigned["data"]["previous_status"] == "pending"
    assert assigned["summary"] == (
        f"Delivery {ref} to 5 Awolowo Road, Ikoyi, Lagos was assigned to rider Tunde Bakare "
        "(motorbike)."
    )
    assert assigned["customer_message_hint"].startswith("Good news: Tunde is your rider")


async def test_created_awaiting_price(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    scenario_data["pricing"]["rules"] = []
    scenario_data["organization"]["customer_delivery_messages"] = True
    box = make_sandbox(scenario_data)
    await create(connect(box), pickup_body)
    (created,) = await events(box, receiver)
    assert "waiting for staff to set the delivery fee" in created["summary"]
    assert created["customer_message_hint"] == (
        "We have received your delivery request. We will confirm the delivery fee shortly."
    )
    text = notes(created)
    assert "Fee not set yet: the delivery waits until staff price it." in text
    assert "The service also messages the customer" in text


@pytest.mark.parametrize(
    ("public_request", "expected"),
    [
        ({"requireApproval": True}, "waits for a price until staff approve and price it"),
        ({"autoDispatch": False}, "Automatic dispatch is off"),
        ({}, "No available rider with a fresh GPS fix"),
    ],
)
async def test_created_dispatch_notes(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
    public_request: Body,
    expected: str,
) -> None:
    scenario_data["capabilities"]["publicRequest"].update(public_request)
    scenario_data["riders"] = []
    box = make_sandbox(scenario_data)
    await create(connect(box), pickup_body)
    (created,) = await events(box, receiver)
    assert expected in notes(created)


async def test_created_pod_note(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    pickup_body.update(isPODEnabled=True, podAmount=12500)
    await create(manual_api, pickup_body)
    (created,) = await events(manual_sandbox, receiver)
    assert "The rider collects NGN 12,500 in cash from the receiver at drop-off." in notes(created)


# --- the rest of the life of a delivery -------------------------------------------------------


async def test_full_life_events(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    box = manual_sandbox
    delivery_id = (await create(manual_api, pickup_body))["id"]
    await manual_api.post(f"/deliveries/{delivery_id}/assign", json={"riderId": "rdr_emeka"})
    await manual_api.post(f"/deliveries/{delivery_id}/assign", json={"riderId": "rdr_tunde"})
    await manual_api.post(f"/deliveries/{delivery_id}/unassign")
    await manual_api.post(f"/deliveries/{delivery_id}/assign", json={"riderId": "rdr_tunde"})
    box.mark_paid(delivery_id)
    box.advance_status(delivery_id)
    box.advance_status(delivery_id)
    box.resend_otp(delivery_id)
    box.advance_status(delivery_id)
    sent = await events(box, receiver)
    assert [
        (e["type"], e["data"]["previous_status"], e["data"]["object"]["status"]) for e in sent
    ] == [
        ("delivery.created", None, "pending"),
        ("delivery.status_changed", "pending", "matched"),
        ("delivery.status_changed", "matched", "matched"),
        ("delivery.status_changed", "matched", "pending"),
        ("delivery.status_changed", "pending", "matched"),
        ("delivery.updated", "matched", "matched"),
        ("delivery.otp_issued", "matched", "matched"),
        ("delivery.status_changed", "matched", "picked_up"),
        ("delivery.status_changed", "picked_up", "in_transit"),
        ("delivery.otp_issued", "in_transit", "in_transit"),
        ("delivery.completed", "in_transit", "delivered"),
    ]
    summaries = [e["summary"] for e in sent]
    assert "was reassigned to rider Tunde Bakare (motorbike)" in summaries[2]
    assert summaries[3].startswith("Rider Tunde Bakare (motorbike) was unassigned")
    assert "(NGN 2,400) was marked paid" in summaries[5]
    assert (
        sent[5]["customer_message_hint"] == "We have received your payment of NGN 2,400. Thank you!"
    )
    assert summaries[7].startswith("Rider Tunde Bakare (motorbike) picked up the package")
    assert "can no longer be cancelled" in notes(sent[7])
    assert "is in transit to 5 Awolowo Road" in summaries[8]
    assert "was delivered to Bola Ahmed at 5 Awolowo Road" in summaries[10]
    assert sent[10]["customer_message_hint"].startswith("Your package has been delivered")
    payment_otp, resend_otp = sent[6]["data"]["otp"], sent[9]["data"]["otp"]
    assert payment_otp == {
        "code": box.otp_code(delivery_id),
        "receiver_phone": "+2348098765432",
        "reason": "payment",
        "channel": "webhook",
    }
    assert payment_otp["code"].isdigit() and len(payment_otp["code"]) == 6
    assert resend_otp == {**payment_otp, "reason": "resend"}
    for event in (sent[6], sent[9]):
        assert payment_otp["code"] not in event["summary"]
        assert payment_otp["code"] not in (event["customer_message_hint"] or "")
        assert "only to the receiver (phone ending 5432)" in notes(event)
    assert "This is a resend" in notes(sent[9])
    assert all("otp" not in e["data"] for e in sent if e["type"] != "delivery.otp_issued")


async def test_cancel_event(
    make_sandbox: MakeSandbox,
    connect: Connect,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    box = make_sandbox()
    api = connect(box)
    delivery_id = (await create(api, pickup_body))["id"]
    await api.post(f"/deliveries/{delivery_id}/cancel", json={"reason": "Customer changed plans"})
    cancelled = (await events(box, receiver))[-1]
    assert cancelled["type"] == "delivery.cancelled"
    assert cancelled["data"]["previous_status"] == "matched"
    assert cancelled["summary"].endswith("was cancelled: Customer changed plans.")
    assert cancelled["customer_message_hint"] == "Your delivery has been cancelled."
    assert "Rider Tunde Bakare was released" in notes(cancelled)


async def test_pricing_events(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    scenario_data["pricing"]["rules"] = []
    box = make_sandbox(scenario_data)
    delivery_id = (await create(connect(box), pickup_body))["id"]
    box.set_fee(delivery_id, 3000)
    box.set_fee(delivery_id, 3250.5)
    _, priced, repriced = await events(box, receiver)
    assert (priced["type"], priced["data"]["previous_status"]) == (
        "delivery.status_changed",
        "awaiting_price",
    )
    assert priced["customer_message_hint"] == "The delivery fee for your request is NGN 3,000."
    assert "A rider can now be assigned." in notes(priced)
    assert repriced["type"] == "delivery.updated"
    assert "NGN 3,250.50" in repriced["summary"]


# --- OTP rules ---------------------------------------------------------------------------------


async def test_resend_needs_payment_and_a_drop_off_status(
    make_sandbox: MakeSandbox,
    scenario_data: dict[str, Any],
    connect: Connect,
    pickup_body: Body,
    create: CreateDelivery,
) -> None:
    # Fee collected after delivery: the rider sets off unpaid (before dispatch, they wait).
    scenario_data["capabilities"]["paymentTiming"] = "after_delivery"
    scenario_data["capabilities"]["publicRequest"]["autoDispatch"] = False
    box = make_sandbox(scenario_data)
    api = connect(box)
    delivery_id = (await create(api, pickup_body))["id"]
    await api.post(f"/deliveries/{delivery_id}/assign", json={"riderId": "rdr_tunde"})
    box.advance_status(delivery_id)
    with pytest.raises(ApiError) as unpaid:
        box.resend_otp(delivery_id)
    assert unpaid.value.code == "fee_not_paid"
    box.mark_paid(delivery_id)
    box.resend_otp(delivery_id)  # picked_up counts as a drop-off status
    box.advance_status(delivery_id)
    box.resend_otp(delivery_id)  # so does in_transit
    box.advance_status(delivery_id)
    with pytest.raises(ApiError) as delivered:
        box.resend_otp(delivery_id)
    assert delivered.value.code == "otp_not_allowed"


async def test_resend_before_pickup_is_refused(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
) -> None:
    delivery_id = (await create(manual_api, pickup_body))["id"]
    manual_sandbox.mark_paid(delivery_id)
    with pytest.raises(ApiError) as caught:
        manual_sandbox.resend_otp(delivery_id)
    assert caught.value.code == "otp_not_allowed"


async def test_no_otp_when_require_delivery_otp_is_false(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    scenario_data["capabilities"]["requireDeliveryOtp"] = False
    box = make_sandbox(scenario_data)
    delivery_id = (await create(connect(box), pickup_body))["id"]
    box.mark_paid(delivery_id)
    box.advance_status(delivery_id)
    with pytest.raises(ApiError) as caught:
        box.resend_otp(delivery_id)
    assert caught.value.code == "otp_disabled"
    sent = await events(box, receiver)
    assert "delivery.otp_issued" not in [e["type"] for e in sent]
    assert "photo as proof of delivery" in notes(sent[0])
    assert box.otp_code(delivery_id) is None


async def test_no_otp_event_when_otp_via_webhook_is_off(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    scenario_data["organization"]["otp_via_webhook"] = False
    box = make_sandbox(scenario_data)
    delivery_id = (await create(connect(box), pickup_body))["id"]
    box.mark_paid(delivery_id)
    box.advance_status(delivery_id)
    with pytest.raises(ApiError) as caught:
        box.resend_otp(delivery_id)
    assert caught.value.code == "otp_not_via_webhook"
    sent = await events(box, receiver)
    assert "delivery.otp_issued" not in [e["type"] for e in sent]
    assert "The service texts the drop-off code" in notes(sent[0])


async def test_errand_otp_goes_to_the_sender_when_there_is_no_receiver(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    errand_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    delivery = await create(manual_api, errand_body)
    manual_sandbox.mark_paid(delivery["id"])
    otp = (await events(manual_sandbox, receiver))[-1]
    assert otp["data"]["otp"]["receiver_phone"] == "+2348012345678"
    assert otp["summary"].startswith("The drop-off code for Errand ")
