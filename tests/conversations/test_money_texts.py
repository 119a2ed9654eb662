"""The fee in plain words: after a create the customer reads what to do about it, for each
payment method and timing, never that a payment was received, and nothing once it is paid."""

from __future__ import annotations

import itertools

import pytest

from bot.partner.models import Delivery
from conversations.services import OnlinePayment
from conversations.texts import money_texts
from tests.support.words import SHIPPED

METHODS = ("cash_on_delivery", "online_checkout")
TIMINGS = ("before_dispatch", "after_delivery", "off_platform")


def _delivery(**payment: object) -> Delivery:
    return Delivery.model_validate({"id": "dlv-1", "status": "pending", "payment": payment})


@pytest.mark.parametrize(("method", "timing"), list(itertools.product(METHODS, TIMINGS)))
def test_what_happens_next_for_every_method_and_timing(caps, method, timing):
    known = money_texts.after_create(
        SHIPPED,
        caps(paymentTiming=timing),
        _delivery(delivery_fee=2400, currency_code="GHS"),
        method,
    )
    unknown = money_texts.after_create(SHIPPED, caps(paymentTiming=timing), _delivery(), method)
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
    assert money_texts.after_create(SHIPPED, caps(), paid, "online_checkout") == []


def test_an_unpriced_delivery_does_not_invent_an_amount(caps):
    said = money_texts.after_create(
        SHIPPED,
        caps(paymentTiming="before_dispatch"),
        _delivery(delivery_fee=0),
        "cash_on_delivery",
    )
    assert said == [
        "Please have the delivery fee ready in cash for the rider at the pickup: they set off "
        "once it is paid."
    ]


def test_an_online_payer_is_told_how_to_pay_in_the_business_words(caps):
    online = OnlinePayment("Pay by bank transfer to Acme Ltd.", "https://pay.acme.example/{ref}")
    delivery = Delivery.model_validate(
        {"id": "3f2a9c1e-5b7d", "status": "pending", "payment": {"delivery_fee": 2400}}
    )
    said = money_texts.after_create(SHIPPED, caps(), delivery, "online_checkout", online)
    assert said[1:] == [
        "How to pay: Pay by bank transfer to Acme Ltd.",
        "Pay here: https://pay.acme.example/3F2A9C1E",
    ]
    # Cash payers, and a fee already paid, get none of it.
    assert len(money_texts.after_create(SHIPPED, caps(), delivery, "cash_on_delivery", online)) == 1
    paid = _delivery(delivery_fee=2400, delivery_payment_status="paid")
    assert money_texts.after_create(SHIPPED, caps(), paid, "online_checkout", online) == []
