"""Partner figures: webhook signature checks per second, and the client's cost per request.

The client is measured against a bare ``httpx.AsyncClient`` on the same in-process
``httpx.MockTransport``, so the difference is what ``PartnerClient`` adds: the limiter, the
retry loop, auth headers, error mapping and pydantic parsing of the delivery. Prints figures
only. Run: ``.venv/bin/python benchmarks/bench_partner.py``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable

import httpx

from bot.partner.client import PartnerClient
from bot.partner.signing import sign, verify

SECRET = "whsec_benchmark_secret"
API_KEY = "sk_live_benchmark_key_0123456789"
BASE_URL = "https://partner.bench/api/v1"
SECONDS_PER_FIGURE = 2.0

DELIVERY = {
    "id": "dlv_bench",
    "status": "matched",
    "access_code": "AC12",
    "title": "Parcel",
    "service_kind": "pickup_delivery",
    "request_source": "api",
    "package": {"description": "Shoes", "size": "small", "is_fragile": False},
    "payment": {
        "delivery_fee": 2500,
        "delivery_payment_status": "unpaid",
        "currency_code": "NGN",
        "customer_collection_method": "cash_on_delivery",
        "is_pod_enabled": False,
        "pod_amount": None,
    },
    "pickup": {"address": "1 Marina", "latitude": 6.45, "longitude": 3.39, "warehouse_id": None},
    "dropoff": {"address": "2 Herbert Macaulay Way", "latitude": 6.51, "longitude": 3.37},
    "distance_km": 8.2,
    "estimated_duration_minutes": 25,
    "customer": {
        "sender_name": "Ada",
        "sender_phone": "+2348000000001",
        "sender_email": None,
        "receiver_name": "Bola",
        "receiver_phone": "+2348000000002",
    },
    "tracking": {
        "url": "https://track.bench/track/dlv_bench/AC12",
        "path": "/track/dlv_bench/AC12",
        "access_code": "AC12",
    },
    "rider_assigned": True,
    "rider": {"id": "rdr_1", "name": "Tunde", "vehicle_type": "bike"},
    "created_at": "2024-05-01T10:00:00Z",
    "updated_at": "2024-05-01T10:05:00Z",
    "cancelled_at": None,
    "cancellation_reason": None,
}


def bench_verify() -> float:
    """Signature verifications per second on a webhook-sized body."""
    event = {"id": "evt_1", "type": "delivery.status_changed", "data": {"object": DELIVERY}}
    body = json.dumps(event).encode()
    now = int(time.time())
    header = sign(body, SECRET, now)
    count = 0
    started = time.perf_counter()
    deadline = started + SECONDS_PER_FIGURE
    while time.perf_counter() < deadline:
        for _ in range(1000):
            verify(body, header, SECRET, now=now)
        count += 1000
    return count / (time.perf_counter() - started)


async def per_request(call: Callable[[], Awaitable[object]]) -> float:
    """Mean seconds per call, after a warm-up, over about ``SECONDS_PER_FIGURE``."""
    for _ in range(200):
        await call()
    count = 0
    started = time.perf_counter()
    deadline = started + SECONDS_PER_FIGURE
    while time.perf_counter() < deadline:
        for _ in range(200):
            await call()
        count += 200
    return (time.perf_counter() - started) / count


async def bench_client() -> tuple[float, float]:
    body = json.dumps({"ok": True, "delivery": DELIVERY}).encode()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    transport = httpx.MockTransport(handler)
    async with httpx.AsyncClient(base_url=BASE_URL, transport=transport) as bare:

        async def bare_get() -> object:
            response = await bare.get("/deliveries/dlv_bench")
            return response.json()

        bare_seconds = await per_request(bare_get)
    async with PartnerClient(BASE_URL, API_KEY, transport=transport) as client:

        async def client_get() -> object:
            return await client.get_delivery("dlv_bench")

        client_seconds = await per_request(client_get)
    return bare_seconds, client_seconds


def main() -> None:
    print(f"signature verify: {bench_verify():,.0f} verifications/s")
    bare, client = asyncio.run(bench_client())
    print(f"bare httpx get + json:      {bare * 1e6:8.1f} µs/request")
    print(f"PartnerClient.get_delivery: {client * 1e6:8.1f} µs/request")
    overhead = (client - bare) * 1e6
    ratio = client / bare
    print(f"client overhead:            {overhead:8.1f} µs/request ({ratio:.2f}x the bare call)")


if __name__ == "__main__":
    main()
