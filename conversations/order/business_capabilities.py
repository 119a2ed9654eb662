"""The business's capabilities as the flows read them: what may be offered, and how it is paid."""

from __future__ import annotations

from typing import Any, get_args

from pydantic import Field, field_validator

from conversations.order.base import ResponseModel, keep_known, known_or_none
from conversations.order.kinds import (
    CollectionMethod,
    CoverageMode,
    ErrandMode,
    PaymentTiming,
    Plan,
    PricingMode,
    ServiceKind,
)


class Organization(ResponseModel):
    id: str
    name: str
    slug: str


class CuratedLink(ResponseModel):
    id: str
    name: str
    url: str


class ErrandCapabilities(ResponseModel):
    enabledModes: list[ErrandMode] = Field(default_factory=list)
    defaultMode: ErrandMode | None = None
    allowUnknownShopLocation: bool = False
    curatedLinks: list[CuratedLink] = Field(default_factory=list)

    @field_validator("enabledModes", mode="before")
    @classmethod
    def _known_modes(cls, value: Any) -> Any:
        return keep_known(value, get_args(ErrandMode))

    @field_validator("defaultMode", mode="before")
    @classmethod
    def _known_default(cls, value: Any) -> Any:
        return known_or_none(value, get_args(ErrandMode))


class PaymentCollection(ResponseModel):
    onlineCheckout: bool = False
    cashOnDelivery: bool = False


class Coverage(ResponseModel):
    mode: CoverageMode | str = "worldwide"
    jobScopePolicy: str | None = None
    radiusKm: float | None = None
    regionCount: int = 0


class PodCapabilities(ResponseModel):
    enabled: bool = False


class PublicRequest(ResponseModel):
    requireApproval: bool = False
    autoDispatch: bool = False
    pricingMode: PricingMode | str = "hidden"
    pricingAmountNgn: float = 0


class Features(ResponseModel):
    serviceLocations: bool = False
    maxWarehouses: int | None = None


class RateLimits(ResponseModel):
    requestsPerMinute: int | None = None
    windowSeconds: int = 60


class Capabilities(ResponseModel):
    """The org's allow-list. A missing or false value means "not allowed": do not offer it."""

    organization: Organization
    plan: Plan | str
    enabledServiceKinds: list[ServiceKind] = Field(default_factory=list)
    defaultServiceKind: ServiceKind | None = None
    allowWarehouseDropoff: bool = False
    errand: ErrandCapabilities | None = None
    paymentCollection: PaymentCollection = Field(default_factory=PaymentCollection)
    currency: str = "NGN"
    paymentTiming: PaymentTiming | str = "after_delivery"
    coverage: Coverage = Field(default_factory=Coverage)
    pod: PodCapabilities = Field(default_factory=PodCapabilities)
    requireDeliveryOtp: bool = True
    publicRequest: PublicRequest = Field(default_factory=PublicRequest)
    features: Features = Field(default_factory=Features)
    rateLimits: RateLimits = Field(default_factory=RateLimits)

    @field_validator("enabledServiceKinds", mode="before")
    @classmethod
    def _known_kinds(cls, value: Any) -> Any:
        return keep_known(value, get_args(ServiceKind))

    @field_validator("defaultServiceKind", mode="before")
    @classmethod
    def _known_default(cls, value: Any) -> Any:
        return known_or_none(value, get_args(ServiceKind))

    def allows_kind(self, kind: str) -> bool:
        """``enabledServiceKinds`` wins over the presence of an ``errand`` object."""
        return kind in self.enabledServiceKinds

    @property
    def errand_modes(self) -> list[ErrandMode]:
        """Errand modes that may be collected (none when errands are not enabled)."""
        if not self.allows_kind("errand") or self.errand is None:
            return []
        return list(self.errand.enabledModes)

    @property
    def collection_methods(self) -> list[CollectionMethod]:
        """Payment methods that may be sent, in a stable order."""
        methods: list[CollectionMethod] = []
        if self.paymentCollection.cashOnDelivery:
            methods.append("cash_on_delivery")
        if self.paymentCollection.onlineCheckout:
            methods.append("online_checkout")
        return methods
