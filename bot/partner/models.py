"""The Partner API's vocabulary: every resource, request and webhook body as pydantic models.

Field names are the wire names, so ``Capabilities`` reads ``enabledServiceKinds`` and
``Delivery`` reads ``service_kind`` exactly as the spec prints them; nothing is renamed.

The order's own values (kinds and modes, places and units, capabilities, the create request,
the delivery) belong to the core, ``conversations.order``: they are the wire bodies, built there
with the wire names, and this module re-exports them beside what only the adapter needs (the
response envelopes, riders, cancel and assign bodies, the error envelope, webhook events, the
limits of listing and signing). This is the one place the rest of ``bot`` imports them from.

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

Of ``bot`` it imports only ``bot.partner.vocabulary``, the wire's own enumerations and fixed
strings (kept apart, free of pydantic, so the configuration reads them without building these
models).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from bot.partner.vocabulary import API_KEY_PREFIX as API_KEY_PREFIX
from bot.partner.vocabulary import DELIVERY_STATUSES as DELIVERY_STATUSES
from bot.partner.vocabulary import EVENT_TYPES as EVENT_TYPES
from bot.partner.vocabulary import LOOPBACK_HOSTS as LOOPBACK_HOSTS
from bot.partner.vocabulary import SIGNING_SECRET_PREFIX as SIGNING_SECRET_PREFIX
from bot.partner.vocabulary import EventType as EventType
from bot.partner.vocabulary import OtpReason as OtpReason
from bot.partner.vocabulary import RiderPresence as RiderPresence

# The order's values, owned by the core and spelled as the wire spells them: re-exported here,
# where every module of ``bot`` looks for them.
from conversations.order.base import RequestModel as RequestModel
from conversations.order.base import ResponseModel as ResponseModel
from conversations.order.business_capabilities import Capabilities as Capabilities
from conversations.order.business_capabilities import Coverage as Coverage
from conversations.order.business_capabilities import CuratedLink as CuratedLink
from conversations.order.business_capabilities import ErrandCapabilities as ErrandCapabilities
from conversations.order.business_capabilities import Features as Features
from conversations.order.business_capabilities import Organization as Organization
from conversations.order.business_capabilities import PaymentCollection as PaymentCollection
from conversations.order.business_capabilities import PodCapabilities as PodCapabilities
from conversations.order.business_capabilities import PublicRequest as PublicRequest
from conversations.order.business_capabilities import RateLimits as RateLimits
from conversations.order.delivery import Delivery as Delivery
from conversations.order.delivery import DeliveryCustomer as DeliveryCustomer
from conversations.order.delivery import DeliveryDropoff as DeliveryDropoff
from conversations.order.delivery import DeliveryPackage as DeliveryPackage
from conversations.order.delivery import DeliveryPayment as DeliveryPayment
from conversations.order.delivery import DeliveryPickup as DeliveryPickup
from conversations.order.delivery import DeliveryRider as DeliveryRider
from conversations.order.delivery import DeliveryTracking as DeliveryTracking
from conversations.order.fields import CAPABILITY_FIELDS as CAPABILITY_FIELDS
from conversations.order.fields import COORDINATE_FIELDS as COORDINATE_FIELDS
from conversations.order.fields import ERRAND_FIELD_MISSING as ERRAND_FIELD_MISSING
from conversations.order.fields import ERRAND_FIELDS as ERRAND_FIELDS
from conversations.order.fields import PAYMENT_FIELDS as PAYMENT_FIELDS
from conversations.order.fields import (
    PICKUP_DELIVERY_FIELD_MISSING as PICKUP_DELIVERY_FIELD_MISSING,
)
from conversations.order.fields import PICKUP_DELIVERY_FIELDS as PICKUP_DELIVERY_FIELDS
from conversations.order.fields import PLACE_FIELDS as PLACE_FIELDS
from conversations.order.fields import errand_budget_problem as errand_budget_problem
from conversations.order.fields import phone_problem as phone_problem
from conversations.order.kinds import CollectionMethod as CollectionMethod
from conversations.order.kinds import CoverageMode as CoverageMode
from conversations.order.kinds import DeliveryMode as DeliveryMode
from conversations.order.kinds import ErrandMode as ErrandMode
from conversations.order.kinds import LocationCategory as LocationCategory
from conversations.order.kinds import OpenCollectionMethod as OpenCollectionMethod
from conversations.order.kinds import OpenPackageSize as OpenPackageSize
from conversations.order.kinds import OpenRequestSource as OpenRequestSource
from conversations.order.kinds import OpenServiceKind as OpenServiceKind
from conversations.order.kinds import PackageSize as PackageSize
from conversations.order.kinds import PaymentTiming as PaymentTiming
from conversations.order.kinds import Plan as Plan
from conversations.order.kinds import PricingMode as PricingMode
from conversations.order.kinds import ServiceKind as ServiceKind
from conversations.order.kinds import UnitMode as UnitMode
from conversations.order.locations import Coords as Coords
from conversations.order.locations import LocationUnit as LocationUnit
from conversations.order.locations import ServiceLocation as ServiceLocation
from conversations.order.locations import UnitRange as UnitRange
from conversations.order.locations import Warehouse as Warehouse
from conversations.order.order_limits import CANCEL_REASON_LENGTH as CANCEL_REASON_LENGTH
from conversations.order.order_limits import IDEMPOTENCY_KEY_LENGTH as IDEMPOTENCY_KEY_LENGTH
from conversations.order.order_limits import MAX_ERRAND_LINKS as MAX_ERRAND_LINKS
from conversations.order.order_limits import MAX_PACKAGE_IMAGES as MAX_PACKAGE_IMAGES
from conversations.order.order_limits import PHONE_DIGITS as PHONE_DIGITS
from conversations.order.photos import is_image_url as is_image_url
from conversations.order.request import CreateDeliveryRequest as CreateDeliveryRequest
from conversations.order.request import ErrandLink as ErrandLink
from conversations.order.request import IdempotencyKey as IdempotencyKey
from conversations.order.request import PhoneText as PhoneText

# Limits from the spec's Limits table that only the adapter, its client and the sandbox use (the
# order's own are in ``conversations.order.order_limits``).
MAX_IMAGE_BYTES = 5 * 1024 * 1024
LIST_LIMIT_RANGE = (1, 50)
LIST_LIMIT_DEFAULT = 20
RADIUS_KM_RANGE = (0.0, 500.0)
WEBHOOK_TOLERANCE_SECONDS = 300
RIDER_GPS_FRESH_MINUTES = 30


# --- riders ----------------------------------------------------------------------------------


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
            except ValidationError:
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
