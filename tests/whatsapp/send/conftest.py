"""The sending side's fixtures: a real store on both backends on a hand-moved clock, the
simulated Cloud API (``bot.whatsapp_fake``) with pywa's client on it, and the parts built as
the channel builds them (``Sending``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from bot.chat_ref import WHATSAPP, ChatRef
from bot.clocks import Clock
from bot.config.whatsapp_section import WhatsAppTemplates
from bot.console.console_chat import CONSOLE_WORDS
from bot.console.console_texts import CONSOLE_TEXTS
from bot.ordering.receiver_handoff import ReceiverHandoffs
from bot.store import Store
from bot.whatsapp.cloud_client import CloudClient, cloud_client
from bot.whatsapp.inbound import StatusError, StatusUpdate
from bot.whatsapp.news import WhatsAppNews
from bot.whatsapp.otp import WhatsAppOtp
from bot.whatsapp.pacing import WhatsAppPacing
from bot.whatsapp.sender import CloudSender, access_alert
from bot.whatsapp.sending_texts import WHATSAPP_SENDING_TEXTS
from bot.whatsapp.windows import StoredWindows
from bot.whatsapp_fake.approved_templates import ApprovedTemplate
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.webhook_pusher import Delivery
from conversations.texts.catalogue import Catalogue, Texts
from tests.support.clock import FakeClock
from tests.whatsapp_fake.cloud_fixtures import ACCESS_TOKEN, CUSTOMER, PHONE_NUMBER_ID, section

CHAT = ChatRef(WHATSAPP, int(CUSTOMER))
DELIVERY = "3f2a9c1e-7b5d-4e2f-9a1b-0c2d3e4f5a6b"
APPROVED = (
    ApprovedTemplate("delivery_update", "en", 2),
    ApprovedTemplate("delivery_update", "fr", 2),
    ApprovedTemplate("support_reply", "en_GB", 1),
)
BUSINESS_NUMBER = "+234 1 700 0000"
TEMPLATES = WhatsAppTemplates.model_validate(
    {
        "news": {"name": "delivery_update", "languages": ["en", "fr"]},
        "reply": {"name": "support_reply", "languages": ["en_GB"]},
    }
)


@pytest.fixture(params=["sqlite", "postgres"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """Each test that takes ``store`` runs on both backends."""
    return str(request.param)


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store_clock(fake_clock: FakeClock) -> Clock:
    return fake_clock


@pytest.fixture
async def cloud(fake_clock: FakeClock) -> AsyncIterator[tuple[FakeCloudApi, CloudClient]]:
    """The fake Cloud API on the test's clock, and pywa's client on it over ASGI."""
    fake = FakeCloudApi(
        phone_number_id=PHONE_NUMBER_ID,
        access_token=ACCESS_TOKEN,
        clock=fake_clock,
        templates=APPROVED,
    )
    client = cloud_client(section(), transport=httpx.ASGITransport(fake_cloud_app(fake)))
    yield fake, client
    await client.aclose()


def texts() -> Texts:
    # The console's words name the contact's way in the hand-off's sentences (the WhatsApp
    # conversation's own words are not this side's).
    return Texts().with_channels(WHATSAPP_SENDING_TEXTS, CONSOLE_TEXTS)


@dataclass
class Sending:
    """The sending side over one store and the fake, as the channel wires it."""

    store: Store
    fake: FakeCloudApi
    clock: FakeClock
    sender: CloudSender
    windows: StoredWindows
    otp: WhatsAppOtp
    news: WhatsAppNews
    alerts: list[str] = field(default_factory=list)

    def catalogue(self) -> Catalogue:
        return texts().business_catalogue()

    async def customer_wrote(self) -> None:
        """The customer wrote now: Meta's window and the bot's open (the receiving side's
        part, done by hand here)."""
        self.fake.customer_wrote(CUSTOMER, self.clock())
        await self.windows.customer_wrote(CHAT, self.clock())

    async def ordered(self, language: str | None = "fr") -> None:
        """The customer ordered ``DELIVERY`` in ``language``."""
        await self.store.deliveries.add(
            DELIVERY, CHAT, CHAT.id, self.clock(), "+2348012345678", None, language=language
        )

    async def statuses(self) -> list[StatusUpdate]:
        """The statuses the fake owes the webhook, read as the receiving side reads them."""
        pushed: list[StatusUpdate] = []

        async def push(value: Mapping[str, Any]) -> Delivery:
            errors = [StatusError(e["code"], e["title"]) for e in value.get("errors", ())]
            update = StatusUpdate(
                value["id"], value["recipient_id"], value["status"], int(value["timestamp"]), errors
            )
            pushed.append(update)
            return Delivery(b"", (200,))

        await self.fake.statuses.flush(push)
        return pushed


@pytest.fixture
def sending(
    store: Store, cloud: tuple[FakeCloudApi, CloudClient], fake_clock: FakeClock
) -> Sending:
    fake, client = cloud
    alerts: list[str] = []

    async def alert(text: str) -> None:
        alerts.append(text)

    pacing = WhatsAppPacing(
        budget=store.whatsapp_send_budget, clock=fake_clock, sleep=fake_clock.sleep
    )
    sender = CloudSender(
        client, pacing, alert_token=access_alert(alert, texts().business_catalogue)
    )
    windows = StoredWindows(store.whatsapp_windows, clock=fake_clock)
    catalogue = texts().business_catalogue
    handoffs = ReceiverHandoffs(store, CONSOLE_WORDS, phone_region="NG")
    otp = WhatsAppOtp(BUSINESS_NUMBER, handoffs, sender, catalogue=catalogue)
    news = WhatsAppNews(sender, windows, TEMPLATES, store, otp, pacing)
    return Sending(store, fake, fake_clock, sender, windows, otp, news, alerts)
