"""The relay's loop: what chats get per event, order per delivery, waiting for links, retries."""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest

from bot.chat_ref import ChatRef, UserRef
from bot.jobs import Scheduler
from bot.partner.models import CreateDeliveryRequest
from bot.relay import Relay, RelayTuning
from bot.relay.inbox_worker import OPEN_CREATE_HOLD_SECONDS, OPEN_CREATE_RECHECK_SECONDS
from bot.store import CreateIntent, Store
from bot.store.coordination import ALWAYS_LEADS
from tests.support.clock import FakeClock

from .support import (
    CUSTOMER_CHAT,
    CUSTOMER_USER,
    DELIVERY,
    OPERATOR,
    OPERATOR_2,
    OTHER_CHAT,
    OTHER_DELIVERY,
    OTHER_USER,
    START,
    TRACKING,
    TUNDE,
    MakeRelay,
    RecordingChannel,
    event,
    link,
    otp,
    put,
)
from .world import order as world_order

ASSIGNED = event(
    "evt_assigned",
    "matched",
    previous_status="pending",
    rider=TUNDE,
    summary="Delivery 3F2A9C1E was assigned to rider Tunde Bakare (motorbike).",
    hint="Good news: Tunde is your rider and is heading to the pickup.",
    notes=("Tell the customer who their rider is.", "The rider can still be changed."),
)


async def test_a_status_change_reaches_the_customer_and_the_operators(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await put(store, ASSIGNED)

    assert await relay.process_pending() == 1

    # One message: the service's hint says the news, so our own sentence does not repeat it.
    assert channel.texts(CUSTOMER_CHAT) == [
        "Delivery 3F2A9C1E\n"
        "Good news: Tunde is your rider and is heading to the pickup.\n"
        f"Track it here: {TRACKING}"
    ]
    operator_text = (
        "Delivery 3F2A9C1E was assigned to rider Tunde Bakare (motorbike).\n"
        "• Tell the customer who their rider is.\n"
        "• The rider can still be changed."
    )
    assert channel.texts(OPERATOR) == channel.texts(OPERATOR_2) == [operator_text]
    view = await store.deliveries.get(DELIVERY)
    assert view is not None
    assert (view.status, view.status_created, view.tracking_sent) == ("matched", START, True)
    assert (await store.inbox.counts()).pending == 0


async def test_the_tracking_link_is_sent_once(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await put(store, ASSIGNED)
    await put(store, event("evt_picked", "picked_up", created=START + 60, rider=TUNDE))

    await relay.process_pending()

    first, second = channel.texts(CUSTOMER_CHAT)
    assert TRACKING in first
    assert second == "Delivery 3F2A9C1E\nThe rider has picked up your package."


async def test_a_hint_that_carries_the_link_is_not_followed_by_it_again(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    hint = f"Tunde is your rider. You can follow it here: {TRACKING}"
    await put(store, event("evt_assigned", "matched", hint=hint))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == [f"Delivery 3F2A9C1E\n{hint}"]
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and view.tracking_sent


async def test_a_hint_repeating_a_link_the_chat_has_says_the_rest(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    hint = f"Tunde is your rider. You can follow it here: {TRACKING}. See you soon!"
    await put(store, event("evt_assigned", "matched", hint=hint))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == ["Delivery 3F2A9C1E\nTunde is your rider. See you soon!"]


async def test_a_hint_that_is_only_a_link_the_chat_has_leaves_the_status_sentence(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, event("evt_assigned", "matched", rider=TUNDE, hint=f"Track: {TRACKING}"))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == [
        "Delivery 3F2A9C1E\nA rider (Tunde, motorbike) is assigned and heading to pickup."
    ]


async def test_the_created_event_is_no_news_to_the_chat_that_ordered(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    # The answer to the create told the customer it is booked and gave them the tracking link.
    await store.deliveries.add(
        DELIVERY,
        ChatRef("telegram", CUSTOMER_CHAT),
        CUSTOMER_USER,
        START - 60,
        None,
        TRACKING,
        "pending",
        tracking_sent=True,
    )
    hint = f"We have received your delivery request. You can follow it here: {TRACKING}"
    await put(store, event("evt_created", "pending", event_type="delivery.created", hint=hint))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == []
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and view.status_created == START  # the view still moves


async def test_the_created_event_brings_a_tracking_link_the_create_had_not(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending", tracking_url=None)
    hint = f"We have received your delivery request. You can follow it here: {TRACKING}"
    await put(store, event("evt_created", "pending", event_type="delivery.created", hint=hint))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == [f"Delivery 3F2A9C1E\nTrack it here: {TRACKING}"]
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and view.tracking_sent


async def test_a_cancel_the_chat_was_told_of_is_not_told_again(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.note_status(DELIVERY, "cancelled")  # the answer to its own cancel
    cancelled = event(
        "evt_cancel", "cancelled", event_type="delivery.cancelled", hint="Cancelled.", summary="C"
    )
    await put(store, cancelled)

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == []
    assert channel.texts(OPERATOR) == ["C"]
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and (view.status, view.status_created) == ("cancelled", START)


async def test_a_hint_that_does_not_tell_the_new_status_follows_our_sentence(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "awaiting_price")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    hint = "The delivery fee for your request is NGN 2,500."
    await put(store, event("evt_priced", "pending", hint=hint))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == [
        f"Delivery 3F2A9C1E\nYour delivery is booked and waiting for a rider.\n{hint}"
    ]


async def test_without_a_hint_the_status_is_said_in_our_words(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, event("evt_picked", "picked_up", rider=TUNDE))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == [
        "Delivery 3F2A9C1E\nThe rider has picked up your package."
    ]


async def test_an_event_without_news_for_the_customer_sends_them_nothing(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, event("evt_fee", "matched", event_type="delivery.updated", summary="Fee set."))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == []
    assert channel.texts(OPERATOR) == ["Fee set."]


async def test_the_final_status_brings_no_tracking_link(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    cancelled = event(
        "evt_cancel",
        "cancelled",
        event_type="delivery.cancelled",
        cancellation_reason="Customer changed their mind",
    )
    await put(store, cancelled)

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == [
        "Delivery 3F2A9C1E\nYour delivery was cancelled. Reason: Customer changed their mind"
    ]


async def test_an_older_event_after_a_newer_one_never_moves_the_chat_backwards(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    newer = event("evt_transit", "in_transit", created=START + 20, hint="On its way.", summary="B")
    older = event("evt_picked", "picked_up", created=START + 10, hint="Picked up.", summary="A")
    await put(store, newer)
    await relay.process_pending()
    await put(store, older)  # arrives late

    assert await relay.process_pending() == 1

    assert channel.texts(CUSTOMER_CHAT) == ["Delivery 3F2A9C1E\nOn its way."]
    assert channel.texts(OPERATOR) == ["B", "A"]  # operators hear every event
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and (view.status, view.status_created) == ("in_transit", START + 20)


async def test_events_of_one_second_apply_in_arrival_order(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, ASSIGNED)
    await put(store, event("evt_paid", "matched", event_type="delivery.updated", hint="Paid."))

    await relay.process_pending()

    texts = channel.texts(CUSTOMER_CHAT)
    assert len(texts) == 2 and "your rider" in texts[0]
    assert texts[1] == "Delivery 3F2A9C1E\nPaid."


async def test_an_unknown_status_is_told_in_general_words(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, event("evt_new", "returned_to_sender", event_type="delivery.updated"))

    await relay.process_pending()

    assert channel.texts(CUSTOMER_CHAT) == [
        "Delivery 3F2A9C1E\nYour delivery's status is now: returned to sender."
    ]


# --- waiting for the delivery's link ------------------------------------------------------------


def ordered_by_the_bot(body: dict[str, Any], request: CreateDeliveryRequest | None = None) -> Any:
    """``body`` with its delivery as the bot's create of ``request`` (``world.order()``) made
    it: what the relay compares with the creates still open."""
    request = request or world_order()
    body = copy.deepcopy(body)
    body["data"]["object"].update(
        {
            "request_source": "api",
            "service_kind": request.serviceKind,
            "package": {"description": request.packageDescription},
            "pickup": {"address": request.pickupAddress},
            "dropoff": {"address": request.deliveryAddress},
            "customer": {
                "sender_phone": request.senderPhone,
                "receiver_phone": request.receiverPhone,
            },
        }
    )
    return body


def another_order() -> CreateDeliveryRequest:
    return world_order().model_copy(update={"packageDescription": "A box of books"})


async def create_in_flight(store: Store, request: CreateDeliveryRequest | None = None) -> str:
    """A create of the customer's recorded and sent, not answered yet; its key."""
    key = f"key-flight-{await store.create_intents.count():04d}"
    request = (request or world_order()).model_copy(update={"idempotencyKey": key})
    intent = CreateIntent(
        idempotency_key=key,
        chat=ChatRef("telegram", CUSTOMER_CHAT),
        user_id=CUSTOMER_USER,
        request=request.model_dump_json(),
        saved_order="{}",
        fingerprint="fp",
        language=None,
        created_at=START,
    )
    await store.create_intents.record(intent, "sender", START + 15)
    return key


async def open_create(store: Store, request: CreateDeliveryRequest | None = None) -> None:
    """A create of the customer's whose answer was lost: the follow-up may still link it."""
    request = request or world_order()
    await store.unconfirmed.add(
        "key-lost-0001",
        ChatRef("telegram", CUSTOMER_CHAT),
        CUSTOMER_USER,
        request=request.model_dump_json(),
        saved_order="{}",
        fingerprint="fp",
        created_at=START,
        next_attempt_at=START + 2,
    )


def assert_operators_only_told_of_the_rider_and_pickup(channel: RecordingChannel) -> None:
    assert channel.texts(CUSTOMER_CHAT) == []
    assert channel.texts(OPERATOR) == [
        "Delivery 3F2A9C1E was assigned to rider Tunde Bakare (motorbike).\n"
        "• Tell the customer who their rider is.\n"
        "• The rider can still be changed.",
        "Picked up.",
    ]


async def test_an_event_of_a_create_in_flight_waits_for_its_link(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await create_in_flight(store)
    await put(store, ordered_by_the_bot(ASSIGNED))

    assert await relay.process_pending() == 0  # held for the create
    assert channel.sent == []
    assert relay.retry_in() == OPEN_CREATE_RECHECK_SECONDS

    await link(store, "pending")  # the create's answer linked it
    clock.advance(OPEN_CREATE_RECHECK_SECONDS)
    assert await relay.process_pending() == 1

    assert len(channel.texts(CUSTOMER_CHAT)) == 1  # told in the customer's chat
    assert len(channel.texts(OPERATOR)) == 1
    assert relay.retry_in() is None


async def test_an_order_placed_outside_the_bot_goes_to_operators_at_once(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await create_in_flight(store, another_order())  # the bot is creating something else
    await open_create(store, another_order())
    dashboard = ordered_by_the_bot(ASSIGNED)
    dashboard["data"]["object"]["request_source"] = "dashboard"
    await put(store, dashboard)
    await put(store, event("evt_later", "picked_up", created=START + 5, summary="Picked up."))

    assert await relay.process_pending() == 2

    assert_operators_only_told_of_the_rider_and_pickup(channel)
    assert clock.now == START  # no wait at all


async def test_an_event_of_an_order_the_bot_is_not_creating_is_not_held(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await create_in_flight(store, another_order())
    await put(store, ordered_by_the_bot(ASSIGNED))  # the same customer, another parcel

    assert await relay.process_pending() == 1
    assert channel.texts(CUSTOMER_CHAT) == [] and len(channel.texts(OPERATOR)) == 1


async def test_a_delivery_never_linked_is_relayed_to_operators_only_after_the_last_try(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel, clock: FakeClock
) -> None:
    # A bot whose creates are not recorded (an engine without a store) may wait blindly.
    relay = make_relay(store, tuning=RelayTuning(link_attempts=3))
    await put(store, ASSIGNED)
    later = event("evt_later", "picked_up", created=START + 5, summary="Picked up.")
    await put(store, later)

    assert await relay.process_pending() == 0
    clock.advance(relay.retry_in() or 0)
    assert await relay.process_pending() == 0
    clock.advance(relay.retry_in() or 0)
    assert await relay.process_pending() == 2  # the third try; the later event no longer waits

    assert_operators_only_told_of_the_rider_and_pickup(channel)
    assert clock.now == START + 1 + 2


async def test_an_event_waits_for_a_link_while_a_create_that_may_make_it_is_followed_up(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await open_create(store)
    await put(store, ordered_by_the_bot(ASSIGNED))

    assert await relay.process_pending() == 0  # held, not to operators only
    assert relay.retry_in() == OPEN_CREATE_RECHECK_SECONDS
    clock.advance(OPEN_CREATE_RECHECK_SECONDS)
    assert await relay.process_pending() == 0
    assert channel.sent == []

    await link(store, "pending")  # the follow-up settled the create
    clock.advance(OPEN_CREATE_RECHECK_SECONDS)
    assert await relay.process_pending() == 1
    assert len(channel.texts(CUSTOMER_CHAT)) == 1  # told in the customer's chat


async def test_a_held_event_goes_to_operators_once_its_create_is_settled_without_it(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    key = await create_in_flight(store)
    await put(store, ordered_by_the_bot(ASSIGNED))
    assert await relay.process_pending() == 0  # held

    await store.create_intents.drop(key)  # refused for certain: it made nothing
    clock.advance(OPEN_CREATE_RECHECK_SECONDS)
    assert await relay.process_pending() == 1

    assert channel.texts(CUSTOMER_CHAT) == [] and len(channel.texts(OPERATOR)) == 1


async def test_an_event_held_for_an_open_create_goes_to_operators_after_the_bound(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await open_create(store)
    await put(store, ordered_by_the_bot(ASSIGNED))

    assert await relay.process_pending() == 0  # held
    clock.advance(OPEN_CREATE_HOLD_SECONDS)
    assert await relay.process_pending() == 1

    assert channel.texts(CUSTOMER_CHAT) == []
    assert len(channel.texts(OPERATOR)) == 1


async def test_later_events_of_a_waiting_delivery_wait_but_other_deliveries_go_on(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await create_in_flight(store)
    await link(store, "pending", delivery_id=OTHER_DELIVERY, chat_id=OTHER_CHAT, user_id=OTHER_USER)
    await put(store, ordered_by_the_bot(ASSIGNED))  # DELIVERY is not linked yet
    await put(store, ordered_by_the_bot(event("evt_picked", "picked_up", created=START + 1)))
    await put(store, event("evt_other", "matched", delivery_id=OTHER_DELIVERY, created=START + 2))

    assert await relay.process_pending() == 1

    assert len(channel.texts(OTHER_CHAT)) == 1
    pending = [e.event_id for e in await store.inbox.next_batch()]
    assert pending == ["evt_assigned", "evt_picked"]
    [picked] = [e for e in await store.inbox.next_batch() if e.event_id == "evt_picked"]
    assert picked.attempts == 0  # held back, not tried


async def test_a_pass_reads_past_a_full_batch_of_waiting_events(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    relay = make_relay(store, tuning=RelayTuning(batch_size=2))
    await create_in_flight(store)
    for n in range(5):  # five deliveries nobody has linked yet, each maybe the create's
        body = event(f"evt_wait_{n}", delivery_id=f"unlinked-{n}", created=START + n)
        await put(store, ordered_by_the_bot(body))
    await link(store, "pending")
    await put(store, event("evt_ready", "matched", created=START + 10))

    assert await relay.process_pending() == 1

    assert len(channel.texts(CUSTOMER_CHAT)) == 1


# --- failures ------------------------------------------------------------------------------------


async def test_a_failed_send_keeps_the_event_and_retries_only_what_is_missing(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await link(store, "pending")
    await link(store, "pending", delivery_id=OTHER_DELIVERY, chat_id=OTHER_CHAT, user_id=OTHER_USER)
    channel.fail_next(CUSTOMER_CHAT, RuntimeError("Telegram is down"))
    await put(store, ASSIGNED)
    await put(store, event("evt_other", "matched", delivery_id=OTHER_DELIVERY, created=START + 1))

    assert await relay.process_pending() == 1  # the other delivery went on

    [failed] = await store.inbox.next_batch()
    assert (failed.event_id, failed.attempts) == ("evt_assigned", 1)
    assert failed.last_error == "1 message(s) not sent"
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and view.status == "pending"  # not moved before the message is out
    assert len(channel.texts(OPERATOR)) == 1  # the operators' copy went out

    clock.advance(relay.retry_in() or 0)
    assert await relay.process_pending() == 1

    assert len(channel.texts(CUSTOMER_CHAT)) == 1
    assert len(channel.texts(OPERATOR)) == 1  # and is not sent twice
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and (view.status, view.tracking_sent) == ("matched", True)


async def test_later_news_of_a_delivery_waits_behind_news_left_for_a_retry(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    # The first update's message fails; the second's, queued behind it in the same chat,
    # must not go out first: the customer would read "picked up", then "assigned".
    await link(store, "pending")
    channel.fail_next(CUSTOMER_CHAT, RuntimeError("Telegram is down"))
    await put(store, event("evt_1", "matched", previous_status="pending", hint="Update 1."))
    await put(
        store,
        event(
            "evt_2", "picked_up", previous_status="matched", created=START + 60, hint="Update 2."
        ),
    )

    await relay.process_pending()
    assert channel.texts(CUSTOMER_CHAT) == []
    [first, second] = await store.inbox.next_batch()
    assert (first.event_id, first.attempts, second.event_id, second.attempts) == (
        "evt_1", 1, "evt_2", 0
    )  # fmt: skip
    clock.advance(relay.retry_in() or 0)
    await relay.process_pending()

    said = " ".join(channel.texts(CUSTOMER_CHAT))
    assert "Update 1." in said and said.index("Update 1.") < said.index("Update 2.")
    assert (await store.inbox.counts()).pending == 0


async def test_retries_back_off_up_to_the_cap(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel, clock: FakeClock
) -> None:
    tuning = RelayTuning(retry_base_seconds=1, retry_cap_seconds=4, max_attempts=10)
    relay = make_relay(store, tuning=tuning)
    await link(store, "pending")
    channel.fail_next(CUSTOMER_CHAT, RuntimeError("down"), times=5)
    await put(store, ASSIGNED)

    waits = []
    for _ in range(5):
        await relay.process_pending()
        waits.append(relay.retry_in())
        clock.advance(relay.retry_in() or 0)
    assert await relay.process_pending() == 1

    assert waits == [1, 2, 4, 4, 4]
    assert len(channel.texts(CUSTOMER_CHAT)) == 1


async def test_an_event_is_given_up_after_max_attempts(
    store: Store,
    make_relay: MakeRelay,
    channel: RecordingChannel,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    relay = make_relay(store, tuning=RelayTuning(max_attempts=2, link_attempts=1))
    await link(store, "pending")
    channel.fail_next(CUSTOMER_CHAT, RuntimeError("message too long"), times=2)
    await put(store, ASSIGNED)

    assert await relay.process_pending() == 0
    clock.advance(relay.retry_in() or 0)
    with caplog.at_level(logging.ERROR, logger="bot.relay"):
        assert await relay.process_pending() == 1

    assert channel.texts(CUSTOMER_CHAT) == []
    assert "given up after 2 attempts" in caplog.text
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and view.status == "matched"
    assert (await store.inbox.counts()).pending == 0


async def test_a_stored_body_that_is_not_an_event_is_dropped_with_an_error(
    store: Store, relay: Relay, caplog: pytest.LogCaptureFixture
) -> None:
    await store.inbox.add("evt_broken", DELIVERY, "delivery.updated", int(START), b"{oops")

    with caplog.at_level(logging.ERROR, logger="bot.relay"):
        assert await relay.process_pending() == 1

    assert "evt_broken" in caplog.text
    assert (await store.inbox.counts()).pending == 0


# --- the relay as a scheduled job ----------------------------------------------------------------


def scheduled(relay: Relay, clock: FakeClock) -> Scheduler:
    """A scheduler running ``relay`` alone (``async with`` it), waiting through ``clock``."""
    scheduler = Scheduler(leadership=ALWAYS_LEADS, sleep=clock.sleep)
    scheduler.add(relay)
    return scheduler


async def test_run_relays_when_woken(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await link(store, "pending")
    async with scheduled(relay, clock):
        await put(store, ASSIGNED)
        relay.wake()
        await channel.wait_for(3)

    assert len(channel.texts(CUSTOMER_CHAT)) == 1


async def test_run_retries_after_the_back_off_without_being_woken(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await link(store, "pending")
    channel.fail_next(CUSTOMER_CHAT, RuntimeError("down"), times=2)
    await put(store, ASSIGNED)
    async with scheduled(relay, clock):
        await channel.wait_for(3)

    assert len(channel.texts(CUSTOMER_CHAT)) == 1
    assert clock.slept == [1, 2]  # through the injected sleep: the test never waited


async def test_run_survives_a_failing_pass(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel, clock: FakeClock
) -> None:
    relay = make_relay(store)
    await link(store, "pending")
    await put(store, ASSIGNED)
    original = store.inbox.claim_batch
    calls = 0

    async def flaky_claim_batch(*args: Any, **kwargs: Any) -> list:  # type: ignore[type-arg]
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("disk hiccup")
        return await original(*args, **kwargs)

    store.inbox.claim_batch = flaky_claim_batch  # type: ignore[method-assign]
    async with scheduled(relay, clock):
        await channel.wait_for(3)

    assert clock.slept == [1]


async def test_an_unexpected_error_stays_with_its_event(
    store: Store, relay: Relay, channel: RecordingChannel, caplog: pytest.LogCaptureFixture
) -> None:
    await link(store, "pending")
    await link(store, "pending", delivery_id=OTHER_DELIVERY, chat_id=OTHER_CHAT, user_id=OTHER_USER)
    # A contact row the relay cannot read: a bug somewhere, for this delivery's OTP only.
    await store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), "+2348098765432", contact_user_id=CUSTOMER_USER
    )
    original = store.contacts.phone_for

    async def broken_phone_for(user: UserRef) -> str | None:
        if user.id == CUSTOMER_USER:
            raise LookupError("corrupt contact row")
        return await original(user)

    store.contacts.phone_for = broken_phone_for  # type: ignore[method-assign]
    await put(store, event("evt_otp", "matched", event_type="delivery.otp_issued", otp=otp()))
    await put(store, event("evt_other", "matched", delivery_id=OTHER_DELIVERY, created=START + 1))

    with caplog.at_level(logging.ERROR, logger="bot.relay"):
        assert await relay.process_pending() == 1

    assert "relaying event evt_otp failed" in caplog.text
    assert len(channel.texts(OTHER_CHAT)) == 1
    [stuck] = await store.inbox.next_batch()
    assert (stuck.event_id, stuck.attempts, stuck.last_error) == (
        "evt_otp",
        1,
        "relay error: LookupError",
    )
