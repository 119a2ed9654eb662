"""The Partner API's vocabulary: every resource, request and webhook body as pydantic models.

Field names are the wire names, so ``Capabilities`` reads ``enabledServiceKinds`` and
``Delivery`` reads ``service_kind`` exactly as the spec prints them; nothing is renamed.

Two families of models live here:

* Response models (``Delivery``, ``Capabilities`` ...) ignore fields they do not know, so a new
  field on the service never breaks the bot. Enums that the spec marks "or other string" accept
  any string. Missing allow-list values default to "not allowed", as the spec's
  capabilities rules say. A value the bot does not know yet must not stop every order either:
  unknown entries of an allow-list array (``enabledServiceKinds``, ``errand.enabledModes``) are
  dropped (unknown = not allowed), an unknown ``defaultServiceKind`` / ``defaultMode`` reads as
  None, and descriptive fields (``plan``, ``coverage.mode``, ``pricingMode``,
  ``paymentTiming``, rider ``presence``, location ``category``) accept any string.
* Request models (``CreateDeliveryRequest`` ...) forbid unknown fields, keep the spec's enums
  strict, and check every rule of the spec's request table that can be checked without the
  org's capabilities, so a bad create fails here, in the caller's process, with the field named.

This module is the domain vocabulary shared with ``conversations``: it imports nothing else of
``bot`` but ``bot.partner.vocabulary``, the enumerations and fixed strings it re-exports (kept
apart, free of pydantic, so the configuration reads them without building these models).
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic import ValidationError as PydanticValidationError

# The plain vocabulary lives in its own module so that the configuration can use it without
# building these models; it is re-exported here, where every other module looks for it.
from bot.partner.vocabulary import API_KEY_PREFIX as API_KEY_PREFIX
from bot.partner.vocabulary import DELIVERY_STATUSES as DELIVERY_STATUSES
from bot.partner.vocabulary import EVENT_TYPES as EVENT_TYPES
from bot.partner.vocabulary import LOOPBACK_HOSTS as LOOPBACK_HOSTS
from bot.partner.vocabulary import SIGNING_SECRET_PREFIX as SIGNING_SECRET_PREFIX
from bot.partner.vocabulary import CollectionMethod as CollectionMethod
from bot.partner.vocabulary import CoverageMode as CoverageMode
from bot.partner.vocabulary import DeliveryMode as DeliveryMode
from bot.partner.vocabulary import ErrandMode as ErrandMode
from bot.partner.vocabulary import EventType as EventType
from bot.partner.vocabulary import LocationCategory as LocationCategory
from bot.partner.vocabulary import OpenCollectionMethod as OpenCollectionMethod
from bot.partner.vocabulary import OpenPackageSize as OpenPackageSize
from bot.partner.vocabulary import OpenRequestSource as OpenRequestSource
from bot.partner.vocabulary import OpenServiceKind as OpenServiceKind
from bot.partner.vocabulary import OtpReason as OtpReason
from bot.partner.vocabulary import PackageSize as PackageSize
from bot.partner.vocabulary import PaymentTiming as PaymentTiming
from bot.partner.vocabulary import Plan as Plan
from bot.partner.vocabulary import PricingMode as PricingMode
from bot.partner.vocabulary import RiderPresence as RiderPresence
from bot.partner.vocabulary import ServiceKind as ServiceKind
from bot.partner.vocabulary import UnitMode as UnitMode

# Limits from the spec's Limits table, in one place for the client, the sandbox and the flows.
MAX_PACKAGE_IMAGES = 6
MAX_IMAGE_BYTES = 5 * 1024 * 1024
IDEMPOTENCY_KEY_LENGTH = (8, 120)
CANCEL_REASON_LENGTH = (3, 500)
LIST_LIMIT_RANGE = (1, 50)
LIST_LIMIT_DEFAULT = 20
RADIUS_KM_RANGE = (0.0, 500.0)
WEBHOOK_TOLERANCE_SECONDS = 300
RIDER_GPS_FRESH_MINUTES = 30

MAX_ERRAND_LINKS = 10
PHONE_DIGITS = (7, 15)
ERRAND_FIELDS: tuple[str, ...] = (
    "errandMode",
    "errandLinks",
    "errandBudgetNgn",
    "errandSubstituteOk",
    "shopPhone",
    "pickupLocationUnknown",
)

# Request fields grouped by what a refusal naming them means (the create path decides once,
# in ``conversations.refusals``, what to do for each group).
# The org's allow-list decides these: a refusal naming one means the cached capabilities may
# be out of date.
CAPABILITY_FIELDS: frozenset[str] = frozenset(
    {
        "serviceKind",
        "deliveryMode",
        "warehouseId",
        "customerCollectionMethod",
        "isPODEnabled",
        "podAmount",
        "errandMode",
        "errandLinks",  # curated links come from the capabilities
        "pickupLocationUnknown",
    }
)
# How the delivery is paid: a refusal naming only these is a payment refusal.
PAYMENT_FIELDS: frozenset[str] = frozenset(
    {"customerCollectionMethod", "isPODEnabled", "podAmount"}
)
# Where the rider goes: a coverage refusal asks for these again.
PLACE_FIELDS: tuple[str, ...] = (
    "pickupAddress",
    "pickupCoords",
    "deliveryAddress",
    "deliveryCoords",
)
COORDINATE_FIELDS: frozenset[str] = frozenset({"pickupCoords", "deliveryCoords"})

# What a pickup & delivery must carry beyond every request's fields, and what it is told
# without one (the sandbox answers the same words).
PICKUP_DELIVERY_FIELDS: tuple[str, ...] = ("receiverName", "receiverPhone", "packageImages")
PICKUP_DELIVERY_FIELD_MISSING: dict[str, str] = {
    "receiverName": "is required",
    "receiverPhone": "is required",
    "packageImages": "needs at least 1 image for pickup_delivery",
}

# What an errand without one of them is told (the sandbox answers the same words).
ERRAND_FIELD_MISSING: dict[str, str] = {
    "errandMode": "is required for errands",
    "errandLinks": "is required for errands (send an empty array for none)",
    "errandBudgetNgn": 'is required for errands (send "" for none)',
    "errandSubstituteOk": "is required for errands",
    "shopPhone": 'is required for errands (send "" for none)',
    "pickupLocationUnknown": "is required for errands",
}

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_PHONE_CHARS = re.compile(r"^\+?[0-9 ().\-]+$")
_BUDGET = re.compile(r"^[0-9]{1,12}(\.[0-9]{1,2})?$")


def phone_problem(value: str) -> str | None:
    """Why ``value`` is not a phone number, or None: an optional ``+``, then digits with
    spaces, dashes, dots or parentheses, 7 to 15 digits in all (the sandbox's rule too)."""
    if not _PHONE_CHARS.fullmatch(value):
        return "must be a phone number (digits, optionally starting with +)"
    digits = sum(ch.isdigit() for ch in value)
    if not PHONE_DIGITS[0] <= digits <= PHONE_DIGITS[1]:
        return f"must have {PHONE_DIGITS[0]} to {PHONE_DIGITS[1]} digits"
    return None


def errand_budget_problem(value: str) -> str | None:
    """Why ``value`` is not an ``errandBudgetNgn`` amount ("8000", "8,000.50"), or None."""
    if not _BUDGET.fullmatch(value.replace(",", "")):
        return 'must be an amount such as "5000"'
    return None


def _keep_known(value: Any, known: tuple[str, ...]) -> Any:
    """An allow-list array without the values this bot does not know: unknown = not allowed."""
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str) and item in known]
    return value


def _known_or_none(value: Any, known: tuple[str, ...]) -> Any:
    """A default the bot cannot offer is no default at all."""
    return value if isinstance(value, str) and value in known else None


class ResponseModel(BaseModel):
    """A body the service sends: unknown fields are ignored, so the service can grow."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class RequestModel(BaseModel):
    """A body the bot sends: unknown fields are refused, so a typo never reaches the wire."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    def to_wire(self) -> dict[str, Any]:
        """The JSON body as the service expects it (fields left unset are omitted)."""
        return self.model_dump(mode="json", exclude_none=True)


# --- shared pieces -----------------------------------------------------------------------------


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


# --- Delivery --------------------------------------------------------------------------------


class DeliveryPackage(ResponseModel):
    description: str | None = None
    size: OpenPackageSize | None = None
    is_fragile: bool = False


class DeliveryPayment(ResponseModel):
    delivery_fee: float | None = None
    delivery_payment_status: str | None = None
    currency_code: str | None = None
    customer_collection_method: OpenCollectionMethod | None = None
    is_pod_enabled: bool = False
    pod_amount: float | None = None


class DeliveryPickup(ResponseModel):
    address: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    warehouse_id: str | None = None


class DeliveryDropoff(ResponseModel):
    address: str | None = None
    latitude: float | None = None
    longitude: float | None = None


class DeliveryCustomer(ResponseModel):
    sender_name: str | None = None
    sender_phone: str | None = None
    sender_email: str | None = None
    receiver_name: str | None = None
    receiver_phone: str | None = None


class DeliveryTracking(ResponseModel):
    url: str | None = None
    path: str | None = None
    access_code: str | None = None


class DeliveryRider(ResponseModel):
    id: str
    name: str | None = None
    vehicle_type: str | None = None


class Delivery(ResponseModel):
    """A delivery as create, get, list, cancel, assign and unassign return it.

    Every field but ``id`` and ``status`` is optional because a cancel whose reload failed
    answers with ``{ id, status }`` only (see ``is_partial``).
    """

    id: str
    status: str
    access_code: str | None = None
    title: str | None = None
    service_kind: OpenServiceKind | None = None
    request_source: OpenRequestSource | None = None
    package: DeliveryPackage | None = None
    payment: DeliveryPayment | None = None
    pickup: DeliveryPickup | None = None
    dropoff: DeliveryDropoff | None = None
    distance_km: float | None = None
    estimated_duration_minutes: float | None = None
    customer: DeliveryCustomer | None = None
    tracking: DeliveryTracking | None = None
    rider_assigned: bool = False
    rider: DeliveryRider | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    cancelled_at: datetime | None = None
    cancellation_reason: str | None = None

    @property
    def is_partial(self) -> bool:
        """True for the reduced ``{ id, status }`` body a cancel may return."""
        return self.created_at is None and self.package is None and self.tracking is None

    @property
    def tracking_url(self) -> str | None:
        return self.tracking.url if self.tracking else None


# --- Capabilities ----------------------------------------------------------------------------


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
        return _keep_known(value, get_args(ErrandMode))

    @field_validator("defaultMode", mode="before")
    @classmethod
    def _known_default(cls, value: Any) -> Any:
        return _known_or_none(value, get_args(ErrandMode))


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
        return _keep_known(value, get_args(ServiceKind))

    @field_validator("defaultServiceKind", mode="before")
    @classmethod
    def _known_default(cls, value: Any) -> Any:
        return _known_or_none(value, get_args(ServiceKind))

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


# --- Warehouses, service locations, riders ----------------------------------------------------


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


class RiderLocation(ResponseModel):
    latitude: float
    longitude: float
    updated_at: datetime | None = None
    fresh: bool = False


class Rider(ResponseModel):
    id: str
    name: str | None = None
    vehicle_type: str | None = None
    fleet_link_status: str | None = None
    presence: RiderPresence | str
    presence_updated_at: datetime | None = None
    active_delivery_count: int = 0
    last_active_at: datetime | None = None
    location: RiderLocation | None = None
    distance_km: float | None = None
    average_rating: float | None = None
    total_deliveries: int | None = None


# --- requests ----------------------------------------------------------------------------------


def is_image_url(url: str) -> bool:
    """Whether ``url`` may go into ``packageImages``: https with a host, or plain http to a
    loopback host.

    The spec takes https only, and the real service refuses anything else. Plain http to a
    loopback host is the exception the config makes for the bot's own ``public_base_url``
    (``bot.config.urls``): a bot run against a local sandbox hosts its photos there, and the
    sandbox downloads them only when its scenario sets ``[network] allow_http`` and
    ``allow_loopback``.
    """
    parts = urlsplit(url)
    if parts.scheme == "https":
        return bool(parts.hostname)
    return parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS


class ErrandLink(RequestModel):
    url: str = Field(min_length=1, max_length=2000)
    note: str = Field(default="", max_length=500)
    curatedId: str | None = None

    @field_validator("url")
    @classmethod
    def _web_link(cls, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("must be an http(s) link")
        return url


PhoneText = Annotated[str, StringConstraints(max_length=40)]
# The key is sent exactly as given: trimming it would make two different keys one.
IdempotencyKey = Annotated[
    str,
    StringConstraints(
        strip_whitespace=False,
        min_length=IDEMPOTENCY_KEY_LENGTH[0],
        max_length=IDEMPOTENCY_KEY_LENGTH[1],
    ),
]


class CreateDeliveryRequest(RequestModel):
    """The body of ``POST /deliveries``, with every rule the spec's request table states.

    Rules that need the org's capabilities (enabled kinds, payment flags, POD, warehouses,
    errand modes, unknown shop location, image host allowlist) are checked by the flows
    before building this, and by the service (and the sandbox) on create. Everything else is
    checked here with the sandbox's own choices and wording (``docs/sandbox.md``), so a request
    this model accepts is one the sandbox accepts:

    * ``receiverName`` / ``receiverPhone`` and at least one image for ``pickup_delivery``;
    * errands: ``deliveryMode`` ``pickup`` only; all six errand fields present (``errandMode``,
      ``errandLinks``, ``errandBudgetNgn``, ``errandSubstituteOk``, ``shopPhone``,
      ``pickupLocationUnknown``; the array may be empty and the strings ``""``, except that a
      ``link`` errand needs at least one link); a ``photo`` errand needs an image; never POD;
    * errand fields are refused on a ``pickup_delivery``;
    * ``warehouseId`` is required in warehouse mode and refused in pickup mode;
    * ``isPODEnabled`` needs ``podAmount`` > 0; a non-zero ``podAmount`` needs POD;
    * phones (``senderPhone``, ``receiverPhone``, ``pickupContactPhone``, ``shopPhone`` when
      not empty): an optional ``+``, digits with spaces, dashes, dots or parentheses, 7 to 15
      digits; ``errandBudgetNgn`` an amount such as ``"8000"`` or ``"8,000.50"``;
    * ``idempotencyKey`` 8 to 120 characters, never trimmed; at most 10 ``errandLinks``.

    A rule that spans fields fails with ``"<field>: <problem>"`` parts joined by ``"; "``.
    """

    serviceKind: ServiceKind
    deliveryMode: DeliveryMode = "pickup"
    warehouseId: str | None = None
    senderName: str = Field(min_length=1, max_length=200)
    senderPhone: str = Field(min_length=1, max_length=40)
    senderEmail: str = ""
    pickupContactSameAsSender: bool | None = None
    pickupContactName: str | None = Field(default=None, max_length=200)
    pickupContactPhone: PhoneText | None = None
    receiverName: str | None = Field(default=None, max_length=200)
    receiverPhone: PhoneText | None = None
    pickupAddress: str = Field(min_length=1, max_length=500)
    pickupCoords: Coords
    deliveryAddress: str = Field(min_length=1, max_length=500)
    deliveryCoords: Coords
    packageDescription: str = Field(min_length=1, max_length=1000)
    packageSize: PackageSize
    isFragile: bool | None = None
    isPODEnabled: bool | None = None
    podAmount: float | None = Field(default=None, ge=0)
    packageImages: list[str] = Field(default_factory=list, max_length=MAX_PACKAGE_IMAGES)
    customerCollectionMethod: CollectionMethod
    idempotencyKey: IdempotencyKey | None = None
    errandMode: ErrandMode | None = None
    errandLinks: list[ErrandLink] | None = Field(default=None, max_length=MAX_ERRAND_LINKS)
    errandBudgetNgn: str | None = Field(default=None, max_length=50)
    errandSubstituteOk: bool | None = None
    shopPhone: PhoneText | None = None
    pickupLocationUnknown: bool | None = None
    distanceKm: float | None = Field(default=None, ge=0)
    estimatedDurationMinutes: float | None = Field(default=None, ge=0)

    @field_validator("senderEmail")
    @classmethod
    def _email_or_empty(cls, email: str) -> str:
        if email and not _EMAIL.match(email):
            raise ValueError("must be an email address or empty")
        return email

    @field_validator("senderPhone", "receiverPhone", "pickupContactPhone", "shopPhone")
    @classmethod
    def _phone(cls, phone: str | None) -> str | None:
        problem = phone_problem(phone) if phone else None
        if problem:
            raise ValueError(problem)
        return phone

    @field_validator("errandBudgetNgn")
    @classmethod
    def _budget(cls, budget: str | None) -> str | None:
        problem = errand_budget_problem(budget) if budget else None
        if problem:
            raise ValueError(problem)
        return budget

    @field_validator("packageImages")
    @classmethod
    def _https_images(cls, urls: list[str]) -> list[str]:
        for url in urls:
            if not is_image_url(url):
                raise ValueError("each image must be an https URL (plain http only to loopback)")
        return urls

    @model_validator(mode="after")
    def _per_kind_rules(self) -> CreateDeliveryRequest:
        problems: list[tuple[str, str]] = []
        self._mode_rules(problems)
        if self.serviceKind == "pickup_delivery":
            self._pickup_delivery_rules(problems)
        else:
            self._errand_rules(problems)
        if self.isPODEnabled and not (self.podAmount and self.podAmount > 0):
            problems.append(
                ("podAmount", "is required and greater than 0 when isPODEnabled is true")
            )
        if not self.isPODEnabled and self.podAmount:
            problems.append(("podAmount", "is only allowed when isPODEnabled is true"))
        if problems:
            raise ValueError("; ".join(f"{name}: {problem}" for name, problem in problems))
        return self

    def _mode_rules(self, problems: list[tuple[str, str]]) -> None:
        if self.deliveryMode != "warehouse":
            if self.warehouseId is not None:
                problems.append(("warehouseId", "is only sent with deliveryMode warehouse"))
            return
        if self.serviceKind == "errand":
            problems.append(
                ("deliveryMode", "errands use deliveryMode pickup (the rider goes to the shop)")
            )
        elif not self.warehouseId:
            problems.append(
                ("warehouseId", "is required in warehouse mode and must be a warehouse id")
            )

    def _pickup_delivery_rules(self, problems: list[tuple[str, str]]) -> None:
        for name in PICKUP_DELIVERY_FIELDS:
            if not getattr(self, name):
                problems.append((name, PICKUP_DELIVERY_FIELD_MISSING[name]))
        for name in ERRAND_FIELDS:
            if getattr(self, name) is not None:
                problems.append((name, "is only sent for errands"))

    def _errand_rules(self, problems: list[tuple[str, str]]) -> None:
        for name in ERRAND_FIELDS:
            if getattr(self, name) is None:
                problems.append((name, ERRAND_FIELD_MISSING[name]))
        if self.isPODEnabled:
            problems.append(("isPODEnabled", "POD is only allowed on pickup_delivery"))
        if self.errandMode == "photo" and not self.packageImages:
            problems.append(("packageImages", "needs at least 1 image for photo errands"))
        if self.errandMode == "link" and self.errandLinks is not None and not self.errandLinks:
            problems.append(("errandLinks", "needs at least 1 link for a link errand"))


class CancelRequest(RequestModel):
    reason: str = Field(min_length=CANCEL_REASON_LENGTH[0], max_length=CANCEL_REASON_LENGTH[1])


class AssignRequest(RequestModel):
    riderId: str = Field(min_length=1)


# --- response envelopes ------------------------------------------------------------------------


class CapabilitiesResponse(ResponseModel):
    ok: Literal[True]
    capabilities: Capabilities


class WarehousesResponse(ResponseModel):
    ok: Literal[True]
    warehouses: list[Warehouse]


class ServiceLocationsResponse(ResponseModel):
    """The saved places; a row the bot cannot read (say a unit mode added later) is left out.

    One unreadable place must not take every saved place away from the customers: the flows
    could not offer that place correctly anyway, and the others stay usable.
    """

    ok: Literal[True]
    serviceLocations: list[ServiceLocation]

    @field_validator("serviceLocations", mode="before")
    @classmethod
    def _readable_rows(cls, rows: Any) -> Any:
        if not isinstance(rows, list):
            return rows
        readable = []
        for row in rows:
            try:
                readable.append(ServiceLocation.model_validate(row))
            except PydanticValidationError:
                continue
        return readable


class DeliveryResponse(ResponseModel):
    ok: Literal[True]
    delivery: Delivery


class DeliveryPage(ResponseModel):
    """One page of ``GET /deliveries``; ``next_cursor`` is None on the last page."""

    ok: Literal[True] = True
    deliveries: list[Delivery]
    next_cursor: str | None = None


class RidersResponse(ResponseModel):
    ok: Literal[True]
    riders: list[Rider]


class ErrorBody(ResponseModel):
    """The error envelope every failure uses."""

    ok: Literal[False] = False
    error: str = ""
    code: str | None = None
    fieldErrors: dict[str, list[str]] | None = None
    retryAfterSeconds: float | None = None


# --- webhooks ------------------------------------------------------------------------------------


class OtpInfo(ResponseModel):
    code: str
    receiver_phone: str
    reason: OtpReason | str
    channel: str = "webhook"


class EventData(ResponseModel):
    object: Delivery
    previous_status: str | None = None
    otp: OtpInfo | None = None


class WebhookEvent(ResponseModel):
    """A signed webhook body. Verify the signature on the raw bytes before parsing this."""

    id: str
    type: str
    created: int
    data: EventData
    summary: str = ""
    customer_message_hint: str | None = None
    docs_url: str | None = None
    agent_notes: list[str] = Field(default_factory=list)

    @property
    def delivery(self) -> Delivery:
        return self.data.object
