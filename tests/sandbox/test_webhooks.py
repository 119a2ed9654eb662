"""Webhook delivery: signatures, headers, timing, subscriptions, retries and the worker."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from bot.partner.models import WebhookEvent
from bot.partner.signing import SignatureError, verify
from bot.sandbox import RETRY_DELAYS_SECONDS, Sandbox
from tests.support.clock import FakeClock

from .support import Connect, CreateDelivery, MakeSandbox, Receiver, create_scope

Body = dict[str, Any]


async def test_events_are_signed_and_verifiable(
    sandbox: Sandbox,
    api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
    clock: FakeClock,
) -> None:
    await create(api, pickup_body)
    await sandbox.drain_webhooks()
    assert receiver.requests
    for request in receiver.requests:
        assert str(request.url) == "http://127.0.0.1:8080/hooks/partner"
        assert request.method == "POST"
        assert request.headers["Content-Type"] == "application/json"
        signature = request.headers["Service-Signature"]
        verify(request.content, signature, sandbox.signing_secret, now=clock())
        assert signature.startswith(f"t={int(clock())},v1=")
        body = json.loads(request.content)
        assert request.headers["Service-Event"] == body["type"]
        WebhookEvent.model_validate(body)
        with pytest.raises(SignatureError):
            verify(request.content, signature, "whsec_someoneElsesSecret000", now=clock())
        with pytest.raises(SignatureError):
            verify(request.content + b" ", signature, sandbox.signing_secret, now=clock())


async def test_event_body_fields(
    manual_api: httpx.AsyncClient,
    manual_sandbox: Sandbox,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
    clock: FakeClock,
) -> None:
    delivery = await create(manual_api, pickup_body)
    await manual_sandbox.drain_webhooks()
    (body,) = receiver.bodies()
    assert set(body) == {
        "id",
        "type",
        "created",
        "data",
        "summary",
        "customer_message_hint",
        "docs_url",
        "agent_notes",
    }
    assert body["id"].startswith("evt_") and len(body["id"]) == 28
    assert body["type"] == "delivery.created" and body["created"] == int(clock())
    assert body["data"] == {"object": delivery, "previous_status": None}
    assert body["docs_url"] == "https://docs.sandbox.invalid/partner-api/webhooks#delivery.created"
    assert isinstance(body["summary"], str) and body["summary"].endswith(".")
    assert all(isinstance(note, str) and note for note in body["agent_notes"])


async def test_nothing_is_queued_before_the_response_is_sent(
    sandbox: Sandbox, pickup_body: Body
) -> None:
    """Drive the ASGI app by hand and look at the queue when the response body goes out."""
    raw = json.dumps(pickup_body).encode()
    queued_when_answered: list[int] = []
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and not message.get("more_body"):
            queued_when_answered.append(sandbox.pending_webhooks)

    await sandbox.app(create_scope(sandbox), receive, send)  # type: ignore[arg-type]
    assert queued_when_answered == [0]
    assert sandbox.pending_webhooks == 2  # created + status_changed (auto-dispatch)


async def test_in_process_client_gets_the_answer_before_any_webhook(
    sandbox: Sandbox,
    api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    await sandbox.start()
    await create(api, pickup_body)
    assert receiver.requests == []
    await receiver.arrived.wait()  # the worker sends without being drained
    await sandbox.drain_webhooks()
    assert receiver.types() == ["delivery.created", "delivery.status_changed"]


async def test_endpoints_get_only_the_events_they_subscribe_to(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
    clock: FakeClock,
) -> None:
    scenario_data["webhooks"].append(
        {
            "id": "wh_ops",
            "url": "https://ops.swift-lagos.example/hooks",
            "events": ["delivery.cancelled"],
            "secret": "whsec_OpsEndpointSecret00000001",
        }
    )
    box = make_sandbox(scenario_data)
    api = connect(box)
    delivery = await create(api, pickup_body)
    await api.post(f"/deliveries/{delivery['id']}/cancel", json={"reason": "duplicate order"})
    await box.drain_webhooks()
    sent: dict[str, list[str]] = {}
    for request in receiver.requests:
        sent.setdefault(str(request.url), []).append(request.headers["Service-Event"])
    assert sent == {
        "http://127.0.0.1:8080/hooks/partner": [
            "delivery.created",
            "delivery.status_changed",
            "delivery.cancelled",
        ],
        "https://ops.swift-lagos.example/hooks": ["delivery.cancelled"],
    }
    (ops,) = [r for r in receiver.requests if r.url.host == "ops.swift-lagos.example"]
    verify(
        ops.content,
        ops.headers["Service-Signature"],
        "whsec_OpsEndpointSecret00000001",
        now=clock(),
    )


async def test_failing_receiver_is_retried_on_schedule(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
    clock: FakeClock,
) -> None:
    receiver.fail_next = 2
    await create(manual_api, pickup_body)
    start = clock()
    await manual_sandbox.drain_webhooks()
    assert len(receiver.requests) == 1 and manual_sandbox.pending_webhooks == 1
    clock.advance(4.9)
    await manual_sandbox.drain_webhooks()
    assert len(receiver.requests) == 1  # not due yet
    clock.advance(0.1)
    await manual_sandbox.drain_webhooks()
    clock.advance(30)
    await manual_sandbox.drain_webhooks()
    assert manual_sandbox.pending_webhooks == 0
    log = manual_sandbox.webhook_log()
    assert [(a.attempt, a.at - start, a.status_code, a.outcome) for a in log] == [
        (1, 0, 500, "retry_scheduled"),
        (2, 5, 500, "retry_scheduled"),
        (3, 35, 204, "delivered"),
    ]
    assert log[0].next_attempt_at == start + 5 and log[0].error == "receiver answered HTTP 500"
    assert len({a.event_id for a in log}) == 1
    # Each attempt is signed when it is sent, so a late retry is still inside the tolerance.
    last = receiver.requests[-1]
    assert last.headers["Service-Signature"].startswith(f"t={int(start + 35)},")
    verify(
        last.content, last.headers["Service-Signature"], manual_sandbox.signing_secret, now=clock()
    )
    assert receiver.requests[0].content == last.content


async def test_retries_are_bounded(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
    clock: FakeClock,
) -> None:
    receiver.fail_next = 100
    receiver.fail_status = 503
    await create(manual_api, pickup_body)
    await manual_sandbox.drain_webhooks()
    for delay in RETRY_DELAYS_SECONDS:
        clock.advance(delay)
        await manual_sandbox.drain_webhooks()
    clock.advance(10 * 3600)
    await manual_sandbox.drain_webhooks()
    outcomes = [a.outcome for a in manual_sandbox.webhook_log()]
    assert outcomes == ["retry_scheduled"] * 5 + ["gave_up"]
    assert len(receiver.requests) == 6 and manual_sandbox.pending_webhooks == 0


async def test_timeouts_and_exceptions_count_as_failures(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
    clock: FakeClock,
) -> None:
    receiver.time_out_next = 1
    await create(manual_api, pickup_body)
    await manual_sandbox.drain_webhooks()
    clock.advance(5)
    await manual_sandbox.drain_webhooks()
    log = manual_sandbox.webhook_log()
    assert [(a.error, a.outcome) for a in log] == [
        ("timed out", "retry_scheduled"),
        (None, "delivered"),
    ]
    assert log[0].status_code is None


async def test_a_receiver_that_crashes_in_process_is_retried(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    clock: FakeClock,
) -> None:
    calls = 0

    async def bot_app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("bot bug")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    scenario_data["capabilities"]["publicRequest"]["autoDispatch"] = False
    box = make_sandbox(scenario_data, webhook_transport=httpx.ASGITransport(app=bot_app))
    await create(connect(box), pickup_body)
    await box.drain_webhooks()
    clock.advance(5)
    await box.drain_webhooks()
    assert [a.outcome for a in box.webhook_log()] == ["retry_scheduled", "delivered"]
    assert "RuntimeError" in (box.webhook_log()[0].error or "")


class HangingReceiver:
    """The main endpoint hangs until released, then times out after 10 s of fake time; the
    ops endpoint answers at once."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.release = asyncio.Event()
        self.hanging = asyncio.Event()
        self.ops_got: list[str] = []
        self.ops_arrived = asyncio.Event()

    async def handle(self, request: httpx.Request) -> httpx.Response:
        if request.url.host == "ops.swift-lagos.example":
            self.ops_got.append(request.headers["Service-Event"])
            self.ops_arrived.set()
            return httpx.Response(204)
        self.hanging.set()
        await self.release.wait()
        self.clock.advance(10)  # the attempt's whole time-out went by
        raise httpx.ReadTimeout("receiver hung", request=request)


async def test_a_hanging_receiver_delays_only_its_own_events(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    clock: FakeClock,
) -> None:
    scenario_data["capabilities"]["publicRequest"]["autoDispatch"] = False
    scenario_data["webhooks"].append(
        {
            "id": "wh_ops",
            "url": "https://ops.swift-lagos.example/hooks",
            "secret": "whsec_OpsEndpointSecret00000001",
        }
    )
    receiver = HangingReceiver(clock)
    box = make_sandbox(scenario_data, webhook_transport=httpx.MockTransport(receiver.handle))
    start = clock()
    await create(connect(box), pickup_body)
    draining = asyncio.create_task(box.drain_webhooks())
    # Both are events, not sleeps; the timeout only guards against a hung test.
    await asyncio.wait_for(receiver.hanging.wait(), timeout=5)
    await asyncio.wait_for(receiver.ops_arrived.wait(), timeout=5)
    assert receiver.ops_got == ["delivery.created"]
    assert not draining.done() and box.pending_webhooks == 1  # the hung attempt
    receiver.release.set()
    await draining
    by_endpoint = {a.endpoint_id: a for a in box.webhook_log()}
    assert by_endpoint["wh_ops"].outcome == "delivered"
    hung = by_endpoint["wh_local_bot"]
    assert (hung.at, hung.error, hung.outcome) == (start, "timed out", "retry_scheduled")
    # The 5 s pause counts from when the 10 s attempt ended, not from when it began.
    assert hung.next_attempt_at == start + 10 + RETRY_DELAYS_SECONDS[0]


async def test_the_worker_keeps_other_endpoints_going_while_one_hangs(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: Body,
    pickup_body: Body,
    create: CreateDelivery,
    clock: FakeClock,
) -> None:
    scenario_data["capabilities"]["publicRequest"]["autoDispatch"] = False
    scenario_data["webhooks"].append(
        {
            "id": "wh_ops",
            "url": "https://ops.swift-lagos.example/hooks",
            "secret": "whsec_OpsEndpointSecret00000001",
        }
    )
    receiver = HangingReceiver(clock)
    box = make_sandbox(scenario_data, webhook_transport=httpx.MockTransport(receiver.handle))
    api = connect(box)
    async with box:
        first = await create(api, pickup_body)
        await asyncio.wait_for(receiver.hanging.wait(), timeout=5)
        await api.post(f"/deliveries/{first['id']}/cancel", json={"reason": "changed my mind"})
        while len(receiver.ops_got) < 2:
            receiver.ops_arrived.clear()
            await asyncio.wait_for(receiver.ops_arrived.wait(), timeout=5)
        assert receiver.ops_got == ["delivery.created", "delivery.cancelled"]
        receiver.release.set()


async def test_admin_http_actions_queue_events_after_their_answer(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: Body,
    create: CreateDelivery,
    receiver: Receiver,
) -> None:
    delivery = await create(manual_api, pickup_body)
    await manual_sandbox.drain_webhooks()
    admin = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=manual_sandbox.app),
        base_url="https://sandbox.invalid/sandbox/admin",
        headers={"Authorization": f"Bearer {manual_sandbox.admin_token}"},
    )
    async with admin:
        response = await admin.post(f"/deliveries/{delivery['id']}/mark-paid")
    assert response.status_code == 200
    assert manual_sandbox.pending_webhooks == 2
    await manual_sandbox.drain_webhooks()
    assert receiver.types()[1:] == ["delivery.updated", "delivery.otp_issued"]
