"""Every row of the spec's "Rules a client must follow" table, as the customer meets it."""

from __future__ import annotations

import pytest

from bot.partner.models import Warehouse
from conversations import rules
from conversations.dialog import TRY_AGAIN
from conversations.texts import dialogue
from tests.support.words import SHIPPED

# --- enabledServiceKinds / defaultServiceKind -------------------------------------------------


async def test_a_kind_that_is_not_enabled_is_not_offered_even_with_an_errand_object(new_world):
    chat = new_world(enabledServiceKinds=["errand"], defaultServiceKind="pickup_delivery").chat()
    await chat.start()
    assert chat.turn.messages[0] == "Only one service is available: Errand: we buy it for you."
    assert chat.session.flow == "errand"


async def test_enabled_kinds_win_over_the_presence_of_an_errand_object(new_world):
    world = new_world(enabledServiceKinds=["pickup_delivery"])
    assert world.catalog.caps.errand is not None
    chat = world.chat()
    await chat.start()
    # a warehouse to return to: the pickup & delivery kind makes two flows, never an errand
    assert chat.step == "service_kind"
    assert chat.option_ids() == ["pickup_delivery", "return_parcel"]

    world = new_world(enabledServiceKinds=["pickup_delivery"], features={"maxWarehouses": 0})
    assert world.catalog.caps.errand is not None
    chat = world.chat()
    await chat.start()
    assert chat.turn.messages[0] == "Only one service is available: Pickup & delivery."
    assert chat.session.flow == "pickup_delivery"


async def test_an_errand_kind_without_any_mode_is_not_offered(new_world):
    chat = new_world(errand={"enabledModes": [], "defaultMode": None}).chat()
    await chat.start()
    assert chat.option_ids() == ["pickup_delivery", "return_parcel"]

    chat = new_world(
        errand={"enabledModes": [], "defaultMode": None}, features={"maxWarehouses": 0}
    ).chat()
    await chat.start()
    assert chat.session.answers["service_kind"] == "pickup_delivery"
    assert chat.session.flow == "pickup_delivery"


async def test_every_usable_flow_is_asked_with_the_default_kind_pre_selected(new_world):
    chat = new_world(defaultServiceKind="errand").chat()
    await chat.start()
    assert chat.step == "service_kind"
    assert [(o.id, o.label) for o in chat.prompt.options] == [
        ("pickup_delivery", "Pickup & delivery"),
        ("errand", "Errand: we buy it for you"),
        ("return_parcel", "Return a parcel to us"),
    ]
    assert chat.prompt.default == "errand"


async def test_of_two_flows_of_the_default_kind_the_first_listed_is_pre_selected(chat):
    await chat.start()
    assert chat.prompt.default == "pickup_delivery"  # not return_parcel, of the same kind


async def test_a_return_is_offered_only_with_a_pinned_warehouse_within_the_limit(new_world):
    world = new_world()
    world.catalog.rows = [Warehouse(id="x", name="X", address="x")]  # no pin
    chat = world.chat()
    await chat.start()
    assert chat.option_ids() == ["pickup_delivery", "errand"]

    chat = new_world(features={"maxWarehouses": 0}).chat()
    await chat.start()
    assert chat.option_ids() == ["pickup_delivery", "errand"]

    # allowWarehouseDropoff governs dropping a package at a warehouse, not a return
    chat = new_world(allowWarehouseDropoff=False).chat()
    await chat.start()
    assert "return_parcel" in chat.option_ids()


async def test_a_return_started_directly_without_a_warehouse_says_why_and_offers_the_rest(
    new_world,
):
    world = new_world(features={"maxWarehouses": 0})
    chat = world.chat()
    await chat.start("return_parcel")
    assert "no warehouse to return to" in chat.said
    assert chat.step == "service_kind"
    assert "return_parcel" not in chat.option_ids()


async def test_a_default_kind_that_is_not_offered_is_not_pre_selected(new_world):
    chat = new_world(
        defaultServiceKind="errand", errand={"enabledModes": [], "defaultMode": None}
    ).chat()
    await chat.start()
    assert chat.prompt.default is None


async def test_a_flow_of_a_disabled_kind_says_why_and_offers_what_there_is(new_world):
    world = new_world(enabledServiceKinds=["pickup_delivery"])
    chat = world.chat()
    await chat.start("errand")
    assert chat.turn.status == "open"
    assert "Sorry, this business doesn't offer errands right now." in chat.said
    assert chat.step == "service_kind"
    assert "errand" not in chat.option_ids()
    assert world.creator.requests == []


async def test_nothing_offered_ends_at_once(new_world):
    chat = new_world(enabledServiceKinds=[]).chat()
    await chat.start()
    assert chat.turn.status == "ended"
    assert chat.said == rules.NOTHING_OFFERED.render(SHIPPED)


# --- allowWarehouseDropoff / features.maxWarehouses -------------------------------------------


async def test_without_warehouse_dropoff_no_warehouse_is_offered(new_world):
    chat = new_world(allowWarehouseDropoff=False).chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    assert "The rider will pick the package up from an address you give." in chat.said
    assert chat.step == "pickup_place"
    assert chat.session.answers["delivery_mode"] == "pickup"


async def test_with_warehouse_dropoff_warehouses_are_offered(world, chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    # A rider picking up is pre-set; the pickup place offers the warehouse drop-off instead.
    assert chat.step == "pickup_place"
    assert chat.option_ids()[-1] == "warehouse"
    await chat.tap("warehouse")
    assert chat.session.answers["delivery_mode"] == "warehouse"
    assert chat.step == "warehouse"


async def test_only_the_first_warehouse_is_usable_when_the_plan_allows_one(new_world):
    chat = new_world(plan="basic", features={"maxWarehouses": 1}).chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("warehouse")
    assert "You'll drop the package at Yaba Hub (5 Herbert Macaulay Way)." in chat.said
    assert chat.step == "dropoff_place"


def test_warehouse_rows_without_a_pin_are_never_usable(caps):
    rows = [
        Warehouse(id="a", name="A", address="a", latitude=None, longitude=3.0),
        Warehouse(id="b", name="B", address="b", latitude=6.0, longitude=3.0),
    ]
    assert [w.id for w in rules.usable_warehouses(caps(), rows)] == ["b"]
    limited = caps(features={"maxWarehouses": 1})
    assert rules.usable_warehouses(limited, rows) == []  # the first one has no pin
    assert rules.usable_warehouses(caps(allowWarehouseDropoff=False), rows) == []


async def test_warehouse_mode_is_not_offered_when_no_warehouse_is_usable(new_world):
    world = new_world()
    world.catalog.rows = [Warehouse(id="x", name="X", address="x")]
    chat = world.chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    assert chat.step == "pickup_place"


# --- errands ----------------------------------------------------------------------------------


async def test_only_enabled_errand_modes_are_offered_with_the_default_pre_selected(new_world):
    chat = new_world(errand={"enabledModes": ["link", "photo"], "defaultMode": "photo"}).chat()
    await chat.start()
    await chat.tap("errand")
    assert [o.id for o in chat.prompt.options] == ["link", "photo"]
    assert chat.prompt.default == "photo"


async def test_a_single_errand_mode_answers_itself(new_world):
    chat = new_world(errand={"enabledModes": ["link"], "defaultMode": "link"}).chat()
    await chat.start()
    await chat.tap("errand")
    assert "Errand type: Buy it from a link." in chat.said
    assert chat.step == "errand_items"


async def test_an_unknown_shop_is_only_offered_when_allowed(new_world):
    chat = new_world(errand={"allowUnknownShopLocation": False}).chat()
    await chat.start()
    await chat.tap("errand")
    await chat.tap("at_place")
    await chat.say("Bread")
    await chat.command("skip")
    assert chat.step == "shop_place"
    assert "unknown" not in chat.option_ids()
    await chat.tap("unknown")
    assert "Please tap one of the options." in chat.said
    assert chat.step == "shop_place"


async def test_curated_links_are_offered_as_suggested_shops(world, chat):
    await chat.start("errand")
    await chat.tap("link")
    await chat.say("Kettle")
    await chat.command("skip")
    assert [(o.label, o.detail) for o in chat.prompt.options] == [
        ("Jumia", "https://www.jumia.com.ng"),
        ("Konga", "https://www.konga.com"),
    ]


async def test_errands_never_offer_cash_to_collect(world, chat):
    await chat.errand_to_summary()
    assert "pod_amount" not in chat.session.answers
    await chat.tap("confirm")
    assert world.creator.requests[0].isPODEnabled is None


# --- payment ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "offered"),
    [
        ({"onlineCheckout": True, "cashOnDelivery": True}, ["cash_on_delivery", "online_checkout"]),
        ({"onlineCheckout": False, "cashOnDelivery": True}, ["cash_on_delivery"]),
        ({"onlineCheckout": True, "cashOnDelivery": False}, ["online_checkout"]),
    ],
)
def test_only_allowed_payment_methods_are_offered(caps, flags, offered):
    assert rules.payment_methods(caps(paymentCollection=flags)) == offered


async def test_a_single_payment_method_answers_itself(new_world):
    world = new_world(paymentCollection={"onlineCheckout": False})
    chat = world.chat()
    await chat.start("errand")
    await chat.tap("at_place")
    await chat.say("Bread")
    await chat.command("skip")
    await chat.location(6.6, 3.35, address="Corner shop, Allen Avenue")
    await chat.command("skip")
    await chat.command("skip")
    await chat.tap("no")
    await chat.tap("small")
    await chat.tap("saved:loc-gate")
    await chat.contact("2348031234567", "Ada")
    assert "Payment: Cash on delivery." in chat.said  # the test org collects after delivery
    assert chat.step == "summary"


async def test_no_payment_method_holds_ordering_until_the_business_fixes_it(new_world, caps):
    world = new_world(paymentCollection={"onlineCheckout": False, "cashOnDelivery": False})
    chat = world.chat()
    await chat.start()
    assert chat.turn.status == "open"  # nothing ends: the customer can come back
    assert chat.turn.messages == ()
    assert chat.prompt.text == dialogue.order_held(SHIPPED, kept=False)  # one plain sentence
    assert [o.label for o in chat.prompt.options] == ["Try again"]
    assert chat.turn.operator_alert == dialogue.NO_PAYMENT_METHOD_ALERT.render(SHIPPED)
    assert "Settings, Delivery" in chat.turn.operator_alert

    await chat.tap(TRY_AGAIN)
    assert chat.prompt.text == dialogue.order_held(SHIPPED, kept=False)  # still off

    world.catalog.caps = caps()
    await chat.tap(TRY_AGAIN)
    assert chat.step == "service_kind"
    assert chat.prompt.text == "What would you like to order?"
    assert world.creator.requests == []


async def test_payment_switched_off_mid_flow_keeps_the_draft(world, chat, caps):
    await chat.errand_to_summary()
    await chat.tap("edit:payment")
    world.catalog.caps = caps(paymentCollection={"onlineCheckout": False, "cashOnDelivery": False})
    await chat.tap("online_checkout")
    assert chat.turn.status == "open"
    assert chat.prompt.text == dialogue.order_held(SHIPPED, kept=True)
    assert chat.turn.operator_alert == dialogue.NO_PAYMENT_METHOD_ALERT.render(SHIPPED)
    assert chat.session.answers["errand_items"] == "A bag of rice and two tins of tomato paste"
    assert world.creator.requests == []

    world.catalog.caps = caps()
    await chat.tap(TRY_AGAIN)
    assert chat.step == "payment"  # where the customer was: asked again
    await chat.tap("online_checkout")
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert chat.turn.status == "created"


async def test_cancel_still_cancels_an_order_on_hold(world, chat, caps):
    await chat.errand_to_summary()
    world.catalog.caps = caps(paymentCollection={"onlineCheckout": False, "cashOnDelivery": False})
    await chat.tap("confirm")
    assert chat.prompt.text == dialogue.order_held(SHIPPED, kept=True)
    await chat.command("cancel")
    await chat.command("cancel")  # asked first: answers would be lost; "cancel" again is yes
    assert chat.turn.status == "cancelled"


async def test_a_service_switched_off_mid_flow_ends_at_the_next_answer(world, chat, caps):
    await chat.start()
    await chat.tap("errand")
    world.catalog.caps = caps(enabledServiceKinds=["pickup_delivery"])
    await chat.tap("at_place")
    assert chat.turn.status == "ended"
    assert chat.said == rules.kind_not_offered(SHIPPED, "errand")


# --- POD --------------------------------------------------------------------------------------


async def test_without_pod_no_cash_to_collect_is_asked(new_world):
    world = new_world(pod={"enabled": False})
    chat = world.chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("saved:loc-gate")
    await chat.tap("saved:loc-gate")
    await chat.contact("2348031234567", "Ada")
    await chat.command("skip")
    await chat.tap("yes")
    await chat.contact("2348022223333", "Bola")
    await chat.say("Books")
    await chat.tap("small")
    await chat.tap("no")
    await chat.photos(1)
    await chat.command("done")
    await chat.pay("cash_on_delivery")
    assert chat.step == "summary"
    await chat.tap("confirm")
    assert world.creator.requests[0].isPODEnabled is None


def test_pod_is_only_for_pickup_and_delivery(caps):
    assert rules.pod_allowed(caps(), "pickup_delivery")
    assert not rules.pod_allowed(caps(), "errand")
    assert not rules.pod_allowed(caps(pod={"enabled": False}), "pickup_delivery")


# --- plan / service locations -----------------------------------------------------------------


async def test_no_saved_places_without_service_locations_on_the_plan(new_world):
    chat = new_world(plan="basic", features={"serviceLocations": False}).chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    assert chat.option_ids() == ["warehouse"]  # no saved place; the warehouse drop-off
    assert "pick one below" not in chat.prompt.text


async def test_no_saved_places_when_the_list_is_empty(new_world):
    world = new_world()
    world.catalog.locations = []
    chat = world.chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    assert chat.option_ids() == ["warehouse"]  # no saved place; the warehouse drop-off


# --- fee hints: currency, pricingMode, paymentTiming, approval, dispatch, OTP, coverage -------


@pytest.mark.parametrize(
    ("pricing", "hint"),
    [
        ({"pricingMode": "fixed", "pricingAmountNgn": 1500}, "Delivery fee: GHS 1,500."),
        (
            {"pricingMode": "starting_from", "pricingAmountNgn": 999.5},
            "Delivery fee: from GHS 999.50; the final fee is set by distance.",
        ),
        ({"pricingMode": "quote_on_review"}, "Delivery fee: quoted by the team after they review"),
    ],
)
def test_pricing_hints_show_the_amount_in_the_currency(caps, pricing, hint):
    hints = rules.fee_hints(SHIPPED, caps(currency="GHS", publicRequest=pricing))
    assert hints[0].startswith(hint)


def test_hidden_pricing_shows_no_amount(caps):
    hints = rules.fee_hints(
        SHIPPED, caps(publicRequest={"pricingMode": "hidden", "pricingAmountNgn": 777})
    )
    assert hints[0] == "Delivery fee: set by the business, not shown here."
    assert not any("777" in line for line in hints)


@pytest.mark.parametrize(
    ("method", "timing", "hint"),
    [
        (
            "cash_on_delivery",
            "before_dispatch",
            "in cash to the rider at the pickup, before they set off with the package",
        ),
        (
            "cash_on_delivery",
            "after_delivery",
            "in cash to the rider once the package is delivered",
        ),
        ("cash_on_delivery", "off_platform", "in cash, directly to the business"),
        ("online_checkout", "before_dispatch", "online before the rider sets off (the rider may"),
        ("online_checkout", "after_delivery", "online after the delivery; the business will send"),
        ("online_checkout", "off_platform", "directly to the business, outside this service"),
        (None, "before_dispatch", "The fee is paid before the rider sets off"),
        (None, "after_delivery", "The fee is collected after the delivery."),
        (None, "off_platform", "The fee is settled directly with the business."),
    ],
)
def test_who_pays_when_and_how_is_explained(caps, method, timing, hint):
    paying = rules.fee_hints(SHIPPED, caps(paymentTiming=timing), method)[1]
    assert hint in paying
    if method is not None:
        assert paying.startswith("You pay it ")  # who: the customer who orders
    if method == "cash_on_delivery":
        assert "before dispatch" not in paying
        assert "before the rider sets off" not in paying


def test_approval_dispatch_otp_and_coverage_hints(caps):
    approval = rules.fee_hints(
        SHIPPED, caps(publicRequest={"requireApproval": True, "autoDispatch": True})
    )
    assert "Staff may need to price and approve the order before it goes out." in approval
    assert "A nearby rider may be assigned straight away." not in approval
    dispatch = rules.fee_hints(SHIPPED, caps(publicRequest={"autoDispatch": True}))
    assert "A nearby rider may be assigned straight away." in dispatch
    texted = "The service texts the receiver a drop-off code to give the rider."
    assert texted in rules.fee_hints(SHIPPED, caps())
    by_link = rules.fee_hints(SHIPPED, caps(), codes_by_link=True)
    assert texted not in by_link
    assert any(
        hint.startswith("The receiver's drop-off code comes here as a link") for hint in by_link
    )
    own = rules.fee_hints(SHIPPED, caps(), customer_receives=True, codes_by_link=True)
    assert any(hint.startswith("Your drop-off code comes here") for hint in own)
    no_otp = rules.fee_hints(SHIPPED, caps(requireDeliveryOtp=False))
    assert "No drop-off code: the rider takes a photo as proof of delivery." in no_otp
    radius = rules.fee_hints(SHIPPED, caps(coverage={"mode": "radius_from_hub", "radiusKm": 12.5}))
    assert "The business delivers within about 12.5 km." in radius


async def test_the_summary_carries_the_fee_hints(new_world):
    chat = new_world(currency="NGN", paymentTiming="before_dispatch").chat()
    await chat.errand_to_summary()
    assert "Delivery fee: NGN 1,500." in chat.prompt.text
    # The errand was paid online: who pays, when and how, for that method.
    assert "You pay it online before the rider sets off" in chat.prompt.text


def test_money_is_formatted_with_the_currency():
    assert rules.format_money(SHIPPED, 1500, "NGN") == "NGN 1,500"
    assert rules.format_money(SHIPPED, 1500.5, "KES") == "KES 1,500.50"
