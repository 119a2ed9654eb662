"""Whether a delivery is what a create request would have made: the same order.

The spec echoes no client reference or idempotency key in a delivery, so the order's content is
what is compared: created through the API (``request_source`` ``api``), of the same service
kind, with the same package description, pickup and drop-off addresses, sender and receiver
phones, and created no earlier than a given moment. The follow-up of lost creates reads back
with it (``bot.ordering.lost_create_lookup``), and the relay holds an event whose delivery a
create still open may have made (``bot.relay.open_creates``); it stands here, on the wire
models both read, so that neither imports the other.
"""

from __future__ import annotations

import re
from typing import Final

from bot.partner.models import CreateDeliveryRequest, Delivery

#: A delivery the service stamped up to this long before the bot first sent the create still
#: counts as that create's (the two clocks differ).
CLOCK_SKEW_SECONDS: Final = 120.0

_SPACES = re.compile(r"\s+")
_NON_DIGITS = re.compile(r"\D")
# Fewer digits than this cannot tell two phone numbers apart.
_MIN_PHONE_DIGITS = 7


def _text(value: str | None) -> str:
    return _SPACES.sub(" ", value or "").strip().casefold()


def _digits(phone: str | None) -> str:
    # The national trunk zero goes: 0803... and +234803... are the same number.
    return _NON_DIGITS.sub("", phone or "").lstrip("0")


def same_phone(written: str | None, stored: str | None) -> bool:
    """Whether two ways of writing a phone number name the same number: the digits of one end
    with the other's (country code and trunk zero aside)."""
    a, b = sorted((_digits(written), _digits(stored)), key=len)
    if not a:
        return not b
    return len(a) >= _MIN_PHONE_DIGITS and b.endswith(a)


def is_same_order(delivery: Delivery, request: CreateDeliveryRequest, since: float) -> bool:
    """Whether ``delivery`` is what ``request`` would have created at or after ``since``."""
    if delivery.request_source != "api" or delivery.service_kind != request.serviceKind:
        return False
    if delivery.created_at is not None and delivery.created_at.timestamp() < since:
        return False
    package, pickup, dropoff = delivery.package, delivery.pickup, delivery.dropoff
    customer = delivery.customer
    if package is None or pickup is None or dropoff is None or customer is None:
        return False
    return (
        _text(package.description) == _text(request.packageDescription)
        and _text(pickup.address) == _text(request.pickupAddress)
        and _text(dropoff.address) == _text(request.deliveryAddress)
        and same_phone(request.senderPhone, customer.sender_phone)
        and same_phone(request.receiverPhone, customer.receiver_phone)
    )
