"""The tables of a scenario file that describe the org's settings: capabilities, coverage,
pricing and images.

``[capabilities]`` keeps the spec's field names so a scenario reads like the API's answer; every
model is strict (unknown keys are errors) and checks what the real dashboard would never let
through (a default kind that is not enabled, a region with its corners swapped).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.partner.models import (
    CoverageMode,
    ErrandMode,
    PaymentTiming,
    PricingMode,
    ServiceKind,
)
from bot.sandbox.geo import coordinate_problem

_BOTH_KINDS: tuple[ServiceKind, ...] = ("pickup_delivery", "errand")
JobScopePolicy = Literal["pickup_and_dropoff", "pickup", "dropoff"]


class Strict(BaseModel):
    """A scenario table: unknown keys are errors, values are frozen once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Point(Strict):
    lat: float
    lng: float

    @model_validator(mode="after")
    def _real(self) -> Point:
        problem = coordinate_problem(self.lat, self.lng)
        if problem:
            raise ValueError(problem)
        return self


# --- capabilities (wire names) ----------------------------------------------------------------


class CuratedLinkSettings(Strict):
    id: str
    name: str
    url: str


class ErrandSettings(Strict):
    enabledModes: list[ErrandMode]
    defaultMode: ErrandMode
    allowUnknownShopLocation: bool = False
    curatedLinks: list[CuratedLinkSettings] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> ErrandSettings:
        if not self.enabledModes:
            raise ValueError("enabledModes must list at least one mode")
        if self.defaultMode not in self.enabledModes:
            raise ValueError("defaultMode must be one of enabledModes")
        return self


class PaymentCollectionSettings(Strict):
    onlineCheckout: bool = False
    cashOnDelivery: bool = False


class PodSettings(Strict):
    enabled: bool = False


class PublicRequestSettings(Strict):
    requireApproval: bool = False
    autoDispatch: bool = False
    pricingMode: PricingMode = "quote_on_review"
    pricingAmountNgn: float = Field(default=0, ge=0)


class FeatureSettings(Strict):
    serviceLocations: bool = True


class CapabilitySettings(Strict):
    """``[capabilities]``: the dashboard's Delivery settings, as ``GET /capabilities`` shows them.

    ``organization``, ``plan``, ``coverage``, ``features.maxWarehouses`` and ``rateLimits`` are
    not here: they are derived from ``[organization]`` and ``[coverage]`` so they cannot
    disagree with what the sandbox enforces.
    """

    enabledServiceKinds: list[ServiceKind]
    defaultServiceKind: ServiceKind
    allowWarehouseDropoff: bool = False
    errand: ErrandSettings | None = None
    paymentCollection: PaymentCollectionSettings = PaymentCollectionSettings()
    currency: str = Field(default="NGN", pattern=r"^[A-Z]{3}$")
    paymentTiming: PaymentTiming = "after_delivery"
    pod: PodSettings = PodSettings()
    requireDeliveryOtp: bool = True
    publicRequest: PublicRequestSettings = PublicRequestSettings()
    features: FeatureSettings = FeatureSettings()

    @model_validator(mode="after")
    def _check(self) -> CapabilitySettings:
        if not self.enabledServiceKinds:
            raise ValueError("enabledServiceKinds must list at least one kind")
        if self.defaultServiceKind not in self.enabledServiceKinds:
            raise ValueError("defaultServiceKind must be one of enabledServiceKinds")
        if "errand" in self.enabledServiceKinds and self.errand is None:
            raise ValueError("errands are enabled, so [capabilities.errand] is required")
        return self


# --- coverage and pricing (sandbox-only geometry and rules) -----------------------------------


class RegionSettings(Strict):
    """A rectangle on the map; ``selected_regions`` coverage is the union of them."""

    name: str
    min_lat: float = Field(ge=-90, le=90)
    max_lat: float = Field(ge=-90, le=90)
    min_lng: float = Field(ge=-180, le=180)
    max_lng: float = Field(ge=-180, le=180)

    @model_validator(mode="after")
    def _check(self) -> RegionSettings:
        if self.min_lat >= self.max_lat or self.min_lng >= self.max_lng:
            raise ValueError("a region needs min_lat < max_lat and min_lng < max_lng")
        return self

    def contains(self, lat: float, lng: float) -> bool:
        return self.min_lat <= lat <= self.max_lat and self.min_lng <= lng <= self.max_lng


class CoverageSettings(Strict):
    mode: CoverageMode = "worldwide"
    job_scope_policy: JobScopePolicy = "pickup_and_dropoff"
    hub: Point | None = None
    radius_km: float | None = Field(default=None, gt=0)
    regions: list[RegionSettings] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> CoverageSettings:
        if self.mode == "radius_from_hub" and (self.hub is None or self.radius_km is None):
            raise ValueError("radius_from_hub needs hub and radius_km")
        if self.mode == "selected_regions" and not self.regions:
            raise ValueError("selected_regions needs at least one [[coverage.regions]] entry")
        return self


class PricingRule(Strict):
    name: str
    enabled: bool = True
    service_kinds: list[ServiceKind] = Field(default_factory=lambda: list(_BOTH_KINDS))
    max_distance_km: float | None = Field(default=None, gt=0)
    base_fee: float = Field(ge=0)
    per_km: float = Field(default=0, ge=0)
    minimum_fee: float = Field(default=0, ge=0)


class PricingSettings(Strict):
    rules: list[PricingRule] = Field(default_factory=list)
    round_to: float = Field(default=1, gt=0)


class ImageSettings(Strict):
    allowlist: list[str] = Field(default_factory=list)
    max_bytes: int = Field(default=5 * 1024 * 1024, gt=0, le=5 * 1024 * 1024)
    timeout_seconds: float = Field(default=10.0, gt=0)
    content_types: list[str] = Field(
        default_factory=lambda: ["image/jpeg", "image/png", "image/webp"]
    )
