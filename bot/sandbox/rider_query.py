"""``GET /riders``: query rules, filters and sort order.

Only riders who accepted the fleet invite are listed. With ``pickup_lat``/``pickup_lng`` each
rider with a location gets a straight-line ``distance_km`` and closer riders come first; riders
without a location keep ``distance_km`` null and come after. Presence breaks ties (available,
on_delivery, unavailable, not_in_app), then the name. ``radius_km`` hides only riders whose
known distance is greater; ``idle_only=true`` keeps only available riders with no active job.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.partner.models import RADIUS_KM_RANGE
from bot.sandbox.error_envelope import validation_error
from bot.sandbox.geo import coordinate_problem, distance_km
from bot.sandbox.state import RiderRecord
from bot.sandbox.views import rider_view

QUERY_PARAMS = ("pickup_lat", "pickup_lng", "radius_km", "idle_only")
PRESENCE_ORDER = {"available": 0, "on_delivery": 1, "unavailable": 2, "not_in_app": 3}


@dataclass(frozen=True)
class RiderQuery:
    pickup: tuple[float, float] | None = None
    radius_km: float | None = None
    idle_only: bool = False


def _number(value: str) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _pickup(
    lat: float | None, lng: float | None, problems: dict[str, list[str]]
) -> tuple[float, float] | None:
    """The pickup point, or None with each problem keyed by the coordinate that has it."""
    valid = True
    for name, value, limit in (("pickup_lat", lat, 90.0), ("pickup_lng", lng, 180.0)):
        if value is None:
            problems[name] = ["must be a number"]
        elif not -limit <= value <= limit:
            problems[name] = [f"must be between {-limit:g} and {limit:g}"]
        else:
            continue
        valid = False
    if not valid or lat is None or lng is None:
        return None
    if (problem := coordinate_problem(lat, lng)) is not None:
        # Only the zero pin is left, which neither coordinate is alone: both are named.
        problems["pickup_lat"] = [problem]
        problems["pickup_lng"] = [problem]
        return None
    return lat, lng


def parse_rider_query(params: Mapping[str, str]) -> RiderQuery:
    """The query as typed values; every problem is a ``validation_error`` naming the param."""
    problems: dict[str, list[str]] = {}
    lat_text, lng_text = params.get("pickup_lat"), params.get("pickup_lng")
    pickup: tuple[float, float] | None = None
    if (lat_text is None) != (lng_text is None):
        missing = "pickup_lng" if lng_text is None else "pickup_lat"
        problems[missing] = ["pickup_lat and pickup_lng must be given together"]
    elif lat_text is not None and lng_text is not None:
        pickup = _pickup(_number(lat_text), _number(lng_text), problems)
    radius: float | None = None
    if "radius_km" in params:
        radius = _number(params["radius_km"])
        low, high = RADIUS_KM_RANGE
        if radius is None or not low <= radius <= high:
            problems["radius_km"] = [f"must be a number from {low:g} to {high:g}"]
        elif lat_text is None or lng_text is None:
            problems["radius_km"] = ["needs pickup_lat and pickup_lng"]
    idle_text = params.get("idle_only", "false")
    if idle_text not in ("true", "false"):
        problems["idle_only"] = ["must be true or false"]
    if problems:
        raise validation_error(problems)
    return RiderQuery(pickup=pickup, radius_km=radius, idle_only=idle_text == "true")


def list_riders(
    riders: Iterable[RiderRecord], query: RiderQuery, now: float
) -> list[dict[str, Any]]:
    rows: list[tuple[tuple[float, int, str, str], dict[str, Any]]] = []
    for rider in riders:
        if not rider.accepted:
            continue
        if query.idle_only and (rider.presence != "available" or rider.active_delivery_count):
            continue
        distance: float | None = None
        if query.pickup and rider.latitude is not None and rider.longitude is not None:
            lat, lng = query.pickup
            distance = distance_km(lat, lng, rider.latitude, rider.longitude)
        if query.radius_km is not None and distance is not None and distance > query.radius_km:
            continue
        order = (
            distance if distance is not None else math.inf,
            PRESENCE_ORDER.get(rider.presence, len(PRESENCE_ORDER)),
            rider.name.casefold(),
            rider.id,
        )
        rows.append((order, rider_view(rider, now, distance)))
    rows.sort(key=lambda row: row[0])
    return [view for _, view in rows]
