"""Which of a rider's GPS fixes a customer may be shown.

``GET /riders`` gives each rider's last fix (``location``: where, ``updated_at``, and the
service's ``fresh``, newer than 30 minutes). A fix is shown only when:

* it is there, with its time, and the service calls it fresh;
* it is no older than ``[tracking] max_fix_age_seconds`` (a rider whose app stopped sending
  is not shown standing still where they were minutes ago);
* it is not a jump: a fix more than ``JUMP_ALLOWANCE_KM`` from the last fix shown that would
  have the rider cover the distance faster than any rider in a city goes (``MAX_PLAUSIBLE_KMH``)
  is held back, and the last fix shown stands meanwhile. A real move is confirmed by time: once
  the fix shown is too old to stand, the next fresh fix is taken wherever it is (the rider's
  phone found its position again), so a rider is never frozen for longer than the age limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from geopy.distance import great_circle

from bot.partner.models import Rider
from bot.store.rider_positions import Fix, Point

MAX_PLAUSIBLE_KMH: Final = 120.0
"""Faster than this between two fixes is a GPS jump, not a rider: no delivery rider in city
traffic keeps 120 km/h, and a phone's fix that jumps across the city does."""

JUMP_ALLOWANCE_KM: Final = 2.0
"""A fix within this distance of the last one is shown whatever the time between them. A GPS
that jumps "across the city" lands kilometres away; a fix a few hundred metres on, come sooner
than a rider could have ridden there, is mostly a late fix of a real move (the app sends in
bursts after a tunnel or a dead zone), and holding it back would freeze the pin. At worst the
pin is that far off for one pass."""


@dataclass(frozen=True)
class FixJudgement:
    """What may be shown: ``fix`` (None: nothing, the position is not available right now),
    and ``held_back`` when a newer fix was a jump and the last one shown stands instead."""

    fix: Fix | None
    held_back: bool = False


def distance_km(a: Point, b: Point) -> float:
    """The straight-line (great-circle) distance between two points, in kilometres."""
    return float(great_circle((a.latitude, a.longitude), (b.latitude, b.longitude)).km)


def reported_fix(rider: Rider | None) -> Fix | None:
    """The rider's last fix as the service reported it (None: no rider in the list, no location,
    no time to it, or the service itself does not call it fresh)."""
    if rider is None or rider.location is None:
        return None
    location = rider.location
    if not location.fresh or location.updated_at is None:
        return None
    return Fix(Point(location.latitude, location.longitude), location.updated_at.timestamp())


def judge_fix(
    reported: Fix | None, shown: Fix | None, *, now: float, max_age_seconds: float
) -> FixJudgement:
    """The fix to show, given the one the service ``reported`` now and the one ``shown`` last
    (None: none yet); see the module docstring."""
    if reported is None or now - reported.taken_at > max_age_seconds:
        return FixJudgement(None)
    if shown is None or now - shown.taken_at > max_age_seconds:
        return FixJudgement(reported)
    if reported.taken_at < shown.taken_at:
        return FixJudgement(shown)  # an older fix than the one shown: the service's lag
    if _is_jump(shown, reported):
        return FixJudgement(shown, held_back=True)
    return FixJudgement(reported)


def _is_jump(before: Fix, after: Fix) -> bool:
    km = distance_km(before.point, after.point)
    if km <= JUMP_ALLOWANCE_KM:
        return False
    hours = (after.taken_at - before.taken_at) / 3600
    return hours <= 0 or km / hours > MAX_PLAUSIBLE_KMH
