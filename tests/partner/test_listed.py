"""``bot.partner.listed``: the route read off the service's delivery, a place only where the
service pinned one (both coordinates, not the (0, 0) a missing pin reads as)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.partner.listed import listed_details
from bot.store import Point
from conversations.order.delivery import Delivery


def _delivery(pickup: dict[str, Any] | None, dropoff: dict[str, Any] | None) -> Delivery:
    body: dict[str, Any] = {"id": "d1", "status": "matched", "pickup": pickup, "dropoff": dropoff}
    return Delivery.model_validate(body)


def test_the_route_is_both_pinned_places() -> None:
    shop = {"address": "12 Awolowo Rd", "latitude": 6.4281, "longitude": 3.4219}
    home = {"address": "3 Allen Ave", "latitude": 6.6018, "longitude": 3.3515}

    details = listed_details(_delivery(shop, home))

    assert (details.pickup, details.dropoff) == (Point(6.4281, 3.4219), Point(6.6018, 3.3515))


@pytest.mark.parametrize(
    "place",
    [
        None,
        {"address": "12 Awolowo Rd"},
        {"latitude": 6.4281},
        {"latitude": 0, "longitude": 0},
        {"latitude": 96.0, "longitude": 3.4},
        {"latitude": 6.4, "longitude": float("nan")},
    ],
    ids=["none", "address-only", "half", "zero-pin", "off-earth", "not-a-number"],
)
def test_a_place_not_pinned_is_no_place(place: dict[str, Any] | None) -> None:
    details = listed_details(_delivery(place, place))

    assert (details.pickup, details.dropoff) == (None, None)
