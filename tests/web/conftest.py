"""Fixtures for the web app tests: a real store in tmp_path, a hand-moved clock, the app behind
httpx.ASGITransport, and signed Partner events."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from bot.partner.signing import sign
from bot.store import Store
from bot.web import create_web_app
from tests.support.clock import FakeClock
from tests.support.partner_json import compact, otp_json, webhook_event

NOW = 1_800_000_000.0
SECRET = "whsec_web_tests_current_secret_01"
PREVIOUS_SECRET = "whsec_web_tests_previous_secret_1"


class Wakes:
    """Counts the app's ``on_event`` calls."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


def event_body(
    event_id: str = "evt_000000000000000000000001",
    *,
    delivery_id: str = "3f2a9c1e-0000-4000-8000-000000000001",
    event_type: str = "delivery.status_changed",
    created: int = int(NOW),
    otp_code: str | None = None,
) -> bytes:
    """A webhook body as the service writes it (compact JSON, as raw bytes)."""
    body = webhook_event(
        event_id,
        {"id": delivery_id, "status": "matched", "rider_assigned": True},
        created=created,
        event_type=event_type,
        previous_status="pending",
        otp=None if otp_code is None else otp_json(otp_code, "+2348098765432"),
        summary="Delivery 3F2A9C1E was assigned to rider Tunde Bakare (motorbike).",
        hint="Good news: Tunde is your rider.",
        docs_url="https://docs.example/webhooks",
        notes=["Share tracking.url with the customer."],
    )
    return compact(body)


def signed_headers(body: bytes, *, secret: str = SECRET, at: float = NOW) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "Service-Event": "delivery.status_changed",
        "Service-Signature": sign(body, secret, int(at)),
    }


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def wakes() -> Wakes:
    return Wakes()


@pytest.fixture
def store_clock(clock: FakeClock) -> FakeClock:
    """``store`` (``tests.support.store_fixture``) reads the web tests' clock."""
    return clock


MakeClient = Callable[..., httpx.AsyncClient]


@pytest.fixture
async def make_client(store: Store, clock: FakeClock, wakes: Wakes) -> AsyncIterator[MakeClient]:
    """``make_client(**create_web_app overrides)``: an httpx client on a fresh app."""
    clients: list[httpx.AsyncClient] = []

    def make(**overrides: Any) -> httpx.AsyncClient:
        options: dict[str, Any] = {
            "store": store,
            "signing_secrets": [SECRET],
            "on_event": wakes,
            "clock": clock,
        }
        options.update(overrides)
        app = create_web_app(**options)
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="https://bot.example"
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
def client(make_client: MakeClient) -> httpx.AsyncClient:
    return make_client()


MakeBody = Callable[..., bytes]
SignHeaders = Callable[..., dict[str, str]]


@pytest.fixture
def make_body() -> MakeBody:
    """``make_body(event_id, delivery_id=, event_type=, created=, otp_code=)``: raw bytes."""
    return event_body


@pytest.fixture
def sign_headers() -> SignHeaders:
    """``sign_headers(body, secret=SECRET, at=NOW)``: the headers the service would send."""
    return signed_headers
