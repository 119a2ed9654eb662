"""Money in plain words: the delivery fee as the service knows it, who pays it, when and how,
before the customer confirms and again, as what happens next, once the delivery is created.

What each sentence rests on (and no more, so nothing is promised that the service does not do):

* the fee: ``publicRequest.pricingMode`` and ``pricingAmountNgn`` before the create ("the amount
  may be shown when explaining fees" for ``fixed`` and ``starting_from`` only), and the created
  delivery's ``payment.delivery_fee`` after it, always with the currency;
* when: ``paymentTiming`` (``before_dispatch``: the rider may wait until the fee is paid;
  ``after_delivery``: collected later; ``off_platform``: settled outside the service);
* how: the chosen ``customerCollectionMethod`` (cash to the rider, or online). The capabilities
  carry no payment link, so online payers are told the business sends them how to pay, and
  what the business wrote in ``[payments]`` (its instructions, a link per delivery);
* who: the customer who orders. The service has no payer field; the order, and its fee, are
  theirs. Cash the rider collects *from the receiver* for the goods (POD) is said apart.

Cash is never followed by "paid before dispatch": cash before dispatch is paid to the rider who
collects the package. Nothing here says a payment was received: only the service's event for a
fee marked paid says that (relayed by ``bot.relay``).
"""

from __future__ import annotations

from conversations.order.business_capabilities import Capabilities
from conversations.order.delivery import Delivery
from conversations.order.kinds import CollectionMethod
from conversations.services import OnlinePayment
from conversations.texts.catalogue import Catalogue


def format_money(catalogue: Catalogue, amount: float, currency: str) -> str:
    """``NGN 1,500`` (minor units shown only when there are any), in the turn's locale."""
    return catalogue.money(amount, currency)


def fee_line(catalogue: Catalogue, caps: Capabilities) -> str:
    """The fee as the business shows it before an order is priced."""
    pricing = caps.publicRequest
    amount = catalogue.money(pricing.pricingAmountNgn, caps.currency)
    match pricing.pricingMode:
        case "fixed":
            return catalogue.say("money.fee_fixed", amount=amount)
        case "starting_from":
            return catalogue.say("money.fee_from", amount=amount)
        case "quote_on_review":
            return catalogue.say("money.fee_quoted")
        case _:
            return catalogue.say("money.fee_hidden")


_METHODS: dict[CollectionMethod, str] = {
    "cash_on_delivery": "cash",
    "online_checkout": "online",
}
_TIMINGS = frozenset({"before_dispatch", "after_delivery", "off_platform"})


def _by_method(kind: str, method: CollectionMethod | None, timing: str) -> str | None:
    """The id of ``money.<kind>.<method>.<timing>``, when the catalogue says that case."""
    if method is None or method not in _METHODS or timing not in _TIMINGS:
        return None
    return f"money.{kind}.{_METHODS[method]}.{timing}"


def paying_line(
    catalogue: Catalogue, caps: Capabilities, method: CollectionMethod | None
) -> str | None:
    """Who pays the fee, when and how, for the chosen ``method`` (None: not chosen yet)."""
    how = _by_method("how", method, caps.paymentTiming)
    if how is not None:
        return catalogue.say("money.you_pay", how=catalogue.say(how))
    if caps.paymentTiming in _TIMINGS:
        return catalogue.say(f"money.timing.{caps.paymentTiming}")
    return None


def summary_lines(
    catalogue: Catalogue, caps: Capabilities, method: CollectionMethod | None
) -> list[str]:
    """The money lines of the summary: the fee, then who pays it, when and how."""
    paying = paying_line(catalogue, caps, method)
    return [fee_line(catalogue, caps), *([paying] if paying else [])]


def after_create(
    catalogue: Catalogue,
    caps: Capabilities,
    delivery: Delivery,
    method: CollectionMethod,
    online: OnlinePayment | None = None,
) -> list[str]:
    """What the customer does about the fee now that the delivery exists (nothing once the
    service has it marked paid). The ``money.next.*`` messages take ``{it}`` and ``{It}``: the
    fee, named in full, or as "it" once its amount was said. An online payer is then told how
    to pay in the business's words (``online``: ``[payments]``), when it gave any."""
    payment = delivery.payment
    if payment is not None and (payment.delivery_payment_status or "").casefold() == "paid":
        return []
    lines = _next_step(catalogue, caps, delivery, method)
    if method == "online_checkout" and online is not None and lines:
        lines += _how_to_pay_online(catalogue, delivery, online)
    return lines


def _how_to_pay_online(
    catalogue: Catalogue, delivery: Delivery, online: OnlinePayment
) -> list[str]:
    lines = (
        [catalogue.say("money.online_how", how=online.instructions)] if online.instructions else []
    )
    if online.link:
        ref = delivery.id.split("-")[0].upper()
        lines.append(
            catalogue.say("money.online_link", link=online.link.format(ref=ref, id=delivery.id))
        )
    return lines


def _next_step(
    catalogue: Catalogue, caps: Capabilities, delivery: Delivery, method: CollectionMethod
) -> list[str]:
    payment = delivery.payment
    fee = payment.delivery_fee if payment is not None else None
    template = _by_method("next", method, caps.paymentTiming)
    if template is None:
        return []
    if fee is None or fee <= 0:
        return [
            catalogue.say(
                template,
                it=catalogue.say("money.the_fee"),
                It=catalogue.say("money.the_fee_capital"),
            )
        ]
    currency = (payment.currency_code if payment is not None else None) or caps.currency
    then = catalogue.say(
        template, it=catalogue.say("money.it"), It=catalogue.say("money.it_capital")
    )
    return [catalogue.say("money.fee_then", amount=catalogue.money(fee, currency), then=then)]
