"""match_unit: typed text to a list unit's values, leniently, and never to a value not listed."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.partner.models import LocationUnit, UnitRange
from conversations.unit_match import UnitMatch, match_unit

MOREMI = LocationUnit(
    label="Room",
    mode="list",
    values=["Warden's office"],
    ranges=[
        UnitRange(prefix="A", start=1, end=40, pad=3),
        UnitRange(prefix="B", start=1, end=40, pad=3),
    ],
).choices()
TOWER = ["Lobby", "Penthouse", *(f"Floor {n}" for n in range(1, 31))]
ONE_BLOCK = [f"B{n:03d}" for n in range(1, 41)]


@pytest.mark.parametrize("typed", ["B012", "b012", "b12", "B 12", "b-12", "B0012", "room b12"])
def test_a_unit_typed_loosely_is_the_unit_meant(typed: str) -> None:
    assert match_unit(typed, MOREMI, "Room") == UnitMatch(value="B012")


def test_a_number_alone_is_the_unit_with_that_number_when_only_one_has_it() -> None:
    assert match_unit("12", ONE_BLOCK, "Room") == UnitMatch(value="B012")
    assert match_unit("12", TOWER, "Floor") == UnitMatch(value="Floor 12")
    assert match_unit("Room 7", ONE_BLOCK, "Room") == UnitMatch(value="B007")


def test_a_number_several_units_have_gives_those_units_in_list_order() -> None:
    assert match_unit("12", MOREMI, "Room") == UnitMatch(candidates=("A012", "B012"))


def test_a_part_of_a_unit_finds_the_units_it_starts() -> None:
    assert match_unit("warden", MOREMI).candidates == ("Warden's office",)
    assert match_unit("warden office", MOREMI).candidates == ("Warden's office",)
    assert match_unit("B", MOREMI).candidates == tuple(ONE_BLOCK)
    assert match_unit("a0", MOREMI).candidates == tuple(f"A{n:03d}" for n in range(1, 41))
    assert match_unit("pent", TOWER).candidates == ("Penthouse",)


@pytest.mark.parametrize("typed", ["C5", "41", "B041", "Rooftop", "", "   ", "!!"])
def test_text_that_names_no_unit_matches_nothing(typed: str) -> None:
    assert not match_unit(typed, MOREMI, "Room").found


def test_the_label_alone_is_not_taken_out_of_what_was_typed() -> None:
    # "Floor" is the label and also begins every "Floor n": a search, not nothing.
    assert len(match_unit("Floor", TOWER, "Floor").candidates) == 30


# --- properties -------------------------------------------------------------------------------

prefixes = st.text(alphabet=string.ascii_uppercase, min_size=1, max_size=3)
ranges = st.builds(
    lambda prefix, start, size, pad: UnitRange(
        prefix=prefix, start=start, end=start + size, pad=pad
    ),
    prefixes,
    st.integers(0, 200),
    st.integers(0, 60),
    st.integers(0, 4),
)
lists = st.lists(ranges, min_size=1, max_size=3).map(
    lambda rs: LocationUnit(mode="list", ranges=rs).choices()
)
typed_text = st.text(
    alphabet=string.ascii_letters + string.digits + " -'.", min_size=0, max_size=12
)


@given(lists, st.data())
def test_every_listed_unit_typed_as_shown_in_any_case_is_itself(values, data) -> None:
    value = data.draw(st.sampled_from(values))
    assert match_unit(value.lower(), values).value == value
    assert match_unit(f"  {value.upper()} ", values).value == value


@given(lists, typed_text)
def test_a_match_is_always_a_listed_unit_and_candidates_keep_the_list_order(values, typed) -> None:
    found = match_unit(typed, values, "Room")
    if found.value is not None:
        assert found.value in values
        assert found.candidates == ()
    order = [values.index(value) for value in found.candidates]
    assert order == sorted(order)
    assert len(set(found.candidates)) == len(found.candidates)


@given(prefixes, st.integers(1, 999), st.integers(0, 4), st.sampled_from(["", " ", "-", " 0"]))
def test_prefix_and_number_typed_any_way_find_the_padded_unit(prefix, number, pad, joint) -> None:
    values = UnitRange(prefix=prefix, start=number, end=number + 3, pad=pad).expand()
    typed = f"{prefix.lower()}{joint}{number}"
    assert match_unit(typed, values).value == values[0]


@given(prefixes, st.integers(1, 40), st.integers(0, 4))
def test_a_number_alone_finds_its_unit_in_a_list_with_one_prefix(prefix, number, pad) -> None:
    values = UnitRange(prefix=prefix, start=1, end=40, pad=pad).expand()
    assert match_unit(str(number), values).value == values[number - 1]


@pytest.mark.parametrize("typed", ["²", "B²", "b1²", "¹²"])
def test_digit_signs_that_are_not_decimals_are_typed_text_not_numbers(typed: str) -> None:
    # "²" is a digit to str.isdigit but not a number int() reads (found by a hypothesis walk).
    assert match_unit(typed, ONE_BLOCK, "Room").value is None


def test_decimals_of_other_scripts_are_numbers() -> None:
    assert match_unit("١٢", ONE_BLOCK, "Room") == UnitMatch(value="B012")
