"""The estimate of arrival a customer reads: the distance left over a speed by vehicle.

The distance is the straight line from the rider to where they are headed, and on to the
drop-off (while ``matched`` the rider still goes to the pickup first), times ``ROAD_FACTOR`` for
the streets a straight line does not follow. The speed is ``[tracking] speeds_kmh`` by the
rider's vehicle type. It is an estimate and the texts say so (``tracking_texts``): no traffic,
no stops beyond the average speed's.
"""

from __future__ import annotations

import math
from typing import Final

from bot.store.rider_positions import Point
from bot.tracking.fixes import distance_km

ROAD_FACTOR: Final = 1.3
"""City streets are about 1.3 times the straight line between two points (a common rule of
thumb for urban road networks' circuity)."""


def remaining_km(rider: Point, *, pickup: Point | None, dropoff: Point, to_pickup: bool) -> float:
    """Kilometres by road, estimated, from ``rider`` to ``dropoff`` (by the pickup first while
    ``to_pickup``, when it is known)."""
    if to_pickup and pickup is not None:
        straight = distance_km(rider, pickup) + distance_km(pickup, dropoff)
    else:
        straight = distance_km(rider, dropoff)
    return straight * ROAD_FACTOR


ROUND_ABOVE_MINUTES: Final = 10
"""Past this many minutes the estimate goes by 5 minutes: "about 25 min" is all a straight
line and an average speed can honestly tell, and an estimate that changes only when it moves
by 5 minutes is edited in the customer's chat a few times a trip, not at every pass."""


def eta_minutes(km: float, speed_kmh: float) -> int:
    """Whole minutes, rounded up (an estimate that errs early disappoints), at least 1; past
    ``ROUND_ABOVE_MINUTES``, rounded up to a multiple of 5."""
    minutes = max(1, math.ceil(km / speed_kmh * 60))
    if minutes > ROUND_ABOVE_MINUTES:
        return math.ceil(minutes / 5) * 5
    return minutes
