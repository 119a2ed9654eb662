"""Creating: the idempotency key, every kind of refusal, and what a new delivery is told."""

from __future__ import annotations

import pytest

from bot.partner.models import Delivery
from conversations.dialog import DeliveryCreated, ResendAfter, Turn
from conversations.outcome import Created
from conversations.refusals import decide
from conversations.services import ServiceUnavailable
from conversations.texts import dialogue
from conversations.texts.catalogue import Texts
from conversations.texts.dialogue import IMAGE_HOST_ALERT, refusal
from tests.support.words import SHIPPED


async def test_the_key_is_made_once_and_saved_before_the_first_call(world, chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert world.saved_keys == ["key-0001-chat"]
    assert world.creator.requests[0].idempotencyKey == "key-0001-chat"


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("awaiting_price", "The team will set the delivery fee and approve it"),
        ("pending", "Your delivery is booked and waiting for a rider to be assigned."),
        ("matched", "Musa has already been assigned and will head to the pickup soon."),
    ],
)
async def test_each_status_after_create_is_explained_with_the_tracking_link(
    world, chat, status, expected
):
    delivery = Delivery.model_validate(
        {
            "id": "dlv-9",
            "status": status,
            "tracking": {"url": "https://track.example/track/dlv-9/abc"},
            "rider": {"id": "r-1", "name": "Musa"} if status == "matched" else None,
        }
    )
    world.creator.script = [Created(delivery=delivery)]
    await chat.errand_to_summary()
    await chat.tap("confirm")
    assert chat.turn.status == "created"
    assert expected in chat.said
    assert "Track it here: https://track.example/track/" in chat.said
    assert chat.session.delivery_status == status


async def test_validation_errors_send_the_customer_to_each_field_then_back(world, chat):
    world.creator.script = [
        decide(
            "validation",
            message="Invalid request",
            field_errors={
                "receiverPhone": ["Not a reachable number"],
                "deliveryCoords.lat": ["Outside the map"],
            },
        )
    ]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")

    # The answers to fix, named in the bot's words; the service's texts stay out of the chat.
    assert "some of your answers: Receiver's phone, Drop-off place." in chat.said
    assert "Not a reachable number" not in chat.said
    assert "Outside the map" not in chat.said
    assert chat.step == "dropoff_place"  # the first of them on the route
    assert chat.session.answers["sender_name"] == "Ada Obi"  # everything else is kept
    assert chat.session.idempotency_key is None  # a new body gets a new key

    await chat.tap("saved:loc-gate")
    assert chat.step == "receiver_phone"
    await chat.say("08077778888")
    assert chat.step == "summary"
    await chat.tap("confirm")

    assert chat.turn.status == "created"
    first, second = world.creator.requests
    assert second.receiverPhone == "+2348077778888"
    assert second.deliveryAddress == "Main Gate — Main Gate Road, University of Lagos"
    assert first.idempotencyKey != second.idempotencyKey


async def test_a_validation_error_on_a_field_no_step_asks_is_said_plainly_at_the_summary(
    world, chat
):
    world.creator.script = [
        decide("validation", field_errors={"distanceKm": ["Must be positive"]}),
        decide("validation", message="Something is off"),
    ]
    await chat.errand_to_summary()
    await chat.tap("confirm")
    assert "could not accept this order as it is" in chat.said
    assert "distanceKm" not in chat.said
    assert "Must be positive" not in chat.said
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert "could not accept this order as it is" in chat.said
    assert "Something is off" not in chat.said
    assert chat.step == "summary"


async def test_service_disabled_refreshes_and_asks_the_service_kind_again(world, chat, caps):
    world.creator.script = [decide("service_disabled", message="errand is off")]
    world.catalog.after_refresh = caps(enabledServiceKinds=["pickup_delivery"])
    await chat.errand_to_summary()
    await chat.tap("confirm")

    assert world.catalog.refreshes == 1
    assert "no longer offers this service" in chat.said
    # errands are gone: the entry asks between the flows still usable
    assert (chat.session.flow, chat.step) == ("order", "service_kind")
    assert chat.option_ids() == ["pickup_delivery", "return_parcel"]
    await chat.tap("pickup_delivery")
    assert chat.session.flow == "pickup_delivery"
    assert chat.step == "pickup_place"  # a rider picking up is pre-set
    await chat.location(6.6018, 3.3515, address="Shoprite, Ikeja City Mall")
    # the drop-off, name, phone and email carry over from the errand; "Me" is pre-set
    assert chat.step == "receiver_name"


async def test_service_disabled_in_a_directly_started_flow_ends_it(world, chat, caps):
    world.creator.script = [decide("service_disabled")]
    world.catalog.after_refresh = caps(enabledServiceKinds=["pickup_delivery"])
    await chat.start("errand")
    await chat.tap("at_place")
    await chat.say("Bread")
    await chat.command("skip")
    await chat.location(6.6, 3.35, address="Corner shop")
    await chat.command("skip")
    await chat.command("skip")
    await chat.tap("no")
    await chat.tap("small")
    await chat.tap("saved:loc-gate")
    await chat.contact("2348031234567", "Ada")
    await chat.command("skip")
    await chat.pay("cash_on_delivery")
    await chat.tap("confirm")
    assert chat.turn.status == "ended"
    assert "Sorry, this business doesn't offer errands right now." in chat.said


async def test_a_payment_rejection_refreshes_and_asks_the_payment_again(world, chat, caps):
    world.creator.script = [decide("payment", message="cash is off")]
    world.catalog.after_refresh = caps(paymentCollection={"cashOnDelivery": False})
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")

    assert world.catalog.refreshes == 1
    assert "That payment method can't be used for this order any more." in chat.said
    assert "cash is off" not in chat.said  # the service's own wording is not the customer's
    assert "Payment: Pay online." in chat.said  # the one method left answers itself
    # cleared with the payment, the cash to collect takes its default (none) again
    assert chat.step == "summary"
    assert chat.session.answers["pod_amount"] is None
    await chat.tap("confirm")
    assert world.creator.requests[-1].customerCollectionMethod == "online_checkout"


async def test_a_coverage_rejection_asks_for_the_places_again(world, chat):
    world.creator.script = [decide("coverage", message="outside the delivery area")]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert world.catalog.refreshes == 1
    assert "does not cover one of these places: Pickup place, Drop-off place." in chat.said
    assert "outside the delivery area" not in chat.said
    assert chat.step == "pickup_place"
    await chat.tap("saved:loc-gate")
    assert chat.step == "dropoff_place"
    await chat.tap("saved:loc-library")
    await chat.command("skip")
    assert chat.step == "summary"


async def test_operators_read_a_french_customers_alert_in_the_business_language(world):
    chat = world.chat(catalogue=Texts(locale="en_NG").catalogue_for("fr"))
    world.creator.script = [decide("image_host", message="host not allowlisted")]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert "photos" in chat.said and "could not accept" not in chat.said  # told in French
    assert chat.turn.operator_alert == IMAGE_HOST_ALERT.render(SHIPPED)


async def test_a_coverage_rejection_naming_a_field_asks_only_that_place(world, chat):
    world.creator.script = [decide("coverage", field_errors={"deliveryCoords": ["Out of area"]})]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert chat.step == "dropoff_place"
    assert "pickup_place" in chat.session.answers


async def test_a_refused_image_host_tells_the_customer_and_alerts_operators(world, chat):
    world.creator.script = [decide("image_host", message="host not allowlisted")]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert "could not accept the photos" in chat.said
    assert chat.turn.operator_alert == IMAGE_HOST_ALERT.render(SHIPPED)
    assert chat.step == "summary"
    assert chat.turn.status == "open"


async def test_a_lost_answer_ends_the_order_as_unconfirmed_never_as_not_sent(world, chat):
    world.creator.script = [decide("unavailable")]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")

    assert chat.said == dialogue.CHECKING.render(SHIPPED)
    turn = chat.turn
    assert turn.status == "unconfirmed" and turn.finished and turn.prompt is None
    (sent,) = world.creator.requests
    assert turn.unconfirmed is not None
    assert turn.unconfirmed.request == sent  # the very body and key, for the retries
    assert sent.idempotencyKey == "key-0001-chat"
    assert turn.unconfirmed.order.flow == "pickup_delivery"
    assert turn.unconfirmed.order.answers["package_description"] == sent.packageDescription
    assert turn.delivery is None and turn.order is None
    assert world.saved_keys == ["key-0001-chat"]  # saved before the create went out


async def test_an_identical_order_held_goes_back_to_the_summary_with_its_key(world, chat):
    world.creator.script = [decide("duplicate_held")]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert chat.said == dialogue.DUPLICATE_HELD.render(SHIPPED)
    assert chat.step == "summary"
    assert chat.session.idempotency_key == "key-0001-chat"

    await chat.tap("confirm")  # a second order, on purpose

    assert chat.turn.status == "created"
    first, second = world.creator.requests
    assert first == second


async def test_rate_limited_says_how_long_to_wait_and_retries_with_the_same_key(world, chat):
    world.creator.script = [decide("rate_limited", retry_after=12.4)]
    await chat.errand_to_summary()
    await chat.tap("confirm")
    assert "The delivery service is busy. Please wait about 12 seconds" in chat.said
    assert chat.turn.retry_after == 12.4
    assert chat.turn.effects == (ResendAfter(seconds=12.4),)  # the runner's one thing to do
    await chat.tap("confirm")
    first, second = world.creator.requests
    assert first.idempotencyKey == second.idempotencyKey
    assert [type(effect) for effect in chat.turn.effects] == [DeliveryCreated]


async def test_a_turn_with_effects_reads_back_from_its_json(chat):
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    stored = chat.turn.model_dump_json()
    assert Turn.model_validate_json(stored).effects == chat.turn.effects


@pytest.mark.parametrize(
    ("retry_after", "wait"),
    [
        (0.6, "about 1 second,"),
        (1.4, "about 1 second,"),
        (2, "about 2 seconds,"),
        (None, "a moment,"),
    ],
)
def test_the_wait_reads_as_plain_english(retry_after: float | None, wait: str) -> None:
    message = refusal(SHIPPED, decide("rate_limited", retry_after=retry_after))
    assert f"Please wait {wait}" in message


async def test_another_refusal_is_shown_and_the_draft_kept(world, chat):
    world.creator.script = [decide("other", message="Trust check failed")]
    await chat.errand_to_summary()
    await chat.tap("confirm")
    assert "refused this order for a reason only the business can fix" in chat.said
    assert "Trust check failed" not in chat.said
    assert chat.step == "summary"
    assert chat.session.idempotency_key is None
    assert world.catalog.refreshes == 1
    assert "Trust check failed" in chat.turn.operator_alert  # only the business can fix it


async def test_a_creator_that_is_down_counts_as_unavailable(world, chat):
    async def down(request, turn=None, *, flow):
        raise ServiceUnavailable("create_failed")

    world.creator.create = down
    await chat.errand_to_summary()
    await chat.tap("confirm")
    assert chat.said == dialogue.CHECKING.render(SHIPPED)
    assert chat.turn.status == "unconfirmed"
    assert chat.turn.unconfirmed.request.idempotencyKey == "key-0001-chat"


async def test_a_validation_error_on_the_service_kind_asks_it_again(world, chat):
    world.creator.script = [decide("validation", field_errors={"serviceKind": ["Not enabled"]})]
    await chat.errand_to_summary()
    await chat.tap("confirm")
    assert "some of your answers: Service." in chat.said
    assert "serviceKind" not in chat.said
    assert "Not enabled" not in chat.said
    assert world.catalog.refreshes == 1
    assert (chat.session.flow, chat.step) == ("order", "service_kind")


async def test_settings_that_changed_after_the_summary_are_asked_before_creating(world, chat, caps):
    await chat.pickup_delivery_to_summary()
    world.catalog.caps = caps(paymentCollection={"cashOnDelivery": False})
    await chat.tap("confirm")
    assert world.creator.requests == []
    assert "Payment: your choice is no longer offered" in chat.said
    assert "Payment: Pay online." in chat.said
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[0].customerCollectionMethod == "online_checkout"


async def test_editing_the_errand_type_asks_what_the_new_type_needs(new_world):
    world = new_world(pod={"enabled": False})
    chat = world.chat()
    await chat.errand_to_summary()
    await chat.tap("edit:errand_mode")
    await chat.tap("link")
    assert chat.step == "photos"  # how many photos are needed depends on the errand type
    await chat.command("skip")
    assert chat.step == "errand_link"  # never answered before
    await chat.tap("curated:cl-2")
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[0].errandLinks[0].curatedId == "cl-2"


async def test_a_step_that_newly_applies_is_asked_before_creating(new_world, caps):
    world = new_world(pod={"enabled": False})
    chat = world.chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("saved:loc-gate")
    await chat.tap("saved:loc-library")
    await chat.command("skip")
    await chat.contact("2348031234567", "Ada")
    await chat.contact("2348022223333", "Bola")
    await chat.say("Books")
    await chat.tap("small")
    await chat.photos(1)
    await chat.pay("cash_on_delivery")
    assert chat.step == "summary"
    world.catalog.caps = caps(pod={"enabled": True})

    await chat.tap("confirm")

    # Nothing is sent: the summary shows the newly applying step with its default first.
    assert world.creator.requests == []
    assert chat.step == "summary"
    assert "Cash to collect: No cash to collect" in chat.prompt.text
    await chat.tap("edit:pod_amount")
    await chat.say("3000")
    await chat.tap("confirm")
    assert world.creator.requests[0].podAmount == 3000
