"""The fake Cloud API's test values (its number, token, app secret, templates), pywa's client
on it as the bot builds one (``cloud_client``), and a webhook that records what it is pushed."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.config.whatsapp_section import WhatsAppConfig
from bot.whatsapp.cloud_client import CloudClient
from bot.whatsapp_fake.approved_templates import ApprovedTemplate
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from tests.support.clock import FakeClock

PHONE_NUMBER_ID = "106540352242922"
ACCESS_TOKEN = "EAAGfake" + "x" * 40
APP_SECRET = "0123456789abcdef0123456789abcdef"
CUSTOMER = "2348012345678"
WEBHOOK_URL = "http://bot.test/whatsapp"
TEMPLATES = (
    ApprovedTemplate("delivery_update", "en", 2),
    ApprovedTemplate("delivery_update", "fr", 2),
    ApprovedTemplate("support_reply", "en", 1),
)


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
    """The fake on a hand-moved clock, its app, and a pywa client speaking to it over ASGI."""

    fake: FakeCloudApi
    app: Starlette
    client: CloudClient
    clock: FakeClock


@dataclass(frozen=True)
class Pushed:
    """One request the webhook got: the raw body and its signature header."""

    body: bytes
    signature: str

    def json(self) -> Any:
        return json.loads(self.body)

    def value(self) -> Any:
        """The push's one change's ``value``."""
        return self.json()["entry"][0]["changes"][0]["value"]


@dataclass
class RecordingWebhook:
    """A webhook that records each push and answers the next of ``answers`` (200 after)."""

    answers: list[int] = field(default_factory=list)
    pushed: list[Pushed] = field(default_factory=list)

    def app(self) -> Starlette:
        async def receive(request: Request) -> Response:
            self.pushed.append(
                Pushed(await request.body(), request.headers.get("x-hub-signature-256", ""))
            )
            return Response(status_code=self.answers.pop(0) if self.answers else 200)

        return Starlette(routes=[Route("/whatsapp", receive, methods=["POST"])])

    def statuses(self) -> list[tuple[str, str]]:
        """Each pushed status as (message id, status), in order."""
        return [
            (status["id"], status["status"])
            for push in self.pushed
            for status in push.value().get("statuses", [])
        ]
