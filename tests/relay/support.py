"""Helpers for the relay tests: a hand-moved clock, a recording channel, Partner event bodies."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from typing import Any

from bot.chat_ref import ChatRef
from bot.relay import ChatUnreachable, Relay
from bot.store import Store
from tests.support.partner_json import otp_json, webhook_event

OpenStore = Callable[[], Awaitable[Store]]
MakeRelay = Callable[..., Relay]

START = 1_800_000_000.0
CUSTOMER_CHAT = 1001
CUSTOMER_USER = 501
OTHER_CHAT = 1002
OTHER_USER = 502
OPERATOR = -100_900
OPERATOR_2 = 9002
OPERATORS = (OPERATOR, OPERATOR_2)
DELIVERY = "3f2a9c1e-5b7d-4c1a-9e2f-0a1b2c3d4e5f"
OTHER_DELIVERY = "7c0ffee0-1111-4222-8333-444455556666"
TRACKING = f"https://track.example/track/{DELIVERY}/AC12"
RECEIVER_PHONE = "+2348098765432"
BOT_LINK = "https://t.me/relay_test_bot?start=otp_"


class RecordingChannel:
    """A ``Channel`` that records what it sends; chats can be blocked or made to fail."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str]] = []
        self.attempts: list[int] = []
        self.blocked: set[int] = set()
        self.failures: defaultdict[int, deque[Exception]] = defaultdict(deque)
        self.changed = asyncio.Condition()

    async def send(self, chat: ChatRef, text: str) -> int | None:
        chat_id = chat.id
        self.attempts.append(chat_id)
        if chat_id in self.blocked:
            raise ChatUnreachable(chat_id)
        if self.failures[chat_id]:
            raise self.failures[chat_id].popleft()
        self.sent.append((chat_id, text))
        async with self.changed:
            self.changed.notify_all()
        return len(self.sent)

    def otp_link(self, token: str) -> str:
        return BOT_LINK + token

    def fail_next(self, chat_id: int, error: Exception, times: int = 1) -> None:
        self.failures[chat_id].extend([error] * times)

    def texts(self, chat_id: int) -> list[str]:
        return [text for chat, text in self.sent if chat == chat_id]

    async def wait_for(self, count: int) -> None:
        """Return once ``count`` messages were sent (bounded, so a bug fails instead of hanging)."""

        async def reached() -> None:
            async with self.changed:
                await self.changed.wait_for(lambda: len(self.sent) >= count)

        await asyncio.wait_for(reached(), timeout=5)


def delivery(
    status: str = "matched",
    *,
    delivery_id: str = DELIVERY,
    rider: dict[str, Any] | None = None,
    tracking_url: str | None = TRACKING,
    cancellation_reason: str | None = None,
) -> dict[str, Any]:
    """A Delivery object as the service sends it (the fields the relay reads)."""
    return {
        "id": delivery_id,
        "status": status,
        "rider_assigned": rider is not None,
        "rider": rider,
        "tracking": {"url": tracking_url, "path": None, "access_code": "AC12"},
        "customer": {"receiver_phone": RECEIVER_PHONE},
        "cancellation_reason": cancellation_reason,
    }


TUNDE = {"id": "rdr_tunde", "name": "Tunde Bakare", "vehicle_type": "motorbike"}


def event(
    event_id: str,
    status: str = "matched",
    *,
    created: float = START,
    event_type: str = "delivery.status_changed",
    delivery_id: str = DELIVERY,
    previous_status: str | None = None,
    summary: str = "",
    hint: str | None = None,
    notes: tuple[str, ...] = (),
    otp: dict[str, Any] | None = None,
    **delivery_fields: Any,
) -> dict[str, Any]:
    """A webhook body about ``delivery(status, ...)``."""
    return webhook_event(
        event_id,
        delivery(status, delivery_id=delivery_id, **delivery_fields),
        created=created,
        event_type=event_type,
        previous_status=previous_status,
        otp=otp,
        summary=summary,
        hint=hint,
        docs_url="https://docs.example/webhooks#" + event_type,
        notes=notes,
    )


def otp(code: str = "482913", receiver_phone: str = RECEIVER_PHONE) -> dict[str, Any]:
    return otp_json(code, receiver_phone)


async def put(store: Store, body: dict[str, Any]) -> None:
    """Store ``body`` in the inbox as the web app would."""
    raw = json.dumps(body).encode()
    await store.inbox.add(
        body["id"], body["data"]["object"]["id"], body["type"], body["created"], raw
    )


async def link(
    store: Store,
    status: str = "pending",
    *,
    delivery_id: str = DELIVERY,
    chat_id: int = CUSTOMER_CHAT,
    user_id: int = CUSTOMER_USER,
    tracking_url: str | None = TRACKING,
) -> None:
    """Link a delivery to its customer's chat, as the ordering flow does after create."""
    await store.deliveries.add(
        delivery_id,
        ChatRef("telegram", chat_id),
        user_id,
        START - 60,
        RECEIVER_PHONE,
        tracking_url,
        status,
    )
