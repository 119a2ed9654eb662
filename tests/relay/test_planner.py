"""What each chat is owed: the [relay] switches, and drop-off codes that reach only the receiver."""

from __future__ import annotations

import copy
from typing import Any

from bot.chat_ref import TELEGRAM, ChatRef, UserRef
from bot.config import RelayConfig
from bot.relay import RelayTuning
from bot.store import Store
from conversations.texts.deliveries_texts import note_code_handled
from tests.support.words import SHIPPED

from .support import (
    BOT_LINK,
    CUSTOMER_CHAT,
    CUSTOMER_USER,
    DELIVERY,
    OPERATOR,
    OPERATOR_2,
    START,
    TUNDE,
    MakeRelay,
    RecordingChannel,
    event,
    link,
    otp,
    put,
)

ASSIGNED = event(
    "evt_assigned",
    "matched",
    rider=TUNDE,
    summary="Assigned to Tunde.",
    hint="Tunde is your rider.",
    notes=("The rider can still be changed.",),
)
OTP_ISSUED = event(
    "evt_otp",
    "matched",
    event_type="delivery.otp_issued",
    summary="The drop-off code for Delivery 3F2A9C1E is ready (the fee was paid).",
    hint="The receiver will get a drop-off code to give the rider at delivery.",
    notes=("Send the code only to the receiver.",),
    otp=otp("482913"),
)


def settings(**sections: Any) -> RelayConfig:
    """``[relay]`` with ``sections``; ``otp_via_webhook`` on unless given, as the scenarios'
    dashboard switch (the codes come by webhook)."""
    return RelayConfig.model_validate({"otp_via_webhook": True, **sections})


# --- switches ------------------------------------------------------------------------------------


async def test_customer_switches_turn_off_each_part(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    only_hints = settings(customer={"status_updates": False, "tracking_link": False})
    await link(store, "pending")
    await put(store, ASSIGNED)

    await make_relay(store, settings=only_hints).process_pending()

    assert channel.texts(CUSTOMER_CHAT) == ["Delivery 3F2A9C1E\nTunde is your rider."]
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and not view.tracking_sent


async def test_with_every_customer_switch_off_the_customer_hears_nothing(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    silent = settings(
        customer={"status_updates": False, "customer_message_hint": False, "tracking_link": False}
    )
    await link(store, "pending")
    await put(store, ASSIGNED)

    await make_relay(store, settings=silent).process_pending()

    assert channel.texts(CUSTOMER_CHAT) == []
    assert channel.texts(OPERATOR) == ["Assigned to Tunde.\n• The rider can still be changed."]
    view = await store.deliveries.get(DELIVERY)
    assert view is not None and view.status == "matched"  # the view still moves


async def test_operator_switches_and_event_filter(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    notes_only = settings(operators={"summary": False, "events": ["delivery.status_changed"]})
    await link(store, "pending")
    await put(store, ASSIGNED)
    await put(store, event("evt_paid", "matched", event_type="delivery.updated", summary="Paid."))

    await make_relay(store, settings=notes_only).process_pending()

    assert channel.texts(OPERATOR) == ["• The rider can still be changed."]


async def test_an_operator_listed_twice_hears_once(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await put(store, ASSIGNED)

    await make_relay(store, operators=[ChatRef(TELEGRAM, OPERATOR)] * 2).process_pending()

    assert channel.texts(OPERATOR) == ["Assigned to Tunde.\n• The rider can still be changed."]


async def test_without_operators_only_the_customer_hears(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await put(store, ASSIGNED)

    await make_relay(store, operators=[]).process_pending()

    assert [chat for chat, _ in channel.sent] == [CUSTOMER_CHAT]


# --- drop-off codes ------------------------------------------------------------------------------


async def test_a_customer_verified_as_the_receiver_gets_the_code(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), "+2348098765432", contact_user_id=CUSTOMER_USER
    )
    # The service may write the number another way: compared as E.164.
    body = {**OTP_ISSUED, "data": {**OTP_ISSUED["data"], "otp": otp("482913", "+234 809 876 5432")}}
    await put(store, body)

    await make_relay(store).process_pending()

    # The code itself tells it: no "the receiver will get a code" before it.
    assert channel.texts(CUSTOMER_CHAT) == [
        "Your drop-off code for delivery 3F2A9C1E is 482913. "
        "Give it to the rider only once the package is in your hands.",
    ]
    assert channel.texts(OPERATOR) == [
        "The drop-off code for Delivery 3F2A9C1E is ready (the fee was paid).\n"
        f"• {note_code_handled(SHIPPED)}"
    ]
    assert await store.otp.get(DELIVERY) is None


async def test_an_unverified_customer_gets_a_link_for_the_receiver_and_operators_wait(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, OTP_ISSUED)

    await make_relay(store).process_pending()

    handoff = await store.otp.get(DELIVERY)
    assert handoff is not None
    assert (handoff.code, handoff.receiver_phone, handoff.created) == (
        "482913",
        "+2348098765432",
        START,
    )
    # The code's own message tells it: the service's "you will get a code" is not repeated.
    assert channel.texts(CUSTOMER_CHAT) == [
        "The drop-off code for delivery 3F2A9C1E is ready. Only the receiver may see it, so "
        f"please forward this link to them:\n{BOT_LINK}{handoff.token}\n"
        "They open it and share their own phone number to get the code."
    ]
    waiting = (
        "The drop-off code for delivery 3F2A9C1E is waiting for the receiver to verify "
        "their phone number."
    )
    assert channel.texts(OPERATOR)[1:] == channel.texts(OPERATOR_2)[1:] == [waiting]
    assert all("482913" not in text for _, text in channel.sent)


async def test_an_errand_customer_who_is_the_receiver_is_not_told_of_another_receiver(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    errand = copy.deepcopy(OTP_ISSUED)
    errand["data"]["object"]["customer"]["sender_phone"] = "+234 809 876 5432"  # the receiver's
    await put(store, errand)

    await make_relay(store).process_pending()

    handoff = await store.otp.get(DELIVERY)
    assert handoff is not None
    assert channel.texts(CUSTOMER_CHAT) == [
        "The drop-off code for delivery 3F2A9C1E is ready. It goes only to the receiver's "
        "phone, which is yours: open this link and share your own contact to get it:\n"
        f"{BOT_LINK}{handoff.token}"
    ]


async def test_a_customer_with_another_verified_phone_gets_the_link_not_the_code(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), "+2348031234567", contact_user_id=CUSTOMER_USER
    )
    await put(store, OTP_ISSUED)

    await make_relay(store).process_pending()

    assert all("482913" not in text for _, text in channel.sent)
    assert any(BOT_LINK in text for text in channel.texts(CUSTOMER_CHAT))


async def test_a_receiver_phone_without_country_code_compares_with_the_configured_region(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), "+2348098765432", contact_user_id=CUSTOMER_USER
    )
    body = {**OTP_ISSUED, "data": {**OTP_ISSUED["data"], "otp": otp("482913", "0809 876 5432")}}
    await put(store, body)

    await make_relay(store, phone_region="NG").process_pending()

    assert any("is 482913" in text for text in channel.texts(CUSTOMER_CHAT))


async def test_a_local_receiver_phone_without_a_region_is_never_taken_for_a_match(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.contacts.record(
        UserRef("telegram", CUSTOMER_USER), "+2348098765432", contact_user_id=CUSTOMER_USER
    )
    body = {**OTP_ISSUED, "data": {**OTP_ISSUED["data"], "otp": otp("482913", "0809 876 5432")}}
    await put(store, body)

    await make_relay(store).process_pending()

    assert all("482913" not in text for _, text in channel.sent)
    handoff = await store.otp.get(DELIVERY)
    assert handoff is not None and handoff.receiver_phone == "0809 876 5432"


async def test_a_code_by_webhook_with_the_setting_off_tells_operators_to_switch_it_on(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    """The dashboard sends codes by webhook but ``[relay] otp_via_webhook`` is off: summaries
    promised the customer a text from the service. The code is still handed over as usual;
    operators are told, with each such code, to switch the setting on."""
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, ASSIGNED)
    await put(store, OTP_ISSUED)

    await make_relay(store, settings=RelayConfig()).process_pending()

    setting_off = (
        "The service sent the drop-off code for delivery 3F2A9C1E to the bot, as the "
        "dashboard's \"OTP via webhook only\" switch does, but the bot's [relay] otp_via_webhook "
        "setting is off, so order summaries tell customers the service texts the code to the "
        "receiver. Set otp_via_webhook = true in the bot's configuration and restart it."
    )
    for operator in (OPERATOR, OPERATOR_2):
        assert channel.texts(operator).count(setting_off) == 1  # the code's event only
    assert all(setting_off not in text for text in channel.texts(CUSTOMER_CHAT))
    assert await store.otp.get(DELIVERY) is not None  # the hand-off goes on as usual
    assert all("482913" not in text for _, text in channel.sent)


async def test_an_event_without_data_otp_brings_nothing_about_codes(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    no_code = {**OTP_ISSUED, "data": {k: v for k, v in OTP_ISSUED["data"].items() if k != "otp"}}
    await put(store, no_code)

    await make_relay(store).process_pending()

    assert await store.otp.get(DELIVERY) is None
    assert not any("code for delivery" in text for _, text in channel.sent)
    assert not any(BOT_LINK in text for _, text in channel.sent)


async def test_a_code_for_a_finished_delivery_goes_nowhere(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "delivered")
    await put(store, OTP_ISSUED)

    await make_relay(store).process_pending()

    assert await store.otp.get(DELIVERY) is None
    assert not any("482913" in text or BOT_LINK in text for _, text in channel.sent)


async def test_a_code_for_a_delivery_ordered_elsewhere_is_sent_to_no_one(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await put(store, OTP_ISSUED)  # never linked: the dashboard created it

    await make_relay(store, tuning=RelayTuning(link_attempts=1)).process_pending()

    assert channel.texts(CUSTOMER_CHAT) == []
    assert channel.texts(OPERATOR)[1] == (
        "The drop-off code for delivery 3F2A9C1E arrived, but that delivery was not ordered "
        "through this bot, so the bot did not send the code to anyone."
    )
    assert all("482913" not in text for _, text in channel.sent)


async def test_the_hand_off_is_dropped_once_the_delivery_is_finished(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await put(store, OTP_ISSUED)
    await put(
        store, event("evt_done", "delivered", event_type="delivery.completed", created=START + 9)
    )

    await make_relay(store).process_pending()

    assert await store.otp.get(DELIVERY) is None


async def test_a_resend_reuses_the_forwarded_link(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    relay = make_relay(store)
    await link(store, "picked_up")
    await put(store, OTP_ISSUED)
    await relay.process_pending()
    first = await store.otp.get(DELIVERY)
    resend = {**OTP_ISSUED, "id": "evt_otp_resend", "created": START + 300}
    await put(store, resend)

    await relay.process_pending()

    second = await store.otp.get(DELIVERY)
    assert first is not None and second is not None
    assert second.token == first.token and second.created == START + 300
    links = [text for text in channel.texts(CUSTOMER_CHAT) if BOT_LINK in text]
    assert len(links) == 2 and all(first.token in text for text in links)
