"""``CloudSender`` through pywa to the simulated Cloud API: each ``Outgoing`` value arrives as
Meta reads it, and Meta's refusals come back as the relay's errors, never as their text."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from bot.config import Config
from bot.relay.channel_protocol import SendFailed
from bot.runtime.logs import configure_logging
from bot.whatsapp.cloud_client import CloudClient, cloud_client
from bot.whatsapp.outgoing import (
    ButtonsMessage,
    DocumentMessage,
    ImageMessage,
    ListMessage,
    ListRow,
    ListSection,
    LocationRequest,
    Outgoing,
    ReplyButton,
    TemplateMessage,
    TextMessage,
)
from bot.whatsapp.pacing import WhatsAppPacing
from bot.whatsapp.sender import CloudSender, access_alert, cloud_json
from bot.whatsapp_fake.cloud_api import FakeCloudApi
from bot.whatsapp_fake.cloud_app import fake_cloud_app
from tests.support.clock import FakeClock
from tests.whatsapp_fake.cloud_fixtures import ACCESS_TOKEN, CUSTOMER, PHONE_NUMBER_ID, section

from .conftest import CHAT, texts


def _sender(client: CloudClient, clock: FakeClock, alerts: list[str] | None = None) -> CloudSender:
    async def alert(text: str) -> None:
        assert alerts is not None
        alerts.append(text)

    pacing = WhatsAppPacing(clock=clock, sleep=clock.sleep)
    told = access_alert(alert, texts().business_catalogue)
    return CloudSender(client, pacing, alert_token=told if alerts is not None else None)


async def test_each_kind_of_message_reaches_the_customer_as_drawn(
    cloud: tuple[FakeCloudApi, CloudClient], fake_clock: FakeClock
) -> None:
    fake, client = cloud
    fake.customer_wrote(CUSTOMER, fake_clock())  # the window is open
    sender = _sender(client, fake_clock)
    rows = [ListRow("place:1", "Home", "12 Allen Avenue"), ListRow("place:2", "Office")]
    messages: list[Outgoing] = [
        TextMessage("Your rider is on the way."),
        ButtonsMessage(
            "Keep the order?", [ReplyButton("q keep", "Keep"), ReplyButton("q no", "Cancel")]
        ),
        ListMessage("Where from?", "Saved places", [ListSection("", rows)], footer="Or type it"),
        LocationRequest("Share the pickup place"),
        TemplateMessage("delivery_update", "fr", ("3F2A9C1E", "Le livreur arrive.")),
    ]
    ids = [await sender.send(CHAT, message) for message in messages]

    seen = fake.sent_to(CUSTOMER)
    assert [m.message_id for m in seen] == ids and len(set(ids)) == 5
    kinds = ["text", "buttons", "list", "location_request", "template"]
    assert [m.kind for m in seen] == kinds
    assert seen[0].text == "Your rider is on the way."
    assert seen[1].titles() == ["Keep", "Cancel"]
    assert seen[1].offered_titled("Cancel").reply_id == "q no"
    assert seen[2].list_button == "Saved places" and seen[2].footer == "Or type it"
    assert [(o.reply_id, o.description) for o in seen[2].offered] == [
        ("place:1", "12 Allen Avenue"),
        ("place:2", ""),
    ]
    assert seen[3].text == "Share the pickup place"
    assert (seen[4].template, seen[4].language) == ("delivery_update", "fr")
    assert seen[4].parameters == ("3F2A9C1E", "Le livreur arrive.")
    assert fake.refusals == {}


def test_a_template_without_parameters_has_no_components() -> None:
    assert cloud_json(TemplateMessage("hello_world", "en")) == (
        "template",
        {"name": "hello_world", "language": {"code": "en"}},
    )


async def test_a_refused_message_is_send_failed_with_the_code_and_nothing_of_its_text(
    cloud: tuple[FakeCloudApi, CloudClient],
    fake_clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake, client = cloud
    sender = _sender(client, fake_clock)
    # A recipient of 3 digits: Meta refuses the parameter (the values here cannot be invalid).
    with caplog.at_level(logging.DEBUG), pytest.raises(SendFailed) as refused:
        await sender.send(CHAT.__class__(CHAT.channel, 123), TextMessage("secret words"))

    assert "Cloud API error" in str(refused.value)
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith("bot."))
    assert "Cloud API error" in ours
    assert "secret words" not in ours and ACCESS_TOKEN not in caplog.text
    assert sum(fake.refusals.values()) == 1


def test_the_running_bot_keeps_pywas_message_bodies_out_of_its_log(
    tmp_path: Path, restore_logging: None
) -> None:
    # pywa logs each request's JSON (the customer's words) at DEBUG.
    data = {
        "partner": {"base_url": "http://127.0.0.1:9/api/v1", "api_key": "sk_live_0123456789abcdef"},
        "telegram": {"token": "7000000003:AATokenThatMustNeverBeLogged_012345"},
        "webhooks": {},
        "operators": {},
    }
    config = Config.model_validate(data, context={"environ": {}, "base_dir": tmp_path})
    configure_logging(config, logging.DEBUG)
    assert logging.getLogger("pywa_async.api").getEffectiveLevel() == logging.WARNING
    assert logging.getLogger("pywa.api").getEffectiveLevel() == logging.WARNING


async def test_a_refused_access_token_fails_the_send_and_alerts_the_operators(
    fake_clock: FakeClock,
) -> None:
    fake = FakeCloudApi(phone_number_id=PHONE_NUMBER_ID, access_token="EAAGother" + "y" * 40)
    client = cloud_client(section(), transport=httpx.ASGITransport(fake_cloud_app(fake)))
    alerts: list[str] = []
    try:
        with pytest.raises(SendFailed, match="190"):
            await _sender(client, fake_clock, alerts).send(CHAT, TextMessage("hello"))
    finally:
        await client.aclose()
    [alert] = alerts
    assert alert.startswith("WhatsApp refused the bot's access (Cloud API error 190")
    assert ACCESS_TOKEN not in alert
    assert fake.sent() == []


async def test_a_document_and_an_image_are_uploaded_then_sent_by_their_ids(
    cloud: tuple[FakeCloudApi, CloudClient], fake_clock: FakeClock
) -> None:
    fake, client = cloud
    fake.customer_wrote(CUSTOMER, fake_clock())
    sender = _sender(client, fake_clock)
    data = b'{"name": "Adaeze Okafor"}'
    png = b"\x89PNG\r\n\x1a\n" + bytes(64)

    await sender.send(CHAT, DocumentMessage(data, "my-data.json", "text/plain", caption="Yours"))
    await sender.send(CHAT, ImageMessage(png, "image/png"))

    document, image = fake.sent_to(CUSTOMER)
    assert (document.kind, document.filename, document.text) == (
        "document",
        "my-data.json",
        "Yours",
    )
    assert (image.kind, image.filename, image.text) == ("image", "", "")
    for sent, content, mime_type in ((document, data, "text/plain"), (image, png, "image/png")):
        uploaded = fake.media.get(sent.media_id)
        assert uploaded is not None and (uploaded.content, uploaded.mime_type) == (
            content,
            mime_type,
        )
    assert "caption" not in image.raw["image"]


def test_a_file_meta_would_refuse_is_refused_when_it_is_made() -> None:
    with pytest.raises(ValueError, match="application/json"):
        DocumentMessage(b"{}", "my-data.json", "application/json")
    with pytest.raises(ValueError, match="no file name"):
        DocumentMessage(b"{}", " ", "text/plain")
    with pytest.raises(ValueError, match="over WhatsApp's 1024"):
        DocumentMessage(b"{}", "a.json", "text/plain", caption="x" * 1025)
    with pytest.raises(ValueError, match="image/webp"):
        ImageMessage(b"RIFF0000WEBP", "image/webp")
    with pytest.raises(ValueError, match="over WhatsApp's 5242880"):
        ImageMessage(b"\xff\xd8\xff" + bytes(5 * 1024 * 1024), "image/jpeg")
    with pytest.raises(ValueError, match="id of its upload"):
        cloud_json(ImageMessage(b"\xff\xd8\xff", "image/jpeg"))


async def test_a_refused_upload_sends_nothing_and_alerts_on_a_refused_token(
    fake_clock: FakeClock,
) -> None:
    fake = FakeCloudApi(phone_number_id=PHONE_NUMBER_ID, access_token="EAAGother" + "y" * 40)
    client = cloud_client(section(), transport=httpx.ASGITransport(fake_cloud_app(fake)))
    alerts: list[str] = []
    try:
        with pytest.raises(SendFailed, match="190"):
            document = DocumentMessage(b"{}", "my-data.json", "text/plain")
            await _sender(client, fake_clock, alerts).send(CHAT, document)
    finally:
        await client.aclose()
    [alert] = alerts
    assert "Cloud API error 190" in alert and ACCESS_TOKEN not in alert
    assert fake.sent() == [] and fake.refusals == {190: 1}
