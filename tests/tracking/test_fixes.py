"""Which GPS fix a customer may be shown: fresh, recent, and not a jump across the city."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.partner.models import Rider, RiderLocation
from bot.store.rider_positions import Fix, Point
from bot.tracking.arrival import ROAD_FACTOR, eta_minutes, remaining_km
from bot.tracking.fixes import distance_km, judge_fix, reported_fix

NOW = 1_800_000_000.0
YABA = Point(6.5095, 3.3711)
NEAR_YABA = Point(6.5105, 3.3711)  # about 110 m north
IKEJA = Point(6.6018, 3.3515)  # about 10 km north of Yaba


def _rider(location: RiderLocation | None) -> Rider:
    return Rider.model_validate(
        {"id": "r1", "name": "Ayo", "presence": "on_delivery", "location": location}
    )


def _location(point: Point, *, at: float | None, fresh: bool = True) -> RiderLocation:
    taken = None if at is None else datetime.fromtimestamp(at, UTC)
    return RiderLocation(
        latitude=point.latitude, longitude=point.longitude, updated_at=taken, fresh=fresh
    )


def test_a_reported_fix_needs_a_location_a_time_and_the_service_calling_it_fresh() -> None:
    assert reported_fix(None) is None
    assert reported_fix(_rider(None)) is None
    assert reported_fix(_rider(_location(YABA, at=None))) is None
    assert reported_fix(_rider(_location(YABA, at=NOW, fresh=False))) is None
    assert reported_fix(_rider(_location(YABA, at=NOW))) == Fix(YABA, NOW)


def test_a_fix_older_than_the_age_limit_is_not_shown() -> None:
    old = Fix(YABA, NOW - 121)
    assert judge_fix(old, None, now=NOW, max_age_seconds=120).fix is None
    assert judge_fix(Fix(YABA, NOW - 119), None, now=NOW, max_age_seconds=120).fix == Fix(
        YABA, NOW - 119
    )
    assert judge_fix(None, Fix(YABA, NOW - 10), now=NOW, max_age_seconds=120).fix is None


def test_a_plausible_move_is_shown() -> None:
    shown = Fix(YABA, NOW - 20)
    moved = Fix(NEAR_YABA, NOW)  # 110 m in 20 s: 20 km/h
    assert judge_fix(moved, shown, now=NOW, max_age_seconds=120).fix == moved


def test_a_jump_across_the_city_is_held_back_until_the_last_fix_is_too_old() -> None:
    shown = Fix(YABA, NOW - 20)
    jump = Fix(IKEJA, NOW)  # 10 km in 20 s
    held = judge_fix(jump, shown, now=NOW, max_age_seconds=120)
    assert held.fix == shown and held.held_back
    # Two minutes on, the old fix cannot stand any more: the rider really is there.
    later = Fix(IKEJA, NOW + 110)
    assert judge_fix(later, shown, now=NOW + 110, max_age_seconds=120).fix == later


def test_a_fix_within_the_allowance_is_never_a_jump() -> None:
    shown = Fix(YABA, NOW - 1)
    assert judge_fix(Fix(NEAR_YABA, NOW), shown, now=NOW, max_age_seconds=120).fix == Fix(
        NEAR_YABA, NOW
    )


def test_a_fix_older_than_the_one_shown_leaves_the_one_shown() -> None:
    shown = Fix(NEAR_YABA, NOW - 5)
    assert judge_fix(Fix(YABA, NOW - 30), shown, now=NOW, max_age_seconds=120).fix == shown


def test_the_estimate_goes_by_the_pickup_while_the_rider_heads_there() -> None:
    straight = distance_km(IKEJA, YABA)
    assert remaining_km(IKEJA, pickup=None, dropoff=YABA, to_pickup=True) == pytest.approx(
        straight * ROAD_FACTOR
    )
    via = remaining_km(IKEJA, pickup=NEAR_YABA, dropoff=YABA, to_pickup=True)
    direct = remaining_km(IKEJA, pickup=NEAR_YABA, dropoff=YABA, to_pickup=False)
    assert via > direct


@pytest.mark.parametrize(
    ("km", "speed", "minutes"),
    [(10.0, 20.0, 30), (0.01, 20.0, 1), (1.0, 12.0, 5), (3.3, 20.0, 10), (3.7, 20.0, 15)],
)
def test_minutes_are_rounded_up_at_least_one_and_by_five_past_ten(
    km: float, speed: float, minutes: int
) -> None:
    assert eta_minutes(km, speed) == minutes
