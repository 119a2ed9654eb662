"""Injected faults (status, latency, dropped connection) and the per-operation call counters."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from starlette.types import Message

from bot.sandbox import ApiError, Sandbox
from tests.support.clock import FakeClock

from .support import Connect, CreateDelivery, MakeSandbox, Receiver, create_scope


async def test_status_fault_uses_the_operations_failure_code(
    sandbox: Sandbox, api: httpx.AsyncClient
) -> None:
    sandbox.inject_fault("get_capabilities", "status", count=2)
    first, second, third = [await api.get("/capabilities") for _ in range(3)]
    assert first.status_code == second.status_code == 503
    assert first.json() == {
        "ok": False,
        "error": "Injected sandbox fault: upstream failure.",
        "code": "capabilities_failed",
    }
    assert third.status_code == 200


@pytest.mark.parametrize(
    ("endpoint", "method", "path", "status", "code"),
    [
        ("POST /deliveries", "POST", "/deliveries", 503, "create_failed"),
        ("list_warehouses", "GET", "/warehouses", 503, "warehouses_failed"),
        ("GET /api/v1/deliveries", "GET", "/deliveries", 500, "list_failed"),
        ("list_riders", "GET", "/riders", 500, "list_failed"),
        ("GET /deliveries/{deliveryId}", "GET", "/deliveries/x", 500, "get_failed"),
        ("cancel_delivery", "POST", "/deliveries/x/cancel", 500, "cancel_failed"),
        ("assign_rider", "POST", "/deliveries/x/assign", 500, "assign_failed"),
        ("unassign_rider", "POST", "/deliveries/x/unassign", 500, "unassign_failed"),
        ("list_service_locations", "GET", "/service-locations", 503, "service_locations_failed"),
    ],
)
async def test_each_operation_fails_its_own_way(
    sandbox: Sandbox,
    api: httpx.AsyncClient,
    endpoint: str,
    method: str,
    path: str,
    status: int,
    code: str,
) -> None:
    sandbox.inject_fault(endpoint, "status")
    response = await api.request(method, path)
    assert (response.status_code, response.json()["code"]) == (status, code)


async def test_status_and_code_can_be_chosen(sandbox: Sandbox, api: httpx.AsyncClient) -> None:
    sandbox.inject_fault("get_delivery", "status", status=502, code="bad_gateway")
    response = await api.get("/deliveries/x")
    assert (response.status_code, response.json()["code"]) == (502, "bad_gateway")


async def test_faults_apply_before_authentication(sandbox: Sandbox, connect: Any) -> None:
    sandbox.inject_fault("get_capabilities", "status")
    response = await connect(sandbox, header=None).get("/capabilities")
    assert response.status_code == 503


async def test_faults_only_hit_their_operation(sandbox: Sandbox, api: httpx.AsyncClient) -> None:
    sandbox.inject_fault("list_deliveries", "status")
    assert (await api.get("/deliveries/00000000-0000-4000-8000-000000000000")).status_code == 404
    assert (await api.get("/riders")).status_code == 200
    assert (await api.get("/deliveries")).status_code == 500


async def test_latency_fault_waits_through_the_injected_sleep(
    sandbox: Sandbox, api: httpx.AsyncClient, clock: FakeClock
) -> None:
    sandbox.inject_fault("list_riders", "latency", latency_seconds=12.5)
    before = clock()
    response = await api.get("/riders")
    assert response.status_code == 200 and clock.slept == [12.5]
    assert clock() - before == 12.5
    await api.get("/riders")
    assert clock.slept == [12.5]


async def test_a_held_call_is_applied_though_its_answer_cannot_be_written(
    manual_sandbox: Sandbox, pickup_body: dict[str, Any], receiver: Receiver, clock: FakeClock
) -> None:
    """The client hung up during the wait: the server gets the request, fails the answer."""
    raw = json.dumps(pickup_body).encode()
    arriving: list[Message] = [
        {"type": "http.request", "body": raw[:100], "more_body": True},
        {"type": "http.request", "body": raw[100:], "more_body": False},
    ]

    async def receive() -> Message:
        return arriving.pop(0) if arriving else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        raise OSError("the client has gone")  # what an ASGI 2.4 server raises then

    manual_sandbox.inject_fault("create_delivery", "latency", latency_seconds=20)
    await manual_sandbox.app(create_scope(manual_sandbox), receive, send)
    assert clock.slept == [20]
    (delivery,) = manual_sandbox.deliveries()
    assert delivery["status"] == "pending"
    await manual_sandbox.drain_webhooks()
    assert receiver.types() == ["delivery.created"]


async def test_a_held_call_whose_client_left_before_sending_it_changes_nothing(
    manual_sandbox: Sandbox, clock: FakeClock
) -> None:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    manual_sandbox.inject_fault("create_delivery", "latency", latency_seconds=20)
    await manual_sandbox.app(create_scope(manual_sandbox), receive, send)
    assert (sent, clock.slept, manual_sandbox.deliveries()) == ([], [], [])


async def test_dropped_connection_reaches_the_client_as_a_protocol_error(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: dict[str, Any], create: CreateDelivery
) -> None:
    sandbox.inject_fault("create_delivery", "drop")
    with pytest.raises(httpx.RemoteProtocolError):
        await api.post("/deliveries", json=pickup_body)
    assert (await api.get("/deliveries")).json()["deliveries"] == []  # nothing was created
    await create(api, pickup_body)


# --- when="after": the call is applied, then its answer is lost -----------------------------------


async def test_a_status_fault_after_the_handler_loses_a_create_that_happened(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: dict[str, Any],
    receiver: Receiver,
) -> None:
    manual_sandbox.inject_fault("create_delivery", "status", when="after")
    response = await manual_api.post("/deliveries", json=pickup_body)
    assert (response.status_code, response.json()["code"]) == (503, "create_failed")
    (created,) = (await manual_api.get("/deliveries")).json()["deliveries"]
    assert created["status"] == "pending"  # applied, though the caller was told it failed
    await manual_sandbox.drain_webhooks()
    assert receiver.types() == ["delivery.created"]


async def test_a_drop_after_the_handler_breaks_the_answer_of_an_applied_cancel(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: dict[str, Any],
    create: CreateDelivery,
) -> None:
    delivery = await create(manual_api, pickup_body)
    manual_sandbox.inject_fault("cancel_delivery", "drop", when="after")
    with pytest.raises(httpx.RemoteProtocolError):
        await manual_api.post(
            f"/deliveries/{delivery['id']}/cancel", json={"reason": "changed my mind"}
        )
    assert manual_sandbox.delivery(delivery["id"])["status"] == "cancelled"


async def test_latency_after_the_handler_holds_back_an_applied_answer(
    make_sandbox: MakeSandbox,
    connect: Connect,
    scenario_data: dict[str, Any],
    pickup_body: dict[str, Any],
    create: CreateDelivery,
    clock: FakeClock,
) -> None:
    statuses_while_held: list[str] = []

    async def sleep(seconds: float) -> None:
        statuses_while_held.append(box.delivery(delivery["id"])["status"])
        await clock.sleep(seconds)

    scenario_data["capabilities"]["publicRequest"]["autoDispatch"] = False
    box = make_sandbox(scenario_data, sleep=sleep)
    api = connect(box)
    delivery = await create(api, pickup_body)
    box.inject_fault("assign_rider", "latency", latency_seconds=30, when="after")
    response = await api.post(f"/deliveries/{delivery['id']}/assign", json={"riderId": "rdr_tunde"})
    assert response.status_code == 200 and response.json()["delivery"]["status"] == "matched"
    assert statuses_while_held == ["matched"]  # the assignment happened before the wait
    assert clock.slept == [30]


async def test_a_fault_before_the_handler_changes_nothing(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: dict[str, Any],
) -> None:
    manual_sandbox.inject_fault("create_delivery", "status", when="before")
    assert (await manual_api.post("/deliveries", json=pickup_body)).status_code == 503
    assert (await manual_api.get("/deliveries")).json()["deliveries"] == []


async def test_faults_are_used_in_order_and_can_be_cleared(
    sandbox: Sandbox, api: httpx.AsyncClient
) -> None:
    sandbox.inject_fault("list_riders", "status", status=500)
    sandbox.inject_fault("list_riders", "status", status=504)
    assert [(await api.get("/riders")).status_code for _ in range(3)] == [500, 504, 200]
    sandbox.inject_fault("list_riders", "status", count=5)
    sandbox.clear_faults()
    assert (await api.get("/riders")).status_code == 200


@pytest.mark.parametrize(
    ("args", "kwargs", "field"),
    [
        (("nope", "status"), {}, "endpoint"),
        (("list_riders", "explode"), {}, "kind"),
        (("list_riders", "status", 0), {}, "count"),
        (("list_riders", "status"), {"status": 200}, "status"),
        (("list_riders", "latency"), {"latency_seconds": -1}, "latency_seconds"),
        (("list_riders", "drop"), {"when": "during"}, "when"),
    ],
)
def test_bad_faults_are_refused(
    sandbox: Sandbox, args: tuple[Any, ...], kwargs: dict[str, Any], field: str
) -> None:
    with pytest.raises(ApiError) as caught:
        sandbox.inject_fault(*args, **kwargs)
    assert field in caught.value.field_errors


async def test_call_counters_count_every_call(
    sandbox: Sandbox, api: httpx.AsyncClient, connect: Any
) -> None:
    sandbox.inject_fault("get_capabilities", "status")
    await api.get("/capabilities")
    await api.get("/capabilities")
    await connect(sandbox, header=None).get("/capabilities")  # refused, still counted
    await api.get("/deliveries/00000000-0000-4000-8000-000000000000")
    await api.get("/nowhere")
    await api.get("/openapi.json")
    counts = sandbox.call_counts()
    assert counts["get_capabilities"] == 3
    assert counts["get_delivery"] == 1
    assert sum(counts.values()) == 4
    assert set(counts) == {
        "get_capabilities",
        "list_warehouses",
        "list_service_locations",
        "create_delivery",
        "get_delivery",
        "list_deliveries",
        "cancel_delivery",
        "list_riders",
        "assign_rider",
        "unassign_rider",
    }
