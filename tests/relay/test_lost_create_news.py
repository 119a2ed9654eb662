"""A create whose answer was lost, settled by the follow-up with a delivery a rider already has:
the follow-up's notice names the rider, and the relay's "assigned" event does not name them
again, whether the event came in before the settle (held for the open create) or after it."""

from __future__ import annotations

import pytest

from bot.ordering.settled_links import settled_link
from bot.partner.models import Delivery
from bot.relay import Relay
from bot.relay.inbox_worker import OPEN_CREATE_RECHECK_SECONDS
from bot.store import Store
from conversations.texts import dialogue
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

from .support import CUSTOMER_CHAT, OPERATOR, START, RecordingChannel, put
from .test_relay import ASSIGNED, open_create, ordered_by_the_bot


async def settle_found(store: Store, found: Delivery) -> str:
    """What the follow-up does with the delivery its read-back found: settle the row with the
    link and the notice in one commit; the notice."""
    (entry,) = await store.unconfirmed.due(START + 2)
    notice = dialogue.went_through(SHIPPED, found)
    assert await store.unconfirmed.settle(entry, notice, settled_link(found, sent_at=START))
    return notice


@pytest.mark.parametrize("event_first", [True, False], ids=["event-first", "settle-first"])
async def test_the_rider_named_by_the_follow_up_is_not_named_again_by_the_event(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock, event_first: bool
) -> None:
    await open_create(store)
    assigned = ordered_by_the_bot(ASSIGNED)
    found = Delivery.model_validate(assigned["data"]["object"])
    if event_first:
        await put(store, assigned)
        assert await relay.process_pending() == 0  # held for the open create
    notice = await settle_found(store, found)
    if not event_first:
        await put(store, assigned)
    clock.advance(OPEN_CREATE_RECHECK_SECONDS)
    assert await relay.process_pending() == 1

    assert "Tunde Bakare has already been assigned" in notice
    assert not any("Tunde" in text for text in channel.texts(CUSTOMER_CHAT))
    assert len(channel.texts(OPERATOR)) == 1  # the operators still hear of the assignment
