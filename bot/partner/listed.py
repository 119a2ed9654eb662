"""What the operators' console lists of a delivery (``bot.store.ListedDetails``), read off the
service's delivery: its fee and currency, its rider, the sender on the order."""

from __future__ import annotations

from bot.store.listed_details import ListedDetails
from conversations import delivery_facts
from conversations.order.delivery import Delivery


def listed_details(delivery: Delivery) -> ListedDetails:
    """``delivery``'s listed details; a fee not set yet (none, or zero) is None."""
    payment, rider, customer = delivery.payment, delivery.rider, delivery.customer
    return ListedDetails(
        fee=delivery_facts.fee_amount(delivery),
        currency=_text(payment.currency_code if payment else None),
        rider_id=rider.id if rider else None,
        rider_name=_text(rider.name if rider else None),
        customer_name=_text(customer.sender_name if customer else None),
        sender_phone=_text(customer.sender_phone if customer else None),
    )


def _text(value: str | None) -> str | None:
    """``value`` without surrounding blanks; None for nothing at all."""
    stripped = (value or "").strip()
    return stripped or None
