"""The fee in plain words: after a create the customer reads what to do about it, for each
payment method and timing, never that a payment was received, and nothing once it is paid."""

from __future__ import annotations

import itertools

import pytest

from bot.partner.models import Delivery
from conversations.texts import money_texts

METHODS = ("cash_on_delivery", "online_checkout")
TIMINGS = ("before_dispatch", "after_delivery", "off_platform")


def _delivery(**payment: object) -> Delivery:
    return Delivery.model_validate({"id": "dlv-1", "status": "pending", "payment": payment})


@pytest.mark.parametrize(("method", "timing"), list(itertools.product(METHODS, TIMINGS)))
def test_what_happens_next_for_every_method_and_timing(caps, method, timing):
    known = money_texts.after_create(
        caps(paymentTiming=timing), _delivery(delivery_fee=2400, currency_code="GHS"), method
    )
    unknown = money_texts.after_create(caps(paymentTiming=timing), _delivery(), method)
    assert len(known) == len(unknown) == 1
    assert known[0].startswith("Delivery fee: GHS 2,400. ")  # the service's fee, its currency
    assert "the delivery fee" in unknown[0].casefold()
    for said in (known[0], unknown[0]):
        assert "received" not in said
        assert ("cash" in said) == (method == "cash_on_delivery")
        if method == "cash_on_delivery":
            assert "before dispatch" not in said
        if method == "online_checkout" and timing != "off_platform":
            assert "the business will send you how to pay" in said


def test_nothing_to_pay_once_the_fee_is_marked_paid(caps):
    paid = _delivery(delivery_fee=1500, delivery_payment_status="paid")
    assert money_texts.after_create(caps(), paid, "online_checkout") == []


def test_an_unpriced_delivery_does_not_invent_an_amount(caps):
    said = money_texts.after_create(
        caps(paymentTiming="before_dispatch"), _delivery(delivery_fee=0), "cash_on_delivery"
    )
    assert said == [
        "Please have the delivery fee ready in cash for the rider at the pickup: they set off "
        "once it is paid."
    ]
