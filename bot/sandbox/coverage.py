"""Coverage: whether a job's pickup and drop-off lie in the area the business serves.

``worldwide`` accepts every point; ``radius_from_hub`` accepts points within ``radius_km`` of
the hub (straight line); ``selected_regions`` accepts points inside any region rectangle.
``job_scope_policy`` says which ends must be inside: both (``pickup_and_dropoff``, the
default), only the ``pickup`` or only the ``dropoff``. A rejection is 403 ``outside_coverage``.
"""

from __future__ import annotations

from bot.sandbox.error_envelope import ApiError
from bot.sandbox.geo import distance_km
from bot.sandbox.scenario_parts import CoverageSettings
from bot.sandbox.validated_order import CreateOrder

OUTSIDE_COVERAGE = "outside_coverage"


def covers(settings: CoverageSettings, lat: float, lng: float) -> bool:
    if settings.mode == "worldwide":
        return True
    if settings.mode == "radius_from_hub":
        hub, radius = settings.hub, settings.radius_km
        if hub is None or radius is None:  # refused when the scenario loads
            return False
        return distance_km(hub.lat, hub.lng, lat, lng) <= radius
    return any(region.contains(lat, lng) for region in settings.regions)


def check_coverage(settings: CoverageSettings, order: CreateOrder) -> None:
    """Raise 403 ``outside_coverage`` naming the coordinates that fall outside the area."""
    ends = {
        "pickupCoords": ("pickup", order.pickup_lat, order.pickup_lng),
        "deliveryCoords": ("dropoff", order.delivery_lat, order.delivery_lng),
    }
    checked = {
        "pickup_and_dropoff": ("pickupCoords", "deliveryCoords"),
        "pickup": ("pickupCoords",),
        "dropoff": ("deliveryCoords",),
    }[settings.job_scope_policy]
    outside: dict[str, list[str]] = {}
    for field in checked:
        label, lat, lng = ends[field]
        if not covers(settings, lat, lng):
            outside[field] = [f"the {label} point is outside the area this business serves"]
    if outside:
        raise ApiError(
            403,
            OUTSIDE_COVERAGE,
            "This job is outside the business's coverage area. Re-fetch capabilities.",
            field_errors=outside,
        )
