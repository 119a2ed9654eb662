"""A delivery's page in the console is written by the real paths: a customer orders through
Telegram, the fee is paid (the service issues the drop-off code: the customer gets the link,
the receiver proves their phone and gets the code), the rider picks the package up; the page's
history holds every event with its summary and notes and every message the relay sent, and
the code is nowhere in it."""

from __future__ import annotations

import dataclasses
from datetime import UTC

from bot.staff_console.delivery_timeline import (
    DeliveryTimeline,
    EventEntry,
    MessageEntry,
    delivery_timeline,
)
from tests.e2e.conftest import ADA, BOLA, OPERATORS, RECEIVER_PHONE, BotStack
from tests.e2e.test_otp import paid_with_a_code
from tests.support.words import SHIPPED


async def test_an_order_to_its_pickup_with_the_code_fills_the_page_without_the_code(
    stack: BotStack,
) -> None:
    delivery_id, code, token = await paid_with_a_code(stack)
    await stack.command(BOLA, "start", f"otp_{token}")
    (got,) = await stack.contact(BOLA, RECEIVER_PHONE.removeprefix("+"))
    assert got.text is not None and code in got.text  # the receiver did get it
    stack.sandbox.advance_status(delivery_id)
    await stack.deliver_events()

    found = await delivery_timeline(stack.bot.store, SHIPPED, UTC, delivery_id[:8])

    assert isinstance(found, DeliveryTimeline)
    assert found.header.row.status == "picked_up"
    assert found.header.dropoff is not None and found.header.dropoff.on_map
    events = [entry for entry in found.entries if isinstance(entry, EventEntry)]
    types = [event.event_type for event in events]
    assert "delivery.otp_issued" in types
    assert events[-1].status == "picked_up"
    assert all(event.summary for event in events)
    assert any(event.agent_notes for event in events)
    messages = [entry for entry in found.entries if isinstance(entry, MessageEntry)]
    # Each as sent (a chat with a backlog gets several joined in one message).
    sent_to_ada = "\n\n".join(m.text or "" for m in stack.tg.sent_messages(ADA.id))
    to_customer = [m for m in messages if not m.to_operators and not m.withheld]
    assert to_customer and all(m.text in sent_to_ada for m in to_customer)
    sent_to_operators = "\n\n".join(m.text or "" for m in stack.tg.sent_messages(OPERATORS.id))
    to_operators = [m for m in messages if m.to_operators]
    assert to_operators and all(m.text in sent_to_operators for m in to_operators)
    # The link that opens the code was sent to Ada: listed, its text withheld.
    assert [m.message_kind for m in messages if m.withheld] == ["otp_link"]
    assert [entry.at for entry in found.entries] == sorted(entry.at for entry in found.entries)
    shown = repr(found) + repr(dataclasses.astuple(found))
    assert code not in shown and token not in shown
