"""Fixtures for the sandbox tests: sandboxes built from the default scenario (edited per test),
in-process clients (the foundation's ``PartnerClient`` wherever it can make the call, raw httpx
for requests its own checks would stop), and valid create bodies."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from bot.partner.client import PartnerClient
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from tests.support.clock import FakeClock

from .support import (
    IKOYI,
    IMAGE_URL,
    YABA,
    Connect,
    CreateDelivery,
    ImageHost,
    MakeSandbox,
    PartnerFor,
    Receiver,
    public_resolver,
)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def receiver() -> Receiver:
    return Receiver()


@pytest.fixture
def image_host() -> ImageHost:
    return ImageHost()


@pytest.fixture
def scenario_data() -> dict[str, Any]:
    """The default scenario as editable TOML data."""
    return default_scenario_data()


@pytest.fixture
async def make_sandbox(
    clock: FakeClock, receiver: Receiver, image_host: ImageHost
) -> AsyncIterator[MakeSandbox]:
    made: list[Sandbox] = []

    def make(data: dict[str, Any] | None = None, **kwargs: Any) -> Sandbox:
        options: dict[str, Any] = {
            "clock": clock,
            "sleep": clock.sleep,
            "webhook_transport": receiver.transport,
            "image_transport": image_host.transport,
            "resolver": public_resolver,
        }
        options.update(kwargs)
        box = Sandbox(parse_scenario(data or default_scenario_data()), **options)
        made.append(box)
        return box

    yield make
    for box in made:
        await box.aclose()


@pytest.fixture
def sandbox(make_sandbox: MakeSandbox) -> Sandbox:
    """The default scenario, exactly as shipped."""
    return make_sandbox()


@pytest.fixture
def manual_sandbox(make_sandbox: MakeSandbox, scenario_data: dict[str, Any]) -> Sandbox:
    """The default scenario with auto-dispatch off, so creates stay pending."""
    scenario_data["capabilities"]["publicRequest"]["autoDispatch"] = False
    return make_sandbox(scenario_data)


@pytest.fixture
async def connect() -> AsyncIterator[Connect]:
    """``connect(box, key=..., header="bearer"|"x-api-key"|None)``: an in-process client."""
    clients: list[httpx.AsyncClient] = []

    def make(
        box: Sandbox, key: str | None = None, header: str | None = "bearer"
    ) -> httpx.AsyncClient:
        secret = key if key is not None else box.api_key
        headers = {}
        if header == "bearer":
            headers["Authorization"] = f"Bearer {secret}"
        elif header == "x-api-key":
            headers["X-Api-Key"] = secret
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=box.app), base_url=box.base_url, headers=headers
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
async def partner_for(clock: FakeClock) -> AsyncIterator[PartnerFor]:
    """``partner_for(box, key=None)``: the foundation's client for ``box``, on the fake clock."""
    clients: list[PartnerClient] = []

    def make(box: Sandbox, key: str | None = None) -> PartnerClient:
        client = PartnerClient(
            box.base_url,
            key or box.api_key,
            transport=httpx.ASGITransport(app=box.app),
            clock=clock,
            sleep=clock.sleep,
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
def partner(partner_for: PartnerFor, sandbox: Sandbox) -> PartnerClient:
    return partner_for(sandbox)


@pytest.fixture
def manual_partner(partner_for: PartnerFor, manual_sandbox: Sandbox) -> PartnerClient:
    return partner_for(manual_sandbox)


@pytest.fixture
def api(connect: Connect, sandbox: Sandbox) -> httpx.AsyncClient:
    return connect(sandbox)


@pytest.fixture
def manual_api(connect: Connect, manual_sandbox: Sandbox) -> httpx.AsyncClient:
    return connect(manual_sandbox)


@pytest.fixture
def pickup_body() -> dict[str, Any]:
    """A valid pickup_delivery create body for the default scenario (Yaba to Ikoyi)."""
    return {
        "serviceKind": "pickup_delivery",
        "deliveryMode": "pickup",
        "senderName": "Adaeze Nwosu",
        "senderPhone": "+234 801 234 5678",
        "senderEmail": "adaeze@example.com",
        "receiverName": "Bola Ahmed",
        "receiverPhone": "+2348098765432",
        "pickupAddress": "12 Herbert Macaulay Way, Yaba, Lagos",
        "pickupCoords": dict(YABA),
        "deliveryAddress": "5 Awolowo Road, Ikoyi, Lagos",
        "deliveryCoords": dict(IKOYI),
        "packageDescription": "A pair of shoes in a box",
        "packageSize": "small",
        "isFragile": False,
        "packageImages": [IMAGE_URL],
        "customerCollectionMethod": "cash_on_delivery",
    }


@pytest.fixture
def errand_body() -> dict[str, Any]:
    """A valid at_place errand for the default scenario, with all six errand fields (the spec
    marks them required for errands; the array may be empty and the strings "")."""
    return {
        "serviceKind": "errand",
        "deliveryMode": "pickup",
        "senderName": "Adaeze Nwosu",
        "senderPhone": "+2348012345678",
        "pickupAddress": "Tejuosho Market, Yaba, Lagos",
        "pickupCoords": dict(YABA),
        "deliveryAddress": "5 Awolowo Road, Ikoyi, Lagos",
        "deliveryCoords": dict(IKOYI),
        "packageDescription": "Buy 2 kg of rice and a tin of tomato paste",
        "packageSize": "medium",
        "packageImages": [],
        "customerCollectionMethod": "cash_on_delivery",
        "errandMode": "at_place",
        "errandLinks": [],
        "errandBudgetNgn": "8000",
        "errandSubstituteOk": True,
        "shopPhone": "",
        "pickupLocationUnknown": False,
    }


@pytest.fixture
def create() -> CreateDelivery:
    """``await create(api, body)``: the created delivery; fails the test unless 201."""

    async def run(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
        response = await client.post("/deliveries", json=body)
        assert response.status_code == 201, response.text
        delivery: dict[str, Any] = response.json()["delivery"]
        return delivery

    return run
