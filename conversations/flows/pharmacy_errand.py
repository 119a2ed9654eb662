"""Pharmacy errand: a rider buys medicine at a pharmacy and brings it to the customer.

The whole graph, in the order the customer meets it::

    medicine ─ prescription ─ pharmacy_place (+ address / found place)
    dropoff_place (+ unit / address / found place)
    sender_name ─ sender_phone ─ sender_email ─ payment ─ summary ─> create

An errand bought at a place (``errandMode`` ``at_place``). Medicine is never swapped for
another and fits a small bag; an errand sends every errand field, so the ones not asked here
(no budget, no shop phone, no links) are fixed, empty. The customer is the receiver.
"""

from __future__ import annotations

from conversations import rules
from conversations.context import Context
from conversations.flow import Flow
from conversations.order.kinds import ServiceKind
from conversations.order.order_limits import MAX_PACKAGE_IMAGES
from conversations.steps import payment, photos, place_steps, sender, summary, text
from conversations.steps.names import PAYMENT, SENDER_NAME, SUMMARY
from conversations.steps.summary_step import fee_hints
from conversations.texts.said import said

KIND: ServiceKind = "errand"


def guard(ctx: Context) -> str | None:
    problem = rules.ordering_problem(ctx.catalogue, ctx.caps, KIND)
    if problem is None and "at_place" not in rules.errand_modes(ctx.caps):
        return ctx.catalogue.say("flows.pharmacy_errand.no_at_place")
    return problem


DROPOFF = place_steps(
    "dropoff",
    title=said("flows.title.dropoff_place"),
    question=said("flows.pharmacy_errand.dropoff_question"),
    fields=("deliveryAddress", "deliveryCoords"),
    next=SENDER_NAME,
)
PHARMACY = place_steps(
    "pharmacy",
    title=said("flows.pharmacy_errand.title.pharmacy"),
    question=said("flows.pharmacy_errand.pharmacy_question"),
    fields=("pickupAddress", "pickupCoords"),
    saved=False,
    next=DROPOFF.first,
)

PHARMACY_ERRAND = Flow(
    name="pharmacy_errand",
    title=said("flows.pharmacy_errand.title"),
    label=said("flows.pharmacy_errand.label"),
    listed=True,
    version=1,
    start="medicine",
    guard=guard,
    service_kind=KIND,
    fixed={
        "deliveryMode": "pickup",
        "packageSize": "small",
        "errandMode": "at_place",
        "errandLinks": [],
        "errandBudgetNgn": "",
        "errandSubstituteOk": False,
        "shopPhone": "",
        "pickupLocationUnknown": False,
    },
    steps=(
        text(
            "medicine",
            title=said("flows.pharmacy_errand.title.medicine"),
            question=said("flows.pharmacy_errand.medicine_question"),
            length=(2, 1000),
            fields=("packageDescription",),
            next="prescription",
        ),
        photos(
            "prescription",
            title=said("flows.pharmacy_errand.title.prescription"),
            question=lambda ctx: ctx.catalogue.say(
                "flows.pharmacy_errand.prescription_question", high=MAX_PACKAGE_IMAGES
            ),
            minimum=lambda ctx: 0,
            maximum=MAX_PACKAGE_IMAGES,
            fields=("packageImages",),
            next=PHARMACY.first,
        ),
        *PHARMACY.steps,
        *DROPOFF.steps,
        *sender(
            next=PAYMENT, phone_question=said("flows.errand.phone_question"), is_receiver=True
        ).steps,
        *payment(kind=KIND, next=SUMMARY, cash_to_collect=False).steps,
        summary(
            heading=said("flows.pharmacy_errand.summary"),
            hints=lambda ctx: fee_hints(ctx, customer_receives=True),
        ),
    ),
)
