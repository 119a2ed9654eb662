"""``WhatsAppCustomer``: the demo's customer on WhatsApp (``deliverybot demo --channel
whatsapp``), a ``DemoCustomer`` over one run of the bot.

::

    typed line ──whatsapp_typing──> WhatsAppPersona ──FakeCloudApi──signed push──>
        the bot's POST /whatsapp ──> inbox ──> WhatsAppConversation ──pywa──> FakeCloudApi
    the fake's accepted messages ──whatsapp_screen──> the terminal

``register`` builds the bot's WhatsApp channel as ``deliverybot run`` does
(``bot.runtime.whatsapp_wiring.register_whatsapp`` over pywa's client,
``bot.whatsapp.cloud_client``), its Graph API the phone's fake in process. A restart builds a
new one over the same ``WhatsAppPhone``. pywa is loaded when ``register`` builds the client,
and ``DemoBot`` imports this module only for a WhatsApp demo: the console demo never loads it.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from bot.bot_core import BotCore
from bot.chat_ref import WHATSAPP, ChatRef, UserRef
from bot.console.console_render import said
from bot.console.console_screen import Screen
from bot.demo.whatsapp_phone import (
    CUSTOMER_NAME,
    CUSTOMER_WA_ID,
    DISPLAY_PHONE_NUMBER,
    WhatsAppPhone,
    sample_photo,
)
from bot.demo.whatsapp_screen import Choice
from bot.demo.whatsapp_typing import (
    Action,
    Again,
    Card,
    Picture,
    Pin,
    Tap,
    Words,
    read_line,
)
from bot.runtime.whatsapp_wiring import WhatsAppChannel, register_whatsapp
from bot.store.otp_handoffs import OtpHandoff
from bot.web.photo_keeping import image_type
from bot.whatsapp.cloud_client import cloud_client
from bot.whatsapp_fake import customer_messages
from bot.whatsapp_fake.persona import UndeliveredPush
from conversations.phones import normalise_phone
from conversations.texts.deliveries_texts import short_ref

DEMO = "demo"
# How many rounds of statuses a line may set off (a failed news message re-sent as the
# template, whose own statuses follow): far more than any real chain.
MAX_STATUS_ROUNDS = 5
WATCH_TIMEOUT = 3600.0  # seconds a live demo's screen waits for news before it waits again


class WhatsAppCustomer:
    """``DemoCustomer`` on WhatsApp; see the module docstring. ``phone_region`` reads the
    receiver's phone as the business does; photos' relative paths start at ``base_dir``."""

    def __init__(
        self,
        phone: WhatsAppPhone,
        channel: WhatsAppChannel,
        screen: Screen,
        *,
        phone_region: str,
        base_dir: Path | None = None,
        live: bool = False,
    ) -> None:
        self.phone = phone
        self.channel = channel
        self.screen = screen
        self.phone_region = phone_region
        self.base_dir = base_dir
        self.live = live
        self._chat = ChatRef(WHATSAPP, int(CUSTOMER_WA_ID))
        self._watching: asyncio.Task[None] | None = None

    @classmethod
    def register(
        cls,
        core: BotCore,
        phone: WhatsAppPhone,
        screen: Screen,
        *,
        phone_region: str,
        base_dir: Path | None = None,
        live: bool = False,
    ) -> WhatsAppCustomer:
        """Register the bot's WhatsApp channel on ``core``, its Cloud API ``phone``'s fake;
        ``live``: show what reaches the customer as it comes (``open``), not only after a
        typed line."""
        cloud = cloud_client(phone.section, transport=phone.transport)
        channel = register_whatsapp(core, phone.section, cloud)
        return cls(phone, channel, screen, phone_region=phone_region, base_dir=base_dir, live=live)

    @property
    def chat(self) -> ChatRef:
        return self._chat

    @property
    def user(self) -> UserRef:
        return self._chat.user(self._chat.id)

    @property
    def status(self) -> str | None:
        """WhatsApp's conversation does not say how an order ended: check facts instead."""
        return None

    async def open(self) -> None:
        if self.live and self._watching is None:
            self._watching = asyncio.create_task(self._watch(), name="demo-whatsapp-screen")
        if self.phone.introduced:
            return  # the phone still shows the chat as it was
        self.phone.introduced = True
        self.screen.write(
            said(
                f"you are {CUSTOMER_NAME} (+{CUSTOMER_WA_ID}) on WhatsApp, writing to the "
                f"business's number {DISPLAY_PHONE_NUMBER}: type new to order, menu for what "
                "you can ask. WhatsApp paces the bot's messages to one person (about one every "
                "6 s after a short burst), so quick answers in a row may wait a little.",
                DEMO,
            )
        )

    async def send(self, line: str) -> None:
        action = read_line(line, self.phone.choices, self.base_dir or Path.cwd())
        try:
            await self._do(action)
        except UndeliveredPush as refused:
            # The bot's webhook did not take it (it answered no 200): Meta would retry; the
            # demo says so and goes on.
            self.screen.write(said(f"the bot's webhook did not take the message: {refused}", DEMO))
        await self.channel.receiving.handling.idle()

    async def _do(self, action: Action) -> None:
        customer = self.phone.customer
        match action:
            case Again(reason):
                self.screen.write(said(reason, DEMO))
                return
            case Tap(Choice(message, choice)):
                if message.kind == "list":
                    part = customer_messages.list_reply(
                        choice.reply_id, choice.title, choice.description
                    )
                else:
                    part = customer_messages.button_reply(choice.reply_id, choice.title)
                await customer.sends(part, replied_to=message.message_id)
            case Words(text):
                await customer.says(text)
            case Pin(latitude, longitude, name):
                await customer.shares_location(latitude, longitude, name)
            case Card(name, phone):
                await customer.shares_contact(name, [phone])
            case Picture(path):
                content = sample_photo() if path is None else path.read_bytes()
                mime_type = image_type(content[:12]) or "image/png"
                await customer.sends_photo(content, mime_type=mime_type)

    async def settle(self) -> None:
        handling = self.channel.receiving.handling
        for _ in range(MAX_STATUS_ROUNDS):
            await handling.idle()
            if not await self.phone.flush_statuses():
                break
        await handling.idle()
        self.phone.show_new(self.screen)

    def option_labels(self) -> list[str]:
        return [choice.offered.title for choice in self.phone.choices]

    def link_sent(self, ref: str) -> str | None:
        for message in reversed(self.phone.customer.inbox()):
            if ref in message.text and "https://wa.me/" in message.text:
                return next(w for w in message.text.split() if w.startswith("https://wa.me/"))
        return None

    def otp_link(self, token: str) -> str:
        return self.channel.news.otp_link(token)

    async def open_link(self, handoff: OtpHandoff) -> None:
        """The receiver taps the ``wa.me`` link: WhatsApp opens the business's chat with the
        claim typed in, and they press send, from their own number."""
        link = self.otp_link(handoff.token)
        typed = parse_qs(urlsplit(link).query).get("text", [""])[0]
        number = normalise_phone(handoff.receiver_phone, self.phone_region)
        wa_id = (number or handoff.receiver_phone).lstrip("+")
        if not wa_id.isdigit():
            self.screen.write(said(f"{short_ref(handoff.delivery_id)}: no receiver's number", DEMO))
            return
        await self.phone.receiver(wa_id).says(typed)
        await self.channel.receiving.handling.idle()

    async def _watch(self) -> None:
        """A live demo's news, as it reaches the customer: each time a message comes, what it
        set off is let finish (a turn's other messages, its statuses), then all is drawn."""
        customer = self.phone.customer
        while True:
            try:
                await self.phone.fake.wait_for_sent(
                    customer.wa_id, len(customer.inbox()) + 1, timeout=WATCH_TIMEOUT
                )
            except TimeoutError:
                continue  # nothing came for a while: keep waiting
            await self.settle()

    async def aclose(self) -> None:
        """Stop showing news, and close pywa's HTTP session (the channel's own parts close
        with the core)."""
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watching
        await self.channel.cloud.aclose()
