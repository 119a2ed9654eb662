"""Once in effect: crashes between the inbox and the chat, claims left by a dead process, blocked
chats. A "crash" is the store closed with work half done and opened again by a new relay."""

from __future__ import annotations

import asyncio

import pytest

from bot.chat_ref import ChatRef
from bot.relay.channel_protocol import SendFailed
from bot.relay.outbox import Outgoing, Sender
from bot.relay.planner import CUSTOMER_UPDATE, OPERATOR_UPDATE
from bot.store import SendKey, Store, StoreError
from tests.support.clock import FakeClock

from .support import (
    CUSTOMER_CHAT,
    DELIVERY,
    OPERATOR,
    OPERATOR_2,
    OPERATORS,
    TUNDE,
    MakeRelay,
    OpenStore,
    RecordingChannel,
    event,
    link,
    put,
)

ASSIGNED = event(
    "evt_assigned", "matched", rider=TUNDE, summary="Assigned.", hint="Tunde is your rider."
)
CUSTOMER_KEY = SendKey("evt_assigned", ChatRef("telegram", CUSTOMER_CHAT), CUSTOMER_UPDATE)


async def test_a_crash_between_the_inbox_and_the_send_sends_after_restart_once(
    open_store: OpenStore, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    before = await open_store()
    await link(before, "pending")
    await put(before, ASSIGNED)  # the 2xx went back; the process died before the relay ran
    await before.close()

    after = await open_store()
    relay = make_relay(after)
    assert await relay.process_pending() == 1
    assert await relay.process_pending() == 0

    assert len(channel.texts(CUSTOMER_CHAT)) == 1
    assert channel.texts(OPERATOR) == channel.texts(OPERATOR_2) == ["Assigned."]


async def test_a_claim_left_by_a_dead_process_is_taken_over_and_sent_once(
    open_store: OpenStore, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    before = await open_store()
    await link(before, "pending")
    await put(before, ASSIGNED)
    assert await before.sent.claim(CUSTOMER_KEY)  # claimed, then killed before sending
    await before.close()

    after = await open_store()
    await make_relay(after).process_pending()

    assert len(channel.texts(CUSTOMER_CHAT)) == 1
    assert await after.sent.was_sent(CUSTOMER_KEY)


async def test_a_message_sent_before_the_crash_is_not_sent_again(
    open_store: OpenStore, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    before = await open_store()
    await link(before, "pending")
    await put(before, ASSIGNED)
    # The customer's message went out and was marked; the process died before the rest.
    await before.sent.claim(CUSTOMER_KEY)
    await before.sent.mark_sent(CUSTOMER_KEY, 41)
    await before.close()

    after = await open_store()
    assert await make_relay(after).process_pending() == 1

    assert channel.texts(CUSTOMER_CHAT) == []
    assert channel.texts(OPERATOR) == ["Assigned."]
    view = await after.deliveries.get(DELIVERY)
    assert view is not None and view.status == "matched"


async def test_a_crash_after_every_send_but_before_processed_sends_nothing_twice(
    open_store: OpenStore, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    before = await open_store()
    await link(before, "pending")
    await put(before, ASSIGNED)
    for chat, kind in (
        (CUSTOMER_CHAT, CUSTOMER_UPDATE),
        (OPERATOR, OPERATOR_UPDATE),
        (OPERATOR_2, OPERATOR_UPDATE),
    ):
        key = SendKey("evt_assigned", ChatRef("telegram", chat), kind)
        await before.sent.claim(key)
        await before.sent.mark_sent(key, None)
    await before.close()  # died before mark_processed committed

    after = await open_store()
    assert await make_relay(after).process_pending() == 1

    assert channel.sent == []
    assert (await after.inbox.counts()).pending == 0


async def test_a_crash_after_a_send_but_before_the_events_commit_resends_it_once(
    open_store: OpenStore, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    before = await open_store()
    await link(before, "pending")
    await put(before, ASSIGNED)
    # The customer's message went out; the process died before the commit that marks it.
    receipt = await Sender(before, channel).send(Outgoing(CUSTOMER_KEY, "Tunde is your rider."))
    assert receipt is not None and not await before.sent.was_sent(CUSTOMER_KEY)
    await before.close()

    after = await open_store()
    relay = make_relay(after)
    assert await relay.process_pending() == 1
    assert await relay.process_pending() == 0

    assert len(channel.texts(CUSTOMER_CHAT)) == 2  # the one resend the window allows
    assert channel.texts(OPERATOR) == channel.texts(OPERATOR_2) == ["Assigned."]
    assert await after.sent.was_sent(CUSTOMER_KEY)


async def test_when_the_events_commit_fails_what_went_out_is_still_marked(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel, clock: FakeClock
) -> None:
    relay = make_relay(store)
    await link(store, "pending")
    await put(store, ASSIGNED)
    finish_event = store.relayed.finish_event
    calls = 0

    async def failing_once(*args: object, **kwargs: object) -> bool:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise StoreError("database is locked")
        return await finish_event(*args, **kwargs)  # type: ignore[arg-type]

    store.relayed.finish_event = failing_once  # type: ignore[method-assign]
    assert await relay.process_pending() == 0
    assert await store.sent.was_sent(CUSTOMER_KEY)
    assert (await store.inbox.counts()).pending == 1

    clock.advance(relay.retry_in() or 0)
    assert await relay.process_pending() == 1

    assert len(channel.texts(CUSTOMER_CHAT)) == 1
    assert channel.texts(OPERATOR) == channel.texts(OPERATOR_2) == ["Assigned."]
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and view.status == "matched"


async def test_a_relay_stopped_mid_event_keeps_what_went_out(
    open_store: OpenStore, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    hanging = asyncio.Event()

    class HangsForTheLastOperator(RecordingChannel):
        async def send(self, chat: ChatRef, text: str) -> int | None:
            chat_id = chat.id
            if chat_id == OPERATORS[-1]:
                hanging.set()
                await asyncio.Event().wait()
            return await channel.send(chat, text)

    before = await open_store()
    await link(before, "pending")
    await put(before, ASSIGNED)
    stopping = make_relay(before, channel=HangsForTheLastOperator())
    task = asyncio.create_task(stopping.process_pending())
    await hanging.wait()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await before.close()

    after = await open_store()
    assert await make_relay(after).process_pending() == 1

    assert len(channel.texts(CUSTOMER_CHAT)) == 1  # sent before the stop, and marked
    assert channel.texts(OPERATORS[0]) == channel.texts(OPERATORS[-1]) == ["Assigned."]


async def test_a_blocked_chat_is_recorded_and_its_message_counts_as_done(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    relay = make_relay(store)
    await link(store, "pending")
    channel.blocked.add(CUSTOMER_CHAT)
    await put(store, ASSIGNED)

    assert await relay.process_pending() == 1

    assert await store.blocked.is_blocked(ChatRef("telegram", CUSTOMER_CHAT))
    assert channel.texts(CUSTOMER_CHAT) == []
    assert channel.texts(OPERATOR) == ["Assigned."]
    assert (await store.inbox.counts()).pending == 0


async def test_a_blocked_chat_is_not_tried_again_until_it_is_cleared(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    relay = make_relay(store)
    await link(store, "pending")
    await store.blocked.mark(ChatRef("telegram", CUSTOMER_CHAT))
    await put(store, ASSIGNED)
    await relay.process_pending()
    await store.blocked.clear(
        ChatRef("telegram", CUSTOMER_CHAT)
    )  # the customer wrote to the bot again
    await put(store, event("evt_picked", "picked_up", created=ASSIGNED["created"] + 5))
    await relay.process_pending()

    assert CUSTOMER_CHAT in channel.attempts
    assert channel.attempts.count(CUSTOMER_CHAT) == 1
    assert channel.texts(CUSTOMER_CHAT) == [
        "Delivery 3F2A9C1E\nThe rider has picked up your package."
    ]


async def test_a_blocked_operator_does_not_hold_the_others(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    relay = make_relay(store)
    await link(store, "pending")
    channel.blocked.add(OPERATOR)
    await put(store, ASSIGNED)

    assert await relay.process_pending() == 1

    assert channel.texts(OPERATOR_2) == ["Assigned."]
    assert await store.blocked.is_blocked(ChatRef("telegram", OPERATOR))


async def test_a_failed_send_releases_its_claim(store: Store, channel: RecordingChannel) -> None:
    sender = Sender(store, channel)
    key = SendKey("evt_x", ChatRef("telegram", OPERATOR), OPERATOR_UPDATE)
    channel.fail_next(OPERATOR, ConnectionError("reset"))

    with pytest.raises(SendFailed):
        await sender.deliver(Outgoing(key, "hello"))
    await sender.deliver(Outgoing(key, "hello"))
    await sender.deliver(Outgoing(key, "hello"))

    assert channel.texts(OPERATOR) == ["hello"]


async def test_a_channels_send_failed_reaches_the_caller_as_it_is(
    store: Store, channel: RecordingChannel
) -> None:
    sender = Sender(store, channel)
    key = SendKey("evt_x", ChatRef("telegram", OPERATOR), OPERATOR_UPDATE)
    refused = SendFailed("Bad Request: message is too long")
    channel.fail_next(OPERATOR, refused)

    with pytest.raises(SendFailed) as caught:
        await sender.deliver(Outgoing(key, "hello"))
    assert caught.value is refused  # one exception type: nothing translates it on the way
    await sender.deliver(Outgoing(key, "hello"))

    assert channel.texts(OPERATOR) == ["hello"]


async def test_a_send_cancelled_midway_releases_its_claim(store: Store) -> None:
    entered = asyncio.Event()

    class Hanging(RecordingChannel):
        async def send(self, chat: ChatRef, text: str) -> int | None:
            entered.set()
            await asyncio.Event().wait()
            return None

    key = SendKey("evt_x", ChatRef("telegram", OPERATOR), OPERATOR_UPDATE)
    task = asyncio.create_task(Sender(store, Hanging()).deliver(Outgoing(key, "hello")))
    await entered.wait()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)

    assert await store.sent.claim(key)  # free again: a later attempt will send it


async def test_a_message_in_flight_elsewhere_is_not_sent_twice(
    store: Store, channel: RecordingChannel
) -> None:
    key = SendKey("evt_x", ChatRef("telegram", OPERATOR), OPERATOR_UPDATE)
    assert await store.sent.claim(key)  # held by this store, not marked: a send in progress

    with pytest.raises(SendFailed):
        await Sender(store, channel).deliver(Outgoing(key, "hello"))

    assert channel.sent == []


def test_outgoing_text_is_kept_out_of_repr() -> None:
    message = Outgoing(
        SendKey("evt_x", ChatRef("telegram", 1), "otp"), "Your drop-off code is 482913"
    )

    assert "482913" not in repr(message)
