"""A delivery's payment as the relay saw it (``deliveries.note_paid``, ``finish_event(paid=)``)
and ``customer_counts.unpaid_deliveries``: not cancelled and not seen paid, delivered ones
included; a payment is kept whatever order its events came in, on both backends."""

from __future__ import annotations

from bot.chat_ref import ChatRef, UserRef
from bot.store import Store, ViewChange

ADA, CHIDI = UserRef("telegram", 1001), UserRef("telegram", 1002)


async def _ordered(store: Store, delivery_id: str, user: UserRef = ADA) -> None:
    await store.deliveries.add(delivery_id, ChatRef("telegram", user.id), user.id, 1.0, None, None)


async def test_unpaid_counts_every_delivery_not_cancelled_and_not_seen_paid(store: Store) -> None:
    for delivery_id in ("pending", "paid", "cancelled", "delivered"):
        await _ordered(store, delivery_id)
    await _ordered(store, "chidi", CHIDI)
    assert await store.customer_counts.unpaid_deliveries(ADA) == 4

    assert await store.deliveries.note_paid("paid")
    assert not await store.deliveries.note_paid("paid")  # the first time only
    assert not await store.deliveries.note_paid("unknown")
    await store.deliveries.note_status("cancelled", "cancelled")
    await store.deliveries.note_status("delivered", "delivered")

    assert await store.customer_counts.unpaid_deliveries(ADA) == 2  # pending, delivered
    assert await store.customer_counts.unpaid_deliveries(CHIDI) == 1


async def test_an_event_showing_the_fee_paid_counts_even_when_it_is_older(store: Store) -> None:
    await _ordered(store, "d1")
    await store.inbox.add("evt_new", "d1", "delivery.completed", 300, b"{}")
    await store.inbox.add("evt_old", "d1", "delivery.updated", 200, b"{}")
    await store.relayed.finish_event("evt_new", "d1", view=ViewChange("delivered", 300))

    # The older event's view is refused (a final status is never left), its payment is not.
    await store.relayed.finish_event("evt_old", "d1", view=ViewChange("matched", 200), paid=True)

    link = await store.deliveries.get("d1")
    assert link is not None and link.status == "delivered"
    assert await store.customer_counts.unpaid_deliveries(ADA) == 0
