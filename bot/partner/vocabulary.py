"""The Partner API's own plain vocabulary: its enumerations and fixed strings, with no pydantic.

The order's kinds and modes (service kinds, payment methods, unit modes ...) belong to the core,
``conversations.order.kinds``; what is here is the wire's alone (event types, statuses, rider
presence, key prefixes). ``bot.partner.models`` re-exports every name here and is where the rest
of the code imports them from. They live apart so that what needs only the words, above all the
configuration (``deliverybot check-config``), does not pay for building the API's models, or for
importing ``conversations``, at import.
"""

from __future__ import annotations

from typing import Literal

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
"""Hosts that only this machine reaches: the one place plain http is taken (local tests).

``conversations.order.photos`` holds the same set for the photo links an order may carry (the
configuration must start without importing ``conversations``); a test keeps the two equal."""
