"""A returning customer (``conversations.returning``): the next order pre-sets their name,
phone and payment method and offers their last places with one tap, pre-selected; what the
business no longer allows (a saved place it removed, a room off the list, a place outside its
area, a payment method switched off) is not offered."""

from __future__ import annotations

from conversations import rules
from conversations.dialog import SavedOrder
from conversations.returning import Remembered, remembered_from, with_proven_phone
from tests.support.words import SHIPPED

from .conftest import LOCATIONS, Chat, World


async def first_order(world: World) -> Remembered:
    chat = world.chat()
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert chat.turn.order is not None
    known = remembered_from(chat.turn.order)
    assert known is not None
    return known


async def second_order_to_summary(world: World, known: Remembered) -> Chat:
    """The same customer again, taking every place offered from the last order, to the summary
    (the sender and the payment method are pre-set)."""
    chat = world.chat()
    await chat.start(customer="7", remembered=known)
    await chat.tap("pickup_delivery")
    await chat.tap("last:pickup")
    await chat.tap("last:dropoff")
    await chat.say("Chidi Eze")
    await chat.say("0803 555 0000")
    await chat.say("Books")
    await chat.tap("small")
    await chat.photos(1)
    return chat


async def test_what_an_order_leaves_to_remember(world: World) -> None:
    known = await first_order(world)
    assert (known.name, known.phone) == ("Ada Obi", "+2348031234567")
    assert set(known.places) == {"pickup", "dropoff"}
    pickup = known.place("pickup")
    assert pickup is not None and set(pickup) == {"pickup_place", "pickup_address"}
    dropoff = known.place("dropoff")
    assert dropoff is not None and dropoff["dropoff_unit"] == "A02"
    assert known.payment == world.creator.requests[-1].customerCollectionMethod


def test_a_later_order_keeps_the_places_it_did_not_use() -> None:
    before = Remembered(name="Ada", phone="+2348031234567", places={"pickup": {"pickup_place": {}}})
    warehouse_order = SavedOrder(
        flow="pickup_delivery",
        flow_version=2,
        answers={
            "sender_name": "Ada Obi",
            "sender_phone": "+2348030000000",
            "dropoff_place": {"kind": "location", "lat": 6.5, "lng": 3.4},
            "dropoff_address": "5 Awolowo Road",
        },
    )
    after = remembered_from(warehouse_order, before)
    assert after is not None
    assert (after.name, after.phone) == ("Ada Obi", "+2348030000000")
    assert set(after.places) == {"pickup", "dropoff"}
    unknown_shop = SavedOrder(
        flow="errand", flow_version=1, answers={"shop_place": {"kind": "unknown"}}
    )
    assert remembered_from(unknown_shop) is None


async def test_the_next_order_takes_one_tap_per_place_and_none_for_the_sender(
    world: World,
) -> None:
    known = await first_order(world)
    first = world.creator.requests[-1]
    chat = world.chat()
    await chat.start(customer="7", remembered=known)
    await chat.tap("pickup_delivery")
    assert chat.step == "pickup_place" and chat.prompt is not None
    assert chat.prompt.default == "last:pickup"
    assert chat.prompt.options[0].label == "Same as last time: 12 Marina Road, Lagos Island"
    await chat.tap("last:pickup")
    assert chat.step == "dropoff_place" and chat.prompt is not None
    assert chat.prompt.default == "last:dropoff"
    await chat.tap("last:dropoff")
    # The room came with the place; the name and phone are pre-set.
    assert chat.step == "receiver_name"
    assert chat.session is not None
    assert chat.session.filled_by["sender_name"] == chat.session.filled_by["sender_phone"]
    await chat.say("Chidi Eze")
    await chat.say("0803 555 0000")
    await chat.say("Books")
    await chat.tap("small")
    await chat.photos(1)
    # How they paid last time is pre-set too: straight to the summary, which shows it.
    assert chat.step == "summary" and chat.prompt is not None
    assert "Your name: Ada Obi" in chat.prompt.text
    assert "Payment: " in chat.prompt.text and "edit:payment" in chat.change_ids()
    await chat.tap("confirm")
    again = world.creator.requests[-1]
    for field in ("pickupAddress", "pickupCoords", "deliveryAddress", "deliveryCoords"):
        assert getattr(again, field) == getattr(first, field), field
    assert (again.senderName, again.senderPhone) == ("Ada Obi", "+2348031234567")


async def test_the_sender_can_be_changed_from_the_summary(world: World) -> None:
    chat = await second_order_to_summary(world, await first_order(world))
    await chat.tap("edit:sender_name")
    assert chat.step == "sender_name"
    await chat.contact("+2348035550000", "Ngozi", "Obi")
    assert chat.step == "summary"
    await chat.tap("confirm")
    sent = world.creator.requests[-1]
    assert (sent.senderName, sent.senderPhone) == ("Ngozi Obi", "+2348035550000")


async def test_a_new_customer_is_offered_nothing_of_anyone(world: World) -> None:
    await first_order(world)
    chat = world.chat()
    await chat.start(customer="8")
    await chat.tap("pickup_delivery")
    assert not any(o.startswith("last:") for o in chat.option_ids())
    assert chat.prompt is not None and chat.prompt.default is None


async def test_a_saved_place_the_business_removed_is_not_offered(world: World) -> None:
    known = await first_order(world)
    world.catalog.locations = [row for row in LOCATIONS if row.id != "loc-hall"]
    chat = world.chat()
    await chat.start(customer="7", remembered=known)
    await chat.tap("pickup_delivery")
    await chat.tap("last:pickup")
    assert chat.step == "dropoff_place"
    assert "last:dropoff" not in chat.option_ids()
    assert chat.prompt is not None and chat.prompt.default is None


async def test_a_room_no_longer_listed_is_asked_again(world: World) -> None:
    known = await first_order(world)
    dropoff = dict(known.place("dropoff") or {})
    dropoff["dropoff_unit"] = "A09"  # not on Unity Hall's list (A01 to A03)
    known = known.model_copy(update={"places": {**known.places, "dropoff": dropoff}})
    chat = world.chat()
    await chat.start(customer="7", remembered=known)
    await chat.tap("pickup_delivery")
    await chat.tap("last:pickup")
    await chat.tap("last:dropoff")
    assert chat.step == "dropoff_unit"


async def test_a_place_outside_the_area_now_is_not_offered(new_world) -> None:
    world = new_world(coverage={"mode": "radius_from_hub", "radiusKm": 20, "regionCount": 0})
    known = await first_order(world)
    far = known.model_copy(
        update={
            "places": {
                **known.places,
                "pickup": {
                    "pickup_place": {"kind": "location", "lat": 9.05, "lng": 7.49},  # Abuja
                    "pickup_address": "Wuse 2, Abuja",
                },
            }
        }
    )
    chat = world.chat()
    await chat.start(customer="7", remembered=far)
    await chat.tap("pickup_delivery")
    assert "last:pickup" not in chat.option_ids()


def test_a_phone_is_remembered_as_proven_only_when_it_was() -> None:
    order = SavedOrder(
        flow="pickup_delivery",
        flow_version=2,
        answers={"sender_name": "Ada Obi", "sender_phone": "+2348031234567"},
    )
    proven = remembered_from(order, phone_verified=True)
    assert proven is not None and proven.phone_verified
    # A later order whose phone was typed (verification turned off) is not proven any more.
    typed = remembered_from(order, proven)
    assert typed is not None and not typed.phone_verified


def test_a_repeat_keeps_the_senders_phone_only_when_it_was_proven() -> None:
    answers = {"sender_name": "Ada Obi", "sender_phone": "+2348031234567", "size": "small"}
    order = SavedOrder(flow="pickup_delivery", flow_version=2, answers=answers)
    proven = Remembered(name="Ada Obi", phone="+2348031234567", phone_verified=True)
    assert with_proven_phone(order, proven) == order
    unproven = proven.model_copy(update={"phone_verified": False})
    other = proven.model_copy(update={"phone": "+2348035550000"})
    for known in (unproven, other, None):
        kept = with_proven_phone(order, known)
        assert kept.answers == {"sender_name": "Ada Obi", "size": "small"}


async def test_a_payment_method_no_longer_offered_is_asked_again(new_world) -> None:
    world = new_world()
    known = await first_order(world)
    other = "online_checkout" if known.payment == "cash_on_delivery" else "cash_on_delivery"
    world.catalog.caps = world.catalog.caps.model_copy(
        update={
            "paymentCollection": world.catalog.caps.paymentCollection.model_copy(
                update={
                    "cashOnDelivery": other == "cash_on_delivery",
                    "onlineCheckout": other == "online_checkout",
                }
            )
        }
    )
    chat = await second_order_to_summary(world, known)
    # The one method left answers itself (as for anyone): the remembered one is not sent.
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[-1].customerCollectionMethod == other


async def test_a_first_order_pays_in_cash_unless_changed_and_the_next_keeps_the_change(
    world: World,
) -> None:
    chat = world.chat()
    await chat.pickup_delivery_to_summary()  # never asked how to pay: cash in person is pre-set
    assert chat.session is not None and chat.prompt is not None
    assert chat.session.answers["payment"] == "cash_on_delivery"
    cash = rules.payment_label(SHIPPED, "cash_on_delivery", world.catalog.caps)
    assert f"Payment: {cash}" in chat.prompt.text
    await chat.tap("edit:payment")
    assert chat.step == "payment" and chat.prompt.default == "cash_on_delivery"
    await chat.tap("online_checkout")
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[-1].customerCollectionMethod == "online_checkout"
    assert chat.turn.order is not None
    known = remembered_from(chat.turn.order)
    assert known is not None and known.payment == "online_checkout"

    again = await second_order_to_summary(world, known)
    assert again.session is not None
    assert again.session.answers["payment"] == "online_checkout"  # their own, not the cash
