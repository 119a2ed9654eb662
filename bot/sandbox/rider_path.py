"""Where a delivery's rider is on the way: the sandbox's riders move with their delivery.

A delivery's path is two straight legs: from where its rider was when the delivery came to
them (``DeliveryRecord.rider_start``) to the pickup, then from the pickup to the drop-off.
Points on a leg are interpolated in degrees (``geo.point_between``), not along roads nor on a
great circle: honest enough for a simulator, and a test can work them out by hand.

As the status advances the rider is put on the path: at the pickup when ``picked_up``, a third
of the way to the drop-off when ``in_transit``, at the drop-off when ``delivered``. The admin's
rider progress moves the rider along the current leg (start -> pickup while ``matched``,
pickup -> drop-off after). Every move is a fresh fix taken at the sandbox clock's now. A rider
who had no fix when the delivery came has no first leg: their start is the pickup.
"""

from __future__ import annotations

from typing import Final

from bot.sandbox.error_envelope import ApiError
from bot.sandbox.geo import MapPoint, point_between
from bot.sandbox.state import DeliveryRecord, RiderRecord

IN_TRANSIT_SHARE: Final = 1 / 3
"""How far from the pickup towards the drop-off the rider is when the delivery is in transit."""

PROGRESS_STATUSES: Final = ("matched", "picked_up", "in_transit")
"""The statuses in which an admin may move the rider along the delivery's current leg."""


def rider_point(rider: RiderRecord) -> MapPoint | None:
    """The rider's last fix as a point, or None when the rider has no location."""
    if rider.latitude is None or rider.longitude is None:
        return None
    return MapPoint(rider.latitude, rider.longitude)


def put_rider(rider: RiderRecord, point: MapPoint, taken_at: float) -> None:
    """A GPS fix for the rider at ``point``, taken at ``taken_at`` (the app reported then)."""
    rider.latitude, rider.longitude = point
    rider.location_updated_at = rider.last_active_at = taken_at


def start_route(record: DeliveryRecord, rider: RiderRecord, now: float) -> None:
    """The delivery came to ``rider`` (auto-dispatch or assign): its path starts where the
    rider is, and the rider's fix there is fresh, as the rider app reports on accepting."""
    record.rider_start = rider_point(rider)
    if record.rider_start is not None:
        put_rider(rider, record.rider_start, now)


def point_at_status(record: DeliveryRecord) -> MapPoint | None:
    """Where the rider is when the delivery reaches its status, or None when the status does
    not move the rider (before pickup, and cancelled: the rider stays where they are)."""
    pickup, dropoff = _pickup(record), _dropoff(record)
    if record.status == "picked_up":
        return pickup
    if record.status == "in_transit":
        return point_between(pickup, dropoff, IN_TRANSIT_SHARE)
    if record.status == "delivered":
        return dropoff
    return None


def point_on_leg(record: DeliveryRecord, fraction: float) -> MapPoint:
    """The point ``fraction`` (0 to 1) of the way along the delivery's current leg; 400
    ``progress_not_allowed`` when the delivery is not on its way (not matched, picked up or in
    transit)."""
    if record.status not in PROGRESS_STATUSES:
        raise ApiError(
            400,
            "progress_not_allowed",
            f"A delivery that is {record.status} has no rider on the way; rider progress is "
            "allowed while matched, picked_up or in_transit.",
        )
    if record.status == "matched":
        pickup = _pickup(record)
        return point_between(record.rider_start or pickup, pickup, fraction)
    return point_between(_pickup(record), _dropoff(record), fraction)


def _pickup(record: DeliveryRecord) -> MapPoint:
    return MapPoint(record.order.pickup_lat, record.order.pickup_lng)


def _dropoff(record: DeliveryRecord) -> MapPoint:
    return MapPoint(record.order.delivery_lat, record.order.delivery_lng)
