"""The WhatsApp channel as ``deliverybot run`` builds it, over the wire at both edges.

The runtime is built from a config with ``[whatsapp]`` (the shipped starter, nothing of the
test's): its Cloud API is the simulated one (``bot.whatsapp_fake``, through
``Seams.whatsapp_transport``), which pushes the persona's messages to the bot's own
``POST /whatsapp``, signed with the app secret; the sandbox is the Partner API, its signed
events posted to the bot's web app. A customer orders from "hi" to a created delivery, and the
delivery's news comes back as a plain message inside the window and as the approved template
outside it, and the rider's pin at a milestone. The funnel counts the order, a person's answers
are in the audit trail (the second as the reply template, the window closed), a customer's
limit holds, and a customer the bot marked unreachable is cleared by writing again: WhatsApp is
counted like any channel.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from bot.chat_ref import WHATSAPP, ChatRef
from bot.config import Config
from bot.demo.transports import AppSwitch
from bot.funnel.recorder import day_of
from bot.funnel.report import funnel_report
from bot.handoff.bodies import text_body
from bot.runtime import Runtime
from bot.runtime.whatsapp_wiring import WhatsAppChannel
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.seams import Seams
from bot.store.rider_positions import Fix, Point
from bot.tracking.rider_map import NOTHING_SHOWN
from bot.tracking.rider_view import RiderView
from bot.whatsapp_fake import customer_messages
from bot.whatsapp_fake.approved_templates import ApprovedTemplate
from bot.whatsapp_fake.cloud_api import CUSTOMER_SERVICE_WINDOW, FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.persona import WhatsAppPersona
from bot.whatsapp_fake.sent_messages import SentMessage
from bot.whatsapp_fake.webhook_pusher import WebhookPusher
from tests.ordering.conftest import BOT_HOST, JPEG, public_resolver
from tests.support.clock import FakeClock
from tests.whatsapp.talk.world import RecordingStaff

PHONE_NUMBER_ID = "106540352242922"
ACCESS_TOKEN = "EAAGfake" + "x" * 40
APP_SECRET = "0123456789abcdef0123456789abcdef"
CUSTOMER = "2348031234567"
CHAT = ChatRef(WHATSAPP, int(CUSTOMER))


def _photo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "image/jpeg"}, content=JPEG)


@dataclass
class World:
    """The running bot, the fake Cloud API and one customer on it."""

    runtime: Runtime
    fake: FakeCloudApi
    clock: FakeClock
    customer: WhatsAppPersona

    @property
    def channel(self) -> WhatsAppChannel:
        channel = self.runtime.started["whatsapp"]
        assert isinstance(channel, WhatsAppChannel)
        return channel

    async def answered(self) -> list[SentMessage]:
        """What the bot sent the customer since last asked, once its handling is done."""
        await self.channel.receiving.handling.idle()
        return self.customer.inbox()[self._seen() :]

    def _seen(self) -> int:
        seen = getattr(self, "_read", 0)
        self._read = len(self.customer.inbox())
        return seen


async def tap(customer: WhatsAppPersona, message: SentMessage, title: str) -> None:
    """Tap ``title`` on ``message``, which need not be the last one received."""
    choice = message.offered_titled(title)
    if message.kind == "list":
        part = customer_messages.list_reply(choice.reply_id, choice.title, choice.description)
    else:
        part = customer_messages.button_reply(choice.reply_id, choice.title)
    await customer.sends(part)


def config(tmp_path: Path, sandbox: Sandbox, limits: dict[str, int] | None = None) -> Config:
    data: dict[str, object] = {
        "partner": {"base_url": sandbox.base_url, "api_key": sandbox.api_key},
        "telegram": {},
        "server": {"public_base_url": BOT_HOST},
        "webhooks": {"enabled": True, "signing_secret": sandbox.signing_secret},
        "storage": {"path": "bot.sqlite3", "media_dir": "media"},
        "geocoding": {"provider": "none"},
        "whatsapp": {
            "phone_number_id": PHONE_NUMBER_ID,
            "display_phone_number": "+234 1 700 0000",
            "access_token": ACCESS_TOKEN,
            "app_secret": APP_SECRET,
            "verify_token": "verify-token-1",
            "graph_api_base_url": "http://127.0.0.1:9",  # never dialled: the fake's transport
        },
        "limits": limits or {},
    }
    return Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})


@contextlib.asynccontextmanager
async def world(tmp_path: Path, limits: dict[str, int] | None = None) -> AsyncIterator[World]:
    switch = AppSwitch()  # the bot's web app, once it runs
    sandbox = Sandbox(
        parse_scenario(default_scenario_data()),
        webhook_transport=httpx.ASGITransport(app=switch),
        image_transport=httpx.MockTransport(_photo),
        resolver=public_resolver,
    )
    clock = FakeClock(1_780_000_000.0)
    fake = FakeCloudApi(
        phone_number_id=PHONE_NUMBER_ID,
        access_token=ACCESS_TOKEN,
        clock=clock,
        templates=(
            ApprovedTemplate("delivery_update", "en", 2),
            ApprovedTemplate("support_reply", "en", 1),
        ),
    )
    seams = Seams(
        partner_transport=httpx.ASGITransport(app=sandbox.app),
        whatsapp_transport=httpx.ASGITransport(app=fake_cloud_app(fake)),
        clock=clock,  # the customer-service window, on the fake's time
        synchronous="NORMAL",
    )
    runtime = await Runtime.build(config(tmp_path, sandbox, limits), seams)
    switch.app = runtime.web_app
    pushes = httpx.AsyncClient(transport=httpx.ASGITransport(app=switch))
    fake.attach_webhook(WebhookPusher(pushes, f"{BOT_HOST}/whatsapp", APP_SECRET))
    try:
        await runtime.start(workers=False)
        yield World(runtime, fake, clock, WhatsAppPersona(fake, CUSTOMER, "Ada"))
    finally:
        await runtime.stop()
        await pushes.aclose()
        await sandbox.aclose()


async def test_an_order_over_the_wire_and_its_news_inside_and_outside_the_window(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        customer = w.customer
        await customer.says("new")
        (kinds,) = await w.answered()
        assert kinds.kind == "list" and kinds.text == "What would you like to order?"
        await customer.taps("✓ Pickup & delivery")
        places, pin = await w.answered()
        assert places.kind == "list"
        assert pin.kind == "location_request"
        await customer.shares_location(6.5095, 3.3711, "Ozone Cinema", "Yaba, Lagos")
        dropoff, _pin = await w.answered()
        await tap(customer, dropoff, "UNILAG Main Gate")  # the list above the location request
        (own,) = await w.answered()
        assert own.titles()[0] == f"Use +{CUSTOMER}"  # WhatsApp's own number, one tap
        await customer.taps(f"Use +{CUSTOMER}")
        await w.answered()
        await customer.shares_contact("Bola Ahmed", ["+2348022223333"])
        await w.answered()
        await customer.says("A pair of shoes")
        await w.answered()
        await customer.taps("Small")
        await w.answered()
        await customer.sends_photo(JPEG)  # downloaded from the fake's media, re-hosted
        (summary,) = await w.answered()
        assert "NGN" in summary.text
        await customer.taps("Confirm and send")
        done = " ".join(m.text for m in await w.answered())
        assert "Your order reference is" in done
        assert w.fake.refusals.total() == 0
        # The funnel counts the WhatsApp order like any other.
        store = w.runtime.store
        await w.runtime.core.chats.funnel.flush()
        rows = await funnel_report(store.funnel, since_day=day_of(store.clock()))
        created = {row.step: row.created for row in rows if row.flow == "pickup_delivery"}
        assert sum(created.values()) == 1

        # News inside the window: a plain message. Outside it (25 h later): the template.
        links = await w.runtime.store.deliveries.for_user(CHAT.user(CHAT.id), limit=1)
        ref = links[0].delivery_id[:8].upper()
        assert len(links) == 1 and ref in done
        news = f"Delivery {ref}: your rider is on the way."
        await w.channel.news.send(CHAT, news)
        assert w.customer.last().kind == "text" and w.customer.last().text == news
        # The rider on the map: the channel's registered map sends the milestone's pin.
        rider_map = w.runtime.core.channels.rider_map(CHAT)
        assert rider_map is not None
        fix = Fix(Point(6.5123, 3.3745), w.clock())
        said = f"Musa is on the way to pick up {ref}."
        view = RiderView(links[0].delivery_id, ref, "matched", "r1", "Musa B", "car", fix, 9, said)
        assert await rider_map.show(CHAT, view, NOTHING_SHOWN) == "matched"
        pin = w.customer.last()
        assert (pin.kind, pin.latitude, pin.place_name, pin.address) == (
            "location",
            6.5123,
            "Musa",
            said,
        )
        w.clock.advance(CUSTOMER_SERVICE_WINDOW + 3600)
        await w.channel.news.send(CHAT, news)
        last = w.customer.last()
        assert last.kind == "template" and last.template == "delivery_update"
        assert last.parameters == (ref, news)


async def test_a_persons_answer_the_next_day_arrives_as_the_reply_template(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        handoffs = w.runtime.core.handoffs
        handoffs.use_staff(RecordingStaff())  # the operators' chat, which this bot lacks
        await w.customer.says("human")
        await w.answered()
        handoff = await handoffs.waiting_for(CHAT)
        assert handoff is not None

        assert await handoffs.reply(handoff, text_body("Your parcel is at the front desk."))
        assert w.customer.last().kind == "text"
        w.clock.advance(CUSTOMER_SERVICE_WINDOW + 3600)
        assert await handoffs.reply(handoff, text_body("Still there?\nWe close at 6."))
        last = w.customer.last()
        assert last.kind == "template" and last.template == "support_reply"
        assert last.parameters == ("Still there? We close at 6.",)
        assert w.fake.refusals.total() == 0
        # The audit trail has both answers, as for any channel's hand-off.
        actions = [e.action for e in await w.runtime.store.audit.since(0.0)]
        assert actions.count("handoff_reply") == 2


async def test_a_customer_marked_unreachable_who_writes_again_gets_news_again(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w:
        blocked = w.runtime.store.blocked
        await blocked.mark(CHAT)  # as after Meta's 131026 for this number
        await w.customer.says("hi")
        await w.answered()
        assert not await blocked.is_blocked(CHAT)


async def test_a_customers_limit_holds_on_whatsapp(tmp_path: Path) -> None:
    async with world(tmp_path, limits={"drafts_per_hour": 1}) as w:
        await w.customer.says("new")
        await w.answered()
        await w.customer.says("cancel")
        await w.answered()
        await w.customer.says("new")  # a second order within the hour
        (refused,) = await w.answered()
        assert "orders" in refused.text.lower() and "hour" in refused.text.lower()
