"""``WhatsAppPhone``: the WhatsApp side of the demo that outlives a bot restart.

Meta's servers (the simulated Cloud API, ``bot.whatsapp_fake.FakeCloudApi``: the business's
number, its media, the customer-service window, the send rates, the approved templates) and the
phones on it (``WhatsAppPersona``: the customer, and a drop-off code's receiver once a link is
opened) keep running while the bot restarts, as the sandbox does. The fake pushes each phone's
messages and every status, signed with the app secret, to the bot's ``POST /whatsapp`` through
the demo's ``AppSwitch``, in process; the bot reaches the fake's Graph API over
``transport``. ``show_new`` draws what reached each phone since it last drew.

The number's settings (``section``) are made up for the run, in the shapes ``[whatsapp]``
checks: the fake takes that access token and signs with that app secret, and nothing is dialled.
"""

from __future__ import annotations

import secrets
import struct
import zlib
from typing import Final

import httpx

from bot.clocks import Clock, Sleep
from bot.config.whatsapp_section import WhatsAppConfig
from bot.console.console_screen import Screen
from bot.demo.whatsapp_screen import Choice, choices_of, draw_all
from bot.whatsapp_fake.approved_templates import ApprovedTemplate
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from bot.whatsapp_fake.persona import WhatsAppPersona
from bot.whatsapp_fake.sent_messages import SentMessage
from bot.whatsapp_fake.webhook_pusher import WebhookPusher

PHONE_NUMBER_ID: Final = "106540352242922"
DISPLAY_PHONE_NUMBER: Final = "+234 1 700 0000"
CUSTOMER_WA_ID: Final = "2348031234567"
CUSTOMER_NAME: Final = "Ada"
RECEIVER_NAME: Final = "Receiver"
GRAPH_API_BASE_URL: Final = "http://127.0.0.1:9"  # never dialled: the fake is in process
# The templates ``[whatsapp.templates]`` names by default, approved as docs/operators.md gives
# them ({{1}} the reference and {{2}} the news; {{1}} a person's answer).
APPROVED: Final = (
    ApprovedTemplate("delivery_update", "en", 2),
    ApprovedTemplate("support_reply", "en", 1),
)


def demo_section(access_token: str, app_secret: str) -> WhatsAppConfig:
    """A ``[whatsapp]`` section for the demo's number, pointed at the fake, with the
    credentials the fake takes."""
    return WhatsAppConfig.model_validate(
        {
            "phone_number_id": PHONE_NUMBER_ID,
            "display_phone_number": DISPLAY_PHONE_NUMBER,
            "access_token": access_token,
            "app_secret": app_secret,
            "verify_token": secrets.token_urlsafe(16),
            "graph_api_base_url": GRAPH_API_BASE_URL,
        },
        context={"environ": {}},
    )


def sample_photo() -> bytes:
    """A small PNG (8 x 8, one colour): what ``photo`` sends when no file is named."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    side = 8
    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\xe0\x8a\x2b" * side for _ in range(side))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class WhatsAppPhone:
    """The fake Cloud API and the phones on it; see the module docstring. ``webhook`` is the
    ASGI app the bot's web app is reached through (the demo's ``AppSwitch``)."""

    def __init__(
        self, webhook: httpx.AsyncBaseTransport, webhook_url: str, *, clock: Clock, sleep: Sleep
    ) -> None:
        # Made for this run only: the fake takes them, and nobody else has them.
        access_token, app_secret = "EAA" + secrets.token_urlsafe(32), secrets.token_hex(16)
        self.section = demo_section(access_token, app_secret)
        self.fake = FakeCloudApi(
            phone_number_id=PHONE_NUMBER_ID,
            access_token=access_token,
            display_phone_number="".join(c for c in DISPLAY_PHONE_NUMBER if c.isdigit()),
            clock=clock,
            templates=APPROVED,
        )
        self._pushes = httpx.AsyncClient(transport=webhook)
        # No retries: the bot is in this process, and one that is down (a restart) says so.
        self.fake.attach_webhook(
            WebhookPusher(self._pushes, webhook_url, app_secret, sleep=sleep, retry_delays=())
        )
        self.transport = httpx.ASGITransport(app=fake_cloud_app(self.fake))
        self.customer = WhatsAppPersona(self.fake, CUSTOMER_WA_ID, CUSTOMER_NAME)
        self.receivers: dict[str, WhatsAppPersona] = {}
        self.choices: tuple[Choice, ...] = ()  # the customer's buttons and rows on screen
        self.introduced = False
        self._shown: dict[str, int] = {}

    def receiver(self, wa_id: str) -> WhatsAppPersona:
        """The phone of the receiver ``wa_id`` (digits), the same one each time."""
        if wa_id not in self.receivers:
            self.receivers[wa_id] = WhatsAppPersona(self.fake, wa_id, RECEIVER_NAME)
        return self.receivers[wa_id]

    def show_new(self, screen: Screen) -> None:
        """Draw on ``screen`` what reached each phone since the last call. The customer's
        choices on screen become those the new messages offer; new messages that offer none
        take them away (a question answered, the order over)."""
        new = self._new(self.customer)
        screen.write(draw_all(new))
        if new:
            self.choices = choices_of(new)
        for wa_id, phone in self.receivers.items():
            screen.write(draw_all(self._new(phone), f"bot → +{wa_id}"))

    def _new(self, phone: WhatsAppPersona) -> list[SentMessage]:
        inbox = phone.inbox()
        seen = self._shown.get(phone.wa_id, 0)
        self._shown[phone.wa_id] = len(inbox)
        return inbox[seen:]

    async def flush_statuses(self) -> bool:
        """Push the statuses owed to the webhook; whether there were any."""
        return bool(await self.fake.flush_statuses())

    async def aclose(self) -> None:
        await self._pushes.aclose()
