"""The customer-service window and the approved templates: outside the window Meta accepts a
message other than a template, then pushes ``failed`` with 131047; a template goes only when
approved, with its parameters."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from pywa_async.errors import TemplateNotExists, TemplateParamCountMismatch
from pywa_async.types.templates import BodyText, TemplateLanguage

from bot.whatsapp_fake.cloud_api import CUSTOMER_SERVICE_WINDOW
from bot.whatsapp_fake.graph_errors import MESSAGE_UNDELIVERABLE

from .cloud_fixtures import APP_SECRET, CUSTOMER, Cloud, RecordingWebhook

STRANGER = "2348055555555"


async def _news(cloud: Cloud, *params: str, name: str = "delivery_update") -> str:
    sent = await cloud.client.wa.send_template(
        to=CUSTOMER,
        name=name,
        language=TemplateLanguage.ENGLISH,
        params=[BodyText.params(*params)],  # type: ignore[arg-type]
    )
    return sent.id


async def test_inside_the_window_a_message_is_sent_then_delivered(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    sent = await cloud.client.wa.send_message(to=CUSTOMER, text="Your rider is here")

    await cloud.fake.flush_statuses()

    assert webhook.statuses() == [(sent.id, "sent"), (sent.id, "delivered")]
    first = webhook.pushed[0]
    expected = hmac.new(APP_SECRET.encode(), first.body, hashlib.sha256).hexdigest()
    assert first.signature == f"sha256={expected}"
    status = first.value()["statuses"][0]
    assert status["recipient_id"] == CUSTOMER
    assert status["pricing"]["category"] == "service"
    assert first.json()["entry"][0]["id"] == cloud.fake.number.waba_id


async def test_past_24_hours_a_text_is_accepted_then_fails_with_131047(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    cloud.clock.advance(CUSTOMER_SERVICE_WINDOW + 1)

    sent = await cloud.client.wa.send_message(to=CUSTOMER, text="Your rider is here")
    await cloud.fake.flush_statuses()

    assert sent.id.startswith("wamid.")  # Meta's answer accepts it
    assert cloud.fake.sent_to(CUSTOMER) == []
    assert [m.message_id for m in cloud.fake.undelivered()] == [sent.id]
    (push,) = webhook.pushed
    (status,) = push.value()["statuses"]
    assert (status["id"], status["status"]) == (sent.id, "failed")
    (error,) = status["errors"]
    assert (error["code"], error["title"]) == (131047, "Re-engagement message")
    assert error["error_data"]["details"]
    assert cloud.fake.refusals.total() == 0


async def test_a_customer_who_never_wrote_is_outside_the_window(cloud: Cloud) -> None:
    await cloud.client.wa.send_message(to=STRANGER, text="hello")

    assert cloud.fake.sent_to(STRANGER) == []
    assert [s["status"] for s in cloud.fake.statuses.pending()] == ["failed"]


async def test_a_template_reaches_a_customer_outside_the_window(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    cloud.clock.advance(CUSTOMER_SERVICE_WINDOW + 1)

    message_id = await _news(cloud, "D-1042", "Delivered")
    await cloud.fake.flush_statuses()

    (seen,) = cloud.fake.sent_to(CUSTOMER)
    assert (seen.message_id, seen.parameters) == (message_id, ("D-1042", "Delivered"))
    assert webhook.statuses() == [(message_id, "sent"), (message_id, "delivered")]
    assert webhook.pushed[0].value()["statuses"][0]["pricing"]["category"] == "utility"


async def test_a_message_the_window_reopens_for_is_delivered(cloud: Cloud) -> None:
    cloud.clock.advance(CUSTOMER_SERVICE_WINDOW + 1)
    cloud.fake.customer_wrote(CUSTOMER, cloud.clock())

    await cloud.client.wa.send_message(to=CUSTOMER, text="Welcome back")

    assert [m.text for m in cloud.fake.sent_to(CUSTOMER)] == ["Welcome back"]


async def test_a_template_not_approved_is_refused_with_132001(cloud: Cloud) -> None:
    with pytest.raises(TemplateNotExists) as refused:
        await _news(cloud, "D-1042", "Delivered", name="hello_world")

    assert (refused.value.code, refused.value.status_code) == (132001, 404)
    assert cloud.fake.refusals == {132001: 1}


async def test_a_template_in_a_language_not_approved_is_refused_with_132001(cloud: Cloud) -> None:
    with pytest.raises(TemplateNotExists):
        await cloud.client.wa.send_template(
            to=CUSTOMER,
            name="support_reply",
            language=TemplateLanguage.FRENCH,
            params=[BodyText.params("Bonjour")],  # type: ignore[arg-type]
        )


async def test_a_template_with_the_wrong_parameter_count_is_refused_with_132000(
    cloud: Cloud,
) -> None:
    with pytest.raises(TemplateParamCountMismatch) as refused:
        await _news(cloud, "D-1042")

    assert (refused.value.code, refused.value.status_code) == (132000, 400)
    assert cloud.fake.sent() == []


async def test_a_number_set_to_fail_gets_its_message_accepted_then_failed(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    cloud.fake.fail_deliveries_to(CUSTOMER, MESSAGE_UNDELIVERABLE, "The number is not on WhatsApp.")

    sent = await cloud.client.wa.send_message(to=CUSTOMER, text="hello")
    await cloud.fake.flush_statuses()

    (status,) = webhook.pushed[0].value()["statuses"]
    assert (status["id"], status["status"], status["errors"][0]["code"]) == (
        sent.id,
        "failed",
        131026,
    )
