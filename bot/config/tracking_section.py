"""``[tracking]``: the rider on the map, shown to the customer of a moving delivery.

Off by default: a business turns it on once its riders share their position in the rider app.
While on, one leader-only job reads every tracked rider's last GPS fix with one ``GET /riders``
per interval (``bot.tracking``), and each customer's channel shows it (Telegram: a live
location). ``speeds_kmh`` turn a distance into the estimate customers read, by the rider's
``vehicle_type`` as the Partner API writes it (lower case); a vehicle not named there uses
``default_speed_kmh``.
"""

from __future__ import annotations

from typing import Final

from pydantic import Field, field_validator

from bot.config.section import Section

DEFAULT_SPEEDS_KMH: Final = {
    # Average door-to-door speeds in city traffic (stops, lights, finding the door), not the
    # vehicles' top speeds: an estimate that is late more often than early reads as a lie.
    "bicycle": 12.0,
    "motorbike": 22.0,
    "motorcycle": 22.0,
    "scooter": 20.0,
    "tricycle": 16.0,
    "car": 18.0,
    "van": 16.0,
    "truck": 14.0,
    "walking": 4.5,
}


class TrackingConfig(Section):
    """``[tracking]``: whether customers see their rider move, how often, and how old a fix
    may be before it is no longer shown."""

    enabled: bool = False
    # Uber Direct sends a courier's position every 20 s; one GET /riders per interval serves
    # every tracked delivery of the business together.
    interval_seconds: float = Field(20.0, ge=5, le=300)
    # A fix older than this is not shown ("not available right now"); the API's own `fresh`
    # (30 minutes) must hold too.
    max_fix_age_seconds: float = Field(120.0, ge=10, le=1800)
    default_speed_kmh: float = Field(16.0, gt=0, le=120)
    speeds_kmh: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_SPEEDS_KMH))

    @field_validator("speeds_kmh")
    @classmethod
    def _speeds_are_speeds(cls, speeds: dict[str, float]) -> dict[str, float]:
        # A table that names a few vehicles changes those; the others keep their defaults.
        for vehicle, speed in speeds.items():
            if vehicle != vehicle.strip().lower() or not vehicle:
                raise ValueError(f"{vehicle!r}: a vehicle type is written in lower case")
            if not 0 < speed <= 120:
                raise ValueError(f"{vehicle}: {speed} km/h is not a speed from 0 to 120")
        return {**DEFAULT_SPEEDS_KMH, **speeds}

    def speed_kmh(self, vehicle_type: str | None) -> float:
        """The speed an estimate assumes for ``vehicle_type`` (any case; None: unknown)."""
        if vehicle_type is None:
            return self.default_speed_kmh
        return self.speeds_kmh.get(vehicle_type.strip().lower(), self.default_speed_kmh)
