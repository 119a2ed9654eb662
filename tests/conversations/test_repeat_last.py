"""Repeat my last delivery (``Engine.replay``): the answers that made an order are given again
in the flow that asked them, so only what cannot be reused (photos) or what today's settings no
longer allow is asked; the create goes out with a new key. An order of another flow version
starts a new order instead."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.partner.models import CreateDeliveryRequest
from conversations.dialog import SavedOrder
from conversations.flows import ERRAND, PICKUP_DELIVERY, RETURN_PARCEL
from conversations.texts import dialogue
from tests.support.words import SHIPPED

CUSTOMER = "7"


def same_order(request: CreateDeliveryRequest) -> dict[str, Any]:
    """What a repeat must send again: everything but the photos and the key."""
    return request.model_dump(exclude={"idempotencyKey", "packageImages"})


# --- orders made the ordinary way, to be repeated ------------------------------------------------


async def pickup(chat) -> None:
    await chat.pickup_delivery_to_summary()


async def pickup_someone_else_cash_fragile(chat) -> None:
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    await chat.location(6.45, 3.40)
    await chat.say("Plot 7, Admiralty Way")
    await chat.say("Ada Obi")
    await chat.say("0803 123 4567")
    await chat.say("Bola Ade")
    await chat.say("+234 802 222 3333")
    await chat.say("A laptop")
    await chat.tap("medium")
    await chat.photos(6)
    await chat.pay("online_checkout")
    # the email, who hands it over, fragile and the cash are pre-set: changed at the summary
    await chat.tap("edit:sender_email")
    await chat.say("ada@example.com")
    await chat.tap("edit:pickup_contact")
    await chat.tap("no")
    await chat.contact("+2348055555555", "Chidi", "Eze")
    await chat.tap("edit:fragile")
    await chat.tap("yes")
    await chat.tap("edit:pod_amount")
    await chat.say("₦25,000")


async def warehouse(chat) -> None:
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("warehouse")  # offered by the pickup place question
    await chat.tap("wh-2")
    await chat.tap("saved:loc-gate")
    await chat.contact("08031234567", "Ada")
    await chat.say("Bola")
    await chat.say("08022223333")
    await chat.say("Shoes")
    await chat.tap("small")
    await chat.photos(1)
    await chat.pay("cash_on_delivery")


async def errand_at_a_shop(chat) -> None:
    await chat.errand_to_summary("at_place")


async def errand_from_a_curated_link(chat) -> None:
    await chat.errand_to_summary("link")


async def errand_from_a_photo(chat) -> None:
    await chat.errand_to_summary("photo")


async def errand_shop_unknown(chat) -> None:
    await chat.start()
    await chat.tap("errand")
    await chat.tap("at_place")
    await chat.say("Suya for four")
    await chat.command("skip")
    await chat.tap("unknown")
    await chat.say("Mallam Musa's spot near the bus stop")
    await chat.say("0803 000 1111")
    await chat.command("skip")
    await chat.tap("no")
    await chat.tap("small")
    await chat.location(6.52, 3.38)
    await chat.say("Room 4, Jaja Hall")
    await chat.say("Ada Obi")
    await chat.say("08031234567")
    await chat.pay("cash_on_delivery")


async def errand_from_own_link(chat) -> None:
    await chat.start()
    await chat.tap("errand")
    await chat.tap("link")
    await chat.say("A phone case")
    await chat.command("skip")
    await chat.say("shop.example.ng/cases/42")
    await chat.tap("unknown")
    await chat.command("skip")
    await chat.command("skip")
    await chat.tap("yes")
    await chat.tap("small")
    await chat.tap("saved:loc-gate")
    await chat.contact("+2348031234567", "Ada", "Obi")
    await chat.pay("cash_on_delivery")


async def return_parcel(chat) -> None:
    await chat.start()
    await chat.tap("return_parcel")
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    await chat.contact("+2348031234567", "Ada", "Obi")
    await chat.say("Wrong size shoes, order 1234")
    await chat.tap("small")
    await chat.photos(1)
    await chat.pay("online_checkout")


ORDERS: dict[str, Callable[[Any], Awaitable[None]]] = {
    "pickup": pickup,
    "someone else hands over, cash to collect, fragile": pickup_someone_else_cash_fragile,
    "warehouse": warehouse,
    "errand at a shop": errand_at_a_shop,
    "errand, shop unknown": errand_shop_unknown,
    "errand from a curated link": errand_from_a_curated_link,
    "errand from the customer's own link": errand_from_own_link,
    "errand from a photo": errand_from_a_photo,
    "return a parcel": return_parcel,
}


async def ordered(world, engine, make=pickup) -> tuple[SavedOrder, CreateDeliveryRequest]:
    """An order made in a first chat: what the runner keeps, and the request it sent."""
    first = world.chat(engine)
    await make(first)
    assert first.step == "summary", first.said
    await first.tap("confirm")
    assert first.turn.status == "created"
    assert first.turn.order is not None
    return first.turn.order, first.turn.request


async def send_photos_if_asked(chat) -> None:
    if chat.step != "photos":
        return
    if chat.prompt.photos.min:
        await chat.photos(1, start=50)
    else:
        await chat.command("skip")


# --- what the created turn keeps ----------------------------------------------------------------


async def test_the_created_turn_carries_the_answers_of_the_flow_that_made_it(world):
    order, _ = await ordered(world, world.engine())
    assert (order.flow, order.flow_version) == ("pickup_delivery", PICKUP_DELIVERY.version)
    assert "service_kind" not in order.answers  # the entry's answer belongs to the entry
    assert order.answers["receiver_name"] == "Bola Ade"
    assert set(order.answers) <= {step.name for step in PICKUP_DELIVERY.steps}
    assert SavedOrder.model_validate_json(order.model_dump_json()) == order


# --- the same order again -----------------------------------------------------------------------


@pytest.mark.parametrize("make", ORDERS.values(), ids=ORDERS.keys())
async def test_the_last_order_goes_out_again_as_it_was(world, make):
    engine = world.engine()
    order, old = await ordered(world, engine, make)
    chat = world.chat(engine)

    await chat.replay(order, customer=CUSTOMER)

    assert "is filled in again" in chat.said
    assert chat.step == "photos"  # the only question: the rest is filled in
    await send_photos_if_asked(chat)
    assert chat.step == "summary", chat.said
    await chat.tap("confirm")

    assert chat.turn.status == "created"
    new = world.creator.requests[-1]
    assert same_order(new) == same_order(old)
    assert not set(new.packageImages) & set(old.packageImages)  # old photos never reused
    assert new.idempotencyKey != old.idempotencyKey
    assert chat.session.customer == CUSTOMER


async def test_the_replay_says_so_then_asks_for_photos_again(world):
    engine = world.engine()
    order, _ = await ordered(world, engine)
    chat = world.chat(engine)

    await chat.replay(order)

    assert chat.turn.messages == (
        dialogue.repeating(SHIPPED, "Pickup & delivery"),
        dialogue.not_reused(SHIPPED, ["Photos"]),
    )
    assert chat.session.flow == "pickup_delivery"
    assert "photos" not in chat.session.answers
    assert chat.prompt.photos.have == 0
    assert "back" not in chat.prompt.commands  # nothing was asked before


async def test_a_repeat_is_saved_with_its_new_key_before_it_is_sent(world):
    engine = world.engine()
    order, _ = await ordered(world, engine)
    chat = world.chat(engine)
    await chat.replay(order)
    await send_photos_if_asked(chat)
    await chat.tap("confirm")
    assert world.saved_keys == ["key-0001-chat", "key-0002-chat"]
    assert world.creator.requests[-1].idempotencyKey == "key-0002-chat"


async def test_any_answer_of_a_repeat_can_be_changed(world):
    engine = world.engine()
    order, old = await ordered(world, engine)
    again = world.chat(engine)
    await again.replay(order, customer=CUSTOMER)
    await send_photos_if_asked(again)

    assert {"edit:receiver_name", "edit:pickup_place", "edit:payment"} <= set(again.change_ids())
    await again.tap("edit:package_description")
    assert again.prompt.current == "Two books"
    await again.say("Three books")
    assert again.step == "summary"
    await again.tap("confirm")

    new = world.creator.requests[-1]
    assert new.packageDescription == "Three books"
    assert same_order(new) == same_order(old) | {"packageDescription": "Three books"}


async def test_a_repeated_order_can_be_repeated_again(world):
    engine = world.engine()
    order, old = await ordered(world, engine)
    second = world.chat(engine)
    await second.replay(order)
    await send_photos_if_asked(second)
    await second.tap("confirm")
    assert second.turn.order is not None

    third = world.chat(engine)
    await third.replay(second.turn.order)
    await send_photos_if_asked(third)
    await third.tap("confirm")
    assert same_order(world.creator.requests[-1]) == same_order(old)


# --- what today's settings no longer allow is asked again ---------------------------------------


async def test_a_payment_method_no_longer_allowed_is_asked_again(world, caps):
    engine = world.engine()
    order, _ = await ordered(world, engine)
    world.catalog.caps = caps(paymentCollection={"cashOnDelivery": False})
    chat = world.chat(engine)
    await chat.replay(order)
    await send_photos_if_asked(chat)

    assert "Payment: your choice is no longer offered" in chat.said
    assert "Payment: Pay online." in chat.said  # the one method left answers itself
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[-1].customerCollectionMethod == "online_checkout"


async def test_a_warehouse_no_longer_allowed_asks_for_a_pickup_place(world, caps):
    engine = world.engine()
    order, _ = await ordered(world, engine, warehouse)
    world.catalog.caps = caps(allowWarehouseDropoff=False)
    chat = world.chat(engine)
    await chat.replay(order)
    await send_photos_if_asked(chat)

    assert "How it's picked up: your choice is no longer offered" in chat.said
    assert chat.step == "pickup_place"
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    assert chat.step == "summary"  # "Me" hands it over, pre-set now a rider picks up
    assert chat.session.answers["pickup_contact"] == "yes"
    await chat.tap("confirm")
    sent = world.creator.requests[-1]
    assert (sent.deliveryMode, sent.warehouseId) == ("pickup", None)
    assert sent.pickupAddress == "Tafawa Balewa Square"


async def test_a_saved_place_the_business_removed_is_asked_again(world):
    engine = world.engine()
    order, old = await ordered(world, engine)  # delivered to Unity Hall, room A02
    world.catalog.locations = [row for row in world.catalog.locations if row.id != "loc-hall"]
    chat = world.chat(engine)
    await chat.replay(order)
    await send_photos_if_asked(chat)

    assert "Drop-off place: your choice is no longer offered" in chat.said
    assert chat.step == "dropoff_place"
    await chat.tap("saved:loc-gate")
    assert chat.step == "summary"
    await chat.tap("confirm")
    sent = world.creator.requests[-1]
    assert sent.deliveryAddress == "Main Gate — Main Gate Road, University of Lagos"
    assert sent.pickupAddress == old.pickupAddress


async def test_an_answer_that_is_not_an_option_any_more_is_asked_again(world):
    engine = world.engine()
    order, _ = await ordered(world, engine)
    stored = order.model_copy(update={"answers": order.answers | {"package_size": "huge"}})
    chat = world.chat(engine)
    await chat.replay(stored)
    await send_photos_if_asked(chat)

    assert "Size: your choice is no longer offered" in chat.said
    assert chat.step == "package_size"
    await chat.tap("large")
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[-1].packageSize == "large"


async def test_cash_to_collect_is_left_out_when_pod_is_off(world, caps):
    engine = world.engine()
    order, old = await ordered(world, engine, pickup_someone_else_cash_fragile)
    assert (old.isPODEnabled, old.podAmount) == (True, 25000)
    world.catalog.caps = caps(pod={"enabled": False})
    chat = world.chat(engine)
    await chat.replay(order)
    await send_photos_if_asked(chat)

    assert chat.step == "summary"
    assert "Cash to collect" not in chat.prompt.text
    await chat.tap("confirm")
    sent = world.creator.requests[-1]
    assert (sent.isPODEnabled, sent.podAmount) == (None, None)


async def test_an_errand_mode_no_longer_enabled_is_asked_again(world, caps):
    engine = world.engine()
    order, _ = await ordered(world, engine, errand_from_a_curated_link)
    world.catalog.caps = caps(errand={"enabledModes": ["at_place", "photo"]})
    chat = world.chat(engine)
    await chat.replay(order)
    await chat.command("skip")  # photos

    assert "Errand type: your choice is no longer offered" in chat.said
    assert chat.step == "errand_mode"
    await chat.tap("at_place")
    assert chat.step == "photos"  # built on the errand type: asked again
    await chat.command("skip")
    assert chat.step == "shop_place"  # the link went with the errand type
    await chat.location(6.6018, 3.3515, address="Shoprite, Ikeja City Mall")
    assert chat.step == "summary"
    await chat.tap("confirm")
    sent = world.creator.requests[-1]
    assert (sent.errandMode, sent.errandLinks) == ("at_place", [])


async def test_a_flow_the_business_no_longer_offers_starts_a_new_order_in_what_it_offers(
    world, caps
):
    engine = world.engine()
    order, _ = await ordered(world, engine, errand_at_a_shop)
    world.catalog.caps = caps(enabledServiceKinds=["pickup_delivery"])
    chat = world.chat(engine)
    await chat.replay(order)

    assert chat.turn.status == "open"
    assert "Sorry, this business doesn't offer errands right now." in chat.said
    assert chat.step == "service_kind"
    assert chat.turn.prompt is not None
    assert "errand" not in [option.id for option in chat.turn.prompt.options]
    assert len(world.creator.requests) == 1


# --- an order of another form --------------------------------------------------------------------


@pytest.mark.parametrize(
    "order",
    [
        SavedOrder(flow="errand", flow_version=ERRAND.version - 1, answers={"errand_mode": "link"}),
        SavedOrder(flow="errand", flow_version=ERRAND.version + 1, answers={}),
        SavedOrder(flow="no_such_flow", flow_version=1, answers={"x": 1}),
    ],
    ids=["older version", "newer version", "unknown flow"],
)
async def test_an_order_of_another_version_starts_a_new_order_instead(world, chat, order):
    await chat.replay(order, customer=CUSTOMER)

    assert chat.turn.messages[0] == dialogue.CANNOT_REPEAT.render(SHIPPED)
    assert (chat.session.flow, chat.step) == ("order", "service_kind")
    assert chat.session.answers == {}
    assert chat.session.customer == CUSTOMER
    assert "errand_mode" not in chat.session.answers


async def test_a_return_is_replayed_into_the_return_flow(world):
    engine = world.engine()
    order, _ = await ordered(world, engine, return_parcel)
    assert (order.flow, order.flow_version) == ("return_parcel", RETURN_PARCEL.version)
    chat = world.chat(engine)
    await chat.replay(order)
    assert chat.turn.messages[0] == dialogue.repeating(SHIPPED, "Return a parcel to us")
    assert chat.session.flow == "return_parcel"
