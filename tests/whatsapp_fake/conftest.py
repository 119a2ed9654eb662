"""The fake Cloud API, and pywa's client on it, for this folder's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from bot.whatsapp.cloud_client import cloud_client
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app

from .cloud_fixtures import ACCESS_TOKEN, PHONE_NUMBER_ID, Cloud, section


@pytest.fixture
async def cloud() -> AsyncIterator[Cloud]:
    fake = FakeCloudApi(phone_number_id=PHONE_NUMBER_ID, access_token=ACCESS_TOKEN)
    app = fake_cloud_app(fake)
    client = cloud_client(section(), transport=httpx.ASGITransport(app))
    yield Cloud(fake, app, client)
    await client.aclose()
