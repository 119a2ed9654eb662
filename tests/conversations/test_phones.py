"""Phone numbers become E.164 with the engine's default region."""

from __future__ import annotations

import pytest

from conversations.phones import example_phone, normalise_phone
from tests.support.words import SHIPPED


@pytest.mark.parametrize(
    ("typed", "region", "e164"),
    [
        ("0803 123 4567", "NG", "+2348031234567"),
        ("08031234567", "NG", "+2348031234567"),
        ("+234 803 123 4567", "NG", "+2348031234567"),
        ("00234 803 123 4567", "NG", "+2348031234567"),
        ("2348031234567", "NG", "+2348031234567"),  # a contact card without the "+"
        ("(0803) 123-4567", "NG", "+2348031234567"),
        ("024 123 4567", "GH", "+233241234567"),
        ("+44 7911 123456", "NG", "+447911123456"),
    ],
)
def test_numbers_are_normalised(typed, region, e164):
    assert normalise_phone(typed, region) == e164


@pytest.mark.parametrize("typed", ["", "12", "hello", "0803", "+234 000", "1" * 41])
def test_what_is_not_a_number_is_refused(typed):
    assert normalise_phone(typed, "NG") is None


def test_the_example_follows_the_region():
    assert example_phone(SHIPPED, "NG") == "0802 123 4567 or +234 802 123 4567"
    assert "+233" in example_phone(SHIPPED, "GH")
