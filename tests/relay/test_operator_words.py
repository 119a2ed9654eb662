"""What operators read is plain words: the service's notes asking for what the bot has done
are said once in the bot's words (``bot.relay.operator_notes``), others pass as written; and
across the sandbox's scenarios, whole deliveries from create to delivered or cancelled, no
operator message names an API field (``data.otp.code``, ``tracking.url``, ``awaiting_price``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.config import RelayConfig
from bot.store import Store
from conversations.texts.deliveries_texts import note_code_handled, note_tracking_sent
from tests.support.words import SHIPPED

from .support import DELIVERY, OPERATOR, TUNDE, MakeRelay, RecordingChannel, event, link, otp, put
from .world import MakeWorld

SHARE_LINK = "Share the tracking link with the customer."
ASSIGNED = event(
    "evt_assigned",
    "matched",
    rider=TUNDE,
    summary="Assigned to Tunde.",
    notes=(SHARE_LINK, "The rider can still be changed."),
)
CODE_NOTES = (
    "Send the code only to the receiver, never to a group chat.",
    "Use the OTP exactly as given.",
    "Payment is settled.",
)
OTP_ISSUED = event(
    "evt_otp",
    "matched",
    event_type="delivery.otp_issued",
    summary="The drop-off code is ready.",
    notes=CODE_NOTES,
    otp=otp("482913"),
)


def settings(**sections: Any) -> RelayConfig:
    return RelayConfig.model_validate({"otp_via_webhook": True, **sections})


async def test_a_note_to_share_the_tracking_link_the_customer_had_is_the_bots_words(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "pending")  # the update below brings the customer the link
    await put(store, ASSIGNED)

    await make_relay(store, settings=settings()).process_pending()

    assert channel.texts(OPERATOR) == [
        f"Assigned to Tunde.\n• {note_tracking_sent(SHIPPED)}\n• The rider can still be changed."
    ]


async def test_a_note_to_share_a_link_the_bot_did_not_send_is_kept(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "pending")
    await put(store, ASSIGNED)
    no_link = settings(customer={"tracking_link": False})

    await make_relay(store, settings=no_link).process_pending()

    assert channel.texts(OPERATOR) == [
        f"Assigned to Tunde.\n• {SHARE_LINK}\n• The rider can still be changed."
    ]


async def test_notes_about_a_code_the_bot_hands_over_are_one_sentence_of_the_bots(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await link(store, "matched")
    await store.deliveries.mark_tracking_sent(DELIVERY)
    await put(store, OTP_ISSUED)

    await make_relay(store, settings=settings()).process_pending()

    update, waiting = channel.texts(OPERATOR)
    assert update.split("\n") == [
        "The drop-off code is ready.",
        f"• {note_code_handled(SHIPPED)}",
        "• Payment is settled.",
    ]
    assert "waiting for the receiver" in waiting


async def test_notes_about_a_code_nobody_was_given_are_kept(
    store: Store, make_relay: MakeRelay, channel: RecordingChannel
) -> None:
    await put(store, OTP_ISSUED)  # a delivery no chat of this bot ordered

    await make_relay(store, settings=settings()).process_pending()

    update, unrelayed = channel.texts(OPERATOR)
    assert update.split("\n")[1:] == [f"• {note}" for note in CODE_NOTES]
    assert "did not send the code to anyone" in unrelayed


# --- every operator message of whole deliveries, in plain words -------------------------------

# ``data.otp.code``, ``tracking.url``: dotted names; ``awaiting_price``, ``receiver_phone``:
# snake_case names; ``GET /riders``, ``POST /deliveries/{id}/assign``: API calls.
_FIELD_LIKE = re.compile(
    r"\b[a-z]+(?:\.[a-z_]+)+\b|\b[a-z]+(?:_[a-z0-9]+)+\b|\b(?:GET|POST|PUT|PATCH|DELETE) /"
)
_URL = re.compile(r"https?://\S+")


def field_names(text: str) -> list[str]:
    """The API-field-looking tokens of ``text`` (links aside)."""
    return _FIELD_LIKE.findall(_URL.sub("", text))


def test_the_scan_finds_what_operators_were_shown_before() -> None:
    assert field_names("Send data.otp.code only to data.otp.receiver_phone (phone ending 5432)")
    assert field_names("share tracking.url with the customer yourself")
    assert field_names("the delivery stays awaiting_price until staff price it")
    assert field_names("staff assign a rider, or use GET /riders")
    assert not field_names("Track it: https://track.example/track/x_y.z, Delivery 3F2A9C1E.")


def org(**values: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["organization"].update(values)

    return edit


def capabilities(**values: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["capabilities"].update(values)

    return edit


def public_request(**values: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["capabilities"]["publicRequest"].update(values)

    return edit


SCENARIOS = {
    "default": lambda data: None,
    "service_messages_on": org(customer_delivery_messages=True),
    "codes_texted_by_the_service": org(otp_via_webhook=False),
    "photo_proof_only": capabilities(requireDeliveryOtp=False),
    "paid_after_delivery": capabilities(paymentTiming="after_delivery"),
    "manual_dispatch": public_request(autoDispatch=False),
    "approval_first": public_request(requireApproval=True),
}


@pytest.mark.parametrize("scenario", SCENARIOS)
async def test_operators_read_no_api_field_names_in_a_whole_delivery(
    make_world: MakeWorld, channel: RecordingChannel, scenario: str
) -> None:
    world = await make_world(SCENARIOS[scenario])
    delivery = await world.order()
    await world.settle()
    if world.sandbox_delivery(delivery.id)["status"] == "awaiting_price":
        world.sandbox.set_fee(delivery.id, 2400)
        await world.settle()
    if world.sandbox_delivery(delivery.id)["status"] == "pending":
        await world.client.assign_rider(delivery.id, "rdr_tunde")
        await world.settle()
    await world.client.unassign_rider(delivery.id)
    await world.settle()
    await world.client.assign_rider(delivery.id, "rdr_tunde")
    world.sandbox.mark_paid(delivery.id)
    await world.settle()
    for _ in ("picked_up", "in_transit"):
        world.sandbox.advance_status(delivery.id)
        await world.settle()
    if world.sandbox.otp_code(delivery.id) and scenario != "codes_texted_by_the_service":
        world.sandbox.resend_otp(delivery.id)  # a resend comes by webhook only
    world.sandbox.advance_status(delivery.id)
    await world.settle()
    cancelled = await world.order()
    await world.settle()
    await world.client.cancel_delivery(cancelled.id, "The customer changed plans")
    await world.settle()

    shown = channel.texts(OPERATOR)
    assert len(shown) >= 8, shown  # created ... delivered, and the second order's two
    named = {text: field_names(text) for text in shown if field_names(text)}
    assert named == {}
