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

Also here, the customers' side: ``Spread`` (each message pushed to the next instance, as a
load balancer spreads them), ``to_the_summary`` and ``order_a_delivery`` (Ada's whole order,
with an instance restarted half-way when asked), ``received_until`` and ``tap_on``.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bot.chat_ref import WHATSAPP, ChatRef
from bot.store import Store
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
from tests.ordering.conftest import JPEG

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
ADA = "2348031234567"  # the customer who orders
BOLA = "2348022223333"  # her receiver: this WhatsApp number is the delivery's receiver_phone
WITHIN = 60.0  # generous: the instances share a loaded machine
CREATED = "Your order reference is"


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


def has(words: str) -> Callable[[SentMessage], bool]:
    """Whether a message's words contain ``words``."""
    return lambda message: words in message.text


class Spread:
    """Meta's pushes spread over the running instances in turn, as a load balancer would."""

    def __init__(self, world: WhatsAppWorld, instances: list[Instance]) -> None:
        self._world = world
        self._turns = itertools.cycle(instances)

    def next(self) -> None:
        self._world.aim(next(self._turns))


async def to_the_summary(
    world: WhatsAppWorld, ada: WhatsAppPersona, spread: Spread, restart: Instance | None
) -> None:
    """Ada orders from "new" to the summary (``restart`` restarted half-way), each message
    pushed to the next instance of ``spread``."""
    spread.next()
    await ada.says("new")
    (kinds,) = await ada.receives(1, timeout=WITHIN)
    assert kinds.kind == "list" and kinds.text == "What would you like to order?"
    spread.next()
    await ada.taps("✓ Pickup & delivery")
    _places, pin = await ada.receives(2, timeout=WITHIN)
    assert pin.kind == "location_request"
    spread.next()
    await ada.shares_location(6.5095, 3.3711, "Ozone Cinema", "Yaba, Lagos")
    dropoff, _pin = await ada.receives(2, timeout=WITHIN)
    spread.next()
    await tap_on(ada, dropoff, "UNILAG Main Gate")  # the list above the location request
    (own,) = await ada.receives(1, timeout=WITHIN)
    assert own.titles()[0] == f"Use +{ADA}"
    if restart is not None:  # a redeploy half-way: the order goes on where it was
        await world.deployment.restart(restart)
    spread.next()
    await ada.taps(f"Use +{ADA}")
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.shares_contact("Bola Ahmed", [f"+{BOLA}"])
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.says("A pair of shoes")
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.taps("Small")
    await ada.receives(1, timeout=WITHIN)
    spread.next()
    await ada.sends_photo(JPEG)  # pywa downloads it from the fake's media URL, over loopback
    (summary,) = await ada.receives(1, timeout=WITHIN)
    assert "NGN" in summary.text


async def order_a_delivery(
    world: WhatsAppWorld, ada: WhatsAppPersona, spread: Spread, restart: Instance | None
) -> str:
    """Ada orders from "new" to "Confirm and send" (``restart`` restarted half-way); the
    messages that told her it was created."""
    await to_the_summary(world, ada, spread, restart)
    spread.next()
    await ada.taps("Confirm and send")
    done = await received_until(ada, has(CREATED), timeout=WITHIN)
    return " ".join(message.text for message in done)


async def latest_delivery(store: Store) -> str:
    """Ada's latest delivery's id, as the store links it to her chat."""
    links = await store.deliveries.for_user(chat_of(ADA).user(int(ADA)), limit=1)
    assert len(links) == 1
    return links[0].delivery_id
