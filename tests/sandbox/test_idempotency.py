from __future__ import annotations

import asyncio
from typing import Any

import httpx

from bot.sandbox import Sandbox
from tests.support.clock import FakeClock

from .support import CreateDelivery, Receiver

Body = dict[str, Any]


async def test_same_key_same_body_returns_the_first_delivery(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body, receiver: Receiver
) -> None:
    pickup_body["idempotencyKey"] = "order-2024-0001"
    first = await api.post("/deliveries", json=pickup_body)
    again = await api.post("/deliveries", json=pickup_body)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert again.json()["delivery"]["id"] == first.json()["delivery"]["id"]
    listed = (await api.get("/deliveries")).json()["deliveries"]
    assert len(listed) == 1
    await sandbox.drain_webhooks()
    assert receiver.types().count("delivery.created") == 1


async def test_replay_shows_the_delivery_as_it_is_now(
    sandbox: Sandbox, api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body["idempotencyKey"] = "order-2024-0002"
    first = (await api.post("/deliveries", json=pickup_body)).json()["delivery"]
    await api.post(f"/deliveries/{first['id']}/cancel", json={"reason": "changed my mind"})
    again = (await api.post("/deliveries", json=pickup_body)).json()["delivery"]
    assert again["id"] == first["id"] and again["status"] == "cancelled"


async def test_same_key_different_body_is_a_validation_error(
    api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    pickup_body["idempotencyKey"] = "order-2024-0003"
    await create(api, dict(pickup_body))
    pickup_body["packageDescription"] = "Something else entirely"
    response = await api.post("/deliveries", json=pickup_body)
    assert response.status_code == 400
    assert response.json()["fieldErrors"] == {
        "idempotencyKey": ["was already used with a different request body"]
    }


async def test_without_a_key_every_create_is_new(
    api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery
) -> None:
    first = await create(api, pickup_body)
    second = await create(api, pickup_body)
    assert first["id"] != second["id"]


async def test_key_expires_after_the_ttl(
    api: httpx.AsyncClient, pickup_body: Body, create: CreateDelivery, clock: FakeClock
) -> None:
    pickup_body["idempotencyKey"] = "order-2024-0004"
    first = await create(api, pickup_body)
    clock.advance(23 * 3600)
    assert (await create(api, pickup_body))["id"] == first["id"]
    clock.advance(2 * 3600)
    assert (await create(api, pickup_body))["id"] != first["id"]


async def test_concurrent_creates_with_one_key_make_one_delivery(
    api: httpx.AsyncClient, pickup_body: Body
) -> None:
    pickup_body["idempotencyKey"] = "order-2024-0005"
    answers = await asyncio.gather(*(api.post("/deliveries", json=pickup_body) for _ in range(3)))
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["delivery"]["id"] for a in answers}) == 1
