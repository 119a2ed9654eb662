"""Sandbox -> signed webhooks -> web app -> inbox -> relay -> chats, all real but the messenger."""

from __future__ import annotations

from typing import Any

from bot.chat_ref import UserRef
from bot.jobs import Scheduler
from bot.store import Store
from conversations.texts.deliveries_texts import note_code_handled
from tests.support.words import SHIPPED

from .support import (
    BOT_LINK,
    CUSTOMER_CHAT,
    CUSTOMER_USER,
    OPERATOR,
    OPERATOR_2,
    OpenStore,
    RecordingChannel,
)
from .world import DROPOFF, RECEIVER, MakeWorld


def manual_dispatch(data: dict[str, Any]) -> None:
    data["capabilities"]["publicRequest"]["autoDispatch"] = False


def photo_proof_only(data: dict[str, Any]) -> None:
    data["capabilities"]["requireDeliveryOtp"] = False


def ref(delivery_id: str) -> str:
    return delivery_id.split("-")[0].upper()


async def test_a_delivery_from_create_to_delivered_reaches_each_chat_exactly(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(manual_dispatch)
    delivery = await world.order()
    short, tracking = ref(delivery.id), delivery.tracking_url
    assert delivery.status == "pending" and tracking

    assert await world.settle() == 1  # delivery.created
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    assert await world.settle() == 1  # delivery.status_changed
    world.sandbox.mark_paid(delivery.id)
    assert await world.settle() == 2  # delivery.updated, delivery.otp_issued
    handoff = await world.store.otp.get(delivery.id)
    assert handoff is not None and handoff.code == world.sandbox.otp_code(delivery.id)
    assert handoff.receiver_phone == RECEIVER
    for _ in ("picked_up", "in_transit", "delivered"):
        world.sandbox.advance_status(delivery.id)
        assert await world.settle() == 1

    customer = channel.texts(CUSTOMER_CHAT)
    # One message per piece of news: the created event is no news to the chat that ordered
    # (its answer to the create gave the tracking link), and each hint says its change once;
    # the drop-off code's coming is told by the hand-off link alone.
    assert tracking not in "".join(customer)
    assert customer == [
        f"Delivery {short}\nGood news: Tunde is your rider and is heading to the pickup.",
        f"Delivery {short}\nWe have received your payment of NGN 2,400. Thank you!",
        f"The drop-off code for delivery {short} is ready. Only the receiver may see it, so "
        f"please forward this link to them:\n{BOT_LINK}{handoff.token}\n"
        "They open it and share their own phone number to get the code.",
        f"Delivery {short}\nYour package has been picked up and is on its way.",
        f"Delivery {short}\nYour package is on its way to {DROPOFF}.",
        f"Delivery {short}\nYour package has been delivered. "
        "Thank you for using Swift Lagos Deliveries!",
    ]
    operator = channel.texts(OPERATOR)
    assert operator == channel.texts(OPERATOR_2)
    assert [text.split("\n")[0] for text in operator] == [
        f"New delivery {short} from 12 Herbert Macaulay Way, Yaba, Lagos to {DROPOFF} was "
        "created through the API; it is waiting for a rider.",
        f"Delivery {short} to {DROPOFF} was assigned to rider Tunde Bakare (motorbike).",
        f"The delivery fee for Delivery {short} (NGN 2,400) was marked paid.",
        f"The drop-off code for Delivery {short} is ready (the fee was paid).",
        f"The drop-off code for delivery {short} is waiting for the receiver to verify "
        "their phone number.",
        f"Rider Tunde Bakare (motorbike) picked up the package for Delivery {short}.",
        f"Delivery {short} is in transit to {DROPOFF}.",
        f"Delivery {short} was delivered to Bola Ahmed at {DROPOFF}.",
    ]
    # The service's notes about the code the bot hands over, in the bot's words, once.
    assert operator[3].split("\n")[1:] == [f"• {note_code_handled(SHIPPED)}"]
    code = world.sandbox.otp_code(delivery.id)
    assert code and all(code not in text for _, text in channel.sent)
    view = await world.store.deliveries.get(delivery.id)
    assert view is not None and (view.status, view.tracking_sent) == ("delivered", True)
    assert await world.store.otp.get(delivery.id) is None  # the held code is gone
    assert (await world.store.inbox.counts()).pending == 0


async def test_a_customer_verified_as_the_receiver_gets_the_code_itself(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world()
    await world.store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), RECEIVER, contact_user_id=CUSTOMER_USER
    )
    delivery = await world.order()
    assert delivery.status == "matched"  # auto-dispatched to Tunde
    await world.settle()
    world.sandbox.mark_paid(delivery.id)

    await world.settle()

    code = world.sandbox.otp_code(delivery.id)
    assert code is not None
    assert channel.texts(CUSTOMER_CHAT)[-1] == (
        f"Your drop-off code for delivery {ref(delivery.id)} is {code}. "
        "Give it to the rider only once the package is in your hands."
    )
    assert all(code not in text for text in channel.texts(OPERATOR))
    assert not any("waiting for the receiver" in text for text in channel.texts(OPERATOR))
    assert await world.store.otp.get(delivery.id) is None


async def test_no_code_and_no_link_when_the_business_uses_photo_proof(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(photo_proof_only)
    delivery = await world.order()
    await world.settle()
    world.sandbox.mark_paid(delivery.id)

    assert await world.settle() == 1  # delivery.updated only

    assert world.sandbox.otp_code(delivery.id) is None
    relayed = "\n".join(text for _, text in channel.sent)
    for otp_words in ("Your drop-off code", BOT_LINK, "waiting for the receiver"):
        assert otp_words not in relayed
    assert await world.store.otp.get(delivery.id) is None


async def test_webhooks_the_bot_cannot_verify_are_refused_and_relay_nothing(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(bot_secret="whsec_not_the_dashboard_secret_01")
    await world.order()

    assert await world.settle() == 0

    attempts = world.sandbox.webhook_log()
    assert [a.event_type for a in attempts] == ["delivery.created", "delivery.status_changed"]
    assert {(a.status_code, a.outcome) for a in attempts} == {(400, "retry_scheduled")}
    assert channel.sent == []
    assert (await world.store.inbox.counts()).pending == 0


async def test_a_stale_signature_is_refused(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world(web_clock_offset=301)  # the bot's clock is ahead of the signer's
    await world.order()

    assert await world.settle() == 0

    assert [a.status_code for a in world.sandbox.webhook_log()] == [400, 400]
    assert channel.sent == []


async def test_a_redelivered_event_is_relayed_once(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world()
    world.door.lose_answer_once.add("delivery.created")  # stored, but the 2xx never arrives
    delivery = await world.order()
    await world.settle()
    sent_after_first = list(channel.sent)

    await world.settle(seconds=5)  # the sandbox's retry

    created = [a for a in world.sandbox.webhook_log() if a.event_type == "delivery.created"]
    assert [a.outcome for a in created] == ["retry_scheduled", "delivered"]
    assert channel.sent == sent_after_first
    assert len([t for t in channel.texts(OPERATOR) if t.startswith("New delivery")]) == 1
    assert channel.texts(CUSTOMER_CHAT)[0].startswith(f"Delivery {ref(delivery.id)}\n")


async def test_an_event_delivered_late_never_moves_the_chat_back(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world()
    delivery = await world.order()
    world.sandbox.mark_paid(delivery.id)  # its fee is due before dispatch
    await world.settle()
    world.door.refuse_once.add("delivery.status_changed")  # picked_up fails the first time
    world.sandbox.advance_status(delivery.id)  # picked_up
    world.clock.advance(1)
    world.sandbox.advance_status(delivery.id)  # in_transit: also status_changed, goes through
    await world.settle()
    before_retry = len(channel.texts(CUSTOMER_CHAT))

    await world.settle(seconds=5)  # picked_up arrives now, older than in_transit

    customer = channel.texts(CUSTOMER_CHAT)
    assert "Your package is on its way to" in customer[-1]
    assert len(customer) == before_retry
    assert not any("has been picked up" in text for text in customer)
    assert sum("picked up the package" in text for text in channel.texts(OPERATOR)) == 1
    view = await world.store.deliveries.get(delivery.id)
    assert view is not None and view.status == "in_transit"


async def test_a_kill_between_the_inbox_and_the_send_sends_after_restart_once(
    make_world: MakeWorld, make_relay: Any, open_store: OpenStore, channel: RecordingChannel
) -> None:
    world = await make_world(manual_dispatch)
    delivery = await world.order()
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    world.clock.advance(1)
    await world.sandbox.drain_webhooks()  # both events stored and acknowledged
    assert (await world.store.inbox.counts()).pending == 2
    await world.store.close()  # killed before the relay ran

    restarted: Store = await open_store()
    assert await make_relay(restarted).process_pending() == 2
    assert await make_relay(restarted).process_pending() == 0

    assert len(channel.texts(CUSTOMER_CHAT)) == 1  # the assignment (created is no news to it)
    assert len(channel.texts(OPERATOR)) == 2


async def test_the_running_relay_is_woken_by_the_web_app(
    make_world: MakeWorld, channel: RecordingChannel
) -> None:
    world = await make_world()
    scheduler = Scheduler(leadership=world.store.leadership, sleep=world.clock.sleep)
    scheduler.add(world.relay)
    async with scheduler:
        await world.order()
        await world.sandbox.drain_webhooks()
        # created (operators only: the customer had the create's answer) and status_changed
        await channel.wait_for(2 + 1 + 2)

    assert len(channel.texts(CUSTOMER_CHAT)) == 1
