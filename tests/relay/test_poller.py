"""Polling mode: status changes read from the API become inbox events the relay sends."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.jobs import Scheduler
from bot.partner.client import PartnerClient
from bot.partner.request_limiter import RequestLimiter
from bot.relay import StatusPoller
from bot.store import Store

from .support import CUSTOMER_CHAT, OPERATOR, OTHER_CHAT, OTHER_USER, RecordingChannel
from .world import MakeWorld


class Wakes:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


async def test_a_status_change_seen_by_polling_reaches_the_chats_once(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(pay_after_delivery)  # its webhooks are never delivered
    delivery = await world.order()
    await world.store.deliveries.mark_tracking_sent(delivery.id)  # shown when it was created
    wakes = Wakes()
    poller = StatusPoller(world.store, world.client, on_event=wakes, clock=world.clock)
    world.clock.advance(30)
    world.sandbox.advance_status(delivery.id)  # picked_up

    assert await poller.poll_once() == 1
    assert await poller.poll_once() == 0  # the same change again: nothing new
    assert wakes.count == 1
    assert await world.relay.process_pending() == 1
    assert await poller.poll_once() == 0  # the chat's view caught up

    short = delivery.id.split("-")[0].upper()
    assert channel.texts(CUSTOMER_CHAT) == [
        f"Delivery {short}\nThe rider has picked up your package."
    ]
    assert channel.texts(OPERATOR) == [f"Delivery {short} is now: picked up (seen by polling)."]
    assert await world.store.inbox.next_batch() == []
    view = await world.store.deliveries.get(delivery.id)
    assert view is not None and view.status == "picked_up"
    assert view.status_created == int(world.clock())


async def test_the_synthetic_event_names_the_change_and_its_time(make_world: MakeWorld) -> None:
    world = await make_world()
    delivery = await world.order()
    world.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    world.clock.advance(42)
    world.sandbox.advance_status(delivery.id)
    poller = StatusPoller(world.store, world.client, clock=world.clock)

    await poller.poll_once()

    [stored] = await world.store.inbox.next_batch()
    updated_at = world.sandbox.delivery(delivery.id)["updated_at"]
    body = json.loads(stored.raw_body)
    assert stored.event_id == body["id"]
    assert stored.event_id.startswith(f"poll:{delivery.id}:picked_up:")
    assert stored.event_type == "delivery.status_changed"
    assert stored.created == int(world.clock())
    assert body["data"]["previous_status"] == "matched"
    assert body["data"]["object"]["updated_at"].replace("Z", "+00:00")[:19] == updated_at[:19]
    assert (body["customer_message_hint"], body["agent_notes"]) == (None, [])


async def test_delivered_is_a_completed_event_and_ends_the_polling(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world()
    delivery = await world.order()
    world.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    for _ in range(3):
        world.sandbox.advance_status(delivery.id)
    poller = StatusPoller(world.store, world.client, clock=world.clock)

    await poller.poll_once()
    [stored] = await world.store.inbox.next_batch()
    await world.relay.process_pending()
    reads = world.sandbox.call_counts().get("get_delivery", 0)
    await poller.poll_once()

    assert stored.event_type == "delivery.completed"
    assert world.sandbox.call_counts().get("get_delivery", 0) == reads  # no longer open
    assert "Your package has been delivered." in channel.texts(CUSTOMER_CHAT)[-1]


def pay_after_delivery(data: dict[str, Any]) -> None:
    """The rider sets off unpaid, so the pickup is the only news the poller has to find."""
    data["capabilities"]["paymentTiming"] = "after_delivery"


def manual_dispatch(data: dict[str, Any]) -> None:
    data["capabilities"]["publicRequest"]["autoDispatch"] = False


async def test_a_round_reads_at_most_its_budget_and_the_next_round_goes_on(
    make_world: MakeWorld,
) -> None:
    world = await make_world(manual_dispatch)
    ids = [(await world.order(chat_id=OTHER_CHAT, user_id=OTHER_USER)).id for _ in range(3)]
    poller = StatusPoller(world.store, world.client, max_per_round=2, clock=world.clock)
    for delivery_id in ids:
        await world.client.assign_rider(delivery_id, "rdr_tunde")
    assigns = world.sandbox.call_counts().get("get_delivery", 0)

    assert await poller.poll_once() == 2
    world.clock.advance(60)
    assert await poller.poll_once() == 1  # the one left out last time goes first

    # Two reads a round; the second round also re-read one already seen (nothing new stored).
    assert world.sandbox.call_counts()["get_delivery"] - assigns == 4
    assert {e.delivery_id for e in await world.store.inbox.next_batch()} == set(ids)


@pytest.mark.parametrize(
    ("per_minute", "interval", "expected"),
    [(180, 60, 90), (180, 10, 15), (60, 120, 30), (None, 60, 30), (1, 10, 1)],
)
async def test_the_round_budget_is_a_share_of_the_key_limit(
    store: Store, per_minute: int | None, interval: float, expected: int
) -> None:
    limiter = RequestLimiter(per_minute)
    async with PartnerClient(
        "https://partner.invalid/api/v1", "sk_live_" + "a" * 24, limiter=limiter
    ) as client:
        poller = StatusPoller(store, client, interval_seconds=interval)

        assert poller.round_budget() == expected


async def test_a_busy_key_ends_the_round_early(make_world: MakeWorld) -> None:
    world = await make_world()
    await world.order()
    world.client.limiter.set_rate(1)  # a one-request-per-minute key
    await world.client.limiter.acquire()  # the customer chats used the whole minute
    poller = StatusPoller(world.store, world.client, max_per_round=5, clock=world.clock)
    reads = world.sandbox.call_counts().get("get_delivery", 0)

    assert await poller.poll_once() == 0

    assert world.sandbox.call_counts().get("get_delivery", 0) == reads


async def test_api_failures_do_not_end_polling(make_world: MakeWorld) -> None:
    world = await make_world(manual_dispatch)
    first = await world.order()
    second = await world.order()
    await world.client.assign_rider(first.id, "rdr_tunde")
    await world.client.assign_rider(second.id, "rdr_tunde")
    world.sandbox.inject_fault(
        "get_delivery", "status", count=1, status=400, code="validation_error"
    )
    poller = StatusPoller(world.store, world.client, clock=world.clock)

    assert await poller.poll_once() == 1  # the first read was refused; the second went on
    world.clock.advance(60)
    assert await poller.poll_once() == 1


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="interval"):
        StatusPoller(None, None, interval_seconds=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="budget_fraction"):
        StatusPoller(None, None, budget_fraction=1.5)  # type: ignore[arg-type]


async def test_a_round_leaves_the_customers_share_of_the_key_free(make_world: MakeWorld) -> None:
    world = await make_world(manual_dispatch)
    for _ in range(3):
        await world.order(chat_id=OTHER_CHAT, user_id=OTHER_USER)
    used = sum(world.sandbox.call_counts().values())  # all within this minute
    # A key with room for 4 more: half the limit is the customers' share, so 2 reads go.
    world.client.limiter.set_rate(2 * used + 4)
    poller = StatusPoller(world.store, world.client, max_per_round=5, clock=world.clock)
    reads = world.sandbox.call_counts().get("get_delivery", 0)

    await poller.poll_once()

    assert world.sandbox.call_counts().get("get_delivery", 0) - reads == 2
    assert world.client.limiter.wait_time() == 0.0  # a customer now goes at once


async def test_an_instance_that_does_not_lead_reads_nothing(make_world: MakeWorld) -> None:
    world = await make_world(manual_dispatch)
    await world.order(chat_id=OTHER_CHAT, user_id=OTHER_USER)
    leading = False

    class Leadership:
        async def leads(self) -> bool:
            return leading

    poller = StatusPoller(world.store, world.client, interval_seconds=30, clock=world.clock)
    scheduler = Scheduler(leadership=Leadership())  # as bot.runtime.workers runs it
    reads = world.sandbox.call_counts().get("get_delivery", 0)
    assert await scheduler.turn(poller) == 30  # asks again after an interval
    assert world.sandbox.call_counts().get("get_delivery", 0) == reads  # another polls for all
    leading = True
    assert await scheduler.turn(poller) == 30
    assert world.sandbox.call_counts().get("get_delivery", 0) == reads + 1
