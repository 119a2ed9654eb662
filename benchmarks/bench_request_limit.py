"""P4: 100 customers confirm within 60 s on a 60-requests-a-minute key.

The real ``PartnerClient`` (its ``RequestLimiter``, retries and 429 handling) creates against
the real in-process sandbox, whose organization is set to 60 requests a minute; the customers'
``CreateWaitNotice`` says a wait over 3 s before the create goes on. As in the bot, the first
call is the capabilities fetch that tells the client its cap; then customer *i* confirms at
``0.6 * i`` seconds. Time is virtual (an event loop whose clock jumps to the next timer when
nothing is ready), so the two minutes this takes run in well under a second, and every figure
is exact.

Printed: the 429s the sandbox answered (the goal is 0: the client must hold back, not be told
to), deliveries created, and per customer the longest silence (confirm to the first thing they
hear: the wait notice or the create's answer), beside the same run without the notice.
Run: ``PYTHONPATH=. .venv/bin/python benchmarks/bench_request_limit.py``.
"""

from __future__ import annotations

import asyncio
import logging
import selectors
import statistics
from dataclasses import dataclass, field
from typing import Any

import httpx

from bot.chat_ref import TELEGRAM, ChatRef
from bot.ordering.create_wait import QUIET_SECONDS, CreateWaitNotice
from bot.ordering.creator import PartnerCreator
from bot.ordering.turn_creates import TurnCreates
from bot.partner.capabilities import CapabilityCache
from bot.partner.client import PartnerClient
from bot.partner.models import CreateDeliveryRequest
from bot.partner.request_limiter import RequestLimiter
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from conversations.outcome import Created

CUSTOMERS = 100
SPREAD_SECONDS = 60.0
PER_MINUTE = 60
EPOCH = 1_790_000_000.0  # the virtual clock's wall-clock start
IMAGE_URL = "https://media.swift-lagos.example/parcel.jpg"
JPEG = b"\xff\xd8\xff\xe0" + b"benchmark-image" * 10


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock jumps to the next timer instead of waiting for it.

    Only for code that never waits on anything but timers and in-process work (no threads,
    no sockets): a real wait would be skipped over.
    """

    def __init__(self) -> None:
        super().__init__(selectors.SelectSelector())
        self._now = 0.0
        real_select = self._selector.select  # type: ignore[attr-defined]

        def select(timeout: float | None = None) -> list[Any]:
            if timeout is not None and timeout > 0:
                self._now += timeout
            return real_select(0)

        self._selector.select = select  # type: ignore[attr-defined]

    def time(self) -> float:
        return self._now


def wall_clock() -> float:
    return EPOCH + asyncio.get_running_loop().time()


class CountingTransport(httpx.AsyncBaseTransport):
    """The sandbox's ASGI transport, counting the answers by status."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.statuses: dict[int, int] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
        return response


class Chats:
    """The channel: when each chat was told something."""

    def __init__(self) -> None:
        self.told: dict[int, float] = {}

    async def send(self, chat: ChatRef, text: str) -> int | None:
        chat_id = chat.id  # the channel's own id for the chat
        self.told.setdefault(chat_id, asyncio.get_running_loop().time())
        return None

    def otp_link(self, token: str) -> str:
        return f"https://t.me/bench?start=otp_{token}"


@dataclass
class Outcome:
    created: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    silences: list[float] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    told: int = 0


def order(customer: int) -> CreateDeliveryRequest:
    return CreateDeliveryRequest.model_validate(
        {
            "serviceKind": "pickup_delivery",
            "deliveryMode": "pickup",
            "senderName": "Adaeze Nwosu",
            "senderPhone": "+2348012345678",
            "receiverName": "Bola Ahmed",
            "receiverPhone": "+2348098765432",
            "pickupAddress": "12 Herbert Macaulay Way, Yaba, Lagos",
            "pickupCoords": {"lng": 3.3792, "lat": 6.5090},
            "deliveryAddress": f"{customer} Awolowo Road, Ikoyi, Lagos",
            "deliveryCoords": {"lng": 3.4380, "lat": 6.4500},
            "packageDescription": f"Parcel {customer}",
            "packageSize": "small",
            "packageImages": [IMAGE_URL],
            "customerCollectionMethod": "cash_on_delivery",
            "idempotencyKey": f"bench-{customer:04d}",
        }
    )


async def public_resolver(host: str) -> list[str]:
    return ["93.184.216.34"]  # any public address: the image host is stubbed


async def run(*, notice_threshold: float) -> Outcome:
    data = default_scenario_data()
    data["organization"]["rate_limit_per_minute"] = PER_MINUTE
    images = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)
    )
    sandbox = Sandbox(
        parse_scenario(data), clock=wall_clock, image_transport=images, resolver=public_resolver
    )
    transport = CountingTransport(httpx.ASGITransport(app=sandbox.app))
    # The limiter runs on the loop's (virtual) monotonic time.
    limiter = RequestLimiter(clock=asyncio.get_running_loop().time)
    client = PartnerClient(
        sandbox.base_url, sandbox.api_key, transport=transport, limiter=limiter, clock=wall_clock
    )
    chats = Chats()
    notice = CreateWaitNotice(client.limiter, chats, threshold_seconds=notice_threshold)
    creator = PartnerCreator(client)
    outcome = Outcome()
    loop = asyncio.get_running_loop()
    await CapabilityCache.for_client(client).get()  # the call that tells the cap

    async def customer(number: int) -> None:
        await asyncio.sleep(number * SPREAD_SECONDS / CUSTOMERS)
        confirmed = loop.time()
        foreseen = await notice.before_create(ChatRef(TELEGRAM, number))
        outcome.waits.append(foreseen.seconds)
        result = await creator.create(order(number), TurnCreates(held_back=foreseen.held_back))
        answered = loop.time()
        told = chats.told.get(number)
        outcome.silences.append((told if told is not None else answered) - confirmed)
        outcome.told += told is not None
        outcome.created += isinstance(result, Created)

    await asyncio.gather(*(customer(n) for n in range(CUSTOMERS)))
    await client.aclose()
    await sandbox.aclose()
    outcome.statuses = transport.statuses
    return outcome


def line(name: str, outcome: Outcome) -> str:
    silent = sum(s > QUIET_SECONDS for s in outcome.silences)
    return (
        f"  {name:<22} 429s {outcome.statuses.get(429, 0):3d}   created {outcome.created:3d}/"
        f"{CUSTOMERS}   told of a wait {outcome.told:3d}   silent > {QUIET_SECONDS:.0f} s: "
        f"{silent:3d} (longest {max(outcome.silences):5.1f} s, median "
        f"{statistics.median(outcome.silences):4.1f} s)   longest wait {max(outcome.waits):5.1f} s"
    )


def main() -> None:
    logging.disable(logging.INFO)  # a create refused would be logged; its count is printed
    results = {}
    for name, threshold in (("with the notice", QUIET_SECONDS), ("without it", float("inf"))):
        loop = VirtualTimeLoop()
        try:
            results[name] = loop.run_until_complete(run(notice_threshold=threshold))
        finally:
            loop.close()
    print(
        f"P4 {CUSTOMERS} customers confirming within {SPREAD_SECONDS:.0f} s on a "
        f"{PER_MINUTE}/min key (sandbox, virtual time); goals: 0 429s, nobody silent > "
        f"{QUIET_SECONDS:.0f} s"
    )
    for name, outcome in results.items():
        print(line(name, outcome))


if __name__ == "__main__":
    main()
