"""Places clearly outside the business's area are refused where they are given, and a place the
service refused for coverage is neither offered nor taken again in that order."""

from __future__ import annotations

from bot.partner.models import Coords
from conversations.refusals import decide
from conversations.service_area import clearly_outside, place_key
from conversations.services import GeocodedPlace
from conversations.texts import dialogue
from tests.conversations.conftest import LAGOS, WAREHOUSES, make_caps
from tests.support.words import SHIPPED

ABUJA = (9.0765, 7.3986)  # about 530 km from the Lagos warehouses
EPE = (6.5841, 3.9834)  # about 55 km from Yaba, 52 km from Lekki
RADIUS = {"coverage": {"mode": "radius_from_hub", "radiusKm": 20, "regionCount": 0}}


def test_only_a_place_beyond_twice_the_radius_from_every_warehouse_is_clearly_outside() -> None:
    caps = make_caps(**RADIUS)
    assert clearly_outside(caps, WAREHOUSES, Coords(lat=ABUJA[0], lng=ABUJA[1]))
    assert clearly_outside(caps, WAREHOUSES, Coords(lat=EPE[0], lng=EPE[1]))
    # Within 2r of a warehouse the hub may be between them: left for the create to judge.
    assert not clearly_outside(caps, WAREHOUSES, Coords(lat=LAGOS[0], lng=LAGOS[1]))
    near_lekki = Coords(lat=6.44, lng=3.80)  # about 36 km east of Lekki Hub
    assert not clearly_outside(caps, WAREHOUSES, near_lekki)


def test_without_a_radius_or_a_warehouse_pin_nothing_is_clearly_outside() -> None:
    far = Coords(lat=ABUJA[0], lng=ABUJA[1])
    assert not clearly_outside(make_caps(), WAREHOUSES, far)  # worldwide
    regions = make_caps(coverage={"mode": "selected_regions", "regionCount": 3})
    assert not clearly_outside(regions, WAREHOUSES, far)
    pinless = [row for row in WAREHOUSES if row.coords is None]
    assert not clearly_outside(make_caps(**RADIUS), pinless, far)


def test_a_place_is_remembered_by_its_saved_id_or_its_coordinates() -> None:
    assert place_key("loc-1", Coords(lat=1, lng=2)) == "saved:loc-1"
    assert place_key(None, Coords(lat=6.52441, lng=3.37921)) == "at:6.5244,3.3792"
    assert place_key(None, None) is None


async def test_a_pin_clearly_outside_is_refused_at_its_step(new_world):
    chat = new_world(**RADIUS).chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("pickup")
    await chat.location(*ABUJA)
    assert chat.step == "pickup_place"
    assert dialogue.outside_area(SHIPPED, 20) in chat.said
    await chat.location(*LAGOS)
    assert chat.step == "pickup_address"


async def test_a_typed_address_found_only_outside_is_refused_at_its_step(new_world):
    world = new_world(**RADIUS)
    world.geocoder.table["abuja central"] = [
        GeocodedPlace(address="Central Area, Abuja", lat=ABUJA[0], lng=ABUJA[1])
    ]
    chat = world.chat()
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("pickup")
    await chat.say("Abuja central")
    assert chat.step == "pickup_place"
    assert dialogue.outside_area(SHIPPED, 20) in chat.said


async def test_a_refused_saved_place_is_not_offered_again(world, chat):
    world.creator.script = [decide("coverage", field_errors={"deliveryCoords": ["Out of area"]})]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert chat.step == "dropoff_place"
    assert "saved:loc-hall" not in chat.option_ids()
    assert "saved:loc-gate" in chat.option_ids()
    assert chat.session.out_of_area == [place_key("loc-hall", None)]


async def test_a_refused_pin_is_not_taken_again(world, chat):
    world.creator.script = [decide("coverage", field_errors={"pickupCoords": ["Out of area"]})]
    await chat.pickup_delivery_to_summary()
    await chat.tap("confirm")
    assert chat.step == "pickup_place"
    await chat.location(*LAGOS)
    assert dialogue.REFUSED_PLACE.render(SHIPPED) in chat.said
    assert chat.step == "pickup_place"
