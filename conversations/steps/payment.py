"""How the delivery is paid, as a piece: the collection method the business allows (one allowed
method answers itself; with several, one is pre-set, see ``_preset_method``), then, where
cash-to-collect (POD) is allowed for the kind, the amount the rider collects from the receiver.
It hands back a ``Payment``."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, JsonValue

from conversations import rules
from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import Condition, Step, Target
from conversations.order.kinds import CollectionMethod, ServiceKind
from conversations.steps.choices import choice
from conversations.steps.common import Offer
from conversations.steps.names import PAYMENT, POD_AMOUNT
from conversations.steps.piece import Piece
from conversations.steps.typed import amount, amount_value
from conversations.texts.said import said
from conversations.texts.taps import tap

NO_CASH = said("steps.payment.no_cash")

MAX_POD = 5_000_000.0


class Payment(BaseModel):
    model_config = ConfigDict(frozen=True)

    method: CollectionMethod
    cash_to_collect: float | None = None


def payment_options(ctx: Context) -> list[Option]:
    methods = rules.payment_methods(ctx.caps)
    return [Option(id=m, label=rules.payment_label(ctx.catalogue, m, ctx.caps)) for m in methods]


def _method_named(ctx: Context, value: JsonValue) -> str:
    """The method by its label, offered or not: a summary shown again after the business
    switched a method off must not fall back to the raw value."""
    for method in rules.PAYMENT_LABELS:
        if method == value:
            return rules.payment_label(ctx.catalogue, method, ctx.caps)
    return "-"


# Pre-set for a first order when the business offers it beside others: cash, in person, asks
# nothing of the customer before the rider comes, and its label says who is paid and when.
FIRST_ORDER_METHOD: CollectionMethod = "cash_on_delivery"


def _preset_method(ctx: Context) -> str | None:
    """The method taken without asking (shown on the summary, changed there): a returning
    customer's method of their last order while still offered, else cash in person while
    offered; ``choice`` takes it only when it is offered and not the lone option."""
    known = ctx.session.remembered
    if known is not None and known.payment in rules.payment_methods(ctx.caps):
        return known.payment
    return FIRST_ORDER_METHOD


def _write_pod(ctx: Context, value: JsonValue) -> Mapping[str, object]:
    cash = amount_value(value)
    return {"isPODEnabled": True, "podAmount": cash} if cash else {}


def payment(*, kind: ServiceKind, next: Target, cash_to_collect: bool = True) -> Piece[Payment]:
    """The payment method (pre-set: a returning customer's last one while the business still
    offers it, else cash in person while offered; changed from the summary), then the cash to
    collect when ``cash_to_collect`` and the business allows POD for ``kind`` (never on
    errands): none, changed from the summary."""

    def pod_on(ctx: Context) -> bool:
        return cash_to_collect and rules.pod_allowed(ctx.caps, kind)

    method = choice(
        PAYMENT,
        title=said("steps.title.payment"),
        question=said("steps.payment.question"),
        options=payment_options,
        single=said("steps.payment.single"),
        empty=rules.SETTINGS_BROKEN,
        describe=_method_named,
        preset=_preset_method,
        fields=("customerCollectionMethod",),
        next=POD_AMOUNT if cash_to_collect else next,
    )
    steps: tuple[Step, ...] = (method,)
    if cash_to_collect:
        steps += (
            amount(
                POD_AMOUNT,
                title=said("steps.title.cash_to_collect"),
                question=lambda ctx: ctx.catalogue.say(
                    "steps.payment.cash_question",
                    currency=ctx.caps.currency,
                    no=tap(NO_CASH.render(ctx.catalogue)),
                ),
                none_option=Offer("none", NO_CASH),
                none_preset=True,
                maximum=MAX_POD,
                when=Condition("POD is enabled", pod_on),
                fields=("isPODEnabled", "podAmount"),
                write=_write_pod,
                next=next,
            ),
        )

    def result(ctx: Context) -> Payment | None:
        chosen = ctx.answers.option(PAYMENT)
        methods: dict[str, CollectionMethod] = {m: m for m in rules.payment_methods(ctx.caps)}
        if chosen not in methods:
            return None
        cash = ctx.answers.number(POD_AMOUNT) if pod_on(ctx) else None
        return Payment(method=methods[chosen], cash_to_collect=cash)

    return Piece(steps, PAYMENT, result)
