"""``WhatsAppPersona``: a customer on the simulated Cloud API, for tests that read as a chat.

::

    ada = WhatsAppPersona(fake, "2348012345678", "Ada")
    await ada.says("hi")
    await ada.receives()                # the bot's next message, awaited on the fake
    await ada.taps("Pickup")            # a button or row of the last message, by its title
    await ada.shares_location(6.45, 3.39)

Each action pushes the customer's message to the bot's webhook through the fake (signed, as
Meta pushes) and returns once the webhook took it. Waiting for the bot's answer awaits the
fake's event for a message to this customer, with a timeout: never a sleep. A tap that names
nothing the last message offered fails at once, naming what it offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.whatsapp_fake import customer_messages
from bot.whatsapp_fake.cloud_api import WAIT_TIMEOUT, FakeCloudApi
from bot.whatsapp_fake.fake_errors import WhatsAppFakeError
from bot.whatsapp_fake.sent_messages import SentMessage
from bot.whatsapp_fake.webhook_pusher import Delivery


class UndeliveredPush(WhatsAppFakeError, AssertionError):
    """The bot's webhook did not take a customer's message (it never answered 200)."""


class WhatsAppPersona:
    """One customer, ``wa_id`` (digits) with the profile ``name``, chatting through ``fake``."""

    def __init__(self, fake: FakeCloudApi, wa_id: str, name: str) -> None:
        self.fake = fake
        self.wa_id = wa_id
        self.name = name
        self.sent_ids: list[str] = []
        self._seen = 0

    async def _send(self, part: dict[str, Any], *, replied_to: str = "") -> str:
        message_id, delivery = await self.fake.push_customer_message(
            self.wa_id, self.name, part, replied_to=replied_to
        )
        _check(delivery)
        self.sent_ids.append(message_id)
        return message_id

    async def says(self, text: str) -> str:
        """Type ``text``; the message's ``wamid``."""
        return await self._send(customer_messages.text(text))

    async def taps(self, title: str) -> str:
        """Tap the reply button or list row titled ``title`` on the last message received;
        ``LookupError`` (naming what was offered) when it offered no such choice."""
        last = self.last()
        choice = last.offered_titled(title)
        if last.kind == "list":
            part = customer_messages.list_reply(choice.reply_id, choice.title, choice.description)
        else:
            part = customer_messages.button_reply(choice.reply_id, choice.title)
        return await self._send(part, replied_to=last.message_id)

    async def shares_location(
        self, latitude: float, longitude: float, name: str = "", address: str = ""
    ) -> str:
        """Share a pin (answering a location request, or from the attach menu)."""
        return await self._send(customer_messages.location(latitude, longitude, name, address))

    async def shares_contact(
        self, name: str, phones: Sequence[str], wa_ids: Sequence[str] = ()
    ) -> str:
        """Share a contact card with ``phones`` (``wa_ids`` for those on WhatsApp)."""
        return await self._send(customer_messages.contact(name, phones, wa_ids))

    async def sends_photo(
        self, content: bytes, caption: str = "", mime_type: str = "image/jpeg"
    ) -> str:
        """Send a photo: its bytes go to the fake's media, its id in the message."""
        media = self.fake.put_media(content, mime_type)
        return await self._send(customer_messages.image(media, caption))

    async def sends(self, part: dict[str, Any], *, replied_to: str = "") -> str:
        """Send any ``customer_messages`` part (a sticker, a reaction, a voice note ...);
        ``replied_to``: the message a tap was on (its ``context``)."""
        return await self._send(part, replied_to=replied_to)

    async def resends(self, message_id: str) -> None:
        """Meta pushes ``message_id`` again (a redelivery, the same bytes)."""
        _check(await self.fake.redeliver(message_id))

    async def reads(self) -> None:
        """Open the chat: ``read`` statuses for what was delivered."""
        await self.fake.read_by(self.wa_id)

    async def receives(self, count: int = 1, *, timeout: float = WAIT_TIMEOUT) -> list[SentMessage]:
        """The next ``count`` messages from the bot not received yet, once they came."""
        messages = await self.fake.wait_for_sent(self.wa_id, self._seen + count, timeout=timeout)
        new = messages[self._seen : self._seen + count]
        self._seen += count
        return new

    def inbox(self) -> list[SentMessage]:
        """Every message the bot delivered to this customer, oldest first."""
        return self.fake.sent_to(self.wa_id)

    def last(self) -> SentMessage:
        """The last message the bot delivered; ``AssertionError`` when there is none."""
        inbox = self.inbox()
        if not inbox:
            raise AssertionError(f"{self.wa_id} has received nothing from the bot")
        return inbox[-1]

    def last_text(self) -> str:
        """The words of the last message delivered (``SentMessage.text``)."""
        return self.last().text


def _check(delivery: Delivery) -> None:
    if not delivery.delivered:
        raise UndeliveredPush(f"the webhook answered {delivery.statuses}, never 200")
