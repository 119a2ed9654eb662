"""Automatic dispatch on create, and the rider bookkeeping that assignment implies.

Auto-dispatch runs only when ``publicRequest.autoDispatch`` is on, ``requireApproval`` is off and
the fee is known; it then picks the nearest accepted rider who is ``available`` with a fresh GPS
fix (under 30 minutes) within ``auto_dispatch_radius_km`` of the pickup. No fit is not an error:
the delivery stays ``pending``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.sandbox.geo import distance_km
from bot.sandbox.scenario import Scenario
from bot.sandbox.state import RiderRecord


def may_auto_dispatch(scenario: Scenario, fee: float | None) -> bool:
    request = scenario.capabilities.publicRequest
    return request.autoDispatch and not request.requireApproval and fee is not None and fee > 0


def nearest_free_rider(
    riders: Iterable[RiderRecord], lat: float, lng: float, now: float, radius_km: float
) -> RiderRecord | None:
    best: tuple[float, str, RiderRecord] | None = None
    for rider in riders:
        if not (rider.accepted and rider.presence == "available" and rider.location_fresh(now)):
            continue
        if rider.latitude is None or rider.longitude is None:
            continue
        km = distance_km(lat, lng, rider.latitude, rider.longitude)
        if km <= radius_km and (best is None or (km, rider.id) < best[:2]):
            best = (km, rider.id, rider)
    return best[2] if best else None


def take_job(rider: RiderRecord, now: float) -> None:
    """The rider got a delivery: one more active job, and an idle rider is now on delivery."""
    rider.active_delivery_count += 1
    if rider.presence == "available":
        rider.presence = "on_delivery"
        rider.presence_updated_at = now


def release_job(rider: RiderRecord, now: float) -> None:
    """A job left the rider (unassigned, cancelled or delivered)."""
    rider.active_delivery_count = max(0, rider.active_delivery_count - 1)
    if rider.active_delivery_count == 0 and rider.presence == "on_delivery":
        rider.presence = "available"
        rider.presence_updated_at = now
