"""The persona driver: a customer's actions pushed to the bot's webhook in Meta's shapes, and
the bot's answers awaited on the fake's event (a small bot here answers through pywa)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from pywa_async.types.callback import Button, Section, SectionList, SectionRow
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.whatsapp_fake import customer_messages
from bot.whatsapp_fake.cloud_api import CUSTOMER_SERVICE_WINDOW
from bot.whatsapp_fake.persona import UndeliveredPush, WhatsAppPersona
from bot.whatsapp_fake.webhook_pusher import WebhookPusher

from .cloud_fixtures import APP_SECRET, CUSTOMER, WEBHOOK_URL, Cloud


@dataclass
class MenuBot:
    """Answers "hi" with two buttons and the "errand" button with a list, later (a task), as
    a bot answers after its 200; records every message it is pushed."""

    cloud: Cloud
    received: list[dict[str, Any]] = field(default_factory=list)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def answer(self, message: dict[str, Any]) -> None:
        wa = self.cloud.client.wa
        reply = message.get("interactive", {}).get("button_reply", {}).get("id")
        if message.get("text", {}).get("body") == "hi":
            await wa.send_message(
                to=message["from"],
                text="What shall we do?",
                buttons=[Button("Pickup", "svc:pickup"), Button("Errand", "svc:errand")],
            )
        elif reply == "svc:errand":
            rows = [SectionRow("Market", "e:market", description="Buy and bring")]
            await wa.send_message(
                to=message["from"],
                text="Which errand?",
                buttons=SectionList("Errands", [Section("Errands", rows)]),
            )

    def app(self) -> Starlette:
        async def receive(request: Request) -> Response:
            for message in json.loads(await request.body())["entry"][0]["changes"][0]["value"][
                "messages"
            ]:
                self.received.append(message)
                task = asyncio.create_task(self.answer(message))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            return Response(status_code=200)

        return Starlette(routes=[Route("/whatsapp", receive, methods=["POST"])])


@pytest.fixture
async def bot(cloud: Cloud) -> AsyncIterator[MenuBot]:
    menu = MenuBot(cloud)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(menu.app())) as client:
        cloud.fake.attach_webhook(WebhookPusher(client, WEBHOOK_URL, APP_SECRET))
        yield menu
        await asyncio.gather(*menu.tasks)


async def test_a_customer_talks_taps_a_button_then_a_row(cloud: Cloud, bot: MenuBot) -> None:
    ada = WhatsAppPersona(cloud.fake, CUSTOMER, "Ada")

    await ada.says("hi")
    (menu,) = await ada.receives()
    assert menu.titles() == ["Pickup", "Errand"]
    await ada.taps("Errand")
    (errands,) = await ada.receives()
    await ada.taps("Market")

    assert ada.last_text() == "Which errand?"
    _, tap, row = bot.received
    assert tap["interactive"]["button_reply"] == {"id": "svc:errand", "title": "Errand"}
    assert tap["context"]["id"] == menu.message_id
    assert row["interactive"]["list_reply"] == {
        "id": "e:market",
        "title": "Market",
        "description": "Buy and bring",
    }
    assert row["context"]["id"] == errands.message_id
    assert [m.text for m in ada.inbox()] == ["What shall we do?", "Which errand?"]


async def test_a_tap_on_what_was_not_offered_fails_naming_what_was(
    cloud: Cloud, bot: MenuBot
) -> None:
    ada = WhatsAppPersona(cloud.fake, CUSTOMER, "Ada")
    await ada.says("hi")
    await ada.receives()

    with pytest.raises(LookupError, match=r"'Cancel' is not offered.*Pickup.*Errand"):
        await ada.taps("Cancel")


async def test_waiting_for_an_answer_that_never_comes_times_out(cloud: Cloud, bot: MenuBot) -> None:
    ada = WhatsAppPersona(cloud.fake, CUSTOMER, "Ada")
    await ada.says("nothing to answer")

    with pytest.raises(TimeoutError, match="had 0 message"):
        await ada.receives(timeout=0.01)


async def test_a_location_a_contact_and_a_photo_arrive_as_meta_pushes_them(
    cloud: Cloud, bot: MenuBot
) -> None:
    ada = WhatsAppPersona(cloud.fake, CUSTOMER, "Ada")

    await ada.shares_location(6.4474, 3.4723, name="Eko Hotel", address="Victoria Island")
    await ada.shares_contact("Bola Ade", ["+234 803 000 1111"], wa_ids=["2348030001111"])
    await ada.sends_photo(b"\xff\xd8\xff photo", caption="the parcel")

    location, contact, photo = bot.received
    assert location["location"] == {
        "latitude": 6.4474,
        "longitude": 3.4723,
        "name": "Eko Hotel",
        "address": "Victoria Island",
    }
    (card,) = contact["contacts"]
    assert card["name"]["formatted_name"] == "Bola Ade"
    assert card["phones"] == [
        {"phone": "+234 803 000 1111", "type": "CELL", "wa_id": "2348030001111"}
    ]
    assert photo["image"]["caption"] == "the parcel"
    url = await cloud.client.wa.get_media_url(photo["image"]["id"])
    assert url.sha256 == photo["image"]["sha256"]
    assert await cloud.client.wa.get_media_bytes(url.url) == b"\xff\xd8\xff photo"


async def test_kinds_the_bot_does_not_take_and_a_redelivery(cloud: Cloud, bot: MenuBot) -> None:
    ada = WhatsAppPersona(cloud.fake, CUSTOMER, "Ada")
    sticker = cloud.fake.put_media(b"RIFF webp", "image/webp")
    voice = cloud.fake.put_media(b"OggS voice", "audio/ogg; codecs=opus")

    await ada.sends(customer_messages.sticker(sticker))
    await ada.sends(customer_messages.voice_note(voice))
    first = await ada.sends(customer_messages.reaction("wamid.X", "👍"))
    await ada.sends(customer_messages.unsupported())
    await ada.resends(first)

    kinds = [message["type"] for message in bot.received]
    assert kinds == ["sticker", "audio", "reaction", "unsupported", "reaction"]
    assert bot.received[1]["audio"]["voice"] is True
    assert bot.received[3]["errors"][0]["code"] == 131051
    assert bot.received[2] == bot.received[4]


async def test_a_customer_s_message_reopens_the_window(cloud: Cloud, bot: MenuBot) -> None:
    cloud.clock.advance(CUSTOMER_SERVICE_WINDOW + 1)
    assert not cloud.fake.window_open(CUSTOMER)

    await WhatsAppPersona(cloud.fake, CUSTOMER, "Ada").says("hi")

    assert cloud.fake.window_open(CUSTOMER)


async def test_a_push_the_webhook_refuses_fails_the_persona_s_step(cloud: Cloud) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401)

    async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as client:
        cloud.fake.attach_webhook(
            WebhookPusher(client, WEBHOOK_URL, APP_SECRET, sleep=cloud.clock.sleep)
        )
        with pytest.raises(UndeliveredPush, match="401"):
            await WhatsAppPersona(cloud.fake, CUSTOMER, "Ada").says("hi")
