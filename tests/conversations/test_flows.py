"""Every flow end to end: what is asked, in which order, and the request that goes out."""

from __future__ import annotations

from bot.partner.models import Coords


async def test_pickup_delivery_end_to_end(world, chat):
    await chat.pickup_delivery_to_summary()
    summary = chat.prompt.text
    assert "• Pickup place: 12 Marina Road, Lagos Island" in summary
    assert "• Drop-off place: Unity Hall — Unity Hall Road, University of Lagos — A02" in summary
    assert "• Your phone: +2348031234567" in summary
    assert "Delivery fee: NGN 1,500." in summary

    await chat.tap("confirm")

    assert chat.turn.status == "created"
    assert chat.turn.delivery is not None
    assert "Track it here: https://track.example/track/dlv-" in chat.said
    [request] = world.creator.requests
    assert request.serviceKind == "pickup_delivery"
    assert request.deliveryMode == "pickup"
    assert request.senderName == "Ada Obi"
    assert request.senderPhone == "+2348031234567"
    assert request.senderEmail == ""
    assert request.pickupContactSameAsSender is True
    assert request.receiverName == "Bola Ade"
    assert request.receiverPhone == "+2348022223333"
    assert request.pickupCoords == Coords(lat=6.5244, lng=3.3792)
    assert request.deliveryCoords == Coords(lat=6.515, lng=3.389)
    assert request.packageSize == "small"
    assert request.isFragile is False
    assert len(request.packageImages) == 2
    assert request.customerCollectionMethod == "cash_on_delivery"
    assert request.isPODEnabled is None
    assert request.idempotencyKey == "key-0001-chat"
    assert chat.session.delivery_id == chat.turn.delivery.id
    assert chat.session.tracking_url == chat.turn.delivery.tracking_url


async def test_pickup_delivery_with_someone_else_handing_over_and_cash_to_collect(world, chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    assert chat.step == "dropoff_place"  # the venue's address filled the pin's address
    await chat.location(6.45, 3.40)
    await chat.say("Plot 7, Admiralty Way")
    await chat.say("Ada Obi")
    assert chat.step == "sender_phone"
    await chat.say("0803 123 4567")
    assert chat.step == "receiver_name"  # the email and "Me" are pre-set
    await chat.say("Bola Ade")
    await chat.say("+234 802 222 3333")
    await chat.say("A laptop")
    await chat.tap("medium")
    assert chat.step == "photos"  # not fragile is pre-set
    await chat.photos(6)
    assert chat.step == "summary"  # cash in person is pre-set beside online checkout
    await chat.pay("online_checkout")
    assert chat.step == "summary"  # no cash to collect is pre-set
    # Each pre-set answer is changed from the summary, which comes back after each.
    await chat.tap("edit:sender_email")
    await chat.say("ada@example.com")
    await chat.tap("edit:pickup_contact")
    await chat.tap("no")
    await chat.contact("+2348055555555", "Chidi", "Eze")
    assert chat.step == "summary"  # the contact filled the pickup contact's phone
    await chat.tap("edit:fragile")
    await chat.tap("yes")
    await chat.tap("edit:pod_amount")
    await chat.say("₦25,000")
    await chat.tap("confirm")

    [request] = world.creator.requests
    assert request.pickupAddress == "Tafawa Balewa Square"
    assert request.pickupContactSameAsSender is False
    assert request.pickupContactName == "Chidi Eze"
    assert request.pickupContactPhone == "+2348055555555"
    assert request.senderEmail == "ada@example.com"
    assert request.isFragile is True
    assert request.isPODEnabled is True
    assert request.podAmount == 25000
    assert request.customerCollectionMethod == "online_checkout"


async def test_warehouse_mode_copies_the_row(world, chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("warehouse")
    assert chat.option_ids() == ["wh-1", "wh-2"]  # the row without a pin is not offered
    await chat.tap("wh-2")
    assert chat.step == "dropoff_place"
    await chat.tap("saved:loc-gate")
    assert chat.step == "sender_name"
    await chat.contact("08031234567", "Ada")
    await chat.command("skip")
    assert chat.step == "receiver_name"  # no pickup contact question at a warehouse
    await chat.say("Bola")
    await chat.say("08022223333")
    await chat.say("Shoes")
    await chat.tap("small")
    await chat.tap("no")
    await chat.photos(1)
    await chat.command("done")
    await chat.pay("cash_on_delivery")
    await chat.tap("none")
    await chat.tap("confirm")

    [request] = world.creator.requests
    assert request.deliveryMode == "warehouse"
    assert request.warehouseId == "wh-2"
    assert request.pickupAddress == "1 Admiralty Way"
    assert request.pickupCoords == Coords(lat=6.44, lng=3.47)
    assert request.pickupContactSameAsSender is None


async def test_errand_at_a_known_shop(world, chat):
    await chat.errand_to_summary("at_place")
    assert "• Shop: Shoprite, Ikeja City Mall" in chat.prompt.text
    assert "Cash to collect" not in chat.prompt.text
    await chat.tap("confirm")

    [request] = world.creator.requests
    assert request.serviceKind == "errand"
    assert request.errandMode == "at_place"
    assert request.pickupAddress == "Shoprite, Ikeja City Mall"
    assert request.pickupCoords == Coords(lat=6.6018, lng=3.3515)
    assert request.pickupLocationUnknown is False
    assert request.errandLinks == []
    assert request.errandBudgetNgn == "15000"
    assert request.errandSubstituteOk is True
    assert request.shopPhone == ""
    assert request.receiverName == "Ada Obi"
    assert request.receiverPhone == "+2348031234567"
    assert request.packageImages == []
    assert request.isPODEnabled is None


async def test_errand_where_the_shop_is_unknown(world, chat):
    await chat.start()
    await chat.tap("errand")
    await chat.tap("at_place")
    await chat.say("Suya for four")
    await chat.command("skip")
    await chat.tap("unknown")
    assert chat.step == "shop_note"
    await chat.say("Mallam Musa's spot near the bus stop")
    await chat.say("0803 000 1111")
    await chat.command("skip")
    await chat.tap("no")
    await chat.tap("small")
    await chat.location(6.52, 3.38)
    await chat.say("Room 4, Jaja Hall")
    await chat.say("Ada Obi")
    await chat.say("08031234567")
    await chat.command("skip")
    await chat.pay("cash_on_delivery")
    assert "• Shop: not known: the rider will find it" in chat.prompt.text
    await chat.tap("confirm")

    [request] = world.creator.requests
    assert request.pickupLocationUnknown is True
    assert request.pickupAddress == (
        "Shop location unknown — rider to find: Mallam Musa's spot near the bus stop"
    )
    assert request.pickupCoords == request.deliveryCoords == Coords(lat=6.52, lng=3.38)
    assert request.shopPhone == "+2348030001111"
    assert request.errandBudgetNgn == ""
    assert request.errandSubstituteOk is False


async def test_errand_from_a_curated_link(world, chat):
    await chat.start()
    await chat.tap("errand")
    await chat.tap("link")
    await chat.say("The blue kettle")
    await chat.command("skip")
    assert chat.step == "errand_link"
    options = {o.id: (o.label, o.detail) for o in chat.prompt.options}
    assert options == {
        "curated:cl-1": ("Jumia", "https://www.jumia.com.ng"),
        "curated:cl-2": ("Konga", "https://www.konga.com"),
    }
    await chat.tap("Konga")
    assert chat.step == "shop_phone"  # a curated shop needs no pin
    await chat.command("skip")
    await chat.say("20000")
    await chat.tap("yes")
    await chat.tap("small")
    await chat.tap("saved:loc-library")
    await chat.say("Desk 14")
    await chat.contact("+2348031234567", "Ada", "Obi")
    await chat.command("skip")
    await chat.pay("cash_on_delivery")
    await chat.tap("confirm")

    [request] = world.creator.requests
    assert request.errandMode == "link"
    assert [link.model_dump() for link in request.errandLinks] == [
        {"url": "https://www.konga.com", "note": "The blue kettle", "curatedId": "cl-2"}
    ]
    assert request.pickupAddress == "Online order: Konga"
    assert request.pickupCoords == request.deliveryCoords
    assert request.pickupLocationUnknown is False
    assert request.deliveryAddress == "Library — Library Road, University of Lagos — Desk 14"


async def test_errand_from_the_customers_own_link_asks_where_the_shop_is(world, chat):
    await chat.start()
    await chat.tap("errand")
    await chat.tap("link")
    await chat.say("A phone case")
    await chat.command("skip")
    await chat.say("not a link")
    assert "doesn't look like a web link" in chat.said
    await chat.say("shop.example.ng/cases/42")
    assert chat.step == "shop_place"
    assert "saved:loc-gate" not in chat.option_ids()  # never a saved place for a shop
    await chat.tap("unknown")
    assert chat.step == "shop_phone"  # no shop note for an online shop
    await chat.command("skip")
    await chat.command("skip")
    await chat.tap("yes")
    await chat.tap("small")
    await chat.tap("saved:loc-gate")
    await chat.contact("+2348031234567", "Ada", "Obi")
    await chat.command("skip")
    await chat.pay("cash_on_delivery")
    await chat.tap("confirm")

    [request] = world.creator.requests
    assert request.errandLinks[0].url == "https://shop.example.ng/cases/42"
    assert request.errandLinks[0].curatedId is None
    assert request.pickupLocationUnknown is True
    assert request.pickupAddress == "Online order: shop.example.ng, rider to find the shop"


async def test_photo_errand_needs_a_photo(world, chat):
    await chat.start()
    await chat.tap("errand")
    await chat.tap("photo")
    await chat.say("What is in the photo, two of them")
    assert chat.prompt.photos.min == 1
    assert chat.prompt.allow_skip is False
    await chat.command("skip")
    assert "can't be skipped" in chat.said
    await chat.command("done")
    assert "at least 1 photo" in chat.said
    await chat.photos(1)
    await chat.command("done")
    assert chat.step == "shop_place"


async def test_a_flow_can_be_started_directly(world, chat):
    await chat.start("errand")
    assert chat.step == "errand_mode"
    assert chat.prompt.default == "at_place"


async def test_return_parcel_end_to_end(world, chat):
    await chat.start()
    await chat.tap("return_parcel")
    assert "The parcel goes back to Yaba Hub, 5 Herbert Macaulay Way." in chat.said
    assert chat.step == "pickup_place"
    await chat.location(6.5244, 3.3792, address="Tafawa Balewa Square")
    await chat.contact("+2348031234567", "Ada", "Obi")
    assert chat.step == "package_description"  # "Me" hands it over, unless changed
    await chat.say("Wrong size shoes, order 1234")
    await chat.tap("small")
    await chat.photos(1)
    assert chat.step == "summary"  # cash in person is pre-set beside online checkout
    await chat.pay("online_checkout")
    assert chat.step == "summary"  # no cash to collect on a return
    assert chat.prompt.text.startswith("Please check your return:")
    await chat.tap("edit:pickup_contact")
    await chat.tap("no")
    await chat.contact("+2348055555555", "Chidi", "Eze")
    assert chat.step == "summary"
    await chat.tap("confirm")

    [request] = world.creator.requests
    assert request.serviceKind == "pickup_delivery"
    assert request.deliveryMode == "pickup"
    assert request.pickupAddress == "Tafawa Balewa Square"
    assert request.deliveryAddress == "5 Herbert Macaulay Way"
    assert request.deliveryCoords == Coords(lat=6.51, lng=3.37)
    assert request.receiverName == "Swift Riders — Yaba Hub"
    assert request.receiverPhone == "+2348031234567"  # the customer's own
    assert request.pickupContactSameAsSender is False
    assert request.pickupContactName == "Chidi Eze"
    assert request.isPODEnabled is None
    assert request.warehouseId is None
    assert chat.turn.order.flow == "return_parcel"


async def test_a_return_goes_to_the_first_usable_warehouse_with_a_pin(new_world):
    world = new_world()
    world.catalog.rows = [world.catalog.rows[2], *world.catalog.rows[:2]]  # pinless first
    chat = world.chat()
    await chat.start("return_parcel")
    assert "The parcel goes back to Yaba Hub" in chat.said
    assert chat.session.answers["return_to"] == "wh-1"
