"""The scenario tables for places and the fleet: warehouses, service locations, riders.

Warehouses and service locations keep the spec's wire names; riders add what only a simulator
needs (how old the GPS fix and the presence are when the sandbox starts).
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field, model_validator

from bot.partner.models import LocationCategory, RiderPresence, UnitMode
from bot.sandbox.geo import coordinate_problem
from bot.sandbox.scenario_parts import Strict


class WarehouseSettings(Strict):
    id: str
    name: str
    address: str
    latitude: float | None = None
    longitude: float | None = None
    active: bool = True

    @model_validator(mode="after")
    def _check(self) -> WarehouseSettings:
        try:
            uuid.UUID(self.id)
        except ValueError:
            raise ValueError("warehouse id must be a UUID") from None
        if (self.latitude is None) != (self.longitude is None):
            raise ValueError("give both latitude and longitude, or neither")
        if self.latitude is not None and self.longitude is not None:
            problem = coordinate_problem(self.latitude, self.longitude)
            if problem:
                raise ValueError(problem)
        return self


class UnitRangeSettings(Strict):
    prefix: str = ""
    suffix: str = ""
    start: int
    end: int
    pad: int = Field(default=0, ge=0, le=10)

    @model_validator(mode="after")
    def _check(self) -> UnitRangeSettings:
        if self.end < self.start:
            raise ValueError("end must not be smaller than start")
        return self


class UnitSettings(Strict):
    label: str = "Unit"
    mode: UnitMode = "none"
    ranges: list[UnitRangeSettings] = Field(default_factory=list)
    values: list[str] = Field(default_factory=list)
    allowCustom: bool = False
    required: bool = False

    @model_validator(mode="after")
    def _check(self) -> UnitSettings:
        if self.mode == "list" and not (self.ranges or self.values):
            raise ValueError("a list unit needs ranges or values")
        if self.mode != "list" and (self.ranges or self.values):
            raise ValueError("ranges and values only apply to mode 'list'")
        return self


class LngLat(Strict):
    lng: float
    lat: float

    @model_validator(mode="after")
    def _real(self) -> LngLat:
        problem = coordinate_problem(self.lat, self.lng)
        if problem:
            raise ValueError(problem)
        return self


class ServiceLocationSettings(Strict):
    id: str
    name: str
    address: str
    category: LocationCategory = "other"
    coords: LngLat
    countryCode: str | None = None
    stateCode: str | None = None
    countryName: str | None = None
    stateName: str | None = None
    unit: UnitSettings = UnitSettings()


class RiderLocationSettings(Strict):
    latitude: float
    longitude: float
    age_minutes: float = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _real(self) -> RiderLocationSettings:
        problem = coordinate_problem(self.latitude, self.longitude)
        if problem:
            raise ValueError(problem)
        return self


class RiderSettings(Strict):
    """A fleet roster row. Ages are minutes before the sandbox starts, so GPS freshness is
    relative to whatever clock the sandbox runs on."""

    id: str
    name: str
    vehicle_type: str | None = None
    fleet_link_status: Literal["accepted", "pending"] = "accepted"
    presence: RiderPresence = "available"
    presence_age_minutes: float = Field(default=0, ge=0)
    last_active_age_minutes: float | None = Field(default=None, ge=0)
    location: RiderLocationSettings | None = None
    active_delivery_count: int = Field(default=0, ge=0)
    average_rating: float | None = Field(default=None, ge=0, le=5)
    total_deliveries: int | None = Field(default=None, ge=0)
