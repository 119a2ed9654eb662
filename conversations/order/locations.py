"""Where a delivery goes: map points, the business's warehouses and saved places with units."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, model_validator

from conversations.order.base import ResponseModel
from conversations.order.kinds import LocationCategory, UnitMode


class Coords(BaseModel):
    """A real map point as the API writes it: ``{ lng, lat }``.

    A zero pin (0, 0), a non-finite number or a value out of range is refused: the spec says
    coordinates are needed for routing and must never be invented.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    lng: float
    lat: float

    @model_validator(mode="after")
    def _real_point(self) -> Coords:
        if not (math.isfinite(self.lng) and math.isfinite(self.lat)):
            raise ValueError("coordinates must be finite numbers")
        if not -90.0 <= self.lat <= 90.0:
            raise ValueError("lat must be between -90 and 90")
        if not -180.0 <= self.lng <= 180.0:
            raise ValueError("lng must be between -180 and 180")
        if self.lat == 0.0 and self.lng == 0.0:
            raise ValueError("a zero pin (0, 0) is not a real place")
        return self


class Warehouse(ResponseModel):
    id: str
    name: str
    address: str
    latitude: float | None = None
    longitude: float | None = None

    @property
    def coords(self) -> Coords | None:
        """The row's pin, or None when the row has none (such a row cannot be used)."""
        if self.latitude is None or self.longitude is None:
            return None
        try:
            return Coords(lng=self.longitude, lat=self.latitude)
        except ValueError:
            return None


class UnitRange(ResponseModel):
    prefix: str = ""
    suffix: str = ""
    start: int
    end: int
    pad: int = 0

    def expand(self) -> list[str]:
        """Every unit the range names: prefix + number zero-padded to ``pad`` + suffix."""
        step = 1 if self.end >= self.start else -1
        return [
            f"{self.prefix}{str(n).zfill(self.pad)}{self.suffix}"
            for n in range(self.start, self.end + step, step)
        ]


class LocationUnit(ResponseModel):
    label: str = "Unit"
    mode: UnitMode = "none"
    ranges: list[UnitRange] = Field(default_factory=list)
    values: list[str] = Field(default_factory=list)
    allowCustom: bool = False
    required: bool = False

    def choices(self) -> list[str]:
        """The listed values first, then every range expanded, without repeats."""
        seen: dict[str, None] = {}
        for value in self.values:
            seen.setdefault(value, None)
        for unit_range in self.ranges:
            for value in unit_range.expand():
                seen.setdefault(value, None)
        return list(seen)


class ServiceLocation(ResponseModel):
    """A saved map place (hostel, gate, landmark ...) with its unit rules."""

    id: str
    name: str
    address: str
    category: LocationCategory | str = "other"
    coords: Coords
    countryCode: str | None = None
    stateCode: str | None = None
    countryName: str | None = None
    stateName: str | None = None
    unit: LocationUnit = Field(default_factory=LocationUnit)

    def composed_address(self, unit: str | None) -> str:
        """``{name} — {address} — {unit}``; the unit part is left out when there is none."""
        parts = [self.name, self.address]
        if unit:
            parts.append(unit)
        return " — ".join(parts)
