import json
from collections.abc import Callable

import pytest

from bot.clocks import Clock
from bot.store import InboxCounts, Store


def body(event_id: str) -> bytes:
    return json.dumps({"id": event_id, "type": "delivery.updated"}).encode()


async def add(store: Store, event_id: str, delivery_id: str = "d1", created: int = 100) -> bool:
    return await store.inbox.add(event_id, delivery_id, "delivery.updated", created, body(event_id))


async def test_an_added_event_is_pending_with_its_raw_body(store: Store, clock: Clock) -> None:
    assert await add(store, "evt_1")
    [event] = await store.inbox.next_batch()
    assert (event.event_id, event.delivery_id, event.event_type) == (
        "evt_1",
        "d1",
        "delivery.updated",
    )
    assert (event.created, event.raw_body, event.received_at) == (100, body("evt_1"), clock())
    assert (event.attempts, event.last_error) == (0, None)


async def test_a_redelivered_event_id_is_refused_and_not_queued_twice(store: Store) -> None:
    assert await add(store, "evt_1")
    assert not await add(store, "evt_1")
    assert [e.event_id for e in await store.inbox.next_batch()] == ["evt_1"]
    await store.inbox.mark_processed("evt_1")
    # A redelivery after processing is still recognised: the id outlives the body.
    assert not await add(store, "evt_1")
    assert await store.inbox.next_batch() == []


async def test_next_batch_orders_by_created_then_arrival(store: Store) -> None:
    await add(store, "late_arrival_old_event", "d1", created=100)
    await add(store, "newest", "d1", created=300)
    await add(store, "other_delivery", "d2", created=200)
    await add(store, "same_second_second_arrival", "d1", created=100)
    order = [e.event_id for e in await store.inbox.next_batch()]
    assert order == [
        "late_arrival_old_event",
        "same_second_second_arrival",
        "other_delivery",
        "newest",
    ]


async def test_next_batch_respects_its_limit_and_skips_processed(store: Store) -> None:
    for n in range(5):
        await add(store, f"e{n}", created=100 + n)
    assert [e.event_id for e in await store.inbox.next_batch(limit=2)] == ["e0", "e1"]
    assert await store.inbox.mark_processed("e0")
    assert await store.inbox.mark_processed("e1")
    assert not await store.inbox.mark_processed("e1")
    assert [e.event_id for e in await store.inbox.next_batch(limit=2)] == ["e2", "e3"]
    with pytest.raises(ValueError):
        await store.inbox.next_batch(limit=0)


async def test_processing_drops_the_body_which_may_hold_an_otp(store: Store) -> None:
    await add(store, "evt_1")
    await store.inbox.mark_processed("evt_1")
    row = await store._db.fetch_one("SELECT raw_body, processed_at FROM inbox")
    assert row is not None and row[0] is None and row[1] is not None


async def test_a_failure_is_counted_and_the_event_stays_pending(store: Store) -> None:
    await add(store, "evt_1")
    assert await store.inbox.record_failure("evt_1", "telegram timed out") == 1
    assert await store.inbox.record_failure("evt_1", "x" * 2000) == 2
    [event] = await store.inbox.next_batch()
    assert event.attempts == 2
    assert event.last_error == "x" * 500
    await store.inbox.mark_processed("evt_1")
    assert await store.inbox.record_failure("evt_1", "late") == 0
    assert await store.inbox.record_failure("unknown", "late") == 0


async def test_counts(store: Store) -> None:
    assert await store.inbox.counts() == InboxCounts(pending=0, processed=0)
    for n in range(3):
        await add(store, f"e{n}")
    await store.inbox.mark_processed("e1")
    assert await store.inbox.counts() == InboxCounts(pending=2, processed=1)


async def test_purge_processed_keeps_pending_and_recent_events(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    for n in range(3):
        await add(store, f"e{n}")
    await store.inbox.mark_processed("e0")
    advance(100)
    cutoff = clock()
    await store.inbox.mark_processed("e1")
    assert await store.inbox.purge_processed(before=cutoff) == 1
    assert await store.inbox.counts() == InboxCounts(pending=1, processed=1)


async def test_the_raw_body_stays_out_of_repr(store: Store) -> None:
    await store.inbox.add("evt_otp", "d1", "delivery.otp_issued", 100, b'{"code": "4821"}')
    [event] = await store.inbox.next_batch()
    assert "4821" not in repr(event)
    assert "evt_otp" in repr(event)
