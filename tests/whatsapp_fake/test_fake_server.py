"""The standalone fake's own parts: the customers' door, the command line, its secrets."""

from __future__ import annotations

import argparse

import httpx
import pytest

from bot.whatsapp_fake.approved_templates import ApprovedTemplate
from bot.whatsapp_fake.fake_server import main, server_app, template_argument

from .cloud_fixtures import ACCESS_TOKEN, CUSTOMER, PHONE_NUMBER_ID, Cloud, RecordingWebhook


async def test_a_customer_s_message_posted_to_the_door_reaches_the_webhook(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    # The app's lifespan owns this client; ASGITransport runs no lifespan, and the fixture's
    # webhook pushes instead.
    async with httpx.AsyncClient() as lifespan_client:
        app = server_app(cloud.fake, lifespan_client)
    headers = {"Authorization": f"Bearer {ACCESS_TOKEN}"}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app), base_url="http://fake"
    ) as client:
        pushed = await client.post(
            f"/fake/customers/{CUSTOMER}/messages",
            json={"name": "Ada", "message": {"type": "text", "text": {"body": "hi"}}},
        )
        await client.post(
            f"/v21.0/{PHONE_NUMBER_ID}/messages",
            headers=headers,
            json={
                "messaging_product": "whatsapp",
                "to": CUSTOMER,
                "type": "text",
                "text": {"body": "Hello Ada"},
            },
        )
        inbox = await client.get(f"/fake/customers/{CUSTOMER}/messages")
        refused = await client.post(f"/fake/customers/{CUSTOMER}/messages", content=b"[")

    assert pushed.json()["delivered"] is True
    assert webhook.pushed[0].value()["messages"][0]["text"] == {"body": "hi"}
    assert [(m["kind"], m["text"]) for m in inbox.json()] == [("text", "Hello Ada")]
    assert refused.status_code == 400


def test_a_template_is_named_with_its_language_and_parameter_count() -> None:
    assert template_argument("delivery_update:en:2") == ApprovedTemplate("delivery_update", "en", 2)
    with pytest.raises(argparse.ArgumentTypeError):
        template_argument("delivery_update:en")


def test_the_fake_does_not_start_without_its_secrets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("FAKE_WA_TOKEN", raising=False)
    arguments = ["--webhook", "http://127.0.0.1:1/whatsapp", "--phone-number-id", "1234567"]
    arguments += ["--access-token-env", "FAKE_WA_TOKEN", "--app-secret-env", "FAKE_WA_SECRET"]

    assert main(arguments) == 2
    assert "FAKE_WA_TOKEN is not set" in capsys.readouterr().err
