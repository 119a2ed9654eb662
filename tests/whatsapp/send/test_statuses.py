"""``StatusFollowUp`` over the fake Cloud API's own status pushes: a news message Meta
accepted and then reported ``failed`` with 131047 goes again as the template, once; other
failures are retried (bounded) or told to the operators, once; every status is counted."""

from __future__ import annotations

import pytest

from bot.metrics.prometheus_metrics import PrometheusMetrics
from bot.whatsapp.statuses import StatusFollowUp
from bot.whatsapp_fake.graph_errors import MESSAGE_UNDELIVERABLE, ErrorCode
from conversations.texts.deliveries_texts import short_ref
from tests.whatsapp_fake.cloud_fixtures import CUSTOMER

from .conftest import CHAT, DELIVERY, Sending

NEWS = f"Delivery {short_ref(DELIVERY)}\nYour parcel was picked up."
SERVICE_UNAVAILABLE = ErrorCode(131016, "Service unavailable", 503)


@pytest.fixture
def metrics() -> PrometheusMetrics:
    return PrometheusMetrics("test")


@pytest.fixture
def follow_up(sending: Sending, metrics: PrometheusMetrics) -> StatusFollowUp:
    async def alert(text: str) -> None:
        sending.alerts.append(text)

    return StatusFollowUp(
        sending.store, sending.news, alert=alert, catalogue=sending.catalogue, metrics=metrics
    )


def counted(metrics: PrometheusMetrics, status: str) -> float:
    value = metrics.registry.get_sample_value(
        "deliverybot_whatsapp_statuses_total", {"status": status}
    )
    return value or 0.0


async def test_news_meta_reports_failed_outside_the_window_goes_again_as_the_template_once(
    sending: Sending, follow_up: StatusFollowUp, metrics: PrometheusMetrics
) -> None:
    await sending.ordered(language="en")
    # The bot's window is open (the customer wrote, as far as it knows), Meta's is not: Meta
    # accepts the message, and pushes "failed" with 131047 afterwards.
    await sending.windows.customer_wrote(CHAT, sending.clock())
    await sending.news.send(CHAT, NEWS)
    assert sending.fake.sent_to(CUSTOMER) == []

    failed = await sending.statuses()
    assert [(s.status, [e.code for e in s.errors]) for s in failed] == [("failed", [131047])]
    for update in failed * 2:  # Meta redelivers a push now and then
        await follow_up.status(update)

    [template] = sending.fake.sent_to(CUSTOMER)
    assert (template.template, template.language) == ("delivery_update", "en")
    assert template.parameters == (short_ref(DELIVERY), "Your parcel was picked up.")
    assert sending.alerts == []
    assert counted(metrics, "failed") == 2

    for update in await sending.statuses():  # the template's own: sent, delivered
        await follow_up.status(update)
    assert (counted(metrics, "sent"), counted(metrics, "delivered")) == (1, 1)
    record = await sending.store.whatsapp_sent.get(template.message_id)
    assert record is not None and record.status == "delivered" and record.body is None


async def test_a_delivered_message_keeps_no_text(
    sending: Sending, follow_up: StatusFollowUp
) -> None:
    await sending.ordered()
    await sending.customer_wrote()
    await sending.news.send(CHAT, NEWS)
    for update in await sending.statuses():
        await follow_up.status(update)

    [seen] = sending.fake.sent_to(CUSTOMER)
    record = await sending.store.whatsapp_sent.get(seen.message_id)
    assert record is not None and (record.status, record.body) == ("delivered", None)


async def test_an_undeliverable_number_is_told_to_the_operators_once_and_not_retried(
    sending: Sending, follow_up: StatusFollowUp
) -> None:
    await sending.ordered()
    await sending.customer_wrote()
    sending.fake.fail_deliveries_to(CUSTOMER, MESSAGE_UNDELIVERABLE, "not on WhatsApp")
    await sending.news.send(CHAT, NEWS)

    for update in (await sending.statuses()) * 2:
        await follow_up.status(update)

    assert len(sending.fake.sent()) == 1
    [alert] = sending.alerts
    assert short_ref(DELIVERY) in alert and "131026" in alert and CUSTOMER in alert
    assert "picked up" not in alert  # the message's words stay between bot and customer


async def test_a_passing_failure_is_sent_again_up_to_three_times_then_told(
    sending: Sending, follow_up: StatusFollowUp
) -> None:
    await sending.ordered()
    await sending.customer_wrote()
    sending.fake.fail_deliveries_to(CUSTOMER, SERVICE_UNAVAILABLE, "try later")
    await sending.news.send(CHAT, NEWS)

    while updates := await sending.statuses():
        for update in updates:
            await follow_up.status(update)

    assert [m.text for m in sending.fake.sent()] == [NEWS] * 3
    assert len(sending.alerts) == 1 and "131016" in sending.alerts[0]
