"""Read-back: find the delivery a create made when its answer was lost.

The spec leaves the service's handling of a reused ``idempotencyKey`` "not shown", so a retry
with the same key may or may not return the first delivery. Before each retry the bot therefore
lists the newest deliveries (``GET /deliveries``, up to ``pages`` pages of 50) and looks for one
that is the same order: created through the API (``request_source`` ``api``), of the same
service kind, with the same package description, pickup and drop-off addresses, sender and
receiver phones, and created no earlier than ``since``. A delivery already linked to a chat
(``skip``) is someone's known order and never taken.

The list is read newest first, as the sandbox orders it (the spec does not say); paging stops
at the first page whose deliveries are all older than ``since``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Final

from bot.partner.client import PartnerClient
from bot.partner.models import LIST_LIMIT_RANGE, CreateDeliveryRequest, Delivery

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


async def find_created(
    client: PartnerClient,
    request: CreateDeliveryRequest,
    *,
    since: float,
    pages: int,
    skip: Callable[[str], Awaitable[bool]],
) -> Delivery | None:
    """The delivery ``request`` made, if the newest ``pages`` pages show one; raises
    ``PartnerError`` when the list cannot be read (then nothing can be concluded)."""
    cursor: str | None = None
    for _ in range(pages):
        page = await client.list_deliveries(limit=LIST_LIMIT_RANGE[1], cursor=cursor)
        for delivery in page.deliveries:
            if is_same_order(delivery, request, since) and not await skip(delivery.id):
                return delivery
        cursor = page.next_cursor
        older = [d for d in page.deliveries if d.created_at and d.created_at.timestamp() < since]
        if cursor is None or len(older) == len(page.deliveries):
            return None
    return None
