"""Return a parcel: a rider collects a parcel from the customer and brings it back to the
business, at its first usable warehouse.

The whole graph, in the order the customer meets it::

    return_to (answers itself: the first usable warehouse)
    pickup_place (+ unit / address / found place)
    sender_name ─ sender_phone ─ sender_email
    pickup_contact ─┬─ me
                    └─ someone else ─ pickup_contact_name ─ pickup_contact_phone
    package_description ─ package_size ─ photos ─ payment ─ summary ─> create

What the spec leaves open, and what this flow does about it:

* Which warehouse: ``features.maxWarehouses`` says only the first ones are usable; the flow
  takes the first listed warehouse within that limit that has a pin (its address and pin are
  copied, never geocoded). ``allowWarehouseDropoff`` is not needed: it governs a customer
  dropping a package *at* a warehouse (``deliveryMode`` ``warehouse``); a return is an
  ordinary pickup whose drop-off is the warehouse's address.
* Who receives it: the capabilities name the business and the warehouse but carry no phone,
  and ``receiverPhone`` is required. The receiver is named after the business's warehouse;
  the phone is the customer's own, so the rider (and a drop-off code, when the business
  requires one) reaches someone who knows about the parcel.
* It is a ``pickup_delivery`` as far as the service knows: no cash is collected on a return.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import JsonValue

from conversations import rules
from conversations.context import Context
from conversations.dialog import Option
from conversations.flow import Flow
from conversations.order.kinds import ServiceKind
from conversations.order.locations import Warehouse
from conversations.places import cut_address
from conversations.steps import (
    choice,
    package_photos,
    package_size,
    payment,
    pickup_contact,
    place_steps,
    sender,
    summary,
    text,
)
from conversations.steps.names import (
    PACKAGE_PHOTOS,
    PACKAGE_SIZE,
    PAYMENT,
    PICKUP_CONTACT,
    SENDER_NAME,
    SUMMARY,
)
from conversations.texts.said import said

KIND: ServiceKind = "pickup_delivery"
RETURN_TO = "return_to"
DESCRIPTION = "package_description"


SENDER = sender(next=PICKUP_CONTACT)
PICKUP = place_steps(
    "pickup",
    title=said("flows.title.pickup_place"),
    question=said("flows.return_parcel.pickup_question"),
    fields=("pickupAddress", "pickupCoords"),
    next=SENDER_NAME,
)


def return_warehouse(ctx: Context) -> Warehouse | None:
    """The first usable warehouse (within ``maxWarehouses``) that has a pin."""
    limit = ctx.caps.features.maxWarehouses
    rows = ctx.warehouses if limit is None else ctx.warehouses[: max(limit, 0)]
    return next((row for row in rows if row.coords is not None), None)


def destination(ctx: Context) -> list[Option]:
    row = return_warehouse(ctx)
    return [Option(id=row.id, label=f"{row.name}, {row.address}")] if row else []


def guard(ctx: Context) -> str | None:
    problem = rules.ordering_problem(ctx.catalogue, ctx.caps, KIND)
    if problem is None and return_warehouse(ctx) is None:
        return ctx.catalogue.say("flows.return_parcel.no_warehouse")
    return problem


def write_destination(ctx: Context, value: JsonValue) -> Mapping[str, object]:
    row = return_warehouse(ctx)
    customer = SENDER.result(ctx)
    if row is None or row.coords is None or row.id != value:
        return {}  # the warehouse changed: the summary asks again before anything is sent
    return {
        "deliveryAddress": cut_address(row.address),
        "deliveryCoords": row.coords,
        "receiverName": f"{ctx.caps.organization.name} — {row.name}"[:100],
        "receiverPhone": customer.phone if customer else "",
    }


RETURN_PARCEL = Flow(
    name="return_parcel",
    title=said("flows.return_parcel.title"),
    label=said("flows.return_parcel.label"),
    listed=True,
    command="return",
    version=1,
    start=RETURN_TO,
    guard=guard,
    service_kind=KIND,
    fixed={"deliveryMode": "pickup"},
    steps=(
        choice(
            RETURN_TO,
            title=said("flows.return_parcel.title.returned_to"),
            question=said("flows.return_parcel.returned_to_question"),
            options=destination,
            single=said("flows.return_parcel.returned_to_single"),
            fields=("deliveryAddress", "deliveryCoords", "receiverName", "receiverPhone"),
            write=write_destination,
            next=PICKUP.first,
        ),
        *PICKUP.steps,
        *SENDER.steps,
        *pickup_contact(next=DESCRIPTION).steps,
        text(
            DESCRIPTION,
            title=said("flows.return_parcel.title.parcel"),
            question=said("flows.return_parcel.description_question"),
            length=(2, 500),
            fields=("packageDescription",),
            next=PACKAGE_SIZE,
        ),
        package_size(question=said("flows.size_question"), next=PACKAGE_PHOTOS),
        package_photos(called=said("flows.called.parcel"), next=PAYMENT),
        *payment(kind=KIND, next=SUMMARY, cash_to_collect=False).steps,
        summary(heading=said("flows.return_parcel.summary")),
    ),
)
