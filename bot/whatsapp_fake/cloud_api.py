"""``FakeCloudApi``: the simulated WhatsApp Cloud API's state for one business number.

It holds what Meta holds for the number: its access token, the media, the approved templates,
the send rates, each customer's last message (the customer-service window), and every message
it accepted, by customer and in order, read into ``SentMessage`` values so a test reads what a
customer sees. ``send`` is the messages endpoint's whole decision; ``cloud_app.fake_cloud_app``
serves it over HTTP as the Graph API.

A send is refused in its HTTP answer for what Meta refuses there: a malformed message (100,
131009), a template not approved (132001, 132000), a rate spent (130429, 131056). What Meta
refuses only later is accepted, then reported by a ``failed`` status push: a message other
than a template outside the window (131047), or to a customer set to fail
(``fail_deliveries_to``, e.g. 131026). Every refusal is counted by code (``refusals``).

Customers' messages and the statuses reach the bot through ``attach_webhook``'s pusher; a
test awaits them (``push_customer_message``, ``flush_statuses``, ``wait_for_sent``) and never
sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import replace
from typing import Any, Final

from bot.clocks import Clock, system_clock
from bot.whatsapp_fake.approved_templates import ApprovedTemplate, TemplateRegistry
from bot.whatsapp_fake.cloud_rates import SendRates
from bot.whatsapp_fake.graph_errors import (
    RE_ENGAGEMENT,
    RE_ENGAGEMENT_DETAILS,
    ErrorCode,
    GraphError,
)
from bot.whatsapp_fake.media_shelf import MediaShelf, StoredMedia
from bot.whatsapp_fake.message_checks import read_message
from bot.whatsapp_fake.sent_messages import SentMessage
from bot.whatsapp_fake.status_outbox import StatusOutbox
from bot.whatsapp_fake.webhook_envelopes import (
    NumberMetadata,
    messages_envelope,
    status_value,
    statuses_envelope,
)
from bot.whatsapp_fake.webhook_pusher import Delivery, WebhookPusher

WAIT_TIMEOUT: Final = 5.0
"""How long a test waits for the bot by default: far over a turn's time."""
CUSTOMER_SERVICE_WINDOW: Final = 24 * 3600.0
"""Seconds after a customer's last message in which any message may be sent."""


class FakeCloudApi:
    """The Cloud API as one business number sees it (see the module docstring).

    ``phone_number_id`` is the number's Graph id (the path's), ``display_phone_number`` the
    number customers see, ``waba_id`` the business account's id (a push's ``entry.id``).
    ``clock`` (Unix seconds) stamps messages and drives the window and ``rates`` (Meta's
    defaults on the same clock unless given).
    """

    def __init__(
        self,
        *,
        phone_number_id: str,
        access_token: str,
        display_phone_number: str = "15550001234",
        waba_id: str = "102290129340398",
        clock: Clock = system_clock,
        templates: Iterable[ApprovedTemplate] = (),
        rates: SendRates | None = None,
    ) -> None:
        self.number = NumberMetadata(waba_id, phone_number_id, display_phone_number)
        self.phone_number_id = phone_number_id
        self.clock = clock
        self.media = MediaShelf()
        self.templates = TemplateRegistry(templates)
        self.rates = rates if rates is not None else SendRates(clock)
        self.refusals: Counter[int] = Counter()
        self.statuses = StatusOutbox()
        self.deliveries: list[Delivery] = []
        self._access_token = access_token
        self._numbers = itertools.count(1)
        self._sent: dict[str, list[SentMessage]] = {}
        self._all_sent: list[SentMessage] = []
        self._undelivered: list[SentMessage] = []
        self._last_wrote: dict[str, float] = {}
        self._failing: dict[str, tuple[ErrorCode, str]] = {}
        self._read: dict[str, int] = {}
        self._pushed: dict[str, dict[str, Any]] = {}
        self._pusher: WebhookPusher | None = None
        self._changed = asyncio.Condition()

    # -- the messages endpoint ----------------------------------------------------------------

    def authorized(self, authorization: str | None) -> bool:
        """Whether an ``Authorization`` header carries the number's access token."""
        scheme, _, token = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            token.encode(), self._access_token.encode()
        )

    def new_message_id(self) -> str:
        """A fresh ``wamid.…`` (unique within this fake)."""
        return f"wamid.HBgNFAKE{next(self._numbers):012d}{self.phone_number_id}=="

    async def send(self, body: Mapping[str, Any]) -> SentMessage:
        """Accept the message ``body`` asks to send, or refuse it (``GraphError``, counted);
        an accepted message's statuses are queued (``statuses``)."""
        try:
            message = read_message(body, self.media.__contains__)
            if message.kind == "template":
                self.templates.check(message)
            spent = self.rates.refusal(message.wa_id)
            if spent is not None:
                raise GraphError(spent, f"Message to {message.wa_id} over the rate: try later.")
        except GraphError as refused:
            self.refusals[refused.error.code] += 1
            raise
        now = self.clock()
        message = replace(message, message_id=self.new_message_id(), accepted_at=now)
        uploaded = self.media.get(message.media_id) if message.media_id else None
        if uploaded is not None:
            message = replace(message, file_size=len(uploaded.content))
        failure = self._failure_of(message)
        template = message.kind == "template"
        if failure is None:
            await self.statuses.queue(
                status_value(message.message_id, "sent", now, message.wa_id, template=template),
                status_value(
                    message.message_id, "delivered", now, message.wa_id, template=template
                ),
            )
        else:
            await self.statuses.queue(
                status_value(
                    message.message_id,
                    "failed",
                    now,
                    message.wa_id,
                    template=template,
                    error=failure,
                )
            )
        async with self._changed:
            if failure is None:
                self._sent.setdefault(message.wa_id, []).append(message)
            else:
                self._undelivered.append(message)
            self._all_sent.append(message)
            self._changed.notify_all()
        return message

    def _failure_of(self, message: SentMessage) -> tuple[ErrorCode, str] | None:
        if message.kind != "template" and not self.window_open(message.wa_id):
            return RE_ENGAGEMENT, RE_ENGAGEMENT_DETAILS
        return self._failing.get(message.wa_id)

    # -- what a test sets and reads -----------------------------------------------------------

    def window_open(self, wa_id: str) -> bool:
        """Whether ``wa_id`` wrote in the last 24 hours (by the fake's clock)."""
        wrote = self._last_wrote.get(wa_id)
        return wrote is not None and self.clock() - wrote <= CUSTOMER_SERVICE_WINDOW

    def customer_wrote(self, wa_id: str, at: float) -> None:
        """``wa_id`` sent a message at ``at``: the window runs 24 hours from it."""
        self._last_wrote[wa_id] = max(at, self._last_wrote.get(wa_id, at))

    def fail_deliveries_to(self, wa_id: str, error: ErrorCode, details: str) -> None:
        """Accept messages to ``wa_id`` but push ``failed`` with ``error`` (131026 ...)."""
        self._failing[wa_id] = (error, details)

    def sent_to(self, wa_id: str) -> list[SentMessage]:
        """The messages delivered to ``wa_id`` (what the customer sees), oldest first."""
        return list(self._sent.get(wa_id, ()))

    def sent(self) -> list[SentMessage]:
        """Every accepted message, delivered or not, in the order accepted."""
        return list(self._all_sent)

    def undelivered(self) -> list[SentMessage]:
        """The accepted messages whose status is ``failed`` (the window, a failing number)."""
        return list(self._undelivered)

    async def wait_for_sent(
        self, wa_id: str, count: int, *, timeout: float = WAIT_TIMEOUT
    ) -> list[SentMessage]:
        """The messages delivered to ``wa_id`` once there are at least ``count``;
        ``TimeoutError`` (saying how many came) when they do not within ``timeout`` seconds."""
        async with self._changed:
            try:
                await asyncio.wait_for(
                    self._changed.wait_for(lambda: len(self._sent.get(wa_id, ())) >= count),
                    timeout,
                )
            except TimeoutError:
                had = len(self._sent.get(wa_id, ()))
                raise TimeoutError(
                    f"{wa_id} had {had} message(s) after {timeout}s, not {count}"
                ) from None
        return self.sent_to(wa_id)

    def put_media(self, content: bytes, mime_type: str) -> StoredMedia:
        """Keep a file (a customer's photo, or the business's upload) under a new media id."""
        return self.media.put(content, mime_type)

    # -- pushes to the webhook ----------------------------------------------------------------

    def attach_webhook(self, pusher: WebhookPusher) -> None:
        """Push customers' messages and statuses through ``pusher``."""
        self._pusher = pusher

    async def push(self, envelope: Mapping[str, Any]) -> Delivery:
        """Push ``envelope`` to the webhook; how it went (also kept in ``deliveries``)."""
        if self._pusher is None:
            raise RuntimeError("no webhook attached: call attach_webhook first")
        delivery = await self._pusher.push(envelope)
        self.deliveries.append(delivery)
        return delivery

    async def push_customer_message(
        self,
        wa_id: str,
        profile_name: str,
        part: Mapping[str, Any],
        *,
        replied_to: str = "",
    ) -> tuple[str, Delivery]:
        """Push a message from ``wa_id`` (``part``: a ``customer_messages`` builder's), stamped
        now; the window reopens. Its ``wamid`` and how the push went."""
        now = self.clock()
        message: dict[str, Any] = {
            "from": wa_id,
            "id": self.new_message_id(),
            "timestamp": str(int(now)),
            **part,
        }
        if replied_to:
            message["context"] = {"from": self.number.display_phone_number, "id": replied_to}
        envelope = messages_envelope(self.number, wa_id, profile_name, [message])
        self._pushed[message["id"]] = envelope
        self.customer_wrote(wa_id, now)
        return message["id"], await self.push(envelope)

    async def redeliver(self, message_id: str) -> Delivery:
        """Push a customer's message ``message_id`` again, byte for byte (Meta redelivers)."""
        return await self.push(self._pushed[message_id])

    async def read_by(self, wa_id: str) -> None:
        """``wa_id`` opened the chat: a ``read`` status for each delivered message unread."""
        messages = self.sent_to(wa_id)
        unread = messages[self._read.get(wa_id, 0) :]
        self._read[wa_id] = len(messages)
        now = self.clock()
        await self.statuses.queue(
            *(
                status_value(m.message_id, "read", now, wa_id, template=m.kind == "template")
                for m in unread
            )
        )

    async def _push_status(self, status: Mapping[str, Any]) -> Delivery:
        return await self.push(statuses_envelope(self.number, [status]))

    async def flush_statuses(self) -> list[Delivery]:
        """Push every queued status now, one per push, in order."""
        return await self.statuses.flush(self._push_status)

    @contextlib.asynccontextmanager
    async def pushing_statuses(self) -> AsyncIterator[None]:
        """Push statuses in the background as messages are accepted, until the block ends."""
        async with self.statuses.pushing(self._push_status):
            yield

    async def statuses_settled(self, *, timeout: float = WAIT_TIMEOUT) -> None:
        """Return once every queued status was pushed (inside ``pushing_statuses``)."""
        await self.statuses.settled(timeout=timeout)
