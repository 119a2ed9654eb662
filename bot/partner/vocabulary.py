"""The Partner API's plain vocabulary: its enumerations and fixed strings, with no pydantic.

``bot.partner.models`` re-exports every name here and is where the rest of the code imports
them from. They live apart so that what needs only the words, above all the configuration
(``deliverybot check-config``), does not pay for building the API's models at import.
"""

from __future__ import annotations

from typing import Literal

ServiceKind = Literal["pickup_delivery", "errand"]
DeliveryMode = Literal["pickup", "warehouse"]
ErrandMode = Literal["at_place", "link", "photo"]
PackageSize = Literal["small", "medium", "large"]
CollectionMethod = Literal["cash_on_delivery", "online_checkout"]
Plan = Literal["basic", "pro", "scale", "global"]
PaymentTiming = Literal["before_dispatch", "after_delivery", "off_platform"]
CoverageMode = Literal["worldwide", "selected_regions", "radius_from_hub"]
PricingMode = Literal["quote_on_review", "fixed", "starting_from", "hidden"]
LocationCategory = Literal["hostel", "building", "library", "gate", "landmark", "other"]
UnitMode = Literal["none", "free_text", "list"]
RiderPresence = Literal["available", "on_delivery", "unavailable", "not_in_app"]
OtpReason = Literal["payment", "resend"]
EventType = Literal[
    "delivery.created",
    "delivery.updated",
    "delivery.status_changed",
    "delivery.cancelled",
    "delivery.completed",
    "delivery.otp_issued",
]

# Open enums: the spec lists known values "or other string". Typed as ``str`` so an unknown value
# from a newer service parses; the known values are kept for callers that want to switch on them.
OpenServiceKind = str
OpenPackageSize = str
OpenCollectionMethod = str
OpenRequestSource = str

DELIVERY_STATUSES: tuple[str, ...] = (
    "awaiting_price",
    "pending",
    "matched",
    "picked_up",
    "in_transit",
    "delivered",
    "cancelled",
)
EVENT_TYPES: tuple[str, ...] = (
    "delivery.created",
    "delivery.updated",
    "delivery.status_changed",
    "delivery.cancelled",
    "delivery.completed",
    "delivery.otp_issued",
)

API_KEY_PREFIX = "sk_live_"
SIGNING_SECRET_PREFIX = "whsec_"  # noqa: S105 - a public prefix, not a secret

LOOPBACK_HOSTS: frozenset[str] = frozenset({"127.0.0.1", "localhost", "::1"})
"""Hosts that only this machine reaches: the one place plain http is taken (local tests)."""
