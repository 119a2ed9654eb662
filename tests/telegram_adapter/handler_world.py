"""A small whole bot for handler tests: PTB's real Application polling the fake Telegram, the
delivery, operator and OTP handlers over a real store, and the sandbox in process.

    async with handler_world(tmp_path) as world:
        delivery = await world.order(ALICE)
        reply = await world.ask(world.tg.updates.command(ALICE, "status"))

The sandbox's webhooks reach the bot's real web app (``create_web_app``) in process, and
``world.settle()`` runs the real relay once over the inbox, sending through the bot's own
``TelegramSender``; so an OTP link is made exactly as in production.

``handler_world(tmp_path, conversation=WaitingClock())`` installs the customer's conversation
too (``bot.telegram.conversation``, its album window timed by that clock and sleep) instead
of the stand-ins for /start and shared contacts, and re-hosts photos on ``PUBLIC_BASE_URL``.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import HTTPXRequest

from bot.bot_core import build_core
from bot.channels import ChannelRegistration
from bot.chat_ref import ChatRef
from bot.clocks import Clock, Sleep
from bot.demo.transports import AppSwitch
from bot.partner.client import PartnerClient
from bot.partner.models import Coords, CreateDeliveryRequest, Delivery
from bot.relay import Relay
from bot.sandbox import Sandbox, default_scenario_data, parse_scenario
from bot.seams import Seams
from bot.settings import CoreSettings
from bot.store import Store
from bot.telegram.bot_context import BotContext
from bot.telegram.conversation import Conversation
from bot.telegram.delivery_commands import TELEGRAM_WORDS, delivery_handlers
from bot.telegram.limits import RateLimiter, SendLimits, Window
from bot.telegram.message_sender import TelegramSender
from bot.telegram.operators import operator_handlers
from bot.telegram.otp_receiver import contact_shared, otp_token, start_otp_handoff
from bot.telegram.photo_receiver import PhotoReceiver
from bot.telegram.relay_channel import TelegramRelayChannel, TelegramTurns
from bot.telegram.telegram_kind import TELEGRAM_KIND
from bot.telegram.telegram_texts import TELEGRAM_TEXTS
from bot.webapp.webapp_texts import WEBAPP_TEXTS
from tests.fakes import FakeTelegram, SentMessage, TgChat, TgUser
from tests.fakes.telegram_wire import JSONDict

OPERATORS = TgChat.group(-100200, "Operators")
RECEIVER = "+2348098765432"
IMAGE_URL = "https://media.swift-lagos.example/parcel.jpg"
PUBLIC_BASE_URL = "https://localhost"  # on the default scenario's image allowlist
JPEG = b"\xff\xd8\xff\xe0" + b"handler-test-parcel" * 20
# Stands in for the conversation: what a contact the OTP hand-off declined would reach.
TO_CONVERSATION = "(the order conversation got the contact)"

_TLS = ssl.create_default_context()
_ROOMY = Window(1000, 1.0)  # no waiting for Telegram's limits in these tests

Edit = Callable[[dict[str, Any]], None]


class Timing(Protocol):
    """A clock and a sleep a test moves by hand (``tests.support.clock.WaitingClock``)."""

    def clock(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


def order_request(*, receiver_phone: str = RECEIVER) -> CreateDeliveryRequest:
    """Yaba to Ikoyi in the default scenario: inside coverage, near rider Tunde."""
    return CreateDeliveryRequest(
        serviceKind="pickup_delivery",
        deliveryMode="pickup",
        senderName="Adaeze Nwosu",
        senderPhone="+2348012345678",
        receiverName="Bola Ahmed",
        receiverPhone=receiver_phone,
        pickupAddress="12 Herbert Macaulay Way, Yaba, Lagos",
        pickupCoords=Coords(lng=3.3792, lat=6.5090),
        deliveryAddress="5 Awolowo Road, Ikoyi, Lagos",
        deliveryCoords=Coords(lng=3.4380, lat=6.4500),
        packageDescription="A pair of shoes in a box",
        packageSize="small",
        packageImages=[IMAGE_URL],
        customerCollectionMethod="cash_on_delivery",
    )


def manual_dispatch(data: dict[str, Any]) -> None:
    """Scenario edit: creates stay ``pending`` (no rider is assigned by the service)."""
    data["capabilities"]["publicRequest"]["autoDispatch"] = False


def approval_required(data: dict[str, Any]) -> None:
    """Scenario edit: creates wait in ``awaiting_price`` without a fee."""
    data["capabilities"]["publicRequest"]["requireApproval"] = True


def photo_proof_only(data: dict[str, Any]) -> None:
    """Scenario edit: ``requireDeliveryOtp`` false, so no code is ever issued."""
    data["capabilities"]["requireDeliveryOtp"] = False


@dataclass
class HandlerWorld:
    tg: FakeTelegram
    app: Application[Any, Any, Any, Any, Any, Any]
    ctx: BotContext
    sandbox: Sandbox
    client: PartnerClient
    store: Store
    relay: Relay
    conversation: Conversation | None = None
    errors: list[object] = field(default_factory=list)
    _created: float = field(default_factory=time.time)

    async def order(
        self, user: TgUser, *, receiver_phone: str = RECEIVER, linked: bool = True
    ) -> Delivery:
        """Create a delivery through the Partner API; link it to ``user`` as the flow does."""
        self.tg.add_chat(user)  # the customer has written to the bot before ordering
        delivery = await self.client.create_delivery(order_request(receiver_phone=receiver_phone))
        self._created += 60  # each order a minute after the last: a stable newest-first order
        if linked:
            await self.store.deliveries.add(
                delivery.id,
                ChatRef("telegram", user.id),
                user.id,
                self._created,
                receiver_phone,
                delivery.tracking_url,
                delivery.status,
            )
        return delivery

    async def ask(self, update: JSONDict) -> SentMessage:
        """Push ``update`` and return the bot's first message in that chat after it, once the
        handler has finished (what it stores after replying is stored by then)."""
        chat_id = _chat_of(update)
        before = len(self.tg.sent_messages(chat_id))
        self.tg.push_update(update)
        reply = await self.tg.wait_for_message(chat_id, after=before)
        # The update is in PTB's queue until its handler returns.
        await self.app.update_queue.join()
        assert self.errors == []
        return reply

    async def settle(self) -> int:
        """Deliver every due webhook into the bot and run one relay pass."""
        await self.sandbox.drain_webhooks()
        return await self.relay.process_pending()

    def api_calls(self) -> int:
        """How many Partner API calls the sandbox has answered so far."""
        return sum(self.sandbox.call_counts().values())


def _chat_of(update: JSONDict) -> int:
    message = update.get("message") or update["callback_query"]["message"]
    return int(message["chat"]["id"])


@asynccontextmanager
async def handler_world(
    tmp_path: Path,
    edit: Edit | None = None,
    *,
    conversation: Timing | None = None,
    webapp_url: str | None = None,
) -> AsyncIterator[HandlerWorld]:
    """The world above, with the default scenario changed by ``edit``; with the customer's
    conversation when ``conversation`` gives its time (see the module docstring), and its
    "Pick on the map" button at ``webapp_url``."""
    data = default_scenario_data()
    if edit is not None:
        edit(data)
    scenario = parse_scenario(data)
    async with (
        FakeTelegram.running() as tg,
        Store.open(tmp_path / "bot.db", synchronous="NORMAL") as store,
    ):
        web = AppSwitch()  # the core's web app, once the core is built over the sandbox
        sandbox = Sandbox(
            scenario,
            webhook_transport=httpx.ASGITransport(app=web),
            image_transport=httpx.MockTransport(
                lambda request: httpx.Response(
                    200, headers={"Content-Type": "image/jpeg"}, content=JPEG
                )
            ),
            resolver=_public_address,
        )
        app = (
            ApplicationBuilder()
            .token(tg.token)
            .base_url(tg.api_base_url)
            .base_file_url(tg.file_base_url)
            .request(HTTPXRequest(httpx_kwargs={"verify": _TLS}))
            .get_updates_request(HTTPXRequest(httpx_kwargs={"verify": _TLS}))
            .build()
        )
        limits = SendLimits(
            overall=_ROOMY, private_chat=_ROOMY, group_chat=_ROOMY, group_burst=_ROOMY
        )
        sender = TelegramSender(app.bot, store, limiter=RateLimiter(limits))
        core = build_core(
            CoreSettings(
                partner_base_url=sandbox.base_url,
                partner_api_key=sandbox.api_key,
                operators=(OPERATORS.chat,),
                signing_secrets=(scenario.webhooks[0].secret,),
                public_base_url=PUBLIC_BASE_URL,
            ),
            store,
            Seams(partner_transport=httpx.ASGITransport(app=sandbox.app)),
        )
        core.register(
            ChannelRegistration(
                TELEGRAM_KIND,
                TelegramRelayChannel(sender),
                turns=TelegramTurns(sender.limiter),
                texts=(TELEGRAM_TEXTS, WEBAPP_TEXTS),
            )
        )
        web.app = core.web_app
        client, relay = core.client, core.relay
        ctx = BotContext(
            store=store,
            chats=core.chats,
            client=client,
            cache=core.cache,
            sender=sender,
            photos=PhotoReceiver(
                app.bot,
                store,
                public_base_url=PUBLIC_BASE_URL if conversation is not None else None,
                ttl_seconds=3600,
            ),
            operators=frozenset({OPERATORS.id}),
            phone_region="NG",
            desk=core.desk(TELEGRAM_WORDS),
            webapp_url=webapp_url,
        )
        world = HandlerWorld(tg, app, ctx, sandbox, client, store, relay)
        if conversation is None:
            _register(world)
        else:
            _register_conversation(world, conversation.clock, conversation.sleep)
        tg.add_chat(OPERATORS)
        try:
            async with app:
                await app.start()
                assert app.updater is not None
                await app.updater.start_polling(poll_interval=0, timeout=10)
                try:
                    yield world
                finally:
                    await app.updater.stop()
                    await app.stop()
                    if world.conversation is not None:
                        await world.conversation.close()
        finally:
            await core.aclose()
            await sandbox.aclose()


def _register(world: HandlerWorld) -> None:
    ctx = world.ctx

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        # The wiring's /start does more; the OTP deep link is all these tests need of it.
        token = otp_token(context.args[0]) if context.args else None
        if token is not None:
            await start_otp_handoff(ctx, update, token)

    async def contact(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if not await contact_shared(ctx, update):
            assert update.effective_chat is not None
            await context.bot.send_message(update.effective_chat.id, TO_CONVERSATION)

    async def record_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        world.errors.append(context.error)

    world.app.add_handlers([*delivery_handlers(ctx), *operator_handlers(ctx)])
    world.app.add_handler(CommandHandler("start", start))
    world.app.add_handler(MessageHandler(filters.CONTACT, contact))
    world.app.add_error_handler(record_error)


def _register_conversation(world: HandlerWorld, clock: Clock, sleep: Sleep) -> None:
    world.conversation = Conversation(world.ctx, clock=clock, sleep=sleep)

    async def record_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        world.errors.append(context.error)

    world.app.add_handlers(
        [
            *delivery_handlers(world.ctx),
            *operator_handlers(world.ctx),
            *world.conversation.handlers(),
        ]
    )
    world.app.add_error_handler(record_error)


async def _public_address(host: str) -> list[str]:
    return ["93.184.216.34"]
