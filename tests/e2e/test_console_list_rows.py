"""What the console's deliveries list reads is written by the real paths: a customer orders
through Telegram (the turn's create writes the fee, the sender and their phone with the link),
the service's webhooks move the delivery (the relay writes its status, rider and payment in the
same commit), and the list shows each as it stands, searchable by reference and by phone."""

from __future__ import annotations

from datetime import UTC

from bot.staff_console.deliveries_page import DeliveryRow, deliveries_page
from bot.staff_console.delivery_filters import DeliveryFilters
from tests.e2e.conftest import ADA, ADA_PHONE, BotStack
from tests.support.words import SHIPPED

ALL = DeliveryFilters(zone=UTC)


async def _only_row(stack: BotStack, filters: DeliveryFilters = ALL) -> DeliveryRow:
    page = await deliveries_page(stack.bot.store, SHIPPED, filters)
    assert len(page.rows) == 1, page.rows
    return page.rows[0]


async def test_an_order_and_its_news_fill_the_lists_row(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)

    row = await _only_row(stack)
    assert row.delivery_id == delivery_id
    assert row.customer == "Ada Obi"  # the sender's name the order gave (her Telegram name)
    assert row.priced and row.fee == SHIPPED.money(1500, "NGN")
    assert not row.paid

    stack.sandbox.mark_paid(delivery_id)
    stack.sandbox.advance_status(delivery_id)
    await stack.deliver_events()

    row = await _only_row(stack)
    assert row.paid
    assert row.status == "picked_up"
    assert row.assigned and row.rider == "Tunde Bakare"
    by_ref = DeliveryFilters(zone=UTC, ref_prefix=delivery_id[:6])
    assert (await _only_row(stack, by_ref)).delivery_id == delivery_id
    by_phone = DeliveryFilters(zone=UTC, phone=ADA_PHONE)
    assert (await _only_row(stack, by_phone)).delivery_id == delivery_id
