"""``store.relayed``: an event's bookkeeping after its sends, all of it or none of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.chat_ref import ChatRef
from bot.store import SendKey, SentReceipt, Store, ViewChange, relayed
from bot.store.database import Executor

TRACK = "https://track.example/track/d1/abc"
CUSTOMER = SendKey("evt_1", ChatRef("telegram", 10), "update")
OPERATOR = SendKey("evt_1", ChatRef("telegram", -100), "operator")


async def an_event_in_flight(store: Store) -> None:
    """Delivery d1 linked to chat 10, event evt_1 pending, its two messages claimed."""
    await store.deliveries.add("d1", ChatRef("telegram", 10), 20, 100.0, None, None)
    await store.inbox.add("evt_1", "d1", "delivery.status_changed", 200, b"{}")
    assert await store.sent.claim(CUSTOMER)
    assert await store.sent.claim(OPERATOR)


async def test_finish_event_marks_the_sends_moves_the_view_and_processes_the_event(
    store: Store,
) -> None:
    await an_event_in_flight(store)

    finished = await store.relayed.finish_event(
        "evt_1",
        "d1",
        sent=[SentReceipt(CUSTOMER, 41), SentReceipt(OPERATOR, None)],
        view=ViewChange("matched", 200, TRACK),
        tracking_sent=True,
    )

    assert finished
    assert await store.sent.message_id(CUSTOMER) == 41
    assert await store.sent.was_sent(OPERATOR)
    assert not await store.sent.claim(CUSTOMER)  # sent: never claimable again
    link = await store.deliveries.get("d1")
    assert link is not None
    assert (link.status, link.status_created, link.tracking_url) == ("matched", 200, TRACK)
    assert link.tracking_sent
    assert (await store.inbox.counts()).pending == 0


async def test_finish_event_never_moves_the_view_backwards(store: Store) -> None:
    await an_event_in_flight(store)
    await store.deliveries.update_view("d1", "in_transit", 300)

    await store.relayed.finish_event("evt_1", "d1", view=ViewChange("matched", 200))

    link = await store.deliveries.get("d1")
    assert link is not None and (link.status, link.status_created) == ("in_transit", 300)
    assert (await store.inbox.counts()).pending == 0


async def test_finish_event_applies_nothing_when_a_statement_fails(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await an_event_in_flight(store)

    async def failing(db: Executor, event_id: str, now: float) -> bool:
        raise RuntimeError("disk I/O error")

    # The last statement of the transaction fails: everything before it is rolled back.
    monkeypatch.setattr(relayed, "mark_processed", failing)
    with pytest.raises(RuntimeError):
        await store.relayed.finish_event(
            "evt_1",
            "d1",
            sent=[SentReceipt(CUSTOMER, 41)],
            view=ViewChange("matched", 200, TRACK),
            tracking_sent=True,
        )
    monkeypatch.undo()

    assert not await store.sent.was_sent(CUSTOMER)
    link = await store.deliveries.get("d1")
    assert link is not None and (link.status, link.tracking_sent) == ("pending", False)
    assert (await store.inbox.counts()).pending == 1
    assert await store.inbox.mark_processed("evt_1")  # the store is usable afterwards


async def test_finish_event_of_an_event_no_longer_pending_says_so(store: Store) -> None:
    await an_event_in_flight(store)
    await store.inbox.mark_processed("evt_1")

    assert not await store.relayed.finish_event("evt_1", "d1")


async def test_record_sent_marks_several_messages(store: Store) -> None:
    await an_event_in_flight(store)

    await store.relayed.record_sent([SentReceipt(CUSTOMER, 41), SentReceipt(OPERATOR, 42)])
    await store.relayed.record_sent([])

    assert await store.sent.message_id(CUSTOMER) == 41
    assert await store.sent.message_id(OPERATOR) == 42
    assert (await store.inbox.counts()).pending == 1  # only the markers


async def test_unmarked_claims_of_a_closed_store_are_taken_over(db_path: Path) -> None:
    # The crash window: sent, but the commit that marks it never happened.
    async with Store.open(db_path, synchronous="NORMAL") as before:
        await an_event_in_flight(before)
    async with Store.open(db_path, synchronous="NORMAL") as after:
        assert await after.sent.claim(CUSTOMER)  # so the message is sent again, once
        await after.relayed.finish_event("evt_1", "d1", sent=[SentReceipt(CUSTOMER, 7)])
        assert not await after.sent.claim(CUSTOMER)
