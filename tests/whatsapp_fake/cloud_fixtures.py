"""The fake Cloud API's test values: its number, token and app secret, and pywa's client on it
as the bot builds one (``cloud_client``)."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.applications import Starlette

from bot.config.whatsapp_section import WhatsAppConfig
from bot.whatsapp.cloud_client import CloudClient
from bot.whatsapp_fake.cloud_api import FakeCloudApi

PHONE_NUMBER_ID = "106540352242922"
ACCESS_TOKEN = "EAAGfake" + "x" * 40
APP_SECRET = "0123456789abcdef0123456789abcdef"
CUSTOMER = "2348012345678"


def section(access_token: str = ACCESS_TOKEN) -> WhatsAppConfig:
    """A ``[whatsapp]`` section naming the fake's number (its base URL is never dialled)."""
    return WhatsAppConfig.model_validate(
        {
            "phone_number_id": PHONE_NUMBER_ID,
            "access_token": access_token,
            "app_secret": APP_SECRET,
            "verify_token": "verify-token-1",
            "graph_api_base_url": "http://127.0.0.1:9",
            "templates": {"news": {}, "reply": {}},
        }
    )


@dataclass
class Cloud:
    """The fake, its app, and a pywa client speaking to it over ASGI."""

    fake: FakeCloudApi
    app: Starlette
    client: CloudClient
