"""Money in plain words: the delivery fee as the service knows it, who pays it, when and how,
before the customer confirms and again, as what happens next, once the delivery is created.

What each sentence rests on (and no more, so nothing is promised that the service does not do):

* the fee: ``publicRequest.pricingMode`` and ``pricingAmountNgn`` before the create ("the amount
  may be shown when explaining fees" for ``fixed`` and ``starting_from`` only), and the created
  delivery's ``payment.delivery_fee`` after it, always with the currency;
* when: ``paymentTiming`` (``before_dispatch``: the rider may wait until the fee is paid;
  ``after_delivery``: collected later; ``off_platform``: settled outside the service);
* how: the chosen ``customerCollectionMethod`` (cash to the rider, or online). The capabilities
  carry no payment link, so online payers are told the business sends them how to pay;
* who: the customer who orders. The service has no payer field; the order, and its fee, are
  theirs. Cash the rider collects *from the receiver* for the goods (POD) is said apart.

Cash is never followed by "paid before dispatch": cash before dispatch is paid to the rider who
collects the package. Nothing here says a payment was received: only the service's event for a
fee marked paid says that (relayed by ``bot.relay``).
"""

from __future__ import annotations

from bot.partner.models import Capabilities, CollectionMethod, Delivery


def format_money(amount: float, currency: str) -> str:
    """``NGN 1,500`` (kobo shown only when there are any)."""
    text = f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"
    return f"{currency} {text}"


def fee_line(caps: Capabilities) -> str:
    """The fee as the business shows it before an order is priced."""
    pricing = caps.publicRequest
    amount = format_money(pricing.pricingAmountNgn, caps.currency)
    match pricing.pricingMode:
        case "fixed":
            return f"Delivery fee: {amount}."
        case "starting_from":
            return f"Delivery fee: from {amount}; the final fee is set by distance."
        case "quote_on_review":
            return "Delivery fee: quoted by the team after they review your order."
        case _:
            return "Delivery fee: set by the business, not shown here."


# How and when the fee is paid, by method and ``paymentTiming``; "{it}" is the fee.
_PAYING: dict[tuple[CollectionMethod, str], str] = {
    ("cash_on_delivery", "before_dispatch"): "in cash to the rider when they collect the package",
    ("cash_on_delivery", "after_delivery"): "in cash to the rider once the package is delivered",
    ("cash_on_delivery", "off_platform"): (
        "in cash, directly to the business (not through this service)"
    ),
    ("online_checkout", "before_dispatch"): (
        "online before the rider sets off (the rider may wait until it is paid); the business "
        "will send you how to pay"
    ),
    ("online_checkout", "after_delivery"): (
        "online after the delivery; the business will send you how to pay"
    ),
    ("online_checkout", "off_platform"): (
        "directly to the business, outside this service; they will tell you how to pay"
    ),
}
_TIMING_ONLY = {
    "before_dispatch": "The fee is paid before the rider sets off: the rider may wait until it is.",
    "after_delivery": "The fee is collected after the delivery.",
    "off_platform": "The fee is settled directly with the business.",
}


def paying_line(caps: Capabilities, method: CollectionMethod | None) -> str | None:
    """Who pays the fee, when and how, for the chosen ``method`` (None: not chosen yet)."""
    how = _PAYING.get((method, caps.paymentTiming)) if method else None
    if how is not None:
        return f"You pay it {how}."
    return _TIMING_ONLY.get(caps.paymentTiming)


def summary_lines(caps: Capabilities, method: CollectionMethod | None) -> list[str]:
    """The money lines of the summary: the fee, then who pays it, when and how."""
    paying = paying_line(caps, method)
    return [fee_line(caps), *([paying] if paying else [])]


# What happens next after the create; "{it}" is the fee ("it" once its amount was said).
_NEXT: dict[tuple[CollectionMethod, str], str] = {
    ("cash_on_delivery", "before_dispatch"): (
        "Please have {it} ready in cash for the rider when they collect the package."
    ),
    ("cash_on_delivery", "after_delivery"): (
        "{It} is paid in cash to the rider once the package is delivered."
    ),
    ("cash_on_delivery", "off_platform"): "{It} is paid in cash, directly to the business.",
    ("online_checkout", "before_dispatch"): (
        "Next, pay {it} online before the rider sets off: the business will send you how to "
        "pay, and the rider may wait until it is paid."
    ),
    ("online_checkout", "after_delivery"): (
        "After the delivery, pay {it} online: the business will send you how to pay."
    ),
    ("online_checkout", "off_platform"): (
        "The business will tell you how to pay {it} directly to them."
    ),
}


def after_create(caps: Capabilities, delivery: Delivery, method: CollectionMethod) -> list[str]:
    """What the customer does about the fee now that the delivery exists (nothing once the
    service has it marked paid)."""
    payment = delivery.payment
    if payment is not None and (payment.delivery_payment_status or "").casefold() == "paid":
        return []
    fee = payment.delivery_fee if payment is not None else None
    template = _NEXT.get((method, caps.paymentTiming))
    if template is None:
        return []
    if fee is None or fee <= 0:
        sentence = template.format(it="the delivery fee", It="The delivery fee")
        return [sentence]
    currency = (payment.currency_code if payment is not None else None) or caps.currency
    amount = format_money(fee, currency)
    return [f"Delivery fee: {amount}. " + template.format(it="it", It="It")]
