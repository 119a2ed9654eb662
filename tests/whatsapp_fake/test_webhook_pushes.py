"""Pushes to the bot's webhook: Meta's envelope, signed with the app secret, retried on an
answer other than 200 (bounded, slept on the fake clock), and statuses pushed as they come."""

from __future__ import annotations

import hashlib
import hmac

import httpx

from bot.whatsapp_fake import customer_messages
from bot.whatsapp_fake.webhook_pusher import RETRY_DELAYS, WebhookPusher, signature

from .cloud_fixtures import APP_SECRET, CUSTOMER, WEBHOOK_URL, Cloud, RecordingWebhook


async def test_a_customer_s_message_is_pushed_in_meta_s_envelope_signed(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    message_id, delivery = await cloud.fake.push_customer_message(
        CUSTOMER, "Ada", customer_messages.text("hello")
    )

    assert delivery.delivered and delivery.statuses == (200,)
    (push,) = webhook.pushed
    body = push.json()
    assert body["object"] == "whatsapp_business_account"
    value = push.value()
    assert value["metadata"]["phone_number_id"] == cloud.fake.phone_number_id
    assert value["contacts"] == [{"profile": {"name": "Ada"}, "wa_id": CUSTOMER}]
    (message,) = value["messages"]
    assert message == {
        "from": CUSTOMER,
        "id": message_id,
        "timestamp": str(int(cloud.clock())),
        "type": "text",
        "text": {"body": "hello"},
    }
    digest = hmac.new(APP_SECRET.encode(), push.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(push.signature, f"sha256={digest}")
    assert push.signature != signature(push.body, "f" * 32)


async def test_a_push_not_answered_200_is_retried_after_growing_delays(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    webhook.answers.extend([500, 503])

    _, delivery = await cloud.fake.push_customer_message(
        CUSTOMER, "Ada", customer_messages.text("hello")
    )

    assert delivery.statuses == (500, 503, 200)
    assert cloud.clock.slept == list(RETRY_DELAYS[:2])
    assert len({push.body for push in webhook.pushed}) == 1  # the same bytes each time


async def test_a_push_gives_up_after_its_retries(cloud: Cloud, webhook: RecordingWebhook) -> None:
    webhook.answers.extend([500] * 10)

    _, delivery = await cloud.fake.push_customer_message(
        CUSTOMER, "Ada", customer_messages.text("hello")
    )

    assert not delivery.delivered
    assert len(delivery.statuses) == 1 + len(RETRY_DELAYS)


async def test_an_unreachable_webhook_is_an_undelivered_push(cloud: Cloud) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as client:
        pusher = WebhookPusher(client, WEBHOOK_URL, APP_SECRET, sleep=cloud.clock.sleep)
        delivery = await pusher.push({"object": "whatsapp_business_account", "entry": []})

    assert delivery.statuses == (None,) * (1 + len(RETRY_DELAYS))


async def test_statuses_push_in_the_background_and_reads_follow(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    async with cloud.fake.pushing_statuses():
        sent = await cloud.client.wa.send_message(to=CUSTOMER, text="Your rider is here")
        await cloud.fake.statuses_settled()
        await cloud.fake.read_by(CUSTOMER)
        await cloud.fake.statuses_settled()

    assert webhook.statuses() == [(sent.id, "sent"), (sent.id, "delivered"), (sent.id, "read")]
    assert "pricing" not in webhook.pushed[-1].value()["statuses"][0]


async def test_a_redelivery_pushes_the_same_message_again(
    cloud: Cloud, webhook: RecordingWebhook
) -> None:
    message_id, _ = await cloud.fake.push_customer_message(
        CUSTOMER, "Ada", customer_messages.text("hello")
    )

    await cloud.fake.redeliver(message_id)

    first, again = webhook.pushed
    assert first.body == again.body
    assert again.value()["messages"][0]["id"] == message_id
