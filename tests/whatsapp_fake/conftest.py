"""The fake Cloud API (its customer's window open), pywa's client on it, and a recording
webhook it pushes to, for this folder's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from bot.whatsapp.cloud_client import cloud_client
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.webhook_pusher import WebhookPusher
from tests.support.clock import FakeClock

from .cloud_fixtures import (
    ACCESS_TOKEN,
    APP_SECRET,
    CUSTOMER,
    PHONE_NUMBER_ID,
    TEMPLATES,
    WEBHOOK_URL,
    Cloud,
    RecordingWebhook,
    section,
)


@pytest.fixture
async def cloud() -> AsyncIterator[Cloud]:
    clock = FakeClock()
    fake = FakeCloudApi(
        phone_number_id=PHONE_NUMBER_ID, access_token=ACCESS_TOKEN, clock=clock, templates=TEMPLATES
    )
    fake.customer_wrote(CUSTOMER, clock())
    app = fake_cloud_app(fake)
    client = cloud_client(section(), transport=httpx.ASGITransport(app))
    yield Cloud(fake, app, client, clock)
    await client.aclose()


@pytest.fixture
async def webhook(cloud: Cloud) -> AsyncIterator[RecordingWebhook]:
    """A recording webhook attached to ``cloud``'s fake (retries slept on its clock)."""
    hook = RecordingWebhook()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(hook.app())) as client:
        cloud.fake.attach_webhook(
            WebhookPusher(client, WEBHOOK_URL, APP_SECRET, sleep=cloud.clock.sleep)
        )
        yield hook
