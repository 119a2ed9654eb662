"""``store.delivery_changes``: each write the console's list shows gives the delivery a new
change number, on both backends; writes the list does not show give none."""

from __future__ import annotations

from bot.chat_ref import ChatRef
from bot.store import ListedDetails, Store

CHAT = ChatRef("telegram", 42)
OTHER = ChatRef("telegram", 43)
D1 = "d1000000-0000-4000-8000-000000000001"
D2 = "d2000000-0000-4000-8000-000000000002"
D3 = "d3000000-0000-4000-8000-000000000003"


async def _add(store: Store, delivery_id: str, chat: ChatRef = CHAT) -> None:
    await store.deliveries.add(delivery_id, chat, chat.id, 1_700_000_000.0, None, None)


async def _changed(store: Store, after: int) -> list[str]:
    return [change.delivery_id for change in await store.delivery_changes.since(after)]


async def test_a_create_and_each_shown_write_give_a_new_number(store: Store) -> None:
    assert await store.delivery_changes.latest() == 0
    await _add(store, D1)
    await _add(store, D2)
    assert await _changed(store, 0) == [D1, D2]
    mark = await store.delivery_changes.latest()
    for write in (
        store.deliveries.update_view(D1, "assigned", 1_700_000_100),
        store.deliveries.note_status(D1, "cancelled"),
        store.deliveries.note_paid(D1),
    ):
        assert await write
        assert await _changed(store, mark) == [D1]
        mark = await store.delivery_changes.latest()
    details = ListedDetails(fee=2600.0, currency="NGN", rider_id="r1", rider_name="Tunde")
    await store.deliveries.update_view(D2, "assigned", 1_700_000_200, details=details)
    assert await _changed(store, mark) == [D2]


async def test_writes_the_list_does_not_show_give_none(store: Store) -> None:
    await _add(store, D1)
    mark = await store.delivery_changes.latest()
    await store.deliveries.note_told(D1, frozenset({"fee:2600"}))
    await store.deliveries.mark_tracking_sent(D1)
    await _add(store, D1)  # a create retried: the first link is kept, nothing changed
    assert await store.delivery_changes.latest() == mark


async def test_a_hand_off_and_a_block_change_every_delivery_of_the_chat(store: Store) -> None:
    await _add(store, D1)
    await _add(store, D2)
    await _add(store, D3, OTHER)
    mark = await store.delivery_changes.latest()
    opened = await store.handoffs.open(
        CHAT, CHAT.user(42), name="Ada", flow=None, step=None, language=None
    )
    assert sorted(await _changed(store, mark)) == [D1, D2]
    mark = await store.delivery_changes.latest()
    await store.handoffs.open(CHAT, CHAT.user(42), name="Ada", flow=None, step=None, language=None)
    assert await _changed(store, mark) == []  # found open already: nothing changed
    await store.handoffs.close(opened.handoff.ref)
    assert sorted(await _changed(store, mark)) == [D1, D2]
    mark = await store.delivery_changes.latest()
    await store.blocked.mark(OTHER)
    assert await _changed(store, mark) == [D3]
    mark = await store.delivery_changes.latest()
    assert await store.blocked.clear(OTHER)
    assert await _changed(store, mark) == [D3]


async def test_since_reads_at_most_the_limit_in_number_order(store: Store) -> None:
    for delivery_id in (D1, D2, D3):
        await _add(store, delivery_id)
    first = await store.delivery_changes.since(0, limit=2)
    assert [change.delivery_id for change in first] == [D1, D2]
    assert await _changed(store, first[-1].seq) == [D3]
