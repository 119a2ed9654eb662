"""The facts a customer is told about their delivery, each named by one word, so that no fact is
told twice: not by two events, nor by an event after the answer to the create.

A fact's word carries its value where the value may change (``rider:rdr_tunde``,
``fee:2600``): a new rider or a new fee is a new fact, the same one is not. The chat's link
keeps the words it was told (``bot.store.DeliveryLink.told``); the relay tells only what is
missing and adds the words once the messages are out.
"""

from __future__ import annotations

from conversations.order.delivery import Delivery

PAID = "paid"
"""The customer was told the fee is paid."""

CODE = "code"
"""The customer was given the drop-off code, or the link that hands it to the receiver."""

UNPRICED = "unpriced"
"""The delivery was created without a fee: the customer was told it would be set later (the
fee, once set, is put to them as a question: ``bot.relay.quote_question``)."""


def _amount(value: float) -> str:
    return f"{value:g}"


def rider(delivery: Delivery) -> str | None:
    """``rider:<id>`` for a delivery with a rider, else None."""
    return f"rider:{delivery.rider.id}" if delivery.rider is not None else None


def fee(delivery: Delivery) -> str | None:
    """``fee:<amount>`` for a delivery whose fee is set (above zero), else None."""
    amount = fee_amount(delivery)
    return None if amount is None else f"fee:{_amount(amount)}"


def quote(delivery: Delivery) -> str | None:
    """``quote:<amount>``: the customer was asked whether this fee is acceptable."""
    amount = fee_amount(delivery)
    return None if amount is None else f"quote:{_amount(amount)}"


def fee_amount(delivery: Delivery) -> float | None:
    """The delivery's fee when it is set (above zero), else None."""
    payment = delivery.payment
    if payment is None or payment.delivery_fee is None or payment.delivery_fee <= 0:
        return None
    return float(payment.delivery_fee)


def is_paid(delivery: Delivery) -> bool:
    """Whether the service has the delivery's fee marked paid."""
    payment = delivery.payment
    return payment is not None and (payment.delivery_payment_status or "").casefold() == "paid"


def told_by_create(delivery: Delivery, *, fee_said: bool) -> frozenset[str]:
    """The facts the answer to the create told: the rider when the delivery was matched at
    once, the fee when its amount was said (``fee_said``) or it was already paid, and the
    payment then; ``UNPRICED`` when it had no fee yet."""
    facts: set[str] = set()
    named_rider = rider(delivery)
    if delivery.status == "matched" and named_rider is not None:
        facts.add(named_rider)
    fee_told = fee(delivery)
    if fee_told is not None and (fee_said or is_paid(delivery)):
        facts.add(fee_told)
    if is_paid(delivery):
        facts.add(PAID)  # nothing is asked of a paid fee: a later "received" is no news
    if fee_amount(delivery) is None:
        facts.add(UNPRICED)
    return frozenset(facts)
