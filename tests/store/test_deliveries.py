from collections.abc import Callable

import pytest

from bot.chat_ref import ChatRef, UserRef
from bot.clocks import Clock
from bot.store import FINAL_STATUSES, CreatedLink, DeliveryLink, Store

TRACK = "https://track.example/track/d1/abc"


async def add(
    store: Store,
    delivery_id: str,
    user_id: int = 1,
    created_at: float = 100.0,
    status: str = "pending",
) -> None:
    await store.deliveries.add(
        delivery_id,
        chat=ChatRef("telegram", user_id),
        user_id=user_id,
        created_at=created_at,
        receiver_phone="+2348011111111",
        tracking_url=TRACK,
        status=status,
    )


async def test_add_then_get_returns_the_link(store: Store, clock: Clock) -> None:
    assert await store.deliveries.add(
        "d1",
        ChatRef("telegram", 10),
        20,
        created_at=100.0,
        receiver_phone="+2348011111111",
        tracking_url=TRACK,
        status="matched",
    )
    assert await store.deliveries.get("d1") == DeliveryLink(
        delivery_id="d1",
        chat=ChatRef("telegram", 10),
        user_id=20,
        created_at=100.0,
        receiver_phone="+2348011111111",
        tracking_url=TRACK,
        status="matched",
        status_created=None,
        tracking_sent_at=None,
        updated_at=clock(),
    )
    assert await store.deliveries.get("other") is None


async def test_a_delivery_never_changes_owner(store: Store) -> None:
    await add(store, "d1", user_id=1)
    # A create retried with its idempotency key, or a bug: the first link stays.
    assert not await store.deliveries.add("d1", ChatRef("telegram", 2), 2, 100.0, None, None)
    link = await store.deliveries.get("d1")
    assert link is not None
    assert (link.chat.id, link.user_id) == (1, 1)


async def test_owned_by_is_true_only_for_the_customer_who_ordered(store: Store) -> None:
    await add(store, "d1", user_id=1)
    assert await store.deliveries.owned_by("d1", UserRef("telegram", 1))
    assert not await store.deliveries.owned_by("d1", UserRef("telegram", 2))
    assert not await store.deliveries.owned_by("unknown", UserRef("telegram", 1))


async def test_for_user_pages_the_users_own_deliveries_newest_first(store: Store) -> None:
    for n in range(5):
        await add(store, f"mine{n}", user_id=1, created_at=100.0 + n)
    await add(store, "theirs", user_id=2, created_at=999.0)
    first = await store.deliveries.for_user(UserRef("telegram", 1), limit=2)
    second = await store.deliveries.for_user(UserRef("telegram", 1), limit=2, offset=2)
    last = await store.deliveries.for_user(UserRef("telegram", 1), limit=2, offset=4)
    assert [d.delivery_id for d in first + second + last] == [
        "mine4",
        "mine3",
        "mine2",
        "mine1",
        "mine0",
    ]
    assert await store.deliveries.for_user(UserRef("telegram", 1), limit=2, offset=6) == []
    assert await store.deliveries.count_for_user(UserRef("telegram", 1)) == 5
    assert await store.deliveries.count_for_user(UserRef("telegram", 3)) == 0


async def test_for_user_breaks_ties_stably(store: Store) -> None:
    for delivery_id in ("b", "a", "c"):
        await add(store, delivery_id, created_at=100.0)
    assert [d.delivery_id for d in await store.deliveries.for_user(UserRef("telegram", 1), 10)] == [
        "c",
        "b",
        "a",
    ]


@pytest.mark.parametrize(("limit", "offset"), [(0, 0), (-1, 0), (5, -1)])
async def test_for_user_rejects_bad_paging(store: Store, limit: int, offset: int) -> None:
    with pytest.raises(ValueError):
        await store.deliveries.for_user(UserRef("telegram", 1), limit, offset)


async def test_update_view_never_moves_a_delivery_backwards(store: Store) -> None:
    await add(store, "d1")
    assert await store.deliveries.update_view("d1", "matched", event_created=200)
    assert await store.deliveries.update_view("d1", "in_transit", event_created=300)
    # The picked_up event was delayed and arrives after in_transit: ignored.
    assert not await store.deliveries.update_view("d1", "picked_up", event_created=250)
    link = await store.deliveries.get("d1")
    assert link is not None
    assert (link.status, link.status_created) == ("in_transit", 300)


async def test_update_view_reapplies_the_same_event_for_a_relay_that_crashed(
    store: Store,
) -> None:
    await add(store, "d1")
    assert await store.deliveries.update_view("d1", "matched", 200)
    assert await store.deliveries.update_view("d1", "matched", 200)


async def test_update_view_applies_same_second_events_in_processing_order(store: Store) -> None:
    await add(store, "d1")
    assert await store.deliveries.update_view("d1", "matched", 200)
    assert await store.deliveries.update_view("d1", "picked_up", 200)
    link = await store.deliveries.get("d1")
    assert link is not None and link.status == "picked_up"


async def test_update_view_orders_a_reversed_same_second_pair_by_progression(
    store: Store,
) -> None:
    await add(store, "d1")
    # picked_up (from matched) and the assign before it share a second and arrive reversed.
    assert await store.deliveries.update_view("d1", "picked_up", 200, previous_status="matched")
    assert not await store.deliveries.update_view("d1", "matched", 200, previous_status="pending")
    link = await store.deliveries.get("d1")
    assert link is not None and (link.status, link.status_created) == ("picked_up", 200)


async def test_update_view_lets_an_unassign_in_the_same_second_move_back(store: Store) -> None:
    await add(store, "d1")
    assert await store.deliveries.update_view("d1", "matched", 200, previous_status="pending")
    # The one move back the spec allows: it names the status shown as its previous one.
    assert await store.deliveries.update_view("d1", "pending", 200, previous_status="matched")
    link = await store.deliveries.get("d1")
    assert link is not None and link.status == "pending"


@pytest.mark.parametrize("final", ["delivered", "cancelled"])
async def test_update_view_never_leaves_a_final_status(store: Store, final: str) -> None:
    await add(store, "d1")
    assert await store.deliveries.update_view("d1", final, 200, previous_status="in_transit")
    assert await store.deliveries.update_view("d1", final, 200)  # the same event again
    assert not await store.deliveries.update_view("d1", "in_transit", 201)
    assert not await store.deliveries.update_view("d1", "pending", 300, previous_status=final)
    link = await store.deliveries.get("d1")
    assert link is not None and (link.status, link.status_created) == (final, 200)


async def test_update_view_refuses_an_older_status_over_the_create_response(
    store: Store,
) -> None:
    # Auto-dispatch: the create response already said matched; delivery.created says pending.
    await add(store, "d1", status="matched")
    assert not await store.deliveries.update_view("d1", "pending", 200)
    assert await store.deliveries.update_view("d1", "picked_up", 200, previous_status="matched")


async def test_update_view_of_an_unknown_delivery_does_nothing(store: Store) -> None:
    assert not await store.deliveries.update_view("nope", "matched", 200)


async def test_update_view_can_fill_in_the_tracking_link(store: Store) -> None:
    await store.deliveries.add("d1", ChatRef("telegram", 1), 1, 100.0, None, tracking_url=None)
    assert await store.deliveries.update_view("d1", "pending", 150)
    assert await store.deliveries.update_view("d1", "matched", 200, tracking_url=TRACK)
    assert await store.deliveries.update_view("d1", "picked_up", 300)
    link = await store.deliveries.get("d1")
    assert link is not None and link.tracking_url == TRACK


async def test_mark_tracking_sent_is_true_only_the_first_time(
    store: Store, clock: Clock, advance: Callable[[float], None]
) -> None:
    await add(store, "d1")
    assert await store.deliveries.mark_tracking_sent("d1")
    sent_at = clock()
    advance(10)
    assert not await store.deliveries.mark_tracking_sent("d1")
    link = await store.deliveries.get("d1")
    assert link is not None
    assert link.tracking_sent and link.tracking_sent_at == sent_at
    assert not await store.deliveries.mark_tracking_sent("unknown")


async def test_list_open_leaves_out_delivered_and_cancelled(store: Store) -> None:
    for n, status in enumerate(["pending", "delivered", "in_transit", "cancelled", "matched"]):
        await add(store, f"d{n}", created_at=100.0 + n)
        await store.deliveries.update_view(f"d{n}", status, 200)
    open_links = await store.deliveries.list_open()
    assert [d.delivery_id for d in open_links] == ["d0", "d2", "d4"]
    assert all(d.is_open for d in open_links)
    assert {"delivered", "cancelled"} == FINAL_STATUSES


async def test_last_order_for_is_the_users_newest_saved_order(store: Store) -> None:
    assert await store.deliveries.last_order_for(UserRef("telegram", 1)) is None
    await store.deliveries.add(
        "d1", ChatRef("telegram", 1), 1, 100.0, None, None, saved_order='{"n": 1}'
    )
    await store.deliveries.add(
        "d2", ChatRef("telegram", 1), 1, 300.0, None, None, saved_order='{"n": 2}'
    )
    await store.deliveries.add(
        "d3", ChatRef("telegram", 1), 1, 200.0, None, None, saved_order='{"n": 3}'
    )
    await store.deliveries.add(
        "other", ChatRef("telegram", 2), 2, 400.0, None, None, saved_order='{"n": 4}'
    )
    assert await store.deliveries.last_order_for(UserRef("telegram", 1)) == '{"n": 2}'
    # A newer delivery without a saved order (linked by an older bot) is passed over.
    await add(store, "d4", user_id=1, created_at=500.0)
    assert await store.deliveries.last_order_for(UserRef("telegram", 1)) == '{"n": 2}'
    assert await store.deliveries.last_order_for(UserRef("telegram", 2)) == '{"n": 4}'
    assert await store.deliveries.last_order_for(UserRef("telegram", 3)) is None


async def test_of_two_orders_in_the_same_second_the_last_linked_is_the_last(
    store: Store,
) -> None:
    await store.deliveries.add(
        "b", ChatRef("telegram", 1), 1, 100.0, None, None, saved_order='{"n": 1}'
    )
    await store.deliveries.add(
        "a", ChatRef("telegram", 1), 1, 100.0, None, None, saved_order='{"n": 2}'
    )
    assert await store.deliveries.last_order_for(UserRef("telegram", 1)) == '{"n": 2}'


async def test_a_retried_add_keeps_the_first_saved_order(store: Store) -> None:
    await store.deliveries.add(
        "d1", ChatRef("telegram", 1), 1, 100.0, None, None, saved_order='{"first": true}'
    )
    await store.deliveries.add(
        "d1", ChatRef("telegram", 1), 1, 100.0, None, None, saved_order='{"second": true}'
    )
    assert await store.deliveries.last_order_for(UserRef("telegram", 1)) == '{"first": true}'


async def test_the_language_the_customer_ordered_in_is_kept_with_the_link(store: Store) -> None:
    await store.deliveries.add(
        "fr-order", ChatRef("telegram", 1), 1, 100.0, None, TRACK, language="fr"
    )
    await add(store, "no-language", user_id=1, created_at=200.0)
    french = await store.deliveries.get("fr-order")
    assert french is not None and french.language == "fr"
    # Every read the relay and the desk make gives it, with no extra query.
    assert [
        link.language for link in await store.deliveries.for_user(UserRef("telegram", 1), 10)
    ] == [None, "fr"]
    assert [link.language for link in await store.deliveries.list_open()] == ["fr", None]


async def test_a_settled_lost_create_links_its_delivery_in_the_customers_language(
    store: Store,
) -> None:
    await store.unconfirmed.add(
        "key-1",
        ChatRef("telegram", 5),
        6,
        request="{}",
        saved_order="{}",
        fingerprint="f",
        created_at=100.0,
        next_attempt_at=100.0,
        language="fr",
    )
    entry = await store.unconfirmed.get("key-1")
    assert entry is not None and entry.language == "fr"
    created = CreatedLink("d-lost", 100.0, None, None, "pending")
    assert await store.unconfirmed.settle(entry, "Bonne nouvelle", created)
    link = await store.deliveries.get("d-lost")
    assert link is not None and (link.chat.id, link.language) == (5, "fr")
