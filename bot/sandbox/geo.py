"""Straight-line distances, points between two places, and the "real coordinates" rule,
shared by coverage, pricing, dispatch, the riders listing and the riders' paths."""

from __future__ import annotations

import math
from typing import NamedTuple

EARTH_RADIUS_KM = 6371.0088


def distance_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle (haversine) distance in kilometres."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    d_phi = phi2 - phi1
    d_lambda = math.radians(lng2 - lng1)
    a = math.sin(d_phi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(d_lambda / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(a)))


class MapPoint(NamedTuple):
    """A place on the map, in degrees."""

    latitude: float
    longitude: float


def point_between(start: MapPoint, end: MapPoint, fraction: float) -> MapPoint:
    """The point ``fraction`` (0 to 1) of the way from ``start`` to ``end``, interpolated in
    degrees: a straight line on a flat map, not a great circle. Across a city the two differ
    by metres, which is honest enough for a simulator."""
    return MapPoint(
        start.latitude + (end.latitude - start.latitude) * fraction,
        start.longitude + (end.longitude - start.longitude) * fraction,
    )


def coordinate_problem(lat: float, lng: float) -> str | None:
    """Why ``(lat, lng)`` is not a real map point, or None when it is.

    A (0, 0) pin is refused: it is what a missing geocode looks like, never a real address.
    """
    if not (math.isfinite(lat) and math.isfinite(lng)):
        return "coordinates must be finite numbers"
    if not -90.0 <= lat <= 90.0:
        return "lat must be between -90 and 90"
    if not -180.0 <= lng <= 180.0:
        return "lng must be between -180 and 180"
    if lat == 0.0 and lng == 0.0:
        return "a zero pin (0, 0) is not a real place"
    return None
