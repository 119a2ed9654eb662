"""WhatsApp customers of real ``deliverybot run`` processes: the harness.

::

    async with whatsapp_deployment("postgres", tmp_path, request) as world:
        first = await world.start()                       # serves /whatsapp and /hooks/partner
        ada = world.customer(ADA_WA_ID, "Ada")
        world.aim(first)                                  # Meta pushes to this instance
        await ada.says("new")
        (kinds,) = await ada.receives(1)

``real_instances``'s deployment (instances in webhook mode on loopback, the fake Bot API and the
sandbox in this process, a SQLite file or a PostgreSQL database) with the fake Cloud API
(``bot.whatsapp_fake``) served on loopback too: each instance's ``[whatsapp]
graph_api_base_url`` points at it, so pywa's sends and media downloads cross a real socket, and
the fake pushes customers' messages and statuses to an instance's ``POST /whatsapp``, signed
with the app secret. The secrets reach the instances as a deployment gives them: in the
environment (``*_env``), never in the config file. The sandbox posts its signed events to the
first instance's ``/hooks/partner``; every instance has its own port, known before it starts.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bot.chat_ref import WHATSAPP, ChatRef
from bot.store.pg_local_server import free_loopback_port
from bot.whatsapp_fake import customer_messages
from bot.whatsapp_fake.approved_templates import ApprovedTemplate
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.persona import WhatsAppPersona
from bot.whatsapp_fake.sent_messages import SentMessage
from bot.whatsapp_fake.webhook_pusher import WebhookPusher
from tests.agents.conftest import LoopbackServer
from tests.e2e.real_instances import Deployment, Instance, RefusalCounter, deployment

PHONE_NUMBER_ID = "106540352242922"
DISPLAY_NUMBER = "+234 1 700 0000"
ACCESS_TOKEN = "EAAGe2e" + "t" * 40
APP_SECRET = "fedcba9876543210fedcba9876543210"
VERIFY_TOKEN = "e2e-verify-token"
TEMPLATES = (
    ApprovedTemplate("delivery_update", "en", 2),
    ApprovedTemplate("support_reply", "en", 1),
)
RETRIES = (0.2, 0.5, 1.0, 2.0)  # Meta's push retries, shortened: an instance may be starting


class Skew:
    """The fake's clock: the real one, moved ``seconds`` ahead (a day later, for the window)."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return time.time() + self.seconds


@dataclass
class WhatsAppWorld:
    """A ``Deployment`` whose instances also run WhatsApp, and the fake Cloud API."""

    deployment: Deployment
    fake: FakeCloudApi
    clock: Skew
    pushes: httpx.AsyncClient
    first_port: int

    async def start(self, port: int | None = None) -> Instance:
        """An instance (the first one on the port the sandbox posts to), once it serves."""
        return await self.deployment.start(port or self._first_free())

    def _first_free(self) -> int:
        taken = {instance.port for instance in self.deployment.running}
        return self.first_port if self.first_port not in taken else free_loopback_port()

    def aim(self, instance: Instance) -> None:
        """Meta pushes to ``instance``'s ``/whatsapp`` from now on (a load balancer's pick)."""
        url = f"{instance.base_url}/whatsapp"
        self.fake.attach_webhook(WebhookPusher(self.pushes, url, APP_SECRET, retry_delays=RETRIES))

    def customer(self, wa_id: str, name: str) -> WhatsAppPersona:
        return WhatsAppPersona(self.fake, wa_id, name)


def whatsapp_section(graph_api_base_url: str, signing_secret: str) -> str:
    """The instances' ``[webhooks]`` and ``[whatsapp]``: secrets by environment variable."""
    return f"""
[webhooks]
enabled = true
signing_secret = "{signing_secret}"

[whatsapp]
phone_number_id = "{PHONE_NUMBER_ID}"
display_phone_number = "{DISPLAY_NUMBER}"
access_token_env = "E2E_WHATSAPP_ACCESS_TOKEN"
app_secret_env = "E2E_WHATSAPP_APP_SECRET"
verify_token_env = "E2E_WHATSAPP_VERIFY_TOKEN"
graph_api_base_url = "{graph_api_base_url}"
"""


@contextlib.asynccontextmanager
async def whatsapp_deployment(
    backend: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    *,
    operators: str = "",
    counter: RefusalCounter | None = None,
) -> AsyncIterator[WhatsAppWorld]:
    """The deployment (the sandbox behind ``counter``), the fake Cloud API on loopback and the
    secrets in the environment the instances inherit; nothing started yet."""
    monkeypatch.setenv("E2E_WHATSAPP_ACCESS_TOKEN", ACCESS_TOKEN)
    monkeypatch.setenv("E2E_WHATSAPP_APP_SECRET", APP_SECRET)
    monkeypatch.setenv("E2E_WHATSAPP_VERIFY_TOKEN", VERIFY_TOKEN)
    clock = Skew()
    fake = FakeCloudApi(
        phone_number_id=PHONE_NUMBER_ID,
        access_token=ACCESS_TOKEN,
        clock=clock,
        templates=TEMPLATES,
    )
    cloud = LoopbackServer(fake_cloud_app(fake))
    first_port = free_loopback_port()
    hooks = f"http://127.0.0.1:{first_port}/hooks/partner"
    await cloud.start()
    try:
        async with (
            deployment(
                backend,
                tmp_path,
                request,
                counter=counter,
                operators=operators,
                webhook_url=hooks,
            ) as world,
            httpx.AsyncClient(timeout=30) as pushes,
        ):
            world.extra = whatsapp_section(cloud.url, world.partner.sandbox.signing_secret)
            yield WhatsAppWorld(world, fake, clock, pushes, first_port)
    finally:
        await cloud.stop()


def chat_of(wa_id: str) -> ChatRef:
    return ChatRef(WHATSAPP, int(wa_id))


async def tap_on(customer: WhatsAppPersona, message: SentMessage, title: str) -> None:
    """Tap ``title`` on ``message``, which need not be the last one received."""
    choice = message.offered_titled(title)
    if message.kind == "list":
        part = customer_messages.list_reply(choice.reply_id, choice.title, choice.description)
    else:
        part = customer_messages.button_reply(choice.reply_id, choice.title)
    await customer.sends(part)


async def received_until(
    customer: WhatsAppPersona, wanted: Callable[[SentMessage], bool], *, timeout: float = 60.0
) -> list[SentMessage]:
    """The messages ``customer`` receives up to the first ``wanted`` one (awaited, one by one;
    ``TimeoutError`` when none comes)."""
    got: list[SentMessage] = []
    deadline = time.monotonic() + timeout
    while not got or not wanted(got[-1]):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{customer.wa_id} got {[m.text for m in got]}")
        got += await customer.receives(1, timeout=left)
    return got
