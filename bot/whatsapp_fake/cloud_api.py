"""``FakeCloudApi``: the simulated WhatsApp Cloud API's state for one business number.

It holds what Meta holds for the number: its access token, the media, and every message it
accepted, by customer (``wa_id``) and in order, read into ``SentMessage`` values so a test
reads what a customer sees. ``send`` is the messages endpoint's whole decision (checks, then
record); ``cloud_app.fake_cloud_app`` serves it over HTTP as the Graph API. A waiter
(``wait_for_sent``) is woken by an accepted message, never by polling.

Every refusal is counted by code (``refusals``), so a test can assert that none happened.
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from bot.clocks import Clock, system_clock
from bot.whatsapp_fake.graph_errors import GraphError
from bot.whatsapp_fake.media_shelf import MediaShelf, StoredMedia
from bot.whatsapp_fake.message_checks import read_message
from bot.whatsapp_fake.sent_messages import SentMessage

WAIT_TIMEOUT: Final = 5.0
"""How long a test waits for the bot's message by default: far over a turn's time."""


class FakeCloudApi:
    """The Cloud API as one business number sees it (see the module docstring).

    ``phone_number_id`` is the number's Graph id (the path's), ``display_phone_number`` the
    number customers see, ``waba_id`` the business account's id (a webhook's ``entry.id``).
    ``clock`` (Unix seconds) stamps messages and drives the window and rates.
    """

    def __init__(
        self,
        *,
        phone_number_id: str,
        access_token: str,
        display_phone_number: str = "15550001234",
        waba_id: str = "102290129340398",
        clock: Clock = system_clock,
    ) -> None:
        self.phone_number_id = phone_number_id
        self.display_phone_number = display_phone_number
        self.waba_id = waba_id
        self.clock = clock
        self.media = MediaShelf()
        self.refusals: Counter[int] = Counter()
        self._access_token = access_token
        self._message_numbers = itertools.count(1)
        self._sent: dict[str, list[SentMessage]] = {}
        self._all_sent: list[SentMessage] = []
        self._changed = asyncio.Condition()

    def authorized(self, authorization: str | None) -> bool:
        """Whether an ``Authorization`` header carries the number's access token."""
        scheme, _, token = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            token.encode(), self._access_token.encode()
        )

    def new_message_id(self) -> str:
        """A fresh ``wamid.…`` (unique within this fake)."""
        return f"wamid.HBgNFAKE{next(self._message_numbers):012d}{self.phone_number_id}=="

    async def send(self, body: Mapping[str, Any]) -> SentMessage:
        """Accept the message ``body`` asks to send, or refuse it (``GraphError``, counted)."""
        try:
            message = read_message(body, self.media.__contains__)
        except GraphError as refused:
            self.refusals[refused.error.code] += 1
            raise
        message = replace(message, message_id=self.new_message_id(), accepted_at=self.clock())
        async with self._changed:
            self._sent.setdefault(message.wa_id, []).append(message)
            self._all_sent.append(message)
            self._changed.notify_all()
        return message

    def sent_to(self, wa_id: str) -> list[SentMessage]:
        """The messages accepted for ``wa_id``, oldest first."""
        return list(self._sent.get(wa_id, ()))

    def sent(self) -> list[SentMessage]:
        """Every accepted message, in the order accepted."""
        return list(self._all_sent)

    async def wait_for_sent(
        self, wa_id: str, count: int, *, timeout: float = WAIT_TIMEOUT
    ) -> list[SentMessage]:
        """The messages to ``wa_id`` once there are at least ``count``; ``TimeoutError``
        (saying how many came) when they do not come within ``timeout`` seconds."""
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
