"""What the relay keeps of a delivery's history for the console (``store.history``): each
event it finishes, each message it sends or fails to send, and never the drop-off code."""

from __future__ import annotations

import dataclasses
from zoneinfo import ZoneInfo

from bot.chat_ref import UserRef
from bot.relay import Relay, SendFailed
from bot.staff_console.delivery_timeline import DeliveryTimeline, delivery_timeline
from bot.store import Store
from bot.store.delivery_history import CUSTOMER, OPERATORS
from tests.support.clock import FakeClock
from tests.support.words import SHIPPED

from .support import (
    BOT_LINK,
    CUSTOMER_CHAT,
    CUSTOMER_USER,
    DELIVERY,
    OPERATOR,
    OPERATOR_2,
    RECEIVER_PHONE,
    START,
    TUNDE,
    RecordingChannel,
    event,
    link,
    otp,
    put,
)

CODE = "482913"
ASSIGNED = event(
    "evt_assigned",
    "matched",
    previous_status="pending",
    rider=TUNDE,
    summary="Delivery 3F2A9C1E was assigned to rider Tunde Bakare (motorbike).",
    hint="Good news: Tunde is your rider and is heading to the pickup.",
    notes=("Tell the customer who their rider is.",),
)
OTP_ISSUED = event(
    "evt_otp",
    "matched",
    created=START + 60,
    event_type="delivery.otp_issued",
    otp=otp(CODE),
    # A service text quoting the code: masked wherever it is kept.
    summary=f"Drop-off code {CODE} issued for delivery 3F2A9C1E.",
    hint=f"Give the rider the code {CODE} at the door.",
    notes=(f"The code is {CODE}.",),
)


async def _everything_kept(store: Store) -> str:
    """Every row the history tables hold, as text."""
    rows = await store._db.fetch_all("SELECT * FROM timeline_events")
    rows += await store._db.fetch_all("SELECT * FROM timeline_messages")
    return repr(rows)


async def _timeline(store: Store) -> DeliveryTimeline:
    found = await delivery_timeline(store, SHIPPED, ZoneInfo("Africa/Lagos"), DELIVERY)
    assert isinstance(found, DeliveryTimeline)
    return found


def _no_code_anywhere(timeline: DeliveryTimeline, *secrets: str) -> None:
    shown = repr(timeline) + repr(dataclasses.astuple(timeline))
    for secret in secrets:
        assert secret not in shown


async def test_an_event_and_its_messages_are_kept_as_sent(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await put(store, ASSIGNED)

    await relay.process_pending()

    (kept,) = await store.history.events(DELIVERY)
    assert (kept.event_type, kept.status, kept.previous_status) == (
        "delivery.status_changed",
        "matched",
        "pending",
    )
    assert kept.summary == ASSIGNED["summary"]
    assert kept.customer_message_hint == ASSIGNED["customer_message_hint"]
    assert kept.agent_notes == ("Tell the customer who their rider is.",)
    messages = await store.history.messages(DELIVERY)
    sent = {(m.chat.id, m.audience, m.text) for m in messages}
    assert sent == {
        (CUSTOMER_CHAT, CUSTOMER, channel.texts(CUSTOMER_CHAT)[0]),
        (OPERATOR, OPERATORS, channel.texts(OPERATOR)[0]),
        (OPERATOR_2, OPERATORS, channel.texts(OPERATOR_2)[0]),
    }
    assert all(m.failure is None and m.event_id == "evt_assigned" for m in messages)


async def test_a_failed_send_is_kept_with_why_then_the_retry_that_went(
    store: Store, relay: Relay, channel: RecordingChannel, clock: FakeClock
) -> None:
    await link(store, "pending")
    channel.fail_next(CUSTOMER_CHAT, SendFailed("Telegram answered 500"))
    await put(store, ASSIGNED)

    await relay.process_pending()  # the customer's message fails, the event waits
    clock.advance(3600)
    await relay.process_pending()  # its retry sends it

    to_customer = [m for m in await store.history.messages(DELIVERY) if m.chat.id == CUSTOMER_CHAT]
    assert [m.failure for m in to_customer] == ["Telegram answered 500", None]
    assert to_customer[0].text == to_customer[1].text == channel.texts(CUSTOMER_CHAT)[0]
    assert len(await store.history.events(DELIVERY)) == 1


async def test_a_code_handed_off_by_link_is_never_kept(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await put(store, ASSIGNED)
    await put(store, OTP_ISSUED)

    await relay.process_pending()

    # The customer did get the link that opens the code.
    (opener,) = [text for text in channel.texts(CUSTOMER_CHAT) if BOT_LINK in text]
    token = opener.split(BOT_LINK)[1].split()[0]
    kept = await _everything_kept(store)
    assert CODE not in kept and token not in kept
    timeline = await _timeline(store)
    _no_code_anywhere(timeline, CODE, token)
    (otp_event,) = [e for e in await store.history.events(DELIVERY) if e.event_id == "evt_otp"]
    assert otp_event.summary == "Drop-off code •••• issued for delivery 3F2A9C1E."
    assert otp_event.agent_notes == ("The code is ••••.",)
    link_messages = [m for m in await store.history.messages(DELIVERY) if m.kind == "otp_link"]
    assert [(m.chat.id, m.text) for m in link_messages] == [(CUSTOMER_CHAT, "")]


async def test_a_code_sent_to_the_proven_receiver_is_never_kept(
    store: Store, relay: Relay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), RECEIVER_PHONE, contact_user_id=CUSTOMER_USER
    )
    await put(store, OTP_ISSUED)

    await relay.process_pending()

    assert any(CODE in text for text in channel.texts(CUSTOMER_CHAT))  # it was sent
    assert CODE not in await _everything_kept(store)
    timeline = await _timeline(store)
    _no_code_anywhere(timeline, CODE)
    withheld = [e for e in timeline.entries if getattr(e, "withheld", False)]
    assert len(withheld) == 1
