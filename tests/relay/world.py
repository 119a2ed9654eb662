"""The end-to-end world: the sandbox's webhooks into the bot's web app, its inbox and the relay.

Everything runs in process on one fake clock: the sandbox posts signed webhooks through
``httpx.ASGITransport`` to ``create_web_app``, whose ``on_event`` wakes the relay, which talks
to a ``RecordingChannel``. Deliveries are created with the real ``PartnerClient``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from starlette.applications import Starlette

from bot.chat_ref import TELEGRAM, ChatRef
from bot.partner.client import PartnerClient
from bot.partner.models import Coords, CreateDeliveryRequest, Delivery
from bot.relay import Relay
from bot.sandbox import Sandbox
from bot.store import Store
from tests.support.clock import FakeClock

from .support import CUSTOMER_CHAT, CUSTOMER_USER, RecordingChannel

JPEG = b"\xff\xd8\xff\xe0" + b"end-to-end-parcel" * 20
IMAGE_URL = "https://media.swift-lagos.example/parcel.jpg"
RECEIVER = "+2348098765432"
DROPOFF = "5 Awolowo Road, Ikoyi, Lagos"


def order() -> CreateDeliveryRequest:
    """Yaba to Ikoyi in the default scenario: inside coverage, near rider Tunde."""
    return CreateDeliveryRequest(
        serviceKind="pickup_delivery",
        deliveryMode="pickup",
        senderName="Adaeze Nwosu",
        senderPhone="+2348012345678",
        receiverName="Bola Ahmed",
        receiverPhone=RECEIVER,
        pickupAddress="12 Herbert Macaulay Way, Yaba, Lagos",
        pickupCoords=Coords(lng=3.3792, lat=6.5090),
        deliveryAddress=DROPOFF,
        deliveryCoords=Coords(lng=3.4380, lat=6.4500),
        packageDescription="A pair of shoes in a box",
        packageSize="small",
        packageImages=[IMAGE_URL],
        customerCollectionMethod="cash_on_delivery",
    )


async def public_resolver(host: str) -> list[str]:
    return ["93.184.216.34"]


def image_host() -> httpx.MockTransport:
    return httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)
    )


class BotDoor(httpx.AsyncBaseTransport):
    """The sandbox's way into the bot's web app, which can play a bad network once per type."""

    def __init__(self, app: Starlette) -> None:
        self._app = httpx.ASGITransport(app=app)
        self.refuse_once: set[str] = set()  # answer 503 without reaching the bot
        self.lose_answer_once: set[str] = set()  # reach the bot, then drop its answer

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        event_type = request.headers["Service-Event"]
        if event_type in self.refuse_once:
            self.refuse_once.discard(event_type)
            return httpx.Response(503)
        response = await self._app.handle_async_request(request)
        if event_type in self.lose_answer_once:
            self.lose_answer_once.discard(event_type)
            await response.aread()
            raise httpx.ReadError("connection reset before the answer arrived")
        return response


@dataclass
class World:
    sandbox: Sandbox
    client: PartnerClient
    store: Store
    relay: Relay
    channel: RecordingChannel
    door: BotDoor
    clock: FakeClock
    created: list[Delivery] = field(default_factory=list)

    async def order(
        self,
        *,
        chat_id: int = CUSTOMER_CHAT,
        user_id: int = CUSTOMER_USER,
        channel: str = TELEGRAM,
        language: str | None = None,
    ) -> Delivery:
        """Create a delivery through the Partner API and link it, as the ordering flow does
        (``channel``: the chat's; ``language``: the one the customer ordered in; None, the
        business default)."""
        delivery = await self.client.create_delivery(order())
        await self.store.deliveries.add(
            delivery.id,
            ChatRef(channel, chat_id),
            user_id,
            self.clock(),
            RECEIVER,
            delivery.tracking_url,
            delivery.status,
            # The customer's answer to the create gives the link, as in ``ChatService``.
            tracking_sent=delivery.tracking_url is not None,
            language=language,
        )
        self.created.append(delivery)
        return delivery

    async def settle(self, *, seconds: float = 1) -> int:
        """Let ``seconds`` pass, deliver every due webhook, and run one relay pass."""
        self.clock.advance(seconds)
        await self.sandbox.drain_webhooks()
        return await self.relay.process_pending()

    def sandbox_delivery(self, delivery_id: str) -> dict[str, Any]:
        return self.sandbox.delivery(delivery_id)


MakeWorld = Callable[..., Awaitable[World]]
