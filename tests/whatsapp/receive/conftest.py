"""Fixtures for receiving WhatsApp pushes: the ``[whatsapp]`` section, a handler that records
what it is handed, and the receiving side on a real store served over ASGI."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest
from starlette.applications import Starlette

from bot.config.whatsapp_section import WhatsAppConfig
from bot.store import Store
from bot.whatsapp.inbound import InboundMessage, StatusUpdate
from bot.whatsapp.whatsapp_kind import WHATSAPP_KIND
from bot.whatsapp.whatsapp_receiving import WhatsAppReceiving, whatsapp_receiving
from tests.whatsapp.receive.pushes import APP_SECRET, PHONE_NUMBER_ID, VERIFY_TOKEN


def whatsapp_section() -> WhatsAppConfig:
    """A configured number with the test app's secrets."""
    return WhatsAppConfig.model_validate(
        {
            "phone_number_id": PHONE_NUMBER_ID,
            "access_token": "EAAGtestaccesstoken0123456789",
            "app_secret": APP_SECRET,
            "verify_token": VERIFY_TOKEN,
        }
    )


@dataclass
class Recorder:
    """An ``InboundHandler`` and ``StatusHandler`` that keeps what it is handed; with ``gate``
    it waits for it before each message (``entered`` is set once it waits)."""

    messages: list[InboundMessage] = field(default_factory=list)
    statuses: list[StatusUpdate] = field(default_factory=list)
    gate: asyncio.Event | None = None
    entered: asyncio.Event = field(default_factory=asyncio.Event)
    fail: bool = False

    async def handle(self, message: InboundMessage) -> None:
        self.entered.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise RuntimeError("the handler broke")
        self.messages.append(message)

    async def status(self, update: StatusUpdate) -> None:
        self.statuses.append(update)

    @property
    def ids(self) -> list[str]:
        return [message.message_id for message in self.messages]


@dataclass
class Receiver:
    """The receiving side on one store, and a client posting to it."""

    store: Store
    receiving: WhatsAppReceiving
    client: httpx.AsyncClient
    recorder: Recorder


@contextlib.asynccontextmanager
async def receiver_on(
    store: Store, recorder: Recorder | None = None, *, max_body_bytes: int | None = None
) -> AsyncIterator[Receiver]:
    """The receiving side on ``store`` (its handling closed after)."""
    store.declare_channel(WHATSAPP_KIND)
    recorder = recorder if recorder is not None else Recorder()
    extra = {} if max_body_bytes is None else {"max_body_bytes": max_body_bytes}
    receiving = whatsapp_receiving(whatsapp_section(), store, recorder, recorder, **extra)
    app = Starlette(routes=list(receiving.routes))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="https://bot.example.com") as client:
        try:
            yield Receiver(store, receiving, client, recorder)
        finally:
            await receiving.aclose()


@pytest.fixture
async def receiver(store: Store) -> AsyncIterator[Receiver]:
    """The receiving side on the test's store."""
    async with receiver_on(store) as opened:
        yield opened
