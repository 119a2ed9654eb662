"""What the operators' console lists of a delivery (``bot.store.ListedDetails``), read off the
service's delivery: its fee and currency, its rider, the sender on the order, and its route
(where it is picked up and dropped off, for the rider on the map)."""

from __future__ import annotations

import math

from bot.store.listed_details import ListedDetails
from bot.store.rider_positions import Point
from conversations import delivery_facts
from conversations.order.delivery import Delivery


def listed_details(delivery: Delivery) -> ListedDetails:
    """``delivery``'s listed details; a fee not set yet (none, or zero) is None, and so is a
    place the service did not pin (``place``)."""
    payment, rider, customer = delivery.payment, delivery.rider, delivery.customer
    pickup, dropoff = delivery.pickup, delivery.dropoff
    return ListedDetails(
        fee=delivery_facts.fee_amount(delivery),
        currency=_text(payment.currency_code if payment else None),
        rider_id=rider.id if rider else None,
        rider_name=_text(rider.name if rider else None),
        customer_name=_text(customer.sender_name if customer else None),
        sender_phone=_text(customer.sender_phone if customer else None),
        pickup=place(pickup.latitude, pickup.longitude) if pickup else None,
        dropoff=place(dropoff.latitude, dropoff.longitude) if dropoff else None,
    )


def place(latitude: float | None, longitude: float | None) -> Point | None:
    """The point the service pinned, or None unless both coordinates are there and name a
    place on Earth: (0, 0), in the ocean, is what a missing pin reads as, never a place."""
    if latitude is None or longitude is None:
        return None
    if not (math.isfinite(latitude) and math.isfinite(longitude)):
        return None
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        return None
    if latitude == 0 and longitude == 0:
        return None
    return Point(latitude, longitude)


def _text(value: str | None) -> str | None:
    """``value`` without surrounding blanks; None for nothing at all."""
    stripped = (value or "").strip()
    return stripped or None
