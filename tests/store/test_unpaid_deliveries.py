"""A delivery's payment as the relay saw it (``deliveries.note_paid``, ``finish_event(paid=)``)
and ``customer_counts.unpaid_deliveries``: not cancelled and not seen paid, delivered ones
included; a payment is kept whatever order its events came in, on both backends; the limit
at its edge on two instances sharing one database."""

from __future__ import annotations

from pathlib import Path

from bot.chat_ref import ChatRef, UserRef
from bot.config import LimitsConfig
from bot.safety.customer_limits import CustomerLimits, LimitHit
from bot.store import Store, ViewChange
from bot.store.pg_local_server import LocalPostgres
from conversations.texts.business_texts import BusinessTexts
from tests.store.pg_instances import pg_instances
from tests.support.words import SHIPPED_TEXTS

TEXTS = BusinessTexts(SHIPPED_TEXTS)

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


async def test_two_instances_hold_the_unpaid_limit_at_its_edge(
    postgres_server: LocalPostgres, tmp_path: Path
) -> None:
    limits = LimitsConfig(unpaid_deliveries=2, open_deliveries=0)
    async with pg_instances(postgres_server, tmp_path / "media") as (a, b):
        await _ordered(a, "d-1")
        assert await CustomerLimits(b, limits, texts=TEXTS).before_create(ADA) is None  # one under
        await _ordered(b, "d-2")
        refused = LimitHit("unpaid_deliveries", 2, None)
        assert await CustomerLimits(a, limits, texts=TEXTS).before_create(ADA) == refused
        assert await CustomerLimits(b, limits, texts=TEXTS).before_create(ADA) == refused

        assert await b.deliveries.note_paid("d-1")  # the relay on b saw it paid

        assert await CustomerLimits(a, limits, texts=TEXTS).before_create(ADA) is None
