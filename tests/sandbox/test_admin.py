"""The sandbox-only admin API under /sandbox/admin, with its own bearer token."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from bot.sandbox import Sandbox
from tests.support.clock import FakeClock

from .support import CreateDelivery, Receiver

Body = dict[str, Any]


@pytest.fixture
async def admin(manual_sandbox: Sandbox) -> AsyncIterator[httpx.AsyncClient]:
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=manual_sandbox.app),
        base_url="https://sandbox.invalid/sandbox/admin",
        headers={"Authorization": f"Bearer {manual_sandbox.admin_token}"},
    )
    async with client:
        yield client


@pytest.fixture
async def delivery_id(
    manual_api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> str:
    delivery_id: str = (await create(manual_api, pickup_body))["id"]
    return delivery_id


def ok(response: httpx.Response) -> Body:
    assert response.status_code == 200, response.text
    body: Body = response.json()
    assert body["ok"] is True
    return body


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer wrong-token"},
        {"X-Api-Key": "sk_live_SandboxLagosDemoKey0000000001"},
    ],
)
async def test_admin_token_is_required(manual_sandbox: Sandbox, headers: dict[str, str]) -> None:
    client = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=manual_sandbox.app),
        base_url="https://sandbox.invalid/sandbox/admin",
        headers=headers,
    )
    async with client:
        response = await client.get("/calls")
    assert response.status_code == 401
    assert response.json()["code"] == "admin_unauthorized"


async def test_api_key_cannot_use_admin_and_admin_token_cannot_use_the_api(
    manual_sandbox: Sandbox, connect: Any
) -> None:
    api = connect(manual_sandbox, key=manual_sandbox.admin_token)
    assert (await api.get("/capabilities")).status_code == 401


def test_admin_token_from_the_scenario(make_sandbox: Any, scenario_data: Body) -> None:
    scenario_data["sandbox"]["admin_token"] = "adm-0123456789abcdef"
    assert make_sandbox(scenario_data).admin_token == "adm-0123456789abcdef"
    assert make_sandbox().admin_token != make_sandbox().admin_token  # random when not set


async def test_delivery_actions_over_http(
    admin: httpx.AsyncClient,
    manual_api: httpx.AsyncClient,
    manual_sandbox: Sandbox,
    delivery_id: str,
    receiver: Receiver,
) -> None:
    priced = ok(await admin.post(f"/deliveries/{delivery_id}/fee", json={"amount": 3100}))
    assert priced["delivery"]["payment"]["delivery_fee"] == 3100
    await manual_api.post(f"/deliveries/{delivery_id}/assign", json={"riderId": "rdr_tunde"})
    paid = ok(await admin.post(f"/deliveries/{delivery_id}/mark-paid"))
    code = paid["sandbox"]["otp_code"]
    assert paid["delivery"]["payment"]["delivery_payment_status"] == "paid" and code
    assert (
        ok(await admin.post(f"/deliveries/{delivery_id}/advance"))["delivery"]["status"]
        == "picked_up"
    )
    moved = ok(
        await admin.post(f"/deliveries/{delivery_id}/advance", json={"status": "in_transit"})
    )
    assert moved["delivery"]["status"] == "in_transit"
    resent = ok(await admin.post(f"/deliveries/{delivery_id}/resend-otp"))
    assert resent["sandbox"]["otp_code"] == code
    detail = ok(await admin.get(f"/deliveries/{delivery_id}"))
    assert detail["delivery"]["status"] == "in_transit" and len(detail["sandbox"]["images"]) == 1
    await manual_sandbox.drain_webhooks()
    assert receiver.types()[-1] == "delivery.otp_issued"


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/fee", {"amount": 0}, 400, "validation_error"),
        ("/fee", {}, 400, "validation_error"),
        ("/fee", {"amount": "3000"}, 400, "validation_error"),
        ("/advance", {"status": "flying"}, 400, "validation_error"),
        ("/advance", {}, 400, "advance_not_allowed"),
        ("/resend-otp", None, 400, "fee_not_paid"),
    ],
)
async def test_delivery_action_refusals(
    admin: httpx.AsyncClient, delivery_id: str, path: str, body: Body | None, status: int, code: str
) -> None:
    response = await admin.post(f"/deliveries/{delivery_id}{path}", json=body)
    assert (response.status_code, response.json()["code"]) == (status, code)


async def test_unknown_or_malformed_delivery(admin: httpx.AsyncClient) -> None:
    missing = await admin.post("/deliveries/00000000-0000-4000-8000-000000000000/mark-paid")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    malformed = await admin.post("/deliveries/abc/mark-paid")
    assert malformed.status_code == 400


async def test_rider_actions_over_http(
    admin: httpx.AsyncClient, manual_api: httpx.AsyncClient, clock: FakeClock
) -> None:
    clock.advance(3600)
    moved = ok(
        await admin.post("/riders/rdr_emeka/location", json={"latitude": 6.51, "longitude": 3.37})
    )
    assert moved["rider"]["location"]["fresh"] is True
    assert moved["rider"]["location"]["updated_at"] == "2027-01-15T09:00:00.000Z"
    ok(await admin.post("/riders/rdr_emeka/presence", json={"presence": "unavailable"}))
    rows = {r["id"]: r for r in (await manual_api.get("/riders")).json()["riders"]}
    assert rows["rdr_emeka"]["presence"] == "unavailable"
    assert rows["rdr_emeka"]["presence_updated_at"] == "2027-01-15T09:00:00.000Z"


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/riders/rdr_nobody/presence", {"presence": "available"}, 404, "rider_not_found"),
        ("/riders/rdr_emeka/presence", {"presence": "asleep"}, 400, "validation_error"),
        ("/riders/rdr_emeka/location", {"latitude": 6.5}, 400, "validation_error"),
        ("/riders/rdr_emeka/location", {"latitude": 0, "longitude": 0}, 400, "validation_error"),
        (
            "/riders/rdr_emeka/location",
            {"latitude": "6.5", "longitude": 3.3},
            400,
            "validation_error",
        ),
        ("/keys/key_nobody/revoke", {}, 404, "key_not_found"),
        ("/faults", {"endpoint": "list_riders", "kind": "boom"}, 400, "validation_error"),
        ("/faults", {"kind": "status"}, 400, "validation_error"),
    ],
)
async def test_other_refusals(
    admin: httpx.AsyncClient, path: str, body: Body, status: int, code: str
) -> None:
    response = await admin.post(path, json=body)
    assert (response.status_code, response.json()["code"]) == (status, code)


async def test_revoke_key_over_http(
    admin: httpx.AsyncClient, manual_api: httpx.AsyncClient
) -> None:
    revoked = ok(await admin.post("/keys/key_sandbox_demo/revoke", json={"auto": True}))
    assert revoked["key"] == {"id": "key_sandbox_demo", "state": "auto_revoked"}
    assert (await manual_api.get("/capabilities")).json()["code"] == "api_key_auto_revoked"


async def test_faults_log_and_counters_over_http(
    admin: httpx.AsyncClient,
    manual_api: httpx.AsyncClient,
    manual_sandbox: Sandbox,
    delivery_id: str,
    receiver: Receiver,
) -> None:
    armed = ok(
        await admin.post(
            "/faults", json={"endpoint": "GET /riders", "kind": "status", "count": 1, "status": 503}
        )
    )
    assert armed["endpoint"] == "list_riders"
    assert (await manual_api.get("/riders")).status_code == 503
    ok(await admin.post("/faults", json={"endpoint": "list_riders", "kind": "status", "count": 3}))
    ok(await admin.delete("/faults"))
    assert (await manual_api.get("/riders")).status_code == 200
    bad = await admin.post("/faults", json={"endpoint": "list_riders", "kind": "drop", "when": "x"})
    assert bad.status_code == 400 and "when" in bad.json()["fieldErrors"]
    ok(
        await admin.post(
            "/faults", json={"endpoint": "cancel_delivery", "kind": "status", "when": "after"}
        )
    )
    cancel = await manual_api.post(f"/deliveries/{delivery_id}/cancel", json={"reason": "oops"})
    assert cancel.status_code == 500  # the answer was lost ...
    assert manual_sandbox.delivery(delivery_id)["status"] == "cancelled"  # ... the cancel was not
    calls = ok(await admin.get("/calls"))["calls"]
    assert calls["list_riders"] == 2 and calls["create_delivery"] == 1
    receiver.fail_next = 1
    await manual_sandbox.drain_webhooks()
    log = ok(await admin.get("/webhooks"))
    assert log["pending"] == 1
    attempt, cancelled = log["attempts"]
    assert cancelled["event_type"] == "delivery.cancelled" and cancelled["outcome"] == "delivered"
    assert attempt["event_type"] == "delivery.created" and attempt["attempt"] == 1
    assert attempt["status_code"] == 500 and attempt["outcome"] == "retry_scheduled"
    assert attempt["url"] == "http://127.0.0.1:8080/hooks/partner"
    assert attempt["event_id"].startswith("evt_") and attempt["endpoint_id"] == "wh_local_bot"
