"""Repeat my last delivery: the last request filled in again, only what cannot be reused asked,
today's capabilities re-checked, and a create with a new key."""

from __future__ import annotations

from typing import Any

import pytest

from bot.partner.models import CreateDeliveryRequest
from conversations.dialog import TextAnswer
from conversations.flows import REPEAT_FLOW
from conversations.flows.repeat_last import NO_MORE_POD, NOT_AVAILABLE, NOTHING_YET, PHOTOS_AGAIN
from conversations.services import Services

CUSTOMER = "7"
OLD_PHOTO = "https://media.example/p/expired.jpg"
UNITY_HALL_A02 = "Unity Hall — Unity Hall Road, University of Lagos — A02"

PICKUP: dict[str, Any] = {
    "serviceKind": "pickup_delivery",
    "deliveryMode": "pickup",
    "pickupContactSameAsSender": True,
    "senderName": "Ada Obi",
    "senderPhone": "+2348031234567",
    "senderEmail": "ada@example.com",
    "receiverName": "Bola Ade",
    "receiverPhone": "+2348022223333",
    "pickupAddress": "12 Marina Road, Lagos Island",
    "pickupCoords": {"lat": 6.5244, "lng": 3.3792},
    "deliveryAddress": UNITY_HALL_A02,
    "deliveryCoords": {"lat": 6.515, "lng": 3.389},
    "packageDescription": "Two books",
    "packageSize": "small",
    "isFragile": False,
    "packageImages": [OLD_PHOTO],
    "customerCollectionMethod": "cash_on_delivery",
}
WAREHOUSE = PICKUP | {
    "deliveryMode": "warehouse",
    "warehouseId": "wh-2",
    "pickupContactSameAsSender": None,
    "pickupAddress": "1 Admiralty Way",
    "pickupCoords": {"lat": 6.44, "lng": 3.47},
}
ERRAND: dict[str, Any] = {
    "serviceKind": "errand",
    "deliveryMode": "pickup",
    "senderName": "Ada Obi",
    "senderPhone": "+2348031234567",
    "senderEmail": "",
    "receiverName": "Ada Obi",
    "receiverPhone": "+2348031234567",
    "pickupAddress": "Shoprite, Ikeja City Mall",
    "pickupCoords": {"lat": 6.6018, "lng": 3.3515},
    "deliveryAddress": "Main Gate — Main Gate Road, University of Lagos",
    "deliveryCoords": {"lat": 6.517, "lng": 3.385},
    "packageDescription": "A bag of rice",
    "packageSize": "medium",
    "packageImages": [],
    "customerCollectionMethod": "online_checkout",
    "errandMode": "at_place",
    "errandLinks": [],
    "errandBudgetNgn": "15000",
    "errandSubstituteOk": True,
    "shopPhone": "",
    "pickupLocationUnknown": False,
}
NO_PIN = {"pickupCoords": ERRAND["deliveryCoords"], "pickupLocationUnknown": True}

REQUESTS: dict[str, dict[str, Any]] = {
    "pickup": PICKUP,
    "someone else hands over, cash to collect, fragile": PICKUP
    | {
        "pickupContactSameAsSender": False,
        "pickupContactName": "Chidi Eze",
        "pickupContactPhone": "+2348055555555",
        "isPODEnabled": True,
        "podAmount": 5000,
        "isFragile": True,
    },
    "warehouse": WAREHOUSE,
    "errand at a shop": ERRAND,
    "errand, shop unknown": ERRAND
    | NO_PIN
    | {"pickupAddress": "Shop location unknown — rider to find: Mallam Musa's spot"},
    "errand from a curated link": ERRAND
    | {
        "errandMode": "link",
        "errandLinks": [
            {"url": "https://www.konga.com", "note": "A bag of rice", "curatedId": "cl-2"}
        ],
        "pickupAddress": "Online order: Konga",
        "pickupCoords": ERRAND["deliveryCoords"],
        "errandBudgetNgn": "",
        "shopPhone": "+2348030001111",
    },
    "errand from the customer's own link": ERRAND
    | NO_PIN
    | {
        "errandMode": "link",
        "errandLinks": [{"url": "https://shop.example.ng/cases/42", "note": "A bag of rice"}],
        "pickupAddress": "Online order: shop.example.ng, rider to find the shop",
    },
    "errand from a photo": ERRAND | {"errandMode": "photo", "packageImages": [OLD_PHOTO]},
}


def request(data: dict[str, Any]) -> CreateDeliveryRequest:
    return CreateDeliveryRequest.model_validate(data)


def same_order(request: CreateDeliveryRequest) -> dict[str, Any]:
    """What a repeat must send again: everything but the photos and the key."""
    return request.model_dump(exclude={"idempotencyKey", "packageImages"})


async def repeat(world, chat, last: dict[str, Any] | None = None):
    if last is not None:
        world.history.remember(CUSTOMER, request(last))
    return await chat.start(REPEAT_FLOW, customer=CUSTOMER)


async def send_photos_if_asked(chat) -> None:
    if chat.step != "photos":
        return
    if chat.prompt.photos.min:
        await chat.photos(1, start=50)
        await chat.command("done")
    else:
        await chat.command("skip")


@pytest.mark.parametrize("last", REQUESTS.values(), ids=REQUESTS.keys())
async def test_the_last_order_goes_out_again_as_it_was(world, chat, last):
    await repeat(world, chat, last)

    assert "Your last order" in chat.said
    assert chat.step == "photos"  # the only question: the rest is filled in
    await send_photos_if_asked(chat)
    assert chat.step == "summary", chat.said
    await chat.tap("confirm")

    [sent] = world.creator.requests
    assert same_order(sent) == same_order(request(last))
    assert OLD_PHOTO not in sent.packageImages
    assert world.history.asked == [CUSTOMER]


async def test_the_last_order_is_shown_then_photos_are_asked_again(world, chat):
    await repeat(world, chat, PICKUP)

    assert chat.turn.messages[0].splitlines() == [
        "Your last order, pickup & delivery:",
        "• From: 12 Marina Road, Lagos Island",
        f"• To: {UNITY_HALL_A02}",
        "• Package: Two books (small)",
        "• Receiver: Bola Ade, +2348022223333",
        "• Payment: Cash on delivery",
        PHOTOS_AGAIN,
    ]
    assert chat.prompt.photos.have == 0
    assert "back" not in chat.prompt.commands  # nothing was asked before


async def test_a_repeat_has_a_new_key_and_any_answer_can_be_changed(world):
    engine = world.engine()
    first = world.chat(engine)
    await first.pickup_delivery_to_summary()
    await first.tap("confirm")
    world.history.remember(CUSTOMER, world.creator.requests[0])

    again = world.chat(engine)
    await again.start(REPEAT_FLOW, customer=CUSTOMER)
    await send_photos_if_asked(again)
    assert {"edit:receiver_name", "edit:pickup_place", "edit:payment"} <= set(again.option_ids())
    assert "edit:last_order" not in again.option_ids()
    await again.tap("edit:package_description")
    assert again.prompt.current == "Two books"
    await again.say("Three books")
    assert again.step == "summary"
    await again.tap("confirm")

    old, new = world.creator.requests
    assert new.packageDescription == "Three books"
    assert new.idempotencyKey != old.idempotencyKey
    assert same_order(new) == same_order(old) | {"packageDescription": "Three books"}


async def test_a_payment_method_no_longer_allowed_is_asked_again(world, chat, caps):
    world.catalog.caps = caps(paymentCollection={"cashOnDelivery": False})
    await repeat(world, chat, PICKUP)
    await send_photos_if_asked(chat)

    assert "Payment: your choice is no longer offered" in chat.said
    assert "Payment: Pay online." in chat.said  # the one method left answers itself
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[0].customerCollectionMethod == "online_checkout"


async def test_a_warehouse_no_longer_allowed_asks_for_a_pickup_place(world, chat, caps):
    world.catalog.caps = caps(allowWarehouseDropoff=False)
    await repeat(world, chat, WAREHOUSE)
    await send_photos_if_asked(chat)

    assert "How it's picked up: your choice is no longer offered" in chat.said
    assert chat.step == "pickup_place"
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    assert chat.step == "pickup_contact"  # asked now that a rider picks up from an address
    await chat.tap("yes")
    assert chat.step == "summary"
    await chat.tap("confirm")
    [sent] = world.creator.requests
    assert (sent.deliveryMode, sent.warehouseId) == ("pickup", None)
    assert sent.pickupAddress == "Tafawa Balewa Square"


async def test_cash_to_collect_is_left_out_when_pod_is_off(world, chat, caps):
    world.catalog.caps = caps(pod={"enabled": False})
    await repeat(world, chat, PICKUP | {"isPODEnabled": True, "podAmount": 5000})

    assert NO_MORE_POD in chat.said
    await send_photos_if_asked(chat)
    assert "Cash to collect" not in chat.prompt.text
    await chat.tap("confirm")
    [sent] = world.creator.requests
    assert (sent.isPODEnabled, sent.podAmount) == (None, None)


async def test_an_errand_mode_no_longer_enabled_is_asked_again(world, chat, caps):
    world.catalog.caps = caps(errand={"enabledModes": ["at_place", "photo"]})
    await repeat(world, chat, REQUESTS["errand from a curated link"])
    await chat.command("skip")  # photos

    assert "Errand type: your choice is no longer offered" in chat.said
    assert chat.step == "errand_mode"
    await chat.tap("at_place")
    assert chat.step == "photos"  # built on the errand type: asked again
    await chat.command("skip")
    assert chat.step == "shop_place"  # the link went with the errand type
    await chat.location(6.6018, 3.3515, address="Shoprite, Ikeja City Mall")
    assert chat.step == "summary"


async def test_a_service_kind_no_longer_offered_is_asked_again(world, chat, caps):
    world.catalog.caps = caps(enabledServiceKinds=["pickup_delivery"])
    await repeat(world, chat, ERRAND)

    assert "this business doesn't offer errands right now." in chat.said
    assert "Only one service is available: Pickup & delivery." in chat.said
    assert chat.step == "delivery_mode"
    await chat.tap("pickup")
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    await chat.tap("saved:loc-gate")
    assert chat.step == "pickup_contact"  # who you are was kept: name, phone and email


async def test_without_an_earlier_order_a_new_one_is_offered(world, chat):
    await repeat(world, chat)

    assert chat.said.startswith(NOTHING_YET)
    assert chat.step == "no_last_order"
    assert [o.label for o in chat.prompt.options] == ["Start a new order"]
    await chat.tap("new")
    assert chat.step == "service_kind"
    assert world.creator.requests == []


async def test_a_session_without_a_customer_has_no_earlier_order(world, chat):
    world.history.remember(CUSTOMER, request(PICKUP))
    await chat.start(REPEAT_FLOW)

    assert chat.said.startswith(NOTHING_YET)
    assert world.history.asked == []


async def test_without_an_order_history_the_flow_is_not_available(world):
    engine = world.engine()
    engine.services = Services(catalog=world.catalog, creator=world.creator)
    chat = world.chat(engine)
    await chat.start(REPEAT_FLOW, customer=CUSTOMER)

    assert chat.said == NOT_AVAILABLE
    assert chat.turn.status == "ended"


async def test_a_restart_looks_the_last_order_up_again(world, chat):
    await repeat(world, chat, PICKUP)
    chat.session.step = "a_step_from_an_old_release"

    await chat.send(TextAnswer(text="hello"))

    assert chat.session.customer == CUSTOMER
    assert world.history.asked == [CUSTOMER, CUSTOMER]
    assert chat.step == "photos"
