"""Places: shared pins, saved service locations in every unit mode, typed addresses, never an
invented pin."""

from __future__ import annotations

import pytest

from bot.partner.models import Coords, ServiceLocation
from conversations.context import Answers
from conversations.places import PlacePick, resolve
from conversations.services import GeocodedPlace
from conversations.steps.unit_step import WHOLE_LIST


async def _at_dropoff(chat):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.tap("saved:loc-gate")
    assert chat.step == "dropoff_place"


def _dropoff(chat):
    return resolve(Answers(chat.session.answers), "dropoff")


HALL = Coords(lat=6.515, lng=3.389)


# --- saved places and their units -------------------------------------------------------------


async def test_unit_mode_none_uses_the_place_as_it_is(chat):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-gate")
    assert chat.step == "sender_name"
    place = _dropoff(chat)
    assert place.address == "Main Gate — Main Gate Road, University of Lagos"
    assert place.coords == Coords(lat=6.517, lng=3.385)


async def test_unit_mode_list_offers_values_then_expanded_ranges(chat):
    await _at_dropoff(chat)
    await chat.tap("Unity Hall")
    assert chat.step == "dropoff_unit"
    assert chat.option_ids() == ["Porter's lodge", "A01", "A02", "A03"]
    assert chat.prompt.accepts == ("choice", "text")  # typed text is matched to the list
    assert chat.prompt.numbers_are_values is True  # "2" is a room, not the second option
    assert chat.prompt.allow_skip is False  # the unit is required here


async def test_unit_list_without_custom_refuses_other_text_saying_what_the_list_holds(chat):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-hall")
    await chat.say("B7")
    assert chat.said == (
        "“B7” is not on the list. The room must be one of: Porter's lodge, A01 to A03."
    )
    await chat.command("skip")
    assert "can't be skipped" in chat.said
    await chat.say("a03")  # typing a listed value is the same as tapping it
    assert _dropoff(chat).address == "Unity Hall — Unity Hall Road, University of Lagos — A03"


@pytest.mark.parametrize("typed", ["a 2", "A-02", "room a2", "2", "A002"])
async def test_a_unit_typed_loosely_is_the_listed_unit(chat, typed):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-hall")
    await chat.say(typed)
    assert chat.step == "sender_name"
    assert _dropoff(chat).address.endswith(" — A02")


async def test_a_part_of_the_unit_offers_only_the_units_it_may_mean(world, chat):
    world.catalog.locations = [_location(MOREMI)]
    await _at_dropoff_with(chat, "saved:loc-x")
    whole = chat.prompt
    await chat.say("12")
    assert chat.step == "dropoff_unit"
    assert chat.option_ids() == ["A012", "B012", WHOLE_LIST]
    assert chat.prompt.text == "These match “12”. Pick the room, or type it again."
    assert chat.prompt.version > whole.version  # a tap on the whole list's keyboard is stale
    await chat.tap(WHOLE_LIST)
    assert len(chat.prompt.options) == 81
    await chat.say("B")
    assert len(chat.prompt.options) == 41
    await chat.say("b12")  # typing again searches the whole list, not only what is shown
    assert _dropoff(chat).address.endswith(" — B012")


async def test_a_long_list_says_typing_searches_it(world, chat):
    world.catalog.locations = [_location(MOREMI)]
    await _at_dropoff_with(chat, "saved:loc-x")
    assert chat.prompt.text == (
        "Which room? Type it (like A001 or B001), or a part of it to search; "
        "or pick it from the list of 81."
    )


async def test_a_search_at_a_list_taking_custom_text_also_offers_the_text_as_typed(chat):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-block")
    await chat.say("C")
    assert [o.label for o in chat.prompt.options] == [
        "C1", "C2", "Use “C” as typed", "Show the whole list"
    ]  # fmt: skip
    await chat.tap("C")
    assert _dropoff(chat).address.endswith(" — C")


async def test_unit_list_with_custom_accepts_typed_units_and_may_be_skipped(chat):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-block")
    assert chat.prompt.accepts == ("choice", "text")
    assert chat.prompt.allow_skip is True
    await chat.command("skip")
    assert _dropoff(chat).address == "Block C — Block C Road, University of Lagos"


async def test_unit_free_text_asks_for_the_label_and_is_optional_unless_required(chat):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-library")
    assert chat.prompt.text == "Desk? Type it (or skip)."
    assert chat.prompt.input == "text"
    await chat.say("  Desk   14 ")
    assert _dropoff(chat).address == "Library — Library Road, University of Lagos — Desk 14"


MOREMI = {
    "label": "Room",
    "mode": "list",
    "values": ["Warden's office"],
    "ranges": [
        {"prefix": "A", "start": 1, "end": 40, "pad": 3},
        {"prefix": "B", "start": 1, "end": 40, "pad": 3},
    ],
    "required": True,
}


def _location(unit):
    return ServiceLocation.model_validate(
        {
            "id": "loc-x",
            "name": "Hall X",
            "address": "1 X Street",
            "coords": {"lat": 6.5, "lng": 3.4},
            "unit": unit,
        }
    )


async def test_a_required_free_text_unit_cannot_be_skipped(world, chat):
    world.catalog.locations = [_location({"label": "Flat", "mode": "free_text", "required": True})]
    await _at_dropoff_with(chat, "saved:loc-x")
    assert chat.prompt.allow_skip is False
    await chat.command("skip")
    assert chat.step == "dropoff_unit"


async def test_a_unit_with_an_empty_label_is_called_unit(world, chat):
    world.catalog.locations = [_location({"label": " ", "mode": "free_text"})]
    await _at_dropoff_with(chat, "saved:loc-x")
    assert chat.prompt.text == "Unit? Type it (or skip)."
    await chat.say("x" * 61)
    assert chat.said.startswith("Please keep the unit under 60 characters")


async def _at_dropoff_with(chat, option):
    await chat.start()
    await chat.tap("pickup_delivery")
    await chat.location(6.52, 3.38, address="Shop 3, Tejuosho Market")
    await chat.tap(option)


@pytest.mark.parametrize("unit", ["A01", "Porter's lodge"])
async def test_coordinates_are_copied_from_the_saved_place_whatever_the_unit(chat, unit):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-hall")
    await chat.tap(unit)
    assert _dropoff(chat).coords == HALL


async def test_saved_places_are_never_geocoded(world, chat):
    await _at_dropoff(chat)
    await chat.tap("saved:loc-hall")
    await chat.tap("A01")
    assert world.geocoder.queries == []


async def test_a_long_composed_address_is_cut_to_what_the_request_takes(world, chat):
    long = _location({"mode": "none"}).model_copy(update={"address": "x" * 600})
    world.catalog.locations = [long]
    await _at_dropoff_with(chat, "saved:loc-x")
    assert len(_dropoff(chat).address) == 500


async def test_an_empty_unit_list_is_typed(world, chat):
    world.catalog.locations = [_location({"label": "Room", "mode": "list", "required": True})]
    await _at_dropoff_with(chat, "saved:loc-x")
    assert chat.prompt.accepts == ("text",)
    await chat.say("R2")
    assert _dropoff(chat).address == "Hall X — 1 X Street — R2"


# --- shared pins ------------------------------------------------------------------------------


async def test_a_shared_pin_asks_for_the_address_text(chat):
    await _at_dropoff(chat)
    await chat.location(6.45, 3.40)
    assert chat.step == "dropoff_address"
    await chat.say("x")
    assert "too short" in chat.said
    await chat.say("Plot 7, Admiralty Way, Lekki")
    place = _dropoff(chat)
    assert place.address == "Plot 7, Admiralty Way, Lekki"
    assert place.coords == Coords(lat=6.45, lng=3.40)


async def test_a_house_the_geocoder_names_at_a_bare_pin_is_taken_without_asking(world, chat):
    world.geocoder.named[(6.45, 3.40)] = GeocodedPlace(
        address="7, Admiralty Way, Lekki Phase 1, Lagos", lat=6.45005, lng=3.40008
    )
    await _at_dropoff(chat)
    await chat.location(6.45, 3.40)
    assert world.geocoder.pins == [(6.45, 3.40)]
    assert chat.step != "dropoff_address"
    assert "The rider gets this address with your pin: 7, Admiralty Way" in chat.said
    place = _dropoff(chat)
    assert place.address == "7, Admiralty Way, Lekki Phase 1, Lagos"
    assert place.coords == Coords(lat=6.45, lng=3.40)  # the customer's pin, never the find's


@pytest.mark.parametrize(
    "found",
    [
        # A venue, a market or a street is near the door, not at it.
        GeocodedPlace(address="Balogun Market, Lagos Island, Lagos", lat=6.45, lng=3.40),
        GeocodedPlace(address="Admiralty Way, Lekki, Lagos", lat=6.45, lng=3.40),
        # A house, but about 55 m from the pin.
        GeocodedPlace(address="7 Admiralty Way, Lekki, Lagos", lat=6.4505, lng=3.40),
    ],
    ids=["venue", "street", "too_far"],
)
async def test_a_pin_the_geocoder_does_not_name_clearly_asks_for_its_address(world, chat, found):
    world.geocoder.named[(6.45, 3.40)] = found
    await _at_dropoff(chat)
    await chat.location(6.45, 3.40)
    assert chat.step == "dropoff_address"


async def test_a_geocoder_that_is_down_at_a_pin_asks_for_its_address(world, chat):
    world.geocoder.down = True
    await _at_dropoff(chat)
    await chat.location(6.45, 3.40)
    assert chat.step == "dropoff_address"


async def test_a_zero_pin_is_refused(chat):
    await _at_dropoff(chat)
    await chat.location(0.0, 0.0)
    assert "not a real place" in chat.said
    assert chat.step == "dropoff_place"


# --- typed addresses --------------------------------------------------------------------------


async def test_a_typed_address_is_shown_back_before_it_is_used(world, chat):
    await _at_dropoff(chat)
    await chat.say("15 Allen Avenue")
    assert world.geocoder.queries == ["15 Allen Avenue"]
    assert chat.step == "dropoff_confirm"
    assert [o.label for o in chat.prompt.options] == [
        "15 Allen Avenue, Ikeja, Lagos",
        "15 Allen Avenue, Ibadan",
        "None of these: type it again",
    ]
    await chat.tap("15 Allen Avenue, Ibadan")
    place = _dropoff(chat)
    assert place.address == "15 Allen Avenue, Ibadan"
    assert place.coords == Coords(lat=7.40, lng=3.90)


async def test_a_place_found_as_typed_is_taken_and_said_without_asking(chat):
    await _at_dropoff(chat)
    await chat.say("ozone cinema")  # found as "Ozone Cinema, Yaba": only its area is added
    assert "Found: Ozone Cinema, Yaba." in chat.said
    assert chat.step != "dropoff_confirm"
    assert chat.session.answers["dropoff_confirm"]["address"] == "Ozone Cinema, Yaba"


async def test_none_of_these_asks_for_the_address_again(chat):
    await _at_dropoff(chat)
    await chat.say("ozone")  # "Cinema" was not typed: the find is shown back
    assert chat.prompt.text == "I found this place. Is it right?"
    await chat.tap("retype")
    assert "Type the address again" in chat.said
    assert chat.step == "dropoff_place"
    assert "dropoff_place" not in chat.session.answers


async def test_an_address_that_is_not_found_is_reasked(chat):
    await _at_dropoff(chat)
    await chat.say("Nowhere street")
    assert "I couldn't find “Nowhere street”" in chat.said
    assert chat.step == "dropoff_place"


async def test_a_zero_pin_from_the_geocoder_is_never_used(chat):
    await _at_dropoff(chat)
    await chat.say("null island")
    assert "I couldn't find" in chat.said


async def test_a_geocoder_that_is_down_suggests_sharing_a_pin(world, chat):
    world.geocoder.down = True
    await _at_dropoff(chat)
    await chat.say("15 Allen Avenue")
    assert "The address search is not working right now" in chat.said
    assert chat.step == "dropoff_place"


async def test_without_a_geocoder_typed_addresses_are_not_offered(world):
    world.geocoder = None
    chat = world.chat()
    await _at_dropoff(chat)
    assert "type the address" not in chat.prompt.text
    assert "text" not in chat.prompt.accepts
    await chat.say("15 Allen Avenue")
    assert "Please share a location, or tap one of the options." in chat.said
    await chat.say("main gate")  # a saved place may still be typed by name
    assert chat.step == "sender_name"


def test_a_place_without_a_settled_answer_is_not_resolved():
    assert resolve(Answers({}), "dropoff") is None
    unknown = PlacePick(kind="unknown").model_dump(mode="json")
    assert resolve(Answers({"shop_place": unknown}), "shop") is None
    pin = PlacePick(kind="location", lat=6.5, lng=3.4).model_dump(mode="json")
    assert resolve(Answers({"dropoff_place": pin}), "dropoff") is None  # no address text yet
