"""Whether a place is clearly outside the business's area, before the create says so.

The capabilities' ``coverage`` is a soft hint (the create still decides), and for
``radius_from_hub`` they give the radius but not the hub. The business's warehouses are taken
to lie inside its own area, which is enough for a certain answer in one direction: if the hub
is within ``r`` of a warehouse and of a place, the two are within ``2r`` of each other (the
triangle inequality). So a place farther than ``2r`` from *every* warehouse is outside, whatever
the hub; anything nearer may be inside and is left for the create to judge. With
``selected_regions`` or ``worldwide`` the capabilities give nothing to measure by, so nothing
is refused early.

A place the create refused for coverage is remembered in the session (``out_of_area``) by
``place_key`` so that the same place is neither offered nor taken again in that order.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from geopy.distance import great_circle

from conversations.order.business_capabilities import Capabilities
from conversations.order.locations import Coords, Warehouse

# Half a kilometre of slack for the rounding of pins and addresses.
_SLACK_KM = 0.5
# Verdicts kept: every offered saved place is checked at every place question, against the
# same warehouses, so the same few answers are asked for again and again.
_VERDICTS_KEPT = 4096


def clearly_outside(caps: Capabilities, warehouses: Iterable[Warehouse], at: Coords) -> bool:
    """True only when ``at`` cannot be inside a ``radius_from_hub`` area (see the module)."""
    radius = caps.coverage.radiusKm
    if caps.coverage.mode != "radius_from_hub" or not radius or radius <= 0:
        return False
    pins = tuple((row.latitude, row.longitude) for row in warehouses)
    return _farther_than_all(pins, (at.lat, at.lng), 2 * radius + _SLACK_KM)


def place_key(saved_id: str | None, at: Coords | None) -> str | None:
    """How a place is remembered after a coverage refusal: a saved place by its id, any other
    by its coordinates to about 10 metres; None when there is neither."""
    if saved_id:
        return f"saved:{saved_id}"
    if at is not None:
        return f"at:{at.lat:.4f},{at.lng:.4f}"
    return None


@functools.lru_cache(maxsize=_VERDICTS_KEPT)
def _farther_than_all(
    pins: tuple[tuple[float | None, float | None], ...], at: tuple[float, float], limit: float
) -> bool:
    """True when every usable pin is more than ``limit`` km from ``at`` (False with none)."""
    anchors = [_usable(lat, lng) for lat, lng in pins]
    usable = [anchor for anchor in anchors if anchor is not None]
    if not usable:
        return False
    return all(_km(anchor, at) > limit for anchor in usable)


def _usable(lat: float | None, lng: float | None) -> tuple[float, float] | None:
    """A warehouse's pin as ``Warehouse.coords`` reads it (None: the row has no usable pin)."""
    if lat is None or lng is None:
        return None
    try:
        coords = Coords(lng=lng, lat=lat)
    except ValueError:
        return None
    return (coords.lat, coords.lng)


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(great_circle(a, b).km)
