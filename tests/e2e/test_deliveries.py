"""A customer's own deliveries end to end: another customer's delivery is answered exactly like
an id that does not exist, and nothing is read or changed at the service for them."""

from __future__ import annotations

import uuid

from bot.telegram.delivery_commands import TELEGRAM_WORDS
from conversations.texts.deliveries_texts import short_ref
from conversations.texts.desk_texts import none_yet, unknown_delivery
from tests.e2e.conftest import ADA, CHIDI, BotStack
from tests.support.words import SHIPPED


async def test_a_customer_asking_for_another_customers_delivery(stack: BotStack) -> None:
    delivery_id = await stack.order(ADA)
    await stack.deliver_events()
    calls = stack.sandbox.call_counts()

    unknown = str(uuid.uuid4())
    for typed in (delivery_id, short_ref(delivery_id), unknown):
        (reply,) = await stack.command(CHIDI, "status", typed)
        assert reply.text == unknown_delivery(SHIPPED, typed, TELEGRAM_WORDS)
        (refused,) = await stack.command(CHIDI, "cancel_delivery", f"{typed} not mine at all")
        assert refused.text == unknown_delivery(SHIPPED, typed, TELEGRAM_WORDS)
    (listed,) = await stack.command(CHIDI, "deliveries")
    assert listed.text == none_yet(SHIPPED, TELEGRAM_WORDS)
    assert stack.sandbox.call_counts() == calls
    assert stack.sandbox.delivery(delivery_id)["status"] == "matched"

    # Ada, who ordered it, sees it and may cancel it.
    (mine,) = await stack.command(ADA, "status", short_ref(delivery_id))
    assert mine.text is not None and mine.text.startswith(f"Delivery {short_ref(delivery_id)}\n")
    (hers,) = await stack.command(ADA, "deliveries")
    assert hers.text is not None and short_ref(delivery_id) in hers.text
    (cancelled,) = await stack.command(ADA, "cancel_delivery", f"{delivery_id} ordered twice")
    assert cancelled.text == f"Delivery {short_ref(delivery_id)} is cancelled."
    assert stack.sandbox.delivery(delivery_id)["status"] == "cancelled"
